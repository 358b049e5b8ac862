"""Ingest: verified and audited match logs of every game into the warehouse.

``ingest`` verifies each log (the log layer's one verifier: schema, hash chain, the
game's match.start), audits the verified events (``kifu.app.audit``: one fold, whose final
state also gives the game's facts tables), and loads it in bulk: Python workers, one match at
a time over a process pool, return the per-match facts, the very bytes they verified and the envelope columns they
already decoded (type, time, author, source; one small JSON document per match).
DuckDB splits the bytes into lines and parses the small documents, never the
lines themselves: what it stores is, by construction, what was verified, and
no file is read twice. A log that cannot be trusted is refused with its reason and
the others are loaded. Tables, views and their columns are documented in docs/sql.md.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Iterable, Iterator, Sequence

import msgspec

from kifu import app
from kifu.app.batch import Workers, cores, firsts, game_modules, merged
from kifu.events import logfile, rfc3339
from kifu.events.base import KifuError
from kifu.events.i18n import Msg

from . import people, stream
from .checked import Audit, Checked, columns, finding_row, match_row, randomness_row, ruling_rows, types_of
from .store import _EVENTS_VIEW, INSERT_RANDOMNESS, INSERT_STANCES, connect, create_schema
from .views import feed_inserts, insert_facts, match_facts, modules

if TYPE_CHECKING:
    import duckdb

# The batch's events, parsed once in pieces of lines (``stream.PARSE``); the feeds then read only these
# (``_batch_events``). DuckDB splits the verified bytes into lines and parses the small documents of
# envelope columns the workers decoded, never the lines themselves.
_BATCH_EVENTS = "CREATE OR REPLACE TEMP VIEW _batch_events AS " + _EVENTS_VIEW.format(table="_batch")

_INSERT_LINES = "INSERT INTO event_lines (match, seq, type, time, actor, src, line) SELECT * FROM _batch"
"""By name: a warehouse made before time_text was dropped from the table still loads."""

_MATCH_ROW = (
    '[{"match":"VARCHAR","game":"VARCHAR","title":"VARCHAR","players":[{"id":"VARCHAR","name":"VARCHAR","key":"VARCHAR"}],'
    '"rules":"JSON","events":"BIGINT","head":"VARCHAR",'
    '"ended_seq":"BIGINT","winner":"VARCHAR","end_reason":"VARCHAR","source":"VARCHAR"}]'
)
# first_at/last_at are the earliest and latest ``time`` of the match's events: the same
# reading of ``at`` as the events table's (an offset is required).
_INSERT_MATCHES = f"""
INSERT INTO matches
SELECT r.match, r.game, r.title, r.players, r.rules, t.first_at, t.last_at, r.events, r.head,
       r.ended_seq, r.winner, r.end_reason, r.source
FROM (SELECT unnest(from_json($rows, '{_MATCH_ROW}')) AS r)
JOIN (SELECT match, min(time) AS first_at, max(time) AS last_at FROM _batch GROUP BY match) t ON t.match = r.match
"""

_FINDING_ROW = (
    '[{"match":"VARCHAR","code":"VARCHAR","name":"VARCHAR","severity":"VARCHAR","seq":"BIGINT",'
    '"seqs":["BIGINT"],"citation":"VARCHAR","message_en":"VARCHAR","message_ja":"VARCHAR","evidence":"JSON",'
    '"consequences":["BIGINT"]}]'
)
_INSERT_FINDINGS = f"INSERT INTO findings BY NAME SELECT unnest(from_json($rows, '{_FINDING_ROW}'), recursive := true)"

_KNOWN_HEADS = "SELECT match, head, source FROM matches"


def load_facts(con: duckdb.DuckDBPyConnection, items: Sequence[Checked]) -> None:
    """Insert the facts tables' rows of checked matches."""
    insert_facts(con, [c.facts for c in items])


def check_match(
    path: str, audit: Audit | None = app.audit, known: dict[str, str] | None = None, *, digest: bool = True
) -> Checked:
    """Verify and audit one log file; never raises for a bad log (the result names the reason).

    The file is read once: the bytes verified are the bytes loaded (and digested).
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return Checked(path, error=KifuError(Msg("io.cannot_read", reason=exc.strerror), where=path))
    return check_bytes(data, path, audit, known, digest=digest)


def check_bytes(
    data: bytes,
    path: str,
    audit: Audit | None = app.audit,
    known: dict[str, str] | None = None,
    *,
    digest: bool = True,
) -> Checked:
    """``check_match`` of a log already in memory (an object fetched from storage); ``path`` names it.

    ``digest=False`` leaves ``Checked.digest`` empty: ``ingest`` loads the bytes it is handed
    and never needs it (an engine that reads the files again does).
    """
    try:
        verified = logfile.verify_bytes(data, where=path)
        # What the warehouse cannot store as written (a time it would keep as NULL, two seats it
        # would take for one person) is refused as kifu verify refuses it, never loaded half-read.
        rfc3339.check_events(verified.events, path)
    except KifuError as exc:
        return Checked(path, error=exc.located(path))
    events, head = verified.events, verified.head.hash
    types = types_of(events)
    row = match_row(path, events, types, head)
    out = Checked(
        path,
        match=row["match"],
        head=head,
        digest=hashlib.sha256(data).hexdigest() if digest else "",
        events=len(events),
        row=row,
    )
    stored = (known or {}).get(out.match)
    if stored == head:  # the warehouse holds this very log: nothing to redo
        return out
    if stored is not None:
        # A verified prev is the hash of the line before it: the stored head is an earlier line of
        # this log when some event's prev names it.
        extends = next((e.seq - 1 for e in events if e.prev == stored), None)
        if extends is not None:
            out.extends = extends
            return out
    if audit is not None:  # the events verified above, audited in one fold
        done = audit(logfile.Log(path, events[0], events, verified.head))  # type: ignore[arg-type]
        for f in done.findings:
            out.findings.append(finding_row(out.match, f))
            out.counts[f.severity] = out.counts.get(f.severity, 0) + 1
        out.facts = match_facts(out.match, done.game, done.final.game)
        out.rulings = ruling_rows(out.match, done.stances)
    out.randomness = randomness_row(out.match, events)
    out.data, out.columns = data, columns(events, types)
    return out


_WORKER: dict[str, Any] = {}


def _init_worker(audit: Audit | None) -> None:
    _WORKER["audit"] = audit


def _work(task: tuple[str, str, str]) -> Checked:
    """One log checked in a worker: (its path, the match id its first line names, that match's stored head or "")."""
    path, match, head = task
    return check_match(path, _WORKER["audit"], {match: head} if head else None, digest=False)


@dataclass
class Checkers:
    """ingest's worker processes and the logs checked before they started (``checkers``)."""

    files: list[str]
    """The logs they are for, in order."""
    named: list[tuple[str, str] | None]
    """The (game, match) each log's first line names (``kifu.app.batch.firsts``)."""
    early: dict[int, Checked]
    """The first log of each game, checked in this process before the workers started, as if nothing were stored."""
    workers: Workers

    def close(self) -> None:
        self.workers.close()

    def __enter__(self) -> Checkers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def checkers(
    files: list[str], jobs: int, audit: Audit | None = app.audit, start_method: str | None = None
) -> Checkers | None:
    """Worker processes to check ``files`` (None when one process does: one job, few logs).

    Made before a DuckDB connection is opened (``kifu ingest`` does), they are forked from a process
    running one thread, after this process checked the first log of each game: the game's rules and
    messages are then loaded once, here, and every worker has them. Made later (``ingest`` given
    none), DuckDB's threads run and they start from a fork server that imported kifu and those
    games once.
    """
    files = [f for f in files if not stream.big(f)]  # a big log streams in this process (``_checked``)
    if jobs <= 1 or len(files) < 4:
        return None
    named = firsts(files)
    games = {n[0]: i for i, n in reversed(list(enumerate(named))) if n is not None}
    _init_worker(audit)
    early = {i: check_match(files[i], audit, None, digest=False) for i in sorted(games.values())}
    # "__main__" too: else every worker a fork server starts runs the main script again (the `kifu`
    # console script imports the whole CLI; a script that imports scipy at the top cost each worker
    # half a second). The games' modules: else each worker imports them again.
    preload = ("__main__", __name__, getattr(audit, "__module__", __name__), *game_modules(games))
    workers = Workers(min(jobs, len(files)), preload, _init_worker, (audit,), start_method)
    return Checkers(files, named, early, workers)


def _checked(
    files: list[str],
    audit: Audit | None,
    known: dict[str, str],
    jobs: int,
    start_method: str | None,
    ready: Checkers | None = None,
) -> Iterator[Checked]:
    """Per-match results in file order, over worker processes when there are several logs (``checkers``)."""
    streamed = {f for f in files if stream.big(f)}  # read whole by a worker, a big log would fill memory
    if streamed:
        small = [f for f in files if f not in streamed]
        checked = iter(_checked(small, audit, known, jobs, start_method, ready))
        for path in files:
            yield stream.check(path, audit, known) if path in streamed else next(checked)
        return
    own = ready is None or ready.files != files
    if own:
        ready = checkers(files, jobs, audit, start_method)
    if ready is None:
        for path in files:
            yield check_match(path, audit, known, digest=False)
        return
    try:
        tasks = [(f, n[1], known.get(n[1], "")) if n else (f, "", "") for f, n in zip(files, ready.named)]
        # A log checked early as if nothing were stored is checked again when its match is stored.
        early = {i: c for i, c in ready.early.items() if not tasks[i][2]}
        yield from merged(
            len(files), early, ready.workers.map(_work, [t for i, t in enumerate(tasks) if i not in early])
        )
    finally:
        if own:
            ready.close()


# --- the database ----------------------------------------------------------------


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
    refused: list[tuple[str, KifuError | Msg]] = field(default_factory=list)
    """(path, reason) for each log not stored: untrustworthy (the error), or a fork of a stored match."""


Progress = Callable[[int, int, int], None]
"""Called after each log with (logs done, logs in all, events seen so far)."""


def ingest(
    con: duckdb.DuckDBPyConnection,
    paths: Iterable[str | os.PathLike[str]],
    audit: Audit | None = app.audit,
    *,
    jobs: int | None = None,
    views: Iterable[ModuleType] | None = None,
    progress: Progress | None = None,
    batch_events: int = 250_000,
    start_method: str | None = None,
    loaders: int = 2,
    identity: people.Identity | None = None,
    ready: Checkers | None = None,
) -> Summary:
    """Verify, audit and load match logs; see the module docstring.

    ``ready``: worker processes made for these logs (``checkers``) before ``con`` was opened, so
    that they are forked from a process that ran one thread; without them ``ingest`` starts its own.

    ``identity`` is the identity file (``people.toml``) the ``people`` table is recomputed
    with when matches were stored or the file changed (no file: seats resolve by key and name).

    ``audit`` runs in the worker processes, so it must be a module-level function
    (picklable by name), as ``kifu.app.audit`` is; ``audit=None`` loads without
    findings and facts (benchmarks). ``views`` are the games' view modules (every game's by default).

    ``start_method`` of the worker processes (``kifu.app.batch.ordered``): by default ``fork`` when this
    process runs no other thread, else ``forkserver`` (DuckDB's threads run in it once it is
    connected, and forking a threaded process is unsafe); the server preloads kifu and the games
    of the logs, so workers start as fast as forks.
    """
    import duckdb

    files, mods = log_paths(paths), tuple(modules() if views is None else views)
    try:
        create_schema(con, mods)  # one transaction: a failure leaves the warehouse as it was
    except duckdb.Error as exc:
        raise KifuError(Msg("warehouse.prepare_failed", reason=_reason(exc))) from None
    known = {m: (h, src) for m, h, src in con.execute(_KNOWN_HEADS).fetchall()}
    summary, batch, seen = Summary(), _Batch(), 0
    heads = {m: h for m, (h, _) in known.items()}
    # One checkpoint at the end instead of one every few batches (each rewrites the WAL
    # into compressed row groups): measured 3x cheaper commits on a 100k-event batch.
    # No vacuum at that checkpoint: it merged each batch's last, partly filled row group
    # into full ones, rewriting their lines: 2.0 s of a 5M-event ingest's 19.8, all of it
    # at the end. A partly filled row group per batch costs a scan nothing measurable.
    # One thread per loading connection: the workers keep the other cores busy, and
    # DuckDB's own pool only added CPU (2.5% more events/s without it, medians of 4).
    saved = dict(
        con.execute(
            "SELECT name, value FROM duckdb_settings() "
            "WHERE name IN ('checkpoint_threshold', 'max_vacuum_tasks', 'threads')"
        ).fetchall()
    )
    con.execute("SET checkpoint_threshold = '16GB'")
    con.execute("SET max_vacuum_tasks = 0")
    con.execute("SET threads = 1")
    try:
        with _Loader(con, feed_inserts(mods, "_batch_events"), loaders) as loader:
            for done, c in enumerate(_checked(files, audit, heads, jobs or cores(), start_method, ready), 1):
                seen += c.events
                if progress:
                    progress(done, len(files), seen)
                if _admit(c, known, summary):
                    batch.add(c)
                    if batch.events >= batch_events and done < len(files):
                        loader.submit(batch, summary)
                        batch = _Batch()
            loader.finish(batch, summary)
        identity = identity or people.Identity()
        if summary.matches or people.stored_digest(con) != identity.version:
            people.refresh(con, identity)
    except duckdb.Error as exc:
        raise _load_failed(exc, summary) from None
    try:
        con.execute("CHECKPOINT")
    except duckdb.Error as exc:  # every batch is committed (in the write-ahead log): nothing is lost
        raise KifuError(Msg("warehouse.checkpoint_failed", reason=_reason(exc), stored=summary.matches)) from None
    finally:
        for name, value in saved.items():
            try:
                con.execute(f"SET {name} = $v", {"v": value})
            except duckdb.Error:  # a connection a failed write invalidated: nothing left to restore
                break
    return summary


def ingest_logs(
    paths: Iterable[str | os.PathLike[str]],
    db: str | os.PathLike[str] | None = None,
    *,
    jobs: int | None = None,
    identity: people.Identity | None = None,
    progress: Progress | None = None,
) -> Summary:
    """Verify, audit and load match logs (files, or folders of ``*.jsonl``) into the warehouse ``db``
    (``KIFU_DB``, else ``kifu.duckdb``), as ``kifu ingest`` does; what it stored and refused (``Summary``).
    A log already stored is skipped; a log that cannot be trusted, or a fork of a stored match, is refused
    with its reason and the others are loaded.
    """
    files = log_paths(paths)
    with contextlib.ExitStack() as stack:
        ready = checkers(files, jobs or cores())  # before DuckDB's threads run: forked workers
        if ready is not None:
            stack.enter_context(ready)
        con = connect(db)
        try:
            return ingest(con, files, jobs=jobs, identity=identity, progress=progress, ready=ready)
        finally:
            con.close()


def _load_failed(exc: Exception, summary: Summary) -> KifuError:
    """One line for a load the database refused (a full disk, a file that cannot grow).

    Each batch is one transaction: the one that failed was rolled back whole, the
    ones before it were committed. Running the same ingest again skips what is stored.
    """
    return KifuError(Msg("warehouse.load_failed", reason=_reason(exc), kept=summary.matches))


def _reason(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


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
        summary.refused.append(
            (
                c.path,
                Msg(
                    "warehouse.extended",
                    match=repr(c.match),
                    stored_seq=c.extends,
                    stored_head=prior[0],
                    source=prior[1],
                    seq=c.events,
                    head=c.head,
                ),
            )
        )
    else:
        summary.refused.append(
            (c.path, Msg("warehouse.fork", match=repr(c.match), stored_head=prior[0], source=prior[1], head=c.head))
        )
    return False


def _json(rows: list[dict[str, Any]]) -> str:
    return msgspec.json.encode(rows).decode()


_ROW_GROUP = 122_880
"""DuckDB's rows per row group."""


@dataclass
class _Batch:
    """Logs waiting to be loaded together in one transaction."""

    items: list[Checked] = field(default_factory=list)
    events: int = 0

    def add(self, c: Checked) -> None:
        self.items.append(c)
        self.events += c.events

    def load(self, con: duckdb.DuckDBPyConnection, feeds: list[str]) -> None:
        """One transaction: the events, the matches, the findings and the feeds' rows."""
        con.execute("BEGIN TRANSACTION")
        try:
            # In pieces of lines (one whole big log was super-linear in DuckDB); a streamed log as it streams.
            rows = [
                (c.match, base, part, cols)
                for c in self.items
                if not c.streamed
                for base, part, cols in stream.pieces(c.data, c.columns)
            ]
            made = bool(rows)
            if made:
                stream.parse(con, stream.CREATE_BATCH, rows)
            for c in self.items:
                if c.streamed:
                    stream.load(con, c, create=not made)
                    made = True
            con.execute(_BATCH_EVENTS)
            con.execute(_INSERT_LINES)
            con.execute(_INSERT_MATCHES, {"rows": _json([c.row for c in self.items])})
            con.execute(_INSERT_FINDINGS, {"rows": _json([f for c in self.items for f in c.findings])})
            con.execute(INSERT_RANDOMNESS, {"rows": _json([c.randomness for c in self.items if c.randomness])})
            con.execute(INSERT_STANCES, {"rows": _json([r for c in self.items for r in c.rulings])})
            load_facts(con, self.items)
            for sql in feeds:
                con.execute(sql)
            con.execute("DROP VIEW _batch_events")
            con.execute("DROP TABLE _batch")
            con.execute("COMMIT")
        except BaseException:
            import duckdb

            try:
                con.execute("ROLLBACK")
            except duckdb.Error:  # a COMMIT that failed (a full disk) has rolled back already
                pass
            raise

    def split(self, parts: int) -> list[_Batch]:
        """This batch in up to ``parts`` batches of whole matches, none under a row group of events
        (DuckDB writes a smaller append to its WAL first, and copies it again at the checkpoint)."""
        parts = max(1, min(parts, self.events // _ROW_GROUP))
        out = [_Batch() for _ in range(parts)]
        for c in self.items:
            min(out, key=lambda b: b.events).add(c)
        return [b for b in out if b.items]

    def count(self, summary: Summary) -> None:
        for c in self.items:
            summary.matches += 1
            summary.events += c.events
            for sev, n in c.counts.items():
                summary.findings[sev] = summary.findings.get(sev, 0) + n


class _Loader:
    """Loads batches on ``threads`` connections at once, while the workers go on.

    One connection's load is mostly single-threaded in DuckDB (one row source per
    statement); two at a time keep both cores busy when the workers are done or
    waiting. Each batch is its own transaction; appends from several connections
    never conflict, and a match id is admitted into one batch only. At most
    ``threads`` batches are in flight: the next submit waits for the oldest.
    """

    def __init__(self, con: duckdb.DuckDBPyConnection, feeds: list[str], threads: int) -> None:
        from concurrent.futures import ThreadPoolExecutor
        from queue import SimpleQueue

        self.feeds, self.threads = feeds, max(1, threads)
        self.pool = ThreadPoolExecutor(self.threads, thread_name_prefix="kifu-load")
        self.cursors: SimpleQueue[duckdb.DuckDBPyConnection] = SimpleQueue()
        for _ in range(self.threads):
            cur = con.cursor()
            cur.execute("SET TimeZone = 'UTC'")
            self.cursors.put(cur)
        self.pending: list[tuple[Any, _Batch]] = []

    def _load(self, batch: _Batch) -> None:
        cur = self.cursors.get()
        try:
            batch.load(cur, self.feeds)
        finally:
            self.cursors.put(cur)

    def submit(self, batch: _Batch, summary: Summary) -> None:
        self.pending.append((self.pool.submit(self._load, batch), batch))
        self._wait(summary, self.threads - 1)

    def finish(self, batch: _Batch, summary: Summary) -> None:
        """Load the last batch, in parts on every connection (nothing else is left to overlap with)."""
        for part in batch.split(self.threads):
            self.pending.append((self.pool.submit(self._load, part), part))
        self._wait(summary, 0)

    def _wait(self, summary: Summary, left: int) -> None:
        while len(self.pending) > left:
            future, done = self.pending.pop(0)
            future.result()
            done.count(summary)

    def __enter__(self) -> _Loader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.pool.shutdown(wait=True)
        for future, _ in self.pending:
            future.exception()
        while not self.cursors.empty():
            self.cursors.get().close()
