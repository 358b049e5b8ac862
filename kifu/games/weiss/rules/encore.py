"""Weiss Schwarz encore step: reversed characters leave, turn player first, and the rule encore.

Source: WSターンの流れ §アタックフェイズ F (アンコールステップ: 甲のリバースカード → 乙のリバースカード,
リバースカードがなくなるまで繰り返す); reference B1 #7 (encore), B6 #16.
"""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, Text, rule
from kifu.events.i18n import Msg

from .. import events as ev
from ..projection import State
from .common import (
    CLOSERS,
    ENCORE_SAME_SLOT,
    UNKNOWN_BOARD,
    closed_phase,
    if_known,
    option,
    undecided,
)


def _reversed(state: State, player: str | None) -> list[str]:
    return sorted(k for k, v in state.side(player).stage.items() if v.state == "reverse")


@rule(
    code="WS-ENC-001",
    name="encore-step-turn-player-first",
    severity=Severity.ERROR,
    on=(ev.CharacterRetired,),
)
def encore_turn_player_first(s: Step) -> Iterable[Flag]:
    before = s.before.game
    e = s.event
    assert isinstance(e, ev.CharacterRetired)
    if before.step != "encore" or e.player == before.turn_player:
        return
    waiting = _reversed(before, before.turn_player)
    if waiting:
        yield Flag(e.seq, {"player": e.player, "waiting": ", ".join(waiting)})


@rule(
    code="WS-ENC-002",
    name="encore-step-repeats-until-no-reversed-card-remains",
    severity=Severity.ERROR,
    on=(ev.CharacterRetired,) + CLOSERS,
)
def encore_until_none_reversed(s: Step) -> Iterable[Flag]:
    before = s.before.game
    e = s.event
    if isinstance(e, ev.CharacterRetired):
        slot = before.side(e.player).stage.get(e.slot)
        if before.step == "encore" and slot is not None and slot.state != "reverse":
            yield Flag(
                e.seq,
                {
                    "detail": Msg(
                        "text.ws.not_reversed", player=e.player, slot=e.slot, state=Msg(f"word.ws.state.{slot.state}")
                    )
                },
            )
        return
    if closed_phase(s) != "attack":
        return
    left = [Msg("text.ws.slot_of", player=p, slot=k) for p in before.players for k in _reversed(before, p)]
    if left:
        yield Flag(e.seq, {"detail": Msg("text.ws.reversed_left", left=left)})


@rule(
    code="WS-ENC-003",
    name="rule-encore-costs-three-stock",
    severity=Severity.ERROR,
    on=(ev.Encored,),
)
def rule_encore_costs_three(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, ev.Encored)
    if e.via != "rule":
        return
    have = s.before.game.side(e.player).stock
    if e.stock != 3:
        yield Flag(
            e.seq,
            {
                "slot": e.slot,
                "detail": Text(ja=f"ストックを {e.stock} 枚払いました (3 枚のはず)", en=f"{e.stock} stock paid, not 3"),
            },
        )
    elif have < 3:
        yield if_known(
            Flag(
                e.seq,
                {
                    "slot": e.slot,
                    "detail": Text(
                        ja=f"ストックが {have} 枚しかなく、3 枚は払えません", en=f"only {have} stock to pay 3 from"
                    ),
                },
            ),
            s.before.game.known,
            UNKNOWN_BOARD,
        )


@rule(
    code="WS-ENC-004",
    name="encore-returns-rested-to-its-slot",
    severity=Severity.ERROR,
    on=(ev.Encored,),
    options=("encore_rested_same_slot",),
)
def encore_returns_to_its_slot(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, ev.Encored)
    if not option(s.options, ENCORE_SAME_SLOT):
        return
    before = s.before.game
    side = before.side(e.player)
    if e.slot not in side.retired and not before.known:
        yield undecided(e.seq, UNKNOWN_BOARD)
    elif e.slot not in side.retired or e.slot in side.stage:
        yield Flag(
            e.seq,
            {
                "slot": e.slot,
                "detail": Text(
                    ja="その枠から離れたキャラがいないか、枠が埋まっています",
                    en="no character left that slot, or it is occupied",
                ),
            },
        )
    elif not e.rested:
        yield Flag(
            e.seq,
            {"slot": e.slot, "detail": Text(ja="キャラがスタンドして戻りました", en="the character returned standing")},
        )


RULES = (
    encore_turn_player_first,
    encore_until_none_reversed,
    rule_encore_costs_three,
    encore_returns_to_its_slot,
)
