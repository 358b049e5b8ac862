"""The warehouse (issue 7): ingest, forks, read-only SQL, byte-exact export, Parquet."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from hypothesis import given
from hypothesis import strategies as st
from conftest import FIXTURES, ROOT

from kifu import app
from kifu import warehouse as wh
from kifu.events import logfile
from kifu.events.base import KifuError
from kifu.warehouse.views import feed_inserts

PLAYERS = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]
TABLES = {
    "matches": "SELECT * FROM matches ORDER BY match",
    "events": "SELECT * EXCLUDE (event) FROM events ORDER BY match, seq",
    "findings": "SELECT * FROM findings ORDER BY match, seq, code",
}


def write_log(path: Path, match: str, notes: list[str], winner: str | None = "a") -> Path:
    """A generic match log written by the library (valid chain)."""
    logfile.create(path, {"game": "generic", "match": match, "players": PLAYERS, "at": "2026-10-05T09:00:00Z"})
    with logfile.Writer(path, durable=False) as w:
        for i, text in enumerate(notes):
            w.append({"type": "note", "by": "a", "text": text, "at": f"2026-10-05T09:{i + 1:02d}:00Z"})
        w.append({"type": "random", "by": "b", "kind": "die", "sides": 6, "values": [2, 6]})
        w.append({"type": "match.end", "winner": winner, "reason": "concede"})
    return path


def snapshot(db: Path) -> dict[str, list[tuple]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {name: con.execute(sql).fetchall() for name, sql in TABLES.items()}
    finally:
        con.close()


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """The repository's fixtures plus a few generated logs, one of them with findings."""
    d = tmp_path / "logs"
    shutil.copytree(FIXTURES, d / "fixtures")
    for i in range(3):
        write_log(d / f"m{i}.jsonl", f"m{i}", [f"note {j}" for j in range(i + 2)])
    bad_by = d / "sub" / "who.jsonl"
    bad_by.parent.mkdir()
    write_log(bad_by, "who", ["hi"])
    with logfile.Writer(bad_by, durable=False) as w:
        w.append({"type": "random", "by": "zed", "kind": "coin", "sides": 2, "values": [1]})
    return d


UNSTORABLE = ("KIFU-LOG-004/bad.jsonl", "KIFU-LOG-004/bad_no_offset.jsonl", "KIFU-LOG-007/bad.jsonl")
"""The core fixtures the warehouse refuses (docs/format.md § Times); the audit reports them."""


@pytest.mark.slow
def test_ingest_twice_gives_the_same_tables(kifu, corpus: Path, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    first = kifu("ingest", corpus, "--db", db)
    # The core fixtures of KIFU-LOG-004 and -007 hold what the warehouse cannot store (a time that is not
    # RFC 3339, two seats under one id): refused, the others loaded (exit 1).
    assert first.code == 1, first.err
    refused = sorted(line.split(": ", 2)[1] for line in first.err.splitlines() if line.startswith("refused: "))
    assert refused == sorted(str(corpus / "fixtures" / "core" / "rules" / r) for r in UNSTORABLE), first.err
    logs = len(list(corpus.rglob("*.jsonl"))) - len(UNSTORABLE)  # every fixture log and the generated ones
    assert f"{logs} new matches" in first.out and f"{len(UNSTORABLE)} refused" in first.out
    before = snapshot(db)
    assert len(before["matches"]) == logs and before["findings"], before
    again = kifu("ingest", corpus, "--db", db)
    assert again.code == 1 and "0 new matches" in again.out and f"{logs} already stored" in again.out
    assert snapshot(db) == before
    # A fresh warehouse built over a process pool holds the same rows as the in-process one.
    db2 = tmp_path / "w2.duckdb"
    assert kifu("ingest", corpus, "--db", db2, "--jobs", "2").code == 1
    assert snapshot(db2) == before


def test_matches_row_and_findings(kifu, corpus: Path, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    kifu("ingest", corpus, "--db", db)
    con = duckdb.connect(str(db), read_only=True)
    row = con.execute(
        "SELECT game, players, events, winner, end_reason, first_at::VARCHAR, last_at::VARCHAR, "
        "head, source FROM matches WHERE match = 'm1'"
    ).fetchone()
    head = logfile.verify(corpus / "m1.jsonl").hash
    assert row == (
        "generic",
        [{**p, "key": None} for p in PLAYERS],
        6,
        "a",
        "concede",
        "2026-10-05 09:00:00+00",
        "2026-10-05 09:03:00+00",
        head,
        str((corpus / "m1.jsonl").resolve()),
    )
    found = con.execute("SELECT code, seq, severity FROM findings WHERE match = 'who' ORDER BY seq, code").fetchall()
    con.close()
    # a line after match.end by someone who is not a player: play after the end is the one mistake, and what
    # else is wrong with that line (KIFU-LOG-002) is its consequence (docs/format.md § Findings)
    assert found == [("KIFU-LOG-001", 5, "error")]


def test_forked_log_is_refused_with_both_heads(kifu, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    original = write_log(tmp_path / "one.jsonl", "R1-T3", ["shuffle", "draw"])
    assert kifu("ingest", original, "--db", db).code == 0
    before = snapshot(db)
    fork = write_log(tmp_path / "two.jsonl", "R1-T3", ["shuffle", "mulligan"])
    other = write_log(tmp_path / "three.jsonl", "R1-T4", ["ok"])
    r = kifu("ingest", fork, other, "--db", db)
    assert r.code == 1  # one refused, one loaded
    assert logfile.verify(original).hash in r.err and logfile.verify(fork).hash in r.err
    assert "fork" in r.err and "1 new matches" in r.out
    after = snapshot(db)
    assert [m for m in after["matches"] if m[0] == "R1-T3"] == before["matches"]


def test_extended_log_is_refused_and_named_as_an_extension(kifu, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    log = write_log(tmp_path / "live.jsonl", "live", ["first"])
    assert kifu("ingest", log, "--db", db).code == 0
    stored = logfile.verify(log).hash
    logfile.append(log, {"type": "note", "by": "b", "text": "one more"})
    r = kifu("ingest", log, "--db", db)
    assert r.code == 2 and "stored up to seq 4" in r.err and stored in r.err and "goes on to seq 5" in r.err


def test_untrusted_log_is_refused_and_the_others_load(kifu, tmp_path: Path) -> None:
    good = write_log(tmp_path / "good.jsonl", "g", ["x"])
    edited = write_log(tmp_path / "edited.jsonl", "e", ["I pay 2", "then toss"])
    edited.write_bytes(edited.read_bytes().replace(b"I pay 2", b"I pay 0"))
    r = kifu("ingest", good, edited, "--db", tmp_path / "w.duckdb")
    assert r.code == 1 and "1 new matches" in r.out
    assert f"{edited.resolve()}:2: seq 2: seq 2 does not match the hash" in r.err


def test_file_changed_between_verify_and_load_does_not_get_in(tmp_path: Path) -> None:
    """What is stored is the bytes Python verified: the file is never read a second time."""
    log = write_log(tmp_path / "race.jsonl", "race", ["before"])
    verified = log.read_bytes()

    def audit_then_tamper(verified):
        log.write_bytes(log.read_bytes().replace(b"before", b"BEFORE"))
        return app.audit(verified)

    con = wh.connect(tmp_path / "w.duckdb")
    summary = wh.ingest(con, [log], audit_then_tamper, jobs=1)
    assert summary.matches == 1 and not summary.refused
    assert wh.match_lines(con, "race") == verified != log.read_bytes()
    con.close()


def _core(path: Path) -> tuple[str | None, str | None]:
    """(head, None) if the streaming core reader accepts the log, else (None, its error as printed)."""
    try:
        return logfile.verify(path).hash, None
    except KifuError as exc:
        return None, f"{type(exc).__name__}: {exc}"


def _in_memory(path: Path) -> tuple[str | None, str | None]:
    try:
        return logfile.verify_bytes(path.read_bytes(), where=str(path)).head.hash, None
    except KifuError as exc:
        return None, f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize(
    "mutate",
    [
        lambda ls: ls[:2] + ls[3:],  # a line deleted
        lambda ls: [ls[0], ls[2], ls[1]] + ls[3:],  # two lines swapped
        lambda ls: ls[:1] + [ls[1].replace(b'"x"', b'"y"')] + ls[2:],  # an edit
        lambda ls: ls + [ls[-1]],  # a line duplicated
        lambda ls: ls[:1] + [ls[1].replace(b'"by":"a"', b'"by":"a","extra":1')] + ls[2:],  # unknown field
        lambda ls: ls[:2] + [b""] + ls[2:],  # a blank line
        lambda ls: ls[:2] + [ls[0]] + ls[2:],  # a second match.start
        lambda ls: [ls[0].replace(b'"kifu/1"', b'"kifu/9"')] + ls[1:],  # an unknown format
        lambda ls: [ln + b"\r" for ln in ls],  # CRLF line ends (accepted by both)
        lambda ls: ls[:-1] + [ls[-1] + b"\nTORN"],  # a torn last line (the join adds no terminator)
        lambda ls: [],  # an empty file
    ],
)
def test_verify_bytes_agrees_with_the_core_reader(tmp_path: Path, mutate) -> None:
    log = write_log(tmp_path / "m.jsonl", "m", ["x", "y"])
    assert _in_memory(log) == _core(log) and _core(log)[0] is not None
    lines = log.read_bytes().split(b"\n")[:-1]
    changed = mutate(lines)
    log.write_bytes(b"\n".join(changed) + (b"\n" if changed and not changed[-1].endswith(b"TORN") else b""))
    assert _in_memory(log) == _core(log)


def test_sql_is_read_only(kifu, corpus: Path, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    kifu("ingest", corpus, "--db", db)
    before = snapshot(db)
    writes = [
        "DELETE FROM matches",
        "INSERT INTO findings SELECT * FROM findings",
        "UPDATE matches SET winner = 'b'",
        "CREATE TABLE x AS SELECT 1",
        "DROP TABLE matches",
        f"COPY matches TO '{tmp_path / 'x.csv'}'",
        f"ATTACH '{tmp_path / 'other.duckdb'}' AS o",
        "SELECT 1; DELETE FROM matches",
        "SELECT * FROM read_text('/etc/hostname')",
    ]
    for stmt in writes:
        r = kifu("sql", stmt, "--db", db)
        assert r.code == 2, (stmt, r.out, r.err)
        assert r.err.count("\n") == 1 and r.err.startswith("kifu: error:"), r.err
    assert snapshot(db) == before
    assert not (tmp_path / "x.csv").exists() and not (tmp_path / "other.duckdb").exists()


def test_sql_formats_params_and_stdin(kifu, corpus: Path, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    kifu("ingest", corpus, "--db", db)
    q = "SELECT seq, type FROM events WHERE match = $m AND seq <= $n::INTEGER ORDER BY seq"
    r = kifu("sql", q, "-p", "m", "m0", "-p", "n", "2", "--db", db, "-f", "json")
    assert r.code == 0, r.err
    assert json.loads(r.out) == [{"seq": 1, "type": "match.start"}, {"seq": 2, "type": "note"}]
    r = kifu(
        "sql",
        "-",
        "--param",
        "m",
        "demo-001",
        "--db",
        db,
        "-f",
        "csv",
        stdin="SELECT count(*) AS n FROM randomness WHERE match = $m",
    )
    assert r.out == "n\n3\n"
    assert kifu("sql", "SELECT 1", "--db", tmp_path / "missing.duckdb").code == 2


def test_exported_match_verifies_byte_for_byte(kifu, corpus: Path, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    kifu("ingest", corpus, "--db", db)
    out = tmp_path / "again.jsonl"
    assert kifu("export", "--match", "demo-001", "-o", out, "--db", db).code == 0
    assert out.read_bytes() == (FIXTURES / "core" / "table.jsonl").read_bytes()
    r = kifu("export", "--match", "m2", "--db", db)
    assert r.out.encode() == (corpus / "m2.jsonl").read_bytes()
    r = kifu("verify", out)
    assert r.code == 0 and "7 events" in r.out


def test_parquet_export_is_hive_partitioned(kifu, corpus: Path, tmp_path: Path) -> None:
    db, out = tmp_path / "w.duckdb", tmp_path / "pq"
    kifu("ingest", corpus, "--db", db)
    r = kifu("export", "--parquet", out, "--db", db)
    assert r.code == 0, r.err
    # The current version's folder, as the manifest names it, is a plain hive-partitioned dataset.
    version = out / json.loads((out / "kifu-dataset.json").read_text(encoding="utf-8"))["version"]
    assert (version / "events" / "game=generic" / "month=2026-10").is_dir()
    assert (version / "events" / "game=generic" / "month=2026-11").is_dir()
    back = duckdb.sql(
        f"SELECT game, count(*) FROM read_parquet('{version}/events/**/*.parquet', "
        "hive_partitioning = true) GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    with duckdb.connect(str(db), read_only=True) as con:
        stored = con.sql(
            "SELECT m.game, count(*) FROM events e JOIN matches m USING (match) GROUP BY ALL ORDER BY ALL"
        ).fetchall()
    assert back == stored and {g for g, _ in back} >= {"generic", "gunandgun", "mtg", "worldtrigger", "weiss"}


def test_env_var_names_the_database(kifu, corpus: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("KIFU_DB", str(tmp_path / "env.duckdb"))
    assert kifu("ingest", corpus / "m0.jsonl").code == 0
    assert (tmp_path / "env.duckdb").is_file()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KIFU_DB")
    assert kifu("ingest", corpus / "m0.jsonl").code == 0
    assert (tmp_path / "kifu.duckdb").is_file()


def test_verify_does_not_import_duckdb(tmp_path: Path) -> None:
    log = write_log(tmp_path / "m.jsonl", "m", ["x"])
    code = (
        "import sys\nfrom kifu.cli import main\ntry:\n    rc = main(['verify', sys.argv[1]])\n"
        "except SystemExit as exc:\n    rc = exc.code\n"
        "print(rc, 'duckdb' in sys.modules, 'scipy' in sys.modules)"
    )
    r = subprocess.run(
        [sys.executable, "-c", code, str(log)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert r.stdout.strip().splitlines()[-1] == "0 False False", (r.stdout, r.stderr)


def test_documented_game_views_example_plugs_in(tmp_path: Path) -> None:
    """The module shown in docs/sql.md ("Adding a game's views") feeds randomness and runs."""
    import re
    from types import ModuleType

    from kifu.games.generic import views as generic

    text = (ROOT / "docs" / "sql.md").read_text(encoding="utf-8")
    source = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    gg = ModuleType("gg_views")
    exec(compile(source, "docs/sql.md", "exec"), gg.__dict__)
    log = write_log(tmp_path / "m.jsonl", "m", ["x"])
    con = wh.connect(tmp_path / "w.duckdb")
    wh.ingest(con, [log], None, jobs=1, views=(generic, gg))
    # Stand-in rows with gg.toss's real fields go through the refresh path.
    con.execute(
        "CREATE TEMP VIEW tosses AS SELECT * FROM (VALUES "
        '(\'m\', 3, \'{"act":"act1","player":"a","facing":"self"}\'), '
        '(\'m\', 4, \'{"act":"act1","player":"a","facing":"opponent"}\'), '
        '(\'m\', 6, \'{"act":"act2","player":"b","facing":"self"}\')) '
        "t(match, seq, line)"
    )
    con.execute("CREATE TEMP VIEW fake AS SELECT match, seq, 'gg.toss' AS type, line, line::JSON AS event FROM tosses")
    for sql in feed_inserts((gg,), "fake"):
        con.execute(sql)
    assert con.execute(
        "SELECT game, player, kind, value FROM randomness WHERE game = 'gunandgun' ORDER BY seq"
    ).fetchall() == [("gunandgun", "a", "coin", 1), ("gunandgun", "a", "coin", 2), ("gunandgun", "b", "coin", 1)]
    assert con.execute("SELECT player, n FROM runs").fetchall() == [("a", 1)]
    assert con.execute("SELECT count(*) FROM randomness WHERE match = 'm'").fetchone() == (5,)
    assert "first_players" in {r[0] for r in con.execute("SELECT view_name FROM duckdb_views()").fetchall()}
    con.close()


def test_feeds_are_recomputed_when_their_sql_changes(tmp_path: Path) -> None:
    from types import ModuleType

    from kifu.games.generic import views as generic

    log = write_log(tmp_path / "m.jsonl", "m", ["x"])
    con = wh.connect(tmp_path / "w.duckdb")
    wh.ingest(con, [log], None, jobs=1)
    assert con.execute("SELECT count(*) FROM runs").fetchone() == (0,)
    notes = ModuleType("note_runs")
    notes.RUNS = "SELECT 'generic' AS game, match, seq, actor AS player, 0 AS n FROM {events} WHERE type = 'note'"
    wh.create_schema(con, (generic, notes))
    assert con.execute("SELECT match, seq, n FROM runs").fetchall() == [("m", 2, 0)]
    assert con.execute("SELECT count(*) FROM randomness").fetchone() == (2,)
    con.close()


@given(data=st.data())
def test_verify_bytes_says_what_the_core_reader_says(tmp_path_factory, data) -> None:
    """Any single-byte change: the same head, or the same error (class, message, line, seq, offset)."""
    d = tmp_path_factory.mktemp("fuzz")
    log = write_log(d / "m.jsonl", "m", ["abc", "déf"])
    raw = bytearray(log.read_bytes())
    i = data.draw(st.integers(0, len(raw) - 1))
    raw[i] = data.draw(st.integers(0, 255).filter(lambda b: b != raw[i]))
    log.write_bytes(bytes(raw))
    assert _in_memory(log) == _core(log)


@pytest.mark.parametrize(
    "path",
    [
        ("ingest",),
        ("sql",),
        ("export",),
        ("stats", "fairness"),
        ("stats", "winrate"),
        ("stats", "seats"),
        ("stats", "rules"),
        ("stats", "builds"),
        ("stats", "first"),
        ("stats", "zero-n"),
        ("people",),
    ],
)
def test_every_warehouse_command_is_documented(kifu, path) -> None:
    r = kifu(*path, "--help")
    assert r.code == 0 and "Example" in r.out, r.out
    assert " ".join(path).split()[-1] in (ROOT / "docs" / "sql.md").read_text(encoding="utf-8")


def test_match_times_are_the_earliest_and_latest_event_times(tmp_path: Path) -> None:
    """first_at/last_at read `at` as events.time does, in any order and any offset (a time that is not strict
    RFC 3339 never gets this far: tests/test_strict_times.py)."""
    log = tmp_path / "times.jsonl"
    logfile.create(log, {"game": "generic", "match": "times", "players": PLAYERS, "at": "2026-10-05T18:00:00+09:00"})
    with logfile.Writer(log, durable=False) as w:
        for at in ("2026-10-05T09:30:00Z", "2026-10-05T01:00:00-08:00", "2026-10-05T08:59:00.5Z", None):
            w.append({"type": "note", "by": "a", "text": "t", **({"at": at} if at else {})})
    con = wh.connect(tmp_path / "w.duckdb")
    wh.ingest(con, [log], jobs=1)
    got = con.execute("SELECT first_at::VARCHAR, last_at::VARCHAR FROM matches").fetchone()
    assert got == ("2026-10-05 08:59:00.5+00", "2026-10-05 09:30:00+00")
    assert got == con.execute("SELECT min(time)::VARCHAR, max(time)::VARCHAR FROM events").fetchone()
    # only the event without a time has none
    assert con.execute("SELECT count(*) FROM events WHERE time IS NULL").fetchone() == (1,)
    con.close()


def test_a_warehouse_with_the_former_time_text_column_still_loads(tmp_path: Path) -> None:
    """event_lines no longer stores time_text (the view reads it from the line); older files keep loading."""
    db = tmp_path / "old.duckdb"
    con = duckdb.connect(str(db))
    con.execute("""CREATE TABLE event_lines (
        match VARCHAR NOT NULL, seq BIGINT NOT NULL, type VARCHAR NOT NULL,
        time_text VARCHAR, time TIMESTAMPTZ, actor VARCHAR, src JSON,
        line VARCHAR NOT NULL USING COMPRESSION 'uncompressed')""")
    con.close()
    log = write_log(tmp_path / "m.jsonl", "m", ["x"])
    con = wh.connect(db)
    assert wh.ingest(con, [log], None, jobs=1).matches == 1
    assert con.execute("SELECT seq, time_text FROM events WHERE match = 'm' AND seq <= 2 ORDER BY seq").fetchall() == [
        (1, "2026-10-05T09:00:00Z"),
        (2, "2026-10-05T09:01:00Z"),
    ]
    assert wh.match_lines(con, "m") == log.read_bytes()
    con.close()


def test_handed_over_columns_match_the_lines(corpus: Path, tmp_path: Path) -> None:
    """The envelope columns the workers send agree with what SQL reads from each stored line,
    for every event of every fixture (all games, imported logs with `src`, Japanese text)."""
    con = wh.connect(tmp_path / "w.duckdb")
    summary = wh.ingest(con, [corpus], jobs=2)
    assert summary.events > 10_000
    bad = con.execute("""
        SELECT match, seq FROM event_lines
        WHERE type IS DISTINCT FROM line->>'$.type'
           OR actor IS DISTINCT FROM line->>'$.by'
           OR src::VARCHAR IS DISTINCT FROM (line->'$.src')::VARCHAR
           OR seq IS DISTINCT FROM (line->>'$.seq')::BIGINT
           OR time IS DISTINCT FROM (CASE WHEN regexp_matches(line->>'$.at', '([Zz]|[+-][0-9][0-9]:?[0-9][0-9])$')
                                          THEN TRY_CAST(line->>'$.at' AS TIMESTAMPTZ) END)
        LIMIT 5""").fetchall()
    assert bad == []
    assert con.execute("SELECT count(*) FROM event_lines WHERE src IS NOT NULL").fetchone()[0] > 100
    assert con.execute("SELECT count(*) FROM event_lines WHERE line LIKE '%ガン%'").fetchone()[0] > 0
    con.close()


def test_a_crlf_log_loads_its_lines_without_the_cr(tmp_path: Path) -> None:
    log = write_log(tmp_path / "crlf.jsonl", "crlf", ["一", "two"])
    lf = log.read_bytes()
    log.write_bytes(lf.replace(b"\n", b"\r\n"))
    con = wh.connect(tmp_path / "w.duckdb")
    summary = wh.ingest(con, [log], jobs=1)
    assert summary.matches == 1 and not summary.refused
    assert wh.match_lines(con, "crlf") == lf
    assert con.execute("SELECT list(type ORDER BY seq) FROM events").fetchone()[0] == [
        "match.start",
        "note",
        "note",
        "random",
        "match.end",
    ]
    con.close()
