"""Warehouse views, one module per game (issue 7; docs/sql.md, "Adding a game's views").

A module here declares SQL only, as data:

* ``VIEWS: dict[str, str]``: view name -> SELECT over ``events``/``matches``;
* ``RANDOMNESS: str | None``: a SELECT with exactly the columns of
  ``RANDOMNESS_COLUMNS``, one row per random outcome the game's events record;
* ``RUNS: str | None``: a SELECT with the columns of ``RUNS_COLUMNS``, one row per
  run-length outcome (ガンナガン's N: tosses facing the tosser before the first
  facing the opponent), tested against Geometric(1/2) by ``kifu stats fairness``.

The ``randomness`` and ``runs`` views are the UNION ALL of every module's feed,
so the statistics never name a game. Add a module to ``MODULES`` to plug it in.
"""

from __future__ import annotations

from types import ModuleType
from typing import Iterable

from . import generic

MODULES: tuple[ModuleType, ...] = (generic,)

RANDOMNESS_COLUMNS = ("game", "match", "seq", "idx", "player", "kind", "sides", "value", "purpose", "secret")
"""One random outcome: ``idx`` numbers the dice of one event from 1; ``value`` is 1-based."""

RUNS_COLUMNS = ("game", "match", "seq", "player", "n")
"""One run: ``n`` ≥ 0 outcomes facing the player before the first facing the opponent."""

_EMPTY_RUNS = (
    "SELECT NULL::VARCHAR AS game, NULL::VARCHAR AS match, NULL::BIGINT AS seq, "
    "NULL::VARCHAR AS player, NULL::INTEGER AS n WHERE false"
)


def _union(feeds: Iterable[str | None], empty: str) -> str:
    parts = [f"({sql})" for sql in feeds if sql]
    return "\nUNION ALL BY NAME\n".join(parts) if parts else empty


def statements(modules: Iterable[ModuleType] = MODULES) -> list[str]:
    """CREATE OR REPLACE VIEW statements for every module's views and the shared feeds."""
    mods = tuple(modules)
    out = [f"CREATE OR REPLACE VIEW {name} AS {sql}" for m in mods for name, sql in getattr(m, "VIEWS", {}).items()]
    cols = ", ".join(RANDOMNESS_COLUMNS)
    randomness = _union((getattr(m, "RANDOMNESS", None) for m in mods), "")
    out.append(f"CREATE OR REPLACE VIEW randomness AS SELECT {cols} FROM ({randomness})")
    runs = _union((getattr(m, "RUNS", None) for m in mods), _EMPTY_RUNS)
    out.append(f"CREATE OR REPLACE VIEW runs AS SELECT {', '.join(RUNS_COLUMNS)} FROM ({runs})")
    return out
