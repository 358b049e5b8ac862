"""The auditor's view of the games: game id -> its ``Game`` (projection, rulebook, options).

The games are those of the game table (``kifu.events.table``, filled from the list of games at
the top); each declares its ``GAME`` in its ``game`` part (``kifu/games/<id>/game.py``),
imported the first time something asks for it (a command that audits one game loads no other). A game is checked once, when it
is first loaded: rule codes of the right form and prefix, kebab-case names, event
types inside the game's namespace, declared with the envelope first.
"""

from __future__ import annotations

import itertools
from typing import Any
from collections.abc import Container, Iterable, Sequence


from ..events import table
from ..events.base import SHARED_EVENTS, Event, MatchStarted, event_type
from . import log, rng
from .base import CODE, CORE_OPTIONS, INTERNAL, NAME, Finding, Game, Option, Rule, resolve_options
from .engine import Engine

__all__ = ["all_rules", "audit", "engine", "find_rule", "game", "games", "known", "options", "options_of", "rules_of"]


@table.cached
def game(game_id: str) -> Game:
    """The game registered under ``game_id`` (KeyError if none), checked on first use."""
    g: Game = table.part(game_id, "game").GAME
    if g.id != game_id:
        raise AssertionError(f"the game part of {game_id} declares the game {g.id!r}")
    _validate(g)
    return g


def games() -> list[Game]:
    """Every game, in the order of the list of games."""
    return [game(g) for g in table.ids()]


def known(game_id: str) -> bool:
    """True if ``game_id`` is a registered game."""
    return table.is_known(game_id)


def rules_of(g: Game) -> tuple[Rule, ...]:
    """Every rule that runs on a match of ``g``: the log rules, the verifiable-randomness rules, then the game's."""
    return (
        log.RULES
        + (log.options_rule(options_of(g)),)
        + rng.RULES
        + (rng.claim_rule(SHARED_EVENTS + g.events),)
        + g.rules
    )


def options_of(g: Game) -> tuple[Option, ...]:
    """The options a match of ``g`` may set: the game's own, then those every game accepts (``verified_random``)."""
    return g.options + CORE_OPTIONS


def all_rules() -> list[Rule]:
    """Every rule of every game, each once, sorted by code; a code used twice is refused."""
    seen: dict[str, Rule] = {}
    for g in games():
        for r in rules_of(g):
            owner = seen.setdefault(r.code, r)
            if owner.name != r.name:
                raise AssertionError(f"rule code {r.code} used twice ({owner.name}, {r.name})")
    seen[INTERNAL.code] = INTERNAL
    return sorted(seen.values(), key=lambda r: r.code)


def find_rule(code: str) -> Rule:
    """The rule with this code (case-insensitive), or KeyError."""
    for r in all_rules():
        if r.code == code.upper():
            return r
    raise KeyError(code)


@table.cached
def engine(game_id: str) -> Engine:
    g = game(game_id)
    return Engine(g.projection, rules_of(g))


def options(g: Game, start: MatchStarted) -> dict[str, Any]:
    return resolve_options(options_of(g), start.rules)


def audit(
    events: Iterable[Event], strict: bool = False, voided: Container[int] | None = None, merged: bool = True
) -> list[Finding]:
    """Audit one verified match (its events from match.start on): one finding per mistake, or with
    ``merged=False`` every finding as the rules' checks made it (``findings.merge``).

    ``events`` may be a list or a stream (``logfile.stream``): the engine holds no
    event past its step, so a stream is audited in memory that does not grow with
    the log, given the seqs log.voids took back (``voided``, from a first pass; a
    list works them out itself). An error the stream raises (a line that does not
    verify) goes through.
    """
    if isinstance(events, Sequence):
        start, rest = events[0], events
    else:
        it = iter(events)
        start = next(it)
        rest = itertools.chain((start,), it)
    assert isinstance(start, MatchStarted)
    g = game(start.game)
    catalogue = g.catalogue(start) if g.catalogue else None
    return engine(g.id).run(rest, options(g, start), catalogue, strict=strict, voided=voided, merged=merged)


ENVELOPE = ("seq", "prev", "at", "by", "src")


def _validate(g: Game) -> None:
    codes: dict[str, str] = {}
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
    _validate_events(g.id, g.prefix, g.events)


def _validate_events(game_id: str, prefix: str, events: Iterable[type[Event]]) -> None:
    shared = {event_type(t) for t in SHARED_EVENTS}
    for t in events:
        tag = event_type(t)
        # Read from the class as declared: resolving every field's type (msgspec.structs.fields) cost each
        # audit's cold start as much as building the decoder did.
        if t.__struct_fields__[: len(ENVELOPE)] != ENVELOPE:
            raise AssertionError(f"{tag}: declare it with kw_only=True so the envelope comes first")
        if any(set(ENVELOPE) & set(vars(c).get("__annotations__", ())) for c in t.__mro__[: t.__mro__.index(Event)]):
            raise AssertionError(f"{tag}: a field redefines an envelope member ({', '.join(ENVELOPE)})")
        if tag in shared or not tag.startswith(prefix + "."):
            raise AssertionError(f"{game_id}: event type {tag!r} is outside namespace {prefix}.")
