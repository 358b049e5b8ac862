"""ガンナガン (トスで決まる枚数ルール): N replaces the effect's numbers.

Sources: トスで決まる枚数ルール §基本ルール 2, §ルール適用の例外, §追加コストについて, 裁定例 (計略, 過焔地獄,
徹甲榴弾, リロード・サポーター, ノイズジェネレーター, 緊急回避, 相撃ち), FAQ (0 の場合).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any
from collections.abc import Iterable

from kifu.auditor.base import End, Flag, Severity, Step, end_rule, rule
from kifu.events.i18n import Msg

from .. import events as ev
from .facts import (
    activation,
    expected_values,
    facts_of,
    n_choices,
    numbers,
    player_gun,
    selects_alternative,
    sequence_over,
    threshold,
    unknown,
    value_of,
)

ROLES = {"draw": "draw", "load": "load", "burn": "burn", "heal": "heal", "hit": "hit", "hit_mod": "hit_mod"}


def _card_of(s: Step) -> tuple[Any, Any]:
    st = s.before.game
    a = st.acts.get(s.event.act)
    if a is None or a.kind in ("gunner", "gun"):
        return None, None
    return a, facts_of(st, a, s.event.card)


@rule(
    code="GG-NUM-001",
    name="effect-numbers-use-n",
    severity=Severity.ERROR,
    on=(ev.EffectResolved,),
    general=True,
)
def effect_numbers_use_n(s: Step) -> Iterable[Flag]:
    a, f = _card_of(s)
    if a is None or s.event.values is None:
        return
    card = s.event.card or a.card
    if f is None:
        yield unknown(s.event.seq, Msg("reason.gg.card_unknown", card=card), about=("act", a.id))
        return
    want = expected_values(f, s.event.n)
    if len(s.event.values) != len(want):
        yield unknown(
            s.event.seq,
            Msg("reason.gg.values_misaligned", values=list(s.event.values), count=len(want), card=card),
            about=("act", a.id),
        )
    elif list(s.event.values) != want:
        # which numbers are wrong: where another rule judges one of them (the additional cost, GG-COST-002) at
        # this event, the one wrong number is one finding, that rule's (``general``)
        wrong = tuple(("number", x.role) for x, w, g in zip(numbers(f), want, s.event.values, strict=True) if w != g)
        yield Flag(
            s.event.seq,
            {
                "card": card,
                "what": activation(s.start, s.before.game, a),
                "n": s.event.n,
                "want": want,
                "got": list(s.event.values),
            },
            about=("act", a.id),
            facts=wrong,
        )


@rule(
    code="GG-NUM-002",
    name="effect-does-not-exceed-n",
    severity=Severity.ERROR,
    on=(ev.CardsDrawn, ev.Loaded, ev.BurnChanged, ev.LifeChanged, ev.HitModified, ev.CardsMoved),
)
def effect_does_not_exceed_n(s: Step) -> Iterable[Flag]:
    # Watches every draw, load, life and burn change, most of them no activation's effect: a plain function.
    aid = s.event.act
    a = s.after.game.acts.get(aid) if aid else None
    if a is None or a.kind in ("gunner", "gun") or a.outcome == "fizzled":
        return ()
    return _effect_within_n(s, a)


def _effect_within_n(s: Step, a: Any) -> Iterable[Flag]:
    e = s.event
    st = s.after.game
    if a.resolved is None and not sequence_over(st, a, s.options):
        return  # N is not known yet; a log without gg.resolve is judged once its tosses ended
    role = _role(e)
    f = facts_of(st, a)
    limit = value_of(f, a.n, role) if f is not None and role else None
    if limit is not None:
        limit *= a.copies  # one N applies to every copy of a function (トスで決まる枚数ルール 【機能】)
    done = a.effects.get(_effect_key(e, st), 0)
    if isinstance(e, ev.HitModified) and limit is not None and e.to is None and abs(e.delta) != limit:
        done = abs(e.delta)  # a HIT modifier is exactly its number under N (緊急回避 N=2 → HIT-2)
        yield Flag(
            e.seq,
            {
                "card": a.card or Msg("word.gg.continuous"),
                "act": a.id,
                "what": activation(s.start, st, a),
                "n": a.n,
                "role": Msg("text.gg.exactly", role=_word(role)),
                "limit": limit,
                "done": done,
            },
            (a.resolved or a.seq,),
            about=("act", a.id),
        )
    elif isinstance(e, ev.HitModified) and a.kind.startswith("group-"):
        return  # a lasting modifier (スパイラル・シューター, バレットキャッチ) applies N to every shot of its turn
    elif limit is not None and done > limit:
        yield Flag(
            e.seq,
            {
                "card": a.card or Msg("word.gg.continuous"),
                "act": a.id,
                "what": activation(s.start, st, a),
                "n": a.n,
                "role": _word(role),
                "limit": limit,
                "done": done,
            },
            (a.resolved or a.seq,),
            about=("act", a.id),
        )


def _word(role: str) -> Msg:
    """What an effect's number counts (draw, load, burn, heal, HIT …), as a word of the message's language."""
    return Msg(f"word.gg.role.{role}")


def _role(e: Any) -> str | None:
    if isinstance(e, ev.LifeChanged):
        return {"hit": "hit", "heal": "heal"}.get(e.why)
    if isinstance(e, ev.CardsMoved):
        return "volt" if "voltage" in (e.zone, e.to) else None  # クールダウン: N voltage cards to the hand
    return {ev.CardsDrawn: "draw", ev.Loaded: "load", ev.BurnChanged: "burn", ev.HitModified: "hit_mod"}[type(e)]


def _effect_key(e: Any, st: Any) -> str:
    if isinstance(e, ev.Loaded):
        g = player_gun(st, e.player, e.gun)
        return "load:" + (
            g.name if g else e.gun
        )  # a load effect over several guns gives each gun up to N (トスで決まる枚数ルール)
    if isinstance(e, ev.LifeChanged):
        return "heal" if e.why == "heal" else "hit"
    if isinstance(e, ev.CardsMoved):
        return "move:" + e.to
    return {ev.CardsDrawn: "draw", ev.Loaded: "load", ev.BurnChanged: "burn", ev.HitModified: "hit_mod"}[type(e)]


@rule(
    code="GG-NUM-003",
    name="threshold-compares-with-n",
    severity=Severity.ERROR,
    on=(ev.EffectResolved, ev.HitModified, ev.LifeChanged),
)
def threshold_compares_with_n(s: Step) -> Iterable[Flag]:
    # Watches every HIT and life change; only a recorded verdict or an activation's effect is judged.
    e = s.event
    if type(e) is ev.EffectResolved:
        return () if e.holds is None else _verdict_recorded(s)
    if e.act is None or (type(e) is ev.LifeChanged and e.why != "hit"):
        return ()
    return _threshold_applied(s)


def _verdict_recorded(s: Step) -> Iterable[Flag]:
    """GG-NUM-003 at a resolution that records whether the threshold holds: as the card compares it with N."""
    e = s.event
    st = s.before.game
    a = st.acts.get(e.act)
    t = threshold(st, a, e) if a is not None and a.kind not in ("gunner", "gun") else None
    if t is not None and t[3] != e.holds:
        yield _threshold_hit(e.seq, a, e.n, t, Msg("text.gg.judged", holds=_holds(e.holds)))


def _threshold_applied(s: Step) -> Iterable[Flag]:
    """GG-NUM-003 at an effect applied: only where the threshold under N holds."""
    e = s.event
    st = s.before.game
    a = st.acts.get(e.act)
    if a is None:
        return
    if a.resolved is not None:
        if a.kind == "response":
            return  # a resolved response that fails is GG-RESP-001's, at its resolution
        n = a.rn
    elif sequence_over(st, a, s.options):
        n = a.n  # no gg.resolve line: the tosses say N
    else:
        return
    if selects_alternative(facts_of(st, a)):
        return  # 起死回生: the threshold only picks which HIT; under one N both are N, so HIT is due either way
    t = threshold(st, a, SimpleNamespace(n=n, measured=a.measured, cmp=a.cmp, card=None))
    if t is not None and not t[3] and a.holds is not True:  # a wrong `holds: true` was flagged at the resolve
        yield _threshold_hit(e.seq, a, a.n, t, Msg("text.gg.applied_anyway"), (a.resolved or a.seq,))


def _threshold_hit(
    seq: int, a: Any, n: int, t: tuple[int, int, str, bool], got: Msg, seqs: tuple[int, ...] = ()
) -> Flag:
    return Flag(
        seq,
        {
            "card": a.card or Msg("word.gg.continuous"),
            "measured": t[0],
            "op": "≥" if t[2] == "ge" else "≤",
            "threshold": t[1],
            "n": n,
            "want": _holds(t[3]),
            "got": got,
        },
        seqs,
        about=("act", a.id),
    )


def _holds(holds: bool) -> Msg:
    return Msg("text.gg.holds" if holds else "text.gg.fails")


EXACT_ROLES = ("draw", "burn")


def _exact_numbers(f: Any) -> bool:
    """An unconditional action whose draw/burn numbers are plain counts (not 'up to', not a target size)."""
    if getattr(f, "kind", None) != "action" or getattr(f, "condition", ""):
        return False
    return not any(x.role in EXACT_ROLES and ("added" in x.note or "target" in x.note) for x in numbers(f))


@end_rule(
    code="GG-NUM-004",
    name="effect-does-all-that-n-says",
    severity=Severity.ERROR,
)
def effect_does_all_that_n_says(end: End) -> Iterable[Flag]:
    st = end.final.game
    for a in st.acts.values():
        if a.kind != "action" or a.resolved is None or a.outcome != "applied" or a.rn is None:
            continue
        f = facts_of(st, a)
        p = st.players.get(a.player)
        if f is None or not _exact_numbers(f) or (p is not None and p.failed_draw is not None):
            continue
        if a.rn not in n_choices(st, a, end.options) or not sequence_over(st, a, end.options):
            continue  # a wrong N is reported by GG-TOSS-003/004 at the resolution
        for role in EXACT_ROLES:
            want = value_of(f, a.rn, role)
            done = a.effects.get(role, 0)
            if want is not None and done < want:
                yield Flag(
                    a.resolved,
                    {
                        "card": a.card,
                        "act": a.id,
                        "what": activation(end.start, st, a),
                        "n": a.rn,
                        "role": _word(role),
                        "want": want,
                        "done": done,
                    },
                    (a.seq,),
                    about=("act", a.id),
                )


RULES = (effect_numbers_use_n, effect_does_not_exceed_n, threshold_compares_with_n, effect_does_all_that_n_says)
