"""Issue 20: reading a message costs time in proportion to its length, whatever is in it.

A long word before a roll, long runs of spaces, many ``＞``, deep brackets, long digit runs
and many ``#`` marks once made the BCDice reader quadratic (100 KB took ~35 s). Each shape
is read at 1 KB, 10 KB and 100 KB, alone and through a whole CCFOLIA import; each tenfold
step in size must stay within a generous multiple (FACTOR) of ten times the work before. The
work is CPU time in a process of its own (tests/growth.py), never the wall clock.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

import pytest
from growth import growth

from kifu.events import importers, table
from kifu.events.importers import bcdice

SHAPES: dict[str, Callable[[int], str]] = {
    "long word then a roll": lambda n: "x" * n + " y (1D6) ＞ 3",
    "spaces": lambda n: " " * n,
    "spaces then a roll": lambda n: " " * n + "(1D6) ＞ 3",
    "many separators": lambda n: "(2D6) " + "＞ 1 " * (n // 4),
    "deep open brackets": lambda n: "(" * n + " ＞ 1",
    "deep brackets": lambda n: "(" * (n // 2) + ")" * (n // 2) + " ＞ 1",
    "many echoes": lambda n: "(a) " * (n // 4) + "＞ 1",
    "repeat marks": lambda n: "#1 " * (n // 3) + "(1D6) ＞ 2",
    "digits": lambda n: "1" * n + " ＞ 2",
    "a bonus of many digits": lambda n: "(1D100<=5) ボーナス・ペナルティダイス[" + "1" * n + "] ＞ 1",
    "faces": lambda n: "(2B6) ＞ " + "1," * (n // 2),
    "a long choice": lambda n: "(choice[" + "a," * (n // 2) + "]) ＞ a",
    "fly arrows": lambda n: "🎲" + "x → " * (n // 4),
    "lines": lambda n: "#1\n" * (n // 3),
    "table lines": lambda n: "情報イベント表／〔犯罪〕:8:x\n" * (n // 17),
    "words before a table name": lambda n: "a " * (n // 2) + "소모표(1[1]) ＞ x",
    "a long list of d6": lambda n: "ロデ研の新発明([" + "1," * (n // 2) + "1]) ＞ x",
}
FACTOR = 4.0
"""Allowed slack over linear growth (timer noise, caches); a quadratic cost exceeds it by far."""


def _read(text: str) -> None:
    bcdice.parse(text)
    bcdice.parse(text, "DiceBot", bot=True)
    bcdice.parse(text, "Satasupe", bot=True, command="CrimeIET")
    bcdice.parse(text, "LogHorizon:Korean", bot=True, command="PCT1")
    bcdice.maybe_result(text)
    bcdice.typed_secret(text, "SG@12#2")
    bcdice.looks_like_command(text)
    bcdice.dice_of_command(text)


def _import(text: str, tmp: Path) -> Callable[[], object]:
    page = (
        f"<html><head><title>ccfolia - logs</title></head><body>\n<p><span>[main]</span><span>PL</span> :"
        f"<span>{html.escape(text)}</span></p>\n</body></html>\n"
    )
    tmp.mkdir(exist_ok=True)
    path = tmp / "one.html"
    path.write_text(page, encoding="utf-8")
    codec = table.codec("generic")

    def run() -> object:
        src, data = importers.read_source(path, "ccfolia")
        return importers.build(src, data, codec)

    return run


FLOOR = 1e-3
"""CPU seconds below which a measurement is taken as this much: below a millisecond the clock's
resolution and the caches say more than the reader."""


@pytest.mark.parametrize("shape", list(SHAPES))
def test_reading_is_linear(shape: str) -> None:
    """Each tenfold step in size may cost at most FACTOR × 10 the step before (quadratic: 100×)."""
    make = SHAPES[shape]
    found = growth(
        lambda n: lambda: _read(make(n)),
        (1000, 10_000, 100_000),
        slack=FACTOR,
        floor=FLOOR,
        relative_to_previous=True,
        runs=(5, 3),
    )
    assert found.linear, f"{shape}: {found}"


@pytest.mark.parametrize("shape", ["long word then a roll", "spaces then a roll", "many separators", "digits"])
def test_importing_is_linear(shape: str, tmp_path: Path) -> None:
    make = SHAPES[shape]
    found = growth(
        lambda n: _import(make(n), tmp_path / str(n)), (1000, 100_000), slack=FACTOR, floor=FLOOR, runs=(3, 1)
    )
    assert found.linear, f"{shape}: a 100 KB message: {found}"
