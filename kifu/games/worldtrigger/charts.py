"""World Trigger: each agent's trion and the distance between them. Drawn by the match page."""

from __future__ import annotations

from typing import Any

from kifu.projector.base import Frame
from kifu.projector.series import Charts, Metric, Values, key, per_player


def values(frame: Frame[Any]) -> Values:
    state = frame.game
    # Trion counts from the deal; before it the agent holds no chips yet (not a loss).
    out = per_player("trion", ((p, a.trion) for p, a in state.agents.items() if a.dealt_seq is not None))
    # Distance is unknown until the initial distance is rolled: no point yet.
    if state.distance is not None:
        out[key("distance")] = float(state.distance)
    return out


CHARTS = Charts((Metric("trion"), Metric("distance")), values)
