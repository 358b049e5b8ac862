"""BCDice's tables: which dice a table of a system rolls, which tables are read, which system a name tells.

Source: the table definitions of bcdice/BCDice at commit 98145305 as ``make_tables.py``
writes them (``tables.json``: each table's dice; ``vetted.json``: the tables BCDice's own
tests show printing their whole roll; ``names.json``: which systems' source holds each
name), and the tables some systems roll in their own code (``OWN_TABLES``, read from that
code). A table result shows its value (``シーン表(7)``); these say which dice gave it: a
1Dn or D66 value is its dice, a value of several dice is their sum (``Roll.totals``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ...i18n import Msg
from . import skills
from .common import d66_pair, is_int
from .roll import Dice, Roll, make
from .settings import Settings
from .text import Block, widen

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
OWN_TABLES = {
    "Cthulhu7th": {
        "恐怖症表": "1D100",
        "マニア表": "1D100",
        "キャスティング・ロール失敗(小)表": "1D8",
        "キャスティング・ロール失敗(大)表": "1D8",
        "狂気の発作（リアルタイム）": "1D10",
        "狂気の発作（サマリー）": "1D10",
        # Cthulhu7th_ChineseTraditional.rb: the same code, its own names
        "恐懼症表": "1D100",
        "狂熱症表": "1D100",
        "推骰時施法失敗擲骰表(小)": "1D8",
        "推骰時施法失敗擲骰表(大)": "1D8",
        "瘋狂發作（即時型）": "1D10",
        "狂氣發作（總結型）": "1D10",
    },
    # PulpCthulhu.rb (a Cthulhu7th) rolls the same with roll_once, FCE and IT with roll_once(20)
    "PulpCthulhu": {
        "恐怖症表": "1D100",
        "マニア表": "1D100",
        "狂気の発作（リアルタイム）": "1D10",
        "狂気の発作（サマリー）": "1D10",
        "キャスティング・ロール失敗表": "1D20",
        "狂気のタレント表": "1D20",
    },
    "SwordWorld2_5": {
        "アビスカース表": "D66",
        "追加アビスカース表": "D66",
        "アビスカース分類決定表": "D66",
        "アビスカース属性決定表": "D66",
        "奈落诅咒表": "D66",
        "奈落诅咒分类决定表": "D66",
        "奈落诅咒属性决定表": "D66",
    },
}


_NAMES: dict[str, list[str]] | None = None


def holders(name: str) -> list[str]:
    """The system families whose BCDice source holds this name (``names.json``; ``""``: shared code)."""
    global _NAMES
    if _NAMES is None:
        _NAMES = json.loads(Path(__file__).with_name("names.json").read_text(encoding="utf-8"))
    return _NAMES.get(name, [])


_BY_COMMAND = frozenset({"Satasupe", "LogHorizon"})
"""Systems whose table values the typed command may shift or set: never taken for another."""


def owner_of(name: str) -> str | None:
    """The system family a table name tells (``names.json``): the one whose BCDice source holds the
    name, or, where several hold it, the first when every one defines a table of that name read
    the same way (``都市シーン表``: a 2D6 in MagicaLogia and in ShinobiGami); None otherwise."""
    fams = holders(name)
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
    wide = widen(block, lambda name: bool(holders(name)))
    fam = owner_of(wide.name)
    return (wide, fam) if fam else (block, None)


def sai_fic(name: str) -> bool:
    """A skill table head that only systems using BCDice's SaiFicSkillTable print (so the form is
    the same whichever printed it)."""
    fams = holders(skills.text_of(name) or "")
    return bool(fams) and set(fams) - {""} <= skills.SYSTEMS


def table_named(system: str | None, name: str) -> bool:
    """``name`` is a table the system defines, read or not (so that a longer name is never cut short)."""
    fam = family(system)
    while fam:
        if name in _tables().get(fam, {}) or name in OWN_TABLES.get(fam, {}):
            return True
        fam = _PARENT.get(fam)
    return False


def defined_dice(system: str | None, name: str) -> str | None:
    """The dice BCDice's definition of the system's table ``name`` rolls, vetted or not (``tables.json``,
    ``OWN_TABLES``); None where the system defines no such table."""
    fam = family(system)
    if fam in OWN_TABLES and name in OWN_TABLES[fam]:
        return OWN_TABLES[fam][name]
    while fam:
        if name in _tables().get(fam, {}):
            return _tables()[fam][name]
        fam = _PARENT.get(fam)
    return None


def table_dice(system: str | None, name: str) -> str | None:
    """The dice a vetted table of the recorded system rolls (``1D6``, ``2D6``, ``D66``, ``D66S`` = sorted)."""
    tables = _tables()
    fam = family(system)
    if fam in OWN_TABLES and name in OWN_TABLES[fam]:
        return OWN_TABLES[fam][name]
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
            return make(block, "other", problem=Msg("bcdice.table_further", table=repr(block.name)), certain=True)
        parts.append(
            (
                Block(
                    lead="",
                    text=block.steps[k],
                    name=link.group(1),
                    echo=link.group(2),
                    suffix="",
                    head=block.steps[k],
                    steps=block.steps[k + 1 : k + 2],
                ),
                link_kind,
            )
        )
    dice = Dice()
    ordered = True
    for part, part_kind in parts:
        inner = _inner_dice(part.steps[0] if part.steps else "")
        if inner is None:
            return make(block, "other", problem=Msg("bcdice.table_hides", table=repr(part.name)), certain=True)
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
        return make(
            block,
            "other",
            problem=Msg("bcdice.table_faces_misfit", table=repr(block.name), dice=kind, faces=str(faces)),
            certain=True,
        )
    if not is_int(echo):
        return make(
            block,
            "other",
            problem=Msg("bcdice.table_value_unread", table=repr(block.name), dice=kind, value=repr(echo)),
            certain=True,
        )
    value = int(echo)
    if fam == "Satasupe":
        shift = _satasupe_shift(typed)
        if shift is None:
            return make(
                block,
                "other",
                problem=Msg("bcdice.table_command_unknown", table=repr(block.name)),
                certain=True,
            )
        if shift == "=":
            return make(block, "other", certain=True)  # "CrimeIET=5" (Satasupe.rb getTableIndex): nothing rolled
        if m and shift and value in (int(m.group(1)), int(m.group(1)) * int(m.group(2))):
            return make(
                block,
                "other",
                problem=Msg("bcdice.table_cut", table=repr(block.name), value=value, shift=f"{shift:+d}"),
                certain=True,
            )
        value -= shift
    if kind.startswith("D66"):
        pair = d66_pair(value)
        if pair is None:
            return make(
                block, "other", problem=Msg("bcdice.table_no_d66", table=repr(block.name), value=value), certain=True
            )
        return make(
            block, "die", dice=((6, pair[0]), (6, pair[1])), ordered=pair[0] == pair[1] or kind == "D66", certain=True
        )
    if m:
        dice = Dice()
        if dice.total(int(m.group(1)), int(m.group(2)), value):
            return make(block, "die", **dice.fields(), certain=True)
        return make(
            block,
            "other",
            problem=Msg("bcdice.table_no_value", table=repr(block.name), dice=kind, value=value),
            certain=True,
        )
    return make(
        block,
        "other",
        problem=Msg("bcdice.table_value_unread", table=repr(block.name), dice=kind, value=value),
        certain=True,
    )


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
