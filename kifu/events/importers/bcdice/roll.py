"""``Roll``: one BCDice result as read, with every die it proves or the reason it proves none."""

from __future__ import annotations

from typing import Any

import msgspec

from .text import Block


class Roll(msgspec.Struct, frozen=True, kw_only=True):
    """One BCDice result: a dice roll, a choice, or a result with no faces to record."""

    echo: str
    """The normalised command BCDice echoed (``1D2``, ``choice[表,裏]``), or the head when there is no echo."""
    text: str
    """The result text exactly as the source printed it, from the result's start."""
    steps: tuple[str, ...]
    """The steps after each ``＞``, stripped."""
    kind: str
    """``die``, ``choice``, or ``other`` (no faces: a calculation, an error, or unreadable)."""
    dice: tuple[tuple[int, int], ...] = ()
    """(sides, face) of every die BCDice rolled for this result, in rolling order."""
    ordered: bool = True
    """False when the result shows the faces sorted, so the order they were rolled in is unknown."""
    picks: tuple[tuple[int, int], ...] = ()
    """Choice: (options left, 1-based index) of each pick, as BCDice drew them."""
    options: tuple[str, ...] = ()
    """The options of a choice, in order."""
    pick: str | None = None
    """The (first) picked option of a choice."""
    total: int | None = None
    """The last numeric step, if any."""
    outcome: str | None = None
    """The last step when it is a word (``成功``, ``ファンブル``)."""
    repeat: int | None = None
    """The ``#n`` of a repeat block."""
    prefix: str = ""
    """A word glued to the echo (a table name, ``c``)."""
    problem: str | None = None
    """Why the faces of this result could not be read; None when nothing is missing."""
    certain: bool = False
    """The text is BCDice's own form (so a problem is reported even in a player's message)."""

    @property
    def sides(self) -> int:
        """Faces of each die (0 when they differ or nothing is known); options of a choice."""
        if self.kind == "choice":
            return len(self.options)
        sizes = {s for s, _ in self.dice}
        return sizes.pop() if len(sizes) == 1 else 0

    @property
    def values(self) -> tuple[int, ...]:
        """Each die's face, or the 1-based index of each pick."""
        return tuple(v for _, v in (self.picks if self.kind == "choice" else self.dice))

    @property
    def groups(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """(sides, faces) of each run of dice of one size, in rolling order."""
        out: list[tuple[int, list[int]]] = []
        for sides, face in self.dice:
            if out and out[-1][0] == sides:
                out[-1][1].append(face)
            else:
                out.append((sides, [face]))
        return tuple((s, tuple(f)) for s, f in out)


def _int(text: str) -> int | None:
    t = text.strip()
    body = t[1:] if t[:1] == "-" else t
    # 18 digits at most: int() refuses thousands of digits, and no total is that long
    return int(t) if body.isdigit() and body.isascii() and len(body) <= 18 else None


def make(block: Block, kind: str, **fields: Any) -> Roll:
    """A Roll of ``block`` with its total and outcome taken from the steps."""
    steps = block.steps
    total = next((v for v in (_int(s) for s in reversed(steps)) if v is not None), None)
    last = steps[-1] if steps else ""
    outcome = last if last and _int(last) is None else None
    echo = block.echo if block.echo is not None else block.head
    return Roll(echo=echo, text=block.text, steps=steps, kind=kind, total=total, outcome=outcome,
                repeat=block.repeat, prefix=block.name, **fields)
