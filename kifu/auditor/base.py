"""Rules, findings and the single-pass engine (DESIGN.md contract 4).

A rule is data (code, name, severity, citation, titles, messages, documentation)
plus one pure check. ``check(step)`` sees the frame before and after each event
it watches; ``finish(end)`` sees the final frame once. The engine folds the log
once and shows every rule each step; its ``Session`` does the same one event at
a time, for a log being recorded. Events a ``log.void`` takes back are passed
over by both: no rule sees them. Nothing here does I/O.
"""

from __future__ import annotations

import enum
import functools
import re
import string
from dataclasses import dataclass, field
from typing import Any, Callable, Container, Iterable, Mapping, NamedTuple, Sequence

import msgspec

from ..events import i18n
from ..events.base import Event, LogVoided, MatchStarted, event_type
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
    def of(cls, key: str, **params: Any) -> "Text":
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
    """A documented choice where the seed is ambiguous; set in ``match.start.rules``.

    Its documentation is the catalogue's ``option.<name>``.
    """

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    citation: str = ""

    @property
    def doc(self) -> Text:
        return Text.of(f"option.{self.name}")


VERIFIED_RANDOM = Option(name="verified_random", default=False, choices=(False, True),
                         citation="kifu docs/randomness.md")
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


class Finding(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One rule broken (or undecidable) at one event."""

    code: str
    name: str
    severity: str
    seq: int
    seqs: list[int]
    citation: str
    message: Text
    evidence: dict[str, Any] = {}

    def sort_key(self) -> tuple[int, str]:
        return (self.seq, self.code)


class _SafeDict(dict):  # type: ignore[type-arg]
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _in(evidence: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """Evidence for one language: a ``Text`` value becomes its text in that language."""
    return {k: v.get(lang) if isinstance(v, Text) else v for k, v in evidence.items()}


def _fill(template: str, evidence: Mapping[str, Any]) -> str:
    return string.Formatter().vformat(template, (), _SafeDict(evidence))


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
    citation: str
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
    def message(self) -> Text:
        """The finding's template in both languages (read once: findings are made from it)."""
        return Text(ja=i18n.template(f"rule.{self.code}.message", "ja"), en=i18n.template(f"rule.{self.code}.message", "en"))

    @property
    def doc(self) -> Doc:
        return Doc(**{s: Text.of(f"rule.{self.code}.{s}") for s in ("checks", "why", "bad", "good")})

    def finding(self, hit: Hit) -> Finding:
        message = _undecided() if hit.undecided else self.message
        ev = dict(hit.evidence)
        return Finding(
            code=self.code,
            name=self.name,
            severity=Severity.INFO.value if hit.undecided else self.severity.value,
            seq=hit.seq,
            seqs=sorted(set(hit.seqs) | {hit.seq}),
            citation=self.citation,
            message=Text(ja=_fill(message.ja, _in(ev, "ja")), en=_fill(message.en, _in(ev, "en"))),
            evidence=ev,
        )


@functools.lru_cache(maxsize=1)
def _undecided() -> Text:
    return Text(ja=i18n.template(UNDECIDED, "ja"), en=i18n.template(UNDECIDED, "en"))


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
    citation="kifu: DESIGN.md contract 4",
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
    ) -> list[Finding]:
        """All findings of one match, sorted by (seq, code).

        ``voided`` are the seqs log.voids took back (``voided_in``); a stream of events (a
        file read as it is audited) must say them, since its voids come after what they
        void; for a sequence they are worked out here.
        """
        findings: list[Finding] = []
        if voided is None:
            events = events if isinstance(events, Sequence) else list(events)
            voided = voided_in(events)
        skip = voided or NONE_VOIDED
        it = iter(events)
        start = next(it)
        assert isinstance(start, MatchStarted)
        checks, checks_of = self._checks, self._checks_of
        frame = None
        # The projector's fold gives each event with the frames before and after it; each rule
        # watching the event's class sees one Step. Nothing else is allocated on a clean event.
        # (``_check`` written out: this loop is the audit's hot path.)
        for event, before, frame in transitions(self.projection, start, it, options, skip):
            if skip and event.seq in skip:
                continue
            s = Step(event, before, frame, options, start, catalogue)
            pairs = checks.get(type(event))
            if pairs is None:
                pairs = checks_of(type(event))
            mark = len(findings)
            try:
                for check, r in pairs:
                    hits = check(s)
                    if hits:
                        for hit in hits:
                            findings.append(r.finding(hit))
            except Exception:
                del findings[mark:]
                self._redo(pairs, s, findings, strict)
        assert frame is not None
        findings.extend(self.finish(End(frame, options, start, frame.seq, catalogue), strict))
        findings.sort(key=Finding.sort_key)
        return findings

    def _check(self, pairs: tuple[tuple[Callable[[Step], Any], Rule], ...], s: Step, out: list[Finding],
               strict: bool) -> None:
        """The findings of one step, appended to ``out`` in rule order."""
        mark = len(out)
        try:
            for check, r in pairs:
                hits = check(s)
                if hits:
                    for hit in hits:
                        out.append(r.finding(hit))
        except Exception:
            del out[mark:]
            self._redo(pairs, s, out, strict)

    def _redo(self, pairs: tuple[tuple[Callable[[Step], Any], Rule], ...], s: Step, out: list[Finding],
              strict: bool) -> None:
        """A step whose checks raised, redone rule by rule (rules are pure), the failing one reported."""
        for _, r in pairs:
            self._collect(r, r.check, s, s.event.seq, out, strict)  # type: ignore[arg-type]

    def finish(self, end: End, strict: bool = False) -> list[Finding]:
        """The findings of the whole-match rules, on the final frame."""
        out: list[Finding] = []
        for r in self._finishers:
            self._collect(r, r.finish, end, end.last_seq, out, strict)  # type: ignore[arg-type]
        return out

    def session(self, start: MatchStarted, options: Mapping[str, Any], catalogue: Any = None,
                strict: bool = False) -> "Session":
        """An audit fed one event at a time (``Session``), starting at ``start``."""
        return Session(self, start, options, catalogue, strict)

    @staticmethod
    def _collect(r: Rule, fn: Callable[[Any], Iterable[Hit]], arg: Any, seq: int, out: list[Finding], strict: bool) -> None:
        try:
            for hit in fn(arg) or ():
                out.append(r.finding(hit))
        except Exception as exc:  # a rule bug must not stop the audit; it is reported
            if strict:
                raise
            out.append(INTERNAL.finding(Hit(seq, {"rule": r.code, "error": f"{type(exc).__name__}: {exc}"})))


class Delta(NamedTuple):
    """What one event fed to a ``Session`` changed in its findings."""

    added: list[Finding]
    """New findings, sorted by (seq, code)."""
    removed: list[Finding]
    """Findings gone: those of events a void took back, or redone after it."""


class Session:
    """The engine's audit of a match being recorded: fed one event at a time, it keeps the
    frame after the last one and the findings so far (``Engine.session``).

    Each event is folded by the projector's ``advance`` and checked by the same rules, in
    the same order, as ``Engine.run``: fed a whole log one event at a time, ``findings()``
    then ``finish()`` give exactly what ``Engine.run`` gives for it. A ``log.void`` that
    takes events back rewinds to the latest snapshot before the first of them and folds
    the events after it again, passing over the voided ones; the findings of the refolded
    events are redone (``Delta.removed`` / ``added``). End-of-match rules run on demand.
    """

    def __init__(self, engine: Engine, start: MatchStarted, options: Mapping[str, Any], catalogue: Any = None,
                 strict: bool = False, every: int = 32) -> None:
        self.engine, self.start, self.options, self.catalogue, self.strict = engine, start, options, catalogue, strict
        self.every = max(1, every)
        self.events: list[Event] = [start]
        """Every event fed, voided ones included: ``events[i].seq == i + 1``."""
        self.frame: Frame[Any] = first_frame(engine.projection, start, options)
        """The frame after the last event."""
        self._snaps: list[Frame[Any]] = [self.frame]
        self._found: list[tuple[int, Finding]] = []
        """(seq of the event whose check found it, finding), in the order the events were checked."""
        self._check(start, self.frame, self.frame)

    @property
    def voided(self) -> dict[int, int]:
        """Seq taken back -> the seq of the log.void that took it back."""
        return self.frame.log.voided

    def findings(self) -> list[Finding]:
        """The findings of every event so far, sorted by (seq, code); end-of-match rules not run."""
        return sorted((f for _, f in self._found), key=Finding.sort_key)

    def finish(self) -> list[Finding]:
        """Every finding, the end-of-match rules' included, exactly as ``Engine.run`` gives them."""
        end = End(self.frame, self.options, self.start, self.frame.seq, self.catalogue)
        out = [f for _, f in self._found] + self.engine.finish(end, self.strict)
        out.sort(key=Finding.sort_key)
        return out

    def feed(self, event: Event) -> Delta:
        """Fold and check the next event; what it changed in the findings."""
        if event.seq != self.frame.seq + 1:
            raise ValueError(f"expected seq {self.frame.seq + 1}, got {event.seq}")
        self.events.append(event)
        if type(event) is LogVoided:
            taken = [v.seq for v in void_verdicts(event, self.frame.log)
                     if v.problem is None and v.seq not in self.frame.log.voided]
            if taken:
                return self._refold(min(taken), {**dict.fromkeys(self.voided), **dict.fromkeys(taken)})
        mark = len(self._found)
        self._step(event, NONE_VOIDED)
        return Delta(sorted((f for _, f in self._found[mark:]), key=Finding.sort_key), [])

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
        out: list[Finding] = []
        cls = type(event)
        pairs = self.engine._checks.get(cls) or self.engine._checks_of(cls)
        self.engine._check(pairs, Step(event, before, after, self.options, self.start, self.catalogue), out,
                           self.strict)
        self._found.extend((event.seq, f) for f in out)

    def _refold(self, first: int, skip: dict[int, None]) -> Delta:
        """Fold again from the latest snapshot before ``first``, passing over ``skip``."""
        while self._snaps[-1].seq >= first:
            self._snaps.pop()
        self.frame = self._snaps[-1]
        cut = next((i for i, (seq, _) in enumerate(self._found) if seq > self.frame.seq), len(self._found))
        old = [f for _, f in self._found[cut:]]
        del self._found[cut:]
        for event in self.events[self.frame.seq:]:
            self._step(event, skip)
        new = [f for _, f in self._found[cut:]]
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


def watched_types(rules: Iterable[Rule]) -> set[str]:
    """Event types named by rules' ``on`` (for registry validation)."""
    return {event_type(c) for r in rules for c in (r.on or ())}


@dataclass(frozen=True)
class Game:
    """Everything kifu knows about one game; the registry lists one per game id."""

    id: str
    """Game id as written in match.start (``gunandgun``)."""
    prefix: str
    """Namespace of its event types (``gg`` for ``gg.toss``)."""
    code: str
    """Prefix of its rule codes (``GG``)."""
    seed: str
    """The seed document the rulebook implements."""
    events: tuple[type[Event], ...]
    projection: Projection[Any]
    rules: tuple[Rule, ...]
    options: tuple[Option, ...] = ()
    catalogue: Callable[[MatchStarted], Any] | None = None
    """Builds the card catalogue a match uses (built-in data plus the log's own): ``events.catalogue``."""
    charts: Charts = NO_CHARTS
    """What the match page charts (the game's ``charts`` module)."""

    @property
    def title(self) -> Text:
        """The game's name, the catalogue's ``game.<id>.title``."""
        return Text.of(f"game.{self.id}.title")
