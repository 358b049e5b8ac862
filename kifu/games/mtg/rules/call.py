"""Magic coin flips: calls, winning and losing (CR 705.2, MTG Wiki «コイン投げ» §ルール) and stated results (CR 705.3)."""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import End, Flag, Severity, Step, end_rule, latest, rule
from kifu.events.i18n import Msg

from ..events import CoinCalled, CoinLanded, FlipDecided
from ..projection import (
    Group,
    Instruction,
    Mark,
    State,
    coins_of,
    groups_in_order,
    ignored_coins,
    stated_group,
)
from .common import CALLS, STATED, evidence, flip_subject


def _called(s: Step) -> Instruction | None:
    """The instruction of this event if it is a called flip without a stated result."""
    ins = s.after.game.flips.get(s.event.flip)
    if ins is None or ins.kind != "called" or stated_group(ins, s.event.group):
        return None
    return ins


@rule(
    code="MTG-CALL-001",
    name="heads-tails-flip-has-no-call",
    severity=Severity.ERROR,
    on=(CoinCalled,),
)
def heads_tails_has_no_call(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, CoinCalled)
    ins = s.after.game.flips.get(e.flip)
    if ins is not None and ins.kind == "heads-tails":
        yield Flag(e.seq, evidence(ins, player=e.player, side=e.side), about=flip_subject(ins, e.group))


@rule(
    code="MTG-CALL-002",
    name="heads-tails-flip-has-no-winner",
    severity=Severity.ERROR,
    on=(FlipDecided,),
    options=(STATED.name,),
)
def heads_tails_has_no_winner(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, FlipDecided)
    ins = s.after.game.flips.get(e.flip)
    if ins is not None and ins.kind == "heads-tails" and not stated_group(ins, e.group):
        yield Flag(e.seq, evidence(ins, player=e.player, outcome=e.outcome), about=flip_subject(ins, e.group))


@rule(
    code="MTG-CALL-003",
    name="the-flipper-calls",
    severity=Severity.ERROR,
    on=(CoinCalled,),
)
def flipper_calls(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, CoinCalled)
    ins = _called(s)
    if ins is not None and e.player != ins.flipper:
        yield Flag(e.seq, evidence(ins, player=e.player), about=flip_subject(ins, e.group))


@rule(
    code="MTG-CALL-004",
    name="call-comes-before-the-result",
    severity=Severity.ERROR,
    on=(CoinCalled, CoinLanded, FlipDecided),
)
def call_before_result(s: Step) -> Iterable[Flag]:
    # Watches most flip events: a plain function, not a generator (one is built per call).
    ins = _called(s)
    if ins is None:
        return ()
    e = s.event
    before = s.before.game.flips.get(e.flip)
    g_before = before.groups.get(e.group) if before else None
    if isinstance(e, CoinCalled):
        landed = coins_of(g_before, ins.flipper) if g_before else ()
        if landed and e.player == ins.flipper:
            return (
                Flag(
                    e.seq,
                    evidence(ins, group=e.group, seq=e.seq, coin_seq=landed[0].seq),
                    (landed[0].seq,),
                    about=flip_subject(ins, e.group),
                ),
            )
        return ()
    return _no_call(ins, g_before, e)


def _no_call(ins: Instruction, g_before, e) -> tuple[Flag, ...]:
    """Info: a result with no call before it and nothing earlier in the flip: the timing cannot be decided."""
    if g_before is not None and (any(c.player == ins.flipper for c in g_before.calls) or g_before.coins):
        return ()
    if isinstance(e, CoinLanded) and (e.player or ins.flipper) != ins.flipper:
        return ()
    reason = Msg("reason.mtg.no_call", flipper=ins.flipper, group=e.group, card=ins.card)
    return (Flag(e.seq, evidence(ins, group=e.group, reason=reason), undecided=True, about=flip_subject(ins, e.group)),)


@rule(
    code="MTG-CALL-005",
    name="only-the-flipper-wins-or-loses",
    severity=Severity.ERROR,
    on=(FlipDecided,),
)
def only_flipper_wins(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, FlipDecided)
    ins = s.after.game.flips.get(e.flip)
    if ins is not None and ins.kind != "heads-tails" and e.player != ins.flipper:
        yield Flag(e.seq, evidence(ins, player=e.player, outcome=e.outcome), about=flip_subject(ins, e.group))


def expected_outcome(ins: Instruction, g: Group) -> tuple[str | None, dict]:
    """The outcome 705.2/705.3 give for flip ``g``, with the values compared: the call and the flipper's kept
    side, as the fold keeps them on the group (``the_call``, ``kept_coin``)."""
    if stated_group(ins, g.group):
        return "won", {"call": Msg("text.mtg.no_call_needed"), "result": Msg("text.mtg.stated_heads")}
    kept, call = g.kept.get(ins.flipper), g.call
    if kept is None or call is None:
        return None, {}
    return ("won" if call == kept else "lost"), {"call": call, "result": kept}


def explained_by_ignored(ins: Instruction, g: Group, outcome: str) -> bool:
    """True when the recorded outcome is what an ignored Thumb coin would have given."""
    call = g.call
    if call is None or stated_group(ins, g.group):
        return False
    return any((c.result == call) == (outcome == "won") for c in ignored_coins(g, ins.flipper))


@latest
def wrong_outcomes(state: State) -> tuple[tuple[Instruction, Group, Mark, str, dict], ...]:
    """Each flipper's recorded outcome of a called flip that contradicts call and kept coin, judged once the
    whole log is in (a keep or a coin may be recorded after the outcome). MTG-CALL-006 and MTG-THUMB-004
    split them: worked out once per final state."""
    out = []
    for ins in state.flips.values():
        if ins.kind != "called":
            continue
        for g in groups_in_order(ins):
            if not g.outcomes or stated_group(ins, g.group):
                continue  # nothing recorded to judge; a stated result is MTG-STATE-001's to judge
            expected, seen = expected_outcome(ins, g)
            for o in g.outcomes:
                if o.player == ins.flipper and expected is not None and o.value != expected:
                    out.append((ins, g, o, expected, seen))
    return tuple(out)


@end_rule(
    code="MTG-CALL-006",
    name="won-means-the-call-matches-the-result",
    severity=Severity.ERROR,
    options=(STATED.name, CALLS.name),
)
def won_means_call_matches(end: End) -> Iterable[Flag]:
    for ins, g, o, expected, seen in wrong_outcomes(end.final.game):
        if not explained_by_ignored(ins, g, o.value):
            yield Flag(
                o.seq,
                evidence(ins, group=g.group, expected=expected, outcome=o.value, **seen),
                about=flip_subject(ins, g.group),
            )


@rule(
    code="MTG-CALL-007",
    name="the-instructed-player-flips",
    severity=Severity.ERROR,
    on=(CoinLanded,),
)
def instructed_player_flips(s: Step) -> Iterable[Flag]:
    e = s.event
    if e.player is None:
        return ()  # the instruction's flipper, as the log leaves it
    ins = s.after.game.flips.get(e.flip)
    if ins is not None and ins.flippers != "each-player" and e.player != ins.flipper:
        return (Flag(e.seq, evidence(ins, player=e.player), about=flip_subject(ins, e.group)),)
    return ()


@rule(
    code="MTG-STATE-001",
    name="stated-result-lands-heads-and-wins",
    severity=Severity.ERROR,
    on=(CoinLanded, FlipDecided),
    options=(STATED.name,),
)
def stated_result(s: Step) -> Iterable[Flag]:
    ins = s.after.game.flips.get(s.event.flip)
    if ins is None or not stated_group(ins, s.event.group):
        return ()
    return _stated_contradicted(s.event, ins)


def _stated_contradicted(e: CoinLanded | FlipDecided, ins: Instruction) -> Iterable[Flag]:
    if isinstance(e, CoinLanded) and e.result != "heads" and (e.player or ins.flipper) == ins.flipper:
        yield Flag(e.seq, evidence(ins, what=Msg("text.mtg.a_coin", side=e.result)), about=flip_subject(ins, e.group))
    if isinstance(e, FlipDecided) and e.outcome != "won":
        yield Flag(
            e.seq,
            evidence(ins, what=Msg("text.mtg.player_outcome", player=e.player, outcome=e.outcome)),
            about=flip_subject(ins, e.group),
        )


RULES = (
    heads_tails_has_no_call,
    heads_tails_has_no_winner,
    flipper_calls,
    call_before_result,
    only_flipper_wins,
    won_means_call_matches,
    instructed_player_flips,
    stated_result,
)
