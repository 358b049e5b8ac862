"""ガンナガン (トスで決まる枚数ルール): COST, voltage and additional costs.

Sources: トスで決まる枚数ルール §ルール適用の例外 (各種コストには適用されない, 先払い), §追加コストについて,
FAQ (コストは返ってきますか); ガンナガン非公式wiki「ルール」 §1.7 (how COST is paid).
"""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, rule
from kifu.events.i18n import Msg

from .. import events as ev
from .. import projection as proj
from .facts import activation, expected_cost, facts_of, unknown


@rule(
    code="GG-COST-001",
    name="cost-is-the-printed-cost",
    severity=Severity.ERROR,
    on=(ev.EffectResolved,),
    options=("cost_payment",),
)
def cost_is_the_printed_cost(s: Step) -> Iterable[Flag]:
    st = s.before.game
    a = st.acts.get(s.event.act)
    if a is None or a.resolved is not None or a.kind not in ("action", "function", "response", "skill"):
        return
    want = expected_cost(st, a, s.options)
    if want is None:
        if facts_of(st, a) is None:
            yield unknown(s.event.seq, Msg("reason.gg.card_unknown", card=a.card), (a.seq,), about=("act", a.id))
        return
    got = {k: v for k, v in a.costs.items() if k != "additional" and v}
    if got != ({want[0]: want[1]} if want[1] else {}):
        yield Flag(
            s.event.seq,
            {
                "card": a.card,
                "act": a.id,
                "what": activation(s.start, st, a),
                "want": amount(want[0], want[1]),
                "got": [amount(k, v) for k, v in got.items()] or Msg("text.gg.nothing"),
            },
            (a.seq,),
            about=("act", a.id),
        )


@rule(
    code="GG-COST-002",
    name="additional-cost-uses-n",
    severity=Severity.ERROR,
    on=(ev.CostPaid, ev.EffectResolved),
)
def additional_cost_uses_n(s: Step) -> Iterable[Flag]:
    st = s.before.game
    e = s.event
    a = st.acts.get(e.act)
    if a is None or a.kind in ("gunner", "gun"):
        return
    f = facts_of(st, a)
    add = getattr(f, "additional_cost", None)
    if isinstance(e, ev.CostPaid):
        if e.kind != "additional":
            return
        if add is None:
            if f is None:
                yield unknown(e.seq, Msg("reason.gg.card_unknown", card=a.card), (a.seq,), about=("act", a.id))
            else:
                yield Flag(
                    e.seq,
                    {
                        "card": a.card,
                        "act": a.id,
                        "what": activation(s.start, st, a),
                        "n": a.n,
                        "detail": Msg("text.gg.no_additional_cost", got=e.n),
                    },
                    about=("act", a.id),
                )
            return
        gun = proj.gun_facts(st, e.gun)
        if gun is None or gun.id != add.gun or not a.ended:
            key = "text.gg.additional_paid" if a.ended else "text.gg.additional_paid_early"
            yield Flag(
                e.seq,
                {
                    "card": a.card,
                    "act": a.id,
                    "what": activation(s.start, st, a),
                    "n": a.n,
                    "detail": Msg(
                        "text.gg.additional_cost", gun=_gun_name(st, add.gun), want="N", got=Msg(key, n=e.n, gun=e.gun)
                    ),
                },
                about=("act", a.id),
            )
    elif add is not None and a.resolved is None and a.costs.get("additional", 0) != e.n and not _flagged(st, a):
        yield Flag(
            e.seq,
            {
                "card": a.card,
                "act": a.id,
                "what": activation(s.start, st, a),
                "n": e.n,
                "detail": Msg(
                    "text.gg.additional_cost", gun=_gun_name(st, add.gun), want=e.n, got=a.costs.get("additional", 0)
                ),
            },
            (a.add_seq or a.seq,),
            about=("act", a.id),
            facts=(("number", "additional_cost"),),
        )


def _gun_name(st: proj.State, gun: str) -> str:
    """A gun as a table names it (its short name), from the id a card's facts give."""
    g = proj.gun_facts(st, gun)
    return g.short_name if g is not None else gun


def amount(kind: str, n: int) -> Msg:
    """A cost as a table says it: ``手札 1 枚`` / ``1 hand card``."""
    return Msg("text.gg.amount", n=n, kind=Msg(f"word.gg.{kind}"))


def _flagged(st: proj.State, a: proj.Activation) -> bool:
    """An additional cost paid before the toss sequence ended was already reported at its payment."""
    end = proj.derived(st, a).ended_at
    return a.add_seq is not None and (end is None or a.add_seq < end)


@rule(
    code="GG-COST-003",
    name="cost-is-affordable",
    severity=Severity.ERROR,
    on=(ev.CostPaid,),
)
def cost_is_affordable(s: Step) -> Iterable[Flag]:
    e = s.event
    p = s.before.game.players.get(e.player)
    if p is None or (e.kind != "additional" and not p.drawn):
        return  # a log that starts mid-game does not know the hand or the voltage
    if e.kind == "hand":
        have = p.hand
    elif e.kind == "voltage":
        have = p.voltage
    else:
        a = s.before.game.acts.get(e.act)
        if a is not None and a.ended and e.n != a.n:
            return  # an additional cost that is not N is GG-COST-002's, however many loads the gun had
        g = proj.gun_of(s.before.game, p, e.gun)
        have = g.loads if g else 0
    if e.n > have:
        where = Msg(f"word.gg.{e.kind}") if e.kind != "additional" else Msg("text.gg.loads_of", gun=e.gun)
        yield Flag(e.seq, {"player": e.player, "kind": where, "n": e.n, "have": have}, about=("act", e.act))


@rule(
    code="GG-COST-004",
    name="cost-not-refunded",
    severity=Severity.ERROR,
    on=(ev.CostRefunded,),
)
def cost_not_refunded(s: Step) -> Iterable[Flag]:
    a = s.before.game.acts.get(s.event.act)
    yield Flag(
        s.event.seq,
        {
            "act": s.event.act,
            "card": a.card if a and a.card else s.event.act,
            "what": activation(s.start, s.before.game, a) if a else s.event.act,
            "cost": amount(s.event.kind, s.event.n),
            "n": a.n if a else Msg("word.gg.unknown"),
        },
        (a.seq,) if a else (),
        about=("act", s.event.act),
    )


RULES = (cost_is_the_printed_cost, additional_cost_uses_n, cost_is_affordable, cost_not_refunded)
