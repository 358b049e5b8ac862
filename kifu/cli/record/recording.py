"""A log being recorded at a table: its live audit, its notation and its appends (no UI).

The terminal app (``tui.py``) and the line-by-line mode (``__init__.py``) both drive a
``Recording``: ``preview`` says what a typed line would append, ``enter`` appends it
durably under the log's lock (the ``Writer`` of ``kifu append``) and feeds each new event
to the auditor's live ``Session``, which answers with the findings it added or removed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

from kifu.events import logfile
from kifu.events.base import Event, KifuError, LogVoided, MatchStarted, event_type
from kifu.events.i18n import Msg
from kifu.events.logfile import Head

# The rulebook, the notation and the mapping are imported when first used: the app puts the
# match and its head on screen before it needs them (a start measured in bench_record.py).
if TYPE_CHECKING:
    from kifu.auditor.base import Finding, Game, Session
    from kifu.events.notation import Reading, Table
    from kifu.projector.series import Board

    from .slip import Slip


def local_now() -> str:
    """The time now, RFC 3339 with the machine's offset, to the second."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


@dataclass
class Entered:
    """What entering one line did."""

    reading: Reading
    """The line as read (its error, if it was refused)."""
    events: list[Event] = field(default_factory=list)
    """The events appended, as written."""
    added: list[Finding] = field(default_factory=list)
    """Findings the new events brought, sorted."""
    removed: list[Finding] = field(default_factory=list)
    """Findings that went away (the events a void took back)."""
    synced: int = 0
    """Events someone else appended meanwhile, read in first."""

    @property
    def error(self) -> str | None:
        return self.reading.error


class Recording:
    """One log at the table: verified once on opening, then kept in step with every append."""

    def __init__(self, path: str | Path, clock: Callable[[], str | None] = local_now) -> None:
        self.path = Path(path)
        self.clock = clock
        self._log: logfile.Log | None = logfile.load(self.path)
        self.start: MatchStarted = self._log.start
        self.head: Head = self._log.head
        self._session: Session | None = None

    @cached_property
    def game(self) -> Game:
        from kifu.auditor import registry

        return registry.game(self.start.game)

    @cached_property
    def catalogue(self) -> Any:
        return self.game.catalogue(self.start) if self.game.catalogue else None

    @cached_property
    def table(self) -> Table:
        """The notation of this match: the game's mapping, its players, its catalogue's names."""
        from kifu.events import games, importers
        from kifu.events.notation import Table

        module = games.events_module(self.game.id)
        names = module.names(self.catalogue) if self.catalogue is not None and hasattr(module, "names") else []
        return Table(self.start, games.codec(self.game.id), importers.game_map(self.game.id), names)

    @property
    def ready(self) -> bool:
        """True once the log recorded so far has been folded and audited (``session``)."""
        return self._session is not None

    @property
    def session(self) -> Session:
        """The live audit, the log so far folded into it on first use (the app draws its first
        screen before: a long log takes a moment)."""
        if self._session is None:
            from kifu.auditor import registry

            log, self._log = self._log, None
            assert log is not None
            session = registry.engine(self.game.id).session(
                self.start, registry.options(self.game, self.start), self.catalogue
            )
            session.extend(log.events[1:])
            for e in log.events[1:]:
                if not isinstance(e, LogVoided) and e.seq not in session.voided:
                    self.table.recorded(e.seq, _line_of(e))
            self._session = session
        return self._session

    @classmethod
    def create(cls, path: str | Path, start: dict[str, Any], clock: Callable[[], str | None] = local_now) -> Recording:
        """A new log holding ``start`` (its ``at`` from the clock unless given), opened for recording."""
        at = start.get("at") or clock()
        logfile.create(path, {**start, "at": at} if at else start)
        return cls(path, clock)

    # --- reading and entering lines ---------------------------------------------------------

    @property
    def events(self) -> list[Event]:
        return self.session.events

    def preview(self, text: str) -> Reading:
        """What ``text`` would append now (nothing is written)."""
        return self.table.read(text, self.head.seq + 1, self.clock(), self.session.voided)

    def enter(self, text: str) -> Entered:
        """Append what ``text`` means, durably, and audit each new event as it is written."""
        with logfile.Writer(self.path) as writer:
            synced = self._sync(writer.head)
            reading = self.preview(text)
            if reading.error is not None or not reading.events:
                if reading.error is None:
                    self.table.commit(reading, ())
                return Entered(reading, synced=synced)
            written = [writer.append(e, expect_seq=writer.head.seq + 1) for e in reading.events]
            self.head = writer.head
        added: list[Finding] = []
        removed: list[Finding] = []
        for event in written:
            delta = self.session.feed(event)
            added += delta.added
            removed += delta.removed
        voided = self.session.voided
        taken = any(e.seq in voided.values() for e in written)
        self.table.commit(reading, [e.seq for e in written], taken)
        return Entered(reading, written, added, removed, synced)

    def undo(self) -> Entered:
        return self.enter("!undo")

    def _sync(self, head: Head) -> int:
        """Read in what another writer appended since our head (``kifu append`` from another device)."""
        if head == self.head:
            return 0
        log = logfile.load(self.path)
        mine = self.head.seq
        if len(log.events) <= mine or log.events[mine].prev != self.head.hash:
            raise KifuError(Msg("record.log_changed"), where=str(self.path))
        new = log.events[mine:]
        for event in new:
            self.session.feed(event)
            self.table.recorded(event.seq, _line_of(event))
        self.head = log.head
        return len(new)

    # --- what the screen shows -----------------------------------------------------------

    def board(self) -> Board:
        return self.game.charts.board(self.session.frame)

    def findings(self) -> list[Finding]:
        """The live findings (end-of-match rules only at the slip)."""
        return self.session.findings()

    def result(self) -> tuple[int | None, str | None]:
        """(seq of the match.end, winner) as the log stands, voids honoured."""
        log = self.session.frame.log
        return log.ended, log.winner

    def slip(self) -> Slip:
        """The match slip as the log stands: every finding, end-of-match rules included."""
        from .slip import build

        ended, _ = self.result()
        return build(
            self.start, self.head, self.session.finish(), self.events, ended, len(self.session.voided), self.path.name
        )


def _line_of(event: Event) -> str:
    """An event recorded before this session, as ``!undo`` names it in its reason."""
    from kifu.auditor.report import event_detail

    return f"{event_type(type(event))} {event_detail(event)}"
