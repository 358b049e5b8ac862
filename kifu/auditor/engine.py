"""The single-pass engine: the projector's fold of a log, every rule shown every step it watches (DESIGN.md
contract 4), and its ``Session``, the same one event at a time for a log being recorded. Events a
``log.void`` takes back are passed over by both: no rule sees them. Nothing here does I/O.
"""

from __future__ import annotations

from typing import Any, NamedTuple
from collections.abc import Callable, Container, Iterable, Mapping, Sequence

from ..events.base import Event, LogVoided, MatchStarted
from ..projector.base import (
    NONE_VOIDED,
    Frame,
    Projection,
    advance,
    first_frame,
    transitions,
    void_verdicts,
    voided_in,
)
from .base import INTERNAL, End, Flag, Rule, Step
from .findings import Finding, Raw, made, merge
from .log import EVERY_EVENT, passes_every_event


class Engine:
    """Folds a log once and runs every rule on every step it watches."""

    def __init__(self, projection: Projection[Any], rules: Sequence[Rule]) -> None:
        self.projection = projection
        self.rules = tuple(rules)
        self._all: list[Rule] = [r for r in self.rules if r.check is not None and r.on is None]
        self._by_type: dict[type[Event], list[Rule]] = {}
        for r in self.rules:
            if r.check is not None and r.on is not None:
                for cls in r.on:
                    self._by_type.setdefault(cls, []).append(r)
        self._finishers = [r for r in self.rules if r.finish is not None]
        self._checks: dict[type[Event], tuple[tuple[Callable[[Step], Any], Rule], ...]] = {}
        self._quick: dict[type[Event], tuple[tuple[Callable[[Step], Any], Rule], ...]] = {}
        """The same (check, rule) pairs but the log rules of every event: for a step ``passes_every_event``
        vouches for, which none of them would flag."""

    def _checks_of(self, cls: type[Event]) -> tuple[tuple[Callable[[Step], Any], Rule], ...]:
        """(check, rule) of every rule watching ``cls``, worked out once per event class."""
        pairs = self._checks[cls] = tuple((r.check, r) for r in self._all + self._by_type.get(cls, []))  # type: ignore[misc]
        self._quick[cls] = tuple(p for p in pairs if p[1].code not in EVERY_EVENT)
        return pairs

    def run(
        self,
        events: Iterable[Event],
        options: Mapping[str, Any],
        catalogue: Any = None,
        strict: bool = False,
        voided: Container[int] | None = None,
        merged: bool = True,
    ) -> list[Finding]:
        """All findings of one match, sorted by (seq, code): one per mistake (``merge``), or with ``merged=False``
        every finding as the checks made it.

        ``voided`` are the seqs log.voids took back (``voided_in``); a stream of events (a
        file read as it is audited) must say them, since its voids come after what they
        void; for a sequence they are worked out here.
        """
        if voided is None:
            events = events if isinstance(events, Sequence) else list(events)
            voided = voided_in(events)
        skip = voided or NONE_VOIDED
        it = iter(events)
        start = next(it)
        assert isinstance(start, MatchStarted)
        steps = transitions(self.projection, start, it, options, skip)
        return self.check(start, steps, options, catalogue, strict, skip, merged).findings

    def check(
        self,
        start: MatchStarted,
        steps: Iterable[tuple[Event, Frame[Any], Frame[Any]]],
        options: Mapping[str, Any],
        catalogue: Any = None,
        strict: bool = False,
        skip: Container[int] = NONE_VOIDED,
        merged: bool = True,
    ) -> Outcome:
        """The findings of a match folded by the projector (``steps``: its ``transitions``, passing over the
        seqs in ``skip``), and the frame after its last event: ``run`` for a caller that folds the match itself
        (the page draws the same frames the rules judge)."""
        raws: list[Raw] = []
        names = players_of(start)
        checks, checks_of, quick = self._checks, self._checks_of, self._quick
        frame = None
        # The projector's fold gives each event with the frames before and after it; each rule
        # watching the event's class sees one Step. Nothing else is allocated on a clean event.
        # (``_check`` written out: this loop is the audit's hot path.)
        for event, before, frame in steps:
            if skip and event.seq in skip:
                continue
            s = Step(event, before, frame, options, start, catalogue)
            pairs = checks.get(type(event))
            if pairs is None:
                pairs = checks_of(type(event))
            if passes_every_event(s):  # the log rules of every event would flag nothing here
                pairs = quick[type(event)]
            mark = len(raws)
            try:
                for check, r in pairs:
                    hits = check(s)
                    if hits:
                        for hit in hits:
                            raws.append(r.raw(hit, names))
            except Exception:
                del raws[mark:]
                self._redo(pairs, s, raws, strict, names)
        assert frame is not None
        raws.extend(self.finish(End(frame, options, start, frame.seq, catalogue), strict))
        if merged:
            return Outcome(made(merge(raws)), frame)
        return Outcome(made(sorted((r.finding for r in raws), key=Finding.sort_key)), frame)

    def _check(
        self,
        pairs: tuple[tuple[Callable[[Step], Any], Rule], ...],
        s: Step,
        out: list[Raw],
        strict: bool,
        names: Mapping[str, str],
    ) -> None:
        """The raw findings of one step, appended to ``out`` in rule order."""
        mark = len(out)
        try:
            for check, r in pairs:
                hits = check(s)
                if hits:
                    for hit in hits:
                        out.append(r.raw(hit, names))
        except Exception:
            del out[mark:]
            self._redo(pairs, s, out, strict, names)

    def _redo(
        self,
        pairs: tuple[tuple[Callable[[Step], Any], Rule], ...],
        s: Step,
        out: list[Raw],
        strict: bool,
        names: Mapping[str, str],
    ) -> None:
        """A step whose checks raised, redone rule by rule (rules are pure), the failing one reported."""
        for _, r in pairs:
            self._collect(r, r.check, s, s.event.seq, out, strict, names)  # type: ignore[arg-type]

    def finish(self, end: End, strict: bool = False) -> list[Raw]:
        """The raw findings of the whole-match rules, on the final frame."""
        out: list[Raw] = []
        names = players_of(end.start)
        for r in self._finishers:
            self._collect(r, r.finish, end, end.last_seq, out, strict, names)  # type: ignore[arg-type]
        return out

    def session(
        self, start: MatchStarted, options: Mapping[str, Any], catalogue: Any = None, strict: bool = False
    ) -> Session:
        """An audit fed one event at a time (``Session``), starting at ``start``."""
        return Session(self, start, options, catalogue, strict)

    @staticmethod
    def _collect(
        r: Rule,
        fn: Callable[[Any], Iterable[Flag]],
        arg: Any,
        seq: int,
        out: list[Raw],
        strict: bool,
        names: Mapping[str, str],
    ) -> None:
        try:
            for hit in fn(arg) or ():
                out.append(r.raw(hit, names))
        except Exception as exc:  # a rule bug must not stop the audit; it is reported
            if strict:
                raise
            out.append(INTERNAL.raw(Flag(seq, {"rule": r.code, "error": f"{type(exc).__name__}: {exc}"})))


class Outcome(NamedTuple):
    """What the audit of a whole match gives (``Engine.check``)."""

    findings: list[Finding]
    """One per mistake, sorted by (seq, code) (or every finding unmerged)."""
    final: Frame[Any]
    """The frame after the last event: the state the end-of-match rules judged."""


def players_of(start: MatchStarted) -> dict[str, str]:
    """Player id -> name, as match.start lists them."""
    return {p.id: p.name for p in start.players}


class Delta(NamedTuple):
    """What one event fed to a ``Session`` changed in its findings."""

    added: list[Finding]
    """New findings, sorted by (seq, code): a finding that gained a consequence is removed and added again."""
    removed: list[Finding]
    """Findings gone: those of events a void took back, or redone after it, or merged into another."""


class Session:
    """The engine's audit of a match being recorded: fed one event at a time, it keeps the
    frame after the last one and the findings so far (``Engine.session``).

    Each event is folded by the projector's ``advance`` and checked by the same rules, in
    the same order, as ``Engine.run``, and the findings are merged (``merge``) the same way:
    fed a whole log one event at a time, ``findings()`` then ``finish()`` give exactly what
    ``Engine.run`` gives for it. A ``log.void`` that takes events back rewinds to the latest
    snapshot before the first of them and folds the events after it again, passing over
    the voided ones; the findings of the refolded events are redone (``Delta.removed`` /
    ``added``). End-of-match rules run on demand.
    """

    def __init__(
        self,
        engine: Engine,
        start: MatchStarted,
        options: Mapping[str, Any],
        catalogue: Any = None,
        strict: bool = False,
        every: int = 32,
    ) -> None:
        self.engine, self.start, self.options, self.catalogue, self.strict = engine, start, options, catalogue, strict
        self.names = players_of(start)
        self.every = max(1, every)
        self.events: list[Event] = [start]
        """Every event fed, voided ones included: ``events[i].seq == i + 1``."""
        self.frame: Frame[Any] = first_frame(engine.projection, start, options)
        """The frame after the last event."""
        self._snaps: list[Frame[Any]] = [self.frame]
        self._found: list[tuple[int, Raw]] = []
        """(seq of the event whose check found it, raw finding), in the order the events were checked."""
        self._check(start, self.frame, self.frame)

    @property
    def voided(self) -> dict[int, int]:
        """Seq taken back -> the seq of the log.void that took it back."""
        return self.frame.log.voided

    def findings(self) -> list[Finding]:
        """The findings of every event so far, merged and sorted by (seq, code); end-of-match rules not run."""
        return made(merge(r for _, r in self._found))

    def finish(self) -> list[Finding]:
        """Every finding, the end-of-match rules' included, exactly as ``Engine.run`` gives them."""
        end = End(self.frame, self.options, self.start, self.frame.seq, self.catalogue)
        return made(merge([r for _, r in self._found] + self.engine.finish(end, self.strict)))

    def feed(self, event: Event) -> Delta:
        """Fold and check the next event; what it changed in the findings."""
        if event.seq != self.frame.seq + 1:
            raise ValueError(f"expected seq {self.frame.seq + 1}, got {event.seq}")
        self.events.append(event)
        if type(event) is LogVoided:
            taken = [
                v.seq
                for v in void_verdicts(event, self.frame.log)
                if v.problem is None and v.seq not in self.frame.log.voided
            ]
            if taken:
                return self._refold(min(taken), {**dict.fromkeys(self.voided), **dict.fromkeys(taken)})
        mark = len(self._found)
        self._step(event, NONE_VOIDED)
        if len(self._found) == mark:
            return Delta([], [])
        return _delta(made(merge(r for _, r in self._found[:mark])), self.findings())

    def extend(self, events: Iterable[Event]) -> None:
        """Feed a run of events at once (a log recorded before): one pass, voids known up front."""
        new = list(events)
        skip = voided_in(self.events + new)
        if min(skip, default=self.frame.seq + 1) <= self.frame.seq:
            raise ValueError("the events take back events already fed: feed them one by one")
        for event in new:
            if event.seq != self.frame.seq + 1:
                raise ValueError(f"expected seq {self.frame.seq + 1}, got {event.seq}")
            self.events.append(event)
            self._step(event, skip)

    def _step(self, event: Event, skip: Any) -> None:
        for _, before, after in advance(self.engine.projection, self.frame, (event,), skip):
            self.frame = after
            if event.seq not in skip:
                self._check(event, before, after)
        if self.frame.seq % self.every == 0:
            self._snaps.append(self.frame)

    def _check(self, event: Event, before: Frame[Any], after: Frame[Any]) -> None:
        out: list[Raw] = []
        cls = type(event)
        pairs = self.engine._checks.get(cls) or self.engine._checks_of(cls)
        self.engine._check(
            pairs, Step(event, before, after, self.options, self.start, self.catalogue), out, self.strict, self.names
        )
        self._found.extend((event.seq, r) for r in out)

    def _refold(self, first: int, skip: dict[int, None]) -> Delta:
        """Fold again from the latest snapshot before ``first``, passing over ``skip``."""
        old = self.findings()
        while self._snaps[-1].seq >= first:
            self._snaps.pop()
        self.frame = self._snaps[-1]
        cut = next((i for i, (seq, _) in enumerate(self._found) if seq > self.frame.seq), len(self._found))
        del self._found[cut:]
        for event in self.events[self.frame.seq :]:
            self._step(event, skip)
        return _delta(old, self.findings())


def _delta(old: list[Finding], new: list[Finding]) -> Delta:
    return Delta(sorted(_minus(new, old), key=Finding.sort_key), sorted(_minus(old, new), key=Finding.sort_key))


def _minus(a: list[Finding], b: list[Finding]) -> list[Finding]:
    """``a`` without one equal finding of ``b`` for each in ``b`` (a multiset difference)."""
    rest = list(b)
    out = []
    for f in a:
        if f in rest:
            rest.remove(f)
        else:
            out.append(f)
    return out
