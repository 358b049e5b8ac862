"""The use cases that judge a match: ``audit`` (findings, voids, stances, provenance, head, in one
verifying pass), ``report`` (the match page from that same pass) and ``state_at`` (time travel).

Each reads its log once (``kifu.app.reading``): the verifier, the fold and the rules see every
event once, and what else a report needs (the events voids took back, the judge rulings, the
sources of edited messages) is gathered on the way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import msgspec

from kifu.auditor import registry
from kifu.auditor.base import Finding, Game
from kifu.auditor.provenance import Edited, wanted
from kifu.auditor.report import Voided, collect_voided
from kifu.auditor.stance import Stance, stances
from kifu.events.base import Event, JudgeRuling, MatchEnded, MatchStarted
from kifu.events.logfile import Head
from kifu.projector.base import NONE_VOIDED, Frame, transitions

from .reading import LogSource, Progress, Reading, consume


# Audit and Report are msgspec Structs, not dataclasses: a dataclass compiles its methods as the class is made,
# a cost every cold `kifu audit` paid.


class Audit(msgspec.Struct, frozen=True):
    """One log read, verified and audited in a single pass.

    >>> import kifu
    >>> done = kifu.audit("fixtures/gunandgun/dispute.jsonl")
    >>> [(f.code, f.seq, f.severity) for f in done.errors]
    [('GG-TOSS-001', 14, 'error'), ('GG-LIM-001', 27, 'error')]
    """

    source: str
    """Where the log was read from: its path as given (``<bytes>``, ``<events>`` for a log in memory)."""
    start: MatchStarted
    """Its ``match.start``: the game, the match id, the players, the rule options."""
    head: Head
    """Its last seq and the hash of its last line: what a match slip carries."""
    findings: list[Finding]
    """One per mistake, sorted by (seq, code): each with ``code``, ``seq`` (and ``seqs``), ``severity``,
    ``message`` and ``citation`` in both languages (``.en``, ``.ja``, ``.get(lang)``), ``evidence`` and the
    ``consequences`` merged into it."""
    voided: Voided
    """Seq of each event a ``log.void`` took back -> (that void, the event taken back)."""
    stances: list[Stance]
    """kifu's stance on each judge ruling the log records, in the log's order."""
    provenance: Edited
    """Seq -> the source (``src``) of each event the findings name that was made of a message its source
    marks as edited after it was sent."""
    final: Frame[Any]
    """The state after the last event (``.log`` and ``.game``), as the end-of-match rules judged it."""
    end: MatchEnded | None = None
    """The first ``match.end`` the log records, as written (``final.log`` says whether a void took it back)."""

    @property
    def game(self) -> str:
        """The game id the log names."""
        return self.start.game

    @property
    def match(self) -> str:
        """The match id the log names."""
        return self.start.match

    @property
    def errors(self) -> list[Finding]:
        """The findings of error severity (``kifu audit`` exits 1 when there is one)."""
        return [f for f in self.findings if f.severity == "error"]


class Report(msgspec.Struct, frozen=True):
    """The match page of one log and the audit it shows, from one pass."""

    page: str
    """The self-contained HTML page (docs/report.md)."""
    audit: Audit
    """What the page shows: findings, stances, voids, head."""


class OutOfRange(ValueError):
    """``state_at`` was asked for a seq the log does not have."""

    def __init__(self, seq: int, last: int) -> None:
        super().__init__(f"seq {seq} is outside 1..{last}")
        self.seq, self.last = seq, last


def audit(
    source: LogSource,
    *,
    merged: bool = True,
    strict: bool = False,
    progress: Progress | None = None,
    where: str | None = None,
) -> Audit:
    """Read, verify and audit one log in a single pass.

    ``source`` is a log file's path, its bytes (``where`` names them in errors), a ``logfile.Log`` or the
    events of a log built in memory (``kifu.chain``). ``merged=False`` gives every finding as the rules'
    checks made it (``kifu audit --all``); ``strict=True`` lets a rule that raises fail the audit (tests)
    instead of becoming a KIFU-ENG-001 finding. A log that cannot be trusted raises its ``KifuError``
    (naming file, line and field): it gets no verdict.
    """
    return _audit(Reading(source, progress, where), merged, strict, None)


def report(
    source: LogSource,
    lang: str = "en",
    *,
    merged: bool = True,
    progress: Progress | None = None,
    drawing: Callable[[], None] | None = None,
) -> Report:
    """The match page of one log (``kifu report``), drawn from the frames the rules judged.

    The page needs the findings before it is drawn; a log held whole (up to ``reading.HOLD``
    events) keeps its frames while it is audited, a longer one is folded a second time for the
    page, each frame drawn and dropped. ``drawing`` is told when the audit is done and the page
    is drawn (a progress bar's label).
    """
    reading = Reading(source, progress)
    pairs: list[tuple[Event, Frame[Any]]] | None = [] if reading.whole else None
    done = _audit(reading, merged, False, pairs)
    if drawing is not None:
        drawing()
    steps: Iterable[tuple[Event, Frame[Any]]] = pairs if pairs is not None else _refold(reading, done)
    from kifu.auditor import page  # the page's modules: only a report pays for importing them

    voids = {seq: void for seq, (void, _) in done.voided.items()}
    rulings = [s.ruling for s in done.stances]
    html = page.render_steps(
        steps,
        done.findings,
        lang,
        head=done.head.hash,
        source=done.source,
        voids=voids,
        rulings=rulings,
        last=done.head.seq,
    )
    return Report(html, done)


def state_at(source: LogSource, seq: int | None = None, *, progress: Progress | None = None) -> Frame[Any]:
    """The state after event ``seq`` (the last event when None), as ``kifu state --at`` prints it.

    The fold stops at ``seq``; the rest of the log is still read and verified (a log that cannot
    be trusted gives no state). ``OutOfRange`` when the log has no such seq.

    >>> import kifu
    >>> kifu.state_at("fixtures/gunandgun/dispute.jsonl", 12).game.players["p1"].life
    29
    """
    reading = Reading(source, progress)
    g, options = _game(reading.start)
    frame = _fold_to(g, options, reading.stream(), seq, reading.voided() if reading.whole else NONE_VOIDED)
    if not reading.whole:
        voided = reading.voided()
        if voided:  # a void takes its events back at every seq, before the void too: fold again
            frame = _fold_to(g, options, reading.again(), seq, voided)
    last = reading.head.seq
    if seq is not None and not 1 <= seq <= last:
        raise OutOfRange(seq, last)
    assert frame is not None
    return frame


class NoBoard(ValueError):
    """``board_at`` was asked for the board of a game that draws none."""

    def __init__(self, game: str) -> None:
        super().__init__(f"the game {game} has no board")
        self.game = game


def board_at(source: LogSource, seq: int | None = None, lang: str = "en", *, progress: Progress | None = None) -> str:
    """The table after event ``seq`` (the last when None) drawn as a standalone SVG, the findings on that event
    marked and listed: the picture of the match page's board (``kifu state -f svg``).

    The log is audited first (its findings are marked on the picture, as on the page), then folded
    again up to ``seq``. ``OutOfRange`` when the log has no such seq, ``NoBoard`` when its game draws
    no board.

    >>> import kifu
    >>> picture = kifu.board_at("fixtures/gunandgun/dispute.jsonl", 39)
    >>> picture.startswith("<?xml"), "after seq 39" in picture
    (True, True)
    """
    from kifu.auditor.board import Around, Mark

    reading = Reading(source, progress)
    done = _audit(reading, True, False, None)
    last = done.head.seq
    at = last if seq is None else seq
    if not 1 <= at <= last:
        raise OutOfRange(at, last)
    g, options = _game(done.start)
    if g.board is None:
        raise NoBoard(g.id)
    events = reading.again()
    start = next(events)
    assert isinstance(start, MatchStarted)
    folded = transitions(g.projection, start, events, options, set(done.voided))
    event, before, after = next(step for step in folded if step[0].seq == at)
    consume(events)  # the rest is verified, not folded
    marks = tuple(Mark(f.severity, f.code, f.message.get(lang), f.evidence) for f in done.findings if at in f.seqs)
    names = {p.id: p.name for p in start.players}
    around = Around(event=event, before=before if at > 1 else None, marks=marks, names=names, voided=at in done.voided)
    picture: str = g.board(after, lang, around).document()
    return picture


def _fold_to(
    g: Game, options: dict[str, Any], events: Iterator[Event], seq: int | None, voided: Any
) -> Frame[Any] | None:
    """The frame after ``seq`` (or the last), reading the rest of ``events`` unfolded."""
    start = next(events)
    assert isinstance(start, MatchStarted)
    frame = None
    if seq is None or seq >= 1:
        for _, _, frame in transitions(g.projection, start, events, options, voided):  # noqa: B007
            if frame.seq == seq:
                break
    consume(events)
    return frame


def _game(start: MatchStarted) -> tuple[Game, dict[str, Any]]:
    g = registry.game(start.game)
    return g, registry.options(g, start)


def _audit(reading: Reading, merged: bool, strict: bool, pairs: list[tuple[Event, Frame[Any]]] | None) -> Audit:
    start = reading.start
    g, options = _game(start)
    voided = reading.voided() if reading.whole else {}
    findings, final = _check(g, options, start, reading.stream(), voided, merged, strict, pairs)
    taken: list[Event] = reading.events or []
    if not reading.whole:
        voided = reading.voided()
        if voided:  # the voids came after what they take back: audit again knowing them
            events = _picking(reading.again(), set(voided) | set(voided.values()), taken)
            findings, final = _check(g, options, start, events, voided, merged, strict, None)
    gone = collect_voided(voided, taken)
    rulings = [e for e in reading.booked if type(e) is JudgeRuling and e.seq not in gone]
    return Audit(
        source=reading.where,
        start=start,
        head=reading.head,
        findings=findings,
        voided=gone,
        stances=stances(rulings, findings),
        provenance=reading.edited_among(wanted(findings)),
        final=final,
        end=reading.end,
    )


def _picking(events: Iterable[Event], seqs: set[int], out: list[Event]) -> Iterator[Event]:
    """``events``, keeping those of ``seqs`` in ``out`` on the way (the voids and what they took back)."""
    for e in events:
        if e.seq in seqs:
            out.append(e)
        yield e


def _check(
    g: Game,
    options: dict[str, Any],
    start: MatchStarted,
    events: Iterator[Event],
    voided: dict[int, int],
    merged: bool,
    strict: bool,
    pairs: list[tuple[Event, Frame[Any]]] | None,
) -> tuple[list[Finding], Frame[Any]]:
    """One fold of the match with every rule (``pairs``, when given, keeps each event's frame for the page)."""
    next(events)  # match.start: ``start`` (read again, the same line)
    skip = voided or NONE_VOIDED
    steps = transitions(g.projection, start, events, options, skip)
    if pairs is not None:
        steps = _keeping(steps, pairs)
    catalogue = g.catalogue(start) if g.catalogue else None
    return registry.engine(g.id).check(start, steps, options, catalogue, strict, skip, merged)


def _keeping(steps: Iterable[tuple[Event, Frame[Any], Frame[Any]]], pairs: list[tuple[Event, Frame[Any]]]) -> Any:
    for step in steps:
        pairs.append((step[0], step[2]))
        yield step


def _refold(reading: Reading, done: Audit) -> Iterator[tuple[Event, Frame[Any]]]:
    """The (event, frame after it) pairs of a streamed log, from a second read (the page of a long log)."""
    g, options = _game(done.start)
    events = reading.again()
    start = next(events)
    assert isinstance(start, MatchStarted)
    return ((e, after) for e, _, after in transitions(g.projection, start, events, options, set(done.voided)))
