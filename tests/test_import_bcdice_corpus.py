"""BCDice's own test cases through the import path: the recorded dice are the dice BCDice rolled.

The cases (tests/data/bcdice/cases.toml, a subset of BCDice's test data with its license) are
wrapped as the clients record them and imported with ``read_source`` + ``build``, exactly as
bench/bench_bcdice.py does for the whole corpus; the bench's definitions judge each case.
"""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT

from kifu.events import importers, table

DATA = Path(__file__).parent / "data" / "bcdice" / "cases.toml"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_bcdice", ROOT / "bench" / "bench_bcdice.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_bcdice"] = module  # dataclasses look the module up by name
    spec.loader.exec_module(module)
    return module


BENCH = _bench()
RAW = tomllib.loads(DATA.read_text(encoding="utf-8"))["test"]
CASES = [
    BENCH.Case(
        t["file"],
        t["index"],
        t["game_system"],
        t["input"],
        t["output"],
        bool(t.get("secret")),
        [(r["sides"], r["value"]) for r in t["rands"]],
    )
    for t in RAW
]


def _imported(carrier: str, tmp_path: Path, system: bool = False) -> list[tuple[str, list[dict], bool]]:
    """(kind, the answer's events, secret error) per case, in order; ``system``: each case imported
    with ``--system`` set to its game system (as a CCFOLIA user who knows it would)."""
    write, ext, per_case = BENCH.WRITERS[carrier]
    out = []
    for case in CASES:  # one file per case: --system names one system for a whole export
        path = tmp_path / f"case.{ext}"
        path.write_bytes(write([case]))
        src, data = importers.read_source(path, "ccfolia" if carrier.startswith("ccfolia") else carrier)
        imported = importers.build(src, data, table.codec("generic"), system=case.system if system else None)
        out.append(_judged(case, src, imported, per_case))
    return out


def _judged(case, src, imported, per_case: int) -> tuple[str, list[dict], bool]:
    loc = src.messages[per_case - 1].loc
    events = [e for e in imported.events if e["src"]["loc"] == loc]
    kind = BENCH.judge(
        case,
        events,
        loc in {u.loc for u in imported.report.unreadable},
        loc in {u.loc for u in imported.report.unordered},
    )
    kind = {"right-unordered": "right", "right-total": "total"}.get(kind, kind)
    return kind, events, BENCH.secret_error(case, events)


@pytest.mark.parametrize("carrier,system", [("udonarium", False), ("ccfolia", False), ("ccfolia", True)])
def test_each_case_is_read_right_or_reported(carrier: str, system: bool, tmp_path: Path) -> None:
    key = carrier + ("_system" if system else "")
    got = [(c.file, c.index, kind) for c, (kind, _, _) in zip(CASES, _imported(carrier, tmp_path, system))]
    assert got == [(c.file, c.index, t["kifu"][key]) for c, t in zip(CASES, RAW)]


@pytest.mark.parametrize("carrier", BENCH.CARRIERS)
def test_no_wrong_face_and_no_silent_miss(carrier: str, tmp_path: Path) -> None:
    kinds = [kind for kind, _, _ in _imported(carrier, tmp_path)]
    assert [(c.file, c.index) for c, k in zip(CASES, kinds) if k in ("wrong", "silent")] == []


@pytest.mark.parametrize("carrier", ["udonarium", "ccfolia-json"])
def test_secret_as_the_source_marks_it(carrier: str, tmp_path: Path) -> None:
    errors = [(c.file, c.index) for c, (_, _, bad) in zip(CASES, _imported(carrier, tmp_path)) if bad]
    assert errors == []


def test_exact_outcomes_of_ordered_rolls(tmp_path: Path) -> None:
    """Where the order is shown, each die is recorded as BCDice rolled it, event by event."""
    by_case = dict(zip(((c.file, c.index) for c in CASES), _imported("udonarium", tmp_path)))
    d66 = by_case[("D66Dice", 9)][1]  # D66N: the digits in the order rolled
    assert [(e["sides"], e["values"]) for e in d66 if e["type"] == "random"] == [(6, [6, 1])]
    coc = by_case[("Cthulhu7th", 13)][1]  # one penalty die, 92 and 72: two tens d10, then the ones d10
    assert [(e["sides"], e["values"]) for e in coc if e["type"] == "random"] == [(10, [9, 7, 2])]
    korean = by_case[("Cthulhu7th_Korean", 13)][1]  # the Korean system rolls the ones die first
    assert [(e["sides"], e["values"]) for e in korean if e["type"] == "random"] == [(10, [2, 9, 5])]
    mixed = by_case[("None", 84)][1]  # 2b6+3b8+5b12<5: one event per run of one size
    assert [(e["sides"], len(e["values"])) for e in mixed if e["type"] == "random"] == [(6, 2), (8, 3), (12, 5)]
