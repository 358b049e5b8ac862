"""Findings rendered as text, Markdown and JSON (strings only); the HTML page is ``page``."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any
from collections.abc import Iterable, Mapping, Sequence

import msgspec

from ..events import i18n
from ..events.display import json_safe, visible
from ..events.base import Event, LogVoided, event_type
from ..projector.base import voided_in
from ..events.i18n import cited
from .base import Finding, Rule
from .provenance import Edited, note
from .provenance import to_json as provenance_json
from .stance import Stance


def label(key: str, lang: str) -> str:
    """A word of the plain reports (``report.<key>`` in the catalogue)."""
    return i18n.text(f"report.{key}", lang)


def counts(findings: Iterable[Finding]) -> dict[str, int]:
    out = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        out[f.severity] = out.get(f.severity, 0) + 1
    return out


def summary(findings: Sequence[Finding], lang: str) -> str:
    c = counts(findings)
    if not findings:
        return label("clean", lang)
    return ", ".join(f"{label(k, lang)} {v}" for k, v in c.items() if v)


Voided = Mapping[int, tuple[LogVoided, Event]]
_NONE: Mapping[int, Any] = MappingProxyType({})
"""Seq of each event a log.void took back -> (that void, the event taken back): none in most logs."""


def voided(events: Sequence[Event]) -> Voided:
    """The events voids took back in a log held whole (a streamed log: ``collect_voided`` over two passes)."""
    return collect_voided(voided_in(events), events)


def collect_voided(taken: Mapping[int, int], events: Iterable[Event]) -> Voided:
    """``taken`` (seq -> the void's seq, from ``voided_in``) with the two events of each, from one pass."""
    if not taken:
        return {}
    wanted = set(taken) | set(taken.values())
    found = {e.seq: e for e in events if e.seq in wanted}
    return {seq: (found[v], found[seq]) for seq, v in sorted(taken.items())}  # type: ignore[misc]  # mypy cannot infer the pair type of the comprehension over a dict of events


def void_note(void: LogVoided, lang: str) -> str:
    """Why an event is struck through: which void took it back, who, and the reason."""
    return i18n.text("report.voided", lang, seq=void.seq, by=void.by, reason=void.reason)


def _voided_lines(gone: Voided, lang: str, where: str, struck: str) -> list[str]:
    return [
        f"{where}{struck}seq {seq} {event_type(type(e))} {event_detail(e)}{struck}  ({void_note(v, lang)})"
        for seq, (v, e) in gone.items()
    ]


def as_text(
    findings: Sequence[Finding],
    lang: str,
    where: str = "",
    gone: Voided = _NONE,
    stances: Sequence[Stance] = (),
    edited: Edited = _NONE,
) -> str:
    """Findings one per line (under one, ``✎ …`` when some of its events came from edited messages), the
    summary, kifu's stance on each judge ruling, then the events voids took back, struck through (``~~…~~``)."""
    lines = []
    for f in findings:
        seqs = ",".join(map(str, f.seqs))
        lines.append(
            f"{where}seq {seqs}: {f.code} [{label(f.severity, lang)}] {f.message.get(lang)}"
            f"{consequences_note(f, lang)}  ({f.citation.get(lang)})"
        )
        said = note(f, edited, lang)
        if said:
            lines.append(f"{where}  ✎ {said}")
    lines.append(f"{where}{summary(findings, lang)}")
    if stances:
        lines.append(f"{where}{label('rulings', lang)}:")
        lines.extend(f"{where}  {ruling_line(s, lang)}" for s in stances)
    struck = _voided_lines(gone, lang, where, "~~")
    if struck:
        lines.append(f"{where}{label('voided_events', lang)}:")
        lines.extend(struck)
    # One line each, whatever a value from the log holds (kifu.events.display: nothing acts on a terminal).
    return "\n".join(visible(line, lines=False) for line in lines)


def as_json(
    findings: Sequence[Finding],
    lang: str,
    meta: dict[str, Any] | None = None,
    gone: Voided = _NONE,
    stances: Sequence[Stance] = (),
    edited: Edited = _NONE,
) -> str:
    items = []
    for f in findings:
        d = msgspec.to_builtins(f)
        d["message"] = f.message.get(lang)
        d["citation"] = f.citation.get(lang)
        d["provenance"] = provenance_json(f, edited, lang)
        items.append(d)
    taken = [{"seq": seq, "void": v.seq, "by": v.by, "reason": v.reason} for seq, (v, _) in gone.items()]
    doc = {
        **(meta or {}),
        "counts": counts(findings),
        "findings": items,
        "rulings": [s.to_json(lang) for s in stances],
        "voided": taken,
    }
    return json_safe(msgspec.json.format(msgspec.json.encode(doc), indent=2).decode())


def _md_cell(text: Any) -> str:
    return visible(text, lines=False).replace("|", "\\|")


def as_markdown(
    findings: Sequence[Finding],
    lang: str,
    title: str = "",
    gone: Voided = _NONE,
    stances: Sequence[Stance] = (),
    edited: Edited = _NONE,
) -> str:
    out = [
        f"# {label('title', lang)}{': ' + visible(title, lines=False) if title else ''}",
        "",
        summary(findings, lang),
        "",
    ]
    if findings:
        out.append(
            f"| {label('seq', lang)} | {label('code', lang)} | {label('severity', lang)} | "
            f"{label('message', lang)} | {label('citation', lang)} |"
        )
        out.append("|---|---|---|---|---|")
        for f in findings:
            out.append(
                f"| {','.join(map(str, f.seqs))} | {f.code} | {label(f.severity, lang)} | "
                f"{_md_cell(f.message.get(lang) + consequences_note(f, lang) + _edited_note(f, edited, lang))} | "
                f"{_md_cell(f.citation.get(lang))} |"
            )
    if stances:
        out.extend(
            [""] * (out[-1] != "")
            + [
                f"## {label('rulings', lang)}",
                "",
                f"| {label('seq', lang)} | {label('about', lang)} | {label('decision', lang)} | "
                f"{label('ruling_text', lang)} | {label('stance', lang)} |",
                "|---|---|---|---|---|",
            ]
        )
        out.extend(
            f"| {s.ruling.seq} | {', '.join(map(str, s.ruling.about))} | {_md_cell(s.ruled(lang))} | "
            f"{_md_cell(s.quoted(lang))} | {_md_cell(s.words().get(lang))} |"
            for s in stances
        )
    struck = _voided_lines(gone, lang, "", "~~")
    if struck:
        out.extend([""] * (out[-1] != "") + [f"## {label('voided_events', lang)}", ""])
        out.extend(f"* {_md_cell(line)}" for line in struck)
    return "\n".join(out) + "\n"


def _edited_note(f: Finding, edited: Edited, lang: str) -> str:
    said = note(f, edited, lang)
    return f" ✎ {said}" if said else ""


def ruling_line(s: Stance, lang: str) -> str:
    """One ruling and kifu's stance on it: ``seq 20 (about seq 14) warning (GG-TOSS-001) “Costs are prepaid …”:
    kifu agrees …``: what the judge decided and said, then kifu's stance."""
    r = s.ruling
    about = ", ".join(map(str, r.about))
    said = " — ".join(filter(None, (s.ruled(lang), s.quoted(lang))))
    return f"seq {r.seq} ({label('about', lang)} seq {about}){' ' + said if said else ''}: {s.words().get(lang)}"


def event_detail(event: Event) -> str:
    """The event's own fields, compact, for a timeline."""
    d = msgspec.to_builtins(event)
    for k in ("type", "seq", "prev", "at", "by", "src"):
        d.pop(k, None)
    return msgspec.json.encode(d).decode()


def explain(r: Rule, lang: str) -> str:
    """A rule's documentation, as `kifu rules CODE` prints it: the documents it cites with their titles."""
    lines = [
        f"{r.code} {r.name} [{label(r.severity.value, lang)}]",
        r.title.get(lang),
        f"{label('citation', lang)}: {r.citation.get(lang)}",
        *(f"  {d.name.get(lang)}: {d.title.get(lang)}" for d in cited(r.citation, r.game)),
        "",
        *(f"{label(k, lang)}: {r.doc.section(k, lang)}" for k in ("checks", "why", "bad", "good")),
    ]
    if r.options:
        lines.append(f"{label('options', lang)}: {', '.join(r.options)}")
    return "\n".join(lines)


def consequences_note(f: Finding, lang: str) -> str:
    """What a finding explains, after its message: `` (and 2 consequences: seq 15, 16)``; empty when nothing."""
    if not f.consequences:
        return ""
    return " " + label("consequences", lang).format(n=len(f.consequences), seqs=", ".join(map(str, f.consequences)))
