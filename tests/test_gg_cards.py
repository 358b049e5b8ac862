"""The ガンナガン card catalogue (kifu/games/gunandgun/cards.json): counts, decks, seed rulings, loader.

Seed 000 (shared/seeds/000_bcb755c8f159f990.txt) fixes which numbers the coin-toss
variant replaces; the reference (shared/reference/gunandgun.md §2.1-2.2) gives the rest.
"""

from __future__ import annotations

import json
from importlib import resources

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kifu.events.base import KifuError, MatchStarted, Player
from kifu.games.gunandgun import cards as gg
from kifu.games.gunandgun.cards import CatalogueError, Gun, Gunner, HitRow

CAT = gg.load()

# Decks whose 20 cards the reference table lists in full; the other three list only some cards.
COMPLETE_DECKS = {"enra", "nue", "datara", "kasane", "hakumen", "kiyohime"}
PARTIAL_DECKS = {"uwan", "dodome", "tsuetsuki"}

TIMINGS = {
    "action": {"activation"},
    "bullet": {"shot"},
    "response": {"response"},
    "function": {"turn_start", "turn_end", "continuous"},
}


def _raw() -> dict:
    return json.loads(resources.files("kifu.games.gunandgun").joinpath("cards.json").read_text("utf-8"))


def _nums(card: str) -> list[tuple[int, str, bool]]:
    c = CAT.card(card)
    assert c is not None, card
    return [(n.value, n.role, n.replaceable) for n in c.numbers]


# --- counts and sanity -------------------------------------------------------


def test_counts():
    assert (len(CAT.guns), len(CAT.gunners), len(CAT.skills), len(CAT.cards)) == (9, 6, 18, 54)


def test_every_gunner_has_three_skills_of_its_own():
    for g in CAT.gunners:
        assert len(g.skills) == 3
        assert all(CAT.skill(s).gunner == g.id for s in g.skills)


def test_ids_and_names_unique():
    for items in (CAT.guns, CAT.gunners, CAT.skills, CAT.cards):
        assert len({i.id for i in items}) == len(items)
        assert len({i.name for i in items}) == len(items)


@pytest.mark.parametrize("card", CAT.cards, ids=lambda c: c.id)
def test_card_kind_cost_and_timing_sane(card):
    assert 0 <= card.cost <= 5
    assert card.timing in TIMINGS[card.kind]
    assert all(n >= 1 for n in card.copies.values()) and card.copies
    assert card.summary and card.no
    if card.kind == "response":
        assert card.condition, "a response states its condition"


def test_gun_stats_sane():
    for g in CAT.guns:
        assert 0 < g.load_limit <= g.max_load
        assert g.hit_table and g.hit_table[-1].load <= g.max_load
        assert [r.load for r in g.hit_table] == sorted(r.load for r in g.hit_table)


def test_complete_decks_hold_twenty_cards_and_partial_decks_fewer():
    sizes = {g.id: sum(CAT.deck(g.id).values()) for g in CAT.guns}
    assert {g for g, n in sizes.items() if n == 20} == COMPLETE_DECKS
    assert {g for g, n in sizes.items() if n < 20} == PARTIAL_DECKS
    assert all(0 < n <= 20 for n in sizes.values())


def test_cards_in_two_decks():
    assert CAT.card("計略").copies == {"datara": 3, "uwan": 3}
    assert CAT.card("整息").copies == {"nue": 3, "datara": 2}
    assert CAT.deck("ウワン")["keiryaku"] == 3


def test_limits():
    assert [(lim.scope, lim.per, lim.n) for lim in CAT.card("ブリッツ").limits] == [("game", "name", 1)]
    assert [(lim.scope, lim.per) for lim in CAT.card("オーバーブースト").limits] == [("turn", "name")]
    assert [(lim.scope, lim.per) for lim in CAT.card("ポイズンバレット").limits] == [("turn", "effect")]
    assert [(lim.scope, lim.per) for lim in CAT.card("ダブルバレット").limits] == [("turn", "loading")]
    first_turn = CAT.card("オーバーヒート").numbers[0]
    assert (first_turn.role, first_turn.replaceable) == ("turns", False) and "first turn" in first_turn.note


# --- lookups -----------------------------------------------------------------


def test_lookup_by_id_and_name():
    assert CAT.card("keiryaku") is CAT.card("計略")
    assert CAT.gun("kiyohime") is CAT.gun("不消焔器 キヨヒメ") is CAT.gun("キヨヒメ")
    assert CAT.gunner("hibana") is CAT.gunner("ヒバナ")
    assert CAT.skill("oboro-bashiri") is CAT.skill("朧走り")
    assert CAT.card("nope") is None and CAT.gun("nope") is None
    assert CAT.gunner("nope") is None and CAT.skill("nope") is None
    assert CAT.card("keiryak") is None, "names match exactly"


def test_index_built_once_per_catalogue():
    assert gg._index(CAT) is gg._index(CAT)
    assert gg.load() is CAT


def test_gun_hit_row_lookup():
    kiyo = CAT.gun("kiyohime")
    assert kiyo.min_load() == 3
    assert kiyo.hit_at(2) is None
    assert kiyo.hit_at(4).extra == "BURN1"
    assert kiyo.hit_at(9).extra == "BURN2", "past the max the max-load row applies"


# --- the seed's rulings ------------------------------------------------------


SEED_NAMED = {
    "計略": ("action", [(3, "draw", True)]),
    "過焔地獄": ("action", [(5, "additional_cost", True), (4, "burn", True)]),
    "徹甲榴弾": ("bullet", [(4, "threshold", True), (2, "hit_mod", True)]),
    "リロード・サポーター": ("function", [(1, "load", True)]),
    "ノイズジェネレーター": ("function", [(1, "limit_imposed", True)]),
    "緊急回避": ("response", [(3, "hit_mod", True)]),
    "相撃ち": ("response", [(3, "threshold", True), (3, "hit", True)]),
}


@pytest.mark.parametrize("name", SEED_NAMED)
def test_seed_named_cards(name):
    kind, numbers = SEED_NAMED[name]
    assert CAT.card(name).kind == kind
    assert _nums(name) == numbers


def test_kaen_jigoku_additional_cost_is_kiyohime_five():
    c = CAT.card("過焔地獄")
    assert (c.additional_cost.gun, c.additional_cost.n, c.cost) == ("kiyohime", 5, 2)


def test_tekko_ryudan_threshold_is_a_load_count_per_the_seed():
    c = CAT.card("徹甲榴弾")
    assert "load count" in c.condition and c.timing == "shot"
    assert "総点数" in c.variant_note and "装填数" in c.variant_note


def test_reload_supporter_loads_at_turn_end():
    c = CAT.card("リロード・サポーター")
    assert (c.timing, c.cost) == ("turn_end", 1)
    assert "turn start" in c.numbers[0].note


def test_noise_generator_limit_is_an_effect_number_not_its_own_limit():
    c = CAT.card("ノイズジェネレーター")
    assert c.limits == [] and c.timing == "continuous" and c.variant_note


def test_responses_carry_conditions():
    assert "threshold" in CAT.card("相撃ち").condition
    assert CAT.card("緊急回避").timing == CAT.card("相撃ち").timing == "response"


# --- the replaceable policy --------------------------------------------------


def test_additional_cost_numbers_are_replaceable_and_match():
    with_cost = [c for c in CAT.cards if c.additional_cost]
    assert {c.name for c in with_cost} == {"轟雷砲", "ヘッドショット", "亜空光線", "過焔地獄"}
    for c in with_cost:
        [n] = c.numbers_with("additional_cost")
        assert n.replaceable and n.value == c.additional_cost.n


def test_imposed_limits_replaceable():
    assert all(n.replaceable for c in CAT.cards for n in c.numbers_with("limit_imposed"))


def test_every_fixed_number_says_why():
    for c in CAT.cards:
        for n in c.numbers:
            assert n.replaceable or n.note, f"{c.id}: a fixed number needs its reason"


def _number_fields(struct: type) -> list[str]:
    return [f.name for f in msgspec.structs.fields(struct) if "Number" in repr(f.type)]


def test_costs_gun_and_gunner_numbers_are_never_replaceable():
    # Guns, HIT rows and gunners carry no Number at all: nothing the variant could replace.
    for struct in (Gun, Gunner, HitRow):
        assert _number_fields(struct) == []
    # COST and skill voltage are plain fields, outside the numbers the variant replaces.
    for c in CAT.cards:
        assert all(n.role != "additional_cost" or c.additional_cost for n in c.numbers)
    ganbaru_cost_cut = CAT.skill("がんばる!!").numbers[1]
    assert not ganbaru_cost_cut.replaceable and "cost" in ganbaru_cost_cut.note


def test_replaceable_lists_the_tossed_numbers():
    assert CAT.card("過焔地獄").replaceable_numbers == CAT.card("過焔地獄").numbers
    assert CAT.card("オーバーヒート").replaceable_numbers == [CAT.card("オーバーヒート").numbers[1]]
    assert CAT.card("ジャミング").replaceable_numbers == []


def test_structural_numbers_fixed():
    assert _nums("ダブルバレット") == [(2, "load", False)]
    assert _nums("炎転化")[-1] == (2, "other", False)


# --- merged() ----------------------------------------------------------------


def _card(**over) -> dict:
    card = {
        "id": "tesuto",
        "name": "テスト",
        "no": "HOUSE-1",
        "kind": "action",
        "cost": 0,
        "copies": {"enra": 1},
        "summary": "house card",
        "timing": "activation",
    }
    return {**card, **over}


def test_merged_none_is_builtin():
    assert gg.merged(None) is CAT and gg.merged({}) is CAT


def test_merged_overrides_by_id_and_keeps_order():
    keiryaku = msgspec.to_builtins(CAT.card("keiryaku"))
    keiryaku["numbers"] = [{"value": 2, "role": "draw", "replaceable": True}]
    cat = gg.merged({"cards": [keiryaku]})
    assert _nums_of(cat, "計略") == [(2, "draw", True)]
    assert [c.id for c in cat.cards] == [c.id for c in CAT.cards]
    assert _nums("計略") == [(3, "draw", True)], "the built-in catalogue is untouched"
    assert cat.card("相撃ち") == CAT.card("相撃ち")


def test_merged_extends_with_new_gun_and_card():
    gun = {
        "id": "hausu",
        "name": "試作銃 ハウス",
        "no": "H-1",
        "type": "light",
        "max_load": 2,
        "load_limit": 1,
        "weight": 1,
        "hit_table": [{"load": 1, "hit": 1}],
        "summary": "house gun",
    }
    cat = gg.merged({"guns": [gun], "cards": [_card(copies={"hausu": 20})]})
    assert cat.gun("ハウス").id == "hausu" and cat.card("テスト").copies == {"hausu": 20}
    assert len(cat.cards) == 55 and len(cat.guns) == 10
    assert cat.version.endswith("+log")


@given(st.lists(st.sampled_from(CAT.cards), unique_by=lambda c: c.id), st.integers(0, 9))
def test_merging_builtin_entries_changes_only_what_differs(cards, value):
    extra = [msgspec.to_builtins(c) for c in cards]
    assert gg.merged({"cards": extra}).cards == CAT.cards
    if not cards:
        return
    numbers = extra[0].get("numbers") or [{"value": 0, "role": "draw", "replaceable": True}]
    extra[0]["numbers"] = [{**numbers[0], "value": value}] + numbers[1:]
    cat = gg.merged({"cards": extra})
    changed = {c.id for c, b in zip(cat.cards, CAT.cards) if c != b}
    assert changed <= {cards[0].id}
    assert cat.card(cards[0].id).numbers[0].value == value


def test_for_match_uses_the_logs_catalogue():
    start = MatchStarted(
        seq=1,
        prev=None,
        format="kifu/1",
        game="gunandgun",
        match="m",
        players=[Player(id="a", name="A")],
        catalogue={"cards": [_card()]},
    )
    assert gg.for_match(start).card("tesuto").cost == 0
    assert gg.for_match(start) is gg.for_match(start), "one catalogue per distinct log catalogue"


def _nums_of(cat, name):
    return [(n.value, n.role, n.replaceable) for n in cat.card(name).numbers]


# --- malformed catalogues ----------------------------------------------------


@pytest.mark.parametrize(
    "mutate, field",
    [
        (lambda d: d["cards"][0].update(cost="two"), "cards[0].cost"),
        (lambda d: d["cards"][3].update(cost=-1), "cards[3].cost"),
        (lambda d: d["cards"][0]["numbers"][0].update(role="damage"), "cards[0].numbers[0].role"),
        (lambda d: d["guns"][1].update(colour="red"), "guns[1].colour"),
        (lambda d: d["cards"][2].update(kind="instant"), "cards[2].kind"),
        (lambda d: d["cards"][5].update(id="Bad Id"), "cards[5].id"),
        (lambda d: d["cards"][1]["copies"].update(nowhere=2), "cards[1].copies"),
        (lambda d: d["cards"][4].update(id=d["cards"][0]["id"]), "cards[4].id"),
        (lambda d: d["gunners"][0]["skills"].append("ghost"), "gunners[0].skills"),
        (lambda d: d["guns"][0]["hit_table"].reverse(), "guns[0].hit_table"),
        (lambda d: d.pop("version"), None),
    ],
)
def test_malformed_catalogue_rejected_naming_the_field(mutate, field):
    data = _raw()
    mutate(data)
    with pytest.raises(CatalogueError) as info:
        gg.decode(json.dumps(data, ensure_ascii=False))
    assert isinstance(info.value, KifuError)
    assert info.value.field == field
    if field is None:
        assert "version" in str(info.value)


def test_malformed_log_catalogue_rejected_naming_the_field():
    with pytest.raises(CatalogueError) as info:
        gg.merged({"cards": [_card(timing="dawn")]})
    assert info.value.field == "cards[0].timing" and info.value.where == "match.start.catalogue"
    with pytest.raises(CatalogueError) as info:
        gg.merged({"cards": [_card(copies={"ghost": 1})]})
    assert info.value.field == "cards[0].copies", "the path points into the log's catalogue"
    with pytest.raises(CatalogueError) as info:
        gg.merged({"cards": [_card(), _card(name="二枚目")]})
    assert info.value.field == "cards[1].id"
    with pytest.raises(CatalogueError) as info:
        gg.merged({"gunners": [{**msgspec.to_builtins(CAT.gunner("ran")), "skills": ["ghost"]}]})
    assert info.value.field == "gunners[0].skills"
    with pytest.raises(CatalogueError) as info:
        gg.merged({"decks": []})
    assert info.value.field == "decks"


def test_catalogue_round_trips():
    again = gg.decode(msgspec.json.encode(CAT))
    assert again == CAT
