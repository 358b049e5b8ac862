"""The warehouse's DuckDB file: its tables, opening it, read-only queries, exports.

Tables, views and their columns are documented in docs/sql.md. duckdb is imported
lazily: commands that do not use the warehouse must not pay for it.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Iterable

from kifu.events.base import KifuError
from kifu.events.i18n import Msg

from .views import digest, feed_inserts, modules, statements

if TYPE_CHECKING:
    import duckdb

DEFAULT_DB = "kifu.duckdb"
ENV_DB = "KIFU_DB"

_EVENTS_VIEW = (
    "SELECT match, seq, type, json_extract_string(line, '$.prev') AS prev, json_extract_string(line, '$.at') AS time_text, "
    "time, actor, src, line, "
    "CAST(line AS JSON) AS event FROM {table}"
)
"""Columns are computed only when selected (DuckDB prunes unused view columns)."""

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS matches (
        match VARCHAR PRIMARY KEY, game VARCHAR NOT NULL, title VARCHAR,
        players STRUCT(id VARCHAR, name VARCHAR)[], rules JSON,
        first_at TIMESTAMPTZ, last_at TIMESTAMPTZ, events BIGINT NOT NULL, head VARCHAR NOT NULL,
        ended_seq BIGINT, winner VARCHAR, end_reason VARCHAR, source VARCHAR NOT NULL)""",
    # `line` is kept uncompressed: compressing it was most of the load's cost (0.5 s vs
    # 0.12 s for 300k lines, file 24 MB vs 54 MB); it is read only to export a log.
    # `prev` and `time_text` are not stored apart: both are in `line`, and storing the time as
    # written (unique strings, compressed at each commit) cost a quarter of storing the batch.
    # A warehouse made before keeps its `time_text` column, left NULL from then on and unread.
    """CREATE TABLE IF NOT EXISTS event_lines (
        match VARCHAR NOT NULL, seq BIGINT NOT NULL, type VARCHAR NOT NULL,
        time TIMESTAMPTZ, actor VARCHAR, src JSON,
        line VARCHAR NOT NULL USING COMPRESSION 'uncompressed')""",
    """CREATE TABLE IF NOT EXISTS findings (
        match VARCHAR NOT NULL, code VARCHAR NOT NULL, name VARCHAR, severity VARCHAR NOT NULL,
        seq BIGINT NOT NULL, seqs BIGINT[], citation VARCHAR, message_en VARCHAR, message_ja VARCHAR,
        evidence JSON, consequences BIGINT[])""",
    # the seqs a finding explains (one mistake, one finding); a warehouse made before gets the column empty
    "ALTER TABLE findings ADD COLUMN IF NOT EXISTS consequences BIGINT[]",
    # The exact line stays VARCHAR (byte-exact export); the JSON cast is only paid when selected.
    "CREATE OR REPLACE VIEW events AS " + _EVENTS_VIEW.format(table="event_lines"),
)


def db_path(db: str | os.PathLike[str] | None = None) -> str:
    """``db``, else $KIFU_DB, else kifu.duckdb in the working directory."""
    return str(db or os.environ.get(ENV_DB) or DEFAULT_DB)


def connect(db: str | os.PathLike[str] | None = None, *, read_only: bool = False,
            sandbox: bool = False) -> "duckdb.DuckDBPyConnection":
    """Open the warehouse; ``sandbox`` also forbids the SQL any file access (for `kifu sql`)."""
    import duckdb

    path = db_path(db)
    if read_only and not Path(path).is_file():
        raise KifuError(Msg("warehouse.missing", env=ENV_DB), where=path)
    config = {"enable_external_access": False} if sandbox else {}
    try:
        con = duckdb.connect(path, read_only=read_only, config=config)
    except duckdb.Error as exc:
        raise KifuError(Msg("warehouse.cannot_open", detail=str(exc)), where=path) from None
    # Months of the Parquet partitions and printed times must not depend on the machine's zone.
    con.execute("SET TimeZone = 'UTC'")
    # DuckDB's own progress bar would land in the middle of `kifu sql` output.
    con.execute("SET enable_progress_bar = false")
    return con


def create_schema(con: "duckdb.DuckDBPyConnection", mods: Iterable[ModuleType] | None = None) -> None:
    """Tables if missing, every view (re)created, and the feed tables rebuilt if a feed changed."""
    mods = tuple(modules() if mods is None else mods)
    for sql in SCHEMA + tuple(statements(mods)):
        con.execute(sql)
    stored = con.execute("SELECT digest FROM feed_versions WHERE feed = 'all'").fetchone()
    if stored is None or stored[0] != digest(mods):
        refresh_feeds(con, mods)


def refresh_feeds(con: "duckdb.DuckDBPyConnection", mods: Iterable[ModuleType] | None = None) -> None:
    """Recompute ``random_outcomes`` and ``run_lengths`` from every stored event."""
    mods = tuple(modules() if mods is None else mods)
    con.execute("BEGIN TRANSACTION")
    con.execute("DELETE FROM random_outcomes")
    con.execute("DELETE FROM run_lengths")
    for sql in feed_inserts(mods, "events"):
        con.execute(sql)
    con.execute("INSERT OR REPLACE INTO feed_versions VALUES ('all', $d)", {"d": digest(mods)})
    con.execute("COMMIT")


# --- reading -------------------------------------------------------------------------


READ_ONLY_TYPES = ("SELECT", "EXPLAIN")


def check_read_only(sql: str) -> None:
    """Refuse anything but one SELECT (or EXPLAIN): `kifu sql` never writes."""
    import duckdb

    try:
        stmts = duckdb.extract_statements(sql)
    except duckdb.Error as exc:
        raise KifuError(Msg("sql.parse", detail=_first_line(exc))) from None
    if len(stmts) != 1:
        raise KifuError(Msg("sql.one_statement", count=len(stmts)))
    kind = stmts[0].type.name
    if kind not in READ_ONLY_TYPES:
        raise KifuError(Msg("sql.read_only", kind=kind))


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def query(con: "duckdb.DuckDBPyConnection", sql: str, params: dict[str, str] | None = None
          ) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run one read-only statement with bound parameters; (column names, rows)."""
    import duckdb

    check_read_only(sql)
    try:
        cur = con.execute(sql, params or None)
        rows = cur.fetchall()
    except duckdb.Error as exc:
        raise KifuError(Msg("sql.error", detail=_first_line(exc))) from None
    return [d[0] for d in cur.description or ()], rows


def match_lines(con: "duckdb.DuckDBPyConnection", match: str) -> bytes:
    """A stored match as its original log, byte for byte (it verifies with `kifu verify`)."""
    rows = con.execute("SELECT line FROM event_lines WHERE match = $match ORDER BY seq", {"match": match}).fetchall()
    if not rows:
        raise KifuError(Msg("warehouse.no_match", match=repr(match)))
    return b"".join(r[0].encode("utf-8") + b"\n" for r in rows)


EXPORTS: dict[str, str] = {
    "matches": "SELECT m.*, coalesce(strftime(m.first_at, '%Y-%m'), 'unknown') AS month FROM matches m",
    "events": """SELECT e.* EXCLUDE (event), m.game, coalesce(strftime(m.first_at, '%Y-%m'), 'unknown') AS month
                 FROM events e JOIN matches m USING (match)""",
    "findings": """SELECT f.*, m.game, coalesce(strftime(m.first_at, '%Y-%m'), 'unknown') AS month
                   FROM findings f JOIN matches m USING (match)""",
}
"""Datasets of `kifu export --parquet`; a match's month is the month (UTC) of its first event."""


def export_parquet(con: "duckdb.DuckDBPyConnection", out: str | os.PathLike[str]) -> dict[str, int]:
    """Hive-partitioned Parquet under OUT/<dataset>/game=…/month=…/; rows written per dataset."""
    import duckdb

    written = {}
    Path(out).mkdir(parents=True, exist_ok=True)
    for name, sql in EXPORTS.items():
        target = str(Path(out) / name)
        try:
            con.execute(f"COPY ({sql}) TO $target (FORMAT parquet, PARTITION_BY (game, month), "
                        "OVERWRITE_OR_IGNORE true, FILENAME_PATTERN 'part-{i}')", {"target": target})
        except duckdb.Error as exc:
            raise KifuError(Msg("warehouse.export_failed", detail=_first_line(exc)), where=target) from None
        written[name] = con.execute(f"SELECT count(*) FROM ({sql})").fetchone()[0]  # type: ignore[index]
    return written
