"""Hostile and damaged input never escapes as a traceback, and the fixtures are reproducible.

Properties: any prefix or byte-mutation of a good export either imports into a
log that verifies, or fails with one KifuError; the BCDice parser and the chat
notation parser never raise on any text.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from conftest import FIXTURES
from kifu.auditor import registry
from kifu.events import importers, logfile
from kifu.events.base import KifuError
from kifu.events.importers import bcdice, mapping

IMPORTS = FIXTURES / "imports"
GOOD = [IMPORTS / p for p in ("ccfolia/classic.html", "ccfolia/new.html", "ccfolia/log.json", "udonarium/chat.xml",
                              "udonarium/ルームデータ_2025-03-01_1102.zip", "discord/export.json", "discord/export.txt",
                              "cockatrice/game.log", "arena/Player.log")]


def _import_bytes(tmp: Path, name: str, data: bytes) -> None:
    src = tmp / name
    src.write_bytes(data)
    out = tmp / "out.jsonl"
    if out.exists():
        out.unlink()
    try:
        report = importers.import_file(src, out, registry.codec_for)
    except KifuError:
        assert not out.exists()
        return
    assert logfile.verify(out, registry.codec_for).hash == report.head


@given(which=st.sampled_from(GOOD), cut=st.floats(0, 1))
def test_any_prefix_imports_or_fails_cleanly(tmp_path_factory, which: Path, cut: float) -> None:
    data = which.read_bytes()
    _import_bytes(tmp_path_factory.mktemp("p"), which.name, data[: int(len(data) * cut)])


@given(which=st.sampled_from(GOOD), at=st.floats(0, 1), junk=st.binary(min_size=1, max_size=8))
def test_any_corruption_imports_or_fails_cleanly(tmp_path_factory, which: Path, at: float, junk: bytes) -> None:
    data = which.read_bytes()
    i = int(len(data) * at)
    _import_bytes(tmp_path_factory.mktemp("c"), which.name, data[:i] + junk + data[i + len(junk):])


@given(st.text())
def test_bcdice_parse_never_raises(text: str) -> None:
    lead, rolls = bcdice.parse(text)
    assert isinstance(lead, str) and all(r.kind in ("die", "choice", "other") for r in rolls)


@given(st.text())
def test_command_parse_never_raises(text: str) -> None:
    cmd = mapping.parse_command(text)
    assert cmd is None or isinstance(cmd.args, tuple)


def test_fixture_script_reproduces_every_file() -> None:
    spec = importlib.util.spec_from_file_location("make_imports", IMPORTS / "make.py")
    assert spec and spec.loader
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    for rel, data in make.files().items():
        assert (IMPORTS / rel).read_bytes() == data, rel
