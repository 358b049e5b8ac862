"""Result forms of particular game systems, read where the text or the recorded system says which.

Source: bcdice/BCDice ``lib/bcdice/game_system/`` at commit 98145305:
``Cthulhu.rb`` (``CC``/``CCB``/``RES``: one d100; ``CBR``: one d100 judged twice;
``故障ナンバー``), ``Cthulhu7th.rb`` and ``cthulhu7th/rollable.rb`` (``CC``: one tens
d10 per bonus or penalty die, then one ones d10, each total shown; ``FAR``: one such
roll per volley) and their Korean and Chinese versions.

A d100 rolled as two d10 is recorded as the two d10 BCDice rolled (sides 10, a 0 read
as 10), in BCDice's order: every tens die, then the ones die.
"""

from __future__ import annotations

import re

from .common import is_int
from .roll import Roll, make
from .settings import Settings
from .text import Block

# Cthulhu 7th's bonus/penalty suffix in the Japanese, Korean and Chinese (Traditional) systems.
_BONUS = re.compile(r"(?:ボーナス・ペナルティダイス|보너스, 패널티 주사위|獎勵、懲罰骰値)\[(-?\d+)\]")
_CC_ECHO = re.compile(r"1D100(?:<=-?\d+)?", re.I)
_BROKEN = re.compile(r"(?:故障ナンバー|고장넘버|故障值|故障値)\[-?\d+\]")
_CBR_ECHO = re.compile(r"1d100<=-?\d+,-?\d+", re.I)
_CBR_STEP = re.compile(r"(\d+)\[[^\[\]]*\]")
_VOLLEY = re.compile(r"\d+(?:回目|번째|次): ?＞ ")


def read_message(text: str, system: str | None) -> tuple[str, list[Roll]] | None:
    """Results that span lines of one message (Cthulhu 7th's ``FAR``), else None."""
    head, nl, rest = text.partition("\n")
    bonus = _BONUS.search(head) if nl else None
    if bonus is None or not _VOLLEY.search(rest):
        return None
    return _full_auto(text)


def _full_auto(text: str) -> tuple[str, list[Roll]]:
    """``FAR``: every ``n回目: ＞ 92, 52 ＞ …`` line is one bonus/penalty roll."""
    from .text import blocks

    lead, found = blocks(text)
    rolls = []
    for b in found:
        if not _VOLLEY.fullmatch(b.head + " ＞ "):
            continue
        dice = _tens_and_ones(b.steps[0]) if b.steps else None
        rolls.append(make(b, "die", dice=dice, certain=True) if dice else
                     make(b, "other", problem="volley values not d100 totals of one ones die", certain=True))
    return " ".join(lead), rolls


# Checks whose judgement rolls dice the text does not show (a system's ``result_1d20``):
# where the system is one of these, or not known, such a result cannot be read.
_HIDDEN_CHECKS = {
    "PhantasmAdventure": re.compile(r"1D20<=-?\d+", re.I),  # PhantasmAdventure.rb: a d20 for the critical/fumble
}


def read(block: Block, system: str | None, st: Settings) -> Roll | None:
    """The system form of this block, read; None when no system form applies."""
    if block.echo is None:
        return None
    for owner, echo in _HIDDEN_CHECKS.items():
        if system in (None, owner) and echo.fullmatch(block.echo) and len(block.steps) > 1:
            return make(block, "other", problem=f"{owner} rolls a die this result does not show", certain=True)
    if block.suffix:
        if _BONUS.fullmatch(block.suffix) and _CC_ECHO.fullmatch(block.echo):
            return _bonus_roll(block)
        if _BROKEN.fullmatch(block.suffix) and _CC_ECHO.fullmatch(block.echo):
            return _d100(block)
        return None
    if _CBR_ECHO.fullmatch(block.echo) and not block.name:
        m = _CBR_STEP.fullmatch(block.steps[0]) if block.steps else None
        if m and 1 <= int(m.group(1)) <= 100:
            return make(block, "die", dice=((100, int(m.group(1))),), certain=True)
        return make(block, "other", certain=True) if block.steps and not is_int(block.steps[0]) and not m else \
            make(block, "other", problem="d100 not shown", certain=True)
    return None


def _d100(block: Block) -> Roll:
    shown = block.steps[0] if block.steps else ""
    if is_int(shown) and 1 <= int(shown) <= 100:
        return make(block, "die", dice=((100, int(shown)),), certain=True)
    return make(block, "other", problem="d100 not shown", certain=True)


def _bonus_roll(block: Block) -> Roll:
    """``(1D100<=53) ボーナス・ペナルティダイス[1] ＞ 92, 52 ＞ 52``: |n|+1 tens d10, then one ones d10."""
    bonus = int(_BONUS.fullmatch(block.suffix).group(1))  # type: ignore[union-attr]
    shown = block.steps[0] if block.steps else ""
    dice = _tens_and_ones(shown)
    if dice is None or len(dice) != abs(bonus) + 2:
        return make(block, "other", problem=f"{abs(bonus) + 1} d100 totals expected in {shown!r}", certain=True)
    if block.suffix.startswith("보너스"):
        dice = dice[-1:] + dice[:-1]  # Cthulhu7th_Korean.rb rolls the ones die first, then the tens dice
    return make(block, "die", dice=dice, certain=True)


def _tens_and_ones(shown: str) -> tuple[tuple[int, int], ...] | None:
    """``92, 52`` → tens d10s 9 and 5, then the ones d10 2 (a 0 is a d10 showing 10; 100 is 0 and 0)."""
    values = [v.strip() for v in shown.split(",")]
    if not all(is_int(v) and 1 <= int(v) <= 100 for v in values):
        return None
    ones = {int(v) % 10 for v in values}
    if len(ones) != 1:
        return None
    tens = [(int(v) // 10) % 10 for v in values]
    one = ones.pop()
    return tuple((10, t or 10) for t in tens) + ((10, one or 10),)
