"""The generic game: nothing to chart; the random outcomes each player recorded on the recording screen."""

from __future__ import annotations

from typing import Any

from kifu.projector.base import Frame
from kifu.projector.series import Board, Charts, Figure


def board(frame: Frame[Any]) -> Board:
    rolls = frame.game.rolls
    return [(pid, (Figure("rolls", rolls.get(pid, 0)),)) for pid in frame.log.players]


CHARTS = Charts(board=board)
