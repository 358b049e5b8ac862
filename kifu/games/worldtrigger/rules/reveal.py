"""World Trigger rules of what a use needs before its effect happens: the trigger is set, turned face up
and paid for (seed 002 ■5 戦術フェイズ 手順1–2, and ■2 for initial-distance effects)."""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from kifu.auditor.base import Doc, Hit, Severity, Step, Text, rule

from ..events import EffectUsed, InitialTriggerUsed, TriggerRevealed
from .common import STEP1, STEP2, cat, cite, face_up, set_slot, slots, unknown, who


@rule(
    code="WT-REVEAL-001",
    name="reveal-pays-its-trion",
    severity=Severity.ERROR,
    citation=cite(f"{STEP1} (表向きにする際にトリオンが必要なトリガーはトリオンチップを支払う)"),
    title=Text(ja="表向きにするにはトリオンを支払う", en="turning a trigger face up pays its trion"),
    message=Text(
        ja="{player} の {trigger} の表向き: {why_ja} — {then_ja}",
        en="{player} turning {trigger} face up: {why}; {then}",
    ),
    on=(TriggerRevealed,),
    doc=Doc(
        checks=Text(
            ja="`wt.reveal` が、そのプレイヤーがセットした裏向きのトリガーを挙げ、"
               "カタログの表向きにするコストちょうどのトリオンを支払い、そのプレイヤーにそれだけのトリオンがあること"
               "。",
            en="`wt.reveal` names a face-down trigger the player has set, pays exactly the catalogue's reveal cost, "
               "and the player has that much trion.",
        ),
        why=Text(
            ja="seed 002 ■5 手順1: 裏向きのトリガーはまず表向きにし、必要ならトリオンを支払う。"
               "支払えないプレイヤーは表向きにできず、効果も発揮されない。",
            en="Seed 002 ■5 step 1: a face-down trigger is turned face up first, paying trion if it needs some; a "
               "player who cannot pay cannot turn it up and its effect does not happen.",
        ),
        bad=Text(
            ja='a のトリオンは 2; {"type":"wt.reveal","player":"a","trigger":"メテオラ","trion":3}',
            en='a has 2 trion; {"type":"wt.reveal","player":"a","trigger":"メテオラ","trion":3}',
        ),
        good=Text(
            ja='a のトリオンは 40; {"type":"wt.reveal","player":"a","trigger":"メテオラ","trion":3}',
            en='a has 40 trion; {"type":"wt.reveal","player":"a","trigger":"メテオラ","trion":3}',
        ),
    ),
)
def reveal_pays_its_trion(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, TriggerRevealed)
    a = who(s)
    ev = {"player": e.player, "trigger": e.trigger, **_RECORDING}
    slot = set_slot(a, e.trigger, face_down_first=True)
    t = cat(s).trigger(e.trigger)
    if slot is None:
        yield Hit(e.seq, {**ev, "why": "it is not set", "why_ja": "セットされていません"})
    elif face_up(a, slot):
        yield Hit(e.seq, {**ev, "why": "it is already face up", "why_ja": "既に表向きです"})
    elif t is None:
        yield Hit(e.seq, unknown(e.trigger), undecided=True)
    elif e.trion != t.reveal:
        yield Hit(e.seq, {**ev, "why": f"paid {e.trion} trion, the reveal cost is {t.reveal}",
                          "why_ja": f"支払い {e.trion}、表向きのコストは {t.reveal} です"})
    elif a.dealt_seq is not None and a.trion < e.trion:
        yield Hit(e.seq, {**ev, **_UNPAYABLE, "why": f"the cost is {e.trion} but only {a.trion} trion is left",
                          "why_ja": f"コスト {e.trion} に対し残トリオンは {a.trion} です"})


# What follows from each kind of problem: only an unpayable cost keeps the trigger face down (■5 手順1);
# the others are recordings that disagree with the table's own facts.
_UNPAYABLE = {"then": "it stays face down and its effect does not happen",
              "then_ja": "表向きにならず、効果も発揮されません"}
_RECORDING = {"then": "the recording disagrees with the triggers set and the catalogue's reveal cost",
              "then_ja": "記録がセットしたトリガーやカタログの表向きコストと食い違います"}


@rule(
    code="WT-USE-001",
    name="face-down-trigger-has-no-effect",
    severity=Severity.ERROR,
    citation=cite(f"{STEP1} (使用するトリガーが裏向きの場合、表向きにする)"),
    title=Text(ja="裏向きのトリガーの効果は使えない", en="a face-down trigger's effect cannot be used"),
    message=Text(
        ja="{player} は裏向きの {trigger} の効果 {effect} を使いました (先に wt.reveal で表向きにしてトリオンを支払う)",
        en="{player} used {effect} of {trigger} while it was face down (reveal it, paying its trion, first)",
    ),
    on=(EffectUsed,),
    doc=Doc(
        checks=Text(
            ja="`wt.use` (対抗使用を含む) のトリガーが、使用時に表向きであること。",
            en="The trigger of a `wt.use` (counter-uses included) is face up when used.",
        ),
        why=Text(
            ja="seed 002 ■5 手順1: 裏向きのトリガーは、効果の前にトリオンを支払って表向きにする。"
               "そうしなければ効果は発揮されない。",
            en="Seed 002 ■5 step 1: a face-down trigger is turned face up, paying its trion, before its effect; "
               "otherwise the effect is not exerted.",
        ),
        bad=Text(
            ja='wt.set main アステロイド (裏向き); {"type":"wt.use","trigger":"アステロイド",…}',
            en='wt.set main アステロイド (face down); {"type":"wt.use","trigger":"アステロイド",…}',
        ),
        good='wt.reveal アステロイド trion 2; {"type":"wt.use","trigger":"アステロイド",…}',
    ),
)
def face_down_has_no_effect(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, EffectUsed)
    a = who(s)
    held = slots(a, e.trigger)
    if held and not any(face_up(a, slot) for slot in held):
        yield Hit(e.seq, {"player": e.player, "trigger": e.trigger, "effect": e.effect})


@rule(
    code="WT-USE-002",
    name="used-trigger-is-set",
    severity=Severity.ERROR,
    citation=cite("■5 (４でセットしたトリガーのトリガー能力を使用)"),
    title=Text(ja="使えるのはセットしたトリガーの効果だけ", en="only a set trigger's effects are used"),
    message=Text(
        ja="{player} の {trigger}/{effect}: {why_ja}",
        en="{player}'s {trigger}/{effect}: {why}",
    ),
    on=(EffectUsed,),
    doc=Doc(
        checks=Text(
            ja="`wt.use` が、そのプレイヤーがこのターンにセットした 2 枚のトリガーの 1 つと、"
               "そのトリガーが持つ効果を挙げていること。専用オプションの効果 (旋空) なら、"
               "トリガーセットにそのオプションがあること。",
            en="A `wt.use` names one of the two triggers the player set this turn, an effect that trigger has, and, "
               "for an option's effect (旋空), a build that holds the option.",
        ),
        why=Text(
            ja="seed 002 ■5: 戦術フェイズでは、手順4 でセットしたトリガーのトリガー能力を使用する。",
            en="Seed 002 ■5: in the tactics phase the player uses the abilities of the triggers set in step 4.",
        ),
        bad=Text(
            ja='セットは 弧月 / シールド; {"type":"wt.use","trigger":"アステロイド",…}',
            en='set 弧月 / シールド; {"type":"wt.use","trigger":"アステロイド",…}',
        ),
        good=Text(
            ja='セットは 弧月 / シールド; {"type":"wt.use","trigger":"弧月","effect":"斬撃",…}',
            en='set 弧月 / シールド; {"type":"wt.use","trigger":"弧月","effect":"斬撃",…}',
        ),
    ),
)
def used_trigger_is_set(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, EffectUsed)
    a = who(s)
    ev = {"player": e.player, "trigger": e.trigger, "effect": e.effect}
    eff = cat(s).effect(e.trigger, e.effect)
    if a.set_main is None and a.set_sub is None:
        yield Hit(e.seq, {"reason": f"no wt.set of {e.player} is recorded"}, undecided=True)
    elif set_slot(a, e.trigger) is None or a.set_turn != s.before.game.turn:
        yield Hit(e.seq, {**ev, "why": "it is not one of the triggers set this turn",
                          "why_ja": "このターンにセットしたトリガーではありません"})
    elif eff is None:
        yield Hit(e.seq, unknown(e.trigger, e.effect), undecided=True)
    elif eff.requires is not None and eff.requires not in a.build_main + a.build_sub:
        yield Hit(e.seq, {**ev, "why": f"the effect needs the option {eff.requires}, which is not in the build",
                          "why_ja": f"この効果にはオプション {eff.requires} が必要ですが、トリガーセットにありません"})


def _cost_problem(s: Step, paid_trion: int, paid_tags: list[str], cost_trion: int, cost_tags: list[str],
                  check_hand: bool) -> dict[str, str] | None:
    """Why a payment falls short, in English and Japanese; None when it is paid in full."""
    a = who(s)
    if paid_trion != cost_trion:
        return {"why": f"paid {paid_trion} trion, the cost is {cost_trion}",
                "why_ja": f"支払ったトリオン {paid_trion}、コストは {cost_trion}"}
    if Counter(paid_tags) != Counter(cost_tags):
        return {"why": f"paid tags {sorted(paid_tags)}, the cost is {sorted(cost_tags)}",
                "why_ja": f"支払ったタグ {sorted(paid_tags)}、コストは {sorted(cost_tags)}"}
    if a.dealt_seq is not None and a.trion < paid_trion:
        return {"why": f"only {a.trion} trion was left", "why_ja": f"残トリオンは {a.trion} しかありません"}
    missing = Counter(paid_tags) - Counter(a.tags)
    if check_hand and missing:
        return {"why": f"tags {sorted(missing.elements())} were not in hand (hand: {sorted(a.tags)})",
                "why_ja": f"タグ {sorted(missing.elements())} を持っていません (手持ち: {sorted(a.tags)})"}
    return None


@rule(
    code="WT-USE-003",
    name="effect-cost-paid-in-full",
    severity=Severity.ERROR,
    citation=cite(f"{STEP2} (支払うことができない場合、トリガーの効果は発揮されません); ■2 (トリオンチップを支払います)"),
    title=Text(ja="効果のコストを全て支払う", en="an effect's cost is paid in full"),
    message=Text(
        ja="{player} の {trigger}/{effect}: {why_ja} — コスト未払いの効果は発揮されません",
        en="{player}'s {trigger}/{effect}: {why}; an unpaid effect does not happen",
    ),
    on=(EffectUsed, InitialTriggerUsed),
    options=("tags_expire",),
    doc=Doc(
        checks=Text(
            ja="`wt.use` や `wt.init.use` が、カタログのコストちょうどのトリオンと行動タグを支払い、"
               "そのプレイヤーにそれだけのトリオンがあり、支払ったタグがすべて手元にあること。初期距離の効果でない "
               "`wt.init.use` は WT-INIT-003 に任せる。",
            en="A `wt.use` or `wt.init.use` pays exactly the catalogue cost in trion and tags, the player has that "
               "much trion, and every tag paid is in hand. A `wt.init.use` of an effect that is not an "
               "initial-distance effect is left to WT-INIT-003.",
        ),
        why=Text(
            ja="seed 002 ■5 手順2: 効果に記載されているコスト (トリオン、行動タグ) を支払う。"
               "支払えなければ効果は発揮されない。■2: 初期距離の効果もトリオンを支払う。",
            en="Seed 002 ■5 step 2: pay the costs written on the effect (trion, action tags); if they cannot be paid,"
               " the effect is not exerted. ■2: initial-distance effects are paid in trion too.",
        ),
        bad=Text(
            ja='手元のタグ [move]; {"type":"wt.use","trigger":"アステロイド","effect":"射撃","trion":2,'
               '"tags":["shooting"]}',
            en='hand [move]; {"type":"wt.use","trigger":"アステロイド","effect":"射撃","trion":2,"tags":["shooting"]}',
        ),
        good=Text(
            ja='手元のタグ [shooting]; {"type":"wt.use","trigger":"アステロイド","effect":"射撃","trion":2,'
               '"tags":["shooting"]}',
            en='hand [shooting]; {"type":"wt.use","trigger":"アステロイド","effect":"射撃","trion":2,'
               '"tags":["shooting"]}',
        ),
    ),
)
def effect_cost_paid(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, (EffectUsed, InitialTriggerUsed))
    eff = cat(s).effect(e.trigger, e.effect)
    if eff is None:
        yield Hit(e.seq, unknown(e.trigger, e.effect), undecided=True)
        return
    if isinstance(e, InitialTriggerUsed) and eff.timing != "initial":
        return  # WT-INIT-003 reports it: a wt.init.use has no tags to pay a tactics effect's cost with
    tags = e.tags if isinstance(e, EffectUsed) else []
    why = _cost_problem(s, e.trion, tags, eff.trion, eff.tags, isinstance(e, EffectUsed))
    if why:
        yield Hit(e.seq, {"player": e.player, "trigger": e.trigger, "effect": e.effect, **why})


RULES = (
    reveal_pays_its_trion,
    face_down_has_no_effect,
    used_trigger_is_set,
    effect_cost_paid,
)
