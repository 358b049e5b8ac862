"""One big log is ingested in linear time and bounded memory (issue 32, defect 12; kifu/warehouse/stream.py).

The reproducer: ingest of one big log was super-linear (32 MB 3.5 s, 64 MB 16 s, 256 MB
338 s and 2.6 GB; a 1 GB log reached 9.1 GB with nothing loaded). DuckDB split each match
as one string; a worker held the whole log, its events and their columns. Now every match
goes to DuckDB in pieces of lines, and a log over ``STREAM_ABOVE`` is verified, audited and
loaded as it streams. Here: the streamed and the pieced loads store exactly what the
whole-log load stored (every table, byte for byte on ``line``), the Python memory of a
streamed check does not grow with the log (tracemalloc: allocations, not time), and a log
that changes between the two passes is refused. Times are printed by bench/bench_ingest_big.py.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest
from conftest import FIXTURES

from kifu import app
from kifu import warehouse as wh
from kifu.events import logfile
from kifu.warehouse import stream

TABLES = {
    "matches": "SELECT * EXCLUDE (source) FROM matches ORDER BY match",
    "event_lines": "SELECT match, seq, type, time, actor, src, line FROM event_lines ORDER BY match, seq",
    "findings": "SELECT * FROM findings ORDER BY ALL",
    "random_outcomes": "SELECT * FROM random_outcomes ORDER BY ALL",
    "run_lengths": "SELECT * FROM run_lengths ORDER BY ALL",
}


def _big(path: Path, n: int) -> Path:
    logfile.write_new(
        path,
        {"game": "generic", "match": path.stem, "players": [{"id": "a", "name": "Aoi"}, {"id": "b", "name": "Ren"}]},
        (
            {
                "type": "random",
                "by": "ab"[j % 2],
                "kind": "coin",
                "sides": 2,
                "values": [1 + j % 2],
                "at": "2026-03-01T10:00:00Z",
            }
            if j % 3 == 0
            else {"type": "note", "by": "a", "text": "x" * 80 + str(j)}
            for j in range(n)
        ),
    )
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("big")
    _big(root / "big.jsonl", 3000)
    for rel in ("gunandgun/dispute.jsonl", "core/table.jsonl"):
        (root / rel.replace("/", "-")).write_bytes((FIXTURES / rel).read_bytes())
    voids = next(p for p in FIXTURES.rglob("*.jsonl") if logfile.mentions(p, b"log.void"))
    (root / "with-voids.jsonl").write_bytes(voids.read_bytes())
    return root


def _tables(db: Path) -> dict[str, list[tuple]]:
    con = wh.connect(db, read_only=True)
    try:
        return {name: con.execute(sql).fetchall() for name, sql in TABLES.items()}
    finally:
        con.close()


@pytest.fixture(scope="module")
def whole(logs: Path, tmp_path_factory) -> dict[str, list[tuple]]:
    db = tmp_path_factory.mktemp("whole") / "w.duckdb"
    con = wh.connect(db)
    wh.ingest(con, [logs], jobs=1)
    con.close()
    return _tables(db)


def test_a_streamed_ingest_stores_what_a_whole_one_stores(logs: Path, whole, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(stream, "STREAM_ABOVE", 0)  # every log streamed
    db = tmp_path / "w.duckdb"
    con = wh.connect(db)
    summary = wh.ingest(con, [logs], jobs=1)
    con.close()
    assert summary.matches == 4 and not summary.refused
    got = _tables(db)
    for name in TABLES:
        assert got[name] == whole[name], name
    # The same logs again: recognised as stored, without a second audit.
    con = wh.connect(db)
    again = wh.ingest(con, [logs], jobs=1)
    con.close()
    assert again.matches == 0 and again.unchanged == 4


def test_small_pieces_store_what_one_piece_stores(logs: Path, whole, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(stream, "PIECE", 7)
    db = tmp_path / "w.duckdb"
    con = wh.connect(db)
    wh.ingest(con, [logs], jobs=1)
    con.close()
    assert _tables(db) == whole


def _peak(fn) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_streamed_check_holds_no_more_for_a_bigger_log(tmp_path: Path, monkeypatch) -> None:
    """The worker used to hold the whole log, its events and their columns: memory grew with the log."""
    # Both over a few of the reader's blocks (a mebibyte each): what a block holds is the bound. The app
    # layer holds a log of up to HOLD events whole (a big log streams past them): both logs stream here.
    monkeypatch.setattr("kifu.app.reading.HOLD", 1_000)
    small, large = _big(tmp_path / "small.jsonl", 20_000), _big(tmp_path / "large.jsonl", 80_000)
    assert large.stat().st_size > 3 * small.stat().st_size > 6 << 20
    stream.check(str(small), app.audit)  # imports and caches first
    grew = _peak(lambda: stream.check(str(large), app.audit)) - _peak(lambda: stream.check(str(small), app.audit))
    whole_grew = _peak(lambda: wh.check_match(str(large), app.audit)) - _peak(
        lambda: wh.check_match(str(small), app.audit)
    )
    assert grew < 2 << 20 and whole_grew > 10 * max(grew, 1 << 20), (grew, whole_grew)


def test_a_log_that_changes_between_the_passes_is_refused(tmp_path: Path) -> None:
    from kifu.events.base import KifuError

    log = _big(tmp_path / "m.jsonl", 500)
    checked = stream.check(str(log), app.audit)
    logfile.append(log, {"type": "note", "by": "a", "text": "written meanwhile"})
    con = wh.connect(tmp_path / "w.duckdb")
    wh.create_schema(con)
    batch = wh.ingest.__globals__["_Batch"]()
    batch.add(checked)
    with pytest.raises(KifuError, match="changed while it was ingested"):
        batch.load(con, [])
    assert con.execute("SELECT count(*) FROM event_lines").fetchone() == (0,)
    con.close()
