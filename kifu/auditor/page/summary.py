"""The top of the match page: the header, the verdict and result, kifu's stance on each judge ruling, the
players; and, below the findings, the rule options."""

from __future__ import annotations

from collections.abc import Sequence

from ...projector import series
from ..base import CORE_OPTIONS, Finding
from ..report import counts
from ..stance import stances
from .common import SEVERITIES, Context, esc, labelled_table, metric_label, num, plain


def header_section(ctx: Context, head: str | None, source: str | None) -> str:
    s = ctx.start
    game = esc(ctx.game.title.get(ctx.lang)) if ctx.game else ctx.name(s.game)
    parts = [f"<b>{esc(ctx.t('game'))}</b> {game}", f"<b>{esc(ctx.t('match'))}</b> {ctx.name(s.match)}"]
    if s.at:
        parts.append(f"<b>{esc(ctx.t('started'))}</b> {ctx.name(s.at)}")
    parts.append(f"<b>{esc(ctx.t('events'))}</b> {ctx.last_seq}")
    lines = [f'<p class="meta">{" · ".join(parts)}</p>']
    if source:
        lines.append(f'<p class="meta"><b>{esc(ctx.t("log"))}</b> {ctx.name(source)}</p>')
    if head:
        lines.append(f'<p class="meta"><b>{esc(ctx.t("head"))}</b> <span class="hash">{esc(head)}</span></p>')
    heading = f"{esc(ctx.t('page'))}: {ctx.name(s.title or s.match)}"
    return f"<header><h1>{heading}</h1>{''.join(lines)}</header>"


def top_section(ctx: Context, findings: Sequence[Finding]) -> str:
    """The verdict, then kifu's stance on each ruling (what a judge looks for first), beside the players."""
    left = _verdict(ctx, findings) + _stances(ctx, findings)
    return f'<section class="top"><div>{left}</div><div>{_players(ctx, findings)}</div></section>'


def _verdict(ctx: Context, findings: Sequence[Finding]) -> str:
    n = counts(findings)
    worst = next((k for k in SEVERITIES if n[k]), None)
    headline = {"error": "errors", "warning": "warnings", "info": "infos", None: "clean"}[worst]
    c = {k: _count(ctx, k, v) for k, v in n.items()}
    return (
        f'<div class="card verdict {esc(worst or "clean")}"><p class="note">{esc(ctx.t("verdict"))}</p>'
        f'<p class="big">{esc(ctx.t(headline, **c))}</p><p>{esc(ctx.t("counts", **c))}</p>'
        f"<p><b>{esc(ctx.t('result'))}</b>: {_result(ctx)}</p>{_randomness(ctx)}</div>"
    )


def _randomness(ctx: Context) -> str:
    """How many random outcomes the match records and how many of them are verifiable (docs/randomness.md)."""
    t = ctx.randomness
    if t is None or not t.any:
        return ""
    r = t.result()
    key = "random_outcomes_voided" if r.voided else "random_outcomes"
    return (
        f"<p><b>{esc(ctx.t('random'))}</b>: "
        f"{esc(ctx.t(key, outcomes=r.outcomes, verifiable=r.verifiable, voided=r.voided))}</p>"
    )


def _count(ctx: Context, severity: str, n: int) -> str:
    """``エラー 3 件`` or ``3 errors`` (``info`` has no plural)."""
    word = ctx.t(severity)
    if ctx.lang == "ja":
        return f"{word} {n} 件"
    return f"{n} {word}{'s' if n != 1 and severity != 'info' else ''}"


def _result(ctx: Context) -> str:
    end = ctx.end
    if end is None:
        return esc(ctx.t("unfinished"))
    text = ctx.th("winner", winner=ctx.name(ctx.who(end.winner))) if end.winner else esc(ctx.t("draw"))
    reason = f" ({esc(ctx.t('reason'))}: {ctx.name(end.reason)})" if end.reason else ""
    return f'{text}{reason} · <a class="seqlink" href="#seq-{end.seq}">seq {end.seq}</a>'


def _players(ctx: Context, findings: Sequence[Finding]) -> str:
    by_seq = ctx.by_seq
    flagged: dict[str, int] = {}
    for f in findings:
        who = by_seq.get(f.seq)
        if who is not None:
            flagged[who] = flagged.get(who, 0) + 1
    final = ctx.table[-1][1] if ctx.table else {}
    rows = "".join(_player_row(ctx, p.id, final, flagged.get(p.id, 0)) for p in ctx.start.players)
    table = labelled_table(ctx, ("id", "name", "at_end", "on_their_events"), rows)
    return (
        f'<div class="card" style="margin-top:14px"><h2 style="margin-top:0">{esc(ctx.t("players"))}</h2>{table}</div>'
    )


def _player_row(ctx: Context, pid: str, final: series.Values, flagged: int) -> str:
    stats = " · ".join(
        f"{metric_label(ctx, m)} {num(v)}" for k, v in final.items() for m, p in (series.split(k),) if p == pid
    )
    swatch = f'<span class="swatch" style="background:{ctx.colours[pid]}"></span>'
    return (
        f"<tr><td>{swatch}<code>{ctx.name(pid)}</code></td><td>{ctx.name(ctx.names[pid])}</td>"
        f"<td>{esc(stats)}</td><td>{flagged}</td></tr>"
    )


def _stances(ctx: Context, findings: Sequence[Finding]) -> str:
    """One line per judge ruling: what it decided about which events, and whether kifu agrees."""
    if not ctx.rulings:
        return ""
    items = []
    for s in stances(ctx.rulings, findings):
        r = s.ruling
        said = s.ruled(ctx.lang)
        quoted = s.quoted(ctx.lang)
        about = ", ".join(f'<a class="seqlink" href="#seq-{int(x)}">seq {int(x)}</a>' for x in r.about)
        items.append(
            f'<li class="stance {esc(s.kind)}"><a class="seqlink" href="#seq-{r.seq}">seq {r.seq}</a> '
            f'<span class="note">{esc(ctx.t("about"))} {about}</span> <b>{esc(said)}</b>'
            + (f' <q class="ruling-text">{esc(quoted)}</q>' if quoted else "")
            + "<br>"
            f'<span class="badge {esc(s.kind)}">{esc(ctx.t("stance_" + s.kind))}</span> {esc(s.words().get(ctx.lang))}</li>'
        )
    return (
        f'<div class="card stances" style="margin-top:14px"><h2 style="margin-top:0">{esc(ctx.t("stances"))}</h2>'
        f"<ul>{''.join(items)}</ul></div>"
    )


def options_section(ctx: Context) -> str:
    """The rule options the match was audited under (below the findings: they explain, they are not the verdict)."""
    return _options(ctx)


def _options(ctx: Context) -> str:
    if ctx.game is None:
        return ""
    rows = []
    for o in ctx.game.options + CORE_OPTIONS:
        value = ctx.options.get(o.name, o.default)
        where = ctx.t("set_in_log") if o.name in ctx.start.rules else ctx.t("default")
        rows.append(
            f"<tr><td><code>{esc(o.name)}</code></td><td><b>{ctx.user(plain(value))}</b> "
            f'<span class="note">({esc(where)})</span><br><span class="note">{esc(o.doc.get(ctx.lang))}</span>'
            f"</td></tr>"
        )
    return (
        f'<h2 id="options">{esc(ctx.t("options"))}</h2><div class="card">'
        f"<table><tbody>{''.join(rows)}</tbody></table></div>"
    )
