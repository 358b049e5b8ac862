"""A command imports what its own path needs: its command group, never another's (issue 27, cold start).

How long a cold start takes is measured by ``bench/bench_cold.py``, never here; these tests check
what is imported, which is the same on any machine.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES

from kifu import cli

ROOT = Path(__file__).resolve().parent.parent


def test_the_table_of_groups_names_every_command_of_its_module() -> None:
    import importlib

    for group, commands in cli.GROUPS.items():
        app = importlib.import_module(f"kifu.cli.{group}").app
        names = [c.name or c.callback.__name__ for c in app.registered_commands]
        names += [g.name or g.typer_instance.info.name for g in app.registered_groups]
        assert tuple(names) == commands, group


def _modules_after(*args: str, every: bool = False) -> set[str]:
    """The kifu modules (``every``: all modules) loaded once ``kifu ARGS`` has run (its exit code is its own)."""
    shown = "True" if every else "m.startswith(('kifu', 'duckdb', 'textual'))"
    code = (
        "import sys\nfrom kifu.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        f"found = sorted(m for m in sys.modules if {shown})\nimport json\nprint(json.dumps(found))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


@pytest.mark.parametrize(("command", "group"), [("verify", "log"), ("audit", "audit")])
def test_verify_and_audit_load_their_own_group_only(command: str, group: str) -> None:
    log = str(FIXTURES / "gunandgun" / "dispute.jsonl")
    # Their plain forms load no command group at all (kifu.cli.plain; tests/test_plain_forms.py) ...
    loaded = _modules_after(command, log)
    assert not {m for m in loaded if m.startswith("kifu.cli.") and m.split(".")[2] in cli.GROUPS}
    assert not any(m.startswith(("duckdb", "textual", "kifu.warehouse")) for m in loaded)
    # ... and read by typer (an option the plain forms leave to it), their own group only.
    loaded = _modules_after(command, log, "--help")
    groups = {m.split(".")[2] for m in loaded if m.startswith("kifu.cli.") and m.split(".")[2] in cli.GROUPS}
    # kifu append's --toss options are the toss group's (log.py imports them from there)
    assert group in groups and groups <= {group, "toss"}, groups
    assert not any(m.startswith(("duckdb", "textual", "kifu.warehouse")) for m in loaded)


def test_help_still_lists_every_command(kifu) -> None:
    r = kifu("--help")
    assert r.code == 0
    for commands in cli.GROUPS.values():
        for command in commands:
            assert command in r.out, command


NEVER_AT_START = ("multiprocessing", "concurrent", "typer", "click", "html", "json", "secrets", "shutil", "dataclasses")
"""Modules a plain ``kifu verify`` or ``kifu audit`` of one log has no use for: workers (one log, one process),
the command line's other reader, what only a page, a writer or an error message needs, and ``dataclasses`` (the
classes on their path are msgspec Structs: a dataclass compiles its methods as its class is made; issue 27)."""


@pytest.mark.parametrize("command", ["verify", "audit"])
def test_a_plain_verify_or_audit_of_one_log_loads_its_own_game_only(command: str) -> None:
    """What a cold start imports is what the command's path needs: the log's own game, not the others'; no worker
    pool, nor what only other paths use. (Their cost is measured by bench/bench_cold.py, never here.)"""
    loaded = _modules_after(command, str(FIXTURES / "mtg" / "match-clean.jsonl"), every=True)
    assert not {m for m in loaded if m.split(".")[0] in NEVER_AT_START}
    games = {m.split(".")[2] for m in loaded if m.startswith("kifu.games.") and m.count(".") >= 2}
    assert games == {"mtg"}
    assert not any(m.startswith("kifu.auditor.page") for m in loaded)
    rules = {m for m in loaded if m.startswith("kifu.games.mtg.rules")}
    assert bool(rules) == (command == "audit")  # verify counts random outcomes without loading a rule


@pytest.mark.parametrize("game", ["generic", "gunandgun", "mtg", "weiss", "worldtrigger"])
def test_the_types_whose_depth_is_measured_hold_every_free_form_one(game: str) -> None:
    """``Codec.free``, read from the annotations as written, holds every type msgspec resolves as unbounded."""
    import msgspec.inspect

    from kifu.events import codec as codec_module
    from kifu.events import table

    codec = table.require(game)
    exact = {t for t in codec.types if codec_module._unbounded(msgspec.inspect.type_info(t))}
    assert exact <= codec.free
    assert len(codec.free) <= len(exact) + 1  # a typed dict (Weiss's board) is measured too, nothing much else
