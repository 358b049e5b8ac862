"""Every generated folder is what its generator writes: fixtures/ and tests/acceptance/ are regenerated and compared.

Fixture logs are never written by hand (docs/hacking.md): each folder's ``make*.py``
writes them with the library. Here each generator runs on a copy of its folder with
its generated files removed (the ``*.jsonl`` logs and the expectations beside them;
hand-written inputs such as mapping files and exports stay), in a fresh interpreter,
and the copy must come out byte for byte equal to what is committed: a change to a
generator, to the codec or to a rule's verdict that the committed files do not follow
fails here.
"""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

GENERATORS = sorted([*ROOT.glob("fixtures/*/make*.py"), *ROOT.glob("tests/acceptance/*/make.py")])
GENERATED = ("*.jsonl", "expected.json", "cases.json")
"""What a generator writes (and is therefore removed before it runs)."""
HAND_WRITTEN = {"tests/acceptance/imports": {"cases.json"}}
"""Files of a generated folder that a person writes: the import checker's expectations."""


NO_FSYNC = """
import os, runpy, sys
os.fsync = lambda fd: None
sys.argv = sys.argv[1:]
sys.path[0] = os.path.dirname(sys.argv[0])
runpy.run_path(sys.argv[0], run_name="__main__")
"""
"""Runs a generator as ``python SCRIPT`` does, without fsync: the generators append event by event as a
client does, durably, and the fsyncs (tens of seconds on a busy disk) change no byte of what they write."""


def _tree(root: Path) -> dict[str, Path]:
    return {p.relative_to(root).as_posix(): p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


@pytest.mark.slow
@pytest.mark.parametrize("script", GENERATORS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_committed_files_are_what_the_generator_writes(script: Path, tmp_path: Path) -> None:
    folder = script.parent
    copy = tmp_path / folder.relative_to(ROOT)
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("__pycache__"))
    siblings = [s for s in folder.glob("make*.py") if s != script]
    keep = HAND_WRITTEN.get(folder.relative_to(ROOT).as_posix(), set())
    if not siblings:  # a folder with two generators keeps the other's files; each checks its own run
        for pattern in GENERATED:
            for p in copy.rglob(pattern):
                if p.relative_to(copy).as_posix() not in keep:
                    p.unlink()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}
    run = subprocess.run(
        [sys.executable, "-c", NO_FSYNC, str(copy / script.name)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    want, got = _tree(folder), _tree(copy)
    assert sorted(got) == sorted(want), (sorted(set(got) ^ set(want)))[:20]
    differ = [name for name in want if not filecmp.cmp(want[name], got[name], shallow=False)]
    assert not differ, differ[:20]
