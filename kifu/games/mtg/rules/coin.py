"""Magic coin flips: the coin itself (CR 705.1, MTG Wiki «コイン投げ» §ルール) and flip bookkeeping."""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, rule
from kifu.events.i18n import Msg

from ..events import (
    ChoiceMade,
    CoinCalled,
    CoinKept,
    CoinLanded,
    FlipDecided,
    FlipInstructed,
    HeadsNamed,
    PayoffApplied,
    RandomiserAgreed,
)
from ..projection import Randomiser

DIE_READINGS = ("odd", "even", "low", "high")


@rule(
    code="MTG-COIN-001",
    name="substitute-needs-every-players-agreement",
    severity=Severity.ERROR,
    on=(RandomiserAgreed, CoinLanded),
)
def substitute_needs_agreement(s: Step) -> Iterable[Flag]:
    e = s.event
    players = s.after.log.players
    if isinstance(e, RandomiserAgreed):
        missing = [p for p in players if p not in e.agreed]
        if e.kind != "coin" and missing:
            return (Flag(e.seq, {"randomiser": e.randomiser, "missing": missing}),)
    elif isinstance(e, CoinLanded):
        r = s.before.game.randomisers.get(e.randomiser)
        if r is None or (r.kind == "coin" and e.face is not None):
            return (Flag(e.seq, {"randomiser": e.randomiser, "missing": list(players)}),)
    return ()


@rule(
    code="MTG-COIN-002",
    name="substitute-gives-two-equal-results",
    severity=Severity.ERROR,
    on=(RandomiserAgreed, HeadsNamed),
)
def substitute_two_equal_results(s: Step) -> Iterable[Flag]:
    e = s.event
    r = s.after.game.randomisers.get(e.randomiser)
    if r is None or (isinstance(e, HeadsNamed) and r.kind != "die"):
        return
    bad_coin = r.kind in ("coin", "cards") and r.sides != 2
    # a die's reading may be named later (mtg.heads); only a reading that is named and not 50/50 is wrong
    bad_die = r.kind == "die" and (r.sides % 2 or (r.heads is not None and r.heads not in DIE_READINGS))
    if bad_coin or bad_die:
        yield Flag(
            e.seq,
            {
                "randomiser": r.randomiser,
                "kind": Msg(f"word.mtg.{r.kind}"),
                "sides": r.sides,
                "heads": r.heads if r.heads is not None else Msg("text.mtg.heads_not_named"),
            },
        )


def die_side(r: Randomiser, face: int) -> str | None:
    """The side a die face reads as under the agreed reading; None if it cannot be read."""
    if face > r.sides or r.heads not in DIE_READINGS:
        return None
    low = face <= r.sides // 2
    heads = {"odd": face % 2 == 1, "even": face % 2 == 0, "low": low, "high": not low}[r.heads]
    return "heads" if heads else "tails"


@rule(
    code="MTG-COIN-003",
    name="die-face-reads-as-agreed",
    severity=Severity.ERROR,
    on=(CoinLanded,),
)
def die_face_reads_as_agreed(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, CoinLanded)
    if e.face is None:
        return ()
    r = s.before.game.randomisers.get(e.randomiser)
    if r is None or r.kind != "die" or r.heads is None:
        return ()  # no reading named yet: MTG-COIN-004
    expected = die_side(r, e.face)
    if expected != e.result:
        return (
            Flag(
                e.seq,
                {
                    "randomiser": e.randomiser,
                    "face": e.face,
                    "result": e.result,
                    "expected": expected or Msg("text.mtg.no_side", sides=r.sides),
                },
                (r.seq,),
            ),
        )
    return ()


@rule(
    code="MTG-COIN-004",
    name="unclear-coin-has-heads-named-before-flipping",
    severity=Severity.ERROR,
    on=(CoinLanded,),
)
def unclear_coin_heads_named(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, CoinLanded)
    r = s.before.game.randomisers.get(e.randomiser)
    if r is not None and (not r.clear or r.kind == "die") and r.heads is None:
        return (Flag(e.seq, {"randomiser": e.randomiser}, (r.seq,) if r.seq else ()),)
    return ()


REFERS = (CoinCalled, CoinLanded, CoinKept, FlipDecided, ChoiceMade, PayoffApplied)


@rule(
    code="MTG-FLIP-001",
    name="flip-events-name-an-instruction",
    severity=Severity.ERROR,
    on=REFERS,
)
def events_name_an_instruction(s: Step) -> Iterable[Flag]:
    flip = s.event.flip
    if flip not in s.before.game.flips:
        return (Flag(s.event.seq, {"type": type(s.event).__struct_config__.tag, "flip": flip}),)
    return ()


@rule(
    code="MTG-FLIP-002",
    name="flip-ids-are-unique",
    severity=Severity.ERROR,
    on=(FlipInstructed,),
)
def flip_ids_unique(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, FlipInstructed)
    old = s.before.game.flips.get(e.flip)
    if old is not None:
        yield Flag(e.seq, {"flip": e.flip, "first": old.seq}, (old.seq,))


@rule(
    code="MTG-FLIP-003",
    name="flip-card-is-classified",
    severity=Severity.INFO,
    on=(FlipInstructed,),
)
def flip_card_classified(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, FlipInstructed)
    ins = s.after.game.flips.get(e.flip)
    if ins is not None and ins.seq == e.seq and ins.kind is None:
        yield Flag(e.seq, {"card": e.card, "reason": Msg("reason.mtg.unclassified", card=e.card)}, undecided=True)


RULES = (
    substitute_needs_agreement,
    substitute_two_equal_results,
    die_face_reads_as_agreed,
    unclear_coin_heads_named,
    events_name_an_instruction,
    flip_ids_unique,
    flip_card_classified,
)
