"""One self-contained HTML page per match, for a judge reviewing a dispute and for the players.

Any game of the registry: who played, the verdict, every finding with its rule
explained (title, citation, what it checks, why, the evidence compared), charts
of the state over time (kifu/projector/series.py) drawn as inline SVG, judge
rulings, and the timeline with flagged events highlighted and linked both ways.

The page needs no script and no network: styles are inline, charts are SVG, a
Content-Security-Policy forbids everything else, and every text that comes from
the log is escaped. Pure: events, frames and findings in, a string out.

One module per part of the page, top to bottom: ``summary`` (header, verdict,
players, options), ``findings``, ``charts``, ``timeline`` (rulings and every
event); the words are in ``labels``, the look in ``styles``, and what every
section shares (the ``Context``, escaping, formatting) in ``common``.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...events import i18n
from ...events.base import Event, JudgeRuling, MatchStarted
from ...projector import series
from ...projector.base import Frame
from ..base import Finding, resolve_options
from .charts import charts_section
from .common import Context, esc
from .findings import findings_section
from .styles import CSP, CSS, PALETTE
from .summary import header_section, top_section
from .timeline import rulings_section, timeline_section

__all__ = ["render"]


def render(
    events: Sequence[Event],
    frames: Sequence[Frame[Any]],
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
    ctx = _context(events, frames, lang)
    body = "".join((
        header_section(ctx, head, source),
        top_section(ctx, events, findings),
        findings_section(ctx, findings),
        charts_section(ctx, findings),
        rulings_section(ctx),
        timeline_section(ctx, events, findings),
        f"<footer>{esc(ctx.t('footer'))}</footer>",
    ))
    title = f"{esc(ctx.t('page'))}: {ctx.attr(ctx.start.match)}"
    return (
        f'<!doctype html>\n<html lang="{esc(ctx.lang)}"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">'
        f'<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{title}</title><style>{CSS}</style></head>\n<body><main>{body}</main></body></html>\n"
    )


def _context(events: Sequence[Event], frames: Sequence[Frame[Any]], lang: str) -> Context:
    from .. import (
        registry,  # the registry imports every game; only the page needs all of them
    )

    start = events[0]
    assert isinstance(start, MatchStarted)
    game = registry.game(start.game) if registry.known(start.game) else None
    rules = {r.code: r for r in (registry.rules_of(game) if game else registry.all_rules())}
    ids = [p.id for p in start.players]
    return Context(
        lang=lang if lang in i18n.LANGS else "en",
        start=start,
        game=game,
        rules=rules,
        options=resolve_options(game.options, start.rules) if game else {},
        names={p.id: p.name for p in start.players},
        colours={pid: PALETTE[i % len(PALETTE)] for i, pid in enumerate(ids)},
        metrics=game.charts.metrics if game else (),
        table=series.table(game.charts, frames) if game else [],
        last_seq=events[-1].seq,
        rulings=tuple(e for e in events if isinstance(e, JudgeRuling)),
    )
