"""The World Trigger 1v1 dice game, as the auditor, the page and the CLI see it."""

from __future__ import annotations

from kifu.auditor.base import Game, Text

from . import projection
from .charts import CHARTS
from .events import EVENTS, catalogue
from .rules import RULES
from .rules.common import OPTIONS

GAME = Game(
    id="worldtrigger",
    prefix="wt",
    code="WT",
    title=Text(ja="ワールドトリガー 1vs1 ダイスゲーム (ボーダー隊員ソロランク戦ゲーム)",
               en="World Trigger 1v1 dice game (Border agent solo rank battle)"),
    seed="002_8caa01d942fb408e.txt",
    events=EVENTS,
    projection=projection,  # type: ignore[arg-type]
    rules=RULES,
    options=OPTIONS,
    catalogue=catalogue,
    charts=CHARTS,
)
