"""A warehouse as a hive-partitioned Parquet dataset, queried in place with DuckDB; each version whole or absent.

The layout is the one ``kifu export --parquet`` and ``kifu ingest --cluster … --parquet``
write (docs/scale.md): ``DIR/kifu-dataset.json``, the manifest, names the current version
and lists every file of it with its size; the files are ``DIR/<version>/<table>/game=<game>/
month=<YYYY-MM|unknown>/part-….parquet`` for each table of ``TABLES``. A writer makes a
complete new version beside the old one (in a locked private folder, renamed to its
version's name once whole), then switches the one manifest (written whole, by rename);
readers follow the manifest alone. A run killed at any point leaves the readers the old
version or the new, never a mix; the version before the current one is kept for readers
that opened it, older ones and what killed runs left are removed by the next writer.

``open_dataset`` gives an in-memory DuckDB connection whose tables (``matches``,
``event_lines``, ``findings``, ``random_outcomes``, ``run_lengths``, ``match_randomness``,
``ruling_stances`` and the games' facts tables) are views over the manifest's files (nothing
is loaded), with the warehouse's views on top and the ``people`` table computed from the
matches and the identity file the manifest carries (``identity_of``). It refuses a dataset without a whole manifest (a
file missing, cut short, or reached through a link) with one line naming it and the
command that writes it again. The connection is then locked down as ``kifu sql`` needs it:
file access only under DIR, configuration locked (and ``store.query`` lets only a SELECT
through).
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

import msgspec

from kifu.events import atomic
from kifu.events.base import KifuError
from kifu.events.i18n import Msg

from . import people
from .store import _EVENTS_VIEW, SCHEMA, _first_line, create_views, exports
from .views import facts, modules, selects, stored

if TYPE_CHECKING:
    import duckdb

TABLES = ("matches", "events", "findings", "random_outcomes", "run_lengths", "match_randomness", "ruling_stances")
"""The dataset's tables, one folder each, besides the games' facts tables (``tables``); ``events`` holds the
rows of ``event_lines`` (and the columns the ``events`` view computes, as ``kifu export`` writes them). Every
table a view or a statistic reads: a question asked of the dataset answers as the warehouse does."""

LEGACY_TABLES = TABLES[:5]
"""The tables of a dataset laid out before versions (``legacy``)."""


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
    """A table's files laid out under ``root`` (a version's folder, or a folder of freshly written tables)."""
    return sorted((root / table).glob("*=*/*=*/*.parquet"))


# --- versions and the manifest ------------------------------------------------------------

MANIFEST = "kifu-dataset.json"
"""The manifest's name in the dataset's folder: the one file a writer switches and a reader follows."""
FORMAT = "kifu-dataset/2"
"""/2 carries every table the warehouse's views read and the identity file; a /1 dataset lacks both and is
refused (``OLD_FORMATS``): what it would answer about people and voided outcomes could differ from the
warehouse's."""
OLD_FORMATS = ("kifu-dataset/1",)
VERSION = re.compile(r"v(\d{6})-([0-9a-f]{8})")
"""A version's folder name: its number, then a random token (two writers never make the same name)."""
REPAIR = "kifu export --parquet {out}  (or: kifu ingest LOGS… --cluster … --parquet {out})"
"""The commands that write a dataset again, named by every refusal."""


class Part(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One file of a version."""

    table: str
    """The dataset table (``TABLES``)."""
    game: str
    """The partition's ``game``."""
    month: str
    """The partition's ``month``."""
    path: str
    """Where it is, relative to the dataset's folder (``v000002-1a2b3c4d/matches/game=…/month=…/part-0.parquet``)."""
    size: int
    """Its bytes: a file cut short or replaced is not the version's."""
    rows: int = -1
    """Its rows, when the writer counted them (-1: not counted)."""


class Manifest(msgspec.Struct, frozen=True, kw_only=True):
    """What a dataset holds: the current version and every file of it."""

    format: str = FORMAT
    version: str
    """The current version's folder name (``VERSION``)."""
    previous: str | None = None
    """The version this one replaced: kept for readers that opened it, removed by the next writer."""
    parts: tuple[Part, ...] = ()
    people: str | None = None
    """The identity file (``people.toml``) the version was written with, its text as it was (None: none):
    the dataset's ``people`` are resolved with it, as the warehouse's were (docs/sql.md, "People")."""

    def of(self, table: str) -> list[Part]:
        return [p for p in self.parts if p.table == table]

    @property
    def number(self) -> int:
        m = VERSION.fullmatch(self.version)
        return int(m.group(1)) if m else 0


def next_version(current: Manifest | None) -> str:
    """The folder name of the version after ``current``."""
    import secrets

    return f"v{(current.number if current else 0) + 1:06d}-{secrets.token_hex(4)}"


def part_of(root: Path, version: str, table: str, path: Path, rows: int = -1) -> Part:
    """The ``Part`` of a file written at ``path``, inside the version folder laid out at ``root``."""
    rel = path.relative_to(root)
    game, month = (seg.split("=", 1)[1] for seg in rel.parts[1:3])
    return Part(
        table=table,
        game=game,
        month=month,
        path=f"{version}/{rel.as_posix()}",
        size=os.lstat(path).st_size,
        rows=rows,
    )


def decode_manifest(data: bytes, where: str) -> Manifest:
    """A manifest's bytes, checked: its format, its version's name, and every path inside its version."""
    try:
        m = msgspec.json.decode(data, type=Manifest)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise KifuError(
            Msg("dataset.bad_manifest", detail=str(exc), repair=REPAIR.format(out=where)), where=where
        ) from None
    if m.format not in (FORMAT, *OLD_FORMATS) or not VERSION.fullmatch(m.version):
        raise KifuError(Msg("dataset.bad_manifest", detail=m.format, repair=REPAIR.format(out=where)), where=where)
    for p in m.parts:
        parts = PurePosixPath(p.path).parts
        if (
            p.table not in tables()
            or len(parts) != 5
            or parts[0] != m.version
            or ".." in parts
            or p.path.startswith("/")
        ):
            raise KifuError(Msg("dataset.bad_manifest", detail=p.path, repair=REPAIR.format(out=where)), where=where)
    return m


def read_manifest(root: Path) -> Manifest | None:
    """The manifest of the dataset at ``root`` (None when it has none), read without following a link."""
    path = root / MANIFEST
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise KifuError(
                Msg("dataset.linked", name=MANIFEST, repair=REPAIR.format(out=root)), where=str(root)
            ) from None
        raise KifuError(Msg("io.cannot_read", reason=exc.strerror), where=str(path)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise KifuError(Msg("dataset.linked", name=MANIFEST, repair=REPAIR.format(out=root)), where=str(root))
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(64 << 20)
    finally:
        os.close(fd)
    return decode_manifest(data, str(root))


def check_whole(root: Path, manifest: Manifest) -> None:
    """Every file of the version is there, a regular file of its size, reached through real folders only.

    Looked at without following a link: a folder or file of the version replaced by a
    link (to another dataset's partition, to a file elsewhere) is refused, never read
    or written through.
    """
    seen: set[str] = set()
    for p in manifest.parts:
        node = root
        names = PurePosixPath(p.path).parts
        for i, name in enumerate(names):
            node = node / name
            rel = "/".join(names[: i + 1])
            last = i == len(names) - 1
            if not last and rel in seen:
                continue
            try:
                st = os.lstat(node)
            except FileNotFoundError:
                raise _not_whole(root, manifest, p.path, "missing") from None
            except OSError as exc:
                raise _not_whole(root, manifest, p.path, exc.strerror or "unreadable") from None
            if stat.S_ISLNK(st.st_mode):
                raise KifuError(Msg("dataset.linked", name=rel, repair=REPAIR.format(out=root)), where=str(root))
            if not last and not stat.S_ISDIR(st.st_mode):
                raise _not_whole(root, manifest, p.path, "not a folder")
            if last and (not stat.S_ISREG(st.st_mode) or st.st_size != p.size):
                raise _not_whole(root, manifest, p.path, f"{st.st_size:,} bytes, not {p.size:,}")
            if not last:
                seen.add(rel)


def _not_whole(root: Path, manifest: Manifest, path: str, why: str) -> KifuError:
    return KifuError(
        Msg("dataset.not_whole", version=manifest.version, file=path, why=why, repair=REPAIR.format(out=root)),
        where=str(root),
    )


def legacy(root: Path) -> bool:
    """True when ``root`` holds tables laid out as before versions (``DIR/<table>/game=…``) and no manifest."""
    return any((root / t).is_dir() and not (root / t).is_symlink() for t in LEGACY_TABLES)


def current(root: Path) -> Manifest:
    """The whole current version of the dataset at ``root``, for a reader; one line on anything else."""
    if not root.is_dir():
        raise KifuError(Msg("dataset.missing"), where=str(root))
    manifest = read_manifest(root)
    if manifest is None:
        if legacy(root):
            raise KifuError(Msg("dataset.no_manifest", repair=REPAIR.format(out=root)), where=str(root))
        raise KifuError(Msg("dataset.not_dataset"), where=str(root))
    refuse_old(manifest, str(root))
    check_whole(root, manifest)
    return manifest


def refuse_old(manifest: Manifest, where: str) -> None:
    """A dataset an earlier kifu wrote (``OLD_FORMATS``) is refused by readers and writers alike, with the
    command that writes it again: it lacks tables the statistics read and the identity file."""
    if manifest.format != FORMAT:
        raise KifuError(Msg("dataset.old_format", format=manifest.format, repair=REPAIR.format(out=where)), where=where)


def publish(
    root: Path, stage: Path, version: str, parts: list[Part], before: Manifest | None, people: str | None = None
) -> Manifest:
    """Make the version written in ``stage`` (a locked ``atomic.staging`` folder inside ``root``) current.

    Its files are made durable, the folder is renamed to its version's name, and the
    manifest is switched (written whole, by rename): the one step readers see. Then the
    versions older than the one it replaced, and tables laid out before versions, go.
    """
    from kifu.events import atomic

    _sync_tree(stage)
    os.rename(stage, root / version)
    atomic.fsync_dir(root / version)
    manifest = Manifest(version=version, previous=before.version if before else None, parts=tuple(parts), people=people)
    atomic.write_bytes(root / MANIFEST, msgspec.json.format(msgspec.json.encode(manifest), indent=1) + b"\n")
    collect(root, manifest)
    return manifest


def _sync_tree(folder: Path) -> None:
    """fsync every file and folder under ``folder`` (DuckDB's COPY does not), so a power loss after the
    manifest's switch cannot leave it naming files that were never written down."""
    for dirpath, _dirs, names in os.walk(folder):
        for name in names:
            fd = os.open(os.path.join(dirpath, name), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        fd = os.open(dirpath, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        except OSError:  # a filesystem that cannot sync a folder
            pass
        finally:
            os.close(fd)


def collect(root: Path, manifest: Manifest) -> None:
    """Remove what no reader follows any more: versions other than the current and the previous one,
    tables laid out before versions, and what killed writers left (their lock is gone). Only real
    folders with those names are removed; a link is never followed."""
    import shutil

    from kifu.events import atomic

    keep = {manifest.version, manifest.previous}
    for entry in os.scandir(root):
        if not entry.is_dir(follow_symlinks=False):
            continue
        if (VERSION.fullmatch(entry.name) and entry.name not in keep) or entry.name in tables():
            shutil.rmtree(entry.path, ignore_errors=True)
    atomic.clean_stale(root)


def identity_of(root: Path, manifest: Manifest, named: str | os.PathLike[str] | None = None) -> people.Identity:
    """The identity file a dataset's ``people`` are resolved with: the one named (--people, $KIFU_PEOPLE),
    which must exist; else a people.toml put in the dataset's folder; else the one the version carries
    (the warehouse's, when ``kifu export`` wrote it); else none."""
    chosen = people.named_identity(named)
    if chosen is not None or people.beside(root).is_file():
        return people.identity_for(root, named)
    if manifest.people is not None:
        return people.parse_identity(manifest.people.encode("utf-8"), f"{root / MANIFEST} (people)")
    return people.Identity()


def open_dataset(
    root: str | os.PathLike[str],
    identity: people.Identity | None = None,
    *,
    people_file: str | os.PathLike[str] | None = None,
) -> duckdb.DuckDBPyConnection:
    """An in-memory connection over the dataset at ``root``, locked down (see the module docstring).

    Its ``people`` are resolved with ``identity`` when given, else with ``identity_of`` the dataset
    (``people_file`` naming the file instead of the one it carries).
    """
    import duckdb

    base = Path(root).resolve()
    manifest = current(base)
    identity = identity or identity_of(base, manifest, people_file)
    con = duckdb.connect()
    try:
        con.execute("SET TimeZone = 'UTC'")
        con.execute("SET enable_progress_bar = false")
        columns = _columns()
        for table in tables():
            name = STORED.get(table, table)
            cols = columns[name]
            listed = [base / p.path for p in manifest.of(table)]
            if listed:
                source = (
                    f"read_parquet([{', '.join(_literal(f) for f in listed)}], hive_partitioning = true, "
                    "hive_types = {'game': VARCHAR, 'month': VARCHAR}, union_by_name = true)"
                )
                select = ", ".join(f'CAST("{c}" AS {t}) AS "{c}"' for c, t in cols)
                con.execute(f"CREATE VIEW {name} AS SELECT {select} FROM {source}")
            else:  # an export made before this table was written: empty, with the table's columns
                select = ", ".join(f'CAST(NULL AS {t}) AS "{c}"' for c, t in cols)
                con.execute(f"CREATE VIEW {name} AS SELECT {select} WHERE false")
        con.execute("CREATE VIEW events AS " + _EVENTS_VIEW.format(table="event_lines"))
        people.fill(con, identity)
        create_views(con, selects(modules()))
        # Only now: the views above read the files when queried, and nothing else may be read.
        con.execute(f"SET allowed_directories = [{_literal(base, '/')}]")
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
    except duckdb.Error as exc:
        con.close()
        raise KifuError(Msg("dataset.unreadable", detail=str(exc).strip().splitlines()[0]), where=str(root)) from None
    return con


# --- writing a version from the warehouse -------------------------------------------------


def export_parquet(
    con: duckdb.DuckDBPyConnection, out: str | os.PathLike[str], identity: people.Identity | None = None
) -> dict[str, int]:
    """The warehouse as a new version of the Parquet dataset at OUT (docs/sql.md); rows written per table.

    The version carries ``identity``, the identity file the warehouse's ``people`` were resolved with:
    the dataset resolves its people with it, so every answer about people is the warehouse's.

    Every table is written whole into a locked private folder inside OUT, which becomes
    the new version's folder; then the one manifest is switched (``publish``). A
    failure (a full disk) or a kill at any point leaves the previous export as readers saw
    it, and nothing half-written that they follow.
    """
    import duckdb

    root = Path(out)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise KifuError(Msg("warehouse.export_failed", detail=exc.strerror), where=str(root)) from None
    before = read_manifest(root)
    version = next_version(before)
    written: dict[str, int] = {}
    try:
        with atomic.staging(root / "version") as stage:
            parts: list[Part] = []
            for name, sql in exports().items():
                target = stage / name
                try:
                    con.execute(
                        f"COPY ({sql}) TO $target (FORMAT parquet, PARTITION_BY (game, month), "
                        "FILENAME_PATTERN 'part-{i}')",
                        {"target": str(target)},
                    )
                    written[name] = con.execute(f"SELECT count(*) FROM ({sql})").fetchone()[0]  # type: ignore[index]
                except duckdb.Error as exc:
                    detail = _first_line(exc).replace(str(stage), str(root))
                    raise KifuError(Msg("warehouse.export_unchanged", detail=detail), where=str(root / name)) from None
                parts += [part_of(stage, version, name, f) for f in files(stage, name)]
            publish(root, stage, version, parts, before, (identity or people.Identity()).text)
    except OSError as exc:
        raise KifuError(Msg("warehouse.export_failed", detail=exc.strerror), where=str(root)) from None
    return written
