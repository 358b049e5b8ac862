"""Weiss Schwarz: each side's level, clock and stock, drawn by the match page; with the hand and
deck on the recording screen."""

from __future__ import annotations

from typing import Any

from kifu.projector.base import Frame
from kifu.projector.series import Board, Charts, Figure, Metric, Values, per_player


def values(frame: Frame[Any]) -> Values:
    sides = frame.game.sides
    return {
        **per_player("level", ((p, len(s.level)) for p, s in sides.items())),
        **per_player("clock", ((p, len(s.clock)) for p, s in sides.items())),
        **per_player("stock", ((p, s.stock) for p, s in sides.items())),
    }


def board(frame: Frame[Any]) -> Board:
    state = frame.game
    rows: Board = [
        (
            pid,
            (
                Figure("level", len(s.level)),
                Figure("clock", len(s.clock)),
                Figure("stock", s.stock),
                Figure("hand", s.hand),
                Figure("deck", s.deck),
            ),
        )
        for pid, s in state.sides.items()
    ]
    rows.append(
        (
            None,
            (
                Figure("turn", state.turn),
                Figure("active", state.turn_player or "-"),
                Figure("phase", "/".join(x for x in (state.phase, state.step) if x) or "-"),
            ),
        )
    )
    return rows


CHARTS = Charts((Metric("level"), Metric("clock"), Metric("stock")), values, board)
