"""docs/games/worldtrigger.md: every example line decodes, and every event and option is documented.

A writer copies these lines; a line the decoder rejects would teach them to
write logs kifu refuses (seed 002's game, docs written for log writers).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kifu.events import table
from kifu.events.base import event_type
from kifu.games.worldtrigger.game import GAME

DOC = (Path(__file__).resolve().parent.parent / "docs" / "games" / "worldtrigger.md").read_text(encoding="utf-8")
LINES = [ln for ln in re.findall(r"^\{.*\}$", DOC, flags=re.M) if '"type":' in ln]
HASH = "0" * 64


@pytest.mark.parametrize("line", LINES, ids=lambda ln: json.loads(ln)["type"])
def test_example_line_decodes(line: str) -> None:
    obj = json.loads(line)
    if obj["prev"] == "…":
        obj["prev"] = HASH
    table.codec("worldtrigger").convert(obj, where="docs", line=obj["seq"])


def test_every_event_has_an_example_line() -> None:
    shown = {json.loads(ln)["type"] for ln in LINES}
    assert {event_type(cls) for cls in GAME.events} <= shown


def test_every_option_and_rule_is_documented() -> None:
    for option in GAME.options:
        assert f"`{option.name}`" in DOC, option.name
    for rule in GAME.rules:
        assert f"| {rule.code} |" in DOC, rule.code
