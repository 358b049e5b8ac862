"""Every export in fixtures/imports/: counts, provenance, determinism, and clean failures.

``fixtures/imports/expected.json`` names, per file, the counts an import with the
generic example mapping must report, or the start of the one-line error.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from conftest import FIXTURES, game_map, run_cli

from kifu.events import importers, logfile
from kifu.events.base import RandomRolled

IMPORTS = FIXTURES / "imports"
GENERIC_MAP = game_map("generic")
EXPECTED = json.loads((IMPORTS / "expected.json").read_text(encoding="utf-8"))
GOOD = sorted(k for k, v in EXPECTED.items() if "error" not in v)
BAD = sorted(k for k, v in EXPECTED.items() if "error" in v)


def _import(rel: str, tmp: Path, *extra: str):
    tmp.mkdir(parents=True, exist_ok=True)
    out = tmp / "out.jsonl"
    run = run_cli("import", IMPORTS / rel, "-o", out, "--map", GENERIC_MAP, "--lang", "en", *extra)
    return run, out


def _events(path: Path):
    return logfile.load(path).events


def test_expected_covers_every_fixture() -> None:
    exports = {
        str(p.relative_to(IMPORTS))
        for p in IMPORTS.rglob("*")
        if p.is_file()
        and p.suffix not in (".py", ".toml")
        and p.name != "expected.json"
        and not p.name.endswith(".kifu.jsonl")
        and p.relative_to(IMPORTS).parts[0] not in ("games", "rng")
    }
    assert exports == set(EXPECTED)


@pytest.mark.parametrize("rel", GOOD)
def test_import_counts(rel: str, tmp_path: Path) -> None:
    want = EXPECTED[rel]
    report = importers.import_file(
        IMPORTS / rel, tmp_path / "o.jsonl", map_text=GENERIC_MAP.read_text(encoding="utf-8"), map_name="generic.toml"
    )
    got = {
        "format": report.format,
        "messages": report.messages,
        "events": report.events,
        "game": report.game_events,
        "random": report.random,
        "notes": report.notes,
        "secret": report.secret,
        "hidden": report.hidden,
        "unreadable": len(report.unreadable),
        "unmapped": len(report.unmapped),
        "failed": len(report.failed),
        "edited": len(report.edited),
    }
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
    assert (toss.kind, toss.values, toss.purpose, toss.by, toss.expr) == (
        "coin",
        [2],
        "toss",
        "p1",
        "CHOICE[自分,相手]",
    )
    hidden = [r for r in rolls if r.secret]
    # The page shows an unopened secret roll as its placeholder only: no command, so no die size.
    assert [(h.values, h.sides, h.expr, h.src.text) for h in hidden] == [([], 0, None, "シークレットダイス ???")]
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
        ("p1", [2], False),
        ("p2", [3, 5], True),
        ("p1", [3], False),
        ("p1", [5], False),
        ("p2", [1], False),
    ]
    events = _events(tmp_path / "out.jsonl")
    assert [e.at for e in events[1:]] == sorted(e.at for e in events[1:])  # tabs merged by time


def test_room_zip_skips_unexpected_entries(tmp_path: Path) -> None:
    run, _ = _import("udonarium/ルームデータ_2025-03-01_1102.zip", tmp_path)
    assert "zip entries not read: data.xml, summary.xml, testTableBackgroundImage_image.png, readme.exe" in run.err


def test_discord_rollers_embeds_and_secret_key(tmp_path: Path) -> None:
    rolls = _randoms("discord/export.json", tmp_path)
    assert [(r.by, r.kind, r.values, r.secret) for r in rolls] == [
        ("p1", "coin", [1], False),
        ("p2", "die", [2, 5], False),
        ("p2", "die", [5, 1], False),
        ("p2", "die", [], True),
        ("p1", "coin", [1], False),
    ]


def test_cockatrice_coins_and_dice(tmp_path: Path) -> None:
    rolls = _randoms("cockatrice/game.log", tmp_path)
    assert [(r.by, r.kind, r.sides, r.values) for r in rolls] == [
        ("p1", "coin", 2, [2]),
        ("p1", "coin", 2, [1]),
        ("p2", "coin", 2, [1, 1, 2]),
        ("p2", "die", 20, [14]),
        ("p1", "die", 6, [3, 4, 5]),
        ("p2", "coin", 2, [1]),
    ]


def test_arena_match_seats_die_roll_and_coin_flip(tmp_path: Path) -> None:
    run, out = _import("arena/Player.log", tmp_path)
    events = _events(out)
    start = events[0]
    assert start.match == "7d1c9f2e-0000-4abc-9def-123456789abc"
    assert [(p.id, p.name) for p in start.players] == [("p1", "Aiko"), ("p2", "Ren")]
    rolls = [e for e in events if isinstance(e, RandomRolled)]
    assert [(r.by, r.values, r.purpose) for r in rolls] == [
        ("p1", [4], "play-draw"),
        ("p2", [17], "play-draw"),
        ("p1", [], "card-coin-flip"),
    ]
    assert msgspec.json.decode(rolls[2].src.text)["type"] == ["AnnotationType_CoinFlip"]
    assert type(events[-1]).__name__ == "MatchEnded" and events[-1].winner == "p2"


# --- real export shapes (issue 12, item 3) -----------------------------------------------


def test_udonarium_fly_room_reads_its_results_under_the_name_rolled_as(tmp_path: Path) -> None:
    rolls = _randoms("udonarium/fly-room.xml", tmp_path)
    assert [(r.by, r.expr, r.values, r.secret) for r in rolls] == [
        ("p2", "2D6", [3, 5], False),
        ("p3", "2D20KH1", [3, 15], False),
        ("p3", "1D6", [4], False),
        ("p3", "1D6", [2], False),
        ("p2", "choice[表,裏]", [2], False),
        ("p4", "1D100", [37], False),  # the GM's peer, rolling as 門番ゴルド: not credited to "GM"
        ("p1", "1D6", [5], True),
        ("p2", "1D6", [4], False),
        ("p3", "1D6", [3], False),
    ]
    events = _events(tmp_path / "out.jsonl")
    assert [(p.id, p.name) for p in events[0].players] == [
        ("p1", "GM"),
        ("p2", "アオイ"),
        ("p3", "レン"),
        ("p4", "門番ゴルド"),
    ]
    # lastUpdate="0" on every message is no edit; the one with a time is.
    assert [e.src.text for e in events[1:] if e.src.edited] == ["!act a1 計略（打ち間違いを直した）"]
    assert [e.by for e in events if e.src and "起動した" in (e.src.text or "")] == ["system"]  # an operation log


def test_udonarium_fly_result_form_is_read_back_in_bcdice_form() -> None:
    from kifu.events.importers.udonarium import fly_result

    assert fly_result("🎲2D20KH1 → 15[~~~3~~~,15] → 15") == "(2D20KH1) ＞ 15[3,15] ＞ 15"
    assert fly_result("🎲1D6 → 4 #1\n🎲1D6 → 2 #2") == "#1 (1D6) ＞ 4\n#2 (1D6) ＞ 2"
    assert fly_result("🎲3R6[5] → ###6###,2,5 → 成功数1") == "(3R6[5]) ＞ 6,2,5 ＞ 成功数1"
    assert fly_result("C(3+4) → 7") == "C(3+4) ＞ 7"
    assert fly_result("(1D6) ＞ 3") is None and fly_result("矢印 → だけの雑談") is not None
    assert fly_result("ただの雑談") is None


def test_udonarium_result_says_system_and_command_for_the_bcdice_reader() -> None:
    src, _ = importers.read_source(IMPORTS / "udonarium/fly-room.xml")
    answers = {m.text: (m.game_system, m.command) for m in src.messages if m.command is not None}
    assert answers["🎲1D100 → 37"] == ("ChaosFlare", "1d100 敵の行動")
    assert answers["🎲1D6 → 4\n森の小道"] == (
        "DiceBot",
        "行き先表",
    )  # a table result: the system the table was rolled under
    assert answers["(1D6) ＞ 3"] == ("DiceBot", "1d6 (旧形式)")


def test_ccfolia_secret_only_from_the_s_prefix_or_the_source(tmp_path: Path) -> None:
    run, out = _import("ccfolia/classic-secret.html", tmp_path)
    events = {e.src.text.split()[0]: e for e in _events(out)[1:]}
    opened, unopened, again, plain = events["S1D100<=50"], events["シークレットダイス"], events["sx2"], events["1D6"]
    assert (opened.secret, opened.values) == (True, [23])
    assert (unopened.secret, unopened.values, type(unopened).__name__) == (True, [], "RandomRolled")
    # An S command shown without a result is not how the page writes a hidden roll: chat, reported.
    untaken = events["SCCB<=60"]
    assert (type(untaken).__name__, untaken.secret) == ("Note", False)
    assert f"{untaken.src.loc}: a secret command with no result" in run.err
    assert again.secret and not plain.secret
    # BCDice answered nothing (a command of a system the room does not use): chat, not a hidden roll.
    assert [type(events[w]).__name__ for w in ("CC<=50", "ST")] == ["Note", "Note"]
    json_rolls = _randoms("ccfolia/new-format.json", tmp_path / "j")
    assert [r.secret for r in json_rolls] == [False, False, False, True, False]
    src, _ = importers.read_source(IMPORTS / "ccfolia/new-format.json")
    assert [m.secret for m in src.messages] == [False, False, False, False, True, False, False]


def test_ccfolia_new_format_hands_the_command_over_and_reports_what_it_cannot_read(tmp_path: Path) -> None:
    for rel in ("ccfolia/new-format.html", "ccfolia/new-format.json"):
        src, _ = importers.read_source(IMPORTS / rel)
        cc = [m for m in src.messages if m.result and "ボーナス・ペナルティダイス" in m.result]
        assert [m.command for m in cc] == ["CC<=70 【聞き耳】", "CC(1)<=40 【図書館】", "SCC<=50 【目星】 KPだけが見る"]
        assert [m.system for m in src.messages].count(True) == 1  # the client's own "HP : 10 → 9"
        out = tmp_path / (Path(rel).suffix + ".jsonl")
        report = importers.import_file(IMPORTS / rel, out)
        # Every CoC 7th result is read: the tens and the ones d10 (a 0 counts as 10), bonus dice included;
        # the command BCDice did not answer (no system set in the room) is chat, not an unread result.
        assert report.unreadable == []
        rolls = [(e.expr, e.sides, e.values) for e in logfile.load(out).events if type(e).__name__ == "RandomRolled"]
        assert rolls[:2] == [("1D100<=70", 10, [2, 10]), ("1D100<=40", 10, [8, 4, 9])]


def test_ccfolia_json_with_a_key_twice_is_refused_in_one_line(tmp_path: Path) -> None:
    doc = '{"guild": {"name": "g"}, "messages": [], "channel": {"name": "c"}, "messages": []}'
    (tmp_path / "twice.json").write_text(doc, encoding="utf-8")
    run = run_cli("import", tmp_path / "twice.json", "-o", tmp_path / "o.jsonl")
    assert run.code == 2 and run.err.count("\n") == 1
    assert run.err.startswith("kifu: error: twice.json:1: field messages: JSON object has the key 'messages' twice")


def test_cockatrice_japanese_client_is_known_by_its_lines(tmp_path: Path) -> None:
    data = (IMPORTS / "cockatrice/ja-client.txt").read_bytes()
    assert importers.detect(data, "ja-client.txt") == "cockatrice"
    assert importers.detect((IMPORTS / "cockatrice/game.log").read_bytes(), "game.log") == "cockatrice"
    assert importers.detect((IMPORTS / "discord/paste.txt").read_bytes(), "paste.txt") == "discord"
    rolls = _randoms("cockatrice/ja-client.txt", tmp_path)
    assert [(r.by, r.kind, r.sides, r.values) for r in rolls] == [
        ("p1", "coin", 2, [2]),
        ("p2", "coin", 2, [1]),
        ("p2", "coin", 2, [1, 1, 2]),
        ("p2", "die", 20, [14]),
        ("p1", "die", 6, [4]),
        ("p1", "die", 6, [3, 4, 5]),
    ]
    notes = [e for e in _events(tmp_path / "out.jsonl") if type(e).__name__ == "Note"]
    assert [(e.by, e.text) for e in notes if e.by != "system"][:2] == [
        ("p1", "よろしくお願いします＞＜ (先攻です)"),
        ("p1", "がんばります"),
    ]  # the second line has no name


def test_discord_reads_a_message_id_once(tmp_path: Path) -> None:
    run, out = _import("discord/duplicates.json", tmp_path)
    assert run.code == 0, run.err
    locs = [e.src.loc for e in _events(out)[1:]]
    ids = [loc.split()[1] for loc in locs if loc.startswith("message ") and not loc.endswith("(again)")]
    assert len(set(ids)) == 10
    again = [e for e in _events(out)[1:] if e.src.loc.endswith("(again)")]
    assert [type(e).__name__ for e in again] == ["Note"] and "さらに修正" in again[0].src.text
    assert "3 message id(s) appear more than once and are read once" in run.err
    assert len(_randoms("discord/duplicates.json", tmp_path / "r")) == len(
        _randoms("discord/export.json", tmp_path / "e")
    )


def _grep_lines(rel: str) -> list[str]:
    """The file's lines as ``grep -n`` numbers them (LF only; a CR before it is part of CRLF)."""
    # Bytes, not read_text: text mode would turn every lone CR into a line break of its own.
    return [line.removesuffix("\r") for line in (IMPORTS / rel).read_bytes().decode("utf-8").split("\n")]


def test_line_numbers_are_the_ones_grep_shows(tmp_path: Path) -> None:
    def located(rel: str, sub: str) -> list[int]:
        out = tmp_path / sub
        assert run_cli("import", IMPORTS / rel, "-o", out).code == 0
        return [int(e.src.loc.split()[1]) for e in _events(out)[1:] if e.src.loc.startswith("line ")]

    plain, with_cr = located("arena/Player.log", "a.jsonl"), located("arena/cr-only.log", "b.jsonl")
    assert with_cr == [n + 1 for n in plain]  # one line inserted; the lone CRs break no line
    grep = _grep_lines("arena/cr-only.log")
    assert all(grep[n - 1].lstrip().startswith("{") for n in with_cr)
    cockatrice = _grep_lines("cockatrice/ja-client.txt")
    for e in _events(_import("cockatrice/ja-client.txt", tmp_path / "c")[1]):
        if e.src is not None:
            assert cockatrice[int(e.src.loc.split()[1]) - 1] == e.src.text
