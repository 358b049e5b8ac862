"""Acceptance, second round: whole matches, base-game checks and options get the seed's ruling.

Each log in tests/acceptance/gunandgun2/ is what a table (or a judge at the table)
following docs/format.md and docs/games/gunandgun.md would record; ``cases.json``
names every error and warning its full audit must give, as (code, seq), or [] for
a clean match. A log kifu refuses to read is a failure too: the docs called it
valid. Rebuild the logs with ``PYTHONPATH=. python tests/acceptance/gunandgun2/make.py``.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from kifu.auditor import registry
from kifu.events import logfile

HERE = Path(__file__).resolve().parent / "acceptance" / "gunandgun2"
CASES = json.loads((HERE / "cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_gets_the_seeds_ruling(name: str) -> None:
    case = CASES[name]
    assert "refused_when_written" not in case, case["refused_when_written"]
    log = logfile.load(HERE / name)
    findings = registry.audit(log.events, strict=True)
    got = Counter((f.code, f.seq) for f in findings if f.severity != "info")
    want = Counter((w["code"], w["seq"]) for w in case["expected"])
    assert got == want, (case["about"], [(f.code, f.seq, f.message.en) for f in findings])


def test_every_log_is_a_case() -> None:
    assert {p.name for p in HERE.glob("*.jsonl")} == set(CASES)


def test_cases_cover_clean_and_violating_logs() -> None:
    clean = [n for n, c in CASES.items() if not c["expected"]]
    bad = [n for n, c in CASES.items() if c["expected"]]
    assert len(clean) >= 10 and len(bad) >= 15, (len(clean), len(bad))
