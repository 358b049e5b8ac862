"""`kifu/projector/` and `kifu/auditor/` do no I/O (DESIGN.md, STYLE.md convention 2).

Checked on the source with ``ast`` so that every module of every game is
covered, including code paths no test runs: no import of a module that reads
files, the clock, randomness, the environment or the network, no ``open`` /
``print`` / ``input``, and no ``now()`` / ``today()`` (parsing times with
``datetime`` is fine). Card data may still come through the events layer's
catalogue loader, which is why ``kifu.events`` itself is allowed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import ROOT

PURE_PACKAGES = ("kifu/projector", "kifu/auditor")
PURE_GAME_PARTS = ("projection.py", "rules", "game.py", "charts.py", "board.py")
"""Each game's part of the projector and auditor layers (kifu/games/<id>/), its board drawing included."""
IO_MODULES = {
    "os",
    "sys",
    "io",
    "pathlib",
    "shutil",
    "tempfile",
    "glob",
    "fcntl",
    "mmap",
    "subprocess",
    "socket",
    "select",
    "signal",
    "threading",
    "multiprocessing",
    "asyncio",
    "time",
    "random",
    "secrets",
    "uuid",
    "logging",
    "urllib",
    "http",
    "requests",
    "sqlite3",
    "duckdb",
    "pickle",
    "shelve",
    "csv",
    "builtins",
    "importlib",
    "typer",
    "rich",
}
IO_KIFU_MODULES = {"kifu.events.logfile", "kifu.warehouse", "kifu.events.importers", "kifu.cli"}
IO_CALLS = {"open", "print", "input", "breakpoint", "exec", "eval", "__import__"}
CLOCK_ATTRS = {"now", "utcnow", "today", "fromtimestamp", "utcfromtimestamp"}


def _modules() -> list[Path]:
    games = [ROOT / "kifu/games" / g / part for g in _games() for part in PURE_GAME_PARTS]
    found = [p for pkg in PURE_PACKAGES for p in (ROOT / pkg).rglob("*.py")]
    found += [p for g in games if g.is_file() for p in [g]] + [p for g in games if g.is_dir() for p in g.rglob("*.py")]
    return sorted(found)


def _games() -> list[str]:
    from kifu.games import GAMES

    return list(GAMES)


def _absolute(node: ast.ImportFrom, path: Path) -> str:
    if not node.level:
        return node.module or ""
    package = list(path.relative_to(ROOT).with_suffix("").parts[:-1])
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imported(tree: ast.AST, path: Path) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, path)
            out += [(node.lineno, f"{base}.{a.name}") for a in node.names] + [(node.lineno, base)]
    return out


def _io_import(name: str) -> bool:
    if name.split(".")[0] in IO_MODULES:
        return True
    return any(name == m or name.startswith(m + ".") for m in IO_KIFU_MODULES)


def violations(source: str, path: Path) -> list[str]:
    """What in ``source`` (read as the module at ``path``) does I/O, one line each."""
    tree = ast.parse(source, str(path))
    found = [f"{line}: imports {name}" for line, name in _imported(tree, path) if _io_import(name)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in IO_CALLS:
            found.append(f"{node.lineno}: calls {node.func.id}()")
        if isinstance(node, ast.Attribute) and node.attr in CLOCK_ATTRS:
            found.append(f"{node.lineno}: reads the clock (.{node.attr})")
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_module_does_no_io(path: Path) -> None:
    assert violations(path.read_text(encoding="utf-8"), path) == []


def test_the_checker_catches_io() -> None:
    """The check itself works: a probe module full of I/O is caught line by line."""
    source = (
        "import os\nfrom pathlib import Path\nfrom ..events import logfile\nfrom datetime import datetime\n"
        "import time as t\nx = datetime.now()\nprint(open('f').read())\n"
    )
    found = violations(source, ROOT / "kifu" / "auditor" / "probe.py")
    assert sorted(found) == sorted(
        [
            "1: imports os",
            "2: imports pathlib.Path",
            "2: imports pathlib",
            "3: imports kifu.events.logfile",
            "5: imports time",
            "6: reads the clock (.now)",
            "7: calls print()",
            "7: calls open()",
        ]
    )
