"""`kifu ingest --cluster … --parquet …` on a local Dask cluster of two worker processes (issue 16, item 3).

The same corpus (every game's simulated matches, imported logs, timed generic logs over
several months, a tampered log, forks within a chunk and across chunks, a copy, a log with
events appended) goes through `kifu ingest` on one machine and through the cluster; the
Parquet dataset, read with `--parquet`, must hold the same rows in every table, byte for
byte on `line`, and the same refusals.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the cluster extra (pip install '.[cluster]') is not installed")
pytestmark = pytest.mark.slow  # each test starts a local cluster of worker processes

from conftest import FIXTURES  # noqa: E402
from test_views import build_corpus  # noqa: E402

from kifu import warehouse as wh  # noqa: E402
from kifu.events import logfile  # noqa: E402
from kifu.events.base import KifuError  # noqa: E402
from kifu.warehouse import cluster  # noqa: E402
from kifu.warehouse import dataset  # noqa: E402
from kifu.warehouse.dataset import open_dataset  # noqa: E402

COMPARE = {
    "matches": "SELECT * FROM matches ORDER BY match",
    "event_lines": "SELECT match, seq, type, time, actor, src, line FROM event_lines ORDER BY match, seq",
    "findings": "SELECT * FROM findings ORDER BY ALL",
    "random_outcomes": "SELECT * FROM random_outcomes ORDER BY ALL",
    "run_lengths": "SELECT * FROM run_lengths ORDER BY ALL",
    "match_randomness": "SELECT * FROM match_randomness ORDER BY ALL",
    "ruling_stances": "SELECT * FROM ruling_stances ORDER BY ALL",
    "rulings": "SELECT * FROM rulings ORDER BY ALL",
    "people": "SELECT * FROM people ORDER BY match, seat",
    "players": "SELECT * FROM players ORDER BY match, seat",
}


def _generic(path: Path, match: str, month: int, faces: list[int]) -> Path:
    logfile.create(
        path,
        {
            "game": "generic",
            "match": match,
            "at": f"2026-{month:02d}-03T09:00:00Z",
            "players": [{"id": "a", "name": "Aoi", "key": "jcg:1"}, {"id": "b", "name": "Ren"}],
        },
    )
    with logfile.Writer(path, durable=False) as w:
        for i, f in enumerate(faces):
            w.append(
                {
                    "type": "random",
                    "by": "ab"[i % 2],
                    "kind": "die",
                    "sides": 6,
                    "values": [f, 7 - f],
                    "at": f"2026-{month:02d}-03T09:{i + 1:02d}:00Z",
                }
            )
        w.append({"type": "match.end", "winner": "a", "reason": "concede"})
    return path


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    root = build_corpus(tmp_path_factory.mktemp("cluster") / "logs")
    for rel in ("discord/export.json", "arena/Player.log", "udonarium/chat.xml", "ccfolia/log.json"):
        shutil.copy(FIXTURES / "imports" / (rel + ".kifu.jsonl"), root / (rel.replace("/", "-") + ".jsonl"))
    gen = root / "generic"
    gen.mkdir()
    for month in (1, 2, 3, 11):
        _generic(gen / f"g{month:02d}.jsonl", f"g-{month}", month, [(month * k) % 6 + 1 for k in range(9)])
    # Forks: the same match id, another head, one right after it (same chunk) and one far away.
    _generic(gen / "g01b.jsonl", "g-1", 1, [6, 6, 6])
    _generic(root / "zz-fork.jsonl", "g-2", 2, [1, 2])
    # A copy of a log (same head: taken once), and a log with events appended after a stored one.
    shutil.copy(gen / "g03.jsonl", root / "zz-copy.jsonl")
    extended = root / "zz-extended.jsonl"
    shutil.copy(gen / "g11.jsonl", extended)
    logfile.append(extended, {"type": "note", "text": "late", "by": "a"})
    # A tampered log: refused with the verifier's reason.
    lines = (gen / "g02.jsonl").read_bytes().splitlines(keepends=True)
    (root / "tampered.jsonl").write_bytes(
        b"".join(lines[:3]).replace(b'"values":[', b'"values":[1,', 1) + b"".join(lines[3:])
    )
    return root


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0") as lc, Client(lc) as c:
        yield c


PER_WORKER = 3
"""Chunks per worker: six chunks of the corpus, so that forks fall in one chunk and across chunks."""


@pytest.fixture(scope="module")
def single(corpus: Path, tmp_path_factory) -> tuple[wh.Summary, dict[str, list[tuple]]]:
    """`kifu ingest` of the corpus on one machine: its summary and every table."""
    con = wh.connect(tmp_path_factory.mktemp("single") / "w.duckdb")
    summary = wh.ingest(con, [corpus], jobs=2)
    snap = {name: con.execute(sql).fetchall() for name, sql in COMPARE.items()}
    con.close()
    return summary, snap


def _dataset(out: Path) -> dict[str, list[tuple]]:
    con = open_dataset(out)
    try:
        return {name: con.execute(sql).fetchall() for name, sql in COMPARE.items()}
    finally:
        con.close()


def _files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_the_cluster_writes_the_rows_one_machine_stores(client, corpus: Path, single, tmp_path: Path) -> None:
    one, want = single
    out = tmp_path / "out"
    many = cluster.ingest(client, [corpus], out, per_worker=PER_WORKER)
    files = cluster.sources([corpus])
    chunk_of = {f: i for i, c in enumerate(cluster.chunks(files, 2, PER_WORKER)) for f in c}
    assert chunk_of[str(corpus / "generic" / "g01.jsonl")] == chunk_of[str(corpus / "generic" / "g01b.jsonl")]
    assert chunk_of[str(corpus / "generic" / "g02.jsonl")] != chunk_of[str(corpus / "zz-fork.jsonl")]
    assert (many.matches, many.events, many.unchanged, many.findings) == (
        one.matches,
        one.events,
        one.unchanged,
        one.findings,
    )
    assert [(p, str(r)) for p, r in many.refused] == [(p, str(r)) for p, r in one.refused]
    reasons = [str(r) for _, r in one.refused]
    # Within one run a log with events appended is a fork like any other (the stored head is known
    # only from the runs before): g01b, zz-fork and zz-extended; and the tampered log.
    assert len(reasons) == 4 and sum(r.startswith("fork: match 'g-") for r in reasons) == 3
    assert one.unchanged == 1
    got = _dataset(out)
    for name in COMPARE:
        assert got[name] == want[name], name
    assert len(want["event_lines"]) == one.events and len(want["random_outcomes"]) > 100
    manifest = dataset.read_manifest(out)
    months = {p.month for p in manifest.of("matches") if p.game == "generic"}
    assert {"2026-01", "2026-02", "2026-03", "2026-11"} <= months
    # Again: nothing new, nothing rewritten, byte for byte.
    before = _files(out)
    again = cluster.ingest(client, [corpus], out, per_worker=PER_WORKER)
    assert again.matches == 0 and again.unchanged == one.matches + 1 and _files(out) == before


def test_an_incremental_run_merges_into_the_partitions(client, corpus: Path, single, tmp_path: Path) -> None:
    _, want = single
    out = tmp_path / "out"
    first = cluster.ingest(client, [corpus / "generic", corpus / "gg"], out, per_worker=PER_WORKER)
    assert first.matches == 4 + 12 and len(first.refused) == 1
    second = cluster.ingest(client, [corpus], out, per_worker=PER_WORKER)
    assert any("events were appended after it was ingested" in str(r) for _, r in second.refused)
    got = _dataset(out)
    # The fork g01b was met first this time, in the first run: the rest is the same.
    assert got["matches"] == want["matches"] and got["event_lines"] == want["event_lines"]
    assert got["people"] == want["people"]


def test_a_dataset_an_earlier_kifu_wrote_is_refused_by_readers_and_by_ingest(
    client, corpus: Path, tmp_path: Path, kifu
) -> None:
    """A dataset without a manifest (written before versions), or with a kifu-dataset/1 one, lacks tables the
    statistics read (match_randomness, ruling_stances) and the identity file: readers refuse it naming the
    command that writes it again, and the cluster ingest refuses to add to it (its old matches would stay
    without those rows), leaving every file as it was."""
    out = tmp_path / "out"
    cluster.ingest(client, [corpus / "generic"], out, per_worker=PER_WORKER)
    # The old layout: the tables straight under OUT, no manifest.
    version = dataset.read_manifest(out).version
    for table in dataset.LEGACY_TABLES:
        if (out / version / table).exists():
            (out / version / table).rename(out / table)
    shutil.rmtree(out / version)
    (out / dataset.MANIFEST).unlink()
    r = kifu("sql", "SELECT count(*) FROM events", "--parquet", out)
    assert r.code == 2 and "no manifest" in r.err and "kifu export --parquet" in r.err, r.err
    before = sorted(p for p in out.rglob("*"))
    with pytest.raises(KifuError, match="earlier kifu"):
        cluster.ingest(client, [corpus / "generic"], out, per_worker=PER_WORKER)
    assert sorted(p for p in out.rglob("*")) == before
    # A kifu-dataset/1 manifest: the same refusal, from readers and from the ingest.
    old = tmp_path / "old"
    cluster.ingest(client, [corpus / "generic"], old, per_worker=PER_WORKER)
    manifest = (old / dataset.MANIFEST).read_text(encoding="utf-8")
    (old / dataset.MANIFEST).write_text(manifest.replace(dataset.FORMAT, "kifu-dataset/1"), encoding="utf-8")
    r = kifu("stats", "winrate", "--parquet", old)
    assert r.code == 2 and "kifu-dataset/1" in r.err and "kifu export --parquet" in r.err, r.err
    with pytest.raises(KifuError, match="earlier kifu"):
        cluster.ingest(client, [corpus / "generic"], old, per_worker=PER_WORKER)


def test_object_urls_are_read_through_fsspec(client, corpus: Path, tmp_path: Path) -> None:
    url = (corpus / "generic").resolve().as_uri()
    assert cluster.sources([url])[0] == url + "/g01.jsonl"
    summary = cluster.ingest(client, [url], tmp_path / "out", per_worker=PER_WORKER)
    assert summary.matches == 4 and summary.refused == [(url + "/g01b.jsonl", summary.refused[0][1])]
    got = _dataset(tmp_path / "out")
    assert {r[-1] for r in got["matches"]} == {f"{url}/g{m:02d}.jsonl" for m in (1, 2, 3, 11)}
    want = [
        line
        for p in sorted((corpus / "generic").glob("g[0-9][0-9].jsonl"))
        for line in p.read_text(encoding="utf-8").splitlines()
    ]
    assert sorted(r[-1] for r in got["event_lines"]) == sorted(want)


def test_the_command_line(kifu, client, corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    r = kifu("ingest", corpus / "generic", "--cluster", "local:2", "--parquet", out)
    assert r.code == 1, r.err  # the fork is refused, the others taken
    assert r.err.startswith("refused: ") and len(r.err.strip().splitlines()) == 1 and f"({out})" in r.out
    # A running scheduler, by its address: the same dataset.
    other = tmp_path / "other"
    r = kifu("ingest", corpus / "generic", "--cluster", client.scheduler.address, "--parquet", other)
    assert r.code == 1 and "ingested 4 new matches" in r.out
    assert _dataset(other) == _dataset(out)
    stats = json.loads(kifu("stats", "fairness", "--parquet", out, "-f", "json").out)
    assert {row["person"] for row in stats} == {"Aoi", "Ren"}
    assert json.loads(kifu("stats", "--parquet", out, "winrate", "-f", "json").out)[0]["person"] == "Aoi"
    assert kifu("ingest", corpus, "--cluster", "local:2").code == 2
    r = kifu("ingest", corpus, "--parquet", out)
    assert r.code == 2 and "--cluster" in r.err
    r = kifu("ingest", corpus, "--cluster", "local:0", "--parquet", out)
    assert r.code == 2 and r.err.startswith("kifu: error: --cluster local:0")


def test_sql_on_a_dataset_is_as_locked_down_as_on_the_warehouse(kifu, corpus: Path, tmp_path: Path) -> None:
    db, out = tmp_path / "w.duckdb", tmp_path / "out"
    assert kifu("ingest", corpus / "generic", "--db", db).code == 1
    assert kifu("export", "--parquet", out, "--db", db).code == 0
    secret = tmp_path / "secret.csv"
    secret.write_text("a,b\n1,2\n", encoding="utf-8")
    for sql in (
        f"SELECT * FROM read_csv('{secret}')",
        f"SELECT * FROM read_text('{out}/../secret.csv')",
        "SELECT * FROM read_text('/etc/passwd')",
    ):
        r = kifu("sql", sql, "--parquet", out)
        assert r.code == 2 and "Permission Error" in r.err, (sql, r.err)
    for sql in (f"COPY (SELECT 1) TO '{out}/x.csv'", f"ATTACH '{out}/x.duckdb'", "SET enable_external_access = true"):
        assert kifu("sql", sql, "--parquet", out).code == 2
    assert not (out / "x.csv").exists() and not (out / "x.duckdb").exists()
    # The export is a dataset too: the same answers from the warehouse and from the files.
    q = "SELECT person, count(*) AS n FROM randomness GROUP BY ALL ORDER BY ALL"
    assert kifu("sql", q, "--parquet", out, "-f", "json").out == kifu("sql", q, "--db", db, "-f", "json").out
    r = kifu("sql", "SELECT 1", "--parquet", tmp_path)
    assert r.code == 2 and "not a kifu Parquet dataset" in r.err


def test_each_version_carries_the_identity_file_it_was_given_or_the_previous_one(
    client, corpus: Path, tmp_path: Path, kifu
) -> None:
    """The people of a cluster-written dataset are resolved with the identity file given to the ingest, carried
    in its manifest: a reader needs no file beside it, and the next ingest without one keeps it."""
    out = tmp_path / "out"
    toml = tmp_path / "club.toml"
    toml.write_text('["Aoi"]\nnames = ["Ren"]\n', encoding="utf-8")
    identity = wh.people.identity_for(out, toml)
    cluster.ingest(client, [corpus / "generic" / "g01.jsonl"], out, per_worker=PER_WORKER, identity=identity)
    assert dataset.read_manifest(out).people == toml.read_text(encoding="utf-8")
    people = {r["person"] for r in json.loads(kifu("people", "--parquet", out, "-f", "json").out)}
    assert people == {"Aoi"}  # Ren gathered under Aoi by the carried file
    cluster.ingest(client, [corpus / "generic" / "g02.jsonl"], out, per_worker=PER_WORKER)
    assert dataset.read_manifest(out).people == toml.read_text(encoding="utf-8")


def test_a_partition_only_one_chunk_fills_is_its_pieces_as_written(corpus: Path, tmp_path: Path) -> None:
    """The chunk writes each partition's piece as the merge writes the partition's file (sorted, without the
    partition columns): a partition nothing else goes into takes it as it is, with the rows the merge would
    write, in the merge's order."""
    import duckdb

    from kifu import app

    chunk, pieces = cluster.check_chunk(cluster.sources([corpus / "generic"]), app.audit, {})
    key = ("generic", "2026-03")
    assert chunk.failed is None and key in pieces
    none = {t: [] for t in dataset.tables()}
    as_is, merged = tmp_path / "as-is", tmp_path / "merged"
    as_is.mkdir()
    merged.mkdir()
    rows = cluster.merge_partition(str(tmp_path), str(as_is), *key, [pieces[key]], [[]], none)
    # A refused match id that the piece does not hold: the merge runs, and keeps every row.
    again = cluster.merge_partition(str(tmp_path), str(merged), *key, [pieces[key]], [["nobody"]], none)
    assert rows == again == {t: p.rows for t, p in pieces[key].items()}
    assert {"events", "matches", "random_outcomes"} <= set(rows)
    for table, piece in pieces[key].items():
        file = Path(table, "game=generic", "month=2026-03", cluster.PART)
        assert (as_is / file).read_bytes() == piece.data
        read = "SELECT * FROM read_parquet($f, hive_partitioning = false)"
        got = [duckdb.execute(read, {"f": str(d / file)}).fetchall() for d in (as_is, merged)]
        assert got[0] == got[1] and len(got[0]) == piece.rows, table


FORKED = """
import os, sys
from kifu.warehouse import cluster
with cluster.connect("local:2") as client:
    pids = client.run(os.getpid)
    print(os.getpid(), *sorted(pids.values()), flush=True)
    sys.stdin.read()  # until the test closes it (or kills this process)
print("stopped", flush=True)
"""
"""A command that starts `local:2`, says its own pid and its workers', and holds the cluster until stdin ends."""


def _parent_of(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def _wait_gone(pid: int) -> None:
    """Return once process ``pid`` has exited: its pidfd becomes readable (no polling, no sleep)."""
    import os
    import select

    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return  # gone (and reaped) already
    try:
        readable, _, _ = select.select([fd], [], [], 600)  # a bound for a hung worker, never reached when it works
        assert readable, f"worker {pid} still runs"
    finally:
        os.close(fd)


def _started(tmp_path: Path):
    import subprocess
    import sys

    script = tmp_path / "forked.py"
    script.write_text(FORKED, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    line = proc.stdout.readline().decode()
    assert line, proc.stderr.read().decode()[-2000:]
    me, *workers = map(int, line.split())
    assert len(workers) == 2
    # Forked by the command itself (spawned workers would be a Nanny's children, or the resource tracker's).
    assert all(_parent_of(w) == me == proc.pid for w in workers)
    return proc, workers


@pytest.mark.skipif(not hasattr(__import__("os"), "pidfd_open"), reason="needs Linux pidfds")
def test_local_workers_are_forked_and_stopped_with_the_command(tmp_path: Path) -> None:
    proc, workers = _started(tmp_path)
    proc.stdin.close()  # the command ends its ingest: it stops its workers and waits for them
    assert proc.stdout.readline() == b"stopped\n"
    assert proc.wait() == 0
    for w in workers:
        _wait_gone(w)


@pytest.mark.skipif(not hasattr(__import__("os"), "pidfd_open"), reason="needs Linux pidfds")
def test_a_killed_command_leaves_no_worker_behind(tmp_path: Path) -> None:
    import signal

    proc, workers = _started(tmp_path)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    for w in workers:
        _wait_gone(w)  # each worker's pipe ended with the command: it stopped
    proc.stdin.close()


def test_no_worker_is_forked_while_another_thread_runs() -> None:
    """Forking a process that runs another thread is unsafe (its locks stay held in the child): `local:N`
    then leaves the workers to Dask's spawning LocalCluster."""
    import threading

    from kifu.warehouse import forked

    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert forked.fork_workers(1) is None
    finally:
        release.set()
        other.join()


LOST = """
import os, signal
from kifu.warehouse import cluster
with cluster.connect("local:1") as client:
    [pid] = client.run(os.getpid).values()
    os.kill(pid, signal.SIGKILL)
    try:
        client.submit(int, 1, pure=False).result()
        print("ran", flush=True)
    except Exception as exc:
        print("failed", type(exc).__name__, flush=True)
"""


def test_work_left_without_a_worker_fails_instead_of_waiting_forever(tmp_path: Path) -> None:
    """A forked worker that dies is not restarted: once none is left, what waits for one fails."""
    import subprocess
    import sys

    script = tmp_path / "lost.py"
    script.write_text(LOST, encoding="utf-8")
    r = subprocess.run([sys.executable, str(script)], capture_output=True, check=False)
    assert r.returncode == 0 and r.stdout.decode().startswith("failed"), r.stderr.decode()[-2000:]
