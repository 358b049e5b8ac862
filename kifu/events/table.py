"""The table of games: every layer looks a game up here, by the id a log names in ``match.start``.

The table is filled from the top: ``kifu.games`` registers its list of games (``GAMES``) when
the ``kifu`` package is imported (``kifu/__init__.py``), so no lower layer imports the games.
Each entry says where the game's folder is (its package); a layer imports only the part it
needs (``part(game_id, "events")``), so a command on one game's log never loads another game.

For the log layer a game is its ``events`` part (``EVENTS`` and, if it has cards,
``catalogue(start)``): ``codec(game_id)`` decodes its lines and checks the catalogue a log
brings. Its folder also holds its words (``locale/``) and its chat notation
(``mapping.toml``), read through ``folder``. Anything worked out from the table is cached
with ``cached``, and forgotten when the table changes (a test that adds a game).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar
from collections.abc import Callable, Iterable

from . import i18n
from .base import Event, KifuError, MatchStarted
from .codec import Codec
from .i18n import Msg

_TABLE: dict[str, str] = {}
"""Game id -> the package of its folder (``kifu.games.gunandgun``), in the order registered."""

_CACHES: list[Any] = []

F = TypeVar("F", bound=Callable[..., Any])


def cached(fn: F) -> F:
    """``functools.cache`` over ``fn``, cleared whenever the table changes."""
    wrapped = functools.cache(fn)
    _CACHES.append(wrapped)
    return wrapped  # type: ignore[return-value]


def register(package: str, game_ids: Iterable[str]) -> None:
    """Make the table the games ``game_ids``, each the subpackage of that name of ``package``."""
    _TABLE.clear()
    _TABLE.update({g: f"{package}.{g}" for g in game_ids})
    for cache in _CACHES:
        cache.cache_clear()
    importlib.invalidate_caches()
    i18n.locales(lambda: [folder(g) / "locale" for g in _TABLE])


def ids() -> tuple[str, ...]:
    """Every registered game id, in the order of the list of games."""
    return tuple(_TABLE)


def is_known(game_id: str) -> bool:
    """True if ``game_id`` is a registered game."""
    return game_id in _TABLE


def part(game_id: str, name: str) -> ModuleType:
    """The module ``name`` of a registered game (``part("gunandgun", "events")``); KeyError for an unknown game."""
    return importlib.import_module(f"{_TABLE[game_id]}.{name}")


def module_of(game_id: str, name: str) -> str:
    """The module name of part ``name`` of game ``game_id`` (``kifu.games.mtg.game``), not imported."""
    return f"{_TABLE[game_id]}.{name}"


def events_module(game_id: str) -> ModuleType:
    """The ``events`` part of a registered game: its event structs (``EVENTS``), its ``catalogue`` and, for
    ``kifu record``, its card ``names`` (KeyError for an unknown game)."""
    return part(game_id, "events")


def has_part(game_id: str, name: str) -> bool:
    """True if a registered game has the module ``name`` (an optional part: ``views``, ``sim``)."""
    return game_id in _TABLE and importlib.util.find_spec(f"{_TABLE[game_id]}.{name}") is not None


@cached
def folder(game_id: str) -> Path:
    """The folder of a registered game (its package's), whatever folder of the path it lives in."""
    spec = importlib.util.find_spec(_TABLE[game_id])
    if spec is None or not spec.submodule_search_locations:
        raise KeyError(game_id)
    return Path(next(iter(spec.submodule_search_locations)))


def data(game_id: str, name: str) -> str | None:
    """The text of a file in a registered game's folder (``data("mtg", "mapping.toml")``), or None."""
    if game_id not in _TABLE:
        return None
    path = folder(game_id) / name
    return path.read_text(encoding="utf-8") if path.is_file() else None


@cached
def codec(game_id: str) -> Codec:
    """The codec of a game's tagged union, with its ``match.start`` check (KeyError if unknown)."""
    module = part(game_id, "events")
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
    ``importing`` part's ``placer`` (MTG: a coin's round, by what the card says), or None where it has none."""
    if not is_known(game_id) or not has_part(game_id, "importing"):
        return None
    made: Callable[[dict[str, Any], dict[str, dict[str, Any]]], dict[str, Any]] = part(game_id, "importing").placer(
        players, rules, catalogue
    )
    return made


def known() -> str:
    """The known game ids, for an error message."""
    return ", ".join(_TABLE)


def require(game_id: str, **where: Any) -> Codec:
    """``codec(game_id)``, or a KifuError naming the unknown game (and ``where`` it was named)."""
    try:
        return codec(game_id)
    except KeyError:
        raise KifuError(Msg("log.unknown_game_known", game=repr(game_id), known=known()), **where) from None
