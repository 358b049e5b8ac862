"""Canonical line encoding and the SHA-256 hash chain (DESIGN.md contract 2).

A line is the compact JSON of one event: ``type`` first, then the envelope
(``seq``, ``prev``, ``at``, ``by``, ``src``), then the event's fields in the order
its struct declares them; fields at their default are left out; object keys
inside free-form values (``rules``, ``catalogue``) are sorted; non-ASCII text is
written as UTF-8, not escaped. ``prev`` of line n is the lowercase hex SHA-256
of the exact bytes of line n-1 without its terminator.
"""

from __future__ import annotations

import builtins
import collections.abc
import enum
import functools
import hashlib
import re
import sys
import types
import typing
from typing import Any, NamedTuple, Union
from collections.abc import Callable, Iterable, Mapping

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


def _nested_keys(info: Any, seen: frozenset[Any] = frozenset()) -> frozenset[str] | None:
    """Every key an object nested in a value of msgspec type ``info`` can name; None when any key can appear.

    Structs nested in a field name their fields; a dict (free-form or typed) or ``Any`` can name any key.
    """
    mi = msgspec.inspect
    if isinstance(info, mi.Metadata):
        return _nested_keys(info.type, seen)
    if isinstance(info, (mi.AnyType, mi.DictType)):
        return None
    if isinstance(info, mi.StructType):
        if info.cls in seen:
            return frozenset()
        out = {f.encode_name for f in info.fields}
        for f in info.fields:
            inner = _nested_keys(f.type, seen | {info.cls})
            if inner is None:
                return None
            out |= inner
        return frozenset(out)
    parts = info.types if isinstance(info, mi.UnionType) else getattr(info, "item_types", None)
    if parts is None:
        item = getattr(info, "item_type", None)  # lists, sets, variadic tuples
        parts = () if item is None else (item,)
    out = set()
    for part in parts:
        inner = _nested_keys(part, seen)
        if inner is None:
            return None
        out |= inner
    return frozenset(out)


class Keys(NamedTuple):
    """The top-level fields of one event type a line may leave out, each as its ``"name":`` (``equivalent``)."""

    optional: tuple[bytes, ...] | None
    """Fields with a default: a line may leave them out or write them out. None when a nested
    object could name one of them too (then a ``"name":`` in a line does not say at which
    level it stands)."""
    written: tuple[bytes, ...]
    """Fields whose default the encoder writes (a default made by a function of our own): the
    canonical line holds them even when the line it came from left them out."""


_OMITTED_FACTORIES = (list, dict, set, bytearray)
"""Default factories whose (empty) value msgspec's ``omit_defaults`` leaves out; any other is written."""


def _written(field: Any) -> bool:
    """True when the encoder writes ``field`` even at its default (see ``_OMITTED_FACTORIES``)."""
    factory = field.default_factory
    return factory is not msgspec.NODEFAULT and factory not in _OMITTED_FACTORIES


def _keys_of(cls: type[Event]) -> Keys | None:
    """The optional and always-written fields of ``cls``; None when ``equivalent`` cannot rely on them.

    None when a struct below writes a default out (then a canonical line could hold a nested
    key the line it came from left out), or when the fields ``cls`` writes at their default
    could be nested keys too.
    """
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    nested: set[str] | None = set()
    for f in info.fields:
        if not _omits_defaults(f.type, frozenset({cls})) or not _plain(f.type, frozenset({cls})):
            return None
        inner = _nested_keys(f.type, frozenset({cls}))
        nested = None if inner is None or nested is None else nested | inner
    names = [f.encode_name for f in info.fields if not f.required]
    written = tuple(f'"{f.encode_name}":'.encode() for f in info.fields if not f.required and _written(f))
    if any('"' in name or "\\" in name for name in names) or any(b":" in _default_json(f) for f in info.fields):
        return None
    if nested is None or nested.intersection(names):
        return None if written else Keys(None, ())
    # The envelope's fields last: another writer more often writes a game's defaults out (``"group":1``).
    names.sort(key=lambda name: name in _ENVELOPE)
    return Keys(tuple(f'"{name}":'.encode() for name in names), written)


_ENVELOPE = frozenset(("at", "by", "src"))


_PLAIN = tuple(
    getattr(msgspec.inspect, name)
    for name in (
        "AnyType",
        "NoneType",
        "BoolType",
        "IntType",
        "FloatType",
        "StrType",
        "LiteralType",
        "EnumType",
        "ListType",
        "TupleType",
        "VarTupleType",
        "SetType",
        "FrozenSetType",
        "DictType",
        "UnionType",
    )
)
"""msgspec types whose strings the canonical line writes as the line that was decoded holds them
(a datetime or a UUID may be written back in another form, with other colons)."""


def _plain(info: Any, seen: frozenset[Any] = frozenset()) -> bool:
    """True when msgspec type ``info`` holds only structs and ``_PLAIN`` types."""
    mi = msgspec.inspect
    if isinstance(info, mi.Metadata):
        return _plain(info.type, seen)
    if isinstance(info, mi.StructType):
        return info.cls in seen or all(_plain(f.type, seen | {info.cls}) for f in info.fields)
    if not isinstance(info, _PLAIN):
        return False
    parts = info.types if isinstance(info, mi.UnionType) else getattr(info, "item_types", None)
    if parts is None:
        parts = tuple(getattr(info, a) for a in ("item_type", "key_type", "value_type") if hasattr(info, a))
    return all(_plain(t, seen) for t in parts)


def _default_json(field: Any) -> bytes:
    """A field's default as JSON (empty for a required field)."""
    if field.required:
        return b""
    if field.default_factory is not msgspec.NODEFAULT:
        return msgspec.json.encode(field.default_factory())
    return msgspec.json.encode(field.default)


def _omits_defaults(info: Any, seen: frozenset[Any] = frozenset()) -> bool:
    """True when every struct in msgspec type ``info`` leaves its fields at their defaults out."""
    mi = msgspec.inspect
    if isinstance(info, mi.Metadata):
        return _omits_defaults(info.type, seen)
    if isinstance(info, mi.StructType):
        if info.cls in seen:
            return True
        return (
            bool(info.cls.__struct_config__.omit_defaults)
            and not any(_written(f) for f in info.fields)
            and all(_omits_defaults(f.type, seen | {info.cls}) for f in info.fields)
        )
    parts = info.types if isinstance(info, mi.UnionType) else getattr(info, "item_types", None)
    if parts is None:
        parts = tuple(t for t in (getattr(info, "item_type", None), getattr(info, "value_type", None)) if t is not None)
    return all(_omits_defaults(t, seen) for t in parts)


def equivalent(line: bytes, canonical: bytes, keys: Keys | None, *, unescaped: bool = False) -> bool:
    """True when ``line``, which decoded to the event whose canonical line is ``canonical``, names no key twice.

    The fast proof for a line another writer wrote (its defaults written out, its keys in
    another order), without decoding it a second time: a few byte counts and searches in C.
    False means "not proven": the caller then counts the keys of a decode.

    Why it holds. Every key of the canonical line is in ``line`` (a field left out decodes to
    its default, which the canonical line leaves out too), but for the fields whose default
    the encoder writes (``keys.written``) that ``line`` does not name; each optional field
    that ``line`` names and the canonical line leaves out is one more distinct key of
    ``line`` (no nested object has such a field, so a ``"name":`` stands at the top). Every
    string of the canonical line is in ``line`` too, so ``line`` holds at least its colons
    inside strings (a default holds none; a colon written ``\\u003a`` is left to the caller).
    Outside strings a colon follows a key and nothing else. So ``line`` has at least that
    many colons, and exactly that many only when it names no key twice. A key written with
    a space before its colon, or a value a key twice given dropped, only makes ``line``'s
    count higher than the bound: not proven, never wrongly proven.

    ``unescaped``: the caller has already found no ``\\u003`` in ``line`` (one search over a whole
    block of lines instead of one a line).
    """
    if keys is None or (not unescaped and b"\\u003" in line):
        return False
    known = canonical.count(b":")
    for key in keys.written:
        if key not in line:
            known -= 1
    have = line.count(b":")
    if have > known and keys.optional:
        for key in keys.optional:
            if key in line and key not in canonical:
                known += 1
                if known == have:
                    return True
    return have == known


_SAFE_NAMES = frozenset(
    {"str", "int", "float", "bool", "bytes", "None", "list", "tuple", "set", "frozenset", "Literal", "ClassVar"}
    | {"Annotated", "Optional", "Union"}
)
"""Names in an annotation that nest nothing of their own."""
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_META = re.compile(r"(?:msgspec\.)?Meta\([^()]*\)")
_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9.]*")


def _may_nest(cls: type, seen: frozenset[type] = frozenset()) -> bool:
    """True unless every field of struct ``cls`` surely has a bounded depth (``Codec.free``).

    The annotations are read as written: a string (under ``from __future__ import annotations``) name by
    name, each looked up in the module that wrote it, else the type itself (the event structs' own). A
    struct is followed, an enum or a builtin scalar nests nothing, an alias is taken apart
    (``typing.get_args``); ``Any``, a dict, a struct met again (recursive) or a name not understood
    means it may nest.
    """
    if cls in seen:
        return True
    for klass in cls.__mro__:
        notes = klass.__dict__.get("__annotations__", {})
        scope = vars(sys.modules[klass.__module__]) if klass.__module__ in sys.modules else {}
        for note in notes.values():
            if _note_may_nest(note, scope, seen | {cls}):
                return True
    return False


def _note_may_nest(note: Any, scope: Mapping[str, Any], seen: frozenset[type]) -> bool:
    if isinstance(note, str):
        names = _NAME.findall(_META.sub("", _QUOTED.sub("", note)))
        return any(_value_may_nest(_resolve(name, scope), seen) for name in names if name not in _SAFE_NAMES)
    return _value_may_nest(note, seen)


_UNKNOWN = object()


def _resolve(name: str, scope: Mapping[str, Any]) -> Any:
    head, *rest = name.split(".")
    value = scope.get(head, getattr(builtins, head, _UNKNOWN))
    for part in rest:
        value = getattr(value, part, _UNKNOWN)
    return value


def _value_may_nest(value: Any, seen: frozenset[type]) -> bool:
    if value is _UNKNOWN or value is Any or value is dict:
        return True
    if value is None or value is type(None):  # the None of ``X | None`` written as a type, not a string
        return False
    if isinstance(value, type):
        if issubclass(value, msgspec.Struct):
            return _may_nest(value, seen)
        return not (issubclass(value, (enum.Enum, str, int, float, bytes)) or value in (list, tuple, set, frozenset))
    if isinstance(value, msgspec.Meta):
        return False
    origin = typing.get_origin(value)
    if origin is typing.Literal:
        return False
    if origin is None:
        return True
    if origin is typing.Annotated:
        return _value_may_nest(typing.get_args(value)[0], seen)
    if origin in (dict, collections.abc.Mapping):
        return True
    return (
        _value_may_nest(origin, seen)
        if isinstance(origin, type) and origin not in (list, tuple, set, frozenset, types.UnionType)
        else any(_value_may_nest(a, seen) for a in typing.get_args(value) if a is not Ellipsis)
    )


class _KeysOf(dict[type[Event], "Keys | None"]):
    """``_keys_of`` of each event type, worked out when first asked for."""

    def __missing__(self, cls: type[Event]) -> Keys | None:
        keys = self[cls] = _keys_of(cls)
        return keys


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
        self.free: frozenset[type[Event]] = frozenset(t for t in self.types if _may_nest(t))
        """Event types that may have a free-form field (``Any``: ``rules``, ``catalogue``): only
        their lines can nest deeper than their schema, so only theirs need their depth measured.
        Read from the fields' annotations as written (``_may_nest``), not from msgspec's
        resolved types: resolving every event type cost each command's cold start tens of ms."""

    @functools.cached_property
    def keys(self) -> dict[type[Event], Keys | None]:
        """Per event type, the ``"name":`` of the fields a line may leave out or the encoder writes (``equivalent``).

        Worked out for a type the first time a line of that type differs from its canonical form: a log
        kifu wrote never pays for it, and another writer's log only for the types it holds (msgspec's
        type information costs about half a millisecond a type: 15 to 25 ms for a game's every type,
        as much as verifying 10,000 lines).
        """
        return _KeysOf()

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
