"""Weiss Schwarz attack phase: declaration, trigger, counter and battle (damage is ``damage``, encore ``encore``).

Source: seed 003 §アタックフェイズ A (アタック宣言), B (トリガー), C (カウンター), E (バトル);
reference B1 #6, B4, B6 #7–#10, #12.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from kifu.auditor.base import Doc, Hit, Severity, Step, Text, rule

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
    facing,
    game,
    if_known,
    option,
    step_ja,
)

ATK = "seed 003 §アタックフェイズ"


@rule(
    code="WS-ATK-001",
    name="attacker-is-a-standing-center-character",
    severity=Severity.ERROR,
    citation=f"{ATK} A.3 (攻撃できるかどうかはスタンドされているか); reference B1 #6, B6 #7",
    title=Text(ja="アタックするのはスタンドしている前列のキャラ", en="the attacker is a standing center-stage character"),
    message=Text(ja="{slot} のアタック宣言: {detail}", en="attack declared from {slot}, but {detail}"),
    on=(ev.AttackDeclared,),
    doc=Doc(
        checks=Text(
            ja="アタックする枠が、アタックするプレイヤーのキャラがいる前列の枠で、そのキャラがスタンドしていること。",
            en="The attacking slot is a center slot holding a character of the attacker, and it is standing.",
        ),
        why=Text(
            ja="seed 003 A.3: 攻撃できるかどうかは基本的にスタンドしているかで決まる。"
               "アタック宣言でキャラはレストする。",
            en="Seed 003 A.3: whether a character can attack is decided by its being stood; it is rested on "
               "declaration.",
        ),
        bad=Text(
            ja="C1 はもうアタックした (レスト); ws.attack C1",
            en="C1 attacked already (rested); ws.attack C1",
        ),
        good="ws.attack C1; … ws.attack C2",
    ),
)
def attacker_stands_in_center(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, ev.AttackDeclared)
    before = game(s.before)
    slot = before.side(e.player).stage.get(e.slot)
    if e.slot not in ev.CENTER:
        yield Hit(e.seq, {"slot": e.slot, "detail": Text(ja="アタックできるのは前列のキャラだけです",
                                                         en="only center-stage characters attack")})
    elif slot is None:
        yield if_known(Hit(e.seq, {"slot": e.slot, "detail": Text(ja="そこにキャラがいません", en="no character is there")}),
                       before.known, UNKNOWN_BOARD)
    elif slot.state != "stand":
        again = e.slot in before.attackers
        yield Hit(e.seq, {"slot": e.slot, "detail": Text(
            ja=f"そこの {slot.card} は{STATE_JA[slot.state]}していて、スタンドしていません"
               + ("。このターンにもうアタックしています" if again else ""),
            en=f"{slot.card} there is {_STATE_WORD[slot.state]}, not standing"
               + (", it attacked already this turn" if again else ""),
        )})


_STATE_WORD = {"rest": "rested", "reverse": "reversed", "stand": "standing"}


@rule(
    code="WS-ATK-002",
    name="first-player-first-turn-attacks-once",
    severity=Severity.ERROR,
    citation="reference B1 #6, B6 #7 (simulator rules_coverage: starting player declares one attack)",
    title=Text(ja="先攻1ターン目のアタックは1回", en="the first player's first turn has one attack"),
    message=Text(
        ja="先攻の最初のターンに {n} 回目のアタックが宣言されました",
        en="attack number {n} was declared in the first player's first turn",
    ),
    on=(ev.AttackDeclared,),
    doc=Doc(
        checks=Text(
            ja="ターン番号 1 (先攻プレイヤーの最初のターン) に宣言するアタックは 1 回までであること。",
            en="In turn number 1 (the first player's first turn) at most one attack is declared.",
        ),
        why=Text(
            ja="先攻プレイヤーは最初のターンに 1 回しかアタックを宣言できない。",
            en="The starting player may declare only one attack on their first turn.",
        ),
        bad=Text(
            ja="1 ターン目: ws.attack C1; … ws.attack C2",
            en="turn 1: ws.attack C1; … ws.attack C2",
        ),
        good=Text(
            ja="1 ターン目: ws.attack C1; ws.step encore",
            en="turn 1: ws.attack C1; ws.step encore",
        ),
    ),
)
def first_turn_attacks_once(s: Step) -> Iterable[Hit]:
    before = game(s.before)
    if before.turn == 1 and before.attacks >= 1:
        yield Hit(s.event.seq, {"n": before.attacks + 1})


@rule(
    code="WS-ATK-003",
    name="direct-attack-only-against-an-empty-column",
    severity=Severity.ERROR,
    citation=f"{ATK} A.3 (ダイレクトアタック（正面に相手キャラがいない場合のみ）); reference B6 #8",
    title=Text(ja="ダイレクトアタックは正面に相手キャラがいないときだけ", en="direct attacks only against an empty column"),
    message=Text(
        ja="{kind}アタック ({slot}) ですが、正面の相手キャラは {opposing}",
        en="a {kind} attack from {slot}, but the opposing character is {opposing}",
    ),
    on=(ev.AttackDeclared,),
    doc=Doc(
        checks=Text(
            ja="ダイレクトアタックでは同じ列の相手の枠が空いていること。フロントアタックとサイドアタックではそこにキ"
               "ャラがいること。",
            en="A direct attack needs the opponent's slot in the same column to be empty; a front or side attack "
               "needs a character there.",
        ),
        why=Text(
            ja="seed 003 A.3: ダイレクトアタックは正面に相手キャラがいない場合のみ。"
               "フロントアタックとサイドアタックは正面のキャラに対して行う。",
            en="Seed 003 A.3: direct attack only when no opposing character stands in front; front and side attacks "
               "are made against the character in front.",
        ),
        bad=Text(
            ja="相手の C2 にキャラがいる; ws.attack C2 direct",
            en="opponent has C2; ws.attack C2 direct",
        ),
        good=Text(
            ja="相手の C2 にキャラがいる; ws.attack C2 front",
            en="opponent has C2; ws.attack C2 front",
        ),
    ),
)
def direct_only_against_empty(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, ev.AttackDeclared)
    before = game(s.before)
    opposing = before.side(before.opponent(e.player)).stage.get(e.slot)
    if (e.kind == "direct") == (opposing is None):
        return
    hit = Hit(e.seq, {"kind": Text(ja=KIND_JA[e.kind], en=e.kind), "slot": e.slot,
                      "opposing": opposing.card if opposing else Text(ja="いません", en="absent")})
    yield if_known(hit, before.known or opposing is not None, UNKNOWN_BOARD)


@rule(
    code="WS-ATK-004",
    name="trigger-step-reveals-the-top-card",
    severity=Severity.ERROR,
    citation=f"{ATK} B.3–5; reference B6 #9",
    title=Text(ja="トリガーステップで山札の上を公開", en="the trigger step reveals the deck's top card"),
    message=Text(
        ja="seq {attack} のアタックのトリガーステップでカードが公開されていません",
        en="the trigger step of the attack at seq {attack} revealed no card",
    ),
    on=(ev.StepStarted,) + CLOSERS,
    doc=Doc(
        checks=Text(
            ja="アタックのトリガーステップを抜けるときに、カードが 1 枚公開されている (`ws.reveal`) こと。",
            en="When the trigger step of an attack is left, one card has been revealed (`ws.reveal`).",
        ),
        why=Text(
            ja="seed 003 B.3: 甲は山札の上のカードを解決領域に置く (自動で行う処理で、任意ではない)。",
            en="Seed 003 B.3: 甲 puts the top card of the deck into the resolution zone (automatic, not optional).",
        ),
        bad="ws.step trigger; ws.step damage",
        good="ws.step trigger; ws.reveal; ws.step damage",
    ),
)
def trigger_step_reveals(s: Step) -> Iterable[Hit]:
    before = game(s.before)
    if before.step == "trigger" and before.attack is not None and before.attack.reveals == 0:
        yield Hit(s.event.seq, {"attack": before.attack.seq}, (before.attack.seq,))


@rule(
    code="WS-ATK-006",
    name="trigger-card-goes-to-stock",
    severity=Severity.ERROR,
    citation=f"{ATK} B.5 (トリガーに使ったカードをストックに置く); reference B1 #6, B4, B6 #9",
    title=Text(ja="トリガーに使ったカードはストックへ", en="the trigger card goes to stock"),
    message=Text(
        ja="トリガーのカードが {to} に置かれましたが、アイコン {icons} ではストックに置くはずです",
        en="the trigger card went to {to}, but with icons {icons} it goes to stock",
    ),
    on=(ev.TriggerRevealed,),
    doc=Doc(
        checks=Text(
            ja="公開したトリガーのカードがストックに置かれること。ただし宝 (treasure) "
               "やチョイスのアイコンが別の場所を指定する場合は除く。",
            en="The revealed trigger card goes to stock, unless a treasure or choice icon sends it elsewhere.",
        ),
        why=Text(
            ja="seed 003 B.5: トリガーに使ったカードはストックに置く (reference B4: 宝とチョイスは例外)。",
            en="Seed 003 B.5: the card used for the trigger is put into stock (reference B4: treasure and choice are "
               "the exceptions).",
        ),
        bad="ws.reveal icons=[soul] to=hand",
        good="ws.reveal icons=[soul] to=stock",
    ),
)
def trigger_card_goes_to_stock(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, ev.TriggerRevealed)
    if e.to != "stock" and not {"treasure", "choice"} & set(e.icons):
        yield Hit(e.seq, {"to": e.to, "icons": ", ".join(e.icons) or Text(ja="なし", en="none")})


@rule(
    code="WS-ATK-005",
    name="counter-step-only-on-front-attacks-by-the-defender",
    severity=Severity.ERROR,
    citation=f"{ATK} B.7 (フロントアタック→カウンターステップ), C; reference B1 #6, B6 #10",
    title=Text(ja="カウンターはフロントアタックに防御側が", en="counters only on front attacks, by the defender"),
    message=Text(ja="カウンター: {detail}", en="counter: {detail}"),
    on=(ev.StepStarted, ev.Countered),
    options=("counter_by",),
    doc=Doc(
        checks=Text(
            ja="カウンターステップはフロントアタックの後にだけ来ること。`ws.counter` はカウンターステップで、"
               "防御側のプレイヤー (オプション counter_by) が、1 回のアタックにつき 1 回までプレイすること。",
            en="A counter step follows only a front attack; a `ws.counter` is played in the counter step, by the "
               "defending player (option counter_by), at most once per attack.",
        ),
        why=Text(
            ja="seed 003 B.7 でカウンターステップへ進むのはフロントアタックだけ "
               "(ダイレクトとサイドはダメージステップへ)。参照資料 (B1、B6 #10) はカウンターを防御側に 1 回与える。"
               "seed 003 C.3 はそこを甲と書いているが、公式ルールと issue は防御側としており、kifu はそれに従う。",
            en="Seed 003 B.7 sends only front attacks to the counter step (direct and side go to damage). The "
               "reference (B1, B6 #10) gives the counter to the defender, once. Seed 003 C.3 writes 甲 there; the "
               "official rules and the issue say the defender, which kifu follows.",
        ),
        bad="ws.attack C1 side; ws.step trigger; ws.step counter",
        good=Text(
            ja="ws.attack C1 front; ws.step trigger; ws.step counter; ws.counter (防御側)",
            en="ws.attack C1 front; ws.step trigger; ws.step counter; ws.counter (defender)",
        ),
    ),
)
def counter_only_on_front(s: Step) -> Iterable[Hit]:
    before = game(s.before)
    attack = before.attack
    e = s.event
    if isinstance(e, ev.StepStarted):
        if e.step == "counter" and (attack is None or attack.kind != "front"):
            yield Hit(e.seq, {"detail": Text(
                ja=f"{KIND_JA[attack.kind]}アタックの後にカウンターステップが来ました" if attack
                else "アタックがないのにカウンターステップが来ました",
                en=f"a counter step after a {attack.kind if attack else 'missing'} attack",
            )})
        return
    assert isinstance(e, ev.Countered)
    yield from _counter_problems(before, attack, e, str(option(s.options, COUNTER_BY)))


def _counter_players(attack: Attack, counter_by: str) -> tuple[str, ...]:
    return {"defender": (attack.defender,), "turn-player": (attack.player,)}.get(
        counter_by, (attack.defender, attack.player))


COUNTER_BY_JA = {"defender": "防御側", "turn-player": "ターンプレイヤー", "either": "どちらかのプレイヤー"}


def _counter_problems(before: State, attack: Attack | None, e: ev.Countered, counter_by: str) -> Iterable[Hit]:
    if before.step != "counter" or attack is None:
        detail = Text(ja=f"カウンターステップの外 ({step_ja(before.step)}) でプレイされました",
                      en=f"played outside a counter step (step {before.step})")
    elif attack.kind != "front":
        detail = Text(ja=f"{KIND_JA[attack.kind]}アタックに対してプレイされました",
                      en=f"played against a {attack.kind} attack")
    elif e.player not in _counter_players(attack, counter_by):
        detail = Text(
            ja=f"{e.player} がプレイしましたが、プレイできるのは{COUNTER_BY_JA.get(counter_by, counter_by)}です "
               f"({attack.defender} が防御側)",
            en=f"played by {e.player}, not by the {counter_by} ({attack.defender} defends)",
        )
    elif attack.counters >= 1:
        detail = Text(ja="1 回のアタックに対する 2 回目のカウンターです", en="a second counter against one attack")
    else:
        return
    yield Hit(e.seq, {"detail": detail})


# --- battle ----------------------------------------------------------------------

BTL = f"{ATK} E"


def expected_reversed(attacker: int, defender: int, tie: str) -> list[str]:
    """Who a battle reverses by seed 003 E.4 (the lower) and the tie option."""
    if attacker < defender:
        return ["attacker"]
    if defender < attacker:
        return ["defender"]
    return ["attacker", "defender"] if tie == "both" else []


@rule(
    code="WS-BTL-001",
    name="battle-reverses-the-lower-power",
    severity=Severity.ERROR,
    citation=f"{BTL}.4 (比較し低いほうをリバースする); reference B1 #6, B6 #12",
    title=Text(ja="バトルはパワーの低い方をリバース", en="battle reverses the character with lower power"),
    message=Text(
        ja="{attacker} 対 {defender}、パワー {attacker_power} 対 {defender_power}: リバースは {expected} のはずが "
           "{recorded}",
        en="{attacker} against {defender}, power {attacker_power} against {defender_power}: {expected} should be "
           "reversed, the log has {recorded}",
    ),
    on=(ev.BattleResolved,),
    options=("battle_tie",),
    doc=Doc(
        checks=Text(
            ja="両方のキャラがいるとき、パワーの低いほうをリバースすること。同じパワーなら両方 (オプション "
               "battle_tie、既定は both。別の裁定をとる卓は `neither`)。",
            en="With both characters present, the lower power is reversed; on a tie both (option battle_tie, default "
               "both; `neither` for tables that rule otherwise).",
        ),
        why=Text(
            ja="seed 003 E.4: パワーを比較し、低いほうをリバースする。同値の扱いは seed に書かれていない (reference "
               "B1 [要確認])。",
            en="Seed 003 E.4: compare and reverse the lower one. The tie is not stated in the seed (reference B1 [to "
               "verify]).",
        ),
        bad="ws.battle attacker_power=3000 defender_power=2000 reversed=[attacker]",
        good="ws.battle attacker_power=3000 defender_power=2000 reversed=[defender]",
    ),
)
def battle_reverses_lower(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, ev.BattleResolved)
    before = game(s.before)
    pair = facing(before)
    if pair is None:
        return
    want = expected_reversed(e.attacker_power, e.defender_power, str(option(s.options, BATTLE_TIE)))
    if sorted(set(e.reversed)) != want:
        attacker, defender = _named(before, pair)
        yield Hit(e.seq, {"attacker": attacker, "defender": defender, "attacker_power": e.attacker_power,
                          "defender_power": e.defender_power, "expected": reversal(want),
                          "recorded": reversal(e.reversed)})


def reversal(roles: Sequence[str]) -> Text:
    """Who a battle reverses, as a message says it: ``attacker+defender``, or nobody."""
    return Text(ja="+".join(ROLE_JA.get(r, r) for r in roles) or "なし", en="+".join(roles) or "nobody")


def _named(state: State, pair: tuple[Slot, Slot]) -> tuple[str, str]:
    """("p1 C2 Mikoto", "p2 C2 Yuji"): who fought, for the judge reading the finding."""
    a = state.attack
    assert a is not None  # the pair is facing(state)
    named = (f"{p} {a.slot} {slot.card}" for p, slot in zip((a.player, a.defender), pair))
    return tuple(named)  # type: ignore[return-value]


@rule(
    code="WS-BTL-002",
    name="battle-only-when-both-characters-remain",
    severity=Severity.ERROR,
    citation=f"{BTL}.3–4 (両方のキャラが存在している場合…いなくなった場合は比較もリバースもしない); reference B1 #6",
    title=Text(ja="両方のキャラがいるときだけバトル", en="a battle happens only while both characters remain"),
    message=Text(ja="バトル: {detail}", en="battle: {detail}"),
    on=(ev.BattleResolved, ev.StepStarted) + CLOSERS,
    doc=Doc(
        checks=Text(
            ja="アタックしているキャラか防御側のキャラがいなくなっていれば、バトルで誰もリバースしないこと。"
               "両方が残っていれば、バトルステップが終わる前に比較 (`ws.battle`) すること。",
            en="A battle reverses nobody when the attacker or the defender has left; when both remain, the battle "
               "step compares them (`ws.battle`) before it ends.",
        ),
        why=Text(
            ja="seed 003 E.3〜4: 両方のキャラが存在している場合にパワーを比較する。"
               "何かしらの理由でキャラがいなくなった場合は、比較もリバースもしない。",
            en="Seed 003 E.3–4: the powers are compared if both characters exist; if one is gone there is no "
               "comparison and no reversal.",
        ),
        bad=Text(
            ja="防御側のキャラが手札に戻された; ws.step battle; ws.battle reversed=[defender]",
            en="defender bounced; ws.step battle; ws.battle reversed=[defender]",
        ),
        good=Text(
            ja="防御側のキャラが手札に戻された; ws.step battle; ws.step declare",
            en="defender bounced; ws.step battle; ws.step declare",
        ),
    ),
)
def battle_only_when_both_remain(s: Step) -> Iterable[Hit]:
    before = game(s.before)
    e = s.event
    if isinstance(e, ev.BattleResolved):
        if e.reversed and facing(before) is None:
            left = Text(ja="片方のキャラが舞台を離れていたのに、キャラがリバースされました",
                        en="a character was reversed though one side had left the stage")
            yield if_known(Hit(e.seq, {"detail": left}), before.known, UNKNOWN_BOARD)
        return
    a = before.attack
    if before.step == "battle" and a is not None and a.battle_seq is None and facing(before) is not None:
        yield Hit(e.seq, {"detail": Text(
            ja=f"seq {a.seq} のアタックのバトルステップが、パワーを比較せずに終わりました",
            en=f"the battle step of the attack at seq {a.seq} ended without a comparison",
        )}, (a.seq,))


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
