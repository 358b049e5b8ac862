"""BCDice result strings (online-logs.md §3): a table of inputs and what must be read."""

from __future__ import annotations

import pytest

from kifu.events.importers import bcdice

# (message text, lead text, [(kind, sides, values, total, outcome, pick, repeat)])
CASES = [
    ("(1D2) ＞ 2", "", [("die", 2, (2,), 2, None, None, None)]),
    ("(1D6) ＞ 4", "", [("die", 6, (4,), 4, None, None, None)]),
    ("(2D6) ＞ 9[6,3] ＞ 9", "", [("die", 6, (6, 3), 9, None, None, None)]),
    ("(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功", "", [("die", 6, (3, 4), 7, "成功", None, None)]),
    ("(2D6>=7) ＞ 2[1,1] ＞ 2 ＞ ファンブル", "", [("die", 6, (1, 1), 2, "ファンブル", None, None)]),
    ("(1D6+3/2U) ＞ 1[1]+3/2U ＞ 3", "", [("die", 6, (1,), 3, None, None, None)]),
    ("(1U6[3]) ＞ 5[3,2] ＞ 5/5(最大/合計)", "", [("die", 6, (3, 2), None, "5/5(最大/合計)", None, None)]),
    ("CHOICE[表,裏] (choice[表,裏]) ＞ 裏", "CHOICE[表,裏]", [("choice", 2, (2,), None, "裏", "裏", None)]),
    ("Schoice[自分,相手] (choice[自分,相手]) ＞ 自分", "Schoice[自分,相手]",
     [("choice", 2, (1,), None, "自分", "自分", None)]),
    ("1d2<=1 (1D2<=1) ＞ 1 ＞ 成功", "1d2<=1", [("die", 2, (1,), 1, "成功", None, None)]),
    ("c(1+4*3/2) ＞ 7", "", [("other", 0, (), 7, None, None, None)]),
    ("飲み物表(6) ＞ 選ばれし者の知的飲料", "", [("other", 0, (), None, "選ばれし者の知的飲料", None, None)]),
    # nested ＞ inside table text stays in one step; the echo anchors on the first ") ＞"
    ("BMR 狂気表(6) ＞ 恐怖で動けない(1D10＞8ラウンド)", "BMR", [("other", 0, (), None, "恐怖で動けない(1D10＞8ラウンド)", None, None)]),
    # repeat blocks: BCDice's own form and Udonarium's inline form
    ("x2 1d6\n#1\n(1D6) ＞ 2\n\n#2\n(1D6) ＞ 5", "x2 1d6",
     [("die", 6, (2,), 2, None, None, 1), ("die", 6, (5,), 5, None, None, 2)]),
    ("#1 (1D6) ＞ 3\n#2 (1D6) ＞ 5", "", [("die", 6, (3,), 3, None, None, 1), ("die", 6, (5,), 5, None, None, 2)]),
    ("#1 (1D6) ＞ 3 #2 (1D6) ＞ 5", "", [("die", 6, (3,), 3, None, None, 1), ("die", 6, (5,), 5, None, None, 2)]),
    # Discord bot: a roller line, then system-prefixed result lines
    ("＞ユキ\n#1\nDiceBot: (2D6) ＞ 7[2,5] ＞ 7\n\n#2\nDiceBot: (2D6) ＞ 6[5,1] ＞ 6", "＞ユキ",
     [("die", 6, (2, 5), 7, None, None, 1), ("die", 6, (5, 1), 6, None, None, 2)]),
    ("＞ミナト\nCthulhu7th: (1D100<=50) ＞ 23 ＞ レギュラー成功", "＞ミナト",
     [("die", 100, (23,), 23, "レギュラー成功", None, None)]),
    # copy-pasted without the spaces around ＞
    ("(1D2)＞1", "", [("die", 2, (1,), 1, None, None, None)]),
    # mixed dice sizes: one group per size
    ("(1D6+1D4) ＞ 5[5]+3[3] ＞ 8", "", [("die", 0, (5, 3), 8, None, None, None)]),
    # Korean outcome words of a _Korean system
    ("(2D6>=7) ＞ 8[4,4] ＞ 8 ＞ 성공", "", [("die", 6, (4, 4), 8, "성공", None, None)]),
    ("先攻後攻をコインで決めます", "先攻後攻をコインで決めます", []),
    ("a > b ＞ c", "a > b ＞ c", []),
]


@pytest.mark.parametrize("text,lead,want", CASES, ids=[c[0][:24] for c in CASES])
def test_parse(text: str, lead: str, want: list[tuple]) -> None:
    got_lead, rolls = bcdice.parse(text)
    assert got_lead == lead
    got = [(r.kind, r.sides, r.values, r.total, r.outcome, r.pick, r.repeat) for r in rolls]
    assert got == want


def test_mixed_dice_keep_their_groups() -> None:
    _, (roll,) = bcdice.parse("(1D6+1D4) ＞ 5[5]+3[3] ＞ 8")
    assert roll.groups == ((6, (5,)), (4, (3,)))


@pytest.mark.parametrize("typed,secret", [
    ("S2D6", True), ("s1d2", True), ("Schoice[表,裏]", True), ("SCCB<=50", True), ("2D6", False),
    ("CHOICE[表,裏]", False), ("Sword", False), ("S", False), ("ＳＣＨＯＩＣＥ[表,裏]", True),
])
def test_typed_secret(typed: str, secret: bool) -> None:
    assert bcdice.typed_secret(typed) is secret


@pytest.mark.parametrize("text,hidden", [
    ("S2D6", True), ("2d6 判定", True), ("SCCB<=50 隠し", True), ("choice[a,b]", True),
    ("こんにちは", False), ("a<b", False), ("ok>", False),
])
def test_looks_like_command(text: str, hidden: bool) -> None:
    assert bcdice.looks_like_command(text) is hidden


def test_normalise_compares_spellings() -> None:
    assert bcdice.normalise("ＣＨＯＩＣＥ[自分, 相手]") == bcdice.normalise("choice[自分,相手]")
    assert bcdice.normalise("２ｄ６") == "2D6"
