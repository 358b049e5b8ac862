"""A match's random outcomes counted as its events go by: the one definition of "verifiable" and "voided"
that ``kifu verify``, the match page and the warehouse read.

Apart from the protocol's rules (``kifu.auditor.rng``) so that ``kifu verify`` loads neither the
auditor's rule machinery nor the protocol's judge unless the log records the protocol's events.
"""

from __future__ import annotations

from array import array
from typing import Any, NamedTuple
from collections.abc import Mapping, Sequence

from ..events.base import RNG_EVENTS, Event, JudgeRuling, LogVoided, MatchStarted, RandomRolled
from ..projector.base import voided_in

NOTHING_VOIDED: Mapping[int, int] = {}


class Randomness(NamedTuple):
    """A match's random outcomes: how many stand, how many of those are verifiable, how many a void took back."""

    outcomes: int
    """Random outcomes the match records in events no void took back."""
    verifiable: int
    """How many of them are verifiable (docs/randomness.md, "Verifiable outcomes")."""
    voided: int
    """Random outcomes recorded by events a void took back: left out of ``outcomes``."""
    verified: frozenset[int]
    """Seqs of the standing events whose outcomes are verifiable."""
    voided_seqs: frozenset[int]
    """Seqs of the voided events that record random outcomes."""


class Tally:
    """A match's random outcomes counted as its events go by (``add_all``), then judged once (``result``)."""

    def __init__(self) -> None:
        self.players: tuple[str, ...] = ()
        self.match: str | None = None
        self.ledger: list[Event] = []
        """The verifiable-randomness events (as ``LogState.rng``: voided ones too)."""
        self._seqs = array("q")
        self._counts = array("q")
        self._voids: list[Event] = []
        self._kinds: dict[type, tuple[bool, bool]] = {}
        self._result: Randomness | None = None

    def add_all(self, events: Sequence[Event]) -> None:
        """Count a block of events: its classes are found in C, then only events of the classes that
        record outcomes, can name a commitment, or void (``kifu verify`` stays as fast)."""
        special = {MatchStarted, JudgeRuling, LogVoided}
        wanted = {cls for cls in set(map(type, events)) if any(self._kind(cls)) or cls in special}
        if not wanted:
            return
        self._result = None
        kinds = self._kinds
        e: Any  # each class read here has the fields its branch reads
        for e in events:
            cls = type(e)
            if cls not in wanted:
                continue
            if cls in special:
                if cls is MatchStarted:
                    self.players = tuple(p.id for p in e.players)
                    self.match = e.match
                else:
                    self._voids.append(e)
                continue
            random, ledger = kinds[cls]
            if random:
                self._seqs.append(e.seq)
                self._counts.append(len(e.values) if cls is RandomRolled else len(e.outcomes()))
            # as LogState.rng: the protocol's events and those naming a commitment
            if ledger and (cls in RNG_EVENTS or e.rng is not None):
                self.ledger.append(e)

    def _kind(self, cls: Any) -> tuple[bool, bool]:
        kind = self._kinds.get(cls)
        if kind is None:
            kind = self._kinds[cls] = (cls.random, cls in RNG_EVENTS or "rng" in cls.__struct_fields__)
        return kind

    def result(self) -> Randomness:
        """The counts, judged once (``analyse``) over everything added so far."""
        if self._result is None:
            voided = voided_in(self._voids) if self._voids else NOTHING_VOIDED
            verifiable, verified = 0, frozenset[int]()
            if self.ledger:  # the protocol's judge, loaded for a log that records its events
                from .rng import analyse

                analysis = analyse(self.ledger, self.players, voided, self.match)
                verifiable, verified = analysis.verifiable, analysis.verified
            total = sum(self._counts)
            gone = [(s, n) for s, n in zip(self._seqs, self._counts) if s in voided] if voided else []
            self._result = Randomness(
                outcomes=total - sum(n for _, n in gone),
                verifiable=verifiable,
                voided=sum(n for _, n in gone),
                verified=verified,
                voided_seqs=frozenset(s for s, _ in gone),
            )
        return self._result

    @property
    def outcomes(self) -> int:
        """Random outcomes the match records in events no void took back."""
        return self.result().outcomes

    @property
    def verifiable(self) -> int:
        """How many of them are verifiable (docs/randomness.md)."""
        return self.result().verifiable

    @property
    def voided(self) -> int:
        """Random outcomes of events a void took back."""
        return self.result().voided

    def voids(self) -> list[tuple[LogVoided, list[int]]]:
        """Each log.void that took something back, with the seqs it took back (``kifu verify`` reports them)."""
        voids = [e for e in self._voids if isinstance(e, LogVoided)]
        if not voids:
            return []
        taken = voided_in(self._voids)
        return [(v, sorted(s for s, by in taken.items() if by == v.seq)) for v in voids if v.seq in taken.values()]

    @property
    def any(self) -> bool:
        """True when the match records random outcomes or verifiable-toss events at all."""
        return bool(self._seqs) or bool(self.ledger)


def tally(events: Sequence[Event]) -> Tally:
    """The random outcomes of a match's events and how many are verifiable or voided."""
    t = Tally()
    t.add_all(events)
    return t


def randomness(events: Sequence[Event]) -> Randomness:
    """``tally(events).result()``: the one verdict on a whole match's random outcomes."""
    return tally(events).result()
