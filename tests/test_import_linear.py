"""Every reader takes time linear in its input, whatever the text of a message (issue 20).

A regular expression with neighbouring quantifiers that can match the same
characters (``.+?\\s*$`` on a run of spaces, ``[\\w:]*:\\S*\\(`` on colons) backtracks
quadratically: a hostile or just unlucky 100 KB message would hang an import. Each
reader here reads one message of a pathological text in its own format, 1 KB and
then 100 KB of it; the large read must take about a hundred times the small one,
never the ten thousand times a quadratic pattern needs. Only the readers are measured
(``FORMATS[fmt]``): turning messages into events is the converter's and BCDice
parser's business. The work is CPU time in a process of its own (tests/growth.py),
never the wall clock.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial

import pytest
from growth import growth

from kifu.events.importers import FORMATS

SMALL, LARGE = 1_000, 100_000
SLACK = 4
"""How much more than proportional work the large read may take (a quadratic one takes 100 times more).
Measured as CPU time, every reader and whole import here stays within 1.2 times proportional."""
FLOOR = 2e-4
"""CPU seconds below which a small read is taken as this much (timer and cache noise)."""


def _repeat(unit: str, n: int) -> str:
    return (unit * (n // len(unit) + 1))[:n]


TEXTS: dict[str, Callable[[int], str]] = {
    "long word": lambda n: _repeat("a", n),
    "space run": lambda n: "a" + " " * (n * 4 // 10) + "b" + _repeat("c ", n - n * 4 // 10 - 2),
    "colons": lambda n: "A" + _repeat(":", n - 1),
    "digit list": lambda n: "x rolls a 6-sided dice 3 times: " + _repeat("1, ", n),
    "repeat heads": lambda n: _repeat("#1 ", n),
    "roller marks": lambda n: "＞" + _repeat("＞ a ", n),
    "brackets": lambda n: _repeat("(【[", n),
    "japanese dice": lambda n: _repeat("レン は6面体サイコロを3個振り、それぞれ【1, ", n),
    "fly steps": lambda n: "🎲" + _repeat("2D6 → ###1###~~~", n),
    "game lines": lambda n: _repeat("x has left the game (", n),
}
"""Message texts aimed at the patterns of the readers, as functions of their length."""


def _ccfolia_html(text: str) -> bytes:
    return (
        "<!DOCTYPE html><html><head><title>ccfolia - logs</title></head><body>\n"
        f'<p style="color:#e91e63;"><span> [main]</span><span>ミナト</span> :<span>{text}</span></p>\n'
        "</body></html>\n"
    ).encode()


def _ccfolia_json(text: str) -> bytes:
    return json.dumps(
        {
            "messages": [
                {
                    "name": "ミナト",
                    "text": text,
                    "type": "text",
                    "channel": "main",
                    "createdAt": 1740826923456,
                    "extend": {"roll": {"result": text}},
                }
            ]
        },
        ensure_ascii=False,
    ).encode()


def _udonarium(text: str) -> bytes:
    escaped = text.replace("&", "&amp;").replace("<", "&lt;")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<chat-tab-list><chat-tab name="main">\n'
        f'<chat from="Ab3dE9xQ" name="ハル" timestamp="1740826923456" tag="DiceBot">{escaped}</chat>\n'
        f'<chat originFrom="Ab3dE9xQ" from="System-BCDice" timestamp="1740826923457" tag="system" '
        f'name="DiceBot : {escaped}">{escaped}</chat>\n</chat-tab></chat-tab-list>\n'
    ).encode()


def _discord_json(text: str) -> bytes:
    return json.dumps(
        {
            "guild": {"name": "g"},
            "channel": {"name": "c"},
            "messages": [
                {
                    "id": "1",
                    "timestamp": "2025-03-01T20:02:03+09:00",
                    "content": text,
                    "author": {"id": "9", "name": "ミナト", "isBot": False},
                    "embeds": [],
                },
                {
                    "id": "2",
                    "timestamp": "2025-03-01T20:02:04+09:00",
                    "content": "＞" + text + "\n" + text,
                    "author": {"id": "1", "name": "BCDice", "isBot": True},
                    "embeds": [{"title": text}],
                },
            ],
        },
        ensure_ascii=False,
    ).encode()


def _discord_txt(text: str) -> bytes:
    return (f"[01-Mar-25 08:02 PM] {text}\n{text}\n\n[01-Mar-25 08:03 PM] BCDice\n＞{text}\n{text}\n").encode()


def _cockatrice(text: str) -> bytes:
    return f"{text}\nAiko: {text}\n    {text}\n[20:05:11] {text}\n".encode()


def _arena(text: str) -> bytes:
    return (
        "[UnityCrossThreadLogger]3/1/2025 8:02:03 PM: Match to U1: MatchGameRoomStateChangedEvent\n"
        '{"matchGameRoomStateChangedEvent":{"gameRoomInfo":{}}}\n'
        f"{text}\n[UnityCrossThreadLogger]{text}\n"
    ).encode()


EXPORTS: dict[str, tuple[str, Callable[[str], bytes]]] = {
    "ccfolia classic": ("ccfolia", _ccfolia_html),
    "ccfolia json": ("ccfolia", _ccfolia_json),
    "udonarium": ("udonarium", _udonarium),
    "discord json": ("discord", _discord_json),
    "discord txt": ("discord", _discord_txt),
    "cockatrice": ("cockatrice", _cockatrice),
    "arena": ("arena", _arena),
}


def _reader(export: str, text: str) -> Callable[[int], Callable[[], object]]:
    """For a size: one read of an export holding one message of ``text`` that long."""
    fmt, build = EXPORTS[export]
    return lambda n: partial(FORMATS[fmt], build(TEXTS[text](n)), "linear.txt")


@pytest.mark.parametrize("text", sorted(TEXTS))
@pytest.mark.parametrize("export", sorted(EXPORTS))
def test_reading_time_grows_linearly(export: str, text: str) -> None:
    found = growth(_reader(export, text), (SMALL, LARGE), slack=SLACK, floor=FLOOR, runs=(5, 1))
    assert found.linear, f"{export}, {text}: {found}"


def test_a_quadratic_pattern_would_fail_this_bound() -> None:
    """The bound is tight enough to catch what it is for: the old Discord roller pattern."""
    import re

    old = re.compile(r"^\s*[＞>]\s*(?P<name>\S.*?)\s*$")
    found = growth(
        lambda n: partial(old.match, "＞a" + " " * n + "b"), (SMALL, LARGE // 5), slack=SLACK, floor=FLOOR, runs=(5, 1)
    )
    assert not found.linear, found
