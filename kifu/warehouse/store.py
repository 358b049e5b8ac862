"""The warehouse's DuckDB file: its tables, opening it, read-only queries, exports.

Tables, views and their columns are documented in docs/sql.md. duckdb is imported
lazily: commands that do not use the warehouse must not pay for it.
"""

from __future__ import annotations

import os
import re
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any
from collections.abc import Iterable

import msgspec

from kifu.events import atomic
from kifu.events.base import KifuError
from kifu.events.i18n import Msg

from . import people
from .views import digest, facts, feed_inserts, insert_facts, match_facts, modules, of_game, selects, stored

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
        players STRUCT(id VARCHAR, name VARCHAR, "key" VARCHAR)[], rules JSON,
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
    # kifu's stance on each judge ruling (kifu.auditor.stance), as the audit at ingest decided it; the
    # `rulings` view joins it to the ruling's own fields (docs/sql.md, "Rulings and kifu's stance")
    """CREATE TABLE IF NOT EXISTS ruling_stances (
        match VARCHAR NOT NULL, seq BIGINT NOT NULL, stance VARCHAR NOT NULL, judge_broken BOOLEAN,
        kifu VARCHAR NOT NULL, finding_codes VARCHAR[], finding_seqs BIGINT[], says_en VARCHAR, says_ja VARCHAR)""",
    # The exact line stays VARCHAR (byte-exact export); the JSON cast is only paid when selected.
    "CREATE OR REPLACE VIEW events AS " + _EVENTS_VIEW.format(table="event_lines"),
)


def db_path(db: str | os.PathLike[str] | None = None) -> str:
    """``db``, else $KIFU_DB, else kifu.duckdb in the working directory."""
    return str(db or os.environ.get(ENV_DB) or DEFAULT_DB)


ENV_WAIT = "KIFU_DB_WAIT"
DEFAULT_WAIT = 30.0
"""Seconds a command waits for another process's hold on the warehouse file before it gives up."""


def lock_wait(wait: float | None = None) -> float:
    """``wait``, else $KIFU_DB_WAIT, else ``DEFAULT_WAIT`` seconds."""
    if wait is not None:
        return max(0.0, wait)
    try:
        return max(0.0, float(os.environ.get(ENV_WAIT, DEFAULT_WAIT)))
    except ValueError:
        return DEFAULT_WAIT


def connect(
    db: str | os.PathLike[str] | None = None,
    *,
    read_only: bool = False,
    sandbox: bool = False,
    wait: float | None = None,
) -> duckdb.DuckDBPyConnection:
    """Open the warehouse; ``sandbox`` also forbids the SQL any file access (for `kifu sql`).

    DuckDB lets one process write a file, or any number read it, at a time. While
    another process holds it (an ingest running), this waits up to ``wait`` seconds
    (``lock_wait``) for it, then gives up with one line naming the holder.
    """
    import duckdb

    path = db_path(db)
    # DuckDB follows a link and creates what it names (a dangling --db made the link's target): the
    # warehouse, and the write-ahead log beside it, are opened only under their own names.
    for name in (path, path + ".wal"):
        atomic.check_output(name)
    if read_only and not Path(path).is_file():
        raise KifuError(Msg("warehouse.missing", env=ENV_DB), where=path)
    if not read_only and not os.path.lexists(path):
        _create(path)
    config = {"enable_external_access": False} if sandbox else {}
    patience = lock_wait(wait)
    deadline, pause = time.monotonic() + patience, 0.05
    while True:
        try:
            con = duckdb.connect(path, read_only=read_only, config=config)
            break
        except duckdb.Error as exc:
            text = str(exc)
            if "lock" not in text.lower():
                raise KifuError(Msg("warehouse.cannot_open", detail=_first_line(exc)), where=path) from None
            left = deadline - time.monotonic()
            if left <= 0:
                holder = re.search(r"PID (\d+)", text)
                who = Msg("warehouse.holder", pid=holder.group(1)) if holder else Msg("warehouse.holder_unknown")
                raise KifuError(
                    Msg("warehouse.in_use", holder=who, seconds=f"{patience:g}", env=ENV_WAIT), where=path
                ) from None
            time.sleep(min(pause, left))
            pause = min(pause * 2, 0.5)
    # Months of the Parquet partitions and printed times must not depend on the machine's zone.
    con.execute("SET TimeZone = 'UTC'")
    # DuckDB's own progress bar would land in the middle of `kifu sql` output.
    con.execute("SET enable_progress_bar = false")
    return con


def _create(path: str) -> None:
    """A new warehouse file, whole or absent: made in a private folder beside ``path`` (its schema
    created and checkpointed into the file), then linked in under its name.

    DuckDB writes a file's header as it opens it: a disk that filled then left a file cut
    short, and every later command failed on it. A warehouse made by another process
    meanwhile is kept (this one is dropped).
    """
    import duckdb

    with atomic.staging(path) as stage:
        made = stage / Path(path).name
        try:
            con = duckdb.connect(str(made))
            try:
                con.execute("SET TimeZone = 'UTC'")
                create_schema(con)
                con.execute("CHECKPOINT")
            finally:
                close(con)
        except duckdb.Error as exc:  # named as the user named it, not by the folder it was made in
            detail = _first_line(exc).replace(str(made), path)
            raise KifuError(Msg("warehouse.cannot_create", detail=detail), where=path) from None
        try:
            atomic.link_new(str(made), path)
        except KifuError:  # made meanwhile by another kifu: that one is the warehouse
            return
        except OSError as exc:
            raise atomic.cannot_write(exc, path) from None
        atomic.fsync_dir(path)


PLAYERS_TYPE = 'STRUCT(id VARCHAR, name VARCHAR, "key" VARCHAR)[]'

# A warehouse made before players had a key: the type grows, and each match's players are read
# again from its stored match.start line (the log is the truth; nothing else knows the keys).
_MIGRATE_PLAYERS = (
    f"ALTER TABLE matches ALTER players TYPE {PLAYERS_TYPE}",
    """UPDATE matches SET players = s.players FROM (
            SELECT match, from_json(json_extract(line, '$.players'),
                                    '[{"id": "VARCHAR", "name": "VARCHAR", "key": "VARCHAR"}]') AS players
            FROM event_lines WHERE seq = 1) s
        WHERE s.match = matches.match""",
)


def close(con: duckdb.DuckDBPyConnection) -> None:
    """Close a connection, also one a failed write (a full disk) left unusable."""
    import duckdb

    try:
        con.close()
    except duckdb.Error:
        pass


def create_schema(con: duckdb.DuckDBPyConnection, mods: Iterable[ModuleType] | None = None) -> None:
    """Tables if missing, every view (re)created, and the feed tables rebuilt if a feed changed.

    One transaction: a disk that fills half-way (DuckDB commits to its write-ahead log)
    leaves the warehouse as it was, never half a migration that the next command trips on.
    """
    import duckdb

    mods = tuple(modules() if mods is None else mods)
    con.execute("BEGIN TRANSACTION")
    try:
        for sql in SCHEMA + stored(mods) + (people.TABLE,):
            con.execute(sql)
        kind = con.execute(
            "SELECT data_type FROM duckdb_columns() WHERE table_name = 'matches' "
            "AND column_name = 'players' AND schema_name = 'main'"
        ).fetchone()
        if kind is not None and "key" not in kind[0].lower():
            for sql in _MIGRATE_PLAYERS:
                con.execute(sql)
        create_views(con, selects(mods))
        _backfill_randomness(con)
        _backfill_stances(con)
        known = con.execute("SELECT digest FROM feed_versions WHERE feed = 'all'").fetchone()
        if known is None or known[0] != digest(mods):
            _refill_feeds(con, mods)
        con.execute("COMMIT")
    except BaseException:
        try:
            con.execute("ROLLBACK")
        except duckdb.Error:  # a COMMIT that failed has rolled back already
            pass
        raise


_COLUMNS = "SELECT column_name FROM duckdb_columns() WHERE table_name = $name AND schema_name = 'main'"


def create_views(con: duckdb.DuckDBPyConnection, views: dict[str, str]) -> None:
    """Each view in order; one that has ``match`` and ``player`` columns gains ``person`` (docs/sql.md, "People")."""
    for name, sql in views.items():
        con.execute(f"CREATE OR REPLACE VIEW {name} AS {sql}")
        cols = {c for (c,) in con.execute(_COLUMNS, {"name": name}).fetchall()}
        if {"match", "player"} <= cols and "person" not in cols:
            con.execute(
                f"CREATE OR REPLACE VIEW {name} AS SELECT v.*, p.person FROM ({sql}) v "
                f"LEFT JOIN {people.PERSON_OF} p ON p.match = v.match AND p.player = v.player"
            )


_RANDOMNESS_ROW = '[{"match":"VARCHAR","verifiable":["BIGINT"],"voided":["BIGINT"]}]'
INSERT_RANDOMNESS = (
    f"INSERT INTO match_randomness BY NAME SELECT unnest(from_json($rows, '{_RANDOMNESS_ROW}'), recursive := true)"
)

_STANCE_ROW = (
    '[{"match":"VARCHAR","seq":"BIGINT","stance":"VARCHAR","judge_broken":"BOOLEAN","kifu":"VARCHAR",'
    '"finding_codes":["VARCHAR"],"finding_seqs":["BIGINT"],"says_en":"VARCHAR","says_ja":"VARCHAR"}]'
)
INSERT_STANCES = (
    f"INSERT INTO ruling_stances BY NAME SELECT unnest(from_json($rows, '{_STANCE_ROW}'), recursive := true)"
)

STANCES = "stance/1"
"""The version of kifu's stances stored in ``ruling_stances`` (``feed_versions``, feed ``rulings``): a warehouse
that holds another (or none: made before the table) has them worked out again from its stored logs."""


def _backfill_stances(con: duckdb.DuckDBPyConnection) -> None:
    """kifu's stance on the rulings of every stored match that records one, when the warehouse holds no
    stances of this version: each such match audited anew from its stored lines, as ingest does."""
    from kifu import app

    from .checked import ruling_rows

    known = con.execute("SELECT digest FROM feed_versions WHERE feed = 'rulings'").fetchone()
    if known is not None and known[0] == STANCES:
        return
    con.execute("DELETE FROM ruling_stances")
    ids = con.execute("SELECT DISTINCT match FROM event_lines WHERE type = 'judge.ruling' ORDER BY match")
    rows = []
    for (match,) in ids.fetchall():
        try:
            done = app.audit(match_lines(con, match), where=match)
        except KifuError:
            continue  # stored lines that no longer verify are no match to judge: its rulings keep no stance
        rows += ruling_rows(match, done.stances)
    con.execute(INSERT_STANCES, {"rows": msgspec.json.encode(rows).decode()})
    con.execute("INSERT OR REPLACE INTO feed_versions VALUES ('rulings', $d)", {"d": STANCES})


_UNJUDGED = "SELECT match FROM matches ANTI JOIN match_randomness USING (match)"
_MAY_HAVE_STATUS = """SELECT DISTINCT match FROM event_lines
    WHERE match IN (SELECT match FROM unjudged) AND type IN ('log.void', 'rng.commit', 'rng.nonce', 'rng.reveal')"""


def _backfill_randomness(con: duckdb.DuckDBPyConnection) -> None:
    """Each stored match that has no ``match_randomness`` row yet (a warehouse made before it) gets one,
    decided by the audit's own definition from its stored lines. Only a match with a log.void or a
    verifiable toss can have a verifiable or voided outcome: the others get empty lists in one statement."""
    from kifu.events import logfile

    from .checked import randomness_row

    if con.execute(f"SELECT count(*) FROM ({_UNJUDGED})").fetchone()[0] == 0:  # type: ignore[index]
        return
    con.execute(f"CREATE OR REPLACE TEMP TABLE unjudged AS {_UNJUDGED}")
    rows = []
    for (match,) in con.execute(_MAY_HAVE_STATUS).fetchall():
        lines = con.execute("SELECT line FROM event_lines WHERE match = $m ORDER BY seq", {"m": match}).fetchall()
        data = "".join(line + "\n" for (line,) in lines).encode()
        try:
            events, _ = logfile.verify_bytes(data, where=match)
        except KifuError:
            continue  # stored lines that no longer verify are no data to judge: the match keeps none
        rows.append(randomness_row(match, events))
    con.execute(INSERT_RANDOMNESS, {"rows": msgspec.json.encode(rows).decode()})
    con.execute(
        "INSERT INTO match_randomness SELECT match, [], [] FROM unjudged ANTI JOIN match_randomness USING (match)"
    )
    con.execute("DROP TABLE unjudged")


def refresh_feeds(con: duckdb.DuckDBPyConnection, mods: Iterable[ModuleType] | None = None) -> None:
    """Recompute ``random_outcomes`` and ``run_lengths`` from every stored event, and the facts tables from
    every stored match's log (a warehouse made before a game's facts table has none)."""
    mods = tuple(modules() if mods is None else mods)
    con.execute("BEGIN TRANSACTION")
    _refill_feeds(con, mods)
    con.execute("COMMIT")


def _refill_feeds(con: duckdb.DuckDBPyConnection, mods: tuple[ModuleType, ...]) -> None:
    """``refresh_feeds`` inside the caller's transaction."""
    _refill_facts(con, mods)
    con.execute("DELETE FROM random_outcomes")
    con.execute("DELETE FROM run_lengths")
    for sql in feed_inserts(mods, "events"):
        con.execute(sql)
    con.execute("INSERT OR REPLACE INTO feed_versions VALUES ('all', $d)", {"d": digest(mods)})


def _refill_facts(con: duckdb.DuckDBPyConnection, mods: tuple[ModuleType, ...]) -> None:
    """Every facts table filled again: each stored match of a game that has one, verified and audited anew."""
    tables = facts(mods)
    if not tables:
        return
    from kifu import app

    for name in tables:
        con.execute(f"DELETE FROM {name}")
    wanted = [g for (g,) in con.execute("SELECT DISTINCT game FROM matches").fetchall() if of_game(g) in mods]
    ids = con.execute("SELECT match FROM matches WHERE list_contains($g, game) ORDER BY match", {"g": wanted})
    for (match,) in ids.fetchall():
        done = app.audit(match_lines(con, match), where=match)
        insert_facts(con, [match_facts(match, done.game, done.final.game)])


# --- reading -------------------------------------------------------------------------


def open_read(
    db: str | os.PathLike[str] | None = None,
    identity: people.Identity | None = None,
    *,
    sandbox: bool = False,
    wait: float | None = None,
) -> duckdb.DuckDBPyConnection:
    """The warehouse opened read-only, its ``people`` table first brought up to date with the
    identity file (a short read-write open when the file changed since it was computed, or the
    warehouse predates people)."""
    import duckdb

    identity = identity or people.Identity()
    con = connect(db, read_only=True, sandbox=sandbox, wait=wait)
    if people.stored_digest(con) == identity.version:
        return con
    con.close()
    try:
        rw = connect(db, wait=wait)
    except KifuError as exc:
        raise KifuError(
            Msg("people.stale_read_only", file=identity.path or "-", detail=exc.message), where=db_path(db)
        ) from None
    try:
        create_schema(rw)
        people.refresh(rw, identity)
    except duckdb.Error as exc:
        raise KifuError(Msg("people.refresh_failed", detail=_first_line(exc)), where=db_path(db)) from None
    finally:
        rw.close()
    return connect(db, read_only=True, sandbox=sandbox, wait=wait)


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


def query(
    con: duckdb.DuckDBPyConnection, sql: str, params: dict[str, str] | None = None, timeout: float | None = None
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run one read-only statement with bound parameters; (column names, rows).

    The statement runs on a helper thread (DuckDB releases the GIL while it works)
    while this thread waits: Ctrl-C (KeyboardInterrupt) or ``timeout`` seconds
    (None or 0: no limit) stop it at once with DuckDB's own interrupt, instead of
    whenever the query would have ended.
    """
    import duckdb

    check_read_only(sql)
    done: dict[str, Any] = {}
    finished = threading.Event()

    def run() -> None:
        try:
            cur = con.execute(sql, params or None)
            done["rows"], done["columns"] = cur.fetchall(), [d[0] for d in cur.description or ()]
        except BaseException as exc:  # handed to the waiting thread
            done["error"] = exc
        finally:
            finished.set()

    worker = threading.Thread(target=run, name="kifu-sql", daemon=True)
    deadline = time.monotonic() + timeout if timeout else None
    worker.start()
    try:
        # Our own flag, not Thread.join/is_alive: a join cut short by Ctrl-C can leave the
        # thread looking stopped while DuckDB still runs in it (and exiting then aborts).
        while not finished.wait(0.1):
            if deadline is not None and time.monotonic() >= deadline:
                _stop(con, finished)
                raise KifuError(Msg("sql.timeout", seconds=f"{timeout:g}"))
    except KeyboardInterrupt:
        _stop(con, finished)
        raise
    error = done.get("error")
    if isinstance(error, duckdb.Error):
        raise KifuError(Msg("sql.error", detail=_first_line(error))) from None
    if error is not None:
        raise error
    return done["columns"], done["rows"]


def _stop(con: duckdb.DuckDBPyConnection, finished: threading.Event) -> None:
    """Interrupt the running statement and wait for it to unwind (a second Ctrl-C does not cut that short).

    The interrupt is repeated until the statement has ended: DuckDB forgets one that comes while it
    is still preparing the statement (binding, planning), and the statement would then run on.
    """
    while not finished.is_set():
        con.interrupt()
        try:
            finished.wait(0.1)
        except KeyboardInterrupt:
            pass


def match_lines(con: duckdb.DuckDBPyConnection, match: str) -> bytes:
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
    "random_outcomes": """SELECT r.*, coalesce(strftime(m.first_at, '%Y-%m'), 'unknown') AS month
                          FROM random_outcomes r JOIN matches m USING (match)""",
    "run_lengths": """SELECT r.*, coalesce(strftime(m.first_at, '%Y-%m'), 'unknown') AS month
                      FROM run_lengths r JOIN matches m USING (match)""",
    "match_randomness": """SELECT r.*, m.game, coalesce(strftime(m.first_at, '%Y-%m'), 'unknown') AS month
                           FROM match_randomness r JOIN matches m USING (match)""",
    "ruling_stances": """SELECT r.*, m.game, coalesce(strftime(m.first_at, '%Y-%m'), 'unknown') AS month
                         FROM ruling_stances r JOIN matches m USING (match)""",
}
"""Datasets of `kifu export --parquet`; a match's month is the month (UTC) of its first event."""

_FACTS_EXPORT = """SELECT f.*, m.game, coalesce(strftime(m.first_at, '%Y-%m'), 'unknown') AS month
                   FROM {table} f JOIN matches m USING (match)"""


def exports() -> dict[str, str]:
    """``EXPORTS``, then each game's facts table (``views.Facts``) the same way."""
    return {**EXPORTS, **{name: _FACTS_EXPORT.format(table=name) for name in facts()}}
