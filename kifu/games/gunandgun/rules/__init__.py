"""ガンナガン (Gun and Gun) with the coin-toss variant: the GG rulebook.

Rule sources: the coin-toss variant's rules page and its rulings, and the base game's
rules. One module per area: toss (the sequence, N and timing), numbers (N in the
effect), costs, limits, loads, shots, responses, cards (card kinds), decks (each
player's two gun decks), setup (setup, turn flow, end of game); options.py holds the
documented house-ruling options.
"""

from __future__ import annotations

from kifu.auditor.base import Rule

from . import cards, costs, decks, limits, loads, numbers, responses, setup, shots, toss

RULES: tuple[Rule, ...] = (
    toss.RULES
    + numbers.RULES
    + costs.RULES
    + limits.RULES
    + loads.RULES
    + shots.RULES
    + responses.RULES
    + cards.RULES
    + decks.RULES
    + setup.RULES
)
