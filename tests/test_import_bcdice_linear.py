"""Issue 20: reading a message costs time in proportion to its length, whatever is in it.

A long word before a roll, long runs of spaces, many ``＞``, deep brackets, long digit runs
and many ``#`` marks once made the BCDice reader quadratic (100 KB took ~35 s). Each shape
is read at 1 KB, 10 KB and 100 KB, alone and through a whole CCFOLIA import; each tenfold
step in size must stay within a generous multiple (FACTOR) of ten times the time before.
"""

from __future__ import annotations

import gc
import html
import time
from pathlib import Path
from collections.abc import Callable

import pytest

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


def _best(fn: Callable[[], object], runs: int = 3) -> float:
    """The least CPU time of ``runs`` runs, the cyclic collector off: other processes on a shared
    machine and a collection that happens to land in one run say nothing about the reader."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            t = time.process_time()
            fn()
            best = min(best, time.process_time() - t)
    finally:
        gc.enable()
    return best


def _import(text: str, tmp: Path) -> Callable[[], object]:
    page = (
        f"<html><head><title>ccfolia - logs</title></head><body>\n<p><span>[main]</span><span>PL</span> :"
        f"<span>{html.escape(text)}</span></p>\n</body></html>\n"
    )
    path = tmp / "one.html"
    path.write_text(page, encoding="utf-8")
    codec = table.codec("generic")

    def run() -> object:
        src, data = importers.read_source(path, "ccfolia")
        return importers.build(src, data, codec)

    return run


FLOOR = 1e-3
"""Times below a millisecond measure the clock and the machine's load more than the reader."""


@pytest.mark.parametrize("shape", list(SHAPES))
def test_reading_is_linear(shape: str) -> None:
    """Each tenfold step in size may cost at most FACTOR × 10 the step before (quadratic: 100×)."""
    make = SHAPES[shape]
    before, size_before = max(_best(lambda: _read(make(1000)), runs=5), FLOOR), 1000
    for size in (10_000, 100_000):
        took = _best(lambda size=size: _read(make(size)), runs=3)
        assert took <= before * (size / size_before) * FACTOR, (
            f"{shape}: {size} chars took {took:.3f} s ({size_before} chars: {before:.4f} s)"
        )
        before, size_before = max(took, FLOOR), size


@pytest.mark.parametrize("shape", ["long word then a roll", "spaces then a roll", "many separators", "digits"])
def test_importing_is_linear(shape: str, tmp_path: Path) -> None:
    make = SHAPES[shape]
    base = max(_best(_import(make(1000), tmp_path)), 1e-3)
    took = _best(_import(make(100_000), tmp_path), runs=1)
    assert took <= base * 100 * FACTOR, f"{shape}: a 100 KB message took {took:.3f} s to import (1 KB: {base:.4f} s)"
