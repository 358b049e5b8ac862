"""Nothing from a log reaches a terminal raw (issue 32, defect 10; kifu/events/display.py).

The reproducer: an activation id in a log held a cursor-up, an erase-line and the words
"no findings"; on a terminal `kifu audit` erased its own GG-TOSS-001 line and showed
the forged verdict. show, slip (a clipboard escape), people and stats passed such
strings through too. Here a log whose every string a person may see (player names,
ids, notes, the title) holds control, C1 and bidi characters, and every human-readable
output of every command that shows it is checked: nothing of those characters is left,
each is shown as ``[U+001B]``; the finding line is whole; JSON output still decodes to
the very strings of the log.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT

from kifu.events import display, logfile

SPOOF = "\x1b[1A\r\x1b[2K\x08no findings\x1b[8m"
"""Cursor up, back to the line's start, erase it, a backspace, kifu's own words, then hide what follows."""
HOSTILE = "Aoi" + SPOOF + "\x9b31m\u202eevil\u2066\x07\x1b]52;c;aGVsbG8=\x07\nno findings\u2028x"
"""Also a C1 CSI, a right-to-left override, an isolate, a bell, a clipboard write (OSC 52) and a new line."""
BAD = set("\x1b\x08\x07\x9b\u202e\u2066\u2028")


def _raw(text: str) -> set[str]:
    """The hostile characters left in an output (a CR, which a terminal's own line ends hold, aside)."""
    return {c for c in text if c in BAD}


def _hostile_gg(path: Path) -> Path:
    """GG-TOSS-001's bad fixture, the activation id and a player's name made hostile (the chain made again)."""
    lines = (FIXTURES / "gunandgun" / "rules" / "GG-TOSS-001" / "bad.jsonl").read_text(encoding="utf-8").splitlines()
    start = json.loads(lines[0])
    start["players"][0]["name"] = HOSTILE
    start["title"] = HOSTILE
    events = []
    for line in lines[1:]:
        e = json.loads(line)
        if e.get("act") == "a1":
            e["act"] = "a1" + SPOOF
        events.append({k: v for k, v in e.items() if k not in ("seq", "prev")})
    logfile.write_new(path, {k: v for k, v in start.items() if k not in ("type", "seq", "prev")}, events)
    return path


def _hostile_generic(path: Path, match: str = "hostile") -> Path:
    logfile.write_new(
        path,
        {
            "game": "generic",
            "match": match,
            "title": HOSTILE,
            "at": "2026-03-01T10:00:00Z",
            "players": [{"id": "a", "name": HOSTILE, "key": "k:" + HOSTILE}, {"id": "b", "name": "Ren"}],
        },
        [
            {"type": "note", "by": "a", "text": HOSTILE},
            {"type": "random", "by": "a", "kind": "coin", "sides": 2, "values": [1], "result": HOSTILE},
            {"type": "match.end", "winner": "a", "reason": HOSTILE},
        ],
    )
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("hostile")
    return {"gg": _hostile_gg(folder / "gg.jsonl"), "generic": _hostile_generic(folder / "generic.jsonl")}


@pytest.fixture(scope="module")
def warehouse(logs, tmp_path_factory) -> Path:
    from conftest import run_cli

    db = tmp_path_factory.mktemp("wh") / "w.duckdb"
    assert run_cli("ingest", logs["gg"], logs["generic"], "--db", db, "--jobs", "1").code == 0
    return db


def test_the_escaping_shows_every_character_and_keeps_json_lossless() -> None:
    shown = display.visible(HOSTILE)
    assert not _raw(shown) and "[U+001B]" in shown and "[U+202E]" in shown and "\n" in shown
    assert "\n" not in display.visible(HOSTILE, lines=False) and display.visible(shown) == shown
    text = json.dumps({"name": HOSTILE}, ensure_ascii=False)
    assert not _raw(display.json_safe(text)) and json.loads(display.json_safe(text)) == {"name": HOSTILE}


def test_audit_on_a_terminal_keeps_its_finding_line(logs) -> None:
    """The reproducer, on a real pseudo-terminal: the GG-TOSS-001 line is there, whole, and nothing forged."""
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "kifu", "audit", str(logs["gg"])],
        env={**os.environ, "PYTHONPATH": str(ROOT), "KIFU_LANG": "en", "COLUMNS": "200"},
        encoding="utf-8",
        timeout=600,  # a hang guard: the test waits for the output itself
    )
    out = child.read()
    child.close()
    assert child.exitstatus == 1, out
    assert not _raw(out), sorted(map(hex, map(ord, _raw(out))))
    lines = [line for line in out.split("\r\n") if line]
    finding = [line for line in lines if "GG-TOSS-001" in line]
    assert len(finding) == 1 and "[U+001B][1A" in finding[0] and "[U+000D]" in finding[0], lines
    assert lines[-1] == "error 1", lines


LOG_COMMANDS = {
    "audit": ("audit", "{gg}"),
    "audit-md": ("audit", "{gg}", "-f", "md"),
    "audit-all": ("audit", "{gg}", "--all"),
    "show": ("show", "{generic}"),
    "show-md": ("show", "{generic}", "-f", "md"),
    "show-gg": ("show", "{gg}"),
    "state": ("state", "{gg}"),
    "state-flat": ("state", "{gg}", "--flat"),
    "verify": ("verify", "{generic}"),
    "slip": ("slip", "{generic}"),
    "slip-gg": ("slip", "{gg}"),
    "people": ("people", "--db", "{db}"),
    "people-merge": ("people", "--db", "{db}", "--merge"),
    "people-md": ("people", "--db", "{db}", "-f", "md"),
    "stats-winrate": ("stats", "winrate", "--db", "{db}"),
    "stats-fairness": ("stats", "fairness", "--db", "{db}"),
    "sql": ("sql", "SELECT title, players FROM matches", "--db", "{db}"),
    "sql-md": ("sql", "SELECT line FROM events", "--db", "{db}", "-f", "md"),
}


@pytest.mark.parametrize("name", sorted(LOG_COMMANDS))
def test_no_text_output_holds_a_raw_control_character(kifu, logs, warehouse, name: str) -> None:
    args = [a.format(gg=logs["gg"], generic=logs["generic"], db=warehouse) for a in LOG_COMMANDS[name]]
    r = kifu(*args)
    assert r.code in (0, 1), (r.code, r.err)
    assert not _raw(r.out) and not _raw(r.err), (sorted(map(hex, map(ord, _raw(r.out + r.err)))), r.out[-500:])
    # Shown, never dropped (a line of the log in a cell holds its JSON escapes; verify and the stats show no name).
    assert "[U+001B]" in r.out or "\\u001b" in r.out or name in ("verify", "stats-fairness"), r.out[-2000:]


@pytest.mark.parametrize(
    "args",
    [
        ("audit", "{gg}", "-f", "json"),
        ("show", "{generic}", "-f", "json"),
        ("state", "{gg}"),
        ("people", "--db", "{db}", "-f", "json"),
        ("sql", "SELECT title FROM matches ORDER BY title", "--db", "{db}", "-f", "json"),
    ],
    ids=lambda a: "-".join(a[:1]),
)
def test_json_output_is_escaped_and_decodes_to_the_log_s_strings(kifu, logs, warehouse, args) -> None:
    r = kifu(*[a.format(gg=logs["gg"], generic=logs["generic"], db=warehouse) for a in args])
    assert r.code in (0, 1), r.err
    assert not _raw(r.out), sorted(map(hex, map(ord, _raw(r.out))))
    inner = json.dumps(SPOOF)[1:-1]  # show's detail column is the event's own JSON, a string in the output's
    assert any(SPOOF in s or inner in s for s in _strings(json.loads(r.out))), r.out[:2000]


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_an_error_naming_a_hostile_value_is_one_line(tmp_path: Path, kifu, logs) -> None:
    bad = tmp_path / "bad.jsonl"
    lines = logs["generic"].read_bytes().splitlines(keepends=True)
    bad.write_bytes(lines[0] + lines[1].replace(b'"by":"a"', b'"by":"a","by":"b"'))
    log = tmp_path / ("m" + SPOOF.replace("/", "") + ".jsonl")
    log.write_bytes(bad.read_bytes())
    r = kifu("verify", log)
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and not _raw(r.err), r.err


def test_an_import_report_shows_a_chat_line_escaped(tmp_path: Path, kifu) -> None:
    body = f"[01-Mar-25 08:01 PM] Aoi\n(1D6) ＞ {SPOOF} ＞ x\n\n[01-Mar-25 08:02 PM] {SPOOF}\nhello\n\n"
    (tmp_path / "chat.txt").write_text(
        "=" * 62 + "\nGuild: t\nChannel: g\n" + "=" * 62 + "\n\n" + body, encoding="utf-8"
    )
    r = kifu("import", tmp_path / "chat.txt", "-o", tmp_path / "m.jsonl")
    assert r.code == 0, r.err
    assert not _raw(r.err) and "[U+001B]" in r.err, r.err


def test_the_recorder_s_lines_are_escaped(tmp_path: Path, kifu) -> None:
    log = tmp_path / "m.jsonl"
    assert kifu("new", log, "-g", "generic", "-m", "x", "-p", "a=Aoi", "-p", "b=Ren").code == 0
    r = kifu("record", log, stdin=f"a: {SPOOF}\n!undo\n")
    assert not _raw(r.out) and not _raw(r.err), (r.out, r.err)


def test_every_command_prints_through_the_one_door() -> None:
    """``kifu.cli.common.echo`` (display.visible) is the only writer of a command's text: a new print
    point that bypasses it is caught here, not by a log that spoofs a terminal."""
    import re

    found = []
    for path in sorted((ROOT / "kifu" / "cli").rglob("*.py")):
        if path.name == "common.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\btyper\.echo\(|(?<![.\w])print\(|sys\.std(out|err)\.write\(", line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, found
