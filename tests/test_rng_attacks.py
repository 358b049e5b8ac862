"""Attacks at an online table, from docs/randomness.md ("Attacks, and what the audit says"): each gives exactly its
documented finding, at its event, and never blames an honest player for another's move.

Every case is played by ``rng_table.Table`` as a recorder or an importer would write it:
Aoi rolls, Ren answers, Kai is a spectator (a speaker no player id names) or, where
it says so, a third player.
"""

from __future__ import annotations

import pytest
from rng_table import COLLISION, Table

from kifu.events import rng

N1, N2, N3 = "7d2mq9xk4fa8wz3np6rt", "q4v8c1m9z2x7b5n3k6pw", "h3j9t5r1y7u2e8w4q6zx"
"""Strong nonces (20 characters, as kifu toss nonce draws them)."""


def _both(fn):
    """Run an attack under both protocol versions."""
    return pytest.mark.parametrize("v", [1, 2])(fn)


# --- voids cannot launder randomness ----------------------------------------------------------------------


@_both
def test_a_void_of_a_kept_back_commit_and_its_nonce_is_still_withheld(v: int) -> None:
    t = Table()
    c = t.commit("a", v=v)
    n = t.nonce("a", N1)
    void = t.void(c, n)
    b = t.toss("b", text=N2, v=v, purpose="act-a3")
    assert t.found() == [("KIFU-RNG-005", b["nonce"])]
    (f,) = [f for f in t.audit() if f.code == "KIFU-RNG-005"]
    assert t.id("a") in f.message.en and "withheld" in f.message.en and f"seq {void}" in f.message.en
    assert t.randomness().verifiable == 0


@_both
def test_a_void_of_a_kept_back_commit_with_no_toss_after_it_is_008(v: int) -> None:
    t = Table()
    c = t.commit("a", v=v)
    n = t.nonce("a", N1)
    void = t.void(c, n)
    assert t.found() == [("KIFU-RNG-008", c)]
    (f,) = [f for f in t.audit() if f.code == "KIFU-RNG-008"]
    assert f"seq {void}" in f.message.en


@_both
def test_a_void_of_a_whole_revealed_toss_then_a_re_toss_names_the_voided_toss(v: int) -> None:
    t = Table()
    a = t.toss("a", text=N1, v=v)
    t.void(*a.values())
    b = t.toss("b", text=N2, v=v)
    assert t.found() == [("KIFU-RNG-013", b["commit"])]
    (f,) = [f for f in t.audit() if f.code == "KIFU-RNG-013"]
    assert t.id("a") in f.message.en
    r = t.randomness()
    assert (r.outcomes, r.verifiable, r.voided) == (1, 0, 1)


@_both
def test_a_void_of_just_the_outcome_then_a_re_toss_names_the_voided_toss(v: int) -> None:
    t = Table()
    a = t.toss("a", text=N1, v=v)
    t.void(a["use"])
    b = t.toss("b", text=N2, v=v)
    assert t.found() == [("KIFU-RNG-013", b["commit"])]
    r = t.randomness()
    assert (r.outcomes, r.verifiable, r.voided) == (1, 0, 1)


@_both
def test_a_voided_revealed_toss_with_no_re_toss_stands(v: int) -> None:
    t = Table()
    a = t.toss("a", text=N1, v=v)
    t.void(*a.values())
    assert t.found() == []
    r = t.randomness()
    assert (r.outcomes, r.verifiable, r.voided) == (0, 0, 1)


@_both
def test_a_commitment_voided_before_anyone_answered_is_withdrawn(v: int) -> None:
    t = Table()
    c = t.commit("a", v=v)
    t.void(c)
    t.toss("b", text=N2, v=v)
    assert t.found() == []
    assert t.randomness().verifiable == 1


def test_an_outcome_voided_and_recorded_again_is_a_correction_not_a_re_toss() -> None:
    t = Table()
    a = t.toss("a", text=N1, v=1)
    t.void(a["use"], reason="wrong player")
    t.use("a", 0, [2], by="aoi")
    t.toss("b", text=N2, v=1)
    assert t.found() == []


# --- withholding among several open commitments -------------------------------------------------------------


@_both
def test_keeping_back_the_worse_of_two_answered_tosses_is_005_naming_the_withheld(v: int) -> None:
    t = Table()
    t.commit("x", v=v)
    t.nonce("x", N1)
    t.commit("y", v=v, purpose="act-a3")
    second = t.nonce("y", N2)
    t.reveal("y")
    t.use("y")
    assert t.found() == [("KIFU-RNG-005", second)]
    (f,) = [f for f in t.audit() if f.code == "KIFU-RNG-005"]
    assert t.id("x") in f.message.en and "withheld" in f.message.en
    assert t.randomness().verifiable == 0


@_both
def test_revealing_both_answered_tosses_is_the_same_finding(v: int) -> None:
    t = Table()
    t.commit("x", v=v)
    t.nonce("x", N1)
    t.commit("y", v=v, purpose="act-a3")
    second = t.nonce("y", N2)
    t.reveal("x")
    t.use("x")
    t.reveal("y")
    t.use("y")
    assert t.found() == [("KIFU-RNG-005", second)]
    assert t.randomness().verifiable == 0


def test_three_open_commitments_are_one_set_and_one_finding() -> None:
    t = Table()
    for label in "xyz":
        t.commit(label, v=1)
    first = t.nonce("x", N1)
    second = t.nonce("y", N2)
    t.reveal("x")
    t.nonce("z", N3)
    t.reveal("z")
    t.use("z")
    assert first < second
    assert t.found() == [("KIFU-RNG-005", second)]


def test_two_commitments_under_one_id_the_second_is_an_error() -> None:
    t = Table()
    first = t.commit(COLLISION[0], v=1)
    second = t.commit(COLLISION[1], v=1)
    assert t.id(COLLISION[0]) == t.id(COLLISION[1])
    t.nonce(COLLISION[0], N1)
    t.reveal(COLLISION[0])
    t.use(COLLISION[0])
    assert t.found() == [("KIFU-RNG-014", second)]
    assert first < second and t.randomness().verifiable == 0


def test_a_second_commitment_under_a_used_id_is_the_same_error() -> None:
    t = Table()
    t.toss(COLLISION[0], text=N1, v=1)
    second = t.commit(COLLISION[1], v=1)
    t.nonce(COLLISION[1], N2)
    t.reveal(COLLISION[1])
    assert t.found() == [("KIFU-RNG-014", second)]


# --- only the opponent's nonce binds --------------------------------------------------------------------------


@_both
@pytest.mark.parametrize("intruder", [{"by": None, "speaker": "Kai"}, {"by": "judge"}, {"by": "aoi"}])
def test_a_nonce_before_the_opponents_by_anyone_else_is_ignored(v: int, intruder: dict) -> None:
    t = Table()
    t.commit("a", v=v)
    spoiler = t.add({"type": "rng.nonce", **{k: w for k, w in intruder.items() if w}, "id": t.id("a"), "nonce": N3})
    t.nonce("a", N1)
    t.reveal("a")
    t.use("a")
    assert t.found() == []
    assert t.info() == [("KIFU-RNG-003", spoiler)]
    assert t.randomness().verifiable == 1


@_both
def test_the_roller_answering_their_own_commitment_is_the_reveals_finding(v: int) -> None:
    t = Table()
    t.commit("a", v=v)
    t.nonce("a", N1, by="aoi")
    reveal = t.reveal("a")
    t.use("a")
    assert t.found() == [("KIFU-RNG-007", reveal)]
    assert t.info() == []  # reported once: by the reveal that used it
    assert t.randomness().verifiable == 0


@_both
def test_a_reveal_with_the_spectators_nonce_instead_of_the_opponents(v: int) -> None:
    t = Table()
    t.commit("a", v=v)
    t.nonce("a", N3, by=None, speaker="Kai")
    t.nonce("a", N1)
    reveal = t.reveal("a", [N3])
    assert t.found() == [("KIFU-RNG-007", reveal)]
    (f,) = [f for f in t.audit() if f.code == "KIFU-RNG-007"]
    assert "Kai" in f.message.en


@_both
def test_nonce_reuse_by_the_opponent_is_004(v: int) -> None:
    t = Table()
    t.toss("a", text=N1, v=v)
    b = t.toss("b", text=N1, v=v, purpose="act-a3")
    assert t.found() == [("KIFU-RNG-004", b["nonce"])]


def test_nonce_reuse_across_rollers_is_004_too() -> None:
    t = Table()
    t.toss("a", "aoi", "ren", N1, v=1)
    b = t.toss("b", "ren", "aoi", N1, v=1)
    assert t.found() == [("KIFU-RNG-004", b["nonce"])]


# --- more than two players -------------------------------------------------------------------------------------


def test_several_opponents_nonces_combine_in_ascii_order() -> None:
    t = Table(("aoi", "ren", "kai"))
    t.commit("a")
    t.nonce("a", N2, by="ren")
    t.nonce("a", N1, by="kai")
    t.reveal("a")
    t.use("a")
    assert t.found() == []
    assert t.events[-2]["nonce"] == f"{N1}.{N2}"  # ASCII order, not the order they were posted
    assert t.randomness().verifiable == 1


def test_a_reveal_that_leaves_out_an_opponents_nonce_is_007() -> None:
    t = Table(("aoi", "ren", "kai"))
    t.commit("a")
    t.nonce("a", N1, by="ren")
    t.nonce("a", N2, by="kai")
    reveal = t.reveal("a", [N1])
    assert t.found() == [("KIFU-RNG-007", reveal)]


def test_the_opponents_a_commit_names_are_the_only_ones_who_answer() -> None:
    t = Table(("aoi", "ren", "kai"))
    t.commit("a", opponents=["ren"])
    other = t.nonce("a", N2, by="kai")
    t.nonce("a", N1, by="ren")
    t.reveal("a", [N1])
    t.use("a", texts=[N1])
    assert t.found() == [] and t.info() == [("KIFU-RNG-003", other)]


def test_a_named_opponent_who_has_not_answered_holds_the_reveal_back() -> None:
    t = Table(("aoi", "ren", "kai"))
    t.commit("a", opponents=["ren", "kai"])
    t.nonce("a", N1, by="ren")
    reveal = t.reveal("a", [N1])
    assert t.found() == [("KIFU-RNG-007", reveal)]


def test_v1_with_several_opponents_takes_the_first_opponents_nonce() -> None:
    t = Table(("aoi", "ren", "kai"))
    t.commit("a", v=1)
    t.nonce("a", N1, by="kai")
    t.nonce("a", N2, by="ren")
    t.reveal("a", [N1])
    t.use("a", texts=[N1])
    assert t.found() == []


# --- v2: bound to its match, its purpose and its dice -----------------------------------------------------------


def test_a_v2_toss_copied_from_another_match_is_015() -> None:
    t = Table(match="r1-t3")
    t.commit("a", match="r1-t2")
    t.nonce("a", N1)
    t.reveal("a")
    t.use("a")
    assert t.found() == [("KIFU-RNG-015", 2)]


def test_a_v1_toss_copied_from_another_match_is_not_caught() -> None:
    """The documented limit of v1 (docs/randomness.md, "Not protected"): nothing binds it to its match."""
    elsewhere, here = Table(match="r1-t2"), Table(match="r1-t3")
    for t in (elsewhere, here):
        t.toss("a", text=N1, v=1)
    assert here.found() == []


def test_a_match_id_that_is_not_plain_binds_through_its_hash() -> None:
    t = Table(match="卓2 第3試合")
    t.toss("a", text=N1)
    assert t.found() == []
    assert t.events[1]["match"].startswith("-")


def test_a_second_v2_toss_for_the_same_purpose_is_013() -> None:
    t = Table()
    t.toss("a", text=N1)
    b = t.toss("b", text=N2)
    assert t.found() == [("KIFU-RNG-013", b["commit"])]
    assert t.randomness().verifiable == 1  # the first toss stands


def test_a_v2_toss_withheld_then_tossed_again_for_its_purpose_is_only_005() -> None:
    t = Table()
    t.commit("a")
    t.nonce("a", N1)
    b = t.toss("b", text=N2)
    assert t.found() == [("KIFU-RNG-005", b["nonce"])]


def test_a_weak_hand_typed_v2_nonce_is_a_warning_naming_the_risk() -> None:
    t = Table()
    a = t.toss("a", text="neko1234")
    assert t.found() == [("KIFU-RNG-017", a["nonce"])]
    (f,) = [f for f in t.audit() if f.code == "KIFU-RNG-017"]
    assert "guess" in f.message.en
    v1 = Table()
    v1.toss("a", text="neko1234", v=1)
    assert v1.found() == []  # v1 asked only 4 characters: its logs verify as they did


def test_an_outcome_read_with_other_dice_than_the_roll_is_009() -> None:
    t = Table()
    t.commit("a", roll="coin")
    t.nonce("a", N1)
    t.reveal("a")
    use = t.use("a", 0, [6])
    assert t.found() == [("KIFU-RNG-009", use)]


def test_more_outcomes_than_the_roll_draws_is_010() -> None:
    t = Table()
    t.commit("a", roll="2d6")
    t.nonce("a", N1)
    t.reveal("a")
    t.use("a", 0, [6, 6])
    extra = t.use("a", 2, [6])
    assert t.found() == [("KIFU-RNG-010", extra)]


def test_an_until_roll_ends_at_its_face() -> None:
    t = Table()
    t.toss("a", text=N1, roll="coin-until-2")
    assert t.found() == []
    drawn = t.events[-1]["values"]
    assert drawn[-1] == 2 and 2 not in drawn[:-1]


def test_an_outcome_recorded_for_another_purpose_is_016() -> None:
    t = Table()
    t.commit("a", purpose="first-player")
    t.nonce("a", N1)
    t.reveal("a")
    use = t.use("a", purpose="act-a3")
    assert t.found() == [("KIFU-RNG-016", use)]
    ok = Table()
    ok.commit("a", purpose="first-player")
    ok.nonce("a", N1)
    ok.reveal("a")
    ok.use("a", purpose="First-Player")
    assert ok.found() == []


def test_a_v1_reveal_of_a_v2_commitment_does_not_open_it() -> None:
    t = Table()
    t.commit("a")
    t.nonce("a", N1)
    reveal = t.add({"type": "rng.reveal", "by": "aoi", "id": t.id("a"), "secret": t.events[1]["digest"], "nonce": N1})
    assert t.found() == [("KIFU-RNG-006", reveal)]


# --- case rules --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("field", ["digest", "secret", "nonce", "id"])
def test_upper_case_is_refused_in_every_field_of_a_log(field: str) -> None:
    from kifu.events.base import KifuError

    t = Table()
    t.toss("a", text=N1, v=1)
    by_field = {"digest": 1, "id": 1, "nonce": 2, "secret": 3}
    e = t.events[by_field[field]]
    e[field] = e[field].upper()
    with pytest.raises(KifuError, match=f"field {field}"):
        t.decoded()


def test_upper_case_tokens_read_as_the_same_tokens() -> None:
    c = rng.commit(bytes(range(32)), rng.Binding(match="m1", purpose="first-player", roll="coin"))
    n = rng.Nonce(id=c.id, text=N1, version=2)
    r = rng.reveal(bytes(range(32)), [n], version=2)
    for token in (c, n, r):
        assert rng.find_tokens(token.format().upper()) == [token]
