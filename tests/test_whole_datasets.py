"""Every Parquet dataset is whole or absent (issue 32, defects 4, 5, 6 and 7; kifu/warehouse/dataset.py).

The reproducers: a cluster ingest killed right after a partition file was put in place left
OUT half-written and the readers used it (1,947 orphan rows; `kifu stats fairness` flagged
"(no player)"); an export that crashed between its per-table renames left new matches
beside old events, read silently; a damaged `.parquet` in OUT, or a full disk, made the
cluster ingest print a traceback (Dask's too), name a temporary file and leave a `.tmp`;
links planted in OUT were followed (another dataset's rows destroyed, a file outside OUT
overwritten).

The crash-injection test kills the export and the cluster ingest after each file operation
they make in OUT (an audit hook counts them in a child process, which SIGKILLs itself at
the chosen one) and checks that the readers then see the old dataset or the new, whole,
never a mix, and that the next run completes it and removes what the killed one left. CI
runs every kill point of the export and a spread of the cluster ingest's; the `fuzz`
profile (`--hypothesis-profile=fuzz`) runs every one of both.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT
from hypothesis import settings

from kifu.events import logfile
from kifu.warehouse import dataset

LONG = settings().max_examples >= 1000
"""The long run (``--hypothesis-profile=fuzz``): every kill point of the cluster ingest too."""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "KIFU_LANG": "en"}


def _generic(path: Path, match: str, month: int, n: int) -> Path:
    logfile.write_new(
        path,
        {
            "game": "generic",
            "match": match,
            "at": f"2026-{month:02d}-03T09:00:00Z",
            "players": [{"id": "a", "name": "Aoi", "key": "jcg:1"}, {"id": "b", "name": "Ren"}],
        },
        [
            {"type": "random", "by": "ab"[i % 2], "kind": "coin", "sides": 2, "values": [1 + (i * 7 + n) % 2]}
            for i in range(n)
        ]
        + [{"type": "match.end", "winner": "a", "reason": "concede"}],
    )
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> tuple[Path, Path]:
    """Two batches of logs over three months: the old dataset is made of the first, the new adds the second."""
    root = tmp_path_factory.mktemp("logs")
    first, second = root / "first", root / "second"
    first.mkdir()
    second.mkdir()
    for i in range(6):
        _generic(first / f"a{i}.jsonl", f"a{i}", 1 + i % 3, 20 + i)
        _generic(second / f"b{i}.jsonl", f"b{i}", 1 + i % 3, 30 + i)
    _generic(second / "c.jsonl", "c", 5, 12)  # a partition the old dataset does not have
    return first, second


SNAPSHOT = """SELECT (SELECT count(*) FROM matches), (SELECT count(*) FROM event_lines),
                     (SELECT count(*) FROM event_lines WHERE match NOT IN (SELECT match FROM matches)),
                     (SELECT count(*) FROM matches WHERE match NOT IN (SELECT match FROM event_lines)),
                     (SELECT count(*) FROM random_outcomes), (SELECT string_agg(match, ',' ORDER BY match) FROM matches)"""


def snapshot(out: Path) -> tuple:
    """What a reader sees of the dataset at ``out``: counts, orphans both ways, the matches."""
    con = dataset.open_dataset(out)
    try:
        return con.execute(SNAPSHOT).fetchone()
    finally:
        con.close()


def _temporaries(out: Path) -> list[str]:
    return [str(p.relative_to(out)) for p in out.rglob("*") if ".tmp-" in p.name or p.name.startswith(".~")]


# --- the crash injection ------------------------------------------------------------------------

KILLER = r"""
import os, signal, sys
out, kill_at, count = os.path.realpath(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
WRITE = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
seen = 0

def inside(p):
    try:
        return os.path.realpath(os.fsdecode(p)).startswith(out + os.sep) or os.path.realpath(os.fsdecode(p)) == out
    except (TypeError, ValueError):
        return False

def hook(event, args):
    global seen
    if event == "open":
        path, mode, flags = args
        writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (isinstance(flags, int) and flags & WRITE)
        paths = [path] if writing else []
    elif event in ("os.rename", "os.link", "os.symlink"):
        paths = list(args[:2])
    elif event in ("os.remove", "os.rmdir", "os.mkdir", "shutil.rmtree", "os.truncate"):
        paths = [args[0]]
    else:
        return
    if not any(inside(p) for p in paths if isinstance(p, (str, bytes, os.PathLike))):
        return
    seen += 1
    if seen == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)  # after operation kill_at - 1, before this one
    with open(count, "w") as f:
        f.write(str(seen))

sys.addaudithook(hook)
what = sys.argv[4]
if what == "export":
    from kifu.cli import main
    sys.exit(main(["export", "--parquet", sys.argv[1], "--db", sys.argv[5]]))
import logging
from distributed import Client, LocalCluster
from kifu.warehouse import cluster
with LocalCluster(n_workers=1, processes=False, threads_per_worker=1, dashboard_address=":0",
                  silence_logs=logging.CRITICAL) as lc, Client(lc) as c:
    cluster.ingest(c, sys.argv[5:], sys.argv[1])
"""
"""One run of the export or of a cluster ingest (one worker, in the process) that SIGKILLs itself at file
operation ``kill_at`` in OUT (0: never), counting them in the file ``count``. Run as a script by a forked
child of RUNNER, with that ``sys.argv``."""

RUNNER = r"""
import json, os, sys
# What every run imports, imported once: each run is a fork of this process (a real process, killed as
# one), so the kill points cost the runs themselves, not an interpreter and its imports each (1.5 s of
# CPU for distributed). Nothing here starts a thread or a loop, so a fork holds one thread.
import logging
import kifu.cli
try:
    import distributed
    import kifu.warehouse.cluster
except ImportError:  # the cluster extra is not installed: the tests that need it are skipped
    pass

for line in sys.stdin:
    job = json.loads(line)
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            for fd, name in ((1, "stdout"), (2, "stderr")):
                os.dup2(os.open(job[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
            sys.argv = job["argv"]
            exec(compile(job["script"], "<run>", "exec"), {"__name__": "__main__"})
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:
            import traceback
            traceback.print_exc()
            code = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    print(os.waitstatus_to_exitcode(status), flush=True)
"""
"""A process that forks one child per line on its stdin (a JSON job: script, argv, the files for the
child's stdout and stderr) and answers each with the child's exit status (negative: the signal)."""


@dataclass
class Ran:
    """What one forked run did."""

    returncode: int
    """Its exit status; negative: killed by that signal."""
    stdout: str
    """What it wrote on its standard output."""
    stderr: str
    """What it wrote on its standard error."""


class Runner:
    """One RUNNER process: runs scripts in forked children, one at a time, and waits for each to end."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.log = (tmp / "runner.err").open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", RUNNER],
            env=_env(),
            cwd=tmp,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
        )

    def run(self, script: str, *args: object) -> Ran:
        """Run ``script`` with ``args`` as its sys.argv[1:] in a fork, and wait (however long) for its end."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        out, err = self.tmp / "run.out", self.tmp / "run.err"
        job = {"script": script, "argv": ["-c", *map(str, args)], "stdout": str(out), "stderr": str(err)}
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline()  # the child's end: the runner answers once it has waited for it
        assert reply, f"the runner ended (exit {self.proc.poll()}): {(self.tmp / 'runner.err').read_text()}"
        return Ran(int(reply), out.read_text(encoding="utf-8"), err.read_text(encoding="utf-8"))

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()
        self.log.close()


@pytest.fixture(scope="module")
def runner(tmp_path_factory) -> Iterator[Runner]:
    r = Runner(tmp_path_factory.mktemp("runner"))
    yield r
    r.close()


def _run_killed(runner: Runner, tmp: Path, out: Path, kill_at: int, what: str, *args: object) -> tuple[int, int]:
    """Run ``what`` in a child that kills itself at file operation ``kill_at`` in OUT (0: never); (exit, ops seen)."""
    count = tmp / "ops"
    count.write_text("0", encoding="utf-8")
    child = runner.run(KILLER, out, kill_at, count, what, *args)
    return child.returncode, int(count.read_text(encoding="utf-8") or 0)


def _kill_points(total: int, spread: int | None) -> list[int]:
    """Every operation (1 … total: killed before it, after the one before), or ``spread`` of them
    evenly over the run, the last few always (the switch is near the end)."""
    every = list(range(1, total + 1))
    if spread is None or total <= spread:
        return every
    step = total / spread
    return sorted({every[int(i * step)] for i in range(spread)} | set(every[-4:]))


def _crash_each_step(
    runner: Runner, tmp: Path, out: Path, what: str, args: list[object], old: tuple, new: tuple, spread
) -> int:
    base = tmp / "base"
    shutil.copytree(out, base, symlinks=True)
    code, total = _run_killed(runner, tmp, out, 0, what, *args)
    assert code == 0 and total > 3, (code, total)
    assert snapshot(out) == new
    points = _kill_points(total, spread)
    for k in points:
        shutil.rmtree(out)
        shutil.copytree(base, out, symlinks=True)
        code, _ = _run_killed(runner, tmp, out, k, what, *args)
        assert code < 0, (k, code)
        seen = snapshot(out)
        assert seen in (old, new), (k, total, seen, old, new)
        assert seen[2] == seen[3] == 0
        code, _ = _run_killed(runner, tmp, out, 0, what, *args)  # the next run completes it
        assert code == 0 and snapshot(out) == new, k
        assert not _temporaries(out), (k, _temporaries(out))
        versions = [p.name for p in out.iterdir() if dataset.VERSION.fullmatch(p.name)]
        assert len(versions) <= 2, (k, versions)
    return len(points)


def test_an_export_killed_after_any_file_operation_leaves_the_old_export_or_the_new(
    tmp_path: Path, kifu, logs, runner: Runner
):
    """Defect 5: the export's per-table renames let a reader meet new matches beside old events."""
    first, second = logs
    db, out = tmp_path / "w.duckdb", tmp_path / "out"
    assert kifu("ingest", first, "--db", db, "--jobs", "1").code == 0
    assert kifu("export", "--parquet", out, "--db", db).code == 0
    old = snapshot(out)
    assert kifu("ingest", second, "--db", db, "--jobs", "1").code == 0
    new = snapshot_after(kifu, db, tmp_path)
    assert old[0] == 6 and new[0] == 13
    assert _crash_each_step(runner, tmp_path, out, "export", [db], old, new, None)


def snapshot_after(kifu, db: Path, tmp: Path) -> tuple:
    """What an export of the warehouse as it is now reads as."""
    other = tmp / "reference"
    assert kifu("export", "--parquet", other, "--db", db).code == 0
    try:
        return snapshot(other)
    finally:
        shutil.rmtree(other)


def test_a_cluster_ingest_killed_after_any_file_operation_leaves_the_old_dataset_or_the_new(
    tmp_path: Path, logs, runner: Runner
) -> None:
    """Defect 4: every process killed right after a partition file was put in place left OUT half-written."""
    pytest.importorskip("distributed")
    first, second = logs
    out = tmp_path / "out"
    code, _ = _run_killed(runner, tmp_path, out, 0, "cluster", first)
    assert code == 0
    old = snapshot(out)
    reference = tmp_path / "reference"
    assert _run_killed(runner, tmp_path, reference, 0, "cluster", first, second)[0] == 0
    new = snapshot(reference)
    assert new[0] == 13 and old[0] == 6
    _crash_each_step(runner, tmp_path, out, "cluster", [first, second], old, new, None if LONG else 4)


# --- damaged files, a full disk, links --------------------------------------------------------------


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("distributed")
    import logging

    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=1, processes=False, threads_per_worker=1, dashboard_address=":0", silence_logs=logging.CRITICAL
        ) as lc,
        Client(lc) as c,
    ):
        yield c


def _files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_a_damaged_file_in_out_is_one_line_and_nothing_changes(client, tmp_path: Path, logs) -> None:
    """Defect 6: a damaged `.parquet` in OUT made the cluster ingest print a traceback."""
    from kifu.events.base import KifuError
    from kifu.warehouse import cluster

    first, second = logs
    out = tmp_path / "out"
    cluster.ingest(client, [first], out)
    manifest = dataset.read_manifest(out)
    victim = out / next(p for p in manifest.of("events") if p.month == "2026-01").path
    data = victim.read_bytes()
    victim.write_bytes(data[: len(data) // 2] + b"\0" * (len(data) - len(data) // 2))  # same size, broken
    before = _files(out)
    with pytest.raises(KifuError) as err:
        cluster.ingest(client, [first, second], out)
    text = str(err.value)
    assert text.startswith(str(out)) and "cannot be read" in text and victim.name in text, text
    assert ".tmp" not in text and "kifu-merge" not in text and "kifu export --parquet" in text, text
    assert _files(out) == before and not _temporaries(out)


def test_the_command_line_says_a_damaged_dataset_in_one_line(tmp_path: Path, logs, kifu, runner: Runner) -> None:
    pytest.importorskip("distributed")
    first, second = logs
    out = tmp_path / "out"
    assert _run_killed(runner, tmp_path, out, 0, "cluster", first)[0] == 0
    manifest = dataset.read_manifest(out)
    (out / manifest.of("matches")[0].path).write_bytes(b"PAR1 not parquet at all PAR1")
    r = subprocess.run(
        [sys.executable, "-m", "kifu", "ingest", str(second), "--cluster", "local:1", "--parquet", str(out)],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr and str(out) in lines[0], r.stderr
    # A reader refuses what is no longer the version's file (its size changed) and says how to repair it.
    r2 = kifu("sql", "SELECT count(*) FROM matches", "--parquet", out)
    assert r2.code == 2 and "not whole" in r2.err and "kifu export --parquet" in r2.err, r2.err


LIMITED = """
import logging, resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
from distributed import Client, LocalCluster
from kifu.events.base import KifuError
from kifu.warehouse import cluster
with LocalCluster(n_workers=1, processes=False, threads_per_worker=1, dashboard_address=":0",
                  silence_logs=logging.CRITICAL) as lc, Client(lc) as c:
    limit = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    try:
        cluster.ingest(c, sys.argv[3:], sys.argv[2])
    except KifuError as exc:
        print("kifu: error:", exc, file=sys.stderr)
        sys.exit(2)
"""


@pytest.mark.parametrize("limit", [600, 3000, 12_000])
def test_a_full_disk_during_a_cluster_ingest_is_one_line_naming_out(
    tmp_path: Path, logs, limit: int, runner: Runner
) -> None:
    """Defect 6: on a full disk Dask's traceback, a temporary file named instead of OUT, a `.tmp` left."""
    pytest.importorskip("distributed")
    first, second = logs
    out = tmp_path / "out"
    assert _run_killed(runner, tmp_path, out, 0, "cluster", first)[0] == 0
    before = _files(out)
    r = runner.run(LIMITED, limit, out, first, second)
    if r.returncode == 0:  # everything fitted under this limit
        return
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr and lines[0].startswith(f"kifu: error: {out}"), r.stderr
    assert "File too large" in lines[0] and ".tmp" not in lines[0] and "kifu-" not in lines[0], lines[0]
    assert _files(out) == before and not _temporaries(out)


def test_links_planted_in_out_are_refused_never_followed(client, tmp_path: Path, logs) -> None:
    """Defect 7: a linked partition folder destroyed another dataset's rows; a linked staged file
    overwrote a file outside OUT."""
    from kifu.events.base import KifuError
    from kifu.warehouse import cluster

    first, second = logs
    other, out = tmp_path / "other", tmp_path / "out"
    cluster.ingest(client, [second], other)
    cluster.ingest(client, [first], out)
    others = _files(other)
    foreign = snapshot(other)
    # A partition folder of OUT's current version replaced by a link to the other dataset's.
    manifest = dataset.read_manifest(out)
    mine = out / manifest.of("events")[0].path
    theirs = (
        other
        / next(p for p in dataset.read_manifest(other).of("events") if p.month == manifest.of("events")[0].month).path
    )
    shutil.rmtree(mine.parent)
    mine.parent.symlink_to(theirs.parent)
    with pytest.raises(KifuError, match="is a link"):
        cluster.ingest(client, [second], out)
    assert _files(other) == others and snapshot(other) == foreign
    with pytest.raises(KifuError, match="is a link"):
        dataset.open_dataset(out)
    # Names the layout before versions staged files under, and the manifest itself, planted as links.
    outside = tmp_path / "outside.txt"
    outside.write_text("not kifu's\n", encoding="utf-8")
    fresh = tmp_path / "fresh"
    (fresh / "matches" / "game=generic" / "month=2026-01").mkdir(parents=True)
    (fresh / "matches" / "game=generic" / "month=2026-01" / ".part-0.parquet.tmp").symlink_to(outside)
    cluster.ingest(client, [first], fresh)
    assert outside.read_text(encoding="utf-8") == "not kifu's\n" and snapshot(fresh)[0] == 6
    (fresh / dataset.MANIFEST).unlink()
    (fresh / dataset.MANIFEST).symlink_to(outside)
    with pytest.raises(KifuError, match="is a link"):
        cluster.ingest(client, [second], fresh)
    assert outside.read_text(encoding="utf-8") == "not kifu's\n"


def test_readers_refuse_a_dataset_that_is_not_whole(tmp_path: Path, kifu, logs) -> None:
    first, _ = logs
    db, out = tmp_path / "w.duckdb", tmp_path / "out"
    assert kifu("ingest", first, "--db", db, "--jobs", "1").code == 0
    assert kifu("export", "--parquet", out, "--db", db).code == 0
    manifest = dataset.read_manifest(out)
    (out / manifest.of("events")[-1].path).unlink()
    for args in (("sql", "SELECT count(*) FROM events"), ("stats", "fairness"), ("people",)):
        r = kifu(*args, "--parquet", out)
        assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
        assert "not whole" in r.err and manifest.version in r.err and "kifu export --parquet" in r.err, r.err
    # The export writes it whole again.
    assert kifu("export", "--parquet", out, "--db", db).code == 0
    assert snapshot(out)[0] == 6
    manifest = json.loads((out / dataset.MANIFEST).read_text(encoding="utf-8"))
    assert manifest["format"] == dataset.FORMAT and manifest["previous"]
