"""Magic coin flips: what the results pay (card texts, reference A2/A4; Saturday School #56; CR 705.2)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from typing import NamedTuple

from kifu.auditor.base import Doc, End, Hit, Severity, Text, end_rule

from ..cards import Card
from ..projection import (
    Instruction,
    Payoff,
    Permanent,
    State,
    card_of,
    counted,
    effective_groups,
    ignored_coins,
    kept_losses,
    kept_sides,
    kept_wins,
    the_call,
)
from .common import CARD, UNRECORDED, card, evidence, last_coin_seq
from .thumb import ignored_counts_for_nothing


def _last_counted_coin(ins: Instruction) -> int:
    """Where a missing payoff is reported: the last coin of the flips the effect made (a coin recorded after
    the effect was over pays nothing and has its own finding)."""
    seqs = [c.seq for g in effective_groups(ins) for c in g.coins]
    return seqs[-1] if seqs else last_coin_seq(ins)


def own_payoffs(ins: Instruction, c: Card) -> list[Payoff]:
    return [p for p in ins.payoffs if p.permanent is None and p.kind in c.own_kinds]


def expected_own(ins: Instruction, c: Card, players: int) -> Counter[str]:
    """What the card's own payoff must total, by kind, for the kept results."""
    w, lost = kept_wins(ins), kept_losses(ins)
    heads, tails = kept_sides(ins, "heads"), kept_sides(ins, "tails")
    out: Counter[str] = Counter()
    for table, n in ((c.per_win, w), (c.per_loss, lost), (c.per_heads, heads), (c.per_tails, tails)):
        for kind, amount in table.items():
            out[kind] += amount * n
    for t in c.tiers:
        if w >= t.wins:
            out[t.kind] += t.amount * (players - 1 if t.each_opponent else 1)
    if c.all_won_per_flip and lost == 0 and w == (ins.chosen or 0):
        for kind, amount in c.all_won_per_flip.items():
            out[kind] += amount * w
    if c.all_won_at and w == c.all_won_at.flips == ins.chosen:
        out[c.all_won_at.kind] += c.all_won_at.amount
    return out


def _voided(ins: Instruction, c: Card) -> bool:
    return c.loss_voids and kept_losses(ins) > 0


@end_rule(
    code="MTG-PAY-001",
    name="any-loss-means-no-payoff",
    severity=Severity.ERROR,
    citation=CARD + " (Fiery Gambit, Squee's Revenge)",
    title=Text(ja="一度でも負けたら効果はない", en="any lost flip means the card does nothing"),
    message=Text(
        ja="{card} はコイン投げに負けているので効果はありませんが、{kind} {amount} が記録されています",
        en="{card} lost a flip, so it has no effect, yet {kind} {amount} was recorded",
    ),
    doc=Doc(
        checks=Text(
            ja="Fiery Gambit と Squee's Revenge は、残したコインで一度でも負けたら、カード自身の効果 (payoff) "
               "を記録しないこと。",
            en="Fiery Gambit and Squee's Revenge record no payoff of their own once any kept flip was lost.",
        ),
        why=Text(
            ja="Fiery Gambit: 一度でも負ければ何もしない。Squee's Revenge: 全部勝ったときだけカードを引く。",
            en="Fiery Gambit: if you lose any flip it does nothing; Squee's Revenge draws only if every flip was won.",
        ),
        bad=Text(
            ja='Fiery Gambit: 勝ち、勝ち、負け; {"type":"mtg.payoff","kind":"damage","amount":3}',
            en='Fiery Gambit: won, won, lost; {"type":"mtg.payoff","kind":"damage","amount":3}',
        ),
        good=Text(
            ja="Fiery Gambit: 勝ち、勝ち、止める; 3 点と、対戦相手それぞれに 6 点のダメージ",
            en="Fiery Gambit: won, won, stop; damage 3 and 6 to each opponent",
        ),
    ),
)
def any_loss_no_payoff(end: End) -> Iterable[Hit]:
    for ins in end.final.game.flips.values():
        c = card(end.final.game, ins)
        if c is not None and _voided(ins, c):
            for p in own_payoffs(ins, c):
                yield Hit(p.seq, evidence(ins, kind=p.kind, amount=p.amount))


def _compare(ins: Instruction, paid: list[Payoff], kind: str, want: int) -> Iterable[tuple[int, int]]:
    """(seq, recorded total) where the recorded total first exceeds ``want``, or falls short at the end."""
    total = 0
    for p in paid:
        total += p.amount if p.kind == kind else 0
        if total > want:
            yield p.seq, total
            return
    if total < want:
        yield _last_counted_coin(ins), total


@end_rule(
    code="MTG-PAY-002",
    name="payoff-equals-the-kept-results",
    severity=Severity.ERROR,
    citation=CARD,
    title=Text(ja="カード自身の効果は残した結果の数どおり", en="the card's own payoff follows the kept results"),
    message=Text(
        ja="{card}: 勝ち {wins}・負け {losses} なら {kind} は {expected} のはずが {recorded} です",
        en="{card}: with {wins} win(s) and {losses} loss(es), {kind} should total {expected}, but {recorded} was recorded",
    ),
    options=(UNRECORDED.name,),
    doc=Doc(
        checks=Text(
            ja="カード自身の効果 (`permanent` のない `mtg.payoff`) の合計が、残した結果から決まる量と一致すること: "
               "Crazed Firecat は勝ち 1 回につきカウンター 1 個、Mirror March は勝ち 1 回につきトークン 1 体、Yusri "
               "は勝ち 1 回につき 1 枚・負け 1 回につき 2 点 (5 回中 5 勝なら無料で唱えられる)、Fiery Gambit "
               "は段階ごと、Squee's Revenge は N 回全部勝てば 1 回につき 2 枚、Ral Zarek は表 1 回につき追加ターン 1 "
               "回。多すぎる分は超えた payoff の位置に、足りない分は最後のコインの位置に指摘する。"
               "効果がひとつも記録されていないコイン投げは情報 (判定できない) とし、オプション `unrecorded_payoffs` "
               "が `error` ならエラーにする。",
            en="A card's own payoffs (`mtg.payoff` without `permanent`) total what its kept results give: Crazed "
               "Firecat a counter per win, Mirror March a token per win, Yusri a card per win and 2 damage per loss "
               "(free casting after five of five), Fiery Gambit's thresholds, Squee's Revenge two cards per flip "
               "when all N were won, Ral Zarek an extra turn per heads. Excess is reported at the payoff that goes "
               "over, a shortfall at the last coin. A flip with no own payoff recorded at all is info (cannot "
               "decide) unless option `unrecorded_payoffs` is `error`.",
        ),
        why=Text(
            ja="これらのカードは勝ち (または表) の回数を数える。親指で無視したコインや表裏だけのコイン投げは勝ちでは"
               "ない (Saturday School #56、CR 705.2)。",
            en="These cards count wins (or heads); ignored Thumb coins and heads/tails flips are not wins (Saturday "
               "School #56, CR 705.2).",
        ),
        bad=Text(
            ja='Crazed Firecat: 勝ち、勝ち、負け; {"type":"mtg.payoff","kind":"counter","amount":3}',
            en='Crazed Firecat: won, won, lost; {"type":"mtg.payoff","kind":"counter","amount":3}',
        ),
        good=Text(
            ja='Crazed Firecat: 勝ち、勝ち、負け; {"type":"mtg.payoff","kind":"counter","amount":2}',
            en='Crazed Firecat: won, won, lost; {"type":"mtg.payoff","kind":"counter","amount":2}',
        ),
    ),
)
def payoff_equals_results(end: End) -> Iterable[Hit]:
    state = end.final.game
    for ins in state.flips.values():
        c = card(state, ins)
        if c is None or not c.own_kinds or _voided(ins, c):
            continue
        if ins.kind == "called" and any(o is None for _, o in counted(ins)):
            yield Hit(_last_counted_coin(ins), evidence(ins, reason=f"a flip of {ins.card} has no decidable outcome"),
                      undecided=True)
            continue
        yield from _own_diffs(state, ins, c, end.options.get(UNRECORDED.name, UNRECORDED.default))


def _own_diffs(state: State, ins: Instruction, c: Card, unrecorded: str) -> Iterable[Hit]:
    want = expected_own(ins, c, len(state.players))
    paid = own_payoffs(ins, c)
    if not paid and unrecorded == "undecided":
        if +want:
            reason = f"the log records no effect of {ins.card} (option unrecorded_payoffs: undecided)"
            yield Hit(_last_counted_coin(ins), evidence(ins, reason=reason), undecided=True)
        return
    for kind in sorted(c.own_kinds):
        for seq, total in _compare(ins, paid, kind, want[kind]):
            yield Hit(seq, evidence(ins, kind=kind, expected=want[kind], recorded=total,
                                    wins=kept_wins(ins), losses=kept_losses(ins)))


def counted_for(ins: Instruction, w: Permanent, scope: str) -> tuple[int, int]:
    """(kept wins, wins only an ignored coin gave) that a watcher with ``scope`` counts."""
    if scope == "you" and ins.flipper != w.controller:
        return 0, 0
    kept, phantom = 0, 0
    for g, outcome in counted(ins):
        call = the_call(ins, g)
        kept += outcome == "won"
        phantom += outcome == "lost" and call is not None and any(
            c.result == call.value for c in ignored_coins(g, ins.flipper))
    return kept, phantom


class Tally(NamedTuple):
    """One watcher's payoffs for one instruction, against the wins it counts."""

    ins: Instruction
    watcher: Permanent
    wins: int
    """Kept wins the watcher counts."""
    expected: int
    phantom: int
    """Extra amount that only ignored Thumb coins would explain."""
    paid: list[Payoff]

    @property
    def recorded(self) -> int:
        return sum(p.amount for p in self.paid)

    def first_over(self, limit: int) -> int:
        """Seq of the payoff whose running total first exceeds ``limit``."""
        total = 0
        for p in self.paid:
            total += p.amount
            if total > limit:
                return p.seq
        return self.paid[-1].seq


def tallies(state: State) -> Iterable[Tally]:
    """Every watcher in play at an instruction, and every permanent a payoff of it names."""
    for ins in state.flips.values():
        watchers = {w.permanent: w for w in ins.watchers}
        for pid in sorted(set(watchers) | {p.permanent for p in ins.payoffs if p.permanent}):
            paid = [p for p in ins.payoffs if p.permanent == pid]
            yield _tally(state, ins, watchers.get(pid) or Permanent(permanent=pid, card="?", controller="?", seq=0),
                         paid)


AT_ONCE = ("fixed", "chosen")
"""Sequences whose coins are flipped at once: one flipping event, however many coins."""


def _triggers(ins: Instruction, c: Card, kept: int, phantom: int) -> tuple[int, int]:
    """(triggers, phantom triggers) of a watcher for ``kept`` counted wins: per win, or once per flipping
    event with one or more wins (Tavern Scoundrel) when the instruction flips its coins at once."""
    if c.watch is None or c.watch.per != "event" or ins.sequence not in AT_ONCE:
        return kept, phantom
    return min(kept, 1), min(phantom, 1) if kept == 0 else 0


def _tally(state: State, ins: Instruction, w: Permanent, paid: list[Payoff]) -> Tally:
    c = card_of(state, w.card)
    if c is None or c.watch is None or w.seq == 0:
        return Tally(ins, w, 0, 0, 0, paid)
    kept, phantom = _triggers(ins, c, *counted_for(ins, w, c.watch.scope))
    return Tally(ins, w, kept, kept * c.watch.per_win, phantom * c.watch.per_win, paid)


def _ignored_only(t: Tally) -> bool:
    return t.expected < t.recorded <= t.expected + t.phantom


@end_rule(
    code="MTG-PAY-003",
    name="watcher-payoff-equals-counted-wins",
    severity=Severity.ERROR,
    citation="CR 705.2; " + CARD.replace(" with CR 705.2", "") + " (Chance Encounter, Tavern Scoundrel: your wins; Okaun, Zndrsplt: any player's)",
    title=Text(ja="勝ちを数えるカードの効果は数えた勝ちの数どおり", en="a watcher pays exactly for the wins it counts"),
    message=Text(
        ja="{card} ({watcher}, {controller}) は {flip_card} の勝ち {wins} 回を数えて {expected} のはずが {recorded} です",
        en="{card} ({watcher}, controlled by {controller}) counts {wins} win(s) of {flip_card}, so {expected}, "
           "but {recorded} was recorded",
    ),
    doc=Doc(
        checks=Text(
            ja="指示ごとに、勝ちを数えるパーマネント (`permanent`) の効果の合計が、勝ち 1 回あたりの量 × 数えた "
               "(残したコインの) 勝ちの数になること: 偶然の出合い/Chance Encounter (運勢カウンター) と Tavern "
               "Scoundrel (宝物 2 つ) はコントローラー自身の勝ちだけ、Okaun (倍化) と Zndrsplt (ドロー) "
               "はどのプレイヤーの勝ちも数える。Tavern Scoundrel は「1 回以上」勝つたびに誘発するので、同時に投げたコイン (Yusri の X 枚) では 1 回だけ。表裏だけのコイン投げと、親指で無視したコインは何も数えない "
               "(無視したコインは MTG-THUMB-004)。指示の始まりに戦場で勝ちを数えていなかったパーマネントは何も数えな"
               "い。多すぎる分は超えた payoff の位置に、足りない誘発は指示の最後のコインの位置に指摘する。",
            en="Per instruction, the payoffs naming a watcher (`permanent`) total its per-win amount times the kept "
               "wins it counts: Chance Encounter (luck counter) and Tavern Scoundrel (two Treasures) only their "
               "controller's wins, Okaun (doubling) and Zndrsplt (draw) any player's. Tavern Scoundrel triggers on "
               "\"one or more\" wins, so coins flipped at once (Yusri's X coins) trigger it once. Heads/tails flips and ignored "
               "Thumb coins count nothing (ignored coins: MTG-THUMB-004); a permanent that was not a watcher in play "
               "when the instruction began counts nothing. Excess at the payoff that goes over, a missing trigger at "
               "the instruction's last coin.",
        ),
        why=Text(
            ja="705.2: 勝つのはコインを投げたプレイヤーだけで、表裏だけのコイン投げには勝者がいない。"
               "だから対戦相手の偶然の出合いや魔力激突で運勢カウンターが乗ることはない (seed 001)。"
               "勝ちを数えるパーマネントは、数えた勝ち 1 回につき 1 回誘発する。",
            en="705.2: only the flipper wins, and a heads/tails flip has no winner, so an opponent's Chance "
               "Encounter or a Mana Clash never adds a luck counter (seed 001); a watcher triggers once per counted "
               "win.",
        ),
        bad=Text(
            ja='b が偶然の出合いをコントロール; a がコイン投げに勝つ; {"type":"mtg.payoff","permanent":"ce",'
               '"kind":"luck-counter"}',
            en='b controls Chance Encounter; a wins a flip; {"type":"mtg.payoff","permanent":"ce",'
               '"kind":"luck-counter"}',
        ),
        good=Text(
            ja='a が偶然の出合いをコントロール; a がコイン投げに勝つ; {"type":"mtg.payoff","permanent":"ce",'
               '"kind":"luck-counter"}',
            en='a controls Chance Encounter; a wins a flip; {"type":"mtg.payoff","permanent":"ce",'
               '"kind":"luck-counter"}',
        ),
    ),
)
def watcher_pays_counted_wins(end: End) -> Iterable[Hit]:
    for t in tallies(end.final.game):
        if t.recorded == t.expected or _ignored_only(t):
            continue
        seq = t.first_over(t.expected) if t.recorded > t.expected else _last_counted_coin(t.ins)
        yield Hit(seq, {"card": t.watcher.card, "watcher": t.watcher.permanent, "controller": t.watcher.controller,
                        "flip": t.ins.flip, "flip_card": t.ins.card, "wins": t.wins, "expected": t.expected,
                        "recorded": t.recorded})


def _ignored_watcher_payoffs(end: End) -> Iterable[Hit]:
    for t in tallies(end.final.game):
        if _ignored_only(t):
            yield Hit(t.first_over(t.expected), evidence(t.ins, group="-", expected=f"{t.expected} from {t.watcher.card}",
                                                         outcome=f"{t.recorded} (counting an ignored coin's win)"))


def _ignored_anywhere(end: End) -> Iterable[Hit]:
    yield from ignored_counts_for_nothing.finish(end)  # type: ignore[misc]
    yield from _ignored_watcher_payoffs(end)


IGNORED_COUNTS_FOR_NOTHING = replace(ignored_counts_for_nothing, finish=_ignored_anywhere)

RULES = (any_loss_no_payoff, payoff_equals_results, watcher_pays_counted_wins)
