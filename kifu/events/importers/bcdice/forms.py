"""Result forms of particular game systems' own commands, each read wherever its form is found.

Source: bcdice/BCDice ``lib/bcdice/game_system/`` at commit 98145305: ``DoubleCross.rb``
(``DX``), ``SwordWorld2_0.rb`` and ``SwordWorld2_5.rb`` (ratings, ``2D6@``, ``Dru``/``Bib``),
``Emoklore.rb`` (``DM``/``DA``), ``ShinobiGami.rb`` (``SG``), ``LogHorizon.rb`` (``LH``,
``TRS``), ``Satasupe.rb`` (``R``, ``SR``), and where the system is known ``Kamigakari.rb``
(``MT``) and ``Insane.rb`` (``IRN``). Each reader checks what it reads against the
command's rules and reports what it cannot prove.
"""

from __future__ import annotations

import re

import msgspec

from ...i18n import Msg
from .roll import Dice, Roll, make
from .text import Block

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
            return make(block, "other", problem=Msg("bcdice.round_form"), certain=True)
        faces = [int(v) for v in g.group(2).split(",")]
        hits = sum(f >= crit for f in faces)
        if (
            len(faces) != want
            or not all(1 <= f <= 10 for f in faces)
            or faces != sorted(faces)
            or int(g.group(1)) != (10 if hits else max(faces))
        ):
            return make(block, "other", problem=Msg("bcdice.rounds_off_critical"), certain=True)
        dice.extend((10, f) for f in faces)
        want = hits
    if want:
        return make(block, "other", problem=Msg("bcdice.critical_round_missing"), certain=True)
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
        return (
            make(block, "other", certain=True)
            if not any("2D:" in s for s in block.steps)
            else make(block, "other", problem=Msg("bcdice.rating_not_pairs"), certain=True)
        )
    fixed = dict(_FIXED.findall(block.head[k.start() :]))
    doubled = "gf" in block.head[k.start() :]  # "gf": one die read twice (a pair of equal faces)
    dice = []
    for i, pair in enumerate(p.group(1).split(" ")):
        a, b = (int(v) for v in pair.split(","))
        if not (1 <= a <= 6 and 1 <= b <= 6) or (doubled and (a != b or fixed)):
            return make(block, "other", problem=Msg("bcdice.pair_not_command", pair=pair), certain=True)
        if doubled:
            dice.append((6, a))
            continue
        held = fixed.get("sf") or (fixed.get("tf") if i == 0 else None)
        if held is not None and b != int(held):
            return make(block, "other", problem=Msg("bcdice.pair_not_fixed", pair=pair, held=held), certain=True)
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
        return (
            make(block, "other", certain=True)
            if not re.search(r"\d\[", block.steps[0])
            else make(block, "other", problem=Msg("bcdice.pairs_hidden"), certain=True)
        )
    crit = int(m.group(1))
    pairs = [tuple(int(v) for v in p.split(",")) for p in re.findall(r"\[(\d,\d)\]", s.group(2))]
    ok = (
        all(1 <= a <= 6 and 1 <= b <= 6 for a, b in pairs)
        and all(a + b >= crit for a, b in pairs[:-1])
        and sum(a + b for a, b in pairs) == int(s.group(1))
        and (pairs[-1][0] + pairs[-1][1] < crit or len(pairs) == 1 and False)
    )
    if not ok and not (len(pairs) and sum(a + b for a, b in pairs) == int(s.group(1))):
        return make(block, "other", problem=Msg("bcdice.pairs_off_critical"), certain=True)
    return make(block, "die", dice=tuple((6, v) for p in pairs for v in p), certain=True)


_DRU = re.compile(r"(?:Dru\[[\d,]+\]|Bib\[\d+\])[+-]?\d*(?:[+-]\d+)*(?:(?:<=|>=|<>|=|<|>)-?\d+)?", re.I)


def sword_world_pair(block: Block) -> Roll | None:
    """``(Dru[4,7,13]+10) ＞ 2D[6,5]=11``, ``(Bib[3]-1>=19) ＞ 4[1,3]-1``: one 2D6 pair shown."""
    if not _DRU.fullmatch(block.echo or "") or not block.steps or block.name:
        return None
    m = re.match(r"(?:2D\[(\d),(\d)\]=(\d+)|(\d+)\[(\d),(\d)\])", block.steps[0])
    if not m:
        return make(block, "other", problem=Msg("bcdice.pair_hidden"), certain=True)
    a, b, total = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(5), m.group(6), m.group(4))
    if int(a) + int(b) != int(total) or not (1 <= int(a) <= 6 and 1 <= int(b) <= 6):
        return make(block, "other", problem=Msg("bcdice.pair_sum_off"), certain=True)
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
    for step in block.steps:
        dm = _DM.fullmatch(step)
        if dm:
            count = int(dm.group(1))
            continue
        faces = _BRACKET_LIST.fullmatch(step)
        if faces and count is not None:
            values = [int(v) for v in faces.group(1).split(", ")]
            if len(values) != count or not all(1 <= v <= 10 for v in values):
                return make(block, "other", problem=Msg("bcdice.d10_count_off"), certain=True)
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
        return make(block, "other", problem=Msg("bcdice.two_dice_hidden"), certain=True)
    two = [int(v) for v in g.group(2).split(",")]
    faces = every if every is not None else two
    if (
        len(faces) != n
        or not all(1 <= f <= 6 for f in faces)
        or sorted(faces)[-2:] != sorted(two)
        or sum(two) != int(g.group(1))
    ):
        return make(block, "other", problem=Msg("bcdice.dice_off_command"), certain=True)
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
        return make(block, "other", problem=Msg("bcdice.d6_faces_hidden"), certain=True)
    return make(block, "die", dice=tuple((6, f) for f in faces), certain=True)


_SATA_HEAD = re.compile(r"【難易度\d+、ファンブル率\d+、必殺([^】]*)】")
_SATA_ROUND = re.compile(r"([01])\[([1-6]),([1-6])\](『必殺！』)?")
_SATA_NOTICE = re.compile(r"【\d+R>=\d+[^】]*】")
_SATA_NOTICES = (
    "あらゆる難易度は5未満にはならないため、難易度は5になる！",
    "難易度が12を超えたため、超過分、ファンブル率が上昇！",
)


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
            return (
                make(block, "other", certain=True)
                if "ファンブル率" in block.steps[0]
                else make(block, "other", problem=Msg("bcdice.rounds_form"), certain=True)
            )
        a, b = int(m.group(2)), int(m.group(3))
        if bool(m.group(4)) != (a + b >= critical):
            return make(block, "other", problem=Msg("bcdice.critical_mark_off"), certain=True)
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
        return make(
            block, "other", problem=Msg("bcdice.chart_dice_off", name=block.name, echo=block.echo), certain=True
        )
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
        return make(
            block, "other", problem=Msg("bcdice.numbering_dice_off", name=_NUMBERING, echo=block.echo), certain=True
        )
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
    block = msgspec.structs.replace(
        block, lead=block.head[: head.start()].strip(), head=head.group(), text=block.text[head.start() :]
    )
    shown = _SEIGOU_DICE.fullmatch(block.steps[0]) if len(block.steps) >= 3 else None
    dice = Dice()
    mod = int(head.group(1))
    if (
        not shown
        or block.steps[1] != f"{shown.group(1)}＋（{mod}）＝{int(shown.group(1)) + mod}"
        or not dice.total(2, 6, int(shown.group(1)))
    ):
        return make(block, "other", problem=Msg("bcdice.seigou_hidden"), certain=True)
    return make(block, "die", **dice.fields(), certain=True)


_OWN = (
    (("DX",), double_cross),
    (("KeyNo.",), sword_world_rating),
    (("@",), sword_world_critical),
    (("DRU[", "BIB["), sword_world_pair),
    (("DM", "DA"), emoklore),
    (("SG",), shinobigami),
    (("LH", "*5"), log_horizon),
    (("【難易度", "R>="), satasupe),
    (("〔性業値〕",), satasupe_seigou),
)
"""Forms no other system prints the same way: tried whatever the system (a CCFOLIA log names none)."""
_ANY_MARK = re.compile("|".join(re.escape(m) for marks, _ in _OWN for m in marks))
