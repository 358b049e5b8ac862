"""docs/games/weiss.md: every example line decodes, every rule and option is documented.

A writer copies the page's example lines; if one of them were refused by the
decoder, the docs would be producing malformed logs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kifu.auditor import registry
from kifu.events import table
from kifu.events.base import event_type

DOC = (Path(__file__).resolve().parent.parent / "docs" / "games" / "weiss.md").read_text(encoding="utf-8")
EXAMPLE = re.compile(r'(\{"type":"ws\.[^\n`]*\})')
GAME = registry.game("weiss")


def _examples() -> list[str]:
    return EXAMPLE.findall(DOC)


@pytest.mark.parametrize("line", _examples())
def test_example_line_decodes(line: str) -> None:
    obj = json.loads(line)
    event = table.codec("weiss").convert({**obj, "seq": 2, "prev": "0" * 64})
    assert event_type(type(event)) == obj["type"]


def test_every_event_type_has_an_example() -> None:
    shown = {json.loads(x)["type"] for x in _examples()}
    types = {event_type(t) for t in GAME.events}
    assert types <= shown, sorted(types - shown)


def test_every_rule_and_option_is_documented() -> None:
    missing = [
        r.code for r in registry.rules_of(GAME) if r.code.startswith("WS-") and f"| {r.code} | `{r.name}`" not in DOC
    ]
    assert not missing
    assert all(f"| `{o.name}` |" in DOC for o in GAME.options)
