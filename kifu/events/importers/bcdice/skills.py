"""The Saikoro Fiction skill tables (``RTT``, ``RCT``, ``RTT1``…): a d6 for the field, a 2D6 for the skill.

Source: bcdice/BCDice ``lib/bcdice/dice_table/sai_fic_skill_table.rb`` (and ``category.rb``:
the field is ``roll_once(6)``, the skill ``roll_sum(2, 6)``) at commit 98145305, the
formats each system gives it (``rtt_format``, ``rct_format``, ``rttn_format`` in the
systems below and ``i18n/*.yml``), and ``Insane.rb``'s bad end table, whose entries 3
and 11 roll a random skill into their text (``《人類学／知識8》``).

A result shows the field's die and only the sum of the skill's 2D6:
``ランダム特技表(1,7) ＞ 《焼却／暴力7》`` is a d6 showing 1 and a 2D6 summing to 7.
These forms are read only where the recorded system is one that uses the table.
"""

from __future__ import annotations

import re

from ...i18n import Msg
from .roll import Dice, Roll, make
from .text import Block

SYSTEMS = frozenset(
    {
        "BloodCrusade",
        "CardRanker",
        "DarkDaysDrive",
        "HuntersMoon",
        "Insane",
        "KanColle",
        "KillDeathBusiness",
        "MagicaLogia",
        "PastFutureParadox",
        "Peekaboo",
        "ShinobiGami",
        "StarryDolls",
        "StratoShout",
        "YankeeYogSothoth",
    }
)
"""The systems whose BCDice code builds a ``SaiFicSkillTable``."""

_BOTH = frozenset(
    {
        "ランダム特技表",
        "ランダム指定特技表",
        "랜덤 특기 결정표",
        "隨機特技表",
        "個性：一括",
        "ランダムモンスター選択",
        "指定特技ランダム決定表",
        "지정특기 랜덤결정표",
    }
)
"""``rtt_format`` heads: ``(field, skill)``."""
_FIELD = frozenset(
    {"ランダム分野表", "랜덤 분야표", "個性：分野表", "指定特技分野ランダム決定表", "지정특기분야 랜덤결정표"}
)
"""``rct_format`` heads: ``(field)``."""
_SKILL = re.compile(r".+分野ランダム特技表|指定特技\(.+\)表|지정특기\(.+\)표|.+領域隨機特技表")
"""``rttn_format`` heads (a field chosen by the command): ``(skill)``."""

NAMES = _BOTH | _FIELD | {"分野ランダム特技表", "指定特技(", "지정특기(", "領域隨機特技表"}
"""The heads and the fixed part of the field heads (``make_tables.py`` finds which systems' source holds each)."""

_TWO = re.compile(r"(\d+),(\d+)")
_ONE = re.compile(r"\d+")


def known(name: str) -> bool:
    return name in _BOTH or name in _FIELD or bool(_SKILL.fullmatch(name))


def text_of(name: str) -> str | None:
    """The part of a head BCDice's source spells out (``器術分野ランダム特技表`` → ``分野ランダム特技表``)."""
    if name in _BOTH or name in _FIELD:
        return name
    if _SKILL.fullmatch(name):
        return next((n for n in NAMES if n not in _BOTH and n not in _FIELD and n in name), None)
    return None


def read(block: Block) -> Roll | None:
    """One skill table result of a system in ``SYSTEMS``; None when the block is none."""
    name, echo = block.name, block.echo
    if echo is None or not name:
        return None
    dice = Dice()
    if name in _BOTH:
        m = _TWO.fullmatch(echo)
        ok = bool(m) and dice.face(6, int(m.group(1))) and dice.total(2, 6, int(m.group(2)))  # type: ignore[union-attr]
    elif name in _FIELD:
        ok = bool(_ONE.fullmatch(echo)) and dice.face(6, int(echo))
    elif _SKILL.fullmatch(name):
        ok = bool(_ONE.fullmatch(echo)) and dice.total(2, 6, int(echo))
    else:
        return None
    if not ok:
        return make(block, "other", problem=Msg("bcdice.skill_dice_off", name=name, echo=echo), certain=True)
    return make(block, "die", **dice.fields(), certain=True)


_INSANE_FIELDS = ("暴力", "情動", "知覚", "技術", "知識", "怪異")  # i18n/Insane/ja_jp.yml RTT items, in order
_BAD_END = "バッドエンド表"
_SKILL_IN_TEXT = re.compile(r"《[^／》]+／(.+?)(\d+)》")


def bad_end(block: Block) -> Roll | None:
    """Insane's ``BET``: ``バッドエンド表(3) ＞ …《人類学／知識8》の特技が…``: the table's 2D6 sum, and
    for the entries 3 and 11 the skill rolled into the text (a d6 for its field, a 2D6 sum)."""
    if block.name != _BAD_END or block.echo is None:
        return None
    dice = Dice()
    value = int(block.echo) if _ONE.fullmatch(block.echo) else 0
    if len(block.steps) != 1 or not dice.total(2, 6, value):
        return make(
            block, "other", problem=Msg("bcdice.named_no_2d6_sum", name=_BAD_END, echo=block.echo), certain=True
        )
    found = _SKILL_IN_TEXT.findall(block.steps[0])
    if value in (3, 11):
        if (
            len(found) != 1
            or found[0][0] not in _INSANE_FIELDS
            or not dice.face(6, _INSANE_FIELDS.index(found[0][0]) + 1)
            or not dice.total(2, 6, int(found[0][1]))
        ):
            return make(
                block, "other", problem=Msg("bcdice.bad_end_skill_hidden", name=_BAD_END, value=value), certain=True
            )
    elif found:
        return make(block, "other", problem=Msg("bcdice.bad_end_skill_extra", name=_BAD_END, value=value), certain=True)
    return make(block, "die", **dice.fields(), certain=True)
