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
"""The subject of a hit at an event recorded after the match was decided (play after a defeat or after
``match.end``): every other finding at that event or later merges into it."""


DECIDED: Subject = ("match-decided",)
"""The subject of a hit at the event that decided the match (a draw from an empty deck that loses it): every
finding at a later event merges into it; another rule's finding at the same event stands (its own mistake)."""


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
    facts: tuple[Subject, ...] = ()
    """The facts the hit finds wrong (``("number", "additional_cost")``): where a more specific rule finds the
    same facts wrong at the same event, a general rule's hit merges into it (``Flag.facts``)."""
    general: bool = False
    """Its rule judges what other rules judge more closely (``Rule.general``)."""
    provisional: bool = False
    """Said before all was known (``Flag.provisional``): withdrawn where its rule reports the subject again."""

    def sort_key(self) -> tuple[int, str]:
        return (self.finding.seq, self.finding.code)


class _Group:
    """The raws ``merge`` takes for one finding: one rule's hits about one subject, and what merges into them."""

    __slots__ = ("first", "about", "follows", "facts", "general", "seqs", "at", "parent", "members")

    def __init__(self, raw: Raw) -> None:
        self.first = raw.finding
        self.about = raw.about
        self.follows = set(raw.follows)
        self.facts = set(raw.facts)
        self.general = raw.general
        self.seqs = set(raw.finding.seqs)
        self.at = {raw.finding.seq}
        """The events its hits are at (a consequence names them all)."""
        self.parent: _Group | None = None
        self.members: list[_Group] = []

    def add(self, raw: Raw) -> None:
        self.follows.update(raw.follows)
        self.seqs.update(raw.finding.seqs)
        self.at.add(raw.finding.seq)
        if raw.finding.seq == self.first.seq:
            self.facts.update(raw.facts)

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
        later = {seq for m in self.members for seq in m.at} - self.seqs
        return msgspec.structs.replace(out, consequences=sorted(later)) if later else out


def merge(raws: Iterable[Raw]) -> list[Finding]:
    """One finding per mistake, sorted by (seq, code).

    * The hits of one rule about one subject (``Flag.about``) are one finding, at the first, with all their seqs:
      the same rule failing on several events of one activation or one turn.
    * A rule's "cannot decide" about a subject is withdrawn where the same rule decides that subject, and a hit
      it made before all was known (``provisional``: a cost not paid yet at the toss) where it reports that
      subject again (the cost paid, and when).
    * A finding merges into an error as one of its consequences when it is about the same subject at a later event,
      when it follows from that error's subject (``Flag.follows``, wherever in the log the error is), or when it
      comes after the match was decided: at the event of the first error about ``REST`` (play recorded after a
      defeat or after ``match.end``) or later, or at a later event than the first error about ``DECIDED``. Only
      an error is a cause, so a merged error never hides behind a warning.
    * Two rules that find the same fact wrong at the same event (one wrong number) are one finding: the error of a
      ``general`` rule merges into the error of a more specific rule at that event that finds every fact it
      names wrong (``Flag.facts``), or, when it names none, that is about the same subject.

    Which of two interchangeable lines comes first changes no cause: a consequence follows from a subject, not
    from the order of lines.
    """
    items = sorted(raws, key=Raw.sort_key)
    if not any(r.about is not None or r.follows or r.general for r in items):
        return [r.finding for r in items]
    if any(r.provisional for r in items):
        restated = {(r.finding.code, r.about) for r in items if not r.provisional and r.about is not None}
        items = [r for r in items if not (r.provisional and (r.finding.code, r.about) in restated)]
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
    end = _decided(groups)
    specific = _specific_errors(groups)
    for g in groups:
        if end is not None and g is not end and _after(end, g):
            g.parent = end
            continue
        cause = _specific(g, specific.get(g.first.seq, ())) if g.general and g.first.severity == "error" else None
        if cause is not None:
            g.parent = cause
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


def _decided(groups: list[_Group]) -> _Group | None:
    """The first error after which the match was decided: about ``REST`` or ``DECIDED``, the earliest."""
    ends = [g for g in groups if g.first.severity == "error" and g.about in (REST, DECIDED)]
    return min(ends, key=lambda g: g.first.sort_key()) if ends else None


def _after(end: _Group, g: _Group) -> bool:
    """``g`` is at an event recorded after the match was decided at ``end``: later, or at ``end``'s own event
    when that event is itself play after the decision (``REST``)."""
    return end.first.seq < g.first.seq or end.about == REST and end.first.seq == g.first.seq


def _specific_errors(groups: list[_Group]) -> dict[int, list[_Group]]:
    """Seq -> the errors of rules that are not general at that event (asked only when a general rule erred)."""
    out: dict[int, list[_Group]] = {}
    if any(g.general for g in groups):
        for g in groups:
            if g.first.severity == "error" and not g.general:
                out.setdefault(g.first.seq, []).append(g)
    return out


def _specific(g: _Group, same: Iterable[_Group]) -> _Group | None:
    """The error of a more specific rule at ``g``'s event (``same``) that finds what ``g`` finds wrong, if any."""
    if g.facts:
        judged = [h for h in same if h.facts & g.facts]
        if judged and g.facts <= set().union(*(h.facts for h in judged)):
            return judged[0]
        return None
    return next((h for h in same if g.about is not None and h.about == g.about), None)
