"""Every game kifu knows, one package each: ``kifu/games/<id>/``.

A game's package holds its part of every layer, each in a module of a fixed name:

============== ========= ==============================================================
module         layer     what it declares
============== ========= ==============================================================
``events.py``  events    ``EVENTS`` (its event structs) and ``catalogue(start)``, if it has cards
``cards.py``   events    its card catalogue (data in ``cards.json``), if it has one
``listing.py`` events    what ``kifu cards`` shows of it: ``listing``, ``describe``, ``forms``
``projection`` projector ``State``, ``initial(start, options)`` and ``apply(state, event)``
``rules/``     auditor   its rules, by area, and ``options.py``
``game.py``    auditor   ``GAME``: the game as the auditor, the page and the CLI see it
``views.py``   warehouse its SQL views and random-outcome feeds (optional)
``sim.py``     tools     a seeded generator of legal matches (optional)
``mapping``    events    ``mapping.toml``: its chat notation, for ``kifu record`` and
                         ``kifu import --map <id>`` (docs/notation.md)
``importing``  events    ``placer(players, rules, catalogue)``: its own step on each event
                         a chat makes (MTG: a coin's round), optional
============== ========= ==============================================================

Each layer looks a game up by id in ``GAMES`` below and imports only the module it
needs, so a command that audits one game never loads the others. Adding a game is its
folder plus one line here (docs/hacking.md).
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

GAMES: tuple[str, ...] = (
    "generic",
    "gunandgun",
    "mtg",
    "worldtrigger",
    "weiss",
)
"""Game ids, each the name of its package under ``kifu.games``."""


def part(game_id: str, name: str) -> ModuleType:
    """The module ``name`` of a known game (``part("gunandgun", "events")``); KeyError for an unknown game."""
    if game_id not in GAMES:
        raise KeyError(game_id)
    return importlib.import_module(f"{__name__}.{game_id}.{name}")


def has_part(game_id: str, name: str) -> bool:
    """True if a known game declares the optional module ``name`` (``views``, ``sim``)."""
    return importlib.util.find_spec(f"{__name__}.{game_id}.{name}") is not None


def data(game_id: str, name: str) -> str | None:
    """The text of a data file in a known game's folder (``data("mtg", "mapping.toml")``), or None."""
    from importlib.resources import files

    if game_id not in GAMES:
        return None
    res = files(f"{__name__}.{game_id}").joinpath(name)
    return res.read_text(encoding="utf-8") if res.is_file() else None
