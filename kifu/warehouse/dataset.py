"""A warehouse as a hive-partitioned Parquet dataset, queried in place with DuckDB.

The layout is the one ``kifu export --parquet`` and ``kifu ingest --cluster … --parquet``
write (docs/scale.md): ``DIR/<table>/game=<game>/month=<YYYY-MM|unknown>/part-….parquet``
for each table of ``TABLES``. ``open_dataset`` gives an in-memory DuckDB connection whose
``matches``, ``event_lines``, ``findings``, ``random_outcomes`` and ``run_lengths`` are views
over those files (nothing is loaded), with the warehouse's views on top and the ``people``
table computed from the matches and the identity file. The connection is then locked down
as ``kifu sql`` needs it: file access only under DIR, configuration locked (and
``store.query`` lets only a SELECT through).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from kifu.events.base import KifuError
from kifu.events.i18n import Msg

from . import people
from .store import _EVENTS_VIEW, SCHEMA, create_views
from .views import facts, modules, selects, stored

if TYPE_CHECKING:
    import duckdb

TABLES = ("matches", "events", "findings", "random_outcomes", "run_lengths")
"""The dataset's tables, one folder each, besides the games' facts tables (``tables``); ``events`` holds the
rows of ``event_lines`` (and the columns the ``events`` view computes, as ``kifu export`` writes them)."""


def tables() -> tuple[str, ...]:
    """Every table of a dataset: ``TABLES``, then each game's facts tables (``views.Facts``)."""
    return TABLES + tuple(facts())


PARTITIONS = ("game", "month")

STORED = {"events": "event_lines"}
"""Dataset folder -> the warehouse table whose columns it holds, where the names differ."""


def _columns() -> dict[str, list[tuple[str, str]]]:
    """(column, type) of every warehouse table, from the warehouse's own schema (built in memory)."""
    import duckdb

    scratch = duckdb.connect()
    try:
        for sql in SCHEMA + stored():
            if sql.startswith("CREATE TABLE") or sql.startswith("ALTER TABLE"):
                scratch.execute(sql)
        rows = scratch.execute(
            "SELECT table_name, column_name, data_type FROM duckdb_columns() "
            "WHERE schema_name = 'main' ORDER BY table_name, column_index"
        ).fetchall()
    finally:
        scratch.close()
    out: dict[str, list[tuple[str, str]]] = {}
    for table, column, kind in rows:
        if not (table == "event_lines" and column == "time_text"):
            out.setdefault(table, []).append((column, kind))
    return out


def _literal(path: Path, glob: str = "") -> str:
    """A path as an SQL string literal (table functions take no parameters), with a glob after it."""
    text = path.as_posix()
    if any(c in text for c in "*?[]{}"):
        raise KifuError(Msg("dataset.glob"), where=text)
    return "'" + (text + glob).replace("'", "''") + "'"


def files(root: Path, table: str) -> list[Path]:
    return sorted((root / table).glob("*=*/*=*/*.parquet"))


def open_dataset(root: str | os.PathLike[str], identity: people.Identity | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory connection over the dataset at ``root``, locked down (see the module docstring)."""
    import duckdb

    base = Path(root).resolve()
    if not base.is_dir():
        raise KifuError(Msg("dataset.missing"), where=str(root))
    if not files(base, "matches"):
        raise KifuError(Msg("dataset.not_dataset"), where=str(root))
    con = duckdb.connect()
    try:
        con.execute("SET TimeZone = 'UTC'")
        con.execute("SET enable_progress_bar = false")
        columns = _columns()
        for table in tables():
            name = STORED.get(table, table)
            cols = columns[name]
            if files(base, table):
                source = (
                    f"read_parquet({_literal(base / table, '/*=*/*=*/*.parquet')}, hive_partitioning = true, "
                    "hive_types = {'game': VARCHAR, 'month': VARCHAR}, union_by_name = true)"
                )
                select = ", ".join(f'CAST("{c}" AS {t}) AS "{c}"' for c, t in cols)
                con.execute(f"CREATE VIEW {name} AS SELECT {select} FROM {source}")
            else:  # an export made before this table was written: empty, with the table's columns
                select = ", ".join(f'CAST(NULL AS {t}) AS "{c}"' for c, t in cols)
                con.execute(f"CREATE VIEW {name} AS SELECT {select} WHERE false")
        con.execute("CREATE VIEW events AS " + _EVENTS_VIEW.format(table="event_lines"))
        people.fill(con, identity or people.Identity())
        create_views(con, selects(modules()))
        # Only now: the views above read the files when queried, and nothing else may be read.
        con.execute(f"SET allowed_directories = [{_literal(base, '/')}]")
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
    except duckdb.Error as exc:
        con.close()
        raise KifuError(Msg("dataset.unreadable", detail=str(exc).strip().splitlines()[0]), where=str(root)) from None
    return con
