"""Cockatrice game message logs (MTG): coin flips and dice, one message per line, English or Japanese client.

Source: ../shared/reference/online-logs.md §6a and Cockatrice itself
(``cockatrice/src/game_graphics/log/message_log_widget.cpp``: ``logRollDie``,
``logGameStart``, ``logJoin`` …; ``chat_view.cpp``: ``[hh:mm:ss] `` before a server
line, ``name: text`` for chat, four spaces instead of the name when the same
player speaks again). A coin is a 2-sided die: 1 = Heads, 2 = Tails. The client
translates its lines (``cockatrice/translations/cockatrice_ja.ts``), so each line is
tried against every client language known here; the coin side words and the
``(1)``/``(2)`` the client adds after them are what is read. Lines may carry the
widget's ``<font>`` markup, which is removed by a small HTML tokenizer (``_text_parts``:
tags as an HTML tokenizer cuts them, in one pass) and ``html.unescape``, never with a regex. The multi-coin line gives only counts, so
its values are listed heads first: the log does not keep the order of the coins.
A line no pattern reads is kept as a note; line numbers count LF only, as
``grep -n`` does.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable, Iterator

from ..i18n import Msg
from .common import ImportFailed, Message, Source, decode_text, lines

# Each pattern is matched from the start of a line and ends at its end; the name is the only
# open-ended part, and what follows it starts with fixed text, so a failed line costs one pass.
_WHO = r"(?P<who>\S(?:.*?\S)?)"
_STAMP = re.compile(r"^\[(?P<t>\d{1,2}:\d{2}(?::\d{2})?)\]\s*")
# A chat name is one word: servatrice allows no space in a user name, and the client's own chat
# history reads ``(\S+):\s`` (chat_view.cpp). Game lines that carry a colon after several words
# ("Aoi creates token: Goblin (1/1).", "peeks at face down card #2: …") are then not chat.
_CHAT = re.compile(r"^(?P<who>[^:\s]{1,40}):\s(?P<text>.*)$")
_ICON = "\ufffc"
"""What a copy of the log keeps of the user-level icon Cockatrice draws before a chat name."""
_AGAIN = "    "
"""The client writes four spaces instead of the name when the same player speaks again."""


@dataclass(frozen=True)
class Client:
    """The lines one client language writes for dice, coins and the game's own events."""

    lang: str
    """Language of the client (the translation file's suffix)."""
    heads: str
    """The word for Heads (1)."""
    one_coin: re.Pattern[str]
    """One coin: groups who, side, n (the 1/2 after the side, when the client wrote it)."""
    coins: re.Pattern[str]
    """Several coins: who, n, h (heads), t (tails)."""
    one_die: re.Pattern[str]
    """One die: who, v (value), s (sides)."""
    dice: re.Pattern[str]
    """Several dice: who, s, k (count), vals ("3, 4, 5")."""
    started: str
    """The line that opens the game."""
    ends: tuple[str, ...]
    """How the game's lines about a player end (joined, ready, conceded): after the name, fixed text."""
    left: re.Pattern[str]
    """The end of the line of a player who left, with the reason in brackets (searched for)."""
    hints: tuple[str, ...]
    """Phrases of a coin or die line: a line with one that no pattern reads is reported."""


CLIENTS = (
    Client(
        lang="en",
        heads="heads",
        one_coin=re.compile(
            _WHO + r" flip(?:s|ped) a coin\. It land(?:s|ed) (?:as|on) (?P<side>Heads|Tails)"
            r"(?: \((?P<n>[12])\))?\.?$",
            re.I,
        ),
        coins=re.compile(
            _WHO + r" flips (?P<n>\d+) coins\. There (?:are|is) (?P<h>\d+) heads? and (?P<t>\d+) tails?\.?$", re.I
        ),
        one_die=re.compile(_WHO + r" rolls a (?P<v>\d+) with a (?P<s>\d+)-sided die\.?$", re.I),
        dice=re.compile(
            _WHO + r" rolls an? (?P<s>\d+)-sided dic?e (?P<k>\d+) times?: (?P<vals>\d+(?:, ?\d+)*)\.?$", re.I
        ),
        started="The game has started.",
        ends=(" has joined the game.", " is ready to start the game.", " has conceded the game."),
        left=re.compile(r" has left the game \([^()]*\)\.$"),
        hints=("flipped a coin", "flips ", "-sided di", "rolls a"),
    ),
    # cockatrice_ja.ts: some releases write the name without a space before は, and one
    # older translation of the die line reads 「%1は%3面ダイスを使用して%2を割り振ります.」.
    Client(
        lang="ja",
        heads="表",
        one_coin=re.compile(_WHO + r" ?はコインを投げた。結果は……【(?P<side>表|裏)(?: \((?P<n>[12])\))?】だ！$"),
        coins=re.compile(_WHO + r" ?は(?P<n>\d+)枚のコインを投げた。表が【(?P<h>\d+)】枚、裏が【(?P<t>\d+)】枚出た。$"),
        one_die=re.compile(
            _WHO + r" ?は(?:(?P<s>\d+)面ダイスをふり、【(?P<v>\d+)】を出した。"
            r"|(?P<s2>\d+)面ダイスを使用して(?P<v2>\d+)を割り振ります[.。])$"
        ),
        dice=re.compile(
            _WHO + r" ?は(?P<s>\d+)面体サイコロを(?P<k>\d+)個振り、それぞれ【(?P<vals>\d+(?:, ?\d+)*)】を出した。$"
        ),
        started="◇◇ゲーム開始！◇◇",
        ends=("がゲームに参加した。", "はゲーム開始の準備が完了した！！", "が投了した！！！"),
        left=re.compile(r"はゲームから離脱した（[^（）]*）。$"),
        hints=("コインを投げた", "面ダイス", "面体サイコロ"),
    ),
)
"""Every client language read, English first (the untranslated client)."""


def read(data: bytes, file: str) -> Source:
    from . import cockatrice_replay  # the replay reader pulls in protobuf: only for a replay

    if cockatrice_replay.looks_like(data):
        return cockatrice_replay.read(data, file)
    if data[:1] in (b"\x08", b"\x12") and b"\x00" in data[:4096]:
        raise ImportFailed(Msg("import.replay_unreadable"), where=file)  # binary, protobuf-like: a damaged replay
    text, enc = decode_text(data, file)
    src = Source("cockatrice", file)
    if enc != "utf-8":
        src.notes.append(Msg("import.note_decoded", encoding=enc))
    speaker: str | None = None
    for n, raw in enumerate(lines(text), 1):
        if raw.strip():
            msg = line_message(n, raw, speaker)
            speaker = msg.speaker if msg.said is not None else None
            src.messages.append(msg)
    if not src.messages:
        raise ImportFailed(Msg("import.cockatrice_empty"), where=file)
    return src


def looks_like(head: str) -> bool:
    """True when some line of the text is a Cockatrice line: a coin, die or game line of a known client, or the widget's markup.

    This is how ``--from auto`` knows the log whatever language the client spoke.
    """
    for raw in lines(head)[:500]:
        if "<font" in raw and ('class="blue"' in raw or 'color="blue"' in raw):
            return True
        body = _body(_plain(raw))
        if any(read_line(body) for read_line in _READERS) or _game_line(body):
            return True
    return False


def _plain(raw: str) -> str:
    """The text of a line without the widget's markup, its character references decoded."""
    if "<" not in raw and "&" not in raw:
        return raw.strip()
    return html.unescape("".join(_text_parts(raw))).strip()


def _text_parts(raw: str) -> Iterator[str]:
    """The text between the tags of a line, as an HTML tokenizer cuts it, in one pass.

    A tag is ``<`` then a letter, ``/`` or ``!``, up to the next ``>``; a ``<`` that opens
    none (``a < b``, ``<3``, an unclosed ``<D2``) is text, as BeautifulSoup kept it. Python's
    own html.parser (which BeautifulSoup's stdlib backend runs) looked for the end of a tag
    from every such ``<`` to the end of the text: quadratic (100 KB of ``0<D2<|`` took 17 s).
    Here each ``>`` is found once: the search for the next one starts past the last.
    """
    at, close = 0, -1
    while True:
        lt = raw.find("<", at)
        if lt < 0:
            break
        if close < lt:
            close = raw.find(">", lt)
            if close < 0:  # no tag closes after here: the rest is text
                break
        after = raw[lt + 1 : lt + 2]
        inner = raw.find("<", lt + 1, close)  # another "<" before the ">": this one opens no tag
        if not (after.isascii() and (after.isalpha() or after in "/!")) or inner >= 0:
            yield raw[at : lt + 1]
            at = lt + 1
            continue
        yield raw[at:lt]
        at = close + 1
    yield raw[at:]


def _body(plain: str) -> str:
    stamp = _STAMP.match(plain)
    return plain[stamp.end() :] if stamp else plain


def line_message(n: int, raw: str, speaker: str | None = None) -> Message:
    """One line; ``speaker`` is who said the chat line before it (a line that starts with the client's
    four spaces instead of a name is theirs)."""
    body = _body(_plain(raw))
    msg = Message(loc=f"line {n}", text=raw.rstrip("\r\n"))
    for read_line in _READERS:
        found = read_line(body)
        if found is not None:
            msg.speaker, msg.randoms = found
            return msg
    msg.rolls = []
    if _game_line(body):
        msg.system = True
        return msg
    chat = _CHAT.match(body.lstrip(_ICON + " "))
    if chat:
        msg.speaker, msg.said = chat.group("who"), chat.group("text")
    elif speaker is not None and raw.startswith(_AGAIN):
        msg.speaker, msg.said = speaker, body
    if any(h in body for c in CLIENTS for h in c.hints):
        msg.unreadable = Msg("import.cockatrice_unknown_roll")
        msg.unread_result = "reads like a coin or die line but matches no known form"
    return msg


def _game_line(body: str) -> bool:
    """A line the game writes about itself or a player (started, joined, ready, conceded, left)."""
    return any(
        body == c.started or any(body.endswith(e) and len(body) > len(e) for e in c.ends) or c.left.search(body)
        for c in CLIENTS
    )


def _random(kind: str, sides: int, values: list[int], body: str) -> dict[str, Any]:
    return {"type": "random", "kind": kind, "sides": sides, "values": values, "result": body}


def _reader(
    pick: Callable[[Client], re.Pattern[str]], build: Callable[[re.Match[str], str, Client], dict[str, Any]]
) -> Callable[[str], Any]:
    """A line reader trying one kind of line in every client language: (who, [random]) or None."""

    def read_line(body: str) -> tuple[str, list[dict[str, Any]]] | None:
        for client in CLIENTS:
            m = pick(client).match(body)
            if m:
                return m.group("who"), [build(m, body, client)]
        return None

    return read_line


def _one_coin(m: re.Match[str], body: str, client: Client) -> dict[str, Any]:
    side = 1 if m.group("side").lower() == client.heads else 2
    value = int(m.group("n")) if m.group("n") else side
    # "Heads (2)" contradicts itself; keep the number the client rolled and say so in the result.
    return _random("coin", 2, [value], body if value == side else f"{body} [side and number disagree]")


def _coins(m: re.Match[str], body: str, client: Client) -> dict[str, Any]:
    return _random("coin", 2, [1] * int(m.group("h")) + [2] * int(m.group("t")), body)


def _one_die(m: re.Match[str], body: str, client: Client) -> dict[str, Any]:
    named = m.groupdict()
    sides, value = named["s"] or named.get("s2"), named["v"] or named.get("v2")
    return _random("die", int(sides), [int(value)], body)


def _dice(m: re.Match[str], body: str, client: Client) -> dict[str, Any]:
    return _random("die", int(m.group("s")), [int(v) for v in m.group("vals").split(",")], body)


_READERS = (
    _reader(lambda c: c.one_coin, _one_coin),
    _reader(lambda c: c.coins, _coins),
    _reader(lambda c: c.one_die, _one_die),
    _reader(lambda c: c.dice, _dice),
)
"""The four kinds of Cockatrice roll line, each tried in every client language."""
