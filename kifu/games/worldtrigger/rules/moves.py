"""World Trigger rules of moves: a move pays one [移動] tag and changes the distance by one (seed 002 ■5)."""

from __future__ import annotations

from typing import Iterable

from kifu.auditor.base import Doc, Hit, Severity, Step, Text, rule

from ..events import Moved
from .common import cite, distance_now, who


@rule(
    code="WT-MOVE-001",
    name="move-costs-one-move-tag",
    severity=Severity.ERROR,
    citation=cite("■5 (移動を行う場合、［移動］タグをコストとして支払い)"),
    title=Text(ja="移動には［移動］タグを1つ支払う", en="a move pays one `move` tag"),
    message=Text(
        ja="{player} の移動: 支払ったタグ {tags}、手持ち {hand} — ［移動］タグ1つが必要です",
        en="{player}'s move paid {tags} with hand {hand}; it costs exactly one [move] tag in hand",
    ),
    on=(Moved,),
    options=("tags_expire",),
    doc=Doc(
        checks=Text(
            ja="`wt.move` がちょうど 1 つの ［移動］タグ (`move`) を支払い、そのプレイヤーがそれを持っていること。",
            en="A `wt.move` pays exactly one `move` tag, and the player holds one.",
        ),
        why=Text(
            ja="seed 002 ■5: 移動するには［移動］タグをコストとして支払い、距離を＋1 ないし－1 する宣言を行う。",
            en="Seed 002 ■5: to move, pay a [移動] tag as the cost and declare distance +1 or −1.",
        ),
        bad=Text(
            ja='手元のタグ [shooting]; {"type":"wt.move","player":"a","to":3,"tags":["shooting"]}',
            en='hand [shooting]; {"type":"wt.move","player":"a","to":3,"tags":["shooting"]}',
        ),
        good=Text(
            ja='手元のタグ [move]; {"type":"wt.move","player":"a","to":3}',
            en='hand [move]; {"type":"wt.move","player":"a","to":3}',
        ),
    ),
)
def move_costs_one_move_tag(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, Moved)
    hand = who(s).tags
    if list(e.tags) != ["move"] or "move" not in hand:
        yield Hit(e.seq, {"player": e.player, "tags": list(e.tags), "hand": list(hand)})


@rule(
    code="WT-MOVE-002",
    name="move-changes-distance-by-one",
    severity=Severity.ERROR,
    citation=cite("■5 (距離を＋１ないし－１する宣言)"),
    title=Text(ja="移動は距離を±1する", en="a move changes the distance by exactly 1"),
    message=Text(
        ja="{player} の移動は距離 {distance} から {to} へ: 1〜6 の範囲で ±1 ではありません",
        en="{player}'s move goes from distance {distance} to {to}, not ±1 within 1–6",
    ),
    on=(Moved,),
    doc=Doc(
        checks=Text(
            ja="`wt.move` の `to` が現在の距離の ±1 で、1〜6 の範囲に収まること: 距離 1 や 6 "
               "では内側への移動しかない (seed が丸めるのは初期距離だけなので、0 や 7 "
               "への移動を「何も変わらない移動」に直すことはしない)。",
            en="A `wt.move`'s `to` is the current distance plus or minus 1 and stays on the 1–6 scale: at 1 or 6 "
               "only the inward move exists (the seed clamps only the initial distance, so a move to 0 or 7 is not "
               "turned into a move that changes nothing).",
        ),
        why=Text(
            ja="seed 002 ■5: 移動は距離を＋1 ないし－1 する宣言。",
            en="Seed 002 ■5: a move declares distance +1 or −1.",
        ),
        bad=Text(
            ja='距離 3; {"type":"wt.move","player":"a","to":5}',
            en='distance 3; {"type":"wt.move","player":"a","to":5}',
        ),
        good=Text(
            ja='距離 3; {"type":"wt.move","player":"a","to":4}',
            en='distance 3; {"type":"wt.move","player":"a","to":4}',
        ),
    ),
)
def move_changes_distance_by_one(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, Moved)
    d = distance_now(s.before.game)
    if d is None:
        yield Hit(e.seq, {"reason": "the distance is not known (no wt.init.set)"}, undecided=True)
    elif abs(e.to - d) != 1 or not 1 <= e.to <= 6:
        yield Hit(e.seq, {"player": e.player, "distance": d, "to": e.to})


RULES = (
    move_costs_one_move_tag,
    move_changes_distance_by_one,
)
