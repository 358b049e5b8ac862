"""Hostile and damaged input never escapes as a traceback, and the fixtures are reproducible.

Properties: any prefix or byte-mutation of a good export either imports into a
log that verifies, or fails with one KifuError; the BCDice parser and the chat
notation parser never raise on any text.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import msgspec
from conftest import FIXTURES
from hypothesis import given
from hypothesis import strategies as st

from kifu.events import importers, logfile
from kifu.events.base import KifuError
from kifu.events.importers import bcdice, mapping

IMPORTS = FIXTURES / "imports"
GOOD = [
    IMPORTS / p
    for p in (
        "ccfolia/classic.html",
        "ccfolia/new.html",
        "ccfolia/log.json",
        "udonarium/chat.xml",
        "udonarium/ルームデータ_2025-03-01_1102.zip",
        "discord/export.json",
        "discord/export.txt",
        "cockatrice/game.log",
        "arena/Player.log",
        "udonarium/fly-room.xml",
        "ccfolia/new-format.json",
        "cockatrice/ja-client.txt",
        "discord/duplicates.json",
    )
]


def _import_bytes(tmp: Path, name: str, data: bytes) -> None:
    src = tmp / name
    src.write_bytes(data)
    out = tmp / "out.jsonl"
    if out.exists():
        out.unlink()
    try:
        report = importers.import_file(src, out)
    except KifuError:
        assert not out.exists()
        return
    assert logfile.verify(out).hash == report.head


@given(which=st.sampled_from(GOOD), cut=st.floats(0, 1))
def test_any_prefix_imports_or_fails_cleanly(tmp_path_factory, which: Path, cut: float) -> None:
    data = which.read_bytes()
    _import_bytes(tmp_path_factory.mktemp("p"), which.name, data[: int(len(data) * cut)])


@given(which=st.sampled_from(GOOD), at=st.floats(0, 1), junk=st.binary(min_size=1, max_size=8))
def test_any_corruption_imports_or_fails_cleanly(tmp_path_factory, which: Path, at: float, junk: bytes) -> None:
    data = which.read_bytes()
    i = int(len(data) * at)
    _import_bytes(tmp_path_factory.mktemp("c"), which.name, data[:i] + junk + data[i + len(junk) :])


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


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=8), kids, max_size=3),
    max_leaves=8,
)
_CCFOLIA_KEYS = ("name", "text", "type", "channel", "channelName", "createdAt", "extend")
_DISCORD_KEYS = ("id", "timestamp", "timestampEdited", "content", "author", "embeds", "interaction")


@given(st.lists(st.fixed_dictionaries({}, optional={k: _JSON for k in _CCFOLIA_KEYS}), max_size=4))
def test_ccfolia_json_of_any_shape_imports_or_fails_cleanly(tmp_path_factory, messages: list) -> None:
    data = msgspec.json.encode({"messages": messages})
    _import_bytes(tmp_path_factory.mktemp("j"), "log.json", data)


@given(st.lists(st.fixed_dictionaries({}, optional={k: _JSON for k in _DISCORD_KEYS}), max_size=4))
def test_discord_json_of_any_shape_imports_or_fails_cleanly(tmp_path_factory, messages: list) -> None:
    data = msgspec.json.encode({"guild": {"name": "g"}, "channel": {"name": "c"}, "messages": messages})
    _import_bytes(tmp_path_factory.mktemp("d"), "export.json", data)


_GRE = st.fixed_dictionaries(
    {"type": st.sampled_from(["GREMessageType_DieRollResultsResp", "GREMessageType_GameStateMessage"]) | _JSON},
    optional={
        "dieRollResultsResp": st.fixed_dictionaries(
            {},
            optional={
                "playerDieRolls": st.lists(
                    st.fixed_dictionaries({}, optional={"systemSeatId": _JSON, "rollValue": _JSON}), max_size=2
                )
            },
        )
        | _JSON,
        "gameStateMessage": st.fixed_dictionaries(
            {},
            optional={
                "gameStateId": _JSON,
                "gameInfo": _JSON,
                "annotations": st.lists(
                    st.fixed_dictionaries(
                        {},
                        optional={
                            "id": _JSON,
                            "affectorId": _JSON,
                            "type": st.just(["AnnotationType_CoinFlip"]) | _JSON,
                        },
                    ),
                    max_size=2,
                )
                | _JSON,
            },
        ),
        "msgId": _JSON,
    },
)


@given(st.lists(_GRE, max_size=3), _JSON)
def test_arena_payloads_of_any_shape_import_or_fail_cleanly(tmp_path_factory, messages: list, room) -> None:
    lines = [
        b"[UnityCrossThreadLogger]Match to U1: GreToClientEvent",
        msgspec.json.encode({"greToClientEvent": {"greToClientMessages": messages}}),
        b"[UnityCrossThreadLogger]Match to U1: MatchGameRoomStateChangedEvent",
        msgspec.json.encode({"matchGameRoomStateChangedEvent": {"gameRoomInfo": room}}),
    ]
    _import_bytes(tmp_path_factory.mktemp("a"), "Player.log", b"\n".join(lines) + b"\n")
