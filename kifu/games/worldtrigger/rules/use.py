"""World Trigger rules of when, where and how often an effect is used: once per set trigger per tactics
phase, at its timing, at its distance, in one's own tactics phase (ボーダー隊員ソロランク戦ゲーム（仮） ■5 戦術フェイズ, 手順3 for counters)."""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, rule
from kifu.events.i18n import Msg

from ..events import EffectUsed, Moved
from ..projection import Decl, State
from .common import cat, distance_now, slots, unknown, who


@rule(
    code="WT-USE-004",
    name="effect-once-per-set-trigger-per-tactics-phase",
    severity=Severity.ERROR,
    on=(EffectUsed,),
    options=("use_limit",),
)
def effect_once_per_phase(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, EffectUsed)
    per_trigger = s.options.get("use_limit", "effect") == "trigger"
    earlier = [
        u.seq
        for u in s.before.game.used_this_phase
        if u.player == e.player and u.trigger == e.trigger and (per_trigger or u.effect == e.effect)
    ]
    copies = max(1, len(slots(who(s), e.trigger)))  # the limit is per set card: the same trigger set twice, twice
    if len(earlier) >= copies:
        yield Flag(
            e.seq,
            {"player": e.player, "trigger": e.trigger, "effect": e.effect, "earlier": earlier[-1]},
            seqs=tuple(earlier),
            about=("use", e.seq),
        )


def _open(g: State, seq: int | None) -> Decl | None:
    return next((d for d in g.chain if d.seq == seq and not d.resolved), None)


def _kind(s: Step, d: Decl) -> str | None:
    """What a declaration is (``move``, ``shooting`` …); None when its effect is not in the catalogue."""
    if d.trigger is None:
        return "move"
    eff = cat(s).effect(d.trigger, d.effect or "")
    return eff.kind if eff is not None else None


@rule(
    code="WT-USE-005",
    name="effect-used-at-its-timing",
    severity=Severity.ERROR,
    on=(EffectUsed,),
)
def effect_used_at_its_timing(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, EffectUsed)
    eff = cat(s).effect(e.trigger, e.effect)
    if eff is None:
        return  # WT-USE-002 reports the unknown effect once
    ev = {"player": e.player, "trigger": e.trigger, "effect": e.effect}
    if e.counter is None:
        if eff.timing != "tactics":
            yield Flag(e.seq, {**ev, "why": Msg("text.wt.not_tactics", timing=eff.timing)}, about=("use", e.seq))
        return
    target = _open(s.before.game, e.counter)
    if eff.timing != "counter":
        yield Flag(e.seq, {**ev, "why": Msg("text.wt.cannot_counter", timing=eff.timing)}, about=("use", e.seq))
    elif target is None:
        yield Flag(
            e.seq,
            {
                **ev,
                "why": f"seq {e.counter} is no open declaration",
                "why_ja": f"seq {e.counter} は未解決の宣言ではありません",
            },
            about=("use", e.seq),
        )
    elif _kind(s, target) is None:
        yield Flag(e.seq, unknown(target.trigger or "", target.effect), undecided=True, about=("use", e.seq))
    elif _kind(s, target) not in eff.against:
        yield Flag(
            e.seq,
            {**ev, "why": Msg("text.wt.counters", against=list(eff.against), kind=_kind(s, target))},
            seqs=(target.seq,),
            about=("use", e.seq),
        )


@rule(
    code="WT-USE-006",
    name="effect-distance-condition-holds",
    severity=Severity.ERROR,
    on=(EffectUsed,),
)
def effect_distance_condition(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, EffectUsed)
    eff = cat(s).effect(e.trigger, e.effect)
    g = s.before.game
    d = distance_now(g) if e.counter is None else g.distance
    if eff is None or d is None:
        return
    ev = {"player": e.player, "trigger": e.trigger, "effect": e.effect, "distance": d}
    if eff.distance is not None and not eff.distance[0] <= d <= eff.distance[1]:
        yield Flag(
            e.seq,
            {
                **ev,
                "why": f"its range is {eff.distance[0]}–{eff.distance[1]}",
                "why_ja": f"使用できる距離は {eff.distance[0]}〜{eff.distance[1]} です",
            },
            about=("use", e.seq),
        )
    elif e.to is not None and (abs(e.to - d) > eff.moves or not 1 <= e.to <= 6):
        yield Flag(
            e.seq,
            {
                **ev,
                "why": f"to={e.to} moves more than {eff.moves} or leaves 1–6",
                "why_ja": f"to={e.to} は移動量 {eff.moves} を超えるか 1〜6 の外です",
            },
            about=("use", e.seq),
        )


@rule(
    code="WT-TACT-001",
    name="declarations-in-own-tactics-phase",
    severity=Severity.ERROR,
    on=(EffectUsed, Moved),
)
def declarations_in_own_phase(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, (EffectUsed, Moved))
    if isinstance(e, EffectUsed) and e.counter is not None:
        return
    g = s.before.game
    if g.active is None and g.turn == 0:
        yield Flag(e.seq, {"reason": Msg("reason.wt.whose_phase")}, undecided=True, about=("use", e.seq))
    elif e.player != g.active or not g.in_tactics_phase:
        what = Msg("text.wt.a_move") if isinstance(e, Moved) else f"{e.trigger}/{e.effect}"
        yield Flag(
            e.seq, {"player": e.player, "what": what, "active": g.active or Msg("text.wt.nobody")}, about=("use", e.seq)
        )


RULES = (
    effect_once_per_phase,
    effect_used_at_its_timing,
    effect_distance_condition,
    declarations_in_own_phase,
)
