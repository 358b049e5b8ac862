"""ガンナガン (Gun and Gun) with the coin-toss variant, as the auditor, the page and the CLI see it."""

from __future__ import annotations

from kifu.auditor.base import Game

from . import projection
from .charts import CHARTS
from .events import EVENTS, catalogue
from .rules import RULES
from .rules.options import OPTIONS

GAME = Game(
    id="gunandgun",
    prefix="gg",
    code="GG",
    events=EVENTS,
    projection=projection,
    rules=RULES,
    options=OPTIONS,
    catalogue=catalogue,
    charts=CHARTS,
    parts=("sim", "views", "stats", "listing", "board"),
)
