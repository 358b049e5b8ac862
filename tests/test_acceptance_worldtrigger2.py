"""Acceptance round 2: whole World Trigger matches (seed 002) audit as the seed rules.

Each log in tests/acceptance/worldtrigger2/ is a complete match a table would
record following docs/games/worldtrigger.md: five clean ones and one of them as
a minimal client writes it (they must get no error or warning: a false positive
on real play is the worst failure of a judge's tool), and the same matches with
one dispute injected deep inside,
whose ``cases.json`` entry names every error and warning the audit must give,
as (code, seq). A log kifu refuses to read is a failure: the docs called it
valid. Rebuild with ``PYTHONPATH=. python tests/acceptance/worldtrigger2/make.py``.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from kifu.auditor import registry
from kifu.events import logfile

HERE = Path(__file__).resolve().parent / "acceptance" / "worldtrigger2"
CASES = json.loads((HERE / "cases.json").read_text(encoding="utf-8"))


def _audit(name: str) -> list:
    log = logfile.load(HERE / name)
    return registry.audit(log.events, strict=True)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_gets_the_seeds_ruling(name: str) -> None:
    case = CASES[name]
    assert "refused_when_written" not in case, case["refused_when_written"]
    findings = _audit(name)
    got = Counter((f.code, f.seq) for f in findings if f.severity != "info")
    want = Counter((w["code"], w["seq"]) for w in case["expected"])
    assert got == want, (case["about"], [(f.code, f.seq, f.message.en) for f in findings])


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if not c["expected"]))
def test_clean_match_is_decided_everywhere(name: str) -> None:
    """A whole clean match leaves the auditor nothing it cannot decide."""
    undecided = [(f.code, f.seq, f.message.en) for f in _audit(name) if f.severity == "info"]
    assert undecided == []


def test_every_log_is_a_case() -> None:
    assert {p.name for p in HERE.glob("*.jsonl")} == set(CASES)


def test_cases_cover_whole_clean_matches_and_deep_disputes() -> None:
    clean = [n for n, c in CASES.items() if not c["expected"]]
    bad = [n for n, c in CASES.items() if c["expected"]]
    assert len(clean) >= 6 and len(bad) >= 30, (len(clean), len(bad))
    deep = [n for n in bad if min(w["seq"] for w in CASES[n]["expected"]) > 30]
    assert len(deep) >= 15, deep
