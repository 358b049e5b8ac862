"""One mistake, one finding: every game's simulator makes one mistake of each kind it knows
(kifu/games/slips.py) and plays on legally from what it recorded; the audit gives exactly one
error finding, at the wrong event, by the rule the mistake breaks, and no "cannot decide" that
a later event decided. Also: the order of interchangeable lines changes no finding, and facts
kifu lacks give "cannot decide", never an error.
"""

from __future__ import annotations

import random
from typing import Any
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kifu.games
from kifu.auditor import registry
from kifu.events import games
from kifu.events.codec import encode, line_hash
from kifu.games.gunandgun import sim as gg
from kifu.games.mtg import sim as mtg
from kifu.games.slips import Slip
from kifu.games.weiss import sim as ws
from kifu.games.worldtrigger import sim as wt


def chain(game: str, bodies: list[dict[str, Any]]) -> list[Any]:
    """Events with seq and prev, decoded through the game's codec."""
    codec = games.codec(game)
    out: list[Any] = []
    prev = None
    for seq, body in enumerate(bodies, 1):
        if seq == 1:
            body = {"type": "match.start", "format": "kifu/1", "rules": {}, **body}
        event = codec.convert({**body, "seq": seq, "prev": prev})
        prev = line_hash(encode(event))
        out.append(event)
    return out


def _gg(seed: int, slip: Slip) -> list[Any]:
    return gg.to_events(gg.simulate(random.Random(seed), f"slip-{seed}", 12, slip))


def _mtg(seed: int, slip: Slip) -> list[Any]:
    return chain("mtg", mtg.legal_match(seed, thumbs=seed % 2 == 0, edgar=seed % 5 == 0, slip=slip))


def _wt(seed: int, slip: Slip) -> list[Any]:
    start, events = wt.match(seed, slip=slip)
    return chain("worldtrigger", [start] + events)


def _ws(seed: int, slip: Slip) -> list[Any]:
    return ws.play_match(seed, 6, slip=slip)


SIMS: dict[str, tuple[dict[str, str], Callable[[int, Slip], list[Any]]]] = {
    "gunandgun": (gg.SLIPS, _gg),
    "mtg": (mtg.SLIPS, _mtg),
    "worldtrigger": (wt.SLIPS, _wt),
    "weiss": (ws.SLIPS, _ws),
}
KINDS = [(game, kind) for game, (slips, _) in SIMS.items() for kind in sorted(slips)]
SEARCH = 400
"""Matches tried, seed after seed, until one gives the mistake its chance (a second copy of a once-per-turn card
in hand, a defeat to play on after): a generator that never makes a mistake fails here rather than passing."""


def slipped(game: str, kind: str, seed: int, nth: int) -> tuple[list[Any], Slip]:
    _, make = SIMS[game]
    for k in range(SEARCH):
        slip = Slip(kind, nth)
        events = make(seed + k, slip)
        if slip.seq is not None:
            return events, slip
    raise AssertionError(f"{game}: no match of seeds {seed}..{seed + SEARCH} gave a chance to make {kind!r}")


def test_every_game_with_a_simulator_can_make_mistakes() -> None:
    assert set(SIMS) == {g for g in kifu.games.GAMES if g != "generic"}  # generic has no rules to break
    assert all(len(slips) >= 4 for slips, _ in SIMS.values())


@pytest.mark.slow
@settings(max_examples=60)
@given(st.sampled_from(KINDS), st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=2))
def test_one_mistake_gives_exactly_one_error_finding(kind: tuple[str, str], seed: int, nth: int) -> None:
    game, mistake = kind
    events, slip = slipped(game, mistake, seed, nth)
    findings = registry.audit(events, strict=True)
    errors = [(f.code, f.seq) for f in findings if f.severity != "info"]
    assert errors == [(slip.code, slip.seq)], [(f.code, f.seq, f.consequences, f.message.en) for f in findings]
    # no "cannot decide" about what the mistake's rule decided
    assert not [f for f in findings if f.severity == "info" and f.code == slip.code], findings


@settings(max_examples=25)
@given(st.sampled_from(KINDS), st.integers(min_value=0, max_value=10_000))
def test_the_unfolded_list_keeps_every_finding(kind: tuple[str, str], seed: int) -> None:
    """``folded=False`` (``kifu audit --all``) shows what the checks found; the folded list names each of those
    findings, as itself or as a consequence."""
    events, _ = slipped(*kind, seed, 0)
    folded = registry.audit(events, strict=True)
    every = registry.audit(events, strict=True, folded=False)
    covered = {s for f in folded for s in [*f.seqs, *f.consequences]}
    assert {f.seq for f in every if f.severity == "error"} <= covered
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
    one, other = (registry.audit(chain("mtg", _thumb_match(k)), strict=True) for k in ([1, 2], [2, 1]))
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
    findings = registry.audit(chain("mtg", bodies), strict=True)
    assert [(f.code, f.seq, f.severity) for f in findings] == [("MTG-CALL-004", 4, "error")]
    unfolded = registry.audit(chain("mtg", bodies), strict=True, folded=False)
    assert ("MTG-CALL-004", 3, "info") in [(f.code, f.seq, f.severity) for f in unfolded]


@settings(max_examples=20)
@given(st.integers(min_value=0, max_value=10_000))
def test_a_watcher_not_in_the_catalogue_cannot_be_decided_and_is_no_error(seed: int) -> None:
    bodies = mtg.legal_match(seed, thumbs=False)
    watchers = [b for b in bodies if b["type"] == "mtg.enters" and b["card"] in mtg.WATCHERS]
    for b in watchers:
        b["card"] = "Homebrew Fortune Teller"  # a card kifu does not know, played by the log's own group
    findings = registry.audit(chain("mtg", bodies), strict=True)
    assert [(f.code, f.seq, f.message.en) for f in findings if f.severity != "info"] == []
    paid = any(b["type"] == "mtg.payoff" and b.get("permanent") for b in bodies)
    assert not paid or any(f.code == "MTG-PAY-003" and f.severity == "info" for f in findings)
