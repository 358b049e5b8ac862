"""Magic coin flips (CR 705): generated legal matches audit clean; any single wrong outcome,
misplaced call or extra coin is caught (issue 4, item 5)."""

from __future__ import annotations

from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from kifu import app
from kifu.auditor import registry
from kifu.games.mtg import projection
from kifu.games.mtg.sim import legal_match
from kifu.projector.base import Replay

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def chain(bodies: list[dict[str, Any]]) -> list[Any]:
    """Events with seq and a valid prev, built through the mtg codec (so the decoder's checks apply)."""
    return app.chain("mtg", bodies)


def errors(bodies: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return [(f.code, f.seq) for f in registry.audit(chain(bodies), strict=True) if f.severity == "error"]


def indices(bodies: list[dict[str, Any]], type_: str) -> list[int]:
    found = [i for i, b in enumerate(bodies) if b["type"] == type_]
    assume(found)  # a match of heads/tails-only cards has no call or outcome to mutate
    return found


@given(SEEDS, st.booleans(), st.sampled_from(["multiply", "add"]), st.booleans())
def test_legal_matches_give_no_findings(seed: int, thumbs: bool, stacking: str, edgar: bool) -> None:
    bodies = legal_match(seed, thumbs=thumbs, stacking=stacking, edgar=edgar)
    findings = registry.audit(chain(bodies), strict=True)
    assert [(f.code, f.seq, f.message.en) for f in findings if f.severity != "info"] == []


@given(SEEDS, st.booleans(), st.booleans(), st.data())
def test_a_wrong_outcome_is_caught(seed: int, thumbs: bool, edgar: bool, data: st.DataObject) -> None:
    bodies = legal_match(seed, thumbs=thumbs, edgar=edgar)
    i = data.draw(st.sampled_from(indices(bodies, "mtg.outcome")))
    flipped = "lost" if bodies[i]["outcome"] == "won" else "won"
    bodies[i] = {**bodies[i], "outcome": flipped}
    found = errors(bodies)
    codes = ("MTG-CALL-006", "MTG-THUMB-004", "MTG-STATE-001")
    assert any(seq == i + 1 and code in codes for code, seq in found), found


def _coins_of(bodies: list[dict[str, Any]], call: dict[str, Any]) -> list[int]:
    return [
        j
        for j in indices(bodies, "mtg.coin")
        if bodies[j]["flip"] == call["flip"] and bodies[j]["group"] == call["group"]
    ]


@given(SEEDS, st.booleans(), st.data())
def test_a_call_after_the_coin_is_caught(seed: int, thumbs: bool, data: st.DataObject) -> None:
    bodies = legal_match(seed, thumbs=thumbs)
    i = data.draw(st.sampled_from(indices(bodies, "mtg.call")))
    call = bodies.pop(i)
    at = _coins_of(bodies, call)[0] + 1
    bodies.insert(at, call)
    assert ("MTG-CALL-004", at + 1) in errors(bodies)


@given(SEEDS, st.booleans(), st.data())
def test_an_extra_coin_is_caught(seed: int, thumbs: bool, data: st.DataObject) -> None:
    bodies = legal_match(seed, thumbs=thumbs)
    coin = bodies[data.draw(st.sampled_from(indices(bodies, "mtg.coin")))]
    i = max(j for j in _coins_of(bodies, coin) if bodies[j]["player"] == coin["player"])
    bodies.insert(i + 1, {**coin, "result": data.draw(st.sampled_from(["heads", "tails"]))})
    assert ("MTG-THUMB-001", i + 2) in errors(bodies)


@given(SEEDS)
def test_replay_from_snapshots_equals_replay_from_start(seed: int) -> None:
    events = chain(legal_match(seed))
    replay = Replay(projection, events, registry.options(registry.game("mtg"), events[0]), every=7)
    for seq in (1, len(events) // 2, len(events)):
        assert replay.state_at(seq) == replay.replay_from_start(seq)


def test_the_generator_is_deterministic() -> None:
    assert legal_match(7) == legal_match(7)
    assert legal_match(7) != legal_match(8)
