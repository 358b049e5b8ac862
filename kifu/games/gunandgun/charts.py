"""ガンナガン: each player's life and voltage, drawn by the match page; life, voltage, hand and
guns on the recording screen."""

from __future__ import annotations

from typing import Any

from kifu.projector.base import Frame
from kifu.projector.series import Board, Charts, Figure, Metric, Values, per_player


def values(frame: Frame[Any]) -> Values:
    players = frame.game.players
    return {
        **per_player("life", ((p, pl.life) for p, pl in players.items())),
        **per_player("voltage", ((p, pl.voltage) for p, pl in players.items())),
    }


def board(frame: Frame[Any]) -> Board:
    state = frame.game
    rows: Board = [
        (
            pid,
            (
                Figure("life", p.life),
                Figure("volt", p.voltage),
                Figure("hand", p.hand),
                Figure("guns", " ".join(f"{g.name}:{g.loads}" for g in p.guns.values()) or "-"),
            ),
        )
        for pid, p in state.players.items()
    ]
    rows.append(
        (None, (Figure("turn", state.turn), Figure("active", state.active or "-"), Figure("phase", state.phase)))
    )
    return rows


CHARTS = Charts((Metric("life"), Metric("voltage")), values, board)
