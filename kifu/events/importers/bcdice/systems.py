"""Result forms of particular game systems, read where the text or the recorded system says which.

Source: bcdice/BCDice ``lib/bcdice/game_system/`` at commit 98145305:
``Cthulhu.rb`` (``CC``/``CCB``/``RES``: one d100; ``CBR``: one d100 judged twice;
``故障ナンバー``), ``Cthulhu7th.rb`` and ``cthulhu7th/rollable.rb`` (``CC``: one tens
d10 per bonus or penalty die, then one ones d10, each total shown; ``FAR``: one such
roll per volley) and their Korean and Chinese versions; ``DoubleCross.rb``,
``SwordWorld*.rb``, ``Emoklore.rb``, ``ShinobiGami.rb``, ``LogHorizon.rb`` (``LH``,
``TRS``), ``Satasupe.rb`` (``R``, ``SR``, its tables and NPCs), ``Kamigakari.rb``
(``MT``), ``Insane.rb`` (``IRN``); the tables of every system through ``tables.json``
and ``vetted.json`` (``make_tables.py``). LogHorizon's own tables are in
``log_horizon.py``, the Saikoro Fiction skill tables in ``skills.py``.

A d100 rolled as two d10 is recorded as the two d10 BCDice rolled (sides 10, a 0 read
as 10), in BCDice's order: every tens die, then the ones die. A table of several dice
that prints only its value (``シーン表(8)``, 2D6) is recorded as that sum (``Roll.totals``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import msgspec

from . import log_horizon as lh
from . import skills
from .common import d66_pair, is_int
from .roll import Dice, Roll, make
from .settings import UNKNOWN, Settings
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
    owner_of("")  # loads names.json
    assert _NAMES is not None
    fams = set(_NAMES.get(m.group(1), ()))
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
        block = Block(lead="", text=line, name=name, echo=value, suffix="", head=m.group(0), steps=(line[m.end():],))
        rolls.append(table(block, system, UNKNOWN, typed) or make(block, "other", problem=f"table {name!r}: dice not known",
                                                          certain=True))
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
    ok = count > 0 and mood in _NPC_MOODS and dice.face(6, list(_NPC_AGES).index(band) + 1) and \
        dice.total(count, 6, int(age) - base) and dice.face(6, _NPC_MOODS.index(mood) + 1) and \
        dice.face(3, _NPC_LIKED.index(liked) + 1)
    if not ok:
        return make(block, "other", problem="NPC表: entries that are not its dice", certain=True)
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
        rolls.append(make(b, "die", dice=dice, certain=True) if dice else
                     make(b, "other", problem="volley values not d100 totals of one ones die", certain=True))
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
    for owner, echo in _HIDDEN_CHECKS.items() if "1D20" in upper else ():
        if system in (None, owner) and echo.fullmatch(block.echo) and len(block.steps) > 1:
            return make(block, "other", problem=f"{owner} rolls a die this result does not show", certain=True)
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
        return make(block, "other", certain=True) if block.steps and not is_int(block.steps[0]) and not m else \
            make(block, "other", problem="d100 not shown", certain=True)
    return None


_EMOTION_FORM = re.compile(r"\d{1,3}-\d{1,3}")


def _emotion(block: Block) -> Roll:
    """``感情表(51-33) ＞ 遺志 - ○劣等感``: a d100 for each side, then a d2 for the ○ (1 = the first)
    (DoubleCross.rb ``roll_emotion_table``)."""
    m = re.fullmatch(r"(\d{1,3})-(\d{1,3})", block.echo or "")
    sides = block.steps[0].split(" - ") if len(block.steps) == 1 else []
    marked = [part.startswith("○") for part in sides]
    if not m or len(sides) != 2 or marked.count(True) != 1 or not all(1 <= int(v) <= 100 for v in m.groups()):
        return make(block, "other", problem="emotion table not in its form", certain=True)
    return make(block, "die", dice=((100, int(m.group(1))), (100, int(m.group(2))), (2, 1 if marked[0] else 2)),
                certain=True)


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


# --- tables ------------------------------------------------------------------------

_TABLES: dict[str, dict[str, str]] | None = None


def _tables() -> dict[str, dict[str, str]]:
    global _TABLES
    if _TABLES is None:
        _TABLES = json.loads(Path(__file__).with_name("tables.json").read_text(encoding="utf-8"))
    return _TABLES


def family(system: str | None) -> str | None:
    """``SwordWorld2.5:SimplifiedChinese`` → ``SwordWorld2_5``: the key of a system's tables."""
    return system.split(":")[0].replace(".", "_") if system else None


_PARENT = {"SwordWorld2_5": "SwordWorld2_0"}  # SwordWorld2_5.rb subclasses SwordWorld2_0 and keeps its tables

VETTED = frozenset({"ShinobiGami", "Insane", "SwordWorld2_0", "Satasupe", "LogHorizon", "Kamigakari", "DoubleCross"})
"""Systems whose table definitions and the code around them have been read against BCDice's source
and test results: all their tables are read. Elsewhere a table printed like a plain one may roll
more than it shows (a custom table class, a chained roll, ``1D6(=>1)`` in its text), so only the
tables ``vetted.json`` lists are read: those BCDice's own tests show printing the whole roll."""
_VETTED_TABLES: dict[str, frozenset[str]] | None = None


def _vetted(fam: str, name: str) -> bool:
    global _VETTED_TABLES
    if _VETTED_TABLES is None:
        raw = json.loads(Path(__file__).with_name("vetted.json").read_text(encoding="utf-8"))
        _VETTED_TABLES = {f: frozenset(names) for f, names in raw.items()}
    return fam in VETTED or name in _VETTED_TABLES.get(fam, frozenset())


# Tables a system rolls with its own code rather than a table class (so make_tables.py cannot
# see them), read from that code: Cthulhu7th.rb rolls PH and MA with roll_once(100), FCL and
# FCM with roll_once(8), BMR and BMS with roll_once(10) (their duration die is in the text);
# SwordWorld2_5.rb builds ABT and AABT from i18n as a D66GridTable (the value is the first die,
# then the second: never sorted) and, for ABT's 14 and 25, a D66ParityTable on a line of its own.
_OWN_TABLES = {
    "Cthulhu7th": {"恐怖症表": "1D100", "マニア表": "1D100", "キャスティング・ロール失敗(小)表": "1D8",
                   "キャスティング・ロール失敗(大)表": "1D8", "狂気の発作（リアルタイム）": "1D10",
                   "狂気の発作（サマリー）": "1D10",
                   # Cthulhu7th_ChineseTraditional.rb: the same code, its own names
                   "恐懼症表": "1D100", "狂熱症表": "1D100", "推骰時施法失敗擲骰表(小)": "1D8",
                   "推骰時施法失敗擲骰表(大)": "1D8", "瘋狂發作（即時型）": "1D10", "狂氣發作（總結型）": "1D10"},
    # PulpCthulhu.rb (a Cthulhu7th) rolls the same with roll_once, FCE and IT with roll_once(20)
    "PulpCthulhu": {"恐怖症表": "1D100", "マニア表": "1D100", "狂気の発作（リアルタイム）": "1D10",
                    "狂気の発作（サマリー）": "1D10", "キャスティング・ロール失敗表": "1D20", "狂気のタレント表": "1D20"},
    "SwordWorld2_5": {"アビスカース表": "D66", "追加アビスカース表": "D66", "アビスカース分類決定表": "D66",
                      "アビスカース属性決定表": "D66", "奈落诅咒表": "D66", "奈落诅咒分类决定表": "D66",
                      "奈落诅咒属性决定表": "D66"},
}


_NAMES: dict[str, list[str]] | None = None


_BY_COMMAND = frozenset({"Satasupe", "LogHorizon"})
"""Systems whose table values the typed command may shift or set: never taken for another."""


def owner_of(name: str) -> str | None:
    """The system family a table name tells (``names.json``): the one whose BCDice source holds the
    name, or, where several hold it, the first when every one defines a table of that name read
    the same way (``都市シーン表``: a 2D6 in MagicaLogia and in ShinobiGami); None otherwise."""
    global _NAMES
    if _NAMES is None:
        _NAMES = json.loads(Path(__file__).with_name("names.json").read_text(encoding="utf-8"))
    fams = _NAMES.get(name)
    if not fams or "" in fams:
        return None  # BCDice's shared code prints it: any system may
    if len(fams) == 1:
        return fams[0]
    if _BY_COMMAND & set(fams):
        return None
    kinds = {table_dice(fam, name) for fam in fams}
    return fams[0] if len(kinds) == 1 and None not in kinds else None


def owner(block: Block) -> tuple[Block, str | None]:
    """Where the export records no system: the system a result's table name tells (a name only one
    system's source holds, read whole: ``인간 부위표`` is KemonoNoMori's, ``부위표`` anyone's), and
    the block with that name; (the block, None) when the name tells nothing."""
    if not block.name:
        fam = owner_of(block.head) if block.echo is None and len(block.head) < 60 else None
        return block, fam  # "楽器種別表 ＞ 打楽器１(5) ＞ …": a table printed without a value
    owner_of("")  # loads names.json
    assert _NAMES is not None
    wide = widen(block, _NAMES.__contains__)
    fam = owner_of(wide.name)
    return (wide, fam) if fam else (block, None)


def sai_fic(name: str) -> bool:
    """A skill table head that only systems using BCDice's SaiFicSkillTable print (so the form is
    the same whichever printed it)."""
    text = skills.text_of(name)
    owner_of("")
    assert _NAMES is not None
    fams = _NAMES.get(text or "")
    return bool(fams) and set(fams) - {""} <= skills.SYSTEMS


def table_named(system: str | None, name: str) -> bool:
    """``name`` is a table the system defines, read or not (so that a longer name is never cut short)."""
    fam = family(system)
    while fam:
        if name in _tables().get(fam, {}) or name in _OWN_TABLES.get(fam, {}):
            return True
        fam = _PARENT.get(fam)
    return False


def table_dice(system: str | None, name: str) -> str | None:
    """The dice a vetted table of the recorded system rolls (``1D6``, ``2D6``, ``D66``, ``D66S`` = sorted)."""
    tables = _tables()
    fam = family(system)
    if fam in _OWN_TABLES and name in _OWN_TABLES[fam]:
        return _OWN_TABLES[fam][name]
    if fam:
        while fam:
            if name in tables.get(fam, {}):
                return tables[fam][name] if _vetted(fam, name) else None
            fam = _PARENT.get(fam)
        return None
    # Without a system a name proves nothing: another system may have a table of that name
    # that no definition here lists (KemonoNoMori's 인간 부위표 is 1D12, not a D66).
    return None


_TABLE_FACES = re.compile(r"(-?\d+)?\[(\d+(?:,\d+)*)\]")


def table(block: Block, system: str | None, st: Settings, typed: str | None = None) -> Roll | None:
    """``シーン表(7) ＞ …``, ``体力消耗表(6[6]) ＞ …``: the table's dice from its definition.

    A chained table (ShinobiGami's ``異形表(2) ＞ … ＞ 妖魔忍法表B(4) ＞ …``, a ``ChainTable``)
    shows each table it went on to as a step ``name(value)`` followed by that table's entry;
    each must be a table of the system, or nothing is read."""
    kind = table_dice(system, block.name)
    if kind is None:
        return None
    parts = [(block, kind)]
    for k in range(1, len(block.steps), 2):
        link = _LINK.fullmatch(block.steps[k])
        link_kind = table_dice(system, link.group(1)) if link else None
        if link is None or link_kind is None or k + 1 >= len(block.steps):
            return make(block, "other", problem=f"table {block.name!r} rolled further tables", certain=True)
        parts.append((Block(lead="", text=block.steps[k], name=link.group(1), echo=link.group(2), suffix="",
                            head=block.steps[k], steps=block.steps[k + 1: k + 2]), link_kind))
    dice = Dice()
    ordered = True
    for part, part_kind in parts:
        inner = _inner_dice(part.steps[0] if part.steps else "")
        if inner is None:
            return make(block, "other", problem=f"table {part.name!r} rolled dice its text does not show", certain=True)
        roll = _table_value(part, part_kind, family(system), typed)
        if roll.kind != "die":
            return roll if len(parts) == 1 else make(block, "other", problem=roll.problem, certain=True)
        dice.add(roll)
        for sides, face in inner:
            dice.face(sides, face)
        ordered = ordered and roll.ordered
    return make(block, "die", **dice.fields(), ordered=ordered, certain=True)


_LINK = re.compile(r"(\S+)\((\d+)\)")


_INNER = re.compile(r"(\d+)D(\d+)(?:＞|\(=>)(\d+)")


def _inner_dice(text: str) -> tuple[tuple[int, int], ...] | None:
    """Dice a table's text rolled on the spot (``(1D10＞7時間)``): one die each, else None (not shown)."""
    out = []
    for m in _INNER.finditer(text):
        times, sides, value = (int(g) for g in m.groups())
        if times != 1 or not 1 <= value <= sides:
            return None
        out.append((sides, value))
    return tuple(out)


def _table_value(block: Block, kind: str, fam: str | None, typed: str | None) -> Roll:
    echo = block.echo or ""
    m = re.fullmatch(r"(\d+)D(\d+)", kind)
    shown = _TABLE_FACES.fullmatch(echo)
    if shown and m:
        faces = [int(v) for v in shown.group(2).split(",")]
        times, sides = int(m.group(1)), int(m.group(2))
        if len(faces) == times and all(1 <= f <= sides for f in faces):
            return make(block, "die", dice=tuple((sides, f) for f in faces), certain=True)
        return make(block, "other", problem=f"table {block.name!r} ({kind}): faces {faces} do not fit", certain=True)
    if not is_int(echo):
        return make(block, "other", problem=f"table {block.name!r} ({kind}): value {echo!r} not read", certain=True)
    value = int(echo)
    if fam == "Satasupe":
        shift = _satasupe_shift(typed)
        if shift is None:
            return make(block, "other", problem=f"table {block.name!r}: the command, which may shift or set its value, "
                                                "is not known", certain=True)
        if shift == "=":
            return make(block, "other", certain=True)  # "CrimeIET=5" (Satasupe.rb getTableIndex): nothing rolled
        if m and shift and value in (int(m.group(1)), int(m.group(1)) * int(m.group(2))):
            return make(block, "other", problem=f"table {block.name!r}: {value} may be cut to the table's range "
                                                f"after {shift:+d}", certain=True)
        value -= shift
    if kind.startswith("D66"):
        pair = d66_pair(value)
        if pair is None:
            return make(block, "other", problem=f"table {block.name!r} (D66): {value} is no D66 value", certain=True)
        return make(block, "die", dice=((6, pair[0]), (6, pair[1])),
                    ordered=pair[0] == pair[1] or kind == "D66", certain=True)
    if m:
        dice = Dice()
        if dice.total(int(m.group(1)), int(m.group(2)), value):
            return make(block, "die", **dice.fields(), certain=True)
        return make(block, "other", problem=f"table {block.name!r} ({kind}): {value} is no value of {kind}", certain=True)
    return make(block, "other", problem=f"table {block.name!r} ({kind}): value {value} not read", certain=True)


_SATASUPE_CMD = re.compile(r"[A-Z]+\d*(?:([+=-])(\d+))?")


def _satasupe_shift(typed: str | None) -> int | str | None:
    """What a Satasupe table command does to its 2D6 (Satasupe.rb ``getTableIndex``): ``0`` or the
    ``+n``/``-n`` added, ``"="`` when ``=n`` sets the value without a roll; None when not known."""
    m = _SATASUPE_CMD.match(typed or "")
    if not m:
        return None
    if m.group(1) == "=":
        return "="
    return int(m.group(2)) * (-1 if m.group(1) == "-" else 1) if m.group(1) else 0


# --- systems' own commands --------------------------------------------------------------

_DX = re.compile(r"(\d+)DX(\d+)([+-]\d+)?(?:(?:<=|>=|<>|=|<|>)-?\d+)?", re.I)
_GROUP = re.compile(r"(\d+)\[(\d+(?:,\d+)*)\]")


def double_cross(block: Block) -> Roll | None:
    """``(10DX8+5) ＞ 10[1,2,…,10]+10[7,9]+4[4]+5 ＞ 29``: each round rerolls the dice at or above
    the critical value; every round's faces are shown, sorted (DoubleCross.rb)."""
    m = _DX.fullmatch(block.echo or "")
    if not m or not block.steps or block.name or block.suffix:
        return None
    count, crit = int(m.group(1)), int(m.group(2))
    body = block.steps[0]
    mod = m.group(3) or ""
    if mod and body.endswith(mod):
        body = body[: -len(mod)]
    if not any("[" in step for step in block.steps):
        return make(block, "other", certain=True)  # "(0DX2) ＞ 自動失敗", an error text: nothing rolled
    rounds = body.split("+")
    dice, want = [], count
    for r in rounds:
        g = _GROUP.fullmatch(r)
        if not g:
            return make(block, "other", problem="a round not in the form total[faces]", certain=True)
        faces = [int(v) for v in g.group(2).split(",")]
        hits = sum(f >= crit for f in faces)
        if len(faces) != want or not all(1 <= f <= 10 for f in faces) or faces != sorted(faces) or \
                int(g.group(1)) != (10 if hits else max(faces)):
            return make(block, "other", problem="rounds do not follow the critical value", certain=True)
        dice.extend((10, f) for f in faces)
        want = hits
    if want:
        return make(block, "other", problem="a critical round is missing", certain=True)
    return make(block, "die", dice=tuple(dice), ordered=False, certain=True)


_KEYNO = re.compile(r"KeyNo\.\d+")
_PAIRS = re.compile(r"2D:\[(\d,\d(?: \d,\d)*)\]=")
_FIXED = re.compile(r"(sf|tf)\[(\d)\]")


def sword_world_rating(block: Block) -> Roll | None:
    """``KeyNo.20c[10] ＞ 2D:[5,5 2,3]=10,5 ＞ …``: one 2D6 pair per roll of the rating table.

    ``sf[n]`` fixes the second die of every pair at n, ``tf[n]`` of the first pair only
    (SwordWorld2_0.rb): a fixed die is shown but not rolled."""
    k = _KEYNO.search(block.head)
    if not k or not block.steps:
        return None
    p = _PAIRS.match(block.steps[0])
    if not p:
        return make(block, "other", certain=True) if not any("2D:" in s for s in block.steps) else \
            make(block, "other", problem="rating dice not in pairs", certain=True)
    fixed = dict(_FIXED.findall(block.head[k.start():]))
    doubled = "gf" in block.head[k.start():]  # "gf": one die read twice (a pair of equal faces)
    dice = []
    for i, pair in enumerate(p.group(1).split(" ")):
        a, b = (int(v) for v in pair.split(","))
        if not (1 <= a <= 6 and 1 <= b <= 6) or (doubled and (a != b or fixed)):
            return make(block, "other", problem=f"pair {pair} is no 2D6 of this command", certain=True)
        if doubled:
            dice.append((6, a))
            continue
        held = fixed.get("sf") or (fixed.get("tf") if i == 0 else None)
        if held is not None and b != int(held):
            return make(block, "other", problem=f"pair {pair} does not keep the fixed die {held}", certain=True)
        dice.append((6, a))
        if held is None:
            dice.append((6, b))
    return make(block, "die", dice=tuple(dice), certain=True)


_CRIT_ECHO = re.compile(r"2D6@(\d+)(?:[+-]\d+)*(?:(?:<=|>=|<>|=|<|>)-?\d+)?", re.I)
_CRIT_STEP = re.compile(r"(\d+)((?:\[\d,\d\])+)(?:[+-]\d+)*")


def sword_world_critical(block: Block) -> Roll | None:
    """``(2D6@10+15>=30) ＞ 15[6,4][3,2]+15 ＞ 30``: 2D6 again while a pair reaches the critical value."""
    m = _CRIT_ECHO.fullmatch(block.echo or "")
    if not m or not block.steps or block.name or block.suffix:
        return None
    s = _CRIT_STEP.fullmatch(block.steps[0])
    if not s:
        return make(block, "other", certain=True) if not re.search(r"\d\[", block.steps[0]) else \
            make(block, "other", problem="pairs not shown", certain=True)
    crit = int(m.group(1))
    pairs = [tuple(int(v) for v in p.split(",")) for p in re.findall(r"\[(\d,\d)\]", s.group(2))]
    ok = all(1 <= a <= 6 and 1 <= b <= 6 for a, b in pairs) and all(a + b >= crit for a, b in pairs[:-1]) and \
        sum(a + b for a, b in pairs) == int(s.group(1)) and (pairs[-1][0] + pairs[-1][1] < crit or len(pairs) == 1 and False)
    if not ok and not (len(pairs) and sum(a + b for a, b in pairs) == int(s.group(1))):
        return make(block, "other", problem="pairs do not follow the critical value", certain=True)
    return make(block, "die", dice=tuple((6, v) for p in pairs for v in p), certain=True)


_DRU = re.compile(r"(?:Dru\[[\d,]+\]|Bib\[\d+\])[+-]?\d*(?:[+-]\d+)*(?:(?:<=|>=|<>|=|<|>)-?\d+)?", re.I)


def sword_world_pair(block: Block) -> Roll | None:
    """``(Dru[4,7,13]+10) ＞ 2D[6,5]=11``, ``(Bib[3]-1>=19) ＞ 4[1,3]-1``: one 2D6 pair shown."""
    if not _DRU.fullmatch(block.echo or "") or not block.steps or block.name:
        return None
    m = re.match(r"(?:2D\[(\d),(\d)\]=(\d+)|(\d+)\[(\d),(\d)\])", block.steps[0])
    if not m:
        return make(block, "other", problem="pair not shown", certain=True)
    a, b, total = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(5), m.group(6), m.group(4))
    if int(a) + int(b) != int(total) or not (1 <= int(a) <= 6 and 1 <= int(b) <= 6):
        return make(block, "other", problem="pair does not add up", certain=True)
    return make(block, "die", dice=((6, int(a)), (6, int(b))), certain=True)


_DM = re.compile(r"\((\d+)DM<=-?\d+\)")
_BRACKET_LIST = re.compile(r"\[(\d+(?:, \d+)*)\]")


def emoklore(block: Block) -> Roll | None:
    """``(2DA3) ＞ (2DM<=5) ＞ [8, 5] ＞ 1 ＞ 成功数1 成功``: the d10 of the count shown before the faces."""
    echo = block.echo or ""
    if not re.search(r"\d*D[MA]", echo, re.I) or block.name:
        return None
    count = None
    m = re.fullmatch(r"(\d+)DM<=-?\d+", echo, re.I)
    if m:
        count = int(m.group(1))
    for i, step in enumerate(block.steps):
        dm = _DM.fullmatch(step)
        if dm:
            count = int(dm.group(1))
            continue
        faces = _BRACKET_LIST.fullmatch(step)
        if faces and count is not None:
            values = [int(v) for v in faces.group(1).split(", ")]
            if len(values) != count or not all(1 <= v <= 10 for v in values):
                return make(block, "other", problem="d10 faces do not match the count", certain=True)
            return make(block, "die", dice=tuple((10, v) for v in values), certain=True)
    if any("ダイス数が0以下" in s for s in block.steps):
        return make(block, "other", certain=True)
    return None


_SG = re.compile(r"(\d*)SG([+-]\d+)*(?:@\d+)?(?:#\d+)?(?:(?:<=|>=|<>|=|<|>)-?\d+)?", re.I)


def shinobigami(block: Block) -> Roll | None:
    """``(SG@12#2) ＞ 11[5,6]``, ``(4SG+1@12#2>=7) ＞ [2,3,4,5] ＞ 9[4,5]+1``: all dice, sorted; the top two count."""
    m = _SG.fullmatch(block.echo or "")
    if not m or not block.steps or block.name:
        return None
    n = int(m.group(1) or 2)
    steps = list(block.steps)
    every = None
    if steps[0].startswith("["):
        every = [int(v) for v in steps.pop(0)[1:-1].split(",")] if re.fullmatch(r"\[\d+(?:,\d+)*\]", steps[0]) else None
    g = _GROUP.match(steps[0]) if steps else None
    if not g:
        return make(block, "other", problem="the two dice are not shown", certain=True)
    two = [int(v) for v in g.group(2).split(",")]
    faces = every if every is not None else two
    if len(faces) != n or not all(1 <= f <= 6 for f in faces) or sorted(faces)[-2:] != sorted(two) or \
            sum(two) != int(g.group(1)):
        return make(block, "other", problem="dice do not match the command", certain=True)
    return make(block, "die", dice=tuple((6, f) for f in faces), ordered=not (len(set(faces)) > 1), certain=True)


_LH = re.compile(r"(\d+)LH([+-]\d+)*(?:(?:<=|>=|<>|=|<|>)-?\d+)?", re.I)
_TRS = re.compile(r"2D6\+\d+\*5(?:[+-]\d+)*", re.I)


def log_horizon(block: Block) -> Roll | None:
    """``(3LH+3>=10) ＞ 7[5,1,1]+3 ＞ 10``, ``(2D6+1*5+2) ＞ 2[1,1]+7``: the d6 shown in brackets."""
    echo = block.echo or ""
    m = _LH.fullmatch(echo)
    count = int(m.group(1)) if m else 2 if _TRS.fullmatch(echo) else None
    if count is None or not block.steps or block.name:
        return None
    g = _GROUP.match(block.steps[0])
    faces = [int(v) for v in g.group(2).split(",")] if g else []
    if not g or len(faces) != count or sum(faces) != int(g.group(1)) or not all(1 <= f <= 6 for f in faces):
        return make(block, "other", problem="d6 faces not shown for the command", certain=True)
    return make(block, "die", dice=tuple((6, f) for f in faces), certain=True)


_SATA_HEAD = re.compile(r"【難易度\d+、ファンブル率\d+、必殺([^】]*)】")
_SATA_ROUND = re.compile(r"([01])\[([1-6]),([1-6])\](『必殺！』)?")
_SATA_NOTICE = re.compile(r"【\d+R>=\d+[^】]*】")
_SATA_NOTICES = ("あらゆる難易度は5未満にはならないため、難易度は5になる！", "難易度が12を超えたため、超過分、ファンブル率が上昇！")


def _after_command(block: Block, at: int) -> bool:
    """The result starts at ``at`` of the head, after nothing or one word (the command CCFOLIA's
    classic page prints before it)."""
    return " " not in block.head[:at].strip()


def satasupe(block: Block) -> Roll | None:
    """``【難易度7、ファンブル率1、必殺10】 ＞ 1[5,6]『必殺！』+0[3,3] ＞ 成功度1``: one 2D6 per round,
    as rolled, marked where it reached the critical value (Satasupe.rb ``check_roll_loop``);
    ``【5R>=3】 ＞ あらゆる難易度は…`` is a notice on its own line, no roll."""
    notice = _SATA_NOTICE.search(block.head)
    if notice and _after_command(block, notice.start()) and block.steps and block.steps[0] in _SATA_NOTICES:
        return make(block, "other", certain=True)
    head = _SATA_HEAD.search(block.head)
    if not head or not block.steps:
        return None
    critical = int(head.group(1)) if head.group(1).isdigit() else 13
    rounds = block.steps[0].split("+")
    dice = []
    for r in rounds:
        m = _SATA_ROUND.fullmatch(r)
        if not m:
            return make(block, "other", certain=True) if "ファンブル率" in block.steps[0] else \
                make(block, "other", problem="rounds not in the form n[a,b]", certain=True)
        a, b = int(m.group(2)), int(m.group(3))
        if bool(m.group(4)) != (a + b >= critical):
            return make(block, "other", problem="a critical mark that does not follow the dice", certain=True)
        dice += [(6, a), (6, b)]
    return make(block, "die", dice=tuple(dice), certain=True)


_MATERIAL = frozenset({"獲得素材チャート", "획득 소재 차트"})  # i18n/Kamigakari/{ja_jp,ko_kr}.yml MT.name
_NUMBERS = re.compile(r"\d+(?:,\d+)*")


def kamigakari_material(block: Block) -> Roll | None:
    """``獲得素材チャート(63,6,1,16) ＞ …`` (Kamigakari.rb ``MT``): every value it rolled, in order.

    A D66 (the material, tens die first), a d6 (common below 6, rare at 6); common: a
    D66 (the effect) and, when that effect has a power, a d6; rare: a d6 (the effect)
    and, for the effects 1–5 (an attribute given or halved), a D66. Its D66 are never sorted.
    """
    if block.name not in _MATERIAL or not _NUMBERS.fullmatch(block.echo or ""):
        return None
    values = (block.echo or "").split(",")
    dice, ok = Dice(), 3 <= len(values) <= 4

    def d66(v: str) -> bool:
        return len(v) == 2 and dice.face(6, int(v[0])) and dice.face(6, int(v[1]))

    def d6(v: str) -> bool:
        return len(v) == 1 and dice.face(6, int(v))

    if ok:
        kind = values[1]
        ok = d66(values[0]) and d6(kind)
        if ok and kind != "6":
            ok = d66(values[2]) and (len(values) == 3 or d6(values[3]))
        elif ok:
            ok = d6(values[2]) and (len(values) == 4) == (values[2] != "6") and (len(values) == 3 or d66(values[3]))
    if not ok:
        return make(block, "other", problem=f"{block.name}: {block.echo} is not the chart's dice", certain=True)
    return make(block, "die", **dice.fields(), certain=True)


_NUMBERING = "暫定整理番号作成"  # i18n/Insane/ja_jp.yml IRN.name


def insane_numbering(block: Block) -> Roll | None:
    """``暫定整理番号作成(5,15,36,25,46) ＞ 5TKX`` (Insane.rb ``IRN``): a d6 that sets how many D66
    follow (1–4: n+5, 5: 4, 6: 3), each D66 shown sorted ascending."""
    if block.name != _NUMBERING or not _NUMBERS.fullmatch(block.echo or ""):
        return None
    first, *rest = (block.echo or "").split(",")
    dice = Dice()
    ok = len(first) == 1 and dice.face(6, int(first)) and len(rest) == {5: 4, 6: 3}.get(int(first), int(first) + 5)
    for v in rest if ok else ():
        ok = ok and len(v) == 2 and v[0] <= v[1] and dice.face(6, int(v[0])) and dice.face(6, int(v[1]))
    if not ok:
        return make(block, "other", problem=f"{_NUMBERING}: {block.echo} is not its dice", certain=True)
    return make(block, "die", **dice.fields(), ordered=all(v[0] == v[1] for v in rest), certain=True)


OWN_NAMES = _MATERIAL | {_NUMBERING, "バッドエンド表"}
"""Names this module reads in its own code (``make_tables.py`` finds which systems' source holds each)."""

_SEIGOU = re.compile(r"〔性業値〕-?\d+、「修正値」(-?\d+)")
_SEIGOU_DICE = re.compile(r"ダイス結果：（(\d+)）")


def satasupe_seigou(block: Block) -> Roll | None:
    """``〔性業値〕7、「修正値」0 ＞ ダイス結果：（7） ＞ 7＋（0）＝7 ＞ 「迷」``: the sum of a 2D6 (Satasupe.rb
    ``check_seigou``; 2 and 12 prove their faces)."""
    head = _SEIGOU.search(block.head)
    if not head or head.end() != len(block.head) or not _after_command(block, head.start()):
        return None
    block = msgspec.structs.replace(block, lead=block.head[: head.start()].strip(), head=head.group(),
                                    text=block.text[head.start():])
    shown = _SEIGOU_DICE.fullmatch(block.steps[0]) if len(block.steps) >= 3 else None
    dice = Dice()
    mod = int(head.group(1))
    if not shown or block.steps[1] != f"{shown.group(1)}＋（{mod}）＝{int(shown.group(1)) + mod}" or \
            not dice.total(2, 6, int(shown.group(1))):
        return make(block, "other", problem="the 2D6 of 性業値 not shown", certain=True)
    return make(block, "die", **dice.fields(), certain=True)


_OWN = ((("DX",), double_cross), (("KeyNo.",), sword_world_rating), (("@",), sword_world_critical),
        (("DRU[", "BIB["), sword_world_pair), (("DM", "DA"), emoklore), (("SG",), shinobigami),
        (("LH", "*5"), log_horizon), (("【難易度", "R>="), satasupe), (("〔性業値〕",), satasupe_seigou))
"""Forms no other system prints the same way: tried whatever the system (a CCFOLIA log names none)."""
_ANY_MARK = re.compile("|".join(re.escape(m) for marks, _ in _OWN for m in marks))
