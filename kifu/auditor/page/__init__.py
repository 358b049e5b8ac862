"""One self-contained HTML page per match, for a judge reviewing a dispute and for the players.

Any game of the registry: who played, the verdict, every finding with its rule
explained (title, citation, what it checks, why, the evidence compared), charts
of the state over time (kifu/projector/series.py) drawn as inline SVG, judge
rulings, and the timeline with flagged events highlighted and linked both ways.

The page needs no network and one script of its own: styles are inline, charts and
the board (each game's drawing of the table after an event, ``board``) are SVG, the
script steps the board through the events (allowed by its hash; a
Content-Security-Policy forbids everything else), and every text that comes from the
log is escaped. Without the script the page loses only the stepping. Pure: events,
frames and findings in, a string out.

One module per part of the page, top to bottom: ``summary`` (header, verdict,
kifu's stance on each ruling, players; the options below the findings), ``findings``,
``charts``, ``timeline`` (rulings and every event), ``board`` (the board beside the
timeline and its script); the look in ``styles``, and what every section shares (the
``Context``, escaping, formatting) in ``common``.
"""

from __future__ import annotations

import itertools
from typing import Any
from collections.abc import Iterable, Mapping, Sequence

from ...events import i18n
from ...events.base import Event, JudgeRuling, LogVoided, MatchEnded, MatchStarted, Source
from ...projector import series
from ...projector.base import Frame
from ..base import Finding
from ..provenance import wanted
from ..report import voided as report_voided
from ..tally import Tally
from . import board
from .charts import charts_section
from .common import Context, esc
from .findings import findings_section
from .styles import CSP, CSS, PALETTE
from .summary import header_section, options_section, top_section
from .timeline import Rows, rulings_section, timeline_section

PAGE_CSP = f"{CSP}; script-src '{board.SCRIPT_HASH}'"
"""The page's policy: kifu's (no network, inline styles) and its one script, by hash."""

__all__ = ["render", "render_steps"]


def render(
    events: Iterable[Event],
    frames: Iterable[Frame[Any]],
    findings: Sequence[Finding],
    lang: str = "en",
    *,
    head: str | None = None,
    source: str | None = None,
) -> str:
    """The whole page of one match as an HTML string.

    ``frames`` are the frames after each event (``projector.base.frames``),
    ``head`` the log's head hash and ``source`` the log's path, both shown as given.
    """
    events = list(events)
    gone = {seq: void for seq, (void, _) in report_voided(events).items()}
    rulings = [e for e in events if isinstance(e, JudgeRuling) and e.seq not in gone]
    last = events[-1].seq if events else None
    return render_steps(
        zip(events, frames), findings, lang, head=head, source=source, voids=gone, rulings=rulings, last=last
    )


def render_steps(
    steps: Iterable[tuple[Event, Frame[Any]]],
    findings: Sequence[Finding],
    lang: str = "en",
    *,
    head: str | None = None,
    source: str | None = None,
    voids: Mapping[int, LogVoided] | None = None,
    rulings: Sequence[JudgeRuling] = (),
    last: int | None = None,
) -> str:
    """The page from (event, frame after it) pairs, read once: ``render`` for a stream.

    ``voids`` names the events a log.void took back (seq -> the void): struck through
    on the timeline with who took them back and why. ``rulings`` (the log's judge
    rulings) and ``last`` (its last seq), known from a first pass, let a long log's
    page keep the events around each ruling and draw the board only for the events it
    shows.

    Nothing is kept per event but what the page draws: the charted values where they
    change, and the timeline's rows (every row up to ``FULL_TIMELINE`` events, then
    the summary of ``timeline.Rows``), so a long log makes a page of bounded size in
    bounded memory.
    """
    it = iter(steps)
    first = next(it)
    start = first[0]
    assert isinstance(start, MatchStarted)
    pass_ = _Pass(start, findings, voids or {}, lang, rulings, last)
    for event, frame in itertools.chain((first,), it):
        pass_.see(event, frame)
    ctx = pass_.context(lang)
    body = "".join(
        (
            header_section(ctx, head, source),
            top_section(ctx, findings),
            findings_section(ctx, findings),
            options_section(ctx),
            charts_section(ctx, findings),
            rulings_section(ctx),
            timeline_section(ctx, pass_.rows, findings, source, board.panel(ctx.boards, ctx.t)),
            f"<footer>{esc(ctx.t('footer'))}</footer>",
        )
    )
    title = f"{esc(ctx.t('page'))}: {ctx.attr(ctx.start.match)}"
    script = f"{ctx.boards.template()}<script>{board.SCRIPT}</script>" if ctx.boards is not None else ""
    return (
        f'<!doctype html>\n<html lang="{esc(ctx.lang)}"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(PAGE_CSP)}">'
        f'<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{title}</title><style>{CSS}</style></head>\n<body><main>{body}</main>{script}</body></html>\n"
    )


class _Pass:
    """What the page keeps of one pass over the match: a few values per change, never one per event."""

    def __init__(
        self,
        start: MatchStarted,
        findings: Sequence[Finding],
        voids: Mapping[int, LogVoided],
        lang: str = "en",
        rulings: Sequence[JudgeRuling] = (),
        last: int | None = None,
    ) -> None:
        from .. import (
            registry,  # the registry imports every game; only the page needs all of them
        )

        self.voids = voids
        self.start = start
        self.game = registry.game(start.game) if registry.known(start.game) else None
        self.rules = {r.code: r for r in (registry.rules_of(self.game) if self.game else registry.all_rules())}
        self.options = registry.options(self.game, start) if self.game else {}
        self.values = self.game.charts.values if self.game else None
        self.table: list[tuple[int, series.Values]] = []
        """(seq, values) where the values differ from the event before, with the event before such a change
        and the last event: the same points and steps as the values after every event (see ``_keep``)."""
        self._last: tuple[int, series.Values] | None = None
        self._last_kept = False
        self.rulings: list[JudgeRuling] = []
        self.end: MatchEnded | None = None
        cited = {s for f in findings for s in f.seqs}
        self._asked = wanted(findings)
        self.edited: dict[int, Source] = {}
        """The source of each event a finding names that came from a message edited after it was sent."""
        self.by_seq: dict[int, str | None] = {}
        self._finding_seqs = {f.seq for f in findings}
        focus = {r.seq for r in rulings} | {s for r in rulings for s in r.about}
        self.rows = Rows(cited, focus, last)
        self.boards = board.Boards(self.game, findings, lang, {p.id: p.name for p in start.players})
        self._before: Frame[Any] | None = None
        self._findings = findings
        self.timed = False
        self.last_seq = start.seq
        self.randomness = Tally()
        """How many random outcomes, how many verifiable (counted a block at a time)."""
        self._block: list[Event] = []

    def see(self, event: Event, frame: Frame[Any]) -> None:
        seq = event.seq
        self.last_seq = seq
        self.timed = self.timed or bool(event.at)
        if seq in self._finding_seqs:
            self.by_seq[seq] = event.by
        if event.src is not None and event.src.edited and seq in self._asked:
            self.edited[seq] = event.src
        if isinstance(event, JudgeRuling):
            self.rulings.append(event)
        elif isinstance(event, MatchEnded) and self.end is None:
            self.end = event
        drawn = None
        if self.boards.drawn and self.rows.boards(event) and (not self.boards.full or self.rows.in_tail(seq)):
            drawn = self.boards.add(event, self._before, frame, seq in self.voids)
        self._before = frame
        self.rows.add(event, self._keep(seq, self.values(frame)) if self.values is not None else None, drawn)
        self._block.append(event)
        if len(self._block) >= 4096:
            self.randomness.add_all(self._block)
            self._block = []

    def _keep(self, seq: int, values: series.Values) -> tuple[series.Values, series.Values] | None:
        """Keep ``values`` where they changed (and the unchanged ones just before); (before, after) of a change.

        The points left out repeat the point before them, so the charts' lines, dots and
        axes and the timeline's changes are exactly those of the values after every event.
        """
        last = self._last
        change = None
        if last is None:
            self.table.append((seq, values))
            self._last_kept = True
        elif values != last[1]:
            if not self._last_kept:
                self.table.append(last)
            self.table.append((seq, values))
            self._last_kept = True
            change = (last[1], values)
        else:
            self._last_kept = False
        self._last = (seq, values)
        return change

    def context(self, lang: str) -> Context:
        if self._last is not None and not self._last_kept:
            self.table.append(self._last)
        self.randomness.add_all(self._block)
        self._block = []
        ids = [p.id for p in self.start.players]
        return Context(
            lang=lang if lang in i18n.LANGS else "en",
            start=self.start,
            game=self.game,
            rules=self.rules,
            options=self.options,
            names={p.id: p.name for p in self.start.players},
            colours={pid: PALETTE[i % len(PALETTE)] for i, pid in enumerate(ids)},
            metrics=self.game.charts.metrics if self.game else (),
            table=self.table,
            last_seq=self.last_seq,
            rulings=tuple(self.rulings),
            end=self.end,
            by_seq=self.by_seq,
            timed=self.timed,
            voids=self.voids,
            edited=self.edited,
            randomness=self.randomness,
            boards=self._shown(),
        )

    def _shown(self) -> board.Shown | None:
        """The boards of the rows the timeline shows; the stepped board opens at the first error or warning."""
        if not self.boards.drawn:
            return None
        rows = [(e.seq, ids) for e, _, ids in self.rows.shown() if ids is not None]
        flagged = [f.seq for f in self._findings if f.severity != "info"]
        return board.Shown(self.boards, rows, min(flagged) if flagged else None)
