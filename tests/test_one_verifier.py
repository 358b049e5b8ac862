"""One verifier: every reader of a log gives the same verdict and the same message.

The readers are the streaming reader (``kifu verify``, ``audit``, ``show`` …, in 1 MiB
blocks), the whole-log reader the warehouse uses (``verify_bytes``), ``kifu ingest``
and ``kifu verify -f json``. Each is fed every tampered and malformed log below,
including logs long enough to cross a block of the streaming reader, and must name
the same file, line, seq, field and reason.
"""

from __future__ import annotations

import json
from pathlib import Path
from collections.abc import Callable

import msgspec
import pytest
from conftest import FIXTURES

from kifu import warehouse as wh
from kifu.events import logfile
from kifu.events.base import KifuError
from kifu.events.codec import encode, line_hash

Mutate = Callable[[list[bytes]], bytes]


def _log(n: int, text: str = "shuffled") -> list[bytes]:
    """The lines of a valid generic log of ``n`` events, built in memory (``kifu.chain``; no file)."""
    from kifu import app

    start = {"game": "generic", "match": "m", "players": [{"id": "a", "name": "A"}]}
    notes = [{"type": "note", "by": "a", "text": text}] * (n - 1)
    return [encode(e) for e in app.chain("generic", [start, *notes])]


def _join(lines: list[bytes]) -> bytes:
    return b"".join(ln + b"\n" for ln in lines)


def _edit(lines: list[bytes], i: int, old: bytes, new: bytes) -> list[bytes]:
    out = list(lines)
    out[i] = out[i].replace(old, new, 1)
    return out


def _rechained(lines: list[bytes]) -> list[bytes]:
    """The lines with every prev recomputed (a forger who fixes the chain but not the seqs)."""
    out = []
    for ln in lines:
        obj = msgspec.json.decode(ln)
        obj["prev"] = line_hash(out[-1]) if out else None
        out.append(msgspec.json.encode(obj))
    return out


def _relinked(lines: list[bytes]) -> list[bytes]:
    """The lines byte for byte but each ``prev`` made the hash of the line before (a forger who edits in place)."""
    out: list[bytes] = []
    for ln in lines:
        if out:
            old = ln.split(b'"prev":"', 1)[1][:64]
            ln = ln.replace(old, line_hash(out[-1]).encode(), 1)
        out.append(ln)
    return out


def _gg_start(catalogue: dict) -> bytes:
    return json.dumps(
        {
            "type": "match.start",
            "seq": 1,
            "prev": None,
            "format": "kifu/1",
            "game": "gunandgun",
            "match": "bad-cat",
            "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
            "catalogue": catalogue,
        },
        ensure_ascii=False,
        separators=(",", ":"),
    ).encode()


def _deep_start(levels: int) -> bytes:
    """A match.start whose ``rules`` nest ``levels`` arrays deep (line 2 up: the log's own object is level 1)."""
    start = _join([SHORT[0]])[:-2] + b',"rules":{"x":' + b"[" * levels + b"]" * levels + b"}}"
    return start


SHORT = _log(8)
LONG = _log(12_000, text="x" * 90)  # about 1.3 MiB: the streaming reader reads it in two blocks
MIDDLE = 9_000  # a line in the second block

CASES: dict[str, bytes] = {
    "byte-changed": _join(_edit(SHORT, 4, b"shuffled", b"shuffleD")),
    "line-deleted": _join(SHORT[:5] + SHORT[6:]),
    "lines-swapped": _join(SHORT[:4] + [SHORT[5], SHORT[4]] + SHORT[6:]),
    "line-duplicated": _join(SHORT[:5] + [SHORT[4]] + SHORT[5:]),
    "seqs-renumbered": _join(_rechained(SHORT[:3] + SHORT[4:])),
    "torn-tail": _join(SHORT)[:-9],
    "empty": b"",
    "only-a-newline": b"\n",
    "blank-line": _join(SHORT[:3] + [b""] + SHORT[3:]),
    "not-json": _join(SHORT[:3] + [b"{not json"] + SHORT[4:]),
    "unknown-field": _join(_edit(SHORT, 2, b'"text"', b'"zz":1,"text"')),
    "unknown-type": _join(_edit(SHORT, 2, b'"type":"note"', b'"type":"nope"')),
    "first-not-start": _join(SHORT[1:]),
    "second-start": _join(SHORT[:3] + [SHORT[0]] + SHORT[3:]),
    "unknown-game": _join(_rechained([SHORT[0].replace(b'"generic"', b'"chess"')] + SHORT[1:])),
    "bad-format": _join(_rechained([SHORT[0].replace(b'"kifu/1"', b'"kifu/9"')] + SHORT[1:])),
    "bad-catalogue": _join(
        [_gg_start({"cards": [{"id": "zz", "name": "X", "kind": "bullet", "copies": {"nogun": 1}}]})]
    ),
    "catalogue-wrong-shape": _join([_gg_start({"guns": "not a list"})]),
    "crlf": b"".join(ln + b"\r\n" for ln in SHORT),
    "long-byte-changed": _join(_edit(LONG, MIDDLE, b"xxxx", b"xxxy")),
    "long-torn-tail": _join(LONG)[:-20],
    "long-line-deleted": _join(LONG[:MIDDLE] + LONG[MIDDLE + 1 :]),
    "long-clean": _join(LONG),
    "clean": _join(SHORT),
    # the limits of docs/format.md (issue 20): one reading of a line, no recursion, bounded lines
    "duplicate-key": _join(_edit(SHORT, 3, b'"text":"shuffled"', b'"text":"shuffled","text":"dealt"')),
    "duplicate-key-nested": _join(
        _relinked(
            SHORT[:2] + [SHORT[2].replace(b'"by":"a"', b'"by":"a","src":{"file":"f","loc":"1","loc":"2"}')] + SHORT[3:]
        )
    ),
    "duplicate-key-line-1": _join(
        _relinked([SHORT[0].replace(b'"match":"m"', b'"match":"m","match":"n"')] + SHORT[1:])
    ),
    "duplicate-type": _join(_edit(SHORT, 3, b'"type":"note"', b'"type":"note","type":"random"')),
    "duplicate-key-escaped": _join(
        _relinked([SHORT[0]] + [SHORT[1].replace(b'"by":"a"', b'"by":"a","b\\u0079":"b"')] + SHORT[2:])
    ),
    "too-deep": _join(
        SHORT[:2] + [SHORT[2].replace(b'"text"', b'"zz":' + b"[" * 1000 + b"]" * 1000 + b',"text"')] + SHORT[3:]
    ),
    "too-deep-tag-later": _join(
        SHORT[:4] + [b'{"seq":5,"zz":' + b"[" * 5000 + b"]" * 5000 + b',"type":"note"}'] + SHORT[5:]
    ),
    "too-deep-line-1": _join(_relinked([_deep_start(70)] + SHORT[1:])),
    "deep-enough-line-1": _join(_relinked([_deep_start(62)] + SHORT[1:])),
    "not-canonical-clean": _join(_relinked([SHORT[0]] + [ln.replace(b'"by":"a"', b'"by" : "a"') for ln in SHORT[1:]])),
    "too-long": _join(SHORT[:3] + [b'{"type":"note","text":"' + b"x" * (4 << 20) + b'"}'] + SHORT[3:]),
    "too-long-torn": _join(SHORT[:3]) + b'{"type":"note","text":"' + b"x" * (5 << 20),
    "lone-cr": b"".join(ln + b"\r" for ln in SHORT),
    "lone-cr-terminated": b"".join(ln + b"\r" for ln in SHORT) + b"\n",
    "lone-cr-long": b"".join(ln + b"\r" for ln in LONG[:40_000]),
}


def _streamed(path: Path) -> tuple[str | None, int]:
    seen = 0
    try:
        for _ in logfile.stream(path):
            seen += 1
    except KifuError as exc:
        return str(exc), seen
    return None, seen


def _bulk(path: Path) -> str | None:
    try:
        logfile.verify_bytes(path.read_bytes(), where=str(path))
    except KifuError as exc:
        return str(exc)
    return None


def _checked(path: Path) -> str | None:
    error = wh.check_bytes(path.read_bytes(), str(path), audit=None).error
    return None if error is None else str(error)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_reader_gives_the_same_verdict(tmp_path: Path, name: str, kifu) -> None:
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(CASES[name])
    streamed, seen = _streamed(path)
    assert _bulk(path) == streamed
    assert _checked(path) == streamed
    r = kifu("verify", path, "-f", "json", "--lang", "en")
    row = json.loads(r.out)[0]
    assert row["error"] == streamed and row["ok"] == (streamed is None)
    if name.startswith("clean") or name in ("crlf", "long-clean", "deep-enough-line-1", "not-canonical-clean"):
        assert streamed is None
    else:
        assert streamed is not None and str(path) in streamed, streamed


WHY = {
    "duplicate-key": ("field text", "appears twice"),
    "duplicate-key-nested": ("field src.loc", "appears twice"),
    "duplicate-key-line-1": (":1:", "field match", "appears twice"),
    "duplicate-key-escaped": ("field by", "'by' appears twice"),
    "duplicate-type": ("field type", "'type' appears twice"),  # not "unknown event type": the cause is named
    "too-deep": ("field zz", "nested more than 64 levels"),
    "too-deep-tag-later": (":5:", "field zz", "nested more than 64 levels"),
    "too-deep-line-1": (":1:", "field rules", "nested more than 64 levels"),
    "too-long": (":4:", "longer than 4,194,304 bytes"),
    "too-long-torn": (":4:", "longer than 4,194,304 bytes"),
    "lone-cr": (":1:", "lone CRs"),
    "lone-cr-terminated": (":1:", "lone CRs"),
    "lone-cr-long": (":1:", "lone CRs"),
}


@pytest.mark.parametrize("name", sorted(WHY))
def test_a_limit_is_named_with_its_line_and_field(tmp_path: Path, name: str) -> None:
    """Duplicate keys, deep nesting, overlong lines and lone-CR line ends: one clear reason, never a traceback."""
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(CASES[name])
    error, _ = _streamed(path)
    assert error is not None
    for part in WHY[name]:
        assert part in error, (part, error)


def test_the_readers_agree_on_the_values_a_duplicate_key_would_have_split(tmp_path: Path, kifu) -> None:
    """The issue's reproducer: "values":[1],"values":[2] verified as ok, then show and the warehouse disagreed."""
    from kifu.events import table

    codec = table.codec("generic")
    coin = encode(
        codec.convert(
            {"type": "random", "kind": "coin", "sides": 2, "values": [1], "seq": 2, "prev": line_hash(SHORT[0])}
        )
    )
    path = tmp_path / "coin.jsonl"
    path.write_bytes(_join([SHORT[0], coin.replace(b'"values":[1]', b'"values":[1],"values":[2]')]))
    for command in ("verify", "show", "audit", "state"):
        r = kifu(command, path)
        assert r.code == 2 and "'values' appears twice" in r.err and "Traceback" not in r.err, (command, r.err)
    db = tmp_path / "w.duckdb"
    r = kifu("ingest", path, "--db", db, "--jobs", "1")
    assert r.code == 2 and "'values' appears twice" in r.err


@pytest.mark.parametrize(
    "name", ["byte-changed", "line-deleted", "lines-swapped", "long-byte-changed", "long-line-deleted"]
)
def test_a_streaming_reader_is_handed_only_the_lines_before_the_edit(tmp_path: Path, name: str) -> None:
    """An edited line is caught by its successor: no reader may have been handed it."""
    path = tmp_path / "m.jsonl"
    path.write_bytes(CASES[name])
    error, seen = _streamed(path)
    assert error is not None
    bad = int(error.split("seq ")[1].split(":")[0].split()[0])
    assert seen == bad - 1, (error, seen)


def test_ingest_loads_every_good_log_and_names_the_bad_ones(tmp_path: Path, kifu) -> None:
    """A folder with a log whose catalogue is bad and the bundled dispute: the dispute is loaded."""
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "bad-catalogue.jsonl").write_bytes(CASES["bad-catalogue"])
    (folder / "torn.jsonl").write_bytes(CASES["torn-tail"])
    (folder / "dispute.jsonl").write_bytes((FIXTURES / "gunandgun" / "dispute.jsonl").read_bytes())
    db = tmp_path / "w.duckdb"
    r = kifu("ingest", folder, "--db", db, "--jobs", "1", "--lang", "en")
    assert r.code == 1, r.err  # some logs refused, some loaded
    refused = [ln for ln in r.err.splitlines() if ln.startswith("refused: ")]
    assert len(refused) == 2
    assert any("bad-catalogue.jsonl:1" in ln and "catalogue" in ln for ln in refused), refused
    assert any("torn.jsonl" in ln and "no terminator" in ln for ln in refused), refused
    assert "ingested 1 new matches" in r.out
    out = kifu("sql", "SELECT match FROM matches", "--db", db, "-f", "csv")
    assert out.out.splitlines() == ["match", "R3-T7"]


def test_ingest_of_nothing_readable_exits_2(tmp_path: Path, kifu) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "torn.jsonl").write_bytes(CASES["torn-tail"])
    r = kifu("ingest", folder, "--db", tmp_path / "w.duckdb", "--jobs", "1")
    assert r.code == 2 and "refused" in r.err
