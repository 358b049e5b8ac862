"""Cockatrice game message logs (MTG): coin flips and dice, one message per line.

Source: ../shared/reference/online-logs.md §6a (Cockatrice messagelogwidget.cpp,
``MessageLogWidget::logRollDie``). A coin is a 2-sided die: 1 = Heads, 2 = Tails.
Lines may carry the widget's ``<font>`` markup, which is removed with an HTML
parser (BeautifulSoup, stdlib backend), never with a regex. The multi-coin line
gives only counts, so its values are listed heads first: the log does not keep
the order of the coins. English client strings only; a line no pattern reads is
kept as a note.
"""

from __future__ import annotations

import re
from typing import Any

from bs4 import BeautifulSoup

from .common import ImportFailed, Message, Source, decode_text

_WHO = r"(?P<who>\S(?:.*?\S)?)"
_STAMP = re.compile(r"^\[(?P<t>\d{1,2}:\d{2}(?::\d{2})?)\]\s*")
_ONE_COIN = re.compile(_WHO + r" flip(?:s|ped) a coin\. It land(?:s|ed) (?:as|on) (?P<side>Heads|Tails)(?: \((?P<n>[12])\))?\.?$",
                       re.I)
_COINS = re.compile(_WHO + r" flips (?P<n>\d+) coins\. There (?:are|is) (?P<h>\d+) heads? and (?P<t>\d+) tails?\.?$", re.I)
_ONE_DIE = re.compile(_WHO + r" rolls a (?P<v>\d+) with a (?P<s>\d+)-sided die\.?$", re.I)
_DICE = re.compile(_WHO + r" rolls an? (?P<s>\d+)-sided dic?e (?P<k>\d+) times?: (?P<vals>\d+(?:,\s*\d+)*)\.?$", re.I)
_CHAT = re.compile(r"^(?P<who>[^:\s][^:]{0,39}):\s(?P<text>.*)$")
MARKERS = ("flipped a coin", "flips ", "-sided di", "rolls a")
"""Phrases that identify a Cockatrice log when sniffing the format."""


def read(data: bytes, file: str) -> Source:
    text, enc = decode_text(data, file)
    src = Source("cockatrice", file)
    if enc != "utf-8":
        src.notes.append(f"decoded as {enc}")
    for n, raw in enumerate(text.splitlines(), 1):
        if raw.strip():
            src.messages.append(line_message(n, raw))
    if not src.messages:
        raise ImportFailed("empty Cockatrice log", where=file)
    return src


def _plain(raw: str) -> str:
    if "<" not in raw and "&" not in raw:
        return raw.strip()
    return BeautifulSoup(raw, "html.parser").get_text().strip()


def line_message(n: int, raw: str) -> Message:
    plain = _plain(raw)
    stamp = _STAMP.match(plain)
    body = plain[stamp.end():] if stamp else plain
    msg = Message(loc=f"line {n}", text=raw.rstrip("\r\n"))
    for pattern, build in ((_ONE_COIN, _one_coin), (_COINS, _coins), (_ONE_DIE, _one_die), (_DICE, _dice)):
        m = pattern.match(body)
        if m:
            msg.speaker, msg.randoms = m.group("who"), [build(m, body)]
            return msg
    chat = _CHAT.match(body)
    if chat:
        msg.speaker, msg.said = chat.group("who"), chat.group("text")
    if any(m in body for m in MARKERS[:3]):
        msg.unreadable = "reads like a coin or die line but matches no known form"
    msg.rolls = []
    return msg


def _random(kind: str, sides: int, values: list[int], body: str) -> dict[str, Any]:
    return {"type": "random", "kind": kind, "sides": sides, "values": values, "result": body}


def _one_coin(m: re.Match[str], body: str) -> dict[str, Any]:
    side = 1 if m.group("side").lower() == "heads" else 2
    value = int(m.group("n")) if m.group("n") else side
    # "Heads (2)" contradicts itself; keep the number the client rolled and say so in the result.
    return _random("coin", 2, [value], body if value == side else f"{body} [side and number disagree]")


def _coins(m: re.Match[str], body: str) -> dict[str, Any]:
    return _random("coin", 2, [1] * int(m.group("h")) + [2] * int(m.group("t")), body)


def _one_die(m: re.Match[str], body: str) -> dict[str, Any]:
    return _random("die", int(m.group("s")), [int(m.group("v"))], body)


def _dice(m: re.Match[str], body: str) -> dict[str, Any]:
    return _random("die", int(m.group("s")), [int(v) for v in re.split(r",\s*", m.group("vals"))], body)
