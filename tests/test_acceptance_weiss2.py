"""Acceptance, second round: full Weiss Schwarz matches (seed 003) written from the docs alone.

``tests/acceptance/weiss2/make.py`` writes them the way a table's client
records a match: complete matches over several turns that must audit with no
error or warning (a false positive on real play is the worst failure), and the
same matches with one violation deep inside, whose finding (code, seq) the
seed's ruling gives. A log kifu refuses as malformed fails too: the docs said
it was valid.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from kifu.auditor import registry
from kifu.events import logfile
from kifu.projector.base import frames

HERE = Path(__file__).resolve().parent / "acceptance" / "weiss2"
CASES = json.loads((HERE / "cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_match_gets_the_seed_ruling(name: str) -> None:
    log = logfile.load(HERE / name)
    findings = registry.audit(log.events, strict=True)
    got = Counter((f.code, f.seq) for f in findings if f.severity != "info")
    want = Counter((w["code"], w["seq"]) for w in CASES[name]["findings"])
    assert got == want, [(f.code, f.seq, f.severity, f.message.en) for f in findings]


def test_every_log_is_a_case() -> None:
    assert {p.name for p in HERE.glob("*.jsonl")} == set(CASES)


def test_matches_are_long_and_disputes_deep() -> None:
    clean = [n for n, c in CASES.items() if not c["findings"]]
    broken = {n: c for n, c in CASES.items() if c["findings"]}
    assert len(clean) >= 5 and len(broken) >= 20
    assert all(CASES[n]["events"] >= 80 for n in clean), "a clean case is a whole match, not an excerpt"
    assert all(len(c["findings"]) == 1 for c in broken.values()), "each dispute breaks one statement"
    assert sum(c["findings"][0]["seq"] >= 60 for c in broken.values()) >= 15, "disputes sit deep in a match"


def _cards(side) -> int:
    counted = side.deck + side.hand + side.stock + side.waiting + side.memory - side.deck_short
    return counted + len(side.clock) + len(side.level) + len(side.resolution) + bool(side.climax) + len(side.stage)


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if not c["findings"]))
def test_state_keeps_every_card_of_a_clean_match(name: str) -> None:
    """What `kifu state` shows a judge adds up to the deck size for both players after every event."""
    log = logfile.load(HERE / name)
    g = registry.game("weiss")
    for frame in frames(g.projection, log.events, registry.options(g, log.events[0])):
        if frame.seq > 1:
            assert {p: _cards(s) for p, s in frame.game.sides.items()} == {"aoi": 50, "ren": 50}, frame.seq
