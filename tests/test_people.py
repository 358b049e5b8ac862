"""People, not seats (issue 16): stable keys in match.start, the people table, people.toml, `kifu people`.

The acceptance case is a warehouse of real imports (DiscordChatExporter and CCFOLIA
exports written here in their real shapes, imported with `kifu import`) where one
person plays under two seat ids and several spellings: statistics count one person,
and no seat id ever stands for a person.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import duckdb
import pytest

from kifu import warehouse as wh
from kifu.events import logfile
from kifu.warehouse import people
from kifu.warehouse.people import Identity, load_identity, normalise, resolve

from conftest import FIXTURES

# --- real exports, built here -----------------------------------------------------------------


def discord_export(title: str, authors: list[tuple[str, str]], rolls: list[tuple[str, int]]) -> str:
    """A DiscordChatExporter JSON: each author says hello, then BCDice posts each roll as ``＞name``."""
    msgs = []

    def post(author_id: str, name: str, content: str, bot: bool = False) -> None:
        i = len(msgs) + 1
        msgs.append(
            {
                "id": str(1345000000000000000 + i),
                "type": "Default",
                "timestamp": f"2026-11-0{1 + len(title) % 5}T20:{i // 60:02d}:{i % 60:02d}+09:00",
                "timestampEdited": None,
                "isPinned": False,
                "content": content,
                "author": {"id": author_id, "name": name, "nickname": name, "isBot": bot},
                "attachments": [],
                "embeds": [],
                "stickers": [],
                "reactions": [],
                "mentions": [],
            }
        )

    for author_id, name in authors:
        post(author_id, name, "よろしくお願いします")
    names = dict((n, i) for i, n in authors)
    for name, face in rolls:
        post(names[name], name, "bcdice> 1D2")
        post("1", "BCDice", f"＞{name}\nDiceBot: (1D2) ＞ {face}", bot=True)
    doc = {
        "guild": {"id": "10", "name": "交流会", "iconUrl": ""},
        "channel": {
            "id": "20",
            "type": "GuildTextChat",
            "categoryId": "3",
            "category": "対戦",
            "name": title,
            "topic": None,
        },
        "dateRange": {"after": None, "before": None},
        "messages": msgs,
        "messageCount": len(msgs),
    }
    return json.dumps(doc, ensure_ascii=False)


def ccfolia_export(speakers: list[str], rolls: list[tuple[str, int]]) -> str:
    """A CCFOLIA JSON log: each speaker talks, then rolls 1D2 with the result CCFOLIA keeps apart."""
    t0, msgs = 1793000000000, []
    for name in speakers:
        msgs.append({"name": name, "text": "よろしく", "type": "text", "channel": "main", "createdAt": t0 + len(msgs)})
    for name, face in rolls:
        msgs.append(
            {
                "name": name,
                "text": "1D2",
                "type": "text",
                "channel": "main",
                "createdAt": t0 + len(msgs),
                "extend": {"roll": {"result": f"(1D2) ＞ {face}"}},
            }
        )
    return json.dumps({"messages": msgs, "images": {}}, ensure_ascii=False)


def _rolls(rng: random.Random, who: list[str], n: int) -> list[tuple[str, int]]:
    return [(w, rng.randint(1, 2)) for _ in range(n) for w in who]


@pytest.fixture(scope="module")
def imports_db(tmp_path_factory) -> tuple[Path, dict[str, list[int]]]:
    """Aoi under Discord id 501 as "Aoi" (seat p1) and "Aoi-chan" (seat p2), on CCFOLIA as "ＡＯＩ " (p2)
    and by hand as "aoi"; Ren under id 502 and in CCFOLIA; 葵 in one CCFOLIA room (an alias only people.toml knows)."""
    from conftest import run_cli

    rng = random.Random(16)
    d = tmp_path_factory.mktemp("imports")
    rolls = {
        name: _rolls(rng, who, 6)
        for name, who in [
            ("a", ["Aoi", "Ren"]),
            ("b", ["Ren", "Aoi-chan"]),
            ("c", ["Ren", "ＡＯＩ "]),
            ("d", ["葵", "Ren"]),
        ]
    }
    exports = {
        "a.json": discord_export("卓1", [("501", "Aoi"), ("502", "Ren")], rolls["a"]),
        "b.json": discord_export("卓2", [("502", "Ren"), ("501", "Aoi-chan")], rolls["b"]),
        "c.json": ccfolia_export(["Ren", "ＡＯＩ "], rolls["c"]),
        "d.json": ccfolia_export(["葵", "Ren"], rolls["d"]),
    }
    logs = d / "logs"
    logs.mkdir()
    for name, text in exports.items():
        (d / name).write_text(text, encoding="utf-8")
        # The generic mapping reads 1D2 as a coin, as a club's mapping would.
        r = run_cli("import", d / name, "-o", logs / f"{name}.jsonl", "--map", "generic")
        assert r.code == 0, r.err
    r = run_cli("new", logs / "hand.jsonl", "-g", "generic", "-m", "hand-1", "-p", "x=Ren", "-p", "y=aoi")
    assert r.code == 0, r.err
    db = d / "w.duckdb"
    r = run_cli("ingest", logs, "--db", db)
    assert r.code == 0, r.err
    faces: dict[str, list[int]] = {}
    for seq in rolls.values():
        for who, face in seq:
            faces.setdefault(normalise(who), []).append(face)
    return db, faces


def test_discord_and_ccfolia_imports_carry_keys_only_where_the_source_has_one(imports_db) -> None:
    db, _ = imports_db
    con = duckdb.connect(str(db), read_only=True)
    seats = con.execute('SELECT match, player, name, "key" FROM people ORDER BY match, seat').fetchall()
    con.close()
    keyed = {(name, key) for _, _, name, key in seats if key}
    assert keyed == {("Aoi", "discord:501"), ("Ren", "discord:502"), ("Aoi-chan", "discord:501")}
    assert {name for _, _, name, key in seats if not key} == {"Ren", "ＡＯＩ ", "葵", "aoi"}


def test_one_person_under_two_seat_ids_and_spellings_is_one_row(kifu, imports_db) -> None:
    db, faces = imports_db
    r = kifu("stats", "fairness", "--db", db, "-f", "json")
    assert r.code == 0 and r.err == "", r.err
    coins = {row["person"]: row for row in json.loads(r.out) if row["test"] == "coin"}
    # Aoi: Discord "Aoi" (p1) and "Aoi-chan" (p2) by key, CCFOLIA "ＡＯＩ " (p2) and the hand log's
    # "aoi" by name: one person; 葵 stays apart until people.toml says otherwise.
    assert set(coins) == {"Aoi", "Ren", "葵"}
    aoi = faces["aoi"] + faces["aoi-chan"]
    assert coins["Aoi"]["n"] == len(aoi) == 18
    assert coins["Aoi"]["face1"] == sum(1 for f in aoi if f == 1)
    assert coins["Ren"]["n"] == len(faces["ren"])
    seat_ids = {"p1", "p2", "x", "y"}
    assert not seat_ids & set(coins)
    by_seat = {
        row["player"] for row in json.loads(kifu("stats", "fairness", "--db", db, "--by", "seat", "-f", "json").out)
    }
    assert by_seat == {"p1", "p2"}  # the old view: seat ids across matches


def test_winrate_and_views_are_per_person(kifu, imports_db) -> None:
    db, _ = imports_db
    rows = json.loads(kifu("stats", "winrate", "--db", db, "-f", "json").out)
    assert {r["person"]: r["played"] for r in rows} == {"Aoi": 4, "Ren": 5, "葵": 1}
    out = json.loads(
        kifu("sql", "SELECT DISTINCT player, person FROM randomness ORDER BY ALL", "--db", db, "-f", "json").out
    )
    assert {(r["player"], r["person"]) for r in out} == {
        ("p1", "Aoi"),
        ("p2", "Aoi"),
        ("p1", "Ren"),
        ("p2", "Ren"),
        ("p1", "葵"),
    }


def test_people_toml_gathers_an_alias_and_is_picked_up_when_it_changes(kifu, imports_db, tmp_path) -> None:
    db, faces = imports_db
    copy = tmp_path / "w.duckdb"
    copy.write_bytes(db.read_bytes())
    (tmp_path / "people.toml").write_text('["Aoi"]\nnames = ["葵"]\n', encoding="utf-8")
    coins = {r["person"]: r for r in json.loads(kifu("stats", "fairness", "--db", copy, "-f", "json").out)}
    # The heading and 葵 are names in the file; the Discord key goes by "Aoi" and no other key does,
    # so the whole key follows: one person.
    assert set(coins) == {"Aoi", "Ren"}
    assert coins["Aoi"]["n"] == len(faces["aoi"]) + len(faces["aoi-chan"]) + len(faces["葵"])
    merged = json.loads(kifu("people", "aoi", "--merge", "--db", copy, "-f", "json").out)
    assert {(m["name"], m["via"]) for m in merged} == {
        ("Aoi", "file-name"),
        ("Aoi-chan", "file-name"),
        ("ＡＯＩ ", "file-name"),
        ("aoi", "file-name"),
        ("葵", "file-name"),
    }
    (tmp_path / "people.toml").write_text('["葵"]\nkeys = []\n', encoding="utf-8")
    listed = {r["person"] for r in json.loads(kifu("people", "--db", copy, "-f", "json").out)}
    assert listed == {"Aoi", "Ren", "葵"}


def test_people_lists_searches_and_shows_the_merge(kifu, imports_db) -> None:
    db, _ = imports_db
    rows = json.loads(kifu("people", "--db", db, "-f", "json").out)
    aoi = next(r for r in rows if r["person"] == "Aoi")
    assert (aoi["seats"], aoi["matches"], aoi["keys"]) == (4, 4, "discord:501")
    assert aoi["names"] == "Aoi, Aoi-chan, aoi, ＡＯＩ "
    assert [r["person"] for r in json.loads(kifu("people", "ａｏｉ", "--db", db, "-f", "json").out)] == ["Aoi"]
    merge = json.loads(kifu("people", "aoi", "--merge", "--db", db, "-f", "json").out)
    assert {(m["name"], m["key"], m["via"], m["seat_ids"]) for m in merge} == {
        ("Aoi", "discord:501", "key", "p1"),
        ("Aoi-chan", "discord:501", "key", "p2"),
        ("ＡＯＩ ", None, "key-name", "p2"),
        ("aoi", None, "key-name", "y"),
    }
    md = kifu("people", "--db", db, "-f", "md", "--lang", "ja").out
    assert md.startswith("**人 (3 人, 10 席") and "| person | seats |" in md


def test_kifu_people_help_and_bad_identity_file(kifu, imports_db, tmp_path) -> None:
    db, _ = imports_db
    r = kifu("people", "--help")
    assert r.code == 0 and "Example" in r.out
    bad = tmp_path / "bad.toml"
    bad.write_text('["Aoi"]\nnames = ["Ren"]\n["Ren"]\nnames = []\n', encoding="utf-8")
    r = kifu("people", "--db", db, "--people", bad)
    assert r.code == 2 and r.out == ""
    assert r.err.strip() == f"kifu: error: {bad}: field Ren.names: name 'Ren' is listed under both 'Aoi' and 'Ren'"
    bad.write_text('names = ["x"]\n', encoding="utf-8")
    r = kifu("stats", "winrate", "--db", db, "--people", bad, "--lang", "ja")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and str(bad) in r.err
    assert "'names' は表でなければなりません" in r.err
    bad.write_text("[Aoi\n", encoding="utf-8")
    assert kifu("sql", "SELECT 1", "--db", db, "--people", bad).code == 2


# --- the rules, one by one ------------------------------------------------------------------


def _seat(match: str, player: str, name: str, key: str | None = None, seat: int = 1) -> tuple:
    return ("generic", match, seat, player, name, key)


def _people(seats: list[tuple], identity: Identity | None = None) -> list[tuple[str, str]]:
    return [(row[6], row[7]) for row in resolve(seats, identity or Identity())]


def test_normalise_ignores_width_case_and_spaces() -> None:
    assert normalise("ＡＯＩ　ちゃん ") == normalise("aoi ちゃん") == "aoiちゃん"
    assert normalise("ｱｵｲ") == normalise("アオイ")
    assert normalise(" ") == ""


def test_a_key_wins_over_a_name_and_names_join_the_only_key_that_bears_them() -> None:
    seats = [
        _seat("m1", "p1", "Ren", "discord:1"),
        _seat("m2", "p2", "Ren", "discord:2"),
        _seat("m3", "p1", "ren"),
        _seat("m4", "p1", "Aoi", "discord:3"),
        _seat("m5", "p2", "AOI"),
        _seat("m6", "p1", "Sora"),
    ]
    assert _people(seats) == [
        ("Ren (discord:1)", "key"),
        ("Ren (discord:2)", "key"),
        ("ren", "name"),
        ("Aoi", "key"),
        ("Aoi", "key-name"),
        ("Sora", "name"),
    ]


def test_session_keys_resolve_by_name_unless_listed(tmp_path: Path) -> None:
    seats = [
        _seat("m1", "p1", "ハル", "udonarium:Ab3"),
        _seat("m2", "p2", "ハル", "udonarium:Zk8"),
        _seat("m3", "p1", "GM", "udonarium:Zk8"),
    ]
    assert _people(seats) == [("ハル", "name"), ("ハル", "name"), ("GM", "name")]
    f = tmp_path / "people.toml"
    f.write_text('["Haru"]\nkeys = ["udonarium:Zk8"]\n', encoding="utf-8")
    assert _people(seats, load_identity(f)) == [("ハル", "name"), ("Haru", "file-key"), ("Haru", "file-key")]


def test_identity_file_keys_names_and_labels(tmp_path: Path) -> None:
    f = tmp_path / "people.toml"
    f.write_text('["Aoi"]\nnames = ["葵"]\nkeys = ["jcg:1"]\n\n["Ren"]\nkeys = ["discord:9"]\n', encoding="utf-8")
    identity = load_identity(f)
    seats = [
        _seat("m1", "a", "Aoi", "jcg:1"),
        _seat("m2", "b", "葵"),
        _seat("m3", "c", "aoi"),
        _seat("m4", "d", "Ren", "discord:9"),
        _seat("m5", "e", "Ren", "discord:8"),
        _seat("m6", "f", "Ren", "discord:7"),
        _seat("m7", "g", ""),
        _seat("m8", "h", "", "discord:6"),
    ]
    assert _people(seats, identity) == [
        ("Aoi", "file-key"),
        ("Aoi", "file-name"),
        ("Aoi", "file-name"),
        ("Ren", "file-key"),
        # "Ren" is the file's, and two other keys go by it: each keeps its key in its label
        ("Ren (discord:8)", "key"),
        ("Ren (discord:7)", "key"),
        ("(unnamed: seat 1 of m7)", "unnamed"),
        ("discord:6", "key"),
    ]


def test_identity_file_errors_name_the_field(tmp_path: Path) -> None:
    f = tmp_path / "people.toml"
    for text, field in [
        ('["A"]\nkeys = ["k"]\n["B"]\nkeys = ["k"]\n', "B.keys"),
        ('["A"]\nnicknames = []\n', "A.nicknames"),
        ('["A"]\nnames = "x"\n', "A.names"),
        ("A = 1\n", "A"),
        ('["  "]\n', "  "),
    ]:
        f.write_text(text, encoding="utf-8")
        with pytest.raises(wh.people.KifuError) as exc:
            load_identity(f)
        assert exc.value.field == field and exc.value.where == str(f)
    assert load_identity(tmp_path / "missing.toml") == Identity(path=str(tmp_path / "missing.toml"))


def test_identity_path_defaults_beside_the_warehouse(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("KIFU_PEOPLE", raising=False)
    assert people.identity_path(tmp_path / "w.duckdb") == tmp_path / "people.toml"
    assert people.identity_path(tmp_path) == tmp_path / "people.toml"  # a Parquet dataset folder
    monkeypatch.setenv("KIFU_PEOPLE", str(tmp_path / "club.toml"))
    assert people.identity_path(tmp_path / "w.duckdb") == tmp_path / "club.toml"
    assert people.identity_path(tmp_path / "w.duckdb", tmp_path / "x.toml") == tmp_path / "x.toml"


# --- keys in logs and imports -----------------------------------------------------------------


def test_new_takes_keys_and_old_logs_stay_byte_identical(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    r = kifu("new", log, "-g", "generic", "-m", "m1", "-p", "a=Aoi", "-p", "b=Ren", "-k", "a=jcg:12345")
    assert r.code == 0, r.err
    start = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert start["players"] == [{"id": "a", "name": "Aoi", "key": "jcg:12345"}, {"id": "b", "name": "Ren"}]
    r = kifu("new", tmp_path / "x.jsonl", "-g", "generic", "-m", "m2", "-p", "a=Aoi", "-k", "z=jcg:1")
    assert r.code == 2 and "z" in r.err and not (tmp_path / "x.jsonl").exists()
    # A log written before keys existed reads and re-encodes to the very same bytes.
    table = FIXTURES / "core" / "table.jsonl"
    assert logfile.verify(table) is not None
    assert '"key"' not in table.read_text(encoding="utf-8").splitlines()[0]


def test_importers_fill_the_key_their_source_has(kifu, tmp_path: Path) -> None:
    def players(rel: str) -> list[dict]:
        return json.loads((FIXTURES / "imports" / (rel + ".kifu.jsonl")).read_text(encoding="utf-8").splitlines()[0])[
            "players"
        ]

    assert [p.get("key") for p in players("arena/Player.log")] == ["arena:U1", "arena:U2"]
    assert [p.get("key") for p in players("discord/export.json")] == ["discord:9512", "discord:9059"]
    assert all(p.get("key", "").startswith("udonarium:") for p in players("udonarium/chat.xml"))
    assert all("key" not in p for p in players("ccfolia/log.json") + players("cockatrice/game.log"))
    # --player names a seat; the source's key for it still comes along.
    out = tmp_path / "a.jsonl"
    r = kifu("import", FIXTURES / "imports" / "arena" / "Player.log", "-o", out, "--player", "me=Ren")
    assert r.code == 0, r.err
    start = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert start["players"] == [{"id": "me", "name": "Ren", "key": "arena:U2"}]


# --- the table ------------------------------------------------------------------------------


def test_every_view_with_a_player_has_its_person(imports_db) -> None:
    db, _ = imports_db
    con = duckdb.connect(str(db), read_only=True)
    views = con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main'").fetchall()
    cols = {
        v: {
            c
            for (c,) in con.execute(
                "SELECT column_name FROM duckdb_columns() WHERE table_name = $v", {"v": v}
            ).fetchall()
        }
        for (v,) in views
    }
    con.close()
    with_player = {v for v, c in cols.items() if "player" in c}
    assert {
        "players",
        "randomness",
        "runs",
        "first_players",
        "gg_setups",
        "gg_tosses",
        "mtg_flips",
        "wt_builds",
        "ws_attacks",
    } <= with_player
    assert all("person" in cols[v] for v in with_player)


def test_a_warehouse_from_before_people_is_brought_up_to_date(kifu, imports_db, tmp_path: Path) -> None:
    db, _ = imports_db
    old = tmp_path / "old.duckdb"
    old.write_bytes(db.read_bytes())
    con = duckdb.connect(str(old))
    con.execute("DROP VIEW players")
    con.execute("ALTER TABLE matches ALTER players TYPE STRUCT(id VARCHAR, name VARCHAR)[]")
    con.execute("DELETE FROM people")
    con.execute("DELETE FROM feed_versions WHERE feed = 'people'")
    con.close()
    rows = json.loads(kifu("people", "--db", old, "-f", "json").out)
    assert {r["person"] for r in rows} == {"Aoi", "Ren", "葵"}
    con = duckdb.connect(str(old), read_only=True)
    assert con.execute(
        """SELECT count(*) FROM matches, unnest(players) p WHERE p.unnest."key" IS NOT NULL"""
    ).fetchone() == (4,)
    con.close()
