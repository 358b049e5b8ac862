"""LogHorizon's own tables, read where the recorded system is LogHorizon.

Source: bcdice/BCDice ``lib/bcdice/game_system/LogHorizon.rb`` and
``i18n/LogHorizon/{ja_jp,ko_kr}.yml`` at commit 98145305 (the table names below are
those files' ``name:`` values). Every form shows its dice in brackets; what the text
alone cannot tell is whether the typed command fixed them:

* consumption tables (``PCT``, ``ECT``, ``GCT``, ``CCT``, ``ESCT``, ``CSCT``):
  ``体力消耗表(7[6]) ＞ …``, one d6 and the total; ``PCT1$5`` fixes the die at 5
  without rolling and prints the same form, so the typed command must be known and
  free of ``$`` for the die to be a roll;
* treasure tables (``CTRS`` … ``OTRSE``): ``金銭財宝表(17[6,6]) ＞ …``, a 2D6 as
  rolled; ``$`` prints ``[7]`` (one fixed value, no roll), CR 0 prints no brackets;
* ``ESTL``: ``イースタル探索表(17[6,6])`` and the entry on the next lines (no ``＞``),
  the same brackets as the treasure tables;
* ``IAT``, ``TIAS``, ``ABDC``: ``ロデ研の新発明([6,5,3]) ＞ …``, one d6 per list item;
* ``MII``: ``楽器種別表(1) ＞ 打楽器１(4) ＞ …`` (a d6 for the kind, unless typed as
  ``MII1``…``MII6``, then a d6 for the instrument).
"""

from __future__ import annotations

import re

from ...i18n import Msg
from .roll import Dice, Roll, make
from .text import Block

_CONSUMPTION = frozenset(
    {
        "体力消耗表",
        "気力消耗表",
        "物品消耗表",
        "金銭消耗表",
        "特殊消耗表：ロデ研は爆発だ！",
        "特殊消耗表：アルヴの呪いじゃ！",
        "체력 소모표",
        "기력 소모표",
        "물품 소모표",
        "금전 소모표",
        "특수 소모표 : 로데릭 연구소는 폭발했다!",
        "특수 소모표: 알브의 저주다!",
    }
)
_TREASURE = frozenset(
    {
        "金銭財宝表",
        "魔法素材財宝表",
        "換金アイテム財宝表",
        "ヒロイン財宝表",
        "ゴブリン財宝表",
        "金銭財宝表（拡張）",
        "魔法素材財宝表（拡張）",
        "換金アイテム財宝表（拡張）",
        "そのほか財宝表（拡張）",
        "금전 재보표",
        "마법소재 재물표",
        "환전아이템 재물표",
        "히로인 재보표",
        "고블린 재물표",
    }
)
EXPLORATION = "イースタル探索表"  # the Korean file keeps the Japanese table
_LISTS = frozenset(
    {
        "ロデ研の新発明",
        "アキバの街で遭遇するトラブル",
        "廃棄児",
        "로데릭 연구소의 새로운 발명",
        "아키바 거리에서 발생하는 문제",
        "버림받은 아이",
    }
)
_INSTRUMENT = frozenset({"楽器種別表", "악기 종류 표"})

_ONE = re.compile(r"-?\d+\[(\d+)\]")
_TWO = re.compile(r"-?\d+\[(\d+),(\d+)\]")
_PLAIN = re.compile(r"-?\d+")
_LIST = re.compile(r"\[(\d+(?:,\d+)*)\]")
_KIND = re.compile(r".*\((\d+)\)")
NAMES = _CONSUMPTION | _TREASURE | _LISTS | _INSTRUMENT | {EXPLORATION}
"""Every table name this module reads (``make_tables.py`` finds which systems' source holds each)."""
_CONSUMPTION_CMD = re.compile(r"(?:P|E|G|C|ES|CS)CT")


def known(name: str) -> bool:
    """A name of a table this module reads (so that a name with spaces is read whole)."""
    return name in _CONSUMPTION or name in _TREASURE or name in _LISTS or name in _INSTRUMENT


def read(block: Block, typed: str | None) -> Roll | None:
    """One LogHorizon table result, or None when the block is none of them."""
    name, echo = block.name, block.echo
    if name in _CONSUMPTION and echo is not None:
        return _consumption(block, typed)
    if (name in _TREASURE or name == EXPLORATION) and echo is not None:
        return _bracketed(block, echo)
    if name in _LISTS and echo is not None:
        m = _LIST.fullmatch(echo)
        dice = Dice()
        if not m or not all(dice.face(6, int(v)) for v in m.group(1).split(",")):
            return make(block, "other", problem=Msg("bcdice.named_d6_faces_hidden", name=name), certain=True)
        return make(block, "die", **dice.fields(), certain=True)
    if _instrument_head(block.head) or (name in _INSTRUMENT and echo is not None):
        return _instrument(block)
    return None


def _consumption(block: Block, typed: str | None) -> Roll:
    m = _ONE.fullmatch(block.echo or "")
    if not m:
        return make(block, "other", problem=Msg("bcdice.named_d6_hidden", name=block.name), certain=True)
    if typed is None or not _CONSUMPTION_CMD.search(typed):
        return make(
            block,
            "other",
            problem=Msg("bcdice.dollar_unknown", name=block.name),
            certain=True,
        )
    if "$" in typed:
        return make(block, "other", certain=True)  # "PCT1$5": the die was set, not rolled
    dice = Dice()
    if not dice.face(6, int(m.group(1))):
        return make(
            block, "other", problem=Msg("bcdice.named_no_d6_face", name=block.name, value=m.group(1)), certain=True
        )
    return make(block, "die", **dice.fields(), certain=True)


def _bracketed(block: Block, echo: str) -> Roll:
    """``(17[6,6])`` a 2D6 as rolled; ``(14[7])`` the value $ fixed; ``(27)`` CR 0, no roll."""
    two = _TWO.fullmatch(echo)
    if two:
        dice = Dice()
        if dice.face(6, int(two.group(1))) and dice.face(6, int(two.group(2))):
            return make(block, "die", **dice.fields(), certain=True)
        return make(block, "other", problem=Msg("bcdice.named_no_2d6", name=block.name, echo=echo), certain=True)
    one = _ONE.fullmatch(echo)
    # the treasure tables' $ fixes [7]; ESTL's $n fixes [n]
    if (one and (one.group(1) == "7" or block.name == EXPLORATION)) or _PLAIN.fullmatch(echo):
        return make(block, "other", certain=True)
    return make(block, "other", problem=Msg("bcdice.named_2d6_hidden", name=block.name), certain=True)


def _instrument_head(head: str) -> bool:
    """``楽器種別表`` (``MII1``: no kind rolled), alone or after the command (CCFOLIA's classic page)."""
    return any(head == n or (head.endswith(" " + n) and " " not in head[: -len(n) - 1]) for n in _INSTRUMENT)


def _instrument(block: Block) -> Roll:
    dice = Dice()
    kind = _KIND.fullmatch(block.steps[0]) if block.steps else None
    if block.echo is not None and not dice.face(6, int(block.echo) if block.echo.isdigit() else 0):
        kind = None
    if kind is None or len(block.steps) != 2 or not dice.face(6, int(kind.group(1))):
        return make(block, "other", problem=Msg("bcdice.d6_hidden", head=block.head), certain=True)
    return make(block, "die", **dice.fields(), certain=True)


def read_message(text: str) -> tuple[str, list[Roll]] | None:
    """``ESTL``: ``イースタル探索表(17[6,6])`` on the first line, the entry after it, no ``＞``."""
    first = text.lstrip().split("\n", 1)[0].strip()
    at = first.find(EXPLORATION + "(")
    if at < 0 or not first.endswith(")") or (at and not first[at - 1].isspace()):
        return None
    lead, head = first[:at].strip(), first[at:]  # CCFOLIA's classic page: the command before it
    echo = head[len(EXPLORATION) + 1 : -1]
    block = Block(lead=lead, text=text.strip()[at:], name=EXPLORATION, echo=echo, suffix="", head=head, steps=())
    return lead, [_bracketed(block, echo)]
