"""Magic coin flips: how many flips an effect makes and when a sequence stops (card texts, reference A2/A4)."""

from __future__ import annotations

from msgspec.structs import replace
from collections.abc import Iterable

from kifu.auditor.base import End, Flag, Severity, Step, end_rule, rule
from kifu.events.i18n import Msg

from ..events import ChoiceMade, CoinLanded, FlipInstructed, PayoffApplied
from ..projection import (
    Group,
    Instruction,
    counted,
    made_groups,
    groups_in_order,
    kept_coin,
    true_outcome,
)
from .common import (
    card,
    every_flip,
    evidence,
    flip_subject,
    last_coin_seq,
    players_flipping,
)

UNTIL_LOSE = ("until-lose", "until-lose-or-stop", "capped")
OPPONENT = "an opponent"
"""Who decides for Game of Chaos after a lost flip: any opponent of the flipper."""


def _starting(s: Step) -> tuple[Instruction, Instruction] | None:
    """(before, after) when this coin starts a new flip of an existing instruction: its group had no coin before
    (a coin adds itself to its group, and never opens an instruction, so the group after it holds it alone)."""
    e = s.event
    after = s.after.game.flips.get(e.flip)
    if after is None or len(after.groups[e.group].coins) != 1:
        return None
    before = s.before.game.flips.get(e.flip)
    return None if before is None else (before, after)


@rule(
    code="MTG-SEQ-001",
    name="until-lose-flips-stop-at-the-first-kept-loss",
    severity=Severity.ERROR,
    on=(CoinLanded,),
)
def stops_at_first_loss(s: Step) -> Iterable[Flag]:
    ins = s.after.game.flips.get(s.event.flip)
    if ins is None or ins.sequence not in UNTIL_LOSE:  # each sequence rule judges one kind: asked first
        return ()
    pair = _starting(s)
    return () if pair is None else _flips_after_a_loss(s, *pair)


def _flips_after_a_loss(s: Step, before: Instruction, after: Instruction) -> Iterable[Flag]:
    for g, outcome in counted(before):
        if outcome == "lost" and g.group < s.event.group:
            seq = kept_coin(g, before.flipper).seq if kept_coin(g, before.flipper) else g.first_seq
            yield Flag(
                s.event.seq,
                evidence(
                    after,
                    group=s.event.group,
                    lost_group=g.group,
                    loss_seq=seq,
                ),
                (seq,),
                about=("length", after.flip),
                follows=(flip_subject(after, g.group),),
            )
            return


def _ends_well(ins: Instruction, last: Group, outcome: str) -> bool:
    if outcome == "lost":
        return True
    if any(c.value == "stop" for c in last.choices):
        return True  # whether that stop was allowed, and whose it was, is MTG-SEQ-004's finding
    if ins.sequence == "capped":
        return len(ins.groups) >= (ins.chosen or 0)
    return False


@end_rule(
    code="MTG-SEQ-002",
    name="until-lose-flips-end-on-a-kept-loss",
    severity=Severity.ERROR,
)
def ends_on_a_loss(end: End) -> Iterable[Flag]:
    for ins in end.final.game.flips.values():
        if ins.sequence not in UNTIL_LOSE:
            continue
        results = counted(ins)
        if not results:
            if not (ins.sequence == "capped" and not ins.chosen):
                yield Flag(ins.seq, evidence(ins, flips=0, why="no flip at all"), about=("length", ins.flip))
            continue
        last, outcome = results[-1]
        if outcome is not None and not _ends_well(ins, last, outcome):
            why = {"until-lose": Msg("text.mtg.stops_on_loss"), "capped": Msg("text.mtg.fewer_than", n=ins.chosen)}.get(
                ins.sequence, Msg("text.mtg.no_stop")
            )
            yield Flag(
                last_coin_seq(ins),
                evidence(ins, flips=len(results), why=why),
                about=("length", ins.flip),
                follows=every_flip(ins),
            )


def expected_flips(s: Step | End, ins: Instruction) -> int | None:
    """Flips the instruction must make (fixed and chosen counts), or at most (capped); else None."""
    c = card(s.after.game if isinstance(s, Step) else s.final.game, ins)
    if ins.sequence == "fixed":
        return c.coins if c is not None and c.coins else ins.coins
    if ins.sequence in ("chosen", "capped"):
        return ins.chosen
    return None


def _choice_range(s: Step, ins: Instruction) -> tuple[int, int | None] | None:
    c = card(s.after.game, ins)
    return c.choose if c is not None else None


@rule(
    code="MTG-SEQ-003",
    name="flips-the-number-instructed",
    severity=Severity.ERROR,
    on=(FlipInstructed, CoinLanded),
)
def number_instructed(s: Step) -> Iterable[Flag]:
    e = s.event
    ins = s.after.game.flips.get(e.flip)
    if ins is None:
        return ()
    if isinstance(e, FlipInstructed):
        return _bad_choice(s, ins)
    if ins.sequence not in ("fixed", "chosen", "capped"):
        return ()  # no number to exceed (expected_flips)
    want = expected_flips(s, ins)
    if want is not None and len(ins.groups) > want and _starting(s) is not None:
        return (Flag(e.seq, evidence(ins, expected=want, found=len(ins.groups)), about=("length", ins.flip)),)
    return ()


def _bad_choice(s: Step, ins: Instruction) -> Iterable[Flag]:
    rng = _choice_range(s, ins)
    if ins.seq != s.event.seq or rng is None or ins.sequence not in ("chosen", "capped"):
        return
    lo, hi = rng
    if ins.chosen is None or ins.chosen < lo or (hi is not None and ins.chosen > hi):
        yield Flag(
            s.event.seq,
            evidence(
                ins,
                expected=Msg("text.mtg.chosen_in", lo=lo, hi=hi if hi is not None else "∞"),
                found=ins.chosen if ins.chosen is not None else Msg("text.mtg.no_choice"),
            ),
        )


def _too_few_flips(end: End) -> Iterable[Flag]:
    for ins in end.final.game.flips.values():
        want = expected_flips(end, ins)
        if ins.sequence in ("fixed", "chosen") and want is not None and len(ins.groups) < want:
            yield Flag(
                last_coin_seq(ins), evidence(ins, expected=want, found=len(ins.groups)), about=("length", ins.flip)
            )


NUMBER_INSTRUCTED = replace(number_instructed, finish=_too_few_flips)


@rule(
    code="MTG-SEQ-004",
    name="stop-is-allowed-by-the-card-and-final",
    severity=Severity.ERROR,
    on=(ChoiceMade, CoinLanded),
)
def stop_allowed_and_final(s: Step) -> Iterable[Flag]:
    e = s.event
    ins = s.after.game.flips.get(e.flip)
    if ins is None:
        return ()
    if isinstance(e, ChoiceMade):
        return _bad_stop(ins, e)
    pair = _starting(s)
    if pair is None or not any([g.choices for g in pair[0].groups.values()]):
        return ()  # (choices are rare: asked before the flips are put in order)
    stops = [c for g in groups_in_order(pair[0]) for c in g.choices if c.value == "stop"]
    if stops:
        return (
            Flag(
                e.seq,
                evidence(ins, what=Msg("text.mtg.flip_after_stop", seq=stops[0].seq)),
                (stops[0].seq,),
                about=("length", ins.flip),
            ),
        )
    return ()


def _bad_stop(ins: Instruction, e: ChoiceMade) -> Iterable[Flag]:
    if e.choice != "stop" or ins.sequence == "repeat":
        return
    if ins.sequence != "until-lose-or-stop":
        yield Flag(e.seq, evidence(ins, what=Msg("text.mtg.no_choice_to_stop")))
    elif e.player != ins.flipper:
        yield Flag(e.seq, evidence(ins, what=Msg("text.mtg.only_flipper_stops", flipper=ins.flipper, player=e.player)))


def _decider(ins: Instruction, g: Group) -> str | None:
    """Game of Chaos: who decides whether to flip again after flip ``g`` (the winner's side)."""
    outcome = true_outcome(ins, g)
    if outcome is None:
        return None
    return ins.flipper if outcome == "won" else OPPONENT


@rule(
    code="MTG-SEQ-005",
    name="repeat-only-on-the-right-players-decision",
    severity=Severity.ERROR,
    on=(CoinLanded,),
)
def repeat_on_right_decision(s: Step) -> Iterable[Flag]:
    ins = s.after.game.flips.get(s.event.flip)
    if ins is None or ins.sequence != "repeat":
        return ()
    pair = _starting(s)
    return () if pair is None else _repeat_undecided(s, pair[0])


def _repeat_undecided(s: Step, before: Instruction) -> Iterable[Flag]:
    earlier = [g for g in groups_in_order(before) if g.group < s.event.group]
    if not earlier:
        return
    prev = earlier[-1]
    decider = _decider(before, prev)
    if decider is None:
        return
    ok = any(
        c.value == "continue" and (c.player == decider or (decider == OPPONENT and c.player != before.flipper))
        for c in prev.choices
    )
    if not ok:
        who = Msg("text.mtg.an_opponent") if decider == OPPONENT else decider
        yield Flag(
            s.event.seq,
            evidence(before, group=s.event.group, prev=prev.group, decider=who),
            about=("length", before.flip),
            follows=(flip_subject(before, prev.group),),
        )


@rule(
    code="MTG-SEQ-006",
    name="stakes-double-with-each-flip",
    severity=Severity.ERROR,
    on=(PayoffApplied,),
)
def stakes_double(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, PayoffApplied)
    ins = s.after.game.flips.get(e.flip)
    c = card(s.after.game, ins) if ins else None
    if ins is None or c is None or c.stakes != "double" or e.permanent or e.kind not in ("life-gain", "life-loss"):
        return
    if e.group is None:
        yield Flag(e.seq, evidence(ins, kind=e.kind, reason=Msg("reason.mtg.payoff_no_group")), undecided=True)
    elif e.amount != 2 ** (e.group - 1):
        yield Flag(
            e.seq,
            evidence(ins, group=e.group, kind=e.kind, expected=2 ** (e.group - 1), amount=e.amount),
            about=("payoff", ins.flip),
        )


def _all_heads(ins: Instruction, g: Group) -> bool | None:
    sides = [kept_coin(g, who) for who in players_flipping(g)]
    if not sides or any(k is None for k in sides):
        return None
    return all(k.result == "heads" for k in sides if k is not None)


@rule(
    code="MTG-SEQ-007",
    name="mana-clash-repeats-until-both-land-heads",
    severity=Severity.ERROR,
    on=(CoinLanded,),
)
def mana_clash_until_heads(s: Step) -> Iterable[Flag]:
    ins = s.after.game.flips.get(s.event.flip)
    if ins is None or ins.sequence != "until-both-heads":
        return ()
    pair = _starting(s)
    return () if pair is None else _round_after_all_heads(s, pair)


def _round_after_all_heads(s: Step, pair: tuple[Instruction, Instruction]) -> Iterable[Flag]:
    for g in groups_in_order(pair[0]):
        if g.group < s.event.group and _all_heads(pair[0], g):
            yield Flag(
                s.event.seq,
                evidence(
                    pair[1],
                    group=s.event.group,
                    what=Msg("text.mtg.round_all_heads", round=g.group),
                ),
                about=("length", pair[1].flip),
                follows=(flip_subject(pair[1], g.group),),
            )
            return


def _clash_unfinished(end: End) -> Iterable[Flag]:
    for ins in end.final.game.flips.values():
        if ins.sequence != "until-both-heads":
            continue
        # rounds after the all-heads one were reported where they began; judge the rounds the spell made
        groups = made_groups(ins)
        for g in groups:
            if g.coins and len(players_flipping(g)) < 2:
                yield Flag(
                    g.coins[-1].seq,
                    evidence(ins, group=g.group, what=Msg("text.mtg.only_one_flipped", player=g.coins[0].player)),
                )
        if groups and _all_heads(ins, groups[-1]) is False:
            yield Flag(
                last_coin_seq(ins), evidence(ins, group=groups[-1].group, what=Msg("text.mtg.last_round_not_heads"))
            )


MANA_CLASH = replace(mana_clash_until_heads, finish=_clash_unfinished)

RULES = (
    stops_at_first_loss,
    ends_on_a_loss,
    NUMBER_INSTRUCTED,
    stop_allowed_and_final,
    repeat_on_right_decision,
    stakes_double,
    MANA_CLASH,
)
