"""Verifiable randomness (``KIFU-RNG-…``): a match's commit–reveal tosses held to docs/randomness.md.

The projection keeps every ``rng.commit``, ``rng.nonce`` and ``rng.reveal`` and every
event that names a commitment (``LogState.rng``), voided or not: a void never takes
randomness back. At the end of the match one pass over them (``analyse``) groups them
into *rounds*, one per use of a commitment (commit, the opponents' nonces, reveal, and
the events that record its outcomes), and judges each round once. A mistake is
reported once, at the event where it shows, by the rule for that mistake; what follows
from it is not reported again (a round whose reveal does not match has no "changed
outcomes"; a reused commitment's second round is that finding and nothing else). The
rules below each report their own part of that one verdict.

Who may answer a commitment is decided here once (``Parties``) for the audit and for
``kifu toss check`` alike: the roller's opponents (every player of the match but the
roller, or those the commit names). A nonce by anyone else is recorded, reported once
(KIFU-RNG-003, info) and ignored.

An outcome is *verifiable* when its event names a commitment whose round has no error
or warning, records the derived face at the right index, and is not voided
(``randomness``): ``kifu verify``, the match page and the warehouse all read that one
definition.
"""

from __future__ import annotations

import bisect
from typing import Any, NamedTuple
from collections.abc import Iterable, Mapping, Sequence

import msgspec
from msgspec import field

from ..events import rng as protocol
from ..events.base import (
    RNG_EVENTS,
    Event,
    RandomRolled,
    RngCommitted,
    RngNonced,
    RngRevealed,
    event_type,
)
from ..events.i18n import Msg
from .base import VERIFIED_RANDOM, End, Flag, Rule, Severity, Step, Text, end_rule

NOTHING_VOIDED: Mapping[int, int] = {}


# --- who is who ----------------------------------------------------------------------------------


def party(e: Event) -> str | None:
    """Who posted an event: its ``by`` (a player id or a role), else ``@`` and the speaker an import named."""
    if e.by is not None:
        return e.by
    speaker = getattr(e, "speaker", None)
    return f"@{speaker}" if speaker else None


def _who(e: Event) -> str:
    return e.by or getattr(e, "speaker", None) or "?"


# Parties, _Round and _Judge are msgspec Structs, not dataclasses: a dataclass compiles its methods as the class
# is made, a cost every cold `kifu audit` paid.


class Parties(msgspec.Struct):
    """The roller of each commitment id and who may answer it, fixed before the rounds are read."""

    players: Sequence[str]
    roller: dict[str, str | None] = field(default_factory=dict)
    """Id -> the poster of its first commit (else of its first reveal)."""
    named: dict[str, list[str] | None] = field(default_factory=dict)
    """Id -> the opponents its first commit names (None: every player but the roller)."""
    version: dict[str, int] = field(default_factory=dict)
    """Id -> the protocol version of its first commit (else reveal)."""

    @classmethod
    def of(cls, ledger: Sequence[Event], players: Sequence[str]) -> Parties:
        out = cls(players)
        for e in ledger:
            if isinstance(e, RngCommitted) and e.id not in out.named:
                out.roller[e.id] = party(e)
                out.named[e.id] = e.opponents
                out.version[e.id] = e.version
        for e in ledger:
            if isinstance(e, RngRevealed) and e.id not in out.roller:
                out.roller[e.id] = party(e)
                out.version[e.id] = e.version
        return out

    def opponents(self, id: str) -> list[str]:
        """The players who answer commitment ``id``, in seat order."""
        roller = self.roller.get(id)
        named = self.named.get(id)
        return [p for p in self.players if p != roller and (named is None or p in named)]

    def answers(self, e: RngNonced) -> bool:
        """True when ``e`` comes from an opponent of its commitment's roller (a player of the match)."""
        return e.by is not None and e.by in self.opponents(e.id)


# --- one pass over the ledger ------------------------------------------------------------------


class _Round(msgspec.Struct):
    """One use of a commitment: its commit, nonces and reveal as recorded, and the events that name it."""

    id: str
    version: int = 1
    commit: RngCommitted | None = None
    nonces: list[RngNonced] = field(default_factory=list)
    """The binding nonces: each opponent's first (v1: the first opponent's) before the reveal."""
    reveal: RngRevealed | None = None
    uses: list[Event] = field(default_factory=list)
    before: _Round | None = None
    """The earlier round of the same commitment that this one uses again."""
    collides: _Round | None = None
    """The earlier round whose id this round's commit shares with another digest (KIFU-RNG-014)."""
    foreign: bool = False
    """The reveal names another id: taken as this open commitment's reveal (it cannot be both)."""
    late: RngNonced | None = None
    """A nonce posted after the reveal, repeating the nonce the reveal already used."""
    others: list[Event] = field(default_factory=list)
    """Further nonces of an opponent who already answered (only the first binds), and the commit posted
    again before anything answered it (a repost, not a second use)."""
    ignored: list[RngNonced] = field(default_factory=list)
    """Nonces by someone who is not an opponent: recorded, reported once, never binding."""
    collisions: list[RngCommitted] = field(default_factory=list)
    """Commits under this round's id with another digest, posted before it was answered."""
    reused: bool = False
    """A later round uses this commitment again (that round's finding says so)."""

    @property
    def first(self) -> Event:
        """The event that opened the round."""
        found = [e for e in (self.commit, self.reveal, *self.nonces) if e is not None]
        return min(found, key=lambda e: e.seq)

    @property
    def nonce(self) -> RngNonced | None:
        """The first binding nonce: when the round was answered."""
        return self.nonces[0] if self.nonces else None

    @property
    def digest(self) -> str | None:
        if self.commit is not None:
            return self.commit.digest
        return self.before.digest if self.before is not None else None

    @property
    def binding(self) -> protocol.Binding | None:
        """v2: what the commitment is bound to (its own commit, else the one it uses again)."""
        c = self.commit if self.commit is not None else (self.before.commit if self.before is not None else None)
        if c is None or c.version != 2 or None in (c.match, c.purpose, c.roll):
            return None
        try:
            return protocol.Binding(match=c.match, purpose=c.purpose, roll=c.roll)  # type: ignore[arg-type]
        except protocol.RngError:
            return None

    @property
    def roller(self) -> str | None:
        if self.commit is not None:
            return party(self.commit)
        if self.before is not None:
            return self.before.roller
        return party(self.reveal) if self.reveal is not None else None

    @property
    def answer(self) -> str | None:
        """The nonce text the reveal must repeat: the binding nonce(s) (v2: in ASCII order, '.'-joined), else
        (a repeated reveal) those of the round it repeats."""
        if self.nonces:
            if self.version == 2:
                return protocol.join_nonces([n.nonce for n in self.nonces])
            return self.nonces[0].nonce
        return self.before.answer if self.before is not None else None

    def events(self) -> list[Event]:
        found = [self.commit, *self.nonces, self.reveal, self.late, *self.others, *self.collisions, *self.uses]
        return [e for e in found if e is not None]

    def seqs(self) -> tuple[int, ...]:
        return tuple(sorted({e.seq for e in self.events()}))


def _rounds(ledger: Sequence[Event], parties: Parties) -> tuple[list[_Round], list[RngNonced]]:
    """The ledger grouped into rounds, in the order each round began; and the nonces of non-opponents that
    name a commitment no round has (reported alone)."""
    by_id: dict[str, list[_Round]] = {}
    order: list[_Round] = []
    early: dict[str, list[Event]] = {}
    stray: dict[str, list[RngNonced]] = {}

    def new(id: str, before: _Round | None = None) -> _Round:
        r = _Round(id=id, version=parties.version.get(id, 1), before=before)
        if before is not None:
            before.reused = True
        by_id.setdefault(id, []).append(r)
        order.append(r)
        r.ignored.extend(stray.pop(id, []))
        return r

    for e in ledger:
        if isinstance(e, (RngCommitted, RngNonced, RngRevealed)):
            rounds = by_id.get(e.id)
            cur = rounds[-1] if rounds else None
        if isinstance(e, RngCommitted):
            if cur is not None and cur.commit is None and cur.reveal is None and cur.before is None:
                cur.commit = e  # the nonce came first (a finding, but the same round)
            elif cur is not None and not cur.nonces and cur.reveal is None and cur.commit is not None:
                if e.digest == cur.commit.digest:
                    cur.others.append(e)  # posted again before anyone answered it: nothing was fixed yet
                else:
                    cur.collisions.append(e)  # another commitment under the same id: the roller could pick
            elif cur is not None and cur.digest is not None and e.digest != cur.digest:
                new(e.id).commit = e
                order[-1].collides = cur
            else:
                new(e.id, cur).commit = e
        elif isinstance(e, RngNonced):
            if not parties.answers(e):
                if cur is None:
                    stray.setdefault(e.id, []).append(e)
                else:
                    cur.ignored.append(e)
            elif cur is None:
                new(e.id).nonces.append(e)
            elif cur.reveal is not None:
                if not cur.nonces and cur.late is None and e.nonce in cur.reveal.nonce.split("."):
                    cur.late = e  # the reveal came first; this is its nonce, posted late
                else:
                    new(e.id, cur).nonces.append(e)
            elif any(n.by == e.by for n in cur.nonces) or (cur.version == 1 and cur.nonces):
                cur.others.append(e)  # only an opponent's first nonce binds (v1: the first opponent's)
            else:
                cur.nonces.append(e)
        elif isinstance(e, RngRevealed):
            if cur is None:
                # An id never seen: if the roller has an answered commitment waiting for its reveal, this is
                # that reveal (opening something else), not a second mystery beside an abandoned commitment.
                waiting = next(
                    (
                        r
                        for r in reversed(order)
                        if r.reveal is None and r.commit is not None and r.nonces and r.roller == party(e)
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
    return order, [n for ns in stray.values() for n in ns]


def _unknown_uses(ledger: Sequence[Event]) -> list[Event]:
    """Events that name a commitment no commit, nonce or reveal of the match mentions."""
    known = {e.id for e in ledger if isinstance(e, (RngCommitted, RngNonced, RngRevealed))}
    return [e for e in ledger if type(e) not in RNG_EVENTS and e.rng.commit not in known]


class Problem(NamedTuple):
    """One finding the analysis makes: the rule's code and its hit."""

    code: str
    hit: Flag


class Analysis(NamedTuple):
    """What one pass over a match's verifiable-randomness events found."""

    problems: tuple[Problem, ...]
    verified: frozenset[int]
    """Seqs of the standing (unvoided) events whose recorded outcomes are verifiable."""
    verifiable: int
    """How many outcomes those events record."""
    rounds: tuple[Round, ...] = ()
    """Each round as ``kifu toss check`` shows it."""


class Round(NamedTuple):
    """One round as a reader sees it: its commitment, what it is bound to, the outcomes its reveal fixes,
    and whether it stands clean (``kifu toss check``)."""

    id: str
    version: int
    roller: str | None
    binding: protocol.Binding | None
    settled: bool
    """The reveal opens the commitment with the binding nonce(s): the outcomes are fixed."""
    clean: bool
    """No error or warning about the round."""
    outcomes: tuple[tuple[int, int], ...]
    """(sides, face) the reveal fixes: the v2 roll's, else the outcomes posted (recorded) with it."""
    seqs: tuple[int, ...]
    """The round's events."""


class _Judge(msgspec.Struct):
    """The findings of one match, collected round by round."""

    players: Sequence[str]
    parties: Parties
    voided: Mapping[int, int]
    match: str | None
    out: list[Problem] = field(default_factory=list)
    bad: set[int] = field(default_factory=set)
    """The rounds (by ``id()``) with an error or warning: none of their outcomes is verifiable."""

    def add(self, code: str, r: _Round | None, at: Event, seqs: Iterable[int] = (), **evidence: Any) -> None:
        if r is not None:
            evidence = {"id": r.id, **evidence}
            seqs = tuple(seqs) or r.seqs()
            if code != "KIFU-RNG-003":
                self.bad.add(id(r))
        self.out.append(Problem(code, Flag(at.seq, evidence, tuple(seqs))))

    def void_of(self, r: _Round) -> int | None:
        """The first void that took back part of the round's protocol (commit, nonces, reveal), if any."""
        found = [self.voided[e.seq] for e in (r.commit, *r.nonces, r.reveal) if e is not None and e.seq in self.voided]
        return min(found) if found else None


def _judge(r: _Round, j: _Judge, in_set: bool) -> None:
    """The findings of one round's protocol (not its outcomes)."""
    roller = r.roller
    if r.collides is not None or r.collisions:
        for c in r.collisions or ([r.commit] if r.commit is not None else []):
            first = r.commit if r.collisions else r.collides.commit
            j.add("KIFU-RNG-014", r, c, first=first.seq if first else r.first.seq)
        if r.collides is not None:
            j.bad.add(id(r.collides))
        return  # the roller held two secrets under one id: nothing else of it can be judged
    if r.before is not None:
        if r.commit is None and r.reveal is None and r.nonces:
            before = r.before.reveal.seq if r.before.reveal else r.before.first.seq
            j.add("KIFU-RNG-002", r, r.nonces[0], detail=Text.of("rng.nonce_after_reveal", id=r.id, reveal=before))
        else:
            j.add("KIFU-RNG-001", r, r.first, first=r.before.first.seq)
    elif r.nonces and r.commit is None:
        j.add("KIFU-RNG-002", r, r.nonces[0], detail=Text.of("rng.nonce_without_commit", id=r.id))
    elif r.nonces and r.commit is not None and r.nonces[0].seq < r.commit.seq:
        j.add("KIFU-RNG-002", r, r.nonces[0], detail=Text.of("rng.nonce_before_commit", id=r.id, commit=r.commit.seq))
    used = _reveal_uses_ignored(r)
    for n in r.ignored:
        if n is not used:
            j.add("KIFU-RNG-003", r, n, (n.seq,), who=_who(n), roller=(roller or "?").lstrip("@"))
    if r.commit is not None and r.before is None:
        _bound(r, r.commit, j)
    if r.reveal is None:
        if r.commit is not None and r.before is None and not r.reused and not in_set:
            void = j.void_of(r)
            if r.nonces:
                detail = (
                    Text.of("rng.abandoned_voided", id=r.id, nonce=r.nonces[0].seq, void=void)
                    if void is not None
                    else Text.of("rng.abandoned", id=r.id, nonce=r.nonces[0].seq)
                )
                j.add("KIFU-RNG-008", r, r.commit, detail=detail)
            elif r.commit.seq not in j.voided:  # a commitment voided before anyone answered it was withdrawn
                j.add("KIFU-RNG-008", r, r.commit, detail=Text.of("rng.never_answered", id=r.id))
        return
    _judge_reveal(r, j, used)


def _bound(r: _Round, c: RngCommitted, j: _Judge) -> None:
    """KIFU-RNG-015: a v2 commitment names the match it is bound to; it must be this one."""
    if c.version != 2 or j.match is None:
        return
    here = protocol.match_field(j.match)
    if c.match != here:
        j.add("KIFU-RNG-015", r, c, bound=c.match or "-", match=j.match)


def _reveal_uses_ignored(r: _Round) -> RngNonced | None:
    """The non-opponent's nonce the reveal repeats instead of the binding one, if that is what it does."""
    if r.reveal is None:
        return None
    used = set(r.reveal.nonce.split("."))
    if r.answer is not None and r.reveal.nonce == r.answer:
        return None
    return next((n for n in r.ignored if n.nonce in used and n.seq < r.reveal.seq), None)


def _judge_reveal(r: _Round, j: _Judge, intruder: RngNonced | None) -> None:
    assert r.reveal is not None
    digest = r.digest
    detail: Any
    if r.foreign:
        commit = r.commit.seq if r.commit else r.first.seq
        j.add("KIFU-RNG-006", r, r.reveal, detail=Text.of("rng.reveal_other", id=r.reveal.id, open=r.id, commit=commit))
    elif digest is None:
        if not r.nonces:  # a nonce without its commitment already says what is missing
            j.add("KIFU-RNG-006", r, r.reveal, detail=Text.of("rng.reveal_unknown", id=r.id))
    elif r.reveal.version != r.version:
        j.add("KIFU-RNG-006", r, r.reveal, detail=Text.of("rng.reveal_version", id=r.id, used=r.reveal.version))
    elif _digest(r.reveal.secret, r.binding) != digest:
        commit = (r.commit or r.first).seq
        j.add("KIFU-RNG-006", r, r.reveal, detail=Text.of("rng.reveal_mismatch", id=r.id, commit=commit))
    elif intruder is not None:
        detail = Msg("rng.reveal_intruder", id=r.id, nonce=intruder.nonce, who=_who(intruder), seq=intruder.seq)
        j.add("KIFU-RNG-007", r, r.reveal, detail=detail)
    elif r.answer is None:
        late = (
            Text.of("rng.reveal_before_nonce", id=r.id, nonce=r.late.seq)
            if r.late is not None
            else Text.of("rng.reveal_without_nonce", id=r.id)
        )
        j.add("KIFU-RNG-007", r, r.reveal, detail=late)
    elif r.reveal.nonce != r.answer:
        detail = Text.of("rng.reveal_other_nonce", id=r.id, used=r.reveal.nonce, sent=r.answer)
        j.add("KIFU-RNG-007", r, r.reveal, detail=detail)
    elif r.version == 2 and r.before is None:
        named = j.parties.named.get(r.id)
        missing = [p for p in named or () if p not in {n.by for n in r.nonces}]
        if missing:
            detail = Text.of("rng.reveal_before_all", id=r.id, missing=", ".join(missing))
            j.add("KIFU-RNG-007", r, r.reveal, detail=detail)


def _digest(secret: str, binding: protocol.Binding | None) -> str:
    return protocol.commitment_digest(bytes.fromhex(secret), binding)


def _settled(r: _Round) -> bool:
    """True when the round's reveal opens its commitment with its nonce(s): its outcomes are then fixed."""
    return (
        r.reveal is not None
        and not r.foreign
        and r.collides is None
        and not r.collisions
        and r.digest is not None
        and r.answer is not None
        and r.reveal.version == r.version
        and _digest(r.reveal.secret, r.binding) == r.digest
        and r.reveal.nonce == r.answer
    )


def _stream(r: _Round) -> Any:
    assert r.reveal is not None
    secret = bytes.fromhex(r.reveal.secret)
    if r.version == 2:
        return protocol.stream2(secret, r.id, r.reveal.nonce)
    return protocol.stream(secret, r.reveal.nonce)


def _fixed(r: _Round) -> tuple[tuple[int, int], ...]:
    """What a settled round's reveal fixes: the v2 roll's outcomes, else the outcomes its events recorded."""
    derive = _stream(r)
    binding = r.binding
    if binding is not None:
        return tuple(binding.dice.draw(derive))
    out: dict[int, tuple[int, int]] = {}
    for e in r.uses:
        index = e.rng.index
        for k, (sides, _) in enumerate(e.outcomes()):
            if 2 <= sides <= protocol.MAX_SIDES and index + k not in out:
                out[index + k] = (sides, derive(index + k, sides))
    return tuple(out[i] for i in sorted(out))


def _outcomes(r: _Round, j: _Judge) -> tuple[set[int], int]:
    """The findings of a settled round's recorded outcomes; the seqs recorded right and their outcome count.

    A use a void took back is not judged: the void took back a recording (a typo), never the outcome,
    which the reveal fixed (``_taken_back`` says whether the table then lost it)."""
    derive = _stream(r)
    binding = r.binding
    drawn = binding.dice.draw(derive) if binding is not None else None
    good: set[int] = set()
    count = 0
    expected = 0
    for e in r.uses:
        if e.seq in j.voided:
            continue
        index = e.rng.index
        recorded = e.outcomes()
        seqs = tuple(s.seq for s in (r.commit, r.reveal) if s is not None)
        base = {"type": event_type(type(e)), "seq": e.seq, "id": r.id}
        fine = True
        if index != expected:
            detail = Text.of("rng.index_order", expected=expected)
            j.out.append(Problem("KIFU-RNG-010", Flag(e.seq, {**base, "index": index, "detail": detail}, seqs)))
            fine = False
        elif drawn is not None and index + len(recorded) > len(drawn):
            detail = Text.of("rng.index_beyond", roll=binding.roll, count=len(drawn))
            j.out.append(Problem("KIFU-RNG-010", Flag(e.seq, {**base, "index": index, "detail": detail}, seqs)))
            fine = False
        for k, (sides, face) in enumerate(recorded):
            if not fine:
                break
            at = index + k
            if drawn is not None and drawn[at][0] != sides:
                detail = Text.of("rng.sides_differ", index=at, sides=sides, rolled=drawn[at][0], roll=binding.roll)
                j.out.append(Problem("KIFU-RNG-009", Flag(e.seq, {**base, "index": at, "detail": detail}, seqs)))
                fine = False
                break
            derived = derive(at, sides) if 2 <= sides <= protocol.MAX_SIDES else None
            if face != derived:
                detail = Text.of("rng.face_differs", index=at, sides=sides, face=face, derived=derived or "-")
                j.out.append(Problem("KIFU-RNG-009", Flag(e.seq, {**base, "index": at, "detail": detail}, seqs)))
                fine = False
        if binding is not None and isinstance(e, RandomRolled) and e.purpose is not None:
            if protocol.fold_purpose(e.purpose) != binding.purpose:
                j.out.append(
                    Problem(
                        "KIFU-RNG-016",
                        Flag(e.seq, {**base, "purpose": e.purpose, "bound": binding.purpose}, seqs),
                    )
                )
                fine = False
        expected = max(expected, index + len(recorded))
        if fine:
            good.add(e.seq)
            count += len(recorded)
    return good, count


def _taken_back(r: _Round, voided: Mapping[int, int]) -> int | None:
    """The first void that took back part of an answered round, the toss as the table used it: its commit,
    nonce or reveal, or an outcome a use recorded that no later standing use records again. None if none."""
    found = [voided[e.seq] for e in (r.commit, *r.nonces, r.reveal) if e is not None and e.seq in voided]
    standing = {e.rng.index + k for e in r.uses if e.seq not in voided for k in range(len(e.outcomes()))}
    for e in r.uses:
        if e.seq in voided:
            lost = {e.rng.index + k for k in range(len(e.outcomes()))} - standing
            if lost:
                found.append(voided[e.seq])
    return min(found) if found else None


def _open_together(rounds: list[_Round], j: _Judge) -> set[int]:
    """KIFU-RNG-005: commitments of one roller answered while another of theirs was answered and not yet revealed.

    Such commitments form a set (two answered together, and any answered while one of them still
    waited): the roller knew every outcome of the set before choosing what to reveal. One finding per
    set, at the nonce that first answered a second commitment of it, naming every commitment of the set
    and every one withheld. Returns the rounds of every set (by ``id()``)."""
    proper = [
        r
        for r in rounds
        if r.before is None
        and r.collides is None
        and not r.collisions
        and r.commit is not None
        and r.nonces
        and r.commit.seq < r.nonces[0].seq
        and (r.reveal is None or r.nonces[0].seq < r.reveal.seq)
        and r.roller is not None
    ]
    steps = sorted(
        [(r.nonces[0].seq, 1, r) for r in proper] + [(r.reveal.seq, 0, r) for r in proper if r.reveal is not None],
        key=lambda step: (step[0], step[1]),
    )
    parent: dict[int, int] = {}
    by_key = {id(r): r for r in proper}
    first: dict[int, RngNonced] = {}
    """The root of a set -> the nonce that first answered a second commitment of it."""

    def root(key: int) -> int:
        while key in parent:
            key = parent[key]
        return key

    waiting: dict[str | None, list[_Round]] = {}
    for _, answered, b in steps:
        mine = waiting.setdefault(b.roller, [])
        if not answered:
            mine.remove(b)
            continue
        for other in mine:
            a, c = root(id(other)), root(id(b))
            if a != c:
                at = [n for n in (first.get(a), first.get(c), b.nonces[0]) if n is not None]
                parent[c] = a
                first[a] = min(at, key=lambda n: n.seq)
                first.pop(c, None)
        mine.append(b)
    sets: dict[int, list[_Round]] = {}
    for key in by_key:
        top = root(key)
        if top in first:
            sets.setdefault(top, []).append(by_key[key])
    hit: set[int] = set()
    for top, members in sets.items():
        members.sort(key=lambda r: r.nonces[0].seq)
        withheld = [_withheld(m, j) for m in members if m.reveal is None]
        seqs = sorted({s for m in members for s in m.seqs()})
        j.add(
            "KIFU-RNG-005",
            None,
            first[top],
            seqs,
            id=members[1].id,
            ids=", ".join(m.id for m in members),
            withheld=Text.of("rng.withheld", ids=", ".join(withheld)) if withheld else Text.of("rng.none_withheld"),
            roller=(members[0].roller or "?").lstrip("@"),
        )
        hit |= {id(m) for m in members}
    j.bad |= hit
    return hit


def _withheld(r: _Round, j: _Judge) -> str:
    """A withheld commitment as a set's finding names it: its id, and the void that tried to take it back."""
    void = j.void_of(r)
    return r.id if void is None else f"{r.id} (seq {void}: log.void)"


def _retossed(rounds: list[_Round], j: _Judge, sets: set[int]) -> None:
    """KIFU-RNG-013: a toss made again. A second answered commitment for a purpose a revealed v2 toss of the
    match already decided; or the roller's first toss answered after a void took back (part of) an answered
    and revealed toss of theirs. At the commit of the toss made again, naming the toss it repeats.

    Linear but for sorting: the rounds of one purpose are read in the order they were answered, and a
    voided toss (rare) looks up the roller's next answered toss by bisection."""
    answered = sorted(
        (r for r in rounds if r.before is None and r.commit is not None and r.nonces and r.collides is None),
        key=lambda r: r.nonces[0].seq,
    )
    found: dict[int, tuple[_Round, _Round, int | None]] = {}
    """The toss made again (by ``id()``) -> (it, the toss it repeats, the void that took that one back)."""

    def revealed(r: _Round) -> bool:
        return r.reveal is not None and r.reveal.seq > r.nonces[0].seq

    def repeat(b: _Round, a: _Round, void: int | None) -> None:
        if id(b) not in found and not (id(a) in sets and id(b) in sets):
            found[id(b)] = (b, a, void)

    by_purpose: dict[str, list[_Round]] = {}
    for r in answered:
        if r.binding is not None:
            by_purpose.setdefault(r.binding.purpose, []).append(r)
    for same in by_purpose.values():
        first = next((r for r in same if revealed(r)), None)
        for b in same:
            if first is not None and b.nonces[0].seq > first.nonces[0].seq:
                repeat(b, first, None)
    if j.voided:
        by_roller: dict[str | None, list[_Round]] = {}
        for r in answered:
            by_roller.setdefault(r.roller, []).append(r)
        for a in answered:
            void = _taken_back(a, j.voided) if revealed(a) else None
            if void is None:
                continue
            mine = by_roller[a.roller]
            at = bisect.bisect_right([r.nonces[0].seq for r in mine], max(void, a.nonces[0].seq))
            if at < len(mine):
                repeat(mine[at], a, void)
    for b, a, void in sorted(found.values(), key=lambda f: f[0].nonces[0].seq):
        assert b.commit is not None and a.commit is not None
        why = (
            Text.of("rng.retoss_void", other=a.id, seq=a.commit.seq, void=void)
            if void is not None
            else Text.of("rng.retoss_purpose", purpose=a.binding.purpose, other=a.id, seq=a.commit.seq)
        )
        seqs = sorted(set(b.seqs()) | set(a.seqs()) | ({void} if void else set()))
        j.add("KIFU-RNG-013", b, b.commit, seqs, roller=(b.roller or "?").lstrip("@"), detail=why)


def _weak_nonces(r: _Round, j: _Judge) -> None:
    """KIFU-RNG-017: a v2 toss answered with a nonce below the minimum strength."""
    if r.version != 2:
        return
    for n in r.nonces:
        if not protocol.is_strong(n.nonce):
            j.add("KIFU-RNG-017", r, n, nonce=n.nonce, length=len(n.nonce), who=_who(n))


def analyse(
    ledger: Sequence[Event],
    players: Sequence[str],
    voided: Mapping[int, int] = NOTHING_VOIDED,
    match: str | None = None,
    *,
    shown: bool = False,
) -> Analysis:
    """Judge a match's verifiable-randomness events (``LogState.rng``) once: every finding, and what verifies.

    ``voided`` (seq -> the void that took it back) says what voids tried to take back; ``match`` is the
    match id v2 commitments must be bound to (None: not checked, as ``kifu toss check`` without --match);
    ``shown`` also lists each round with the outcomes its reveal fixes (``Analysis.rounds``, for a reader).
    """
    if not ledger:
        return _EMPTY
    parties = Parties.of(ledger, players)
    j = _Judge(players, parties, voided, match)
    rounds, stray = _rounds(ledger, parties)
    sets = _open_together(rounds, j)
    seen_nonces: dict[str, int] = {}
    verified: set[int] = set()
    count = 0
    listed: list[Round] = []
    for r in rounds:
        _judge(r, j, id(r) in sets)
        if r.before is None:
            for n in r.nonces:
                first = seen_nonces.setdefault(n.nonce, n.seq)
                if first != n.seq:
                    j.add("KIFU-RNG-004", r, n, nonce=n.nonce, first=first)
        _weak_nonces(r, j)
    _retossed(rounds, j, sets)
    for r in rounds:
        settled = _settled(r)
        if settled:
            good, recorded = _outcomes(r, j)
            if id(r) not in j.bad:
                verified |= good
                count += recorded
        if shown:
            fixed = _fixed(r) if settled else ()
            listed.append(Round(r.id, r.version, r.roller, r.binding, settled, id(r) not in j.bad, fixed, r.seqs()))
    for n in stray:
        j.add("KIFU-RNG-003", None, n, (n.seq,), id=n.id, who=_who(n), roller="?")
    for e in _unknown_uses(ledger):
        j.out.append(
            Problem("KIFU-RNG-011", Flag(e.seq, {"type": event_type(type(e)), "seq": e.seq, "id": e.rng.commit}))
        )
    return Analysis(tuple(j.out), frozenset(verified), count, tuple(listed))


_EMPTY = Analysis((), frozenset(), 0)
_LAST: list[Any] = [None, _EMPTY]
"""The last ledger analysed and its analysis: every KIFU-RNG end rule of one audit asks for the same one."""


def _analysis(end: End) -> Analysis:
    ledger = end.final.log.rng
    key = (ledger, end.final.log.voided, end.start.match)
    if _LAST[0] is None or any(a is not b for a, b in zip(_LAST[0], key)):
        _LAST[:] = [key, analyse(ledger, end.final.log.players, end.final.log.voided, end.start.match)]
    return _LAST[1]


# --- the rules ---------------------------------------------------------------------------------


def _rule(code: str, name: str, severity: Severity = Severity.ERROR) -> Rule:
    def finish(end: End) -> Iterable[Flag]:
        return [p.hit for p in _analysis(end).problems if p.code == code]

    return end_rule(code=code, name=name, severity=severity)(finish)


RULES: tuple[Rule, ...] = (
    _rule("KIFU-RNG-001", "commitment-used-once"),
    _rule("KIFU-RNG-002", "nonce-between-commit-and-reveal"),
    _rule("KIFU-RNG-003", "nonce-from-the-opponent", Severity.INFO),
    _rule("KIFU-RNG-004", "nonce-is-new", Severity.WARNING),
    _rule("KIFU-RNG-005", "one-open-commitment"),
    _rule("KIFU-RNG-006", "reveal-opens-the-commitment"),
    _rule("KIFU-RNG-007", "reveal-uses-the-nonce"),
    _rule("KIFU-RNG-008", "commitment-is-revealed"),
    _rule("KIFU-RNG-009", "outcome-is-derived"),
    _rule("KIFU-RNG-010", "outcomes-in-order"),
    _rule("KIFU-RNG-011", "names-a-posted-commitment"),
    _rule("KIFU-RNG-013", "one-toss-per-decision"),
    _rule("KIFU-RNG-014", "one-commitment-per-id"),
    _rule("KIFU-RNG-015", "commitment-bound-to-this-match"),
    _rule("KIFU-RNG-016", "outcome-decides-its-purpose"),
    _rule("KIFU-RNG-017", "nonce-is-strong", Severity.WARNING),
)
"""The protocol's rules, judged once at the end of the match (``analyse``)."""


def claim_rule(events: Iterable[type[Event]]) -> Rule:
    """KIFU-RNG-012 for a game's event types: in a match that claims verifiable randomness, every random
    outcome names its commitment."""
    random = tuple(cls for cls in events if cls.random)

    def check(s: Step) -> tuple[Flag, ...] | None:
        e = s.event
        if s.options.get(VERIFIED_RANDOM.name) and getattr(e, "rng", None) is None and e.outcomes():
            return (Flag(e.seq, {"type": event_type(type(e)), "seq": e.seq}),)
        return None

    return Rule(
        check=check,
        code="KIFU-RNG-012",
        name="verified-random-names-a-commitment",
        severity=Severity.ERROR,
        on=random,
        options=(VERIFIED_RANDOM.name,),
    )
