"""The charts of the match page: the state over time (kifu/projector/series.py) as inline SVG step lines,
with the events that have findings marked."""

from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Iterable, Sequence

from ...projector import series
from ..base import Finding
from .common import Context, esc, metric_label, num
from .styles import TABLE_COLOUR

W, H = 560, 190
ML, MR, MT, MB = 40, 12, 12, 26


def charts_section(ctx: Context, findings: Sequence[Finding]) -> str:
    charts = [_chart(ctx, m, findings) for m in ctx.metrics]
    charts = [c for c in charts if c]
    if not charts:
        return f"<h2>{esc(ctx.t('charts'))}</h2><p>{esc(ctx.t('no_charts'))}</p>"
    marked = any(f.severity != "info" for f in findings)
    note = f'<p class="note">{esc(ctx.t("chart_note"))}</p>' if marked else ""
    return f'<h2>{esc(ctx.t("charts"))}</h2>{note}<div class="charts">{"".join(charts)}</div>'


def _lines(ctx: Context, metric: str) -> dict[str, list[tuple[int, float]]]:
    """Series key -> the (seq, value) points where the value is known, in seq order."""
    out: dict[str, list[tuple[int, float]]] = {}
    for seq, values in ctx.table:
        for k, v in values.items():
            if series.split(k)[0] == metric:
                out.setdefault(k, []).append((seq, v))
    return out


def _chart(ctx: Context, metric: series.Metric, findings: Sequence[Finding]) -> str:
    lines = _lines(ctx, metric.name)
    if not lines:
        return ""
    lo, hi, step = _bounds(v for pts in lines.values() for _, v in pts)
    scale = _Scale(ctx.last_seq, lo, hi, step)
    label = metric_label(ctx, metric.name)
    svg = "".join(
        (_axes(scale), _markers(scale, findings), *(_path(ctx, scale, k, pts, label) for k, pts in lines.items()))
    )
    legend = "".join(_legend_item(ctx, k) for k in lines)
    return (
        f'<div class="card chart"><h3>{esc(label)}</h3><svg viewBox="0 0 {W} {H}" role="img" '
        f'aria-label="{esc(label)}" xmlns="http://www.w3.org/2000/svg">{svg}</svg>'
        f'<div class="legend">{legend}</div></div>'
    )


@dataclass(frozen=True)
class _Scale:
    last: int
    lo: float
    hi: float
    step: int

    def x(self, seq: int) -> float:
        span = max(1, self.last - 1)
        return round(ML + (seq - 1) * (W - ML - MR) / span, 1)

    def y(self, v: float) -> float:
        return round(H - MB - (v - self.lo) * (H - MT - MB) / (self.hi - self.lo), 1)


def _nice_step(span: float) -> int:
    """A round step giving three to six grid lines over ``span``."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if span / step <= 5:
            return step
    return int(span // 5) or 1


def _bounds(values: Iterable[float]) -> tuple[float, float, int]:
    """(low, high, step) of a y axis: zero included, ends on round numbers."""
    vals = list(values)
    lo, hi = min(0.0, *vals), max(1.0, *vals)
    step = _nice_step(hi - lo)
    return float(math.floor(lo / step) * step), float(math.ceil(hi / step) * step), step


def _ticks(lo: float, hi: float, step: int) -> list[float]:
    return [float(v) for v in range(int(lo), int(hi) + 1, step)]


def _axes(s: _Scale) -> str:
    out = []
    for v in _ticks(s.lo, s.hi, s.step):
        y = s.y(v)
        out.append(
            f'<line x1="{ML}" x2="{W - MR}" y1="{y}" y2="{y}" stroke="#e5e7eb"/>'
            f'<text x="{ML - 6}" y="{y + 4}" font-size="11" text-anchor="end" fill="#6b7280">{num(v)}</text>'
        )
    step = _round_step(s.last)
    # A round label too close to the last seq would overprint it.
    seqs = [q for q in range(step, s.last, step) if s.last - q >= step / 2]
    for seq in (1, *seqs, s.last):
        out.append(f'<text x="{s.x(seq)}" y="{H - 8}" font-size="11" text-anchor="middle" fill="#6b7280">{seq}</text>')
    out.append(f'<line x1="{ML}" x2="{W - MR}" y1="{H - MB}" y2="{H - MB}" stroke="#9ca3af"/>')
    return "".join(out)


def _round_step(last: int) -> int:
    """A round seq step giving about six x labels."""
    raw = max(1, last // 6)
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if step >= raw:
            return step
    return raw


def _markers(s: _Scale, findings: Sequence[Finding]) -> str:
    out = []
    for i, f in enumerate(findings, 1):
        if f.severity == "info":
            continue
        x = s.x(f.seq)
        colour = "#dc2626" if f.severity == "error" else "#d97706"
        out.append(
            f'<a href="#f-{i}"><title>{esc(f.code)} (seq {f.seq})</title>'
            f'<line x1="{x}" x2="{x}" y1="{MT}" y2="{H - MB}" stroke="{colour}" stroke-width="2" '
            f'stroke-dasharray="4 3"/><rect x="{x - 5}" y="{MT}" width="10" height="{H - MT - MB}" '
            f'fill="transparent"/></a>'
        )
    return "".join(out)


def _path(ctx: Context, s: _Scale, k: str, pts: list[tuple[int, float]], label: str) -> str:
    """A step line (state changes at events, it does not slide between them) with a dot per change."""
    colour = _colour(ctx, k)
    d = [f"M{s.x(pts[0][0])},{s.y(pts[0][1])}"]
    dots = []
    prev = pts[0][1]
    for seq, v in pts[1:]:
        if v != prev:
            d.append(f"H{s.x(seq)}V{s.y(v)}")
            dots.append(_dot(ctx, s, k, seq, prev, v, label, colour))
            prev = v
    d.append(f"H{s.x(pts[-1][0])}")
    # Players level with each other (everyone starts at 30 life) would hide one
    # line under the other; a nudge of a pixel or two keeps both visible.
    shift = f' transform="translate(0 {_nudge(ctx, k)})"' if _nudge(ctx, k) else ""
    return (
        f'<g{shift}><path d="{"".join(d)}" fill="none" stroke="{colour}" stroke-width="2.2" '
        f'stroke-opacity="0.9" stroke-linejoin="round"/>{"".join(dots)}</g>'
    )


def _nudge(ctx: Context, k: str) -> float:
    player = series.split(k)[1]
    ids = list(ctx.names)
    if player not in ids or len(ids) < 2:
        return 0.0
    return round((ids.index(player) - (len(ids) - 1) / 2) * 2.0, 1)


def _dot(ctx: Context, s: _Scale, k: str, seq: int, old: float, new: float, label: str, colour: str) -> str:
    who = _series_owner(ctx, k)
    tip = f"seq {seq}: {who} {label} {num(old)} → {num(new)}"
    return (
        f'<a href="#seq-{seq}"><circle cx="{s.x(seq)}" cy="{s.y(new)}" r="3.2" fill="{colour}">'
        f"<title>{ctx.attr(tip)}</title></circle></a>"
    )


def _series_owner(ctx: Context, k: str) -> str:
    player = series.split(k)[1]
    return ctx.t("table") if player is None else ctx.who(player)


def _colour(ctx: Context, k: str) -> str:
    player = series.split(k)[1]
    return TABLE_COLOUR if player is None else ctx.colours.get(player, TABLE_COLOUR)


def _legend_item(ctx: Context, k: str) -> str:
    return f'<span><span class="swatch" style="background:{_colour(ctx, k)}"></span>{ctx.name(_series_owner(ctx, k))}</span>'
