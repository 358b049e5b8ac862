"""The ``generic`` game: no game rules, only the log-level KIFU rules."""

from __future__ import annotations

from kifu.auditor.base import Game

from . import projection
from .charts import CHARTS
from .events import EVENTS

GAME = Game(
    id="generic",
    prefix="",
    code="KIFU",
    events=EVENTS,
    projection=projection,
    rules=(),
    charts=CHARTS,
    parts=("views",),
)
