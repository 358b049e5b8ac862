"""World Trigger rules of the counter chain: who is asked first, the order effects resolve in, and
effects that did not happen dealing no damage (ボーダー隊員ソロランク戦ゲーム（仮） ■5 戦術フェイズ 手順1–3)."""

from __future__ import annotations

from collections import Counter
from typing import Any
from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, rule

from ..events import CounterPassed, EffectResolved, EffectUsed, TrionChanged
from ..projection import State, other
from .common import cat


def _asked_first(s: Step, g: State) -> str:
    mode = s.options.get("counter_first", "latest")
    return (g.chain[0] if mode == "initiator" else g.chain[-1]).player


@rule(
    code="WT-CTR-001",
    name="counter-use-asked-from-declarer-first",
    severity=Severity.ERROR,
    on=(EffectUsed, CounterPassed),
    options=("counter_first",),
)
def counter_asked_from_declarer(s: Step) -> Iterable[Flag]:
    e = s.event
    g = s.before.game
    if isinstance(e, EffectUsed) and e.counter is None or not g.chain:
        return
    first = _asked_first(s, g)
    ev: dict[str, Any] = {
        "decl": g.chain[-1].seq,
        "first": first,
        "player": e.player,
        "rule": s.options.get("counter_first", "latest"),
    }
    passed = isinstance(e, CounterPassed)
    if not g.passes and e.player != first:
        what = (
            {"what": "passed", "what_ja": "パスしました"}
            if passed
            else {"what": "counter-used", "what_ja": "対抗使用しました"}
        )
        yield Flag(e.seq, {**ev, **what}, seqs=(g.chain[-1].seq,))
    elif set(g.passes) >= {first, other(g, first)} and not passed:
        yield Flag(
            e.seq,
            {**ev, "what": "counter-used after both players passed", "what_ja": "両者がパスした後に対抗使用しました"},
            seqs=(g.chain[-1].seq,),
        )


@rule(
    code="WT-CTR-002",
    name="resolve-last-declared-first",
    severity=Severity.ERROR,
    on=(EffectResolved,),
)
def resolve_last_declared_first(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, EffectResolved)
    pending = [d for d in s.before.game.chain if not d.resolved]
    expected = pending[-1].seq if pending else None
    if e.of == expected:
        return
    if expected is None:
        why = (
            "no declaration is open: a later event (a new declaration, a plot, the next turn order) already "
            "closed its chain, so record wt.resolve before it"
        )
        why_ja = (
            "開いている宣言がありません: 後のイベント (新しい宣言、プロット、次のターンの先攻決定) が連鎖を閉じています。"
            "wt.resolve はその前に記録します"
        )
    else:
        why, why_ja = (
            f"the last declared open one is seq {expected}",
            f"先に適用するのは最後に宣言された seq {expected} です",
        )
    yield Flag(e.seq, {"of": e.of, "expected": expected, "why": why, "why_ja": why_ja})


@rule(
    code="WT-CTR-003",
    name="resolution-waits-for-both-players-to-decline",
    severity=Severity.ERROR,
    on=(EffectResolved,),
)
def resolution_waits_for_passes(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, EffectResolved)
    g = s.before.game
    if not g.chain or any(d.resolved for d in g.chain):
        return
    missing = [p for p in g.agents if p not in g.passes]
    if missing:
        yield Flag(e.seq, {"of": e.of, "decl": g.chain[-1].seq, "missing": list(missing)}, seqs=(g.chain[-1].seq,))


VOID = {
    "face-down": (
        "its trigger's reveal could not be paid, so it stayed face down",
        "トリガーの表向きのトリオンを支払えず、裏向きのままでした",
    ),
    "trion": ("its trion could not be paid", "トリオンを支払えませんでした"),
    "tags": ("its tags were not in hand", "タグを持っていませんでした"),
    "cancelled": ("a counter-use cancelled it", "対抗使用で打ち消されました"),
    "cost": ("its cost was not paid as the catalogue says", "カタログ通りのコストが支払われていません"),
}


@rule(
    code="WT-TRION-002",
    name="effect-without-effect-deals-no-damage",
    severity=Severity.ERROR,
    on=(TrionChanged,),
)
def void_effect_deals_no_damage(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, TrionChanged)
    rec = s.before.game.uses_this_turn.get(e.source) if e.source is not None else None
    if rec is None or e.delta >= 0:
        return
    reason = rec.void
    eff = cat(s).effect(rec.trigger, rec.effect)
    if reason is None and eff is not None and (rec.trion != eff.trion or Counter(rec.tags) != Counter(eff.tags)):
        reason = "cost"
    if reason is not None:
        why, why_ja = VOID[reason]
        yield Flag(
            e.seq,
            {
                "player": e.player,
                "delta": e.delta,
                "source": e.source,
                "trigger": rec.trigger,
                "effect": rec.effect,
                "why": why,
                "why_ja": why_ja,
            },
            seqs=(e.source,),
            follows=(("use", e.source),),
        )


RULES = (
    counter_asked_from_declarer,
    resolve_last_declared_first,
    resolution_waits_for_passes,
    void_effect_deals_no_damage,
)
