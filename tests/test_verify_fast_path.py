"""Lines another writer wrote (defaults written out, keys in another order) verify without a second decode.

``codec.equivalent`` proves such a line names each key once from a few byte counts; it must
never vouch for a line that names a key twice (the verifier then refuses it, as before), and
whatever it leaves unproven is still decided by counting the keys of a decode.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu import app
from kifu.events import limits, logfile, table
from kifu.events.base import MalformedEvent
from kifu.events.codec import encode, equivalent, line_hash

MATCH = {"game": "mtg", "match": "m", "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]}
COIN = {"type": "mtg.coin", "by": "a", "flip": "f1", "group": 1, "player": "a", "result": "heads"}


def _written(game: str, objs: list[dict[str, Any]]) -> bytes:
    """A log as another writer writes it: each event's mapping as given, chained over the bytes written."""
    out, prev = [], None
    for seq, obj in enumerate(objs, 1):
        raw = msgspec.json.encode({**obj, "seq": seq, "prev": prev})
        out.append(raw)
        prev = line_hash(raw)
    return b"".join(line + b"\n" for line in out)


def _start(game: str) -> dict[str, Any]:
    return {"type": "match.start", "format": "kifu/1", "rules": {}, **MATCH, "game": game}


def _keys_twice(line: bytes) -> bytes:
    """``line`` chained at seq 2 after a match.start, as one log."""
    first = encode(app.chain("mtg", [MATCH])[0])
    return first + b"\n" + line + b"\n"


def test_defaults_written_out_and_keys_reordered_verify() -> None:
    """The same events as canonical lines and as another writer's lines: the same events, each its own head."""
    coin = dict(COIN)
    reordered = {"seq": 0, "result": "heads", "player": "a", "group": 1, "flip": "f1", "type": "mtg.coin"}
    data = _written("mtg", [_start("mtg"), coin, reordered])
    verified = logfile.verify_bytes(data)
    assert [type(e).__name__ for e in verified.events] == ["MatchStarted", "CoinLanded", "CoinLanded"]
    assert verified.head.hash == line_hash(data.splitlines()[-1])


@pytest.mark.parametrize(
    "line",
    [
        # an optional field at its default, twice
        b'{"type":"mtg.coin","seq":2,"prev":"P","flip":"f1","group":1,"group":1,"player":"a","result":"heads"}',
        # its default first, a value after (the value is what a decoder keeping the last reads)
        b'{"type":"mtg.coin","seq":2,"prev":"P","flip":"f1","group":1,"group":2,"player":"a","result":"heads"}',
        # a required field twice
        b'{"type":"mtg.coin","seq":2,"prev":"P","flip":"f1","flip":"f1","player":"a","result":"heads"}',
        # a key twice, and a colon written as an escape to even the count
        b'{"type":"mtg.coin","seq":2,"prev":"P","flip":"f\\u003a","flip":"f1","player":"a","result":"heads"}',
        # a key twice inside the source
        b'{"type":"mtg.coin","seq":2,"prev":"P","src":{"kind":"chat","kind":"chat"},"flip":"f1","result":"heads"}',
    ],
)
def test_a_key_twice_is_still_refused(line: bytes) -> None:
    first = encode(app.chain("mtg", [MATCH])[0])
    line = line.replace(b'"P"', b'"' + line_hash(first).encode() + b'"')
    with pytest.raises(MalformedEvent) as err:
        logfile.verify_bytes(first + b"\n" + line + b"\n")
    assert "appears twice" in str(err.value.message)


def test_a_default_the_encoder_writes_cannot_hide_a_key_twice() -> None:
    """World Trigger's wt.move writes its default tags: a line that leaves them out and names a key twice is refused."""
    codec = table.codec("worldtrigger")
    line = b'{"type":"wt.move","seq":2,"prev":"P","by":"b","by":"b","player":"b","to":5}'
    event = codec.decode_raw(line)
    assert not equivalent(line, encode(event), codec.keys[type(event)])


_GAMES = ("gunandgun", "mtg", "weiss", "worldtrigger")


def _lines(game: str) -> list[tuple[bytes, Any]]:
    """Canonical lines of a simulated match of ``game`` (line 1 left out), with their events."""
    sim = table.part(game, "sim")
    events = app.chain(game, sim.simulate(0, None))[1:]
    return [(encode(e), e) for e in events]


_SAMPLES = {game: _lines(game) for game in _GAMES}


def _mutate(line: bytes, rnd: random.Random) -> bytes:
    """``line`` rewritten as a writer (or a forger) might: keys shuffled, defaults written, a key repeated."""
    obj = msgspec.json.decode(line)
    items = list(obj.items())
    for _ in range(rnd.randint(0, 2)):
        choice = rnd.random()
        if choice < 0.3:
            rnd.shuffle(items)
        elif choice < 0.6:
            items.insert(rnd.randrange(len(items) + 1), (rnd.choice(["group", "by", "at", "tags", "face"]), 1))
        elif choice < 0.9 and items:
            key, value = rnd.choice(items)
            items.insert(rnd.randrange(len(items) + 1), (key, rnd.choice([value, 1, None, "x:y"])))
        else:
            items.insert(rnd.randrange(len(items) + 1), ("src", {"kind": "chat", "text": "a:b"}))
    return b"{" + b",".join(msgspec.json.encode(k) + b":" + msgspec.json.encode(v) for k, v in items) + b"}"


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(_GAMES), st.integers(0, 10_000), st.integers(0, 2**32))
def test_equivalent_never_vouches_for_a_key_twice(game: str, index: int, seed: int) -> None:
    """Whatever the fast proof accepts, counting the keys of a decode accepts too."""
    codec = table.codec(game)
    line, _ = _SAMPLES[game][index % len(_SAMPLES[game])]
    mutated = _mutate(line, random.Random(seed))
    try:
        event = codec.decode_raw(mutated)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return
    if equivalent(mutated, encode(event), codec.keys[type(event)]):
        assert limits.keys_unique(mutated), mutated


def test_an_escaped_colon_in_one_line_does_not_hide_a_key_twice_in_another() -> None:
    """The search for ``\\u003`` is made once over a block: a block that holds one anywhere is proven line by
    line, and a line naming a key twice is refused wherever the escape is."""
    coin = {k: v for k, v in COIN.items() if k != "by"}
    escaped = {**coin, "flip": "f\\u003a"}
    start = _written("mtg", [_start("mtg"), escaped, coin])
    verified = logfile.verify_bytes(start)
    assert len(verified.events) == 3
    lines = start.splitlines()
    twice = lines[2].replace(b'"group":1', b'"group":1,"group":1')
    assert twice != lines[2]
    with pytest.raises(MalformedEvent) as err:
        logfile.verify_bytes(b"\n".join([*lines[:2], twice]) + b"\n")
    assert "appears twice" in str(err.value.message)
