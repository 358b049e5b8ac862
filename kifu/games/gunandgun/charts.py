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
    rows: Board = [(pid, (Figure("ライフ", "life", p.life), Figure("電圧", "volt", p.voltage), Figure("手札", "hand", p.hand),
                          Figure("銃", "guns", " ".join(f"{g.name}:{g.loads}" for g in p.guns.values()) or "-")))
                   for pid, p in state.players.items()]
    rows.append((None, (Figure("ターン", "turn", state.turn), Figure("手番", "active", state.active or "-"),
                        Figure("フェイズ", "phase", state.phase))))
    return rows


CHARTS = Charts((Metric("life", "ライフ", "Life"), Metric("voltage", "電圧", "Voltage")), values, board)
