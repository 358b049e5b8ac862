"""Which events behind a finding an importer took from a message the source marks as edited.

An imported event keeps where it came from (``src``, kifu/events/base.py): the file,
the location in it, the message's text as exported and ``edited``, set when the
chat marks the message as changed after it was sent (docs/importers.md). A judge
weighing a finding wants to know that a piece of its testimony was rewritten
afterwards; this module says so next to the finding, in ``kifu audit`` (every
format) and on the match page. It is context, never a verdict: no finding is
added, removed or changed by it.

Pure: events and findings in, values and strings out.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Collection, Iterable, Mapping

from ..events import i18n
from ..events.base import Event, Source
from .base import Finding
from .markup import NAME_CAP, capped, cut_note

Edited = Mapping[int, Source]
"""Seq -> the ``src`` of an event made of a message the source marks as edited."""

QUOTE_CAP = NAME_CAP
"""Characters of a source message quoted in a plain report (the page quotes as much as any other text)."""


def edited_sources(events: Iterable[Event], wanted: Collection[int] | None = None) -> dict[int, Source]:
    """The ``src`` of each event (among ``wanted`` seqs, if given) whose source message was edited."""
    return {e.seq: e.src for e in events if e.src is not None and e.src.edited and (wanted is None or e.seq in wanted)}


def seqs_of(finding: Finding) -> list[int]:
    """Every event a finding rests on or explains: its seqs and its consequences."""
    return sorted(set(finding.seqs) | set(finding.consequences))


def wanted(findings: Iterable[Finding]) -> set[int]:
    """The seqs whose provenance the findings' reports may name."""
    return {s for f in findings for s in seqs_of(f)}


def of(finding: Finding, edited: Edited) -> list[tuple[int, Source]]:
    """(seq, src) of each of the finding's events that came from an edited message, in seq order."""
    return [(s, edited[s]) for s in seqs_of(finding) if s in edited]


def where(src: Source) -> str:
    """A source location as a judge looks it up: ``room.html:line 233``."""
    return f"{src.file}:{src.loc}"


def quoted(text: str, lang: str, cap: int = QUOTE_CAP) -> str:
    """A source message on one line of a plain report, cut at ``cap`` with a note saying so."""
    shown, full = capped(text.replace("\r\n", "\n").replace("\n", " ⏎ "), cap)
    return shown if full is None else shown + cut_note(full, cap, lang)


def sentence(seq: int, src: Source, lang: str) -> str:
    """``seq 14 comes from a message edited after it was sent (room.html:line 233): '1D6 → 4'``."""
    if src.text is None:
        return i18n.text("report.provenance_no_text", lang, seq=seq, where=where(src))
    return i18n.text("report.provenance", lang, seq=seq, where=where(src), text=quoted(src.text, lang))


def note(finding: Finding, edited: Edited, lang: str) -> str:
    """One line for a finding naming each of its events that came from an edited message; empty when none."""
    return "; ".join(sentence(s, src, lang) for s, src in of(finding, edited))


def to_json(finding: Finding, edited: Edited, lang: str) -> list[dict[str, Any]]:
    """A finding's ``provenance`` list in ``kifu audit -f json``: the source's text in full, and the sentence."""
    return [
        {"seq": s, "file": src.file, "loc": src.loc, "text": src.text, "edited": True, "says": sentence(s, src, lang)}
        for s, src in of(finding, edited)
    ]
