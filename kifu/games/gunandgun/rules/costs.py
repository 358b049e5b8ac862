"""ガンナガン (seed 000 coin-toss variant): COST, voltage and additional costs.

Sources: seed 000 §ルール適用の例外 (各種コストには適用されない, 先払い), §追加コストについて,
FAQ (コストは返ってきますか); reference gunandgun.md §1.7 (how COST is paid).
"""

from __future__ import annotations

from typing import Iterable

from kifu.auditor.base import Doc, Hit, Severity, Step, Text, rule

from .. import events as ev
from .. import projection as proj
from .facts import cat, expected_cost, facts_of, game, unknown

EXC = "seed 000 §ルール適用の例外 (各種コスト（コスト、ボルテージなど）には適用されない)"


@rule(
    code="GG-COST-001", name="cost-is-the-printed-cost", severity=Severity.ERROR, citation=EXC,
    title=Text(ja="COST とボルテージは N で変わらない", en="COST and voltage are paid as printed, whatever N is"),
    message=Text(ja="{card} ({act}) のコストは {want} ですが、支払いは {got} でした",
                 en="{card} ({act}) costs {want}, but {got} was paid"),
    on=(ev.EffectResolved,), options=("cost_payment",),
    doc=Doc(checks="By the time an action, function, response or skill resolves, exactly its printed COST (in hand "
                   "cards or voltage per `cost_payment`) or its skill voltage cost was paid.",
            why="The variant replaces effect numbers, never costs: a COST 2 card costs 2 even when N is 0 or 5.",
            bad="オーバーブースト (COST 2); cost hand 1; N=1", good="オーバーブースト (COST 2); cost hand 2"),
)
def cost_is_the_printed_cost(s: Step) -> Iterable[Hit]:
    st = game(s.before)
    a = st.acts.get(s.event.act)
    if a is None or a.resolved is not None or a.kind not in ("action", "function", "response", "skill"):
        return
    want = expected_cost(st, a, s.options)
    if want is None:
        if facts_of(st, a) is None:
            yield unknown(s.event.seq, f"{a.card} is not in the card catalogue", (a.seq,))
        return
    got = {k: v for k, v in a.costs.items() if k != "additional" and v}
    if got != ({want[0]: want[1]} if want[1] else {}):
        yield Hit(s.event.seq, {"card": a.card, "act": a.id, "want": f"{want[1]} {want[0]}",
                                "got": ", ".join(f"{v} {k}" for k, v in got.items()) or "nothing"}, (a.seq,))


@rule(
    code="GG-COST-002", name="additional-cost-uses-n", severity=Severity.ERROR,
    citation="seed 000 §追加コストについて / 裁定例 過焔地獄",
    title=Text(ja="追加コストの数値も N に置き換わる", en="an additional cost's number becomes N"),
    message=Text(ja="{card} ({act}) の追加コストは {gun} の装填 {want} 枚 (N={n}) ですが、{got} でした",
                 en="{card} ({act}) has an additional cost of {want} loads of {gun} (N={n}), but {got} was paid"),
    on=(ev.CostPaid, ev.EffectResolved),
    doc=Doc(checks="A card's additional cost is paid from the named gun, after the toss sequence ended, with N "
                   "loads; at resolution the total paid equals N.",
            why="過焔地獄: N=2 discards 2 loads of キヨヒメ, N=0 discards none.",
            bad="過焔地獄 N=2; cost additional 5 (キヨヒメ)", good="過焔地獄 N=2; cost additional 2 (キヨヒメ)"),
)
def additional_cost_uses_n(s: Step) -> Iterable[Hit]:
    st = game(s.before)
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
                yield unknown(e.seq, f"{a.card} is not in the card catalogue", (a.seq,))
            else:
                yield Hit(e.seq, {"card": a.card, "act": a.id, "gun": "-", "want": 0, "n": a.n, "got": e.n})
            return
        gun = proj.find_gun(cat(st), e.gun)
        if gun is None or gun.id != add.gun or not a.ended:
            got = f"{e.n} from {e.gun}" + ("" if a.ended else " before the toss sequence ended")
            yield Hit(e.seq, {"card": a.card, "act": a.id, "gun": add.gun, "want": "N", "n": a.n, "got": got})
    elif add is not None and a.resolved is None and a.costs.get("additional", 0) != e.n and not _flagged(a):
        yield Hit(e.seq, {"card": a.card, "act": a.id, "gun": add.gun, "want": e.n, "n": e.n,
                          "got": a.costs.get("additional", 0)}, (a.add_seq or a.seq,))


def _flagged(a: proj.Activation) -> bool:
    """An additional cost paid before the toss sequence ended was already reported at its payment."""
    end = a.toss_seqs[a.tosses.index("opponent")] if "opponent" in a.tosses else None
    return a.add_seq is not None and (end is None or a.add_seq < end)


@rule(
    code="GG-COST-003", name="cost-is-affordable", severity=Severity.ERROR,
    citation="reference gunandgun.md §1.7 (D1 hand, D2 voltage, D3 additional) [APP] Card.cs, Skill.cs",
    title=Text(ja="支払えるコストだけを支払う", en="a cost is paid only from cards that are there"),
    message=Text(ja="{player} は {kind} で {n} 枚払いましたが、{have} 枚しかありません",
                 en="{player} paid {n} from {kind}, but had only {have}"),
    on=(ev.CostPaid,),
    doc=Doc(checks="Hand cards paid ≤ the other cards in hand; voltage paid ≤ the voltage area; an additional "
                   "cost ≤ the named gun's loads. Hand and voltage are judged only when the log records the "
                   "player's opening draw (a log that starts mid-game does not know them).",
            why="A cost that cannot be paid means the card could not be used at all.",
            bad="voltage 3; skill cost voltage 5", good="voltage 6; skill cost voltage 5"),
)
def cost_is_affordable(s: Step) -> Iterable[Hit]:
    e = s.event
    p = game(s.before).players.get(e.player)
    if p is None or (e.kind != "additional" and not p.drawn):
        return  # a log that starts mid-game does not know the hand or the voltage
    if e.kind == "hand":
        have = p.hand
    elif e.kind == "voltage":
        have = p.voltage
    else:
        g = proj.gun_of(game(s.before), p, e.gun)
        have = g.loads if g else 0
    if e.n > have:
        yield Hit(e.seq, {"player": e.player, "kind": e.kind if e.kind != "additional" else f"{e.gun} loads",
                          "n": e.n, "have": have})


@rule(
    code="GG-COST-004", name="cost-not-refunded", severity=Severity.ERROR,
    citation="seed 000 FAQ (コストを支払った後で、コイントスで0が出た場合 … 返ってきません)",
    title=Text(ja="N=0 でもコストは返らない", en="no cost is refunded, even when N is 0"),
    message=Text(ja="{act} ({card}) のコスト {n} 枚 ({kind}) が返却されました (N={nn})",
                 en="{n} {kind} paid for {act} ({card}) was given back (N={nn})"),
    on=(ev.CostRefunded,),
    doc=Doc(checks="No cost paid for an activation is given back.",
            why="Costs are prepaid; a toss of 0 makes the effect do nothing but keeps the cost spent.",
            bad="cost a1 hand 1; toss a1 opponent; refund a1 hand 1", good="cost a1 hand 1; toss a1 opponent; resolve a1 n=0"),
)
def cost_not_refunded(s: Step) -> Iterable[Hit]:
    a = game(s.before).acts.get(s.event.act)
    yield Hit(s.event.seq, {"act": s.event.act, "card": a.card if a else "?", "n": s.event.n, "kind": s.event.kind,
                            "nn": a.n if a else "?"}, (a.seq,) if a else ())


RULES = (cost_is_the_printed_cost, additional_cost_uses_n, cost_is_affordable, cost_not_refunded)
