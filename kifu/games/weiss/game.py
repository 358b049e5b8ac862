"""Weiss Schwarz's turn flow, as the auditor, the page and the CLI see it."""

from __future__ import annotations

from kifu.auditor.base import Game

from . import projection
from .charts import CHARTS
from .events import EVENTS
from .rules import RULES
from .rules.common import OPTIONS

GAME = Game(
    id="weiss",
    prefix="ws",
    code="WS",
    events=EVENTS,
    projection=projection,
    rules=RULES,
    options=OPTIONS,
    charts=CHARTS,
    parts=("sim", "views", "board"),
)
