"""Every export in fixtures/imports/: counts, provenance, determinism, and clean failures.

``fixtures/imports/expected.json`` names, per file, the counts an import with the
generic example mapping must report, or the start of the one-line error.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from conftest import FIXTURES, run_cli

from kifu.auditor import registry
from kifu.events import importers, logfile
from kifu.events.base import RandomRolled

IMPORTS = FIXTURES / "imports"
GENERIC_MAP = IMPORTS / "maps" / "generic.toml"
EXPECTED = json.loads((IMPORTS / "expected.json").read_text(encoding="utf-8"))
GOOD = sorted(k for k, v in EXPECTED.items() if "error" not in v)
BAD = sorted(k for k, v in EXPECTED.items() if "error" in v)


def _import(rel: str, tmp: Path, *extra: str):
    out = tmp / "out.jsonl"
    run = run_cli("import", IMPORTS / rel, "-o", out, "--map", GENERIC_MAP, "--lang", "en", *extra)
    return run, out


def _events(path: Path):
    return logfile.load(path).events


def test_expected_covers_every_fixture() -> None:
    exports = {str(p.relative_to(IMPORTS)) for p in IMPORTS.rglob("*")
               if p.is_file() and p.suffix not in (".py", ".toml") and p.name != "expected.json"
               and not p.name.endswith(".kifu.jsonl") and p.relative_to(IMPORTS).parts[0] != "games"}
    assert exports == set(EXPECTED)


@pytest.mark.parametrize("rel", GOOD)
def test_import_counts(rel: str, tmp_path: Path) -> None:
    want = EXPECTED[rel]
    report = importers.import_file(IMPORTS / rel, tmp_path / "o.jsonl",
                                   map_text=GENERIC_MAP.read_text(encoding="utf-8"), map_name="generic.toml")
    got = {"format": report.format, "messages": report.messages, "events": report.events,
           "game": report.game_events, "random": report.random, "notes": report.notes, "secret": report.secret,
           "hidden": report.hidden, "unreadable": len(report.unreadable), "unmapped": len(report.unmapped),
           "failed": len(report.failed), "edited": len(report.edited)}
    assert got == want
    assert logfile.verify(tmp_path / "o.jsonl").hash == report.head


@pytest.mark.parametrize("rel", GOOD)
def test_every_message_is_kept_with_its_source(rel: str, tmp_path: Path) -> None:
    src, _ = importers.read_source(IMPORTS / rel)
    run, out = _import(rel, tmp_path)
    assert run.code == 0, run.err
    events = _events(out)[1:]
    assert all(e.src is not None and e.src.file == Path(rel).name for e in events)
    locs = {e.src.loc for e in events}
    assert [m.loc for m in src.messages if m.loc not in locs] == []
    for m in src.messages:
        assert any(m.text in (e.src.text or "") for e in events if e.src.loc == m.loc), m.loc


@pytest.mark.parametrize("rel", GOOD)
def test_import_equals_the_golden_log(rel: str, tmp_path: Path) -> None:
    run, out = _import(rel, tmp_path)
    assert run.code == 0, run.err
    assert out.read_bytes() == (IMPORTS / (rel + ".kifu.jsonl")).read_bytes()


def test_no_golden_log_for_a_failing_export() -> None:
    assert [rel for rel in BAD if (IMPORTS / (rel + ".kifu.jsonl")).exists()] == []


@pytest.mark.parametrize("rel", GOOD)
def test_same_source_gives_the_same_log(rel: str, tmp_path: Path) -> None:
    a = run_cli("import", IMPORTS / rel, "-o", tmp_path / "a.jsonl", "--map", GENERIC_MAP)
    b = run_cli("import", IMPORTS / rel, "-o", tmp_path / "b.jsonl", "--map", GENERIC_MAP)
    assert a.code == b.code == 0
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


@pytest.mark.parametrize("rel", BAD)
def test_malformed_input_fails_with_one_line(rel: str, tmp_path: Path) -> None:
    run, out = _import(rel, tmp_path)
    assert run.code == 2
    assert run.err.count("\n") == 1 and "Traceback" not in run.err
    assert run.err.startswith("kifu: error: " + EXPECTED[rel]["error"]), run.err
    assert not out.exists()


def _randoms(rel: str, tmp: Path, *extra: str) -> list[RandomRolled]:
    run, out = _import(rel, tmp, *extra)
    assert run.code == 0, run.err
    return [e for e in _events(out) if isinstance(e, RandomRolled)]


def test_ccfolia_classic_reads_choice_toss_and_hidden_roll(tmp_path: Path) -> None:
    rolls = _randoms("ccfolia/classic.html", tmp_path)
    toss = rolls[0]
    assert (toss.kind, toss.values, toss.purpose, toss.by, toss.expr) == ("coin", [2], "toss", "p1", "CHOICE[自分,相手]")
    hidden = [r for r in rolls if r.secret]
    assert [(h.values, h.sides, h.expr) for h in hidden] == [([], 6, "S2D6")]
    assert [r.values for r in rolls if r.sides == 6 and not r.secret] == [[3, 4], [2], [5]]


def test_ccfolia_new_html_times_and_edits(tmp_path: Path) -> None:
    run, out = _import("ccfolia/new.html", tmp_path)
    events = _events(out)
    assert events[0].at == "2025-03-01T11:02:03.456Z" and events[1].at == "2025-03-01T11:02:03.456Z"
    assert "edited messages: line 42" in run.err
    assert type(events[-1]).__name__ == "MatchEnded" and events[-1].reason == "time"


def test_ccfolia_json_seconds_and_milliseconds_agree(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    ms = _events(_import("ccfolia/log.json", tmp_path / "a")[1])
    s = _events(_import("ccfolia/log_seconds.json", tmp_path / "b")[1])
    assert [e.at for e in ms] == [e.at for e in s]
    assert ms[1].at == "2025-03-01T11:02:03.456Z"


def test_shift_jis_page_is_decoded(tmp_path: Path) -> None:
    run, out = _import("ccfolia/shift_jis.html", tmp_path)
    texts = [e.src.text for e in _events(out)[1:]]
    assert texts[0] == "よろしくお願いします！先攻後攻をコインで決めます"
    assert "decoded as Shift_JIS" in run.err


def test_hostile_names_are_text_not_markup(tmp_path: Path) -> None:
    run, out = _import("ccfolia/hostile.html", tmp_path)
    start = _events(out)[0]
    assert start.players[0].name == "<script>alert(1)</script>ミナト"
    assert start.players[2].name == "ハル: [main]"
    note = _events(out)[1]
    assert note.text == "名前に <b>タグ</b> &amp; 実体参照"


def test_udonarium_pairs_results_with_rollers_and_keeps_secrets(tmp_path: Path) -> None:
    rolls = _randoms("udonarium/chat.xml", tmp_path)
    assert [(r.by, r.values, r.secret) for r in rolls] == [
        ("p1", [2], False), ("p2", [3, 5], True), ("p1", [3], False), ("p1", [5], False), ("p2", [1], False)]
    events = _events(tmp_path / "out.jsonl")
    assert [e.at for e in events[1:]] == sorted(e.at for e in events[1:])  # tabs merged by time


def test_room_zip_skips_unexpected_entries(tmp_path: Path) -> None:
    run, _ = _import("udonarium/ルームデータ_2025-03-01_1102.zip", tmp_path)
    assert "zip entries not read: data.xml, summary.xml, testTableBackgroundImage_image.png, readme.exe" in run.err


def test_discord_rollers_embeds_and_secret_key(tmp_path: Path) -> None:
    rolls = _randoms("discord/export.json", tmp_path)
    assert [(r.by, r.kind, r.values, r.secret) for r in rolls] == [
        ("p1", "coin", [1], False), ("p2", "die", [2, 5], False), ("p2", "die", [5, 1], False),
        ("p2", "die", [], True), ("p1", "coin", [1], False)]


def test_cockatrice_coins_and_dice(tmp_path: Path) -> None:
    rolls = _randoms("cockatrice/game.log", tmp_path)
    assert [(r.by, r.kind, r.sides, r.values) for r in rolls] == [
        ("p1", "coin", 2, [2]), ("p1", "coin", 2, [1]), ("p2", "coin", 2, [1, 1, 2]), ("p2", "die", 20, [14]),
        ("p1", "die", 6, [3, 4, 5]), ("p2", "coin", 2, [1])]


def test_arena_match_seats_die_roll_and_coin_flip(tmp_path: Path) -> None:
    run, out = _import("arena/Player.log", tmp_path)
    events = _events(out)
    start = events[0]
    assert start.match == "7d1c9f2e-0000-4abc-9def-123456789abc"
    assert [(p.id, p.name) for p in start.players] == [("p1", "Aiko"), ("p2", "Ren")]
    rolls = [e for e in events if isinstance(e, RandomRolled)]
    assert [(r.by, r.values, r.purpose) for r in rolls] == [
        ("p1", [4], "play-draw"), ("p2", [17], "play-draw"), ("p1", [], "card-coin-flip")]
    assert msgspec.json.decode(rolls[2].src.text)["type"] == ["AnnotationType_CoinFlip"]
    assert type(events[-1]).__name__ == "MatchEnded" and events[-1].winner == "p2"
