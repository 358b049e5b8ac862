"""World Trigger properties (seed 002): generated legal matches audit clean, replay is deterministic,
events round-trip, and the auditor never raises on a well-formed but broken log."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kifu import app
from kifu.auditor import registry
from kifu.events import table
from kifu.events.codec import encode
from kifu.games.worldtrigger import sim
from kifu.projector.base import Replay

CODEC = table.codec("worldtrigger")
GAME = registry.game("worldtrigger")


def to_events(start: dict, events: list[dict]):
    return app.chain("worldtrigger", [start, *events])


seeds = st.integers(min_value=0, max_value=2**32 - 1)


@given(seeds)
def test_generated_matches_give_no_errors_or_warnings(seed: int) -> None:
    events = to_events(*sim.match(seed))
    bad = [(f.code, f.seq, f.message.en) for f in registry.audit(events, strict=True) if f.severity != "info"]
    assert bad == []


@settings(max_examples=10)
@given(seeds)
def test_generation_and_replay_are_deterministic(seed: int) -> None:
    assert sim.match(seed, max_turns=4) == sim.match(seed, max_turns=4)
    events = to_events(*sim.match(seed, max_turns=4))
    replay = Replay(GAME.projection, events, registry.options(GAME, events[0]), every=7)
    for seq in (1, len(events) // 2, len(events)):
        assert replay.state_at(seq) == replay.replay_from_start(seq)


@settings(max_examples=10)
@given(seeds)
def test_events_round_trip_through_the_codec(seed: int) -> None:
    for e in to_events(*sim.match(seed, max_turns=3)):
        assert CODEC.decode(encode(e)) == e


@settings(max_examples=15)
@given(seeds, st.data())
def test_auditor_never_raises_on_a_mutilated_match(seed: int, data) -> None:
    start, events = sim.match(seed, max_turns=3)
    drop = data.draw(st.sets(st.integers(0, len(events) - 1), max_size=8))
    order = data.draw(st.permutations(range(min(10, len(events)))))
    kept = [e for i, e in enumerate(events) if i not in drop]
    kept = [kept[i] for i in order if i < len(kept)] + kept[len(order) :]
    registry.audit(to_events(start, kept), strict=True)


def test_projection_of_the_clean_match_names_the_winner_and_state() -> None:
    from conftest import FIXTURES

    from kifu.events import logfile

    log = logfile.load(FIXTURES / "worldtrigger/match-clean.jsonl")
    final = Replay(GAME.projection, log.events, registry.options(GAME, log.start)).state_at(log.head.seq)
    end = log.events[-1]
    assert final.game.winner == end.winner == final.log.winner
    assert final.game.defeated is not None and final.game.winner != final.game.defeated
    assert 1 <= final.game.distance <= 6 and final.game.turn >= 1
    assert {final.game.first, final.game.second} == {"a", "b"}
