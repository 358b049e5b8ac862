"""Every command the README shows works when pasted into a fresh clone.

The README's ``sh`` blocks (all but the Quickstart, which CI runs itself) are run in
order by one bash, in a fresh folder holding a copy of ``fixtures/`` (what a clone
has), with the installed ``kifu`` on the PATH and a secret store of its own. A
command may find rule violations (exit 1: that is what several of them show); exit 2
or more, or a traceback, fails the test naming the line. The README keeps no
``<placeholder>`` a user would have to fill in. The commands write only into ``scratch/``
(ignored by git), as the README says: a run leaves no other file in the clone.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _commands() -> list[str]:
    """The command lines of every sh block but the Quickstart's, continuation lines joined."""
    body = README.split("## Quickstart", 1)[1]
    body = body[body.index("```", body.index("```") + 3) + 3 :]  # past the Quickstart's own block
    lines: list[str] = []
    for block in re.findall(r"```sh\n(.*?)```", body, re.S):
        pending = ""
        for raw in block.splitlines():
            line = pending + raw
            if line.rstrip().endswith("\\"):
                pending = line.rstrip()[:-1] + " "
                continue
            pending = ""
            if line.strip() and not line.lstrip().startswith("#"):
                lines.append(line)
    return lines


def test_the_readme_has_no_placeholder_to_fill_in() -> None:
    text = README.split("## Layout")[0]
    assert not re.findall(r"<[a-z][^>\n]*>", "\n".join(_commands())), "a command still holds a <placeholder>"
    assert "<hash" not in text and "room.html -o" not in text


@pytest.mark.slow
def test_every_readme_command_works_in_a_fresh_clone(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    shutil.copytree(FIXTURES, clone / "fixtures")
    before = {p.relative_to(clone).as_posix() for p in clone.rglob("*")}
    script = ["set -u"]
    for i, cmd in enumerate(_commands()):
        script.append(cmd)
        script.append(f'rc=$?; if [ $rc -gt 1 ]; then echo "README command {i} failed with exit $rc" >&2; exit 3; fi')
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "KIFU_HOME": str(tmp_path / "home"),
        "KIFU_DB": "",
        "LANG": "C.UTF-8",
        "KIFU_LANG": "en",
    }
    env.pop("KIFU_DB")
    run = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,  # a hang guard: the commands take about a minute idle, several on a busy machine
        stdin=subprocess.DEVNULL,
    )
    failed = re.search(r"README command (\d+) failed", run.stderr)
    where = _commands()[int(failed.group(1))] if failed else ""
    assert run.returncode == 0, (where, run.stderr[-3000:])
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    left = sorted(
        name
        for name in ({p.relative_to(clone).as_posix() for p in clone.rglob("*")} - before)
        if name != "scratch" and not name.startswith("scratch/")
    )
    assert not left, f"the README's commands left these outside scratch/: {left}"
    assert "scratch/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
