"""World Trigger: each agent's trion and the distance between them, drawn by the match page; trion,
the set triggers and tags, and the distance on the recording screen."""

from __future__ import annotations

from typing import Any

from kifu.projector.base import Frame
from kifu.projector.series import Board, Charts, Figure, Metric, Values, key, per_player


def values(frame: Frame[Any]) -> Values:
    state = frame.game
    # Trion counts from the deal; before it the agent holds no chips yet (not a loss).
    out = per_player("trion", ((p, a.trion) for p, a in state.agents.items() if a.dealt_seq is not None))
    # Distance is unknown until the initial distance is rolled: no point yet.
    if state.distance is not None:
        out[key("distance")] = float(state.distance)
    return out


def board(frame: Frame[Any]) -> Board:
    state = frame.game
    rows: Board = [
        (
            pid,
            (
                Figure("trion", a.trion),
                Figure("set", f"{a.set_main or '-'}/{a.set_sub or '-'}"),
                Figure("tags", " ".join(a.tags) or "-"),
            ),
        )
        for pid, a in state.agents.items()
    ]
    rows.append(
        (
            None,
            (
                Figure("distance", "-" if state.distance is None else state.distance),
                Figure("turn", state.turn),
                Figure("attacker", state.active or "-"),
            ),
        )
    )
    return rows


CHARTS = Charts((Metric("trion"), Metric("distance")), values, board)
