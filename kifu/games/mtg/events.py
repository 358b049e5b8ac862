"""Magic: The Gathering coin flips: the ``mtg.*`` events of a match log.

Rule source: MTG Wiki «コイン投げ», quoting the Comprehensive Rules 705, and the
current Comprehensive Rules 705.

A flip is recorded the way it happens at a table: an instruction (``mtg.flip``)
names the card, the flipper and how many coins; for a called flip the flipper
calls (``mtg.call``) before the coin lands (``mtg.coin``); under Krark's Thumb
several coins land for one replaced flip and one of them is kept (``mtg.keep``);
the flip is then won or lost (``mtg.outcome``). Coins are grouped by ``group``:
one replaced flip, or for cards where every player flips at once (Mana Clash)
one round. Choices (``mtg.choice``) continue or stop a sequence, and payoffs
(``mtg.payoff``) record what the card or a watcher did with the results.
"""

# Annotations not postponed, as in kifu/events/base.py: msgspec would compile each string when it builds the decoder.

from typing import Annotated, Any, Literal

import msgspec

from kifu.events.base import Event, MalformedEvent, MatchStarted, RngRef
from kifu.events.codec import field_error
from kifu.events.i18n import Msg

from . import cards

Side = Literal["heads", "tails"]
Id = Annotated[str, msgspec.Meta(min_length=1)]
Count = Annotated[int, msgspec.Meta(ge=1)]
Amount = Annotated[int, msgspec.Meta(ge=0)]

PayoffKind = Literal[
    "luck-counter",
    "treasure",
    "draw",
    "double",
    "counter",
    "token",
    "damage",
    "life-gain",
    "life-loss",
    "extra-turn",
    "copy",
    "free-cast",
    "destroy",
    "other",
]
"""What a payoff did; ``amount`` says how much (cards, counters, damage, doublings …)."""


class TurnBegan(Event, tag="mtg.turn", kw_only=True):
    """A turn began. Edgar's stated result (CR 705.3) applies once per turn."""

    turn: Count
    """Turn number, 1-based, counted over the whole game."""
    player: Id
    """The active player of the turn."""


class PermanentEntered(Event, tag="mtg.enters", kw_only=True):
    """A flip modifier or watcher (Krark's Thumb, Chance Encounter, Okaun …) is now in play."""

    permanent: Id
    """Id of this object on the battlefield, unique in the match (``thumb-1``)."""
    card: Id
    """Card name as in the catalogue (English name)."""
    controller: Id
    """The player who controls it."""


class PermanentLeft(Event, tag="mtg.leaves", kw_only=True):
    """A permanent named by ``mtg.enters`` left the battlefield."""

    permanent: Id
    """Id given in its ``mtg.enters``."""


class RandomiserAgreed(Event, tag="mtg.randomiser", kw_only=True):
    """The object used to flip (CR 705.1): a coin, or a substitute all players agreed to."""

    randomiser: Id = "coin"
    """Id that coins name in ``mtg.coin.randomiser``."""
    kind: Literal["coin", "die", "cards"] = "coin"
    """A two-sided coin; a die read as two equal halves; or ``cards``: two face-down cards, one picked at random
    (MTG Wiki «コイン投げ» allows it, warning against cards from the sideboard, graveyard or exile)."""
    sides: Count = 2
    """Faces of a die (2 for a coin, 2 cards for ``cards``)."""
    clear: bool = True
    """False when the coin has no obvious heads and tails: a side must be named heads first."""
    heads: str | None = None
    """Which side counts as heads: for a coin a description (``鳳凰堂``); for a die ``odd``, ``even``, ``low`` or
    ``high``; for ``cards`` which card (``the land``)."""
    agreed: list[Id] = []
    """Players who agreed to this randomiser (705.1: a substitute needs every player)."""


class HeadsNamed(Event, tag="mtg.heads", kw_only=True):
    """Before flipping an unclear coin, which side is heads was made clear (CR 705.1)."""

    randomiser: Id = "coin"
    """The randomiser whose heads side is named."""
    heads: Id
    """The side named heads, described (``平等院鳳凰堂の面``)."""
    agreed: list[Id] = []
    """Players who confirmed it (MTG Wiki «コイン投げ» advises checking with the opponent)."""


class FlipInstructed(Event, tag="mtg.flip", kw_only=True):
    """An effect told a player to flip: the instruction every coin of it refers to."""

    flip: Id
    """Id of this instruction, unique in the match (``f7``)."""
    card: Id
    """The source card (English name as in the catalogue)."""
    ability: str | None = None
    """Which ability, when the card has several (``upkeep``, ``sacrifice``)."""
    controller: Id | None = None
    """Controller of the source; the flipper when absent."""
    flipper: Id
    """The player the effect tells to flip (705.2: only this player calls, wins or loses)."""
    coins: Count = 1
    """Flips instructed (Ral Zarek: 5, Rakdos: one per creature); for until-lose cards 1."""
    chosen: Annotated[int, msgspec.Meta(ge=0)] | None = None
    """A number the player chose: Yusri's coins (1–5), Squee's Revenge's N."""
    kind: Literal["called", "heads-tails"] | None = None
    """Called (win/lose) or heads/tails-only; only read when the card is not in the catalogue."""
    sequence: (
        Literal["fixed", "until-lose", "until-lose-or-stop", "capped", "chosen", "repeat", "until-both-heads"] | None
    ) = None
    """How the flips go on; only read when the card is not in the catalogue."""


class CoinCalled(Event, tag="mtg.call", kw_only=True):
    """A player called heads or tails for one flip (705.2: the flipper, before the result)."""

    flip: Id
    """The instruction."""
    group: Count = 1
    """Which flip of the instruction (1-based; one replaced flip, or one round)."""
    player: Id
    """Who called."""
    side: Side
    """The call."""


class CoinLanded(Event, tag="mtg.coin", kw_only=True):
    """One coin landed. Under Krark's Thumb every coin of the group is recorded, ignored ones too."""

    random = True
    outcomes_each = 1
    flip: Id
    """The instruction."""
    group: Count = 1
    """Which flip of the instruction this coin belongs to."""
    player: Id | None = None
    """Who flipped it; the instruction's flipper when absent (Mana Clash: each player)."""
    result: Side
    """The side it landed on (for a die: the side its face reads as)."""
    face: Count | None = None
    """The die face when a die stands in for the coin (705.1); for ``cards``, which card was picked (1 or 2)."""
    randomiser: Id = "coin"
    """The randomiser used (see ``mtg.randomiser``)."""
    rng: RngRef | None = None
    """The verifiable flip this is (docs/randomness.md): a 2-sided outcome, face 1 heads and 2 tails,
    standing in for the randomiser."""

    def outcomes(self) -> tuple[tuple[int, int], ...]:
        return ((2, 1 if self.result == "heads" else 2),)


class CoinKept(Event, tag="mtg.keep", kw_only=True):
    """Under Krark's Thumb, the coin the player keeps; the others of the group are ignored."""

    flip: Id
    """The instruction."""
    group: Count = 1
    """The group the kept coin belongs to."""
    player: Id
    """Whose coins: the player who controls the Thumb and flipped them."""
    coin: Count
    """Which of that player's coins in the group, 1-based in log order."""


class FlipDecided(Event, tag="mtg.outcome", kw_only=True):
    """A player won or lost a called flip (705.2), or a stated result made it so (705.3)."""

    flip: Id
    """The instruction."""
    group: Count = 1
    """The flip of the instruction decided."""
    player: Id
    """Who won or lost."""
    outcome: Literal["won", "lost"]
    """The outcome as recorded."""


class ChoiceMade(Event, tag="mtg.choice", kw_only=True):
    """A decision to flip again or to stop (Fiery Gambit, Game of Chaos)."""

    flip: Id
    """The instruction."""
    group: Count = 1
    """The flip after which the decision was made."""
    player: Id
    """Who decided."""
    choice: Literal["continue", "stop"]
    """Flip again, or stop."""


class PayoffApplied(Event, tag="mtg.payoff", kw_only=True):
    """What a flip's card, or a watcher of flips, did with the results."""

    flip: Id
    """The instruction whose results paid off."""
    group: Count | None = None
    """The flip it pays for, when it pays per flip (Game of Chaos stakes)."""
    permanent: Id | None = None
    """The watcher's id from ``mtg.enters``; absent for the instruction's own card."""
    kind: PayoffKind
    """What happened."""
    amount: Amount = 1
    """How much: cards, counters, Treasures, damage, life, doublings."""
    player: Id | None = None
    """Who received it or suffered it, when it matters."""


EVENTS: tuple[type[Event], ...] = (
    TurnBegan,
    PermanentEntered,
    PermanentLeft,
    RandomiserAgreed,
    HeadsNamed,
    FlipInstructed,
    CoinCalled,
    CoinLanded,
    CoinKept,
    FlipDecided,
    ChoiceMade,
    PayoffApplied,
)


def catalogue(start: MatchStarted) -> Any:
    """The built-in coin-flip cards plus the match's own (``match.start.catalogue``)."""
    try:
        return cards.for_match(start.catalogue)
    except msgspec.ValidationError as exc:
        raise MalformedEvent(
            Msg("cards.wrong_shape", detail=field_error(exc)[0]), line=1, seq=1, field="catalogue"
        ) from None
    except cards.NamedTwice as exc:
        raise MalformedEvent(
            Msg("cards.named_twice", name=repr(exc.name), first=exc.first),
            line=1,
            seq=1,
            field=f"catalogue.cards[{exc.second}].name",
        ) from None


def names(cat: Any) -> list[str]:
    """The card names a table types, English and Japanese where known: for completion."""
    return [c.name for c in cat.cards.values()] + [c.ja for c in cat.cards.values() if c.ja]
