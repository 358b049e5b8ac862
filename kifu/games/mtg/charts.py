"""Magic coin flips: flips won and lost by each player, drawn by the match page; with the counters
flips paid and the flip in progress on the recording screen."""

from __future__ import annotations

from typing import Any

from kifu.projector.base import Frame
from kifu.projector.series import Board, Charts, Figure, Metric, Values, per_player


def values(frame: Frame[Any]) -> Values:
    # Every player appears from the start (at 0) so a player who never wins a
    # flip still has a line at zero rather than no line at all.
    state = frame.game
    return {
        **per_player("wins", ((p, state.wins.get(p, 0)) for p in state.players)),
        **per_player("losses", ((p, state.losses.get(p, 0)) for p in state.players)),
    }


COUNTERS = ("luck-counter", "counter")
"""Payoff kinds that put counters on a permanent."""


def board(frame: Frame[Any]) -> Board:
    state = frame.game
    counters: dict[str, int] = {}
    for flip in state.flips.values():
        for p in flip.payoffs:
            if p.kind in COUNTERS and p.player:
                counters[p.player] = counters.get(p.player, 0) + p.amount
    rows: Board = [
        (
            pid,
            (
                Figure("won", state.wins.get(pid, 0)),
                Figure("lost", state.losses.get(pid, 0)),
                Figure("counters", counters.get(pid, 0)),
            ),
        )
        for pid in state.players
    ]
    last = max(state.flips.values(), key=lambda f: f.seq, default=None)
    rows.append(
        (
            None,
            (
                Figure("turn", state.turn),
                Figure("flips", len(state.flips)),
                Figure("latest", "-" if last is None else f"{last.flip} {last.card}"),
            ),
        )
    )
    return rows


CHARTS = Charts((Metric("wins"), Metric("losses")), values, board)
