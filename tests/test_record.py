"""kifu record: lines typed at a table, appended under the lock, audited as they are written.

The app is driven headless with Textual's own pilot (keystrokes, as a recorder types, and
bursts of terminal input fed through Textual's own parser, as the terminal driver does);
the line-by-line mode through the CLI; each game's chat export, typed line by line,
must give the events and findings its import gives (one notation, one mapping). The app
writes from a thread of its own: a test waits for what the screen shows (every line
settled, the view at the log's head), never for a time. tests/test_record_terminal.py
drives the real app in a pseudo-terminal.
"""

from __future__ import annotations

import asyncio
import json
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import msgspec
import pytest
from conftest import FIXTURES

from kifu.auditor import registry
from kifu.events import importers, logfile
from kifu.events.notation import Table

PLAYERS = [{"id": "a", "name": "ミナト"}, {"id": "b", "name": "ユキ"}]
GG = {"game": "gunandgun", "match": "R1-T3", "players": PLAYERS}
OPENING = [
    "!setup ラン ダタラ ハクメン がんばる!!",
    "b: !setup ヒバナ エンラ ウワン 朧走り",
    "!first ユキ 速度",
    "!draw エンラ 3 初手",
    "a: !draw ダタラ 3 初手",
    "b: !turn 1",
]


def _recording(path: Path, start: dict[str, Any] = GG) -> Any:
    from kifu.app.recording import Recording

    return Recording.create(path, start, clock=lambda: None)


def _codes(findings: Any) -> set[tuple[str, int]]:
    return {(f.code, f.seq) for f in findings}


GUARD = 120.0
"""Seconds after which a wait for the app is a failure (a guard, never a pace: the waits end on a state)."""


async def until(pilot: Any, ready: Any, what: str = "the app") -> None:
    """Let the app run until ``ready()`` holds."""
    deadline = time.monotonic() + GUARD
    while not ready():
        assert time.monotonic() < deadline, f"{what} never got there"
        await pilot.pause()


async def settled(app: Any, pilot: Any, entered: int = 0) -> None:
    """Until the app has taken ``entered`` lines in all, the writer has answered for every line and the
    screen shows the log's head."""
    from kifu.app.recording import LineState

    def done() -> bool:
        w = app.writer
        lines = app.lines.values()
        return (
            w is not None
            and len(lines) >= entered
            and not w.waiting
            and app.view is not None
            and app.view.head == app.rec.head
            and not any(line.state is LineState.QUEUED for line in lines)
            and not app._redraw_pending
        )

    await until(pilot, done, "every line settled")


def feed(app: Any, data: str) -> None:
    """``data`` as a terminal sends it, read by Textual's own parser and posted as its driver does:
    a burst, nothing waits between the keys."""
    from textual._xterm_parser import XTermParser

    for event in XTermParser().feed(data):
        event.set_sender(app)
        app._driver.send_message(event)


# --- the app, typed into with the pilot --------------------------------------------------------


def test_typing_an_activation_shows_the_toss_before_cost_live_and_an_undo_takes_it_away(tmp_path: Path) -> None:
    from kifu.cli.record.tui import make_app

    log = tmp_path / "m.jsonl"
    rec = _recording(log)
    app = make_app(rec, "en")

    def panel(name: str) -> str:
        return str(app.query_one(name).content)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for line in OPENING:  # the setup, entered as a whole line each; the activation is typed key by key
                app.query_one("#line").value = line
                await pilot.press("enter")
            for line in ["!act a1 計略", "!toss a1 自分"]:  # the toss before the cost: a mistake
                await pilot.press(*line, "enter")
            await settled(app, pilot)
            assert ("GG-TOSS-001", 9) in _codes(rec.findings())
            assert "GG-TOSS-001" in panel("#findings") and "came before its cost" in panel("#findings")
            await pilot.press("ctrl+z")  # undo: a log.void of the toss
            await settled(app, pilot)
            assert rec.session.voided == {9: 10}
            assert "GG-TOSS-001" not in panel("#findings") and "GG-TOSS-001" in panel("#preview")  # "gone"
            for line in [
                "!cost a1 手札 1",
                "!toss a1 自分",
                "!toss a1 相手",
                "!resolve a1 1 1",
                "!draw エンラ 1 効果 a1",
            ]:
                app.query_one("#line").value = line  # (each key costs the pilot ~60 ms: the rest as whole lines)
                await pilot.press("enter")
            await settled(app, pilot)
            assert rec.findings() == [] and "no findings" in panel("#findings")
            assert rec.head.hash[:20] in panel("#header")
            await pilot.press("ctrl+s")  # the slip
            await until(pilot, lambda: type(app.screen).__name__ == "SlipScreen", "the slip")
            shown = str(app.screen.query_one("#slip-text").content)
            assert rec.head.hash[:16] in shown and "no match.end recorded" in shown

    asyncio.run(play())
    head = logfile.verify(log, expect_head=rec.slip().head.hash)
    assert head == rec.head and head.seq == 15
    assert registry.audit(logfile.load(log).events) == rec.slip().findings == []


def test_tab_completes_commands_cards_and_words_of_the_command(tmp_path: Path) -> None:
    from kifu.cli.record.tui import make_app

    rec = _recording(tmp_path / "m.jsonl")
    app = make_app(rec, "ja")

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            line = app.query_one("#line")
            await until(pilot, lambda: app.view is not None, "the notation loaded")
            await pilot.press(*"!co", "tab")
            assert line.value == "!cost "
            await pilot.press("tab")  # again: the next candidate
            assert line.value == "!continuous "
            line.value = ""
            await pilot.press(*"!act a1 計", "tab")
            assert line.value == "!act a1 計略 "
            line.value = ""
            await pilot.press(*"!cost a1 手", "tab")
            assert line.value == "!cost a1 手札 "
            line.value = ""
            await pilot.press("f2")  # the next speaker
            await settled(app, pilot)
            assert rec.table.speaker == "b" and "b ユキ" in str(app.query_one("#line").border_title)

    asyncio.run(play())


def test_a_refused_line_is_shown_with_the_reason_and_up_brings_it_back(tmp_path: Path) -> None:
    from kifu.cli.record.tui import make_app

    rec = _recording(tmp_path / "m.jsonl")
    app = make_app(rec, "en")

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(*"!toss a1 sideways")
            await until(pilot, lambda: "cannot record" in str(app.query_one("#preview").content), "the preview")
            await pilot.press("enter")
            await settled(app, pilot)
            # Cleared, so the next line typed (a script types on) is not glued to the refused one.
            assert app.query_one("#line").value == "" and rec.head.seq == 1
            assert "Invalid value 'sideways'" in str(app.query_one("#preview").content)
            app.query_one("#line").value = "hello"
            await pilot.press("enter", "up", "up")
            await settled(app, pilot)
            assert app.query_one("#line").value == "!toss a1 sideways" and rec.head.seq == 2

    asyncio.run(play())


def _notes(log: Path) -> list[str]:
    return [e.text for e in logfile.load(log).events[1:]]


def _run(app: Any, play: Any) -> None:
    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.view is not None, "the log read")
            await play(pilot)

    asyncio.run(go())


def test_lines_sent_in_one_burst_are_each_appended_once_whole_and_in_order(tmp_path: Path) -> None:
    """Ten lines and their Enters arrive before the app has handled the first (an IME committing
    whole lines, a script): Textual used to run Enter after the keys behind it, merging lines."""
    from kifu.cli.record.tui import make_app

    log = tmp_path / "m.jsonl"
    app = make_app(_recording(log), "en")
    lines = [f"line {i} 計略" for i in range(1, 11)] + ["", "   ", "last"]

    async def play(pilot: Any) -> None:
        feed(app, "".join(f"{line}\r" for line in lines))
        await settled(app, pilot, 11)
        shown = str(app.query_one("#lines").content)
        assert "✓ seq 12" in shown and "last" in shown and app.query_one("#line").value == ""

    _run(app, play)
    assert _notes(log) == [line for line in lines if line.strip()]


def test_a_line_entered_while_the_writer_is_busy_is_queued_and_shown_as_queued(tmp_path: Path) -> None:
    """The writer is held (the test owns the log's lock, as another device appending would): lines
    typed meanwhile wait in the queue, shown as queued, and go on once it is free."""
    import fcntl
    import os

    from kifu.cli.record.tui import make_app

    log = tmp_path / "m.jsonl"
    app = make_app(_recording(log), "en")

    async def play(pilot: Any) -> None:
        fd = os.open(log, os.O_RDWR)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            feed(app, "one\rtwo\rthree\r")
            await until(pilot, lambda: str(app.query_one("#lines").content).count("queued") == 3, "lines queued")
            feed(app, "four")  # the input takes keys while the writer waits
            await until(pilot, lambda: app.query_one("#line").value == "four", "the input")
            assert logfile.verify(log).seq == 1
        finally:
            os.close(fd)  # the lock goes: the writer goes on
        feed(app, "\r")
        await settled(app, pilot, 4)

    _run(app, play)
    assert _notes(log) == ["one", "two", "three", "four"]


def test_the_full_width_space_an_ime_types_reads_as_in_the_pipe_mode(kifu, tmp_path: Path) -> None:
    """U+3000 is not "printable" to Python, and Textual's input dropped it: `!resolve a1 1　1` became n=11."""
    from kifu.cli.record.tui import make_app

    typed = ["!act a1 計略", "!cost a1 手札 1", "!toss a1 相手", "!resolve a1 1\u30001", "！ＡＣＴ\u3000ａ２\u3000計略"]
    log, piped = tmp_path / "m.jsonl", tmp_path / "p.jsonl"
    app = make_app(_recording(log), "en")

    async def play(pilot: Any) -> None:
        for line in typed:
            feed(app, line + "\r")
        await settled(app, pilot, len(typed))

    _run(app, play)
    start = ("-g", "gunandgun", "-m", "R1-T3", "-p", "a=ミナト", "-p", "b=ユキ", "--no-time")
    assert kifu("record", piped, *start, stdin="\n".join(typed) + "\n").code == 1  # no line refused; findings
    assert [_fields(e) for e in logfile.load(log).events] == [_fields(e) for e in logfile.load(piped).events]
    resolve = logfile.load(log).events[4]
    assert (resolve.n, resolve.values) == (1, [1]) and logfile.load(log).events[5].card == "計略"


def test_a_bracketed_paste_waits_for_enter_then_every_line_is_appended_in_order(tmp_path: Path) -> None:
    from kifu.cli.record.tui import make_app

    log = tmp_path / "m.jsonl"
    app = make_app(_recording(log), "en")
    lines = [f"pasted {i}" for i in range(1, 201)]

    async def play(pilot: Any) -> None:
        feed(app, "typed first\r\x1b[200~" + "\n".join(lines) + "\n\x1b[201~")
        await until(pilot, lambda: app.input.pending is not None, "the paste shown")
        preview = str(app.query_one("#preview").content)
        assert "200 lines pasted" in preview and "Enter" in preview
        assert "pasted 1" in str(app.query_one("#timeline").content)
        await settled(app, pilot, 1)
        assert _notes(log) == ["typed first"]  # nothing of the paste before Enter
        feed(app, "\r")
        await settled(app, pilot, 201)
        assert "paste of 200 lines: 200 appended (seq 3–202)" in str(app.query_one("#lines").content)

    _run(app, play)
    assert _notes(log) == ["typed first", *lines]


def test_a_paste_is_discarded_with_esc_and_refused_whole_when_a_line_cannot_be_recorded(tmp_path: Path) -> None:
    from kifu.cli.record.tui import make_app

    log = tmp_path / "m.jsonl"
    app = make_app(_recording(log), "en")

    async def play(pilot: Any) -> None:
        feed(app, "kept\x1b[200~one\ntwo\x1b[201~")
        await until(pilot, lambda: app.input.pending is not None, "the paste shown")
        feed(app, "\x1b\x1b")  # Esc (a lone ESC waits for a sequence; ESC ESC is Esc at once)
        await until(pilot, lambda: app.input.pending is None, "the paste gone")
        assert app.input.value == "kept"  # back as it was
        app.input.value = ""
        feed(app, "\x1b[200~!act a1 計略\n!toss a1 sideways\n!cost a1 手札 1\x1b[201~\r")
        await settled(app, pilot, 3)
        shown = str(app.query_one("#lines").content)
        assert "refused whole" in shown and "line 2 of the paste" in shown and "sideways" in shown
        feed(app, "\x1b[200~" + "x" * 4001 + "\ny\x1b[201~")  # a line too long: refused before it is shown
        await until(pilot, lambda: "refused whole" in str(app.query_one("#preview").content), "the refusal")
        assert app.input.pending is None

    _run(app, play)
    assert _notes(log) == []


def test_a_line_longer_than_the_limit_is_refused_at_once_and_never_appended(tmp_path: Path) -> None:
    from kifu.cli.record.tui import make_app

    log = tmp_path / "m.jsonl"
    app = make_app(_recording(log), "en")

    async def play(pilot: Any) -> None:
        feed(app, "あ" * 4000)
        await until(pilot, lambda: "Enter appends" in str(app.query_one("#preview").content), "the preview")
        feed(app, "い")
        await until(pilot, lambda: "at most 4000" in str(app.query_one("#preview").content), "the refusal")
        assert len(app.input.value) == 4000  # the input never grows past the limit
        feed(app, "\rshort\r")
        await settled(app, pilot, 2)
        assert "refused" in str(app.query_one("#lines").content)

    _run(app, play)
    assert _notes(log) == ["short"]


def test_ctrl_q_right_after_enter_keeps_the_line(tmp_path: Path) -> None:
    from kifu.cli.record.tui import make_app

    log = tmp_path / "m.jsonl"
    rec = _recording(log)
    app = make_app(rec, "en")

    async def play(pilot: Any) -> None:
        feed(app, "!turn 1\rsaid just before quitting\r\x11")
        await until(pilot, lambda: not app.is_running, "the app quit")

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await play(pilot)

    asyncio.run(go())
    assert app.writer is not None
    app.writer.close()  # what kifu record does after the app: the lines queued are written
    assert [type(e).__name__ for e in logfile.load(log).events][1:] == ["TurnStarted", "Note"] or len(
        logfile.load(log).events
    ) == 3
    assert logfile.load(log).events[-1].text == "said just before quitting"


def test_the_timeline_shows_a_tosss_facing_at_80_columns_and_the_boxes_keep_their_borders(tmp_path: Path) -> None:
    from kifu.cli.record.tui import make_app

    log = tmp_path / "m.jsonl"
    app = make_app(_recording(log), "en")

    async def play(pilot: Any) -> None:
        feed(app, "".join(f"{line}\r" for line in [*OPENING, "!act a1 計略", "!cost a1 手札 1", "!toss a1 相手"]))
        await settled(app, pilot, 9)
        timeline = str(app.query_one("#timeline").content)
        assert "facing=opponent" in timeline
        for name in ("#board", "#timeline", "#findings"):
            region = app.query_one(name).region
            assert region.bottom <= app.query_one("#findings").region.y or name == "#findings"
            assert region.right <= 80

    _run(app, play)


def test_a_world_trigger_plot_is_not_shown_until_it_is_answered(tmp_path: Path) -> None:
    from kifu.cli.record.tui import make_app

    players = [{"id": "a", "name": "ヒカル"}, {"id": "b", "name": "ユキ"}]
    log = tmp_path / "w.jsonl"
    app = make_app(_recording(log, {"game": "worldtrigger", "match": "R1", "players": players}), "en")

    def screen() -> str:
        return " ".join(str(app.query_one(n).content) for n in ("#timeline", "#lines", "#preview"))

    async def play(pilot: Any) -> None:
        feed(app, "plot 2 6\r")
        await settled(app, pilot, 1)
        assert "2 6" not in screen() and "secret" in screen()
        await pilot.press("up")  # ↑ does not bring the secret back either
        assert app.input.value == ""
        feed(app, "b: block 6 5\r")
        await settled(app, pilot, 2)
        assert "plot 2 6" in screen() and "attack=[2,6]" in screen()

    _run(app, play)


def test_editing_keys_still_edit_the_line_in_the_order_typed(tmp_path: Path) -> None:
    from kifu.cli.record.tui import make_app

    log = tmp_path / "m.jsonl"
    app = make_app(_recording(log), "en")

    async def play(pilot: Any) -> None:
        # "abx", Backspace, "c", ←, ←, "Z", End, "!" then Enter: one burst, as a terminal sends it
        feed(app, "abx\x7fc\x1b[D\x1b[DZ\x1b[F!\r")
        await settled(app, pilot, 1)

    _run(app, play)
    assert _notes(log) == ["aZbc!"]


def test_the_writer_takes_lines_in_the_order_submitted_and_settles_each_once(tmp_path: Path) -> None:
    """The LineWriter alone (no screen): 300 lines, a paste and a slip submitted as fast as a loop can,
    then closed. Each line gets one final state, the log holds them once, whole, in order."""
    from kifu.app.recording import Line, LineState, LineWriter, Slip

    log = tmp_path / "m.jsonl"
    reports: list[Any] = []
    w = LineWriter(_recording(log), reports.append)
    typed = [f"line {i}" for i in range(300)]
    queued = [w.submit(t) for t in typed[:150]]
    queued += w.paste(typed[150:200])
    w.slip()
    queued += [w.submit(t) for t in typed[200:]] + [w.submit("!toss a1 sideways")]
    w.close()
    final = {r.id: r for r in reports if isinstance(r, Line) and r.state is not LineState.QUEUED}
    assert sorted(final) == [q.id for q in queued]
    assert [final[q.id].state for q in queued] == [LineState.APPENDED] * 300 + [LineState.REFUSED]
    assert [final[q.id].seqs for q in queued[:300]] == [(i + 2,) for i in range(300)]
    assert _notes(log) == typed
    slips = [r for r in reports if isinstance(r, Slip)]
    assert len(slips) == 1 and slips[0].head.seq == 201  # after the 150 lines and the paste entered before it


# --- one notation: each game's chat export typed at the table gives its import ---------------------

EXPORTS = [
    "gunandgun/卓A_コイントス版.html",
    "worldtrigger/ランク戦_chat.xml",
    "weiss/ws対戦ログ.html",
    "mtg/コイン卓.json",
]


def _fields(e: Any) -> dict[str, Any]:
    d = msgspec.to_builtins(e)
    for k in ("seq", "prev", "at", "src", "by", "speaker", "channel"):
        d.pop(k, None)
    return d


@pytest.mark.parametrize("export", EXPORTS)
def test_a_chat_export_typed_line_by_line_gives_the_imported_events_and_findings(tmp_path: Path, export: str) -> None:
    imported = logfile.load(FIXTURES / "imports" / "games" / f"{export}.kifu.jsonl")
    start = {k: v for k, v in msgspec.to_builtins(imported.start).items() if k not in ("type", "seq", "prev", "at")}
    rec = _recording(tmp_path / "m.jsonl", start)
    said: set[str] = set()
    roles = {"system": "recorder", None: "judge"}  # the client's own lines, and the judge (no player)
    for e in imported.events[1:]:
        if e.src is None or e.src.loc in said:
            continue  # one line per source message
        said.add(e.src.loc)
        text = " ".join(e.src.text.split("\n"))  # a command and its BCDice result on one line
        done = rec.enter(f"{roles.get(e.by, e.by)}: {text}")
        assert done.error is None, (text, done.error)
    assert [_fields(e) for e in rec.events] == [_fields(e) for e in imported.events]
    want = [(f.code, f.seq) for f in registry.audit(imported.events)]
    assert [(f.code, f.seq) for f in rec.slip().findings] == want and want


# --- the line-by-line mode (no terminal) -------------------------------------------------------------

SCRIPT = (
    "\n".join(
        OPENING
        + [
            "!act a1 計略",
            "!toss a1 自分",
            "!undo",
            "!foo",
            "!cost a1 手札 1",
            "!toss a1 相手",
            "!resolve a1 0",
            "!void 1",
            "b: !void 12",
        ]
    )
    + "\n"
)


def test_piped_lines_print_seqs_and_live_findings_and_refusals(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    r = kifu(
        "record",
        log,
        "-g",
        "gunandgun",
        "-m",
        "R1-T3",
        "-p",
        "a=ミナト",
        "-p",
        "b=ユキ",
        "--no-time",
        "--lang",
        "en",
        stdin=SCRIPT,
    )
    assert r.code == 2, r.err  # a line was refused
    out = r.out.splitlines()
    assert out[7].startswith("seq 9 b gg.toss") and out[8].startswith("  + GG-TOSS-001 [error] seq 9:")
    assert out[9].startswith("seq 10 recorder log.void") and out[10].startswith("  - GG-TOSS-001 [error] seq 9:")
    assert (
        r.err.strip() == "kifu: line 10: not recorded: !foo is not a command of gunandgun "
        "(known: ability, act, bullet, burn, continuous, cost, draw, effectload, end, first, fizzle, func …)"
    )
    assert any(line.startswith("  + KIFU-LOG-011 [error] seq 14:") for line in out)  # a void of match.start
    assert any(line.startswith("  + KIFU-LOG-009 [error] seq 15:") for line in out)  # a void by a player
    head = logfile.verify(log)
    assert f"         {head.hash[:16]} {head.hash[16:32]}" in out and f"--expect-head {head.hash[:16]}" in r.out
    assert not any(e.at for e in logfile.load(log).events)  # --no-time


def test_piped_lines_as_json_lines_and_the_slip_written(kifu, tmp_path: Path) -> None:
    log, slip = tmp_path / "m.jsonl", tmp_path / "m.slip.svg"
    r = kifu(
        "record",
        log,
        "-g",
        "gunandgun",
        "-m",
        "R1",
        "-p",
        "a=ミナト",
        "-p",
        "b=ユキ",
        "-f",
        "jsonl",
        "--slip",
        slip,
        "--lang",
        "ja",
        stdin="\n".join(OPENING + ["!act a1 計略", "!toss a1 自分"]) + "\n",
    )
    assert r.code == 1, r.err  # clean input, an error finding
    rows = [json.loads(line) for line in r.out.splitlines()]
    assert [row["seq"] for row in rows if "seq" in row] == list(range(2, 10))
    assert [row["added"]["code"] for row in rows if "added" in row] == ["GG-TOSS-001"]
    assert rows[-1]["slip"]["head"] == logfile.verify(log).hash and rows[-1]["slip"]["counts"]["error"] == 1
    assert all(e.at for e in logfile.load(log).events)  # stamped with the time entered
    svg = ET.fromstring(slip.read_text(encoding="utf-8"))
    assert logfile.verify(log).hash[:16] in "".join(svg.itertext())


def test_an_existing_log_is_continued_and_undo_reaches_its_last_event(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    assert kifu("record", log, "-g", "gunandgun", "-m", "R1", "-p", "a=A", "-p", "b=B", stdin="hello\n").code == 0
    r = kifu("record", log, "--lang", "en", stdin="!undo\nagain\n")
    assert r.code == 0 and "seq 3 recorder log.void" in r.out and "seq 4 a note" in r.out
    assert [e.text for e in logfile.load(log).events if type(e).__name__ == "Note"] == ["hello", "again"]


@pytest.mark.parametrize(
    "args,words",
    [
        ((), ("-g, -m and -p",)),
        (("-g", "mtg"), ("-g, -m and -p",)),
    ],
)
def test_a_new_log_needs_game_match_and_players(
    kifu, tmp_path: Path, args: tuple[str, ...], words: tuple[str, ...]
) -> None:
    r = kifu("record", tmp_path / "new.jsonl", *args, "--lang", "en", stdin="")
    assert r.code == 2 and len(r.err.splitlines()) == 1 and all(w in r.err for w in words), r.err
    assert not (tmp_path / "new.jsonl").exists()


def test_an_existing_log_of_another_match_is_refused(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    kifu("record", log, "-g", "gunandgun", "-m", "R1", "-p", "a=A", stdin="")
    r = kifu("record", log, "-g", "mtg", "-m", "R1", "-p", "a=A", "--lang", "en", stdin="")
    assert r.code == 2 and "records gunandgun match R1" in r.err


def test_a_line_appended_by_another_device_is_read_in_first(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    rec = _recording(log)
    rec.enter(OPENING[0])
    logfile.append(log, {"type": "note", "by": "b", "text": "from the other tablet"})
    done = rec.enter(OPENING[1])
    assert done.synced == 1 and [e.seq for e in done.events] == [4]
    assert logfile.verify(log) == rec.head and rec.session.finish() == registry.audit(logfile.load(log).events)


# --- the slip -----------------------------------------------------------------------------------------


def test_slip_as_text_and_svg_names_the_head_and_its_qr_code_holds_it(kifu, tmp_path: Path) -> None:
    import segno

    from kifu.cli.record.slip import qr_matrix, qr_text

    log = FIXTURES / "gunandgun" / "dispute.jsonl"
    head = logfile.verify(log).hash
    text = kifu("slip", log, "--lang", "en").out
    assert f"--expect-head {head[:16]}" in text and f"{head[:16]} {head[16:32]}" in text and "errors " in text
    svg = tmp_path / "s.svg"
    assert kifu("slip", log, "-f", "svg", "-o", svg).code == 0
    assert ET.fromstring(svg.read_text(encoding="utf-8")).tag.endswith("svg")
    want = [
        [bool(m) for m in row] for row in segno.make(head.upper(), error="m", boost_error=False).matrix_iter(border=2)
    ]
    assert qr_matrix(head) == want
    rows = qr_text(head)  # two module rows per line, read back from the half blocks
    top = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}
    back = [[bool(top[c][k]) for c in line] for line in rows for k in (0, 1)][: len(want)]
    assert back == want and any(line in text for line in rows[3:5])


def test_the_qr_code_on_a_terminal_sets_its_own_colours_and_draws_its_quiet_zone() -> None:
    """On a dark terminal, blocks drawn in the terminal's own colours come out inverted (zbar read
    none); the terminal's code draws the light modules in white on black, quiet zone included."""
    from kifu.cli.record.slip import QUIET, qr_matrix, qr_styled

    head = logfile.verify(FIXTURES / "gunandgun" / "dispute.jsonl").hash
    t = qr_styled(head, QUIET)
    rows = t.plain.splitlines()
    want = qr_matrix(head, QUIET)
    light = {"█": (0, 0), "▀": (0, 1), "▄": (1, 0), " ": (1, 1)}  # (top, bottom) dark
    back = [[bool(light[c][k]) for c in line] for line in rows for k in (0, 1)][: len(want)]
    assert back == want
    assert {str(span.style) for span in t.spans} == {"#ffffff on #000000"}
    assert all(line.startswith("█" * QUIET) and line.endswith("█" * QUIET) for line in rows)  # never trimmed


# --- the notation at the table ---------------------------------------------------------------------------


def _table(game: str = "gunandgun") -> Table:
    from kifu.events import table
    from kifu.events.base import MatchStarted

    start = msgspec.convert(
        {
            "type": "match.start",
            "seq": 1,
            "prev": None,
            "format": "kifu/1",
            "game": game,
            "match": "x",
            "players": PLAYERS,
        },
        MatchStarted,
    )
    return Table(start, table.codec(game), importers.game_map(game))


def test_a_speaker_prefix_sticks_for_players_and_not_for_roles() -> None:
    t = _table()
    r = t.read("ユキ: !turn 1", 2)
    assert r.events[0]["by"] == "b" and r.speaker == "b"
    t.commit(r, [2])
    assert t.read("!turn 2", 3).events[0]["by"] == "b"
    r = t.read("judge: 時間です", 3)
    assert r.events[0]["by"] == "judge" and r.speaker == "b"
    assert t.read("recorder: !void 2", 3).events[0]["by"] == "recorder"
    assert t.read("!void 2 typo", 3).events[0] == {"type": "log.void", "about": [2], "reason": "typo", "by": "recorder"}
    assert t.read("!void 2-4, 7 wrong player", 9).events[0]["about"] == [2, 3, 4, 7]
    assert t.read("!void wrong", 3).error is not None


def test_an_unknown_speaker_prefix_before_a_command_is_refused_naming_the_speakers() -> None:
    t = _table()
    r = t.read("zz: !turnend", 2)
    assert str(r.error) == "zz is not a speaker here (a ミナト, b ユキ, judge, recorder)" and not r.events
    r = t.read("zz: plain table talk", 2)  # talk stays a note of the current speaker, with a hint
    assert r.events[0] == {"type": "note", "by": "a", "text": "zz: plain table talk"} and "zz" in str(r.hint)
    assert t.read("12:30 !turnend", 2).events[0]["type"] == "note"  # a time, not a speaker: talk
    assert t.read("ユキ: !turn 2", 2).error is None


def test_undo_restores_what_the_mapping_remembered_before_the_line() -> None:
    t = _table()
    for seq, line in enumerate(["b: !act a1 計略", "!act a2 計略"], 2):
        t.commit(t.read(line, seq), [seq])
    undo = t.read("!undo", 4)
    assert undo.events[0]["about"] == [3] and undo.events[0]["reason"] == "undo: !act a2 計略"
    t.commit(undo, [4])
    assert (
        t.read("CHOICE[自分,相手] (choice[自分,相手]) ＞ 自分", 5).events[0]["act"] == "a1"
    )  # the roll goes to a1 again


def test_refusals_name_the_problem_and_a_bare_command_word_gets_a_hint() -> None:
    t = _table()
    assert t.read("!toss a1 sideways", 2).error == "gg.toss: field facing: Invalid value 'sideways'"
    assert "not a command of gunandgun" in str(t.read("!nosuch", 2).error)
    assert t.read("!undo", 2).error is not None  # nothing recorded yet
    r = t.read("toss a1 自分", 2)
    assert r.events[0]["type"] == "note" and str(r.hint) == "recorded as a note; the command is !toss"
    wt = _table("worldtrigger")
    assert "plot" in str(wt.read("block 3 4", 2).error)  # a block with no plot before it
    assert wt.read("!build 弧月 旋空 / シールド", 2).events[0]["type"] == "wt.build"  # a pattern, not a command


def test_completion_offers_commands_speakers_players_and_catalogue_names() -> None:
    t = _table()
    assert t.complete("!to") == ("", ["!toss"])
    assert t.complete("ユ") == ("", ["ユキ:"])
    assert t.complete("b: !turne") == ("b: ", ["!turnend"])
    assert t.complete("!first ユ")[1][0] == "ユキ"
    assert "重量" in t.complete("!first ユキ ")[1]


def test_an_undo_the_audit_refuses_leaves_the_line_to_undo_again(tmp_path: Path) -> None:
    rec = _recording(tmp_path / "m.jsonl", {"game": "generic", "match": "g1", "players": PLAYERS})
    rec.enter("hello")
    refused = rec.enter("a: !undo")  # a player's void takes nothing back
    assert [f.code for f in refused.added] == ["KIFU-LOG-009"] and rec.session.voided == {}
    done = rec.enter("!undo")
    assert done.events[0].about == [2] and done.events[0].by == "recorder" and rec.session.voided == {2: 4}
    assert str(rec.enter("!undo").error) == "nothing to undo: every line recorded is voided already"
