"""The end of the match page: the judge rulings and the timeline of every event, flagged events linked to
their findings and charted values shown as they change."""

from __future__ import annotations

import itertools
from collections import deque
from typing import Any
from collections.abc import Iterable, Sequence

import msgspec

from ...events.base import Event, JudgeRuling, LogVoided, MatchEnded, event_type
from ...projector import series
from ..base import Finding
from ..stance import decision_word
from . import board
from .common import (
    SEVERITIES,
    Context,
    edited_note,
    esc,
    labelled_table,
    metric_label,
    num,
    plain,
    seq_links,
)

ENVELOPE = ("type", "seq", "prev", "at", "by", "src")


def rulings_section(ctx: Context) -> str:
    rulings = ctx.rulings
    if not rulings:
        return ""
    rows = "".join(
        f"<tr><td>{seq_links((r.seq,))}</td><td>{seq_links(r.about)}</td>"
        f"<td>{ctx.name(decision_word(r.decision, ctx.lang))} <code>{ctx.name(r.code or '')}</code></td><td>{ctx.user(r.text)}</td></tr>"
        for r in rulings
    )
    table = labelled_table(ctx, ("seq", "about", "decision", "detail"), rows)
    return f'<h2>{esc(ctx.t("rulings"))}</h2><div class="card">{table}{_ruling_boards(ctx, rulings)}</div>'


def _ruling_boards(ctx: Context, rulings: Sequence[JudgeRuling]) -> str:
    """A static board of each event a ruling is about (of the ruling itself when it names none)."""
    figures: list[str] = []
    for r in rulings:
        for seq in list(dict.fromkeys(r.about))[:3] or [r.seq]:
            if len(figures) < board.STATIC_BOARDS:
                caption = ctx.th("board_ruling", ruling=seq_links((r.seq,)), seq=seq_links((seq,)))
                figures.append(board.static(ctx.boards, seq, caption))
    figures = [f for f in figures if f]
    return f'<div class="boards">{"".join(figures)}</div>' if figures else ""


FULL_TIMELINE = 5000
"""Events up to which the timeline shows every event; a longer log's timeline is summarised."""
HEAD = TAIL = 500
"""Events shown at the start and at the end of a summarised timeline."""
NEAR = 10
"""Events shown on either side of each event a finding cites or a ruling is about (and of each ruling), so
that a judge can step the board through what led there and what followed."""
BOARDS = 3000
"""Events up to which every row has its board; a longer log has boards for the events a summary keeps (the first
and last events, each finding's and ruling's neighbourhood), even where its timeline shows every event."""
NEAR_ROWS = 2000
"""At most about this many rows for those neighbourhoods: a log with hundreds of findings gets narrower ones
(each event a finding cites is always shown), so the page stays under 5 MB."""

Change = tuple[series.Values, series.Values]
"""The charted values before and after an event that changed them."""
Row = tuple[Event, "Change | None", "tuple[int, ...] | None"]
"""One row: the event, the charted values it changed, and its board (the parts it is drawn with)."""


class Rows:
    """The timeline's rows, gathered while the match streams by.

    Every event while the log has at most ``FULL_TIMELINE``; past that, the first
    ``HEAD`` events, the last ``TAIL``, and every event a finding cites, every ruling
    and the match end, with ``NEAR`` events on either side of each event a finding
    cites, each ruling and each event a ruling is about (``focus``), so that what a
    judge follows from a finding is on the page. Memory is bounded by those, whatever
    the log's length. With ``last`` (the log's last seq, known from a first pass),
    ``boards(event)`` says in advance whether the event's board is drawn.
    """

    def __init__(self, cited: set[int], focus: Iterable[int] = (), last: int | None = None) -> None:
        self.cited = cited
        centres = cited | set(focus)
        self.reach = min(NEAR, NEAR_ROWS // max(1, 2 * len(centres)))
        """Events shown on either side of each finding's and ruling's event."""
        self.near = {s + d for s in centres for d in range(-self.reach, self.reach + 1)}
        self.last = last
        self.n = 0
        self.head: list[Row] = []
        self.middle: list[Row] | None = []
        """Every row after the head, while the log may still be short enough to show whole."""
        self.kept: list[Row] = []
        """Rows after the head that a summary shows whatever comes later."""
        self.tail: deque[Row] = deque(maxlen=TAIL)

    def boards(self, event: Event) -> bool:
        """Whether this event's board is drawn: every event of a log of at most ``BOARDS``, else those a summary
        keeps (always, when the log's length is not known)."""
        seq, last = event.seq, self.last
        if last is None or last <= BOARDS or seq <= HEAD or seq > last - TAIL:
            return True
        return self._kept(event)

    def in_tail(self, seq: int) -> bool:
        """Whether ``seq`` is among the log's last ``TAIL`` events (when its length is known)."""
        return self.last is not None and seq > self.last - TAIL

    def _kept(self, event: Event) -> bool:
        return event.seq in self.near or isinstance(event, (JudgeRuling, MatchEnded))

    def add(self, event: Event, change: Change | None, board: tuple[int, ...] | None = None) -> None:
        self.n += 1
        row = (event, change, board)
        if self.n <= HEAD:
            self.head.append(row)
            return
        if self.middle is not None:
            if self.n <= FULL_TIMELINE:
                self.middle.append(row)
            else:
                self.middle = None
        if self._kept(event):
            self.kept.append(row)
        self.tail.append(row)

    @property
    def summarised(self) -> bool:
        return self.middle is None

    def shown(self) -> list[Row]:
        """The rows to show, in seq order."""
        if self.middle is not None:
            return self.head + self.middle
        rows = {r[0].seq: r for r in itertools.chain(self.head, self.kept, self.tail)}
        return [rows[seq] for seq in sorted(rows)]


def timeline_section(
    ctx: Context, rows: Rows, findings: Sequence[Finding], source: str | None = None, board: str = ""
) -> str:
    """The timeline of every event shown, with the stepped ``board`` beside it (above it on a phone)."""
    flagged: dict[int, list[tuple[int, Finding]]] = {}
    for i, f in enumerate(findings, 1):
        for s in f.seqs:
            flagged.setdefault(s, []).append((i, f))
    # A log with no times (most imports of paper play) gets no empty time column.
    timed = ctx.timed
    columns = ("seq", "time", "by", "type", "detail", "change") if timed else ("seq", "by", "type", "detail", "change")
    out = []
    last = 0
    for e, change, _ in rows.shown():
        if e.seq > last + 1:
            out.append(_gap(ctx, last + 1, e.seq - 1, len(columns), source))
        out.append(_event_row(ctx, e, flagged.get(e.seq, []), _change(ctx, change), timed))
        last = e.seq
    if rows.summarised and last < ctx.last_seq:
        out.append(_gap(ctx, last + 1, ctx.last_seq, len(columns), source))
    table = labelled_table(ctx, columns, "".join(out), "timeline timed" if timed else "timeline")
    note = (
        f'<p class="note">{esc(ctx.t("timeline_summary", events=rows.n, head=HEAD, tail=TAIL, near=rows.reach))}</p>'
        if rows.summarised
        else ""
    )
    heading = esc(ctx.t("board_timeline" if board else "timeline"))
    card = f'<div class="card tl">{table}</div>'
    stage = f'<div class="stage">{board}{card}</div>' if board else card
    return f'<h2 id="timeline">{heading}</h2>{note}{stage}'


def _gap(ctx: Context, first: int, last: int, columns: int, source: str | None) -> str:
    """A row standing for the events a summarised timeline leaves out, and how to list them."""
    command = f"kifu show {source or 'LOG'} --since {first} --until {last}"
    return (
        f'<tr class="gap"><td colspan="{columns}">'
        f"{esc(ctx.t('timeline_gap', n=last - first + 1, first=first, last=last, command=command))}</td></tr>"
    )


def _change(ctx: Context, change: Change | None) -> str:
    """The charted values an event changed, as ``label who old→new``."""
    if change is None:
        return ""
    before, values = change
    moved = [
        f"{_change_label(ctx, k)} {esc(num(before[k]))}→{esc(num(v))}"
        for k, v in values.items()
        if k in before and before[k] != v
    ]
    return "<br>".join(moved)


def _change_label(ctx: Context, k: str) -> str:
    metric, player = series.split(k)
    label = esc(metric_label(ctx, metric))
    return label if player is None else f"{label} {ctx.name(ctx.who(player))}"


def _event_row(ctx: Context, e: Event, flags: list[tuple[int, Finding]], change: str, timed: bool) -> str:
    sev = next((s for s in SEVERITIES if any(f.severity == s for _, f in flags)), "")
    sev = sev or ("ruling" if isinstance(e, JudgeRuling) else "")
    notes = "".join(
        f'<a class="flag {esc(f.severity)}" href="#f-{i}">▲ {esc(f.code)} {ctx.user(f.message.get(ctx.lang))}</a>'
        for i, f in flags
    )
    mark = ""
    if e.src is not None and e.src.edited:  # testimony changed after it was given: where to check it, what it says
        notes = f'<span class="edited">✎ {edited_note(ctx, e.src)}</span>{notes}'
        mark = f' <span class="editmark" title="{esc(ctx.t("edited_mark"))}">✎</span>'
    void = ctx.voids.get(e.seq)
    struck = (lambda html: f"<del>{html}</del>") if void is not None else (lambda html: html)
    if void is not None:  # never happened: struck through, with who took it back and why
        sev, change = "voided", ""
        voided = ctx.th("voided", seq=str(void.seq), by=ctx.name(ctx.who(void.by)), reason=ctx.user(void.reason))
        notes = f'<span class="void">{voided}</span>{notes}'
    return (
        f'<tr id="seq-{e.seq}" class="{sev}"><td><a href="#seq-{e.seq}">{e.seq}</a>{mark}</td>'
        + (f'<td class="t" title="{ctx.attr(e.at)}">{ctx.name(_clock(e.at))}</td>' if timed else "")
        + f'<td class="who">{struck(ctx.name(ctx.who(e.by)))}</td>'
        f'<td class="ty">{struck(esc(event_type(type(e))))}</td><td class="d">{struck(_detail(ctx, e))}{notes}</td>'
        f'<td class="chg">{change}</td></tr>'
    )


def _clock(at: str | None) -> str:
    """The time of day of an RFC 3339 time (the date is in the header); anything else as is."""
    if at and len(at) >= 19 and at[10] in "Tt ":
        return at[11:19]
    return at or ""


def _detail(ctx: Context, e: Event) -> str:
    d = msgspec.to_builtins(e)
    for k in ENVELOPE:
        d.pop(k, None)
    return "".join(f'<span class="kv"><i>{esc(k)}</i> {_value(ctx, e, k, v)}</span>' for k, v in d.items())


def _value(ctx: Context, e: Event, k: str, v: Any) -> str:
    # A ruling's subject events are links: the judge's reasoning is one click from the play.
    if isinstance(e, (JudgeRuling, LogVoided)) and k == "about":
        return seq_links(e.about)
    return ctx.user(plain(v))
