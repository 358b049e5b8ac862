"""The CLI's error contract (DESIGN.md contract 5): a log that cannot be trusted
or a bad input is one clear line on stderr and exit 2, never a traceback; every
command documents an example; `kifu verify` never imports DuckDB.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, ROOT

TABLE = FIXTURES / "core" / "table.jsonl"
START = TABLE.read_bytes().split(b"\n", 1)[0]
SECOND = TABLE.read_bytes().split(b"\n")[1]

BAD_LOGS: dict[str, tuple[bytes | None, tuple[str, ...]]] = {
    # name: (file content, or None for no file; words the error line must contain)
    "invalid-json": (START + b'\n{"type":"note",\n', (":2:", "seq 2", "not JSON")),
    "unknown-type": (
        START + b"\n" + SECOND.replace(b'"note"', b'"gg.nosuch"') + b"\n",
        (":2:", "seq 2", "field type", "unknown event type 'gg.nosuch'"),
    ),
    "string-for-int": (
        START + b"\n" + SECOND.replace(b'"seq":2', b'"seq":"2"') + b"\n",
        (":2:", "field seq", "Expected `int`, got `str`"),
    ),
    "no-match-start": (SECOND + b"\n", (":1:", "field type", "must be match.start")),
    "binary-garbage": (bytes(range(256)) * 4 + b"\n", (":1:", "not JSON")),
    "empty-file": (b"", (":1:", "empty log")),
    "missing-file": (None, ("cannot read", "No such file")),
    "unknown-field": (
        START + b"\n" + SECOND.replace(b'"text"', b'"txet"') + b"\n",
        (":2:", "seq 2", "field txet", "unknown field"),
    ),
    "bad-literal": (
        START.replace(b'"format":"kifu/1"', b'"format":"kifu/9"') + b"\n",
        (":1:", "field format", "kifu/9"),
    ),
    "unknown-game": (START.replace(b'"game":"generic"', b'"game":"chess"') + b"\n", (":1:", "field game", "chess")),
    "not-utf8": (START + b"\n" + SECOND.replace("先攻".encode(), b"\xff\xfe") + b"\n", (":2:", "seq 2")),
    "blank-line": (START + b"\n\n" + SECOND + b"\n", (":2:", "empty line")),
}

COMMANDS = (("verify",), ("audit",), ("audit", "-f", "json"), ("state",), ("state", "--at", "1"), ("show",))


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("case", sorted(BAD_LOGS))
def test_bad_log_is_one_clear_line_and_exit_2(kifu, tmp_path: Path, case: str, command: tuple[str, ...]) -> None:
    content, words = BAD_LOGS[case]
    log = tmp_path / f"{case}.jsonl"
    if content is not None:
        log.write_bytes(content)
    r = kifu(command[0], log, *command[1:])
    assert r.code == 2, (r.code, r.out, r.err)
    assert r.out == ""
    lines = r.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in r.err, r.err
    assert lines[0].startswith(f"kifu: error: {log}"), lines[0]
    for word in words:
        assert word in lines[0], (word, lines[0])


@pytest.mark.parametrize(
    "args,words",
    [
        (("state", TABLE, "--at", "99"), ("--at 99", "1..7")),
        (("rules", "KIFU-NOPE-001"), ("KIFU-NOPE-001",)),
        (("schema", "-g", "chess"), ("chess",)),
        (("rules", "-g", "chess"), ("chess",)),
        (("append", TABLE, "--json", "{not json"), ("not JSON",)),
        (("append", TABLE, "--json", "[1,2]"), ("JSON object",)),
        (("append", TABLE, "novalue"), ("key=value", "novalue")),
        (("verify", TABLE, "--expect-head", "xyz"), ("12 hex digits",)),
    ],
    ids=lambda v: v[0] if isinstance(v, tuple) and isinstance(v[0], str) else None,
)
def test_usage_errors_are_one_line(kifu, args, words) -> None:
    r = kifu(*args, "--lang", "en")
    assert r.code == 2, (r.code, r.out, r.err)
    lines = r.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in r.err, r.err
    for word in words:
        assert word in lines[0], lines[0]


def test_append_of_an_invalid_event_names_the_field_and_writes_nothing(kifu, tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    log.write_bytes(TABLE.read_bytes())
    r = kifu("append", log, "--json", '{"type":"random","kind":"coin","sides":"two","values":[1]}')
    assert r.code == 2 and "field sides" in r.err and len(r.err.splitlines()) == 1, r.err
    r = kifu(
        "append", log, "--json", '{"type":"match.start","format":"kifu/1","game":"generic","match":"x","players":[]}'
    )
    assert r.code == 2 and "exactly one match.start" in r.err, r.err
    assert log.read_bytes() == TABLE.read_bytes()


def _commands() -> list[str]:
    """Every command as typed, subcommands included (``stats fairness``)."""
    import typer.main

    from kifu.cli import app

    def walk(cmd: Any, prefix: str) -> list[str]:
        if hasattr(cmd, "commands"):
            return [n for name, sub in cmd.commands.items() for n in walk(sub, f"{prefix} {name}".strip())]
        return [prefix]

    return sorted(walk(typer.main.get_command(app), ""))


@pytest.mark.parametrize("command", _commands())
def test_every_command_help_has_an_example(kifu, command: str) -> None:
    r = kifu(*command.split(), "--help")
    assert r.code == 0, r.err
    assert "Example" in r.out, r.out


def test_commands_are_all_there() -> None:
    assert {"new", "append", "verify", "repair", "show", "state", "audit", "rules", "schema"} <= set(_commands())


def _imported_modules(*args: str) -> set[str]:
    r = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "kifu", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    return {line.split("|")[-1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}


def test_verify_does_not_import_duckdb() -> None:
    mods = _imported_modules("verify", str(TABLE))
    assert "kifu.events.logfile" in mods  # the check sees the command's own imports
    assert not {m for m in mods if m.split(".")[0] == "duckdb"}


def test_audit_does_not_import_duckdb() -> None:
    mods = _imported_modules("audit", str(TABLE))
    assert "kifu.auditor.registry" in mods
    assert not {m for m in mods if m.split(".")[0] == "duckdb"}


@pytest.mark.parametrize(
    "command", [("audit", str(TABLE)), ("verify", str(TABLE)), ("show", str(TABLE)), ("--help",)], ids=" ".join
)
def test_commands_other_than_record_do_not_import_textual_or_segno(command: tuple[str, ...]) -> None:
    mods = _imported_modules(*command)
    # a command loads its own group only (kifu.cli.GROUPS): kifu --help loads them all, record's among them
    assert not {m for m in mods if m.split(".")[0] in ("textual", "segno")}
