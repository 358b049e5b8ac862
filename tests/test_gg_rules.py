"""ガンナガン (seed 000 coin-toss variant): events, projection, catalogue gaps, options and the CLI."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import FIXTURES

from kifu import app
from kifu.auditor import registry
from kifu.events import table
from kifu.events.base import MalformedEvent
from kifu.events.codec import encode
from kifu.games.gunandgun.sim import play


def chain(payloads: list[dict[str, Any]]) -> list[Any]:
    """A simulated match's payloads as a chained log (``kifu.chain``)."""
    return app.chain("gunandgun", payloads)


def findings(payloads):
    return registry.audit(chain(payloads), strict=True)


def errors(payloads):
    return {(f.code, f.seq) for f in findings(payloads) if f.severity == "error"}


GG = FIXTURES / "gunandgun"


def _start(guns=("キヨヒメ", "ダタラ"), **extra):
    return [
        {
            "type": "match.start",
            "format": "kifu/1",
            "game": "gunandgun",
            "match": "t",
            "players": [{"id": "p1", "name": "A"}, {"id": "p2", "name": "B"}],
            **extra,
        },
        {"type": "gg.setup", "player": "p1", "gunner": "ヒバナ", "guns": list(guns), "skill": "朧走り"},
        {
            "type": "gg.setup",
            "player": "p2",
            "gunner": "ナトリ",
            "guns": ["ダタラ", "ハクメン"],
            "skill": "グッドメディスン",
        },
        {"type": "gg.first", "player": "p1", "reason": "speed"},
        {"type": "gg.draw", "player": "p1", "deck": "キヨヒメ", "n": 3, "why": "opening"},
        {"type": "gg.draw", "player": "p2", "deck": "ダタラ", "n": 5, "why": "opening"},
        {"type": "gg.turn", "player": "p1", "turn": 1},
    ]


def _use(card: str, pay: int, kind: str = "hand") -> list[dict]:
    return [
        {"type": "gg.play", "act": "a1", "player": "p1", "card": card, "kind": "action"},
        {"type": "gg.cost", "act": "a1", "player": "p1", "kind": kind, "n": pay},
        {"type": "gg.toss", "act": "a1", "player": "p1", "facing": "opponent"},
        {"type": "gg.resolve", "act": "a1", "player": "p1", "n": 0, "values": [0]},
    ]


def test_events_round_trip_through_the_codec():
    for e in chain(play(random.Random(3), "rt", 6)):
        assert table.codec("gunandgun").decode(encode(e)) == e


def test_impossible_values_are_rejected_naming_the_field():
    bad = {"type": "gg.toss", "seq": 2, "prev": "x", "act": "a1", "player": "p1", "facing": "up"}
    with pytest.raises(MalformedEvent) as exc:
        table.codec("gunandgun").convert(bad)
    assert exc.value.field == "facing"
    with pytest.raises(MalformedEvent) as exc:
        table.codec("gunandgun").convert({**bad, "type": "gg.draw", "deck": "x", "n": -1, "why": "refill"})
    assert exc.value.field in ("n", "facing")


def test_a_card_the_catalogue_lacks_is_undecided_not_guessed():
    fs = findings(_start() + _use("謎のカード", 1))
    assert [f.severity for f in fs if f.code == "GG-COST-001"] == ["info"]
    assert not [f for f in fs if f.severity == "error"]


def test_the_logs_own_catalogue_decides_it():
    own = {
        "cards": [
            {
                "id": "nazo",
                "name": "謎のカード",
                "no": "X-1",
                "kind": "action",
                "cost": 2,
                "copies": {"datara": 1},
                "numbers": [{"value": 2, "role": "draw", "replaceable": True}],
                "summary": "test card",
            }
        ]
    }
    fs = findings(_start(catalogue=own) + _use("謎のカード", 1))
    assert [(f.code, f.severity) for f in fs if f.code == "GG-COST-001"] == [("GG-COST-001", "error")]


def test_cost_payment_option_changes_the_verdict():
    hand = findings(_start() + _use("計略", 1))
    volt = findings(_start(rules={"cost_payment": "voltage"}) + _use("計略", 1))
    assert not [f for f in hand if f.code == "GG-COST-001"]
    assert [f.code for f in volt if f.severity == "error"] == ["GG-COST-001"]


def test_unknown_option_is_a_warning():
    fs = findings(_start(rules={"burn_mode": "flat"}))
    assert [(f.code, f.severity) for f in fs] == [("KIFU-LOG-008", "warning")]


def test_projection_counts_the_state_a_judge_needs():
    events = chain([*_start(), *_use("計略", 1)])
    from kifu.projector.base import state_at

    g = registry.game("gunandgun")
    frame = state_at(g.projection, events, len(events), {})
    p1 = frame.game.players["p1"]
    assert (p1.hand, p1.discard, p1.life, p1.plays["計略"]) == (1, 2, 30, 1)
    a = frame.game.acts["a1"]
    assert (a.cost_seq, a.tosses, a.n, a.resolved) == (9, ("opponent",), 0, 11)
    assert frame.game.players["p1"].guns["キヨヒメ"].deck == 17


def test_rules_lists_every_gg_rule_with_its_citation(kifu):
    r = kifu("rules", "-g", "gunandgun", "-f", "csv")
    assert r.code == 0
    gg = [x for x in registry.game("gunandgun").rules]
    for rule in gg:
        assert rule.code in r.out and rule.citation.en.split(" (")[0] in r.out
    assert len(gg) >= 35


def test_rules_explains_one_in_japanese(kifu):
    r = kifu("rules", "GG-TOSS-001", "--lang", "ja")
    assert r.code == 0
    assert "コストはトスの前に支払う" in r.out and "トスで決まる枚数ルール §ルール適用の例外" in r.out
    assert "seed" not in r.out  # the document by its name, with its title below the citation


def test_every_gg_rule_has_docs_and_both_languages():
    for rule in registry.game("gunandgun").rules:
        assert rule.title.ja and rule.title.en and rule.message.ja and rule.message.en
        assert rule.doc.checks and rule.doc.why and rule.doc.bad and rule.doc.good
        assert any(
            d.name.en in rule.citation.en and d.name.ja in rule.citation.ja
            for d in registry.game("gunandgun").documents
        ), rule.code
        known = {o.name for o in registry.game("gunandgun").options}
        assert set(rule.options) <= known


def test_dispute_log_gives_the_judges_findings(kifu):
    r = kifu("audit", GG / "dispute.jsonl")
    assert r.code == 1
    for code in ("GG-TOSS-001", "GG-LIM-001"):
        assert code in r.out
    assert "GG-LOAD-002" not in r.out  # 高速充電's N past ダタラ's room is ignored (seed 000 FAQ), no finding


def test_clean_match_is_long_and_clean(kifu):
    assert len((GG / "match-clean.jsonl").read_text(encoding="utf-8").splitlines()) >= 150
    r = kifu("audit", GG / "match-clean.jsonl")
    assert r.code == 0, r.out


def test_every_seed_ruling_has_a_follow_and_a_break():
    folders = sorted(p for p in (GG / "rulings").iterdir() if p.is_dir())
    assert len(folders) >= 20
    for d in folders:
        names = {p.name for p in d.glob("*.jsonl")}
        assert "follow.jsonl" in names and "break.jsonl" in names, d


def test_a_gun_may_be_named_by_id_full_or_short_name():
    log = _start() + [
        {"type": "gg.load", "player": "p1", "gun": "kiyohime"},
        {"type": "gg.load", "player": "p1", "gun": "不消焔器 キヨヒメ"},
    ]
    assert [(f.code, f.seq) for f in findings(log) if f.severity == "error"] == [("GG-LOAD-001", 9)]


def test_a_card_may_be_named_by_id_or_name():
    log = _start(guns=("キヨヒメ", "カサネ"))
    for act, card in (("a1", "叩き付け"), ("a2", "tatakitsuke")):
        log += [
            {"type": "gg.play", "act": act, "player": "p1", "card": card, "kind": "action"},
            {"type": "gg.toss", "act": act, "player": "p1", "facing": "opponent"},
            {"type": "gg.resolve", "act": act, "player": "p1", "n": 0},
        ]
    assert [(f.code, f.seq) for f in findings(log) if f.severity == "error"] == [("GG-LIM-001", 11)]


def test_a_snippet_without_turns_or_draws_is_judged_on_the_toss_alone():
    """A dispute written down from the middle of a game: only what it records is judged."""
    log = _start()[:4] + [
        {"type": "gg.play", "act": "a1", "player": "p1", "card": "計略", "kind": "action"},
        {"type": "gg.toss", "act": "a1", "player": "p1", "facing": "self"},
        {"type": "gg.toss", "act": "a1", "player": "p1", "facing": "opponent"},
        {"type": "gg.cost", "act": "a1", "player": "p1", "kind": "hand", "n": 1},
        {"type": "gg.resolve", "act": "a1", "player": "p1", "n": 1, "values": [1]},
        {"type": "gg.draw", "player": "p1", "deck": "キヨヒメ", "n": 1, "why": "effect", "act": "a1"},
    ]
    assert [(f.code, f.seq) for f in findings(log) if f.severity != "info"] == [("GG-TOSS-001", 6)]


def test_no_gg_field_shadows_the_envelope():
    import msgspec

    from kifu.events.base import Event
    from kifu.games.gunandgun.events import EVENTS

    envelope = {f.name: f.type for f in msgspec.structs.fields(Event)}
    for cls in EVENTS:
        for f in msgspec.structs.fields(cls):
            if f.name in envelope:
                assert f.type == envelope[f.name], (cls.__name__, f.name)


def test_every_gg_rule_doc_is_in_japanese_too():
    """`kifu rules GG-… --lang ja` prints every Doc section in Japanese (the game's catalogue, kifu/games/gunandgun/locale/ja.json)."""
    import re

    from kifu.auditor.base import Text

    kana_kanji = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    for rule in registry.game("gunandgun").rules:
        for name in ("checks", "why", "bad", "good"):
            value = getattr(rule.doc, name)
            assert isinstance(value, Text), (rule.code, name)
            assert kana_kanji.search(value.ja) and value.ja != value.en, (rule.code, name)
