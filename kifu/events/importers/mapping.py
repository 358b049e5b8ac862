"""The chat notation players type during online play, and mapping files that turn it into events.

Source: issue 8 §4 and docs/importers.md. The notation is generic: a one-line
message ``!command arg arg …`` (``！`` works too; ``"…"`` or ``「…」`` quote an
argument with spaces) is parsed into (command, args). A mapping file (TOML) says
what a table's commands, rolls and free-text patterns mean, as event templates:

    game = "gunandgun"
    [[roll]]      expr = "CHOICE[自分,相手]"   event = {type = "random", kind = "coin", ...}
    [[command]]   name = "toss"  args = ["activation", "facing"]  event = {type = "gg.toss", ...}
    [[pattern]]   regex = '^(?P<who>\\S+) が (?P<card>.+) を発動'  event = {...}

A template string that is one placeholder (``"{value}"``, ``"{from:int}"``,
``"{who:player}"``, ``"{reason|concede}"`` with a default) takes the value itself;
other strings are formatted; ``{name|}`` leaves the field out when the value is
missing. An entry's values are remembered under its name for later templates
(``{plot.d1}``, ``{flip.flip}``), so one event can be made of two messages
(``note = true`` keeps the first half) or refer to an earlier one. The filled
event is validated by the target game's codec; one that does not validate stays
a note and is listed in the import report. Nothing here does I/O: the caller
reads the file and passes its text.
"""

from __future__ import annotations

import re
import tomllib
import warnings
import unicodedata
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Mapping

import msgspec

from .. import limits
from ..base import KifuError
from ..codec import Codec
from ..i18n import Msg
from .bcdice import normalise

BANGS = ("!", "！")
"""Characters that mark a message as a command."""
MAX_COMMAND = 4000
"""Longest line read as a command: an unclosed 「 makes tokenising quadratic, and no table types more."""
_TOKEN = re.compile(r"「([^」]*)」|\"([^\"]*)\"|(\S+)")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)(?::([a-z]+))?(?:\|([^{}]*))?\}")
_LIST_SEP = re.compile(r"[\s,、，/]+")
_SELF = ("self", "me", "自分")
_OPPONENT = ("opponent", "opp", "相手")
ENVELOPE = ("type", "by", "at")
"""Template keys besides the event's own fields (``seq``, ``prev``, ``src`` are the importer's)."""


class MappingError(KifuError):
    """A mapping file that cannot be used (bad TOML, unknown event type or field)."""


class Unfilled(Exception):
    """A template names a value this message does not have, or a value of the wrong kind."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message.render("en"))
        self.message = message
        """Why, said from the catalogue (in the reader's language in the report)."""


@dataclass(frozen=True)
class Command:
    """A message in the chat notation."""

    name: str
    """The command word, NFKC-normalised and lower-cased."""
    args: tuple[str, ...]
    """The arguments, NFKC-normalised, quotes removed."""
    bang: bool
    """True when typed with ``!``."""
    typed: tuple[str, ...] = ()
    """The arguments as typed (not normalised), when they split the same way: ``rest`` keeps a ruling's own text."""


def parse_command(text: str) -> Command | None:
    """Parse one message as ``[!]command args…``; None for an empty or multi-line message."""
    line = text.strip()
    if not line or "\n" in line or len(line) > MAX_COMMAND:
        return None
    bang = line[0] in BANGS
    body = line[1:] if bang else line
    tokens = [a or b or c for a, b, c in _TOKEN.findall(unicodedata.normalize("NFKC", body))]
    if not tokens:
        return None
    typed = [a or b or c for a, b, c in _TOKEN.findall(body)]
    return Command(tokens[0].lower(), tuple(tokens[1:]), bang, tuple(typed[1:]) if len(typed) == len(tokens) else ())


@dataclass(frozen=True)
class Entry:
    """One mapping: what it matches and the event template(s) it fills."""

    kind: str
    """``roll``, ``command`` or ``pattern``."""
    index: int
    """Position of the entry in its table (for error messages)."""
    templates: tuple[dict[str, Any], ...]
    """The event templates."""
    expr: str | None = None
    """A roll's command as BCDice echoes it, compared spelling-insensitively."""
    expr_regex: re.Pattern[str] | None = None
    """A regular expression the roll's echo must contain."""
    roll_kind: str | None = None
    """Only rolls of this kind (``die``, ``coin``, ``choice``)."""
    sides: int | None = None
    """Only rolls with this many sides or options."""
    verified: bool | None = None
    """Only the outcomes a kifu reveal posted (true: they carry ``rng``) or only the others (false)."""
    name: str | None = None
    """A command's word, lower-case, without ``!``."""
    bare: bool = False
    """The command also counts when typed without ``!``."""
    args: tuple[str, ...] = ()
    """Names given to a command's positional arguments."""
    regex: re.Pattern[str] | None = None
    """A pattern's regular expression over the whole message."""
    translate: tuple[tuple[str, Any], ...] = ()
    """Words replaced before filling (``自分`` → ``self``), so chat words fit the event's literals."""
    translate_by_name: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    """Per-value tables (``item = {1 = "heads"}``): the value's text, numbers included, is looked up."""
    note: bool = False
    """A command that stays a note: its values are only remembered for a later entry (a plot's first half)."""
    remember_as: str | None = None
    """The name later entries use for this entry's values (``{decl.seq}``); a command's own name by default."""
    clear: tuple[str, ...] = ()
    """Remembered names forgotten once this entry has made its events (a completed plot)."""
    each: str | None = None
    """A list value: the templates are filled once per element, as ``{item}`` and ``{index}`` (1-based)."""

    def matches_roll(self, v: Mapping[str, Any]) -> bool:
        return (
            (self.expr is None or normalise(self.expr) == normalise(str(v.get("echo") or v.get("expr") or "")))
            and (self.expr_regex is None or bool(self.expr_regex.search(str(v.get("echo") or v.get("expr") or ""))))
            and (self.roll_kind is None or self.roll_kind == v.get("kind"))
            and (self.sides is None or self.sides == v.get("sides"))
            and (self.verified is None or self.verified == (v.get("rng") is not None))
        )


@dataclass
class MapFile:
    """A loaded mapping file."""

    game: str | None = None
    """The game id the file is written for, if it says."""
    rolls: list[Entry] = field(default_factory=list)
    """``[[roll]]`` entries, tried in file order; the first that matches wins."""
    commands: dict[str, Entry] = field(default_factory=dict)
    """``[[command]]`` entries by command word."""
    patterns: list[Entry] = field(default_factory=list)
    """``[[pattern]]`` entries, tried in file order."""


EMPTY = MapFile()
"""No mapping: every roll is a ``random`` event and every other message a note."""


def load(text: str, where: str, codec: Codec) -> MapFile:
    """Read a mapping file's text and check every template against the game's events.

    The file is held to the limits of docs/format.md: at most ``MAX_MAPPING`` bytes,
    nested at most ``MAX_DEPTH`` levels (measured before the TOML parser recurses).
    """
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.MAX_MAPPING:
        raise MappingError(
            Msg("limits.mapping_too_big", size=f"{size:,}", limit=f"{limits.MAX_MAPPING:,}"), where=where
        )
    try:
        doc = limits.load_toml(text)
    except limits.TomlTooDeep as exc:
        raise MappingError(exc.message(), where=where, line=exc.line) from None
    except tomllib.TOMLDecodeError as exc:
        raise MappingError(Msg("map.not_toml", detail=str(exc)), where=where) from None
    unknown = set(doc) - {"game", "roll", "command", "pattern", "description"}
    if unknown:
        raise MappingError(Msg("map.unknown_top_keys", keys=sorted(unknown)), where=where)
    m = MapFile(game=doc.get("game"))
    for i, e in enumerate(doc.get("roll", []), 1):
        m.rolls.append(_entry("roll", i, e, where, codec))
    for i, e in enumerate(doc.get("command", []), 1):
        entry = _entry("command", i, e, where, codec)
        m.commands[entry.name or ""] = entry
    for i, e in enumerate(doc.get("pattern", []), 1):
        m.patterns.append(_entry("pattern", i, e, where, codec))
    return m


def _regex(pattern: str) -> re.Pattern[str]:
    """A mapping file's pattern, compiled without Python's warnings about it (``[[`` as a possible
    nested set): they would print on stderr beside kifu's own lines; a pattern that fails is one line."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return re.compile(pattern)


_KEYS = {
    "roll": {"expr", "expr_regex", "kind", "sides", "verified", "event", "events", "translate", "each", "clear"},
    "command": {"name", "bare", "args", "event", "events", "translate", "note", "remember_as", "clear", "each"},
    "pattern": {"regex", "event", "events", "translate", "remember_as", "clear", "each"},
}


def _entry(kind: str, i: int, e: Any, where: str, codec: Codec) -> Entry:
    label = f"[[{kind}]] #{i}"
    if not isinstance(e, dict):
        raise MappingError(Msg("map.not_table", label=label), where=where)
    if set(e) - _KEYS[kind]:
        raise MappingError(Msg("map.unknown_keys", label=label, keys=sorted(set(e) - _KEYS[kind])), where=where)
    _check_types(e, label, where)
    templates = ([e["event"]] if "event" in e else []) + list(e.get("events", []))
    if not templates and not e.get("note"):
        raise MappingError(Msg("map.no_event", label=label), where=where)
    if templates and e.get("note"):
        raise MappingError(Msg("map.note_makes_no_event", label=label), where=where)
    for t in templates:
        _check_template(t, codec, f"{label}", where)
    try:
        return Entry(
            kind=kind,
            index=i,
            templates=tuple(templates),
            expr=e.get("expr"),
            expr_regex=_regex(e["expr_regex"]) if "expr_regex" in e else None,
            roll_kind=e.get("kind"),
            sides=e.get("sides"),
            verified=e.get("verified"),
            name=_command_name(e, label, where) if kind == "command" else None,
            bare=bool(e.get("bare", False)),
            args=tuple(e.get("args", ())),
            regex=_regex(e["regex"]) if kind == "pattern" else None,
            translate=tuple(
                (k, v) for k, v in _translate(e.get("translate", {}), label, where).items() if not isinstance(v, dict)
            ),
            translate_by_name=tuple(
                (k, tuple(_translate(v, label, where).items()))
                for k, v in e.get("translate", {}).items()
                if isinstance(v, dict)
            ),
            note=bool(e.get("note", False)),
            remember_as=e.get("remember_as"),
            clear=tuple(e.get("clear", ())),
            each=e.get("each"),
        )
    except (re.error, KeyError) as exc:
        raise MappingError(
            Msg("map.entry", label=label, detail=exc.message if isinstance(exc, KifuError) else str(exc)), where=where
        ) from None


_TYPES: dict[str, Any] = {
    "expr": str,
    "expr_regex": str,
    "kind": str,
    "sides": int,
    "verified": bool,
    "name": str,
    "bare": bool,
    "args": list,
    "regex": str,
    "events": list,
    "note": bool,
    "remember_as": str,
    "clear": list,
    "each": str,
}


_TYPE_WORDS = {
    str: Msg("map.type.text"),
    int: Msg("map.type.int"),
    bool: Msg("map.type.bool"),
    list: Msg("map.type.list"),
}


def _check_types(e: dict[str, Any], label: str, where: str) -> None:
    for key, want in _TYPES.items():
        if key in e and (not isinstance(e[key], want) or isinstance(e[key], bool) and want is int):
            raise MappingError(Msg("map.must_be", label=label, key=key, what=_TYPE_WORDS[want]), where=where)
    for key in ("args", "clear"):
        if not all(isinstance(a, str) for a in e.get(key, [])):
            raise MappingError(Msg("map.list_of_names", label=label, key=key), where=where)
    if e.get("kind") not in (None, "die", "coin", "choice"):
        raise MappingError(Msg("map.kind", label=label), where=where)


def _translate(t: Any, label: str, where: str) -> dict[str, Any]:
    if not isinstance(t, dict):
        raise MappingError(Msg("map.translate", label=label), where=where)
    return {unicodedata.normalize("NFKC", k): v for k, v in t.items()}


def _command_name(e: dict[str, Any], label: str, where: str) -> str:
    name = e.get("name")
    if not isinstance(name, str) or not name.strip() or " " in name.strip():
        raise MappingError(Msg("map.one_word", label=label), where=where)
    return unicodedata.normalize("NFKC", name.strip()).lower().lstrip("!")


def _check_template(t: Any, codec: Codec, label: str, where: str) -> None:
    if not isinstance(t, dict) or not isinstance(t.get("type"), str):
        raise MappingError(Msg("map.template_type", label=label), where=where)
    cls = codec.by_type.get(t["type"])
    if cls is None or t["type"] == "match.start":
        raise MappingError(Msg("map.no_such_type", label=label, type=repr(t["type"])), where=where)
    fields = {f.name for f in msgspec.structs.fields(cls)}
    bad = set(t) - fields - set(ENVELOPE)
    if bad or {"seq", "prev", "src"} & set(t):
        raise MappingError(
            Msg("map.no_such_fields", label=label, type=t["type"], fields=sorted(bad or {"seq/prev/src"})), where=where
        )


def translated(values: Mapping[str, Any], entry: Entry) -> dict[str, Any]:
    """The values with the entry's ``translate`` words replaced (list elements too).

    A flat table replaces text values; a per-name table (``item = {…}``) looks up
    that value's text, so a coin's face ``1`` can become ``heads``.
    """
    out = dict(values)
    if entry.translate:
        table = dict(entry.translate)
        out = {k: _swap(v, table, text_only=True) for k, v in out.items()}
    for name, pairs in entry.translate_by_name:
        if name in out:
            out[name] = _swap(out[name], dict(pairs), text_only=False)
    return out


def _swap(v: Any, table: Mapping[str, Any], text_only: bool) -> Any:
    if isinstance(v, list):
        return [_swap(x, table, text_only) for x in v]
    if isinstance(v, str) or (not text_only and isinstance(v, int) and not isinstance(v, bool)):
        return table.get(unicodedata.normalize("NFKC", str(v)), v)
    return v


def fill(template: Any, values: Mapping[str, Any], players: PlayerBook) -> Any:
    """The template with every placeholder replaced; raises Unfilled for a missing value."""
    if isinstance(template, dict):
        filled = {k: fill(v, values, players) for k, v in template.items()}
        return {k: v for k, v in filled.items() if v is not OMIT}
    if isinstance(template, list):
        return [v for v in (fill(v, values, players) for v in template) if v is not OMIT]
    if not isinstance(template, str):
        return template
    whole = _PLACEHOLDER.fullmatch(template)
    if whole:
        if whole.group(3) == "" and _missing(whole.group(1), values):
            return OMIT  # "{name|}": the field is left out and takes the event's default
        return _convert(_value(whole, values), whole.group(2), values, players)
    return _PLACEHOLDER.sub(lambda m: str(_convert(_value(m, values), m.group(2), values, players)), template)


OMIT = object()
"""What a whole ``{name|}`` placeholder fills to when the value is missing: the key is dropped."""


def _missing(name: str, values: Mapping[str, Any]) -> bool:
    return values.get(name) is None or values.get(name) == []


def _value(m: re.Match[str], values: Mapping[str, Any]) -> Any:
    """The named value, else the placeholder's ``|default``; Unfilled if neither."""
    name, default = m.group(1), m.group(3)
    if name in values and values[name] is not None:
        return values[name]
    if default is not None:
        return default
    raise Unfilled(Msg("mapping.no_value", placeholder=f"{{{name}}}"))


def _int(v: Any) -> int:
    try:
        return int(str(v))
    except ValueError:
        raise Unfilled(Msg("mapping.not_whole", value=repr(v))) from None


def _convert(v: Any, conv: str | None, values: Mapping[str, Any], players: PlayerBook) -> Any:
    if conv is None:
        return v
    if conv == "int":
        return [_int(x) for x in v] if isinstance(v, list) else _int(v)
    if conv == "neg":
        return -_int(v)
    if conv == "str":
        return str(v)
    if conv == "list":
        return [x for x in _LIST_SEP.split(str(v).strip()) if x] if isinstance(v, str) else list(v)
    if conv == "player":
        return players.resolve(str(v), values.get("by"))
    raise Unfilled(Msg("mapping.unknown_conversion", conv=conv))


@dataclass
class PlayerBook:
    """Player ids by id, display name and stable source key, for ``by`` and ``:player``."""

    ids: list[str] = field(default_factory=list)
    by_name: dict[str, str] = field(default_factory=dict)

    def add(self, pid: str, *names: str | None) -> None:
        if pid not in self.ids:
            self.ids.append(pid)
        for n in (pid, *names):
            if n:
                self.by_name.setdefault(_key(n), pid)

    def lookup(self, name: str | None) -> str | None:
        return None if not name else self.by_name.get(_key(name))

    def resolve(self, word: str, by: str | None) -> str:
        """A player id from an id, a name, ``self``/``自分`` or ``opponent``/``相手``."""
        if word.lower() in _SELF and by:
            return by
        if word.lower() in _OPPONENT and by in self.ids and len(self.ids) == 2:
            return self.ids[1 - self.ids.index(by)]
        # Chat clients turn a mention into "@name" (Discord exports, CCFOLIA autocompletion).
        found = self.lookup(word) or self.lookup(re.sub(r"^[@＠]", "", word))
        if found is None:
            raise Unfilled(Msg("mapping.names_no_player", word=repr(word)))
        return found


def _key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).strip().casefold()


def command_values(cmd: Command, entry: Entry, base: Mapping[str, Any]) -> dict[str, Any]:
    """The values a command's template may use: cmd, args, arg1…, the entry's arg names, rest, more."""
    values = dict(base, cmd=cmd.name, args=list(cmd.args), nargs=len(cmd.args))
    values.update({f"arg{i}": a for i, a in enumerate(cmd.args, 1)})
    values.update(dict(zip(entry.args, cmd.args)))
    values["rest"] = " ".join((cmd.typed or cmd.args)[len(entry.args) :]) or None
    values["more"] = list(cmd.args[len(entry.args) :])
    return values


def pattern_values(m: re.Match[str], base: Mapping[str, Any]) -> dict[str, Any]:
    values = dict(base)
    values.update({f"g{i}": g for i, g in enumerate(m.groups(), 1)})
    values.update({k: v for k, v in m.groupdict().items()})
    return values


def find_command(mapping: MapFile, cmd: Command) -> Entry | None:
    entry = mapping.commands.get(cmd.name)
    return entry if entry is not None and (cmd.bang or entry.bare) else None


def find_pattern(mapping: MapFile, text: str) -> tuple[Entry, re.Match[str]] | None:
    for entry in mapping.patterns:
        m = entry.regex.search(text) if entry.regex else None
        if m:
            return entry, m
    return None


def find_roll(mapping: MapFile, values: Mapping[str, Any]) -> Entry | None:
    return next((e for e in mapping.rolls if e.matches_roll(values)), None)
