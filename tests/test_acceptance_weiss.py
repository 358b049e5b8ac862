"""Acceptance: Weiss Schwarz dispute cases written from seed 003 and the docs alone.

Each log in ``tests/acceptance/weiss/`` was written by ``make.py`` there, the
way a table's client follows ``docs/format.md`` and ``docs/games/weiss.md``;
``cases.json`` names the error and warning findings (code, seq) that the seed's
ruling gives, ``[]`` for a clean log. A log kifu refuses as malformed fails too:
the docs said it was valid.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from kifu.auditor import registry
from kifu.events import logfile

HERE = Path(__file__).resolve().parent / "acceptance" / "weiss"
CASES = json.loads((HERE / "cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_gets_the_seed_ruling(name: str) -> None:
    log = logfile.load(HERE / name)
    findings = registry.audit(log.events, strict=True)
    got = Counter((f.code, f.seq) for f in findings if f.severity != "info")
    want = Counter((w["code"], w["seq"]) for w in CASES[name]["findings"])
    assert got == want, [(f.code, f.seq, f.severity, f.message.en) for f in findings]


def test_every_log_is_a_case() -> None:
    assert {p.name for p in HERE.glob("*.jsonl")} == set(CASES)


def test_cases_cover_clean_play_and_violations() -> None:
    clean = [n for n, c in CASES.items() if not c["findings"]]
    broken = [n for n, c in CASES.items() if c["findings"]]
    assert len(clean) >= 10 and len(broken) >= 20
    assert all(len(CASES[n]["findings"]) == 1 for n in broken), "each violation log breaks one statement"
