"""The message catalogue: every word kifu shows a person, one table per language, keyed by id.

``kifu/locale/<lang>.json`` holds the core's messages (errors, the command line,
report and page labels, the log-level rules); each game adds its own (its rules'
titles, messages and documentation, its options) in ``kifu/games/<id>/locale/<lang>.json``.
Per language they make one table: ids are unique across the files (a test checks
it, and that every id has its Japanese and its English).

Code names a message by id and hands its values over: ``text("cli.created", "ja",
path=…)``, or, for a message rendered later in the reader's language (an error, a
finding), ``Msg("log.torn_tail", bytes=12)``. Templates use ``{name}`` fields; a
field the caller did not give stays visible as ``{name}`` rather than failing.

This is kifu's one message module: besides the catalogue, the texts kept in both
languages at once (``Text``), the citations of rule documents (``cite``, ``documents``,
``cited``), and how a finding's message is filled as a judge reads it (``fill``,
``phrase``, ``who``, ``word``).
"""

from __future__ import annotations

import string
from functools import cache
from pathlib import Path
from typing import Any
import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import NamedTuple

import msgspec

LANGS = ("ja", "en")
"""The languages kifu speaks; English is the fallback of a missing Japanese text."""


class Msg:
    """A message to render later, in whatever language the reader asks for."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, /, **params: Any) -> None:
        self.key = key
        """The catalogue id."""
        self.params = params
        """Values for the template's ``{name}`` fields."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and (self.key, self.params) == (other.key, other.params)

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Msg({self.key!r}, **{self.params!r})"

    def __reduce__(self) -> tuple[Any, ...]:  # keyword-only params: pickle through a helper
        return (_msg, (self.key, self.params))

    def render(self, lang: str) -> str:
        return text(self.key, lang, **self.params)

    def __str__(self) -> str:
        return self.render("en")


def _msg(key: str, params: dict[str, Any]) -> Msg:
    return Msg(key, **params)


CORE = Path(__file__).resolve().parent.parent / "locale"
"""The core's catalogue: ``kifu/locale/``."""

_game_locales: Callable[[], Iterable[Path]] = tuple
"""Where the games' catalogues are: told by the game table (``locales``), which this module never imports."""


def locales(found: Callable[[], Iterable[Path]]) -> None:
    """Set where the games' catalogues are (each game's ``locale/`` folder, in the order of the games): the game
    table calls this whenever it changes, and the catalogue is read again."""
    global _game_locales
    _game_locales = found
    catalogue.cache_clear()


def _sources() -> Iterator[Path]:
    """The folder of every catalogue: the core's, then each game's.

    The folders are found beside the modules (kifu is installed as files): importing
    ``importlib.resources`` would cost every command more than reading the files does.
    """
    yield CORE
    yield from _game_locales()


@cache
def catalogue(lang: str) -> Mapping[str, str]:
    """Every message id -> its template in ``lang`` (the core's and every game's)."""
    table: dict[str, str] = {}
    for folder in _sources():
        part = folder / f"{lang}.json"
        if part.is_file():
            table.update(msgspec.json.decode(part.read_bytes(), type=dict[str, str]))
    return table


class _Kept(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def template(key: str, lang: str) -> str:
    """The template of ``key`` in ``lang``; English if the language lacks it, else the id itself."""
    found = catalogue(lang).get(key)
    if found is None and lang != "en":
        found = catalogue("en").get(key)
    return key if found is None else found


def text(key: str, lang: str, /, **params: Any) -> str:
    """The message ``key`` in ``lang`` with its fields filled (a field that is itself a ``Msg`` in ``lang`` too)."""
    tpl = template(key, lang)
    if not params:
        return tpl
    values = {k: v.render(lang) if isinstance(v, Msg) else v for k, v in params.items()}
    # format_map fills the fields as string.Formatter().vformat did, in C: that one cost ~40 µs a message.
    return tpl.format_map(_Kept(values))


def render(message: str | Msg, lang: str) -> str:
    """A message given as a ``Msg`` or as plain text (text from outside kifu is shown as it is)."""
    return message.render(lang) if isinstance(message, Msg) else message


def has(key: str, lang: str) -> bool:
    return key in catalogue(lang)


# --- texts in both languages, citations and the words of findings ----------------------------------


class Text(msgspec.Struct, frozen=True):
    """A text in Japanese and English; message templates use ``{name}`` fields."""

    ja: str
    en: str

    def get(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en

    @classmethod
    def of(cls, key: str, **params: Any) -> Text:
        """The catalogue's message ``key`` in both languages (kifu/events/py)."""
        return cls(ja=text(key, "ja", **params), en=text(key, "en", **params))


def cite(key: str, docs: str) -> Text:
    """The citation ``key`` in both languages, each ``{document}`` field named as its readers know it: the
    catalogue's ``doc.<docs>.<document>.name`` (``{variant}`` -> ``coin-toss variant`` / ``トスで決まる枚数ルール``)."""
    return Text(ja=_cite(key, docs, "ja"), en=_cite(key, docs, "en"))


@functools.cache
def _cite(key: str, docs: str, lang: str) -> str:
    found = template(key, lang)
    fields = {f: template(f"doc.{docs}.{f}.name", lang) for _, f, _, _ in string.Formatter().parse(found) if f}
    return found.format(**fields)


class Document(NamedTuple):
    """A rule document a game's citations name: its id, short name and title in both languages."""

    id: str
    name: Text
    title: Text


def documents(docs: str) -> list[Document]:
    """Every document of the namespace ``docs`` (``gg``), as the catalogue lists them."""
    ids = sorted({k.split(".")[2] for k in catalogue("en") if k.startswith(f"doc.{docs}.")})
    return [Document(d, Text.of(f"doc.{docs}.{d}.name"), Text.of(f"doc.{docs}.{d}.title")) for d in ids]


def cited(citation: Text, docs: str) -> list[Document]:
    """The documents of ``docs`` a citation names (by their English short names), in the order it names them."""
    found = [(citation.en.find(d.name.en), d) for d in documents(docs) if d.name.en in citation.en]
    return [d for _, d in sorted(found, key=lambda x: x[0])]


class _SafeDict(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def in_language(evidence: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """Evidence for one language: a ``Text`` value becomes its text in that language (and, for a Japanese
    template that asks for ``x_ja``, ``x``'s Japanese)."""
    out = {k: v.get(lang) if isinstance(v, Text) else v for k, v in evidence.items()}
    if lang == "ja":
        out.update({f"{k}_ja": v.ja for k, v in evidence.items() if isinstance(v, Text) and f"{k}_ja" not in out})
    return out


def who(pid: Any, names: Mapping[str, str]) -> str:
    """A player as a judge reads them: ``Aoi (p1)``; an id that names no player as it is."""
    name = names.get(pid) if isinstance(pid, str) else None
    return str(pid) if name is None else pid if name == pid else f"{name} ({pid})"


SEPARATOR = {"ja": "、", "en": ", "}
"""Between the items of a list in a message."""


ROLES = ("judge", "system", "recorder")
"""Who may write a log line besides the players (``by``): named by their word, ``word.<role>``."""


class _Formatter(string.Formatter):
    """Fills a finding's template in one language, as a judge reads it.

    A value that is a player's id names the player (``who``: ``Aoi (p1)``; ``{x:id}`` keeps the bare id); a
    list is its items joined; ``{x:word}`` is the catalogue's ``word.<game>.<x>`` (or ``word.<x>``) in the
    language, the word a value such as ``heads`` or ``hand`` is in that language (``{x:word.tag}`` looks in
    ``word.<game>.tag.<x>``); ``None`` is never printed.
    """

    def __init__(self, names: Mapping[str, str], lang: str, game: str) -> None:
        self.names, self.lang, self.game = names, lang, game

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, (list, tuple)):
            if not value:
                return text("finding.none", self.lang)
            return SEPARATOR.get(self.lang, ", ").join(self.format_field(v, format_spec) for v in value)
        if format_spec.startswith("word"):  # ``{x:word}``, or ``{x:word.tag}`` for the words of one kind
            return word(value, self.lang, self.game + format_spec[4:])
        if format_spec == "id":
            return str(value)
        if format_spec in ("", "who") and isinstance(value, str) and value in self.names:
            return who(value, self.names)
        if format_spec == "who" and value in ROLES:  # by=judge: the judge, in the reader's language
            return word(value, self.lang)
        if value is None:
            return text("finding.none", self.lang)
        return super().format_field(value, "" if format_spec == "who" else format_spec)


def word(value: Any, lang: str, game: str = "") -> str:
    """``value`` (an enum value such as ``heads``) in ``lang``: the catalogue's ``word.<game>.<value>``, else
    ``word.<value>``, else the value as it is."""
    for key in (f"word.{game}.{value}", f"word.{value}"):
        if has(key, lang) or has(key, "en"):
            return template(key, lang)
    return str(value)


def fill(
    template: str, evidence: Mapping[str, Any], names: Mapping[str, str] = {}, lang: str = "en", game: str = ""
) -> str:
    return _Formatter(names, lang, game).vformat(template, (), _SafeDict(evidence))


def phrase(m: Any, names: Mapping[str, str], lang: str, game: str) -> str:
    """A catalogue phrase filled like a finding's message (players named, words in the language, nested
    phrases filled the same way); a ``Text`` in the language; a list of them joined."""
    if isinstance(m, (list, tuple)):
        return SEPARATOR.get(lang, ", ").join(phrase(x, names, lang, game) for x in m)
    if isinstance(m, Text):
        return m.get(lang)
    if not isinstance(m, Msg):
        return fill("{x}", {"x": m}, names, lang, game)
    if m.key.startswith("word.") and not has(m.key, "en"):
        return m.key.rsplit(".", 1)[-1]  # a value no word is written for yet: shown as it is, never as an id
    values = {k: phrase(v, names, lang, game) if phrased(v) else v for k, v in m.params.items()}
    return fill(template(m.key, lang), values, names, lang, game)


class Later:
    """A finding's message and evidence, filled when they are read (a report is made), not when the rule fires.

    A rule's check hands over a template and values; filling them in both languages (players
    named, words looked up, phrases rendered) is most of what a finding costs, and most hits
    are merged into another finding before any report shows them (``findings.merge``). The
    engine makes each finding that leaves it whole (``findings.made``); ``get``, ``ja`` and
    ``en`` fill it in place for a reader that asks before.
    """

    __slots__ = ("template", "evidence", "names", "game", "_made")

    def __init__(self, template: Text, evidence: Mapping[str, Any], names: Mapping[str, str], game: str) -> None:
        self.template = template
        """The message's template in both languages (the rule's, or "cannot decide")."""
        self.evidence = evidence
        """The values the check gave, phrases (``Msg``) still unrendered."""
        self.names = names
        """Player id -> name: how the players the message names are called."""
        self.game = game
        """Where the ``{x:word}`` words are (``gg``)."""
        self._made: tuple[Text, dict[str, Any]] | None = None

    def made(self) -> tuple[Text, dict[str, Any]]:
        """The message in both languages and the evidence, each phrase a ``Text`` (filled once)."""
        if self._made is None:
            names, game = self.names, self.game
            ev = dict(self.evidence)
            for k, v in ev.items():
                if isinstance(v, Msg) or isinstance(v, (list, tuple)) and phrased(v):
                    ev[k] = Text(ja=phrase(v, names, "ja", game), en=phrase(v, names, "en", game))
            message = Text(
                ja=fill(self.template.ja, in_language(ev, "ja"), names, "ja", game),
                en=fill(self.template.en, in_language(ev, "en"), names, "en", game),
            )
            self._made = (message, ev)
        return self._made

    @property
    def ja(self) -> str:
        return self.made()[0].ja

    @property
    def en(self) -> str:
        return self.made()[0].en

    def get(self, lang: str) -> str:
        return self.made()[0].get(lang)


def phrased(v: Any) -> bool:
    """A value ``_phrase`` fills: a phrase, a ``Text``, or a list holding one."""
    return isinstance(v, (Msg, Text)) or isinstance(v, (list, tuple)) and any(phrased(x) for x in v)
