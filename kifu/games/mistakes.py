"""One mistake a simulator makes on purpose, for the "one mistake, one finding" property tests.

Each game's simulator (``kifu/games/<id>/sim.py``) plays a legal match. Given a ``Mistake`` it
makes one wrong move of the mistake's kind at the ``nth`` chance it has to make it, records
where (``seq``) and which rule the move breaks (``code``), and then goes on playing legally
from the state the wrong move left, as a table that did not notice would: later counts,
damage and payoffs follow from what was recorded, not from what should have been. An audit
of such a match must give exactly one error finding, ``(code, seq)``
(tests/test_one_finding.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass
class Mistake:
    """A mistake to make once: its kind, at the ``nth`` chance (0 is the first)."""

    kind: str
    nth: int = 0
    chances: int = 0
    """Chances to make it seen so far."""
    seq: int | None = None
    """Seq of the wrong event, once made."""
    code: str | None = None
    """The rule it breaks."""

    def now(self, kind: str) -> bool:
        """True exactly once: at the ``nth`` chance to make a mistake of ``kind``."""
        if kind != self.kind or self.seq is not None:
            return False
        self.chances += 1
        return self.chances - 1 == self.nth

    def made(self, seq: int, code: str) -> None:
        """The wrong event was written at ``seq``; it breaks rule ``code``."""
        self.seq, self.code = seq, code


class MakesMistakes:
    """What a simulator that writes its events without ``match.start`` shares: the seq of the last
    event written, and marking the mistake made. ``MISTAKES`` maps each kind of mistake to the rule it breaks."""

    MISTAKES: ClassVar[dict[str, str]]
    events: list[dict[str, Any]]
    mistake: Mistake | None

    @property
    def seq(self) -> int:
        """The seq of the last event written (``match.start`` is seq 1)."""
        return len(self.events) + 1

    def mistook(self, kind: str, seq: int | None = None) -> None:
        """The mistake of ``kind`` was made at ``seq`` (the last event by default)."""
        assert self.mistake is not None
        self.mistake.made(self.seq if seq is None else seq, self.MISTAKES[kind])


def now(mistake: Mistake | None, kind: str) -> bool:
    """``mistake.now(kind)``, False without a mistake: how a simulator asks whether to go wrong here."""
    return mistake is not None and mistake.now(kind)
