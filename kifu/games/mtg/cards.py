"""Magic coin-flip card catalogue: a typed loader for ``mtg.json``.

Facts only, in our own words (no oracle text), classified as in
``shared/reference/mtg-and-weiss.md`` Part A2: called or heads/tails-only
(CR 705.2), how the flips go on, what the card counts, and which flips a
watcher counts (any player's or only its controller's).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Literal
from collections.abc import Mapping

import msgspec

Call = Literal["called", "heads-tails"]
Sequence = Literal["fixed", "until-lose", "until-lose-or-stop", "capped", "chosen", "repeat", "until-both-heads"]


class Watch(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """How a watcher pays off for won flips."""

    scope: Literal["you", "any"]
    """Whose wins count: only the controller's, or any player's."""
    kind: str
    """The payoff kind it records (``luck-counter``, ``treasure``, ``draw``, ``double``, ``counter``)."""
    per_win: int = 1
    """Amount per counted win (per counted flipping event, with ``per: event``)."""
    per: Literal["win", "event"] = "win"
    """``win``: one trigger per won flip (Chance Encounter, Okaun, Zndrsplt). ``event``: one trigger per
    flipping event with one or more wins (Tavern Scoundrel, "one or more coin flips"): coins an effect
    flips at once (Yusri's X coins) are one event; each flip of a one-at-a-time sequence is its own."""


class Tier(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A payoff that needs at least ``wins`` wins (Fiery Gambit)."""

    wins: int
    """Wins needed."""
    kind: str
    """Payoff kind."""
    amount: int
    """Amount (per opponent when ``each_opponent``)."""
    each_opponent: bool = False
    """True when the amount is dealt to each opponent."""


class AllWonAt(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A payoff for winning every one of exactly ``flips`` flips (Yusri with five)."""

    flips: int
    kind: str
    amount: int


class Card(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One coin-flip card: what it makes players flip and what it counts."""

    name: str
    """English name: the key flips name in ``mtg.flip.card``."""
    ja: str | None = None
    """Japanese name, where MTG Wiki «コイン投げ» gives one."""
    ability: str | None = None
    """The ability that flips, when it is one of several."""
    roles: tuple[Literal["flip", "watcher", "modifier"], ...] = ()
    """Flips coins itself, watches others' flips, or modifies flips."""
    call: Call | None = None
    """Called (win/lose) or heads/tails-only (705.2)."""
    sequence: Sequence | None = None
    """How its flips go on: a fixed count, until a loss, capped at a chosen N …"""
    flippers: Literal["flipper", "each-player"] = "flipper"
    """Who flips: the one flipper, or every player at once (Mana Clash)."""
    coins: int | None = None
    """Fixed number of flips, when the card fixes it."""
    choose: tuple[int, int | None] | None = None
    """Allowed range of a chosen number (Yusri 1–5, Squee's Revenge N ≥ 0)."""
    loss_voids: bool = False
    """Any kept loss means the card's payoff does nothing (Fiery Gambit, Squee's Revenge)."""
    per_win: dict[str, int] = {}
    """Own payoff per won flip, by payoff kind."""
    per_loss: dict[str, int] = {}
    """Own payoff per lost flip, by payoff kind."""
    per_heads: dict[str, int] = {}
    """Own payoff per heads (heads/tails-only cards)."""
    per_tails: dict[str, int] = {}
    """Own payoff per tails (heads/tails-only cards)."""
    all_won_per_flip: dict[str, int] = {}
    """Payoff per flip, only when every chosen flip was won (Squee's Revenge)."""
    all_won_at: AllWonAt | None = None
    """Extra payoff for winning all of a given number of flips (Yusri)."""
    tiers: tuple[Tier, ...] = ()
    """Threshold payoffs by number of wins (Fiery Gambit)."""
    stakes: Literal["double"] | None = None
    """Per-flip stakes that double each flip (Game of Chaos)."""
    watch: Watch | None = None
    """How it pays off for other flips, if it is a watcher."""
    modifier: Literal["thumb", "edgar"] | None = None
    """Krark's Thumb (two coins, keep one) or Edgar (stated result, 705.3)."""
    verified: bool = True
    """False where the reference marks the row to verify."""
    note: str = ""
    """What the card does, in our words."""

    @property
    def own_kinds(self) -> set[str]:
        """Payoff kinds this card itself produces from its flips."""
        kinds = set(self.per_win) | set(self.per_loss) | set(self.per_heads) | set(self.per_tails)
        kinds |= set(self.all_won_per_flip) | {t.kind for t in self.tiers}
        return kinds | ({self.all_won_at.kind} if self.all_won_at else set())


class _File(msgspec.Struct, frozen=True, kw_only=True):
    source: str = ""
    cards: tuple[Card, ...] = ()


class Catalogue(msgspec.Struct, frozen=True, kw_only=True):
    """Cards by English name (case-insensitive lookup through ``get``)."""

    cards: dict[str, Card]
    """Every card, keyed by lower-case name."""
    ja: dict[str, Card] = {}
    """Every card with a Japanese name, keyed by it: a table that types 魔力激突 names Mana Clash."""

    def get(self, name: str) -> Card | None:
        key = name.strip()
        return self.cards.get(key.lower()) or self.ja.get(key)

    @classmethod
    def of(cls, cards: dict[str, Card]) -> Catalogue:
        """The catalogue of ``cards`` (keyed by lower-case English name), found by Japanese name too."""
        return cls(cards=cards, ja={c.ja.strip(): c for c in cards.values() if c.ja})


def _index(cards: tuple[Card, ...]) -> dict[str, Card]:
    return {c.name.strip().lower(): c for c in cards}


@lru_cache(maxsize=1)
def builtin() -> Catalogue:
    """The built-in catalogue (read once)."""
    raw = (Path(__file__).parent / "cards.json").read_bytes()  # beside the module: no importlib.resources at start-up
    return Catalogue.of(_index(unique(msgspec.json.decode(raw, type=_File).cards)))


class NamedTwice(ValueError):
    """A catalogue gives one name (compared as ``Catalogue.get`` looks it up) to two cards."""

    def __init__(self, name: str, first: int, second: int) -> None:
        super().__init__(name, first, second)
        self.name, self.first, self.second = name, first, second


def unique(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """``cards`` when no two share a name; else ``NamedTwice``: the index would keep the last, and the order
    of the list would decide what a card does."""
    seen: dict[str, int] = {}
    for i, c in enumerate(cards):
        first = seen.setdefault(c.name.strip().lower(), i)
        if first != i:
            raise NamedTwice(c.name, first, i)
    return cards


def for_match(extra: Mapping[str, Any] | None) -> Catalogue:
    """The built-in cards plus a match's own (``match.start.catalogue`` in the same shape); a card of the
    match's own replaces the built-in card of its name, and one name given to two of its cards is refused."""
    base = builtin()
    if not extra:
        return base
    added = unique(msgspec.convert(dict(extra), type=_File).cards)
    return Catalogue.of({**base.cards, **_index(added)})
