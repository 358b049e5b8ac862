"""Findings and the rule that one mistake is one finding.

A rule's check reports hits; the engine makes each a ``Raw`` finding (the ``Finding`` with what
it is about and follows from), and ``merge`` merges the hits of one rule about one subject and
merges the errors that follow only from an earlier error into it as its consequences
(``Finding.consequences``). Nothing here does I/O.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple
from collections.abc import Hashable, Iterable

import msgspec

from ..events.i18n import Later, Text


class Severity(str, enum.Enum):
    """How much a finding matters. Errors make ``kifu audit`` exit 1."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


Subject = Hashable
"""What a mistake is about, as a key: ``("act", "a2")``, ``("turn", 3)``, ``("flip", "f1", 2)``."""


REST: Subject = ("rest-of-match",)
"""The subject of a hit that makes the rest of the match moot (play recorded after a defeat): every later
finding merges into it."""


class Finding(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One rule broken (or undecidable) at one event, with the later events it explains."""

    code: str
    name: str
    severity: str
    seq: int
    seqs: list[int]
    citation: Text
    """The rule document and passage the finding rests on, in both languages."""
    message: Text
    evidence: dict[str, Any] = {}
    consequences: list[int] = []
    """Seqs of the findings merged into this one: they follow only from this mistake (``merge``)."""

    def sort_key(self) -> tuple[int, str]:
        return (self.seq, self.code)


def made(findings: list[Finding]) -> list[Finding]:
    """The findings as they leave the engine: each message filled in both languages, each phrase of the
    evidence a ``Text`` (``Later``). Only what a report can show is filled: the hits ``merge`` folded
    into another finding never are."""
    return [_made(f) if type(f.message) is Later else f for f in findings]


def _made(f: Finding) -> Finding:
    message, evidence = f.message.made()  # type: ignore[attr-defined]  # a Later (checked by the caller)
    return msgspec.structs.replace(f, message=message, evidence=evidence)


class Raw(NamedTuple):
    """A finding as one check made it, before ``merge``: with what it is about and follows from."""

    finding: Finding
    about: Subject | None = None
    follows: tuple[Subject, ...] = ()

    def sort_key(self) -> tuple[int, str]:
        return (self.finding.seq, self.finding.code)


class _Group:
    """The raws ``merge`` takes for one finding: one rule's hits about one subject, and what merges into them."""

    __slots__ = ("first", "about", "follows", "seqs", "parent", "members")

    def __init__(self, raw: Raw) -> None:
        self.first = raw.finding
        self.about = raw.about
        self.follows = set(raw.follows)
        self.seqs = set(raw.finding.seqs)
        self.parent: _Group | None = None
        self.members: list[_Group] = []

    def add(self, raw: Raw) -> None:
        self.follows.update(raw.follows)
        self.seqs.update(raw.finding.seqs)

    def root(self) -> _Group:
        seen = []
        g = self
        while g.parent is not None:
            seen.append(g)
            g = g.parent
            if g in seen:  # a cycle (two errors each about what the other follows from): the earliest is the root
                earliest = min(seen, key=lambda x: x.first.sort_key())
                earliest.parent = None
                return earliest.root() if earliest is not self else earliest
        return g

    def finding(self) -> Finding:
        out = self.first
        if len(self.seqs) != len(out.seqs):
            out = msgspec.structs.replace(out, seqs=sorted(self.seqs))
        later = {m.first.seq for m in self.members} - self.seqs
        return msgspec.structs.replace(out, consequences=sorted(later)) if later else out


def merge(raws: Iterable[Raw]) -> list[Finding]:
    """One finding per mistake, sorted by (seq, code).

    * The hits of one rule about one subject (``Flag.about``) are one finding, at the first, with all their seqs:
      the same rule failing on several events of one activation or one turn.
    * A rule's "cannot decide" about a subject is withdrawn where the same rule decides that subject.
    * A finding merges into an error as one of its consequences when it is about the same subject at a later event,
      when it follows from that error's subject (``Flag.follows``, wherever in the log the error is), or when the error is
      about ``REST`` (play recorded after the match was decided). Only an error is a cause, so a merged error
      never hides behind a warning.

    Which of two interchangeable lines comes first changes no cause: a consequence follows from a subject, not
    from the order of lines.
    """
    items = sorted(raws, key=Raw.sort_key)
    if not any(r.about is not None or r.follows for r in items):
        return [r.finding for r in items]
    groups: list[_Group] = []
    same: dict[tuple[str, str, Subject], _Group] = {}
    for r in items:
        f = r.finding
        if r.about is None:
            groups.append(_Group(r))
            continue
        key = (f.code, f.severity, r.about)
        g = same.get(key)
        if g is None:
            g = same[key] = _Group(r)
            groups.append(g)
        else:
            g.add(r)
    decided = {(g.first.code, g.about) for g in groups if g.first.severity != "info" and g.about is not None}
    groups = [g for g in groups if g.first.severity != "info" or (g.first.code, g.about) not in decided]
    causes: dict[Subject, _Group] = {}
    for g in groups:
        if g.first.severity == "error" and g.about is not None:
            causes.setdefault(g.about, g)
    rest = causes.get(REST)
    for g in groups:
        if rest is not None and g is not rest and rest.first.seq < g.first.seq:
            g.parent = rest
            continue
        cause = causes.get(g.about) if g.about is not None else None
        if cause is None or cause.first.seq >= g.first.seq:  # only a later event follows (two rules one line
            # breaks both stand); what a hit follows from may be anywhere in the log
            cause = next((causes[s] for s in sorted(g.follows, key=repr) if s in causes and causes[s] is not g), None)
        g.parent = cause
    roots = []
    for g in groups:
        top = g.root()
        if top is g:
            roots.append(g)
        else:
            top.members.append(g)
    return sorted((g.finding() for g in roots), key=Finding.sort_key)
