"""Importers for online play: CCFOLIA, Udonarium, Discord BCDice bots, Cockatrice, MTG Arena.

Source: issue 8 and ../shared/reference/online-logs.md. ``read_source`` detects the
format and reads the export into messages; ``build`` turns them into events
(``convert.py``) with the players and the mapping file; ``write`` stores them as a
new kifu/1 log. The same bytes always give the same log: no clock, ``at`` only
from the source, the match id derived from the source's hash when none is given.
Nothing is executed, fetched or written anywhere but the new log.
"""

from __future__ import annotations

import hashlib
import importlib
import itertools
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterable, Iterator, Sequence


from .. import table
from ..base import KifuError
from ..codec import Codec
from ..i18n import Msg
from ..logfile import write_new
from .common import (
    MAX_INPUT,
    ImportFailed,
    ImportReport,
    Located,
    Message,
    Source,
    as_utf8,
    entry,
)
from .convert import Converter
from .mapping import EMPTY, MapFile, MappingError, PlayerBook
from .mapping import load as load_mapping

__all__ = [
    "FORMATS",
    "SPEAKER_KEYS",
    "ImportFailed",
    "ImportReport",
    "Imported",
    "Located",
    "MappingError",
    "Message",
    "Source",
    "build",
    "detect",
    "game_map",
    "import_file",
    "load_mapping",
    "map_source",
    "plan",
    "read_source",
    "write",
]

Reader = Callable[[bytes, str], Source]


def _reader(name: str) -> Reader:
    """A format's ``read``, its module imported on first use: the readers pull in lxml, which
    ``kifu record`` (the notation, the converter) never needs."""

    def read(data: bytes, where: str) -> Source:
        module: Any = importlib.import_module(f"{__name__}.{name}")
        return module.read(data, where)

    read.__qualname__ = read.__name__ = f"{name}.read"
    return read


FORMATS: dict[str, Reader] = {
    name: _reader(name) for name in ("ccfolia", "udonarium", "discord", "cockatrice", "arena")
}
"""Format name → reader, as ``--from`` names them."""


def map_source(game_id: str) -> tuple[str, str] | None:
    """A game's own mapping file as (text, name), if it ships one (``kifu/games/<id>/mapping.toml``)."""
    text = table.data(game_id, "mapping.toml")
    return None if text is None else (text, f"kifu/games/{game_id}/mapping.toml")


@table.cached
def game_map(game_id: str) -> MapFile:
    """A game's own mapping, loaded and checked once; EMPTY for a game that ships none."""
    found = map_source(game_id)
    return EMPTY if found is None else load_mapping(found[0], found[1], table.codec(game_id))


def detect(data: bytes, file: str) -> str:
    """The format of an export from its first bytes (``--from auto``)."""
    head = as_utf8(data)[:65536].lstrip(b"\xef\xbb\xbf \t\r\n")
    low = head.lower()
    if head[:4] == b"PK\x03\x04":
        return "udonarium"
    if head[:1] in (b"\x08", b"\x12"):  # a protobuf field tag: a Cockatrice replay (.cor)?
        from . import cockatrice_replay

        if cockatrice_replay.looks_like(data):
            return "cockatrice"
    if b"unitycrossthreadlogger" in low or b"gretoclientevent" in low:
        return "arena"
    if head[:1] == b"{":
        return "discord" if b'"author"' in head or b'"guild"' in head else "ccfolia"
    if b"<chat-tab" in low or (low.startswith(b"<?xml") and b"<chat" in low):
        return "udonarium"
    if (
        b"ccfolia" in low
        or b"<p style" in low
        or b'class="message' in low
        or low.startswith((b"<!doctype html", b"<html"))
    ):
        return "ccfolia"
    if b"guild:" in low and b"channel:" in low:
        return "discord"  # DiscordChatExporter's TXT banner
    # Before the bot-post heuristic: a Japanese player's chat line in a Cockatrice log may hold ＞ and (.
    from . import cockatrice

    if cockatrice.looks_like(_head_text(head)):
        return "cockatrice"
    if "＞".encode() in head and b"(" in head:
        return "discord"
    if re.match(rb"\[(?=[^\]\n]*[0-9])[^\]\n]{4,40}\] \S", head):  # a time, not a channel: [main] is CCFOLIA's
        return "discord"  # DiscordChatExporter TXT without its banner: "[time] Author" headers
    what = binary_kind(data)
    if what is not None:
        raise ImportFailed(Msg("import.not_an_export", what=what), where=file)
    raise ImportFailed(Msg("import.unknown_format_of_file"), where=file)


_MAGIC = (
    (b"\x89PNG", Msg("import.kind.image")),
    (b"\xff\xd8\xff", Msg("import.kind.image")),
    (b"GIF8", Msg("import.kind.image")),
    (b"%PDF", Msg("import.kind.pdf")),
    (b"\x1f\x8b", Msg("import.kind.gzip")),
    (b"SQLite format 3\x00", Msg("import.kind.sqlite")),
)


def binary_kind(data: bytes) -> Msg | None:
    """What a file kifu cannot import is (a message key), where its first bytes tell (a picture, a PDF, a damaged
    Cockatrice replay …), so the message can say what to export instead; None when unknown."""
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            return kind
    if data[:1] in (b"\x08", b"\x12") and b"\x00" in data[:4096]:
        return Msg(
            "import.kind.replay"
        )  # a protobuf message that is no whole GameReplay: a replay cut short or of another program
    return None


def _head_text(head: bytes) -> str:
    """The first bytes as text for sniffing: UTF-8 (a character cut at the end dropped), else CP932."""
    try:
        return head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start >= len(head) - 3:
            return head[: exc.start].decode("utf-8", "replace")
        return head.decode("cp932", "replace")


_SIGNATURES = (
    ("ccfolia", (b"<title>ccfolia - logs</title>", b'"createdAt"')),
    ("udonarium", (b"<chat-tab", b"System-BCDice")),
    ("discord", (b'"timestampEdited"', b'"isBot"')),
    ("arena", (b"[UnityCrossThreadLogger]", b'"greToClientEvent"', b'"matchGameRoomStateChangedEvent"')),
)


def signature(data: bytes) -> str | None:
    """The format whose own markers the file carries (for checking an explicit ``--from``), if any."""
    head = as_utf8(data)[:65536]
    if head[:4] == b"PK\x03\x04":
        return "udonarium"
    found = [name for name, marks in _SIGNATURES if any(m in head for m in marks)]
    return found[0] if len(found) == 1 else None


def read_source(path: str | os.PathLike[str], fmt: str = "auto") -> tuple[Source, bytes]:
    """Read an export (refusing oversized or unreadable files) into messages."""
    where = Path(path).name
    try:
        size = os.path.getsize(path)
        if size > MAX_INPUT:
            raise ImportFailed(Msg("import.too_big", size=size, limit=MAX_INPUT), where=where)
        data = Path(path).read_bytes()
    except OSError as exc:
        raise KifuError(Msg("io.cannot_read", reason=exc.strerror), where=str(path)) from None
    if not data.strip():
        raise ImportFailed(Msg("import.empty_file"), where=where)
    name = detect(data, where) if fmt == "auto" else fmt
    if name not in FORMATS:
        raise ImportFailed(Msg("import.unknown_format", format=repr(fmt), known=", ".join(FORMATS)), where=where)
    sure = signature(data)
    if sure is not None and sure != name:
        # The text readers keep any line as a note, so a wrong --from would "import" the file as chatter.
        raise ImportFailed(Msg("import.other_format", found=sure, given=name), where=where)
    try:
        return FORMATS[name](data, where), data
    except RecursionError:
        raise ImportFailed(Msg("import.too_deep"), where=where) from None


def game_system(name: str) -> str:
    """The BCDice game system id ``name`` names (``--system``), spelled as BCDice spells it."""
    from . import bcdice

    known = bcdice.game_system(name)
    if known is None:
        raise KifuError(
            Msg("import.unknown_system", system=repr(name), close=", ".join(bcdice.close_systems(name)) or "-"),
            where="--system",
        )
    return known


@dataclass
class Imported:
    """An import ready to write: match.start, the events after it, and the report."""

    start: dict[str, Any]
    events: Iterable[dict[str, Any]]
    """A list from ``build``; from ``plan``, made one by one as they are written (iterate once)."""
    report: ImportReport


SPEAKER_KEYS = {"discord": "discord", "udonarium": "udonarium"}
"""Formats whose speaker key names one person in every export, with the namespace of the
person key it becomes: a Discord user id, a Udonarium peer id. Arena's speaker key is a
seat (``seat1``): its person key comes from ``Source.keys`` (the account's user id)."""


def players_of(src: Source, given: Sequence[tuple[str, str]]) -> tuple[PlayerBook, list[dict[str, str]]]:
    """The match's players: ``--player id=Name`` pairs, else the source's seats, else its speakers.

    A given Name matches a speaker's display name or the source's stable key
    (``seat1`` in Arena, a Discord author id, a Udonarium peer id). A player gets a
    ``key`` (a person across matches, docs/format.md) when the source names exactly one.
    """
    book = PlayerBook()
    seats = dict(src.players)
    if given:
        pairs = [(pid, name) for pid, name in given]
    elif src.players:
        pairs = [(f"p{i}", name) for i, (_, name) in enumerate(src.players, 1)]
    else:
        pairs = [(f"p{i}", name) for i, name in enumerate(_speakers(src.messages), 1)]
    spoken = _speaker_keys(src)
    out = []
    for pid, name in pairs:
        keys = [k for k, n in seats.items() if n == name or k == name]
        book.add(pid, name, *keys)
        people = {_person_key(src, k) for k in keys} | spoken.get(name, set())
        people.discard(None)
        player = {"id": pid, "name": seats.get(name, name)}
        if len(people) == 1:
            player["key"] = people.pop()  # type: ignore[assignment]
        out.append(player)
    return book, out


def _person_key(src: Source, source_key: str | None) -> str | None:
    """The person key (``namespace:id``) a source key stands for, if the source's keys name people."""
    if not source_key:
        return None
    if source_key in src.keys:
        return src.keys[source_key]
    space = SPEAKER_KEYS.get(src.format)
    return f"{space}:{source_key}" if space else None


def _speaker_keys(src: Source) -> dict[str, set[str | None]]:
    """Display name or speaker key -> the person keys of the people who spoke under it."""
    out: dict[str, set[str | None]] = {}
    for m in src.messages:
        key = None if m.system else _person_key(src, m.speaker_key)
        if key is None:
            continue
        for word in (m.speaker, m.speaker_key):
            if word:
                out.setdefault(word, set()).add(key)
    return out


def _speakers(messages: list[Message]) -> list[str]:
    seen: dict[str, None] = {}
    for m in messages:
        who = m.speaker or m.speaker_key
        if who and not m.system:
            seen.setdefault(who, None)
    return list(seen)


def plan(
    src: Source,
    data: bytes,
    codec: Codec,
    game: str = "generic",
    maps: MapFile = EMPTY,
    match: str | None = None,
    players: Sequence[tuple[str, str]] = (),
    rules: dict[str, Any] | None = None,
    system: str | None = None,
) -> Imported:
    """match.start and the events of a read source, the events made only as they are iterated.

    ``match.start`` takes the time of the first event that has one: the events
    before it (usually none) are held until it is found. The report's counts
    are complete once the events have been iterated. ``system`` is the BCDice game
    system id (``Cthulhu7th``) of messages whose source records none (CCFOLIA):
    their system's tables and forms are then read as that system's.
    """
    if system:
        known = game_system(system)
        for m in src.messages:
            if m.game_system is None:
                m.game_system = known
    book, plist = players_of(src, players)
    match_id = match or src.match or f"{src.format}-{hashlib.sha256(data).hexdigest()[:16]}"
    report = ImportReport(
        file=src.file,
        format=src.format,
        game=game,
        match=match_id,
        players=[f"{p['id']}={p['name']}" for p in plist],
        remarks=[entry("", n) for n in src.notes],
        skipped_lines=src.skipped,
    )
    place = table.placer(game, [p["id"] for p in plist], rules, None)
    made = iter(Converter(src, maps, codec, book, report, place).events())
    held: list[dict[str, Any]] = []
    first_at = None
    for e in made:
        held.append(e)
        if e.get("at"):
            first_at = e["at"]
            break
    start: dict[str, Any] = {
        "game": game,
        "match": match_id,
        "players": plist,
        "title": f"{src.title or src.file} ({src.format} import)",
    }
    if rules:
        start["rules"] = dict(rules)
    if first_at:
        start["at"] = first_at
    return Imported(start, _counted(itertools.chain(held, made), report), report)


def _counted(events: Iterator[dict[str, Any]], report: ImportReport) -> Iterator[dict[str, Any]]:
    report.events = 1
    for e in events:
        report.events += 1
        yield e


def build(*args: Any, **kwargs: Any) -> Imported:
    """``plan`` (same arguments) with every event made at once, as a list; nothing is written."""
    imported = plan(*args, **kwargs)
    imported.events = list(imported.events)
    return imported


def write(out: str | os.PathLike[str], imported: Imported) -> ImportReport:
    """Create the log at ``out``, never overwriting, whole or not at all (``logfile.write_new``)."""
    imported.report.head = write_new(out, imported.start, imported.events).hash
    return imported.report


def import_file(
    path: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    fmt: str = "auto",
    game: str = "generic",
    map_text: str | None = None,
    map_name: str = "mapping",
    match: str | None = None,
    players: Sequence[tuple[str, str]] = (),
    rules: dict[str, Any] | None = None,
    progress: Callable[[str, list[Any] | None], Any] | None = None,
    system: str | None = None,
) -> ImportReport:
    """Read ``path``, map it for ``game`` and write a new log at ``out``; ``rules`` go into match.start;
    ``system`` is the BCDice game system of rolls whose source names none (see ``plan``).

    ``progress(stage, items)`` is told each stage (``read``, with no items; ``convert``, with
    the messages, each converted and written in turn) and returns the list to go on with,
    so a caller can hand back one that reports how far iterating it has come.
    """
    if os.path.lexists(out):
        raise KifuError(Msg("log.exists"), where=str(out))
    stage = progress or (lambda _name, items: items)
    codec = table.require(game, field="game")
    system = game_system(system) if system else None
    maps = load_mapping(map_text, map_name, codec) if map_text is not None else EMPTY
    if maps.game and maps.game != game:
        raise MappingError(Msg("import.map_other_game", map_game=repr(maps.game), game=repr(game)), where=map_name)
    stage("read", None)
    src, data = read_source(path, fmt)
    # Messages are converted and written one by one: the bar counts them once, for both.
    src.messages = stage("convert", src.messages)
    return write(out, plan(src, data, codec, game, maps, match, players, rules, system))
