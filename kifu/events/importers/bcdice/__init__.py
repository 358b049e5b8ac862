"""BCDice result strings, as CCFOLIA, Udonarium and the Discord bots copy them into chat.

Source: bcdice/BCDice at commit 98145305 (``lib/bcdice/base.rb``, ``common_command/``,
``game_system/``) and its test data, ../shared/reference/online-logs.md §3. A result
reads ``(<echo>) ＞ <step> ＞ … ＞ <last>``: the echo is the normalised command, the
steps show the dice in a form that depends on the command (``8[5,3]``, ``3,4``,
``5,2,11[6,5]``, ``4,3 + 3,5``, ``92, 52``, ``35``), the last step is the total or
an outcome word. Repeats come as ``#n`` blocks. A secret roll looks exactly like a
public one; only a client marker or the typed ``S`` prefix tells.

The reader is right or says so: every face it returns is proved by the text and
the command (count, range, sums, the reroll queue, the D66 digit order); where the
text shows only the sum of several dice (a 2D6 table) it returns the sum, never faces;
where the text does not prove the dice (an unknown system's command, a die the typed
command may have fixed) the roll carries a ``problem`` and no faces, and the importer
reports it. Modules: ``text`` cuts messages into blocks, ``common`` reads BCDice's
common commands, ``systems`` picks the reader of a particular game system's form
(``forms`` for systems' own commands, ``tables`` for tables and which system a table
name tells, ``log_horizon`` and ``skills`` for two families of them), ``errors`` the
texts BCDice answers without rolling, ``settings`` says which systems sort their dice,
``roll`` holds the result; ``make_tables`` writes the data files from a BCDice checkout.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from pathlib import Path

from ...i18n import Msg
from . import common, errors, shapes, systems, tables
from .roll import Roll, make
from .settings import settings
from .text import FLY_SEP, SEP, Block, ascii_steps, blocks, typed_command

__all__ = [
    "SEP",
    "Roll",
    "close_systems",
    "dice_of_command",
    "game_system",
    "is_hidden_marker",
    "looks_like_command",
    "maybe_result",
    "normalise",
    "parse",
    "typed_secret",
]

_HIDDEN = ("シークレットダイス", "[Secret Dice]", "秘密ダイス")
_DICE = re.compile(r"(?<!\d)(\d*)[DU](\d+)", re.I)  # starts only where a number starts: linear
# The first word of a typed roll: dice, a choice, or a system check such as CCB<=50 or RES(10-5).
_COMMAND_HEAD = re.compile(r"s?(?:x\d+|rep\d+)?(?:\d*[du]\d+|choice[\[(]|[a-z]{1,6}(?:(?:<=|>=|<|>)\d|\(\d))", re.I)
_MAY_START_SECRET = frozenset("sSｓＳxXｘＸrRｒＲ")
_REPEAT_WORD = re.compile(r"(?:x|rep|repeat)\d+", re.I)
# After a secret "S", without an echo that settles it: one of BCDice's common commands (dice,
# D66, choice, repeat, B/R/U/tally dice, calc) or Cthulhu's checks (with a bonus or penalty: sCC-1<=70, sCC1<=70), the secret rolls players make
# most. Anything else may be a system command that itself starts with S (Satasupe's SR7).
_AFTER_S = re.compile(r"\d|\(|D\d|CHOICE|X\d|REP|C[(\d-]|(?:CCB?|RESB?|CBRB?)(?:[+-]?\d{1,3})?(?:\(|<|>|=|$)", re.I)
# SwordWorld's rating echoes as "KeyNo.20c[10]": a typed S before its K, HK, OHK or DBK is the prefix.
_RATING = re.compile(r"S(?:H|OH|DB)?K\d", re.I)


_IDS: dict[str, str] | None = None


def game_system(name: str) -> str | None:
    """The BCDice game system id ``name`` spells (``cthulhu7th`` → ``Cthulhu7th``), or None when
    BCDice has no such system (``game_systems.json``, written by ``make_tables.py``)."""
    global _IDS
    if _IDS is None:
        ids = json.loads(Path(__file__).with_name("game_systems.json").read_text(encoding="utf-8"))
        _IDS = {i.casefold(): i for i in ids}
    return _IDS.get(name.strip().casefold())


def close_systems(name: str) -> list[str]:
    """Game system ids spelled like ``name`` (for an error message)."""
    game_system("")
    assert _IDS is not None
    return [_IDS[k] for k in difflib.get_close_matches(name.strip().casefold(), list(_IDS), n=3, cutoff=0.6)]


def normalise(text: str) -> str:
    """Half-width, no spaces, upper-case: how two spellings of a command are compared."""
    return "".join(unicodedata.normalize("NFKC", text).split()).upper()


def parse(
    text: str, system: str | None = None, bot: bool = False, command: str | None = None
) -> tuple[str, list[Roll]]:
    """Every BCDice result in a message: (the text before the first one, the rolls).

    ``system`` is the game system id the source records (Udonarium's tag); a bot's
    ``Cthulhu7th:`` prefix names it too. ``command`` is what the roller typed where the
    source keeps it apart (the message a Udonarium result answers, CCFOLIA JSON's text);
    else the text before the result on its line is taken for it (CCFOLIA's classic page).
    Some answers depend on it: LogHorizon's ``PCT1$5`` prints a die it did not roll.
    Blocks that are not BCDice's own form and that no reader takes stay text (a chat
    line with a ``＞`` in it), except in a bot's answer (``bot``), where every block is a
    result and comes back, read or not.
    """
    typed = typed_command(command) if command is not None else None
    try:
        whole = systems.read_message(text, system, typed)
    except ValueError:
        whole = None  # a number too long for int(): read block by block, where it is reported
    if whole is not None:
        return whole
    lead = errors.nothing_rolled(text, tables.family(system)) if bot or text[:1].isascii() else None
    if lead is not None:
        block = Block(
            lead=lead, text=text.strip()[len(lead) :].strip(), name="", echo=None, suffix="", head="", steps=()
        )
        return lead, [make(block, "other", certain=True)]  # an error text: BCDice rolled nothing
    if bot:
        text = ascii_steps(text)  # "(1AD) > [1] > 0成功": a few systems print ASCII arrows
    if SEP not in text and FLY_SEP not in text:
        return text.strip(), []  # the common case of a chat line: no result can be in it
    lead, found = blocks(text)
    if typed is None and found and found[0].lead:
        typed = typed_command(found[0].lead)
    rolls: list[Roll] = []
    for b in found:
        roll = read_block(b, b.system or system, typed)
        if roll.kind == "other" and roll.problem and not roll.certain and not bot:
            if not rolls:
                lead.append(b.text)
            continue
        rolls.append(roll)
    return " ".join(lead), rolls


def read_block(block: Block, system: str | None, typed: str | None = None) -> Roll:
    """One block read by its system's reader, else as a common command, else unread with a reason."""
    if system is None and (block.name or block.echo is None):
        block, system = tables.owner(block)  # a table name only one system prints tells the system
    st = settings(system)
    try:
        roll = systems.read(block, system, st, typed)
        if roll is None:  # no reader of the system's own forms claims it (those refuse on purpose)
            roll = common.read(block, st)
            if roll is None or (roll.kind == "other" and roll.problem):
                roll = shapes.read(block, system, typed) or roll  # a form BCDice's own tests vouch for in this system
    except ValueError:
        # int() refuses numbers of more than 4,300 digits (a hostile line); no die has such a face
        return make(block, "other", problem=Msg("bcdice.number_too_long"), certain=True)
    if roll is None:
        certain = block.echo is not None and (block.echo.isascii() and " " not in block.echo.strip())
        roll = make(block, "other", problem=Msg("bcdice.unknown_form"), certain=certain)
    return roll


_COMMAND_WORD = re.compile(r"[A-Za-z0-9(\-][\x21-\x7e]*")
_FACE_LIST = re.compile(r"\[\d+,\d")


def maybe_result(text: str) -> bool:
    """A player's line that may hold a BCDice answer kifu could not read: an ASCII first word
    (a command) followed by a ``＞``; or a first word with a digit, three or more capitals, or
    a capital and a number after it.

    CCFOLIA's classic page puts the answer after the typed command with nothing to mark it,
    and systems print answers in forms of their own (``TAGT タグ決定表:53:…``); such a line
    is reported so that nothing is lost silently, at the price of flagging an odd chat line.
    """
    head = text.lstrip()[:1]
    if not head or not (head.isascii() or "\uff01" <= head <= "\uff5e" or head == "∞"):
        return False  # a chat line starting with Japanese text: no command word (the common case, kept cheap)
    words = unicodedata.normalize("NFKC", text).split(maxsplit=1)
    if len(words) < 2:
        return False
    first, rest = words
    if SEP in text and any(c.isascii() and c.isalnum() for c in first):
        return True  # "∞D66 (∞D66) ＞ …", "D[火災]/2 D[火災]/2 ＞ …": a command with a symbol of its own
    if not _COMMAND_WORD.fullmatch(first) or (_REPEAT_WORD.fullmatch(first) and len(rest.split()) == 1):
        return False  # "x2 2d6" is a repeat typed without its answer (a Discord user's line)
    if any(c.isdigit() for c in first) or "->" in rest or "=>" in rest or _FACE_LIST.search(rest):
        return True
    capitals = any(c.isupper() for c in first)
    return capitals and ((len(first) >= 3 and first.isupper()) or any(c.isdigit() for c in rest))


def typed_secret(command: str, echo: str | None = None) -> bool:
    """True when the typed command has BCDice's secret prefix (``S1D6``, ``Schoice[…]``, ``x3 S2D6``).

    A leading S is the prefix when the rest is a command: the echo tells where it can
    (``SSG`` echoed ``SG@12#2``; ``SG`` echoed the same is no secret), else the rest
    must start like one (dice, a choice, letters followed by an operand).
    """
    if command.lstrip()[:1] not in _MAY_START_SECRET:
        return False  # the common case: no S (nor a repeat word carrying one) in front
    words = unicodedata.normalize("NFKC", command).split()
    if len(words) > 1 and _REPEAT_WORD.fullmatch(words[0]):
        words = words[1:]  # "x5 s1D6": the repeated command carries the S
    c = words[0].upper() if words else ""
    if len(c) < 2 or c[0] != "S":
        return False
    if echo and "KeyNo." in echo and _RATING.match(c):
        return True
    if echo:
        e = normalise(echo).lstrip("0123456789")
        letters = re.match(r"[A-Z]+", e)
        if letters and len(letters.group()) > 1:
            if c.startswith(letters.group()):
                return False
            if c[1:].startswith(letters.group()):
                return True
    return bool(_AFTER_S.match(c[1:]))


def looks_like_command(text: str) -> bool:
    """True when a message starts with a dice command."""
    first = unicodedata.normalize("NFKC", text).strip().split(maxsplit=1)
    return bool(first) and bool(_COMMAND_HEAD.fullmatch(first[0]) or _COMMAND_HEAD.match(first[0]))


def is_hidden_marker(text: str) -> bool:
    """True for the placeholder a client shows for an unopened secret roll."""
    return any(m in text for m in _HIDDEN)


def dice_of_command(command: str) -> tuple[str, int]:
    """(kind, sides) of a typed command whose result is hidden: ``('die', 6)`` for ``S2D6``."""
    c = unicodedata.normalize("NFKC", command).strip().split(maxsplit=1)[0] if command.strip() else ""
    m = re.search(r"choice\[(.*)\]", c, re.I)
    if m:
        return "choice", len(m.group(1).split(","))
    d = _DICE.search(c)
    return ("die", int(d.group(2))) if d else ("die", 0)
