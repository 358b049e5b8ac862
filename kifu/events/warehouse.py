"""The warehouse: verified match logs of every game in an embedded DuckDB (issue 7).

``ingest`` verifies each log (schema with msgspec, hash chain), audits it with a
callable the caller passes in (this layer never imports the auditor), and loads
it in bulk: Python workers, one match at a time over a process pool, return only
per-match facts; DuckDB itself reads the files again with ``read_text``, keeps
only those whose whole-file SHA-256 is the one Python verified, and splits and
parses the lines in SQL. Tables, views and their columns are documented in
docs/sql.md. duckdb is imported lazily: commands that do not use the warehouse
must not pay for it.
"""

from __future__ import annotations

import hashlib
import os
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

import msgspec

from . import logfile
from .base import Event, KifuError, MatchEnded, MatchStarted
from .codec import Codec
from .views import MODULES, digest, feed_inserts, statements

if TYPE_CHECKING:
    import duckdb

DEFAULT_DB = "kifu.duckdb"
ENV_DB = "KIFU_DB"

CodecFor = Callable[[str], Codec]
Audit = Callable[[list[Event]], Sequence[Any]]
"""Audits one verified match; returns Findings (msgspec Structs)."""

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
        evidence JSON)""",
    # The exact line stays VARCHAR (byte-exact export); the JSON cast is only paid when selected.
    "CREATE OR REPLACE VIEW events AS " + _EVENTS_VIEW.format(table="event_lines"),
)

_STAGE = "CREATE OR REPLACE TEMP TABLE _stage (path VARCHAR, match VARCHAR, n BIGINT, head VARCHAR, digest VARCHAR)"

# DuckDB reads each file again; the SHA-256 of the whole file proves it read the
# very bytes Python verified (a file may change in between). One hash per file
# costs far less than re-checking the chain line by line with a window, and a
# file whose hash differs contributes no rows at all.
_CHANGED = """
SELECT path, match, digest FROM _stage WHERE match NOT IN (SELECT DISTINCT match FROM _batch)"""

# The batch's events, parsed once; the feeds then read only these (``_batch_events``).
# A time counts only with its UTC offset (KIFU-LOG-004): a naive one would silently become UTC.
_PARSE_BATCH = """
CREATE OR REPLACE TEMP TABLE _batch AS
WITH f AS (SELECT s.match, s.n, string_split(f.content, chr(10)) AS ls
           FROM read_text($files) f JOIN _stage s ON s.path = f.filename AND s.digest = sha256(f.content)),
raw AS (SELECT match, n, unnest(ls) AS raw, generate_subscripts(ls, 1) AS seq FROM f),
l AS (SELECT match, seq,
             CASE WHEN suffix(raw, chr(13)) THEN left(raw, length(raw) - 1) ELSE raw END AS line
      FROM raw WHERE seq <= n),
j AS (SELECT match, seq, line,
             json_extract_string(line, ['$.type', '$.at', '$.by', '$.src']) AS env FROM l)
SELECT match, seq, env[1] AS type,
       CASE WHEN regexp_matches(env[2], '([Zz]|[+-][0-9][0-9]:?[0-9][0-9])$') THEN TRY_CAST(env[2] AS TIMESTAMPTZ) END
           AS time,
       env[3] AS actor, env[4]::JSON AS src, line
FROM j
"""

_BATCH_EVENTS = "CREATE OR REPLACE TEMP VIEW _batch_events AS " + _EVENTS_VIEW.format(table="_batch")

_INSERT_LINES = "INSERT INTO event_lines (match, seq, type, time, actor, src, line) SELECT * FROM _batch"
"""By name: a warehouse made before time_text was dropped from the table still loads."""

_MATCH_ROW = (
    '[{"match":"VARCHAR","game":"VARCHAR","title":"VARCHAR","players":[{"id":"VARCHAR","name":"VARCHAR"}],'
    '"rules":"JSON","first_at":"TIMESTAMPTZ","last_at":"TIMESTAMPTZ","events":"BIGINT","head":"VARCHAR",'
    '"ended_seq":"BIGINT","winner":"VARCHAR","end_reason":"VARCHAR","source":"VARCHAR"}]'
)
_INSERT_MATCHES = f"""
INSERT INTO matches
SELECT r.match, r.game, r.title, r.players, r.rules, r.first_at, r.last_at, r.events, r.head,
       r.ended_seq, r.winner, r.end_reason, r.source
FROM (SELECT unnest(from_json($rows, '{_MATCH_ROW}')) AS r)
"""

_FINDING_ROW = (
    '[{"match":"VARCHAR","code":"VARCHAR","name":"VARCHAR","severity":"VARCHAR","seq":"BIGINT",'
    '"seqs":["BIGINT"],"citation":"VARCHAR","message_en":"VARCHAR","message_ja":"VARCHAR","evidence":"JSON"}]'
)
_INSERT_FINDINGS = f"INSERT INTO findings SELECT unnest(from_json($rows, '{_FINDING_ROW}'), recursive := true)"

_KNOWN_HEADS = "SELECT match, head, source FROM matches"


# --- per match (runs in the worker processes) -----------------------------------


@dataclass
class Checked:
    """What a worker learnt about one log: either the match's facts or why it was refused."""

    path: str
    error: str | None = None
    match: str = ""
    head: str = ""
    digest: str = ""
    """SHA-256 of the whole file as verified."""
    events: int = 0
    row: dict[str, Any] = field(default_factory=dict)
    """The ``matches`` row, as JSON-ready values."""
    findings: list[dict[str, Any]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    """Findings by severity."""
    skipped_audit: bool = False
    """True when the warehouse already holds this exact log (same head): nothing to redo."""
    extends: int | None = None
    """The seq whose hash is the stored head, when this log is the stored one with events appended."""


def _match_row(path: str, events: list[Event], head: str) -> dict[str, Any]:
    start = events[0]
    assert isinstance(start, MatchStarted)
    end = next((e for e in events if isinstance(e, MatchEnded)), None)
    times = _time_range({e.at for e in events if e.at})
    return {
        "match": start.match, "game": start.game, "title": start.title,
        "players": [{"id": p.id, "name": p.name} for p in start.players],
        "rules": msgspec.json.encode(start.rules).decode(), "events": len(events), "head": head,
        "first_at": times[0].isoformat() if times else None, "last_at": times[1].isoformat() if times else None,
        "ended_seq": end.seq if end else None, "winner": end.winner if end else None,
        "end_reason": end.reason if end else None, "source": path,
    }


def _time_range(ats: set[str]) -> tuple[datetime, datetime] | None:
    """The earliest and latest of the times that carry a UTC offset; None if there are none.

    Parsing every time of a match was a third of the verification's cost. Times in
    the plain form ``2026-10-05T09:00:00Z`` (all of one length, in UTC) sort as
    strings in time order, so only the first and last of them are parsed; any
    other form is parsed. If either of the two does not parse, all are.
    """
    plain = [a for a in ats if len(a) == 20 and a[10] == "T" and a[-1] == "Z"]
    picked = [min(plain), max(plain)] if plain else []
    parsed = [t for t in map(_utc, picked) if t is not None]
    if len(parsed) < len(picked):
        plain, parsed = [], []
    rest = ats.difference(plain)
    times = parsed + [t for t in map(_utc, rest) if t is not None]
    return (min(times), max(times)) if times else None


def _utc(at: str) -> datetime | None:
    """An RFC 3339 time in UTC; None without an offset (the same reading as the projector's)."""
    try:
        t = datetime.fromisoformat(at)
    except ValueError:
        return None
    return t.astimezone(timezone.utc) if t.tzinfo is not None else None


def _finding_row(match: str, f: Any) -> dict[str, Any]:
    return {
        "match": match, "code": f.code, "name": f.name, "severity": f.severity, "seq": f.seq,
        "seqs": list(f.seqs), "citation": f.citation, "message_en": f.message.en, "message_ja": f.message.ja,
        "evidence": msgspec.json.encode(f.evidence).decode(),
    }


def check_match(path: str, codec_for: CodecFor, audit: Audit | None, known: dict[str, str] | None = None) -> Checked:
    """Verify and audit one log file; never raises for a bad log (the result names the reason).

    The file is read once: the digest is of the very bytes verified, which DuckDB
    must find again when it loads the file.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return Checked(path, error=str(KifuError(f"cannot read: {exc.strerror}", where=path)))
    return check_bytes(data, path, codec_for, audit, known)


def check_bytes(data: bytes, path: str, codec_for: CodecFor, audit: Audit | None,
                known: dict[str, str] | None = None) -> Checked:
    """``check_match`` of a log already in memory (an object fetched from storage); ``path`` names it."""
    try:
        events, hashes = logfile.verify_bytes(data, codec_for, where=path)
    except KifuError as exc:
        return Checked(path, error=str(exc.located(path)))
    head = hashes[-1]
    row = _match_row(path, events, head)
    out = Checked(path, match=row["match"], head=head, digest=hashlib.sha256(data).hexdigest(),
                  events=len(events), row=row)
    stored = (known or {}).get(out.match)
    if stored == head:
        out.skipped_audit = True
    elif stored is not None and stored in hashes:
        out.extends = hashes.index(stored) + 1
    elif audit is not None:
        for f in audit(events):
            out.findings.append(_finding_row(out.match, f))
            out.counts[f.severity] = out.counts.get(f.severity, 0) + 1
    return out


_WORKER: dict[str, Any] = {}


def _init_worker(codec_for: CodecFor, audit: Audit | None, known: dict[str, str]) -> None:
    _WORKER.update(codec_for=codec_for, audit=audit, known=known)


def _work(path: str) -> Checked:
    return check_match(path, _WORKER["codec_for"], _WORKER["audit"], _WORKER["known"])


def _checked(files: list[str], codec_for: CodecFor, audit: Audit | None, known: dict[str, str],
             jobs: int, start_method: str) -> Iterator[Checked]:
    """Per-match results in file order, over a process pool when it pays."""
    if jobs <= 1 or len(files) < 4:
        for path in files:
            yield check_match(path, codec_for, audit, known)
        return
    ctx = get_context(start_method)
    if start_method == "forkserver":
        # The server imports kifu once; each worker forked from it then starts at once.
        ctx.set_forkserver_preload([__name__, codec_for.__module__, getattr(audit, "__module__", __name__)])
    with ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_init_worker,
                             initargs=(codec_for, audit, known)) as pool:
        yield from pool.map(_work, files, chunksize=max(1, min(32, len(files) // (jobs * 8))))


# --- the database ----------------------------------------------------------------


def db_path(db: str | os.PathLike[str] | None = None) -> str:
    """``db``, else $KIFU_DB, else kifu.duckdb in the working directory."""
    return str(db or os.environ.get(ENV_DB) or DEFAULT_DB)


def connect(db: str | os.PathLike[str] | None = None, *, read_only: bool = False,
            sandbox: bool = False) -> "duckdb.DuckDBPyConnection":
    """Open the warehouse; ``sandbox`` also forbids the SQL any file access (for `kifu sql`)."""
    import duckdb

    path = db_path(db)
    if read_only and not Path(path).is_file():
        raise KifuError(f"no warehouse here; run `kifu ingest` first (or pass --db / set {ENV_DB})", where=path)
    config = {"enable_external_access": False} if sandbox else {}
    try:
        con = duckdb.connect(path, read_only=read_only, config=config)
    except duckdb.Error as exc:
        raise KifuError(f"cannot open the warehouse: {exc}", where=path) from None
    # Months of the Parquet partitions and printed times must not depend on the machine's zone.
    con.execute("SET TimeZone = 'UTC'")
    # DuckDB's own progress bar would land in the middle of `kifu sql` output.
    con.execute("SET enable_progress_bar = false")
    return con


def create_schema(con: "duckdb.DuckDBPyConnection", modules: Iterable[ModuleType] = MODULES) -> None:
    """Tables if missing, every view (re)created, and the feed tables rebuilt if a feed changed."""
    mods = tuple(modules)
    for sql in SCHEMA + tuple(statements(mods)):
        con.execute(sql)
    stored = con.execute("SELECT digest FROM feed_versions WHERE feed = 'all'").fetchone()
    if stored is None or stored[0] != digest(mods):
        refresh_feeds(con, mods)


def refresh_feeds(con: "duckdb.DuckDBPyConnection", modules: Iterable[ModuleType] = MODULES) -> None:
    """Recompute ``random_outcomes`` and ``run_lengths`` from every stored event."""
    mods = tuple(modules)
    con.execute("BEGIN TRANSACTION")
    con.execute("DELETE FROM random_outcomes")
    con.execute("DELETE FROM run_lengths")
    for sql in feed_inserts(mods, "events"):
        con.execute(sql)
    con.execute("INSERT OR REPLACE INTO feed_versions VALUES ('all', $d)", {"d": digest(mods)})
    con.execute("COMMIT")


def log_paths(paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    """Files as given and ``*.jsonl`` under folders (recursively), absolute, sorted, once each."""
    out: dict[str, None] = {}
    for p in map(Path, paths):
        found = sorted(p.rglob("*.jsonl")) if p.is_dir() else [p]
        for f in found:
            out.setdefault(str(f.resolve()), None)
    return list(out)


@dataclass
class Summary:
    """What an ingest did."""

    matches: int = 0
    """Matches stored by this run."""
    unchanged: int = 0
    """Logs the warehouse already held, byte for byte (same match id and head)."""
    events: int = 0
    """Events stored by this run."""
    findings: dict[str, int] = field(default_factory=lambda: {"error": 0, "warning": 0, "info": 0})
    refused: list[tuple[str, str]] = field(default_factory=list)
    """(path, reason) for each log not stored: untrustworthy, or a fork of a stored match."""


Progress = Callable[[int, int, int], None]
"""Called after each log with (logs done, logs in all, events seen so far)."""


def ingest(
    con: "duckdb.DuckDBPyConnection",
    paths: Iterable[str | os.PathLike[str]],
    codec_for: CodecFor,
    audit: Audit | None,
    *,
    jobs: int | None = None,
    modules: Iterable[ModuleType] = MODULES,
    progress: Progress | None = None,
    batch_events: int = 250_000,
    start_method: str = "forkserver",
) -> Summary:
    """Verify, audit and load match logs; see the module docstring.

    ``codec_for`` and ``audit`` run in the worker processes, so they must be
    module-level functions (picklable by name), as ``registry.codec_for`` and
    ``registry.audit`` are; ``audit=None`` loads without findings (benchmarks).

    ``start_method`` of the worker processes: ``forkserver`` by default because
    DuckDB's threads already run in this process and forking a threaded process
    is unsafe; the server preloads kifu so workers start as fast as forks.
    """
    files, mods = log_paths(paths), tuple(modules)
    create_schema(con, mods)
    known = {m: (h, src) for m, h, src in con.execute(_KNOWN_HEADS).fetchall()}
    summary, batch, seen = Summary(), _Batch(feeds=feed_inserts(mods, "_batch_events")), 0
    heads = {m: h for m, (h, _) in known.items()}
    # One checkpoint at the end instead of one every few batches (each rewrites the WAL
    # into compressed row groups): measured 3x cheaper commits on a 100k-event batch.
    threshold = con.execute("SELECT current_setting('checkpoint_threshold')").fetchone()[0]  # type: ignore[index]
    con.execute("SET checkpoint_threshold = '16GB'")
    try:
        for done, c in enumerate(_checked(files, codec_for, audit, heads, jobs or os.cpu_count() or 1,
                                          start_method), 1):
            seen += c.events
            if progress:
                progress(done, len(files), seen)
            if _admit(c, known, summary):
                batch.add(c)
                if batch.events >= batch_events:
                    batch.flush(con, summary)
        batch.flush(con, summary)
    finally:
        con.execute("SET checkpoint_threshold = $t", {"t": threshold})
    con.execute("CHECKPOINT")
    return summary


def _admit(c: Checked, known: dict[str, tuple[str, str]], summary: Summary) -> bool:
    """True if the log is new; records unchanged logs, refusals and forks."""
    if c.error is not None:
        summary.refused.append((c.path, c.error))
        return False
    prior = known.get(c.match)
    if prior is None:
        known[c.match] = (c.head, c.path)
        return True
    if prior[0] == c.head:
        summary.unchanged += 1
    elif c.extends is not None:
        summary.refused.append((c.path, (
            f"match {c.match!r} is stored up to seq {c.extends} (head {prior[0]}, from {prior[1]}); this log "
            f"goes on to seq {c.events} (head {c.head}): events were appended after it was ingested; "
            "stored matches are never replaced: ingest into a fresh warehouse")))
    else:
        summary.refused.append((c.path, (
            f"fork: match {c.match!r} is already stored with head {prior[0]} (from {prior[1]}); "
            f"this log's head is {c.head}; a log is never replaced")))
    return False


def _json(rows: list[dict[str, Any]]) -> str:
    return msgspec.json.encode(rows).decode()


@dataclass
class _Batch:
    """Logs waiting to be loaded together in one transaction."""

    feeds: list[str] = field(default_factory=list)
    """The feeds' INSERTs over ``_batch_events`` (this batch's events)."""
    items: list[Checked] = field(default_factory=list)
    events: int = 0

    def add(self, c: Checked) -> None:
        self.items.append(c)
        self.events += c.events

    def flush(self, con: "duckdb.DuckDBPyConnection", summary: Summary) -> None:
        if not self.items:
            return
        con.execute("BEGIN TRANSACTION")
        try:
            good = self._load(con, summary)
            con.execute(_INSERT_MATCHES, {"rows": _json([c.row for c in good])})
            con.execute(_INSERT_FINDINGS, {"rows": _json([f for c in good for f in c.findings])})
            for sql in self.feeds:
                con.execute(sql)
            con.execute("DROP VIEW _batch_events")
            con.execute("DROP TABLE _batch")
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        for c in good:
            summary.matches += 1
            summary.events += c.events
            for sev, n in c.counts.items():
                summary.findings[sev] = summary.findings.get(sev, 0) + n
        self.items, self.events = [], 0

    def _load(self, con: "duckdb.DuckDBPyConnection", summary: Summary) -> list[Checked]:
        con.execute(_STAGE)
        stage = [{"path": c.path, "match": c.match, "n": c.events, "head": c.head, "digest": c.digest}
                 for c in self.items]
        con.execute("INSERT INTO _stage SELECT unnest(from_json($rows, '[{\"path\":\"VARCHAR\",\"match\":\"VARCHAR\","
                    "\"n\":\"BIGINT\",\"head\":\"VARCHAR\",\"digest\":\"VARCHAR\"}]'), recursive := true)",
                    {"rows": _json(stage)})
        con.execute(_PARSE_BATCH, {"files": [c.path for c in self.items]})
        changed = {m: (p, want) for p, m, want in con.execute(_CHANGED).fetchall()}
        for m, (p, want) in changed.items():
            summary.refused.append((p, f"the file changed while it was ingested (its sha256 was {want} when verified)"))
        con.execute(_BATCH_EVENTS)
        con.execute(_INSERT_LINES)
        return [c for c in self.items if c.match not in changed]


# --- reading -------------------------------------------------------------------------


READ_ONLY_TYPES = ("SELECT", "EXPLAIN")


def check_read_only(sql: str) -> None:
    """Refuse anything but one SELECT (or EXPLAIN): `kifu sql` never writes."""
    import duckdb

    try:
        stmts = duckdb.extract_statements(sql)
    except duckdb.Error as exc:
        raise KifuError(f"SQL does not parse: {_first_line(exc)}") from None
    if len(stmts) != 1:
        raise KifuError(f"give exactly one statement (found {len(stmts)})")
    kind = stmts[0].type.name
    if kind not in READ_ONLY_TYPES:
        raise KifuError(f"only SELECT is allowed here; this is a {kind} statement, refused")


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
        raise KifuError(f"SQL: {_first_line(exc)}") from None
    return [d[0] for d in cur.description or ()], rows


def match_lines(con: "duckdb.DuckDBPyConnection", match: str) -> bytes:
    """A stored match as its original log, byte for byte (it verifies with `kifu verify`)."""
    rows = con.execute("SELECT line FROM event_lines WHERE match = $match ORDER BY seq", {"match": match}).fetchall()
    if not rows:
        raise KifuError(f"no match {match!r} in the warehouse")
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
            raise KifuError(f"export: {_first_line(exc)}", where=target) from None
        written[name] = con.execute(f"SELECT count(*) FROM ({sql})").fetchone()[0]  # type: ignore[index]
    return written
