"""One mistake, one finding: every game's simulator makes one mistake of each kind it knows
(kifu/games/mistakes.py) and plays on legally from what it recorded; the audit gives exactly one
error finding, at the wrong event, by the rule the mistake breaks, and no "cannot decide" that
a later event decided. Also: the order of interchangeable lines changes no finding, and facts
kifu lacks give "cannot decide", never an error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu import app
from kifu.auditor import registry
from kifu.events import table
from kifu.games.mtg import sim as mtg
from kifu.games.mistakes import Mistake

chain = app.chain

SIMS = {g: table.part(g, "sim") for g in table.ids() if table.has_part(g, "sim")}
"""Every game's simulator (its ``sim`` part: ``simulate(seed, turns, mistake)`` and ``MISTAKES``)."""
SEARCH = 400
"""Matches tried, seed after seed, until one gives the mistake its chance (a second copy of a once-per-turn card
in hand, a defeat to play on after): a generator that never makes a mistake fails here rather than passing."""


def mistook(game: str, kind: str, seed: int, nth: int) -> tuple[list[Any], Mistake]:
    """A match of ``game`` with one mistake of ``kind`` at its ``nth`` chance, or at the last chance of the first
    match that gives fewer (a defeat to play on after comes once a match)."""
    for k in range(SEARCH):
        mistake = Mistake(kind, nth)
        events = chain(game, SIMS[game].simulate(seed + k, None, mistake))
        if mistake.seq is None and mistake.chances:
            mistake = Mistake(kind, mistake.chances - 1)
            events = chain(game, SIMS[game].simulate(seed + k, None, mistake))
        if mistake.seq is not None:
            return events, mistake
    raise AssertionError(f"{game}: no match of seeds {seed}..{seed + SEARCH} gave a chance to make {kind!r}")


def audit(events: list[Any], merged: bool = True) -> list[Any]:
    return app.audit(events, strict=True, merged=merged).findings


def test_every_game_with_rules_has_a_simulator_that_can_make_mistakes() -> None:
    assert set(SIMS) == {g.id for g in registry.games() if g.rules}  # a game without rules has nothing to break
    assert all(len(sim.MISTAKES) >= 1 for sim in SIMS.values())


@pytest.mark.slow
@pytest.mark.parametrize("game", SIMS)
@settings(max_examples=15)
@given(data=st.data(), seed=st.integers(min_value=0, max_value=10_000), nth=st.integers(min_value=0, max_value=2))
def test_one_mistake_gives_exactly_one_error_finding(game: str, data: st.DataObject, seed: int, nth: int) -> None:
    mistake = data.draw(st.sampled_from(sorted(SIMS[game].MISTAKES)))
    events, mistake = mistook(game, mistake, seed, nth)
    findings = audit(events)
    errors = [(f.code, f.seq) for f in findings if f.severity != "info"]
    assert errors == [(mistake.code, mistake.seq)], [(f.code, f.seq, f.consequences, f.message.en) for f in findings]
    # no "cannot decide" about what the mistake's rule decided
    assert not [f for f in findings if f.severity == "info" and f.code == mistake.code], findings


KINDS = [(g, kind) for g in SIMS for kind in sorted(SIMS[g].MISTAKES)]
"""Every kind of mistake every game's simulator knows."""


@pytest.mark.parametrize(("game", "kind"), KINDS)
def test_each_kind_of_mistake_in_each_game_gives_exactly_one_error_finding(game: str, kind: str) -> None:
    """Not left to sampling: every kind, in every game, at least once (the property test above varies it)."""
    events, mistake = mistook(game, kind, 0, 0)
    findings = audit(events)
    errors = [(f.code, f.seq) for f in findings if f.severity != "info"]
    assert errors == [(mistake.code, mistake.seq)], [(f.code, f.seq, f.consequences, f.message.en) for f in findings]


# --- the disputes judges were shown two findings for (tests/acceptance/disputes/, written from the docs) ---

ROOT = Path(__file__).resolve().parent.parent
DISPUTES = ROOT / "tests" / "acceptance" / "disputes"
ONE_MISTAKE = {
    "gg-additional-cost-printed.jsonl": ("GG-COST-002", "GG-NUM-001"),
    "gg-hit-from-gun-effect-n.jsonl": ("GG-TOSS-009", "GG-SHOT-004"),
    "wt-play-after-defeat.jsonl": ("WT-END-001", "WT-TURN-001"),
    "gg-turn-after-deck-out.jsonl": ("GG-DECK-003", "GG-END-002"),
}
"""Log -> (the one finding it gives, the rule that judged the same mistake again and folds into it)."""


def _bodies(name: str) -> tuple[str, list[dict[str, Any]]]:
    lines = [json.loads(line) for line in (DISPUTES / name).read_text(encoding="utf-8").splitlines()]
    return lines[0]["game"], [{k: v for k, v in b.items() if k not in ("seq", "prev")} for b in lines]


@pytest.mark.parametrize("name", sorted(ONE_MISTAKE))
def test_two_rules_on_one_mistake_give_one_finding(name: str) -> None:
    kept, folded = ONE_MISTAKE[name]
    game, bodies = _bodies(name)
    events = chain(game, bodies)
    every = audit(events, merged=False)
    assert {kept, folded} <= {f.code for f in every if f.severity == "error"}  # both rules did judge it
    errors = [f for f in audit(events) if f.severity == "error"]
    assert [f.code for f in errors] == [kept], [(f.code, f.seq, f.message.en) for f in errors]
    # the folded rule's events are named by the one finding, as its own or as consequences
    named = {*errors[0].seqs, *errors[0].consequences}
    assert {f.seq for f in every if f.code == folded} <= named


AFTER_DEFEAT = {
    "tests/acceptance/disputes/wt-play-after-defeat.jsonl": "WT-END-001",
    "tests/acceptance/disputes/gg-turn-after-deck-out.jsonl": "GG-DECK-003",
    "fixtures/weiss/rules/WS-GAME-001/bad.jsonl": "WS-GAME-001",
    "fixtures/core/rules/KIFU-LOG-001/bad.jsonl": "KIFU-LOG-001",
}
"""A log in which the match was decided (a defeat, a loss by deck-out, level 4, match.end) and play went on, and
the one finding it gives, in each game."""


@pytest.mark.parametrize("path", sorted(AFTER_DEFEAT))
@settings(max_examples=10)
@given(data=st.data())
def test_whatever_is_recorded_after_a_defeat_is_its_consequence(path: str, data: st.DataObject) -> None:
    """Any lines of the match written again after it was decided (a table that played on) add no finding."""
    lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
    bodies = [{k: v for k, v in json.loads(line).items() if k not in ("seq", "prev")} for line in lines]
    more = data.draw(st.lists(st.sampled_from(bodies[1:]), max_size=8))
    errors = [(f.code, f.seq) for f in audit(chain(bodies[0]["game"], bodies + more)) if f.severity == "error"]
    assert [c for c, _ in errors] == [AFTER_DEFEAT[path]], errors


@pytest.mark.parametrize("game", SIMS)
@settings(max_examples=6)
@given(data=st.data(), seed=st.integers(min_value=0, max_value=10_000))
def test_the_unfolded_list_keeps_every_finding(game: str, data: st.DataObject, seed: int) -> None:
    """``merged=False`` (``kifu audit --all``) shows what the checks found; the folded list names each of those
    findings, as itself or as a consequence."""
    events, _ = mistook(game, data.draw(st.sampled_from(sorted(SIMS[game].MISTAKES))), seed, 0)
    folded = audit(events)
    every = audit(events, merged=False)
    covered = {s for f in folded for s in [*f.seqs, *f.consequences]}
    errors = [f for f in every if f.severity == "error"]
    # the hits of one rule about one subject are one finding, named by its first seq where it is a consequence
    named = {
        f.seq
        for f in errors
        if f.seq in covered or any(g.code == f.code and set(g.seqs) & set(f.seqs) and g.seq in covered for g in errors)
    }
    assert {f.seq for f in errors} <= named
    assert len(folded) <= len(every)


# --- interchangeable lines ---------------------------------------------------------------------

P = [{"id": "a", "name": "Aoi"}, {"id": "b", "name": "Ren"}]


def _thumb_match(keeps: list[int]) -> list[dict[str, Any]]:
    """Aoi flips Sorcerer's Strongbox under Krark's Thumb; the coins differ and two keep lines name both."""
    return [
        {"game": "mtg", "match": "keeps", "players": P},
        {"type": "mtg.enters", "permanent": "t1", "card": "Krark's Thumb", "controller": "a"},
        {"type": "mtg.enters", "permanent": "ce", "card": "Chance Encounter", "controller": "a"},
        {"type": "mtg.flip", "flip": "f1", "card": "Sorcerer's Strongbox", "controller": "a", "flipper": "a"},
        {"type": "mtg.call", "flip": "f1", "player": "a", "side": "heads"},
        {"type": "mtg.coin", "flip": "f1", "player": "a", "result": "heads"},
        {"type": "mtg.coin", "flip": "f1", "player": "a", "result": "tails"},
        *({"type": "mtg.keep", "flip": "f1", "player": "a", "coin": k} for k in keeps),
        {"type": "mtg.outcome", "flip": "f1", "player": "a", "outcome": "won"},
        {"type": "mtg.payoff", "flip": "f1", "kind": "draw", "amount": 3, "player": "a"},
        {"type": "mtg.payoff", "flip": "f1", "kind": "luck-counter", "amount": 1, "player": "a", "permanent": "ce"},
    ]


def test_two_keep_lines_give_the_same_findings_in_either_order() -> None:
    one, other = (audit(chain("mtg", _thumb_match(k))) for k in ([1, 2], [2, 1]))
    assert [(f.code, f.seq, f.severity) for f in one] == [(f.code, f.seq, f.severity) for f in other]
    assert [(f.code, f.seq) for f in one if f.severity == "error"] == [("MTG-THUMB-002", 9)]


# --- infos that stay true ----------------------------------------------------------------------


def test_a_late_call_leaves_no_cannot_decide_at_the_coin() -> None:
    bodies = [
        {"game": "mtg", "match": "late", "players": P},
        {"type": "mtg.flip", "flip": "f1", "card": "Stitch in Time", "controller": "a", "flipper": "a"},
        {"type": "mtg.coin", "flip": "f1", "player": "a", "result": "heads"},
        {"type": "mtg.call", "flip": "f1", "player": "a", "side": "heads"},
    ]
    findings = audit(chain("mtg", bodies))
    assert [(f.code, f.seq, f.severity) for f in findings] == [("MTG-CALL-004", 4, "error")]
    unfolded = audit(chain("mtg", bodies), merged=False)
    assert ("MTG-CALL-004", 3, "info") in [(f.code, f.seq, f.severity) for f in unfolded]


@settings(max_examples=20)
@given(st.integers(min_value=0, max_value=10_000))
def test_a_watcher_not_in_the_catalogue_cannot_be_decided_and_is_no_error(seed: int) -> None:
    bodies = mtg.legal_match(seed, thumbs=False)
    watchers = [b for b in bodies if b["type"] == "mtg.enters" and b["card"] in mtg.WATCHERS]
    for b in watchers:
        b["card"] = "Homebrew Fortune Teller"  # a card kifu does not know, played by the log's own group
    findings = audit(chain("mtg", bodies))
    assert [(f.code, f.seq, f.message.en) for f in findings if f.severity != "info"] == []
    paid = any(b["type"] == "mtg.payoff" and b.get("permanent") for b in bodies)
    assert not paid or any(f.code == "MTG-PAY-003" and f.severity == "info" for f in findings)
