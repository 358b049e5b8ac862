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
"""

from __future__ import annotations

import string
from functools import cache
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterable, Iterator, Mapping

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


class _Kept(dict):  # type: ignore[type-arg]
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


_FORMAT = string.Formatter().vformat


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
    return _FORMAT(tpl, (), _Kept(values))


def render(message: str | Msg, lang: str) -> str:
    """A message given as a ``Msg`` or as plain text (text from outside kifu is shown as it is)."""
    return message.render(lang) if isinstance(message, Msg) else message


def has(key: str, lang: str) -> bool:
    return key in catalogue(lang)
