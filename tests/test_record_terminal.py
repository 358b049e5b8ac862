"""kifu record in a real pseudo-terminal (80×24), typed into as a recorder at a table types.

Textual's pilot (tests/test_record.py) skips the terminal: its parser, its driver thread and how
bursts of input arrive. Here the app runs as ``kifu record`` does, under pexpect: lines are sent
whole with no pause (as an IME commits them), typed a character at a time every 30 ms, pasted
(bracketed and raw), with a full-width space, and the app is killed mid-burst. Every wait is for
something observable (the log's lines, a text on the screen, the end of the process); the
deadlines are only there to fail instead of hanging, and are long enough for a busy machine.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kifu.events import logfile

pexpect = pytest.importorskip("pexpect")

GUARD = 180.0
"""Seconds after which a wait is a failure (never a pace)."""
START = ("-g", "gunandgun", "-m", "R1-T3", "-p", "a=ミナト", "-p", "b=ユキ", "--lang", "en")


class Table:
    """One ``kifu record`` in a pseudo-terminal, and its log."""

    def __init__(self, log: Path, *args: str) -> None:
        self.log = log
        self.screen = ""
        env = {**os.environ, "TERM": "xterm-256color", "KIFU_LANG": "en", "COLUMNS": "80", "LINES": "24"}
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "kifu", "record", str(log), *args],
            dimensions=(24, 80),
            env=env,
            encoding="utf-8",
            codec_errors="replace",
        )
        self.until(lambda: "no findings" in self.screen, "the app ready")

    def read(self, wait: float = 0.05) -> None:
        """Take what the app wrote (it must never block on a full terminal)."""
        try:
            while True:
                self.screen += self.child.read_nonblocking(65536, timeout=wait)
                wait = 0
        except (pexpect.TIMEOUT, pexpect.EOF):
            pass
        self.screen = self.screen[-200_000:]

    def until(self, ready: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + GUARD
        while not ready():
            assert time.monotonic() < deadline, f"{what}: not there after {GUARD:.0f} s"
            self.read()

    def send(self, text: str) -> None:
        self.child.send(text)

    def type(self, text: str, every: float = 0.03) -> None:
        """One character at a time, ``every`` seconds apart (a typist's pace, reading the screen meanwhile)."""
        for ch in text:
            self.child.send(ch)
            next_key = time.monotonic() + every
            while (left := next_key - time.monotonic()) > 0:
                self.read(left)

    def events(self) -> list[dict[str, Any]]:
        """The log's events as written so far (complete lines only)."""
        raw = self.log.read_bytes()
        return [json.loads(line) for line in raw[: raw.rfind(b"\n") + 1].splitlines()]

    def appended(self, n: int) -> None:
        """Until the log holds ``n`` events after match.start."""
        self.until(lambda: len(self.events()) >= n + 1, f"{n} events on the log")

    def quit(self) -> int:
        self.send("\x11")  # Ctrl+Q
        self.until(lambda: not self.child.isalive(), "the app quit")
        self.read()
        self.child.close()
        return self.child.exitstatus


def _texts(table: Table) -> list[str]:
    return [e.get("text") for e in table.events()[1:]]


def test_lines_sent_whole_with_no_pause_are_each_on_the_log_once_whole_in_order(tmp_path: Path) -> None:
    t = Table(tmp_path / "m.jsonl", *START)
    lines = [f"line {i} ユキ 計略" for i in range(1, 31)]
    for line in lines:  # as an IME commits a line, then Enter: two writes, no pause
        t.send(line)
        t.send("\r")
    t.appended(len(lines))
    t.until(lambda: "✓ seq 31" in t.screen, "the screen showing seq 31 appended")
    assert t.quit() == 0
    assert _texts(t) == lines
    logfile.verify(t.log)


def test_lines_typed_a_character_every_30_ms(tmp_path: Path) -> None:
    t = Table(tmp_path / "m.jsonl", *START)
    lines = [
        "!setup ラン ダタラ ハクメン がんばる!!",
        "b: !setup ヒバナ エンラ ウワン 朧走り",
        "!first ユキ 速度",
        "the end",
    ]
    for line in lines:
        t.type(line + "\r")
    t.appended(len(lines))
    assert t.quit() == 0
    events = t.events()[1:]
    assert [e["type"] for e in events] == ["gg.setup", "gg.setup", "gg.first", "note"]
    assert [e["by"] for e in events] == ["a", "b", "b", "b"] and events[-1]["text"] == "the end"


def test_a_pasted_200_lines_are_confirmed_once_then_all_on_the_log_in_order(tmp_path: Path) -> None:
    t = Table(tmp_path / "m.jsonl", *START)
    lines = [f"pasted {i} ミナト" for i in range(1, 201)]
    t.send("\x1b[200~" + "\n".join(lines) + "\n\x1b[201~")  # a terminal's bracketed paste
    t.until(lambda: "200 lines pasted" in t.screen, "the paste waiting for Enter")
    assert t.events()[1:] == []
    t.send("\r")
    t.appended(200)
    raw = [f"raw {i}" for i in range(1, 201)]
    t.send("".join(f"{line}\r" for line in raw))  # a terminal without bracketed paste: keys, one write
    t.appended(400)
    assert t.quit() == 0
    assert _texts(t) == lines + raw


def test_a_full_width_space_reads_as_a_space(tmp_path: Path) -> None:
    t = Table(tmp_path / "m.jsonl", *START)
    t.send("!act a1 計略\r!cost a1 手札 1\r!toss a1 相手\r")
    t.type("!resolve a1 1\u30001\r")  # typed, the IME's space among the keys
    t.send("！ＡＣＴ\u3000ａ２\u3000計略\r")
    t.appended(5)
    t.quit()
    resolve, act = t.events()[4], t.events()[5]
    assert (resolve["type"], resolve["n"], resolve["values"]) == ("gg.resolve", 1, [1])
    assert (act["type"], act["act"], act["card"]) == ("gg.play", "a2", "計略")


def test_killed_mid_burst_the_log_holds_a_prefix_of_the_lines_and_the_terminal_is_put_back(tmp_path: Path) -> None:
    t = Table(tmp_path / "m.jsonl", *START)
    lines = [f"burst {i}" for i in range(1, 501)]
    t.send("".join(f"{line}\r" for line in lines))
    t.appended(20)  # some written, the rest still coming
    os.kill(t.child.pid, signal.SIGKILL)
    t.until(lambda: "stopped without closing" in t.screen, "the guard's line")
    assert "\x1b[?1049l" in t.screen  # the main screen back
    written = _texts(t)
    assert written == lines[: len(written)]  # each once, whole, in order: a prefix of what was sent
    logfile.verify(t.log)


def test_under_tmux_at_80x24_the_screen_shows_each_line_state_and_a_tosss_facing(tmp_path: Path) -> None:
    """The screen a recorder reads, as tmux draws it (where tmux is installed)."""
    import shutil
    import subprocess

    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    sock = f"kifu-test-{os.getpid()}"
    log = tmp_path / "m.jsonl"
    cmd = [sys.executable, "-m", "kifu", "record", str(log), *START]

    def tmux(*args: str) -> str:
        return subprocess.run(["tmux", "-L", sock, "-f", "/dev/null", *args], capture_output=True, text=True).stdout

    def screen() -> str:
        return tmux("capture-pane", "-p", "-t", "rec")

    def until(ready: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + GUARD
        while not ready():
            assert time.monotonic() < deadline, f"{what}: not there after {GUARD:.0f} s:\n{screen()}"
            time.sleep(0.1)  # the pace of looking at the screen, not a wait for something to happen

    env = f"TERM=xterm-256color KIFU_LANG=en PYTHONPATH={Path(__file__).resolve().parent.parent}"
    tmux("new-session", "-d", "-s", "rec", "-x", "80", "-y", "24", f"env {env} {' '.join(cmd)}; sleep 600")
    try:
        until(lambda: "no findings" in screen(), "the app ready")
        lines = [*OPENING, "!act a1 計略", "!toss a1 相手", "!nosuch"]
        for line in lines:
            tmux("send-keys", "-t", "rec", "-l", line)
            tmux("send-keys", "-t", "rec", "Enter")
        until(lambda: "refused" in screen() and "✓ seq 9" in screen(), "the last lines settled")
        shown = screen()
        assert "facing=opponent" in shown and "GG-TOSS-001" in shown
        assert "!nosuch is not a command" in shown
        assert [e["type"] for e in json.loads(f"[{','.join(log.read_text().splitlines())}]")][-2:] == [
            "gg.play",
            "gg.toss",
        ]
    finally:
        tmux("kill-server")


OPENING = [
    "!setup ラン ダタラ ハクメン がんばる!!",
    "b: !setup ヒバナ エンラ ウワン 朧走り",
    "!first ユキ 速度",
    "!draw エンラ 3 初手",
    "a: !draw ダタラ 3 初手",
    "b: !turn 1",
]
