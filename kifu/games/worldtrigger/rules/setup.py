"""World Trigger rules of the build and the initial distance (ボーダー隊員ソロランク戦ゲーム（仮） ■1, ■2)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from kifu.auditor.base import End, Flag, Severity, Step, end_rule, rule
from kifu.events.i18n import Msg

from .. import cards
from ..events import (
    BuildChosen,
    DistanceFixed,
    InitialTriggerUsed,
    SheetMade,
    TrionDealt,
)
from ..projection import InitUse
from .common import cat, unknown, who

SLOTS = 4


@rule(
    code="WT-BUILD-001",
    name="four-main-and-four-sub-triggers",
    severity=Severity.ERROR,
    on=(BuildChosen,),
)
def four_main_and_four_sub(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, BuildChosen)
    if len(e.main) != SLOTS or len(e.sub) != SLOTS:
        yield Flag(e.seq, {"player": e.player, "main": len(e.main), "sub": len(e.sub)})


@rule(
    code="WT-BUILD-002",
    name="option-on-its-trigger-side",
    severity=Severity.ERROR,
    on=(BuildChosen,),
)
def option_on_its_trigger_side(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, BuildChosen)
    for side, names, name, t in _build_entries(e, cat(s)):
        if t is not None and t.option_of is not None and t.option_of not in names:
            yield Flag(e.seq, {"player": e.player, "side": side, "option": name, "parent": t.option_of})


@rule(
    code="WT-BUILD-003",
    name="trigger-fits-its-side",
    severity=Severity.ERROR,
    on=(BuildChosen,),
)
def trigger_fits_its_side(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, BuildChosen)
    for side, _, name, t in _build_entries(e, cat(s)):
        if t is None:
            yield Flag(e.seq, unknown(name), undecided=True)
        elif t.option_of is None and t.side not in ("any", side):
            yield Flag(e.seq, {"player": e.player, "trigger": name, "side": side, "allowed": t.side})


def _build_entries(e: BuildChosen, c: cards.Catalogue) -> Iterator[tuple[str, list[str], str, cards.Trigger | None]]:
    """Each trigger of a build as (side, the names on that side, its name, its catalogue entry or None)."""
    for side, names in (("main", e.main), ("sub", e.sub)):
        for name in names:
            yield side, names, name, c.trigger(name)


@rule(
    code="WT-SHEET-001",
    name="plot-sheet-assigns-every-face",
    severity=Severity.ERROR,
    on=(SheetMade,),
)
def plot_sheet_assigns_every_face(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, SheetMade)
    if len(e.faces) != 6:
        yield Flag(e.seq, {"player": e.player, "count": len(e.faces)})


@rule(
    code="WT-TRION-001",
    name="starting-trion-is-100",
    severity=Severity.ERROR,
    on=(TrionDealt,),
    options=("starting_trion",),
)
def starting_trion_is_100(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, TrionDealt)
    expected = s.options.get("starting_trion", 100)
    if e.trion != expected:
        # one starting trion for the match: the same wrong amount dealt to both is one mistake
        yield Flag(
            e.seq, {"player": e.player, "trion": e.trion, "expected": expected}, about=("starting-trion", e.trion)
        )


def clamp(value: int) -> int:
    """Seed 002 ■2: below 1 becomes 1, 7 or more becomes 6."""
    return max(1, min(6, value))


@rule(
    code="WT-INIT-001",
    name="initial-distance-is-die-plus-shifts-clamped",
    severity=Severity.ERROR,
    on=(DistanceFixed,),
)
def initial_distance_clamped(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, DistanceFixed)
    g = s.before.game
    if g.initial_roll is None:
        yield Flag(e.seq, {"reason": Msg("reason.wt.no_roll")}, undecided=True)
        return
    c = cat(s)
    shifts = [u.delta for u in g.init_uses if shift_happens(c, u)]
    expected = clamp(g.initial_roll + sum(shifts))
    as_recorded = clamp(g.initial_roll + sum(u.delta for u in g.init_uses))
    if e.distance not in (expected, as_recorded):
        yield Flag(
            e.seq,
            {
                "distance": e.distance,
                "roll": g.initial_roll,
                "shifts": shifts or Msg("text.wt.no_shift"),
                "expected": expected,
            },
            seqs=tuple(u.seq for u in g.init_uses),
        )


def shift_happens(c: cards.Catalogue, u: InitUse) -> bool:
    """False for a ``wt.init.use`` that exerts no effect by ボーダー隊員ソロランク戦ゲーム（仮） ■2 (undecidable ones count)."""
    eff = c.effect(u.trigger, u.effect)
    if not u.in_build or u.short:
        return False
    if eff is None:
        return True
    in_range = eff.shift is None or eff.shift[0] <= u.delta <= eff.shift[1]
    return eff.timing == "initial" and in_range and u.trion == eff.trion


@end_rule(
    code="WT-INIT-002",
    name="initial-effects-used-first-player-first",
    severity=Severity.ERROR,
    options=("initial_order",),
)
def initial_effects_first_player_first(end: End) -> Iterable[Flag]:
    g = end.final.game
    uses = [(u.player, u.seq) for u in g.init_uses]
    first = g.turn1_first if end.options.get("initial_order", "turn1") == "turn1" else end.start.players[0].id
    if first is None:
        if len({p for p, _ in uses}) > 1:
            yield Flag(uses[-1][1], {"reason": Msg("reason.wt.no_order")}, undecided=True)
        return
    second_at: int | None = None
    second = next((p for p in g.agents if p != first), "?")
    for player, seq in uses:
        if player != first and second_at is None:
            second_at = seq
        elif player == first and second_at is not None:
            yield Flag(
                seq,
                {
                    "player": first,
                    "second": second,
                    "after": second_at,
                    "order": end.options.get("initial_order", "turn1"),
                },
                seqs=(second_at,),
            )


@rule(
    code="WT-INIT-003",
    name="initial-shift-is-an-initial-timing-effect",
    severity=Severity.ERROR,
    on=(InitialTriggerUsed,),
)
def initial_shift_is_initial_effect(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, InitialTriggerUsed)
    a = who(s)
    ev = {"player": e.player, "trigger": e.trigger, "effect": e.effect, "delta": e.delta}
    if e.trigger not in a.build_main + a.build_sub:
        yield Flag(e.seq, {**ev, "why": "not in the player's trigger set", "why_ja": "トリガーセットにありません"})
        return
    if s.before.game.distance is not None:
        yield Flag(
            e.seq, {**ev, "why": "the initial distance was already fixed", "why_ja": "初期距離は既に決定済みです"}
        )
        return
    eff = cat(s).effect(e.trigger, e.effect)
    if eff is None:
        yield Flag(e.seq, unknown(e.trigger, e.effect), undecided=True)
    elif eff.timing != "initial":
        yield Flag(e.seq, {**ev, "why": Msg("text.wt.timing_is", timing=eff.timing)})
    elif eff.shift is not None and not eff.shift[0] <= e.delta <= eff.shift[1]:
        yield Flag(
            e.seq,
            {
                **ev,
                "why": f"the effect shifts {eff.shift[0]}..{eff.shift[1]}",
                "why_ja": f"効果の修正幅は {eff.shift[0]}〜{eff.shift[1]} です",
            },
        )


RULES = (
    four_main_and_four_sub,
    option_on_its_trigger_side,
    trigger_fits_its_side,
    plot_sheet_assigns_every_face,
    starting_trion_is_100,
    initial_distance_clamped,
    initial_effects_first_player_first,
    initial_shift_is_initial_effect,
)
