"""Result forms that BCDice's own tests vouch for, system by system: the long tail of its 346 systems.

Source: BCDice's test data (``test/data/<System>.toml`` at commit 98145305: each command, its
exact answer and the dice rolled), read by ``make_shapes.py`` into ``shapes.json``.

Each of BCDice's systems prints its own commands in its own words, but the dice in the answer
stand in a handful of **forms** shared across systems: a face list in brackets after a total
(``(2D6+1[11,3]) ＞ 6[2,4]+1 ＞ 7``, ``(MS>=7) ＞ [4,5,6] ＞ 11``), a bare comma list
(``(ATTACK2@3<=5) ＞ 3,4,6 ＞ …``), one face alone (``D100<=50@10 ＞ 11 ＞ 成功``), a value in
the head (``反応表(41)``, ``射撃ダメージペナルティー表[17]``), read as the faces themselves, as a
D66's two digits or as the sum of several dice. The grammar grows by these forms, not by system.

What the text alone cannot prove is that a system's command rolls nothing it does not show
(MagicaLogia's ``時の流れ表`` rolls three dice and prints none). That is vouched for by the tests,
and the vouching must hold for commands no test typed, so it reads fewer rather than wrong
(``make_shapes.py`` measures it on tests it did not see; bench/bench_bcdice.py ``--shapes``):

* a result's **key** is its shape (its text without numbers and operators: ``(2D6+1>=5[11,3])``
  → ``(D[,])``; a table's name), for a table's value the command as typed with its numbers as ``#``
  and its letters as ``A`` (``FT`` rolls 因果表's value, ``FT45`` fixes it; a table whose command is
  unknown is not read, nor is any result whose typed command the export does not keep: a Discord
  bot's answer), and the answer's **skeleton**, the kind of each step (``b.n.t``: an answer
  that goes on another way, a reroll, a second table, a die written in a table's text, may roll
  dice the form does not see);
* a key is read in a form only when every test of it in that system is that form's dice, exactly
  (count, sides, nothing more), and at least two are (one where the answer writes its dice out,
  ``(5D12) ＞ 52[10,12,11,10,9]``); a form whose count neither it nor the command fixes needs three;
* dice are read in order only where the tests prove the answer does not sort them, else as a
  multiset (the roll is marked unordered);
* at reading, the dice read must be those the result writes out (``1D6(Block:1) ＞ 6 ＞ 6`` is one
  die), a form reading one number refuses a result showing faces in brackets, and a table's value
  the command could have fixed (every number of the head typed) is taken for rolled nothing only
  then;
* a system one of whose tables rolls dice it does not show (``hiding``) has its tables read only
  on three tests.

Where the export records no system (a CCFOLIA page), a key is read only when every system
whose tests hold that key reads it the same way.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

from ...i18n import Msg
from .roll import Dice, Roll, make
from .text import Block

DATA = Path(__file__).with_name("shapes.json")

# Where the numbers of a form stand in a result.
SOURCES = (
    "step-single",
    "step-number",
    "step-first",
    "step-all",
    "step-list",
    "steps-lists",
    "step-brackets",
    "all-brackets",
    "step-parens",
    "step-dice",
    "step-sided",
    "head",
    "head-first",
    "arrow",
)
"""``step-single``: the first step is one number (``＞ 11 ＞``); ``step-number``: one number after
steps that only echo a command (``(CDB>=6) ＞ (1D10>=6) ＞ 6 ＞ 成功``); ``step-first``: the first
number of the first step (``19+5``, ``出目：4＋1``); ``step-all``: every number of the first step, in
order (``出目：6、1``, ``1,3：教室``, ``[ 3, 4, 6, 6 ]``); ``step-list``: the first step is a
list of numbers (``＞ 3,4,6 ＞``, ``＞ 92, 52 ＞``); ``steps-lists``: the numbers of every step from the
first while each is a number or a list (rerolls shown step by step: ``＞ 1,5,6,7,10 ＞ 10 ＞ 6 ＞``);
``step-dice``: every ``NdS[…]`` of the first step that holds one, whose sides it names
(``1d12[5]+2d8[5,5]``, ``D10[6,5,1],D8[2,2]``); ``step-brackets``: every ``[…]`` list of numbers
in the first step that holds one (``6[2,4]+1``, ``[1,2,6,8]+[2,10]``, ``12[2,2][3,5]+10``);
``all-brackets``: every ``[…]`` list of every step (``6[6] ＞ 6 ＞ クリティカル！ ＞ 6+4[4]``);
``step-parens``: every ``(…)`` list in the first step (``2(1,1)+3``); ``step-sided``: every face
followed by its sides in the first step (``2(8)+3(6)``); ``head``: the numbers in ``(…)`` or
``[…]`` of the head (``反応表(41)``, ``掘り出し袋表[8,5]``); ``head-first``: the first number in
the head's ``(…)`` or ``[…]`` (``腕部CT表(26+5)``: the roll before its modifier); ``arrow``: every
die the head writes out with its face after an arrow, its sides named (``マイナス値:1 + 1D10(->7) = 8``:
one d10 that showed 7; a count above one is a sum, not read)."""
RELATIONS = ("faces", "d66", "tens-ones", "sum", "sum0")
"""``faces``: each number is one die; ``d66``: each number the two d6 of a D66 (tens first);
``tens-ones``: each number a d100 rolled as two d10, tens then ones (a 0 is a die showing 10);
``sum``: one number, the sum of a fixed number of dice (kept as a sum, never as faces); ``sum0``: the
same of dice each read one less, 0 to sides − 1 (Gundog's ``[17]`` of two d10 that showed 10 and 9:
kept as the sum of the faces rolled, 19).

The sides of a face are fixed by the tests (``sides``: a number), or read from the dice the
echo names in order (``sides: "echo"``: ``(1D12+6D6)``), or from the form itself (``step-dice``)."""

_SHAPE_DROP = re.compile(r"[\d\s+\-*/<>=?!.,:;#]+")
_NUMS = re.compile(r"-?\d{1,6}(?:, ?-?\d{1,6})*")
_BRACKETS = re.compile(r"\[ ?(-?\d{1,6}(?:, ?-?\d{1,6})*) ?\]")
_PARENS = re.compile(r"\((-?\d{1,6}(?:, ?-?\d{1,6})*)\)")
_HEAD = re.compile(r"[(\[](-?\d{1,6}(?:, ?-?\d{1,6})*)[)\]]")
_INT = re.compile(r"-?\d{1,6}")
_NUMBER = re.compile(r"(?<!\d)-?\d{1,6}(?!\d)")
_FIRST = re.compile(r"[^\d+\-]{0,12}\d{1,6}(?: ?[+\-] ?\d{1,6})*")  # a label, one face, modifiers: 出目：4+1
_ALL = re.compile(r"[^\d+\-]{0,12}\d{1,6}(?: ?[,、] ?\d{1,6})*[^\d+\-]{0,200}")  # a label, a list, text
_LISTS = ("step-brackets", "all-brackets", "step-dice")
"""Sources that read the face lists in brackets; any other refuses a result that shows such a list."""
_SIDED = re.compile(r"(?<![\d\]])(\d{1,4})\((\d{1,4})\)")
_HEAD_FIRST = re.compile(r"[(\[](\d{1,6})[+\-]\d{1,6}[)\]]")
_STEP_DICE = re.compile(r"(?<![A-Za-z])(\d{0,3})[dD](\d{1,4})\[(\d{1,6}(?:, ?\d{1,6})*)\]")
_ARROW = re.compile(r"(?<![A-Za-z\d])(\d{0,3})[dD](\d{1,4})\(->(\d{1,6})\)")
_ECHO_STEP = re.compile(r"\([^()]{1,200}\)")  # a step that only echoes a command: (1D10>=6)
_ECHO_DICE = re.compile(r"(?<![A-Z])(\d{0,3})[DBRU](\d{1,4})(?![A-Z\d])")


def shape(block: Block) -> str:
    """The block's command without its numbers and operators: what its tests vouch for.

    ``(2D6+1>=5[11,3])`` → ``(D[])``, ``D100<=50@10`` → ``D@``, ``反応表(41)`` → ``反応表()``.
    A table keeps its name; brackets and letters stay, since they tell commands apart."""
    if block.name:
        # a name of several words (Korean: 병행 세계 장면 표) is cut at its last space: take back the
        # words before it that hold no ASCII letter or digit (a typed command does)
        words = block.lead.split()[-4:]
        while words and any(c.isascii() and c.isalnum() for c in words[0]):
            words.pop(0)
        head = " ".join([*words, block.name]) + "(" + (block.echo or "") + ")"
    elif block.echo is not None:
        head = "(" + block.echo + ")" + block.suffix
    else:
        head = block.head
    text = unicodedata.normalize("NFKC", head)[:120].upper()
    return _SHAPE_DROP.sub("", text)


_DIGITS = re.compile(r"\d+")
_LETTERS = re.compile(r"[A-Z]+")


def typed_shape(typed: str) -> str:
    """The typed command with each run of digits as ``#`` and of letters as ``A``: ``FT45`` → ``A#``,
    ``FT`` → ``A``, ``(4-3)WW12`` → ``(#-#)A#``.

    Whether a number was typed, and where, tells commands apart that print alike (``FT`` rolls
    因果表's value, ``FT45`` fixes it; ``CRITICALT=5`` fixes クリティカル表's). The letters do not:
    what they name is printed (the table's name, the echo), and a system's aliases (``ST``,
    ``SCENE``, a secret ``SST``) print the same."""
    return _LETTERS.sub("A", _DIGITS.sub("#", unicodedata.normalize("NFKC", typed[:60]).upper()))


_STEP_NUMBER = re.compile(r"[+-]?\d{1,9}")
_STEP_LIST = re.compile(r"\d{1,9}(?:, ?\d{1,9})+")
_NOTATION = re.compile(r"(?<![A-Z])\d{0,3}D\d{1,4}")
MAX_STEPS = 24
"""Steps of an answer its skeleton spells out; a longer answer has a skeleton of its own."""


def step_kind(step: str) -> str:
    """``n`` a number, ``l`` a list of numbers, else the marks of what the step holds: ``b`` a list in
    brackets (``6[2,4]+1``), ``p`` numbers in parentheses (``選択(2,7)``), ``d`` a die written out
    (``活動年数：2D6×10``); ``t`` text with none of these."""
    s = unicodedata.normalize("NFKC", step[:300])
    if _STEP_NUMBER.fullmatch(s):
        return "n"
    if _STEP_LIST.fullmatch(s):
        return "l"
    marks = "b" if _BRACKETS.search(s) else ""
    marks += "p" if _PARENS.search(s) else ""
    marks += "d" if _NOTATION.search(s.upper()) else ""
    return marks or "t"


def skeleton(block: Block) -> str:
    """The kinds of the answer's steps (``b.n.t`` for ``＞ 8[3,5] ＞ 8 ＞ 成功``): an answer that goes
    on in another way than the tests showed (a reroll, a second table, a die in a table's text) may
    roll dice the form does not see."""
    if len(block.steps) > MAX_STEPS:
        return f"{len(block.steps)} steps"
    return ".".join(step_kind(s) for s in block.steps)


_MODIFIER = re.compile(r"[+\-]#(?![A(#])")
"""A modifier in a typed shape (``+#``, not ``+#A#``: a die added)."""
ECHOED = "="
"""The typed part of the key of a result that echoes its command: the echo says what was typed."""


def key(block: Block, typed: str | None) -> str:
    """What BCDice's tests must vouch for before a result is read: the shape, the typed command and the
    answer's skeleton (``反応表()|A#|t``). A result that echoes its command (``(CF+3) ＞ …``, no table
    name) is keyed by the echo, its shape: BCDice wrote it from what was typed, numbers dropped as the
    typed ones are, so ``CF+3`` is vouched for by the tests of ``CF`` and ``CF+10``. A table's value
    is no echo: what was typed tells a rolled value from a fixed one (``FT`` and ``FT45``)."""
    if not typed:
        part = "?"  # BCDice may have rewritten what was typed (OM+8 echoes 2D10<=8 and sorts): unknown, unread
    else:
        part = typed_shape(typed)
        echo = block.echo.split(" ", 1)[0] if block.echo is not None and not block.name else None
        if echo is not None and _MODIFIER.sub("", part) == _MODIFIER.sub("", typed_shape(echo)):
            part = ECHOED  # CF+2+2 echoed CF+4: BCDice added the modifiers up
    return f"{shape(block)}|{part}|{skeleton(block)}"


_SIGNIFICANT = re.compile(r"(?<![\d+\-<>=@#*/])\d{1,6}")


def significant(block: Block) -> list[int]:
    """The numbers of the command that may decide its dice: not a modifier, a target or a threshold
    (``+3``, ``<=70``, ``@10``, ``#2``), but ``KS(10,3)``'s 10 and 3, ``WW12``'s 12. Where the tests
    showed one value only, a result with another is not read (KyokoShinshoku's KS(n,m) rolls dn)."""
    head = block.echo if block.echo is not None else block.name
    return [int(v) for v in _SIGNIFICANT.findall(unicodedata.normalize("NFKC", head[:120]).upper())]


def _ints(text: str) -> list[int]:
    return [int(v) for v in re.split(r", ?", text)]


def numbers(block: Block, source: str) -> list[int] | None:
    """The numbers of ``block`` where ``source`` says they stand; None when the block has none there."""
    first = block.steps[0] if block.steps else ""
    if source == "steps-lists":
        out: list[int] = []
        for step in block.steps:
            if not _NUMS.fullmatch(step):
                break
            out.extend(_ints(step))
        return out or None
    if source == "step-dice":
        terms = step_dice(block)
        return [v for _, v in terms] if terms else None
    if source == "step-sided":
        sided = _SIDED.findall(first)
        return [int(v) for v, _ in sided] if sided else None
    if source == "arrow":
        terms = arrow_dice(block)
        return [v for _, v in terms] if terms else None
    if source == "head-first":
        m = _HEAD_FIRST.search(block.head)
        return [int(m.group(1))] if m else None
    if source == "all-brackets":
        every = [v for step in block.steps for g in _BRACKETS.findall(step) for v in _ints(g)]
        return every or None
    if source == "step-single":
        return [int(first)] if _INT.fullmatch(first) else None
    if source in ("step-first", "step-all"):
        step = unicodedata.normalize("NFKC", first[:300])
        if not (_FIRST if source == "step-first" else _ALL).fullmatch(step):
            return None  # other numbers beside them may be dice the form does not read
        return [int(v) for v in _NUMBER.findall(step)[: 1 if source == "step-first" else 40]] or None
    if source == "step-number":
        echoes = 0
        while echoes < len(block.steps) - 1 and _ECHO_STEP.fullmatch(block.steps[echoes]):
            echoes += 1
        return [int(block.steps[echoes])] if echoes and _INT.fullmatch(block.steps[echoes]) else None
    if source == "step-list":
        return _ints(first) if "," in first and _NUMS.fullmatch(first) else None
    if source == "head":
        found = _HEAD.findall(block.head)
        return [v for g in found for v in _ints(g)] if found else None
    pattern = _BRACKETS if source == "step-brackets" else _PARENS
    for step in block.steps[:1] if source == "step-parens" else block.steps:
        found = pattern.findall(step)
        if found:
            return [v for g in found for v in _ints(g)]
    return None


def step_dice(block: Block) -> list[tuple[int, int]] | None:
    """(sides, face) of every ``NdS[…]`` in the first step holding one; None if a count is wrong."""
    for step in block.steps:
        found = _STEP_DICE.findall(step)
        if found:
            out: list[tuple[int, int]] = []
            for n, s, faces in found:
                values = _ints(faces)
                if len(values) != int(n or 1):
                    return None
                out.extend((int(s), v) for v in values)
            return out
    return None


def arrow_dice(block: Block) -> list[tuple[int, int]] | None:
    """(sides, face) of every ``1DS(->v)`` of the head; None where one counts more dice (their sum)."""
    out: list[tuple[int, int]] = []
    for n, s, v in _ARROW.findall(block.head[:300]):
        if n not in ("", "1"):
            return None
        out.append((int(s), int(v)))
    return out or None


def _sides_shown(block: Block | None, source: str) -> list[int] | None:
    """The sides a form names beside each face (``1d12[5]``, ``2(8)``, ``1D10(->7)``)."""
    if block is None:
        return None
    if source == "arrow":
        return [s for s, _ in arrow_dice(block) or []]
    if source == "step-sided":
        return [int(s) for _, s in _SIDED.findall(block.steps[0] if block.steps else "")]
    return [s for s, _ in step_dice(block) or []]


def echo_sides(block: Block) -> list[int] | None:
    """The sides of every die the echo names, in order (``1D12+6D6`` → 12 and six 6)."""
    echo = unicodedata.normalize("NFKC", block.echo if block.echo is not None else block.head).upper()
    out: list[int] = []
    for n, s in _ECHO_DICE.findall(echo[:200]):
        out.extend([int(s)] * int(n or 1))
    return out if 0 < len(out) <= 200 else None


def dice_of(values: list[int], spec: dict[str, Any], block: Block | None = None) -> Dice | None:
    """The dice ``values`` are under ``spec`` (relation, sides, count); None when they cannot be."""
    sides, rel, count = spec["sides"], spec["rel"], spec.get("count")
    if count == "stated":
        count = stated_count(block) if block is not None else None
        if count is None:
            return None
    dice = Dice()
    if rel == "faces":
        if count is not None and len(values) != count:
            return None
        if sides in ("echo", "form"):
            known = _sides_shown(block, spec["src"]) if sides == "form" else echo_sides(block) if block else None
            if not known or len(known) != len(values):
                return None
            each = known
        else:
            each = [sides] * len(values)
        ok = all(dice.face(s, 10 if s == 10 and v == 0 else v) for s, v in zip(each, values))
        return dice if ok else None
    if rel in ("d66", "tens-ones"):
        if count is not None and len(values) != count:
            return None
        for v in values:
            tens, ones = divmod(v, 10)
            if rel == "d66" and not (tens <= 6 and dice.face(6, tens) and dice.face(6, ones)):
                return None
            if rel == "tens-ones" and not (0 <= v <= 99 and dice.face(10, tens or 10) and dice.face(10, ones or 10)):
                return None
        return dice
    if len(values) != 1 or not isinstance(count, int):
        return None
    shift = count if rel == "sum0" else 0  # each die read one less: the faces rolled add up to count more
    return dice if dice.total(count, sides, values[0] + shift) else None


_LEAD = re.compile(r"\d{1,3}(?=[A-Z])")
_STATED = re.compile(r"(?<![A-Z\d])(\d{0,3})D(\d{1,4})(?![\d])")


def stated_count(block: Block) -> int | None:
    """How many dice the command asks for, where it says: the ``N`` of every ``NdS`` of the echo, else
    the number it starts with (``5HFD>=20`` → 5, ``2UB@5`` → 2); None when it says none."""
    dice = stated_dice(block)
    if dice:
        return len(dice)
    lead = _LEAD.match(unicodedata.normalize("NFKC", block.echo or "").upper())
    return int(lead.group()) if lead else None


def stated_dice(block: Block) -> list[int]:
    """The sides of every die the result writes out as ``NdS`` (``2D6+1D4`` → 6, 6, 4; ``D100`` is one),
    in its head or in a step that is an echo of its own (``(ASPA) ＞ (5D12) ＞ 52[…]``), in order; empty
    where it writes none (``D66``, a table's name, a system's own letters)."""
    said = [block.head[:200], *(s for s in block.steps[:4] if _ECHO_STEP.fullmatch(s))]
    out: list[int] = []
    for text in said:
        for n, s in _STATED.findall(unicodedata.normalize("NFKC", text).upper()):
            if s == "66" and not n:
                return []  # D66: two d6 read as tens and ones, which the D66 form knows
            out.extend([int(s)] * int(n or 1))
            if len(out) > 200:
                return []
    return out


def agrees(block: Block, dice: Dice, rel: str) -> bool:
    """The dice read agree with the dice the head writes out (``NdS``): as many, of those sides (a
    ``1D100`` may stand as two d10, tens and ones). A result showing more or fewer dice than its
    command names rolled in a way the form does not see (a reroll, an extra die)."""
    stated = stated_dice(block)
    if not stated:
        return True
    got = [s for s, _ in dice.dice] + [s for _, count, s, _ in dice.totals for _ in range(count)]
    if rel == "tens-ones":
        stated = [x for s in stated for x in ((10, 10) if s == 100 else (s,))]
    return sorted(got) == sorted(stated)


def _numbers_of(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"\d{1,9}", unicodedata.normalize("NFKC", text))}


def rolled_nothing(block: Block, typed: str) -> bool:
    """A result its shape's tests show rolling nothing, when every number of its head was typed: a table
    whose value the command fixed (``FT45`` → ``因果表(45)``), an error text. A value nobody typed
    (``SMA0`` → ``事故表(5)``) was rolled."""
    return _numbers_of(block.head) <= _numbers_of(typed)


def read_dice(block: Block, spec: dict[str, Any], typed: str) -> Dice | None:
    """The dice ``spec`` reads in ``block``, checked against what the head says; None where it cannot
    (an empty Dice: the spec says nothing was rolled, and nothing was)."""
    if spec["rel"] == "nothing":
        return Dice() if rolled_nothing(block, typed) else None
    if spec["src"] not in _LISTS and any(_BRACKETS.search(step) for step in block.steps):
        return None  # faces shown in brackets that this form does not read (T&T's 10[1,1][2,6]+1)
    pinned = spec.get("pinned")
    if pinned is not None and not _pins_hold(significant(block), pinned):
        return None  # a number the tests never varied, varied: it may name the dice
    values = numbers(block, spec["src"])
    dice = dice_of(values, spec, block) if values is not None else None
    return dice if dice is not None and agrees(block, dice, spec["rel"]) else None


def _pins_hold(found: list[int], pinned: list[int | None]) -> bool:
    return len(found) == len(pinned) and all(p is None or p == v for v, p in zip(found, pinned))


@cache
def _data() -> dict[str, Any]:
    return json.loads(DATA.read_text(encoding="utf-8"))


def spec_for(key: str, system: str | None) -> dict[str, Any] | None:
    """How the tests of ``system`` read results of ``key``; without a system, the one reading every
    system that has the key agrees on (None where any of them does not vouch for it)."""
    data = _data()
    if system is not None:
        return data["systems"].get(system.strip(), {}).get(key)
    if key in data["unvouched"]:
        return None
    found = data["agreed"].get(key)
    return found


def read(block: Block, system: str | None, typed: str | None = None) -> Roll | None:
    """The block in the form its system's tests vouch for; None where no test vouches for its key (its
    shape, the command as typed or echoed, the steps of its answer)."""
    spec = spec_for(key(block, typed), system)
    if spec is None:
        return None  # a result whose command the export does not keep is keyed "?": unread
    dice = read_dice(block, spec, typed or "")
    if dice is None:
        return make(block, "other", problem=Msg("bcdice.not_tests_form"), certain=True)
    if spec["rel"] == "nothing":
        return make(block, "other", certain=True)
    return make(block, "die", **dice.fields(), ordered=spec["ordered"], certain=True)
