"""ガンナガン: each player's life and voltage. Drawn by the match page."""

from __future__ import annotations

from typing import Any

from kifu.projector.base import Frame
from kifu.projector.series import Charts, Metric, Values, per_player


def values(frame: Frame[Any]) -> Values:
    players = frame.game.players
    return {
        **per_player("life", ((p, pl.life) for p, pl in players.items())),
        **per_player("voltage", ((p, pl.voltage) for p, pl in players.items())),
    }


CHARTS = Charts((Metric("life"), Metric("voltage")), values)
