"""Acceptance cases for Magic coin flips (seed 001, CR 705), written from the seed and the docs alone.

Each log in tests/acceptance/mtg/ was written the way a table would write it following
docs/format.md and docs/games/mtg.md (tests/acceptance/mtg/make.py); cases.json names the errors and
warnings (code, seq) a judge expects, or [] for a clean match. A log kifu refuses to read fails too:
the docs promised it was valid.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from kifu.auditor import registry
from kifu.events import logfile

HERE = Path(__file__).resolve().parent / "acceptance" / "mtg"
CASES = json.loads((HERE / "cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_gets_the_seeds_ruling(name: str) -> None:
    log = logfile.load(HERE / name)
    findings = registry.audit(log.events, strict=True)
    got = Counter((f.code, f.seq) for f in findings if f.severity != "info")
    want = Counter((w["code"], w["seq"]) for w in CASES[name]["expected"])
    assert got == want, (CASES[name]["statement"], [(f.code, f.seq, f.message.en) for f in findings])


def test_every_log_has_a_case() -> None:
    assert {p.name for p in HERE.glob("*.jsonl")} == set(CASES)


def test_cases_cover_clean_and_violating_logs() -> None:
    clean = [n for n, c in CASES.items() if not c["expected"]]
    bad = [n for n, c in CASES.items() if c["expected"]]
    assert len(clean) >= 8 and len(bad) >= 12
