"""The ``generic`` game: no game rules, only the log-level KIFU rules."""

from __future__ import annotations

from ..projector import generic as projection
from .base import Game, Text

GAME = Game(
    id="generic",
    prefix="",
    code="KIFU",
    title=Text(ja="汎用 (チャット・ダイス)", en="generic (chat and dice)"),
    seed="",
    events=(),
    projection=projection,  # type: ignore[arg-type]
    rules=(),
)
