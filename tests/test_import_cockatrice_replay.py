"""Cockatrice replays (.cor): players, dice, coins and chat read from the protobuf the client saves.

The replays here are written by a small protobuf wire encoder of this test (varints and
length-delimited fields, as the protobuf encoding documents them), not by the reader's own
message classes, so a wrong field number in the reader cannot agree with itself.
"""

from __future__ import annotations

import json
from pathlib import Path

from kifu.events import importers, table


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def zigzag(n: int) -> int:
    return (n << 1) ^ (n >> 63)


def field_varint(number: int, value: int) -> bytes:
    return varint(number << 3) + varint(value)


def field_bytes(number: int, value: bytes | str) -> bytes:
    raw = value.encode() if isinstance(value, str) else value
    return varint(number << 3 | 2) + varint(len(raw)) + raw


def props(player_id: int, name: str, spectator: bool = False) -> bytes:
    user = field_bytes(1, name)
    return field_varint(1, zigzag(player_id)) + field_bytes(2, user) + (field_varint(3, 1) if spectator else b"")


def event(player_id: int, ext: int, body: bytes) -> bytes:
    return field_varint(1, zigzag(player_id)) + field_bytes(ext, body)


def join(player_id: int, name: str, spectator: bool = False) -> bytes:
    return event(-1, 1000, field_bytes(1, props(player_id, name, spectator)))


def say(player_id: int, text: str) -> bytes:
    return event(player_id, 1009, field_bytes(1, text))


def roll(player_id: int, sides: int, *values: int, old: bool = False) -> bytes:
    body = field_varint(1, sides)
    if old:  # a client before several dice: one value in field 2
        body += field_varint(2, values[0])
    else:
        body += b"".join(field_varint(3, v) for v in values)
    return event(player_id, 2008, body)


def other(player_id: int) -> bytes:
    return event(player_id, 2005, field_varint(1, 7))  # a card draw: not read


def container(seconds: int, *events: bytes) -> bytes:
    return field_varint(1, 42) + b"".join(field_bytes(2, e) for e in events) + field_varint(4, seconds)


def replay(*containers: bytes, start: int = 1_750_000_000) -> bytes:
    game = field_varint(3, 42) + field_bytes(4, "Mana Clash test") + field_varint(30, 2) + field_varint(51, start)
    return field_varint(1, 9001) + field_bytes(2, game) + b"".join(field_bytes(3, c) for c in containers)


SAMPLE = replay(
    container(0, join(0, "Aoi"), join(1, "Ren"), join(2, "Watcher", spectator=True)),
    container(5, roll(0, 20, 14), roll(1, 20, 9, old=True)),
    container(9, say(0, "I go first"), other(0)),
    container(30, roll(1, 2, 1, 2, 2), roll(0, 2, 2)),
    container(31, say(2, "gl hf")),
)


def test_replay_is_detected_and_read(tmp_path: Path, kifu) -> None:
    src = tmp_path / "replay_9001.cor"
    src.write_bytes(SAMPLE)
    out = tmp_path / "m.jsonl"
    run = kifu("import", src, "-o", out, "--report", tmp_path / "r.json")
    assert run.code == 0, run.err
    events = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    start = events[0]
    assert [(p["id"], p["name"]) for p in start["players"]] == [("p1", "Aoi"), ("p2", "Ren")]
    rolls = [(e["by"], e["kind"], e["sides"], e["values"]) for e in events if e["type"] == "random"]
    assert rolls == [
        ("p1", "die", 20, [14]),
        ("p2", "die", 20, [9]),
        ("p2", "coin", 2, [1, 2, 2]),
        ("p1", "coin", 2, [2]),
    ]
    notes = [(e.get("by"), e["text"]) for e in events if e["type"] == "note"]
    assert ("p1", "I go first") in notes and (None, "gl hf") in [(n[0] or None, n[1]) for n in notes]
    coin = next(e for e in events if e["type"] == "random" and e["sides"] == 2 and e["values"] == [2])
    assert coin["src"]["file"] == "replay_9001.cor"
    assert coin["src"]["loc"] == "event_list[3].event_list[1]"
    assert coin["src"]["text"] == "Aoi flipped a coin. It landed as Tails (2)."
    assert coin["at"] == "2025-06-15T15:07:10Z"  # start_time + the container's seconds_elapsed


def test_replay_read_as_the_text_log_reads_the_same_lines(tmp_path: Path) -> None:
    """The text each roll keeps is the client's own line, which the text reader reads to the same dice."""
    path = tmp_path / "r.cor"
    path.write_bytes(SAMPLE)
    src, _ = importers.read_source(path, "cockatrice")
    from kifu.events.importers import cockatrice

    for msg in src.messages:
        if msg.randoms:
            again = cockatrice.line_message(1, msg.text)
            assert [(r["sides"], sorted(r["values"])) for r in again.randoms] == [
                (r["sides"], sorted(r["values"])) for r in msg.randoms
            ]


def test_cut_replay_says_what_it_is(tmp_path: Path, kifu) -> None:
    src = tmp_path / "cut.cor"
    src.write_bytes(SAMPLE[: len(SAMPLE) // 2] + b"\x00\x00")
    run = kifu("import", src, "-o", tmp_path / "m.jsonl")
    assert run.code == 2
    assert "cut.cor" in run.err and "Cockatrice" in run.err and "message log" in run.err
    assert "Traceback" not in run.err and not (tmp_path / "m.jsonl").exists()


def test_picture_says_what_it_is(tmp_path: Path, kifu) -> None:
    src = tmp_path / "room.png"
    src.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    run = kifu("import", src, "-o", tmp_path / "m.jsonl", "--lang", "ja")
    assert run.code == 2 and "画像" in run.err and "room.png" in run.err


def test_replay_through_build_keeps_order(tmp_path: Path) -> None:
    path = tmp_path / "r.cor"
    path.write_bytes(SAMPLE)
    src, data = importers.read_source(path)
    assert src.format == "cockatrice"
    imported = importers.build(src, data, table.codec("generic"))
    locs = [e["src"]["loc"] for e in imported.events]
    assert locs == sorted(locs, key=lambda loc: [int(x) for x in loc.replace("]", "[").split("[")[1::2]])


def game_event(ext: int, body: bytes) -> bytes:
    """An event of the game itself, as the server writes it: no player_id at all (the protocol's default, -1)."""
    return field_bytes(ext, body)


def conceded(player_id: int) -> bytes:
    return event(player_id, 1007, field_bytes(1, field_varint(1, zigzag(player_id)) + field_varint(4, 1)))


def test_joins_leaves_and_concedes_name_their_own_players(tmp_path: Path) -> None:
    """The shape of real replays (a tournament bot's game): joins carry no player_id, a spectator
    bot joins first as player 0, a concede is a change of the player's properties, leaves close it."""
    data = replay(
        container(0, game_event(1000, field_bytes(1, props(0, "TableBot", spectator=True)))),
        container(18, game_event(1000, field_bytes(1, props(1, "Aoi")))),
        container(39, game_event(1000, field_bytes(1, props(2, "Ren")))),
        container(73, roll(1, 20, 11), roll(2, 20, 10)),
        container(300, event(1, 1007, field_bytes(1, field_varint(1, zigzag(1)) + field_varint(5, 1)))),
        container(706, conceded(1)),
        container(707, event(0, 1001, b"")),
        container(730, event(2, 1001, b""), event(1, 1001, b"")),
    )
    path = tmp_path / "Match 1-1.cor"
    path.write_bytes(data)
    src, raw = importers.read_source(path)
    imported = importers.build(src, raw, table.codec("generic"))
    assert [(p["id"], p["name"]) for p in imported.start["players"]] == [("p1", "Aoi"), ("p2", "Ren")]
    said = [(e["type"], e.get("by"), e.get("text") or e["src"]["text"]) for e in imported.events]
    assert said == [
        ("note", "system", "TableBot has joined the game."),
        ("note", "system", "Aoi has joined the game."),
        ("note", "system", "Ren has joined the game."),
        ("random", "p1", "Aoi rolls a 11 with a 20-sided die."),
        ("random", "p2", "Ren rolls a 10 with a 20-sided die."),
        ("note", "system", "Aoi has conceded the game."),  # a ready flag (field 5) is no concede
        ("note", "system", "TableBot has left the game."),
        ("note", "system", "Ren has left the game."),
        ("note", "system", "Aoi has left the game."),
    ]
