"""Every game kifu knows, one package each: ``kifu/games/<id>/``.

A game's package holds its part of every layer, each in a module of a fixed name:

============== ========= ==============================================================
module         layer     what it declares
============== ========= ==============================================================
``events.py``  events    ``EVENTS`` (its event structs) and ``catalogue(start)``, if it has cards
``cards.py``   events    its card catalogue (data in ``cards.json``), if it has one
``projection`` projector ``State``, ``initial(start, options)`` and ``apply(state, event)``
``rules/``     auditor   its rules, by area, and its options
``charts.py``  auditor   what the match page charts and ``kifu record`` shows (``CHARTS``)
``game.py``    games     ``GAME``: the one description of the game, naming every part
``listing.py`` games     what ``kifu cards`` shows of its cards (optional)
``views.py``   games     its warehouse views, feeds and facts tables, as data (optional)
``stats.py``   games     its ``kifu stats`` statistics, as SQL (optional)
``sim.py``     games     ``simulate(seed, turns, mistake)``: legal matches, and ``MISTAKES`` (optional)
``locale/``    words     its messages, ``en.json`` and ``ja.json``
``mapping``    events    ``mapping.toml``: its chat notation, for ``kifu record`` and
                         ``kifu import --map <id>`` (docs/notation.md)
``importing``  events    ``placer(players, rules, catalogue)``: its own step on each event
                         a chat makes (MTG: a coin's round), optional
============== ========= ==============================================================

``GAMES`` below is the one list of games. Importing this package registers it with the
table every layer looks a game up in (``kifu.events.table``; ``kifu/__init__.py`` imports
it first), so the lower layers never import the games. Adding a game is its folder plus
one line here (docs/hacking.md).
"""

from __future__ import annotations

from kifu.events import table

GAMES: tuple[str, ...] = (
    "generic",
    "gunandgun",
    "mtg",
    "worldtrigger",
    "weiss",
)
"""Game ids, each the name of its package under ``kifu.games``."""


def register() -> None:
    """Register ``GAMES`` with the game table (done on import; again after a test changes ``GAMES``)."""
    table.register(__name__, GAMES)


register()
