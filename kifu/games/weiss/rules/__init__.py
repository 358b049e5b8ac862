"""Weiss Schwarz (ヴァイスシュヴァルツ) rulebook: the turn flow of WSターンの流れ, by area.

Source: ``shared/seeds/003_6ef41692d6c94716.txt`` (WSターンの流れ) and the rule facts
of ``shared/reference/mtg-and-weiss.md`` Part B. ``flow`` holds the phase and step
order and the check timing, ``phases`` the stand, draw, clock and climax phases,
``end_phase`` the end phase, ``rule_actions`` level-up and refresh, ``game_end`` losing
and the winner, ``attack`` the attack phase's declaration, trigger, counter and battle,
``encore`` the encore step, ``battle`` the powers a battle compares, ``damage`` attack damage.
"""

from __future__ import annotations

from kifu.auditor.base import Rule

from . import (
    attack,
    battle,
    damage,
    encore,
    end_phase,
    flow,
    game_end,
    phases,
    rule_actions,
)

RULES: tuple[Rule, ...] = (
    flow.RULES
    + phases.RULES
    + end_phase.RULES
    + rule_actions.RULES
    + game_end.RULES
    + attack.RULES
    + encore.RULES
    + battle.RULES
    + damage.RULES
)
