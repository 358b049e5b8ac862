"""The one explicit registry: game id -> events, projection and rulebook.

To add a game, write ``events/<game>.py``, ``projector/<game>.py`` and
``auditor/<game>.py`` (which builds a ``Game``), then add it to ``_BUILT_IN``
below. The registry checks itself once at import: unique rule codes of the
right form, kebab-case names, and event types inside the game's namespace.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

import msgspec

from ..events.base import SHARED_EVENTS, Event, MatchStarted, event_type
from ..events.codec import Codec
from . import generic, gunandgun, log, mtg, weiss, worldtrigger
from .base import CODE, INTERNAL, NAME, Engine, Finding, Game, Rule, resolve_options

_BUILT_IN: tuple[Game, ...] = (
    generic.GAME,
    gunandgun.GAME,
    mtg.GAME,
    worldtrigger.GAME,
    weiss.GAME,
)

GAMES: dict[str, Game] = {g.id: g for g in _BUILT_IN}


def game(game_id: str) -> Game:
    """The game registered under ``game_id`` (KeyError if none)."""
    return GAMES[game_id]


@lru_cache(maxsize=None)
def codec_for(game_id: str) -> Codec:
    """The codec of a game's tagged union (KeyError for an unknown game)."""
    g = GAMES[game_id]
    return Codec(g.events, _catalogue_check(g) if g.catalogue else None)


def _catalogue_check(g: Game) -> Any:
    """A match.start check that builds the game's catalogue, so a bad one fails `verify` too."""

    def check(start: Event) -> None:
        if isinstance(start, MatchStarted) and start.catalogue is not None:
            g.catalogue(start)  # type: ignore[misc]

    return check


def rules_of(g: Game) -> tuple[Rule, ...]:
    """Every rule that runs on a match of ``g``: the log rules, then the game's."""
    return log.RULES + (log.options_rule(g.options),) + g.rules


def all_rules() -> list[Rule]:
    """Every rule of every game, each once, sorted by code."""
    seen: dict[str, Rule] = {}
    for g in GAMES.values():
        for r in rules_of(g):
            seen.setdefault(r.code, r)
    seen[INTERNAL.code] = INTERNAL
    return sorted(seen.values(), key=lambda r: r.code)


def find_rule(code: str) -> Rule:
    """The rule with this code (case-insensitive), or KeyError."""
    for r in all_rules():
        if r.code == code.upper():
            return r
    raise KeyError(code)


@lru_cache(maxsize=None)
def engine(game_id: str) -> Engine:
    g = GAMES[game_id]
    return Engine(g.projection, rules_of(g))


def options(g: Game, start: MatchStarted) -> dict[str, Any]:
    return resolve_options(g.options, start.rules)


def audit(events: list[Event], strict: bool = False) -> list[Finding]:
    """Audit one verified match (its events from match.start on)."""
    start = events[0]
    assert isinstance(start, MatchStarted)
    g = GAMES[start.game]
    catalogue = g.catalogue(start) if g.catalogue else None
    return engine(g.id).run(events, options(g, start), catalogue, strict=strict)


ENVELOPE = ("seq", "prev", "at", "by", "src")
_ENVELOPE_TYPES = [f.type for f in msgspec.structs.fields(Event)]


def _validate(games: Iterable[Game]) -> None:
    codes: dict[str, str] = {}
    shared = {event_type(t) for t in SHARED_EVENTS}
    for g in games:
        for r in rules_of(g):
            if not CODE.match(r.code):
                raise AssertionError(f"{g.id}: bad rule code {r.code!r}")
            if not NAME.match(r.name):
                raise AssertionError(f"{r.code}: rule name {r.name!r} is not kebab-case")
            if r.code.split("-")[0] not in (g.code, "KIFU"):
                raise AssertionError(f"{r.code}: code prefix does not belong to game {g.id}")
            owner = codes.setdefault(r.code, r.name)
            if owner != r.name:
                raise AssertionError(f"rule code {r.code} used twice ({owner}, {r.name})")
        for t in g.events:
            tag = event_type(t)
            fields = msgspec.structs.fields(t)
            if [f.name for f in fields][: len(ENVELOPE)] != list(ENVELOPE):
                raise AssertionError(f"{tag}: declare it with kw_only=True so the envelope comes first")
            if [f.type for f in fields][: len(ENVELOPE)] != _ENVELOPE_TYPES:
                raise AssertionError(f"{tag}: a field redefines an envelope member ({', '.join(ENVELOPE)})")
            if tag in shared or not tag.startswith(g.prefix + "."):
                raise AssertionError(f"{g.id}: event type {tag!r} is outside namespace {g.prefix}.")


_validate(GAMES.values())
