"""Magic coin flips: flips won and lost by each player. Drawn by the match page."""

from __future__ import annotations

from typing import Any

from kifu.projector.base import Frame
from kifu.projector.series import Charts, Metric, Values, per_player


def values(frame: Frame[Any]) -> Values:
    # Every player appears from the start (at 0) so a player who never wins a
    # flip still has a line at zero rather than no line at all.
    state = frame.game
    return {
        **per_player("wins", ((p, state.wins.get(p, 0)) for p in state.players)),
        **per_player("losses", ((p, state.losses.get(p, 0)) for p in state.players)),
    }


CHARTS = Charts((Metric("wins"),
                 Metric("losses")), values)
