"""The findings of the match page: one card per finding with its rule explained, the evidence compared
and the judge rulings on it."""

from __future__ import annotations

import re
from typing import Any
from collections.abc import Mapping, Sequence

from ...events.base import JudgeRuling, Source
from .. import provenance
from ...events.i18n import Document, Text, cited
from ..base import Finding, Rule
from ..stance import decision_word
from . import board
from .common import Context, edited_note, esc, plain, seq_links


def findings_section(ctx: Context, findings: Sequence[Finding]) -> str:
    if not findings:
        return f'<h2 id="findings">{esc(ctx.t("findings"))}</h2><p>{esc(ctx.t("no_findings"))}</p>'
    cards = "".join(_finding(ctx, i, f) for i, f in enumerate(findings, 1))
    return f'<h2 id="findings">{esc(ctx.t("findings"))} ({len(findings)})</h2>{cards}{_sources(ctx, findings)}'


def _sources(ctx: Context, findings: Sequence[Finding]) -> str:
    """The rule documents the findings cite, each by the name the citations use and its full title."""
    docs: dict[str, Document] = {}
    for f in findings:
        r = ctx.rules.get(f.code)
        if r is not None:
            for d in cited(r.citation, r.game):
                docs.setdefault(f"{r.game}.{d.id}", d)
    if not docs:
        return ""
    items = "".join(f"<li><b>{esc(d.name.get(ctx.lang))}</b>: {esc(d.title.get(ctx.lang))}</li>" for d in docs.values())
    return f'<div class="card sources"><p class="note">{esc(ctx.t("sources"))}</p><ul>{items}</ul></div>'


def _finding(ctx: Context, i: int, f: Finding) -> str:
    r = ctx.rules.get(f.code)
    title = r.title.get(ctx.lang) if r else f.name
    rows = [(ctx.t("at_seq"), seq_links(f.seqs)), (ctx.t("citation"), esc(f.citation.get(ctx.lang)))]
    if f.consequences:
        rows.append((ctx.t("consequences"), seq_links(f.consequences)))
    if r is not None:
        rows += [
            (ctx.t("checks"), _prose(r.doc.section("checks", ctx.lang))),
            (ctx.t("why"), _prose(r.doc.section("why", ctx.lang))),
        ]
        if r.options:
            rows.append((ctx.t("depends"), ctx.user(", ".join(f"{o}={plain(ctx.options.get(o))}" for o in r.options))))
    edited = provenance.of(f, ctx.edited)
    if edited:
        rows.append((ctx.t("from_edited"), _edited(ctx, edited)))
    if f.evidence:
        rows.append((ctx.t("evidence"), _evidence(ctx, f.evidence)))
    rows += [(ctx.t("ruled"), _ruling(ctx, r)) for r in _rulings_on(ctx, f)]
    dl = "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in rows)
    # the table at the finding's event, drawn whether or not the page's script runs
    at = (
        board.static(ctx.boards, f.seq, ctx.th("board_finding", seq=seq_links((f.seq,))))
        if i <= board.STATIC_BOARDS
        else ""
    )
    body = f"<dl>{dl}</dl>{_examples(ctx, r)}"
    body = f'<div class="with-board"><div>{body}</div>{at}</div>' if at else body
    return (
        f'<article class="finding {esc(f.severity)}" id="f-{i}" data-seq="{f.seq}"><h3><span class="badge {esc(f.severity)}">'
        f'{esc(ctx.t(f.severity))}</span> <span class="code">{esc(f.code)}</span> {esc(title)}</h3>'
        f'<div class="name">{esc(f.name)}</div><p class="msg">{ctx.user(f.message.get(ctx.lang))}</p>'
        f"{body}</article>"
    )


def _edited(ctx: Context, edited: list[tuple[int, Source]]) -> str:
    """Each of a finding's events made of an edited message: the event, where the source has it, its text."""
    return "".join(f'<div class="edited">✎ {seq_links((s,))} {edited_note(ctx, src)}</div>' for s, src in edited)


def _rulings_on(ctx: Context, f: Finding) -> list[JudgeRuling]:
    """Judge rulings about this finding's events that apply its rule or name no rule."""
    return [r for r in ctx.rulings if set(r.about) & set(f.seqs) and r.code in (None, f.code)]


def _ruling(ctx: Context, r: JudgeRuling) -> str:
    decision = f"<b>{ctx.name(decision_word(r.decision, ctx.lang))}</b> " if r.decision else ""
    return f"{seq_links((r.seq,))} {decision}{ctx.user(r.text)}"


def _prose(text: str) -> str:
    """Rule documentation, escaped, with its `backticked` names set as code."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", esc(text))


def _evidence(ctx: Context, evidence: Mapping[str, Any]) -> str:
    rows = "".join(
        f"<tr><th>{esc(k)}</th><td>{ctx.user(plain(v))}</td></tr>" for k, v in _in_language(evidence, ctx.lang)
    )
    return f'<table class="evidence"><tbody>{rows}</tbody></table>'


def _in_language(evidence: Mapping[str, Any], lang: str) -> list[tuple[str, Any]]:
    """Evidence items, one version of each: rules give ``x`` and its Japanese ``x_ja`` for the messages."""
    pairs = []
    for k, v in evidence.items():
        if k.endswith("_ja") and k[:-3] in evidence:
            continue
        if isinstance(v, Text):  # a value the rule gives in both languages
            v = v.get(lang)
        pairs.append((k, evidence.get(f"{k}_ja", v) if lang == "ja" else v))
    return pairs


def _examples(ctx: Context, r: Rule | None) -> str:
    if r is None:
        return ""
    parts = "".join(f"<div>{esc(ctx.t(k))}</div><pre>{esc(r.doc.section(k, ctx.lang))}</pre>" for k in ("bad", "good"))
    return f"<details><summary>{esc(ctx.t('examples'))}</summary>{parts}</details>"
