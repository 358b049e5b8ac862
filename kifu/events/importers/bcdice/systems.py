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

import json
import re
from pathlib import Path

from .common import d66_pair, is_int
from .roll import Roll, make
from .settings import UNKNOWN, Settings
from .text import Block

# Cthulhu 7th's bonus/penalty suffix in the Japanese, Korean and Chinese (Traditional) systems.
_BONUS = re.compile(r"(?:ボーナス・ペナルティダイス|보너스, 패널티 주사위|獎勵、懲罰骰値)\[(-?\d+)\]")
_CC_ECHO = re.compile(r"1D100(?:<=-?\d+)?", re.I)
_BROKEN = re.compile(r"(?:故障ナンバー|고장넘버|故障值|故障値)\[-?\d+\]")
_CBR_ECHO = re.compile(r"1d100<=-?\d+,-?\d+", re.I)
_RES_ECHO = re.compile(r"1d100<=-?\d+")  # lower-case d: Cthulhu's RES/RESB echo
_CBR_STEP = re.compile(r"(\d+)\[[^\[\]]*\]")
_VOLLEY = re.compile(r"(?<!\d)\d{1,4}(?:回目|번째|次): ?＞ ")  # starts where a number starts: linear


_COLON = re.compile(r"([^:\n]{1,60}):(-?\d{1,3}):")


def _colon_tables(text: str, system: str) -> tuple[str, list[Roll]] | None:
    """Satasupe prints tables as ``タグ決定表:53:ヒマツブシ(イ)`` (Satasupe.rb), one per line."""
    rolls = []
    for line in text.splitlines():
        m = _COLON.match(line.strip())
        if not m:
            continue
        name, value = m.group(1), m.group(2)
        block = Block(lead="", text=line.strip(), name=name, echo=value, suffix="", head=m.group(0), steps=(line[m.end():],))
        rolls.append(table(block, system, UNKNOWN) or make(block, "other", problem=f"table {name!r}: dice not known",
                                                          certain=True))
    return ("", rolls) if rolls else None


_GROWTH = re.compile(r"\[([1-6]),([1-6])\]->\([^()]*\)")


def _growth(text: str) -> tuple[str, list[Roll]] | None:
    """SwordWorld 2.x ``gr3``: ``[1,2]->(器用度 or 敏捷度) | [6,5]->(…)``, a 2D6 per growth (SwordWorld2_0.rb)."""
    parts = text.strip().split(" | ")
    found = [_GROWTH.fullmatch(p) for p in parts]
    if not all(found):
        return None
    block = Block(lead="", text=text.strip(), name="", echo=None, suffix="", head="", steps=())
    dice = tuple((6, int(v)) for m in found if m for v in m.groups())
    return "", [make(block, "die", dice=dice, certain=True)]


def read_message(text: str, system: str | None) -> tuple[str, list[Roll]] | None:
    """Results that span lines of one message (Cthulhu 7th's ``FAR``) or print no ``＞``
    (Satasupe's tables), else None."""
    if system and family(system).startswith("SwordWorld2") and "]->(" in text:
        return _growth(text)
    if system and family(system) == "Satasupe" and ":" in text:
        found = _colon_tables(text, system)
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
    upper = (block.echo or "").upper()
    if _ANY_MARK.search(upper) or _ANY_MARK.search(block.head):
        for marks, reader in _OWN:
            # each reader only where its command's letters are (a plain 2D6 tries none of them)
            if any(m in upper or m in block.head for m in marks):
                roll = reader(block)
                if roll is not None:
                    return roll
    if block.echo is None:
        return None
    if family(system) == "DoubleCross" and block.name == "感情表":
        return _emotion(block)
    if block.name and block.name not in ("c", "C"):
        return table(block, system, st)
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
"""Systems whose table definitions have been checked against BCDice's test results. Elsewhere a
table printed like a plain one may roll more than it shows (a custom table class, a chained
roll, ``1D6(=>1)`` in its text), so its value is not read as a face."""


# Tables a system rolls with its own code rather than a table class (so make_tables.py cannot
# see them), read from that code: Cthulhu7th.rb rolls PH and MA with roll_once(100), FCL and
# FCM with roll_once(8), BMR and BMS with roll_once(10) (their duration die is in the text).
_OWN_TABLES = {
    "Cthulhu7th": {"恐怖症表": "1D100", "マニア表": "1D100", "キャスティング・ロール失敗(小)表": "1D8",
                   "キャスティング・ロール失敗(大)表": "1D8", "狂気の発作（リアルタイム）": "1D10",
                   "狂気の発作（サマリー）": "1D10"},
}


def table_dice(system: str | None, name: str) -> str | None:
    """The dice a vetted table of the recorded system rolls (``1D6``, ``2D6``, ``D66``, ``D66S`` = sorted)."""
    tables = _tables()
    fam = family(system)
    if fam in _OWN_TABLES and name in _OWN_TABLES[fam]:
        return _OWN_TABLES[fam][name]
    if fam:
        while fam:
            if name in tables.get(fam, {}):
                return tables[fam][name] if fam in VETTED else None
            fam = _PARENT.get(fam)
        return None
    # Without a system a name proves nothing: another system may have a table of that name
    # that no definition here lists (KemonoNoMori's 인간 부위표 is 1D12, not a D66).
    return None


_TABLE_FACES = re.compile(r"(-?\d+)?\[(\d+(?:,\d+)*)\]")


def table(block: Block, system: str | None, st: Settings) -> Roll | None:
    """``シーン表(7) ＞ …``, ``体力消耗表(6[6]) ＞ …``: the table's dice from its definition."""
    kind = table_dice(system, block.name)
    if kind is None:
        return None
    if len(block.steps) != 1:
        # "異形表(2) ＞ … ＞ 妖魔忍法表・凶身(5) ＞ …": a chained table rolled again; its dice are not all shown
        return make(block, "other", problem=f"table {block.name!r} rolled further tables", certain=True)
    inner = _inner_dice(block.steps[0])
    if inner is None:
        return make(block, "other", problem=f"table {block.name!r} rolled dice its text does not show", certain=True)
    roll = _table_value(block, kind)
    if inner and roll.kind == "die":
        return make(block, "die", dice=roll.dice + inner, ordered=roll.ordered, certain=True)
    return roll


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


def _table_value(block: Block, kind: str) -> Roll:
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
    if kind.startswith("D66"):
        pair = d66_pair(value)
        if pair is None:
            return make(block, "other", problem=f"table {block.name!r} (D66): {value} is no D66 value", certain=True)
        return make(block, "die", dice=((6, pair[0]), (6, pair[1])),
                    ordered=pair[0] == pair[1] or kind == "D66", certain=True)
    if m and m.group(1) == "1":
        sides = int(m.group(2))
        if 1 <= value <= sides:
            return make(block, "die", dice=((sides, value),), certain=True)
        return make(block, "other", problem=f"table {block.name!r} (1D{sides}): {value} is no face", certain=True)
    return make(block, "other", problem=f"table {block.name!r} ({kind}): only the total {value} is shown",
                certain=True)


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


_SATA_HEAD = re.compile(r"【難易度\d+、ファンブル率\d+、必殺[^】]*】")
_SATA_ROUND = re.compile(r"([01])\[([1-6]),([1-6])\]")


def satasupe(block: Block) -> Roll | None:
    """``【難易度7、ファンブル率1、必殺なし】 ＞ 1[5,6]+0[3,3] ＞ 成功度1``: one 2D6 per round, as rolled."""
    if not _SATA_HEAD.search(block.head) or not block.steps:
        return None
    rounds = block.steps[0].split("+")
    dice = []
    for r in rounds:
        m = _SATA_ROUND.fullmatch(r)
        if not m:
            return make(block, "other", certain=True) if "ファンブル率" in block.steps[0] else \
                make(block, "other", problem="rounds not in the form n[a,b]", certain=True)
        dice += [(6, int(m.group(2))), (6, int(m.group(3)))]
    return make(block, "die", dice=tuple(dice), certain=True)


_OWN = ((("DX",), double_cross), (("KeyNo.",), sword_world_rating), (("@",), sword_world_critical),
        (("DRU[", "BIB["), sword_world_pair), (("DM", "DA"), emoklore), (("SG",), shinobigami),
        (("LH", "*5"), log_horizon), (("【難易度",), satasupe))
"""Forms no other system prints the same way: tried whatever the system (a CCFOLIA log names none)."""
_ANY_MARK = re.compile("|".join(re.escape(m) for marks, _ in _OWN for m in marks))
