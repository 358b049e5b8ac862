"""Magic: The Gathering coin flips (CR 705), as the auditor, the page and the CLI see it."""

from __future__ import annotations

from kifu.auditor.base import Game

from . import projection
from .charts import CHARTS
from .events import EVENTS, catalogue
from .rules import RULES
from .rules.common import OPTIONS

GAME = Game(
    id="mtg",
    prefix="mtg",
    code="MTG",
    events=EVENTS,
    projection=projection,
    rules=RULES,
    options=OPTIONS,
    catalogue=catalogue,
    charts=CHARTS,
    parts=("sim", "views", "listing", "board", "importing"),
)
