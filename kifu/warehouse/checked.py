"""One log checked for the warehouse: verified, audited, and the rows it gives (``Checked``).

What ``ingest`` (a log read whole, in a worker) and ``stream`` (a big log, as it streams) both
make of a log: its ``matches`` row, its findings' rows, kifu's stance on its rulings, its ``match_randomness`` row, its facts
tables' rows, and the envelope columns DuckDB would otherwise parse out of every line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

import msgspec

from kifu import app
from kifu.auditor.tally import randomness
from kifu.events import logfile
from kifu.events.base import Event, KifuError, MatchEnded, MatchStarted, event_type

Audit = Callable[[logfile.Log], app.Audit]
"""Audits one verified match held in memory: ``kifu.app.audit`` unless a test says otherwise."""


@dataclass
class Checked:
    """What a worker learnt about one log: either the match's facts or why it was refused."""

    path: str
    error: KifuError | None = None
    match: str = ""
    head: str = ""
    digest: str = ""
    """SHA-256 of the whole file as verified (an engine that reads the file again joins on it)."""
    events: int = 0
    row: dict[str, Any] = field(default_factory=dict)
    """The ``matches`` row, as JSON-ready values."""
    findings: list[dict[str, Any]] = field(default_factory=list)
    rulings: list[dict[str, Any]] = field(default_factory=list)
    """The ``ruling_stances`` rows: kifu's stance on each judge ruling (``ruling_rows``)."""
    randomness: dict[str, Any] = field(default_factory=dict)
    """The ``match_randomness`` row: which outcome events are verifiable and which voided, as the audit decided."""
    counts: dict[str, int] = field(default_factory=dict)
    """Findings by severity."""
    facts: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Each facts table of the game (``views.Facts``) -> its rows for this match, from the audit's final state."""
    extends: int | None = None
    """The seq whose hash is the stored head, when this log is the stored one with events appended."""
    data: bytes = b""
    """The verified bytes, for the warehouse to load (empty when there is nothing to load)."""
    columns: bytes = b""
    """The envelope columns of every event as one JSON document (``_columns``), with ``data``."""
    streamed: bool = False
    """A big log checked as it streamed: no ``data``; loaded as it streams again (``stream.load``)."""


_END = event_type(MatchEnded)


def match_row(path: str, events: list[Event], types: list[str], head: str) -> dict[str, Any]:
    """The ``matches`` row but its times (the load takes them from the events' ``time``)."""
    start = events[0]
    assert isinstance(start, MatchStarted)
    end = events[types.index(_END)] if _END in types else None
    assert end is None or isinstance(end, MatchEnded)
    return {
        "match": start.match,
        "game": start.game,
        "title": start.title,
        "players": [{"id": p.id, "name": p.name, "key": p.key} for p in start.players],
        "rules": msgspec.json.encode(start.rules).decode(),
        "events": len(events),
        "head": head,
        "ended_seq": end.seq if end else None,
        "winner": end.winner if end else None,
        "end_reason": end.reason if end else None,
        "source": path,
    }


def finding_row(match: str, f: Any) -> dict[str, Any]:
    return {
        "match": match,
        "code": f.code,
        "name": f.name,
        "severity": f.severity,
        "seq": f.seq,
        "seqs": list(f.seqs),
        "citation": f.citation.en,
        "message_en": f.message.en,
        "message_ja": f.message.ja,
        "evidence": msgspec.json.encode(f.evidence).decode(),
        "consequences": list(f.consequences),
    }


def ruling_rows(match: str, stances: Any) -> list[dict[str, Any]]:
    """The ``ruling_stances`` rows of an audited match: kifu's stance on each ruling no void took back."""
    return [
        {
            "match": match,
            "seq": s.ruling.seq,
            "stance": s.kind,
            "judge_broken": s.judge_broken,
            "kifu": s.kifu_level,
            "finding_codes": [f.code for f in s.findings],
            "finding_seqs": [f.seq for f in s.findings],
            "says_en": s.words().en,
            "says_ja": s.words().ja,
        }
        for s in stances
    ]


def randomness_row(match: str, events: list[Event]) -> dict[str, Any]:
    """The ``match_randomness`` row of a verified match: the seqs of its verifiable and of its voided outcome
    events, as ``kifu verify`` and the audit count them (``kifu.auditor.tally.randomness``)."""
    r = randomness(events)
    return {"match": match, "verifiable": sorted(r.verified), "voided": sorted(r.voided_seqs)}


class _Tags(dict[type, str]):
    """Event class -> its ``type`` tag, filled on first sight (``map(_TAGS.__getitem__, …)`` runs in C)."""

    def __missing__(self, cls: type) -> str:
        tag = self[cls] = event_type(cls)
        return tag


_TAGS = _Tags()
_AT, _BY, _SRC = attrgetter("at"), attrgetter("by"), attrgetter("src")


def types_of(events: list[Event]) -> list[str]:
    return list(map(_TAGS.__getitem__, map(type, events)))


def columns(events: list[Event], types: list[str]) -> bytes:
    """The envelope columns DuckDB would otherwise parse out of every line, in one document.

    The worker has decoded every event already; handing over these few values costs
    it a fraction of what DuckDB's JSON parse of each whole line cost the (single)
    loading process. ``src`` is re-encoded from the decoded struct: the same JSON value.
    """
    return msgspec.json.encode(
        {
            "type": types,
            "at": list(map(_AT, events)),
            "by": list(map(_BY, events)),
            "src": list(map(_SRC, events)),
        }
    )
