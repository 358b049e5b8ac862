"""Weiss Schwarz encore step: reversed characters leave, turn player first, and the rule encore.

Source: seed 003 §アタックフェイズ F (アンコールステップ: 甲のリバースカード → 乙のリバースカード,
リバースカードがなくなるまで繰り返す); reference B1 #7 (encore), B6 #16.
"""

from __future__ import annotations

from typing import Iterable

from kifu.auditor.base import Doc, Hit, Severity, Step, Text, rule

from .. import events as ev
from ..projection import State
from .attack import ATK
from .common import (
    CLOSERS,
    ENCORE_SAME_SLOT,
    STATE_JA,
    UNKNOWN_BOARD,
    closed_phase,
    game,
    if_known,
    option,
    undecided,
)

ENC = f"{ATK} F"


def _reversed(state: State, player: str | None) -> list[str]:
    return sorted(k for k, v in state.side(player).stage.items() if v.state == "reverse")


@rule(
    code="WS-ENC-001",
    name="encore-step-turn-player-first",
    severity=Severity.ERROR,
    citation=f"{ENC}.3–4 (甲のリバースカード → 乙のリバースカード); reference B1 #7",
    title=Text(ja="アンコールステップはターンプレイヤーから", en="the encore step handles the turn player's cards first"),
    message=Text(
        ja="{player} のリバースキャラが控室に置かれましたが、ターンプレイヤーのリバースキャラ {waiting} が残っています",
        en="{player}'s reversed character went to the waiting room while the turn player's {waiting} remained",
    ),
    on=(ev.CharacterRetired,),
    doc=Doc(
        checks=Text(
            ja="アンコールステップでは、ターンプレイヤーのリバースしているキャラがなくなってから、"
               "非ターンプレイヤーのリバースしているキャラを控室に置くこと。",
            en="In the encore step, the non-turn player's reversed characters go to the waiting room only after the "
               "turn player has none left.",
        ),
        why=Text(
            ja="seed 003 F.3〜4: まず甲のリバースカードを確認して控室に置き、次に乙のリバースカードを置く。",
            en="Seed 003 F.3–4: 甲's reversed cards are checked and put into the waiting room first, then 乙's.",
        ),
        bad=Text(
            ja="両者にリバースカードがある; 先に ws.retire (非ターンプレイヤー)",
            en="both have reversed cards; ws.retire (non-turn player) first",
        ),
        good=Text(
            ja="ws.retire (ターンプレイヤー); ws.retire (非ターンプレイヤー)",
            en="ws.retire (turn player); ws.retire (non-turn player)",
        ),
    ),
)
def encore_turn_player_first(s: Step) -> Iterable[Hit]:
    before = game(s.before)
    e = s.event
    assert isinstance(e, ev.CharacterRetired)
    if before.step != "encore" or e.player == before.turn_player:
        return
    waiting = _reversed(before, before.turn_player)
    if waiting:
        yield Hit(e.seq, {"player": e.player, "waiting": ", ".join(waiting)})


@rule(
    code="WS-ENC-002",
    name="encore-step-repeats-until-no-reversed-card-remains",
    severity=Severity.ERROR,
    citation=f"{ENC}.3–6; reference B6 #16",
    title=Text(ja="リバースカードがなくなるまでアンコールステップ", en="the encore step goes on until no reversed card remains"),
    message=Text(ja="アンコールステップ: {detail}", en="encore step: {detail}"),
    on=(ev.CharacterRetired,) + CLOSERS,
    doc=Doc(
        checks=Text(
            ja="アンコールステップで控室に置くのはリバースしているキャラだけで、"
               "どちらの舞台にもリバースしているキャラが残っていないときにだけアタックフェイズが終わること。",
            en="In the encore step only reversed characters are put into the waiting room, and the attack phase ends "
               "only when no reversed character remains on either stage.",
        ),
        why=Text(
            ja="seed 003 F.3〜6: リバースしているカードを選んで控室に置き、残っている間は繰り返す。6 では、"
               "リバースカードが残っていれば 3 に戻る。",
            en="Seed 003 F.3–6: choose a reversed card and put it into the waiting room, repeat while any remains; "
               "item 6 goes back to item 3 while reversed cards are left.",
        ),
        bad=Text(
            ja="C2 はリバース; ws.step encore; ws.phase.end attack",
            en="C2 reversed; ws.step encore; ws.phase.end attack",
        ),
        good=Text(
            ja="C2 はリバース; ws.step encore; ws.retire C2; ws.phase.end attack",
            en="C2 reversed; ws.step encore; ws.retire C2; ws.phase.end attack",
        ),
    ),
)
def encore_until_none_reversed(s: Step) -> Iterable[Hit]:
    before = game(s.before)
    e = s.event
    if isinstance(e, ev.CharacterRetired):
        slot = before.side(e.player).stage.get(e.slot)
        if before.step == "encore" and slot is not None and slot.state != "reverse":
            yield Hit(e.seq, {"detail": Text(
                ja=f"{e.player} の {e.slot} は{STATE_JA[slot.state]}していて、リバースしていません",
                en=f"{e.player}'s {e.slot} is {slot.state}, not reversed",
            )})
        return
    if closed_phase(s) != "attack":
        return
    left = [f"{p}:{k}" for p in before.players for k in _reversed(before, p)]
    if left:
        yield Hit(e.seq, {"detail": Text(
            ja=f"リバースしているキャラ {', '.join(left)} を残してアタックフェイズが終わりました",
            en=f"the attack phase ended with reversed characters {', '.join(left)}",
        )})


@rule(
    code="WS-ENC-003",
    name="rule-encore-costs-three-stock",
    severity=Severity.ERROR,
    citation="reference B1 #7 (all characters: [AUTO] Encore (3)), B6 #16",
    title=Text(ja="ルールのアンコールはストック3", en="the rule encore costs three stock"),
    message=Text(ja="{slot} のアンコール: {detail}", en="encore to {slot}: {detail}"),
    on=(ev.Encored,),
    doc=Doc(
        checks=Text(
            ja="ルールによるアンコールが、ストックをちょうど 3 枚、それだけあるストックから支払うこと。",
            en="An encore by the rule pays exactly 3 stock, from a stock that has them.",
        ),
        why=Text(
            ja="すべてのキャラはルールによるアンコールを持つ: 舞台から控室に置かれたとき、ストックを 3 "
               "枚払えば戻ってくる (reference B1 #7)。",
            en="Every character has the rule encore: pay 3 stock when it goes from the stage to the waiting room and "
               "it returns (reference B1 #7).",
        ),
        bad="ws.encore via=rule stock=2",
        good="ws.encore via=rule stock=3",
    ),
)
def rule_encore_costs_three(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, ev.Encored)
    if e.via != "rule":
        return
    have = game(s.before).side(e.player).stock
    if e.stock != 3:
        yield Hit(e.seq, {"slot": e.slot, "detail": Text(ja=f"ストックを {e.stock} 枚払いました (3 枚のはず)",
                                                         en=f"{e.stock} stock paid, not 3")})
    elif have < 3:
        yield if_known(Hit(e.seq, {"slot": e.slot, "detail": Text(ja=f"ストックが {have} 枚しかなく、3 枚は払えません",
                                                                  en=f"only {have} stock to pay 3 from")}),
                       game(s.before).known, UNKNOWN_BOARD)


@rule(
    code="WS-ENC-004",
    name="encore-returns-rested-to-its-slot",
    severity=Severity.ERROR,
    citation="reference B1 #7 [to verify], B6 #16",
    title=Text(ja="アンコールしたキャラは元の枠にレストで戻る", en="an encored character returns rested to the slot it left"),
    message=Text(ja="{slot} のアンコール: {detail}", en="encore to {slot}: {detail}"),
    on=(ev.Encored,),
    options=("encore_rested_same_slot",),
    doc=Doc(
        checks=Text(
            ja="アンコールが、直前にキャラが離れた枠を挙げ、その枠が空いていて、キャラがレストで戻ること (オプション "
               "encore_rested_same_slot、既定 true)。",
            en="An encore names a slot a character just left, that slot is empty, and the character returns rested "
               "(option encore_rested_same_slot, default true).",
        ),
        why=Text(
            ja="アンコールしたキャラは元いた枠にレストで戻る (reference B1 #7、要確認とされている)。",
            en="The encore puts the character back where it was, rested (reference B1 #7, marked to verify).",
        ),
        bad="ws.retire C1; ws.encore C3",
        good="ws.retire C1; ws.encore C1",
    ),
)
def encore_returns_to_its_slot(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, ev.Encored)
    if not option(s.options, ENCORE_SAME_SLOT):
        return
    before = game(s.before)
    side = before.side(e.player)
    if e.slot not in side.retired and not before.known:
        yield undecided(e.seq, UNKNOWN_BOARD)
    elif e.slot not in side.retired or e.slot in side.stage:
        yield Hit(e.seq, {"slot": e.slot, "detail": Text(ja="その枠から離れたキャラがいないか、枠が埋まっています",
                                                         en="no character left that slot, or it is occupied")})
    elif not e.rested:
        yield Hit(e.seq, {"slot": e.slot, "detail": Text(ja="キャラがスタンドして戻りました",
                                                         en="the character returned standing")})


RULES = (
    encore_turn_player_first,
    encore_until_none_reversed,
    rule_encore_costs_three,
    encore_returns_to_its_slot,
)
