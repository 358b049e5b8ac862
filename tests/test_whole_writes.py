"""Writes that leave nothing half-made (issue 20, items 3 and 4; kifu/events/atomic.py).

The issue's reproducers: `kill -9` during an import left a log of 17,844 events
that verified as complete, and the re-run was refused; on a full disk `kifu new`
and `kifu import` left a 0-byte log that blocked the retry, `report -o` named no
file, and ingest died with a traceback when the warehouse could not grow. A
full disk is played here by RLIMIT_FSIZE (the write fails with EFBIG, "File too
large", through the same path as ENOSPC) in a child process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT

from kifu.events import logfile

DISPUTE = FIXTURES / "gunandgun" / "dispute.jsonl"

LIMITED = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead of killing
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from kifu.cli import main
sys.exit(main(sys.argv[2:]))
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "KIFU_LANG": "en"}


def _limited(limit: int, *args: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`kifu ARGS` in a child whose files cannot grow past ``limit`` bytes."""
    return subprocess.run(
        [sys.executable, "-c", LIMITED, str(limit), *map(str, args)],
        env=_env(),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard, not a bound on the command
    )


def _one_line(r: subprocess.CompletedProcess[str], *parts: str) -> str:
    assert r.returncode == 2, (r.returncode, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    for part in parts:
        assert part in lines[0], (part, lines[0])
    return lines[0]


def _discord_txt(n: int) -> bytes:
    """A DiscordChatExporter text export of ``n`` chat messages by two players."""
    body = "".join(
        f"[01-Mar-25 08:{i // 60 % 60:02d} PM] {'Aoi' if i % 2 else 'Ren'}\nmessage number {i}\n\n" for i in range(n)
    )
    return ("=" * 62 + "\nGuild: table\nChannel: game\n" + "=" * 62 + "\n\n" + body).encode()


def _no_temp_left(folder: Path) -> None:
    assert not [p.name for p in folder.iterdir() if ".tmp-" in p.name]


def test_a_full_disk_during_new_leaves_nothing_and_the_retry_works(tmp_path: Path, kifu) -> None:
    r = _limited(40, "new", "m.jsonl", "-g", "generic", "-m", "x", "-p", "a=A", cwd=tmp_path)
    _one_line(r, "m.jsonl", "cannot write: File too large", "nothing was written")
    assert not (tmp_path / "m.jsonl").exists()
    _no_temp_left(tmp_path)
    assert kifu("new", tmp_path / "m.jsonl", "-g", "generic", "-m", "x", "-p", "a=A").code == 0


def test_a_full_disk_during_import_leaves_nothing_and_the_retry_works(tmp_path: Path, kifu) -> None:
    (tmp_path / "chat.txt").write_bytes(_discord_txt(2000))
    r = _limited(60_000, "import", "chat.txt", "-o", "m.jsonl", cwd=tmp_path)
    _one_line(r, "m.jsonl", "File too large")
    assert not (tmp_path / "m.jsonl").exists()
    _no_temp_left(tmp_path)
    r = kifu("import", tmp_path / "chat.txt", "-o", tmp_path / "m.jsonl")
    assert r.code == 0, r.err
    assert logfile.verify(tmp_path / "m.jsonl").seq > 2000


@pytest.mark.parametrize(
    "command", [("report", DISPUTE, "-o", "page.html"), ("audit", DISPUTE, "-f", "html", "-o", "page.html")]
)
def test_a_full_disk_during_a_report_names_the_file_and_keeps_the_old_one(tmp_path: Path, command) -> None:
    page = tmp_path / "page.html"
    page.write_text("the previous page\n", encoding="utf-8")
    r = _limited(4000, *command, cwd=tmp_path)
    _one_line(r, "page.html", "cannot write: File too large")
    assert page.read_text(encoding="utf-8") == "the previous page\n"
    _no_temp_left(tmp_path)


def test_an_ingest_the_warehouse_cannot_hold_rolls_back_and_says_so(tmp_path: Path, kifu) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for i in range(6):
        logfile.write_new(
            logs / f"m{i}.jsonl",
            {"game": "generic", "match": f"m{i}", "players": []},
            ({"type": "note", "text": "x" * 300 + str(j)} for j in range(2000)),
        )
    r = _limited(3_000_000, "ingest", "logs", "--db", "w.duckdb", "--jobs", "1", cwd=tmp_path)
    line = _one_line(r, "w.duckdb", "could not store the next batch", "rolled back", "run the same ingest again")
    assert "File too large" in line
    r = kifu("ingest", logs, "--db", tmp_path / "w.duckdb", "--jobs", "1")
    assert r.code == 0 and "ingested 6 new matches" in r.out, (r.out, r.err)
    out = kifu("sql", "SELECT count(*) AS n FROM events", "--db", tmp_path / "w.duckdb", "-f", "csv")
    assert out.out.splitlines() == ["n", str(6 * 2001)]


@pytest.mark.parametrize("limit", [1_000, 5_000, 20_000, 100_000, 300_000])
def test_a_new_warehouse_that_cannot_grow_is_whole_or_absent(tmp_path: Path, kifu, limit: int) -> None:
    """Issue 32, defect 2: the schema's own commit failed outside the rollback (a traceback), and a
    warehouse file cut short at its creation made every later ingest fail the same way."""
    r = _limited(limit, "ingest", DISPUTE, "--db", "w.duckdb", "--jobs", "1", cwd=tmp_path)
    if r.returncode != 0:
        _one_line(r, "w.duckdb", "File too large")
    _no_temp_left(tmp_path)
    r = kifu("ingest", DISPUTE, "--db", tmp_path / "w.duckdb", "--jobs", "1")
    assert r.code == 0 and "ingested" in r.out, (r.out, r.err)
    out = kifu("sql", "SELECT count(*) AS n FROM events", "--db", tmp_path / "w.duckdb", "-f", "csv")
    assert out.out.splitlines() == ["n", str(logfile.verify(DISPUTE).seq)], out.err


def test_an_existing_warehouse_that_cannot_grow_keeps_what_it_held(tmp_path: Path, kifu) -> None:
    db = tmp_path / "w.duckdb"
    assert kifu("ingest", DISPUTE, "--db", db, "--jobs", "1").code == 0
    logs = tmp_path / "logs"
    logs.mkdir()
    for i in range(3):
        logfile.write_new(
            logs / f"m{i}.jsonl",
            {"game": "generic", "match": f"m{i}", "players": []},
            ({"type": "note", "text": "x" * 300 + str(j)} for j in range(2000)),
        )
    size = db.stat().st_size
    for limit in (size + 1_000, size + 50_000, size + 400_000):
        r = _limited(limit, "ingest", "logs", "--db", "w.duckdb", "--jobs", "1", cwd=tmp_path)
        if r.returncode != 0:
            _one_line(r, "w.duckdb", "File too large")
        out = kifu("sql", "SELECT count(*) AS n FROM matches WHERE match = 'R3-T7'", "--db", db, "-f", "csv")
        assert out.code == 0 and out.out.splitlines() == ["n", "1"], (out.out, out.err)
    r = kifu("ingest", logs, "--db", db, "--jobs", "1")
    assert r.code == 0, r.err
    out = kifu("sql", "SELECT count(*) AS n FROM matches", "--db", db, "-f", "csv")
    assert out.out.splitlines() == ["n", "4"]


def test_a_failed_parquet_export_leaves_the_previous_one(tmp_path: Path, kifu) -> None:
    db = tmp_path / "w.duckdb"
    assert kifu("ingest", DISPUTE, "--db", db, "--jobs", "1").code == 0
    out = tmp_path / "pq"
    assert kifu("export", "--parquet", out, "--db", db).code == 0
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    r = _limited(2000, "export", "--parquet", "pq", "--db", "w.duckdb", cwd=tmp_path)
    _one_line(r, "export", "the previous export is unchanged")
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


IMPORTER = """
import os, signal, sys
from kifu.events import atomic, importers, logfile
where = sys.argv[3]

def die():
    os.kill(os.getpid(), signal.SIGKILL)  # kill -9

if where.isdigit():
    real, written = logfile.line_hash, []
    def hash_then_die(line):
        written.append(1)
        if len(written) == int(where):
            die()  # with this many events written
        return real(line)
    logfile.line_hash = hash_then_die
elif where == "reading":
    importers.read_source = lambda *args, **kwargs: die()
elif where in ("before-name", "after-name"):
    def link_then_die(temp, path):
        if where == "after-name":
            os.link(temp, path)  # the complete log has its name; the temporary one is still there
        die()
    atomic.link_new = link_then_die
importers.import_file(sys.argv[1], sys.argv[2])
"""
"""`kifu import` killed at a point named by its third argument: a count of events written, or a step."""


@pytest.mark.slow
def test_a_killed_import_leaves_no_log_that_verifies(tmp_path: Path, kifu) -> None:
    """kill -9 in the middle of writing, and at each step of an import: no log, or the complete one."""
    src = tmp_path / "chat.txt"
    src.write_bytes(_discord_txt(15_000))
    complete = tmp_path / "complete.jsonl"
    assert kifu("import", src, "-o", complete).code == 0
    out = tmp_path / "killed.jsonl"
    child = subprocess.run([sys.executable, "-c", IMPORTER, str(src), str(out), "5000"], env=_env())
    assert child.returncode == -signal.SIGKILL
    assert not out.exists()
    left = [p for p in tmp_path.iterdir() if p.name.startswith(".killed.jsonl.tmp-")]
    assert len(left) == 1 and left[0].stat().st_size > 0  # the half-made import, under a name no reader takes
    r = kifu("import", src, "-o", out)  # the retry is never refused, and removes what the kill left
    assert r.code == 0 and out.read_bytes() == complete.read_bytes(), r.err
    assert not left[0].exists()
    for where, named in (("reading", False), ("1", False), ("before-name", False), ("after-name", True)):
        out = tmp_path / f"at-{where}.jsonl"
        child = subprocess.run([sys.executable, "-c", IMPORTER, str(src), str(out), where], env=_env())
        assert child.returncode == -signal.SIGKILL, where
        assert out.read_bytes() == complete.read_bytes() if named else not out.exists(), where
    # What a kill leaves is a hidden temporary file that no folder ingest picks up.
    from kifu.warehouse import log_paths

    assert all(".tmp-" not in p for p in log_paths([tmp_path]))


def test_a_new_log_is_never_put_over_one_made_meanwhile(tmp_path: Path, monkeypatch) -> None:
    """The name is taken with a hard link at the end: another writer's log there is never replaced."""
    from kifu.events import atomic

    log = tmp_path / "m.jsonl"
    real = atomic.link_new

    def someone_else_first(temp: str, path) -> None:
        Path(path).write_bytes(b"another writer's log\n")
        real(temp, path)

    monkeypatch.setattr(atomic, "link_new", someone_else_first)
    with pytest.raises(Exception, match="already exists"):
        logfile.create(log, {"game": "generic", "match": "x", "players": []})
    assert log.read_bytes() == b"another writer's log\n"
    _no_temp_left(tmp_path)


def test_a_staging_folder_taken_by_a_cleaner_before_its_lock_is_made_again(tmp_path: Path, monkeypatch) -> None:
    """A folder is made, then opened and locked: a writer in the same folder cleaning stale items can take
    it in that instant (it is not locked yet). The writer makes another one (CI failed once on this: two
    workers sharing the system's temporary folder)."""
    from kifu.events import atomic

    made = []
    real = atomic._new_folder

    def cleaner_between(fresh: Path) -> int:
        made.append(fresh)
        if len(made) == 1:
            os.mkdir(fresh)
            assert atomic.clean_stale(fresh.parent) == 1  # unlocked: taken for abandoned
            return os.open(fresh, os.O_RDONLY | os.O_DIRECTORY)  # gone: FileNotFoundError
        return real(fresh)

    monkeypatch.setattr(atomic, "_new_folder", cleaner_between)
    with atomic.staging(tmp_path / "work") as folder:
        assert folder.is_dir() and len(made) == 2
    _no_temp_left(tmp_path)


def test_a_staging_folder_in_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    from kifu.events import atomic
    from kifu.events.base import KifuError

    with pytest.raises(KifuError, match="cannot write"):
        with atomic.staging(tmp_path / "absent" / "work"):
            pass
