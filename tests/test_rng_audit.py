"""The KIFU-RNG audit: honest matches are clean and fully verifiable; one mistake is one finding at its event.

Matches are generated: a few tosses, each by either player, each recording one
or more outcomes of one commitment. One mistake of each kind the threat model
names (docs/randomness.md) is then made in one toss, and the audit must give
exactly one error or warning, of that mistake's rule, at the event that shows it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.auditor import registry
from kifu.auditor import tally as audit_tally
from kifu.events import rng, table

CODEC = table.codec("generic")
PLAYERS = ("a", "b")


@dataclass
class Toss:
    label: int
    roller: str
    sides: list[int]
    nonce: str

    @property
    def secret(self) -> bytes:
        return hashlib.sha256(f"toss {self.label}".encode()).digest()

    @property
    def id(self) -> str:
        return rng.commit(self.secret).id

    @property
    def opponent(self) -> str:
        return PLAYERS[1 - PLAYERS.index(self.roller)]

    def commit(self) -> dict[str, Any]:
        c = rng.commit(self.secret)
        return {"type": "rng.commit", "by": self.roller, "id": c.id, "digest": c.digest}

    def answer(self) -> dict[str, Any]:
        return {"type": "rng.nonce", "by": self.opponent, "id": self.id, "nonce": self.nonce}

    def reveal(self) -> dict[str, Any]:
        return {
            "type": "rng.reveal",
            "by": self.roller,
            "id": self.id,
            "secret": self.secret.hex(),
            "nonce": self.nonce,
        }

    def uses(self) -> list[dict[str, Any]]:
        faces = rng.outcomes(self.secret, self.nonce, self.sides)
        return [
            {
                "type": "random",
                "by": self.roller,
                "kind": "coin" if s == 2 else "die",
                "sides": s,
                "values": [f],
                "rng": {"commit": self.id, "index": i},
            }
            for i, (s, f) in enumerate(zip(self.sides, faces))
        ]

    def events(self) -> list[dict[str, Any]]:
        return [self.commit(), self.answer(), self.reveal(), *self.uses()]


def _audit(events: list[dict[str, Any]], **rules: Any):
    start = {
        "type": "match.start",
        "format": "kifu/1",
        "game": "generic",
        "match": "m",
        "players": [{"id": p, "name": p.upper()} for p in PLAYERS],
        "rules": rules,
    }
    decoded = [
        CODEC.convert({**e, "seq": i, "prev": None if i == 1 else "0" * 64}) for i, e in enumerate([start, *events], 1)
    ]
    return decoded, registry.audit(decoded, strict=True)


TOSSES = st.lists(
    st.tuples(st.sampled_from(PLAYERS), st.lists(st.sampled_from([2, 2, 6, 20, 100]), min_size=1, max_size=3)),
    min_size=1,
    max_size=4,
).map(lambda ts: [Toss(i, who, sides, f"nonce{i:04d}") for i, (who, sides) in enumerate(ts)])


@settings(max_examples=30, deadline=None)
@given(TOSSES)
def test_honest_tosses_audit_clean_and_every_outcome_verifies(tosses: list[Toss]) -> None:
    events = [e for t in tosses for e in t.events()]
    decoded, findings = _audit(events, verified_random=True)
    assert findings == []
    tally = audit_tally.tally(decoded)
    assert tally.outcomes == tally.verifiable == sum(len(t.sides) for t in tosses)


Mistake = Callable[[list[Toss], int], tuple[list[dict[str, Any]], str, int]]
"""(tosses, which one) -> (events, the rule, the 1-based position among the events of the one finding)."""


def _around(tosses: list[Toss], i: int, middle: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for t in tosses[:i] for e in t.events()] + middle + [e for t in tosses[i + 1 :] for e in t.events()]


def _pos(tosses: list[Toss], i: int, k: int) -> int:
    """Where the k-th event of toss i stands when every earlier toss is whole (seq = pos + 1)."""
    return sum(len(t.events()) for t in tosses[:i]) + k + 1


def changed_outcome(tosses, i):
    t = tosses[i]
    uses = t.uses()
    uses[-1]["values"] = [uses[-1]["values"][0] % uses[-1]["sides"] + 1]
    return (
        _around(tosses, i, [t.commit(), t.answer(), t.reveal(), *uses]),
        "KIFU-RNG-009",
        _pos(tosses, i, 3 + len(uses) - 1),
    )


def reveal_mismatch(tosses, i):
    t = tosses[i]
    wrong = {**t.reveal(), "secret": hashlib.sha256(b"another").hexdigest()}
    return _around(tosses, i, [t.commit(), t.answer(), wrong, *t.uses()]), "KIFU-RNG-006", _pos(tosses, i, 2)


def reveal_other_nonce(tosses, i):
    t = tosses[i]
    other = Toss(t.label, t.roller, t.sides, "othernonce")
    return (
        _around(tosses, i, [t.commit(), t.answer(), other.reveal(), *other.uses()]),
        "KIFU-RNG-007",
        _pos(tosses, i, 2),
    )


def nonce_before_commit(tosses, i):
    t = tosses[i]
    return _around(tosses, i, [t.answer(), t.commit(), t.reveal(), *t.uses()]), "KIFU-RNG-002", _pos(tosses, i, 0)


def nonce_by_roller(tosses, i):
    """The roller answers their own commitment and reveals with it: the nonce does not bind (KIFU-RNG-003, info),
    so the reveal used no opponent's nonce (one error, at the reveal)."""
    t = tosses[i]
    return (
        _around(tosses, i, [t.commit(), {**t.answer(), "by": t.roller}, t.reveal(), *t.uses()]),
        "KIFU-RNG-007",
        _pos(tosses, i, 2),
    )


def nonce_by_judge(tosses, i):
    t = tosses[i]
    return (
        _around(tosses, i, [t.commit(), {**t.answer(), "by": "judge"}, t.reveal(), *t.uses()]),
        "KIFU-RNG-007",
        _pos(tosses, i, 2),
    )


def abandoned(tosses, i):
    t = tosses[i]
    return _around(tosses, i, [t.commit(), t.answer()]), "KIFU-RNG-008", _pos(tosses, i, 0)


def reused(tosses, i):
    """Toss i posts the commitment of the toss before it again and uses its secret with a new nonce."""
    if i == 0:
        return changed_outcome(tosses, i)
    t, earlier = tosses[i], tosses[i - 1]
    again = Toss(earlier.label, earlier.roller, t.sides, t.nonce)
    return _around(tosses, i, again.events()), "KIFU-RNG-001", _pos(tosses, i, 0)


def skipped_index(tosses, i):
    t = tosses[i]
    t.uses()
    shifted = Toss(t.label, t.roller, [2] + t.sides, t.nonce).uses()[1:]  # outcomes 1 … as if 0 were skipped
    return (_around(tosses, i, [t.commit(), t.answer(), t.reveal(), *shifted]), "KIFU-RNG-010", _pos(tosses, i, 3))


def nonce_again(tosses, i):
    if i == 0:
        return nonce_by_roller(tosses, i)
    t = tosses[i]
    same = Toss(t.label, t.roller, t.sides, tosses[0].nonce)
    return _around(tosses, i, same.events()), "KIFU-RNG-004", _pos(tosses, i, 1)


MISTAKES: list[Mistake] = [
    changed_outcome,
    reveal_mismatch,
    reveal_other_nonce,
    nonce_before_commit,
    nonce_by_roller,
    nonce_by_judge,
    abandoned,
    reused,
    skipped_index,
    nonce_again,
]


@settings(max_examples=60, deadline=None)
@given(TOSSES, st.data())
def test_one_mistake_is_one_finding_at_its_event(tosses: list[Toss], data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(tosses) - 1), label="toss")
    mistake = data.draw(st.sampled_from(MISTAKES), label="mistake")
    events, code, pos = mistake(tosses, i)
    _, findings = _audit(events)
    got = [(f.code, f.seq) for f in findings if f.severity != "info"]
    assert got == [(code, pos + 1)], [(f.code, f.seq, f.message.en) for f in findings]


def test_a_mistaken_toss_leaves_the_others_verifiable() -> None:
    tosses = [Toss(0, "a", [2], "nonce0000"), Toss(1, "b", [6, 6], "nonce0001"), Toss(2, "a", [2], "nonce0002")]
    events, _, _ = changed_outcome(tosses, 1)
    decoded, _ = _audit(events)
    tally = audit_tally.tally(decoded)
    assert (tally.outcomes, tally.verifiable) == (4, 3)


def test_outcomes_taken_on_trust_count_but_do_not_verify() -> None:
    toss = Toss(0, "a", [2], "nonce0000")
    trusted = {"type": "random", "by": "b", "kind": "die", "sides": 6, "values": [3, 4], "expr": "2D6"}
    decoded, findings = _audit([*toss.events(), trusted])
    assert findings == []
    tally = audit_tally.tally(decoded)
    assert (tally.outcomes, tally.verifiable) == (3, 1)
    _, claimed = _audit([*toss.events(), trusted], verified_random=True)
    assert [(f.code, f.seq) for f in claimed] == [("KIFU-RNG-012", 6)]


def test_every_finding_about_a_round_names_its_events() -> None:
    """A judge reading the finding sees every event of the toss it is about."""
    tosses = [Toss(0, "a", [2, 2], "nonce0000"), Toss(1, "b", [6], "nonce0001")]
    events, _, _ = reveal_mismatch(tosses, 0)
    _, findings = _audit(events)
    (finding,) = findings
    assert finding.seqs == [2, 3, 4, 5, 6]


def test_the_projection_keeps_only_the_ledger() -> None:
    from kifu.projector.base import frames

    toss = Toss(0, "a", [2], "nonce0000")
    note = {"type": "note", "by": "a", "text": "hi"}
    decoded, _ = _audit([note, *toss.events(), note])
    g = registry.game("generic")
    *_, last = frames(g.projection, decoded, {})
    assert [e.seq for e in last.log.rng] == [3, 4, 5, 6]


def test_a_commit_posted_again_before_any_answer_is_a_repost_not_a_second_use() -> None:
    toss = Toss(0, "a", [2], "nonce0000")
    events = [toss.commit(), *toss.events()]
    _, findings = _audit(events)
    assert findings == []


def test_an_answered_commitment_used_again_is_one_finding() -> None:
    """Committed, answered, then committed again for a new nonce without a reveal: a reuse, not also abandoned."""
    first = Toss(0, "a", [2], "nonce0000")
    again = Toss(0, "a", [2], "nonce0001")
    _, findings = _audit([first.commit(), first.answer(), *again.events()])
    assert [(f.code, f.seq) for f in findings] == [("KIFU-RNG-001", 4)]
