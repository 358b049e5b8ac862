"""Canonical line encoding and the SHA-256 hash chain (DESIGN.md contract 2).

A line is the compact JSON of one event: ``type`` first, then the envelope
(``seq``, ``prev``, ``at``, ``by``, ``src``), then the event's fields in the order
its struct declares them; fields at their default are left out; object keys
inside free-form values (``rules``, ``catalogue``) are sorted; non-ASCII text is
written as UTF-8, not escaped. ``prev`` of line n is the lowercase hex SHA-256
of the exact bytes of line n-1 without its terminator.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Union
from collections.abc import Callable, Iterable

import msgspec
import msgspec.inspect

from . import limits
from .base import SHARED_EVENTS, Event, MalformedEvent, event_type
from .i18n import Msg

_ENCODER = msgspec.json.Encoder(order="deterministic")
_AT_PATH = re.compile(r"^(?P<msg>.*?)(?: - at `(?P<path>[^`]*)`)?$", re.S)


def line_hash(line: bytes) -> str:
    """The chain hash of one stored line (without its terminator)."""
    return hashlib.sha256(line).hexdigest()


def encode(event: Event) -> bytes:
    """The canonical bytes of an event, without a line terminator."""
    return _ENCODER.encode(event)


def _field_of(path: str | None) -> str | None:
    if not path:
        return None
    field = path.removeprefix("$").lstrip(".")
    return field or None


# msgspec's validation messages, read back into catalogue messages (kifu/locale) so that
# they can be shown in Japanese too. Anything else is shown as msgspec wrote it.
_MSGSPEC = (
    (re.compile(r"^Object contains unknown field `(?P<name>[^`]*)`$"), "decode.unknown_field"),
    (re.compile(r"^Object missing required field `(?P<name>[^`]*)`$"), "decode.missing_field"),
    (re.compile(r"^Expected `(?P<expected>[^`]*)`, got `(?P<got>[^`]*)`$"), "decode.expected"),
    (re.compile(r"^Expected `(?P<expected>[^`]*)` (?:of length )?(?P<op>[<>]=?) (?P<bound>\S+)$"), "decode.constraint"),
    (re.compile(r"^Invalid (?:enum )?value (?P<value>.*)$", re.S), "decode.invalid_value"),
)


def _message(text: str) -> Msg:
    for pattern, key in _MSGSPEC:
        m = pattern.match(text)
        if m:
            return Msg(key, **m.groupdict())
    return Msg("decode.other", detail=text)


def field_error(exc: Exception) -> tuple[Msg, str | None]:
    """A msgspec error as (message, field path): ``Expected `int`… - at `$.a[0]``` → (…, ``a[0]``).

    An unknown field is named in the path (``a[0].zz``), since that is the field to fix.
    """
    text = str(exc)
    m = _AT_PATH.match(text)
    msg, field = (m.group("msg"), _field_of(m.group("path"))) if m else (text, None)
    unknown = re.search(r"unknown field `([^`]*)`", msg)
    if unknown:
        field = f"{field}.{unknown.group(1)}" if field else unknown.group(1)
    return _message(msg), field


def malformed(exc: Exception, raw: bytes | None = None, **where: Any) -> MalformedEvent:
    """Turn a msgspec error into one clear MalformedEvent naming the field."""
    msg, field = field_error(exc)
    if msg.key == "decode.invalid_value" and field == "type" and raw is not None:
        msg = Msg("decode.unknown_type", type=repr(_peek(raw, "type")))
    if not isinstance(exc, msgspec.ValidationError):
        msg = Msg("log.not_json", detail=msg)
    # A caller that knows the seq (an append) names it; otherwise ask the line.
    seq = where.pop("seq", None)
    if seq is None and raw is not None:
        seq = _peek(raw, "seq")
    return MalformedEvent(msg, field=field, seq=seq if isinstance(seq, int) else None, **where)


def _peek(raw: bytes, key: str) -> Any:
    if limits.too_deep(raw):
        return None
    try:
        obj = msgspec.json.decode(raw)
    except msgspec.DecodeError:
        return None
    return obj.get(key) if isinstance(obj, dict) else None


def _unbounded(info: Any, seen: frozenset[Any] = frozenset()) -> bool:
    """True when a msgspec type admits values nested without bound (``Any``, or a recursive struct)."""
    mi = msgspec.inspect
    if isinstance(info, mi.AnyType):
        return True
    if isinstance(info, mi.Metadata):
        return _unbounded(info.type, seen)
    if isinstance(info, mi.StructType):
        return info.cls in seen or any(_unbounded(f.type, seen | {info.cls}) for f in info.fields)
    if isinstance(info, mi.DictType):
        return _unbounded(info.key_type, seen) or _unbounded(info.value_type, seen)
    if isinstance(info, mi.TupleType):
        return any(_unbounded(t, seen) for t in info.item_types)
    if isinstance(info, mi.UnionType):
        return any(_unbounded(t, seen) for t in info.types)
    item = getattr(info, "item_type", None)  # lists, sets, variadic tuples
    return item is not None and _unbounded(item, seen)


class Codec:
    """Encoder and decoder for one game's tagged union, built once and reused."""

    def __init__(
        self,
        game_events: Iterable[type[Event]] = (),
        check_start: Callable[[Event], None] | None = None,
    ) -> None:
        self.check_start = check_start
        """Checks a decoded match.start beyond its schema (a game's catalogue shape); raises KifuError."""
        self.types: tuple[type[Event], ...] = SHARED_EVENTS + tuple(game_events)
        self.by_type: dict[str, type[Event]] = {event_type(t): t for t in self.types}
        self.union: Any = Union[self.types]  # noqa: UP007 (a union built at run time)
        self._decoder = msgspec.json.Decoder(self.union)
        self.decode_raw: Callable[[bytes], Event] = self._decoder.decode
        """Decode one line, raising msgspec's own errors: for hot loops that
        turn a failure into a MalformedEvent themselves (see ``malformed``)."""
        self.free: frozenset[type[Event]] = frozenset(t for t in self.types if _unbounded(msgspec.inspect.type_info(t)))
        """Event types with a free-form field (``Any``: ``rules``, ``catalogue``): only their
        lines can nest deeper than their schema, so only theirs need their depth measured."""

    def decode(self, raw: bytes, **where: Any) -> Event:
        """Decode one line; raise MalformedEvent naming the field on any problem."""
        try:
            return self._decoder.decode(raw)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise malformed(exc, raw, **where) from None

    def convert(self, obj: dict[str, Any], **where: Any) -> Event:
        """Build an event from a plain mapping (an appended or imported event)."""
        # Nesting too deep for the limits is refused by ``line`` before anything is written: a
        # typed field refuses a list where it wants a value at once, a free-form one (match.start's
        # rules) takes the value as it is.
        try:
            return msgspec.convert(obj, self.union)
        except msgspec.ValidationError as exc:
            try:
                raw: bytes | None = msgspec.json.encode(obj)
            except RecursionError:
                raw = None
            raise malformed(exc, raw, **where) from None

    def line(self, event: Event, **where: Any) -> bytes:
        """The canonical line of an event about to be written, held to the limits every reader enforces."""
        try:
            line = encode(event)
        except RecursionError:
            raise MalformedEvent(limits.Problem("depth", None).message(), **where) from None
        if len(line) > limits.MAX_LINE:
            raise limits.too_long(**where)
        if type(event) in self.free and limits.too_deep(line):
            problem = limits.scan(line) or limits.Problem("depth", None)
            raise MalformedEvent(problem.message(), field=problem.field, **where)
        return line

    def schema(self) -> dict[str, Any]:
        """JSON Schema of one line of this game's log."""
        return msgspec.json.schema(self.union)
