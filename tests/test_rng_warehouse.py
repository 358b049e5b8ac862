"""The warehouse marks each random outcome verifiable or not, and `kifu stats fairness` tests the two apart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, run_cli

import kifu.warehouse as wh
from kifu.auditor import tally as audit_tally
from kifu.events import logfile
from kifu.warehouse.store import refresh_feeds


LOGS = sorted((FIXTURES / "imports" / "rng").glob("*.kifu.jsonl")) + [FIXTURES / "core" / "table.jsonl"]


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("logs")
    for path in LOGS:
        (folder / path.name).write_bytes(path.read_bytes())
    db = tmp_path_factory.mktemp("db") / "w.duckdb"
    con = wh.connect(db)
    summary = wh.ingest(con, [folder], jobs=1)
    con.close()
    assert summary.matches == len(LOGS) and not summary.refused
    return db


def _verifiable_per_match(con) -> dict[str, tuple[int, int]]:
    rows = con.execute(
        "SELECT match, count(*), count(*) FILTER (WHERE verifiable) FROM randomness GROUP BY match"
    ).fetchall()
    return {m: (n, k) for m, n, k in rows}


def test_each_outcome_is_verifiable_exactly_when_the_audit_says_so(db: Path) -> None:
    con = wh.connect(db, read_only=True)
    got = _verifiable_per_match(con)
    con.close()
    for path in LOGS:
        lg = logfile.load(path)
        tally = audit_tally.tally(lg.events)
        assert got[lg.start.match] == (tally.outcomes, tally.verifiable), path.name
    assert any(k == n > 0 for n, k in got.values()) and any(0 < k < n for n, k in got.values())


def test_a_refresh_computes_the_same_marks(db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "w.duckdb"
    copy.write_bytes(db.read_bytes())
    con = wh.connect(copy)
    before = _verifiable_per_match(con)
    refresh_feeds(con)
    assert _verifiable_per_match(con) == before
    con.close()


def test_fairness_tests_verifiable_outcomes_apart(db: Path) -> None:
    run = run_cli("stats", "fairness", "--db", db, "-f", "json")
    assert run.code == 0, run.err
    rows = json.loads(run.out)
    coins = {(r["person"], r["verifiable"]): r["n"] for r in rows if r["test"] == "coin"}
    con = wh.connect(db, read_only=True)
    want = dict(
        ((p, v), n)
        for p, v, n in con.execute(
            "SELECT person, verifiable, count(*) FROM randomness WHERE kind = 'coin' GROUP BY ALL"
        ).fetchall()
    )
    con.close()
    assert coins == want
    assert {v for _, v in coins} == {True, False}


def test_voided_outcomes_are_marked_left_out_of_fairness_and_said(tmp_path: Path) -> None:
    from rng_table import Table

    from kifu.warehouse.store import create_schema

    t = Table(match="voids")
    a = t.toss("a", text="7d2mq9xk4fa8wz3np6rt")
    t.void(*a.values())
    t.add({"type": "random", "by": "ren", "kind": "die", "sides": 6, "values": [3], "expr": "1D6"})
    folder = tmp_path / "logs"
    folder.mkdir()
    t.write(folder / "voids.jsonl")
    db = tmp_path / "w.duckdb"
    con = wh.connect(db)
    wh.ingest(con, [folder], jobs=1)
    marks = con.execute("SELECT seq, verifiable, voided FROM randomness WHERE match = 'voids' ORDER BY seq").fetchall()
    assert marks == [(a["use"], False, True), (len(t.events), False, False)]
    r = t.randomness()
    assert (r.outcomes, r.verifiable, r.voided) == (1, 0, 1)
    # A warehouse made before the marks: its statuses are decided again from the stored lines.
    con.execute("DELETE FROM match_randomness")
    con.execute("DELETE FROM feed_versions")
    create_schema(con)
    again = con.execute("SELECT seq, verifiable, voided FROM randomness WHERE match = 'voids' ORDER BY seq").fetchall()
    assert again == marks
    con.close()
    run = run_cli("stats", "fairness", "--db", db, "-f", "json")
    assert run.code == 0, run.err
    assert sum(r["n"] for r in json.loads(run.out) if r["test"] != "runs") == 1
    assert "1 random outcomes a log.void took back are left out" in run.err


def test_a_voided_toss_is_no_part_of_a_run(tmp_path: Path) -> None:
    """ガンナガン's run lengths read only the tosses that stand."""
    log = tmp_path / "logs" / "gg.jsonl"
    log.parent.mkdir()
    start = {
        "type": "match.start",
        "game": "gunandgun",
        "match": "gg-void",
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
    }
    logfile.create(log, start)
    with logfile.Writer(log, durable=False) as w:
        for facing in ("self", "self", "opponent"):
            w.append({"type": "gg.toss", "by": "a", "act": "a1", "player": "a", "facing": facing})
        w.append({"type": "log.void", "by": "recorder", "about": [3], "reason": "typed twice"})
    con = wh.connect(tmp_path / "w.duckdb")
    wh.ingest(con, [log.parent], jobs=1)
    assert con.execute("SELECT n FROM runs WHERE match = 'gg-void'").fetchall() == [(1,)]
    assert con.execute("SELECT count(*) FROM randomness WHERE voided").fetchone() == (1,)
    con.close()


def test_a_v1_toss_copied_into_another_match_is_seen_across_matches(tmp_path: Path) -> None:
    """A v1 commitment binds no match, so each log alone checks; the `commitments` view shows the copy."""
    chat = FIXTURES / "imports" / "rng" / "ccfolia-honest.html"
    logs = tmp_path / "logs"
    logs.mkdir()
    for match in ("r1-t3", "r2-t1"):
        run = run_cli("import", chat, "--match", match, "-o", logs / f"{match}.jsonl")
        assert run.code == 0, run.err
    con = wh.connect(tmp_path / "w.duckdb")
    wh.ingest(con, [logs, FIXTURES / "imports" / "rng" / "ccfolia-v2-honest.html.kifu.jsonl"], jobs=1)
    rows = con.execute(
        "SELECT match, seq, player, person, version, also_in FROM commitments ORDER BY match, seq"
    ).fetchall()
    con.close()
    copied = [r for r in rows if r[5]]
    assert copied == [
        ("r1-t3", 3, "p1", "ミナト", 1, ["r2-t1"]),
        ("r1-t3", 9, "p1", "ミナト", 1, ["r2-t1"]),
        ("r2-t1", 3, "p1", "ミナト", 1, ["r1-t3"]),
        ("r2-t1", 9, "p1", "ミナト", 1, ["r1-t3"]),
    ]
    honest = [r for r in rows if not r[5]]
    assert honest and all(r[4] == 2 and r[5] == [] for r in honest)
