"""Weiss Schwarz (ヴァイスシュヴァルツ) rulebook: the turn flow of seed 003, by area.

Source: ``shared/seeds/003_6ef41692d6c94716.txt`` (WSターンの流れ) and the rule facts
of ``shared/reference/mtg-and-weiss.md`` Part B. ``flow`` holds the phase and step
order and the check timing, ``turn`` the phases outside the attack, rule actions and
losing, ``attack`` the attack phase from declaration to encore, ``battle`` the powers a
battle compares, ``damage`` attack damage.
"""

from __future__ import annotations

from ...events.weiss import EVENTS
from ...projector import weiss as projection
from ..base import Game, Rule, Text
from . import attack, battle, damage, flow, turn
from .common import OPTIONS

RULES: tuple[Rule, ...] = flow.RULES + turn.RULES + attack.RULES + battle.RULES + damage.RULES

GAME = Game(
    id="weiss",
    prefix="ws",
    code="WS",
    title=Text(ja="ヴァイスシュヴァルツ (ターンの流れ)", en="Weiss Schwarz (turn flow)"),
    seed="003_6ef41692d6c94716.txt",
    events=EVENTS,
    projection=projection,  # type: ignore[arg-type]
    rules=RULES,
    options=OPTIONS,
)
