"""Result forms that BCDice's own tests vouch for, system by system: the long tail of its 346 systems.

Source: BCDice's test data (``test/data/<System>.toml`` at commit 98145305: each command, its
exact answer and the dice rolled), read by ``make_shapes.py`` into ``shapes.json``.

Each of BCDice's systems prints its own commands in its own words, but the dice in the answer
stand in a handful of **forms** shared across systems: a face list in brackets after a total
(``(2D6+1[11,3]) ＞ 6[2,4]+1 ＞ 7``, ``(MS>=7) ＞ [4,5,6] ＞ 11``), a bare comma list
(``(ATTACK2@3<=5) ＞ 3,4,6 ＞ …``), one face alone (``D100<=50@10 ＞ 11 ＞ 成功``), a value in
the head (``反応表(41)``, ``射撃ダメージペナルティー表[17]``), read as the faces themselves, as a
D66's two digits or as the sum of several dice. The grammar grows by these forms, not by system.

What the text alone cannot prove is that a system's command rolls nothing it does not show
(MagicaLogia's ``時の流れ表`` rolls three dice and prints none). That is vouched for by the tests:
a **shape** is a command's text with its numbers and operators taken out (``(2D6+1>=5[11,3])``
→ ``(D[,])``; a table's name); a system's shape is read in a form only when every test of
that shape in that system is exactly that form's dice: the same number of dice, the same
sides, in order (or as a multiset, then the roll is marked unordered), nothing more, nothing
less. A shape one of whose tests rolled dice its answer does not show is never read.

Where the export records no system (a CCFOLIA page), a shape is read only when every system
whose tests hold that shape reads it the same way.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

from .roll import Dice, Roll, make
from .text import Block

DATA = Path(__file__).with_name("shapes.json")

# Where the numbers of a form stand in a result.
SOURCES = (
    "step-single",
    "step-list",
    "steps-lists",
    "step-brackets",
    "all-brackets",
    "step-parens",
    "step-dice",
    "step-sided",
    "head",
    "head-first",
)
"""``step-single``: the first step is one number (``＞ 11 ＞``); ``step-list``: the first step is a
list of numbers (``＞ 3,4,6 ＞``, ``＞ 92, 52 ＞``); ``steps-lists``: the numbers of every step from the
first while each is a number or a list (rerolls shown step by step: ``＞ 1,5,6,7,10 ＞ 10 ＞ 6 ＞``);
``step-dice``: every ``NdS[…]`` of the first step that holds one, whose sides it names
(``1d12[5]+2d8[5,5]``, ``D10[6,5,1],D8[2,2]``); ``step-brackets``: every ``[…]`` list of numbers
in the first step that holds one (``6[2,4]+1``, ``[1,2,6,8]+[2,10]``, ``12[2,2][3,5]+10``);
``all-brackets``: every ``[…]`` list of every step (``6[6] ＞ 6 ＞ クリティカル！ ＞ 6+4[4]``);
``step-parens``: every ``(…)`` list in the first step (``2(1,1)+3``); ``step-sided``: every face
followed by its sides in the first step (``2(8)+3(6)``); ``head``: the numbers in ``(…)`` or
``[…]`` of the head (``反応表(41)``, ``掘り出し袋表[8,5]``); ``head-first``: the first number in
the head's ``(…)`` or ``[…]`` (``腕部CT表(26+5)``: the roll before its modifier)."""
RELATIONS = ("faces", "d66", "tens-ones", "sum")
"""``faces``: each number is one die; ``d66``: each number the two d6 of a D66 (tens first);
``tens-ones``: each number a d100 rolled as two d10, tens then ones (a 0 is a die showing 10);
``sum``: one number, the sum of a fixed number of dice (kept as a sum, never as faces).

The sides of a face are fixed by the tests (``sides``: a number), or read from the dice the
echo names in order (``sides: "echo"``: ``(1D12+6D6)``), or from the form itself (``step-dice``)."""

_SHAPE_DROP = re.compile(r"[\d\s+\-*/<>=?!.,:;#]+")
_NUMS = re.compile(r"-?\d{1,6}(?:, ?-?\d{1,6})*")
_BRACKETS = re.compile(r"\[(-?\d{1,6}(?:, ?-?\d{1,6})*)\]")
_PARENS = re.compile(r"\((-?\d{1,6}(?:, ?-?\d{1,6})*)\)")
_HEAD = re.compile(r"[(\[](-?\d{1,6}(?:, ?-?\d{1,6})*)[)\]]")
_INT = re.compile(r"-?\d{1,6}")
_SIDED = re.compile(r"(?<![\d\]])(\d{1,4})\((\d{1,4})\)")
_HEAD_FIRST = re.compile(r"[(\[](\d{1,6})[+\-]\d{1,6}[)\]]")
_STEP_DICE = re.compile(r"(?<![A-Za-z])(\d{0,3})[dD](\d{1,4})\[(\d{1,6}(?:, ?\d{1,6})*)\]")
_ECHO_DICE = re.compile(r"(?<![A-Z])(\d{0,3})[DBRU](\d{1,4})(?![A-Z\d])")


def shape(block: Block) -> str:
    """The block's command without its numbers and operators: what its tests vouch for.

    ``(2D6+1>=5[11,3])`` → ``(D[])``, ``D100<=50@10`` → ``D@``, ``反応表(41)`` → ``反応表()``.
    A table keeps its name; brackets and letters stay, since they tell commands apart."""
    if block.name:
        # a name of several words (Korean: 병행 세계 장면 표) is cut at its last space: take back the
        # words before it that hold no ASCII letter or digit (a typed command does)
        words = block.lead.split()[-4:]
        while words and any(c.isascii() and c.isalnum() for c in words[0]):
            words.pop(0)
        head = " ".join([*words, block.name]) + "(" + (block.echo or "") + ")"
    elif block.echo is not None:
        head = "(" + block.echo + ")" + block.suffix
    else:
        head = block.head
    text = unicodedata.normalize("NFKC", head)[:120].upper()
    return _SHAPE_DROP.sub("", text)


def _ints(text: str) -> list[int]:
    return [int(v) for v in re.split(r", ?", text)]


def numbers(block: Block, source: str) -> list[int] | None:
    """The numbers of ``block`` where ``source`` says they stand; None when the block has none there."""
    first = block.steps[0] if block.steps else ""
    if source == "steps-lists":
        out: list[int] = []
        for step in block.steps:
            if not _NUMS.fullmatch(step):
                break
            out.extend(_ints(step))
        return out or None
    if source == "step-dice":
        terms = step_dice(block)
        return [v for _, v in terms] if terms else None
    if source == "step-sided":
        sided = _SIDED.findall(first)
        return [int(v) for v, _ in sided] if sided else None
    if source == "head-first":
        m = _HEAD_FIRST.search(block.head)
        return [int(m.group(1))] if m else None
    if source == "all-brackets":
        every = [v for step in block.steps for g in _BRACKETS.findall(step) for v in _ints(g)]
        return every or None
    if source == "step-single":
        return [int(first)] if _INT.fullmatch(first) else None
    if source == "step-list":
        return _ints(first) if "," in first and _NUMS.fullmatch(first) else None
    if source == "head":
        found = _HEAD.findall(block.head)
        return [v for g in found for v in _ints(g)] if found else None
    pattern = _BRACKETS if source == "step-brackets" else _PARENS
    for step in block.steps[:1] if source == "step-parens" else block.steps:
        found = pattern.findall(step)
        if found:
            return [v for g in found for v in _ints(g)]
    return None


def step_dice(block: Block) -> list[tuple[int, int]] | None:
    """(sides, face) of every ``NdS[…]`` in the first step holding one; None if a count is wrong."""
    for step in block.steps:
        found = _STEP_DICE.findall(step)
        if found:
            out = []
            for n, s, faces in found:
                values = _ints(faces)
                if len(values) != int(n or 1):
                    return None
                out.extend((int(s), v) for v in values)
            return out
    return None


def _sides_shown(block: Block | None, source: str) -> list[int] | None:
    """The sides a form names beside each face (``1d12[5]``, ``2(8)``)."""
    if block is None:
        return None
    if source == "step-sided":
        return [int(s) for _, s in _SIDED.findall(block.steps[0] if block.steps else "")]
    return [s for s, _ in step_dice(block) or []]


def echo_sides(block: Block) -> list[int] | None:
    """The sides of every die the echo names, in order (``1D12+6D6`` → 12 and six 6)."""
    echo = unicodedata.normalize("NFKC", block.echo if block.echo is not None else block.head).upper()
    out: list[int] = []
    for n, s in _ECHO_DICE.findall(echo[:200]):
        out.extend([int(s)] * int(n or 1))
    return out if 0 < len(out) <= 200 else None


def dice_of(values: list[int], spec: dict[str, Any], block: Block | None = None) -> Dice | None:
    """The dice ``values`` are under ``spec`` (relation, sides, count); None when they cannot be."""
    sides, rel, count = spec["sides"], spec["rel"], spec.get("count")
    dice = Dice()
    if rel == "faces":
        if count is not None and len(values) != count:
            return None
        if sides in ("echo", "form"):
            known = _sides_shown(block, spec["src"]) if sides == "form" else echo_sides(block) if block else None
            if not known or len(known) != len(values):
                return None
            each = known
        else:
            each = [sides] * len(values)
        ok = all(dice.face(s, 10 if s == 10 and v == 0 else v) for s, v in zip(each, values))
        return dice if ok else None
    if rel in ("d66", "tens-ones"):
        if count is not None and len(values) != count:
            return None
        for v in values:
            tens, ones = divmod(v, 10)
            if rel == "d66" and not (tens <= 6 and dice.face(6, tens) and dice.face(6, ones)):
                return None
            if rel == "tens-ones" and not (0 <= v <= 99 and dice.face(10, tens or 10) and dice.face(10, ones or 10)):
                return None
        return dice
    if len(values) != 1:
        return None
    return dice if count and dice.total(count, sides, values[0]) else None


@cache
def _data() -> dict[str, Any]:
    return json.loads(DATA.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def spec_for(key: str, system: str | None) -> dict[str, Any] | None:
    """How the tests of ``system`` read results of shape ``key``; without a system, the one reading
    every system that has the shape agrees on (None where any of them does not vouch for it)."""
    data = _data()
    if system is not None:
        return data["systems"].get(system.strip(), {}).get(key)  # type: ignore[no-any-return]
    if key in data["unvouched"]:
        return None
    found = data["agreed"].get(key)
    return found  # type: ignore[no-any-return]


def read(block: Block, system: str | None) -> Roll | None:
    """The block in the form its system's tests vouch for; None where no test vouches for its shape."""
    spec = spec_for(shape(block), system)
    if spec is None:
        return None
    if spec["rel"] == "nothing":
        return make(block, "other", certain=True)
    values = numbers(block, spec["src"])
    dice = dice_of(values, spec, block) if values is not None else None
    if dice is None:
        return make(block, "other", problem="dice not in the form BCDice's tests show for this command", certain=True)
    return make(block, "die", **dice.fields(), ordered=spec["ordered"], certain=True)
