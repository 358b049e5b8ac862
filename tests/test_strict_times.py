"""Times are strict RFC 3339 everywhere, and a match seats each player under its own id.

Python reads far more than RFC 3339 (``20261129T140000+0900``, ``2026-W48-7T14:00+09:00``); the
warehouse reads less, and stored those as NULL while append and the audit let them through. Now
every writer refuses them (append, new, the importers' logs), verify and ingest refuse a log that
holds one (file, line, field), the audit reports it (KIFU-LOG-004), and what is accepted is what
the warehouse stores, instant for instant (a property test against DuckDB itself).
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_cli

import kifu
from kifu.events import rfc3339
from kifu.events.base import KifuError
from kifu.events.codec import encode
from kifu.events.importers.common import iso_time

ISSUE = ["20261129T140000+0900", "2026-W48-7T14:00+09:00"]
"""The two times of the issue: Python read them, the warehouse stored NULL."""

REFUSED = ISSUE + [
    "yesterday",
    "2026-11-29T14:00:00",  # no offset
    "2026-11-29T14:00+09:00",  # no seconds
    "2026-11-29T14:00:00+0900",  # offset without its colon
    "2026-11-29T14:00:00+09",
    "2026-11-29 14:00:00+09:00",  # a space for the T
    "2026-11-29t14:00:00z",  # lower case: the warehouse does not read it
    "2026-11-29T14:00:00,5Z",  # a decimal comma
    "2026-02-30T00:00:00Z",  # no such day
    "2026-11-29T24:00:00Z",
    "2026-11-29T23:59:60Z",  # a leap second: neither Python nor DuckDB holds one
    "2026-11-29T14:00:00+24:00",
    "２０２６-11-29T14:00:00Z",  # full-width digits
    "2026-11-29",
]
ACCEPTED = [
    "2026-11-29T14:00:00+09:00",
    "2026-11-29T05:00:00Z",
    "2026-11-29T05:00:00.5Z",
    "2026-11-29T05:00:00.123456-03:30",
    "2026-11-29T05:00:00-00:00",
    "0001-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
]


@pytest.mark.parametrize("at", REFUSED)
def test_times_that_are_not_strict_rfc_3339_are_not_times(at: str) -> None:
    assert rfc3339.parse(at) is None
    with pytest.raises(KifuError, match="not an RFC 3339 time"):
        rfc3339.check_time(at, where="m.jsonl", line=3, seq=3)


@pytest.mark.parametrize("at", ACCEPTED)
def test_strict_times_are_times(at: str) -> None:
    assert rfc3339.parse(at) is not None
    rfc3339.check_time(at)


def _micros(t: datetime) -> int:
    """Microseconds since 1970 UTC, without converting to UTC (year 1 at +14:00 is before year 1 there)."""
    naive = t.replace(tzinfo=None) - datetime(1970, 1, 1)
    off = t.utcoffset() or timedelta(0)
    return (naive - off) // timedelta(microseconds=1)


@pytest.fixture(scope="module")
def duck():
    import duckdb

    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    yield con
    con.close()


def _stored(con, at: str) -> int | None:
    return con.execute("SELECT epoch_us(TRY_CAST($a AS TIMESTAMPTZ))", {"a": at}).fetchone()[0]


@settings(max_examples=400, deadline=None)
@given(st.from_regex(rfc3339.PATTERN, fullmatch=True) | st.sampled_from(REFUSED + ACCEPTED))
def test_every_time_kifu_accepts_the_warehouse_stores_as_the_same_instant(duck, at: str) -> None:
    t = rfc3339.parse(at)
    if t is None:
        return
    assert _stored(duck, at) == _micros(t), at


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.from_regex(rfc3339.PATTERN, fullmatch=True)
        | st.sampled_from(REFUSED + ACCEPTED)
        | st.from_regex(
            r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}(:[0-9]{2})?([.,][0-9]+)?([Zz]|[+-][0-9]{2}:?[0-9]{2})?",
            fullmatch=True,
        ),
        max_size=4,
    )
)
def test_the_one_pass_over_a_block_agrees_with_reading_each_time(ats: list[str]) -> None:
    """``check_events`` decides a block's times in one pass (msgspec, one search): the same verdict as ``read``."""
    assert rfc3339.all_strict(ats) == all(rfc3339.read(a) is not None for a in ats), ats


@settings(max_examples=200, deadline=None)
@given(
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
    st.integers(min_value=-23 * 60 - 59, max_value=23 * 60 + 59),
    st.sampled_from(["", ".5", ".123", ".123456", ".1234567"]),
)
def test_a_real_instant_written_strictly_is_accepted_and_stored(duck, when: datetime, minutes: int, frac: str) -> None:
    sign = "-" if minutes < 0 else "+"
    at = (
        f"{when.year:04d}"
        + when.strftime("-%m-%dT%H:%M:%S")
        + frac
        + f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
    )
    t = rfc3339.parse(at)
    assert t is not None, at
    assert _stored(duck, at) == _micros(t), at


# --- the commands ------------------------------------------------------------------------------------


def _log(tmp_path: Path, name: str, at: str | None = None, players: list[str] | None = None) -> Path:
    """A generic log written around the writers (which refuse what it may hold), chained as they chain."""
    ids = players or ["a", "b"]
    start = {
        "game": "generic",
        "match": name,
        "at": "2026-11-29T14:00:00+09:00",
        "players": [{"id": p, "name": f"P{i}"} for i, p in enumerate(ids)],
    }
    note = {"type": "note", "by": ids[0], "text": "x"} | ({"at": at} if at else {})
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(b"".join(encode(e) + b"\n" for e in kifu.chain("generic", [start, note])))
    return path


@pytest.mark.parametrize("at", ISSUE)
def test_append_refuses_a_time_that_is_not_rfc_3339(tmp_path: Path, at: str) -> None:
    log = tmp_path / "m.jsonl"
    assert run_cli("new", log, "-g", "generic", "-m", "m1", "-p", "a=Aoi", "-p", "b=Ren").code == 0
    before = log.read_bytes()
    r = run_cli("append", log, "type=note", "by=a", "text=hi", f"at={at}")
    assert r.code == 2 and r.out == ""
    assert r.err.strip().splitlines() == [
        f"kifu: error: {log}: seq 2: field at: {at!r} is not an RFC 3339 time: write YYYY-MM-DDTHH:MM:SS with "
        "its UTC offset, as 2026-11-29T14:00:00+09:00 (or Z for UTC)"
    ]
    assert log.read_bytes() == before
    r = run_cli(
        "append", log, "--json", json.dumps({"type": "note", "by": "a", "text": "hi", "at": at}), "--lang", "ja"
    )
    assert r.code == 2 and "RFC 3339 の時刻ではありません" in r.err and log.read_bytes() == before


def test_new_refuses_a_start_time_that_is_not_rfc_3339(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    r = run_cli("new", log, "-g", "generic", "-m", "m1", "-p", "a=Aoi", "--at", ISSUE[1])
    assert r.code == 2 and f"{log}:1: seq 1: field at:" in r.err and not log.exists()


@pytest.mark.parametrize("at", ISSUE)
def test_verify_refuses_and_the_audit_reports_a_time_that_is_not_rfc_3339(tmp_path: Path, at: str) -> None:
    log = _log(tmp_path, "late", at)
    r = run_cli("verify", log)
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1
    assert r.err.startswith(f"kifu: error: {log}:2: seq 2: field at: {at!r} is not an RFC 3339 time")
    done = kifu.audit(log)
    assert [(f.code, f.seq) for f in done.findings] == [("KIFU-LOG-004", 2)]


@pytest.mark.parametrize("at", ISSUE)
def test_ingest_refuses_a_time_it_cannot_store_never_null(tmp_path: Path, at: str) -> None:
    good, bad = _log(tmp_path, "fine", "2026-11-29T14:01:00+09:00"), _log(tmp_path, "late", at)
    db = tmp_path / "w.duckdb"
    r = run_cli("ingest", good, bad, "--db", db, "--jobs", "1")
    assert r.code == 1, r.err  # one refused, the good one stored
    assert f"{bad}:2: seq 2: field at: {at!r}" in r.err
    rows = run_cli("sql", "SELECT count(*) AS n FROM events WHERE time IS NULL", "--db", db, "-f", "json").out
    assert json.loads(rows) == [{"n": 0}]


def test_two_seats_under_one_id_are_refused_at_verify_and_ingest(tmp_path: Path) -> None:
    log = _log(tmp_path, "twice", players=["a", "a"])
    r = run_cli("verify", log)
    assert r.code == 2
    assert r.err.strip() == (
        f"kifu: error: {log}:1: seq 1: field players[1].id: seats 1 and 2 have the same player id 'a': "
        "every event names a seat by its id, so each seat needs its own"
    )
    r = run_cli("ingest", log, "--db", tmp_path / "w.duckdb")
    assert r.code == 2 and "players[1].id" in r.err
    assert [(f.code, f.seq) for f in kifu.audit(log).findings] == [("KIFU-LOG-007", 1)]
    r = run_cli("new", tmp_path / "n.jsonl", "-g", "generic", "-m", "n", "-p", "a=Aoi", "-p", "a=Ren")
    assert r.code == 2 and "players[1].id" in r.err and not (tmp_path / "n.jsonl").exists()


def test_an_importer_writes_a_sources_iso_time_strictly_or_not_at_all() -> None:
    assert iso_time("2026-11-29T14:00:00.123Z") == "2026-11-29T14:00:00.123Z"  # strict: kept as written
    assert iso_time("2026-11-29 14:00:00+09:00") == "2026-11-29T14:00:00+09:00"  # the same instant, strictly
    assert iso_time("20261129T140000+0900") == "2026-11-29T14:00:00+09:00"
    assert iso_time("2026-11-29T14:00:00") is None  # no zone: no instant
    assert iso_time("tomorrow") is None


def test_a_streamed_log_with_a_bad_time_after_its_end_is_refused_too(tmp_path: Path, monkeypatch) -> None:
    """A big log is audited as it streams and its KIFU-LOG-004 names each bad time; after a decided match that
    finding is folded into the play-after-the-end one, and the times are read once more: refused, never NULL."""
    from kifu.warehouse import stream

    start = {
        "game": "generic",
        "match": "late-after-end",
        "at": "2026-11-29T14:00:00+09:00",
        "players": [{"id": "a", "name": "Aoi"}, {"id": "b", "name": "Ren"}],
    }
    lines = [start, {"type": "match.end", "by": "a", "winner": "a", "reason": "concede"}]
    lines.append({"type": "random", "by": "a", "kind": "coin", "sides": 2, "values": [1], "expr": "1D2"})
    lines.append({"type": "note", "by": "a", "text": "x", "at": ISSUE[0]})
    log = tmp_path / "late.jsonl"
    log.write_bytes(b"".join(encode(e) + b"\n" for e in kifu.chain("generic", lines)))
    monkeypatch.setattr(stream, "STREAM_ABOVE", 0)  # every log streams
    assert stream.big(str(log))
    codes = [(f.code, f.consequences) for f in kifu.audit(log).findings]
    assert codes and all("KIFU-LOG-004" != c for c, _ in codes), codes  # folded: no time named
    r = run_cli("ingest", log, "--db", tmp_path / "w.duckdb", "--jobs", "1")
    assert r.code == 2 and f"{log}:4: seq 4: field at: {ISSUE[0]!r}" in r.err, r.err
