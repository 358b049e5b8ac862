"""A fuzz target for every reader and importer (issue 20): the command line holds on any input.

Each target starts from a good input (a log, a catalogue, an event, an export of
each format, a mapping file, a SQL statement), applies random mutations (bytes
changed, cut, repeated; hostile snippets inserted: deep nesting, a key given
twice, lone CRs, NULs, bidi controls, huge numbers, long runs) and runs the
command the way a user does. Whatever the input:

* the exit code is 0, 1 or 2;
* an error is one line on stderr (``kifu: error: …``), and nothing ever prints a traceback or a
  Python warning;
* nothing is written but the file the command was asked to write (``-o``, the
  log, the warehouse; repair's copy beside the log).

CI runs each target briefly (the ``ci`` profile); `pytest tests/test_fuzz.py
--hypothesis-profile=fuzz` runs them for long (docs/hacking.md).
"""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path
from collections.abc import Callable, Sequence

import pytest
from conftest import FIXTURES, ROOT, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

LOG = (FIXTURES / "gunandgun" / "dispute.jsonl").read_bytes()
GENERIC_LOG = (FIXTURES / "core" / "table.jsonl").read_bytes()
IMPORTS = FIXTURES / "imports"
EXPORTS = {
    "ccfolia-html": IMPORTS / "ccfolia" / "classic.html",
    "ccfolia-json": IMPORTS / "ccfolia" / "log.json",
    "udonarium-xml": IMPORTS / "udonarium" / "chat.xml",
    "udonarium-zip": IMPORTS / "udonarium" / "ルームデータ_2025-03-01_1102.zip",
    "discord-json": IMPORTS / "discord" / "export.json",
    "discord-txt": IMPORTS / "discord" / "export.txt",
    "cockatrice": IMPORTS / "cockatrice" / "game.log",
    "arena": IMPORTS / "arena" / "Player.log",
}
MAPPING = (ROOT / "kifu" / "games" / "generic" / "mapping.toml").read_bytes()
CATALOGUE = b'{"cards": [{"id": "zz", "name": "X", "kind": "bullet", "copies": {"g1": 1}}]}'
EVENT = b'{"type": "note", "by": "aoi", "text": "hello", "channel": "main"}'

HOSTILE = [
    b"[" * 70,
    b"]" * 70,
    b"{" * 70,
    b'{"a":' * 70,
    b"[" * 5000 + b"]" * 5000,
    b'"text":"a","text":"b",',
    b'"seq":2,"seq":3,',
    b'"values":[1],"values":[2]',
    b"\r",
    b"\r\n",
    b"\n",
    b"\x00",
    b"\xff\xfe",
    b"\xef\xbb\xbf",
    "\u202e".encode(),
    "\u2066".encode(),
    b"1e999999",
    b"-0",
    b"123456789012345678901234567890",
    b"NaN",
    b"null",
    b"true",
    b" " * 3000,
    b":" * 2000,
    b"(1D6) \xef\xbc\x9e 3",
    b"\\u0000",
    b'\\"',
    b'"',
    b"<!DOCTYPE x [<!ENTITY a 'b'>]>",
    b"<script>alert(1)</script>",
    b"]]>",
    b"&#0;",
    b"\t",
    # issue 32: markup nested past the parsers' depth, unclosed angle brackets, terminal controls
    b"<span>" * 300,
    b"<b>" * 300 + b"</b>" * 300,
    b"0<D2<|" * 40,
    b"\x1b[1A\x1b[2K\rno findings\x1b]52;c;eA==\x07",
    b"\xc2\x9b31m",
    b"[" * 70 + b"]" * 70,
    b"a." * 80 + b"b = 1\n",
]

_MUTATION = st.tuples(
    st.floats(0, 1),
    st.sampled_from(["insert", "replace", "cut", "repeat"]),
    st.sampled_from(HOSTILE) | st.binary(max_size=12),
)


def mutated(seed: bytes) -> st.SearchStrategy[bytes]:
    """``seed`` with up to four mutations, or cut short, or left as it is."""

    def apply(data: bytes, ops: list, cut: float | None) -> bytes:
        for at, kind, payload in ops:
            i = int(len(data) * at)
            if kind == "insert":
                data = data[:i] + payload + data[i:]
            elif kind == "replace":
                data = data[:i] + payload + data[i + len(payload) :]
            elif kind == "cut":
                data = data[:i] + data[i + max(1, len(payload)) :]
            else:
                data = data[:i] + data[i : i + 64] * 3 + data[i + 64 :]
        return data if cut is None else data[: int(len(data) * cut)]

    return st.builds(apply, st.just(seed), st.lists(_MUTATION, max_size=4), st.none() | st.floats(0, 1))


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def run_target(folder: Path, args: Sequence[object], allowed: Callable[[str], bool], stdin: str | None = None):
    """Run `kifu ARGS` in ``folder``; check the exit code, stderr and what was written."""
    before = _files(folder)
    old = os.getcwd()
    os.chdir(folder)
    try:
        with warnings.catch_warnings(record=True) as warned:  # a warning would print on the user's stderr
            warnings.simplefilter("always")
            r = run_cli(*map(str, args), stdin=stdin)
    finally:
        os.chdir(old)
    assert not [w for w in warned if not issubclass(w.category, ResourceWarning)], [str(w.message) for w in warned]
    assert r.code in (0, 1, 2), (r.code, r.err)
    assert "Traceback" not in r.err and "Traceback" not in r.out
    if r.code == 2:  # one line: the error, or (ingest) the one log refused
        lines = r.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(("kifu: ", "refused: ")), r.err
    made = _files(folder) - before
    assert all(allowed(name) for name in made), made
    return r


def _fresh(factory, name: str, data: bytes) -> Path:
    folder = factory.mktemp("fuzz")
    (folder / name).write_bytes(data)
    return folder


FUZZ = settings(
    max_examples=max(10, settings().max_examples // 4),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)
"""Every target: a quarter of the loaded profile's examples (``ci``: 10, ``fuzz``: 500)."""

SLOW = settings(FUZZ, max_examples=max(4, settings().max_examples // 10))
"""Targets that open a warehouse per example (a second each): fewer (``ci``: 4, ``fuzz``: 200)."""

nothing = lambda name: False  # noqa: E731


# --- the log readers -----------------------------------------------------------------


LOG_COMMANDS: dict[str, tuple[Sequence[str], Callable[[str], bool]]] = {
    "verify": (("verify", "m.jsonl"), nothing),
    "verify-json": (("verify", "m.jsonl", "-f", "json"), nothing),
    "audit": (("audit", "m.jsonl", "-f", "json"), nothing),
    "audit-html": (("audit", "m.jsonl", "-f", "html", "-o", "out.html"), lambda n: n == "out.html"),
    "show": (("show", "m.jsonl", "-f", "csv"), nothing),
    "state": (("state", "m.jsonl", "--flat"), nothing),
    "state-svg": (("state", "m.jsonl", "-f", "svg", "-o", "t.svg"), lambda n: n == "t.svg"),
    "report": (("report", "m.jsonl", "-o", "page.html"), lambda n: n == "page.html"),
    "repair": (("repair", "m.jsonl"), lambda n: re.fullmatch(r"m\.jsonl\.torn-\d+(\.\d+)?", n) is not None),
}


@pytest.mark.parametrize("target", sorted(LOG_COMMANDS))
@FUZZ
@given(data=st.data())
def test_a_log_reader_holds_on_any_log(tmp_path_factory, target: str, data) -> None:
    seed = data.draw(st.sampled_from([LOG, GENERIC_LOG]))
    folder = _fresh(tmp_path_factory, "m.jsonl", data.draw(mutated(seed)))
    args, allowed = LOG_COMMANDS[target]
    run_target(folder, args, allowed)


@FUZZ
@given(event=mutated(EVENT))
def test_append_holds_on_any_event(tmp_path_factory, event: bytes) -> None:
    folder = _fresh(tmp_path_factory, "m.jsonl", GENERIC_LOG)
    run_target(folder, ("append", "m.jsonl", "--json", "-"), nothing, stdin=event.decode("utf-8", "replace"))


@FUZZ
@given(catalogue=mutated(CATALOGUE))
def test_new_holds_on_any_catalogue(tmp_path_factory, catalogue: bytes) -> None:
    folder = _fresh(tmp_path_factory, "cards.json", catalogue)
    run_target(
        folder,
        ("new", "new.jsonl", "-g", "gunandgun", "-m", "x", "-p", "a=A", "-p", "b=B", "--catalogue", "cards.json"),
        lambda n: n == "new.jsonl",
    )


@SLOW
@given(log=mutated(LOG))
def test_ingest_holds_on_any_log(tmp_path_factory, log: bytes) -> None:
    folder = _fresh(tmp_path_factory, "m.jsonl", log)
    run_target(
        folder, ("ingest", "m.jsonl", "--db", "w.duckdb", "--jobs", "1"), lambda n: n in ("w.duckdb", "w.duckdb.wal")
    )


# --- the importers -----------------------------------------------------------------


@pytest.mark.parametrize("export", sorted(EXPORTS))
@FUZZ
@given(data=st.data())
def test_an_importer_holds_on_any_export(tmp_path_factory, export: str, data) -> None:
    source = EXPORTS[export]
    folder = _fresh(tmp_path_factory, source.name, data.draw(mutated(source.read_bytes())))
    run_target(
        folder,
        ("import", source.name, "-o", "out.jsonl", "--report", "rep.json"),
        lambda n: n in ("out.jsonl", "rep.json"),
    )


@FUZZ
@given(mapping=mutated(MAPPING))
def test_import_holds_on_any_mapping_file(tmp_path_factory, mapping: bytes) -> None:
    folder = _fresh(tmp_path_factory, "map.toml", mapping)
    (folder / "chat.txt").write_bytes((IMPORTS / "discord" / "export.txt").read_bytes())
    run_target(folder, ("import", "chat.txt", "-o", "out.jsonl", "--map", "map.toml"), lambda n: n == "out.jsonl")


# --- the warehouse ------------------------------------------------------------------


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("wh")
    assert (
        run_cli("ingest", FIXTURES / "gunandgun" / "dispute.jsonl", "--db", folder / "w.duckdb", "--jobs", "1").code
        == 0
    )
    return folder / "w.duckdb"


SQL = b"SELECT match, seq, type FROM events WHERE match = 'R3-T7' ORDER BY seq LIMIT 5"


@SLOW
@given(statement=mutated(SQL))
def test_sql_holds_on_any_statement_and_writes_nothing(warehouse: Path, statement: bytes) -> None:
    before = warehouse.read_bytes()
    run_target(
        warehouse.parent,
        ("sql", statement.decode("utf-8", "replace") or " ", "--db", warehouse.name, "--timeout", "5"),
        lambda n: n == "w.duckdb.wal",
    )
    assert warehouse.read_bytes() == before


# --- issue 32: people.toml, zip entry names, a log's catalogue, a dataset's manifest ------------------

PEOPLE = (
    b'["Aoi"]\nnames = ["\xe8\x91\xb5", "aoi-chan"]\nkeys = ["discord:81234567890123456"]\n\n["Ren"]\nnames = ["ren"]\n'
)


@SLOW
@given(people=mutated(PEOPLE), command=st.sampled_from(["people", "sql", "stats"]))
def test_people_toml_holds_beside_the_warehouse(tmp_path_factory, warehouse: Path, people: bytes, command: str) -> None:
    import shutil

    folder = tmp_path_factory.mktemp("people")
    shutil.copy(warehouse, folder / "w.duckdb")
    (folder / "people.toml").write_bytes(people)
    args = {"people": ("people",), "sql": ("sql", "SELECT count(*) FROM people"), "stats": ("stats", "winrate")}
    run_target(folder, (*args[command], "--db", "w.duckdb"), lambda n: n == "w.duckdb.wal")


ZIP_NAME = st.one_of(
    st.sampled_from([b"", b"/", b"dir/", b"chat.xml", b"fly_chat.xml", b"data.xml", b"../chat.xml", b"C:chat.xml"]),
    st.binary(max_size=24),
)


@FUZZ
@given(names=st.lists(ZIP_NAME, min_size=1, max_size=5), chat=st.integers(0, 4))
def test_zip_entry_names_hold(tmp_path_factory, names: list[bytes], chat: int) -> None:
    from test_bounded_readers import CHAT_XML, stored_zip

    entries = [(name, CHAT_XML if i == chat else b"x") for i, name in enumerate(names)]
    folder = _fresh(tmp_path_factory, "room.zip", stored_zip(entries))
    run_target(folder, ("import", "room.zip", "-o", "out.jsonl"), lambda n: n == "out.jsonl")


CATALOGUES = {
    "gunandgun": b'{"cards": [{"id": "zz", "name": "X", "no": "Z-1", "kind": "bullet", "cost": 0, "copies": {"enra": 1}, '
    b'"timing": "shot", "summary": "s"}]}',
    "mtg": b'{"cards": [{"name": "Zap Coin", "roles": ["flip"], "call": "called", "sequence": "fixed", "coins": 1}]}',
    "worldtrigger": b'{"triggers": {"Z": {"side": "main", "reveal": 1, "effects": {"hit": {"timing": "tactics", '
    b'"kind": "close", "damage": 1}}}}}',
}


@pytest.mark.parametrize("game", sorted(CATALOGUES))
@FUZZ
@given(data=st.data())
def test_a_log_s_catalogue_holds(tmp_path_factory, game: str, data) -> None:
    """A log written by another tool, its match.start carrying a mutated catalogue."""
    catalogue = data.draw(mutated(CATALOGUES[game]))
    start = (
        b'{"type":"match.start","seq":1,"prev":null,"format":"kifu/1","game":"' + game.encode() + b'",'
        b'"match":"c","players":[{"id":"a","name":"A"},{"id":"b","name":"B"}],"catalogue":' + catalogue + b"}\n"
    )
    folder = _fresh(tmp_path_factory, "m.jsonl", start)
    command = data.draw(st.sampled_from([("verify", "m.jsonl"), ("audit", "m.jsonl"), ("show", "m.jsonl")]))
    run_target(folder, command, nothing)


@pytest.fixture(scope="module")
def dataset_bytes(tmp_path_factory) -> dict[str, bytes]:
    """A small Parquet dataset's files, by path inside it (the manifest among them)."""
    folder = tmp_path_factory.mktemp("ds")
    assert (
        run_cli("ingest", FIXTURES / "gunandgun" / "dispute.jsonl", "--db", folder / "w.duckdb", "--jobs", "1").code
        == 0
    )
    assert run_cli("export", "--parquet", folder / "out", "--db", folder / "w.duckdb").code == 0
    out = folder / "out"
    return {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()}


@SLOW
@given(data=st.data())
def test_a_dataset_holds(tmp_path_factory, dataset_bytes: dict[str, bytes], data) -> None:
    """A dataset whose manifest, or one of whose files, is mutated: the readers hold (one line, or the rows)."""
    folder = tmp_path_factory.mktemp("fuzzds")
    victim = data.draw(st.sampled_from(sorted(dataset_bytes)))
    for rel, blob in dataset_bytes.items():
        (folder / "out" / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / "out" / rel).write_bytes(data.draw(mutated(blob)) if rel == victim else blob)
    command = data.draw(st.sampled_from([("sql", "SELECT count(*) FROM events"), ("stats", "fairness"), ("people",)]))
    run_target(folder, (*command, "--parquet", "out"), nothing)
