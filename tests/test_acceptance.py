"""Acceptance: logs written from the docs alone, as a table or a judge would record them, get the rules' ruling.

Each folder of tests/acceptance/ (but ``imports``, see test_acceptance_imports.py) holds
logs written by its ``make.py`` following docs/format.md and docs/games/<game>.md, and
``cases.json``: for every log, the errors and warnings its full audit must give, as
(code, seq) and, where a finding explains later events, its ``consequences``, or none
for a clean match. A log kifu refuses to read is a failure too:
the docs called it valid. Rebuild a folder with ``PYTHONPATH=. python tests/acceptance/<folder>/make.py``.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from kifu.auditor import registry
from kifu.events import logfile
from kifu.projector.base import frames

ROOT = Path(__file__).resolve().parent / "acceptance"

SUITES: dict[str, tuple[int, int]] = {
    "gunandgun": (10, 15),
    "gunandgun2": (10, 15),
    "mtg": (8, 12),
    "mtg2": (8, 12),
    "worldtrigger": (5, 15),
    "worldtrigger2": (6, 30),
    "weiss": (10, 20),
    "weiss2": (5, 20),
    "disputes": (5, 20),
}
"""Folder -> at least this many (clean, violating) logs."""


@cache
def cases(suite: str) -> dict[str, dict[str, Any]]:
    """The folder's cases, each with ``expected`` (code and seq per finding) and ``about`` (what it tests)."""
    raw = json.loads((ROOT / suite / "cases.json").read_text(encoding="utf-8"))
    return {
        name: {
            **case,
            "expected": case.get("expected", case.get("findings")),
            "about": case.get("about") or case.get("statement", ""),
        }
        for name, case in raw.items()
    }


@cache
def audited(suite: str, name: str) -> tuple[Any, tuple[Any, ...]]:
    log = logfile.load(ROOT / suite / name)
    return log, tuple(registry.audit(log.events, strict=True))


ALL = [(suite, name) for suite in SUITES for name in sorted(cases(suite))]


@pytest.mark.parametrize("suite,name", ALL, ids=[f"{s}/{n}" for s, n in ALL])
def test_case_gets_the_rules_ruling(suite: str, name: str) -> None:
    case = cases(suite)[name]
    assert "refused_when_written" not in case, case["refused_when_written"]
    _, findings = audited(suite, name)
    got = Counter((f.code, f.seq) for f in findings if f.severity != "info")
    want = Counter((w["code"], w["seq"]) for w in case["expected"])
    assert got == want, (case["about"], [(f.code, f.seq, f.severity, f.message.en) for f in findings])
    folded = {(f.code, f.seq): f.consequences for f in findings}
    for w in case["expected"]:  # a case may name what its finding explains (``Finding.consequences``)
        assert "consequences" not in w or folded[(w["code"], w["seq"])] == w["consequences"], (case["about"], folded)


@pytest.mark.parametrize("suite", SUITES)
def test_every_log_is_a_case_and_the_folder_covers_both_kinds(suite: str) -> None:
    assert {p.name for p in (ROOT / suite).glob("*.jsonl")} == set(cases(suite))
    clean = [n for n, c in cases(suite).items() if not c["expected"]]
    bad = [n for n, c in cases(suite).items() if c["expected"]]
    least_clean, least_bad = SUITES[suite]
    assert len(clean) >= least_clean and len(bad) >= least_bad, (len(clean), len(bad))


# --- what some folders promise beyond that -------------------------------------------------------


@pytest.mark.parametrize("suite", ["weiss", "weiss2"])
def test_each_weiss_dispute_breaks_one_statement(suite: str) -> None:
    broken = [c for c in cases(suite).values() if c["expected"]]
    assert all(len(c["expected"]) == 1 for c in broken)


@pytest.mark.parametrize("name", sorted(cases("disputes")))
def test_one_mistake_is_one_finding_and_leaves_no_stale_cannot_decide(name: str) -> None:
    """Each dispute holds one mistake (clean ones none): one error finding, and no "cannot decide" of its rule,
    nor any at all about what a later event decided."""
    case = cases("disputes")[name]
    _, findings = audited("disputes", name)
    errors = [f for f in findings if f.severity != "info"]
    assert len(errors) == len(case["expected"]) <= 1, (case["about"], [(f.code, f.seq) for f in errors])
    stale = [f for f in findings if f.severity == "info" and any(f.code == w["code"] for w in case["expected"])]
    assert not stale, [(f.code, f.seq, f.message.en) for f in stale]


def test_weiss_matches_are_long_and_disputes_deep() -> None:
    clean = [c for c in cases("weiss2").values() if not c["expected"]]
    broken = [c for c in cases("weiss2").values() if c["expected"]]
    assert all(c["events"] >= 80 for c in clean), "a clean case is a whole match, not an excerpt"
    assert sum(c["expected"][0]["seq"] >= 60 for c in broken) >= 15, "disputes sit deep in a match"


def test_world_trigger_disputes_sit_deep_in_matches() -> None:
    bad = [c for c in cases("worldtrigger2").values() if c["expected"]]
    assert sum(min(w["seq"] for w in c["expected"]) > 30 for c in bad) >= 15


def _cards(side: Any) -> int:
    counted = side.deck + side.hand + side.stock + side.waiting + side.memory - side.deck_short
    return counted + len(side.clock) + len(side.level) + len(side.resolution) + bool(side.climax) + len(side.stage)


@pytest.mark.parametrize("name", sorted(n for n, c in cases("weiss2").items() if not c["expected"]))
def test_state_keeps_every_card_of_a_clean_weiss_match(name: str) -> None:
    """What `kifu state` shows a judge adds up to the deck size for both players after every event."""
    log, _ = audited("weiss2", name)
    g = registry.game("weiss")
    for frame in frames(g.projection, log.events, registry.options(g, log.start)):
        if frame.seq > 1:
            assert {p: _cards(s) for p, s in frame.game.sides.items()} == {"aoi": 50, "ren": 50}, frame.seq


@pytest.mark.parametrize("name", sorted(n for n, c in cases("worldtrigger2").items() if not c["expected"]))
def test_a_clean_world_trigger_match_is_decided_everywhere(name: str) -> None:
    """A whole clean match leaves the auditor nothing it cannot decide."""
    _, findings = audited("worldtrigger2", name)
    assert [(f.code, f.seq, f.message.en) for f in findings if f.severity == "info"] == []
