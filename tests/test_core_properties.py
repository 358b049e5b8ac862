"""Hypothesis properties of the core over the generic game (STYLE.md convention 9).

Events round-trip through the codec and their encoding is canonical; replay is
deterministic and snapshots agree with replay from the start; the auditor never
raises on a well-formed log; any single byte flip, line deletion or swap of a
log fails ``verify`` (given the slip's head) naming a seq or a byte offset.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kifu import app
from kifu.auditor import registry
from kifu.events import logfile, table
from kifu.events.base import KifuError, MatchStarted
from kifu.events.codec import encode, line_hash
from kifu.projector.base import Replay

CODEC = table.codec("generic")
GENERIC = registry.game("generic")
PLAYER_IDS = ("aoi", "ren", "kai")

ints = st.integers(min_value=-(2**63), max_value=2**63 - 1)
texts = st.text(max_size=30)
json_values = st.recursive(
    st.none() | st.booleans() | ints | st.floats(allow_nan=False, allow_infinity=False) | texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=8,
)
times = st.one_of(
    st.none(),
    st.datetimes(timezones=st.timezones()).map(lambda t: t.isoformat()),
    st.sampled_from(["yesterday", "2026-11-01T10:00:00", "2026-02-30T00:00:00Z", ""]),
)
bys = st.one_of(st.none(), st.sampled_from(PLAYER_IDS + ("judge", "system", "")), texts)
sources = st.none() | st.builds(dict, file=texts, loc=texts, text=st.none() | texts)

envelope = {"at": times, "by": bys}
notes = st.fixed_dictionaries(
    {"type": st.just("note"), "text": texts, **envelope},
    optional={"channel": texts, "speaker": texts, "secret": st.booleans(), "src": sources},
)
rolls = st.fixed_dictionaries(
    {
        "type": st.just("random"),
        "kind": st.sampled_from(["coin", "die", "choice"]),
        "sides": st.integers(1, 100),
        "values": st.lists(st.integers(1, 100), max_size=4),
        **envelope,
    },
    optional={"expr": texts, "result": texts, "secret": st.booleans(), "purpose": texts},
)
rulings = st.fixed_dictionaries(
    {"type": st.just("judge.ruling"), "about": st.lists(st.integers(-5, 80), max_size=3), "text": texts, **envelope},
    optional={"code": texts, "decision": texts},
)
ends = st.fixed_dictionaries(
    {"type": st.just("match.end"), **envelope}, optional={"winner": st.none() | texts, "reason": texts}
)
bodies = st.one_of(notes, rolls, rulings, ends)
players = st.lists(
    st.fixed_dictionaries({"id": st.sampled_from(PLAYER_IDS + ("judge",)) | texts, "name": texts}), max_size=4
)
starts = st.fixed_dictionaries(
    {
        "type": st.just("match.start"),
        "format": st.just("kifu/1"),
        "game": st.just("generic"),
        "match": texts,
        "players": players,
        "at": times,
    },
    optional={
        "rules": st.dictionaries(texts, json_values, max_size=3),
        "title": texts,
        "catalogue": st.none() | st.dictionaries(texts, json_values, max_size=3),
    },
)


def chain(bodies_: list[dict[str, Any]]) -> tuple[list[Any], list[bytes]]:
    """Events and their stored lines, seq and prev filled in as the log writer does (``kifu.chain``)."""
    events = app.chain("generic", bodies_)
    return events, [encode(e) for e in events]


logs = st.builds(lambda s, rest: chain([s, *rest]), starts, st.lists(bodies, min_size=1, max_size=40))


@given(
    st.one_of(starts, bodies), st.integers(1, 10**6), st.none() | st.text("0123456789abcdef", min_size=64, max_size=64)
)
def test_events_round_trip_and_encoding_is_canonical(body: dict[str, Any], seq: int, prev: str | None) -> None:
    event = CODEC.convert({**body, "seq": seq, "prev": prev})
    raw = encode(event)
    decoded = CODEC.decode(raw)
    assert decoded == event
    assert encode(decoded) == raw
    assert encode(CODEC.convert(msgspec.to_builtins(decoded))) == raw
    assert raw.startswith(b'{"type":') and b"\n" not in raw


@given(logs, st.data())
def test_replay_is_deterministic_and_snapshots_agree(log: tuple[list[Any], list[bytes]], data: st.DataObject) -> None:
    events, _ = log
    options = registry.options(GENERIC, events[0])
    every = data.draw(st.integers(1, 10), label="every")
    seqs = data.draw(st.lists(st.integers(1, len(events)), min_size=1, max_size=8), label="seqs")
    snap = Replay(GENERIC.projection, events, options, every=every)
    other = Replay(GENERIC.projection, list(events), options, every=every)
    for seq in seqs:
        frame = snap.state_at(seq)
        assert frame.seq == seq
        assert frame == snap.replay_from_start(seq) == other.state_at(seq)


@given(logs)
def test_auditor_never_raises_on_a_well_formed_log(log: tuple[list[Any], list[bytes]]) -> None:
    events, _ = log
    assert isinstance(events[0], MatchStarted)
    findings = registry.audit(events, strict=True)
    assert all(1 <= f.seq <= len(events) for f in findings)
    assert findings == sorted(findings, key=lambda f: f.sort_key())
    assert not [f for f in findings if f.code == "KIFU-ENG-001"]


def _flip(data: bytes, draw) -> bytes:
    at = draw(st.integers(0, len(data) - 1), label="offset")
    new = draw(st.integers(0, 255).filter(lambda b: b != data[at]), label="byte")
    return data[:at] + bytes([new]) + data[at + 1 :]


def _delete(lines: list[bytes], draw) -> bytes:
    i = draw(st.integers(0, len(lines) - 1), label="deleted")
    return b"".join(line + b"\n" for line in lines[:i] + lines[i + 1 :])


def _swap(lines: list[bytes], draw) -> bytes:
    i = draw(st.integers(0, len(lines) - 2), label="i")
    j = draw(st.integers(i + 1, len(lines) - 1), label="j")
    out = list(lines)
    out[i], out[j] = out[j], out[i]
    return b"".join(line + b"\n" for line in out)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mutated") / "m.jsonl"


@given(logs, st.sampled_from(["flip", "delete", "swap"]), st.data())
def test_a_mutated_chain_always_fails_verify(scratch: Path, log, how: str, data: st.DataObject) -> None:
    _, lines = log
    original = b"".join(line + b"\n" for line in lines)
    scratch.write_bytes(original)
    head = logfile.verify(scratch)
    assert head.hash == line_hash(lines[-1])
    mutated = {
        "flip": lambda: _flip(original, data.draw),
        "delete": lambda: _delete(lines, data.draw),
        "swap": lambda: _swap(lines, data.draw),
    }[how]()
    scratch.write_bytes(mutated)
    with pytest.raises(KifuError) as caught:
        logfile.verify(scratch, expect_head=head.hash)
    err = caught.value
    assert err.seq is not None or err.offset is not None, str(err)
    assert str(scratch) in str(err)


def _legal_body(kind: str, seq: int, minute: int, ended: bool, about: list[int]) -> dict[str, Any]:
    at = f"2026-11-01T{10 + minute // 60:02d}:{minute % 60:02d}:00+09:00"
    by = PLAYER_IDS[seq % 2]
    if kind == "ruling" or (ended and kind in ("roll", "end")):
        return {
            "type": "judge.ruling",
            "at": at,
            "by": "judge",
            "about": [a % (seq - 1) + 1 for a in about],
            "text": "ok",
        }
    if kind == "roll":
        return {"type": "random", "at": at, "by": by, "kind": "die", "sides": 6, "values": [a % 6 + 1 for a in about]}
    if kind == "end":
        return {"type": "match.end", "at": at, "by": "judge", "winner": by}
    return {"type": "note", "at": at, "by": by, "text": "legal"}


@st.composite
def legal_logs(draw: st.DrawFn) -> list[Any]:
    """A generic match that keeps every KIFU rule: times go forward, `by` names a
    player, rulings look back, one match.end, and only notes and rulings after it."""
    kinds = draw(st.lists(st.sampled_from(["note", "roll", "ruling", "end"]), min_size=1, max_size=40))
    start = {
        "type": "match.start",
        "format": "kifu/1",
        "game": "generic",
        "match": "legal",
        "at": "2026-11-01T10:00:00+09:00",
        "players": [{"id": p, "name": p} for p in PLAYER_IDS[:2]],
    }
    out, minute, ended = [start], 0, False
    for seq, kind in enumerate(kinds, start=2):
        minute += draw(st.integers(0, 3))
        about = draw(st.lists(st.integers(0, 10**6), min_size=1, max_size=3))
        body = _legal_body(kind, seq, minute, ended, about)
        ended = ended or body["type"] == "match.end"
        out.append(body)
    return chain(out)[0]


@given(legal_logs())
def test_legal_generic_matches_give_no_errors_or_warnings(events: list[Any]) -> None:
    findings = registry.audit(events, strict=True)
    assert [(f.code, f.seq) for f in findings if f.severity != "info"] == []
