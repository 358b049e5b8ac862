"""Pure folds over a match log: the state after any event (DESIGN.md contract 3).

A game plugs in two functions: ``initial(start, options) -> State`` and
``apply(state, event) -> State``. The projection is total: an event that breaks
a rule still changes the state as recorded; judging it is the auditor's job.

An event a ``log.void`` takes back (a recording mistake) is passed over as if it
had never happened: the fold leaves the state as it was (``voided``). Which
events a void takes back is decided here once (``void_verdicts``), for the
projections, the auditor's rules and the live session alike. Nothing here does I/O.
"""

from __future__ import annotations

import bisect
import itertools
from datetime import datetime
from typing import (
    Any,
    Generic,
    NamedTuple,
    Protocol,
    TypeVar,
)
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence

import msgspec

from ..events import rfc3339
from ..events.base import RNG_EVENTS, Event, JudgeRuling, LogVoided, MatchEnded, MatchStarted, Note

S = TypeVar("S")


class Dispatch(Generic[S]):
    """A game's ``apply``: one small handler per event class, and optionally one step after every handler.

    >>> apply = Dispatch()
    >>> @apply.on(Note)
    ... def _(state, event): return state

    ``after(state_before, state_after, event)`` runs after the handler of every event (or
    after no handler): for what follows from any event, such as Weiss Schwarz's rule actions.
    """

    def __init__(self, after: Callable[[S, S, Any], S] | None = None) -> None:
        self.handlers: dict[type[Event], Callable[[S, Any], S]] = {}
        self.after = after

    def on(self, *classes: type[Event]) -> Callable[[Callable[[S, Any], S]], Callable[[S, Any], S]]:
        def register(fn: Callable[[S, Any], S]) -> Callable[[S, Any], S]:
            for cls in classes:
                self.handlers[cls] = fn
            return fn

        return register

    def __call__(self, state: S, event: Event) -> S:
        handler = self.handlers.get(type(event))
        new = state if handler is None else handler(state, event)
        return new if self.after is None else self.after(state, new, event)


class Projection(Protocol[S]):
    """What a game provides to the projector (its ``projection`` module)."""

    def initial(self, start: MatchStarted, options: Mapping[str, Any]) -> S: ...

    apply: Dispatch[S]


def parse_time(at: str | None) -> datetime | None:
    """A strict RFC 3339 time (``kifu.events.rfc3339``), or None if absent or unreadable (KIFU-LOG-004 reports
    the latter): the basic form or a week date Python would read is no time the warehouse can store."""
    return rfc3339.parse(at)


class LogState(msgspec.Struct, frozen=True, kw_only=True):
    """What every match has, whatever the game."""

    seq: int = 0
    """The last event folded in."""
    players: tuple[str, ...] = ()
    """Player ids from match.start, in seat order."""
    ended: int | None = None
    """Seq of the first match.end, if any."""
    winner: str | None = None
    """Winner named by match.end."""
    last_at: str | None = None
    """The latest readable ``at`` so far."""
    last_at_seq: int | None = None
    """The seq that carried ``last_at``."""
    rulings: int = 0
    """How many judge.ruling events so far."""
    notes: int = 0
    """How many notes so far."""
    unread: tuple[int, ...] = ()
    """Seqs of the notes an import marked as holding a dice result it could not read (``Note.unread``)."""
    ruled: tuple[tuple[int, tuple[int, ...]], ...] = ()
    """Every judge.ruling as written, voided or not: (its seq, the seqs it is about)."""
    voids: frozenset[int] = frozenset()
    """Seqs of the log.void events so far."""
    voided: dict[int, int] = {}
    """Seq taken back -> the seq of the log.void that took it back, as of this event."""
    rng: tuple[Event, ...] = ()
    """The verifiable-randomness events so far, in order: every ``rng.commit``, ``rng.nonce`` and
    ``rng.reveal``, and every event that names a commitment in its ``rng`` field, voided or not (what the
    KIFU-RNG rules judge; docs/randomness.md)."""


def log_initial(start: MatchStarted) -> LogState:
    return LogState(
        seq=1,
        players=tuple(p.id for p in start.players),
        last_at=start.at if parse_time(start.at) else None,
        last_at_seq=1 if parse_time(start.at) else None,
    )


_REPLACE = msgspec.structs.replace


def log_apply(state: LogState, event: Event) -> LogState:
    at, seq = event.at, event.seq
    cls = type(event)
    special: Callable[[LogState, Event, type], LogState] | None = _SPECIAL.get(cls, _UNSEEN)
    if special is _UNSEEN:
        special = _classify(cls)
    if special is not None:
        return special(state, event, cls)
    if at is None:  # most events of a live log: only the seq moves
        return _REPLACE(state, seq=seq)
    # Every event of an imported log carries ``at``: the common case is one parse (none when
    # the text repeats the latest) and one replace.
    if at == state.last_at or _later(at, state.last_at):
        return _REPLACE(state, seq=seq, last_at=at, last_at_seq=seq)
    return _REPLACE(state, seq=seq)


def _rng(state: LogState, event: Event, cls: type) -> LogState:
    if cls in RNG_EVENTS or event.rng is not None:  # type: ignore[attr-defined]  # _classify sends here only event types with an `rng` field
        state = _REPLACE(state, rng=state.rng + (event,))
    if event.at is not None and (event.at == state.last_at or _later(event.at, state.last_at)):
        return _REPLACE(state, seq=event.seq, last_at=event.at, last_at_seq=event.seq)
    return _REPLACE(state, seq=event.seq)


def _later(at: str, last_at: str | None) -> bool:
    """True if ``at`` is readable and not earlier than ``last_at`` (an unset last counts as earliest)."""
    if (
        last_at is not None
        and len(at) == 20 == len(last_at)
        and at[19] == "Z" == last_at[19]
        and at[10] == "T" == last_at[10]
    ):
        # Both "YYYY-MM-DDTHH:MM:SSZ": as text they sort as the times do, and ``last_at``
        # was read when it became the last; only ``at`` must still prove it is a time.
        # (A live log's times are unique, so parse_time's cache would only miss here.)
        return at >= last_at and _READ(at) is not None
    t = parse_time(at)
    if t is None:
        return False
    last = parse_time(last_at)
    return last is None or t >= last


_READ = rfc3339.read


def _counted(state: LogState, event: Event, cls: type) -> LogState:
    seq, at = event.seq, event.at
    last_at: str | None
    last_at_seq: int | None
    if at is not None and (at == state.last_at or _later(at, state.last_at)):
        last_at, last_at_seq = at, seq
    else:
        last_at, last_at_seq = state.last_at, state.last_at_seq
    if cls is Note:
        unread = state.unread + (seq,) if event.unread is not None else state.unread  # type: ignore[attr-defined]
        return _REPLACE(state, seq=seq, last_at=last_at, last_at_seq=last_at_seq, notes=state.notes + 1, unread=unread)
    if cls is JudgeRuling or cls is LogVoided:
        state = _book(state, event, cls)
        return _REPLACE(
            state, seq=seq, last_at=last_at, last_at_seq=last_at_seq, rulings=state.rulings + (cls is JudgeRuling)
        )
    assert isinstance(event, MatchEnded)
    if state.ended is None:
        return _REPLACE(state, seq=seq, last_at=last_at, last_at_seq=last_at_seq, ended=seq, winner=event.winner)
    return _REPLACE(state, seq=seq, last_at=last_at, last_at_seq=last_at_seq)


_COUNTED = frozenset({MatchEnded, JudgeRuling, Note, LogVoided})


# --- voids -----------------------------------------------------------------------

RECORDER_OR_JUDGE = ("recorder", "judge")
"""Who may take events back with a log.void."""


class VoidVerdict(NamedTuple):
    """What a log.void does to one seq it names."""

    seq: int
    """The seq named."""
    problem: str | None = None
    """None: taken back. Else why not: ``by`` (a void by someone else than a recorder or the
    judge), ``not-earlier`` (no such event before the void), ``match-start``, ``void`` (a void
    of a void) or ``ruled`` (a standing judge ruling is about it)."""
    ruling: int | None = None
    """For ``ruled``: the seq of the ruling."""


def void_verdicts(void: LogVoided, log: LogState) -> list[VoidVerdict]:
    """Each seq a void names, once, with what it does: judged on the log as it stood before the void.

    "As it stood" is the log as written, so a judge ruling counts from when it was made
    until a void before this one took the ruling back; a later void of the ruling does not
    reach back to this one. A void that names nothing it may take back is a finding, not an error:
    the events stay as recorded.
    """
    names = list(dict.fromkeys(void.about))
    if void.by not in RECORDER_OR_JUDGE:
        return [VoidVerdict(s, "by") for s in names]
    return [_verdict(s, void.seq, log) for s in names]


def _verdict(s: int, seq: int, log: LogState) -> VoidVerdict:
    if not 1 <= s < seq:
        return VoidVerdict(s, "not-earlier")
    if s == 1:
        return VoidVerdict(s, "match-start")
    if s in log.voids:
        return VoidVerdict(s, "void")
    ruling = next((r for r, about in log.ruled if s in about and r not in log.voided), None)
    return VoidVerdict(s, "ruled", ruling) if ruling is not None else VoidVerdict(s)


def _book(state: LogState, event: Event, cls: type) -> LogState:
    """The log's record of rulings and voids after ``event`` (a judge.ruling or a log.void)."""
    if cls is JudgeRuling:
        return _REPLACE(state, ruled=state.ruled + ((event.seq, tuple(event.about)),))  # type: ignore[attr-defined]  # a JudgeRuling (cls) has `about`
    assert isinstance(event, LogVoided)
    taken = {v.seq: event.seq for v in void_verdicts(event, state) if v.problem is None and v.seq not in state.voided}
    return _REPLACE(state, voids=state.voids | {event.seq}, voided={**state.voided, **taken} if taken else state.voided)


def log_skip(state: LogState, event: Event) -> LogState:
    """The log's part after an event that a void takes back: unchanged, but a ruling as written
    still counts for the voids between it and the void that takes it back (``void_verdicts``), and
    a verifiable-randomness event stays in ``rng``: a void never takes back randomness, the KIFU-RNG
    rules judge every toss as it was recorded and read ``voided`` to know what a void tried to take back
    (docs/randomness.md, "Voids")."""
    cls = type(event)
    if cls is JudgeRuling:
        return _book(state, event, JudgeRuling)
    if cls in RNG_EVENTS or getattr(event, "rng", None) is not None:
        return _REPLACE(state, rng=state.rng + (event,))
    return state


def voided_in(events: Iterable[Event]) -> dict[int, int]:
    """Seq -> the log.void that takes it back, for a whole log (the fold's pass-over list).

    A pass over the events before the fold, since a void comes after what it voids: over
    a log held whole, one C-level scan of the event types when it has no void; over a
    stream (a first pass over a file), one look at each event, nothing kept but the
    rulings and voids.
    """
    if isinstance(events, list):
        # list.__iter__: a list that counts its iterations (a progress bar's) must not count this pass.
        if LogVoided not in set(map(type, list.__iter__(events))):
            return {}
        events = list.__iter__(events)
    state = LogState()
    for e in events:
        cls = type(e)
        if cls is JudgeRuling or cls is LogVoided:
            state = _book(state, e, cls)
    return state.voided


_UNSEEN: Any = object()
_SPECIAL: dict[type, Callable[[LogState, Event, type], LogState] | None] = {
    **{cls: _counted for cls in _COUNTED},
    **{cls: _rng for cls in RNG_EVENTS},
}
"""Event class -> its log-level step, None for the plain ones (only seq and time move); filled on first sight."""


def _classify(cls: type) -> Callable[[LogState, Event, type], LogState] | None:
    """The log-level step of an event class not seen before: ``_rng`` when it has an ``rng`` field."""
    step = _SPECIAL[cls] = _rng if "rng" in getattr(cls, "__struct_fields__", ()) else None
    return step


class Frame(msgspec.Struct, Generic[S], frozen=True):
    """The whole state after one event: the log-level part and the game's part."""

    seq: int
    log: LogState
    game: S


def first_frame(projection: Projection[S], start: MatchStarted, options: Mapping[str, Any]) -> Frame[S]:
    return Frame(1, log_initial(start), projection.initial(start, options))


NONE_VOIDED: frozenset[int] = frozenset()


def advance(
    projection: Projection[S], frame: Frame[S], events: Iterable[Event], voided: Container[int] = NONE_VOIDED
) -> Iterator[tuple[Event, Frame[S], Frame[S]]]:
    """The fold, from ``frame`` on: (event, frame before it, frame after it) for each event.

    The one place a game's ``apply`` and the log's part are folded together: replays,
    time travel, the auditor's engine and its live session all step through here. An
    event whose seq is in ``voided`` leaves the state as it was (its frame after is the
    frame before, at its seq).
    """
    # The hot loop of every audit and replay: the Dispatch is unrolled here (a call saved per event).
    handler_of, also = projection.apply.handlers.get, projection.apply.after
    for event in events:
        game = frame.game
        if voided and event.seq in voided:
            after = Frame(event.seq, log_skip(frame.log, event), game)
        else:
            handler = handler_of(type(event))
            new = game if handler is None else handler(game, event)
            if also is not None:
                new = also(game, new, event)
            after = Frame(event.seq, log_apply(frame.log, event), new)
        yield event, frame, after
        frame = after


def transitions(
    projection: Projection[S],
    start: MatchStarted,
    rest: Iterable[Event],
    options: Mapping[str, Any],
    voided: Container[int] = NONE_VOIDED,
) -> Iterator[tuple[Event, Frame[S], Frame[S]]]:
    """A whole match folded: match.start (whose frame before is its frame after), then ``advance``."""
    frame = first_frame(projection, start, options)
    return itertools.chain(((start, frame, frame),), advance(projection, frame, rest, voided))


def step(projection: Projection[S], frame: Frame[S], event: Event) -> Frame[S]:
    """The frame after ``event``."""
    return next(advance(projection, frame, (event,)))[2]


def frames(
    projection: Projection[S], events: Iterable[Event], options: Mapping[str, Any], voided: Container[int] | None = None
) -> Iterator[Frame[S]]:
    """Replay from the start, yielding the frame after each event (a voided one's: the frame before).

    ``voided`` is the log's (``voided_in(events)``) unless given.
    """
    if voided is None:
        events = events if isinstance(events, Sequence) else list(events)
        voided = voided_in(events)
    it = iter(events)
    start = next(it)
    if not isinstance(start, MatchStarted):
        raise ValueError("a replay starts at match.start")
    for _, _, after in transitions(projection, start, it, options, voided):
        yield after


class Replay(Generic[S]):
    """Time travel over one log: ``state_at(seq)`` from the nearest snapshot.

    Snapshots are only a cache of frames every ``every`` events, taken by the
    first full replay; replaying from one gives the same frame as replaying from
    the start (a property test checks it).
    """

    def __init__(
        self, projection: Projection[S], events: Sequence[Event], options: Mapping[str, Any], every: int = 64
    ) -> None:
        if not events or not isinstance(events[0], MatchStarted):
            raise ValueError("a replay starts at match.start")
        self.projection = projection
        self.events = events
        self.options = options
        self.voided = voided_in(events)
        """Seq -> the void that takes it back: passed over at every seq, before the void too."""
        self.every = max(1, every)
        self._snap_seqs: list[int] = []
        self._snaps: list[Frame[S]] = []

    def _build(self) -> None:
        for frame in frames(self.projection, self.events, self.options, self.voided):
            if frame.seq % self.every == 1 or frame.seq == 1:
                self._snap_seqs.append(frame.seq)
                self._snaps.append(frame)

    @property
    def last(self) -> int:
        return self.events[-1].seq

    def state_at(self, seq: int) -> Frame[S]:
        """The frame after event ``seq`` (1 ≤ seq ≤ last)."""
        if not 1 <= seq <= self.last:
            raise IndexError(f"seq {seq} is outside 1..{self.last}")
        if not self._snaps:
            self._build()
        i = bisect.bisect_right(self._snap_seqs, seq) - 1
        snap = frame = self._snaps[i]
        for _, _, frame in advance(self.projection, snap, self.events[snap.seq : seq], self.voided):  # noqa: B007
            pass  # the loop keeps the last frame
        return frame

    def replay_from_start(self, seq: int) -> Frame[S]:
        """The same frame computed without snapshots (the reference)."""
        frame = None
        for frame in frames(self.projection, self.events[:seq], self.options, self.voided):  # noqa: B007
            pass  # the loop keeps the last frame
        assert frame is not None
        return frame


def state_at(projection: Projection[S], events: Sequence[Event], seq: int, options: Mapping[str, Any]) -> Frame[S]:
    """The frame after event ``seq``, replayed from the start."""
    return Replay(projection, events, options).replay_from_start(seq)
