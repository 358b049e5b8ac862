"""A whole import takes time linear in its input, whatever a message says (issue 20, item 6).

test_import_linear.py measures each format's reader; this measures what an import does
after it: reading *and* turning every message into events (the BCDice reader,
the chat notation, the codec), for every format. The issue's reproducers: one
chat message of a long word followed by a roll (``xxxx… y (1D6) ＞ 3``) made any
import quadratic (20 KB several seconds, 100 KB ~35 s), and a note of 40,000
spaces a second time. Writing the log is left out: it is encode and hash per
event, linear by construction, and its fixed cost (a file made, fsync'd and
linked) would only loosen the bound.

The work is CPU time in a forked child that the kernel stops at a budget
proportional to the bound (tests/growth.py), so a quadratic case fails in seconds
instead of running for minutes, and a busy machine changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st
from growth import growth
from test_import_linear import EXPORTS, LARGE, SLACK, SMALL, TEXTS, _repeat

from kifu.events import importers, table

WHOLE_FLOOR = 1e-3
"""CPU seconds below which a 1 KB import is taken as this much (a whole import has more fixed steps than a read)."""

WHOLE_TEXTS: dict[str, Callable[[int], str]] = {
    **TEXTS,
    "word then roll": lambda n: _repeat("x", n - 13) + " y (1D6) ＞ 3",
    "spaces then roll": lambda n: "a" + " " * (n - 14) + " (1D6) ＞ 3",
    "spaces note": lambda n: "a" + " " * (n - 2) + "b",
    "roll then spaces": lambda n: "(1D6) ＞ 3" + " " * (n - 9),
    # issue 32: Python's html.parser scanned to the end of the text from every "<" that opens no tag
    # (Cockatrice's markup reader: 33 KB 1.7 s, 100 KB 17 s).
    "unclosed brackets": lambda n: _repeat("0<D2<|", n),
}
"""The readers' texts and the issue's reproducers."""


def _import(fmt: str, path: Path) -> int:
    """Read and convert an export as `kifu import` does; the number of events made."""
    src, data = importers.read_source(path, fmt)
    return sum(1 for _ in importers.plan(src, data, table.codec("generic")).events)


def _check(export: str, name: str, text: Callable[[int], str], tmp: Path) -> None:
    """1 KB measured, then 10, 33 and 100 KB, each within its proportional bound.

    The smaller steps make a quadratic case fail at a fraction of the 100 KB bound
    (it needs ten, thirty times its share there already): a failure costs seconds.
    """
    fmt, build = EXPORTS[export]

    def make(size: int) -> Callable[[], object]:
        path = tmp / f"size-{size}"
        path.write_bytes(build(text(size)))
        return lambda: _import(fmt, path)

    found = growth(make, (SMALL, LARGE // 10, LARGE // 3, LARGE), slack=SLACK, floor=WHOLE_FLOOR)
    assert found.linear, f"{export}, {name}: {found}: not linear"


@pytest.mark.parametrize("text", sorted(WHOLE_TEXTS))
@pytest.mark.parametrize("export", sorted(EXPORTS))
def test_importing_time_grows_linearly(tmp_path: Path, export: str, text: str) -> None:
    _check(export, text, WHOLE_TEXTS[text], tmp_path)


# Characters the importers' patterns care about: spaces, separators, roll marks, dice notation, brackets.
_UNITS = st.text(alphabet=" \t:：,、＞>→()（）[]【】#~0123456789DdxyS+-*/<=ＤＳ|　a", min_size=1, max_size=6)


@pytest.mark.slow
# No shrinking: each failing example costs its whole bound, and the first one found says enough.
@settings(phases=[Phase.explicit, Phase.reuse, Phase.generate], report_multiple_bugs=False)
@given(export=st.sampled_from(sorted(EXPORTS)), unit=_UNITS, tail=st.sampled_from(["", " (1D6) ＞ 3", " 2D6"]))
# Found by this test (issue 32): Python's html.parser, behind Cockatrice's markup reader, scanned to the
# end of the text from every "<" that opens no tag (33 KB 1.7 s, 100 KB 17 s).
@example(export="cockatrice", unit="0<D2<|", tail="")
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
