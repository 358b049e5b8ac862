"""`kifu audit -j N` and `kifu ingest -j N` (issue 27): many logs over worker processes, the output -j 1's.

Each command runs as a user runs it, a process of its own (``python -m kifu``), so its workers are
forked from a kifu process as they are in use. Nothing here is timed: bench/bench_jobs.py measures
what the cores give.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT

from kifu.app import batch

LOGS = sorted(str(p) for p in FIXTURES.rglob("*.jsonl"))[::3]
"""A third of the bundled logs, taken evenly (about 240): every game, good ones, logs with findings, logs that
cannot be trusted; enough for many chunks per worker, at a third of the cost of them all."""


def kifu_process(*args: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "COLUMNS": "100", "KIFU_LANG": "en"}
    return subprocess.run(
        [sys.executable, "-m", "kifu", *map(str, args)], cwd=cwd, env=env, capture_output=True, check=False
    )


@pytest.fixture(scope="module")
def batch_with_bad(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The bundled logs with, among them, a file that is not a log and a file that does not exist."""
    folder = tmp_path_factory.mktemp("bad")
    bad = folder / "bad.jsonl"
    bad.write_text("not a log\n")
    middle = len(LOGS) // 2
    return [*LOGS[:middle], str(bad), *LOGS[middle:], str(folder / "missing.jsonl")]


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "md"])
def test_audit_in_two_workers_prints_what_one_process_prints(fmt: str, batch_with_bad: list[str]) -> None:
    serial = kifu_process("audit", *batch_with_bad, "-f", fmt, "-j", "1")
    parallel = kifu_process("audit", *batch_with_bad, "-f", fmt, "-j", "2")
    assert serial.returncode == 2  # the bad file and the missing one: every other log still reported
    assert (parallel.returncode, parallel.stdout, parallel.stderr) == (serial.returncode, serial.stdout, serial.stderr)
    assert serial.stderr.decode().count("kifu: error: ") == 2
    assert "bad.jsonl:1" in serial.stderr.decode() and "missing.jsonl" in serial.stderr.decode()


def test_audit_pages_in_two_workers_are_one_process_pages(batch_with_bad: list[str]) -> None:
    logs = [p for p in batch_with_bad if "/gunandgun/" in p or not p.startswith(str(FIXTURES))]
    serial = kifu_process("audit", *logs, "-f", "html", "-j", "1")
    parallel = kifu_process("audit", *logs, "-f", "html", "-j", "2")
    assert serial.returncode == 2 and serial.stdout.count(b"<!doctype html>") + serial.stdout.count(b"<!DOCTYPE html>")
    assert (parallel.returncode, parallel.stdout, parallel.stderr) == (serial.returncode, serial.stdout, serial.stderr)


def test_audit_in_more_workers_than_logs_and_to_a_file(tmp_path: Path) -> None:
    logs = LOGS[:3]
    serial = kifu_process("audit", *logs, "-f", "jsonl", "-j", "1", "-o", tmp_path / "one.jsonl")
    parallel = kifu_process("audit", *logs, "-f", "jsonl", "-j", "8", "-o", tmp_path / "eight.jsonl")
    assert parallel.returncode == serial.returncode
    assert (tmp_path / "eight.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()
    assert len((tmp_path / "one.jsonl").read_bytes().splitlines()) == 3


@pytest.mark.slow
def test_ingest_in_two_workers_stores_what_one_process_stores(tmp_path: Path, batch_with_bad: list[str]) -> None:
    """The summary, the refusals and every table are the same; only the parent writes the warehouse."""
    tables = ("matches", "findings", "event_lines", "ruling_stances", "match_randomness")
    said = {}
    stored = {}
    for jobs in ("1", "2"):
        here = tmp_path / f"j{jobs}"
        here.mkdir()
        run = kifu_process("ingest", *batch_with_bad, "-j", jobs, "--db", "w.duckdb", "-f", "json", cwd=here)
        said[jobs] = (run.returncode, run.stdout, run.stderr)
        stored[jobs] = [
            kifu_process("sql", f"SELECT * FROM {t} ORDER BY ALL", "-f", "csv", "--db", "w.duckdb", cwd=here).stdout
            for t in tables
        ]
    assert said["1"][0] == 1  # some logs refused, the others stored
    assert said["2"] == said["1"]
    assert stored["2"] == stored["1"]
    assert all(rows.count(b"\n") > 1 for rows in stored["1"][:3])


@pytest.mark.parametrize("command", ["audit", "ingest"])
@pytest.mark.parametrize("jobs", ["0", "-2"])
def test_no_workers_is_a_usage_error_in_one_line(kifu, command: str, jobs: str, tmp_path: Path) -> None:
    log = FIXTURES / "gunandgun" / "dispute.jsonl"
    extra = ("--db", str(tmp_path / "w.duckdb")) if command == "ingest" else ()
    r = kifu(command, log, f"--jobs={jobs}", *extra, "--lang", "en")
    assert r.code == 2 and r.out == ""
    assert r.err.count("\n") == 1 and r.err.startswith("kifu: error: -j/--jobs")
    assert f"not {jobs}" in r.err and "Traceback" not in r.err
    ja = kifu(command, log, "-j", jobs, *extra, "--lang", "ja")
    assert ja.code == 2 and ja.err.count("\n") == 1 and "1 以上" in ja.err
    assert not (tmp_path / "w.duckdb").exists()  # refused before anything was written


@pytest.mark.parametrize("command", ["audit", "ingest"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_help_shows_jobs_with_an_example(kifu, command: str, lang: str) -> None:
    r = kifu(command, "--help", "--lang", lang)
    assert r.code == 0
    assert "-j, --jobs" in r.out
    assert any(line.strip().startswith(f"kifu {command} ") and " -j 2" in line for line in r.out.splitlines())


def test_ordered_keeps_the_order_and_one_job_starts_no_worker() -> None:
    import multiprocessing

    words = [f"w{i:03d}" for i in range(200)]
    assert list(batch.ordered(str.upper, words, 2)) == [w.upper() for w in words]
    assert list(batch.warmed(str.upper, words, 3, [5, 0, 199])) == [w.upper() for w in words]
    serial = batch.ordered(str.upper, words, 1)
    assert isinstance(serial, map) and not multiprocessing.active_children()  # -j 1: no pool at all
    assert isinstance(batch.ordered(str.upper, words[:1], 4), map)  # one item: no pool either
    assert list(serial) == [w.upper() for w in words]


def test_the_games_of_a_batch_are_read_from_first_lines(tmp_path: Path) -> None:
    (tmp_path / "junk.jsonl").write_bytes(b"\x00\xff\n")
    paths = [
        str(tmp_path / "junk.jsonl"),
        str(FIXTURES / "gunandgun" / "dispute.jsonl"),
        str(tmp_path / "missing.jsonl"),
        str(FIXTURES / "gunandgun" / "dispute.jsonl"),
    ]
    assert batch.games_of(paths) == {"gunandgun": 1}
    assert batch.cores() >= 1


def test_a_cluster_gets_as_few_chunks_as_keep_its_workers_busy() -> None:
    """Each chunk costs its worker a fixed in-memory warehouse and Parquet pieces: one per worker, two
    when each still holds 500 logs, none over 2,000 logs; the file order kept."""
    from kifu.warehouse.cluster import chunks

    files = [f"{i:05d}.jsonl" for i in range(10_000)]
    sizes = {
        (n, workers): [len(c) for c in chunks(files[:n], workers)] for n in (3, 480, 2000, 10_000) for workers in (1, 2)
    }
    assert sizes[(3, 2)] == [2, 1] and sizes[(480, 1)] == [480] and sizes[(480, 2)] == [240, 240]
    assert sizes[(2000, 1)] == [1000, 1000] and sizes[(2000, 2)] == [500] * 4
    assert sizes[(10_000, 2)] == [2000] * 5
    assert [f for c in chunks(files, 2) for f in c] == files
    assert len(chunks(files[:480], 2, per_worker=8)) == 16  # asked for: as many as asked
