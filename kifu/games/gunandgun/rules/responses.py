"""ガンナガン (トスで決まる枚数ルール): response (【対応】) cards.

Sources: トスで決まる枚数ルール §カード処理ごとのトス実行タイミング (【対応】: 発動条件を満たさない場合はそのまま捨て札),
裁定例 緊急回避・相撃ち, FAQ (対応カードで発動条件を満たさなくなった場合); ガンナガン非公式wiki「ルール」 §1.8, F1.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, rule

from .. import events as ev
from .. import projection as proj
from .facts import activation, shot_named, threshold

EFFECTS = (ev.CardsDrawn, ev.Loaded, ev.BurnChanged, ev.LifeChanged, ev.HitModified, ev.CardsDiscarded)


@rule(
    code="GG-RESP-001",
    name="failed-response-goes-to-discard",
    severity=Severity.ERROR,
    on=(ev.EffectResolved,),
)
def failed_response_goes_to_discard(s: Step) -> Iterable[Flag]:
    e = s.event
    st = s.before.game
    a = st.acts.get(e.act)
    if a is None or a.kind != "response" or e.outcome != "applied":
        return
    t = threshold(st, a, e)
    holds = e.holds if e.holds is not None else (t[3] if t is not None else None)
    if holds is False:
        yield Flag(
            e.seq,
            {
                "card": a.card,
                "act": a.id,
                "what": activation(s.start, st, a),
                "measured": e.measured if t is None else t[0],
                "n": e.n,
            },
            (a.seq,),
            about=("act", a.id),
        )


@rule(
    code="GG-RESP-002",
    name="fizzled-response-has-no-effect",
    severity=Severity.ERROR,
    on=EFFECTS,
)
def fizzled_response_has_no_effect(s: Step) -> Iterable[Flag]:
    # Watches every effect, most of them no activation's: a plain function.
    aid = s.event.act
    a = s.before.game.acts.get(aid) if aid else None
    if a is None or a.outcome != "fizzled":
        return ()
    if isinstance(s.event, ev.CardsDiscarded) and s.event.zone == "set":
        return ()  # the fizzled card itself going to the discard is what should happen
    return (
        Flag(
            s.event.seq,
            {
                "card": a.card,
                "act": a.id,
                "what": activation(s.start, s.before.game, a),
                "res": a.resolved,
                "seq": s.event.seq,
            },
            (a.resolved or a.seq,),
            about=("act", a.id),
        ),
    )


@rule(
    code="GG-RESP-003",
    name="response-set-then-declared-against-opponent",
    severity=Severity.ERROR,
    on=(ev.ResponseDeclared,),
)
def response_set_then_declared_against_opponent(s: Step) -> Iterable[Flag]:
    e = s.event
    st = s.before.game
    p = st.players.get(e.player)
    a = st.acts.get(e.act)
    why = why_ja = None
    if p is None or a is None or a.kind != "response" or e.act not in p.set or a.player != e.player:
        why, why_ja = "no such response is set face down", "その【対応】は裏向きでセットされていません"
    elif st.active == e.player:
        why, why_ja = "it is the declarer's own turn", "宣言したプレイヤー自身のターンです"
    elif e.against is not None:
        target = st.shots.get(e.against) or st.acts.get(e.against)
        if target is None or target.player == e.player:
            why = f"{e.against} is not a shot or skill of the opponent"
            why_ja = f"{e.against} は相手の射撃・技能ではありません"
    if why:
        yield Flag(e.seq, {"player": e.player, "act": e.act, "why": why, "why_ja": why_ja}, about=("act", e.act))


@rule(
    code="GG-RESP-004",
    name="responses-resolve-last-declared-first",
    severity=Severity.ERROR,
    on=(ev.EffectResolved,),
)
def responses_resolve_last_declared_first(s: Step) -> Iterable[Flag]:
    st = s.before.game
    a = st.acts.get(s.event.act)
    if a is None or a.kind != "response" or a.declared is None or a.resolved is not None or a.shot is None:
        return
    later = [
        x
        for x in st.acts.values()
        if x.kind == "response"
        and x.shot == a.shot
        and x.declared is not None
        and x.declared > a.declared
        and x.resolved is None
    ]
    if later:
        yield Flag(
            s.event.seq,
            {
                "act": a.id,
                "what": activation(s.start, st, a),
                "declared": a.declared,
                "later": later[0].id,
                "other": activation(s.start, st, later[0]),
            },
            (a.declared, later[0].declared),
            about=("act", a.id),
        )


def _blockers(st: Any, shot: Any) -> list[str]:
    """What on this shot forbids responses: the gun's own effect, or a face-up bullet's."""
    found = [shot.gun] if getattr(proj.gun_facts(st, shot.gun), "no_responses", False) else []
    bullets = list(shot.up) + [a.card for a in st.acts.values() if a.kind == "bullet" and a.shot == shot.id]
    found += [b for b in dict.fromkeys(bullets) if getattr(proj.card_facts(st, b), "no_responses", False)]
    return found


@rule(
    code="GG-RESP-005",
    name="no-response-to-unanswerable-shot",
    severity=Severity.ERROR,
    on=(ev.ResponseDeclared,),
)
def no_response_to_unanswerable_shot(s: Step) -> Iterable[Flag]:
    e = s.event
    st = s.before.game
    shot = st.shots.get(e.against or st.last_shot or "")
    if shot is None or shot.player == e.player:
        return
    by = _blockers(st, shot)
    if by:
        yield Flag(
            e.seq,
            {"player": e.player, "shot": shot.id, "target": shot_named(s.start, shot), "by": "、".join(by)},
            (shot.seq,),
            about=("act", e.act),
        )


RULES = (
    failed_response_goes_to_discard,
    fizzled_response_has_no_effect,
    response_set_then_declared_against_opponent,
    responses_resolve_last_declared_first,
    no_response_to_unanswerable_shot,
)
