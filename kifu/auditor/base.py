"""The rule API: what a game's rules are made of (DESIGN.md contract 4), and the game's one description.

A rule is data (code, name, severity, citation, titles, messages, documentation)
plus one pure check. ``check(step)`` sees the frame before and after each event
it watches; ``finish(end)`` sees the final frame once; each reports ``Flag``s (what a check flags), which
the engine (``kifu.auditor.engine``) turns into findings (``kifu.auditor.findings``).
A flag names what it is about (``Flag.about``, such as an activation) and what it
follows from (``Flag.follows``): one mistake is one finding. Words are the message
catalogue's (``kifu.events.i18n``). Nothing here does I/O.
"""

from __future__ import annotations

import functools
import re
from typing import Any, TypeVar
from collections.abc import Callable, Iterable, Mapping, Sequence

import msgspec

from ..events import table
from ..events.base import Event, MatchStarted
from ..events.i18n import Document, Later, Text, cite, documents, template
from ..projector.base import Frame, Projection
from ..projector.series import NONE as NO_CHARTS
from ..projector.series import Charts
from .findings import DECIDED, REST, Finding, Raw, Severity, Subject

__all__ = [
    "CODE",
    "CORE_OPTIONS",
    "DECIDED",
    "INTERNAL",
    "NAME",
    "PARTS",
    "REST",
    "VERIFIED_RANDOM",
    "Doc",
    "End",
    "Finding",
    "Game",
    "Flag",
    "Option",
    "Rule",
    "Severity",
    "Step",
    "Subject",
    "Text",
    "end_rule",
    "latest",
    "resolve_options",
    "rule",
]


CODE = re.compile(r"^[A-Z]{2,6}-[A-Z]{2,8}-\d{3}$")
"""A rule code: the game's prefix (or KIFU), an area, a number. The registry checks the prefix is the game's."""


NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


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


VERIFIED_RANDOM = Option(name="verified_random", default=False, choices=(False, True))
"""The match claims verifiable randomness: every random outcome names its commitment (KIFU-RNG-012)."""


CORE_OPTIONS: tuple[Option, ...] = (VERIFIED_RANDOM,)
"""Options every game accepts besides its own ``Game.options`` (``registry.options_of`` joins them)."""


# Flag, End, Rule and Game are msgspec Structs rather than dataclasses: a dataclass writes and compiles its methods
# as the class is made, which cost every cold `kifu audit` about as much as the rest of this module.


class Flag(msgspec.Struct, frozen=True):
    """What a check reports; the engine turns it into a Finding."""

    seq: int
    evidence: Mapping[str, Any] = msgspec.field(default_factory=dict)
    seqs: tuple[int, ...] = ()
    undecided: bool = False
    """True when the rule could not decide (missing card facts): an info finding."""
    about: Subject | None = None
    """What the mistake is about. The hits of one rule about one subject are one finding (all their seqs); a
    later hit of another rule about the subject of an earlier error is its consequence; a rule's "cannot decide"
    about a subject is withdrawn once the rule decides it."""
    follows: tuple[Subject, ...] = ()
    """Subjects this hit follows from: when an error is about one of them, this hit is its consequence."""
    facts: tuple[Subject, ...] = ()
    """The facts the hit finds wrong (``("number", "additional_cost")``: one number of an effect). The hit of a
    ``Rule.general`` rule merges into a more specific rule's error at the same event that finds the same facts
    wrong: one wrong number, one finding."""
    provisional: bool = False
    """Said before all was known (a toss before its cost, the cost not paid yet): shown at once (a match being
    recorded), and withdrawn where the same rule reports the same subject again with what came later (the cost
    paid, and at which seq)."""


class Step(msgspec.Struct):
    """What a rule sees for one event (a Struct: one is built per event, in C)."""

    event: Event
    before: Frame[Any]
    after: Frame[Any]
    options: Mapping[str, Any]
    start: MatchStarted
    catalogue: Any = None


class End(msgspec.Struct):
    """What a rule sees once, after the last event."""

    final: Frame[Any]
    options: Mapping[str, Any]
    start: MatchStarted
    last_seq: int
    catalogue: Any = None


UNDECIDED = "finding.undecided"
"""Catalogue id of the message of a finding whose rule could not decide: "cannot decide: {reason}"."""


class Rule(msgspec.Struct, frozen=True, dict=True):  # dict: room for its cached properties
    """One executable rule with its code, citation and documentation.

    Its words are in the message catalogue under ``rule.<code>.``: ``title``,
    ``message`` (a template filled from a finding's evidence), and the documentation
    sections ``checks``, ``why``, ``bad`` and ``good`` (kifu/events/i18n.py).
    """

    code: str
    name: str
    severity: Severity
    check: Callable[[Step], Iterable[Flag] | None] | None = None
    on: tuple[type[Event], ...] | None = None
    """Event classes the check watches; None watches every event."""
    finish: Callable[[End], Iterable[Flag] | None] | None = None
    options: tuple[str, ...] = ()
    """Names of the options this rule's verdict depends on."""
    general: bool = False
    """It judges what other rules judge more closely (every number of an effect uses N, where one rule judges
    the additional cost): its error merges into theirs at the same event when they find the same facts wrong
    (``Flag.facts``; ``findings.merge``)."""

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
        return Text(ja=template(f"rule.{self.code}.message", "ja"), en=template(f"rule.{self.code}.message", "en"))

    @property
    def doc(self) -> Doc:
        return Doc(**{s: Text.of(f"rule.{self.code}.{s}") for s in ("checks", "why", "bad", "good")})

    def finding(self, hit: Flag, names: Mapping[str, str] = {}) -> Finding:
        """The finding of one hit. ``names`` (player id -> name) name the players its message mentions; an
        evidence value that is a ``Msg`` (a phrase of the catalogue with its own values, players among them) is
        rendered in both languages the same way and kept as a ``Text``. Both are filled when the finding
        leaves the engine (``Later``, ``findings.made``): a hit merged into another finding is never filled."""
        later = Later(_undecided() if hit.undecided else self.message, hit.evidence, names, self.game)
        return Finding(
            code=self.code,
            name=self.name,
            severity=Severity.INFO.value if hit.undecided else self.severity.value,
            seq=hit.seq,
            seqs=sorted(set(hit.seqs) | {hit.seq}),
            citation=self.citation,
            message=later,  # type: ignore[arg-type]  # filled when the finding leaves the engine (findings.made)
            evidence=later.evidence,  # type: ignore[arg-type]  # its phrases rendered then too
        )

    @property
    def game(self) -> str:
        """The lower-case prefix of the code (``gg`` of ``GG-TOSS-001``): where its ``{x:word}`` words are."""
        return self.code.split("-", 1)[0].lower()

    def raw(self, hit: Flag, names: Mapping[str, str] = {}) -> Raw:
        return Raw(self.finding(hit, names), hit.about, hit.follows, hit.facts, self.general, hit.provisional)


@functools.lru_cache(maxsize=1)
def _undecided() -> Text:
    return Text(ja=template(UNDECIDED, "ja"), en=template(UNDECIDED, "en"))


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


def rule(**kwargs: Any) -> Callable[[Callable[[Step], Iterable[Flag] | None]], Rule]:
    """Decorator: ``@rule(code=..., ...)`` over a check function makes a Rule."""

    def make(fn: Callable[[Step], Iterable[Flag] | None]) -> Rule:
        return Rule(check=fn, **kwargs)

    return make


def end_rule(**kwargs: Any) -> Callable[[Callable[[End], Iterable[Flag]]], Rule]:
    """Decorator for a rule that judges the whole match once, at the end."""

    def make(fn: Callable[[End], Iterable[Flag]]) -> Rule:
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


class Game(msgspec.Struct, frozen=True):
    """The one description of a game: every part of its folder (``kifu/games/<id>/game.py`` declares ``GAME``).

    The parts every layer needs are values here: its events and catalogue (the log layer reads the
    same ``events`` module through the game table), its projection, rules, options and charts. The
    optional modules are named in ``parts`` and loaded only where they are used, through the game
    table: ``sim``, ``views``, ``stats``, ``listing``, ``board``, ``importing``. Its words (``locale/en.json``, ``ja.json``)
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
        return table.part(self.id, name) if name in self.parts else None

    @property
    def board(self) -> Callable[..., Any] | None:
        """How the table is drawn after an event: its ``board`` part's ``draw(frame, lang, around)``, returning a
        ``kifu.auditor.board.Picture`` (the match page and ``kifu state -f svg``); None: the game has no board."""
        module = self.part("board")
        return None if module is None else module.draw


PARTS = {
    "sim": "simulate(seed, turns=None, mistake=None) -> event bodies, match.start first; MISTAKES; TURNS",
    "views": "its warehouse views, randomness and run-length feeds and facts tables, as data (docs/sql.md)",
    "stats": "its kifu stats statistics, as SQL: BUILDS (kifu stats builds --by) and STATS (kifu stats <name>)",
    "listing": "what kifu cards shows of its cards: listing, describe, forms",
    "board": "draw(frame, lang, around) -> Picture: the table drawn after an event (docs/report.md, 'The board')",
    "importing": "placer(players, rules, catalogue): a step on each event a chat makes (MTG: a coin's round)",
}
"""The optional parts a game may have, each a module of its folder, and what it declares."""
