"""Magic: The Gathering coin flips, audited against Comprehensive Rules 705.

Seed: ``shared/seeds/001_a9773e9e4e2d9798.txt`` (MTG Wiki コイン投げ, CR 705 as of
20231117.0); current CR 705.1–705.3, Krark's Thumb rulings (Saturday School #56,
2003-12-13) and the card classification from ``shared/reference/mtg-and-weiss.md``
Part A. Areas: ``coin`` (705.1, bookkeeping), ``call`` (705.2/705.3),
``thumb`` (Krark's Thumb), ``sequence`` (how many flips, when they stop),
``payoff`` (what the results pay).
"""

from __future__ import annotations

import msgspec

from ...events.base import MalformedEvent, MatchStarted
from ...events.cards.mtg import Catalogue, for_match
from ...events.mtg import EVENTS
from ...projector import mtg as projection
from ..base import Game, Text
from . import call, coin, payoff, sequence, thumb
from .common import OPTIONS


def catalogue(start: MatchStarted) -> Catalogue:
    """The built-in coin-flip cards plus the match's own (``match.start.catalogue``)."""
    try:
        return for_match(start.catalogue)
    except msgspec.ValidationError as exc:
        raise MalformedEvent(f"the match's card catalogue does not fit the mtg shape: {exc}",
                             line=1, seq=1, field="catalogue") from None


RULES = (
    coin.RULES
    + call.RULES
    + (thumb.THUMB_COUNT, thumb.exactly_one_kept, thumb.kept_after_all_seen, payoff.IGNORED_COUNTS_FOR_NOTHING)
    + sequence.RULES
    + payoff.RULES
)

GAME = Game(
    id="mtg",
    prefix="mtg",
    code="MTG",
    title=Text(ja="マジック:ザ・ギャザリング (コイン投げ, 総合ルール 705)", en="Magic: The Gathering coin flips (CR 705)"),
    seed="001_a9773e9e4e2d9798.txt",
    events=EVENTS,
    projection=projection,  # type: ignore[arg-type]
    rules=RULES,
    options=OPTIONS,
    catalogue=catalogue,
)
