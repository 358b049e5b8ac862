"""Weiss Schwarz: each side's level, clock and stock. Drawn by the match page."""

from __future__ import annotations

from typing import Any

from kifu.projector.base import Frame
from kifu.projector.series import Charts, Metric, Values, per_player


def values(frame: Frame[Any]) -> Values:
    sides = frame.game.sides
    return {
        **per_player("level", ((p, len(s.level)) for p, s in sides.items())),
        **per_player("clock", ((p, len(s.clock)) for p, s in sides.items())),
        **per_player("stock", ((p, s.stock) for p, s in sides.items())),
    }


CHARTS = Charts((Metric("level"), Metric("clock"),
                 Metric("stock")), values)
