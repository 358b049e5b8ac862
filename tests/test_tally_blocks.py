"""``Tally.add_all`` picks a block's events out a class at a time in C: it must count exactly as an event-by-event
reading does, however the log is cut into blocks, and ``outcomes_each`` must say what ``outcomes()`` gives."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu import app
from kifu.auditor.tally import Tally
from kifu.events import logfile, table
from kifu.events.base import RNG_EVENTS, Event, JudgeRuling, LogVoided, MatchStarted, RandomRolled
from kifu.projector.base import voided_in

ROOT = Path(__file__).resolve().parent.parent
_GAMES = ("gunandgun", "mtg", "weiss", "worldtrigger")


def _verified(path: Path) -> list[Event] | None:
    try:
        return logfile.load(path).events
    except Exception:  # a fixture that is meant not to verify (an edited log): no tally to compare
        return None


def _logs() -> list[tuple[str, list[Event]]]:
    """Every fixture log that verifies, and a simulated match of each game."""
    out = []
    for path in sorted((ROOT / "fixtures").rglob("*.jsonl")):
        events = _verified(path)
        if events is not None:
            out.append((str(path.relative_to(ROOT)), events))
    for game in _GAMES:
        out.append((f"sim:{game}", app.chain(game, table.part(game, "sim").simulate(0, None))))
    return out


LOGS = _logs()


class Reference:
    """The tally as one reads it event by event: the definition ``Tally`` must keep to."""

    def __init__(self, events: list[Event]) -> None:
        self.players: tuple[str, ...] = ()
        self.match: str | None = None
        self.ledger: list[Event] = []
        self.pairs: list[tuple[int, int]] = []
        self.voids: list[Event] = []
        e: Any
        for e in events:
            cls = type(e)
            if cls is MatchStarted:
                self.players, self.match = tuple(p.id for p in e.players), e.match
            elif cls in (JudgeRuling, LogVoided):
                self.voids.append(e)
            else:
                if cls.random:
                    self.pairs.append((e.seq, len(e.values) if cls is RandomRolled else len(e.outcomes())))
                if cls in RNG_EVENTS or ("rng" in cls.__struct_fields__ and e.rng is not None):
                    self.ledger.append(e)

    def counts(self) -> tuple[int, int]:
        """(outcomes standing, outcomes voided)."""
        voided = voided_in(self.voids) if self.voids else {}
        gone = sum(n for s, n in self.pairs if s in voided)
        return sum(n for _, n in self.pairs) - gone, gone


def test_the_logs_hold_what_the_tally_reads() -> None:
    """The logs below record outcomes, voids and commitments: the comparison is not of empty tallies."""
    refs = [Reference(events) for _, events in LOGS]
    assert any(r.pairs for r in refs) and any(r.voids for r in refs) and any(r.ledger for r in refs)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(LOGS) - 1), st.lists(st.integers(1, 40), min_size=1, max_size=30))
def test_blocks_count_as_events_one_by_one(index: int, sizes: list[int]) -> None:
    """Fed in blocks of any sizes, the tally has the reference's counts, ledger (in log order), voids and players."""
    name, events = LOGS[index]
    ref = Reference(events)
    tally, at, i = Tally(), 0, 0
    while at < len(events):
        size = sizes[i % len(sizes)]
        tally.add_all(events[at : at + size])
        at, i = at + size, i + 1
    assert (tally.outcomes, tally.voided) == ref.counts(), name
    assert tally.ledger == ref.ledger, name
    assert (tally.players, tally.match) == (ref.players, ref.match), name
    whole = Tally()
    whole.add_all(events)
    assert tally.result() == whole.result(), name
    assert tally.voids() == whole.voids(), name


def _event_classes() -> set[type[Event]]:
    return {t for game in _GAMES for t in table.codec(game).types}


@pytest.mark.parametrize("cls", sorted(_event_classes(), key=lambda t: t.__name__), ids=lambda t: t.__name__)
def test_outcomes_each_is_what_outcomes_gives(cls: type[Event]) -> None:
    """A class that says how many outcomes each of its events records says it of every one in the logs."""
    if cls.outcomes_each is None:
        return
    assert cls.random
    seen = [e for _, events in LOGS for e in events if type(e) is cls]
    assert seen, f"no {cls.__name__} in the logs to check outcomes_each against"
    assert {len(e.outcomes()) for e in seen} == {cls.outcomes_each}
