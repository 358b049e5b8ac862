"""Magic coin flips: Krark's Thumb (Saturday School #56, 2003-12-13; CR 614.1a replacement)."""

from __future__ import annotations

from msgspec.structs import replace
from collections.abc import Iterable

from kifu.auditor.base import End, Flag, Severity, Step, end_rule, latest, rule
from kifu.events.i18n import Msg

from ..events import CoinLanded
from ..projection import Group, Instruction, State, coins_of, groups_in_order
from .call import explained_by_ignored, wrong_outcomes
from .common import (
    RECORDED,
    STACKING,
    evidence,
    expected_coins,
    flip_subject,
)


def _expected(g: Group, player: str, options) -> int:
    return expected_coins(g.thumbs.get(player, 0), options[STACKING.name])


@rule(
    code="MTG-THUMB-001",
    name="each-flip-makes-2-to-the-k-coins",
    severity=Severity.ERROR,
    on=(CoinLanded,),
    options=(STACKING.name, RECORDED.name),
)
def coins_per_flip(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, CoinLanded)
    ins = s.after.game.flips.get(e.flip)
    if ins is None:
        return ()
    g = ins.groups[e.group]
    if len(g.coins) == 1:
        return ()  # a flip makes at least one coin, whatever the Thumbs
    who = e.player or ins.flipper
    want, found = _expected(g, who, s.options), len(coins_of(g, who))
    if found > want:
        return (Flag(e.seq, _count_evidence(ins, g, who, want, found, s.options), about=flip_subject(ins, g.group)),)
    return ()


def _count_evidence(ins: Instruction, g: Group, who: str, want: int, found: int, options) -> dict:
    k = g.thumbs.get(who, 0)
    additive = options[STACKING.name] == "multiply" and k > 1 and found == 1 + k
    note = Msg("text.mtg.note_additive") if additive else ""
    if k == 0 and found > want:
        note = Msg("text.mtg.note_reflip")
    return evidence(ins, group=g.group, player=who, thumbs=k, expected=want, found=found, note=note)


def _too_few(end: End) -> Iterable[Flag]:
    for ins, g, who in _flippers(end.final.game):
        if g.thumbs[who]:  # without a Thumb a flip wants one coin, and a flipper flipped one
            yield from _short_group(ins, g, who, end.options)


@latest
def _flippers(state: State) -> tuple[tuple[Instruction, Group, str], ...]:
    """(instruction, group, player) for every player who flipped in every group of every instruction (for the
    two end-of-match Thumb rules: worked out once per final state). A group's ``thumbs`` name each player
    who flipped in it, in the order of their first coins (``players_flipping``)."""
    return tuple((ins, g, who) for ins in state.flips.values() for g in groups_in_order(ins) for who in g.thumbs)


def _short_group(ins: Instruction, g: Group, who: str, options) -> Iterable[Flag]:
    want, mine = _expected(g, who, options), coins_of(g, who)
    if len(mine) >= want:
        return
    ev = _count_evidence(ins, g, who, want, len(mine), options)
    if options[RECORDED.name] == "kept":
        ev["reason"] = Msg("reason.mtg.only_kept", want=want, group=g.group)
        yield Flag(mine[-1].seq, ev, undecided=True, about=flip_subject(ins, g.group))
    else:
        yield Flag(mine[-1].seq, ev, about=flip_subject(ins, g.group))


THUMB_COUNT = replace(coins_per_flip, finish=_too_few)


def _keeps(g: Group, who: str) -> list:
    return [k for k in g.keeps if k.player == who]


@end_rule(
    code="MTG-THUMB-002",
    name="exactly-one-coin-is-kept",
    severity=Severity.ERROR,
    options=(RECORDED.name,),
)
def exactly_one_kept(end: End) -> Iterable[Flag]:
    for ins, g, who in _flippers(end.final.game):
        yield from _kept_count(ins, g, who)


def _kept_count(ins: Instruction, g: Group, who: str) -> Iterable[Flag]:
    if not g.keeps and len(g.coins) == 1:
        return  # one coin and no keep line: nothing to choose, nothing chosen
    mine, keeps = coins_of(g, who), _keeps(g, who)
    valid = [k for k in keeps if 1 <= k.value <= len(mine)]
    # with no Thumb an extra coin is a re-flip (MTG-THUMB-001), not a coin waiting to be kept
    thumbed = g.thumbs.get(who, 0) > 0
    if thumbed and len(mine) > 1 and not keeps and len({c.result for c in mine}) > 1:
        yield Flag(
            mine[-1].seq,
            evidence(ins, group=g.group, player=who, found=len(mine), kept=0, why=Msg("text.mtg.none_kept")),
            about=flip_subject(ins, g.group),
        )
    for k in keeps[1:]:
        yield Flag(
            k.seq,
            evidence(ins, group=g.group, player=who, found=len(mine), kept=len(keeps), why=Msg("text.mtg.kept_twice")),
            (keeps[0].seq,),
            about=flip_subject(ins, g.group),
        )
    if keeps and keeps[0] not in valid:
        yield Flag(
            keeps[0].seq,
            evidence(
                ins,
                group=g.group,
                player=who,
                found=len(mine),
                kept=0,
                why=Msg("text.mtg.no_such_coin", coin=keeps[0].value),
            ),
            about=flip_subject(ins, g.group),
        )


@rule(
    code="MTG-THUMB-003",
    name="coin-is-kept-after-every-coin-is-seen",
    severity=Severity.ERROR,
    on=(CoinLanded,),
    options=(RECORDED.name,),
)
def kept_after_all_seen(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, CoinLanded)
    before = s.before.game.flips.get(e.flip)
    g = before.groups.get(e.group) if before else None
    if before is None or g is None or not g.keeps:
        return ()
    keep = g.keeps[0]
    if all(c.seq < keep.seq for c in g.coins):
        return (
            Flag(
                keep.seq,
                evidence(before, group=e.group, player=keep.player, seq=keep.seq, late=e.seq),
                (e.seq,),
                about=flip_subject(before, e.group),
            ),
        )
    return ()


@end_rule(
    code="MTG-THUMB-004",
    name="ignored-coin-counts-for-nothing",
    severity=Severity.ERROR,
)
def ignored_counts_for_nothing(end: End) -> Iterable[Flag]:
    for ins, g, o, expected, seen in wrong_outcomes(end.final.game):
        if explained_by_ignored(ins, g, o.value):
            yield Flag(
                o.seq,
                evidence(
                    ins,
                    detail=Msg("text.mtg.ignored_flip", group=g.group, expected=expected, outcome=o.value),
                    expected=expected,
                    outcome=o.value,
                    **seen,
                ),
                about=flip_subject(ins, g.group),
            )


RULES = (THUMB_COUNT, exactly_one_kept, kept_after_all_seen, ignored_counts_for_nothing)
