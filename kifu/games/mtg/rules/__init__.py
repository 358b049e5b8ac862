"""Magic: The Gathering coin flips, audited against Comprehensive Rules 705.

Seed: ``shared/seeds/001_a9773e9e4e2d9798.txt`` (MTG Wiki コイン投げ, CR 705 as of
20231117.0); current CR 705.1–705.3, Krark's Thumb rulings (Saturday School #56,
2003-12-13) and the card classification from ``shared/reference/mtg-and-weiss.md``
Part A. Areas: ``coin`` (705.1, bookkeeping), ``call`` (705.2/705.3),
``thumb`` (Krark's Thumb), ``sequence`` (how many flips, when they stop),
``payoff`` (what the results pay).
"""

from __future__ import annotations

from kifu.auditor.base import Rule

from . import call, coin, payoff, sequence, thumb

RULES: tuple[Rule, ...] = (
    coin.RULES
    + call.RULES
    + (thumb.THUMB_COUNT, thumb.exactly_one_kept, thumb.kept_after_all_seen, payoff.IGNORED_COUNTS_FOR_NOTHING)
    + sequence.RULES
    + payoff.RULES
)
