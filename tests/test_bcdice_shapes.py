"""The forms BCDice's tests vouch for (kifu/events/importers/bcdice/shapes.py, make_shapes.py): read
fewer rather than wrong. Every answer here is invented, in the shapes BCDice prints."""

from __future__ import annotations

from typing import Any

from kifu.events.importers.bcdice import make_shapes, shapes
from kifu.events.importers.bcdice.text import Block, blocks


def block(answer: str) -> Block:
    _, found = blocks(answer)
    assert len(found) == 1, answer
    return found[0]


def test_the_key_tells_a_typed_number_and_the_way_the_answer_goes_on() -> None:
    rolled, fixed = block("因縁表(45) ＞ 期待"), block("因縁表(45) ＞ 期待")
    assert shapes.key(rolled, "FT") != shapes.key(fixed, "FT45")  # FT45 fixes the value FT rolls
    assert shapes.key(rolled, "FT") == shapes.key(rolled, "SCENE")  # aliases print the same
    plain, rerolled = block("(3ZZ>=5) ＞ [4,1,2] ＞ 1 ＞ 失敗"), block("(3ZZ>=5) ＞ [6,5,2] ＞ [3,6] ＞ 2 ＞ 成功")
    assert shapes.skeleton(plain) == "b.n.t" and shapes.skeleton(rerolled) == "b.b.n.t"
    assert shapes.skeleton(block("近況表(11) ＞ 悪夢 ＞ 活動年数：2D6×10 ＞ 20年")) == "t.d.t"


def test_a_value_nobody_typed_is_no_table_the_command_fixed() -> None:
    spec = {"rel": "nothing"}
    assert shapes.read_dice(block("事故表(6) ＞ 兵装"), spec, "ACC6") is not None
    assert shapes.read_dice(block("事故表(5) ＞ 兵装"), spec, "ACC0") is None  # 5 was rolled: reported


def test_dice_written_out_must_be_the_dice_read() -> None:
    spec: dict[str, Any] = {"src": "steps-lists", "rel": "faces", "sides": 6, "ordered": True, "count": None}
    assert shapes.read_dice(block("1D6(Block:1) ＞ 6 ＞ 6 ＞ 成功数：1"), spec, "ZZ1") is None  # one die, two faces
    spec = {"src": "step-brackets", "rel": "faces", "sides": 12, "ordered": True, "count": "stated"}
    dice = shapes.read_dice(block("(QQ) ＞ (5D12) ＞ 52[10,12,11,10,9] ＞ 52"), spec, "QQ")
    assert dice is not None and dice.dice == [(12, 10), (12, 12), (12, 11), (12, 10), (12, 9)]


def test_faces_in_brackets_stop_a_form_that_reads_a_single_number() -> None:
    spec = {"src": "step-first", "rel": "sum", "sides": 6, "ordered": True, "count": 2}
    assert shapes.read_dice(block("(2D6+1>=?) ＞ 10[1,1][2,6]+1 ＞ 11 ＞ 失敗"), spec, "2D6+1>=?") is None
    assert shapes.read_dice(
        block("(ZZ+5>=10) ＞ 19+5 ＞ 24 ＞ 成功"), {**spec, "rel": "faces", "sides": 20, "count": 1}, "ZZ+5>=10"
    )


def _tests(*answers: tuple[str, list[tuple[int, int]], str]) -> list[make_shapes.Test]:
    return [([block(a)], rands, typed) for a, rands, typed in answers]


def test_one_test_vouches_for_nothing_unless_it_writes_its_dice_out() -> None:
    assert make_shapes.vouch(_tests(("(3ZZ) ＞ [4,1,2] ＞ 7", [(6, 4), (6, 1), (6, 2)], "3ZZ"))) is None
    spec = make_shapes.vouch(_tests(("(QQ) ＞ (3D8) ＞ 9[4,1,4] ＞ 9", [(8, 4), (8, 1), (8, 4)], "QQ")))
    assert spec is not None and spec["rel"] == "faces" and spec["count"] == 3


def test_an_order_the_tests_do_not_prove_is_read_as_unordered() -> None:
    # both rolled the smaller die first: a system that sorts would print the same
    tests = _tests(
        ("(2YY) ＞ [1,4] ＞ 5", [(6, 1), (6, 4)], "2YY"),
        ("(2YY) ＞ [2,6] ＞ 8", [(6, 2), (6, 6)], "2YY"),
    )
    spec = make_shapes.vouch(tests)
    assert spec is not None and spec["ordered"] is False
    proved = tests + _tests(("(2YY) ＞ [5,3] ＞ 8", [(6, 5), (6, 3)], "2YY"))
    spec = make_shapes.vouch(proved)
    assert spec is not None and spec["ordered"] is True


def test_a_table_that_rolls_dice_it_does_not_show_is_seen() -> None:
    found = [block("時の表(3) ＞ 星の《黄金》で判定")]
    assert make_shapes.hides(found, [(6, 3), (6, 4), (6, 5)], "TT")
    assert not make_shapes.hides(found, [(6, 3)], "TT")


def test_the_shipped_table_was_built_by_the_code_beside_it() -> None:
    data = shapes._data()
    assert set(data) == {"systems", "agreed", "unvouched", "hiding"}
    assert all(k.count("|") == 2 for specs in data["systems"].values() for k in specs)


def test_a_sum_without_the_order_proof_is_its_systems_own() -> None:
    # 2D6 showing 12 proves two sixes, but a sum vouched for without the order proof every other form
    # needs read another system's D66 table of the same name as its sum where no system was recorded
    # (built from half of BCDice's tests, Amadeus's 休憩表(11) as MeikyuDays' 2D6): a sum has no order
    # to prove, so it is vouched for, but as the system's own, never read where the system is not known
    tests = _tests(
        ("野営表(12) ＞ 星空", [(6, 6), (6, 6)], "CT"),
        ("野営表(7) ＞ 雨", [(6, 3), (6, 4)], "CT"),
        ("野営表(5) ＞ 霧", [(6, 1), (6, 4)], "CT"),
    )
    spec = make_shapes.vouch(tests)
    assert spec is not None and spec["rel"] == "sum" and spec["count"] == 2 and spec["own"] is True
    assert make_shapes._own(spec)
    # a D66 table's value is never the sum of its two dice: its tests read a sum form wrong
    d66 = _tests(("休憩表(11) ＞ 昼寝", [(6, 1), (6, 1)], "BT"), ("休憩表(35) ＞ 散歩", [(6, 3), (6, 5)], "BT"))
    found = make_shapes.vouch(d66)
    assert found is None or found["rel"] != "sum"


def test_a_table_read_as_its_definition_says_needs_one_test() -> None:
    tests = _tests(("花言葉表(4) ＞ 希望", [(6, 4)], "FLT"))
    assert make_shapes.vouch(tests) is None  # one test alone may fit by chance
    spec = make_shapes.vouch(tests, kind="1D6")  # BCDice defines the table as a 1D6
    assert spec is not None and spec["rel"] == "faces" and spec["sides"] == 6
    assert spec["defined"] is True  # the system's own: never read where the system is not known
    assert make_shapes.vouch(tests, kind="2D6") is None  # a definition the test does not bear out
    assert make_shapes.defined({"src": "head", "rel": "d66", "sides": 6, "ordered": False, "count": 1}, "D66S")
    assert not make_shapes.defined({"src": "head", "rel": "d66", "sides": 6, "ordered": True, "count": 1}, "D66S")


def test_an_answer_of_several_keys_shares_its_dice_by_the_order_of_its_blocks() -> None:
    _, found = blocks("成長表(3) ＞ アイテムを得る\nアイテム ＞ [5] ＞ 靴")
    assert len(found) == 2
    table = {"src": "head", "rel": "faces", "sides": 6, "ordered": True, "count": 1}
    specs = {shapes.key(found[0], "GT"): table}
    outcome, share = make_shapes.attribute(("Zz", found, [(6, 3), (6, 5)], "GT"), specs)
    assert outcome == "learn" and share is not None
    key, (blocks_of, rands, typed) = share
    assert key == shapes.key(found[1], "GT") and rands == [(6, 5)] and blocks_of == [found[1]]
    item = {"src": "step-brackets", "rel": "faces", "sides": 6, "ordered": True, "count": 1}
    both = {**specs, key: item}
    assert make_shapes.attribute(("Zz", found, [(6, 3), (6, 5)], "GT"), both)[0] == "right"
    assert make_shapes.attribute(("Zz", found, [(6, 3), (6, 5), (6, 1)], "GT"), both)[0] == "wrong"  # a die unseen
    assert make_shapes.attribute(("Zz", found, [(6, 3), (6, 5)], "GT"), {})[0] == "wrong"  # two blocks unread


def test_a_die_written_out_with_its_face_after_an_arrow_is_read_with_its_sides() -> None:
    chart = block("運命表（心）[負債:3 + 1D12(->9) = 12] ＞ 12以上 ： 転落")
    assert shapes.numbers(chart, "arrow") == [9]
    spec = {"src": "arrow", "rel": "faces", "sides": "form", "ordered": True, "count": 1}
    dice = shapes.read_dice(chart, spec, "FC3")
    assert dice is not None and dice.dice == [(12, 9)]
    # the tests of one chart vouch for the form: the text names the die and its face
    tests = _tests(
        ("運命表（心）[負債:3 + 1D12(->9) = 12] ＞ 12以上 ： 転落", [(12, 9)], "FC3"),
        ("運命表（心）[負債:5 + 1D12(->2) = 7] ＞ 7以下 ： 無事", [(12, 2)], "FC5"),
    )
    spec = make_shapes.vouch(tests)
    assert spec is not None and spec["src"] == "arrow" and spec["sides"] == "form"
    # two dice after one arrow are their sum: not read as a face
    assert shapes.numbers(block("運命表（心）[負債:3 + 2D6(->9) = 12] ＞ 転落"), "arrow") is None


def test_a_table_with_one_test_is_read_in_the_form_its_siblings_are_vouched_for() -> None:
    fixed = {"src": "head", "rel": "faces", "sides": 6, "ordered": True, "count": 1}
    one = _tests(("夕焼け表(4) ＞ 赤い空", [(6, 4)], "ST"))
    siblings = {
        "朝焼け表()|A|t": {**fixed, "pinned": []},
        "夜表()|A|t": {**fixed, "pinned": []},
    }
    of_system = {shapes.key(one[0][0][0], "ST"): one}
    have = dict(siblings)
    make_shapes._vouch_siblings("Zz", of_system, have, set(), set())
    key = shapes.key(one[0][0][0], "ST")
    assert have[key]["siblings"] is True and have[key]["rel"] == "faces"
    # a sibling of another command shape (typed with a number) vouches for nothing here
    have = {"朝焼け表()|A#|t": {**fixed, "pinned": []}}
    make_shapes._vouch_siblings("Zz", of_system, have, set(), set())
    assert key not in have
    # nor does a sibling read in another form (a D66): the one test does not fit it
    have = {"朝焼け表()|A|t": {"src": "head", "rel": "d66", "sides": 6, "ordered": True, "count": 1, "pinned": []}}
    make_shapes._vouch_siblings("Zz", of_system, have, set(), set())
    assert key not in have


def test_a_sum_of_dice_each_read_one_less_keeps_the_faces_rolled() -> None:
    # a system that reads each d10 as 0-9 prints two d10 that showed 3 and 6 as [7]: the sum of the faces
    # rolled is 9, and that is what is kept (never faces, as for any sum)
    tests = _tests(
        ("被弾表[7] ＞ かすり傷", [(10, 3), (10, 6)], "HT"),
        ("被弾表[12] ＞ 転倒", [(10, 5), (10, 9)], "HT"),
        ("被弾表[3] ＞ 無傷", [(10, 4), (10, 1)], "HT"),
    )
    spec = make_shapes.vouch(tests)
    assert spec is not None and spec["rel"] == "sum0" and spec["count"] == 2 and spec["own"] is True
    dice = shapes.read_dice(block("被弾表[15] ＞ 骨折"), spec, "HT")
    assert dice is not None and dice.totals == [(0, 2, 10, 17)] and dice.dice == []
    edge = shapes.read_dice(block("被弾表[18] ＞ 即死"), spec, "HT")  # 18 = 9 + 9: both dice showed 10
    assert edge is not None and edge.dice == [(10, 10), (10, 10)]
    assert shapes.read_dice(block("被弾表[19] ＞ ？"), spec, "HT") is None  # no two such dice make 19
