"""The engine's merge (kifu/auditor/base.py ``merge``): one mistake, one finding, whatever the order of the hits."""

from __future__ import annotations

import itertools

from kifu.auditor.findings import DECIDED, REST, Finding, Raw, merge
from kifu.events.i18n import Text


def raw(
    code: str,
    seq: int,
    about=None,
    follows=(),
    severity: str = "error",
    seqs=(),
    facts=(),
    general=False,
    provisional=False,
) -> Raw:
    f = Finding(
        code=code,
        name=code.lower(),
        severity=severity,
        seq=seq,
        seqs=sorted({seq, *seqs}),
        citation=Text(ja="j", en="e"),
        message=Text(ja="j", en="e"),
    )
    return Raw(f, about, tuple(follows), tuple(facts), general, provisional)


def shown(findings: list[Finding]) -> list[tuple[str, int, list[int], list[int]]]:
    return [(f.code, f.seq, f.seqs, f.consequences) for f in findings]


def test_hits_without_a_subject_are_findings_as_they_were() -> None:
    raws = [raw("A-X-001", 3), raw("A-X-001", 5)]
    assert merge(raws) == [r.finding for r in raws]


def test_one_rule_about_one_subject_is_one_finding_with_all_its_seqs() -> None:
    act = ("act", "a1")
    assert shown(merge([raw("A-X-001", s, act) for s in (12, 13, 14)])) == [("A-X-001", 12, [12, 13, 14], [])]


def test_a_later_finding_about_an_earlier_errors_subject_is_its_consequence() -> None:
    act = ("act", "a1")
    assert shown(merge([raw("A-X-001", 9, act), raw("A-Y-001", 31, act), raw("A-Z-001", 31, act)])) == [
        ("A-X-001", 9, [9], [31])
    ]


def test_two_rules_one_line_breaks_both_stand() -> None:
    act = ("act", "a1")
    assert [f.code for f in merge([raw("A-X-001", 9, act), raw("A-Y-001", 9, act)])] == ["A-X-001", "A-Y-001"]


def test_what_a_hit_follows_from_may_come_later_in_the_log() -> None:
    """A payoff written before the outcome it follows from folds into the outcome's error."""
    flip = ("flip", "f1", 1)
    assert shown(merge([raw("P-PAY-003", 6, ("payoff", "f1"), [flip]), raw("P-CALL-002", 7, flip)])) == [
        ("P-CALL-002", 7, [7], [6])
    ]


def test_play_after_a_defeat_folds_everything_after_it() -> None:
    out = merge(
        [
            raw("W-END-001", 20, REST),
            raw("W-ORDER-001", 22),
            raw("W-USE-003", 25, ("use", 25)),
            raw("W-ORDER-003", 26, severity="warning"),
            raw("W-X-001", 19),
        ]
    )
    assert shown(out) == [("W-X-001", 19, [19], []), ("W-END-001", 20, [20], [22, 25, 26])]


def test_a_cannot_decide_is_withdrawn_where_its_rule_decides_the_subject() -> None:
    g = ("flip", "f1", 1)
    out = merge([raw("M-CALL-004", 3, g, severity="info"), raw("M-CALL-004", 4, g)])
    assert shown(out) == [("M-CALL-004", 4, [4], [])]
    other = merge([raw("M-CALL-004", 3, g, severity="info"), raw("M-FLIP-003", 3, g, severity="info")])
    assert len(other) == 2  # another rule's cannot-decide, and one nothing decides, stand


def test_an_error_never_folds_into_a_warning() -> None:
    act = ("act", "a1")
    out = merge([raw("A-X-001", 5, act, severity="warning"), raw("A-Y-001", 8, act)])
    assert [(f.code, f.consequences) for f in out] == [("A-X-001", []), ("A-Y-001", [])]


def test_the_order_of_the_hits_changes_nothing() -> None:
    flip, act = ("flip", "f1", 1), ("act", "a1")
    raws = [
        raw("P-THUMB-002", 9, flip),
        raw("P-PAY-002", 8, ("payoff", "f1"), [flip]),
        raw("P-PAY-003", 11, None, [flip]),
        raw("G-TOSS-009", 12, act),
        raw("G-TOSS-009", 13, act),
        raw("G-SHOT-004", 15, ("shot", "s1"), [act]),
    ]
    first = merge(raws)
    assert shown(first) == [("P-THUMB-002", 9, [9], [8, 11]), ("G-TOSS-009", 12, [12, 13], [15])]
    assert all(merge(list(p)) == first for p in itertools.permutations(raws))


def test_play_after_a_defeat_folds_the_other_findings_of_its_own_event() -> None:
    """A plot recorded after a defeat is also a plot with the wrong attacker: that is the same mistake."""
    out = merge([raw("W-END-001", 22, REST), raw("W-TURN-001", 22, ("turn", 1)), raw("W-USE-001", 25, ("use", 25))])
    assert shown(out) == [("W-END-001", 22, [22], [25])]


def test_the_event_that_decides_the_match_keeps_its_other_findings_and_folds_what_follows() -> None:
    """A draw from an empty deck that loses the match: a turn started after it is its consequence, but another
    rule broken by the draw itself is a mistake of its own."""
    out = merge([raw("G-DECK-003", 10, DECIDED), raw("G-DECK-001", 10), raw("G-END-002", 12, REST)])
    assert shown(out) == [("G-DECK-001", 10, [10], []), ("G-DECK-003", 10, [10], [12])]


def test_a_general_rule_on_the_same_wrong_number_folds_into_the_specific_one() -> None:
    act = ("act", "a1")
    cost = ("number", "additional_cost")
    specific = raw("G-COST-002", 24, act, facts=[cost])
    general = raw("G-NUM-001", 24, act, facts=[cost], general=True)
    for order in ([specific, general], [general, specific]):
        assert [f.code for f in merge(order)] == ["G-COST-002"]


def test_a_general_rule_that_finds_another_number_wrong_too_stands() -> None:
    act = ("act", "a1")
    cost, burn = ("number", "additional_cost"), ("number", "burn")
    out = merge([raw("G-COST-002", 24, act, facts=[cost]), raw("G-NUM-001", 24, act, facts=[cost, burn], general=True)])
    assert [f.code for f in out] == ["G-COST-002", "G-NUM-001"]


def test_a_general_rule_never_folds_into_a_finding_of_another_event() -> None:
    cost = ("number", "additional_cost")
    out = merge([raw("G-COST-002", 20, facts=[cost]), raw("G-NUM-001", 24, facts=[cost], general=True)])
    assert [(f.code, f.seq) for f in out] == [("G-COST-002", 20), ("G-NUM-001", 24)]


def test_a_provisional_hit_is_withdrawn_where_its_rule_says_it_again() -> None:
    """A toss before its cost: said at once (not paid yet), said again when the cost comes (paid at seq 16)."""
    act = ("act", "a3")
    early = raw("G-TOSS-001", 14, act, seqs=[13], provisional=True)
    late = raw("G-TOSS-001", 14, act, seqs=[13, 16])
    assert shown(merge([early, late])) == [("G-TOSS-001", 14, [13, 14, 16], [])]
    assert merge([early, late])[0] is late.finding
    assert merge([early]) == [early.finding]  # nothing said it again: it stands as said
