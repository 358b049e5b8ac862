"""World Trigger rules of moves: a move pays one [移動] tag and changes the distance by one (ボーダー隊員ソロランク戦ゲーム（仮） ■5)."""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, rule
from kifu.events.i18n import Msg

from ..events import Moved
from .common import distance_now, who


@rule(
    code="WT-MOVE-001",
    name="move-costs-one-move-tag",
    severity=Severity.ERROR,
    on=(Moved,),
    options=("tags_expire",),
)
def move_costs_one_move_tag(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, Moved)
    hand = who(s).tags
    if list(e.tags) != ["move"] or "move" not in hand:
        yield Flag(e.seq, {"player": e.player, "tags": list(e.tags), "hand": list(hand) or Msg("text.wt.empty_hand")})


@rule(
    code="WT-MOVE-002",
    name="move-changes-distance-by-one",
    severity=Severity.ERROR,
    on=(Moved,),
)
def move_changes_distance_by_one(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, Moved)
    d = distance_now(s.before.game)
    if d is None:
        yield Flag(e.seq, {"reason": Msg("reason.wt.no_distance")}, undecided=True)
    elif abs(e.to - d) != 1 or not 1 <= e.to <= 6:
        yield Flag(e.seq, {"player": e.player, "distance": d, "to": e.to})


RULES = (
    move_costs_one_move_tag,
    move_changes_distance_by_one,
)
