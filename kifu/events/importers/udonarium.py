"""ユドナリウム (Udonarium) chat saves: chat.xml, a chat-tab zip, a room zip.

Source: ../shared/reference/online-logs.md §2 (TK11235/udonarium save-data.service.ts,
chat-message.ts, dice-bot.ts; synchro4351/UdonariumLogExtractor fixtures). A
``<chat-tab name>`` is a channel, a ``<chat>`` a message whose text is the message.
``@timestamp`` is epoch milliseconds. A dice result is a ``<chat>`` from
``System-BCDice`` with ``@tag`` ``system dicebot`` (``secret`` added for a secret roll),
``@name`` ``<system> : <speaker>`` and ``@originFrom`` the roller's peer id.

XML is parsed by lxml with entity resolution, DTD loading and network access off,
and a document with a DOCTYPE is refused: Udonarium never writes one, so a DTD can
only be an entity-expansion or external-entity attack. Zips are read in memory,
never extracted; an entry naming a path outside the archive is refused, and
entries are size-capped while they are read (zip bombs).
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from typing import Any

from lxml import etree

from .common import ImportFailed, Message, Source, as_utf8, epoch_ms

MAX_ENTRY = 64 * 1024 * 1024
"""Largest uncompressed XML entry read from a zip."""
MAX_RATIO = 200
"""Largest compression ratio accepted for an entry (a zip bomb compresses far better)."""
MAX_ENTRIES = 20000
"""Most entries a zip may list."""
CHAT_ENTRIES = ("chat.xml", "fly_chat.xml", "data.xml")
"""Entries that may hold chat, in the order they are preferred."""

# What zipfile raises on a damaged or hostile archive (found by fuzzing: zlib, struct and
# "zip file version" errors besides BadZipFile); each becomes one clean ImportFailed.
_ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, struct.error, OSError, EOFError, RuntimeError, NotImplementedError,
               ValueError, UnicodeDecodeError)

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                          remove_comments=True, remove_pis=True)


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
        raise ImportFailed("XML with a DOCTYPE or ENTITY declaration is refused (entity expansion, external "
                           "entities); Udonarium never writes one", where=where)
    try:
        root = etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as exc:
        line = exc.lineno if hasattr(exc, "lineno") else None
        raise ImportFailed(f"not well-formed XML ({exc.msg}); the file may be truncated", where=where, line=line) from None
    if root.getroottree().docinfo.doctype:
        raise ImportFailed("XML with a DOCTYPE is refused (entity expansion, external entities)", where=where)
    # Forks may wrap the tabs in another root; any <chat-tab> in the document is a channel.
    tabs = [root] if root.tag == "chat-tab" else list(root.iter("chat-tab"))
    if not tabs:
        raise ImportFailed(f"no <chat-tab> in this XML (root element <{root.tag}>)", where=where)
    names = _peer_names(tabs)
    messages = [_chat(c, tab, ti, ci, names) for ti, tab in enumerate(tabs, 1)
                for ci, c in enumerate((c for c in tab.iterchildren() if isinstance(c.tag, str)), 1)]
    return chronological(messages)


def chronological(messages: list[Message]) -> list[Message]:
    """Tabs are saved one after another; merge them by timestamp (stable, so ties keep file order).

    Only when every message has a time: otherwise file order is all there is.
    """
    if len(messages) < 2 or any(m.at is None for m in messages):
        return messages
    return sorted(messages, key=lambda m: m.at or "")


def _peer_names(tabs: list[Any]) -> dict[str, str]:
    """Display name of each peer id, from its own messages (results name it after ``:``)."""
    names: dict[str, str] = {}
    for tab in tabs:
        for c in tab.iterchildren("chat"):
            if c.get("from") and c.get("from") != "System-BCDice" and c.get("name"):
                names.setdefault(c.get("from"), c.get("name"))
    return names


def _chat(c: Any, tab: Any, ti: int, ci: int, names: dict[str, str]) -> Message:
    loc = f"chat-tab[{ti}]/chat[{ci}] line {c.sourceline}"
    text = c.text or ""
    tag = (c.get("tag") or "").split()
    if c.tag != "chat":
        return Message(loc=loc, text=etree.tostring(c, encoding="unicode"), unreadable=f"unexpected element <{c.tag}>")
    dicebot = c.get("from") == "System-BCDice" or tag[:2] == ["system", "dicebot"]
    speaker, key = c.get("name"), c.get("from")
    if dicebot:
        key = c.get("originFrom")
        speaker = names.get(key or "") or _after_colon(c.get("name") or "")
    msg = Message(
        loc=loc, text=text, speaker=speaker, speaker_key=key, channel=tab.get("name"),
        at=epoch_ms(c.get("timestamp")) if c.get("timestamp") else None,
        secret="secret" in tag or bool(c.get("to")),
        system=(c.get("from") or "").startswith("System") and not dicebot,
        edited=bool(c.get("lastUpdate")),  # forks that allow editing stamp the edit time here
        # The game system picks BCDice's grammar: a result names it ("Cthulhu7th : ソラ"), a player's line tags it.
        game_system=_system_of(c.get("name") or "") if dicebot else (tag[0] if tag else None),
        from_bot=dicebot,
    )
    if not dicebot and "system" not in tag:
        msg.rolls = []  # a player's own message is the typed command; its result is the next element
    return msg


def _system_of(name: str) -> str | None:
    """``Cthulhu7th : ソラ (Secret)`` → ``Cthulhu7th``."""
    system, sep, _ = name.partition(" : ")
    return (system.strip() or None) if sep else None


def _after_colon(name: str) -> str | None:
    """``Cthulhu7th : ソラ (Secret)`` → ``ソラ``."""
    _, sep, who = name.partition(" : ")
    who = who.removesuffix(" (Secret)").strip()
    return who if sep and who else None


def read_zip(data: bytes, file: str) -> Source:
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except _ZIP_ERRORS as exc:
        raise ImportFailed(f"not a readable zip ({exc}); the file may be truncated", where=file) from None
    if len(infos) > MAX_ENTRIES:
        raise ImportFailed(f"zip lists {len(infos)} entries (limit {MAX_ENTRIES})", where=file)
    for info in infos:
        _check_name(info, file)
    src = Source("udonarium", file)
    chosen = _choose(infos, zf, file, src)
    if chosen is None:
        raise ImportFailed("zip holds no Udonarium chat (chat.xml, or data.xml with <chat-tab>)", where=file)
    name, messages = chosen
    for m in messages:
        m.loc = f"{name}:{m.loc}"
    src.messages = messages
    skipped = [_name(i) for i in infos if _name(i) != name]
    if skipped:
        src.notes.append(f"zip entries not read: {', '.join(skipped[:20])}" + (" …" if len(skipped) > 20 else ""))
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


def _check_name(info: zipfile.ZipInfo, file: str) -> None:
    name = info.filename.replace("\\", "/")
    parts = name.split("/")
    if name.startswith("/") or ".." in parts or (len(parts[0]) == 2 and parts[0][1] == ":"):
        raise ImportFailed(f"zip entry {name!r} points outside the archive; refused", where=file)


def _choose(infos: list[zipfile.ZipInfo], zf: zipfile.ZipFile, file: str, src: Source) -> tuple[str, list[Message]] | None:
    by_name = {_name(i).rsplit("/", 1)[-1]: i for i in infos if not i.is_dir()}
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
        raise ImportFailed(f"entry expands {info.file_size // max(info.compress_size, 1)}x: refused as a zip bomb", where=where)
    try:
        with zf.open(info) as fh:
            out = fh.read(MAX_ENTRY + 1)
    except _ZIP_ERRORS as exc:
        raise ImportFailed(f"cannot read zip entry ({exc})", where=where) from None
    if len(out) > MAX_ENTRY:
        raise ImportFailed(f"entry is larger than {MAX_ENTRY} bytes: refused", where=where)
    return out
