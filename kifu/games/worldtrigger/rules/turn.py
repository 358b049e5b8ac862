"""World Trigger rules of each turn's order, trigger set, plot and tags (ボーダー隊員ソロランク戦ゲーム（仮） ■3, ■4, ■5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, rule
from kifu.events.i18n import Msg

from ..events import OrderDecided, Plotted, TagsGained, TriggersSet
from ..projection import agent, other
from .common import cat, face_up, who


@rule(
    code="WT-ORDER-001",
    name="fewer-trion-goes-first",
    severity=Severity.ERROR,
    on=(OrderDecided,),
)
def fewer_trion_goes_first(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, OrderDecided)
    g = s.before.game
    second = other(g, e.first)
    if second is None:
        return
    ft, st = agent(g, e.first).trion, agent(g, second).trion
    if ft > st:
        yield Flag(e.seq, {"turn": e.turn, "first": e.first, "second": second, "first_trion": ft, "second_trion": st})


@rule(
    code="WT-ORDER-002",
    name="tie-broken-by-fair-random-method",
    severity=Severity.WARNING,
    on=(OrderDecided,),
)
def tie_broken_at_random(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, OrderDecided)
    g = s.before.game
    second = other(g, e.first)
    if second is not None and agent(g, e.first).trion == agent(g, second).trion and e.tie_break is None:
        yield Flag(e.seq, {"turn": e.turn, "trion": agent(g, e.first).trion})


@rule(
    code="WT-SET-001",
    name="set-one-main-and-one-sub-from-the-build",
    severity=Severity.ERROR,
    on=(TriggersSet,),
)
def set_one_main_and_one_sub(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, TriggersSet)
    a = who(s)
    c = cat(s)
    for slot, trigger, side in (("main", e.main, a.build_main), ("sub", e.sub, a.build_sub)):
        t = c.trigger(trigger)
        if trigger not in side:
            yield Flag(
                e.seq,
                {"player": e.player, "slot": slot, "trigger": trigger, "why": Msg("text.wt.not_on_side", side=slot)},
            )
        elif t is not None and t.option_of is not None:
            yield Flag(
                e.seq,
                {
                    "player": e.player,
                    "slot": slot,
                    "trigger": trigger,
                    "why": f"is a dedicated option of {t.option_of}, not a trigger",
                    "why_ja": f"{t.option_of} の専用オプションで、単独ではセットできません",
                },
            )


@rule(
    code="WT-SET-002",
    name="only-face-up-triggers-are-kept",
    severity=Severity.ERROR,
    on=(TriggersSet,),
)
def only_face_up_kept(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, TriggersSet)
    a = who(s)
    for slot in dict.fromkeys(e.kept):
        now = e.main if slot == "main" else e.sub
        before = a.set_main if slot == "main" else a.set_sub
        ev = {"player": e.player, "slot": slot, "trigger": now}
        if before != now:
            yield Flag(
                e.seq,
                {
                    **ev,
                    "was": f"{before} (another trigger)" if before else "empty",
                    "was_ja": f"別のトリガー {before}" if before else "空",
                },
            )
        elif not face_up(a, slot):
            yield Flag(e.seq, {**ev, "was": "face down", "was_ja": "裏向き"})


@rule(
    code="WT-SET-003",
    name="triggers-set-once-each-turn-before-plots",
    severity=Severity.ERROR,
    on=(TriggersSet, Plotted),
)
def triggers_set_each_turn(s: Step) -> Iterable[Flag]:
    g = s.before.game
    e = s.event
    if isinstance(e, TriggersSet):
        a = agent(g, e.player)
        if g.turn and g.plots and not a.sets_this_turn:
            return  # already reported at the first plot as missing: one late set is one finding
        if g.turn == 0 or g.plots:
            yield Flag(
                e.seq,
                {
                    "turn": g.turn,
                    "player": e.player,
                    "why": "came outside the set step (after the plots began, or before any turn order)",
                    "why_ja": "がセットの手順の外 (プロット開始後、または先攻決定前) に行われました",
                },
            )
        elif a.sets_this_turn:
            yield Flag(
                e.seq,
                {"turn": g.turn, "player": e.player, "why": "was recorded twice", "why_ja": "が2回記録されています"},
            )
    elif isinstance(e, Plotted) and not g.plots and g.turn:
        for player, a in g.agents.items():
            if a.sets_this_turn == 0:
                yield Flag(
                    e.seq,
                    {
                        "turn": g.turn,
                        "player": player,
                        "why": "is missing before the first plot",
                        "why_ja": "が最初のプロットの前にありません",
                    },
                )


@rule(
    code="WT-TURN-001",
    name="plots-follow-the-turn-order",
    severity=Severity.ERROR,
    on=(Plotted,),
)
def plots_follow_turn_order(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, Plotted)
    g = s.before.game
    n = len(g.plots) + 1
    if g.first is None:
        yield Flag(e.seq, {"reason": Msg("reason.wt.no_order_before_plot")}, undecided=True)
        return
    if n == 1:
        expected = expected_ja = g.first
    elif n == 2:
        expected = expected_ja = other(g, g.first) or "?"
    else:
        expected, expected_ja = "(nobody: both players already had their turn)", "(なし: 両者とも手番を終えています)"
    if e.attacker != expected:
        yield Flag(
            e.seq, {"turn": g.turn, "n": n, "attacker": e.attacker, "expected": expected, "expected_ja": expected_ja}
        )


@rule(
    code="WT-PLOT-001",
    name="tags-are-the-unblocked-plot-faces",
    severity=Severity.ERROR,
    on=(TagsGained,),
)
def tags_are_unblocked_faces(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, TagsGained)
    g = s.before.game
    if not agent(g, e.player).sheet:
        yield Flag(e.seq, {"reason": Msg("reason.wt.no_sheet", player=e.player)}, undecided=True)
    elif g.expected_tags is None or g.active != e.player:
        yield Flag(e.seq, {"player": e.player, "tags": e.tags, "detail": Msg("text.wt.tags_without_plot")})
    elif Counter(e.tags) != Counter(g.expected_tags):
        yield Flag(
            e.seq,
            {
                "player": e.player,
                "tags": e.tags,
                "detail": Msg(
                    "text.wt.tags_from_plot",
                    sheet=list(agent(g, e.player).sheet),
                    attack=list(g.attack),
                    defence=list(g.defence),
                    expected=list(g.expected_tags) or Msg("text.wt.no_tag"),
                ),
            },
        )


@rule(
    code="WT-ORDER-003",
    name="turns-numbered-consecutively",
    severity=Severity.WARNING,
    on=(OrderDecided,),
)
def turns_numbered_consecutively(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, OrderDecided)
    expected = s.before.game.turn + 1
    if e.turn != expected:
        yield Flag(e.seq, {"turn": e.turn, "expected": expected})


@rule(
    code="WT-TURN-002",
    name="both-players-take-their-turn",
    severity=Severity.ERROR,
    on=(OrderDecided,),
)
def both_players_take_their_turn(s: Step) -> Iterable[Flag]:
    g = s.before.game
    if g.turn > 0 and len(g.plots) < 2:
        missing = [p for p in (g.first, g.second) if p is not None and p not in g.plots]
        yield Flag(s.event.seq, {"turn": g.turn, "plots": len(g.plots), "missing": missing})


RULES = (
    fewer_trion_goes_first,
    turns_numbered_consecutively,
    both_players_take_their_turn,
    tie_broken_at_random,
    set_one_main_and_one_sub,
    only_face_up_kept,
    triggers_set_each_turn,
    plots_follow_turn_order,
    tags_are_unblocked_faces,
)
