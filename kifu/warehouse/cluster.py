"""Ingest on a Dask cluster: verify and audit on the workers, a hive-partitioned Parquet dataset out.

``kifu ingest SOURCE… --cluster ADDRESS --parquet OUT`` (docs/scale.md). The unit of work is
one match, as on one machine, and the per-match code is the same (``check_match``,
``check_bytes``), so are the loading SQL and the feeds (``_Batch.load`` into an in-memory
DuckDB on the worker): the dataset's rows are by construction the rows ``kifu ingest``
stores. Two steps:

1. **check** (one task per chunk of files, in file order): each worker reads its files
   (local paths, or object URLs through fsspec: ``s3://`` with s3fs installed), verifies and
   audits each match, admits matches as ``ingest`` does (forks of a stored match and within
   the chunk refused), loads the admitted ones into an in-memory warehouse and writes its
   tables as Parquet pieces per (game, month). The client only sees each log's verdict.
2. **merge** (one task per partition ``game=…/month=…``): the client, having seen every
   verdict in file order, admits or refuses each log exactly as ``ingest`` would (the first
   log of a match id wins; a later different one is a fork); each partition's task merges
   what is already in OUT with the admitted pieces, and replaces the partition's one file per
   table (events, findings, feeds first, ``matches`` last: the match rows are the commit).

Idempotent per partition: a partition nothing new goes into is not touched, and the same
rows always make the same bytes (sorted, one file). Rows left by a run cut off between a
partition's tables (rows of matches its ``matches`` file does not hold) are dropped at the
next merge. One ingest at a time per dataset.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Iterable, Iterator

from kifu import app
from kifu.events.base import KifuError
from kifu.events.i18n import Msg

from .dataset import files, tables
from .ingest import Audit, Checked, Progress, Summary, _admit, _Batch, check_bytes, check_match, log_paths
from .store import SCHEMA, exports
from .views import feed_inserts, modules, stored

if TYPE_CHECKING:
    from distributed import Client

EXTRA = "pip install 'kifu[cluster]'"

ORDER = {
    "matches": "match",
    "events": "match, seq",
    "findings": "ALL",
    "random_outcomes": "match, seq, idx",
    "run_lengths": "match, seq, player, n",
}
"""How each table's partition file is sorted: the same rows always give the same bytes."""


def write_order() -> tuple[str, ...]:
    """The tables in the order a partition's files are replaced: ``matches`` last (the match rows are the commit)."""
    return tuple(t for t in tables() if t != "matches") + ("matches",)


"""``matches`` last: a partition's match rows are the commit of the other tables' rows."""

PART = "part-0.parquet"


# --- where things are ----------------------------------------------------------------------


def is_url(path: str | os.PathLike[str]) -> bool:
    return "://" in str(path)


def sources(paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    """Log files in the order ``ingest`` takes them: local ones as ``log_paths`` gives them,
    object URLs (a prefix is searched for ``*.jsonl``) in sorted order, each once."""
    out: dict[str, None] = {}
    for p in paths:
        if not is_url(p):
            out.update(dict.fromkeys(log_paths([p])))
            continue
        fs, root = _fs(str(p))
        found = sorted(f for f in fs.find(root) if f.endswith(".jsonl")) if fs.isdir(root) else [root]
        out.update(dict.fromkeys(fs.unstrip_protocol(f) for f in found))
    return list(out)


def _fs(url: str) -> tuple[Any, str]:
    try:
        import fsspec
    except ImportError:
        raise KifuError(Msg("cluster.needs_fsspec", extra=EXTRA)) from None
    try:
        return fsspec.core.url_to_fs(url)
    except (ImportError, ValueError) as exc:  # an unknown protocol, or its package (s3fs) missing
        raise KifuError(Msg("cluster.cannot_open", url=url, detail=str(exc))) from None


def _local(fs: Any) -> bool:
    protocol = fs.protocol if isinstance(fs.protocol, tuple) else (fs.protocol,)
    return bool({"file", "local"} & set(protocol))


@contextlib.contextmanager
def _fetched(out: str, rel: Iterable[str]) -> Iterator[list[str]]:
    """Local paths of the dataset files ``rel`` (relative to ``out``): the files themselves on a
    local disk, else copies in a temporary folder."""
    fs, root = _fs(out)
    rel = list(rel)
    if _local(fs):
        yield [os.path.join(root, r) for r in rel]
        return
    tmp = tempfile.mkdtemp(prefix="kifu-fetch-")
    try:
        local = [os.path.join(tmp, f"{i}.parquet") for i in range(len(rel))]
        for r, dest in zip(rel, local):
            fs.get(f"{root.rstrip('/')}/{r}", dest)
        yield local
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _listed(out: str, table: str, game: str | None = None, month: str | None = None) -> list[str]:
    """Files of one table (of one partition) in the dataset, relative to ``out``."""
    fs, root = _fs(out)
    if _local(fs):
        base = Path(root)
        found = (
            [p for p in (base / table / f"game={game}" / f"month={month}").glob("*.parquet")]
            if game is not None
            else files(base, table)
        )
        return sorted(str(p.relative_to(base)) for p in found)
    pattern = f"{root.rstrip('/')}/{table}/" + (
        f"game={game}/month={month}/*.parquet" if game is not None else "*=*/*=*/*.parquet"
    )
    return sorted(p[len(root.rstrip("/")) + 1 :] for p in fs.glob(pattern))


def stored_heads(out: str) -> dict[str, tuple[str, str]]:
    """match -> (head, source) of every match already in the dataset (nothing when there is none)."""
    import duckdb

    rel = _listed(out, "matches")
    if not rel:
        return {}
    with _fetched(out, rel) as local:
        con = duckdb.connect()
        try:
            rows = con.execute(
                "SELECT match, head, source FROM read_parquet($f, hive_partitioning = false)", {"f": local}
            ).fetchall()
        finally:
            con.close()
    return {m: (h, s) for m, h, s in rows}


# --- step 1: check a chunk (on a worker) ---------------------------------------------------


def _read_checked(path: str, audit: Audit | None, heads: dict[str, str]) -> Checked:
    if not is_url(path):
        return check_match(path, audit, heads, digest=False)
    try:
        fs, root = _fs(path)
        with fs.open(root, "rb") as f:
            data = f.read()
    except OSError as exc:
        return Checked(path, error=KifuError(Msg("io.cannot_read", reason=exc.strerror or str(exc)), where=path))
    return check_bytes(data, path, audit, heads, digest=False)


@dataclass
class Chunk:
    """What the client learns of a chunk: each log's verdict (no bytes) and what it loaded where."""

    checked: list[Checked]
    loaded: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Match id -> (game, month) of each match the chunk loaded (the first log of each id in the
    chunk that is not stored)."""


def check_chunk(
    paths: list[str], audit: Audit | None, stored: dict[str, tuple[str, str]]
) -> tuple[Chunk, dict[tuple[str, str], dict[str, bytes]]]:
    """Verify, audit and load one chunk of logs; (the verdicts, Parquet pieces per (game, month) and table)."""
    import gc

    # As ingest's workers do: a match's objects are freed by reference counts.
    gc.set_threshold(50_000, *gc.get_threshold()[1:])
    heads = {m: h for m, (h, _) in stored.items()}
    known, scratch, batch, verdicts = dict(stored), Summary(), _Batch(), []
    for path in paths:
        c = _read_checked(path, audit, heads)
        if _admit(c, known, scratch):
            batch.add(c)
        verdicts.append(replace(c, data=b"", columns=b"", findings=[]))
    loaded, pieces = _pieces(batch) if batch.items else ({}, {})
    return Chunk(verdicts, loaded), pieces


def _pieces(batch: _Batch) -> tuple[dict[str, tuple[str, str]], dict[tuple[str, str], dict[str, bytes]]]:
    """The batch loaded into an in-memory warehouse: each match's (game, month), and each table
    written as Parquet per (game, month)."""
    import duckdb

    con = duckdb.connect(config={"threads": 1})
    tmp = tempfile.mkdtemp(prefix="kifu-chunk-")
    try:
        con.execute("SET TimeZone = 'UTC'")
        # The tables and the events view only: the load and the exports read nothing else (the
        # warehouse's other views cost a third of a small chunk's time to create).
        for sql in SCHEMA + stored():
            con.execute(sql)
        batch.load(con, feed_inserts(modules(), "_batch_events"))
        where = {
            m: (g, mo)
            for m, g, mo in con.execute(f"SELECT match, game, month FROM ({exports()['matches']})").fetchall()
        }
        out: dict[tuple[str, str], dict[str, bytes]] = {}
        for table in tables():
            target = os.path.join(tmp, table)
            con.execute(f"COPY ({exports()[table]}) TO $t (FORMAT parquet, PARTITION_BY (game, month))", {"t": target})
            for f in files(Path(tmp), table):
                game, month = (part.split("=", 1)[1] for part in f.relative_to(target).parts[:2])
                out.setdefault((game, month), {})[table] = f.read_bytes()
        return where, out
    finally:
        con.close()
        shutil.rmtree(tmp, ignore_errors=True)


def piece(result: tuple[Chunk, dict[tuple[str, str], dict[str, bytes]]], key: tuple[str, str]) -> dict[str, bytes]:
    """One partition's pieces of a chunk (run where the chunk's result is: nothing else moves)."""
    return result[1].get(key, {})


def verdicts(result: tuple[Chunk, Any]) -> Chunk:
    return result[0]


# --- step 2: merge a partition (on a worker) -----------------------------------------------


def merge_partition(
    out: str, game: str, month: str, pieces: list[dict[str, bytes]], excluded: list[list[str]]
) -> dict[str, int]:
    """Write partition ``game``/``month`` of every table: what OUT holds plus the admitted pieces.

    ``excluded[i]`` are match ids piece ``i`` loaded that the client refused (a log of the same
    match id came earlier in another chunk). Returns the rows of each table's new file.
    """
    import duckdb

    fs, root = _fs(out)
    tmp = tempfile.mkdtemp(prefix="kifu-merge-")
    con = duckdb.connect(config={"threads": 1})
    try:
        con.execute("SET TimeZone = 'UTC'")
        new: dict[str, list[str]] = {t: [] for t in tables()}
        params: dict[str, Any] = {}
        for i, (p, ex) in enumerate(zip(pieces, excluded)):
            params[f"x{i}"] = list(ex)
            for table, blob in p.items():
                path = os.path.join(tmp, f"new-{table}-{i}.parquet")
                Path(path).write_bytes(blob)
                new[table].append(
                    f"SELECT * FROM read_parquet({_sql_list([path])}, hive_partitioning = false) "
                    f"WHERE NOT list_contains($x{i}::VARCHAR[], match)"
                )
        listed = {t: _listed(out, t, game, month) for t in tables()}
        with _fetched(out, [r for t in tables() for r in listed[t]]) as local:
            it = iter(local)
            old = {t: [next(it) for _ in listed[t]] for t in tables()}
            # Rows of a run cut off before this partition's matches file was replaced belong to no
            # stored match: only rows of the matches the file holds are kept.
            committed = (
                f"(SELECT match FROM read_parquet({_sql_list(old['matches'])}, hive_partitioning = false))"
                if old["matches"]
                else "(SELECT NULL::VARCHAR AS match WHERE false)"
            )
            written = {}
            for table in write_order():
                parts = (
                    [
                        f"SELECT * FROM read_parquet({_sql_list(old[table])}, hive_partitioning = false) WHERE match IN {committed}"
                    ]
                    if old[table]
                    else []
                )
                parts += new[table]
                if not parts:
                    continue
                union = " UNION ALL ".join(parts)
                target = os.path.join(tmp, f"out-{table}.parquet")
                written[table] = con.execute(
                    f"COPY (SELECT * FROM ({union}) ORDER BY {ORDER.get(table, 'ALL')}) TO $t (FORMAT parquet)",
                    {**{k: v for k, v in params.items() if f"${k}:" in union}, "t": target},
                ).fetchone()[0]
                _replace(fs, root, f"{table}/game={game}/month={month}", target)
        return written
    finally:
        con.close()
        shutil.rmtree(tmp, ignore_errors=True)


def _sql_list(paths: list[str]) -> str:
    """Local file paths as an SQL list literal (read_parquet takes no parameter for its files in a UNION)."""
    return "[" + ", ".join("'" + p.replace("'", "''") + "'" for p in paths) + "]"


def _replace(fs: Any, root: str, folder: str, local_file: str) -> None:
    """Make ``local_file`` the partition folder's one file: copied beside it, renamed over it (on a
    local disk, moved there: the rename is atomic), the folder's other files removed."""
    base = f"{root.rstrip('/')}/{folder}"
    fs.makedirs(base, exist_ok=True)
    staged = f"{base}/.{PART}.tmp"
    if _local(fs):
        shutil.move(local_file, staged)
        os.replace(staged, f"{base}/{PART}")
    else:
        fs.put(local_file, staged)
        fs.mv(staged, f"{base}/{PART}")
    for other in fs.glob(f"{base}/*.parquet"):
        if not other.endswith("/" + PART):
            fs.rm(other)


# --- the client --------------------------------------------------------------------------


@contextlib.contextmanager
def connect(address: str) -> Iterator[Client]:
    """A client of the cluster at ``address``: ``tcp://host:8786`` (any Dask scheduler address),
    or ``local:N`` for a local cluster of N worker processes (one thread each), closed after."""
    try:
        import logging

        from distributed import Client, LocalCluster
    except ImportError:
        raise KifuError(Msg("cluster.needs_dask", extra=EXTRA)) from None
    if address == "local" or address.startswith("local:"):
        count = address.partition(":")[2]
        if count and not (count.isdigit() and int(count) >= 1):
            raise KifuError(Msg("cluster.bad_local", address=address))
        workers = int(count) if count else os.cpu_count() or 1
        with (
            LocalCluster(
                n_workers=workers,
                processes=True,
                threads_per_worker=1,
                dashboard_address=":0",
                silence_logs=logging.ERROR,
            ) as cluster,
            Client(cluster) as client,
        ):
            yield client
        return
    try:
        client = Client(address, timeout="20s")
    except (OSError, ValueError) as exc:
        raise KifuError(Msg("cluster.unreachable", address=address, detail=str(exc))) from None
    try:
        yield client
    finally:
        client.close()


def chunks(items: list[str], workers: int, per_worker: int = 8, largest: int = 2000) -> list[list[str]]:
    """Contiguous runs of the file list, several per worker (a slow chunk does not hold the others
    back) and none over ``largest`` files (each is loaded in one worker's memory)."""
    if not items:
        return []
    n = min(len(items), max(workers * per_worker, -(-len(items) // largest)))
    size = -(-len(items) // n)
    return [items[i : i + size] for i in range(0, len(items), size)]


def ingest(
    client: Client,
    paths: Iterable[str | os.PathLike[str]],
    out: str | os.PathLike[str],
    audit: Audit | None = app.audit,
    *,
    progress: Progress | None = None,
    per_worker: int = 8,
) -> Summary:
    """Verify, audit and write match logs into the Parquet dataset ``out`` on the cluster; see the module docstring.

    ``per_worker``: chunks of the file list per worker (``chunks``).
    """
    from distributed import as_completed

    out = str(out) if is_url(out) else str(Path(out).resolve())
    files_ = sources(paths)
    stored = stored_heads(out)
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    parts = chunks(files_, workers, per_worker)
    [shared] = client.scatter([stored], broadcast=True, hash=False)
    results = client.map(check_chunk, parts, audit=audit, stored=shared, pure=False)
    heads = client.map(verdicts, results, pure=False)
    order = {f.key: i for i, f in enumerate(heads)}
    seen: list[Chunk | None] = [None] * len(parts)
    done = events = 0
    for f in as_completed(heads):
        chunk = f.result()
        seen[order[f.key]] = chunk
        done += len(chunk.checked)
        events += sum(c.events for c in chunk.checked)
        if progress:
            progress(done, len(files_), events)
    summary, known, admitted = Summary(), dict(stored), set()
    for i, chunk in enumerate(seen):
        assert chunk is not None
        for c in chunk.checked:
            if _admit(c, known, summary):
                admitted.add((i, c.match))
                summary.matches += 1
                summary.events += c.events
                for sev, n in c.counts.items():
                    summary.findings[sev] = summary.findings.get(sev, 0) + n
    # Partition -> [(chunk, the matches it loaded there that were refused)], and the partitions
    # something new goes into (only those are merged: the others stay as they are).
    plan: dict[tuple[str, str], list[tuple[int, list[str]]]] = {}
    fresh: set[tuple[str, str]] = set()
    for i, chunk in enumerate(seen):
        by_key: dict[tuple[str, str], list[str]] = {}
        for m, key in chunk.loaded.items():  # type: ignore[union-attr]
            by_key.setdefault(key, []).append(m)
        for key, ms in by_key.items():
            refused = [m for m in ms if (i, m) not in admitted]
            plan.setdefault(key, []).append((i, refused))
            if len(refused) < len(ms):
                fresh.add(key)
    merges = []
    for game, month in sorted(fresh):
        items = plan[(game, month)]
        pieces = [client.submit(piece, results[i], (game, month), pure=False) for i, _ in items]
        merges.append(client.submit(merge_partition, out, game, month, pieces, [ex for _, ex in items], pure=False))
    client.gather(merges)
    return summary


def run(
    address: str,
    paths: Iterable[str | os.PathLike[str]],
    out: str | os.PathLike[str],
    audit: Audit | None = app.audit,
    *,
    progress: Progress | None = None,
) -> Summary:
    """``ingest`` on the cluster at ``address`` (connected, then closed)."""
    with connect(address) as client:
        return ingest(client, paths, out, audit, progress=progress)
