"""People: every seat of every match resolved to a person, for statistics about people, not seats.

A seat id (``p1``) names a seat in one match; the same id is a different person in the
next match, and one person sits under many ids and spellings. The ``people`` table maps
each seat of each match to a person, by these rules in order (docs/sql.md, "People"):

1. a seat whose ``key`` (``match.start.players[].key``) the identity file lists: that person;
2. a seat with a key, when one of the names its key goes by is listed in the identity file
   and no other key goes by that name: that person (the whole key follows);
3. a seat with a key: the person of that key (every seat with the same key);
4. a seat without a key whose normalised name the identity file lists (a person's
   heading is one of its names): that person;
5. a seat without a key whose normalised name is borne by keyed seats of exactly one
   person: that person;
6. otherwise the person of its normalised name (width, case and spaces ignored).

Keys of the namespaces in ``SESSION_KEYS`` name a person within one session only (a
Udonarium peer id changes at every reconnection): they count as no key, except where the
identity file lists them. The identity file (``people.toml``, analysts edit it) gathers
aliases under one person::

    ["Aoi"]
    names = ["葵", "aoi-chan"]
    keys = ["discord:81234567890123456"]

The table is recomputed from the matches and the file when either changes: it costs one
row per seat, never a pass over the events.
"""

from __future__ import annotations

import hashlib
import os
import re
import tomllib
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Iterable, Sequence

import msgspec

from kifu.events import limits
from kifu.events.base import KifuError
from kifu.events.i18n import Msg

if TYPE_CHECKING:
    import duckdb

ENV_PEOPLE = "KIFU_PEOPLE"
FILE_NAME = "people.toml"

RULES = "people/1"
"""The resolution rules' version: a kifu that resolves differently recomputes stored tables."""

SESSION_KEYS = ("udonarium",)
"""Key namespaces that name a person for one session only (docs/sql.md, "People")."""

COLUMNS = ("game", "match", "seat", "player", "name", "key", "person", "via")

TABLE = """CREATE TABLE IF NOT EXISTS people (
    game VARCHAR, match VARCHAR, seat INTEGER, player VARCHAR, name VARCHAR, key VARCHAR,
    person VARCHAR, via VARCHAR)"""

SEATS_SQL = """
SELECT m.game, m.match, s.seat, s.p.id, s.p.name, s.p."key"
FROM matches m, (SELECT unnest(m.players) AS p, generate_subscripts(m.players, 1) AS seat) s
ORDER BY m.match, s.seat"""

_ROW = (
    '[{"game":"VARCHAR","match":"VARCHAR","seat":"INTEGER","player":"VARCHAR","name":"VARCHAR",'
    '"key":"VARCHAR","person":"VARCHAR","via":"VARCHAR"}]'
)
_INSERT = f"INSERT INTO people SELECT unnest(from_json($rows, '{_ROW}'), recursive := true)"

PERSON_OF = "(SELECT match, player, arg_min(person, seat) AS person FROM people GROUP BY match, player)"
"""One person per (match, player id): a log that names one id twice (KIFU-LOG-006) keeps its first seat's."""


@lru_cache(maxsize=1 << 16)
def normalise(name: str | None) -> str:
    """A name as compared: NFKC (full-width letters and half-width kana folded), case folded, no spaces."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", name or "")).casefold()


def identity_path(db: str | os.PathLike[str], people: str | os.PathLike[str] | None = None) -> Path:
    """``people``, else $KIFU_PEOPLE, else people.toml beside the warehouse file (or dataset folder)."""
    return named_identity(people) or beside(db)


def named_identity(people: str | os.PathLike[str] | None = None) -> Path | None:
    """The identity file a person named: ``people`` (--people), else $KIFU_PEOPLE; None when neither."""
    if people:
        return Path(people)
    if os.environ.get(ENV_PEOPLE):
        return Path(os.environ[ENV_PEOPLE])
    return None


def beside(db: str | os.PathLike[str]) -> Path:
    """people.toml beside the warehouse file, or inside a dataset's folder: used when it is there."""
    where = Path(db)
    return (where if where.is_dir() else where.parent) / FILE_NAME


def identity_for(db: str | os.PathLike[str], people: str | os.PathLike[str] | None = None) -> Identity:
    """The identity file of a command: the one named (--people, $KIFU_PEOPLE), which must exist, else
    people.toml beside the warehouse when it is there, else none.

    A named file that is missing is an error, never an empty identity: a typo in --people
    would otherwise merge nobody and every statistic about people would silently change.
    """
    named = named_identity(people)
    if named is not None:
        if not named.is_file():
            how = ENV_PEOPLE if not people or os.environ.get(ENV_PEOPLE) == str(people) else "--people"
            raise KifuError(Msg("people.missing", option=how), where=str(named))
        return load_identity(named)
    return load_identity(beside(db))


@dataclass(frozen=True)
class Identity:
    """The identity file, read: aliases (normalised names, exact keys) to the person they name."""

    path: str | None = None
    people: tuple[str, ...] = ()
    """Each person's heading, in the file's order."""
    names: dict[str, str] = field(default_factory=dict)
    """Normalised name -> person."""
    keys: dict[str, str] = field(default_factory=dict)
    """Key (exact) -> person."""
    digest: str = hashlib.sha256(b"").hexdigest()
    """SHA-256 of the file's bytes (of nothing when there is no file)."""
    text: str | None = None
    """The file as read (None when there is no file): what a Parquet dataset written with it carries."""

    @property
    def version(self) -> str:
        """What the stored table was computed with: these rules and this file (recomputed when it differs)."""
        return f"{RULES}:{self.digest}"


def load_identity(path: str | os.PathLike[str] | None) -> Identity:
    """Read the identity file; no file (or None) is an empty identity. Exit 2 material on a bad file."""
    if path is None or not Path(path).is_file():
        return Identity(path=str(path) if path else None)
    where = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise KifuError(Msg("people.unreadable", reason=exc.strerror), where=where) from None
    return parse_identity(data, where)


def parse_identity(data: bytes, where: str) -> Identity:
    """An identity file's bytes, read (``load_identity``; a Parquet dataset carries them in its manifest)."""
    try:
        doc = limits.load_toml(data.decode("utf-8"))
    except limits.TomlTooDeep as exc:
        raise KifuError(exc.message(), where=where, line=exc.line) from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise KifuError(Msg("people.not_toml", detail=str(exc)), where=where) from None
    names: dict[str, str] = {}
    keys: dict[str, str] = {}
    for person, entry in doc.items():
        if not isinstance(entry, dict):
            raise KifuError(Msg("people.not_table", person=repr(person), heading=person), where=where, field=person)
        unknown = sorted(set(entry) - {"names", "keys"})
        if unknown:
            raise KifuError(
                Msg("people.unknown_field", field=repr(unknown[0])), where=where, field=f"{person}.{unknown[0]}"
            )
        if not normalise(person):
            raise KifuError(Msg("people.empty_heading"), where=where, field=person)
        for kind, table, norm in (("names", names, normalise), ("keys", keys, str.strip)):
            listed = entry.get(kind, [])
            if not isinstance(listed, list) or not all(isinstance(v, str) for v in listed):
                raise KifuError(Msg("people.not_strings", kind=kind), where=where, field=f"{person}.{kind}")
            for alias in ([person] if kind == "names" else []) + listed:
                if not norm(alias):
                    continue
                other = table.setdefault(norm(alias), person)
                if other != person:
                    names = dict(alias=repr(alias), other=repr(other), person=repr(person))
                    twice = Msg("people.twice_names", **names) if kind == "names" else Msg("people.twice_keys", **names)
                    raise KifuError(twice, where=where, field=f"{person}.{kind}")
    return Identity(
        path=where,
        people=tuple(doc),
        names=names,
        keys=keys,
        digest=hashlib.sha256(data).hexdigest(),
        text=data.decode("utf-8"),
    )


Seat = tuple[str, str, int, str, str, "str | None"]
"""(game, match, seat, player id, name, key) of one seat, as ``match.start`` lists it."""


def _session(key: str | None) -> bool:
    return key is not None and key.split(":", 1)[0] in SESSION_KEYS


def resolve(seats: Sequence[Seat], identity: Identity = Identity()) -> list[tuple[Any, ...]]:
    """Each seat with its person and the rule that chose it (``COLUMNS``); see the module docstring."""
    keys = [key if key and not _session(key) else None for *_, key in seats]
    names = [normalise(seat[4]) for seat in seats]
    # Which keys go by each name (and names by each key), so that a name stands for a keyed person
    # only when it is unambiguous.
    bearers: dict[str, set[str]] = {}
    spoken: dict[str, set[str]] = {}
    for key, name in zip(keys, names):
        if key:
            spoken.setdefault(key, set())
            if name:
                bearers.setdefault(name, set()).add(key)
                spoken[key].add(name)
    key_person = {k: _key_person(k, ns, bearers, identity) for k, ns in spoken.items()}
    # A person is first a group: ("file", heading), ("key", key), ("name", normalised) or ("seat", i).
    groups: list[tuple[str, str]] = []
    via: list[str] = []
    for i, (seat, key, name) in enumerate(zip(seats, keys, names)):
        listed = seat[5] in identity.keys  # a session key too, when an analyst lists it
        if listed:
            groups.append(("file", identity.keys[seat[5]]))  # type: ignore[index]  # seat[5] is a str here: it was found in identity.keys
            via.append("file-key")
        elif key:
            groups.append(key_person[key][0])
            via.append(key_person[key][1])
        elif not name:
            groups.append(("seat", str(i)))
            via.append("unnamed")
        elif name in identity.names:
            groups.append(("file", identity.names[name]))
            via.append("file-name")
        else:
            people_of = {key_person[k][0] for k in bearers.get(name, ())}
            if len(people_of) == 1:
                groups.append(people_of.pop())
                via.append("key-name")
            else:
                groups.append(("name", name))
                via.append("name")
    labels = _labels(seats, groups, via)
    return [(*seat, labels[g], v) for seat, g, v in zip(seats, groups, via)]


def _key_person(
    key: str, names: set[str], bearers: dict[str, set[str]], identity: Identity
) -> tuple[tuple[str, str], str]:
    """The group of a key: the identity file's person when it lists the key, or one of the key's
    names that no other key goes by; else the key's own."""
    if key in identity.keys:
        return ("file", identity.keys[key]), "file-key"
    listed = {identity.names[n] for n in names if n in identity.names and bearers.get(n) == {key}}
    if len(listed) == 1:
        return ("file", listed.pop()), "file-name"
    return ("key", key), "key"


def _labels(seats: Sequence[Seat], groups: list[tuple[str, str]], via: list[str]) -> dict[tuple[str, str], str]:
    """A unique, readable name per person: the heading, else the most used spelling (of a key's own
    seats, for a key); keyed people whose spelling another person also goes by get their key after it."""
    spellings: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for seat, g, v in zip(seats, groups, via):
        if seat[4] and v in ("key", "name"):
            spellings[g][seat[4]] += 1
    labels: dict[tuple[str, str], str] = {}
    for g in dict.fromkeys(groups):
        kind, value = g
        if kind == "file":
            labels[g] = value
        elif kind == "seat":
            seat = seats[int(value)]
            labels[g] = f"(unnamed: seat {seat[2]} of {seat[1]})"
        else:
            counts = spellings.get(g)
            labels[g] = min(counts, key=lambda s: (-counts[s], s)) if counts else value
    taken = Counter(normalise(label) for label in labels.values())
    for g, label in labels.items():
        if g[0] == "key" and taken[normalise(label)] > 1:
            labels[g] = f"{label} ({g[1]})"
    return labels


# --- the table --------------------------------------------------------------------------------

_VERSION = "SELECT digest FROM feed_versions WHERE feed = 'people'"


def stored_digest(con: duckdb.DuckDBPyConnection) -> str | None:
    """The ``Identity.version`` the ``people`` table was computed with (None: never computed)."""
    import duckdb

    try:
        row = con.execute(_VERSION).fetchone()
    except duckdb.CatalogException:  # a warehouse made before people existed
        return None
    return row[0] if row else None


def seats_of(con: duckdb.DuckDBPyConnection) -> list[Seat]:
    return [tuple(r) for r in con.execute(SEATS_SQL).fetchall()]


def refresh(con: duckdb.DuckDBPyConnection, identity: Identity = Identity()) -> int:
    """Recompute the ``people`` table from ``matches`` and the identity file; rows written."""
    rows = resolve(seats_of(con), identity)
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute("DELETE FROM people")
        if rows:
            con.execute(_INSERT, {"rows": msgspec.json.encode([dict(zip(COLUMNS, r)) for r in rows]).decode()})
        con.execute("INSERT OR REPLACE INTO feed_versions VALUES ('people', $d)", {"d": identity.version})
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return len(rows)


def fill(con: duckdb.DuckDBPyConnection, identity: Identity = Identity()) -> None:
    """Compute ``people`` into a connection that has ``matches`` but no stored table (a Parquet dataset)."""
    con.execute(TABLE.replace("CREATE TABLE IF NOT EXISTS", "CREATE OR REPLACE TABLE"))
    rows = resolve(seats_of(con), identity)
    if rows:
        con.execute(_INSERT, {"rows": msgspec.json.encode([dict(zip(COLUMNS, r)) for r in rows]).decode()})


def search(rows: Iterable[tuple[Any, ...]], text: str | None) -> list[tuple[Any, ...]]:
    """People rows whose person, name or key contains ``text`` (compared normalised)."""
    if not text:
        return list(rows)
    want = normalise(text)
    return [r for r in rows if any(want in normalise(str(v)) for v in (r[6], r[4], r[5]) if v)]
