"""Recording a match at a table, without a screen: the ``Recording`` of one log and its one writer.

``kifu record`` drives a ``Recording`` two ways. From a pipe, line by line: ``preview`` says
what a typed line would append, ``enter`` appends it durably under the log's lock (the
``Writer`` of ``kifu append``) and feeds each new event to the auditor's live ``Session``,
which answers with the findings it added or removed. In the terminal app, through a
``LineWriter``: the one thread that owns the Recording. The screen only edits the input and
hands over whole lines; the writer takes them from a FIFO queue in the order they were
entered, appends each and audits it, and reports each line's state (queued, then appended as
seq N, kept, or refused with the reason). So a line is never lost, appended twice or merged
with the next, whatever the pace of typing: that follows from one queue and one writer, not
from how fast anything runs. A paste of many lines is one job: every line is read first, and
either all are appended, in order, or none is (refused whole, with the line and the reason).
"""

from __future__ import annotations

import functools
import threading
import traceback
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import Enum
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kifu.events import i18n, logfile
from kifu.events.base import Event, KifuError, LogVoided, MatchEnded, MatchStarted, event_type
from kifu.events.i18n import Msg
from kifu.events.logfile import Head

# The rulebook, the notation and the mapping are imported when first used: the app puts the
# match and its head on screen before it needs them (a start measured in bench_record.py).
if TYPE_CHECKING:
    from kifu.auditor.base import Finding, Game
    from kifu.auditor.engine import Session
    from kifu.events.notation import Reading, Table
    from kifu.projector.series import Board


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
    def error(self) -> str | i18n.Msg | None:
        """Why the line was refused: a catalogue message (render it in the reader's language) or a reason."""
        return self.reading.error


@dataclass(frozen=True)
class Refused:
    """Why a paste was refused whole: nothing of it was appended."""

    index: int
    """Which of its lines (0-based) could not be recorded."""
    reason: str | i18n.Msg
    """Why, as the notation reader says it (a catalogue message: rendered in the reader's language)."""


class Recording:
    """One log at the table: verified once on opening, then kept in step with every append.

    Not thread-safe: one thread drives it (the ``LineWriter`` in the app).
    """

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
        from kifu.events import importers, table
        from kifu.events.notation import Table

        module = table.events_module(self.game.id)
        names = module.names(self.catalogue) if self.catalogue is not None and hasattr(module, "names") else []
        return Table(self.start, table.codec(self.game.id), importers.game_map(self.game.id), names)

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

    def warm(self) -> None:
        """Do now what the first line would otherwise wait for: fold and audit the log so far, load
        the notation and read one line (so the first line typed is as quick as the others)."""
        _ = self.session
        self.preview("!")
        self.table.complete("!")

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
            done = self._enter(writer, text)
        done.synced = synced
        return done

    def enter_each(self, texts: Sequence[str], out: list[Entered] | None = None) -> list[Entered]:
        """Enter each of ``texts`` in turn as ``enter`` would (each appended, or refused on its own),
        under one hold of the lock and one fsync at the end: lines that queued up while the last
        ones were written go to disk together (a burst of typing, a paste the terminal did not mark).

        ``out`` receives each line's result as it is made: if something fails half-way, the caller
        still knows which lines were written (they are fsync'd before the failure goes on).
        """
        done = [] if out is None else out
        with logfile.Writer(self.path, durable=False) as writer:
            synced = self._sync(writer.head)
            try:
                for text in texts:
                    done.append(self._enter(writer, text))
            finally:
                writer.sync()
        if done:
            done[0].synced = synced
        return done

    def enter_all(
        self, texts: Sequence[str], chunk: int = 100, progress: Callable[[list[Entered]], None] | None = None
    ) -> list[Entered] | Refused:
        """Append every line of ``texts`` in order, or none of them (a paste).

        Under one hold of the log's lock, every line is first read in turn as if the ones before
        it were recorded (nothing written); if one cannot be recorded, the whole paste is refused
        with that line and its reason. Otherwise each line is appended and audited, and every
        ``chunk`` lines are fsync'd together and handed to ``progress`` (so a long paste shows
        itself being written, each line only once it is durable; if something fails half-way,
        what was written is fsync'd and handed over before the failure goes on).
        """
        with logfile.Writer(self.path, durable=False) as writer:
            synced = self._sync(writer.head)
            refused = self._dry_run(texts)
            if refused is not None:
                return refused
            done: list[Entered] = []
            step: list[Entered] = []
            try:
                for text in texts:
                    step.append(self._enter(writer, text))
                    if len(step) == chunk:
                        writer.sync()
                        done += step
                        if progress:
                            progress(step)
                        step = []
            finally:
                writer.sync()
                done += step
                if progress and step:
                    progress(step)
        if done:
            done[0].synced = synced
        return done

    def _enter(self, writer: logfile.Writer, text: str) -> Entered:
        """One line under the lock ``writer`` holds: read, append, audit, keep."""
        reading = self.preview(text)
        if reading.error is not None or not reading.events:
            if reading.error is None:
                self.table.commit(reading, ())
            return Entered(reading)
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
        return Entered(reading, written, added, removed)

    def _dry_run(self, texts: Sequence[str]) -> Refused | None:
        """Read ``texts`` in turn as if each were recorded; the first that cannot be, if any."""
        mark = self.table.mark()
        voided = set(self.session.voided)
        seq = self.head.seq
        try:
            for i, text in enumerate(texts):
                reading = self.table.read(text, seq + 1, self.clock(), voided)
                if reading.error is not None:
                    return Refused(i, reading.error)
                seqs = list(range(seq + 1, seq + 1 + len(reading.events)))
                for e in reading.events:
                    if e.get("type") == "log.void":
                        voided.update(e.get("about", ()))
                self.table.commit(reading, seqs)
                seq += len(reading.events)
            return None
        finally:
            self.table.rewind(mark)

    def undo(self) -> Entered:
        return self.enter("!undo")

    def next_speaker(self) -> str:
        """The line that hands the turn to speak to the next player (``b:``), as F2 does."""
        ids = [p.id for p in self.start.players]
        now = self.table.speaker
        return f"{ids[(ids.index(now) + 1) % len(ids)] if now in ids else ids[0]}:" if ids else ""

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
        ended, _ = self.result()
        return build(
            self.start, self.head, self.session.finish(), self.events, ended, len(self.session.voided), self.path.name
        )

    def view(self, last: int = 40) -> View:
        """What the screen shows of the log as it stands: a value, safe to hand to another thread."""
        events = tuple(self.events[-last:])
        voided = dict(self.session.voided)
        return View(
            head=self.head,
            speaker=self.table.speaker,
            events=events,
            voided=voided,
            voids={e.seq: e for e in events if isinstance(e, LogVoided)},
            findings=tuple(self.findings()),
            board=self.board(),
            hidden=frozenset(self.table.hidden()),
        )


def _line_of(event: Event) -> str:
    """An event recorded before this session, as ``!undo`` names it in its reason."""
    from kifu.auditor.report import event_detail

    return f"{event_type(type(event))} {event_detail(event)}"


# --- the match slip (what it says; kifu/cli/record/slip.py draws it) ------------------------------


@dataclass(frozen=True)
class Slip:
    """What a match slip says."""

    start: MatchStarted
    head: Head
    findings: Sequence[Finding]
    """Every finding, end-of-match rules included."""
    end: MatchEnded | None
    """The match.end that stands (not voided), if any."""
    voided: int
    """How many events voids took back."""
    log: str
    """The log's file name, for the check line."""

    def result(self, lang: str) -> str:
        if self.end is None:
            return i18n.text("slip.unfinished", lang)
        names = {p.id: p.name for p in self.start.players}
        reason = self.end.reason or "-"
        if self.end.winner is None:
            return i18n.text("slip.draw", lang, reason=reason)
        return i18n.text(
            "slip.winner", lang, who=f"{self.end.winner} {names.get(self.end.winner, '')}".strip(), reason=reason
        )

    def lines(self, lang: str) -> list[tuple[str, str]]:
        """(label, value) rows, in print order."""
        from kifu.auditor.report import counts

        c = counts(self.findings)
        players = "  ".join(f"{p.id}={p.name}" for p in self.start.players)
        events = f"{self.head.seq}" + (f" ({i18n.text('slip.voided', lang, n=self.voided)})" if self.voided else "")
        return [
            (i18n.text("slip.game", lang), self.start.game),
            (i18n.text("slip.match", lang), self.start.match + (f"  {self.start.title}" if self.start.title else "")),
            (i18n.text("slip.players", lang), players),
            (i18n.text("slip.result", lang), self.result(lang)),
            (i18n.text("slip.events", lang), events),
            (i18n.text("slip.audit", lang), i18n.text("slip.audit_counts", lang, **c)),
            (i18n.text("slip.head", lang), f"seq {self.head.seq}"),
        ]

    def grouped_head(self) -> list[str]:
        """The head hash in four groups of 16 hex digits, two per line: easy to read aloud and compare."""
        h = self.head.hash
        return [f"{h[0:16]} {h[16:32]}", f"{h[32:48]} {h[48:64]}"]

    def check(self) -> str:
        return f"kifu verify {self.log} --expect-head {self.head.hash[:16]}"


def build(
    start: MatchStarted,
    head: Head,
    findings: Sequence[Finding],
    events: Sequence[Event],
    ended: int | None,
    voided: int,
    log: str,
) -> Slip:
    """A slip of a log whose standing match.end (if any) is at seq ``ended``."""
    end = events[ended - 1] if ended is not None else None
    assert end is None or isinstance(end, MatchEnded)
    return Slip(start, head, findings, end, voided, log)


@dataclass(frozen=True)
class View:
    """The log as the screen shows it, taken by the writer after a line (values only)."""

    head: Head
    """The last line's seq and hash."""
    speaker: str | None
    """Who the next line is by, unless it names someone."""
    events: tuple[Event, ...]
    """The latest events, oldest first."""
    voided: Mapping[int, int]
    """Every voided seq and the seq of the void that took it back."""
    voids: Mapping[int, LogVoided]
    """The voids among ``events``, by seq (to say who took an event back and why)."""
    findings: tuple[Finding, ...]
    """The live findings."""
    board: Any
    """The game's key figures after the last event (``Board``)."""
    hidden: frozenset[int] = frozenset()
    """Seqs whose text is secret for now (World Trigger's plot until it is answered)."""


# --- the one writer -------------------------------------------------------------------------------


class LineState(str, Enum):
    """Where a line entered at the table is."""

    QUEUED = "queued"
    """Entered, waiting for the writer (lines before it are being written)."""
    APPENDED = "appended"
    """Its events are on the log, durably, and audited."""
    KEPT = "kept"
    """Read, nothing to append (a speaker named alone, the first half of a plot kept for later)."""
    REFUSED = "refused"
    """Nothing appended: the reason says why."""


@dataclass(frozen=True)
class Line:
    """One line entered at the table and what became of it."""

    id: int
    """Its place in the order of entry (1, 2, …): the order the writer takes lines in."""
    text: str
    """The line as entered."""
    state: LineState = LineState.QUEUED
    seqs: tuple[int, ...] = ()
    """The seqs of the events it appended."""
    reason: str | None = None
    """Why it was refused (for a paste: the line of the paste that could not be recorded, and why)."""
    paste: tuple[int, int] | None = None
    """(its place in its paste, the paste's length), for a pasted line."""
    secret: bool = False
    """A secret kept for a later line (a World Trigger plot): the screen does not repeat its text."""
    entered: Entered | None = None
    """What entering it did (its findings added and removed, a hint), once written."""


@dataclass(frozen=True)
class Preview:
    """What the line being typed would append after every line queued before it."""

    text: str
    """The line as typed when the preview was asked for."""
    reading: Reading
    next_seq: int
    """The seq its first event would get."""
    speaker: str | None
    """The current speaker (before this line)."""
    words: tuple[str, ...] = ()
    """What Tab would complete the last word with."""


Report = Line | View | Preview | Slip
"""What the writer tells the screen."""

MAX_PASTE = 10_000
"""Lines one paste may hold."""
GROUP = 100
"""Single lines waiting in the queue that the writer takes together (one lock, one fsync)."""
VIEW_EVERY = 32
"""While lines wait in the queue, the screen's view is refreshed after this many of them."""


class LineWriter:
    """The one thread that owns a ``Recording``: takes lines from a FIFO queue in the order they
    were entered, appends each durably, audits it, and reports every change (``Report``).

    ``submit`` and ``paste`` return at once from any thread (the app's, between keystrokes); the
    thread takes the jobs one at a time, so lines are written in the order they were entered,
    each once, whole. Previews are asked for with ``preview`` and answered only when no line
    waits (the latest asked for wins, the others are skipped); the slip is a job in the queue
    like a line, so it includes every line entered before it. ``report`` is called from the
    writer's thread: it must hand the value over (a Textual app's ``post_message`` does).
    """

    def __init__(self, rec: Recording, report: Callable[[Report], None], lang: str = "en") -> None:
        self.rec = rec
        self.report = report
        self.lang = lang
        self.faults: list[str] = []
        """Tracebacks of faults of kifu's own the writer met (each refused its line)."""
        self._cond = threading.Condition()
        self._jobs: deque[tuple[str, Any]] = deque()
        self._preview: str | None = None
        self._closing = False
        self._current: tuple[str, Any] | None = None
        self._next_id = 1
        self._thread = threading.Thread(target=self._run, name="kifu-record-writer", daemon=True)
        self._thread.start()

    # --- from the screen's thread -----------------------------------------------------------

    def submit(self, text: str) -> Line:
        """Queue one line; it is returned in its queued state (the screen shows it at once)."""
        with self._cond:
            line = self._line(text)
            self._put(("line", line))
        return line

    def submit_next_speaker(self) -> Line:
        """Queue F2: the next player after whoever speaks when the lines before it are written."""
        with self._cond:
            line = self._line("")
            self._put(("speaker", line))
        return line

    def paste(self, texts: Sequence[str]) -> list[Line]:
        """Queue a paste: its lines are appended in order, all of them or none (``Recording.enter_all``)."""
        with self._cond:
            lines = [replace(self._line(t), paste=(i, len(texts))) for i, t in enumerate(texts, 1)]
            self._put(("paste", lines))
        return lines

    def preview(self, text: str) -> None:
        """Ask what ``text`` would append (answered with a ``Preview`` once no line waits)."""
        with self._cond:
            self._preview = text
            self._cond.notify()

    def slip(self) -> None:
        """Ask for the match slip as it stands after every line queued so far."""
        with self._cond:
            self._put(("slip", None))

    @property
    def waiting(self) -> int:
        """Jobs not yet taken (lines, pastes, slips)."""
        with self._cond:
            return len(self._jobs)

    @property
    def unwritten(self) -> int:
        """Lines entered and not yet settled: those queued, and those the writer is on."""
        with self._cond:
            jobs = [*self._jobs, *([self._current] if self._current else [])]
        return sum(len(arg) if kind == "paste" else 1 for kind, arg in jobs if kind in ("line", "paste", "speaker"))

    def close(self) -> None:
        """Write every line still queued, then stop; returns once the writer is done."""
        with self._cond:
            self._closing = True
            self._cond.notify()
        self._thread.join()

    def _line(self, text: str) -> Line:
        line = Line(self._next_id, text)
        self._next_id += 1
        return line

    def _put(self, job: tuple[str, Any]) -> None:
        if self._closing:
            raise RuntimeError("the writer is closed")
        self._jobs.append(job)
        self._cond.notify()

    # --- the writer's thread ---------------------------------------------------------------------

    def _run(self) -> None:
        self._guard(self.rec.warm)
        self._guard(lambda: self.report(self.rec.view()))
        since = 0
        while (job := self._take()) is not None:
            kind, arg = job
            if kind == "preview":
                self._guard(functools.partial(self._report_preview, arg))
                continue
            since += len(arg) if kind == "paste" else 1
            getattr(self, f"_do_{kind}")(arg)
            with self._cond:
                self._current = None
            if since >= VIEW_EVERY or not self.waiting:
                since = 0
                self._guard(lambda: self.report(self.rec.view()))

    def _take(self) -> tuple[str, Any] | None:
        with self._cond:
            while not self._jobs and not self._closing and self._preview is None:
                self._cond.wait()
            if self._jobs:
                self._current = self._jobs.popleft()
                return self._current
            if self._closing:
                return None
            text, self._preview = self._preview, None
            return ("preview", text)

    def _guard(self, work: Callable[[], Any]) -> str | None:
        """Run ``work``; a log that cannot be trusted or a fault of ours becomes a reason, never a dead writer."""
        try:
            work()
            return None
        except KifuError as exc:
            return exc.render(self.lang)
        except Exception as exc:  # noqa: BLE001 - a fault must not stop the lines after it
            self.faults.append(traceback.format_exc())
            return f"{type(exc).__name__}: {exc}"

    def _do_line(self, line: Line) -> None:
        """One line, and the single lines queued right behind it (at most ``GROUP``): one lock and one
        fsync for them all, each still appended or refused on its own, in order."""
        lines = [line]
        with self._cond:
            while self._jobs and self._jobs[0][0] == "line" and len(lines) < GROUP:
                lines.append(self._jobs.popleft()[1])
            self._current = ("paste", lines)  # (counted as the lines the writer is on)
        done: list[Entered] = []
        reason = self._guard(lambda: self.rec.enter_each([x.text for x in lines], done))
        for i, x in enumerate(lines):  # the lines a failure kept from being written: refused with it
            self.report(
                self._settled(x, done[i]) if i < len(done) else replace(x, state=LineState.REFUSED, reason=reason)
            )

    def _do_speaker(self, line: Line) -> None:
        self._do_line(replace(line, text=self.rec.next_speaker()))

    def _do_paste(self, lines: list[Line]) -> None:
        texts = [line.text for line in lines]
        at = [0]

        def progress(step: list[Entered]) -> None:
            for done in step:
                self.report(self._settled(lines[at[0]], done))
                at[0] += 1

        out: list[Any] = []
        reason = self._guard(lambda: out.append(self.rec.enter_all(texts, progress=progress)))
        if out and isinstance(out[0], Refused):
            bad = out[0]
            reason = i18n.text("cli.record_paste_refused", self.lang, line=bad.index + 1, error=bad.reason)
        for line in lines[at[0] :]:  # refused whole, or what a fault left unwritten
            self.report(replace(line, state=LineState.REFUSED, reason=reason))

    def _do_slip(self, _: None) -> None:
        slip: list[Slip] = []
        reason = self._guard(lambda: slip.append(self.rec.slip()))
        if slip:
            self.report(slip[0])
        elif reason:
            self.faults.append(reason)

    def _settled(self, line: Line, done: Entered) -> Line:
        if done.error is not None:
            reason = i18n.render(done.error, self.lang)  # the screen shows it in the recorder's language
            return replace(line, text=done.reading.text, state=LineState.REFUSED, reason=reason, entered=done)
        state = LineState.APPENDED if done.events else LineState.KEPT
        seqs = tuple(e.seq for e in done.events)
        secret = done.reading.secret is not None
        return replace(line, text=done.reading.text, state=state, seqs=seqs, secret=secret, entered=done)

    def _report_preview(self, text: str) -> None:
        self.report(self._preview_of(text))

    def _preview_of(self, text: str) -> Preview:
        reading = self.rec.preview(text)
        _, words = self.rec.table.complete(text)
        return Preview(text, reading, self.rec.head.seq + 1, self.rec.table.speaker, tuple(words[:8]))


def split_paste(text: str) -> list[str]:
    """The lines of a paste as the pipe mode reads them: split at CR, LF or CRLF, blank lines left out."""
    return [line for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n") if line.strip()]


def check_paste(lines: Sequence[str], lang: str) -> str | None:
    """Why a paste cannot be taken at all (too many lines, a line too long), before it is shown."""
    from kifu.events.notation import MAX_LINE

    if len(lines) > MAX_PASTE:
        return i18n.text("cli.record_paste_too_many", lang, n=len(lines), max=MAX_PASTE)
    for i, line in enumerate(lines, 1):
        if len(line) > MAX_LINE:
            return i18n.text("cli.record_paste_too_long", lang, line=i, n=len(line), max=MAX_LINE)
    return None
