"""ガンナガン (トスで決まる枚数ルール): the toss sequence, N, and when to toss.

Sources: トスで決まる枚数ルール §概要, §基本ルール 2, §ルール適用の例外, §カード処理ごとのトス実行タイミング, FAQ.
"""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import End, Flag, Severity, Step, rule
from kifu.events.i18n import Msg

from .. import events as ev
from .. import projection as proj
from .costs import amount
from .facts import (
    activation,
    player_name,
    effective_n,
    expected_cost,
    facts_of,
    load_cap,
    n_choices,
    numbers,
    sequence_over,
)


def _late_cost(s: Step | End, a: proj.Activation, cost: tuple[str, int], paid: Msg, seqs: tuple[int, ...] = ()) -> Flag:
    """The activation's first toss came before its cost: reported at that toss, saying when it was paid."""
    first = a.toss_seqs[0] if a.toss_seqs else s.event.seq if isinstance(s, Step) else a.seq
    return Flag(
        first,
        {
            "seq": first,
            "card": _card(a),
            "act": a.id,
            "what": activation(s.start, s.final.game if isinstance(s, End) else s.before.game, a),
            "cost": amount(cost[0], cost[1]),
            "paid": paid,
        },
        (a.seq, *seqs),
        about=("act", a.id),
        provisional=isinstance(paid, Msg) and paid.key == "text.gg.not_paid_yet",
    )


def _never_paid(end: End) -> Iterable[Flag]:
    """An activation tossed whose cost was never paid: its first toss came before it (GG-TOSS-001)."""
    st = end.final.game
    for a in st.acts.values():
        if a.toss_seqs and a.cost_seq is None and a.kind not in ("gunner", "gun"):
            cost = expected_cost(st, a, end.options)
            if cost is not None and cost[1] > 0:
                yield _late_cost(end, a, cost, Msg("text.gg.never_paid"))


@rule(
    code="GG-TOSS-001",
    name="cost-paid-before-toss",
    severity=Severity.ERROR,
    on=(ev.CoinTossed, ev.CostPaid),
    options=("cost_payment",),
    finish=_never_paid,
)
def cost_paid_before_toss(s: Step) -> Iterable[Flag]:
    # Reported at the first toss as soon as it is made (provisional: the cost not paid yet), and again, with the
    # seq it was paid at, when the late cost comes (or at the match's end: never paid); one finding either way.
    st = s.before.game
    a = st.acts.get(s.event.act)
    if a is None or a.kind in ("gunner", "gun") or isinstance(s.event, ev.CostPaid) and s.event.kind == "additional":
        return
    if a.cost_seq is not None or isinstance(s.event, ev.CoinTossed) == bool(a.tosses):
        return  # paid already, a later toss, or a cost before any toss: nothing to compare
    cost = expected_cost(st, a, s.options)
    if isinstance(s.event, ev.CoinTossed):
        if cost is not None and cost[1] > 0:
            yield _late_cost(s, a, cost, Msg("text.gg.not_paid_yet"))
    elif cost is not None and cost[1] > 0:
        yield _late_cost(s, a, cost, Msg("text.gg.paid_at", seq=s.event.seq), (s.event.seq,))
    else:
        yield Flag(
            s.event.seq,
            {
                "seq": a.toss_seqs[0],
                "card": _card(a),
                "act": a.id,
                "what": activation(s.start, st, a),
                "cost": amount(s.event.kind, s.event.n),
                "paid": Msg("text.gg.paid_at", seq=s.event.seq),
            },
            a.toss_seqs[:1],
            about=("act", a.id),
        )


def _card(a: proj.Activation) -> object:
    """What an activation uses, for a message: its card or skill, or for a continuous group its skills."""
    return a.card or Msg("word.gg.continuous")


def _tosses(a: proj.Activation) -> object:
    """The toss sequence so far as S (facing the tosser) and O (the opponent), or "no toss"."""
    return "".join("S" if t == "self" else "O" for t in a.tosses) or Msg("text.gg.no_toss")


@rule(
    code="GG-TOSS-002",
    name="no-toss-after-sequence-ends",
    severity=Severity.ERROR,
    on=(ev.CoinTossed,),
    options=("load_toss_end",),
)
def no_toss_after_sequence_ends(s: Step) -> Iterable[Flag]:
    st = s.before.game
    a = st.acts.get(s.event.act)
    if a is None:
        return
    if a.resolved is not None:
        why, ended = Msg("text.gg.ended_resolved"), a.resolved
    elif a.ended:
        why, ended = Msg("text.gg.ended_opponent"), proj.derived(st, a).ended_at
    elif s.options.get("load_toss_end") == "cap" and sequence_over(st, a, s.options) and load_cap(st, a):
        # with every gun already full (cap 0) a toss is pointless but harmless: N changes nothing
        why, ended = Msg("text.gg.ended_cap", cap=load_cap(st, a)), a.toss_seqs[-1] if a.toss_seqs else a.seq
    else:
        return
    yield Flag(
        s.event.seq,
        {
            "act": a.id,
            "what": activation(s.start, st, a),
            "card": _card(a),
            "ended": ended,
            "why": why,
            "seq": s.event.seq,
        },
        (ended,),
        about=("act", a.id),
    )


@rule(
    code="GG-TOSS-003",
    name="n-counts-self-before-first-opponent",
    severity=Severity.ERROR,
    on=(ev.EffectResolved,),
    options=("load_toss_end",),
)
def n_counts_self_before_first_opponent(s: Step) -> Iterable[Flag]:
    st = s.before.game
    a = st.acts.get(s.event.act)
    if a is not None and a.kind not in ("gunner", "gun") and s.event.n not in n_choices(st, a, s.options):
        yield Flag(
            s.event.seq,
            {
                "act": a.id,
                "what": activation(s.start, st, a),
                "card": _card(a),
                "claimed": s.event.n,
                "n": effective_n(st, a),
                "tosses": _tosses(a),
            },
            a.toss_seqs,
            about=("act", a.id),
        )


@rule(
    code="GG-TOSS-004",
    name="toss-sequence-finished-before-resolve",
    severity=Severity.ERROR,
    on=(ev.EffectResolved,),
    options=("load_toss_end",),
)
def toss_sequence_finished_before_resolve(s: Step) -> Iterable[Flag]:
    st = s.before.game
    a = st.acts.get(s.event.act)
    if a is None or a.kind in ("gunner", "gun") or a.resolved is not None:
        return
    if a.kind == "function" and not a.tosses:
        return  # a function played this turn has no toss of its own (GG-TOSS-008 judges it)
    f = facts_of(st, a, getattr(s.event, "card", None))
    if not a.tosses and f is not None and not any(x.replaceable for x in numbers(f)):
        return  # nothing for N to replace (バラージ, ステルスバレット): a table need not toss
    if not sequence_over(st, a, s.options):
        yield Flag(
            s.event.seq,
            {"act": a.id, "what": activation(s.start, st, a), "card": _card(a), "tosses": _tosses(a)},
            a.toss_seqs,
            about=("act", a.id),
        )


WHY_JA = {
    "the toss names no activation": "どの発動にも結び付いていないトスです",
    "a response tosses when declared, not when set": "【対応】はセット時ではなく対応宣言時にトスします",
    "a function tosses at its owner's turn start, not when played": "【機能】は発動時ではなく自分のターン開始時にトスします",
    "a bullet tosses at the shot declaration": "【銃弾】は射撃宣言時 (対応・ダメージの前) にトスします",
    "a turn toss group tosses at that turn's start, before the main phase": "ターン開始時のトスはそのターンのメインフェイズ前に行います",
    "a turn toss group opens at the owner's turn start": "【機能】・継続技能のトスは自分のターン開始時に行います",
    "resolves without a turn-start toss (it was played this turn)": "ターン開始時のトスなしで処理されました (このターンに発動したカード)",
}


def _timing_problem(s: Step) -> str | None:
    st = s.before.game
    a = st.acts.get(s.event.act)
    if a is None:
        return "the toss names no activation"
    if a.kind == "response" and a.declared is None:
        return "a response tosses when declared, not when set"
    if a.kind == "function":
        on_play = s.options.get("function_first_toss") == "on-play"
        if not on_play or a.turn != st.turn or a.resolved is not None:
            return "a function tosses at its owner's turn start, not when played"
    if a.kind == "bullet":
        shot = st.shots.get(a.shot or "")
        if shot is None or shot.damage is not None or any(m[0] in ("response", "replace") for m in shot.mods):
            return "a bullet tosses at the shot declaration"
    if a.kind.startswith("group-") and (a.turn != st.turn or (st.phase != "start" and a.phase == "start")):
        return "a turn toss group tosses at that turn's start, before the main phase"
    return None


@rule(
    code="GG-TOSS-005",
    name="toss-at-the-kinds-timing",
    severity=Severity.ERROR,
    options=("function_first_toss",),
    on=(ev.CoinTossed, ev.TossGroupOpened),
)
def toss_at_the_kinds_timing(s: Step) -> Iterable[Flag]:
    st = s.before.game
    e = s.event
    if isinstance(e, ev.TossGroupOpened):
        if st.turn and (st.phase != "start" or st.active != e.player):
            why = "a turn toss group opens at the owner's turn start"
            yield Flag(
                e.seq,
                {
                    "seq": e.seq,
                    "act": e.act,
                    "what": Msg(
                        "text.gg.activation",
                        player=player_name(s.start, e.player),
                        card=e.card or Msg("word.gg.continuous"),
                        act=e.act,
                    ),
                    "card": e.card or Msg("word.gg.continuous"),
                    "why": why,
                    "why_ja": WHY_JA[why],
                },
                about=("act", e.act),
            )
        return
    a = st.acts.get(e.act)
    if a is not None and a.tosses:
        return  # the sequence is judged by its first toss: one finding per mistimed sequence
    why = _timing_problem(s)
    if why is not None:
        yield Flag(
            e.seq,
            {
                "seq": e.seq,
                "act": e.act,
                "what": activation(s.start, st, a) if a else Msg("text.gg.not_opened_act", act=e.act),
                "card": _card(a) if a else Msg("text.gg.not_opened"),
                "why": why,
                "why_ja": WHY_JA.get(why, why),
            },
            (a.seq,) if a else (),
            about=("act", e.act),
        )


@rule(
    code="GG-TOSS-006",
    name="tosser-owns-the-activation",
    severity=Severity.ERROR,
    on=(ev.CoinTossed,),
)
def tosser_owns_the_activation(s: Step) -> Iterable[Flag]:
    a = s.before.game.acts.get(s.event.act)
    if a is not None and a.player != s.event.player:
        yield Flag(
            s.event.seq,
            {
                "act": a.id,
                "what": activation(s.start, s.before.game, a),
                "card": _card(a),
                "owner": a.player,
                "tosser": s.event.player,
            },
            (a.seq,),
            about=("act", a.id),
        )


@rule(
    code="GG-TOSS-007",
    name="one-toss-per-function-kind-per-turn",
    severity=Severity.ERROR,
    on=(ev.TossGroupOpened,),
)
def one_toss_per_function_kind_per_turn(s: Step) -> Iterable[Flag]:
    st = s.before.game
    e = s.event
    p = st.players.get(e.player)
    card = proj.canon(st, e.card)
    key = card if e.kind == "function" and card else "*"
    if p is None:
        return
    if key in p.groups:
        prev = st.acts.get(p.group_of.get(key, ""))
        yield Flag(
            e.seq,
            {"player": e.player, "card": e.card or Msg("word.gg.continuous"), "seq": prev.seq if prev else e.seq},
            (prev.seq,) if prev else (),
        )


@rule(
    code="GG-TOSS-008",
    name="function-uses-its-kinds-turn-toss",
    severity=Severity.ERROR,
    options=("function_first_toss",),
    on=(ev.EffectResolved,),
)
def function_uses_its_kinds_turn_toss(s: Step) -> Iterable[Flag]:
    st = s.before.game
    e = s.event
    a = st.acts.get(e.act)
    if a is None:
        return
    card = proj.canon(st, e.card) or a.card
    why = why_ja = None
    if a.kind == "function" and not a.tosses and s.options.get("function_first_toss") != "on-play":
        why = "resolves without a turn-start toss (it was played this turn)"
        why_ja = WHY_JA[why]
    elif a.kind == "group-function" and e.card and card != a.card:
        why = f"uses the toss group of {a.card}; different function cards toss separately"
        why_ja = f"{a.card} のトスを使っています。種類の違う【機能】は個別にトスします"
    elif a.kind == "group-function" and st.active == a.player and a.turn != st.turn:
        why = f"uses the toss of turn {a.turn}, not this turn's start"
        why_ja = f"このターンではなくターン {a.turn} のトスを使っています"
    if why:
        yield Flag(e.seq, {"card": card, "seq": e.seq, "why": why, "why_ja": why_ja}, (a.seq,), about=("act", a.id))


@rule(
    code="GG-TOSS-009",
    name="gunner-and-gun-effects-not-tossed",
    severity=Severity.ERROR,
    on=(ev.CoinTossed, ev.EffectResolved),
)
def gunner_and_gun_effects_not_tossed(s: Step) -> Iterable[Flag]:
    a = s.before.game.acts.get(s.event.act)
    if a is None or a.kind not in ("gunner", "gun"):
        return
    if isinstance(s.event, ev.CoinTossed) or s.event.n != 0:
        yield Flag(
            s.event.seq,
            {
                "name": a.card,
                "what": activation(s.start, s.before.game, a),
                "source": Msg(f"word.gg.{a.kind}"),
                "act": a.id,
                "seq": s.event.seq,
            },
            (a.seq,),
            about=("act", a.id),
        )


RULES = (
    cost_paid_before_toss,
    no_toss_after_sequence_ends,
    n_counts_self_before_first_opponent,
    toss_sequence_finished_before_resolve,
    toss_at_the_kinds_timing,
    tosser_owns_the_activation,
    one_toss_per_function_kind_per_turn,
    function_uses_its_kinds_turn_toss,
    gunner_and_gun_effects_not_tossed,
)
