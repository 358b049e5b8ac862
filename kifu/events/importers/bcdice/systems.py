"""Result forms of particular game systems, read where the text or the recorded system says which.

Source: bcdice/BCDice ``lib/bcdice/game_system/`` at commit 98145305:
``Cthulhu.rb`` (``CC``/``CCB``/``RES``: one d100; ``CBR``: one d100 judged twice;
``故障ナンバー``), ``Cthulhu7th.rb`` and ``cthulhu7th/rollable.rb`` (``CC``: one tens
d10 per bonus or penalty die, then one ones d10, each total shown; ``FAR``: one such
roll per volley) and their Korean and Chinese versions; ``DoubleCross.rb`` (the emotion
table), ``SwordWorld2_0.rb`` (growth), ``Satasupe.rb`` (its ``name:value:`` tables and
NPCs) and ``DemonParasite.rb``/``ParasiteBlood.rb`` (the urge tables, ``衝動表1-9:…``), which
print no ``＞``. This module picks the reader: the forms of systems' own
commands are in ``forms.py``, tables in ``tables.py``, LogHorizon's tables in
``log_horizon.py``, the Saikoro Fiction skill tables in ``skills.py``.

A d100 rolled as two d10 is recorded as the two d10 BCDice rolled (sides 10, a 0 read
as 10), in BCDice's order: every tens die, then the ones die. A table of several dice
that prints only its value (``シーン表(8)``, 2D6) is recorded as that sum (``Roll.totals``).
"""

from __future__ import annotations

import re

from ...i18n import Msg
from . import log_horizon as lh
from . import skills
from .common import is_int
from .forms import _ANY_MARK, _MATERIAL, _OWN, insane_numbering, kamigakari_material
from .roll import Dice, Roll, make
from .settings import UNKNOWN, Settings
from .tables import family, holders, owner_of, sai_fic, table, table_named
from .text import Block, widen

# Cthulhu 7th's bonus/penalty suffix in the Japanese, Korean and Chinese (Traditional) systems.
# The Korean FAR prints a space before the bracket (Cthulhu7th_Korean.rb getFullAutoResult).
_BONUS = re.compile(r"(?:ボーナス・ペナルティダイス|보너스, 패널티 주사위 ?|獎勵・懲罰骰)\[(-?\d+)\]")
_CC_ECHO = re.compile(r"1D100(?:<=-?\d+)?", re.I)
_BROKEN = re.compile(r"(?:故障ナンバー|고장넘버|故障值|故障値)\[-?\d+\]")
_CBR_ECHO = re.compile(r"1d100<=-?\d+,-?\d+", re.I)
_RES_ECHO = re.compile(r"1d100<=-?\d+")  # lower-case d: Cthulhu's RES/RESB echo
_CBR_STEP = re.compile(r"(\d+)\[[^\[\]]*\]")
_VOLLEY = re.compile(r"(?<!\d)\d{1,4}(?:回目|번째|次): ?＞ ")  # starts where a number starts: linear


_COLON = re.compile(r"([^:\n]{1,60}):(-?\d{1,3}):")


_COLON_PRINTERS = frozenset({"Satasupe", "RogueLikeHalf"})
"""The systems whose code prints a table as ``name:value:entry`` (Satasupe.rb, RogueLikeHalf.rb)."""


def _colon_owner(text: str) -> str | None:
    """The system the first ``name:value:`` line tells (CCFOLIA's command before it aside): Satasupe
    where of the systems printing that form only Satasupe's source holds the table's name."""
    line = text.lstrip().split("\n", 1)[0]
    m = _COLON.match(line)
    if not m:
        return None
    if " " in m.group(1):
        line = line.split(" ", 1)[1]
        m = _COLON.match(line)
        if not m:
            return None
    fams = set(holders(m.group(1)))
    if "" not in fams and fams & _COLON_PRINTERS == {"Satasupe"}:
        return "Satasupe"
    return "Satasupe" if _NPC.fullmatch(line) else None


def _colon_tables(text: str, system: str, typed: str | None) -> tuple[str, list[Roll]] | None:
    """Satasupe prints tables as ``タグ決定表:53:ヒマツブシ(イ)`` and ``NPC表:青年(26歳):…`` (Satasupe.rb),
    one per line; CCFOLIA's classic page puts the typed command before the first."""
    rolls, lead = [], ""
    for n, raw in enumerate(text.splitlines()):
        line = raw.strip()
        if n == 0 and " " in line.split(":", 1)[0]:
            lead, line = line.split(" ", 1)  # the command typed before the answer
            typed = typed if typed is not None else lead.upper()
        npc = _npc(line)
        if npc is not None:
            rolls.append(npc)
            continue
        m = _COLON.match(line)
        if not m:
            continue
        name, value = m.group(1), m.group(2)
        block = Block(lead="", text=line, name=name, echo=value, suffix="", head=m.group(0), steps=(line[m.end() :],))
        rolls.append(
            table(block, system, UNKNOWN, typed)
            or make(block, "other", problem=Msg("bcdice.table_dice_unknown", table=repr(name)), certain=True)
        )
    return (lead, rolls) if rolls else None


# DemonParasite.rb (ParasiteBlood.rb the same): the urge tables print no "＞" but one line
# "衝動表1-9:『前兆』…": the level typed, then the 2D6 rolled on the table.
_URGE = re.compile(r"(\S{1,30}表)([1-9])-(\d{1,2}):")
_URGE_SYSTEMS = frozenset({"DemonParasite", "ParasiteBlood"})
"""The systems whose code prints an urge table as ``<name><level>-<2D6>:<entry>``."""


def _urge(text: str) -> tuple[str, list[Roll]] | None:
    """``衝動表1-9:『前兆』…`` (DemonParasite, ParasiteBlood): the sum of the 2D6 the table rolled, one
    line per roll, every line of the message (CCFOLIA's classic page puts the typed command before
    the first); None where a line is of another form."""
    rolls, lead = [], ""
    for n, raw in enumerate(text.splitlines()):
        line = raw.strip()
        m = _URGE.match(line)
        if m is None and n == 0 and " " in line:
            lead, line = line.split(" ", 1)[0], line.split(" ", 1)[1].strip()
            m = _URGE.match(line)
        if m is None:
            if line:
                return None  # a line of another form: the message is read as a whole elsewhere
            continue
        name, level, value = m.groups()
        block = Block(
            lead="", text=line, name=name, echo=f"{level}-{value}", suffix="", head=m.group(0), steps=(line[m.end() :],)
        )
        dice = Dice()
        rolls.append(
            make(block, "die", **dice.fields(), certain=True)
            if dice.total(2, 6, int(value))
            else make(
                block,
                "other",
                problem=Msg("bcdice.table_no_value", table=repr(name), dice="2D6", value=int(value)),
                certain=True,
            )
        )
    return (lead, rolls) if rolls else None


# Satasupe's NPC table (satasupe/tables.rb): an age band (d6; its age is a base plus n d6),
# a liking (d6) and an age liked (d3), each shown by its entry.
_NPC_AGES = {"幼年": (6, 2), "少年": (10, 2), "青年": (15, 3), "中年": (25, 4), "壮年": (40, 5), "老年": (60, 6)}
_NPC_MOODS = ("ダークな", "お金持ちな", "美形な", "知的な", "ワイルドな", "バランスがとれてる")
_NPC_LIKED = ("年下が好き。", "同い年が好き。", "年上が好き。")
_NPC = re.compile(r"NPC表:(..)\((\d+)歳\):(.+?)(年下が好き。|同い年が好き。|年上が好き。)")


def _npc(line: str) -> Roll | None:
    m = _NPC.fullmatch(line)
    if not m:
        return None
    block = Block(lead="", text=line, name="NPC表", echo=None, suffix="", head="NPC表", steps=(line[4:],))
    band, age, mood, liked = m.groups()
    dice = Dice()
    base, count = _NPC_AGES.get(band, (0, 0))
    ok = (
        count > 0
        and mood in _NPC_MOODS
        and dice.face(6, list(_NPC_AGES).index(band) + 1)
        and dice.total(count, 6, int(age) - base)
        and dice.face(6, _NPC_MOODS.index(mood) + 1)
        and dice.face(3, _NPC_LIKED.index(liked) + 1)
    )
    if not ok:
        return make(block, "other", problem=Msg("bcdice.npc_entries_off"), certain=True)
    return make(block, "die", **dice.fields(), certain=True)


_GROWTH = re.compile(r"\[([1-6]),([1-6])\]->\([^()]*\)")


def _growth(text: str) -> tuple[str, list[Roll]] | None:
    """SwordWorld 2.x ``gr3``: ``[1,2]->(器用度 or 敏捷度) | [6,5]->(…)``, a 2D6 per growth (SwordWorld2_0.rb)."""
    lead, body = "", text.strip()
    if not body.startswith("["):  # CCFOLIA's classic page: "gr3 [1,2]->(…) | …"
        lead, _, body = body.partition(" ")
    parts = body.split(" | ")
    found = [_GROWTH.fullmatch(p) for p in parts]
    if not all(found):
        return None
    block = Block(lead=lead, text=body, name="", echo=None, suffix="", head="", steps=())
    dice = tuple((6, int(v)) for m in found if m for v in m.groups())
    return lead, [make(block, "die", dice=dice, certain=True)]


def read_message(text: str, system: str | None, typed: str | None = None) -> tuple[str, list[Roll]] | None:
    """Results that span lines of one message (Cthulhu 7th's ``FAR``) or print no ``＞``
    (Satasupe's tables), else None. Where the export records no system, the form or a table
    name only one system prints tells it (``[1,2]->(…)``: SwordWorld 2.x; ``イースタル探索表``)."""
    fam = family(system)
    if "]->(" in text and (fam is None or fam.startswith("SwordWorld2")):
        found = _growth(text)  # BCDice prints "]->(" in SwordWorld2_0.rb's growth roll only
        if found or fam:
            return found
    if lh.EXPLORATION in text and (fam or owner_of(lh.EXPLORATION)) == "LogHorizon":
        return lh.read_message(text)
    if ":" in text and (fam or _colon_owner(text)) == "Satasupe":
        found = _colon_tables(text, "Satasupe" if fam is None else system, typed)  # type: ignore[arg-type]
        if found:
            return found
    if fam in _URGE_SYSTEMS and "表" in text:
        found = _urge(text)
        if found:
            return found
    if "]" not in text or ("回目" not in text and "번째" not in text and "次" not in text):
        return None  # no volley line: the cheap test first, the search only where one may be
    first = _VOLLEY.search(text)
    if first is None or _BONUS.search(text, 0, first.start()) is None:
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
        if dice and "보너스" in text:
            dice = dice[-1:] + dice[:-1]  # Cthulhu7th_Korean.rb rolls the ones die first, then the tens dice
        rolls.append(
            make(b, "die", dice=dice, certain=True)
            if dice
            else make(b, "other", problem=Msg("bcdice.volley_off"), certain=True)
        )
    return " ".join(lead), rolls


# Checks whose judgement rolls dice the text does not show (a system's ``result_1d20``):
# where the system is one of these, or not known, such a result cannot be read.
_HIDDEN_CHECKS = {
    "PhantasmAdventure": re.compile(r"1D20<=-?\d+", re.I),  # PhantasmAdventure.rb: a d20 for the critical/fumble
}


def read(block: Block, system: str | None, st: Settings, typed: str | None = None) -> Roll | None:
    """The system form of this block, read; None when no system form applies."""
    upper = (block.echo or "").upper()
    if _ANY_MARK.search(upper) or _ANY_MARK.search(block.head):
        for marks, reader in _OWN:
            # each reader only where its command's letters are (a plain 2D6 tries none of them)
            if any(m in upper or m in block.head for m in marks):
                roll = reader(block)
                if roll is not None:
                    return roll
    fam = family(system)
    if fam == "LogHorizon":
        roll = lh.read(widen(block, lh.known), typed)
        if roll is not None:
            return roll
    if fam == "Kamigakari":
        roll = kamigakari_material(widen(block, _MATERIAL.__contains__))
        if roll is not None:
            return roll
    if fam == "Insane":
        roll = insane_numbering(block)
        if roll is not None:
            return roll
    if fam in skills.SYSTEMS or (fam is None and block.name):
        wide = widen(block, skills.known)
        if fam is not None or sai_fic(wide.name):
            roll = skills.read(wide) or (skills.bad_end(wide) if fam == "Insane" else None)
            if roll is not None:
                return roll
    if block.echo is None:
        return None
    if block.name == "感情表" and (fam == "DoubleCross" or (fam is None and _EMOTION_FORM.fullmatch(block.echo))):
        return _emotion(block)  # "感情表(51-33)": BCDice prints a pair so in DoubleCross.rb only
    if block.name and block.name not in ("c", "C"):
        return table(widen(block, lambda name: table_named(system, name)), system, st, typed)
    for checker, echo in _HIDDEN_CHECKS.items() if "1D20" in upper else ():
        if system in (None, checker) and echo.fullmatch(block.echo) and len(block.steps) > 1:
            return make(block, "other", problem=Msg("bcdice.hidden_die", checker=checker), certain=True)
    if block.suffix:
        if _BONUS.fullmatch(block.suffix) and _CC_ECHO.fullmatch(block.echo):
            return _bonus_roll(block)
        if _BROKEN.fullmatch(block.suffix) and _CC_ECHO.fullmatch(block.echo):
            return _d100(block)
        return None
    if _RES_ECHO.fullmatch(block.echo) and block.steps in (("自動成功",), ("自動失敗",)) and not block.name:
        return make(block, "other", certain=True)  # Cthulhu.rb: RES beyond 100 or 0 rolls nothing
    if _CBR_ECHO.fullmatch(block.echo) and not block.name:
        m = _CBR_STEP.fullmatch(block.steps[0]) if block.steps else None
        if m and 1 <= int(m.group(1)) <= 100:
            return make(block, "die", dice=((100, int(m.group(1))),), certain=True)
        return (
            make(block, "other", certain=True)
            if block.steps and not is_int(block.steps[0]) and not m
            else make(block, "other", problem=Msg("bcdice.d100_hidden"), certain=True)
        )
    return None


_EMOTION_FORM = re.compile(r"\d{1,3}-\d{1,3}")


def _emotion(block: Block) -> Roll:
    """``感情表(51-33) ＞ 遺志 - ○劣等感``: a d100 for each side, then a d2 for the ○ (1 = the first)
    (DoubleCross.rb ``roll_emotion_table``)."""
    m = re.fullmatch(r"(\d{1,3})-(\d{1,3})", block.echo or "")
    sides = block.steps[0].split(" - ") if len(block.steps) == 1 else []
    marked = [part.startswith("○") for part in sides]
    if not m or len(sides) != 2 or marked.count(True) != 1 or not all(1 <= int(v) <= 100 for v in m.groups()):
        return make(block, "other", problem=Msg("bcdice.emotion_form"), certain=True)
    return make(
        block, "die", dice=((100, int(m.group(1))), (100, int(m.group(2))), (2, 1 if marked[0] else 2)), certain=True
    )


def _d100(block: Block) -> Roll:
    shown = block.steps[0] if block.steps else ""
    if is_int(shown) and 1 <= int(shown) <= 100:
        return make(block, "die", dice=((100, int(shown)),), certain=True)
    return make(block, "other", problem=Msg("bcdice.d100_hidden"), certain=True)


def _bonus_roll(block: Block) -> Roll:
    """``(1D100<=53) ボーナス・ペナルティダイス[1] ＞ 92, 52 ＞ 52``: |n|+1 tens d10, then one ones d10."""
    bonus = int(_BONUS.fullmatch(block.suffix).group(1))  # type: ignore[union-attr]
    shown = block.steps[0] if block.steps else ""
    dice = _tens_and_ones(shown)
    if dice is None or len(dice) != abs(bonus) + 2:
        return make(
            block,
            "other",
            problem=Msg("bcdice.d100_totals_expected", count=abs(bonus) + 1, shown=repr(shown)),
            certain=True,
        )
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
