"""Magic coin flips (CR 705): events, catalogue, projection and the auditor's robustness."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest
from conftest import FIXTURES
from hypothesis import given
from hypothesis import strategies as st
from test_mtg_sim import chain

from kifu.auditor import registry
from kifu.events import table
from kifu.events.base import MalformedEvent
from kifu.events.codec import encode
from kifu.events.logfile import load
from kifu.games.mtg import projection
from kifu.games.mtg.cards import builtin, for_match
from kifu.games.mtg.sim import legal_match
from kifu.projector.base import Replay, frames

CODEC = table.codec("mtg")
REFERENCE_CARDS = [
    "Mana Crypt",
    "Stitch in Time",
    "Frenetic Efreet",
    "Goblin Archaeologist",
    "Sorcerer's Strongbox",
    "Bottle of Suleiman",
    "Mogg Assassin",
    "Krark, the Thumbless",
    "Game of Chaos",
    "Fiery Gambit",
    "Crazed Firecat",
    "Mirror March",
    "Okaun, Eye of Chaos",
    "Zndrsplt, Eye of Wisdom",
    "Chance Encounter",
    "Tavern Scoundrel",
    "Squee's Revenge",
    "Yusri, Fortune's Flame",
    "Ral Zarek",
    "Mana Clash",
    "Two-Headed Giant",
    "Rakdos, the Showstopper",
    "Krark's Thumb",
    "Edgar, King of Figaro",
    "Toothy and Zndrsplt",
]


def test_catalogue_holds_the_25_reference_cards() -> None:
    cat = builtin()
    assert all(cat.get(name) is not None for name in REFERENCE_CARDS)
    assert {cat.get(n).call for n in ("Mana Clash", "Ral Zarek", "Two-Headed Giant", "Rakdos, the Showstopper")} == {
        "heads-tails"
    }
    assert cat.get("Chance Encounter").watch.scope == "you" and cat.get("Okaun, Eye of Chaos").watch.scope == "any"
    assert cat.get("Fiery Gambit").loss_voids and cat.get("Squee's Revenge").loss_voids
    assert cat.get("krark's thumb").modifier == "thumb"


def test_a_match_may_add_its_own_cards() -> None:
    cat = for_match({"cards": [{"name": "Lucky Gambler", "roles": ["flip"], "call": "called", "sequence": "fixed"}]})
    assert cat.get("lucky gambler").call == "called" and cat.get("Mana Crypt") is not None


@pytest.mark.parametrize(
    "line,field",
    [
        ('{"type":"mtg.call","seq":2,"prev":"x","flip":"f1","player":"a","side":"edge"}', "side"),
        (
            '{"type":"mtg.flip","seq":2,"prev":"x","flip":"f1","card":"Mana Crypt","controller":"a","flipper":"a","coins":0}',
            "coins",
        ),
        ('{"type":"mtg.keep","seq":2,"prev":"x","flip":"f1","player":"a","coin":0}', "coin"),
        ('{"type":"mtg.coin","seq":2,"prev":"x","flip":"f1","result":"heads","wobble":1}', "wobble"),
        ('{"type":"mtg.payoff","seq":2,"prev":"x","flip":"f1","kind":"luck-counter","amount":-1}', "amount"),
    ],
)
def test_decoder_rejects_impossible_values_naming_the_field(line: str, field: str) -> None:
    with pytest.raises(MalformedEvent) as err:
        CODEC.decode(line.encode())
    assert err.value.field == field


def test_events_round_trip_through_the_codec() -> None:
    for raw in (FIXTURES / "mtg" / "match-clean.jsonl").read_bytes().splitlines():
        assert encode(CODEC.decode(raw)) == raw


def test_projection_of_the_clean_match() -> None:
    events = load(FIXTURES / "mtg" / "match-clean.jsonl").events
    state = Replay(projection, events, {"stated_results": True}).state_at(events[-1].seq).game
    gambit = state.flips["t3-gambit"]
    assert [projection.true_outcome(gambit, g) for g in projection.groups_in_order(gambit)] == ["won"] * 3
    assert [len(g.coins) for g in projection.groups_in_order(gambit)] == [2, 2, 2]
    assert projection.kept_coin(gambit.groups[1], "a").result == "heads"
    assert [w.card for w in gambit.watchers] == ["Chance Encounter", "Zndrsplt, Eye of Wisdom"]
    assert state.wins == {"a": 5, "b": 2} and state.losses == {"a": 1, "b": 1}
    assert "thumb-a1" not in state.permanents


IDS = st.sampled_from(["f1", "f2", "f3"])
WHO = st.sampled_from(["a", "b", "c"])
GROUP = st.integers(1, 4)
BODY = st.one_of(
    st.builds(
        lambda f, c, w, n, ch: {
            "type": "mtg.flip",
            "flip": f,
            "card": c,
            "controller": w,
            "flipper": w,
            "coins": n,
            "chosen": ch,
        },
        IDS,
        st.sampled_from(REFERENCE_CARDS + ["Unknown"]),
        WHO,
        st.integers(1, 3),
        st.one_of(st.none(), st.integers(0, 7)),
    ),
    st.builds(
        lambda f, g, w, s: {"type": "mtg.call", "flip": f, "group": g, "player": w, "side": s},
        IDS,
        GROUP,
        WHO,
        st.sampled_from(["heads", "tails"]),
    ),
    st.builds(
        lambda f, g, w, s, face, r: {
            "type": "mtg.coin",
            "flip": f,
            "group": g,
            "player": w,
            "result": s,
            "face": face,
            "randomiser": r,
        },
        IDS,
        GROUP,
        WHO,
        st.sampled_from(["heads", "tails"]),
        st.one_of(st.none(), st.integers(1, 8)),
        st.sampled_from(["coin", "d6", "odd"]),
    ),
    st.builds(
        lambda f, g, w, i: {"type": "mtg.keep", "flip": f, "group": g, "player": w, "coin": i},
        IDS,
        GROUP,
        WHO,
        st.integers(1, 3),
    ),
    st.builds(
        lambda f, g, w, o: {"type": "mtg.outcome", "flip": f, "group": g, "player": w, "outcome": o},
        IDS,
        GROUP,
        WHO,
        st.sampled_from(["won", "lost"]),
    ),
    st.builds(
        lambda f, g, w, c: {"type": "mtg.choice", "flip": f, "group": g, "player": w, "choice": c},
        IDS,
        GROUP,
        WHO,
        st.sampled_from(["continue", "stop"]),
    ),
    st.builds(
        lambda f, g, p, k, n: {"type": "mtg.payoff", "flip": f, "group": g, "permanent": p, "kind": k, "amount": n},
        IDS,
        st.one_of(st.none(), GROUP),
        st.sampled_from([None, "p1", "p2", "zz"]),
        st.sampled_from(["luck-counter", "draw", "damage", "life-gain", "double", "counter"]),
        st.integers(0, 9),
    ),
    st.builds(
        lambda p, c, w: {"type": "mtg.enters", "permanent": p, "card": c, "controller": w},
        st.sampled_from(["p1", "p2"]),
        st.sampled_from(REFERENCE_CARDS),
        WHO,
    ),
    st.builds(lambda p: {"type": "mtg.leaves", "permanent": p}, st.sampled_from(["p1", "p2"])),
    st.builds(lambda t, w: {"type": "mtg.turn", "turn": t, "player": w}, st.integers(1, 3), WHO),
    st.builds(
        lambda k, s, h, a, c: {
            "type": "mtg.randomiser",
            "randomiser": "d6" if k == "die" else "odd",
            "kind": k,
            "sides": s,
            "heads": h,
            "agreed": a,
            "clear": c,
        },
        st.sampled_from(["coin", "die"]),
        st.integers(1, 8),
        st.sampled_from([None, "odd", "low", "x"]),
        st.lists(WHO, max_size=3),
        st.booleans(),
    ),
)


@given(
    st.lists(BODY, max_size=30),
    st.sampled_from([{}, {"thumbs_stack": "add", "stated_results": False}, {"recorded_coins": "kept"}]),
)
def test_the_auditor_never_raises_on_well_formed_events(bodies: list[dict], rules: dict) -> None:
    start = {
        "type": "match.start",
        "format": "kifu/1",
        "game": "mtg",
        "match": "fuzz",
        "rules": rules,
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
    }
    events = chain([start] + [{k: v for k, v in b.items() if v is not None} for b in bodies])
    findings = registry.audit(events, strict=True)
    assert all(f.code != "KIFU-ENG-001" for f in findings)
    msgspec.json.encode(Replay(projection, events, {}).state_at(events[-1].seq))


def _assert_fold_as_worked_out_again(events: list) -> None:
    """At every event, what the fold keeps of each flip (what the rules read: its verdicts, and the score of its
    instruction) equals what is worked out again from the whole instruction. The fold brings up to date only
    the group an event names, and an instruction's score only by that group when it is the last."""
    for frame in frames(projection, events, registry.options(registry.game("mtg"), events[0])):
        wins: Counter[str] = Counter()
        losses: Counter[str] = Counter()
        for ins in frame.game.flips.values():
            for g in ins.groups.values():
                call = projection.the_call(ins, g)
                kept = {
                    who: c.result
                    for who in dict.fromkeys(c.player for c in g.coins)
                    if (c := projection.kept_coin(g, who)) is not None
                }
                assert (g.call, g.kept, g.outcome) == (
                    call.value if call else None,
                    kept,
                    projection.true_outcome(ins, g),
                ), (frame.seq, ins.flip)
            made = projection.effective_groups(ins)
            assert (ins.made, ins.wins, ins.losses) == (
                len(made),
                sum(g.outcome == "won" for g in made),
                sum(g.outcome == "lost" for g in made),
            ), (frame.seq, ins.flip)
            wins[ins.flipper] += ins.wins
            losses[ins.flipper] += ins.losses
        assert frame.game.wins == +wins and frame.game.losses == +losses


@given(st.lists(BODY, max_size=30), st.sampled_from([{}, {"call_counts": "first", "stated_results": False}]))
def test_the_fold_keeps_what_the_rules_read_of_any_events(bodies: list[dict], rules: dict) -> None:
    start = {
        "type": "match.start",
        "format": "kifu/1",
        "game": "mtg",
        "match": "fuzz",
        "rules": rules,
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
    }
    _assert_fold_as_worked_out_again(chain([start] + [{k: v for k, v in b.items() if v is not None} for b in bodies]))


@pytest.mark.parametrize("seed", range(12))
def test_the_fold_keeps_what_the_rules_read_of_simulated_matches(seed: int) -> None:
    _assert_fold_as_worked_out_again(chain(legal_match(seed, turns=6, thumbs=True, edgar=seed % 3 == 0)))
    slipped = legal_match(seed, turns=6, thumbs=True)
    for body in slipped:  # every flip's outcome recorded wrong: the fold must judge it from call and kept coin
        if body["type"] == "mtg.outcome":
            body["outcome"] = "lost" if body["outcome"] == "won" else "won"
    _assert_fold_as_worked_out_again(chain(slipped))


def _flips(*groups: tuple[int, str, str]) -> list[dict]:
    """An until-lose flip by ``a``: for each (group, call, result) a call and a coin."""
    bodies = [
        {
            "type": "match.start",
            "format": "kifu/1",
            "game": "mtg",
            "match": "m",
            "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        },
        {"type": "mtg.flip", "flip": "f1", "card": "Crazed Firecat", "flipper": "a"},
    ]
    for n, call, result in groups:
        bodies += [
            {"type": "mtg.call", "flip": "f1", "group": n, "player": "a", "side": call},
            {"type": "mtg.coin", "flip": "f1", "group": n, "result": result},
        ]
    return bodies


@pytest.mark.parametrize(
    "groups",
    [
        [(1, "heads", "heads"), (2, "heads", "tails"), (3, "heads", "heads"), (4, "tails", "tails")],  # after the loss
        [(2, "heads", "tails"), (1, "heads", "heads"), (3, "heads", "heads")],  # recorded out of order
        [(1, "heads", "heads"), (1, "tails", "heads"), (2, "heads", "heads")],  # a flip recorded again
    ],
)
def test_the_fold_keeps_what_the_rules_read_of_flips_after_the_effect_or_out_of_order(groups: list) -> None:
    _assert_fold_as_worked_out_again(chain(_flips(*groups)))


def test_every_fixture_finding_fills_its_message_in_both_languages() -> None:
    seen = set()
    for path in sorted((FIXTURES / "mtg").rglob("*.jsonl")):
        for f in registry.audit(load(path).events, strict=True):
            seen.add(f.code)
            assert "{" not in f.message.en and "{" not in f.message.ja, (path.name, f.code, f.message)
    mtg_codes = {r.code for r in registry.game("mtg").rules}
    assert mtg_codes <= seen, sorted(mtg_codes - seen)


def test_state_shows_kept_sides_per_group() -> None:
    events = load(FIXTURES / "mtg" / "rulings" / "ss56-mana-clash-sees-opponent-coin" / "good.jsonl").events
    replay = Replay(projection, events, {})
    before_keep = replay.state_at(events[-1].seq - 1).game.flips["f1"].groups[1]
    after_keep = replay.state_at(events[-1].seq).game.flips["f1"].groups[1]
    assert before_keep.kept == {"b": "heads"} and after_keep.kept == {"a": "heads", "b": "heads"}
    assert after_keep.thumbs == {"a": 1, "b": 0}


def test_a_card_from_the_matchs_own_catalogue_is_audited() -> None:
    start = {
        "type": "match.start",
        "format": "kifu/1",
        "game": "mtg",
        "match": "own-cards",
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "catalogue": {
            "cards": [
                {
                    "name": "Lucky Gambler",
                    "roles": ["flip"],
                    "call": "called",
                    "sequence": "until-lose",
                    "per_win": {"counter": 1},
                }
            ]
        },
    }
    bodies = [
        start,
        {"type": "mtg.flip", "flip": "f1", "card": "Lucky Gambler", "flipper": "a"},
        {"type": "mtg.call", "flip": "f1", "player": "a", "side": "heads"},
        {"type": "mtg.coin", "flip": "f1", "result": "heads"},
        {"type": "mtg.payoff", "flip": "f1", "kind": "counter", "amount": 1},
    ]
    found = [(f.code, f.seq) for f in registry.audit(chain(bodies), strict=True)]
    assert found == [("MTG-SEQ-002", 4)]
