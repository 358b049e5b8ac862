"""The depth and size policy for every JSON text kifu reads (docs/format.md, "Limits").

Logs, ``append --json``, catalogue files, CCFOLIA and Discord exports and the
mapping files' TOML are all held to the same three rules, checked *before* a
parser recurses or a reader keeps a line whole:

* nesting: at most ``MAX_DEPTH`` levels of arrays and objects (the line's own
  object is level 1). A JSON parser recurses once per level: 1,000 nested ``[``
  in a 2 KB note were enough to raise Python's RecursionError.
* one key once: an object that names a key twice is refused. Decoders disagree
  on which value counts (msgspec and Python keep the last, DuckDB's JSON the
  first), so such a line would read as two different events.
* size: a line of a log is at most ``MAX_LINE`` bytes (the streaming reader
  never holds more of one line); a mapping file at most ``MAX_MAPPING``.

The checks are byte-level and linear: strings are cut out with one possessive
pattern (no backtracking), the brackets left are counted in C, and only a text
that could be too deep is measured exactly. ``scan`` walks a text token by
token to name the field at fault; it is for the few texts that need it.
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import Any, NamedTuple

import msgspec

from .base import KifuError, MalformedEvent
from .i18n import Msg

MAX_DEPTH = 64
"""Deepest nesting of arrays and objects in any JSON text kifu reads (the outer value is level 1)."""
MAX_LINE = 4 << 20
"""Longest line of a log, in bytes (4 MiB: a chat message of a megabyte, or a large table catalogue, fits)."""
MAX_MAPPING = 1 << 20
"""Largest mapping file (TOML), in bytes."""

# A JSON string, or what is left of one cut off at the end: possessive, so a text with an
# unclosed quote is matched once, to its end, and never re-scanned from each later quote.
_STRING_B = re.compile(rb'"(?:[^"\\]++|\\.)*+"?', re.S)
_BRACKETS = b"[]{}"
_NOT_BRACKETS = bytes(b for b in range(256) if b not in _BRACKETS)
_STEP = [0] * 256
_STEP[ord("[")] = _STEP[ord("{")] = 1
_STEP[ord("]")] = _STEP[ord("}")] = -1


def _bytes(text: bytes | str) -> bytes:
    return text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")


def _brackets(text: bytes | str) -> bytes:
    """The brackets of a JSON text outside its strings, in order."""
    data = _bytes(text)
    if b'"' in data:
        data = _STRING_B.sub(b"", data)
    return data.translate(None, _NOT_BRACKETS)


def depth(text: bytes | str) -> int:
    """The nesting depth of a JSON text: brackets inside strings do not count.

    Brackets that do not pair up (a text that is not JSON) are counted as they
    come: a parser stops at the first of them, so the depth it could reach before
    that is never under-counted.
    """
    return max(accumulate(map(_STEP.__getitem__, _brackets(text))), default=0)


def too_deep(text: bytes | str) -> bool:
    """True when a JSON text nests more than ``MAX_DEPTH`` levels."""
    data = _bytes(text)
    # Never more levels than openers: the common case costs two counts, strings included.
    if data.count(b"[") + data.count(b"{") <= MAX_DEPTH:
        return False
    brackets = _brackets(data)
    if brackets.count(b"[") + brackets.count(b"{") <= MAX_DEPTH:
        return False
    return max(accumulate(map(_STEP.__getitem__, brackets))) > MAX_DEPTH


class Problem(NamedTuple):
    """What ``scan`` found wrong with a JSON text, and where."""

    kind: str
    """``depth`` or ``duplicate``."""
    field: str | None
    """The path of the field at fault (``rules.a``, ``values``, ``src.text``); None for the outer value."""
    key: str | None = None
    """The key named twice (``duplicate``)."""
    offset: int = 0
    """Byte offset of the bracket one level too deep, or of the second key, in the UTF-8 text."""

    def message(self) -> Msg:
        """The error message, rendered in the reader's language."""
        if self.kind == "depth":
            return Msg("limits.too_deep", depth=MAX_DEPTH)
        return Msg("limits.duplicate_key", key=repr(self.key))


_TOKEN_B = re.compile(rb'"(?:[^"\\]++|\\.)*+"?|[\[\]{}:,]', re.S)


def _key(token: bytes) -> str:
    if b"\\" in token:
        import json  # only a duplicate key written with escapes comes here; every command imports this module

        try:
            return str(json.loads(token))
        except ValueError:
            pass
    return token[1:-1].decode("utf-8", "replace")


class _Frame:
    __slots__ = ("obj", "keys", "key", "index", "expect_key")

    def __init__(self, obj: bool) -> None:
        self.obj = obj
        self.keys: set[str] = set()
        self.key: str | None = None
        self.index = 0
        self.expect_key = obj


def _path(stack: list[_Frame], top_only: bool = False) -> str | None:
    parts: list[str] = []
    for fr in stack:
        if fr.obj:
            if fr.key is None:
                break
            parts.append(fr.key if not parts else f".{fr.key}")
        else:
            parts.append(f"[{fr.index}]")
        if top_only:
            break
    return "".join(parts) or None


def scan(text: bytes | str, max_depth: int = MAX_DEPTH) -> Problem | None:
    """The first key named twice in one object, or the first value nested too deep, with its path.

    A walk over the text's tokens in Python: for texts that need it (a line that is
    not in kifu's canonical form, an error to locate), not for every line of a log.
    """
    stack: list[_Frame] = []
    for m in _TOKEN_B.finditer(_bytes(text)):
        tok = m.group()
        c = tok[0]
        if c == 0x22:  # a string: a key when an object expects one
            if stack and stack[-1].expect_key:
                fr = stack[-1]
                key = _key(tok)
                if key in fr.keys:
                    fr.key = key
                    return Problem("duplicate", _path(stack), key, m.start())
                fr.keys.add(key)
                fr.key, fr.expect_key = key, False
        elif c == 0x5B or c == 0x7B:  # [ {
            if len(stack) >= max_depth:
                return Problem("depth", _path(stack, top_only=True), None, m.start())
            stack.append(_Frame(c == 0x7B))
        elif c == 0x5D or c == 0x7D:  # ] }
            if stack:
                stack.pop()
        elif c == 0x2C and stack:  # ,
            fr = stack[-1]
            if fr.obj:
                fr.expect_key = True
            else:
                fr.index += 1
    return None


def keys_unique(text: bytes) -> bool:
    """True when no object of a JSON text (one that parses, and is not too deep) names a key twice.

    Outside strings, a colon separates a key from its value and nothing else, so a
    text names as many keys as it has colons there; decoding keeps one of two equal
    keys, so the decoded objects hold fewer. Two C-level passes and a count: a
    fraction of ``scan``'s token walk, which is kept for naming the key at fault.
    """
    return _STRING_B.sub(b"", text).count(b":") == _keys(msgspec.json.decode(text))


def _keys(value: Any) -> int:
    if isinstance(value, dict):
        return len(value) + sum(_keys(v) for v in value.values() if isinstance(v, (dict, list)))
    if isinstance(value, list):
        return sum(_keys(v) for v in value if isinstance(v, (dict, list)))
    return 0


def line_of(text: bytes | str, offset: int) -> int:
    """The 1-based line (LF-separated, as ``grep -n`` counts) of a byte offset of the UTF-8 text."""
    return _bytes(text).count(b"\n", 0, offset) + 1


def decode(text: bytes | str, **where: Any) -> Any:
    """Decode a small JSON document (an event given on the command line, a catalogue file) under the policy.

    Depth is checked before the parser runs; a key given twice is refused. For a
    log line use the Verifier, which does the same in bulk.
    """
    data = _bytes(text)
    problem = (scan(data) or Problem("depth", None)) if too_deep(data) else None
    if problem is None:
        try:
            value = msgspec.json.decode(data)
        except msgspec.DecodeError as exc:
            raise MalformedEvent(Msg("log.not_json", detail=str(exc)), **where) from None
        if not isinstance(value, (dict, list)) or keys_unique(data):
            return value
        problem = scan(data) or Problem("duplicate", None)
    if "line" not in where and b"\n" in data:
        where["line"] = line_of(data, problem.offset)
    if problem.field is not None:
        outer = where.get("field")
        where["field"] = (
            problem.field
            if not outer
            else (f"{outer}{problem.field}" if problem.field.startswith("[") else f"{outer}.{problem.field}")
        )
    raise MalformedEvent(problem.message(), **where)


# TOML's strings (multi-line first) and comments, each matched once and possessively: what is left
# holds the brackets of arrays, inline tables and table headers (a header's pair nets to nothing).
_TOML_SKIP = re.compile(
    r'"""(?:[^"\\]++|\\.|"(?!""))*+(?:"""|\Z)'
    r"|'''(?:[^']++|'(?!''))*+(?:'''|\Z)"
    r'|"(?:[^"\\\n]++|\\.)*+"?'
    r"|'[^'\n]*+'?"
    r"|#[^\n]*+",
    re.S,
)


def toml_too_deep(text: str) -> bool:
    """True when a TOML text nests arrays and inline tables more than ``MAX_DEPTH`` levels.

    Python's TOML parser recurses once per level: measured here before it runs.
    (Dotted keys nest without recursing; ``value_depth`` checks what they built.)
    """
    return too_deep(_TOML_SKIP.sub("", text).replace('"', "").encode())


class TomlTooDeep(ValueError):
    """A TOML text nested more than ``MAX_DEPTH`` levels (``load_toml``)."""

    def __init__(self, line: int | None) -> None:
        super().__init__(line)
        self.line = line
        """The line of the first bracket one level too deep; None when only the parsed value shows it."""

    def message(self) -> Msg:
        return Msg("limits.too_deep", depth=MAX_DEPTH)


def _blank(m: re.Match[str]) -> str:
    """A skipped string or comment as spaces, its line breaks kept: offsets and line numbers stay true."""
    return re.sub(r"[^\n]", " ", m.group())


def _toml_deep_line(text: str) -> int | None:
    """The line of the first array or inline-table bracket ``MAX_DEPTH + 1`` levels deep, if any."""
    bare = _TOML_SKIP.sub(_blank, text)
    level = 0
    for m in re.finditer(r"[\[\]{}]", bare):
        level += 1 if m.group() in "[{" else -1
        if level > MAX_DEPTH:
            return bare.count("\n", 0, m.start()) + 1
    return None  # pragma: no cover - toml_too_deep said it was too deep


def load_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads`` held to the depth limit (every TOML kifu reads: mapping files, people.toml).

    The brackets are measured before the parser recurses (once per level: 1,000 levels in
    a 2 KB file raised RecursionError); what dotted keys and table headers build without
    brackets is measured after. Raises ``TomlTooDeep`` (with the line when brackets show
    it) or ``tomllib.TOMLDecodeError``.
    """
    import tomllib

    if toml_too_deep(text):
        raise TomlTooDeep(_toml_deep_line(text))
    try:
        doc = tomllib.loads(text)
    except RecursionError:  # nesting the measure above did not see (it reads strings the simple way)
        raise TomlTooDeep(None) from None
    if value_depth(doc) > MAX_DEPTH:
        raise TomlTooDeep(None)
    return doc


def value_depth(value: Any, enough: int = MAX_DEPTH) -> int:
    """The nesting depth of a Python value of lists and dicts, counted no further than ``enough + 1``."""
    if isinstance(value, dict):
        items: Any = value.values()
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        return 0
    if enough <= 0:
        return 1
    return 1 + max((value_depth(v, enough - 1) for v in items), default=0)


def too_long(**where: Any) -> KifuError:
    """The error for a line of a log longer than ``MAX_LINE`` (one message, whoever found it)."""
    return MalformedEvent(Msg("limits.line_too_long", limit=f"{MAX_LINE:,}"), **where)
