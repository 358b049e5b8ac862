"""`kifu repair` keeps every byte (issue 20, item 5; docs/format.md "Repairing a log").

The issue's reproducers: a complete, acknowledged event whose final newline was
stripped was cut as torn; a file with CR-only line ends was read as one torn
line and emptied; a second repair overwrote the first copy; a link planted at
the predictable copy name was followed. And a process appending, killed at
random points, must never lose an acknowledged event to a repair.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from kifu.events import logfile
from kifu.events.base import KifuError


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _log(path: Path, n: int = 5) -> bytes:
    logfile.write_new(
        path,
        {"game": "generic", "match": "r", "players": [{"id": "a", "name": "A"}]},
        ({"type": "note", "by": "a", "text": f"event {i}"} for i in range(2, n + 1)),
    )
    return path.read_bytes()


def test_a_complete_event_that_lost_its_newline_gets_it_back(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    whole = _log(log)
    log.write_bytes(whole[:-1])  # an editor or a copy stripped the final newline
    r = kifu("repair", log)
    assert r.code == 0 and "added the line end, cut nothing (5 lines)" in r.out, r.out
    assert log.read_bytes() == whole
    assert not list(tmp_path.glob("*.torn-*"))
    assert logfile.verify(log).seq == 5


def test_a_crlf_log_that_lost_its_last_newline_keeps_its_cr(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    crlf = _log(log).replace(b"\n", b"\r\n")
    log.write_bytes(crlf[:-1])
    assert kifu("repair", log).code == 0
    assert log.read_bytes() == crlf and logfile.verify(log).seq == 5


def test_a_cut_short_line_is_cut_after_a_copy_and_the_report_says_what_was_kept(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    whole = _log(log)
    torn = whole + b'{"type":"note","seq":6,"pr'
    log.write_bytes(torn)
    r = kifu("repair", log)
    copy = Path(f"{log}.torn-{len(whole)}")
    assert r.code == 0 and str(copy) in r.out and "keeping the 5 complete lines" in r.out, r.out
    assert f"from byte {len(whole)}" in r.out
    assert copy.read_bytes() == torn and log.read_bytes() == whole


def test_a_second_repair_never_overwrites_the_first_copy(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    whole = _log(log)
    first, second = whole + b'{"type":"note","se', whole + b'{"type":"no'
    log.write_bytes(first)
    assert kifu("repair", log).code == 0
    log.write_bytes(second)  # the same offset again: the predictable name is taken
    r = kifu("repair", log)
    assert r.code == 0
    copies = sorted(tmp_path.glob("m.jsonl.torn-*"))
    assert [c.name for c in copies] == [f"m.jsonl.torn-{len(whole)}", f"m.jsonl.torn-{len(whole)}.2"]
    assert [c.read_bytes() for c in copies] == [first, second]
    assert str(copies[1]) in r.out


def test_a_link_planted_at_the_copy_name_is_never_followed(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    whole = _log(log)
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious\n")
    os.symlink(victim, f"{log}.torn-{len(whole)}")
    os.symlink(tmp_path / "nothing-here", f"{log}.torn-{len(whole)}.2")  # a dangling one too
    log.write_bytes(whole + b'{"type":"no')
    r = kifu("repair", log)
    assert r.code == 0
    assert victim.read_bytes() == b"precious\n"
    assert not (tmp_path / "nothing-here").exists()
    assert Path(f"{log}.torn-{len(whole)}.3").read_bytes() == whole + b'{"type":"no'
    assert log.read_bytes() == whole


def test_a_log_that_is_a_link_is_refused(kifu, tmp_path: Path) -> None:
    real = tmp_path / "real.jsonl"
    torn = _log(real) + b'{"ty'
    real.write_bytes(torn)
    link = tmp_path / "link.jsonl"
    os.symlink(real, link)
    r = kifu("repair", link)
    assert r.code == 2 and "symbolic link" in r.err and len(r.err.strip().splitlines()) == 1
    assert real.read_bytes() == torn


def test_cr_only_line_ends_are_refused_unchanged(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    cr = _log(log).replace(b"\n", b"\r")
    log.write_bytes(cr)
    for command in ("repair", "verify"):
        r = kifu(command, log)
        assert r.code == 2 and "lone CRs" in r.err and len(r.err.strip().splitlines()) == 1, r.err
    assert log.read_bytes() == cr and not list(tmp_path.glob("*.torn-*"))
    log.write_bytes(cr.replace(b"\r", b"\n"))  # what the message says to do
    assert logfile.verify(log).seq == 5


@pytest.mark.parametrize("data", [b"\x89PNG\r\n\x1a\n\x00\x00", b"hello world", b"# notes\n{not a log"])
def test_a_file_that_is_not_json_lines_is_refused_unchanged(kifu, tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(data)
    r = kifu("repair", path)
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err
    assert path.read_bytes() == data and not list(tmp_path.glob("*.torn-*"))


def test_a_torn_match_start_alone_is_cut_into_a_copy(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    first = _log(log, 1)
    log.write_bytes(first[:30])
    r = kifu("repair", log)
    assert r.code == 0 and "keeping the 0 complete lines" in r.out
    assert Path(f"{log}.torn-0").read_bytes() == first[:30] and log.read_bytes() == b""


def test_nothing_to_repair_changes_nothing(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    whole = _log(log)
    assert "nothing changed" in kifu("repair", log).out and log.read_bytes() == whole


def test_a_failed_copy_cuts_nothing(monkeypatch, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    torn = _log(log) + b'{"typ'
    log.write_bytes(torn)

    def full(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(logfile.os, "write", full)
    with pytest.raises(KifuError, match="nothing cut"):
        logfile.repair(log)
    monkeypatch.undo()
    assert log.read_bytes() == torn and not list(tmp_path.glob("*.torn-*"))


# --- a writer killed at random points --------------------------------------------

APPENDER = """
import os, sys, time
from kifu.events import logfile
real = os.write
def slow_write(fd, data):
    # Two writes with a pause between: a kill can land inside an append, as a crash does.
    half = len(data) // 2
    n = real(fd, data[:half])
    time.sleep(0.002)
    return n + real(fd, data[half:])
logfile.os.write = slow_write
start = int(sys.argv[2])
for i in range(start, start + 100000):
    event = logfile.append(sys.argv[1], {"type": "note", "by": "a", "text": f"ack {i}"})
    print(event.seq, flush=True)  # acknowledged: fsync'd before append returned
"""


@pytest.mark.slow
def test_every_acknowledged_event_survives_kills_and_repairs(kifu, tmp_path: Path) -> None:
    rng = random.Random(20)
    log = tmp_path / "m.jsonl"
    _log(log, 1)
    acked: dict[int, str] = {}
    for round_ in range(6):
        child = subprocess.Popen(
            [sys.executable, "-c", APPENDER, str(log), str(round_ * 1000)],
            env=_env(),
            stdout=subprocess.PIPE,
            text=True,
        )
        # Kill it once it has acknowledged a random number of events: the kill then lands somewhere
        # in the appends that follow (inside one, half written, or between two), however slow the start.
        assert child.stdout is not None
        seen = [child.stdout.readline() for _ in range(1 + rng.randrange(25))]
        assert all(seen), "the appender stopped before it was killed"
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        for i, seq in enumerate("".join(seen).split() + out.split(), start=round_ * 1000):
            acked[int(seq)] = f"ack {i}"
        if round_ % 3 == 2 and log.read_bytes().endswith(b"\n"):
            log.write_bytes(log.read_bytes()[:-1])  # and an editor strips the last newline
        r = kifu("repair", log)
        assert r.code == 0, r.err
        events = {e.seq: e for e in logfile.stream(log)}  # verifies the whole chain
        for seq, text in acked.items():
            assert events[seq].text == text, (round_, seq)  # type: ignore[attr-defined]
    assert len(acked) > 6
    copies = list(tmp_path.glob("m.jsonl.torn-*"))
    assert len(copies) == len({c.name for c in copies})  # each repair kept its own
