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
   tables' rows of each (game, month) as a Parquet piece written as a partition's file is
   (sorted in ``ORDER``). The client only sees each log's verdict.
2. **merge** (one task per partition ``game=…/month=…`` that gets something new): the client,
   having seen every verdict in file order, admits or refuses each log exactly as ``ingest``
   would (the first log of a match id wins; a later different one is a fork); each
   partition's task merges what the dataset's current version holds there with the admitted
   pieces and writes the partition's one file per table into the new version's folder; a
   partition only one chunk's pieces go into (nothing stored there, none refused) is those
   pieces, written as they are (``_as_is``: the rows are written once, not twice).
3. **publish** (the client): the partitions nothing new went into are carried over (hard
   links on a local disk, copies in object storage), and the one manifest is switched to
   the new version (``dataset.publish``): readers see the old version or the new, whole,
   whatever is killed when. A task's failure (a damaged file of the current version, a full
   disk) is one line naming OUT; nothing is published and what was written is removed.

Idempotent: a run that brings nothing new publishes no version and rewrites no file; a
partition's file always holds its rows in one order. The dataset's files are read only as its manifest
lists them, through real folders (a link planted in OUT is refused, never followed). A
dataset an earlier kifu wrote (laid out before versions, or ``kifu-dataset/1``) lacks tables
the statistics read for the matches it holds: it is refused, never extended (``OLD``). Each
version carries the identity file (``Manifest.people``): the one named to the ingest, else
the previous version's. One ingest at a time per dataset.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile

import msgspec
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple
from collections.abc import Iterable, Iterator

from kifu import app
from kifu.events.base import KifuError
from kifu.events.i18n import Msg

from kifu.events import atomic

from . import dataset
from .dataset import tables
from .people import Identity
from .checked import Audit, Checked
from .ingest import Progress, Summary, _admit, _Batch, check_bytes, check_match, log_paths
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
"""How each table's partition file is sorted (a chunk's pieces are too): the same rows, in one order."""


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


@dataclass
class Current:
    """What the dataset at OUT holds now: its manifest (None for none yet) and its files by table and partition."""

    manifest: Any = None
    files: dict[str, dict[tuple[str, str], list[str]]] = field(default_factory=dict)
    """Table -> (game, month) -> files, relative to OUT."""

    def of(self, table: str, key: tuple[str, str] | None = None) -> list[str]:
        by_part = self.files.get(table, {})
        return by_part.get(key, []) if key is not None else [f for fs in by_part.values() for f in fs]

    def partitions(self) -> set[tuple[str, str]]:
        return {key for by_part in self.files.values() for key in by_part}


def current(out: str) -> Current:
    """The dataset's current version, checked whole (every listed file there, of its size, no link on the way)."""
    fs, root = _fs(out)
    if _local(fs):
        base = Path(root)
        if not base.exists():
            return Current()
        manifest = dataset.read_manifest(base)
        if manifest is None:
            if any(dataset.files(base, t) for t in dataset.LEGACY_TABLES):  # tables laid out before versions
                raise _old(out, "")
            return Current()
        dataset.check_whole(base, manifest)
    else:
        try:
            data = fs.cat_file(f"{root.rstrip('/')}/{dataset.MANIFEST}")
        except FileNotFoundError:
            return Current()
        manifest = dataset.decode_manifest(data, out)
        sizes = {
            p[len(root.rstrip("/")) + 1 :]: fs.info(p)["size"]
            for p in fs.find(f"{root.rstrip('/')}/{manifest.version}")
        }
        for part in manifest.parts:
            if sizes.get(part.path) != part.size:
                raise KifuError(
                    Msg(
                        "dataset.not_whole",
                        version=manifest.version,
                        file=part.path,
                        why="missing" if part.path not in sizes else f"{sizes[part.path]:,} bytes, not {part.size:,}",
                        repair=dataset.REPAIR.format(out=out),
                    ),
                    where=out,
                )
    if manifest.format != dataset.FORMAT:
        raise _old(out, manifest.format)
    files: dict[str, dict[tuple[str, str], list[str]]] = {}
    for part in manifest.parts:
        files.setdefault(part.table, {}).setdefault((part.game, part.month), []).append(part.path)
    return Current(manifest, files)


OLD = "kifu export --parquet {out}  (from a warehouse holding its matches), or: kifu ingest ALL-LOGS… --cluster … --parquet NEW-FOLDER"
"""What writes a dataset an earlier kifu wrote again: the cluster ingest adds to a dataset, so it starts a new one."""


def _old(out: str, format: str) -> KifuError:
    return KifuError(Msg("dataset.old_format", format=format or "no manifest", repair=OLD.format(out=out)), where=out)


def stored_heads(out: str, now: Current | None = None) -> dict[str, tuple[str, str]]:
    """match -> (head, source) of every match already in the dataset (nothing when there is none)."""
    import duckdb

    now = current(out) if now is None else now
    rel = now.of("matches")
    if not rel:
        return {}
    with _fetched(out, rel) as local:
        con = duckdb.connect()
        try:
            rows = con.execute(
                "SELECT match, head, source FROM read_parquet($f, hive_partitioning = false)", {"f": local}
            ).fetchall()
        except duckdb.Error as exc:
            raise KifuError(
                Msg("dataset.damaged", detail=_first_line(exc, local, rel), repair=dataset.REPAIR.format(out=out)),
                where=out,
            ) from None
        finally:
            con.close()
    return {m: (h, s) for m, h, s in rows}


def _scrubbed(text: str) -> str:
    """A reason with a worker's scratch folders left out of the names it gives (``/tmp/.kifu-merge.tmp-…/``):
    the user knows OUT, never kifu's temporary names."""
    return re.sub(r"[^\s\"']*?\.kifu-(chunk|merge|version)\.tmp-[0-9a-f]{8}/?", "", text)


def _first_line(exc: BaseException, local: list[str] | None = None, rel: list[str] | None = None) -> str:
    """An error's first line, with the local copies of the dataset's files named as the dataset names them."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    for here, there in zip(local or [], rel or []):
        text = text.replace(here, there)
    return text


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
    failed: str | None = None
    """Why the chunk's admitted matches could not be loaded (a worker's disk full), if they could not."""


def check_chunk(
    paths: list[str], audit: Audit | None, stored: dict[str, tuple[str, str]]
) -> tuple[Chunk, dict[tuple[str, str], dict[str, Piece]]]:
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
    import duckdb

    try:
        loaded, pieces = _pieces(batch) if batch.items else ({}, {})
    except (OSError, KifuError, duckdb.Error) as exc:
        # Said by the client in one line; a task that raised would have Dask print its traceback.
        return Chunk(verdicts, failed=_scrubbed(_first_line(exc))), {}
    return Chunk(verdicts, loaded), pieces


def _pieces(batch: _Batch) -> tuple[dict[str, tuple[str, str]], dict[tuple[str, str], dict[str, Piece]]]:
    """The batch loaded into an in-memory warehouse: each match's (game, month), and each table's rows
    of each (game, month) written as a partition's file (``Piece``)."""

    with atomic.staging(Path(tempfile.gettempdir()) / "kifu-chunk") as scratch:
        return _pieces_in(batch, str(scratch))


class Piece(NamedTuple):
    """A table's rows of one partition from one chunk: a Parquet file as its partition's file is written
    (its columns, sorted in ``ORDER``), so that a partition nothing else goes into is this file as it is."""

    data: bytes
    """The Parquet file's bytes."""
    rows: int
    """Its rows."""


def _pieces_in(batch: _Batch, tmp: str) -> tuple[dict[str, tuple[str, str]], dict[tuple[str, str], dict[str, Piece]]]:
    import duckdb

    con = duckdb.connect(config={"threads": 1})
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
        out: dict[tuple[str, str], dict[str, Piece]] = {}
        for i, table in enumerate(tables()):
            # Each table's rows once, in partition order: each partition's file then reads its own
            # row groups only (DuckDB skips the others by their min and max), however many there are.
            con.execute(f"CREATE TEMP TABLE _part AS SELECT * FROM ({exports()[table]}) ORDER BY game, month")
            for game, month in con.execute("SELECT DISTINCT game, month FROM _part ORDER BY ALL").fetchall():
                target = os.path.join(tmp, f"{i}.parquet")
                [(rows,)] = con.execute(
                    f"COPY (SELECT * EXCLUDE (game, month) FROM _part WHERE game = $g AND month = $m "
                    f"ORDER BY {ORDER.get(table, 'ALL')}) TO $t (FORMAT parquet)",
                    {"g": game, "m": month, "t": target},
                ).fetchall()
                out.setdefault((game, month), {})[table] = Piece(Path(target).read_bytes(), rows)
            con.execute("DROP TABLE _part")
        return where, out
    finally:
        con.close()


def piece(result: tuple[Chunk, dict[tuple[str, str], dict[str, Piece]]], key: tuple[str, str]) -> dict[str, Piece]:
    """One partition's pieces of a chunk (run where the chunk's result is: nothing else moves)."""
    return result[1].get(key, {})


def verdicts(result: tuple[Chunk, Any]) -> Chunk:
    return result[0]


# --- step 2: merge a partition (on a worker) -----------------------------------------------


@dataclass(frozen=True)
class Failed:
    """Why a merge task wrote nothing (returned, not raised: the client says it in one line)."""

    kind: str
    """``damaged`` (a file of the current version cannot be read) or ``write`` (the new one cannot be written)."""
    detail: str
    """The system's or DuckDB's reason, naming files as the dataset names them."""


def merge_partition(
    out: str,
    dest: str,
    game: str,
    month: str,
    pieces: list[dict[str, Piece]],
    excluded: list[list[str]],
    old: dict[str, list[str]],
) -> dict[str, int] | Failed:
    """Write partition ``game``/``month`` of every table into the new version's folder ``dest``: the
    current version's files there (``old``: table -> files relative to OUT) plus the admitted pieces.

    ``excluded[i]`` are match ids piece ``i`` loaded that the client refused (a log of the same
    match id came earlier in another chunk). Returns the rows of each table's new file, or why
    nothing could be written (``Failed``).
    """
    import duckdb

    try:
        if len(pieces) == 1 and not excluded[0] and not any(old.values()):
            return _as_is(dest, game, month, pieces[0])
        with atomic.staging(Path(tempfile.gettempdir()) / "kifu-merge") as tmp:
            return _merge(out, dest, game, month, pieces, excluded, old, str(tmp))
    except _Damaged as exc:
        return Failed("damaged", exc.args[0])
    except (OSError, KifuError, duckdb.Error) as exc:
        return Failed("write", _scrubbed(_first_line(exc).replace(dest, out)))


class _Damaged(Exception):
    """A file of the current version that DuckDB cannot read."""


def _merge(
    out: str,
    dest: str,
    game: str,
    month: str,
    pieces: list[dict[str, Piece]],
    excluded: list[list[str]],
    old: dict[str, list[str]],
    tmp: str,
) -> dict[str, int]:
    import duckdb

    fs, _ = _fs(dest)
    con = duckdb.connect(config={"threads": 1})
    try:
        con.execute("SET TimeZone = 'UTC'")
        new: dict[str, list[str]] = {t: [] for t in tables()}
        params: dict[str, Any] = {}
        for i, (p, ex) in enumerate(zip(pieces, excluded)):
            params[f"x{i}"] = list(ex)
            for table, (blob, _) in p.items():
                path = os.path.join(tmp, f"new-{table}-{i}.parquet")
                Path(path).write_bytes(blob)
                new[table].append(
                    f"SELECT * FROM read_parquet({_sql_list([path])}, hive_partitioning = false) "
                    f"WHERE NOT list_contains($x{i}::VARCHAR[], match)"
                )
        rel = [r for t in tables() for r in old.get(t, [])]
        with _fetched(out, rel) as local:
            for here, there in zip(local, rel):
                try:
                    con.execute(f"SELECT count(*) FROM read_parquet({_sql_list([here])}, hive_partitioning = false)")
                except duckdb.Error as exc:
                    raise _Damaged(f"{there}: {_first_line(exc, [here], [there])}") from None
            it = iter(local)
            listed = {t: [next(it) for _ in old.get(t, [])] for t in tables()}
            # Rows of a match the partition's matches file does not hold (left by a run cut off before
            # datasets had versions) belong to no stored match: only rows of its matches are kept.
            committed = (
                f"(SELECT match FROM read_parquet({_sql_list(listed['matches'])}, hive_partitioning = false))"
                if listed["matches"]
                else "(SELECT NULL::VARCHAR AS match WHERE false)"
            )
            written = {}
            for table in write_order():
                parts = (
                    [
                        f"SELECT * FROM read_parquet({_sql_list(listed[table])}, hive_partitioning = false) "
                        f"WHERE match IN {committed}"
                    ]
                    if listed[table]
                    else []
                )
                parts += new[table]
                if not parts:
                    continue
                union = " UNION ALL ".join(parts)
                folder = f"{table}/game={game}/month={month}"
                target = os.path.join(dest, folder, PART) if _local(fs) else os.path.join(tmp, f"out-{table}.parquet")
                if _local(fs):
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                written[table] = con.execute(
                    f"COPY (SELECT * FROM ({union}) ORDER BY {ORDER.get(table, 'ALL')}) TO $t (FORMAT parquet)",
                    {**{k: v for k, v in params.items() if f"${k}:" in union}, "t": target},
                ).fetchone()[0]
                if not _local(fs):
                    fs.put(target, f"{_fs(dest)[1].rstrip('/')}/{folder}/{PART}")
        return written
    finally:
        con.close()


def _as_is(dest: str, game: str, month: str, piece: dict[str, Piece]) -> dict[str, int]:
    """A partition only one chunk's rows go into (nothing stored there, none refused): its pieces are its
    files (written in the merge's order by the chunk), put in place as they are."""
    fs, under = _fs(dest)
    written = {}
    for table in write_order():
        if table not in piece:
            continue
        folder = f"{table}/game={game}/month={month}"
        if _local(fs):
            os.makedirs(os.path.join(dest, folder), exist_ok=True)
            Path(dest, folder, PART).write_bytes(piece[table].data)
        else:
            fs.pipe_file(f"{under.rstrip('/')}/{folder}/{PART}", piece[table].data)
        written[table] = piece[table].rows
    return written


def _sql_list(paths: list[str]) -> str:
    """Local file paths as an SQL list literal (read_parquet takes no parameter for its files in a UNION)."""
    return "[" + ", ".join("'" + p.replace("'", "''") + "'" for p in paths) + "]"


# --- step 3: publish (on the client) ---------------------------------------------------------


@contextlib.contextmanager
def _new_version(out: str, now: Current) -> Iterator[tuple[str, str]]:
    """(the new version's name, the folder its files are written into): on a local disk a locked
    private folder inside OUT, in object storage the version's own prefix (unlisted until the
    manifest names it); removed if the block fails."""
    version = dataset.next_version(now.manifest)
    fs, root = _fs(out)
    if _local(fs):
        Path(root).mkdir(parents=True, exist_ok=True)
        with atomic.staging(Path(root) / "version") as stage:
            yield version, str(stage)
        return
    dest = f"{root.rstrip('/')}/{version}"
    try:
        yield version, fs.unstrip_protocol(dest)  # a URL: the workers open it with its own filesystem
    except BaseException:
        with contextlib.suppress(OSError, FileNotFoundError):
            fs.rm(dest, recursive=True)
        raise


def _carry(out: str, dest: str, rel: str) -> None:
    """A file of the current version into the new one, unchanged: a hard link on a local disk (a copy
    where the filesystem has none), a copy in object storage."""
    fs, root = _fs(out)
    inside = rel.split("/", 1)[1]
    if _local(fs):
        target = Path(dest) / inside
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(Path(root) / rel, target, follow_symlinks=False)
        except OSError:
            shutil.copyfile(Path(root) / rel, target, follow_symlinks=False)
        return
    fs.copy(f"{root.rstrip('/')}/{rel}", f"{_fs(dest)[1].rstrip('/')}/{inside}")


def _publish(
    out: str, dest: str, version: str, now: Current, rows: dict[tuple[str, str, str], int], people: str | None
) -> None:
    """Switch the manifest to the version written in ``dest`` (see the module docstring)."""
    fs, root = _fs(out)
    if _local(fs):
        parts = [
            dataset.part_of(Path(dest), version, t, f, rows.get((t, *_key_of(Path(dest), f)), -1))
            for t in tables()
            for f in dataset.files(Path(dest), t)
        ]
        dataset.publish(Path(root), Path(dest), version, parts, now.manifest, people)
        return
    base, under = root.rstrip("/"), _fs(dest)[1].rstrip("/")
    parts = []
    for p in sorted(fs.find(under)):
        inside = p[len(under) + 1 :]
        table, game_seg, month_seg, _ = inside.split("/", 3)
        game, month = game_seg.split("=", 1)[1], month_seg.split("=", 1)[1]
        parts.append(
            dataset.Part(
                table=table,
                game=game,
                month=month,
                path=f"{version}/{inside}",
                size=fs.info(p)["size"],
                rows=rows.get((table, game, month), -1),
            )
        )
    previous = now.manifest.version if now.manifest else None
    manifest = dataset.Manifest(version=version, previous=previous, parts=tuple(parts), people=people)
    fs.pipe_file(f"{base}/{dataset.MANIFEST}", msgspec.json.format(msgspec.json.encode(manifest), indent=1) + b"\n")
    keep = {version, previous}
    for entry in fs.ls(base, detail=False):
        name = entry.rstrip("/").rsplit("/", 1)[-1]
        if (dataset.VERSION.fullmatch(name) and name not in keep) or name in tables():
            with contextlib.suppress(OSError, FileNotFoundError):
                fs.rm(entry, recursive=True)


def _key_of(root: Path, f: Path) -> tuple[str, str]:
    game_seg, month_seg = f.relative_to(root).parts[1:3]
    return game_seg.split("=", 1)[1], month_seg.split("=", 1)[1]


# --- the client --------------------------------------------------------------------------


@contextlib.contextmanager
def connect(address: str, games: Iterable[str] = ()) -> Iterator[Client]:
    """A client of the cluster at ``address``: ``tcp://host:8786`` (any Dask scheduler address),
    or ``local:N`` for a local cluster of N worker processes (one thread each), closed after.

    ``local:N``'s workers are forked by kifu, the modules of ``games`` imported first
    (``forked``), while this process runs one thread; else spawned by Dask's ``LocalCluster``."""
    from . import forked

    local = address == "local" or address.startswith("local:")
    if local:
        forked.no_blas_threads()  # before distributed imports numpy
    try:
        import logging

        from distributed import Client, LocalCluster
    except ImportError:
        raise KifuError(Msg("cluster.needs_dask", extra=EXTRA)) from None
    if local:
        count = address.partition(":")[2]
        if count and not (count.isdigit() and int(count) >= 1):
            raise KifuError(Msg("cluster.bad_local", address=address))
        workers = int(count) if count else os.cpu_count() or 1
        early = forked.fork_workers(workers, games)
        if early is not None:
            with forked.client(early) as client:
                yield client
            return
        with (
            LocalCluster(
                n_workers=workers,
                processes=True,
                threads_per_worker=1,
                dashboard_address=":0",
                # Tasks return their failures (``Failed``, ``Chunk.failed``): what is left for the
                # workers' loggers is Dask's own noise, which would land among kifu's lines.
                silence_logs=logging.CRITICAL,
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


def game_modules(paths: list[str]) -> tuple[str, ...]:
    """The modules of the games the local logs ``paths`` name (folders searched as ``sources`` does)."""
    from kifu.app import batch

    return batch.game_modules(batch.games_of([f for f in sources(paths) if not is_url(f)]))


SMALLEST = 500
"""Logs in a chunk at least, unless there are too few for one per worker (``chunks``)."""


def chunks(items: list[str], workers: int, per_worker: int | None = None, largest: int = 2000) -> list[list[str]]:
    """Contiguous runs of the file list, none over ``largest`` files (each is loaded in one worker's memory).

    ``per_worker``: chunks per worker (a slow chunk does not hold the others back). By default as few
    as can keep every worker busy: one per worker, two when each then still holds ``SMALLEST`` logs.
    Each chunk costs its worker a fixed 0.3 s or so (an in-memory DuckDB, its load, a Parquet file
    per table and partition, then merged again), about as much as auditing 50 logs: measured, eight
    chunks per worker of 60 logs each cost 1.8x the CPU of one chunk of 480.
    """
    if not items:
        return []
    if per_worker is None:
        per_worker = max(1, min(2, len(items) // (workers * SMALLEST)))
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
    per_worker: int | None = None,
    identity: Identity | None = None,
) -> Summary:
    """Verify, audit and write match logs into the Parquet dataset ``out`` on the cluster; see the module docstring.

    ``per_worker``: chunks of the file list per worker (``chunks``; None: as few as keep every worker busy). ``identity``: the identity file the new
    version carries (None: the previous version's).
    """
    from distributed import as_completed

    out = str(out) if is_url(out) else str(Path(out).resolve())
    files_ = sources(paths)
    now = current(out)
    stored = stored_heads(out, now)
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
    failed = next((c.failed for c in seen if c is not None and c.failed), None)
    if failed is not None:
        raise KifuError(Msg("cluster.write_failed", detail=failed), where=out)
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
    # something new goes into (only those are merged: the others are carried over as they are).
    plan: dict[tuple[str, str], list[tuple[int, list[str]]]] = {}
    fresh: set[tuple[str, str]] = set()
    for i, chunk in enumerate(seen):
        by_key: dict[tuple[str, str], list[str]] = {}
        for m, key in chunk.loaded.items():  # type: ignore[union-attr]  # a chunk in `seen` has loaded its matches
            by_key.setdefault(key, []).append(m)
        for key, ms in by_key.items():
            refused = [m for m in ms if (i, m) not in admitted]
            plan.setdefault(key, []).append((i, refused))
            if len(refused) < len(ms):
                fresh.add(key)
    if fresh:
        carried = now.manifest.people if now.manifest is not None else None
        _write_version(client, out, now, results, plan, fresh, carried if identity is None else identity.text)
    return summary


def _write_version(
    client: Client,
    out: str,
    now: Current,
    results: list[Any],
    plan: dict[tuple[str, str], list[tuple[int, list[str]]]],
    fresh: set[tuple[str, str]],
    people: str | None,
) -> None:
    """The new version: the fresh partitions merged on the workers, the others carried over, then published
    carrying the identity file ``people`` (its text)."""
    with _new_version(out, now) as (version, dest):
        merges = []
        for game, month in sorted(fresh):
            items = plan.get((game, month), [])
            pieces = [client.submit(piece, results[i], (game, month), pure=False) for i, _ in items]
            old = {t: now.of(t, (game, month)) for t in tables()}
            merges.append(
                client.submit(merge_partition, out, dest, game, month, pieces, [ex for _, ex in items], old, pure=False)
            )
        rows: dict[tuple[str, str, str], int] = {}
        for (game, month), result in zip(sorted(fresh), client.gather(merges)):
            if isinstance(result, Failed) and result.kind == "damaged":
                raise KifuError(
                    Msg("dataset.damaged", detail=result.detail, repair=dataset.REPAIR.format(out=out)), where=out
                )
            if isinstance(result, Failed):
                raise KifuError(Msg("cluster.write_failed", detail=result.detail), where=out)
            rows.update({(t, game, month): n for t, n in result.items()})
        for key in sorted(now.partitions() - fresh):
            for table in tables():
                for rel in now.of(table, key):
                    _carry(out, dest, rel)
        _publish(out, dest, version, now, rows, people)


def run(
    address: str | Client,
    paths: Iterable[str | os.PathLike[str]],
    out: str | os.PathLike[str],
    audit: Audit | None = app.audit,
    *,
    progress: Progress | None = None,
    identity: Identity | None = None,
) -> Summary:
    """``ingest`` on the cluster at ``address`` (connected, then closed), or on a client ``connect`` gave (the
    command line connects before it shows a progress bar, whose thread would keep ``local:N`` from forking
    its workers); what the cluster itself fails at (a worker lost) is one line, the dataset left as it was."""
    paths = list(paths)
    with (
        contextlib.nullcontext(address)
        if not isinstance(address, str)
        else connect(address, game_modules([str(p) for p in paths]))
    ) as client:
        try:
            return ingest(client, paths, out, audit, progress=progress, identity=identity)
        except (KifuError, KeyboardInterrupt):
            raise
        except Exception as exc:  # distributed's own (KilledWorker, CommClosedError, …)
            raise KifuError(Msg("cluster.failed", detail=_first_line(exc)), where=str(out)) from None
