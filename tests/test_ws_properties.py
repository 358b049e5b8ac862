"""Weiss Schwarz (seed 003) properties: generated legal turns audit clean; moved flow events are caught."""

from __future__ import annotations

import tempfile
from pathlib import Path

import msgspec
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from kifu.auditor import registry
from kifu.events import logfile, table
from kifu.events.base import ChainBroken, KifuError
from kifu.events.codec import encode
from kifu.games.weiss import projection
from kifu.games.weiss.events import PhaseEnded, PhaseStarted, StepStarted
from kifu.games.weiss.sim import play_match
from kifu.projector.base import Replay

FLOW = (PhaseStarted, PhaseEnded, StepStarted)
CODEC = table.codec("weiss")
SEEDS = st.integers(min_value=0, max_value=100_000)
TURNS = st.integers(min_value=2, max_value=6)


def _errors(events):
    return [f for f in registry.audit(events, strict=True) if f.severity in ("error", "warning")]


def _flow_key(event):
    return (type(event), getattr(event, "phase", None) or getattr(event, "step", None))


def _renumber(events):
    return [msgspec.structs.replace(e, seq=i + 1) for i, e in enumerate(events)]


@given(SEEDS, TURNS)
def test_generated_legal_turns_give_no_findings(seed, turns):
    events = play_match(seed, turns)
    assert _errors(events) == []


def _cards(side: projection.Side) -> int:
    return (
        side.deck
        + side.hand
        + side.stock
        + side.waiting
        + side.memory
        + len(side.clock)
        + len(side.level)
        + len(side.resolution)
        + len(side.stage)
        + (side.climax is not None)
    )


@given(SEEDS, TURNS)
def test_every_card_stays_in_some_zone(seed, turns):
    """Reference B6 #19: the 50 cards of each player are always somewhere."""
    events = play_match(seed, turns)
    replay = Replay(projection, events, registry.options(registry.game("weiss"), events[0]))
    for seq in range(1, len(events) + 1, 7):
        state = replay.state_at(seq).game
        assert {p: _cards(s) for p, s in state.sides.items()} == {"p1": 50, "p2": 50}, seq


def _end_start(event) -> bool:
    return type(event).__struct_config__.tag == "ws.phase" and getattr(event, "phase", None) == "end"


def _repeated_end_starts(events) -> set[int]:
    """Indexes of end-phase starts in turns that have more than one."""
    by_turn: dict[int, list[int]] = {}
    turn = 0
    for k, e in enumerate(events):
        if type(e).__struct_config__.tag == "ws.turn":
            turn += 1
        elif _end_start(e):
            by_turn.setdefault(turn, []).append(k)
    return {k for ks in by_turn.values() if len(ks) > 1 for k in ks}


@given(SEEDS, st.data())
def test_a_flow_event_moved_out_of_order_is_caught(seed, data):
    events = play_match(seed, 3)
    # A turn whose end phase was done again has interchangeable end-phase starts (seed 003 §エンドフェイズ 6:
    # repeated while anything is pending); moving one of them inside its end phase changes nothing.
    repeated = _repeated_end_starts(events)
    flow = [i for i, e in enumerate(events) if isinstance(e, FLOW) and i not in repeated]
    i = data.draw(st.sampled_from(flow), label="moved")
    crossing = [j for j in flow if j != i and _flow_key(events[j]) != _flow_key(events[i])]
    j = data.draw(st.sampled_from(crossing), label="past")
    moved = list(events)
    item = moved.pop(i)
    moved.insert(j if j < i else j, item)  # lands just before (earlier) or just after (later) event j
    # An end phase may be done again (seed 003 §エンドフェイズ 6) and phase ends may be left out, so an
    # end-phase start that lands beside another one reads as a legal repeat: not a mutation to catch.
    neighbours = moved[max(j - 1, 0) : j] + moved[j + 1 : j + 2]
    assume(not (_end_start(item) and any(_end_start(e) for e in neighbours)))
    found = [f for f in _errors(_renumber(moved)) if f.code.startswith("WS-")]
    assert found, f"moving seq {i + 1} next to seq {j + 1} went unnoticed"


@given(SEEDS)
def test_events_round_trip_through_the_codec(seed):
    for event in play_match(seed, 2):
        assert CODEC.decode(encode(event)) == event


@given(SEEDS, st.integers(min_value=2, max_value=200))
def test_replay_from_snapshots_equals_replay_from_the_start(seed, at):
    events = play_match(seed, 3)
    seq = min(at, len(events))
    replay = Replay(projection, events, registry.options(registry.game("weiss"), events[0]), every=16)
    assert replay.state_at(seq) == replay.replay_from_start(seq)


def test_a_mutated_chain_fails_verify():
    events = play_match(11, 2)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.jsonl"
        logfile.create(path, msgspec.to_builtins(events[0]))
        with logfile.Writer(path, durable=False) as w:
            for e in events[1:]:
                obj = msgspec.to_builtins(e)
                del obj["seq"], obj["prev"]
                w.append(obj)
        logfile.verify(path)
        lines = path.read_bytes().split(b"\n")
        lines[20] = lines[20][:-1] + b" }"  # same JSON, other bytes: the next line's prev no longer matches
        path.write_bytes(b"\n".join(lines))
        with pytest.raises((ChainBroken, KifuError)):
            logfile.verify(path)


def _other(player):
    return {"p1": "p2", "p2": "p1"}.get(player, player)


@given(
    SEEDS,
    st.lists(
        st.tuples(st.sampled_from(["drop", "swap", "dup", "player"]), st.integers(1, 10_000)), min_size=1, max_size=6
    ),
)
def test_the_auditor_never_raises_on_a_scrambled_match(seed, edits):
    """Any well-formed log, however wrong, is projected and audited without an exception (strict mode)."""
    events = play_match(seed, 3)
    for op, n in edits:
        i = 1 + n % (len(events) - 1)
        if op == "drop":
            del events[i]
        elif op == "swap":
            j = 1 + (n * 7) % (len(events) - 1)
            events[i], events[j] = events[j], events[i]
        elif op == "dup":
            events.insert(i, events[i])
        elif hasattr(events[i], "player"):
            events[i] = msgspec.structs.replace(events[i], player=_other(events[i].player))
    registry.audit(_renumber(events), strict=True)
