"""ユドナリウム (Udonarium) chat saves: chat.xml, a chat-tab zip, a room zip; Udonarium_fly's too.

Source: ../shared/reference/online-logs.md §2 (TK11235/udonarium save-data.service.ts,
chat-message.ts, dice-bot.ts; synchro4351/UdonariumLogExtractor fixtures) and the
Udonarium_fly fork (NanasuNANA/UdonariumWithFly dice-bot.ts, chat-message.ts). A
``<chat-tab name>`` is a channel, a ``<chat>`` a message whose text is the message.
``@timestamp`` is epoch milliseconds. A dice result is a ``<chat>`` with ``@originFrom``
(the roller's peer id) and ``system`` in ``@tag`` (``secret`` added for a secret roll),
from ``System-BCDice`` (or, in Udonarium_fly, ``BCDice-API(…)`` and ``Dice-Roll Table``);
its ``@name`` is ``<system> : <speaker>``, the character the roller spoke as when rolling.
Udonarium_fly shows a result as ``🎲<command> → <step> → …`` with dice decorated
(``###6###``, ``~~~2~~~``) and repeats numbered after the line (`` #2``); the reader
turns that back into BCDice's ``(<command>) ＞ <step>`` before reading it. Udonarium_fly
writes ``lastUpdate="0"`` on every message: only a positive time means an edit.

XML is read incrementally (lxml ``iterparse``, each message dropped once read, so a
large room save does not sit in memory as a tree) with entity resolution, DTD loading
and network access off, and a document with a DOCTYPE is refused: Udonarium never
writes one, so a DTD can only be an entity-expansion or external-entity attack. Zips
are read in memory, never extracted; an entry naming a path outside the archive is
refused, and entries are size-capped while they are read (zip bombs).
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from typing import Any

from lxml import etree

from ..i18n import Msg
from . import bcdice
from .common import ImportFailed, Message, Source, as_utf8, epoch_ms, markup_stopped

MAX_ENTRY = 64 * 1024 * 1024
"""Largest uncompressed XML entry read from a zip."""
MAX_RATIO = 200
"""Largest compression ratio accepted for an entry (a zip bomb compresses far better)."""
MAX_ENTRIES = 20000
"""Most entries a zip may list."""
CHAT_ENTRIES = ("chat.xml", "fly_chat.xml", "data.xml")
"""Entries that may hold chat, in the order they are preferred."""
TABLE_SENDER = "Dice-Roll Table"
"""Udonarium_fly's sender of a result from a table the room defined (its ``@name`` starts with the table's name)."""

# What zipfile raises on a damaged or hostile archive (found by fuzzing: zlib, struct and
# "zip file version" errors besides BadZipFile); each becomes one clean ImportFailed.
_ZIP_ERRORS = (
    zipfile.BadZipFile,
    zlib.error,
    struct.error,
    OSError,
    EOFError,
    RuntimeError,
    NotImplementedError,
    ValueError,
    UnicodeDecodeError,
)

_PARSE_OPTIONS: dict[str, Any] = dict(
    resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, remove_comments=True, remove_pis=True
)
# Udonarium_fly's decorations of a die in a result: ###6### (a special die), ~~~2~~~ (a dropped one).
_DECORATION = re.compile(r"###([^#]*)###|~~~([^~]*)~~~")
_FLY_REPEAT = re.compile(r" #(\d+)$")
_FLY_STEP = " → "
_TAG_FLAGS = frozenset(
    {
        "system",
        "dicebot",
        "secret",
        "empty",
        "success",
        "failure",
        "critical",
        "fumble",
        "noface",
        "opelog",
        "direct",
        "mine",
    }
)
"""Words of ``@tag`` that flag a message (Udonarium and Udonarium_fly); any other word names the game system."""


def read(data: bytes, file: str) -> Source:
    """Read chat.xml or a zip holding one."""
    if data[:4] == b"PK\x03\x04":
        return read_zip(data, file)
    src = Source("udonarium", file)
    src.messages = parse_xml(data, file)
    return src


def parse_xml(data: bytes, where: str) -> list[Message]:
    data = as_utf8(data)
    if re.search(rb"<!(DOCTYPE|ENTITY)", data[:65536], re.I):
        raise ImportFailed(Msg("import.xml_declarations"), where=where)
    chat = _ChatReader(where)
    try:
        for event, el in etree.iterparse(io.BytesIO(data), events=("start", "end"), **_PARSE_OPTIONS):
            chat.feed(event, el)
    except etree.XMLSyntaxError as exc:
        last = exc.error_log.last_error
        if last is not None and last.type_name == "ERR_RESOURCE_LIMIT":
            raise markup_stopped(last, where) from None
        line = exc.lineno if hasattr(exc, "lineno") else None
        raise ImportFailed(Msg("import.xml_malformed", detail=exc.msg), where=where, line=line) from None
    return chronological(chat.finish())


class _ChatReader:
    """Turns iterparse events into messages, forgetting each element once it is read.

    Forks may wrap the tabs in another root: any ``<chat-tab>`` in the document is a
    channel, and each element directly inside one is a message.
    """

    def __init__(self, where: str) -> None:
        self.where = where
        self.root: str | None = None
        self.tabs = 0
        self.in_tab = 0
        """Messages read so far in the current tab (their index in ``loc``)."""
        self.messages: list[Message] = []
        self.names: dict[str, str] = {}
        """Display name of each peer id, from its own first message: results of old saves may not name it."""
        self.last: dict[tuple[int, str], Message] = {}
        """The latest message of each (tab, peer): the command a result of that peer answers."""

    def feed(self, event: str, el: Any) -> None:
        if event == "start":
            if self.root is None:
                self.root = el.tag
                if el.getroottree().docinfo.doctype:
                    raise ImportFailed(Msg("import.xml_doctype"), where=self.where)
            if el.tag == "chat-tab":
                self.tabs, self.in_tab = self.tabs + 1, 0
            return
        parent = el.getparent()
        if parent is not None and parent.tag == "chat-tab" and isinstance(el.tag, str):
            self.in_tab += 1
            self.messages.append(self.message(el, parent.get("name"), self.tabs, self.in_tab))
            _forget(el)
        elif el.tag == "chat-tab":
            _forget(el)

    def finish(self) -> list[Message]:
        if not self.tabs:
            raise ImportFailed(Msg("import.no_chat_tab", root=self.root), where=self.where)
        for m in self.messages:
            if m.speaker is None and m.speaker_key in self.names:
                m.speaker = self.names[m.speaker_key]  # a result before any message of its roller
        return self.messages

    def message(self, c: Any, tab: str | None, ti: int, ci: int) -> Message:
        loc = f"chat-tab[{ti}]/chat[{ci}] line {c.sourceline}"
        if c.tag != "chat":
            return Message(
                loc=loc,
                text=etree.tostring(c, encoding="unicode"),
                unreadable=Msg("import.udonarium_element", tag=c.tag),
            )
        tags = (c.get("tag") or "").split()
        sender = c.get("from") or ""
        result = (
            sender == "System-BCDice"
            or tags[:2] == ["system", "dicebot"]
            or (c.get("originFrom") is not None and "system" in tags)
        )
        msg = Message(
            loc=loc,
            text=c.text or "",
            speaker=c.get("name"),
            speaker_key=c.get("from"),
            channel=tab,
            at=epoch_ms(c.get("timestamp")) if c.get("timestamp") else None,
            secret="secret" in tags or bool(c.get("to")),
            # opelog: Udonarium_fly's operation log, a line the client writes for a peer ("… が起動した")
            system=(sender.startswith("System") and not result) or "opelog" in tags,
            edited=_edited(c.get("lastUpdate")),
        )
        if result:
            self.answer(msg, c, ti)
        else:
            if msg.speaker_key and msg.speaker and not msg.system:
                self.names.setdefault(msg.speaker_key, msg.speaker)
                self.last[(ti, msg.speaker_key)] = msg
            if "system" not in tags:
                msg.game_system = _tag_system(tags)
                msg.rolls = []  # a player's own message is the typed command; its result is the next element
        return msg

    def answer(self, msg: Message, c: Any, ti: int) -> None:
        """Fill in a result: who rolled (the name it was rolled under), what was typed, which system."""
        roller = c.get("originFrom")
        label, who = _name_parts(c.get("name") or "")
        asked = self.last.get((ti, roller or ""))
        # A peer that renamed itself (a GM voicing several characters) keeps one peer id:
        # the result's own name says who rolled; the peer's other names do not.
        msg.speaker_key = roller
        msg.speaker = who or (asked.speaker if asked else None)
        msg.command = asked.text if asked else None
        msg.game_system = label if label and c.get("from") != TABLE_SENDER else asked.game_system if asked else None
        msg.from_bot = True
        shown = fly_result(msg.text)
        if shown is not None:
            msg.rolls = bcdice.parse(shown, msg.game_system, bot=True, command=msg.command)[1]
            if not msg.rolls:
                msg.unreadable = Msg("import.fly_no_dice", text=repr(msg.text))


def _forget(el: Any) -> None:
    """Drop an element read to the end, and the siblings read before it, so the tree stays small."""
    el.clear(keep_tail=False)
    parent = el.getparent()
    if parent is not None:
        while el.getprevious() is not None:
            del parent[0]


def _edited(value: str | None) -> bool:
    """``@lastUpdate`` marks an edit only when it is a time: Udonarium_fly writes ``0`` on every message."""
    if value is None or not value.strip():
        return False
    try:
        return float(value) > 0
    except ValueError:
        return True  # a fork that stamps the edit some other way still stamped it


def _tag_system(tags: list[str]) -> str | None:
    """The game system a typed message was sent under: its first ``@tag`` word that is no flag."""
    return next((t for t in tags if t not in _TAG_FLAGS), None)


def fly_result(text: str) -> str | None:
    """A result in Udonarium_fly's display form, back in BCDice's form; None for any other text.

    Udonarium_fly splits each result line at BCDice's `` ＞ ``, joins the steps with
    `` → ``, shows the echoed command ``(2D6)`` as ``🎲2D6``, decorates dice
    (``###6###``, ``~~~2~~~``) and ends each repeat with `` #n``. Undoing that gives
    ``#2 (2D6) ＞ 9[3,6] ＞ 9``, the inline repeat form Udonarium itself writes.
    """
    if bcdice.SEP in text or not (text.startswith("🎲") or _FLY_STEP in text):
        return None
    out = []
    for line in text.split("\n"):
        repeat = _FLY_REPEAT.search(line)
        if repeat:
            line = line[: repeat.start()]
        steps = _DECORATION.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), line).split(_FLY_STEP)
        if steps[0].startswith("🎲"):
            steps[0] = f"({steps[0][1:]})"
        out.append((f"#{repeat.group(1)} " if repeat else "") + f" {bcdice.SEP} ".join(steps))
    return "\n".join(out)


def chronological(messages: list[Message]) -> list[Message]:
    """Tabs are saved one after another; merge them by timestamp (stable, so ties keep file order).

    Only when every message has a time: otherwise file order is all there is.
    """
    if len(messages) < 2 or any(m.at is None for m in messages):
        return messages
    return sorted(messages, key=lambda m: m.at or "")


def _name_parts(name: str) -> tuple[str | None, str | None]:
    """``Cthulhu7th : ソラ (Secret)`` → (``Cthulhu7th``, ``ソラ``); (None, None) without the separator."""
    label, sep, who = name.partition(" : ")
    who = who.removesuffix(" (Secret)").strip()
    return (label.strip() or None, who or None) if sep else (None, None)


def read_zip(data: bytes, file: str) -> Source:
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except _ZIP_ERRORS as exc:
        raise ImportFailed(Msg("import.zip_unreadable", detail=str(exc)), where=file) from None
    if len(infos) > MAX_ENTRIES:
        raise ImportFailed(Msg("import.zip_entries", count=len(infos), limit=MAX_ENTRIES), where=file)
    for info in infos:
        _check_name(info, file)
    src = Source("udonarium", file)
    chosen = _choose(infos, zf, file, src)
    if chosen is None:
        raise ImportFailed(Msg("import.zip_no_chat"), where=file)
    name, messages = chosen
    for m in messages:
        m.loc = f"{name}:{m.loc}"
    src.messages = messages
    skipped = [repr(_name(i)) if _odd(_name(i)) else _name(i) for i in infos if _name(i) != name]
    if skipped:
        src.notes.append(
            Msg("import.note_zip_skipped", entries=", ".join(skipped[:20]) + (" …" if len(skipped) > 20 else ""))
        )
    return src


def _name(info: zipfile.ZipInfo) -> str:
    """An entry's name; names stored without the UTF-8 flag are re-read as UTF-8 or CP932."""
    if info.flag_bits & 0x800:
        return info.filename
    raw = info.filename.encode("cp437", errors="replace")
    for enc in ("utf-8", "cp932"):
        try:
            return raw.decode(enc)
        except UnicodeDecodeError:
            continue
    return info.filename


def _odd(name: str) -> bool:
    """A name the report shows quoted: empty, or holding a control character."""
    return not name or any(c < " " for c in name)


def _check_name(info: zipfile.ZipInfo, file: str) -> None:
    name = info.filename.replace("\\", "/")
    parts = name.split("/")
    if name.startswith("/") or ".." in parts or (len(parts[0]) == 2 and parts[0][1] == ":"):
        raise ImportFailed(Msg("import.zip_traversal", name=repr(name)), where=file)


def _choose(
    infos: list[zipfile.ZipInfo], zf: zipfile.ZipFile, file: str, src: Source
) -> tuple[str, list[Message]] | None:
    # An entry named "" or "dir/" is no file (``ZipInfo.is_dir`` fails on the empty name).
    by_name = {base: i for i in infos if (base := _name(i).rsplit("/", 1)[-1])}
    for wanted in CHAT_ENTRIES:
        info = by_name.get(wanted)
        if info is None:
            continue
        xml = _read_entry(zf, info, file)
        if wanted == "data.xml" and b"<chat-tab" not in xml:
            continue  # a room's data.xml is the table, not the chat
        return _name(info), parse_xml(xml, f"{file}:{_name(info)}")
    return None


def _read_entry(zf: zipfile.ZipFile, info: zipfile.ZipInfo, file: str) -> bytes:
    """Read one entry, stopping at the size cap whatever its header claims."""
    where = f"{file}:{_name(info)}"
    if info.compress_size and info.file_size / max(info.compress_size, 1) > MAX_RATIO:
        raise ImportFailed(Msg("import.zip_bomb", ratio=info.file_size // max(info.compress_size, 1)), where=where)
    try:
        with zf.open(info) as fh:
            out = fh.read(MAX_ENTRY + 1)
    except _ZIP_ERRORS as exc:
        raise ImportFailed(Msg("import.zip_entry_unreadable", detail=str(exc)), where=where) from None
    if len(out) > MAX_ENTRY:
        raise ImportFailed(Msg("import.zip_entry_too_big", limit=MAX_ENTRY), where=where)
    return out
