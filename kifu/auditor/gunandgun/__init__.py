"""ガンナガン (Gun and Gun) with the coin-toss variant: the GG rulebook.

Rule sources: seed 000 (../shared/seeds/000_bcb755c8f159f990.txt, the variant and its
rulings) and ../shared/reference/gunandgun.md (the base game). One module per area:
toss (the sequence, N and timing), numbers (N in the effect), costs, limits, loads,
shots, responses, cards (card kinds), setup (setup, turn flow, end of game); options.py holds the
documented house-ruling options.
"""

from __future__ import annotations

from typing import Any

from ...events.base import MatchStarted
from ...events.gunandgun import EVENTS
from ...projector import gunandgun as projection
from ..base import Game, Rule, Text
from . import cards, costs, limits, loads, numbers, responses, setup, shots, toss
from .docs_ja import with_japanese
from .options import OPTIONS

RULES: tuple[Rule, ...] = tuple(with_japanese(r) for r in (
    toss.RULES + numbers.RULES + costs.RULES + limits.RULES + loads.RULES + shots.RULES + responses.RULES
    + cards.RULES + setup.RULES
))


def catalogue(start: MatchStarted) -> Any:
    """The built-in card catalogue merged with the log's own (None if none is available)."""
    return projection.catalogue(projection.register(start))


GAME = Game(
    id="gunandgun",
    prefix="gg",
    code="GG",
    title=Text(ja="ガンナガン (コイントス・バリアント)", en="Gun and Gun (coin-toss variant)"),
    seed="000_bcb755c8f159f990.txt",
    events=EVENTS,
    projection=projection,  # type: ignore[arg-type]
    rules=RULES,
    options=OPTIONS,
    catalogue=catalogue,
)
