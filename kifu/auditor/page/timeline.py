"""The end of the match page: the judge rulings and the timeline of every event, flagged events linked to
their findings and charted values shown as they change."""

from __future__ import annotations

from typing import Any, Sequence

import msgspec

from ...events.base import Event, JudgeRuling, event_type
from ...projector import series
from ..base import Finding
from .common import (
    SEVERITIES,
    Context,
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
        f'<tr><td>{seq_links((r.seq,))}</td><td>{seq_links(r.about)}</td>'
        f"<td>{ctx.name(r.decision or '')} <code>{ctx.name(r.code or '')}</code></td><td>{ctx.user(r.text)}</td></tr>"
        for r in rulings
    )
    table = labelled_table(ctx, ("seq", "about", "decision", "detail"), rows)
    return f'<h2>{esc(ctx.t("rulings"))}</h2><div class="card">{table}</div>'


def timeline_section(ctx: Context, events: Sequence[Event], findings: Sequence[Finding]) -> str:
    flagged: dict[int, list[tuple[int, Finding]]] = {}
    for i, f in enumerate(findings, 1):
        for s in f.seqs:
            flagged.setdefault(s, []).append((i, f))
    changes = _changes(ctx)
    # A log with no times (most imports of paper play) gets no empty time column.
    timed = any(e.at for e in events)
    columns = ("seq", "time", "by", "type", "detail", "change") if timed else ("seq", "by", "type", "detail", "change")
    rows = "".join(_event_row(ctx, e, flagged.get(e.seq, []), changes.get(e.seq, ""), timed) for e in events)
    table = labelled_table(ctx, columns, rows, "timeline")
    return f'<h2 id="timeline">{esc(ctx.t("timeline"))}</h2><div class="card">{table}</div>'


def _changes(ctx: Context) -> dict[int, str]:
    """Seq -> the charted values that event changed, as ``label who old→new``."""
    out: dict[int, str] = {}
    before: series.Values = {}
    for seq, values in ctx.table:
        moved = [
            f"{_change_label(ctx, k)} {esc(num(before[k]))}→{esc(num(v))}"
            for k, v in values.items() if k in before and before[k] != v
        ]
        if moved:
            out[seq] = "<br>".join(moved)
        before = values
    return out


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
    return (
        f'<tr id="seq-{e.seq}" class="{sev}"><td><a href="#seq-{e.seq}">{e.seq}</a></td>'
        + (f'<td class="t" title="{ctx.attr(e.at)}">{ctx.name(_clock(e.at))}</td>' if timed else "")
        + f'<td class="who">{ctx.name(ctx.who(e.by))}</td>'
        f'<td class="ty">{esc(event_type(type(e)))}</td><td>{_detail(ctx, e)}{notes}</td>'
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
    if isinstance(e, JudgeRuling) and k == "about":
        return seq_links(e.about)
    return ctx.user(plain(v))
