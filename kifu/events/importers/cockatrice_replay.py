"""Cockatrice replays (``.cor``): the game as the server recorded it, read for players, dice, coins and chat.

Source: the Cockatrice protocol's public message definitions (Cockatrice/Cockatrice,
``libcockatrice_protocol/…/pb/``: ``game_replay.proto``, ``game_event_container.proto``,
``game_event.proto``, ``event_roll_die.proto``, ``event_game_say.proto``, ``event_join.proto``,
``event_game_state_changed.proto``, ``event_leave.proto``, ``event_player_properties_changed.proto``,
``serverinfo_*.proto``) and the client, which saves a
replay as one serialized ``GameReplay`` (``tab_replays.cpp``: ``replay_<id>.cor``) and logs a
die of two sides as a coin, Heads (1) / Tails (2) (``message_log_widget.cpp``, ``logRollDie``).

The messages kifu needs are declared here, in code, with only the fields it reads (protobuf
skips the rest): a replay is a list of event containers, each with the seconds since the
game started and its events; an event names its player by id and carries one extension, the
kind of event (a die roll: sides and the values of every die in order, ``value`` in replays
of clients before several dice; a chat line; a player joining with their name, leaving, or
conceding). An event of the game itself (a join) names no player: its ``player_id`` is -1, the
protocol's default, and the joining player is the join's own. The names of
the players come from ``Event_Join`` and ``Event_GameStateChanged``; spectators are not
players. Every message keeps where it stood: ``event_list[i].event_list[j]``.

A coin or die line's text is the one the English client shows for it, so that a judge reading
the log sees the same words as in the client's message log.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message, message_factory

from ..i18n import Msg
from .common import ImportFailed, Message, Source

_OPT, _REP = descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL, descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED
_T = descriptor_pb2.FieldDescriptorProto
# name, number, type, label, message type: only the fields kifu reads (the wire format lets a reader skip the rest)
_MESSAGES: dict[str, list[tuple[str, int, int, int, str | None]]] = {
    "User": [("name", 1, _T.TYPE_STRING, _OPT, None)],
    "Game": [
        ("description", 4, _T.TYPE_STRING, _OPT, None),
        ("player_count", 30, _T.TYPE_UINT32, _OPT, None),
        ("start_time", 51, _T.TYPE_UINT32, _OPT, None),
    ],
    "PlayerProperties": [
        ("player_id", 1, _T.TYPE_SINT32, _OPT, None),
        ("user_info", 2, _T.TYPE_MESSAGE, _OPT, "User"),
        ("spectator", 3, _T.TYPE_BOOL, _OPT, None),
        ("conceded", 4, _T.TYPE_BOOL, _OPT, None),
    ],
    "Player": [("properties", 1, _T.TYPE_MESSAGE, _OPT, "PlayerProperties")],
    "Event": [("player_id", 1, _T.TYPE_SINT32, _OPT, None)],
    "Container": [
        ("game_id", 1, _T.TYPE_UINT32, _OPT, None),
        ("event_list", 2, _T.TYPE_MESSAGE, _REP, "Event"),
        ("seconds_elapsed", 4, _T.TYPE_UINT32, _OPT, None),
    ],
    "Replay": [
        ("replay_id", 1, _T.TYPE_UINT64, _OPT, None),
        ("game_info", 2, _T.TYPE_MESSAGE, _OPT, "Game"),
        ("event_list", 3, _T.TYPE_MESSAGE, _REP, "Container"),
        ("duration_seconds", 4, _T.TYPE_UINT32, _OPT, None),
    ],
    "Join": [("player_properties", 1, _T.TYPE_MESSAGE, _OPT, "PlayerProperties")],
    "StateChanged": [("player_list", 1, _T.TYPE_MESSAGE, _REP, "Player")],
    "Leave": [],
    "PropertiesChanged": [("player_properties", 1, _T.TYPE_MESSAGE, _OPT, "PlayerProperties")],
    "Say": [("message", 1, _T.TYPE_STRING, _OPT, None)],
    "RollDie": [
        ("sides", 1, _T.TYPE_UINT32, _OPT, None),
        ("value", 2, _T.TYPE_UINT32, _OPT, None),
        ("values", 3, _T.TYPE_UINT32, _REP, None),
    ],
}
_EXTENSIONS = {
    "join": (1000, "Join"),
    "leave": (1001, "Leave"),
    "state": (1005, "StateChanged"),
    "properties": (1007, "PropertiesChanged"),
    "say": (1009, "Say"),
    "roll": (2008, "RollDie"),
}
"""The kinds of game event read (``GameEvent.GameEventType``): extension number and message."""
_PACKAGE = "kifu.cockatrice"


@cache
def _classes() -> dict[str, Any]:
    """The message classes, built once from descriptors declared in code (no generated module, no protoc)."""
    f = descriptor_pb2.FileDescriptorProto(name="kifu_cockatrice_replay.proto", package=_PACKAGE, syntax="proto2")
    for name, fields in _MESSAGES.items():
        m = f.message_type.add(name=name)
        for fname, number, ftype, label, ref in fields:
            fd = m.field.add(name=fname, number=number, type=ftype, label=label)
            if ref:
                fd.type_name = f".{_PACKAGE}.{ref}"
            if ftype == _T.TYPE_UINT32 and label == _REP:
                fd.options.packed = False  # proto2's default; a packed list is read either way
            if name == "Event" and fname == "player_id":
                fd.default_value = "-1"  # game_event.proto: an event of the game itself (a join) names no player
        if name == "Event":
            m.extension_range.add(start=100, end=536870912)
    for key, (number, ref) in _EXTENSIONS.items():
        f.extension.add(
            name=key,
            number=number,
            type=_T.TYPE_MESSAGE,
            label=_OPT,
            type_name=f".{_PACKAGE}.{ref}",
            extendee=f".{_PACKAGE}.Event",
        )
    pool = descriptor_pool.DescriptorPool()
    fd = pool.Add(f)
    out: dict[str, Any] = {name: message_factory.GetMessageClass(fd.message_types_by_name[name]) for name in _MESSAGES}
    out["ext"] = {key: fd.extensions_by_name[key] for key in _EXTENSIONS}
    return out


def parse(data: bytes) -> Any | None:
    """The replay message of ``data``; None when the bytes are no replay (not protobuf, or no events)."""
    replay = _classes()["Replay"]()
    try:
        replay.ParseFromString(data)
    except (message.DecodeError, RecursionError, ValueError):
        return None
    if not replay.event_list or not replay.HasField("game_info"):
        return None
    return replay


def looks_like(data: bytes) -> bool:
    """True for a Cockatrice replay: a protobuf ``GameReplay`` with game info and events.

    Its first byte is the tag of ``replay_id`` (field 1, varint: 0x08) or of ``game_info``
    (field 2, bytes: 0x12); only then is the whole file parsed."""
    return data[:1] in (b"\x08", b"\x12") and parse(data) is not None


def _names(replay: Any) -> dict[int, tuple[str, bool]]:
    """player id → (name, spectator), from every join and game state in the replay."""
    ext = _classes()["ext"]
    out: dict[int, tuple[str, bool]] = {}

    def note(props: Any) -> None:
        if props.HasField("player_id") and props.user_info.name:
            out.setdefault(props.player_id, (props.user_info.name, props.spectator))

    for container in replay.event_list:
        for event in container.event_list:
            if event.HasExtension(ext["join"]):
                note(event.Extensions[ext["join"]].player_properties)
            if event.HasExtension(ext["state"]):
                for player in event.Extensions[ext["state"]].player_list:
                    note(player.properties)
    return out


def _roll_text(name: str, sides: int, values: list[int]) -> str:
    """The English client's line for a roll (message_log_widget.cpp ``logRollDie``)."""
    if sides == 2 and len(values) == 1:
        side = "Heads (1)" if values[0] == 1 else "Tails (2)"
        return f"{name} flipped a coin. It landed as {side}."
    if sides == 2:
        return f"{name} flips {len(values)} coins. There are {values.count(1)} heads and {values.count(2)} tails."
    if len(values) == 1:
        return f"{name} rolls a {values[0]} with a {sides}-sided die."
    return f"{name} rolls a {sides}-sided dice {len(values)} times: {', '.join(map(str, values))}."


def read(data: bytes, file: str) -> Source:
    """Every die roll, coin flip and chat line of a replay, in order, with its players."""
    replay = parse(data)
    if replay is None:
        raise ImportFailed(Msg("import.replay_unreadable"), where=file)
    ext = _classes()["ext"]
    names = _names(replay)
    src = Source("cockatrice", file, title=replay.game_info.description or None)
    src.players = [(f"player{pid}", name) for pid, (name, spectator) in sorted(names.items()) if not spectator]
    start = replay.game_info.start_time or None
    for i, container in enumerate(replay.event_list):
        at = _at(start, container.seconds_elapsed) if start else None
        for j, event in enumerate(container.event_list):
            msg = _message(event, ext, names, f"event_list[{i}].event_list[{j}]", at)
            if msg is not None:
                src.messages.append(msg)
    src.notes.append(Msg("import.note_replay", replay=replay.replay_id, groups=len(replay.event_list)))
    if not src.messages:
        raise ImportFailed(Msg("import.cockatrice_empty"), where=file)
    return src


def _at(start: int, elapsed: int) -> str:
    return datetime.fromtimestamp(start + elapsed, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _message(
    event: Any, ext: dict[str, Any], names: dict[int, tuple[str, bool]], loc: str, at: str | None
) -> Message | None:
    """The message of one event: a roll, a chat line, a join; None for every other kind (cards, zones …)."""
    name = names.get(event.player_id, (f"player {event.player_id}", False))[0]
    if event.HasExtension(ext["roll"]):
        roll = event.Extensions[ext["roll"]]
        values = list(roll.values) or ([roll.value] if roll.value else [])
        if not roll.sides or not values:
            return Message(
                loc=loc,
                text=f"{name}: a die roll with no value",
                speaker=name,
                at=at,
                rolls=[],
                unreadable=Msg("import.replay_die_no_value"),
            )
        text = _roll_text(name, roll.sides, values)
        kind = "coin" if roll.sides == 2 else "die"
        random = {"type": "random", "kind": kind, "sides": roll.sides, "values": values, "result": text}
        return Message(loc=loc, text=text, speaker=name, at=at, randoms=[random])
    if event.HasExtension(ext["say"]):
        said = event.Extensions[ext["say"]].message
        return Message(loc=loc, text=f"{name}: {said}", speaker=name, at=at, said=said, rolls=[])
    if event.HasExtension(ext["join"]):
        joined = event.Extensions[ext["join"]].player_properties
        who = joined.user_info.name or names.get(joined.player_id, (f"player {joined.player_id}", False))[0]
        return Message(loc=loc, text=f"{who} has joined the game.", at=at, system=True, rolls=[])
    if event.HasExtension(ext["leave"]):
        return Message(loc=loc, text=f"{name} has left the game.", at=at, system=True, rolls=[])
    if event.HasExtension(ext["properties"]) and event.Extensions[ext["properties"]].player_properties.conceded:
        return Message(loc=loc, text=f"{name} has conceded the game.", at=at, system=True, rolls=[])
    return None
