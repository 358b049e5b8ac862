"""One verifying read of a log, whatever holds it: a file, its bytes, or events already in memory.

Every use case starts here (``kifu.app``). A file is read once, through the log layer's one
verifier, a block at a time; a log of up to ``HOLD`` events is held whole, so that what needs
the whole log first (the events a ``log.void`` takes back, which come after what they void) is
worked out from memory. A longer log streams: memory does not grow with it, and only a long log
that holds a void is read a second time, once its voids are known (``Reading.again``).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator, Sequence
from operator import attrgetter
from typing import Any, Union

from kifu.events import logfile
from kifu.events.base import Event, JudgeRuling, LogVoided, MatchEnded, MatchStarted, Source
from kifu.events.codec import encode, line_hash
from kifu.projector.base import voided_in

LogSource = Union[str, "os.PathLike[str]", bytes, bytearray, logfile.Log, Sequence[Event]]
"""What a use case reads: a log file's path, its bytes, a ``logfile.Log`` read before, or the events of a
log built in memory (``kifu.app.chain``), ``match.start`` first."""

HOLD = 20_000
"""Events held in memory while a file is read: a log this short is read once whatever it holds."""

Progress = logfile.Progress
"""Told the byte offset reached in the file, once per block read (for a progress bar)."""

_SRC = attrgetter("src")


class Reading:
    """A log read and verified once; its events whole (``events``) or as a stream (``stream``).

    What a use case needs besides the events is gathered on the way: the judge rulings and
    voids (``booked``, for the voids and the stances) and the events made of messages a source
    marks as edited (``edited``).
    """

    def __init__(self, source: LogSource, progress: Progress | None = None, where: str | None = None) -> None:
        self.progress = progress
        self.events: list[Event] | None = None
        """Every event, ``match.start`` first, when the log is held whole."""
        self.booked: list[Event] = []
        """The judge rulings and log voids, in order (what ``voided_in`` reads); of a streamed log, once read."""
        self.edited: dict[int, Source] = {}
        """Seq -> ``src`` of each event made of a message its source marks as edited; of a streamed log, once read."""
        self.end: MatchEnded | None = None
        """The first ``match.end`` the log records, as written (a void may take it back); of a streamed log, once read."""
        self._path: str | os.PathLike[str] | None = None
        self._rest: Iterator[list[Event]] = iter(())
        if isinstance(source, (bytes, bytearray)):
            self.where = where or "<bytes>"
            verified = logfile.verify_bytes(bytes(source), self.where)
            self._whole(verified.events, verified.head)
        elif isinstance(source, logfile.Log):
            self.where = where or source.path
            self._whole(source.events, source.head)
        elif isinstance(source, (str, os.PathLike)):
            self.where = where or str(source)
            self._path = source
            self._read()
        else:
            self.where = where or "<events>"
            events = list(source)
            self._whole(events, logfile.Head(events[-1].seq, line_hash(encode(events[-1]))))

    def _whole(self, events: list[Event], head: logfile.Head) -> None:
        self.events, self._head = events, head
        kinds = set(map(type, events))
        if JudgeRuling in kinds or LogVoided in kinds:
            self.booked = [e for e in events if type(e) is JudgeRuling or type(e) is LogVoided]
        if MatchEnded in kinds:
            self.end = next(e for e in events if type(e) is MatchEnded)

    def _read(self) -> None:
        """Read until the log ends (held whole) or passes ``HOLD`` events (then it streams)."""
        self._reader = logfile.Reader(self._path, self.progress)  # type: ignore[arg-type]
        blocks = self._reader.blocks()
        held: list[Event] = []
        for block in blocks:
            held += block
            if len(held) > HOLD:
                self._held: list[Event] | None = held
                self._rest = blocks
                return
        self._whole(held, self._reader.head)

    @property
    def whole(self) -> bool:
        """True when every event is held (``events``)."""
        return self.events is not None

    @property
    def start(self) -> MatchStarted:
        first = self.events[0] if self.events is not None else self._held[0]  # type: ignore[index]
        assert isinstance(first, MatchStarted)  # the Verifier refuses any other first line
        return first

    @property
    def head(self) -> logfile.Head:
        """The log's head: known once the log is read to its end."""
        return self._head if self.events is not None else self._reader.head

    def stream(self) -> Iterator[Event]:
        """Every event once, ``match.start`` first: the held ones, then the rest as it is verified."""
        if self.events is not None:
            return iter(self.events)
        held, self._held = self._held, None
        blocks = itertools.chain((held,), self._rest)
        return itertools.chain.from_iterable(map(self._watch, blocks))  # type: ignore[arg-type]

    def _watch(self, block: list[Event]) -> list[Event]:
        """Keep what the use cases need of a block of a streamed log (its classes found in C first)."""
        kinds = set(map(type, block))
        if JudgeRuling in kinds or LogVoided in kinds:
            self.booked += [e for e in block if type(e) is JudgeRuling or type(e) is LogVoided]
        if any(map(_SRC, block)):
            self.edited.update((e.seq, e.src) for e in block if e.src is not None and e.src.edited)
        if self.end is None and MatchEnded in kinds:
            self.end = next(e for e in block if type(e) is MatchEnded)
        return block

    def voided(self) -> dict[int, int]:
        """Seq -> the log.void that takes it back (``voided_in``); of a streamed log, once it is read."""
        return voided_in(self.booked) if self.booked else {}

    def again(self) -> Iterator[Event]:
        """The events of a streamed log read a second time (its voids are known now), verified again."""
        assert self._path is not None
        return logfile.Reader(self._path, self.progress).events()

    def edited_among(self, seqs: Iterable[int]) -> dict[int, Source]:
        """The ``src`` of each of ``seqs`` made of a message its source marks as edited, in seq order."""
        if self.events is None:
            return {s: self.edited[s] for s in sorted(seqs) if s in self.edited}
        events = self.events
        found = ((s, events[s - 1].src) for s in sorted(seqs) if 1 <= s <= len(events))
        return {s: src for s, src in found if src is not None and src.edited}


def consume(events: Iterable[Any]) -> None:
    """Read what is left of a stream (it is verified as it is read)."""
    for _ in events:
        pass
