"""World Trigger rules of what a use needs before its effect happens: the trigger is set, turned face up
and paid for (ボーダー隊員ソロランク戦ゲーム（仮） ■5 戦術フェイズ 手順1–2, and ■2 for initial-distance effects)."""

from __future__ import annotations

from collections import Counter
from typing import Any
from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, rule
from kifu.events.i18n import Msg

from ..events import EffectUsed, InitialTriggerUsed, TriggerRevealed
from .common import cat, face_up, set_slot, slots, unknown, who


@rule(
    code="WT-REVEAL-001",
    name="reveal-pays-its-trion",
    severity=Severity.ERROR,
    on=(TriggerRevealed,),
)
def reveal_pays_its_trion(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, TriggerRevealed)
    a = who(s)
    ev = {"player": e.player, "trigger": e.trigger, **_RECORDING}
    slot = set_slot(a, e.trigger, face_down_first=True)
    t = cat(s).trigger(e.trigger)
    if slot is None:
        yield Flag(e.seq, {**ev, "why": "it is not set", "why_ja": "セットされていません"})
    elif face_up(a, slot):
        yield Flag(e.seq, {**ev, "why": "it is already face up", "why_ja": "既に表向きです"})
    elif t is None:
        yield Flag(e.seq, unknown(e.trigger), undecided=True)
    elif e.trion != t.reveal:
        yield Flag(
            e.seq,
            {
                **ev,
                "why": f"paid {e.trion} trion, the reveal cost is {t.reveal}",
                "why_ja": f"支払い {e.trion}、表向きのコストは {t.reveal} です",
            },
        )
    elif a.dealt_seq is not None and a.trion < e.trion:
        yield Flag(
            e.seq,
            {
                **ev,
                **_UNPAYABLE,
                "why": f"the cost is {e.trion} but only {a.trion} trion is left",
                "why_ja": f"コスト {e.trion} に対し残トリオンは {a.trion} です",
            },
        )


# What follows from each kind of problem: only an unpayable cost keeps the trigger face down (■5 手順1);
# the others are recordings that disagree with the table's own facts.
_UNPAYABLE = {
    "then": "it stays face down and its effect does not happen",
    "then_ja": "表向きにならず、効果も発揮されません",
}
_RECORDING = {
    "then": "the recording disagrees with the triggers set and the catalogue's reveal cost",
    "then_ja": "記録がセットしたトリガーやカタログの表向きコストと食い違います",
}


@rule(
    code="WT-USE-001",
    name="face-down-trigger-has-no-effect",
    severity=Severity.ERROR,
    on=(EffectUsed,),
)
def face_down_has_no_effect(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, EffectUsed)
    a = who(s)
    held = slots(a, e.trigger)
    if held and not any(face_up(a, slot) for slot in held):
        yield Flag(e.seq, {"player": e.player, "trigger": e.trigger, "effect": e.effect}, about=("use", e.seq))


@rule(
    code="WT-USE-002",
    name="used-trigger-is-set",
    severity=Severity.ERROR,
    on=(EffectUsed,),
)
def used_trigger_is_set(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, EffectUsed)
    a = who(s)
    ev = {"player": e.player, "trigger": e.trigger, "effect": e.effect}
    eff = cat(s).effect(e.trigger, e.effect)
    if a.set_main is None and a.set_sub is None:
        yield Flag(e.seq, {"reason": Msg("reason.wt.no_set", player=e.player)}, undecided=True, about=("use", e.seq))
    elif set_slot(a, e.trigger) is None or a.set_turn != s.before.game.turn:
        yield Flag(
            e.seq,
            {
                **ev,
                "why": "it is not one of the triggers set this turn",
                "why_ja": "このターンにセットしたトリガーではありません",
            },
            about=("use", e.seq),
        )
    elif eff is None:
        yield Flag(e.seq, unknown(e.trigger, e.effect), undecided=True, about=("use", e.seq))
    elif eff.requires is not None and eff.requires not in a.build_main + a.build_sub:
        yield Flag(
            e.seq,
            {
                **ev,
                "why": f"the effect needs the option {eff.requires}, which is not in the build",
                "why_ja": f"この効果にはオプション {eff.requires} が必要ですが、トリガーセットにありません",
            },
            about=("use", e.seq),
        )


def _cost_problem(
    s: Step, paid_trion: int, paid_tags: list[str], cost_trion: int, cost_tags: list[str], check_hand: bool
) -> dict[str, Any] | None:
    """Why a payment falls short, in English and Japanese; None when it is paid in full."""
    a = who(s)
    if paid_trion != cost_trion:
        return {
            "why": f"paid {paid_trion} trion, the cost is {cost_trion}",
            "why_ja": f"支払ったトリオン {paid_trion}、コストは {cost_trion}",
        }
    if Counter(paid_tags) != Counter(cost_tags):
        return {"why": Msg("text.wt.paid_tags", paid=sorted(paid_tags), cost=sorted(cost_tags))}
    if a.dealt_seq is not None and a.trion < paid_trion:
        return {"why": f"only {a.trion} trion was left", "why_ja": f"残トリオンは {a.trion} しかありません"}
    missing = Counter(paid_tags) - Counter(a.tags)
    if check_hand and missing:
        return {"why": Msg("text.wt.tags_not_held", tags=sorted(missing.elements()), hand=sorted(a.tags))}
    return None


@rule(
    code="WT-USE-003",
    name="effect-cost-paid-in-full",
    severity=Severity.ERROR,
    on=(EffectUsed, InitialTriggerUsed),
    options=("tags_expire",),
)
def effect_cost_paid(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, (EffectUsed, InitialTriggerUsed))
    eff = cat(s).effect(e.trigger, e.effect)
    if eff is None:
        yield Flag(e.seq, unknown(e.trigger, e.effect), undecided=True, about=("use", e.seq))
        return
    if isinstance(e, InitialTriggerUsed) and eff.timing != "initial":
        return  # WT-INIT-003 reports it: a wt.init.use has no tags to pay a tactics effect's cost with
    tags = e.tags if isinstance(e, EffectUsed) else []
    why = _cost_problem(s, e.trion, tags, eff.trion, eff.tags, isinstance(e, EffectUsed))
    if why:
        yield Flag(e.seq, {"player": e.player, "trigger": e.trigger, "effect": e.effect, **why}, about=("use", e.seq))


RULES = (
    reveal_pays_its_trion,
    face_down_has_no_effect,
    used_trigger_is_set,
    effect_cost_paid,
)
