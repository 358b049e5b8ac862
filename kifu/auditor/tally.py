"""A match's random outcomes counted as its events go by: the one definition of "verifiable" and "voided"
that ``kifu verify``, the match page and the warehouse read.

Apart from the protocol's rules (``kifu.auditor.rng``) so that ``kifu verify`` loads neither the
auditor's rule machinery nor the protocol's judge unless the log records the protocol's events.
"""

from __future__ import annotations

from array import array
from itertools import compress, repeat
from operator import attrgetter, is_, is_not, methodcaller
from typing import Any, NamedTuple
from collections.abc import Mapping, Sequence

from ..events.base import RNG_EVENTS, Event, JudgeRuling, LogVoided, MatchStarted, RandomRolled
from ..projector.base import voided_in

NOTHING_VOIDED: Mapping[int, int] = {}

_SPECIAL = frozenset({MatchStarted, JudgeRuling, LogVoided})
"""Classes read for the match (its players and id) or for what they void, not for outcomes."""
_SEQ = attrgetter("seq")
_RNG = attrgetter("rng")
_VALUES = attrgetter("values")
_OUTCOMES = methodcaller("outcomes")


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


_FEW = 8
"""Up to this many events of a class in a block are found by ``list.index`` rather than a pass of ``compress``."""


def _picked(events: Sequence[Event], types: list[type[Event]], cls: type[Event]) -> Sequence[Event]:
    """The events of class ``cls`` among ``events`` (whose classes are ``types``), in order, found in C.

    ``list.count`` and ``list.index`` compare the classes by identity first (a few instructions an
    event); a ``compress`` over a map costs about ten times that, so it is kept for the classes with
    many events in the block (coins, dice), and a match.start or a void is found by its index.
    """
    n = types.count(cls)
    if n == len(types):
        return events
    if n > _FEW:
        return list(compress(events, map(is_, types, repeat(cls))))
    picked, at = [], -1
    for _ in range(n):
        at = types.index(cls, at + 1)
        picked.append(events[at])
    return picked


class Tally:
    """A match's random outcomes counted as its events go by (``add_all``), then judged once (``result``)."""

    def __init__(self) -> None:
        self.players: tuple[str, ...] = ()
        self.match: str | None = None
        self._named: list[Event] = []
        """The verifiable-randomness events, a class at a time within a block (``ledger`` puts them in order)."""
        self._seqs = array("q")
        self._counts = array("q")
        self._voids: list[Event] = []
        self._kinds: dict[type, tuple[bool, bool]] = {}
        self._result: Randomness | None = None

    def add_all(self, events: Sequence[Event]) -> None:
        """Count a block of events without a Python step per event where it can.

        The block's classes are found in C; the events of each class that matters (those that record
        outcomes, can name a commitment, or void) are picked out of it in C (``_picked``), then the
        seqs, counts and commitments of the random ones, a class at a time: a Python loop over every
        event here cost ``kifu verify`` about a tenth of its time.
        """
        types: list[type[Event]] = list(map(type, events))
        wanted = {cls for cls in set(types) if cls in _SPECIAL or any(self._kind(cls))}
        if not wanted:
            return
        self._result = None
        for cls in wanted:
            picked = _picked(events, types, cls)
            if cls in _SPECIAL:
                self._special(cls, picked)
                continue
            random, ledger = self._kinds[cls]
            if random:
                self._seqs.fromlist(list(map(_SEQ, picked)))
                each = cls.outcomes_each
                if each is not None:
                    self._counts += array("q", [each]) * len(picked)
                else:
                    self._counts.fromlist(list(map(len, map(_VALUES if cls is RandomRolled else _OUTCOMES, picked))))
            if ledger:
                # as LogState.rng: the protocol's events and those naming a commitment
                named = picked if cls in RNG_EVENTS else compress(picked, map(is_not, map(_RNG, picked), repeat(None)))
                self._named.extend(named)

    def _special(self, cls: type, picked: Sequence[Any]) -> None:
        """A match.start (its players and match id) or the events that can void."""
        if cls is MatchStarted:
            for e in picked:
                self.players = tuple(p.id for p in e.players)
                self.match = e.match
        else:
            self._voids.extend(picked)
            self._voids.sort(key=_SEQ)

    @property
    def ledger(self) -> list[Event]:
        """The verifiable-randomness events in log order (as ``LogState.rng``: voided ones too)."""
        self._named.sort(key=_SEQ)  # seqs are unique; a block adds its events a class at a time
        return self._named

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
        return bool(self._seqs) or bool(self._named)


def tally(events: Sequence[Event]) -> Tally:
    """The random outcomes of a match's events and how many are verifiable or voided."""
    t = Tally()
    t.add_all(events)
    return t


def randomness(events: Sequence[Event]) -> Randomness:
    """``tally(events).result()``: the one verdict on a whole match's random outcomes."""
    return tally(events).result()
