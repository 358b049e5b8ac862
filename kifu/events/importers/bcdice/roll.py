"""``Roll``: one BCDice result as read, with every die it proves (or the sum it shows) or the reason it proves none."""

from __future__ import annotations

from typing import Any

import msgspec

from ...i18n import Msg

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
    """``die`` (faces, sums, or both), ``choice``, or ``other`` (nothing to record: a calculation, an
    error, or unreadable)."""
    dice: tuple[tuple[int, int], ...] = ()
    """(sides, face) of every die BCDice rolled for this result whose face it shows, in rolling order."""
    totals: tuple[tuple[int, int, int, int], ...] = ()
    """(at, count, sides, sum) of each group of dice BCDice shows only as their sum (a 2D6 table's
    ``シーン表(8)``), rolled after the first ``at`` dice of ``dice``: what is known, not the faces."""
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
    why: dict[str, Any] | None = None
    """``problem`` by catalogue id (``{"key", "args"}``), so that the report says it in the reader's language."""
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
    def parts(self) -> tuple[tuple[str, int, int, tuple[int, ...]], ...]:
        """(``die`` or ``total``, sides, dice count, values) in rolling order: a run of faces of one
        size (its values the faces), or a sum of several dice (its one value the sum)."""
        out: list[tuple[str, int, int, tuple[int, ...]]] = []
        pos = 0
        for at, count, sides, value in (*self.totals, (len(self.dice), 0, 0, 0)):
            for s, faces in _runs(self.dice[pos:at]):
                out.append(("die", s, len(faces), faces))
            pos = at
            if count:
                out.append(("total", sides, count, (value,)))
        return tuple(out)

    @property
    def groups(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """(sides, faces) of each run of dice of one size, in rolling order."""
        return _runs(self.dice)


def _runs(dice: tuple[tuple[int, int], ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    out: list[tuple[int, list[int]]] = []
    for sides, face in dice:
        if out and out[-1][0] == sides:
            out[-1][1].append(face)
        else:
            out.append((sides, [face]))
    return tuple((s, tuple(f)) for s, f in out)


def summed(count: int, sides: int, value: int) -> tuple[tuple[int, int], ...] | None:
    """The faces of ``count`` d``sides`` that add up to ``value`` when the sum alone proves them
    (every die at its least or its most: 2 or 12 on 2D6); None when several faces could give it."""
    if value == count:
        return ((sides, 1),) * count
    if value == count * sides:
        return ((sides, sides),) * count
    return None


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
    problem = fields.get("problem")
    if isinstance(problem, Msg):  # said by id: kept in English, rendered for the reader from the catalogue
        fields = {**fields, "problem": problem.render("en"), "why": {"key": problem.key, "args": dict(problem.params)}}
    return Roll(
        echo=echo,
        text=block.text,
        steps=steps,
        kind=kind,
        total=total,
        outcome=outcome,
        repeat=block.repeat,
        prefix=block.name,
        **fields,
    )


class Dice:
    """The dice of one result as a reader proves them, in rolling order: faces, and sums where
    BCDice shows only the sum of several dice."""

    def __init__(self) -> None:
        self.dice: list[tuple[int, int]] = []
        self.totals: list[tuple[int, int, int, int]] = []

    def face(self, sides: int, value: int) -> bool:
        """One die's face; False (nothing added) when it is no face of such a die."""
        if not 1 <= value <= sides:
            return False
        self.dice.append((sides, value))
        return True

    def total(self, count: int, sides: int, value: int) -> bool:
        """``count`` d``sides`` shown only as their sum: the faces where the sum proves them, else the
        sum; False (nothing added) when no such dice can add up to it."""
        if count == 1:
            return self.face(sides, value)
        if not count <= value <= count * sides:
            return False
        known = summed(count, sides, value)
        if known:
            self.dice.extend(known)
        else:
            self.totals.append((len(self.dice), count, sides, value))
        return True

    def add(self, roll: Roll) -> None:
        """Every die and sum of another result, after those already here."""
        shift = len(self.dice)
        self.totals.extend((at + shift, count, sides, value) for at, count, sides, value in roll.totals)
        self.dice.extend(roll.dice)

    def fields(self) -> dict[str, Any]:
        return {"dice": tuple(self.dice), "totals": tuple(self.totals)}
