"""What every importer produces: ``Message`` values, plus safe decoding of the input.

Source: ../shared/reference/online-logs.md §0 and DESIGN.md contract 6 (nothing is
lost). A format module turns its export into messages in source order; the
converter (``convert.py``) turns each message into events. Nothing here executes,
fetches or writes anything.
"""

from __future__ import annotations

import codecs
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, UTC
from typing import Any

import msgspec

from .. import limits, rfc3339
from ..base import KifuError
from ..i18n import Msg, text
from .bcdice import Roll

MAX_INPUT = 512 * 1024 * 1024
"""Largest source file read, in bytes (a 50 MB Player.log fits with room to spare)."""


class ImportFailed(KifuError):
    """The source cannot be read at all (wrong format, truncated JSON or XML, hostile zip)."""


MARKUP_DEPTH = 256
"""Deepest nesting of elements the HTML and XML readers take: libxml2's own limit, which kifu does not lift
(``huge_tree`` stays off), so past it the parser stops."""


def markup_stopped(error: Any, where: str) -> ImportFailed:
    """One line for a libxml2 error that stopped a parse (``error`` from the parser's error log): the rest
    of the file would be lost, so the file is refused, naming the line and, for nesting, the limit."""
    if getattr(error, "type_name", "") == "ERR_RESOURCE_LIMIT" and "depth" in str(error.message).lower():
        message = Msg("import.markup_too_deep", depth=MARKUP_DEPTH)
    else:
        message = Msg("import.markup_stopped", detail=str(error.message).strip())
    return ImportFailed(message, where=where, line=error.line or None)


@dataclass
class Message:
    """One message of a source, before it becomes events."""

    loc: str
    """Line number, element path or message id inside the file."""
    text: str
    """The original text, unchanged (entities decoded)."""
    speaker: str | None = None
    """Display name of who said or rolled it."""
    speaker_key: str | None = None
    """A stable id of the speaker when the source has one (Discord author id, Arena seat)."""
    channel: str | None = None
    """Chat tab or channel."""
    at: str | None = None
    """RFC 3339 time from the source."""
    secret: bool = False
    """The source marked it hidden from other players."""
    system: bool = False
    """A message the client or server wrote, not a person (``by`` = ``system``)."""
    result: str | None = None
    """A BCDice result the source keeps apart from the text (CCFOLIA JSON, new HTML)."""
    rolls: list[Roll] | None = None
    """Rolls the format read itself (Cockatrice, Arena); None lets BCDice parsing decide."""
    randoms: list[dict[str, Any]] | None = None
    """Random events the format built itself (coins, Arena die rolls)."""
    events: list[dict[str, Any]] | None = None
    """Shared events the format built itself (Arena match end)."""
    unreadable: str | Msg | None = None
    """Why part of this message could not be read; it is kept as a note and reported."""
    edited: bool = False
    """The source marks the message as edited."""
    hidden_roll: bool = False
    """A roll whose result the source does not show (an unopened secret roll)."""
    said: str | None = None
    """What the speaker typed, when ``text`` also holds the speaker's name (a Cockatrice chat line)."""
    game_system: str | None = None
    """The BCDice game system id the source names for this roll (Udonarium's ``<system> : <name>``,
    the tag of the typed message), for reading system-specific results; None when the source does not say."""
    command: str | None = None
    """What the roller typed, when the source keeps it apart from the result: the message a Udonarium
    result answers, the text beside a CCFOLIA JSON or new-HTML result."""
    from_bot: bool = False
    """The text is a dice bot's answer: whatever of it kifu cannot read is reported."""
    unread_result: str | None = None
    """Why a dice result this message certainly holds was not read (set by the converter; the note made
    of the message keeps it as ``unread``)."""
    typed: bool = False
    """Typed by a person at the table (``kifu record``): a BCDice result in it is read, but a line
    that merely looks like one (``1D6 初期距離``) is what the person said, not an answer to report."""


@dataclass
class Source:
    """A whole export after reading: its messages and what the format learned."""

    format: str
    """The format name (``ccfolia``, ``udonarium`` …)."""
    file: str
    """The file name given to the importer, without directory."""
    messages: list[Message] = field(default_factory=list)
    """Every message, in source order."""
    title: str | None = None
    """Room, channel or match name."""
    match: str | None = None
    """A match id the source itself names (Arena)."""
    players: list[tuple[str, str]] = field(default_factory=list)
    """(stable key, display name) of players the source itself names, in seat order."""
    keys: dict[str, str] = field(default_factory=dict)
    """Source key -> the person key it stands for, when the source key names a seat rather than a
    person (Arena: ``seat1`` -> ``arena:<user id>``); see ``importers.SPEAKER_KEYS``."""
    notes: list[str | Msg] = field(default_factory=list)
    """Remarks for the import report (encoding used, entries skipped, truncation)."""
    skipped: int = 0
    """Source lines that are not messages (Player.log noise), counted for the report."""


def decode_text(data: bytes, where: str, declared: str | None = None) -> tuple[str, str]:
    """Decode bytes as UTF-8 (BOM aware), else the declared charset, else CP932.

    Returns (text, encoding used). Binary data (NUL bytes or undecodable) fails.
    """
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    wide = utf16(data)
    if wide is not None:
        return wide, "utf-16"
    if b"\x00" in data[:65536]:
        raise ImportFailed(Msg("import.binary"), where=where, offset=data.index(b"\x00"))
    tried = ["utf-8"] + ([declared] if declared and declared.lower() not in ("utf-8", "utf8") else []) + ["cp932"]
    for enc in tried:
        try:
            return data.decode(_codec_name(enc)), enc
        except (UnicodeDecodeError, LookupError):
            continue
    raise ImportFailed(Msg("import.undecodable"), where=where)


def utf16(data: bytes) -> str | None:
    """The text of a file with a UTF-16 byte-order mark (Notepad's "Unicode" save), else None."""
    if not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return None
    try:
        return data.decode("utf-16")
    except UnicodeDecodeError:
        return None


def as_utf8(data: bytes) -> bytes:
    """UTF-16 input (with its BOM) re-encoded as UTF-8, its XML declaration dropped; other bytes as they are.

    Sniffing and the XML safety checks look at bytes: in UTF-16 every ASCII
    letter is followed by a NUL, so ``<!DOCTYPE`` would pass unseen.
    """
    wide = utf16(data)
    if wide is None:
        return data
    return re.sub(r"^\s*<\?xml[^>]*\?>", "", wide).encode("utf-8")


def _codec_name(enc: str) -> str:
    # Browsers save "Shift_JIS" pages with the Windows superset; decode it that way.
    return "cp932" if enc.lower().replace("-", "_") in ("shift_jis", "sjis", "x_sjis", "windows_31j") else enc


def declared_charset(head: bytes) -> str | None:
    """The charset a page or XML declaration names in its first bytes."""
    m = re.search(rb"""charset\s*=\s*["']?([A-Za-z0-9_\-]+)""", head[:4096], re.I) or re.search(
        rb"""<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9_\-]+)""", head[:4096], re.I
    )
    return m.group(1).decode("ascii") if m else None


def lines(text: str) -> list[str]:
    """The lines of a text as ``grep -n`` numbers them: split at LF only, a CR before it dropped.

    ``str.splitlines`` also breaks at a lone CR, form feed, U+2028 and others, so a
    line number built from it would point a reader of the file at the wrong line.
    """
    parts = text.split("\n")
    if parts and parts[-1] == "":
        parts.pop()  # the newline that ends the last line starts no line of its own
    return [p[:-1] if p.endswith("\r") else p for p in parts]


class _DuplicateKey(ValueError):
    """A JSON object names the same key twice."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise _DuplicateKey(key)
        obj[key] = value
    return obj


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def decode_json(text: str, where: str) -> Any:
    """Decode a JSON export, refusing a key that appears twice in one object or nesting too deep.

    Decoders keep the last of two equal keys, so a second ``"messages"`` list would
    silently replace the first: an export that says two things is refused instead.
    The depth (``limits.MAX_DEPTH``) is measured before the parser recurses.
    """
    if limits.too_deep(text):
        problem = limits.scan(text) or limits.Problem("depth", None)
        raise ImportFailed(
            problem.message(), where=where, line=limits.line_of(text, problem.offset), field=problem.field
        )
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except _DuplicateKey as exc:
        problem = limits.scan(text)
        located = {"line": limits.line_of(text, problem.offset), "field": problem.field} if problem else {}
        raise ImportFailed(Msg("import.json_duplicate_key", key=repr(exc.args[0])), where=where, **located) from None
    except json.JSONDecodeError as exc:
        raise ImportFailed(
            Msg("import.json_invalid_at", detail=exc.msg, line=exc.lineno, column=exc.colno), where=where
        ) from None
    except ValueError as exc:
        raise ImportFailed(Msg("import.json_invalid", detail=str(exc)), where=where) from None


def epoch_ms(value: Any) -> str | None:
    """RFC 3339 UTC with milliseconds from epoch seconds or milliseconds (< 1e12 means seconds)."""
    if isinstance(value, dict) and "seconds" in value:  # a Firestore timestamp object
        value = float(value.get("seconds") or 0) + float(value.get("nanoseconds") or 0) / 1e9
    if isinstance(value, bool):
        return None
    try:
        n = float(value)
    except (TypeError, ValueError):
        return None
    ms = round(n * 1000) if abs(n) < 1e12 else n
    try:
        t = datetime.fromtimestamp(ms / 1000, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{int(ms) % 1000:03d}Z"


def iso_time(value: Any) -> str | None:
    """The value if it is a strict RFC 3339 time (``kifu.events.rfc3339``); the same instant written strictly
    if the source wrote it another ISO 8601 way with its zone (``2026-11-29 14:00:00+09:00``, ``…+0900``);
    else None (no time: never one the log could not be read back with)."""
    if not isinstance(value, str):
        return None
    if rfc3339.parse(value) is not None:
        return value
    try:
        t = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    strict = t.isoformat() if t.tzinfo is not None else None
    return strict if strict is not None and rfc3339.parse(strict) is not None else None


class Located(msgspec.Struct, frozen=True, omit_defaults=True):
    """A place in the source and what happened there."""

    loc: str
    """Where in the source file."""
    what: str
    """The reason, the command or the remark, in English (as the JSON report and the log keep it)."""
    key: str = ""
    """The catalogue id ``what`` was written from, so that the report reads in the reader's language;
    empty where ``what`` is the source's own text (a command, a token)."""
    args: dict[str, Any] = {}
    """The values of the message's ``{name}`` fields; a value that is itself ``{"key", "args"}`` is a
    message of its own (the problem inside a result's reason)."""

    def render(self, lang: str) -> str:
        """``what`` in ``lang``: from the catalogue where the importer said it by id."""
        return _render(self.key, self.args, lang) if self.key else self.what


def _render(key: str, args: dict[str, Any], lang: str) -> str:
    filled = {
        k: _render(v["key"], v.get("args", {}), lang) if isinstance(v, dict) and "key" in v else v
        for k, v in args.items()
    }
    return text(key, lang, **filled)


def inner(message: Msg) -> dict[str, Any]:
    """A message as a value of another's field (rendered in the reader's language with it)."""
    return {"key": message.key, "args": dict(message.params)}


def entry(loc: str, what: str | Msg) -> Located:
    """A report entry: a catalogue message (kept in English in ``what``, by id for the reader), or text."""
    if isinstance(what, Msg):
        return Located(loc, _render(what.key, what.params, "en"), key=what.key, args=dict(what.params))
    return Located(loc, what)


class ImportReport(msgspec.Struct, kw_only=True):
    """What an import did: counts, and everything it could not read or map."""

    file: str
    """The source file name."""
    format: str
    """The format it was read as."""
    game: str = "generic"
    """The target game id."""
    match: str = ""
    """The match id written into match.start."""
    players: list[str] = []
    """``id=Name`` of each player in match.start."""
    messages: int = 0
    """Messages read from the source."""
    events: int = 0
    """Events written, match.start included."""
    game_events: int = 0
    """Events a mapping produced (game events, match.end, rulings)."""
    random: int = 0
    """``random`` events."""
    notes: int = 0
    """``note`` events."""
    secret: int = 0
    """Events marked secret."""
    hidden: int = 0
    """Rolls whose result the source does not show (secret rolls not yet opened)."""
    rng: int = 0
    """kifu toss tokens read into ``rng.commit``, ``rng.nonce`` and ``rng.reveal`` events."""
    rng_quotes: int = 0
    """Tokens that repeat one another speaker posted earlier (a reply citing it): no event of their own."""
    refused: list[Located] = []
    """Tokens a chat changed on the way (check digits or id do not hold), recorded as they read for the audit."""
    skipped_lines: int = 0
    """Source lines that are not messages (Arena log noise), counted, not copied."""
    unreadable: list[Located] = []
    """Messages or parts that could not be read; each is kept as a note."""
    unread_results: int = 0
    """Notes holding a dice result kifu could not read (each marked ``unread`` in the log, listed in
    ``unreadable`` with its reason): "results not read"."""
    maybe_results: int = 0
    """Chat lines that may hold a result kifu cannot read (a command-like word and a ``＞``): not marked."""
    secret_read: int = 0
    """Secret results read (``random`` events marked secret, shown or hidden)."""
    secret_unread: int = 0
    """Secret results not read (notes marked both ``secret`` and ``unread``)."""
    unordered: list[Located] = []
    """Rolls BCDice shows sorted (``5D10KH3``, a sorting system's ``3D6``): the faces are recorded
    as shown, right as a set, but the order they were rolled in is not known."""
    totals: list[Located] = []
    """Rolls BCDice shows only as the sum of several dice (a 2D6 table's ``シーン表(8)``): the sum is
    recorded as a ``random`` event of kind ``total``, never as faces."""
    unmapped: list[Located] = []
    """``!commands`` the mapping does not know; each is kept as a note."""
    failed: list[Located] = []
    """Mapped events that did not fill or validate; each is kept as a note."""
    edited: list[str] = []
    """Locations of messages the source marks as edited."""
    unattributed: dict[str, int] = {}
    """Speakers that are no player of the match, with their message counts."""
    remarks: list[Located] = []
    """What the reader noticed (encoding, zip entries skipped, truncation); ``loc`` is empty."""
    head: str = ""
    """Hash of the last line written."""
