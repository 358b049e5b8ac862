"""Imports point down the layers and never go round in a circle (pyproject.toml, ``[tool.importlinter]``).

The layers, top to bottom: ``cli`` → ``warehouse`` → ``app`` → ``games`` → ``auditor`` →
``projector`` → ``events``. A lower layer receives the games through the game table
(``kifu.events.table``, filled at the top) instead of importing them. The benchmarks are
callers like the command line: they use the API, never the command line's modules.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT


def test_the_import_contracts_hold() -> None:
    pytest.importorskip("importlinter")
    linter = Path(sys.executable).with_name("lint-imports")
    cmd = (
        [str(linter)]
        if linter.exists()
        else [sys.executable, "-c", "import importlinter.cli as c; c.lint_imports_command()"]
    )
    run = subprocess.run(
        [*cmd, "--no-cache", "--config", str(ROOT / "pyproject.toml")],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "Imports point down the layers KEPT" in run.stdout
    assert "No import circle between the modules of a game, a layer or a package KEPT" in run.stdout


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return found


@pytest.mark.parametrize("folder", ["bench", "kifu/warehouse", "kifu/app"])
def test_no_caller_below_the_command_line_imports_it(folder: str) -> None:
    files = sorted((ROOT / folder).rglob("*.py"))
    into_cli = {
        str(p.relative_to(ROOT)): sorted(m for m in _imports(p) if m.split(".")[:2] == ["kifu", "cli"]) for p in files
    }
    assert files and not {p: mods for p, mods in into_cli.items() if mods}
