"""Verifiable randomness (``KIFU-RNG-…``): a match's commit–reveal tosses held to docs/randomness.md.

The projection keeps every ``rng.commit``, ``rng.nonce`` and ``rng.reveal`` and every
event that names a commitment (``LogState.rng``). At the end of the match one pass
over them (``analyse``) groups them into *rounds*, one per use of a commitment
(commit, nonce, reveal, and the events that record its outcomes), and judges each
round once. A mistake is reported once, at the event where it shows, by the rule
for that mistake; what follows from it is not reported again (a round whose reveal
does not match has no "changed outcomes"; a reused commitment's second round is
that finding and nothing else). The rules below each report their own part of
that one verdict.

A finding about a round names in ``seqs`` every event of the round, and a
finding about one recorded outcome names that event: an outcome is *verifiable*
when its event names a commitment and no KIFU-RNG finding names its seq
(``tally``, the warehouse's ``randomness.verifiable``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple
from collections.abc import Iterable, Sequence

from ..events import rng as protocol
from ..events.base import (
    RNG_EVENTS,
    Event,
    MatchStarted,
    RandomRolled,
    RngCommitted,
    RngNonced,
    RngRevealed,
    event_type,
)
from .base import VERIFIED_RANDOM, End, Hit, Rule, Severity, Step, Text, end_rule


# --- one pass over the ledger ------------------------------------------------------------------


@dataclass
class _Round:
    """One use of a commitment: its commit, nonce and reveal as recorded, and the events that name it."""

    id: str
    commit: RngCommitted | None = None
    nonce: RngNonced | None = None
    reveal: RngRevealed | None = None
    uses: list[Event] = field(default_factory=list)
    before: _Round | None = None
    """The earlier round of the same commitment that this one uses again."""
    foreign: bool = False
    """The reveal names another id: taken as this open commitment's reveal (it cannot be both)."""
    late: RngNonced | None = None
    """A nonce posted after the reveal, repeating the nonce the reveal already used."""
    others: list[Event] = field(default_factory=list)
    """Further nonces for the same round (only the first answers the commitment), and the commit posted
    again before anything answered it (a repost, not a second use)."""
    reused: bool = False
    """A later round uses this commitment again (that round's finding says so)."""

    @property
    def first(self) -> Event:
        """The event that opened the round."""
        return min((e for e in (self.commit, self.nonce, self.reveal) if e is not None), key=lambda e: e.seq)

    @property
    def digest(self) -> str | None:
        if self.commit is not None:
            return self.commit.digest
        return self.before.digest if self.before is not None else None

    @property
    def roller(self) -> str | None:
        if self.commit is not None:
            return _party(self.commit)
        if self.before is not None:
            return self.before.roller
        return _party(self.reveal) if self.reveal is not None else None

    @property
    def answer(self) -> str | None:
        """The nonce the reveal must use: the round's own, else (a repeated reveal) the round it repeats."""
        if self.nonce is not None:
            return self.nonce.nonce
        return self.before.answer if self.before is not None else None

    def seqs(self) -> tuple[int, ...]:
        found = [self.commit, self.nonce, self.reveal, self.late, *self.others, *self.uses]
        return tuple(sorted({e.seq for e in found if e is not None}))


class Problem(NamedTuple):
    """One finding the analysis makes: the rule's code and its hit."""

    code: str
    hit: Hit


class Analysis(NamedTuple):
    """What one pass over a match's verifiable-randomness events found."""

    problems: tuple[Problem, ...]
    verified: frozenset[int]
    """Seqs of the events whose recorded outcomes are verifiable."""
    verifiable: int
    """How many outcomes those events record."""


def _party(e: Event) -> str | None:
    """Who posted an event: its player id, else the speaker an import named, else nobody known."""
    if e.by is not None:
        return e.by
    speaker = getattr(e, "speaker", None)
    return f"@{speaker}" if speaker else None


def _who(e: Event) -> str:
    return e.by or getattr(e, "speaker", None) or "?"


def _rounds(ledger: Sequence[Event]) -> list[_Round]:
    """The ledger grouped into rounds, in the order each round began."""
    by_id: dict[str, list[_Round]] = {}
    order: list[_Round] = []
    early: dict[str, list[Event]] = {}

    def new(id: str, before: _Round | None = None) -> _Round:
        r = _Round(id=id, before=before)
        if before is not None:
            before.reused = True
        by_id.setdefault(id, []).append(r)
        order.append(r)
        return r

    for e in ledger:
        if isinstance(e, (RngCommitted, RngNonced, RngRevealed)):
            rounds = by_id.get(e.id)
            cur = rounds[-1] if rounds else None
        if isinstance(e, RngCommitted):
            if cur is not None and cur.commit is None and cur.reveal is None and cur.before is None:
                cur.commit = e  # the nonce came first (a finding, but the same round)
            elif cur is not None and cur.nonce is None and cur.reveal is None and cur.commit is not None:
                cur.others.append(e)  # posted again before anyone answered it: nothing was fixed yet
            else:
                new(e.id, cur).commit = e
        elif isinstance(e, RngNonced):
            if cur is None:
                new(e.id).nonce = e
            elif cur.reveal is not None:
                if cur.nonce is None and cur.late is None and e.nonce == cur.reveal.nonce:
                    cur.late = e  # the reveal came first; this is its nonce, posted late
                else:
                    new(e.id, cur).nonce = e
            elif cur.nonce is None:
                cur.nonce = e
            else:
                cur.others.append(e)
        elif isinstance(e, RngRevealed):
            if cur is None:
                # An id never seen: if the roller has an answered commitment waiting for its reveal, this is
                # that reveal (opening something else), not a second mystery beside an abandoned commitment.
                waiting = next(
                    (
                        r
                        for r in reversed(order)
                        if r.reveal is None and r.commit is not None and r.nonce is not None and r.roller == _party(e)
                    ),
                    None,
                )
                if waiting is not None:
                    waiting.reveal, waiting.foreign = e, True
                    by_id.setdefault(e.id, []).append(waiting)
                else:
                    new(e.id).reveal = e
            elif cur.reveal is not None:
                new(e.id, cur).reveal = e
            else:
                cur.reveal = e
        else:
            ref = e.rng
            rounds = by_id.get(ref.commit)
            if rounds:
                rounds[-1].uses.append(e)
            else:
                early.setdefault(ref.commit, []).append(e)
    for id, uses in early.items():
        if id in by_id:  # recorded before anything of its commitment: it belongs to the first round
            by_id[id][0].uses[:0] = uses
    return order


def _unknown_uses(ledger: Sequence[Event]) -> list[Event]:
    """Events that name a commitment no commit, nonce or reveal of the match mentions."""
    known = {e.id for e in ledger if isinstance(e, (RngCommitted, RngNonced, RngRevealed))}
    return [e for e in ledger if type(e) not in RNG_EVENTS and e.rng.commit not in known]


def _judge(r: _Round, players: Sequence[str], out: list[Problem]) -> bool:
    """The findings of one round's protocol (not its outcomes); True when it has any."""
    seqs = r.seqs()
    found = len(out)

    def add(code: str, at: Event, **evidence: Any) -> None:
        out.append(Problem(code, Hit(at.seq, {"id": r.id, **evidence}, seqs)))

    roller = r.roller
    if r.before is not None:
        if r.commit is None and r.reveal is None and r.nonce is not None:
            add(
                "KIFU-RNG-002",
                r.nonce,
                detail=Text.of(
                    "rng.nonce_after_reveal",
                    id=r.id,
                    reveal=r.before.reveal.seq if r.before.reveal else r.before.first.seq,
                ),
            )
        else:
            add("KIFU-RNG-001", r.first, first=r.before.first.seq)
    elif r.nonce is not None and r.commit is None:
        add("KIFU-RNG-002", r.nonce, detail=Text.of("rng.nonce_without_commit", id=r.id))
    elif r.nonce is not None and r.commit is not None and r.nonce.seq < r.commit.seq:
        add("KIFU-RNG-002", r.nonce, detail=Text.of("rng.nonce_before_commit", id=r.id, commit=r.commit.seq))
    if r.nonce is not None and (r.nonce.by not in players or (roller is not None and _party(r.nonce) == roller)):
        add("KIFU-RNG-003", r.nonce, who=_who(r.nonce), roller=(roller or "?").lstrip("@"))
    if r.reveal is None:
        if r.commit is not None and r.before is None and not r.reused:
            detail = (
                Text.of("rng.abandoned", id=r.id, nonce=r.nonce.seq)
                if r.nonce is not None
                else Text.of("rng.never_answered", id=r.id)
            )
            add("KIFU-RNG-008", r.commit, detail=detail)
        return True
    digest = r.digest
    if r.foreign:
        add(
            "KIFU-RNG-006",
            r.reveal,
            detail=Text.of(
                "rng.reveal_other", id=r.reveal.id, open=r.id, commit=r.commit.seq if r.commit else r.first.seq
            ),
        )
    elif digest is None:
        if r.nonce is None:  # a nonce without its commitment already says what is missing
            add("KIFU-RNG-006", r.reveal, detail=Text.of("rng.reveal_unknown", id=r.id))
    elif _digest(r.reveal.secret) != digest:
        add("KIFU-RNG-006", r.reveal, detail=Text.of("rng.reveal_mismatch", id=r.id, commit=(r.commit or r.first).seq))
    elif r.answer is None:
        late = (
            Text.of("rng.reveal_before_nonce", id=r.id, nonce=r.late.seq)
            if r.late is not None
            else Text.of("rng.reveal_without_nonce", id=r.id)
        )
        add("KIFU-RNG-007", r.reveal, detail=late)
    elif r.reveal.nonce != r.answer:
        add(
            "KIFU-RNG-007",
            r.reveal,
            detail=Text.of("rng.reveal_other_nonce", id=r.id, used=r.reveal.nonce, sent=r.answer),
        )
    return len(out) > found


def _digest(secret: str) -> str:
    return protocol.commitment_digest(bytes.fromhex(secret))


def _settled(r: _Round) -> bool:
    """True when the round's reveal opens its commitment with its nonce: its outcomes are then fixed."""
    return (
        r.reveal is not None
        and not r.foreign
        and r.digest is not None
        and r.answer is not None
        and _digest(r.reveal.secret) == r.digest
        and r.reveal.nonce == r.answer
    )


def _outcomes(r: _Round, out: list[Problem]) -> tuple[set[int], int]:
    """The findings of a settled round's recorded outcomes; the seqs recorded right and their outcome count."""
    assert r.reveal is not None
    derive = protocol.stream(bytes.fromhex(r.reveal.secret), r.reveal.nonce)
    good: set[int] = set()
    count = 0
    expected = 0
    for e in r.uses:
        index = e.rng.index
        recorded = e.outcomes()
        seqs = tuple(s.seq for s in (r.commit, r.reveal) if s is not None)
        base = {"type": event_type(type(e)), "seq": e.seq, "id": r.id}
        fine = True
        if index != expected:
            out.append(Problem("KIFU-RNG-010", Hit(e.seq, {**base, "index": index, "expected": expected}, seqs)))
            fine = False
        for k, (sides, face) in enumerate(recorded):
            derived = derive(index + k, sides) if 2 <= sides <= protocol.MAX_SIDES else None
            if face != derived:
                out.append(
                    Problem(
                        "KIFU-RNG-009",
                        Hit(
                            e.seq,
                            {**base, "index": index + k, "sides": sides, "face": face, "derived": derived or "-"},
                            seqs,
                        ),
                    )
                )
                fine = False
                break
        expected = max(expected, index + len(recorded))
        if fine:
            good.add(e.seq)
            count += len(recorded)
    return good, count


def _open_together(rounds: list[_Round], out: list[Problem]) -> set[int]:
    """KIFU-RNG-005: a commitment answered while the same roller had another answered and not yet revealed.

    Only rounds that are both revealed in the end: a commitment never revealed is
    abandoned (KIFU-RNG-008), which already says what went wrong. One sweep in seq
    order over the nonces and reveals. Returns the rounds hit (by ``id()``).
    """
    proper = [
        r
        for r in rounds
        if r.before is None
        and r.commit is not None
        and r.nonce is not None
        and r.reveal is not None
        and r.commit.seq < r.nonce.seq < r.reveal.seq
        and r.roller is not None
    ]
    steps = sorted(
        [(r.nonce.seq, 1, r) for r in proper] + [(r.reveal.seq, 0, r) for r in proper],
        key=lambda step: step[0],
    )
    waiting: dict[str | None, list[_Round]] = {}
    hit: set[int] = set()
    for _, answered, b in steps:
        mine = waiting.setdefault(b.roller, [])
        if not answered:
            mine.remove(b)
            continue
        if mine:
            other = mine[-1]
            seqs = tuple(sorted(set(b.seqs()) | set(other.seqs())))
            out.append(
                Problem(
                    "KIFU-RNG-005",
                    Hit(
                        b.nonce.seq,
                        {
                            "id": b.id,
                            "other": other.id,
                            "other_seq": other.nonce.seq,
                            "roller": (b.roller or "?").lstrip("@"),
                        },
                        seqs,
                    ),
                )
            )
            hit |= {id(b), id(other)}
        mine.append(b)
    return hit


def analyse(ledger: Sequence[Event], players: Sequence[str]) -> Analysis:
    """Judge a match's verifiable-randomness events (``LogState.rng``) once: every finding, and what verifies."""
    if not ledger:
        return _EMPTY
    problems: list[Problem] = []
    rounds = _rounds(ledger)
    flagged = _open_together(rounds, problems)
    seen_nonces: dict[str, int] = {}
    verified: set[int] = set()
    count = 0
    for r in rounds:
        bad = _judge(r, players, problems) or id(r) in flagged
        if r.nonce is not None and r.before is None:
            first = seen_nonces.setdefault(r.nonce.nonce, r.nonce.seq)
            if first != r.nonce.seq:
                problems.append(
                    Problem(
                        "KIFU-RNG-004", Hit(r.nonce.seq, {"id": r.id, "nonce": r.nonce.nonce, "first": first}, r.seqs())
                    )
                )
                bad = True
        if _settled(r):
            good, n = _outcomes(r, problems)
            if not bad:
                verified |= good
                count += n
    for e in _unknown_uses(ledger):
        problems.append(
            Problem("KIFU-RNG-011", Hit(e.seq, {"type": event_type(type(e)), "seq": e.seq, "id": e.rng.commit}))
        )
    return Analysis(tuple(problems), frozenset(verified), count)


_EMPTY = Analysis((), frozenset(), 0)
_LAST: list[Any] = [None, _EMPTY]
"""The last ledger analysed and its analysis: every KIFU-RNG end rule of one audit asks for the same one."""


def _analysis(end: End) -> Analysis:
    ledger = end.final.log.rng
    if _LAST[0] is not ledger:
        _LAST[:] = [ledger, analyse(ledger, end.final.log.players)]
    return _LAST[1]


# --- what the CLI and the page count -----------------------------------------------------------


class Tally:
    """Random outcomes of a match and how many are verifiable, counted as its events go by (``add_all``)."""

    def __init__(self) -> None:
        self.outcomes = 0
        """Random outcomes the match records (every event whose class is ``random``)."""
        self.players: tuple[str, ...] = ()
        self.ledger: list[Event] = []
        self._kinds: dict[type, tuple[bool, bool]] = {}

    def add_all(self, events: Sequence[Event]) -> None:
        """Count a block of events: its classes are found in C, then only events of the classes that
        record outcomes or can name a commitment are looked at (``kifu verify`` stays as fast)."""
        wanted = {cls for cls in set(map(type, events)) if any(self._kind(cls)) or cls is MatchStarted}
        if not wanted:
            return
        kinds = self._kinds
        for e in events:
            cls = type(e)
            if cls not in wanted:
                continue
            random, ledger = kinds[cls]
            if random:
                self.outcomes += len(e.values) if cls is RandomRolled else len(e.outcomes())
            if ledger and (cls in RNG_EVENTS or e.rng is not None):  # (as LogState.rng)
                self.ledger.append(e)
            elif cls is MatchStarted:
                self.players = tuple(p.id for p in e.players)

    def _kind(self, cls: type) -> tuple[bool, bool]:
        kind = self._kinds.get(cls)
        if kind is None:
            kind = self._kinds[cls] = (cls.random, cls in RNG_EVENTS or "rng" in cls.__struct_fields__)
        return kind

    @property
    def verifiable(self) -> int:
        """How many of the outcomes are verifiable (docs/randomness.md)."""
        return analyse(self.ledger, self.players).verifiable


def tally(events: Sequence[Event]) -> Tally:
    """The random outcomes of a match's events and how many are verifiable."""
    t = Tally()
    t.add_all(events)
    return t


# --- the rules ---------------------------------------------------------------------------------


def _rule(code: str, name: str, severity: Severity = Severity.ERROR) -> Rule:
    def finish(end: End) -> Iterable[Hit]:
        return [p.hit for p in _analysis(end).problems if p.code == code]

    return end_rule(code=code, name=name, severity=severity)(finish)


RULES: tuple[Rule, ...] = (
    _rule("KIFU-RNG-001", "commitment-used-once"),
    _rule("KIFU-RNG-002", "nonce-between-commit-and-reveal"),
    _rule("KIFU-RNG-003", "nonce-from-the-opponent"),
    _rule("KIFU-RNG-004", "nonce-is-new", Severity.WARNING),
    _rule("KIFU-RNG-005", "one-open-commitment"),
    _rule("KIFU-RNG-006", "reveal-opens-the-commitment"),
    _rule("KIFU-RNG-007", "reveal-uses-the-nonce"),
    _rule("KIFU-RNG-008", "commitment-is-revealed"),
    _rule("KIFU-RNG-009", "outcome-is-derived"),
    _rule("KIFU-RNG-010", "outcomes-in-order"),
    _rule("KIFU-RNG-011", "names-a-posted-commitment"),
)
"""The protocol's rules, judged once at the end of the match (``analyse``)."""


def claim_rule(events: Iterable[type[Event]]) -> Rule:
    """KIFU-RNG-012 for a game's event types: in a match that claims verifiable randomness, every random
    outcome names its commitment."""
    random = tuple(cls for cls in events if cls.random)

    def check(s: Step) -> tuple[Hit, ...] | None:
        e = s.event
        if s.options.get(VERIFIED_RANDOM.name) and getattr(e, "rng", None) is None and e.outcomes():
            return (Hit(e.seq, {"type": event_type(type(e)), "seq": e.seq}),)
        return None

    return Rule(
        check=check,
        code="KIFU-RNG-012",
        name="verified-random-names-a-commitment",
        severity=Severity.ERROR,
        on=random,
        options=(VERIFIED_RANDOM.name,),
    )
