"""The log layer's table of games: game id -> its event types and its ``match.start`` check.

A log names its game in ``match.start``; every reader and writer of a log looks the
game up here (``codec(game_id)``) to decode the game's events and to check the
catalogue the log brings. Each game declares both in its own ``events`` module
(``kifu/games/<id>/events.py``: ``EVENTS`` and, if it has cards, ``catalogue(start)``),
found through the one list of games, ``kifu.games.GAMES``. Only the game a log names
is imported.
"""

from __future__ import annotations

from functools import cache
from typing import Any
from collections.abc import Callable

import kifu.games
from kifu.games import has_part, part

from .base import Event, KifuError, MatchStarted
from .codec import Codec
from .i18n import Msg


def events_module(game_id: str) -> Any:
    """The ``events`` module of a known game (KeyError for an unknown one)."""
    return part(game_id, "events")


@cache
def codec(game_id: str) -> Codec:
    """The codec of a game's tagged union, with its ``match.start`` check (KeyError if unknown)."""
    module = events_module(game_id)
    catalogue = getattr(module, "catalogue", None)
    return Codec(module.EVENTS, _start_check(catalogue) if catalogue is not None else None)


def _start_check(catalogue: Callable[[MatchStarted], Any]) -> Callable[[Event], None]:
    """A check that builds the catalogue a log brings, so a bad one fails ``verify`` too."""

    def check(start: Event) -> None:
        if isinstance(start, MatchStarted) and start.catalogue is not None:
            catalogue(start)

    return check


def placer(
    game_id: str, players: list[str], rules: dict[str, Any] | None, catalogue: dict[str, Any] | None
) -> Callable[[dict[str, Any], dict[str, dict[str, Any]]], dict[str, Any]] | None:
    """What a game does to each event an import or ``kifu record`` makes of a chat, in order: its
    ``importing.placer`` (MTG: a coin's round, by what the card says), or None where it has none."""
    if game_id not in kifu.games.GAMES or not has_part(game_id, "importing"):
        return None
    return part(game_id, "importing").placer(players, rules, catalogue)  # type: ignore[no-any-return]


def known() -> str:
    """The known game ids, for an error message."""
    return ", ".join(kifu.games.GAMES)


def require(game_id: str, **where: Any) -> Codec:
    """``codec(game_id)``, or a KifuError naming the unknown game (and ``where`` it was named)."""
    try:
        return codec(game_id)
    except KeyError:
        raise KifuError(Msg("log.unknown_game_known", game=repr(game_id), known=known()), **where) from None
