"""Weiss Schwarz attack phase: declaration, trigger, counter and battle (damage is ``damage``, encore ``encore``).

Source: WSターンの流れ §アタックフェイズ A (アタック宣言), B (トリガー), C (カウンター), E (バトル);
reference B1 #6, B4, B6 #7–#10, #12.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kifu.auditor.base import Flag, Severity, Step, Text, rule
from kifu.events.i18n import Msg

from .. import events as ev
from ..projection import Attack, Slot, State
from .common import (
    BATTLE_TIE,
    CLOSERS,
    COUNTER_BY,
    KIND_JA,
    ROLE_JA,
    STATE_JA,
    UNKNOWN_BOARD,
    attack_named,
    facing,
    if_known,
    option,
    step_ja,
)


@rule(
    code="WS-ATK-001",
    name="attacker-is-a-standing-center-character",
    severity=Severity.ERROR,
    on=(ev.AttackDeclared,),
)
def attacker_stands_in_center(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, ev.AttackDeclared)
    before = s.before.game
    slot = before.side(e.player).stage.get(e.slot)
    if e.slot not in ev.CENTER:
        yield Flag(
            e.seq,
            {
                "slot": e.slot,
                "detail": Text(ja="アタックできるのは前列のキャラだけです", en="only center-stage characters attack"),
            },
        )
    elif slot is None:
        yield if_known(
            Flag(e.seq, {"slot": e.slot, "detail": Text(ja="そこにキャラがいません", en="no character is there")}),
            before.known,
            UNKNOWN_BOARD,
        )
    elif slot.state != "stand":
        again = e.slot in before.attackers
        yield Flag(
            e.seq,
            {
                "slot": e.slot,
                "detail": Text(
                    ja=f"そこの {slot.card} は{STATE_JA[slot.state]}していて、スタンドしていません"
                    + ("。このターンにもうアタックしています" if again else ""),
                    en=f"{slot.card} there is {_STATE_WORD[slot.state]}, not standing"
                    + (", it attacked already this turn" if again else ""),
                ),
            },
        )


_STATE_WORD = {"rest": "rested", "reverse": "reversed", "stand": "standing"}


@rule(
    code="WS-ATK-002",
    name="first-player-first-turn-attacks-once",
    severity=Severity.ERROR,
    on=(ev.AttackDeclared,),
)
def first_turn_attacks_once(s: Step) -> Iterable[Flag]:
    before = s.before.game
    if before.turn == 1 and before.attacks >= 1:
        yield Flag(s.event.seq, {"n": before.attacks + 1, "player": before.turn_player})


@rule(
    code="WS-ATK-003",
    name="direct-attack-only-against-an-empty-column",
    severity=Severity.ERROR,
    on=(ev.AttackDeclared,),
)
def direct_only_against_empty(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, ev.AttackDeclared)
    before = s.before.game
    opposing = before.side(before.opponent(e.player)).stage.get(e.slot)
    if (e.kind == "direct") == (opposing is None):
        return
    hit = Flag(
        e.seq,
        {
            "kind": Text(ja=KIND_JA[e.kind], en=e.kind),
            "slot": e.slot,
            "opposing": opposing.card if opposing else Text(ja="いません", en="absent"),
        },
    )
    yield if_known(hit, before.known or opposing is not None, UNKNOWN_BOARD)


@rule(
    code="WS-ATK-004",
    name="trigger-step-reveals-the-top-card",
    severity=Severity.ERROR,
    on=(ev.StepStarted,) + CLOSERS,
)
def trigger_step_reveals(s: Step) -> Iterable[Flag]:
    before = s.before.game
    if before.step == "trigger" and before.attack is not None and before.attack.reveals == 0:
        yield Flag(
            s.event.seq,
            {"attack": before.attack.seq, "what": attack_named(before, before.attack)},
            (before.attack.seq,),
        )


@rule(
    code="WS-ATK-006",
    name="trigger-card-goes-to-stock",
    severity=Severity.ERROR,
    on=(ev.TriggerRevealed,),
)
def trigger_card_goes_to_stock(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, ev.TriggerRevealed)
    if e.to != "stock" and not {"treasure", "choice"} & set(e.icons):
        yield Flag(e.seq, {"player": e.player, "to": e.to, "icons": ", ".join(e.icons) or Msg("text.ws.no_icon")})


@rule(
    code="WS-ATK-005",
    name="counter-step-only-on-front-attacks-by-the-defender",
    severity=Severity.ERROR,
    on=(ev.StepStarted, ev.Countered),
    options=("counter_by",),
)
def counter_only_on_front(s: Step) -> Iterable[Flag]:
    before = s.before.game
    attack = before.attack
    e = s.event
    if isinstance(e, ev.StepStarted):
        if e.step == "counter" and (attack is None or attack.kind != "front"):
            yield Flag(
                e.seq,
                {
                    "detail": Text(
                        ja=f"{KIND_JA[attack.kind]}アタックの後にカウンターステップが来ました"
                        if attack
                        else "アタックがないのにカウンターステップが来ました",
                        en=f"a counter step after a {attack.kind if attack else 'missing'} attack",
                    )
                },
            )
        return
    assert isinstance(e, ev.Countered)
    yield from _counter_problems(before, attack, e, str(option(s.options, COUNTER_BY)))


def _counter_players(attack: Attack, counter_by: str) -> tuple[str, ...]:
    return {"defender": (attack.defender,), "turn-player": (attack.player,)}.get(
        counter_by, (attack.defender, attack.player)
    )


COUNTER_BY_JA = {"defender": "防御側", "turn-player": "ターンプレイヤー", "either": "どちらかのプレイヤー"}


def _counter_problems(before: State, attack: Attack | None, e: ev.Countered, counter_by: str) -> Iterable[Flag]:
    if before.step != "counter" or attack is None:
        detail = Text(
            ja=f"カウンターステップの外 ({step_ja(before.step)}) でプレイされました",
            en=f"played outside a counter step (step {before.step})",
        )
    elif attack.kind != "front":
        detail = Text(
            ja=f"{KIND_JA[attack.kind]}アタックに対してプレイされました", en=f"played against a {attack.kind} attack"
        )
    elif e.player not in _counter_players(attack, counter_by):
        detail = Msg(
            "text.ws.counter_by", player=e.player, by=Msg(f"word.ws.counter_by.{counter_by}"), defender=attack.defender
        )
    elif attack.counters >= 1:
        detail = Text(ja="1 回のアタックに対する 2 回目のカウンターです", en="a second counter against one attack")
    else:
        return
    yield Flag(e.seq, {"detail": detail})


# --- battle ----------------------------------------------------------------------


def expected_reversed(attacker: int, defender: int, tie: str) -> list[str]:
    """Who a battle reverses by WSターンの流れ E.4 (the lower) and the tie option."""
    if attacker < defender:
        return ["attacker"]
    if defender < attacker:
        return ["defender"]
    return ["attacker", "defender"] if tie == "both" else []


@rule(
    code="WS-BTL-001",
    name="battle-reverses-the-lower-power",
    severity=Severity.ERROR,
    on=(ev.BattleResolved,),
    options=("battle_tie",),
)
def battle_reverses_lower(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, ev.BattleResolved)
    before = s.before.game
    pair = facing(before)
    if pair is None:
        return
    want = expected_reversed(e.attacker_power, e.defender_power, str(option(s.options, BATTLE_TIE)))
    if sorted(set(e.reversed)) != want:
        attacker, defender = _named(before, pair)
        yield Flag(
            e.seq,
            {
                "attacker": attacker,
                "defender": defender,
                "attacker_power": e.attacker_power,
                "defender_power": e.defender_power,
                "expected": reversal(want),
                "recorded": reversal(e.reversed),
            },
        )


def reversal(roles: Sequence[str]) -> Text:
    """Who a battle reverses, as a message says it: ``attacker+defender``, or nobody."""
    return Text(ja="+".join(ROLE_JA.get(r, r) for r in roles) or "なし", en="+".join(roles) or "nobody")


def _named(state: State, pair: tuple[Slot, Slot]) -> tuple[Msg, Msg]:
    """(Aoi (p1) C2 Mikoto, Ren (p2) C2 Yuji): who fought, for the judge reading the finding."""
    a = state.attack
    assert a is not None  # the pair is facing(state)
    named = (
        Msg("text.ws.fighter", player=p, slot=a.slot, card=slot.card) for p, slot in zip((a.player, a.defender), pair)
    )
    return tuple(named)  # type: ignore[return-value]  # a pair in, a pair out


@rule(
    code="WS-BTL-002",
    name="battle-only-when-both-characters-remain",
    severity=Severity.ERROR,
    on=(ev.BattleResolved, ev.StepStarted) + CLOSERS,
)
def battle_only_when_both_remain(s: Step) -> Iterable[Flag]:
    before = s.before.game
    e = s.event
    if isinstance(e, ev.BattleResolved):
        if e.reversed and facing(before) is None:
            left = Text(
                ja="片方のキャラが舞台を離れていたのに、キャラがリバースされました",
                en="a character was reversed though one side had left the stage",
            )
            yield if_known(Flag(e.seq, {"detail": left}), before.known, UNKNOWN_BOARD)
        return
    a = before.attack
    if before.step == "battle" and a is not None and a.battle_seq is None and facing(before) is not None:
        yield Flag(
            e.seq,
            {
                "detail": Text(
                    ja=f"seq {a.seq} のアタックのバトルステップが、パワーを比較せずに終わりました",
                    en=f"the battle step of the attack at seq {a.seq} ended without a comparison",
                )
            },
            (a.seq,),
        )


RULES = (
    attacker_stands_in_center,
    first_turn_attacks_once,
    direct_only_against_empty,
    trigger_step_reveals,
    trigger_card_goes_to_stock,
    counter_only_on_front,
    battle_reverses_lower,
    battle_only_when_both_remain,
)
