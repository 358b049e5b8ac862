"""Warehouse views: each game's ``views`` module, and the feeds they fill (docs/sql.md, "Adding a game's views").

A game's ``kifu/games/<id>/views.py`` declares SQL only, as data:

* ``VIEWS: dict[str, str]``: view name -> SELECT over ``events``/``matches``;
* ``RANDOMNESS: str | None``: a SELECT over ``{events}`` with exactly the columns of
  ``RANDOMNESS_COLUMNS``, one row per random outcome the game's events record
  (the warehouse adds ``verifiable`` and ``voided`` to each row itself, see ``VERIFIABLE``);
* ``FIRST_PLAYER: str | None``: a SELECT over ``events`` with the columns of
  ``FIRST_COLUMNS``: who played first in each match, as the game defines it;
  the view ``first_players`` unites them (``kifu stats first``);
* ``RUNS: str | None``: a SELECT over ``{events}`` with the columns of
  ``RUNS_COLUMNS``, one row per run-length outcome (ガンナガン's N: tosses facing
  the tosser before the first facing the opponent), tested against
  Geometric(1/2) by ``kifu stats fairness``; ``{events}`` is then the events no
  log.void took back.
* ``FACTS: dict[str, tuple[dict[str, str], rows]]`` (a ``Facts``): tables of what the game's projection worked out
  (ガンナガン's N per activation), each filled from the state after a match's last
  event, so that no view works a fact out again in SQL. Its table holds ``match``
  and the columns it declares; its views and feeds read it.

The feeds are materialized: ``kifu ingest`` runs each feed over the batch it
loads (``{events}`` is then the batch's events, whole matches) and appends to the
tables ``random_outcomes`` and ``run_lengths``; ``randomness`` and ``runs`` are
views over them. Parsing millions of JSON lines once at ingest keeps the
fairness query fast. A feed whose text changed is re-run over every stored
event (``refresh``), so the tables never disagree with the SQL that defines them.
"""

from __future__ import annotations

import hashlib
from types import ModuleType
from typing import Any, NamedTuple
from collections.abc import Callable, Iterable, Sequence

import msgspec

from kifu.events import table as gametable


@gametable.cached
def modules() -> tuple[ModuleType, ...]:
    """Every game's ``views`` module, in the order of the list of games (a game may have none)."""
    return tuple(gametable.part(g, "views") for g in gametable.ids() if gametable.has_part(g, "views"))


class Facts(NamedTuple):
    """A table of what a game's projection worked out, one row per thing it keeps (an activation)."""

    columns: dict[str, str]
    """Column -> DuckDB type, after ``match``."""
    rows: Callable[[Any], Iterable[tuple[Any, ...]]]
    """The rows of one match, from the game's state after its last event (``Frame.game``)."""


def facts(mods: Iterable[ModuleType] | None = None) -> dict[str, Facts]:
    """Table name -> its ``Facts``, of every module (every game's by default)."""
    out: dict[str, Facts] = {}
    for m in modules() if mods is None else mods:
        out.update({name: Facts(*f) for name, f in getattr(m, "FACTS", {}).items()})
    return out


def fact_tables(mods: Iterable[ModuleType] | None = None) -> tuple[str, ...]:
    """CREATE statements of every module's facts tables."""
    return tuple(
        f"CREATE TABLE IF NOT EXISTS {name} (match VARCHAR NOT NULL, "
        + ", ".join(f"{c} {t}" for c, t in f.columns.items())
        + ")"
        for name, f in facts(mods).items()
    )


def stored(mods: Iterable[ModuleType] | None = None) -> tuple[str, ...]:
    """CREATE statements of the tables the feeds and the facts fill."""
    return TABLES + fact_tables(mods)


def match_facts(match: str, game: str, state: Any) -> dict[str, list[dict[str, Any]]]:
    """Each facts table of ``game`` -> its rows (as JSON-ready objects) of the match whose final state this is."""
    views = of_game(game)
    if views is None:
        return {}
    return {
        name: [{"match": match, **dict(zip(f.columns, row))} for row in f.rows(state)]
        for name, f in facts((views,)).items()
    }


def insert_facts(con: Any, matches: Sequence[dict[str, list[dict[str, Any]]]]) -> None:
    """Insert the facts tables' rows of some matches (each ``match_facts``) in one statement per table."""
    for name, f in facts().items():
        rows = [r for m in matches for r in m.get(name, ())]
        if rows:
            shape = msgspec.json.encode([{"match": "VARCHAR", **f.columns}]).decode()
            con.execute(
                f"INSERT INTO {name} BY NAME SELECT unnest(from_json($rows, '{shape}'), recursive := true)",
                {"rows": msgspec.json.encode(rows).decode()},
            )


@gametable.cached
def of_game(game_id: str) -> ModuleType | None:
    """One game's ``views`` module, or None for a game without one (or unknown)."""
    return gametable.part(game_id, "views") if gametable.has_part(game_id, "views") else None


def build_keys() -> dict[str, tuple[str, str]]:
    """``kifu stats builds --by``: a build key -> (its game, the SELECT of each player's key in each match),
    from every game's ``stats`` part (``BUILDS``)."""
    return {key: (g, sql) for g, part in _stats_parts() for key, sql in getattr(part, "BUILDS", {}).items()}


def _stats_parts() -> list[tuple[str, ModuleType]]:
    return [(g, gametable.part(g, "stats")) for g in gametable.ids() if gametable.has_part(g, "stats")]


RANDOMNESS_COLUMNS = ("game", "match", "seq", "idx", "player", "kind", "sides", "value", "purpose", "secret", "uniform")
"""One random outcome: ``idx`` numbers the dice of one event from 1; ``value`` is 1-based;
``uniform`` is true when ``value`` is by construction a uniform draw from 1..``sides`` (a coin's
face, a die's face, a choice's pick), false for a value derived from several draws (an
exploding die's sum, a kept die, a sorted D66): ``kifu stats fairness`` tests only uniform rows."""

VERIFIABLE = """
    SELECT f.*, coalesce(list_contains(s.verifiable, f.seq), false) AS verifiable,
           coalesce(list_contains(s.voided, f.seq), false) AS voided
    FROM ({feed}) f LEFT JOIN match_randomness s ON s.match = f.match"""
"""Every game's randomness feed with ``verifiable`` and ``voided``, as the audit decided them
(``kifu.auditor.tally.randomness``, the one definition ``kifu verify`` and the match page also read) and
ingest stored in ``match_randomness``: nothing about them is worked out again in SQL. A batch's
statuses are stored before its feeds run."""

STANDING = """(SELECT e.* FROM {events} e WHERE NOT EXISTS (
    SELECT 1 FROM match_randomness s WHERE s.match = e.match AND list_contains(s.voided, e.seq)))"""
"""The events no log.void took back, as the run-length feeds read them (a voided toss is no part of a run)."""

RUNS_COLUMNS = ("game", "match", "seq", "player", "n")
"""One run: ``n`` ≥ 0 outcomes facing the player before the first facing the opponent."""

TABLES = (
    """CREATE TABLE IF NOT EXISTS random_outcomes (
        game VARCHAR, match VARCHAR, seq BIGINT, idx INTEGER, player VARCHAR, kind VARCHAR,
        sides INTEGER, value INTEGER, purpose VARCHAR, secret BOOLEAN, uniform BOOLEAN, verifiable BOOLEAN,
        voided BOOLEAN)""",
    # A warehouse made before `uniform`, verifiable or voided outcomes gains the columns; the feeds' new
    # digest then refills the table.
    "ALTER TABLE random_outcomes ADD COLUMN IF NOT EXISTS uniform BOOLEAN",
    "ALTER TABLE random_outcomes ADD COLUMN IF NOT EXISTS verifiable BOOLEAN",
    "ALTER TABLE random_outcomes ADD COLUMN IF NOT EXISTS voided BOOLEAN",
    # Per match, what the audit decided of its random outcomes (``kifu.auditor.tally.randomness``): the seqs
    # of the events whose outcomes are verifiable, and of those a log.void took back.
    "CREATE TABLE IF NOT EXISTS match_randomness (match VARCHAR, verifiable BIGINT[], voided BIGINT[])",
    """CREATE TABLE IF NOT EXISTS run_lengths (
        game VARCHAR, match VARCHAR, seq BIGINT, player VARCHAR, n INTEGER)""",
    "CREATE TABLE IF NOT EXISTS feed_versions (feed VARCHAR PRIMARY KEY, digest VARCHAR)",
)

BASE_VIEWS = {"randomness": "SELECT * FROM random_outcomes", "runs": "SELECT * FROM run_lengths"}
"""The feeds' tables as views (every view with a ``player`` gains ``person``: ``store.create_schema``)."""

FEEDS = {"RANDOMNESS": ("random_outcomes", RANDOMNESS_COLUMNS), "RUNS": ("run_lengths", RUNS_COLUMNS)}
"""Feed attribute -> (table it fills, its columns)."""


FIRST_COLUMNS = ("game", "match", "player")
"""Who played first in a match, as each game defines it (``FIRST_PLAYER``)."""


def selects(mods: Iterable[ModuleType] | None = None) -> dict[str, str]:
    """View name -> its SELECT: the feeds' views, every module's views (in order), ``first_players``."""
    mods = tuple(modules() if mods is None else mods)
    out = dict(BASE_VIEWS)
    for m in mods:
        out.update(getattr(m, "VIEWS", {}))
    out["first_players"] = first_players(mods)
    return out


def first_players(modules: Iterable[ModuleType]) -> str:
    """The SELECT of ``first_players``: every module's ``FIRST_PLAYER`` (a SELECT over ``events``), united."""
    cols = ", ".join(FIRST_COLUMNS)
    parts = [f"SELECT {cols} FROM ({m.FIRST_PLAYER})" for m in modules if getattr(m, "FIRST_PLAYER", None)]
    empty = "SELECT NULL::VARCHAR AS game, NULL::VARCHAR AS match, NULL::VARCHAR AS player WHERE false"
    return " UNION ALL ".join(parts or [empty])


def feed_inserts(modules: Iterable[ModuleType], events: str) -> list[str]:
    """INSERTs that run every module's feeds over the table or view named ``events``."""
    out = []
    for m in modules:
        for attr, (table, cols) in FEEDS.items():
            sql = getattr(m, attr, None)
            if sql:
                source = events
                if attr == "RANDOMNESS":
                    sql, cols = VERIFIABLE.replace("{feed}", sql), (*cols, "verifiable", "voided")
                else:
                    source = STANDING.replace("{events}", events)
                out.append(
                    f"INSERT INTO {table} ({', '.join(cols)}) SELECT {', '.join(cols)} "
                    f"FROM ({sql.replace('{events}', source)})"
                )
    return out


def digest(modules: Iterable[ModuleType]) -> str:
    """Fingerprint of every feed's SQL and every facts table's columns: stored with the tables, compared at
    each ingest."""
    modules = tuple(modules)
    text = "\n".join(f"{m.__name__}.{attr}:{getattr(m, attr, None) or ''}" for m in modules for attr in FEEDS)
    text += "".join(f"\n{name}:{f.columns}" for name, f in facts(modules).items())
    return hashlib.sha256((VERIFIABLE + STANDING + text).encode()).hexdigest()
