"""The chat notation and mapping files: commands, rolls and patterns become validated events.

A tiny game that exists only in this test (``tinytest``, events ``tt.plot`` and
``tt.toss``), installed the way docs/hacking.md adds a game: its folder and one line.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from conftest import FIXTURES, game_map, run_cli

from kifu.auditor import registry
from kifu.auditor.base import Game
from kifu.events import logfile
from kifu.events.base import JudgeRuling, MatchEnded, Note, RandomRolled
from kifu.events.importers import mapping

GENERIC_MAP = game_map("generic")


TINY_EVENTS = '''"""The events of a game that exists only in this test."""

from typing import Annotated, Literal

from msgspec import Meta

from kifu.events.base import Event


class Plotted(Event, tag="tt.plot", kw_only=True):
    \"\"\"A plot typed in chat (test-only game).\"\"\"

    player: str
    \"\"\"Who plotted.\"\"\"
    start: Annotated[int, Meta(ge=0, le=9)]
    \"\"\"Square moved from.\"\"\"
    end: Annotated[int, Meta(ge=0, le=9)]
    \"\"\"Square moved to.\"\"\"


class Tossed(Event, tag="tt.toss", kw_only=True):
    \"\"\"A coin toss for an activation (test-only game).\"\"\"

    activation: str
    \"\"\"The activation it decides.\"\"\"
    facing: Literal["self", "opponent"]
    \"\"\"Which way the coin faced.\"\"\"


EVENTS = (Plotted, Tossed)
'''

TINY_GAME = """from kifu.auditor.base import Game
from kifu.games.generic import projection

from .events import EVENTS

GAME = Game(id="tinytest", prefix="tt", code="KIFU", events=EVENTS, projection=projection, rules=())
"""

TINY_MAP = """
game = "tinytest"

[[command]]
name = "plot"
bare = true
args = ["start", "end"]
event = { type = "tt.plot", player = "{by}", start = "{start:int}", end = "{end:int}" }

[[command]]
name = "toss"
args = ["activation", "facing"]
translate = { "自分" = "self", "相手" = "opponent" }
event = { type = "tt.toss", activation = "{activation}", facing = "{facing}" }

[[roll]]
expr = "CHOICE[自分,相手]"
translate = { "自分" = "self", "相手" = "opponent" }
events = [
  { type = "random", kind = "coin", sides = 2, values = ["{pick_index}"], secret = "{secret}", purpose = "toss" },
  { type = "tt.toss", activation = "{channel}", facing = "{pick}" },
]
"""


@pytest.fixture
def tiny(install_game):
    install_game("tinytest", {"events.py": TINY_EVENTS, "game.py": TINY_GAME})
    return registry.game("tinytest")


def _ccfolia_json(tmp: Path, texts: list[tuple[str, str, str | None]]) -> Path:
    msgs = [
        {
            "name": who,
            "text": text,
            "type": "text",
            "channel": "main",
            "channelName": "メイン",
            "createdAt": 1740826923000 + i * 1000,
            **({"extend": {"roll": {"result": roll}}} if roll else {}),
        }
        for i, (who, text, roll) in enumerate(texts)
    ]
    path = tmp / "room.json"
    path.write_text(json.dumps({"messages": msgs}, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "text,want",
    [
        ("!act a3 計略", ("act", ("a3", "計略"), True)),
        ("！ＡＣＴ　ａ３　計略", ("act", ("a3", "計略"), True)),
        ("!cost a3 hand 1", ("cost", ("a3", "hand", "1"), True)),
        ("plot 1 4", ("plot", ("1", "4"), False)),
        ('!say "two words" 「二 語」', ("say", ("two words", "二 語"), True)),
        ("!", None),
        ("", None),
        ("!act a3\n二行目", None),
    ],
)
def test_parse_command(text: str, want) -> None:
    cmd = mapping.parse_command(text)
    assert (None if cmd is None else (cmd.name, cmd.args, cmd.bang)) == want


def test_generic_map_commands_and_patterns(tmp_path: Path) -> None:
    src = _ccfolia_json(
        tmp_path,
        [
            ("ミナト", "CHOICE[自分,相手]", "(choice[自分,相手]) ＞ 相手"),
            ("ユキ", "!ruling 2 トスは有効", None),
            ("ユキ", "!win 相手 concede", None),
            ("ミナト", "ユキの勝ち", None),
            ("ミナト", "!win ダレカ", None),
        ],
    )
    out = tmp_path / "m.jsonl"
    run = run_cli("import", src, "-o", out, "--map", GENERIC_MAP, "--lang", "en")
    assert run.code == 0, run.err
    e = logfile.load(out).events
    assert isinstance(e[1], RandomRolled) and (e[1].kind, e[1].values, e[1].purpose) == ("coin", [2], "toss")
    assert isinstance(e[2], JudgeRuling) and (e[2].by, e[2].about, e[2].text) == ("judge", [2], "トスは有効")
    assert isinstance(e[3], MatchEnded) and (e[3].winner, e[3].reason, e[3].by) == ("p1", "concede", "p2")
    assert isinstance(e[4], MatchEnded) and e[4].winner == "p2"
    assert isinstance(e[5], Note) and e[5].text == "!win ダレカ"
    assert "'ダレカ' names no player" in run.err
    run = run_cli("import", src, "-o", tmp_path / "ja.jsonl", "--map", GENERIC_MAP, "--lang", "ja")
    # the reason in the reader's language
    assert run.code == 0 and "'ダレカ' はどのプレイヤーの名前でもありません" in run.err


def test_mapping_to_a_game_validates_against_its_codec(tmp_path: Path, tiny: Game) -> None:
    src = _ccfolia_json(
        tmp_path,
        [
            ("ミナト", "plot 1 4", None),
            ("ユキ", "!plot 2 3", None),
            ("ユキ", "!toss a1 自分", None),
            ("ユキ", "!toss a1 sideways", None),
            ("ミナト", "plot 1 12", None),
            ("ミナト", "plot", None),
            ("ミナト", "CHOICE[自分,相手]", "(choice[自分,相手]) ＞ 相手"),
            ("ミナト", "!act a3 計略", None),
        ],
    )
    mp = tmp_path / "tiny.toml"
    mp.write_text(TINY_MAP, encoding="utf-8")
    out = tmp_path / "m.jsonl"
    run = run_cli(
        "import", src, "-o", out, "--game", "tinytest", "--map", mp, "--lang", "en", "--report", tmp_path / "r.json"
    )
    assert run.code == 0, run.err
    events = logfile.load(out).events
    kinds = [type(e).__name__ for e in events[1:]]
    assert kinds == ["Plotted", "Plotted", "Tossed", "Note", "Note", "Note", "RandomRolled", "Tossed", "Note"]
    assert (events[1].player, events[1].start, events[1].end) == ("p1", 1, 4)
    assert events[3].facing == "self" and events[8].facing == "opponent" and events[8].activation == "メイン"
    assert all(e.src is not None for e in events[1:])
    report = msgspec.json.decode((tmp_path / "r.json").read_bytes())
    failed = [f["what"] for f in report["failed"]]
    assert len(failed) == 3
    assert "field facing" in failed[0] and "field end" in failed[1] and "no value for {start}" in failed[2]
    assert [u["what"] for u in report["unmapped"]] == ["!act"]
    assert (report["game_events"], report["random"], report["notes"]) == (4, 1, 4)


@pytest.mark.parametrize(
    "text,error",
    [
        ('game = "generic"\n[[command]]\nname = "x"\nevent = { type = "gg.toss" }', "has no event type 'gg.toss'"),
        ('[[command]]\nname = "x"\nevent = { type = "note", colour = "red" }', "has no field(s) ['colour']"),
        ('[[command]]\nname = "x"\nevent = { type = "note", seq = 3 }', "has no field(s)"),
        ('[[command]]\nname = "two words"\nevent = { type = "note" }', "name must be one word"),
        ('[[pattern]]\nregex = "("\nevent = { type = "note" }', "[[pattern]] #1"),
        ('[[roll]]\nexpr = "1D2"', "has no event"),
        ("[[rol]]\n", "unknown top-level keys"),
        ('[[roll]]\nsides = "2"\nevent = { type = "note" }', "sides must be a whole number"),
        ('[[roll]]\nkind = "d6"\nevent = { type = "note" }', "kind must be die, coin or choice"),
        ('[[command]]\nname = "x"\nargs = [1]\nevent = { type = "note" }', "args must be a list of names"),
        ('[[command]]\nname = "x"\nnote = true\nevent = { type = "note" }', "a note = true entry makes no event"),
        ('[[command]]\nname = "x"\nclear = [1]\nevent = { type = "note" }', "clear must be a list of names"),
        ('[[roll]]\neach = ["values"]\nevent = { type = "note" }', "each must be text"),
        ('[[command]]\nname = "x"\nremember_as = 3\nevent = { type = "note" }', "remember_as must be text"),
        ('[[roll]]\nnote = true\nevent = { type = "note" }', "unknown keys ['note']"),
        ('[[command]]\nname = "x"\ntranslate = { a = 1, b = [1] }\nnote = 3', "note must be true or false"),
        ('game = "mtg"', "written for game 'mtg'"),
        ("this is not toml", "not valid TOML"),
    ],
)
def test_bad_mapping_fails_cleanly(tmp_path: Path, text: str, error: str) -> None:
    mp = tmp_path / "bad.toml"
    mp.write_text(text, encoding="utf-8")
    out = tmp_path / "m.jsonl"
    run = run_cli("import", FIXTURES / "imports" / "ccfolia" / "classic.html", "-o", out, "--map", mp)
    assert run.code == 2 and error in run.err and str(mp) in run.err and run.err.count("\n") == 1
    assert not out.exists()
