"""Shared helpers: run the CLI in-process and capture exit code, stdout and stderr."""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


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


from hypothesis import HealthCheck, settings  # noqa: E402

# CI explores the same examples every run (derandomize): a submission lands or not on its own merits,
# never on the luck of the draw; `--hypothesis-profile=dev` explores new ones, many more of them.
settings.register_profile(
    "ci", max_examples=40, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("dev", max_examples=200, deadline=None)
settings.load_profile("ci")
