"""Magic coin flips: what the results pay (card texts, reference A2/A4; Saturday School #56; CR 705.2)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from msgspec.structs import replace
from typing import NamedTuple

from kifu.auditor.base import End, Flag, Severity, Text, end_rule, latest
from kifu.events.i18n import Msg

from ..cards import Card
from ..projection import (
    Instruction,
    Payoff,
    Permanent,
    State,
    card_of,
    counted,
    made_groups,
    ignored_coins,
    kept_losses,
    kept_sides,
    kept_wins,
)
from .common import UNRECORDED, card, every_flip, evidence, last_coin_seq
from .thumb import ignored_counts_for_nothing


def _last_counted_coin(ins: Instruction) -> int:
    """Where a missing payoff is reported: the last coin of the flips the effect made (a coin recorded after
    the effect was over pays nothing and has its own finding)."""
    seqs = [c.seq for g in made_groups(ins) for c in g.coins]
    return seqs[-1] if seqs else last_coin_seq(ins)


def own_payoffs(ins: Instruction, c: Card, kinds: set[str] | None = None) -> list[Payoff]:
    """The payoffs of the card's own effect (of ``kinds``, its ``own_kinds`` unless the caller has them)."""
    kinds = c.own_kinds if kinds is None else kinds  # a property worked out at each ask: once, not once a payoff
    return [p for p in ins.payoffs if p.permanent is None and p.kind in kinds]


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
)
def any_loss_no_payoff(end: End) -> Iterable[Flag]:
    for ins in end.final.game.flips.values():
        c = card(end.final.game, ins)
        if c is not None and _voided(ins, c):
            for p in own_payoffs(ins, c):
                yield Flag(
                    p.seq,
                    evidence(ins, kind=p.kind, amount=p.amount),
                    about=("payoff", ins.flip),
                    follows=every_flip(ins),
                )


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
    options=(UNRECORDED.name,),
)
def payoff_equals_results(end: End) -> Iterable[Flag]:
    state = end.final.game
    for ins in state.flips.values():
        c = card(state, ins)
        kinds = c.own_kinds if c is not None else None
        if c is None or not kinds or _voided(ins, c):
            continue
        if ins.kind == "called" and any(o is None for _, o in counted(ins)):
            yield Flag(
                _last_counted_coin(ins),
                evidence(ins, reason=Msg("reason.mtg.no_outcome", card=ins.card)),
                undecided=True,
                about=("payoff", ins.flip),
                follows=every_flip(ins),
            )
            continue
        yield from _own_diffs(state, ins, c, kinds, end.options.get(UNRECORDED.name, UNRECORDED.default))


def _own_diffs(state: State, ins: Instruction, c: Card, kinds: set[str], unrecorded: str) -> Iterable[Flag]:
    want = expected_own(ins, c, len(state.players))
    paid = own_payoffs(ins, c, kinds)
    if not paid and unrecorded == "undecided":
        if +want:
            reason = Msg("reason.mtg.no_payoff", card=ins.card)
            yield Flag(
                _last_counted_coin(ins),
                evidence(ins, reason=reason),
                undecided=True,
                about=("payoff", ins.flip),
                follows=every_flip(ins),
            )
        return
    for kind in sorted(kinds):
        for seq, total in _compare(ins, paid, kind, want[kind]):
            yield Flag(
                seq,
                evidence(
                    ins, kind=kind, expected=want[kind], recorded=total, wins=kept_wins(ins), losses=kept_losses(ins)
                ),
                about=("payoff", ins.flip),
                follows=every_flip(ins),
            )


def counted_for(ins: Instruction, w: Permanent, scope: str) -> tuple[int, int]:
    """(kept wins, wins only an ignored coin gave) that a watcher with ``scope`` counts."""
    if scope == "you" and ins.flipper != w.controller:
        return 0, 0
    return kept_wins(ins), _phantom_wins(ins)


@latest  # asked for each watcher of one instruction in turn
def _phantom_wins(ins: Instruction) -> int:
    """Lost flips the effect made that an ignored Thumb coin would have won (the call the fold kept)."""
    phantom = 0
    for g, outcome in counted(ins):
        if outcome == "lost" and g.call is not None and len(g.coins) > 1:  # one coin: none ignored
            phantom += any(c.result == g.call for c in ignored_coins(g, ins.flipper))
    return phantom


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
    known: bool = True
    """False for a watcher in play whose card the catalogue does not know: what it counts cannot be decided."""

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


@latest
def tallies(state: State) -> tuple[Tally, ...]:
    """Every watcher in play at an instruction, and every permanent a payoff of it names: one not in play when
    the instruction began (it counts nothing) as the log last named it, or as an unnamed permanent. For
    MTG-PAY-003 and MTG-THUMB-004: worked out once per final state."""
    return tuple(_tallies(state))


def _tallies(state: State) -> Iterable[Tally]:
    for ins in state.flips.values():
        watchers = {w.permanent: w for w in ins.watchers}
        by_permanent: dict[str | None, list[Payoff]] = {}
        for p in ins.payoffs:
            by_permanent.setdefault(p.permanent, []).append(p)
        for pid in sorted(set(watchers) | {p.permanent for p in ins.payoffs if p.permanent}):
            paid = by_permanent.get(pid, [])
            w = watchers.get(pid)
            named = state.permanents.get(pid)
            if w is None and named is None:  # never recorded entering (a client that records no mtg.enters)
                controller = next((p.player for p in paid if p.player), "")
                yield Tally(
                    ins, Permanent(permanent=pid, card="", controller=controller, seq=0), 0, 0, 0, paid, known=False
                )
                continue
            if w is None:  # in play, but not when the flip began: it counts nothing
                w = Permanent(permanent=pid, card=named.card, controller=named.controller, seq=0)
            yield _tally(state, ins, w, paid)


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
        return Tally(ins, w, 0, 0, 0, paid, known=c is not None or w.seq == 0)
    kept, phantom = _triggers(ins, c, *counted_for(ins, w, c.watch.scope))
    return Tally(ins, w, kept, kept * c.watch.per_win, phantom * c.watch.per_win, paid)


def _ignored_only(t: Tally) -> bool:
    return t.expected < t.recorded <= t.expected + t.phantom


@end_rule(
    code="MTG-PAY-003",
    name="watcher-payoff-equals-counted-wins",
    severity=Severity.ERROR,
)
def watcher_pays_counted_wins(end: End) -> Iterable[Flag]:
    return per_flip(_watcher_hits(end))


def _watcher_hits(end: End) -> Iterable[tuple[Tally, Flag]]:
    """Each watcher's hit at each instruction, before ``per_flip`` makes one finding of an instruction's."""
    for t in tallies(end.final.game):
        if not t.known:
            if t.paid:
                w = t.watcher
                reason = (
                    Msg("reason.mtg.watcher_unknown", card=w.card, watcher=w.permanent)
                    if w.card
                    else Msg("reason.mtg.watcher_not_entered", watcher=w.permanent, controller=w.controller)
                )
                yield t, Flag(t.paid[0].seq, {"reason": reason}, undecided=True, about=("watchers", t.ins.flip))
            continue
        if t.recorded == t.expected or _ignored_only(t):
            continue
        seq = t.first_over(t.expected) if t.recorded > t.expected else _last_counted_coin(t.ins)
        yield (
            t,
            Flag(
                seq,
                {
                    "card": t.watcher.card,
                    "watcher": t.watcher.permanent,
                    "controller": t.watcher.controller,
                    "flip": t.ins.flip,
                    "flip_card": t.ins.card,
                    "wins": t.wins,
                    "expected": t.expected,
                    "recorded": t.recorded,
                },
                about=("watchers", t.ins.flip),
                follows=every_flip(t.ins),
            ),
        )


NO_OTHERS = Text(en="", ja="")
"""``others`` of a finding about one watcher alone: nothing is added to its message."""


def per_flip(hits: Iterable[tuple[Tally, Flag]]) -> Iterable[Flag]:
    """One hit per instruction (and kind: decided or not) for a rule that checks every watcher at every flip.

    Checked one by one, W watchers that count F flips made W × F findings (a 96 KB log, an 84 MB
    page). A flip's hit names its first watcher as before, says how many others (``others``) and
    lists their seqs; a payoff is one watcher's at one flip, so all the findings together list each
    event at most once, and the output grows with the log. One watcher wrong once is one finding,
    as it was.
    """
    groups: dict[tuple[str, bool], list[Flag]] = {}
    for t, hit in hits:
        groups.setdefault((t.ins.flip, hit.undecided), []).append(hit)
    for found in groups.values():
        first = min(found, key=lambda h: h.seq)
        others = len(found) - 1
        evidence = dict(first.evidence)
        if not first.undecided:
            names = [h.evidence["watcher"] for h in found if h is not first]
            names = names[:3] + (["…"] if len(names) > 3 else [])
            evidence["others"] = Msg("text.mtg.other_watchers", n=others, names=names) if others else NO_OTHERS
        yield replace(first, evidence=evidence, seqs=tuple(sorted({h.seq for h in found} | set(first.seqs))))


def _ignored_watcher_hits(end: End) -> Iterable[tuple[Tally, Flag]]:
    for t in tallies(end.final.game):
        if _ignored_only(t):
            yield (
                t,
                Flag(
                    t.first_over(t.expected),
                    evidence(
                        t.ins,
                        detail=Msg(
                            "text.mtg.ignored_watcher", watcher=t.watcher.card, expected=t.expected, recorded=t.recorded
                        ),
                        expected=t.expected,
                        outcome=t.recorded,
                    ),
                    about=("watchers", t.ins.flip),
                    follows=every_flip(t.ins),
                ),
            )


def _ignored_watcher_payoffs(end: End) -> Iterable[Flag]:
    """MTG-THUMB-004's watcher payoffs, one hit per instruction (``per_flip``; its message names one watcher)."""
    for hit in per_flip(_ignored_watcher_hits(end)):
        evidence = {k: v for k, v in hit.evidence.items() if k != "others"}
        yield replace(hit, evidence=evidence)


def _ignored_anywhere(end: End) -> Iterable[Flag]:
    yield from ignored_counts_for_nothing.finish(end)  # type: ignore[misc]  # the rule has a finish (it is defined with one)
    yield from _ignored_watcher_payoffs(end)


IGNORED_COUNTS_FOR_NOTHING = replace(ignored_counts_for_nothing, finish=_ignored_anywhere)

RULES = (any_loss_no_payoff, payoff_equals_results, watcher_pays_counted_wins)
