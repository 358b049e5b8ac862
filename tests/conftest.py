"""Shared helpers: run the CLI in-process and capture exit code, stdout and stderr."""

from __future__ import annotations

import io
import os
import signal
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

# A local Dask cluster (tests/test_cluster.py) gives its workers 30 s to start and connect: on a busy
# machine that is a race the test did not mean to run. Waiting as long as they need (the workers
# inherit this) leaves only the test's own assertions to fail.
for _name in ("CONNECT", "TCP"):
    os.environ.setdefault(f"DASK_DISTRIBUTED__COMM__TIMEOUTS__{_name}", "600s")


def game_map(game: str) -> Path:
    """The mapping file a game ships (its chat notation, docs/notation.md)."""
    return ROOT / "kifu" / "games" / game / "mapping.toml"


@dataclass
class Run:
    code: int
    out: str
    err: str


def run_cli(*args: str, stdin: str | None = None) -> Run:
    """Run `kifu ARGS` in this process, as the console script would."""
    from kifu.cli import main

    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    finally:
        sys.stdin = old_stdin
    return Run(code, out.getvalue(), err.getvalue())


@pytest.fixture
def kifu():
    return run_cli


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first: started early, they end while the other worker is still busy with the
    rest, instead of one of them running alone at the end of the run."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


from hypothesis import HealthCheck, settings  # noqa: E402

# CI explores the same examples every run (derandomize): a submission lands or not on its own merits,
# never on the luck of the draw. No deadline in any profile: a property test's size is bounded by its
# examples, never by time, so a busy machine fails nothing.
settings.register_profile(
    "ci",
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# New examples, many more of them: `--hypothesis-profile=long` or KIFU_HYPOTHESIS=long.
settings.register_profile(
    "long", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
# The fuzz targets for long (tests/test_fuzz.py; docs/hacking.md): `pytest tests/test_fuzz.py --hypothesis-profile=fuzz`.
settings.register_profile(
    "fuzz", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.load_profile(os.environ.get("KIFU_HYPOTHESIS", "ci"))


@pytest.fixture
def install_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Add a game from source files, the way docs/hacking.md says: its folder plus one registry line.

    ``install_game("toy", {"events.py": ..., "game.py": ...})`` writes the folder
    ``<tmp>/games/toy/`` and puts it where ``kifu.games`` looks (its package path), then
    appends ``"toy"`` to ``kifu.games.GAMES`` for the test's duration.
    """
    import kifu.games

    root = tmp_path / "games"
    installed: list[str] = []

    def install(game_id: str, files: dict[str, str]) -> Path:
        folder = root / game_id
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text(f'"""{game_id}: a game installed by a test."""\n', encoding="utf-8")
        for name, text in files.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
        if str(root) not in kifu.games.__path__:
            monkeypatch.setattr(kifu.games, "__path__", [*kifu.games.__path__, str(root)])
        monkeypatch.setattr(kifu.games, "GAMES", (*kifu.games.GAMES, game_id))
        kifu.games.register()  # the game table, and everything worked out from it, anew
        installed.append(game_id)
        return folder

    yield install
    for game_id in installed:
        for name in [m for m in sys.modules if m == f"kifu.games.{game_id}" or m.startswith(f"kifu.games.{game_id}.")]:
            del sys.modules[name]
    monkeypatch.undo()
    kifu.games.register()


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C reaches the commands the tests start, however the suite itself was started.

    A script that starts the suite in the background (``python -m pytest &`` with no job control, as CI
    runners and nohup do) hands it SIGINT ignored, and every process it starts inherits that: the tests
    that press Ctrl-C (``kifu sql``, ``kifu append --toss`` in a terminal, ``kifu record``) would then
    wait for a child that never hears it. A handler set here is reset to the default in each child at
    exec, so each Python child turns Ctrl-C into KeyboardInterrupt as it would at a user's terminal.
    """
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
