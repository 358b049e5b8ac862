"""Weiss Schwarz battle step: the powers a battle compares, checked against the stage.

Source: WSターンの流れ §アタックフェイズ E.3–4 (パワーの比較に入る、比較し低いほうをリバースする);
docs/games/weiss.md: a character's power is its printed power (``ws.play.chara``,
``ws.board``) plus ``ws.modify`` and the ``ws.counter`` played for it this turn.
"""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, Text, rule

from .. import events as ev
from ..projection import Slot, State
from .attack import expected_reversed, reversal
from .common import BATTLE_TIE, ROLE_JA, facing, option


def _fighters(state: State) -> tuple[Slot, Slot] | None:
    """The attacker and the defender on the stage, when both are there and their printed power is known."""
    pair = facing(state) if state.known else None
    if pair is None or not (pair[0].power and pair[1].power):
        return None  # a power of 0 is a character whose printed power the log never gave
    return pair


@rule(
    code="WS-BTL-003",
    name="battle-counts-the-recorded-counters-and-modifiers",
    severity=Severity.ERROR,
    on=(ev.BattleResolved,),
    options=("battle_tie",),
)
def battle_counts_recorded_modifiers(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, ev.BattleResolved)
    before = s.before.game
    fighters = _fighters(before)
    if fighters is None:
        return
    pairs = tuple(zip(("attacker", "defender"), fighters, (e.attacker_power, e.defender_power)))
    if any(recorded not in (slot.power, slot.power_now) for _, slot, recorded in pairs):
        return  # a power the log cannot explain: some effect it did not record
    left_out = [
        (who, f"{slot.card} {slot.power_mod:+d}")
        for who, slot, recorded in pairs
        if slot.power_mod and recorded == slot.power
    ]
    if not left_out:
        return
    attacker, defender = fighters
    want = expected_reversed(attacker.power_now, defender.power_now, str(option(s.options, BATTLE_TIE)))
    if sorted(set(e.reversed)) == want:
        return
    yield Flag(
        e.seq,
        {
            "attacker_power": e.attacker_power,
            "defender_power": e.defender_power,
            "left_out": Text(
                ja=", ".join(f"{ROLE_JA[who]} {mod}" for who, mod in left_out),
                en=", ".join(f"{who} {mod}" for who, mod in left_out),
            ),
            "stage_attacker": attacker.power_now,
            "stage_defender": defender.power_now,
            "expected": reversal(want),
            "recorded": reversal(e.reversed),
        },
        seqs=(before.attack.seq,) if before.attack else (),
    )


RULES = (battle_counts_recorded_modifiers,)
