"""A table that plays verifiable tosses into a generic match log, for the attack and property tests.

Each toss has a label; its secret is fixed by the label (SHA-256 of it), so a test
can replay, collide or reveal any toss. Events are built as a recorder or an
importer writes them (``by`` a player id, a role, or an imported ``speaker``),
decoded by the generic game's codec and audited by the registry.
"""

from __future__ import annotations

import hashlib
from typing import Any

from kifu.auditor import registry
from kifu.auditor import tally as audit_tally
from kifu.events import rng, table

CODEC = table.codec("generic")

COLLISION = ("kifu fixture collision 468651", "kifu fixture collision 797707")
"""Two labels whose v1 commitments share the id ``akdres9b`` (a 40-bit collision, found by trying 800,000 secrets)."""


def secret(label: str) -> bytes:
    """The fixed secret of a toss: SHA-256 of its label (the collision labels hash as they are)."""
    return hashlib.sha256(label.encode()).digest()


class Table:
    """One match being recorded: ``events`` as dicts, seq = position + 1."""

    def __init__(self, players: tuple[str, ...] = ("aoi", "ren"), match: str = "m1", **rules: Any) -> None:
        self.players = players
        self.match = match
        self.events: list[dict[str, Any]] = [
            {
                "type": "match.start",
                "format": "kifu/1",
                "game": "generic",
                "match": match,
                "players": [{"id": p, "name": p.title()} for p in players],
                "rules": rules,
            }
        ]
        self.commitments: dict[str, rng.Commitment] = {}
        self.answers: dict[str, list[str]] = {}

    def add(self, e: dict[str, Any]) -> int:
        self.events.append(e)
        return len(self.events)

    @staticmethod
    def _by(by: str | None, speaker: str | None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if by is not None:
            out["by"] = by
        if speaker is not None:
            out["speaker"] = speaker
        return out

    def commitment(
        self, label: str, *, v: int = 2, purpose: str = "first-player", roll: str = "coin", match: str | None = None
    ) -> rng.Commitment:
        if label not in self.commitments:
            binding = (
                rng.Binding(match=rng.match_field(match or self.match), purpose=purpose, roll=roll) if v == 2 else None
            )
            self.commitments[label] = rng.commit(secret(label), binding)
        return self.commitments[label]

    def id(self, label: str) -> str:
        return self.commitments[label].id

    def commit(
        self,
        label: str,
        by: str | None = "aoi",
        *,
        v: int = 2,
        purpose: str = "first-player",
        roll: str = "coin",
        match: str | None = None,
        opponents: list[str] | None = None,
        speaker: str | None = None,
    ) -> int:
        c = self.commitment(label, v=v, purpose=purpose, roll=roll, match=match)
        e: dict[str, Any] = {"type": "rng.commit", **self._by(by, speaker), "id": c.id, "digest": c.digest}
        if c.binding is not None:
            e |= {"version": 2, "match": c.binding.match, "purpose": c.binding.purpose, "roll": c.binding.roll}
        if opponents is not None:
            e["opponents"] = opponents
        return self.add(e)

    def nonce(self, label: str, text: str, by: str | None = "ren", *, speaker: str | None = None) -> int:
        self.answers.setdefault(label, []).append(text)
        return self.add({"type": "rng.nonce", **self._by(by, speaker), "id": self.id(label), "nonce": text})

    def nonce_text(self, label: str, texts: list[str] | None = None) -> str:
        c = self.commitments[label]
        texts = texts if texts is not None else self.answers.get(label, [])
        return rng.join_nonces(texts) if c.version == 2 else texts[0]

    def reveal(self, label: str, texts: list[str] | None = None, by: str | None = "aoi", **kw: Any) -> int:
        c = self.commitments[label]
        e = {
            "type": "rng.reveal",
            **self._by(by, kw.get("speaker")),
            "id": c.id,
            "secret": secret(label).hex(),
            "nonce": self.nonce_text(label, texts),
        }
        if c.version == 2:
            e["version"] = 2
        return self.add(e)

    def stream(self, label: str, texts: list[str] | None = None) -> Any:
        c = self.commitments[label]
        r = rng.Reveal(id=c.id, secret=secret(label).hex(), nonce=self.nonce_text(label, texts), version=c.version)
        return r.outcome

    def faces(self, label: str, sides: list[int], start: int = 0, texts: list[str] | None = None) -> list[int]:
        at = self.stream(label, texts)
        return [at(start + i, s) for i, s in enumerate(sides)]

    def use(
        self,
        label: str,
        index: int = 0,
        sides: list[int] | None = None,
        *,
        faces: list[int] | None = None,
        by: str = "aoi",
        purpose: str | None = None,
        texts: list[str] | None = None,
    ) -> int:
        """A ``random`` event recording outcomes ``index`` … of the toss (the derived faces unless ``faces``)."""
        c = self.commitments[label]
        if sides is None:
            sides = c.binding.dice.sides() if c.binding else [2]
        values = faces if faces is not None else self.faces(label, sides, index, texts)
        e: dict[str, Any] = {
            "type": "random",
            "by": by,
            "kind": "coin" if sides[0] == 2 else "die",
            "sides": sides[0],
            "values": values,
            "rng": {"commit": c.id, "index": index} if index else {"commit": c.id},
        }
        if purpose is not None:
            e["purpose"] = purpose
        return self.add(e)

    def toss(
        self,
        label: str,
        roller: str = "aoi",
        opponent: str = "ren",
        text: str = "",
        *,
        v: int = 2,
        purpose: str = "first-player",
        roll: str = "coin",
    ) -> dict[str, int]:
        """An honest toss: commit, nonce, reveal and one ``random`` event of every outcome the roll draws."""
        if not text:
            text = hashlib.sha256(f"nonce of {label}".encode()).hexdigest()[:20]
            while not rng.is_strong(text):  # 20 hex digits with fewer than 8 different: rare, but not never
                text = hashlib.sha256(text.encode()).hexdigest()[:20]
        seqs = {"commit": self.commit(label, roller, v=v, purpose=purpose, roll=roll)}
        seqs["nonce"] = self.nonce(label, text, opponent)
        seqs["reveal"] = self.reveal(label, by=roller)
        c = self.commitments[label]
        sides = c.binding.dice.sides() if c.binding and c.binding.dice.until is None else [2]
        if c.binding and c.binding.dice.until is not None:
            drawn = c.binding.dice.draw(self.stream(label))
            sides = [s for s, _ in drawn]
        seqs["use"] = self.use(label, 0, sides, by=roller)
        return seqs

    def void(self, *seqs: int, by: str = "recorder", reason: str = "undo") -> int:
        return self.add({"type": "log.void", "by": by, "about": list(seqs), "reason": reason})

    def note(self, text: str, by: str | None = None, *, speaker: str | None = None) -> int:
        return self.add({"type": "note", **self._by(by, speaker), "text": text})

    def write(self, path: Any) -> Any:
        """The match as a real log (hash-chained) at ``path``."""
        from kifu.events import logfile

        logfile.create(path, {k: v for k, v in self.events[0].items() if k != "format"})
        with logfile.Writer(path, durable=False) as w:
            for e in self.events[1:]:
                w.append(e)
        return path

    def decoded(self) -> list[Any]:
        return [
            CODEC.convert({**e, "seq": i, "prev": None if i == 1 else "0" * 64}) for i, e in enumerate(self.events, 1)
        ]

    def audit(self) -> list[Any]:
        return registry.audit(self.decoded(), strict=True)

    def found(self) -> list[tuple[str, int]]:
        """Every error and warning as (code, seq), in the audit's order."""
        return [(f.code, f.seq) for f in self.audit() if f.severity != "info"]

    def info(self) -> list[tuple[str, int]]:
        return [(f.code, f.seq) for f in self.audit() if f.severity == "info"]

    def randomness(self) -> audit_tally.Randomness:
        return audit_tally.randomness(self.decoded())
