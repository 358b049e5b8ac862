"""Outputs are regular files kifu creates (issue 32, defect 8 and "also seen"; kifu/events/atomic.py).

The reproducers: an ``-o`` output that was a planted link to a non-regular file was written
through (with a FIFO and no reader, `kifu report` blocked for ever); ``--db`` naming a
dangling link created the link's target; killed imports and exports left hidden
temporary files that no later run removed (38 MB after 16 kills). Now an output that is
a link, a pipe, a device or a folder is refused with one line (nothing is opened through
it), a warehouse is opened only under its own name, and the next write in a folder
removes the temporary files no live writer holds.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT

from kifu.events import atomic, logfile

DISPUTE = FIXTURES / "gunandgun" / "dispute.jsonl"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "KIFU_LANG": "en"}


def _kifu_child(*args: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`kifu ARGS` in a child: a command that blocked on a pipe would block the test's own process.

    The timeout only keeps a regression from hanging the suite; the assertions are on what
    the command did, never on how long it took.
    """
    return subprocess.run(
        [sys.executable, "-m", "kifu", *map(str, args)],
        env=_env(),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _refused(r, name: str) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr and name in lines[0], r.stderr
    return lines[0]


COMMANDS = {
    "report": ("report", DISPUTE, "-o", "{out}"),
    "audit-html": ("audit", DISPUTE, "-f", "html", "-o", "{out}"),
    "audit-text": ("audit", DISPUTE, "-o", "{out}"),
    "slip": ("slip", DISPUTE, "-o", "{out}"),
    "import-report": ("import", FIXTURES / "imports" / "discord" / "export.txt", "-o", "m.jsonl", "--report", "{out}"),
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_an_output_planted_as_a_link_to_a_fifo_is_refused_not_opened(tmp_path: Path, name: str) -> None:
    """The reproducer: with no reader on the pipe, writing through the link blocked for ever."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    (tmp_path / "out").symlink_to(fifo)
    r = _kifu_child(*[str(a).format(out="out") for a in COMMANDS[name]], cwd=tmp_path)
    assert "a link" in _refused(r, "out")
    assert (tmp_path / "out").is_symlink()


@pytest.mark.parametrize(
    "plant",
    ["fifo", "link to a device", "link to a file", "dangling link", "folder"],
)
def test_an_output_that_is_no_regular_file_is_refused(tmp_path: Path, kifu, plant: str) -> None:
    out = tmp_path / "page.html"
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("someone else's file\n", encoding="utf-8")
    if plant == "fifo":
        os.mkfifo(out)
    elif plant == "link to a device":
        out.symlink_to("/dev/null")
    elif plant == "link to a file":
        out.symlink_to(outside)
    elif plant == "dangling link":
        out.symlink_to(tmp_path / "nowhere.html")
    else:
        out.mkdir()
    r = kifu("report", DISPUTE, "-o", out)
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "page.html" in r.err, r.err
    assert outside.read_text(encoding="utf-8") == "someone else's file\n"
    assert not (tmp_path / "nowhere.html").exists()
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name]


def test_a_regular_output_is_still_replaced(tmp_path: Path, kifu) -> None:
    out = tmp_path / "page.html"
    out.write_text("old\n", encoding="utf-8")
    assert kifu("report", DISPUTE, "-o", out).code == 1  # the dispute has an error finding
    assert out.read_text(encoding="utf-8").lower().startswith("<!doctype html>")


def test_an_exported_match_is_not_written_through_a_link(tmp_path: Path, kifu) -> None:
    db = tmp_path / "w.duckdb"
    assert kifu("ingest", DISPUTE, "--db", db, "--jobs", "1").code == 0
    (tmp_path / "m.jsonl").symlink_to(tmp_path / "target.jsonl")
    r = kifu("export", "--match", "R3-T7", "-o", tmp_path / "m.jsonl", "--db", db)
    assert r.code == 2 and "m.jsonl" in r.err, r.err
    assert not (tmp_path / "target.jsonl").exists()


# --- the warehouse file ------------------------------------------------------------------------


@pytest.mark.parametrize("command", [("ingest", DISPUTE, "--jobs", "1"), ("sql", "SELECT 1"), ("people",)])
def test_a_dangling_db_link_is_refused_and_nothing_is_created(tmp_path: Path, kifu, command) -> None:
    (tmp_path / "w.duckdb").symlink_to(tmp_path / "elsewhere" / "planted.duckdb")
    (tmp_path / "elsewhere").mkdir()
    r = kifu(*command, "--db", tmp_path / "w.duckdb")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "w.duckdb" in r.err, r.err
    assert not (tmp_path / "elsewhere" / "planted.duckdb").exists()
    assert not list((tmp_path / "elsewhere").iterdir())


def test_a_planted_wal_link_is_refused(tmp_path: Path, kifu) -> None:
    target = tmp_path / "victim.txt"
    target.write_text("keep me\n", encoding="utf-8")
    (tmp_path / "w.duckdb.wal").symlink_to(target)
    r = kifu("ingest", DISPUTE, "--db", tmp_path / "w.duckdb", "--jobs", "1")
    assert r.code == 2 and "w.duckdb.wal" in r.err, r.err
    assert target.read_text(encoding="utf-8") == "keep me\n"


# --- temporary files of killed runs -------------------------------------------------------------


KILLED = """
import os, signal, sys
from kifu.events import atomic
with atomic.written(sys.argv[1], replace=True) as out:
    out.write(b"x" * 100000)
    out.flush()
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_the_next_write_removes_what_a_killed_one_left(tmp_path: Path, kifu) -> None:
    for i in range(3):
        child = subprocess.run([sys.executable, "-c", KILLED, str(tmp_path / f"page{i}.html")], env=_env())
        assert child.returncode < 0
    # Each run removed what the one before it left: one killed run's file at most, never 16 of them.
    left = [p for p in tmp_path.iterdir() if ".tmp-" in p.name]
    assert len(left) == 1 and left[0].stat().st_size == 100000
    assert kifu("report", DISPUTE, "-o", tmp_path / "page.html").code == 1
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name]


def test_a_live_writer_s_temporary_file_is_left_alone(tmp_path: Path, kifu) -> None:
    """Whether a temporary file is abandoned is decided by its lock, never by its age."""
    with atomic.written(tmp_path / "slow.html", replace=True) as out:
        out.write(b"still being written")
        assert kifu("report", DISPUTE, "-o", tmp_path / "page.html").code == 1
        mine = [p for p in tmp_path.iterdir() if ".tmp-" in p.name]
        assert len(mine) == 1
    assert (tmp_path / "slow.html").read_bytes() == b"still being written"


def test_a_name_like_a_temporary_file_that_kifu_did_not_make_is_left_alone(tmp_path: Path, kifu) -> None:
    planted = tmp_path / ".notes.tmp-0123abcd"
    planted.symlink_to(tmp_path / "target")
    (tmp_path / "target").write_text("x", encoding="utf-8")
    other = tmp_path / ".notes.tmp-0123abcd.bak"  # not a name kifu gives
    other.write_text("x", encoding="utf-8")
    assert kifu("report", DISPUTE, "-o", tmp_path / "page.html").code == 1
    assert planted.is_symlink() and other.exists() and (tmp_path / "target").exists()


def test_a_killed_import_s_temporary_log_is_removed_by_the_next_import(tmp_path: Path, kifu) -> None:
    src = tmp_path / "chat.txt"
    src.write_bytes((FIXTURES / "imports" / "discord" / "export.txt").read_bytes())
    stale = tmp_path / ".killed.jsonl.tmp-0badc0de"
    stale.write_bytes(b'{"type":"match.start"}\n')
    fd = os.open(stale, os.O_RDONLY)
    try:  # nobody holds it: a writer that died
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.close(fd)
    assert kifu("import", src, "-o", tmp_path / "m.jsonl").code == 0
    assert not stale.exists() and logfile.verify(tmp_path / "m.jsonl").seq > 1
