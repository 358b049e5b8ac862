"""A whole import takes time linear in its input, whatever a message says (issue 20, item 6).

test_import_linear.py times each format's reader; this times what an import does
after it: reading *and* turning every message into events (the BCDice reader,
the chat notation, the codec), for every format. The issue's reproducers: one
chat message of a long word followed by a roll (``xxxx… y (1D6) ＞ 3``) made any
import quadratic (20 KB several seconds, 100 KB ~35 s), and a note of 40,000
spaces a second time. Writing the log is left out: it is encode and hash per
event, linear by construction, and its fixed cost (a file made, fsync'd and
linked) would only loosen the bound.

The larger runs happen in a forked child that is stopped at the
bound, so a quadratic case fails in seconds instead of running for minutes.
"""

from __future__ import annotations

import gc
import multiprocessing
import time
from pathlib import Path
from collections.abc import Callable

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from test_import_linear import EXPORTS, LARGE, SLACK, SMALL, TEXTS, _repeat

from kifu.events import importers, table

WHOLE_FLOOR = 1e-3
"""Seconds below which a 1 KB import is timed as this much (a whole import has more fixed steps than a read)."""
GRACE = 2.0
"""Seconds a child gets past its bound before it is stopped: forking and scheduling on a busy machine."""

WHOLE_TEXTS: dict[str, Callable[[int], str]] = {
    **TEXTS,
    "word then roll": lambda n: _repeat("x", n - 13) + " y (1D6) ＞ 3",
    "spaces then roll": lambda n: "a" + " " * (n - 14) + " (1D6) ＞ 3",
    "spaces note": lambda n: "a" + " " * (n - 2) + "b",
    "roll then spaces": lambda n: "(1D6) ＞ 3" + " " * (n - 9),
}
"""The readers' texts and the issue's reproducers."""


def _import(fmt: str, path: Path) -> int:
    """Read and convert an export as `kifu import` does; the number of events made."""
    src, data = importers.read_source(path, fmt)
    return sum(1 for _ in importers.plan(src, data, table.codec("generic")).events)


def _small(fmt: str, path: Path, tries: int = 5) -> float:
    best = float("inf")
    for _ in range(tries):
        start = time.perf_counter()
        _import(fmt, path)
        best = min(best, time.perf_counter() - start)
    return best


def _child(fmt: str, path: str, report: multiprocessing.connection.Connection) -> None:
    # The child inherits the whole test session's heap: a full collection of it, triggered by
    # the import's allocations, cost 0.1 s once (a "quadratic" 10 KB import). The best of two runs.
    gc.disable()
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        _import(fmt, Path(path))
        best = min(best, time.perf_counter() - start)
    report.send(best)


def _large_within(fmt: str, path: Path, bound: float) -> float | None:
    """Seconds the import took in a forked child (its own clock, the best of two runs), or None if it still
    ran well past ``bound``.

    The child is given ``bound`` plus a grace for forking and scheduling on a busy
    machine before it is stopped; the seconds compared are the ones it measured.
    """
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(fmt, str(path), send))
    child.start()
    child.join(2 * bound + GRACE)
    if child.is_alive():
        child.kill()
        child.join()
        return None
    assert child.exitcode == 0, f"the import failed (exit {child.exitcode})"
    return receive.recv()


def _check(export: str, name: str, text: Callable[[int], str], tmp: Path) -> None:
    """1 KB timed here, then 10, 33 and 100 KB in a child stopped at the proportional bound.

    The smaller steps make a quadratic case fail at a fraction of the 100 KB bound
    (it needs ten, thirty times its share there already): a failure costs seconds.
    """
    fmt, build = EXPORTS[export]
    small_path = tmp / "small"
    small_path.write_bytes(build(text(SMALL)))
    small = _small(fmt, small_path)
    for size in (LARGE // 10, LARGE // 3, LARGE):
        path = tmp / f"size-{size}"
        path.write_bytes(build(text(size)))
        bound = max(small, WHOLE_FLOOR) * (size / SMALL) * SLACK
        took = _large_within(fmt, path, bound)
        assert took is not None and took < bound, (
            f"{export}, {name}: the {size // 1000} KB import took "
            f"{'over ' + format(bound, '.2f') if took is None else format(took, '.3f')} s, "
            f"more than {bound:.3f} s ({small * 1e3:.2f} ms for 1 KB): not linear"
        )


@pytest.mark.parametrize("text", sorted(WHOLE_TEXTS))
@pytest.mark.parametrize("export", sorted(EXPORTS))
def test_importing_time_grows_linearly(tmp_path: Path, export: str, text: str) -> None:
    _check(export, text, WHOLE_TEXTS[text], tmp_path)


# Characters the importers' patterns care about: spaces, separators, roll marks, dice notation, brackets.
_UNITS = st.text(alphabet=" \t:：,、＞>→()（）[]【】#~0123456789DdxyS+-*/<=ＤＳ|　a", min_size=1, max_size=6)


# No shrinking: each failing example costs its whole bound, and the first one found says enough.
@settings(phases=[Phase.explicit, Phase.reuse, Phase.generate], report_multiple_bugs=False)
@given(export=st.sampled_from(sorted(EXPORTS)), unit=_UNITS, tail=st.sampled_from(["", " (1D6) ＞ 3", " 2D6"]))
def test_any_repeated_text_imports_in_linear_time(tmp_path_factory, export: str, unit: str, tail: str) -> None:
    """A message made of any short unit repeated to 100 KB, with or without a roll after it."""
    _check(
        export, repr(unit + tail), lambda n: _repeat(unit, max(1, n - len(tail))) + tail, tmp_path_factory.mktemp("lin")
    )


def test_a_quadratic_import_fails_this_check(tmp_path: Path, monkeypatch) -> None:
    """The check catches what it is for: a reader with the old Discord roller pattern (quadratic on spaces)."""
    import re

    from test_import_linear import _discord_txt

    old = re.compile(r"^\s*[＞>]\s*(?P<name>\S.*?)\s*$")
    discord = importers.FORMATS["discord"]

    def quadratic(data: bytes, file: str):
        old.match("＞a" + data.decode())
        return discord(data, file)

    monkeypatch.setitem(importers.FORMATS, "quadratic", quadratic)
    monkeypatch.setitem(EXPORTS, "quadratic", ("quadratic", _discord_txt))
    with pytest.raises(AssertionError, match="not linear"):
        _check("quadratic", "space run", lambda n: "a" + " " * n + "b", tmp_path)
