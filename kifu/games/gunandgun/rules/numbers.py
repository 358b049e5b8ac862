"""ガンナガン (seed 000 coin-toss variant): N replaces the effect's numbers.

Sources: seed 000 §基本ルール 2, §ルール適用の例外, §追加コストについて, 裁定例 (計略, 過焔地獄,
徹甲榴弾, リロード・サポーター, ノイズジェネレーター, 緊急回避, 相撃ち), FAQ (0 の場合).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Iterable

from kifu.auditor.base import Doc, End, Hit, Severity, Step, Text, end_rule, rule

from .. import events as ev
from .facts import (
    expected_values,
    facts_of,
    game,
    n_choices,
    numbers,
    player_gun,
    selects_alternative,
    sequence_over,
    threshold,
    unknown,
    value_of,
)

RULING = "seed 000 §基本ルール 2 / 裁定例 (徹甲榴弾, 相撃ち, 過焔地獄, ノイズジェネレーター)"
ROLES = {"draw": "draw", "load": "load", "burn": "burn", "heal": "heal", "hit": "hit", "hit_mod": "hit_mod"}


def _card_of(s: Step) -> tuple[Any, Any]:
    st = game(s.before)
    a = st.acts.get(s.event.act)
    if a is None or a.kind in ("gunner", "gun"):
        return None, None
    return a, facts_of(st, a, s.event.card)


@rule(
    code="GG-NUM-001", name="effect-numbers-use-n", severity=Severity.ERROR, citation=RULING,
    title=Text(ja="効果の数値はすべて同じ N に置き換える", en="every replaceable number of the effect becomes N"),
    message=Text(ja="{card} を N={n} で処理するなら数値は {want} ですが、記録は {got} です",
                 en="{card} resolved with N={n} should use {want}, but the log says {got}"),
    on=(ev.EffectResolved,),
    doc=Doc(checks="The values an activation resolves with are N for each number the variant replaces (amounts, "
                   "thresholds, additional costs, limits imposed on the opponent) and the printed number for the "
                   "rest. A card the catalogue lacks, or values that do not line up with the catalogue's numbers, "
                   "cannot be decided (info).",
            why="One toss sets every number of the effect (徹甲榴弾: threshold 3 and HIT+3 for N=3; 相撃ち; 過焔地獄).",
            bad="徹甲榴弾 N=3; resolve values=[4,3]", good="徹甲榴弾 N=3; resolve values=[3,3]"),
)
def effect_numbers_use_n(s: Step) -> Iterable[Hit]:
    a, f = _card_of(s)
    if a is None or s.event.values is None:
        return
    card = s.event.card or a.card
    if f is None:
        yield unknown(s.event.seq, f"{card} is not in the card catalogue")
        return
    want = expected_values(f, s.event.n)
    if len(s.event.values) != len(want):
        yield unknown(s.event.seq, f"values {list(s.event.values)} do not line up with the {len(want)} numbers "
                                   f"of {card} in the catalogue")
    elif list(s.event.values) != want:
        yield Hit(s.event.seq, {"card": card, "n": s.event.n, "want": want, "got": list(s.event.values)})


@rule(
    code="GG-NUM-002", name="effect-does-not-exceed-n", severity=Severity.ERROR,
    citation="seed 000 §基本ルール 2 / 裁定例 (計略: 0回なら0枚) / FAQ コイントスの結果が0",
    title=Text(ja="効果の大きさは N で決まる", en="an effect does no more than N allows"),
    message=Text(ja="{card} ({act}) は N={n} で {role} {limit} までですが {done} 行われました",
                 en="{card} ({act}) allows {role} {limit} with N={n}, but {done} happened"),
    on=(ev.CardsDrawn, ev.Loaded, ev.BurnChanged, ev.LifeChanged, ev.HitModified),
    doc=Doc(checks="Cards drawn, cards loaded, burn counters given, life healed, HIT dealt and HIT modifiers that "
                   "an activation's effect records add up to no more than its numbers under N.",
            why="N=0 means 0 cards, 0 damage: the card was processed, but its effect does nothing. A load effect "
                "over several guns gives each gun up to N (each stops at its cap); copies of a function each apply N; "
                "a lasting HIT modifier from a turn toss group (スパイラル・シューター, バレットキャッチ) is N on "
                "every shot it applies to.",
            bad="計略 N=0; draw 3 (a1)", good="計略 N=3; draw 3 (a1)"),
)
def effect_does_not_exceed_n(s: Step) -> Iterable[Hit]:
    e = s.event
    aid = getattr(e, "act", None)
    st = game(s.after)
    a = st.acts.get(aid) if aid else None
    if a is None or a.kind in ("gunner", "gun") or a.outcome == "fizzled":
        return
    if a.resolved is None and not sequence_over(st, a, s.options):
        return  # N is not known yet; a log without gg.resolve is judged once its tosses ended
    role = _role(e)
    f = facts_of(st, a)
    limit = value_of(f, a.n, role) if f is not None and role else None
    if limit is not None:
        limit *= a.copies  # one N applies to every copy of a function (seed 000 【機能】)
    done = a.effects.get(_effect_key(e, st), 0)
    if isinstance(e, ev.HitModified) and limit is not None and e.to is None and abs(e.delta) != limit:
        done = abs(e.delta)  # a HIT modifier is exactly its number under N (緊急回避 N=2 → HIT-2)
        yield Hit(e.seq, {"card": a.card, "act": a.id, "n": a.n, "role": "exactly " + role, "limit": limit,
                          "done": done}, (a.resolved or a.seq,))
    elif isinstance(e, ev.HitModified) and a.kind.startswith("group-"):
        return  # a lasting modifier (スパイラル・シューター, バレットキャッチ) applies N to every shot of its turn
    elif limit is not None and done > limit:
        yield Hit(e.seq, {"card": a.card, "act": a.id, "n": a.n, "role": role, "limit": limit, "done": done},
                  (a.resolved or a.seq,))


def _role(e: Any) -> str | None:
    if isinstance(e, ev.LifeChanged):
        return {"hit": "hit", "heal": "heal"}.get(e.why)
    return {ev.CardsDrawn: "draw", ev.Loaded: "load", ev.BurnChanged: "burn", ev.HitModified: "hit_mod"}[type(e)]


def _effect_key(e: Any, st: Any) -> str:
    if isinstance(e, ev.Loaded):
        g = player_gun(st, e.player, e.gun)
        return "load:" + (g.name if g else e.gun)  # a load effect over several guns gives each gun up to N (seed 000)
    if isinstance(e, ev.LifeChanged):
        return "heal" if e.why == "heal" else "hit"
    return {ev.CardsDrawn: "draw", ev.Loaded: "load", ev.BurnChanged: "burn", ev.HitModified: "hit_mod"}[type(e)]


@rule(
    code="GG-NUM-003", name="threshold-compares-with-n", severity=Severity.ERROR,
    citation="seed 000 裁定例 (徹甲榴弾: 装填数が3以上の場合 HIT+3; 相撃ち: 1HIT以上与えられる場合) / 【対応】 (発動条件)",
    title=Text(ja="条件の閾値も N に置き換えて判定する", en="a threshold is replaced by N before it is compared"),
    message=Text(ja="{card}: {measured} {op} {threshold} (N={n}) は {want} ですが、{got}",
                 en="{card}: {measured} {op} {threshold} (N={n}) is {want}, but {got}"),
    on=(ev.EffectResolved, ev.HitModified, ev.LifeChanged),
    doc=Doc(checks="A resolution's verdict on its threshold (`holds`) matches the comparison with the threshold "
                   "under N, and no HIT or HIT modifier is recorded for an activation whose threshold failed. "
                   "The measured quantity is the log's `measured`, else read from the state as the card's "
                   "condition says (the firing gun's loads for 徹甲榴弾, the incoming HIT for 相撃ち, the "
                   "owner's life for life conditions). A threshold that only picks between two HIT numbers "
                   "(起死回生: N HIT, or N HIT instead when life ≤ N) never forbids the HIT.",
            why="The seed's rulings replace thresholds too: 徹甲榴弾 with N=3 adds HIT+3 only with 3 or more "
                "loaded; 相撃ち with N=1 fires on 1 HIT or more.",
            bad="徹甲榴弾 N=3, 2 loaded; hit +3", good="徹甲榴弾 N=2, 2 loaded; hit +2"),
)
def threshold_compares_with_n(s: Step) -> Iterable[Hit]:
    e = s.event
    st = game(s.before)
    if isinstance(e, ev.EffectResolved):
        a = st.acts.get(e.act)
        t = threshold(st, a, e) if a is not None and a.kind not in ("gunner", "gun") else None
        if t is None or e.holds is None or t[3] == e.holds:
            return
        yield _threshold_hit(e.seq, a, e.n, t, f"the table judged it {e.holds}")
        return
    a = st.acts.get(e.act) if e.act else None
    if a is None or (isinstance(e, ev.LifeChanged) and e.why != "hit"):
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
        yield _threshold_hit(e.seq, a, a.n, t, "its HIT was applied anyway", (a.resolved or a.seq,))


def _threshold_hit(seq: int, a: Any, n: int, t: tuple[int, int, str, bool], got: str, seqs: tuple[int, ...] = ()) -> Hit:
    return Hit(seq, {"card": a.card, "measured": t[0], "op": "≥" if t[2] == "ge" else "≤", "threshold": t[1],
                     "n": n, "want": t[3], "got": got}, seqs)


EXACT_ROLES = ("draw", "burn")


def _exact_numbers(f: Any) -> bool:
    """An unconditional action whose draw/burn numbers are plain counts (not 'up to', not a target size)."""
    if getattr(f, "kind", None) != "action" or getattr(f, "condition", ""):
        return False
    return not any(x.role in EXACT_ROLES and ("added" in x.note or "target" in x.note) for x in numbers(f))


@end_rule(
    code="GG-NUM-004", name="effect-does-all-that-n-says", severity=Severity.WARNING,
    citation="seed 000 §基本ルール 2 / 裁定例 (計略: 3回 → カードを3枚引く; 過焔地獄: バーンカウンターを2個)",
    title=Text(ja="N で決まった枚数・個数をそのまま行う", en="an action draws and burns exactly what N says"),
    message=Text(ja="{card} ({act}) は N={n} で {role} {want} のはずが {done} でした",
                 en="{card} ({act}) with N={n} should {role} {want}, but {done} was recorded"),
    doc=Doc(checks="For an unconditional action card resolved with the right N, the cards drawn and the burn "
                   "counters given under its activation (`act`) add up to at least its numbers under N (more is "
                   "GG-NUM-002; a player whose deck ran out is excused). A warning: a log may have left the "
                   "effect's events untagged.",
            why="N replaces the number: 計略 with N=3 draws 3, not the printed count and not fewer.",
            bad="計略 N=3; draw 2 (a1)", good="計略 N=3; draw 3 (a1)"),
)
def effect_does_all_that_n_says(end: End) -> Iterable[Hit]:
    st = game(end.final)
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
                yield Hit(a.resolved, {"card": a.card, "act": a.id, "n": a.rn, "role": role, "want": want,
                                       "done": done}, (a.seq,))


RULES = (effect_numbers_use_n, effect_does_not_exceed_n, threshold_compares_with_n, effect_does_all_that_n_says)
