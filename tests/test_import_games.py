"""From chat to game events: each game's mapping file on a realistic export, imported, verified and audited.

The exports (``fixtures/imports/games/``, written by ``fixtures/imports/make_games.py``)
mix table talk, BCDice rolls and the chat notation of docs/notation.md;
``games/expected.json`` gives the import counts and the audit's error and warning
findings (one dispute each, settled by a judge's ``!ruling`` in chat).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import FIXTURES, game_map, run_cli

from kifu.auditor import registry
from kifu.events import importers, logfile, table
from kifu.events.base import JudgeRuling, Note, RandomRolled
from kifu.events.importers import mapping

IMPORTS = FIXTURES / "imports"
GAMES = IMPORTS / "games"
EXPECTED = json.loads((GAMES / "expected.json").read_text(encoding="utf-8"))
DOCS = Path(__file__).resolve().parent.parent / "docs" / "notation.md"


def _import(rel: str, tmp: Path, name: str = "out.jsonl"):
    spec = EXPECTED[rel]
    out = tmp / name
    players = [a for p in spec["players"] for a in ("-p", p)]
    run = run_cli(
        "import",
        GAMES / rel,
        "-o",
        out,
        "--game",
        spec["game"],
        "--map",
        game_map(spec["game"]),
        "--report",
        tmp / f"{name}.report.json",
        "--lang",
        "en",
        *players,
    )
    assert run.code == 0, run.err
    return out, json.loads((tmp / f"{name}.report.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("rel", sorted(EXPECTED))
def test_export_imports_to_the_golden_log_with_the_expected_counts(rel: str, tmp_path: Path) -> None:
    out, rep = _import(rel, tmp_path)
    spec = EXPECTED[rel]
    assert out.read_bytes() == (GAMES / (rel + ".kifu.jsonl")).read_bytes()
    counts = {k: rep[k] for k in ("messages", "events", "game_events", "random", "notes", "secret")}
    assert counts == {k: spec[k] for k in counts}
    assert len(rep["edited"]) == spec["edited"]
    assert rep["unattributed"] == spec["unattributed"]
    assert rep["failed"] == [] and rep["unmapped"] == [] and rep["unreadable"] == []


@pytest.mark.parametrize("rel", sorted(EXPECTED))
def test_imported_log_verifies_and_audits_with_the_expected_findings(rel: str) -> None:
    log = logfile.load(GAMES / (rel + ".kifu.jsonl"))
    assert logfile.verify(GAMES / (rel + ".kifu.jsonl")) is not None
    found = [[f.code, f.seq] for f in registry.audit(log.events) if f.severity in ("error", "warning")]
    assert found == EXPECTED[rel]["findings"]


@pytest.mark.parametrize("rel", sorted(EXPECTED))
def test_every_message_is_kept_in_an_event(rel: str) -> None:
    src, _ = importers.read_source(GAMES / rel)
    log = logfile.load(GAMES / (rel + ".kifu.jsonl"))
    kept = {e.src.loc for e in log.events[1:] if e.src is not None}
    assert kept == {m.loc for m in src.messages}
    assert all(e.src is not None for e in log.events[1:])


@pytest.mark.parametrize("rel", sorted(EXPECTED))
def test_same_export_imported_twice_gives_the_same_head(rel: str, tmp_path: Path) -> None:
    a, rep_a = _import(rel, tmp_path, "a.jsonl")
    b, rep_b = _import(rel, tmp_path, "b.jsonl")
    assert a.read_bytes() == b.read_bytes() and rep_a["head"] == rep_b["head"]


def _events(rel: str):
    return logfile.load(GAMES / (rel + ".kifu.jsonl")).events


def test_edited_messages_are_marked_in_their_events() -> None:
    ws = _events("weiss/ws対戦ログ.html")
    edited = [e for e in ws if e.src is not None and e.src.edited]
    assert [(e.__struct_config__.tag, e.amount) for e in edited] == [("ws.damage", 3)]
    wt = [e for e in _events("worldtrigger/ランク戦_chat.xml") if e.src is not None and e.src.edited]
    assert [(e.__struct_config__.tag, e.trigger) for e in wt] == [("wt.use", "アステロイド")]


def test_a_roll_by_a_speaker_who_is_no_player_names_the_speaker() -> None:
    rolls = [e for e in _events("worldtrigger/ランク戦_chat.xml") if isinstance(e, RandomRolled)]
    assert [(r.by, r.speaker, r.values) for r in rolls] == [(None, "ジャッジ", [1])]


def test_the_two_halves_of_a_plot_make_one_plot_event() -> None:
    events = _events("worldtrigger/ランク戦_chat.xml")
    plots = [e for e in events if e.__struct_config__.tag == "wt.plot"]
    assert [(p.attacker, p.attack, p.defence) for p in plots] == [
        ("a", [2, 6], [6, 5]),
        ("b", [5, 5], [4, 1]),
        ("a", [1, 3], [2, 4]),
        ("b", [3, 3], [1, 5]),
    ]
    halves = [e for e in events if isinstance(e, Note) and e.text.startswith("plot ")]
    assert [e.seq + 1 for e in halves] == [p.seq for p in plots]


def test_counters_and_rulings_point_at_the_latest_declaration() -> None:
    events = {e.seq: e for e in _events("worldtrigger/ランク戦_chat.xml")}
    counter = next(e for e in events.values() if getattr(e, "counter", None) is not None)
    assert events[counter.counter].__struct_config__.tag == "wt.move"
    ruling = next(e for e in events.values() if isinstance(e, JudgeRuling))
    assert ruling.by == "judge" and events[ruling.about[0]].effect == "射撃" and events[ruling.about[0]].trion == 3


def test_thumb_coins_share_a_group_and_cockatrice_coins_become_mtg_coins() -> None:
    coins = [(e.flip, e.group, e.result) for e in _events("mtg/コイン卓.json") if e.__struct_config__.tag == "mtg.coin"]
    gambit = [c for c in coins if c[0] == coins[-1][0]]
    assert [(g, r) for _, g, r in gambit] == [(1, "tails"), (1, "heads"), (2, "heads"), (2, "tails")]
    cock = [(e.by, e.result) for e in _events("mtg/cockatrice.log") if e.__struct_config__.tag == "mtg.coin"]
    assert cock == [("a", "heads"), ("a", "tails"), ("b", "tails")]


def _converted(game: str, lines: list[tuple[str, str]]):
    """Events and report for a tiny classic CCFOLIA page made of (speaker, text) lines."""
    from kifu.events.importers.common import Message, Source

    src = Source(
        "ccfolia", "t.html", messages=[Message(loc=f"line {i}", text=t, speaker=s) for i, (s, t) in enumerate(lines, 1)]
    )
    codec = table.codec(game)
    maps = mapping.load(game_map(game).read_text(encoding="utf-8"), f"{game}.toml", codec)
    built = importers.build(src, b"x", codec, game, maps, players=(("a", "A"), ("b", "B")))
    return built.events, built.report


def test_a_block_without_a_plot_stays_a_note_and_is_reported() -> None:
    events, rep = _converted(
        "worldtrigger", [("B", "block 3 4"), ("A", "plot 1 2"), ("B", "block 3 4"), ("B", "block 5 6")]
    )
    assert [e["type"] for e in events] == ["note", "note", "wt.plot", "note"]
    assert [f.loc for f in rep.failed] == ["line 1", "line 4"]  # the plot was used up by the first block
    assert "{plot." in rep.failed[0].what


def test_optional_fields_left_empty_take_the_event_default() -> None:
    events, rep = _converted(
        "worldtrigger", [("A", "!order 1 A"), ("A", "!order 2 B じゃんけん"), ("A", "!set 弧月 シールド")]
    )
    assert rep.failed == []
    assert [e.get("tie_break") for e in events[:2]] == [None, "janken"]
    assert "kept" in events[2] and events[2]["kept"] == []


def test_a_wrong_word_stays_a_note_naming_the_field() -> None:
    events, rep = _converted("weiss", [("A", "!attack C1 横から")])
    assert events[0]["type"] == "note"
    assert "kind" in rep.failed[0].what


@pytest.mark.parametrize("game", ["gunandgun", "worldtrigger", "mtg", "weiss", "generic"])
def test_every_command_of_a_game_map_is_documented(game: str) -> None:
    codec = table.codec(game)
    maps = mapping.load(game_map(game).read_text(encoding="utf-8"), f"{game}.toml", codec)
    docs = DOCS.read_text(encoding="utf-8")
    section = docs[docs.index(f"<!-- map:{game} -->") : docs.index(f"<!-- /map:{game} -->")]
    missing = [n for n in maps.commands if not re.search(rf"`!?{re.escape(n)}[ `]", section)]
    assert missing == []


def test_rule_options_go_into_match_start(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    run = run_cli(
        "import",
        GAMES / "mtg/cockatrice.log",
        "-o",
        out,
        "--game",
        "mtg",
        "--map",
        game_map("mtg"),
        "-p",
        "a=Aoi",
        "-p",
        "b=Ren",
        "-r",
        "thumbs_stack=add",
        "--lang",
        "en",
    )
    assert run.code == 0, run.err
    start = logfile.load(out).events[0]
    assert start.rules == {"thumbs_stack": "add"}
    assert [f.code for f in registry.audit(logfile.load(out).events) if f.severity == "error"] == []


def test_gg_tosses_from_choice_1d2_and_repeats_belong_to_the_latest_activation() -> None:
    events, rep = _converted(
        "gunandgun",
        [
            ("A", "!act a1 計略"),
            ("A", "!cost a1 手札 1"),
            ("A", "CHOICE[自分,相手] (choice[自分,相手]) ＞ 自分"),
            ("A", "x3 1D2\n#1\n(1D2) ＞ 1\n\n#2\n(1D2) ＞ 1\n\n#3\n(1D2) ＞ 2"),
            ("A", "!resolve a1 3 3"),
        ],
    )
    assert rep.failed == [] and rep.random == 0
    tosses = [(e["act"], e["facing"]) for e in events if e["type"] == "gg.toss"]
    assert tosses == [("a1", "self"), ("a1", "self"), ("a1", "self"), ("a1", "opponent")]


def test_a_gg_cost_paid_late_is_kept_as_typed_and_found_by_the_audit() -> None:
    events = _events("gunandgun/卓A_コイントス版.html")
    a4 = [e.__struct_config__.tag for e in events if getattr(e, "act", None) == "a4"]
    assert a4 == ["gg.play", "gg.toss", "gg.toss", "gg.cost", "gg.resolve", "gg.draw"]


def test_map_names_a_game_for_the_mapping_it_ships(tmp_path: Path) -> None:
    src = GAMES / "mtg/cockatrice.log"
    by_path, by_id = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    args = ("--game", "mtg", "-p", "a=Aoi", "-p", "b=Ren", "--lang", "en")
    assert run_cli("import", src, "-o", by_path, "--map", game_map("mtg"), *args).code == 0
    assert run_cli("import", src, "-o", by_id, "--map", "mtg", *args).code == 0
    assert by_path.read_bytes() == by_id.read_bytes()
    missing = run_cli("import", src, "-o", tmp_path / "c.jsonl", "--map", "no-such.toml", *args)
    assert missing.code == 2 and "no-such.toml: cannot read the mapping" in missing.err
