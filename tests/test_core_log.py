"""The match log's promises (DESIGN.md contracts 2, 5 and 6; issue 2).

Every fixture verifies; every kind of tampering exits 2 naming a seq or a byte
offset in one stderr line; concurrent appenders never lose, duplicate or
interleave an event; a torn tail is reported, refused and repaired only on
request; a crash mid-append leaves the old log or the old log plus a torn tail.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from conftest import FIXTURES, ROOT

from kifu.events import logfile, table
from kifu.events.base import KifuError, StaleAppend, TornTail
from kifu.events.codec import encode, line_hash

NAMES_PLACE = re.compile(r"\b(seq|byte) \d+")


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def make_log(path: Path, n: int = 10) -> bytes:
    """A generic log of ``n`` events (seq 1 is match.start) through the library."""
    logfile.create(
        path, {"game": "generic", "match": "t", "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]}
    )
    with logfile.Writer(path, durable=False) as w:
        for i in range(2, n + 1):
            w.append({"type": "note", "by": "ab"[i % 2], "text": f"note {i} ノート"})
    return path.read_bytes()


def lines_of(data: bytes) -> list[bytes]:
    return data.split(b"\n")[:-1]


def join(lines: list[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in lines)


def one_error_line(r) -> str:
    assert r.code == 2, (r.code, r.out, r.err)
    err_lines = r.err.splitlines()
    assert len(err_lines) == 1, r.err
    assert "Traceback" not in r.err
    return err_lines[0]


# --- every fixture verifies ------------------------------------------------------


def _fixture_logs() -> list[Path]:
    return sorted(p for p in FIXTURES.rglob("*.jsonl") if "imports" not in p.relative_to(FIXTURES).parts)


@pytest.mark.parametrize("path", _fixture_logs(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_fixture_log_verifies(path: Path) -> None:
    head = logfile.verify(path)
    assert head.seq == len(lines_of(path.read_bytes()))


def test_core_fixtures_are_reproduced_byte_for_byte(tmp_path: Path) -> None:
    sys.path.insert(0, str(FIXTURES / "core"))
    try:
        import make
    finally:
        sys.path.pop(0)
    make.build(tmp_path / "rules")
    built = sorted(p.relative_to(tmp_path / "rules") for p in (tmp_path / "rules").rglob("*") if p.is_file())
    stored = sorted(p.relative_to(make.RULES_DIR) for p in make.RULES_DIR.rglob("*") if p.is_file())
    assert built == stored
    for rel in built:
        assert (tmp_path / "rules" / rel).read_bytes() == (make.RULES_DIR / rel).read_bytes(), rel


# --- tamper matrix through the CLI -----------------------------------------------


def _byte_changed(lines: list[bytes]) -> list[bytes]:
    out = list(lines)
    out[5] = out[5].replace("ノート".encode(), "ノーツ".encode())
    return out


def _deleted(lines: list[bytes]) -> list[bytes]:
    return lines[:5] + lines[6:]


def _swapped(lines: list[bytes]) -> list[bytes]:
    return lines[:4] + [lines[5], lines[4]] + lines[6:]


def _inserted(lines: list[bytes]) -> list[bytes]:
    forged = msgspec.json.decode(lines[4])
    forged["text"] = "forged"
    return lines[:5] + [msgspec.json.encode(forged)] + lines[5:]


TAMPERS = {
    # name: (mutate the lines, the seq or byte offset the error must name)
    "byte-changed": (lambda ls: join(_byte_changed(ls)), "seq 6"),
    "line-deleted": (lambda ls: join(_deleted(ls)), "seq 6"),
    "lines-swapped": (lambda ls: join(_swapped(ls)), "seq 5"),
    "line-inserted": (lambda ls: join(_inserted(ls)), "seq 6"),
}


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_tampered_log_exits_2_naming_the_seq(kifu, tmp_path: Path, name: str) -> None:
    log = tmp_path / "m.jsonl"
    lines = lines_of(make_log(log))
    mutate, where = TAMPERS[name]
    log.write_bytes(mutate(lines))
    line = one_error_line(kifu("verify", log))
    assert line.startswith("kifu: error: ") and str(log) in line
    assert where in line, line


def test_file_cut_mid_line_names_the_byte_offset(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    data = make_log(log)
    last_start = data.rindex(b"\n", 0, len(data) - 1) + 1
    log.write_bytes(data[: last_start + 17])
    line = one_error_line(kifu("verify", log))
    assert f"byte {last_start}" in line and "repair" in line, line


def test_cut_last_lines_detected_with_expect_head(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    data = make_log(log)
    head = line_hash(lines_of(data)[-1])
    assert kifu("verify", log, "--expect-head", head).code == 0
    log.write_bytes(join(lines_of(data)[:7]))
    assert kifu("verify", log).code == 0  # a clean prefix: only the slip's head can tell
    line = one_error_line(kifu("verify", log, "--expect-head", head))
    assert "seq 7" in line and "cut off" in line, line


def test_slip_of_an_earlier_head_says_events_were_appended(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    data = make_log(log)
    slip = line_hash(lines_of(data)[6])[:12]
    line = one_error_line(kifu("verify", log, "--expect-head", slip))
    assert "seq 7" in line and "appended" in line, line


# --- two processes appending at once ----------------------------------------------


APPENDER = """
import sys
import msgspec
from kifu.cli import main
log, who, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
print("ready", flush=True)
sys.stdin.readline()  # both processes start appending at once
for i in range(n):
    event = msgspec.json.encode({"type": "note", "by": who, "text": f"{who}-{i}"}).decode()
    try:
        code = main(["append", log, "--json", event])
    except SystemExit as exc:
        code = exc.code
    if code:
        print(f"append {i} exited {code}", file=sys.stderr, flush=True)
"""
"""A process running `kifu append` ``n`` times (the command, in one interpreter: no start-up per event)."""


@pytest.mark.slow
def test_two_processes_appending_keep_every_event(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    make_log(log, 1)
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", APPENDER, str(log), who, "60"],
            env=_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for who in ("a", "b")
    ]
    for w in workers:
        assert w.stdout is not None and w.stdout.readline() == "ready\n"
    for w in workers:
        assert w.stdin is not None
        w.stdin.write("go\n")
        w.stdin.close()
        w.stdin = None  # (communicate would flush it)
    failures = [w.communicate()[1] for w in workers]
    assert [w.returncode for w in workers] == [0, 0] and not any(failures), failures
    head = logfile.verify(log)
    assert head.seq == 121
    events = logfile.load(log).events
    assert [e.seq for e in events] == list(range(1, 122))
    for who in ("a", "b"):
        assert [e.text for e in events[1:] if e.by == who] == [f"{who}-{i}" for i in range(60)]


def test_stale_expect_seq_is_refused_and_writes_nothing(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    before = make_log(log, 5)
    line = one_error_line(kifu("append", log, "--json", '{"type":"note","text":"late"}', "--expect-seq", "5"))
    assert "seq 5" in line and "next seq is 6" in line, line
    assert log.read_bytes() == before
    assert kifu("append", log, "--json", '{"type":"note","text":"on time"}', "--expect-seq", "6").code == 0
    assert logfile.verify(log).seq == 6


def test_stale_prev_inside_the_event_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    before = make_log(log, 3)
    with pytest.raises(StaleAppend):
        logfile.append(log, {"type": "note", "text": "x", "prev": "0" * 64})
    assert log.read_bytes() == before


# --- torn tails, repair, crashes ------------------------------------------------


def test_torn_log_refuses_appends_until_repaired(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    good = make_log(log, 6)
    torn = good + b'{"type":"note","seq":7,"prev":"ab'
    log.write_bytes(torn)
    line = one_error_line(kifu("append", log, "type=note", "text=after"))
    assert f"byte {len(good)}" in line and "repair" in line, line
    assert log.read_bytes() == torn
    r = kifu("repair", log)
    assert r.code == 0, r.err
    copy = Path(f"{log}.torn-{len(good)}")
    assert str(copy) in r.out and copy.read_bytes() == torn
    assert log.read_bytes() == good
    assert kifu("append", log, "type=note", "text=after").code == 0
    assert logfile.verify(log).seq == 7


def test_repair_never_cuts_a_complete_line(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    lines = lines_of(make_log(log))
    edited = join(_byte_changed(lines))
    log.write_bytes(edited)
    r = kifu("repair", log)
    assert r.code == 0 and "nothing changed" in r.out
    assert log.read_bytes() == edited
    assert not list(tmp_path.glob("*.torn-*"))


def _next_line(log: Path) -> bytes:
    head = logfile.verify(log)
    event = table.codec("generic").convert(
        {"type": "note", "text": "in flight", "seq": head.seq + 1, "prev": head.hash}
    )
    return encode(event) + b"\n"


def test_every_crash_point_leaves_old_log_or_torn_tail(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    old = make_log(log, 4)
    line = _next_line(log)
    for cut in range(len(line) + 1):
        log.write_bytes(old + line[:cut])
        seen = []
        try:
            for event in logfile.stream(log):
                seen.append(encode(event))
        except TornTail as exc:
            assert 0 < cut < len(line) and exc.offset == len(old), cut
        else:
            assert cut in (0, len(line)), cut
        assert join(seen[:4]) == old  # the trustworthy prefix is always all there


CRASHER = """
import os, sys
from kifu.events import logfile, table
real = os.write
def write_half_and_die(fd, data):
    real(fd, data[: len(data) // 2])
    os._exit(9)
logfile.os.write = write_half_and_die
logfile.append(sys.argv[1], {"type": "note", "text": "never acknowledged"})
"""


def test_process_killed_mid_append_leaves_a_torn_tail_that_repair_cuts(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    old = make_log(log, 4)
    r = subprocess.run([sys.executable, "-c", CRASHER, str(log)], env=_env(), capture_output=True)
    assert r.returncode == 9
    assert log.read_bytes().startswith(old) and len(log.read_bytes()) > len(old)
    line = one_error_line(kifu("verify", log))
    assert f"byte {len(old)}" in line
    assert kifu("repair", log).code == 0 and log.read_bytes() == old


def test_failed_write_is_rolled_back(monkeypatch, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    old = make_log(log, 4)
    real = os.write

    def write_then_fail(fd: int, data: bytes) -> int:
        real(fd, data[:10])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(logfile.os, "write", write_then_fail)
    with pytest.raises(KifuError, match="nothing written"):
        logfile.append(log, {"type": "note", "text": "x"})
    monkeypatch.undo()
    assert log.read_bytes() == old


def test_create_never_overwrites(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    old = make_log(log, 3)
    line = one_error_line(kifu("new", log, "-g", "generic", "-m", "x", "-p", "a=A"))
    assert "never overwritten" in line
    assert log.read_bytes() == old


# --- the three ways to append, and the head verify prints ----------------------------


def test_append_by_json_stdin_and_pairs_write_the_same_event(kifu, tmp_path: Path) -> None:
    logs = [tmp_path / f"{n}.jsonl" for n in ("json", "stdin", "pairs")]
    for log in logs:
        make_log(log, 2)
    assert kifu("append", logs[0], "--json", '{"type":"note","by":"a","text":"shuffled"}').code == 0
    assert kifu("append", logs[1], stdin='{"type":"note","by":"a","text":"shuffled"}\n').code == 0
    assert kifu("append", logs[2], "type=note", "by=a", "text=shuffled").code == 0
    tails = {lines_of(log.read_bytes())[-1] for log in logs}
    assert len(tails) == 1 and b'"seq":3' in tails.pop()


def test_verify_prints_the_head_seq_and_hash(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    data = make_log(log, 9)
    r = kifu("verify", log, "--lang", "en")
    assert r.code == 0 and r.err == ""
    assert "9 events" in r.out and line_hash(lines_of(data)[-1]) in r.out


def test_append_reports_the_new_head(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    make_log(log, 2)
    r = kifu("append", log, "type=note", "text=x", "--lang", "en")
    assert r.code == 0
    assert f"seq 3 (head {logfile.verify(log).hash})" in r.out


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_readers_see_exactly_the_trustworthy_prefix(tmp_path: Path, name: str) -> None:
    log = tmp_path / "m.jsonl"
    lines = lines_of(make_log(log))
    mutate, where = TAMPERS[name]
    log.write_bytes(mutate(lines))
    seen: list[int] = []
    with pytest.raises(KifuError) as caught:
        for event in logfile.stream(log):
            seen.append(event.seq)
    bad = caught.value.seq
    assert f"seq {bad}" == where
    # Exactly the events before the named seq: an edited line is caught only
    # by the next line's prev, so a reader must not have been handed it either.
    assert seen == list(range(1, bad))
