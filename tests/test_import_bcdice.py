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
    (
        "Schoice[自分,相手] (choice[自分,相手]) ＞ 自分",
        "Schoice[自分,相手]",
        [("choice", 2, (1,), None, "自分", "自分", None)],
    ),
    ("1d2<=1 (1D2<=1) ＞ 1 ＞ 成功", "1d2<=1", [("die", 2, (1,), 1, "成功", None, None)]),
    ("c(1+4*3/2) ＞ 7", "", [("other", 0, (), 7, None, None, None)]),
    ("飲み物表(6) ＞ 選ばれし者の知的飲料", "", [("other", 0, (), None, "選ばれし者の知的飲料", None, None)]),
    # nested ＞ inside table text stays in one step; the echo anchors on the first ") ＞"
    (
        "BMR 狂気表(6) ＞ 恐怖で動けない(1D10＞8ラウンド)",
        "BMR",
        [("other", 0, (), None, "恐怖で動けない(1D10＞8ラウンド)", None, None)],
    ),
    # repeat blocks: BCDice's own form and Udonarium's inline form
    (
        "x2 1d6\n#1\n(1D6) ＞ 2\n\n#2\n(1D6) ＞ 5",
        "x2 1d6",
        [("die", 6, (2,), 2, None, None, 1), ("die", 6, (5,), 5, None, None, 2)],
    ),
    ("#1 (1D6) ＞ 3\n#2 (1D6) ＞ 5", "", [("die", 6, (3,), 3, None, None, 1), ("die", 6, (5,), 5, None, None, 2)]),
    ("#1 (1D6) ＞ 3 #2 (1D6) ＞ 5", "", [("die", 6, (3,), 3, None, None, 1), ("die", 6, (5,), 5, None, None, 2)]),
    # Discord bot: a roller line, then system-prefixed result lines
    (
        "＞ユキ\n#1\nDiceBot: (2D6) ＞ 7[2,5] ＞ 7\n\n#2\nDiceBot: (2D6) ＞ 6[5,1] ＞ 6",
        "＞ユキ",
        [("die", 6, (2, 5), 7, None, None, 1), ("die", 6, (5, 1), 6, None, None, 2)],
    ),
    (
        "＞ミナト\nCthulhu7th: (1D100<=50) ＞ 23 ＞ レギュラー成功",
        "＞ミナト",
        [("die", 100, (23,), 23, "レギュラー成功", None, None)],
    ),
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


@pytest.mark.parametrize(
    "typed,secret",
    [
        ("S2D6", True),
        ("s1d2", True),
        ("Schoice[表,裏]", True),
        ("SCCB<=50", True),
        ("2D6", False),
        ("CHOICE[表,裏]", False),
        ("Sword", False),
        ("S", False),
        ("ＳＣＨＯＩＣＥ[表,裏]", True),
    ],
)
def test_typed_secret(typed: str, secret: bool) -> None:
    assert bcdice.typed_secret(typed) is secret


@pytest.mark.parametrize(
    "text,hidden",
    [
        ("S2D6", True),
        ("2d6 判定", True),
        ("SCCB<=50 隠し", True),
        ("choice[a,b]", True),
        ("こんにちは", False),
        ("a<b", False),
        ("ok>", False),
    ],
)
def test_looks_like_command(text: str, hidden: bool) -> None:
    assert bcdice.looks_like_command(text) is hidden


def test_normalise_compares_spellings() -> None:
    assert bcdice.normalise("ＣＨＯＩＣＥ[自分, 相手]") == bcdice.normalise("choice[自分,相手]")
    assert bcdice.normalise("２ｄ６") == "2D6"


@pytest.mark.parametrize(
    "typed,echo,secret",
    [
        ("SSG>=7", "SG@12#2>=7", True),  # the echo shows the command without its S
        ("SG>=7", "SG@12#2>=7", False),  # ShinobiGami's SG itself starts with S
        ("SR7", None, False),  # Satasupe's SR: no common command after the S
        ("x5 s1D6", None, True),  # a repeat carries the S on its command
        ("sx5 1D6", None, True),
        ("SRES(18-11)", "1d100<=85", True),  # Cthulhu's checks, the usual secret rolls
    ],
)
def test_typed_secret_with_echo(typed: str, echo: str | None, secret: bool) -> None:
    assert bcdice.typed_secret(typed, echo) is secret


@pytest.mark.parametrize(
    "text,dice,ordered",
    [
        ("🎲2D6+20 → 5[3,2]+20 → 25", ((6, 3), (6, 2)), True),  # UdonariumWithFly
        ("🎲5D10KH3 → 21[2,3,5,~~~8~~~,8] → 21", ((10, 2), (10, 3), (10, 5), (10, 8), (10, 8)), False),
        ("(2D6) → 6[3,3] → 6", ((6, 3), (6, 3)), True),  # Udonarium before 1.10
        ("(D66N) ＞ 61", ((6, 6), (6, 1)), True),
        ("(D66) ＞ 61", ((6, 6), (6, 1)), True),  # a sort never puts 6 before 1
        ("(2R6[5]>=5) ＞ 6,1 + 3 ＞ 成功数1", ((6, 6), (6, 1), (6, 3)), True),
    ],
)
def test_dice_read(text: str, dice: tuple, ordered: bool) -> None:
    _, (roll,) = bcdice.parse(text)
    assert (roll.dice, roll.ordered, roll.problem) == (dice, ordered, None)


def test_d66_is_two_d6_never_one_66_sided_die() -> None:
    _, (roll,) = bcdice.parse("(D66) ＞ 35")  # a sorting system may have rolled 5 then 3: order unknown
    assert roll.dice == ((6, 3), (6, 5)) and not roll.ordered


@pytest.mark.parametrize(
    "text,system,why",
    [
        ("(1D20<=2) ＞ 13 ＞ 失敗", None, "PhantasmAdventure"),  # its check rolls a hidden d20
        ("(3B6) ＞ 2,5,6 ＞ 失敗", None, "count"),  # not the common B command's ending
        ("(3D6) ＞ 12[3,3,5] ＞ 12", None, "add up"),  # faces that do not sum
        ("シーン表(7) ＞ 森の中", None, "not shown"),  # no system: which dice is unknown
        ("体力消耗表(6[6]) ＞ [疲労:65]を受ける", "LogHorizon", "not known"),  # PCT1$6 prints the same: command needed
    ],
)
def test_not_proved_is_reported(text: str, system: str | None, why: str) -> None:
    _, (roll,) = bcdice.parse(text, system)
    assert roll.kind == "other" and not roll.dice and why in (roll.problem or "")


@pytest.mark.parametrize(
    "text,system,command,dice,totals",
    [
        # a 2D6 table shows only the sum: kept as a sum of two d6, never as faces
        ("シーン表(7) ＞ 森の中", "ShinobiGami", None, (), ((0, 2, 6, 7),)),
        # a sum that only one set of faces gives proves them (2 = 1+1, 12 = 6+6)
        ("シーン表(2) ＞ 血の臭い", "ShinobiGami", None, ((6, 1), (6, 1)), ()),
        ("シーン表(12) ＞ 夜明け", "ShinobiGami", None, ((6, 6), (6, 6)), ()),
        # Satasupe's +n shifts the 2D6 (Satasupe.rb getTableIndex): the sum rolled is the value less n
        ("情報イベント表／〔犯罪〕:10:近所のコンビニで立ち読み。", "Satasupe", "CrimeIET+2", (), ((0, 2, 6, 8),)),
        # LogHorizon: the die in brackets is a roll unless the command fixed it with $
        ("体力消耗表(7[6]) ＞ [疲労:65]を受け", "LogHorizon", "PCT11+1", ((6, 6),), ()),
        ("체력 소모표(1[1]) ＞ [피로:5]를 받는다", "LogHorizon:Korean", "PCT1", ((6, 1),), ()),  # a name with a space
        ("金銭財宝表(17[6,6]) ＞ 39G", "LogHorizon", "CTRS1", ((6, 6), (6, 6)), ()),
        # DemonParasite's urge tables print no ＞: the level typed, then the 2D6 rolled on the table
        ("衝動表3-8:『渇望』喉が渇く。", "DemonParasite", "URGE3", (), ((0, 2, 6, 8),)),
        ("誤作動表1-12:『暴走』止まらない。", "ParasiteBlood", "AURGE", ((6, 6), (6, 6)), ()),
    ],
)
def test_read_with_system_and_command(text: str, system: str, command: str | None, dice: tuple, totals: tuple) -> None:
    _, (roll,) = bcdice.parse(text, system, bot=True, command=command)
    assert (roll.dice, roll.totals, roll.problem) == (dice, totals, None)


@pytest.mark.parametrize(
    "text,system,command",
    [
        ("体力消耗表(7[7]) ＞ [疲労:120]を受け", "LogHorizon", "PCT30$7"),  # $ set the die: nothing rolled
        ("金銭財宝表(22[7]) ＞ 80G", "LogHorizon", "CTRS3$"),  # a treasure table's $ prints [7]
        ("情報イベント表／〔犯罪〕:5:…", "Satasupe", "CrimeIET=5"),  # =n sets the value
        ("弾薬は正の数です。", "Cthulhu7th", "FAR(0,0,98)"),  # an error before any roll
        ("HTRS ＞ CRを指定してください", "LogHorizon", "HTRS"),
    ],
)
def test_set_by_the_command_or_refused_rolls_nothing(text: str, system: str, command: str) -> None:
    _, rolls = bcdice.parse(text, system, bot=True, command=command)
    assert [(r.kind, r.dice, r.totals, r.problem) for r in rolls] == [("other", (), (), None)]


def test_an_urge_table_is_read_only_where_the_system_is_known() -> None:
    # another system may print a line of this shape with other dice: without the system it stays text
    assert bcdice.parse("衝動表3-8:『渇望』喉が渇く。")[1] == []
    lead, rolls = bcdice.parse("URGE3 衝動表3-8:『渇望』喉が渇く。", "DemonParasite")  # CCFOLIA's classic page
    assert lead == "URGE3" and [r.totals for r in rolls] == [((0, 2, 6, 8),)]
    _, (roll,) = bcdice.parse("衝動表3-13:『渇望』", "DemonParasite", bot=True)  # no 2D6 sums to 13
    assert roll.kind == "other" and roll.problem


def test_a_shifted_sum_at_the_edge_is_reported() -> None:
    _, (roll,) = bcdice.parse("情報イベント表／〔犯罪〕:12:…", "Satasupe", bot=True, command="CrimeIET+2")
    assert roll.kind == "other" and "cut to the table's range" in (roll.problem or "")


def test_an_error_after_the_typed_command_on_one_line() -> None:
    lead, (roll,) = bcdice.parse("CC(-101)<=80 ボーナス・ペナルティダイスの値は-100以上、100以下としてください")
    assert (lead, roll.kind, roll.problem) == ("CC(-101)<=80", "other", None)


def test_parts_in_rolling_order() -> None:
    _, (roll,) = bcdice.parse("ランダム特技表(1,7) ＞ 《焼却／暴力7》", "Insane", bot=True, command="RTT")
    assert roll.parts == (("die", 6, 1, (1,)), ("total", 6, 2, (7,)))


def test_nothing_rolled_is_no_problem() -> None:
    for text in ("(1D10001) ＞ 0", "(500D6) ＞ 0", "c(1+2) ＞ 3"):
        _, (roll,) = bcdice.parse(text)
        assert (roll.kind, roll.dice, roll.problem) == ("other", (), None), text


@pytest.mark.parametrize(
    "text,flagged",
    [
        ("TAGT タグ決定表:53:ヒマツブシ(イ)", True),
        ("gr [1,2]->(器用度 or 敏捷度)", True),
        ("sce シーン演出表 ＞ 2：遊び", True),
        ("了解です 3人で", False),
        ("OK です", False),
        ("x2 2d6", False),
    ],
)
def test_maybe_result(text: str, flagged: bool) -> None:
    assert bcdice.maybe_result(text) is flagged


@pytest.mark.parametrize(
    "text,command,dice,totals",
    [
        ("인간 부위표(12) ＞ 머리 부위", "HPT", ((12, 12),), ()),  # KemonoNoMori's, read whole (not Insane's 부위표)
        ("都市シーン表(7) ＞ 閑静な住宅街", "CST", (), ((0, 2, 6, 7),)),  # only ShinobiGami prints it
        ("感情表(51-33) ＞ 遺志 - ○劣等感", "ET", ((100, 51), (100, 33), (2, 2)), ()),  # DoubleCross's pair form
        ("致命傷表:8:気絶して行動不能。", "FumbleT", (), ((0, 2, 6, 8),)),  # name:value: is Satasupe's form
        (
            "獲得素材チャート(63,5,64) ＞ 石状の断片。",
            "MT",
            ((6, 6), (6, 3), (6, 5), (6, 6), (6, 4)),
            (),
        ),  # Kamigakari's chart
    ],
)
def test_the_text_tells_the_system(text: str, command: str, dice: tuple, totals: tuple) -> None:
    """Where the export records no system (CCFOLIA), a name or a form only one system prints tells it."""
    _, (roll,) = bcdice.parse(text, None, bot=True, command=command)
    assert (roll.dice, roll.totals, roll.problem) == (dice, totals, None)


def test_a_name_systems_print_with_other_dice_tells_nothing() -> None:
    _, (roll,) = bcdice.parse("シーン表(7) ＞ 森の中", None, bot=True, command="ST")
    assert roll.kind == "other" and roll.problem


# Labels real tables type around a command (CCFOLIA's classic page keeps the typed line before the
# answer): full-width angle brackets close with BCDice's own separator sign ＞, other brackets do not.
@pytest.mark.parametrize(
    "text,dice,secret",
    [
        (
            "sCC<=80 ＜射出＞ (1D100<=80) ボーナス・ペナルティダイス[0] ＞ 3 ＞ 3 ＞ イクストリーム成功",
            ((10, 10), (10, 3)),
            True,
        ),
        ("CC<=65 ＜目星＞ (1D100<=65) ボーナス・ペナルティダイス[0] ＞ 41 ＞ 41 ＞ 成功", ((10, 4), (10, 1)), False),
        ("5d6 ＜魔剣ダメージ＞ (5D6) ＞ 13[1,2,6,2,2] ＞ 13", ((6, 1), (6, 2), (6, 6), (6, 2), (6, 2)), False),
        (
            "sCC-1<=60 ＜組み付き＞ (1D100<=60) ボーナス・ペナルティダイス[-1] ＞ 45, 25 ＞ 45 ＞ 成功",
            ((10, 4), (10, 2), (10, 5)),
            True,
        ),
        (
            "sCC1<=70 (1D100<=70) ボーナス・ペナルティダイス[1] ＞ 45, 25 ＞ 25 ＞ ハード成功",
            ((10, 4), (10, 2), (10, 5)),
            True,
        ),
        (
            "sCC+2<=70 【回避】 (1D100<=70) ボーナス・ペナルティダイス[2] ＞ 95, 15, 55 ＞ 15 ＞ イクストリーム成功",
            ((10, 9), (10, 1), (10, 5), (10, 5)),
            True,
        ),
        ("S1D100<=50 《図書館》 (1D100<=50) ＞ 12 ＞ 成功", ((100, 12),), True),
        ("1D100<=50 <聞き耳> (1D100<=50) ＞ 77 ＞ 失敗", ((100, 77),), False),
        ("SCCB<=40 ‹回避› (1D100<=40) ＞ 2 ＞ 決定的成功/スペシャル", ((100, 2),), True),
        ("2d6 「ダメージ」 『斧』 (2D6) ＞ 7[3,4] ＞ 7", ((6, 3), (6, 4)), False),
    ],
)
def test_labels_and_secret_marks(text: str, dice: tuple, secret: bool) -> None:
    lead, (roll,) = bcdice.parse(text)
    assert (roll.dice, roll.problem) == (dice, None)
    assert bcdice.typed_secret(lead, roll.echo) is secret


def test_a_chat_line_with_angle_brackets_is_no_result() -> None:
    assert bcdice.parse("よろしくお願いします＞＜ (笑)")[1] == []


def test_ascii_arrows_between_steps_of_a_bots_answer() -> None:
    # a few systems print "->"-less ASCII arrows between steps; a bot's answer is cut there like at ＞
    _, (roll,) = bcdice.parse("(2QQ>=4) > [3,5] > 成功数1", bot=True)
    assert roll.steps == ("[3,5]", "成功数1")
    _, (roll,) = bcdice.parse("2D8 => [7,2] => (1+0) => 1", bot=True)
    assert roll.steps == ("[7,2]", "(1+0)", "1")
    # in a player's chat line an arrow is no result, and where the answer has ＞ its arrows are table text
    assert bcdice.parse("(たぶん) > そうだね") == ("(たぶん) > そうだね", [])
    _, (roll,) = bcdice.parse("(1D6) ＞ 4 ＞ 体力 > 3", bot=True)
    assert roll.steps == ("4", "体力 > 3")
