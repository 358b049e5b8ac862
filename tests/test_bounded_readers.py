"""Every reader bounds what it reads and drops nothing silently (issue 32, defects 1, 3 and 9; "also seen").

The reproducers, each built here: a Udonarium zip with an entry whose name is empty
(a traceback); a 1.2 KB people.toml of nested arrays (RecursionError in people, sql,
stats and ingest, even when the file is only found beside the warehouse); a CCFOLIA
HTML message nested 300 elements deep (the parser stopped there without a word: "6
messages" of 11, exit 0); one chat message over the 4 MiB line limit (the whole import
refused). What a reader refuses is one line naming the file, the place and the limit;
what it skips is reported.
"""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import pytest
from conftest import FIXTURES

from kifu.events import limits, logfile

DISPUTE = FIXTURES / "gunandgun" / "dispute.jsonl"


def stored_zip(entries: list[tuple[bytes, bytes]]) -> bytes:
    """A zip of stored (uncompressed) entries with the raw names given, whatever they are.

    ``zipfile`` refuses to write an empty name; an archive made by another tool (or by
    hand) may still hold one.
    """
    local, central = b"", b""
    for name, data in entries:
        crc, offset = zlib.crc32(data), len(local)
        local += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0x800, 0, 0, 0, crc, len(data), len(data), len(name), 0)
        local += name + data
        central += struct.pack(
            "<IHHHHHHIIIHHHHHII",
            *(0x02014B50, 20, 20, 0x800, 0, 0, 0, crc, len(data), len(data), len(name), 0, 0, 0, 0, 0, offset),
        )
        central += name
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central), len(local), 0)
    return local + central + end


CHAT_XML = (
    '<chat-tab name="メイン">'
    '<chat from="peer1" name="Aoi" timestamp="1740826800000">hello</chat>'
    '<chat from="peer2" name="Ren" timestamp="1740826801000">hi</chat>'
    "</chat-tab>"
).encode()


def _one_line(r, *parts: str) -> str:
    assert r.code == 2, (r.code, r.out, r.err)
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.err, r.err
    for part in parts:
        assert part in lines[0], (part, lines[0])
    return lines[0]


# --- 1. zip entry names ---------------------------------------------------------------------


@pytest.mark.parametrize("name", [b"", b"dir/", b"a\x00b", b"\x01"])
def test_a_zip_entry_with_an_odd_name_is_passed_over_and_said(tmp_path: Path, kifu, name: bytes) -> None:
    (tmp_path / "room.zip").write_bytes(stored_zip([(name, b"x"), (b"chat.xml", CHAT_XML)]))
    r = kifu("import", tmp_path / "room.zip", "-o", tmp_path / "m.jsonl", "--report", tmp_path / "rep.json")
    assert r.code == 0, r.err
    assert logfile.verify(tmp_path / "m.jsonl").seq == 3
    remarks = json.loads((tmp_path / "rep.json").read_text(encoding="utf-8"))["remarks"]
    assert any("zip entries not read" in r["what"] for r in remarks), remarks


def test_a_zip_whose_only_entry_has_no_name_is_one_line(tmp_path: Path, kifu) -> None:
    (tmp_path / "room.zip").write_bytes(stored_zip([(b"", CHAT_XML)]))
    _one_line(kifu("import", tmp_path / "room.zip", "-o", tmp_path / "m.jsonl"), "room.zip", "no Udonarium chat")
    assert not (tmp_path / "m.jsonl").exists()


# --- 3. people.toml ----------------------------------------------------------------------------


def _nested_toml(levels: int = 600) -> str:
    """About 1.2 KB: an array nested far deeper than any parser should recurse."""
    return '["Aoi"]\nnames = ' + "[" * levels + '"x"' + "]" * levels + "\n"


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> Path:
    from conftest import run_cli

    folder = tmp_path_factory.mktemp("wh")
    assert run_cli("ingest", DISPUTE, "--db", folder / "w.duckdb", "--jobs", "1").code == 0
    return folder


@pytest.mark.parametrize(
    "command",
    [
        ("people",),
        ("sql", "SELECT count(*) FROM people"),
        ("stats", "winrate"),
        ("stats", "fairness"),
        ("ingest", str(DISPUTE), "--jobs", "1"),
    ],
)
def test_a_deep_people_toml_beside_the_warehouse_is_one_line(warehouse: Path, kifu, command) -> None:
    people = warehouse / "people.toml"
    people.write_text(_nested_toml(), encoding="utf-8")
    assert 1000 < len(people.read_bytes()) < 1300
    try:
        line = _one_line(kifu(*command, "--db", warehouse / "w.duckdb"), "people.toml", f"{limits.MAX_DEPTH}")
    finally:
        people.unlink()
    assert "people.toml:2: " in line


def test_a_deep_people_toml_given_by_name_and_deep_inline_tables(tmp_path: Path, kifu, warehouse: Path) -> None:
    people = tmp_path / "club.toml"
    for text in (_nested_toml(70), '["Aoi"]\nx = ' + "{a = " * 300 + "1" + "}" * 300 + "\n", "a." * 100 + "b = 1\n"):
        people.write_text(text, encoding="utf-8")
        _one_line(kifu("people", "--db", warehouse / "w.duckdb", "--people", people), "club.toml", "64")


# --- 9. CCFOLIA HTML depth ---------------------------------------------------------------------


def _classic(bodies: list[str]) -> str:
    paragraphs = "\n".join(
        f'<p style="color:#888;">\n  <span> [main]</span>\n  <span>Aoi</span> :\n  <span>{b}</span>\n</p>'
        for b in bodies
    )
    return f'<!DOCTYPE html>\n<html lang="ja"><head><meta charset="UTF-8" /><title>ccfolia - logs</title></head>\n<body>\n{paragraphs}\n</body></html>\n'


def test_a_ccfolia_message_nested_300_deep_is_refused_not_cut_short(tmp_path: Path, kifu) -> None:
    bodies = [f"message {i}" for i in range(11)]
    bodies[5] = "<span>" * 300 + "deep" + "</span>" * 300
    text = _classic(bodies)
    (tmp_path / "log.html").write_text(text, encoding="utf-8")
    deep_line = next(i for i, line in enumerate(text.split("\n"), 1) if "<span>" * 300 in line)
    _one_line(kifu("import", tmp_path / "log.html", "-o", tmp_path / "m.jsonl"), f"log.html:{deep_line}: ", "256")
    assert not (tmp_path / "m.jsonl").exists()
    # Nested as deep as the parser goes, every message is read.
    bodies[5] = "<span>" * 200 + "deep" + "</span>" * 200
    (tmp_path / "ok.html").write_text(_classic(bodies), encoding="utf-8")
    r = kifu("import", tmp_path / "ok.html", "-o", tmp_path / "ok.jsonl")
    assert r.code == 0 and "11 messages" in r.err, (r.out, r.err)


def test_a_udonarium_chat_nested_too_deep_names_the_limit(tmp_path: Path, kifu) -> None:
    deep = "<b>" * 300 + "x" + "</b>" * 300
    xml = CHAT_XML.replace(b">hello<", f">{deep}<".encode())
    (tmp_path / "chat.xml").write_bytes(xml)
    _one_line(kifu("import", tmp_path / "chat.xml", "-o", tmp_path / "m.jsonl"), "chat.xml", "256")


def test_an_arena_payload_nested_too_deep_names_its_line_and_the_limit(tmp_path: Path, kifu) -> None:
    log = (FIXTURES / "imports" / "arena" / "Player.log").read_text(encoding="utf-8")
    header = "[UnityCrossThreadLogger]3/1/2025 8:02:03 PM: Match to U1: GreToClientEvent"
    deep = '{"greToClientEvent": ' + '{"a":' * 5000 + "1" + "}" * 5001
    text = log.rstrip("\n") + "\n" + header + "\n" + deep + "\n"
    (tmp_path / "Player.log").write_text(text, encoding="utf-8")
    line = text.split("\n").index(deep) + 1
    _one_line(kifu("import", tmp_path / "Player.log", "-o", tmp_path / "m.jsonl"), f"Player.log:{line}: ", "64")


# --- also seen: one oversized chat message ----------------------------------------------------


def test_one_oversized_chat_message_is_skipped_and_reported(tmp_path: Path, kifu) -> None:
    body = "".join(
        f"[01-Mar-25 08:{i:02d} PM] {'Aoi' if i % 2 else 'Ren'}\n"
        + ("y" * (limits.MAX_LINE + 10) if i == 3 else f"message number {i}")
        + "\n\n"
        for i in range(8)
    )
    text = "=" * 62 + "\nGuild: table\nChannel: game\n" + "=" * 62 + "\n\n" + body
    (tmp_path / "chat.txt").write_text(text, encoding="utf-8")
    r = kifu("import", tmp_path / "chat.txt", "-o", tmp_path / "m.jsonl", "--report", tmp_path / "rep.json")
    assert r.code == 0, r.err
    events = logfile.load(tmp_path / "m.jsonl").events
    notes = [getattr(e, "text", "") for e in events[1:]]
    assert [n for n in notes if n.startswith("message number")] == [f"message number {i}" for i in range(8) if i != 3]
    rep = json.loads((tmp_path / "rep.json").read_text(encoding="utf-8"))
    skipped = [u for u in rep["unreadable"] if "skipped" in u["what"]]
    assert len(skipped) == 1 and f"{limits.MAX_LINE:,}" in skipped[0]["what"], rep["unreadable"]
    assert "skipped" in r.err or "skipped" in r.out
