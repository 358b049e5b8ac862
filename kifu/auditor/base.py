"""Rules, findings and the single-pass engine (DESIGN.md contract 4).

A rule is data (code, name, severity, citation, titles, messages, documentation)
plus one pure check. ``check(step)`` sees the frame before and after each event
it watches; ``finish(end)`` sees the final frame once. The engine folds the log
once and shows every rule each step; its ``Session`` does the same one event at
a time, for a log being recorded. Events a ``log.void`` takes back are passed
over by both: no rule sees them. Nothing here does I/O.

One mistake is one finding: a check names what its hit is about (``Hit.about``,
such as an activation) and what it follows from (``Hit.follows``), and ``fold``
merges the hits of one rule about one subject and folds the errors that follow
only from an earlier error into it as its consequences (``Finding.consequences``).
"""

from __future__ import annotations

import enum
import functools
import re
import string
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar
from collections.abc import Callable, Container, Hashable, Iterable, Mapping, Sequence

import msgspec

from ..events import games, i18n
from ..events.base import Event, LogVoided, MatchStarted
from ..projector.base import (
    NONE_VOIDED,
    Frame,
    Projection,
    advance,
    first_frame,
    transitions,
    void_verdicts,
    voided_in,
)
from ..projector.series import NONE as NO_CHARTS
from ..projector.series import Charts

CODE = re.compile(r"^[A-Z]{2,6}-[A-Z]{2,8}-\d{3}$")
"""A rule code: the game's prefix (or KIFU), an area, a number. The registry checks the prefix is the game's."""
NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class Severity(str, enum.Enum):
    """How much a finding matters. Errors make ``kifu audit`` exit 1."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Text(msgspec.Struct, frozen=True):
    """A text in Japanese and English; message templates use ``{name}`` fields."""

    ja: str
    en: str

    def get(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en

    @classmethod
    def of(cls, key: str, **params: Any) -> Text:
        """The catalogue's message ``key`` in both languages (kifu/events/i18n.py)."""
        return cls(ja=i18n.text(key, "ja", **params), en=i18n.text(key, "en", **params))


class Doc(msgspec.Struct, frozen=True, kw_only=True):
    """A rule's documentation in fixed sections, as ruff documents its rules.

    Each section is plain text (shown in every language) or a ``Text`` with a
    Japanese and an English version.
    """

    checks: str | Text
    """What it checks."""
    why: str | Text
    """Why it matters: the rule text it enforces, in our words."""
    bad: str | Text
    """A violating example (events in short form)."""
    good: str | Text
    """A clean example."""

    def section(self, name: str, lang: str) -> str:
        value = getattr(self, name)
        return value.get(lang) if isinstance(value, Text) else value


class Option(msgspec.Struct, frozen=True, kw_only=True):
    """A documented choice where the rule documents are ambiguous; set in ``match.start.rules``.

    Its documentation is the catalogue's ``option.<name>``, and ``option.<name>.citation`` names the passages
    that leave the choice open (a citation, ``cite``, of the documents of ``docs``).
    """

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    docs: str = "kifu"
    """Whose rule documents its citation names: the lower-case code prefix of its game (``gg``)."""

    @property
    def doc(self) -> Text:
        return Text.of(f"option.{self.name}")

    @property
    def citation(self) -> Text:
        return cite(f"option.{self.name}.citation", self.docs)


def cite(key: str, docs: str) -> Text:
    """The citation ``key`` in both languages, each ``{document}`` field named as its readers know it: the
    catalogue's ``doc.<docs>.<document>.name`` (``{variant}`` -> ``coin-toss variant`` / ``トスで決まる枚数ルール``)."""
    return Text(ja=_cite(key, docs, "ja"), en=_cite(key, docs, "en"))


@functools.cache
def _cite(key: str, docs: str, lang: str) -> str:
    template = i18n.template(key, lang)
    fields = {f: i18n.template(f"doc.{docs}.{f}.name", lang) for _, f, _, _ in string.Formatter().parse(template) if f}
    return template.format(**fields)


class Document(NamedTuple):
    """A rule document a game's citations name: its id, short name and title in both languages."""

    id: str
    name: Text
    title: Text


def documents(docs: str) -> list[Document]:
    """Every document of the namespace ``docs`` (``gg``), as the catalogue lists them."""
    ids = sorted({k.split(".")[2] for k in i18n.catalogue("en") if k.startswith(f"doc.{docs}.")})
    return [Document(d, Text.of(f"doc.{docs}.{d}.name"), Text.of(f"doc.{docs}.{d}.title")) for d in ids]


def cited(citation: Text, docs: str) -> list[Document]:
    """The documents of ``docs`` a citation names (by their English short names), in the order it names them."""
    found = [(citation.en.find(d.name.en), d) for d in documents(docs) if d.name.en in citation.en]
    return [d for _, d in sorted(found, key=lambda x: x[0])]


Subject = Hashable
"""What a mistake is about, as a key: ``("act", "a2")``, ``("turn", 3)``, ``("flip", "f1", 2)``."""

REST: Subject = ("rest-of-match",)
"""The subject of a hit that makes the rest of the match moot (play recorded after a defeat): every later
finding folds into it."""


VERIFIED_RANDOM = Option(name="verified_random", default=False, choices=(False, True))
"""The match claims verifiable randomness: every random outcome names its commitment (KIFU-RNG-012)."""

CORE_OPTIONS: tuple[Option, ...] = (VERIFIED_RANDOM,)
"""Options every game accepts besides its own ``Game.options`` (``registry.options_of`` joins them)."""


@dataclass(frozen=True, slots=True)
class Hit:
    """What a check reports; the engine turns it into a Finding."""

    seq: int
    evidence: Mapping[str, Any] = field(default_factory=dict)
    seqs: tuple[int, ...] = ()
    undecided: bool = False
    """True when the rule could not decide (missing card facts): an info finding."""
    about: Subject | None = None
    """What the mistake is about. The hits of one rule about one subject are one finding (all their seqs); a
    later hit of another rule about the subject of an earlier error is its consequence; a rule's "cannot decide"
    about a subject is withdrawn once the rule decides it."""
    follows: tuple[Subject, ...] = ()
    """Subjects this hit follows from: when an error is about one of them, this hit is its consequence."""


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
    """Seqs of the findings folded into this one: they follow only from this mistake (``fold``)."""

    def sort_key(self) -> tuple[int, str]:
        return (self.seq, self.code)


class Raw(NamedTuple):
    """A finding as one check made it, before ``fold``: with what it is about and follows from."""

    finding: Finding
    about: Subject | None = None
    follows: tuple[Subject, ...] = ()

    def sort_key(self) -> tuple[int, str]:
        return (self.finding.seq, self.finding.code)


class _SafeDict(dict):  # type: ignore[type-arg]
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _in(evidence: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """Evidence for one language: a ``Text`` value becomes its text in that language (and, for a Japanese
    template that asks for ``x_ja``, ``x``'s Japanese)."""
    out = {k: v.get(lang) if isinstance(v, Text) else v for k, v in evidence.items()}
    if lang == "ja":
        out.update({f"{k}_ja": v.ja for k, v in evidence.items() if isinstance(v, Text) and f"{k}_ja" not in out})
    return out


def who(pid: Any, names: Mapping[str, str]) -> str:
    """A player as a judge reads them: ``Aoi (p1)``; an id that names no player as it is."""
    name = names.get(pid) if isinstance(pid, str) else None
    return str(pid) if name is None else pid if name == pid else f"{name} ({pid})"


SEPARATOR = {"ja": "、", "en": ", "}
"""Between the items of a list in a message."""


ROLES = ("judge", "system", "recorder")
"""Who may write a log line besides the players (``by``): named by their word, ``word.<role>``."""


class _Formatter(string.Formatter):
    """Fills a finding's template in one language, as a judge reads it.

    A value that is a player's id names the player (``who``: ``Aoi (p1)``; ``{x:id}`` keeps the bare id); a
    list is its items joined; ``{x:word}`` is the catalogue's ``word.<game>.<x>`` (or ``word.<x>``) in the
    language, the word a value such as ``heads`` or ``hand`` is in that language (``{x:word.tag}`` looks in
    ``word.<game>.tag.<x>``); ``None`` is never printed.
    """

    def __init__(self, names: Mapping[str, str], lang: str, game: str) -> None:
        self.names, self.lang, self.game = names, lang, game

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, (list, tuple)):
            if not value:
                return i18n.text("finding.none", self.lang)
            return SEPARATOR.get(self.lang, ", ").join(self.format_field(v, format_spec) for v in value)
        if format_spec.startswith("word"):  # ``{x:word}``, or ``{x:word.tag}`` for the words of one kind
            return word(value, self.lang, self.game + format_spec[4:])
        if format_spec == "id":
            return str(value)
        if format_spec in ("", "who") and isinstance(value, str) and value in self.names:
            return who(value, self.names)
        if format_spec == "who" and value in ROLES:  # by=judge: the judge, in the reader's language
            return word(value, self.lang)
        if value is None:
            return i18n.text("finding.none", self.lang)
        return super().format_field(value, "" if format_spec == "who" else format_spec)


def word(value: Any, lang: str, game: str = "") -> str:
    """``value`` (an enum value such as ``heads``) in ``lang``: the catalogue's ``word.<game>.<value>``, else
    ``word.<value>``, else the value as it is."""
    for key in (f"word.{game}.{value}", f"word.{value}"):
        if i18n.has(key, lang) or i18n.has(key, "en"):
            return i18n.template(key, lang)
    return str(value)


def _fill(
    template: str, evidence: Mapping[str, Any], names: Mapping[str, str] = {}, lang: str = "en", game: str = ""
) -> str:
    return _Formatter(names, lang, game).vformat(template, (), _SafeDict(evidence))


def _phrase(m: Any, names: Mapping[str, str], lang: str, game: str) -> str:
    """A catalogue phrase filled like a finding's message (players named, words in the language, nested
    phrases filled the same way); a ``Text`` in the language; a list of them joined."""
    if isinstance(m, (list, tuple)):
        return SEPARATOR.get(lang, ", ").join(_phrase(x, names, lang, game) for x in m)
    if isinstance(m, Text):
        return m.get(lang)
    if not isinstance(m, i18n.Msg):
        return _fill("{x}", {"x": m}, names, lang, game)
    if m.key.startswith("word.") and not i18n.has(m.key, "en"):
        return m.key.rsplit(".", 1)[-1]  # a value no word is written for yet: shown as it is, never as an id
    values = {k: _phrase(v, names, lang, game) if _phrased(v) else v for k, v in m.params.items()}
    return _fill(i18n.template(m.key, lang), values, names, lang, game)


def _phrased(v: Any) -> bool:
    """A value ``_phrase`` fills: a phrase, a ``Text``, or a list holding one."""
    return isinstance(v, (i18n.Msg, Text)) or isinstance(v, (list, tuple)) and any(_phrased(x) for x in v)


class Step(msgspec.Struct):
    """What a rule sees for one event (a Struct: one is built per event, in C)."""

    event: Event
    before: Frame[Any]
    after: Frame[Any]
    options: Mapping[str, Any]
    start: MatchStarted
    catalogue: Any = None


@dataclass
class End:
    """What a rule sees once, after the last event."""

    final: Frame[Any]
    options: Mapping[str, Any]
    start: MatchStarted
    last_seq: int
    catalogue: Any = None


UNDECIDED = "finding.undecided"
"""Catalogue id of the message of a finding whose rule could not decide: "cannot decide: {reason}"."""


@dataclass(frozen=True)
class Rule:
    """One executable rule with its code, citation and documentation.

    Its words are in the message catalogue under ``rule.<code>.``: ``title``,
    ``message`` (a template filled from a finding's evidence), and the documentation
    sections ``checks``, ``why``, ``bad`` and ``good`` (kifu/events/i18n.py).
    """

    code: str
    name: str
    severity: Severity
    check: Callable[[Step], Iterable[Hit]] | None = None
    on: tuple[type[Event], ...] | None = None
    """Event classes the check watches; None watches every event."""
    finish: Callable[[End], Iterable[Hit]] | None = None
    options: tuple[str, ...] = ()
    """Names of the options this rule's verdict depends on."""

    @property
    def title(self) -> Text:
        return Text.of(f"rule.{self.code}.title")

    @functools.cached_property
    def citation(self) -> Text:
        """The catalogue's ``rule.<code>.citation``: the document (by the name its readers know) and the passage."""
        return cite(f"rule.{self.code}.citation", self.game)

    @functools.cached_property
    def message(self) -> Text:
        """The finding's template in both languages (read once: findings are made from it)."""
        return Text(
            ja=i18n.template(f"rule.{self.code}.message", "ja"), en=i18n.template(f"rule.{self.code}.message", "en")
        )

    @property
    def doc(self) -> Doc:
        return Doc(**{s: Text.of(f"rule.{self.code}.{s}") for s in ("checks", "why", "bad", "good")})

    def finding(self, hit: Hit, names: Mapping[str, str] = {}) -> Finding:
        """The finding of one hit. ``names`` (player id -> name) name the players its message mentions; an
        evidence value that is a ``Msg`` (a phrase of the catalogue with its own values, players among them) is
        rendered in both languages the same way and kept as a ``Text``."""
        message = _undecided() if hit.undecided else self.message
        ev = dict(hit.evidence)
        for k, v in ev.items():
            if isinstance(v, i18n.Msg) or isinstance(v, (list, tuple)) and _phrased(v):
                ev[k] = Text(ja=_phrase(v, names, "ja", self.game), en=_phrase(v, names, "en", self.game))
        return Finding(
            code=self.code,
            name=self.name,
            severity=Severity.INFO.value if hit.undecided else self.severity.value,
            seq=hit.seq,
            seqs=sorted(set(hit.seqs) | {hit.seq}),
            citation=self.citation,
            message=Text(
                ja=_fill(message.ja, _in(ev, "ja"), names, "ja", self.game),
                en=_fill(message.en, _in(ev, "en"), names, "en", self.game),
            ),
            evidence=ev,
        )

    @property
    def game(self) -> str:
        """The lower-case prefix of the code (``gg`` of ``GG-TOSS-001``): where its ``{x:word}`` words are."""
        return self.code.split("-", 1)[0].lower()

    def raw(self, hit: Hit, names: Mapping[str, str] = {}) -> Raw:
        return Raw(self.finding(hit, names), hit.about, hit.follows)


class _Group:
    """The raws ``fold`` takes for one finding: one rule's hits about one subject, and what folds into them."""

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


def fold(raws: Iterable[Raw]) -> list[Finding]:
    """One finding per mistake, sorted by (seq, code).

    * The hits of one rule about one subject (``Hit.about``) are one finding, at the first, with all their seqs:
      the same rule failing on several events of one activation or one turn.
    * A rule's "cannot decide" about a subject is withdrawn where the same rule decides that subject.
    * A finding folds into an error as one of its consequences when it is about the same subject at a later event,
      when it follows from that error's subject (``Hit.follows``, wherever in the log the error is), or when the error is
      about ``REST`` (play recorded after the match was decided). Only an error is a cause, so a folded error
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
        r = g.root()
        if r is g:
            roots.append(g)
        else:
            r.members.append(g)
    return sorted((g.finding() for g in roots), key=Finding.sort_key)


@functools.lru_cache(maxsize=1)
def _undecided() -> Text:
    return Text(ja=i18n.template(UNDECIDED, "ja"), en=i18n.template(UNDECIDED, "en"))


T = TypeVar("T")
R = TypeVar("R")


def latest(fn: Callable[[T], R]) -> Callable[[T], R]:
    """``fn`` of one frozen value, remembered for the latest value (by identity).

    Several rules of a game judge the same facts of one state (the end-of-match rules all read the final
    state): each asks, the first computes. The value is held, so its identity cannot be reused while it is
    compared; ``fn`` must be pure and give a value nobody changes (a tuple). The pair is one object, read
    and replaced whole, so threads auditing at once never see one value's answer for another.
    """
    memo: list[tuple[T, R] | None] = [None]

    @functools.wraps(fn)
    def once(x: T) -> R:
        last = memo[0]
        if last is not None and last[0] is x:
            return last[1]
        found = fn(x)
        memo[0] = (x, found)
        return found

    return once


def rule(**kwargs: Any) -> Callable[[Callable[[Step], Iterable[Hit]]], Rule]:
    """Decorator: ``@rule(code=..., ...)`` over a check function makes a Rule."""

    def make(fn: Callable[[Step], Iterable[Hit]]) -> Rule:
        return Rule(check=fn, **kwargs)

    return make


def end_rule(**kwargs: Any) -> Callable[[Callable[[End], Iterable[Hit]]], Rule]:
    """Decorator for a rule that judges the whole match once, at the end."""

    def make(fn: Callable[[End], Iterable[Hit]]) -> Rule:
        return Rule(finish=fn, **kwargs)

    return make


INTERNAL = Rule(
    code="KIFU-ENG-001",
    name="rule-check-does-not-fail",
    severity=Severity.ERROR,
)


def resolve_options(declared: Sequence[Option], rules: Mapping[str, Any]) -> dict[str, Any]:
    """Each declared option's value: the log's choice, else the documented default."""
    return {o.name: rules.get(o.name, o.default) for o in declared}


class Engine:
    """Folds a log once and runs every rule on every step it watches."""

    def __init__(self, projection: Projection[Any], rules: Sequence[Rule]) -> None:
        self.projection = projection
        self.rules = tuple(rules)
        self._all: list[Rule] = [r for r in self.rules if r.check is not None and r.on is None]
        self._by_type: dict[type[Event], list[Rule]] = {}
        for r in self.rules:
            if r.check is not None and r.on is not None:
                for cls in r.on:
                    self._by_type.setdefault(cls, []).append(r)
        self._finishers = [r for r in self.rules if r.finish is not None]
        self._checks: dict[type[Event], tuple[tuple[Callable[[Step], Any], Rule], ...]] = {}

    def _checks_of(self, cls: type[Event]) -> tuple[tuple[Callable[[Step], Any], Rule], ...]:
        """(check, rule) of every rule watching ``cls``, worked out once per event class."""
        pairs = self._checks[cls] = tuple((r.check, r) for r in self._all + self._by_type.get(cls, []))  # type: ignore[misc]
        return pairs

    def run(
        self,
        events: Iterable[Event],
        options: Mapping[str, Any],
        catalogue: Any = None,
        strict: bool = False,
        voided: Container[int] | None = None,
        folded: bool = True,
    ) -> list[Finding]:
        """All findings of one match, sorted by (seq, code): one per mistake (``fold``), or with ``folded=False``
        every finding as the checks made it.

        ``voided`` are the seqs log.voids took back (``voided_in``); a stream of events (a
        file read as it is audited) must say them, since its voids come after what they
        void; for a sequence they are worked out here.
        """
        if voided is None:
            events = events if isinstance(events, Sequence) else list(events)
            voided = voided_in(events)
        skip = voided or NONE_VOIDED
        it = iter(events)
        start = next(it)
        assert isinstance(start, MatchStarted)
        steps = transitions(self.projection, start, it, options, skip)
        return self.check(start, steps, options, catalogue, strict, skip, folded).findings

    def check(
        self,
        start: MatchStarted,
        steps: Iterable[tuple[Event, Frame[Any], Frame[Any]]],
        options: Mapping[str, Any],
        catalogue: Any = None,
        strict: bool = False,
        skip: Container[int] = NONE_VOIDED,
        folded: bool = True,
    ) -> Outcome:
        """The findings of a match folded by the projector (``steps``: its ``transitions``, passing over the
        seqs in ``skip``), and the frame after its last event: ``run`` for a caller that folds the match itself
        (the page draws the same frames the rules judge)."""
        raws: list[Raw] = []
        names = players_of(start)
        checks, checks_of = self._checks, self._checks_of
        frame = None
        # The projector's fold gives each event with the frames before and after it; each rule
        # watching the event's class sees one Step. Nothing else is allocated on a clean event.
        # (``_check`` written out: this loop is the audit's hot path.)
        for event, before, frame in steps:
            if skip and event.seq in skip:
                continue
            s = Step(event, before, frame, options, start, catalogue)
            pairs = checks.get(type(event))
            if pairs is None:
                pairs = checks_of(type(event))
            mark = len(raws)
            try:
                for check, r in pairs:
                    hits = check(s)
                    if hits:
                        for hit in hits:
                            raws.append(r.raw(hit, names))
            except Exception:
                del raws[mark:]
                self._redo(pairs, s, raws, strict, names)
        assert frame is not None
        raws.extend(self.finish(End(frame, options, start, frame.seq, catalogue), strict))
        if folded:
            return Outcome(fold(raws), frame)
        return Outcome(sorted((r.finding for r in raws), key=Finding.sort_key), frame)

    def _check(
        self,
        pairs: tuple[tuple[Callable[[Step], Any], Rule], ...],
        s: Step,
        out: list[Raw],
        strict: bool,
        names: Mapping[str, str],
    ) -> None:
        """The raw findings of one step, appended to ``out`` in rule order."""
        mark = len(out)
        try:
            for check, r in pairs:
                hits = check(s)
                if hits:
                    for hit in hits:
                        out.append(r.raw(hit, names))
        except Exception:
            del out[mark:]
            self._redo(pairs, s, out, strict, names)

    def _redo(
        self,
        pairs: tuple[tuple[Callable[[Step], Any], Rule], ...],
        s: Step,
        out: list[Raw],
        strict: bool,
        names: Mapping[str, str],
    ) -> None:
        """A step whose checks raised, redone rule by rule (rules are pure), the failing one reported."""
        for _, r in pairs:
            self._collect(r, r.check, s, s.event.seq, out, strict, names)  # type: ignore[arg-type]

    def finish(self, end: End, strict: bool = False) -> list[Raw]:
        """The raw findings of the whole-match rules, on the final frame."""
        out: list[Raw] = []
        names = players_of(end.start)
        for r in self._finishers:
            self._collect(r, r.finish, end, end.last_seq, out, strict, names)  # type: ignore[arg-type]
        return out

    def session(
        self, start: MatchStarted, options: Mapping[str, Any], catalogue: Any = None, strict: bool = False
    ) -> Session:
        """An audit fed one event at a time (``Session``), starting at ``start``."""
        return Session(self, start, options, catalogue, strict)

    @staticmethod
    def _collect(
        r: Rule,
        fn: Callable[[Any], Iterable[Hit]],
        arg: Any,
        seq: int,
        out: list[Raw],
        strict: bool,
        names: Mapping[str, str],
    ) -> None:
        try:
            for hit in fn(arg) or ():
                out.append(r.raw(hit, names))
        except Exception as exc:  # a rule bug must not stop the audit; it is reported
            if strict:
                raise
            out.append(INTERNAL.raw(Hit(seq, {"rule": r.code, "error": f"{type(exc).__name__}: {exc}"})))


class Outcome(NamedTuple):
    """What the audit of a whole match gives (``Engine.check``)."""

    findings: list[Finding]
    """One per mistake, sorted by (seq, code) (or every finding unfolded)."""
    final: Frame[Any]
    """The frame after the last event: the state the end-of-match rules judged."""


def players_of(start: MatchStarted) -> dict[str, str]:
    """Player id -> name, as match.start lists them."""
    return {p.id: p.name for p in start.players}


class Delta(NamedTuple):
    """What one event fed to a ``Session`` changed in its findings."""

    added: list[Finding]
    """New findings, sorted by (seq, code): a finding that gained a consequence is removed and added again."""
    removed: list[Finding]
    """Findings gone: those of events a void took back, or redone after it, or folded into another."""


class Session:
    """The engine's audit of a match being recorded: fed one event at a time, it keeps the
    frame after the last one and the findings so far (``Engine.session``).

    Each event is folded by the projector's ``advance`` and checked by the same rules, in
    the same order, as ``Engine.run``, and the findings are folded (``fold``) the same way:
    fed a whole log one event at a time, ``findings()`` then ``finish()`` give exactly what
    ``Engine.run`` gives for it. A ``log.void`` that takes events back rewinds to the latest
    snapshot before the first of them and folds the events after it again, passing over
    the voided ones; the findings of the refolded events are redone (``Delta.removed`` /
    ``added``). End-of-match rules run on demand.
    """

    def __init__(
        self,
        engine: Engine,
        start: MatchStarted,
        options: Mapping[str, Any],
        catalogue: Any = None,
        strict: bool = False,
        every: int = 32,
    ) -> None:
        self.engine, self.start, self.options, self.catalogue, self.strict = engine, start, options, catalogue, strict
        self.names = players_of(start)
        self.every = max(1, every)
        self.events: list[Event] = [start]
        """Every event fed, voided ones included: ``events[i].seq == i + 1``."""
        self.frame: Frame[Any] = first_frame(engine.projection, start, options)
        """The frame after the last event."""
        self._snaps: list[Frame[Any]] = [self.frame]
        self._found: list[tuple[int, Raw]] = []
        """(seq of the event whose check found it, raw finding), in the order the events were checked."""
        self._check(start, self.frame, self.frame)

    @property
    def voided(self) -> dict[int, int]:
        """Seq taken back -> the seq of the log.void that took it back."""
        return self.frame.log.voided

    def findings(self) -> list[Finding]:
        """The findings of every event so far, folded and sorted by (seq, code); end-of-match rules not run."""
        return fold(r for _, r in self._found)

    def finish(self) -> list[Finding]:
        """Every finding, the end-of-match rules' included, exactly as ``Engine.run`` gives them."""
        end = End(self.frame, self.options, self.start, self.frame.seq, self.catalogue)
        return fold([r for _, r in self._found] + self.engine.finish(end, self.strict))

    def feed(self, event: Event) -> Delta:
        """Fold and check the next event; what it changed in the findings."""
        if event.seq != self.frame.seq + 1:
            raise ValueError(f"expected seq {self.frame.seq + 1}, got {event.seq}")
        self.events.append(event)
        if type(event) is LogVoided:
            taken = [
                v.seq
                for v in void_verdicts(event, self.frame.log)
                if v.problem is None and v.seq not in self.frame.log.voided
            ]
            if taken:
                return self._refold(min(taken), {**dict.fromkeys(self.voided), **dict.fromkeys(taken)})
        mark = len(self._found)
        self._step(event, NONE_VOIDED)
        if len(self._found) == mark:
            return Delta([], [])
        return _delta(fold(r for _, r in self._found[:mark]), self.findings())

    def extend(self, events: Iterable[Event]) -> None:
        """Feed a run of events at once (a log recorded before): one pass, voids known up front."""
        new = list(events)
        skip = voided_in(self.events + new)
        if min(skip, default=self.frame.seq + 1) <= self.frame.seq:
            raise ValueError("the events take back events already fed: feed them one by one")
        for event in new:
            if event.seq != self.frame.seq + 1:
                raise ValueError(f"expected seq {self.frame.seq + 1}, got {event.seq}")
            self.events.append(event)
            self._step(event, skip)

    def _step(self, event: Event, skip: Any) -> None:
        for _, before, after in advance(self.engine.projection, self.frame, (event,), skip):
            self.frame = after
            if event.seq not in skip:
                self._check(event, before, after)
        if self.frame.seq % self.every == 0:
            self._snaps.append(self.frame)

    def _check(self, event: Event, before: Frame[Any], after: Frame[Any]) -> None:
        out: list[Raw] = []
        cls = type(event)
        pairs = self.engine._checks.get(cls) or self.engine._checks_of(cls)
        self.engine._check(
            pairs, Step(event, before, after, self.options, self.start, self.catalogue), out, self.strict, self.names
        )
        self._found.extend((event.seq, r) for r in out)

    def _refold(self, first: int, skip: dict[int, None]) -> Delta:
        """Fold again from the latest snapshot before ``first``, passing over ``skip``."""
        old = self.findings()
        while self._snaps[-1].seq >= first:
            self._snaps.pop()
        self.frame = self._snaps[-1]
        cut = next((i for i, (seq, _) in enumerate(self._found) if seq > self.frame.seq), len(self._found))
        del self._found[cut:]
        for event in self.events[self.frame.seq :]:
            self._step(event, skip)
        return _delta(old, self.findings())


def _delta(old: list[Finding], new: list[Finding]) -> Delta:
    return Delta(sorted(_minus(new, old), key=Finding.sort_key), sorted(_minus(old, new), key=Finding.sort_key))


def _minus(a: list[Finding], b: list[Finding]) -> list[Finding]:
    """``a`` without one equal finding of ``b`` for each in ``b`` (a multiset difference)."""
    rest = list(b)
    out = []
    for f in a:
        if f in rest:
            rest.remove(f)
        else:
            out.append(f)
    return out


@dataclass(frozen=True)
class Game:
    """The one description of a game: every part of its folder (``kifu/games/<id>/game.py`` declares ``GAME``).

    The parts every layer needs are values here: its events and catalogue (the log layer reads the
    same ``events`` module through the game table), its projection, rules, options and charts. The
    optional modules are named in ``parts`` and loaded only where they are used, through the game
    table: ``sim``, ``views``, ``stats``, ``listing``. Its words (``locale/en.json``, ``ja.json``)
    and its chat notation (``mapping.toml``) are files of the folder. A test checks the description
    names exactly the parts the folder has.
    """

    id: str
    """Game id as written in match.start (``gunandgun``)."""
    prefix: str
    """Namespace of its event types (``gg`` for ``gg.toss``)."""
    code: str
    """Prefix of its rule codes (``GG``); lower-cased, the namespace of its documents and words (``doc.gg.*``)."""
    events: tuple[type[Event], ...]
    projection: Projection[Any]
    rules: tuple[Rule, ...]
    options: tuple[Option, ...] = ()
    catalogue: Callable[[MatchStarted], Any] | None = None
    """Builds the card catalogue a match uses (built-in data plus the log's own): ``events.catalogue``."""
    charts: Charts = NO_CHARTS
    """What the match page charts (the game's ``charts`` module)."""
    parts: tuple[str, ...] = ()
    """Its optional modules (``PARTS``), each loaded where it is used (``part``)."""

    @property
    def title(self) -> Text:
        """The game's name, the catalogue's ``game.<id>.title``."""
        return Text.of(f"game.{self.id}.title")

    @property
    def documents(self) -> list[Document]:
        """The rule documents its citations name (``doc.<code>.*``)."""
        return documents(self.code.lower())

    def part(self, name: str) -> Any:
        """Its optional module ``name`` (one of ``parts``), loaded through the game table; None if it has none."""
        return games.part(self.id, name) if name in self.parts else None


PARTS = {
    "sim": "simulate(seed, turns=None, slip=None) -> event bodies, match.start first; SLIPS; TURNS",
    "views": "its warehouse views, randomness and run-length feeds and facts tables, as data (docs/sql.md)",
    "stats": "its kifu stats statistics, as SQL: BUILDS (kifu stats builds --by) and STATS (kifu stats <name>)",
    "listing": "what kifu cards shows of its cards: listing, describe, forms",
}
"""The optional parts a game may have, each a module of its folder, and what it declares."""
