"""Weiss Schwarz (seed 003): rule catalogue, options, decoder limits, projection details, purity and CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import FIXTURES, run_cli

from kifu.auditor import registry
from kifu.events import table
from kifu.events.base import MalformedEvent
from kifu.games.weiss.game import GAME
from kifu.games.weiss.rules import RULES
from kifu.games.weiss.rules.attack import expected_reversed
from kifu.games.weiss.rules.common import OPTIONS
from kifu.games.weiss.sim import Table

CODEC = table.codec("weiss")
FORBIDDEN = {"os", "io", "sys", "pathlib", "random", "time", "datetime", "logging", "socket", "subprocess", "duckdb"}


@pytest.mark.parametrize("r", RULES, ids=lambda r: r.code)
def test_every_rule_is_documented_and_cites_its_source(r) -> None:
    docs = registry.game("weiss").documents
    assert r.code.startswith("WS-") and any(d.name.en in r.citation.en and d.name.ja in r.citation.ja for d in docs)
    assert r.title.ja and r.title.en and r.message.ja and r.message.en
    assert all([r.doc.checks, r.doc.why, r.doc.bad, r.doc.good])
    assert set(r.options) <= {o.name for o in OPTIONS}


def test_registry_knows_weiss() -> None:
    assert registry.game("weiss") is GAME
    assert {o.name for o in OPTIONS} >= {"hand_limit", "battle_tie", "encore_rested_same_slot", "end_phase_order"}


@pytest.mark.parametrize(
    "line,field",
    [
        ({"type": "ws.attack", "player": "p1", "slot": "C4", "kind": "front"}, "slot"),
        ({"type": "ws.attack", "player": "p1", "slot": "C1", "kind": "sideways"}, "kind"),
        ({"type": "ws.damage", "player": "p1", "amount": -1}, "amount"),
        ({"type": "ws.draw", "player": "p1", "count": 0}, "count"),
        ({"type": "ws.phase", "phase": "upkeep"}, "phase"),
        ({"type": "ws.encore", "player": "p1", "slot": "C1", "stock": 3, "colour": "red"}, "colour"),
    ],
)
def test_the_decoder_rejects_impossible_values_naming_the_field(line, field) -> None:
    raw = json.dumps({**line, "seq": 2, "prev": "0" * 64}).encode()
    with pytest.raises(MalformedEvent) as exc:
        CODEC.decode(raw)
    assert exc.value.field == field


@pytest.mark.parametrize(
    "a,d,tie,want",
    [
        (3000, 2000, "both", ["defender"]),
        (1000, 2000, "both", ["attacker"]),
        (2000, 2000, "both", ["attacker", "defender"]),
        (2000, 2000, "neither", []),
    ],
)
def test_battle_reverses_the_lower_and_ties_follow_the_option(a, d, tie, want) -> None:
    assert expected_reversed(a, d, tie) == want


def _table() -> Table:
    t = Table(rng=random.Random(0))
    t.setup()
    t.begin("p1")
    t.phase("stand")
    return t


def test_cancelled_damage_goes_to_the_waiting_room_and_uncancelled_to_the_clock() -> None:
    t = _table()
    t.emit("ws.damage", player="p2", amount=3, cards=[{"card": "x"}, {"climax": True}], cancelled=True, source="effect")
    assert (t.side("p2").waiting, t.side("p2").clock, t.side("p2").deck) == (2, (), 43)
    t.emit("ws.damage", player="p2", amount=2, cards=[{"card": "y"}, {"card": "z"}], source="effect")
    assert t.side("p2").clock == ("y", "z")


def test_level_up_takes_seven_clock_cards() -> None:
    t = _table()
    t.emit("ws.move", player="p1", **{"from": "deck"}, to="clock", count=8)
    t.emit("ws.levelup", player="p1")
    side = t.side("p1")
    assert (len(side.clock), len(side.level), side.waiting) == (1, 1, 6)


def test_the_projection_never_raises_on_events_that_break_rules() -> None:
    t = _table()
    t.emit("ws.encore", player="p1", slot="C3", stock=3)  # nothing left C3, no stock
    t.emit("ws.battle", attacker_power=1, defender_power=2, reversed=["attacker"])  # no attack
    t.emit("ws.discard", player="p2", count=40)
    assert t.side("p2").hand == 0 and t.side("p1").stage["C3"].state == "rest"


def test_cli_audits_the_clean_match_and_explains_a_rule(kifu) -> None:
    r = kifu("audit", FIXTURES / "weiss" / "match-clean.jsonl")
    assert r.code == 0, r.out + r.err
    r = kifu("audit", FIXTURES / "weiss" / "rules" / "WS-DMG-003" / "bad.jsonl", "--lang", "en")
    assert r.code == 1 and "WS-DMG-003" in r.out
    r = kifu("rules", "WS-ENC-002", "--lang", "ja")
    assert r.code == 0 and "アンコール" in r.out
    r = kifu("state", FIXTURES / "weiss" / "match-clean.jsonl", "--at", "40")
    assert r.code == 0 and json.loads(r.out)["game"]["turn_player"] in ("p1", "p2")


def test_a_log_without_its_start_leaves_counted_zones_undecided(tmp_path: Path) -> None:
    """From a turn-7 excerpt with no ws.board, a refresh, a level-up and an attack cannot be judged against the
    deck, clock or stage the log never showed: each is an info finding saying why (in the audit's language)."""
    log = str(tmp_path / "excerpt.jsonl")
    assert run_cli("new", log, "-g", "weiss", "-m", "m1", "-p", "p1=Alice", "-p", "p2=Bob").code == 0
    for line in (
        {"type": "ws.turn", "player": "p1", "number": 7},
        {"type": "ws.phase", "phase": "draw"},
        {"type": "ws.refresh", "player": "p1"},
        {"type": "ws.levelup", "player": "p1"},
        {"type": "ws.draw", "player": "p1", "count": 1, "reason": "draw-phase"},
        {"type": "ws.phase", "phase": "clock"},
        {"type": "ws.phase", "phase": "main"},
        {"type": "ws.phase", "phase": "climax"},
        {"type": "ws.phase", "phase": "attack"},
        {"type": "ws.step", "step": "declare"},
        {"type": "ws.attack", "player": "p1", "slot": "C1", "kind": "front"},
    ):
        assert run_cli("append", log, "--json", json.dumps(line)).code == 0
    r = run_cli("audit", "-f", "json", "--lang", "ja", log)
    found = {(f["code"], f["seq"], f["severity"]): f["message"] for f in json.loads(r.out)["findings"]}
    assert set(found) == {
        ("WS-RULE-002", 4, "info"),
        ("WS-RULE-001", 5, "info"),
        ("WS-ATK-001", 12, "info"),
        ("WS-ATK-003", 12, "info"),
    }
    assert found[("WS-RULE-002", 4, "info")].startswith("判定できません: 最初の手札")
    assert found[("WS-ATK-003", 12, "info")].startswith("判定できません: ログが ws.board なしで")
