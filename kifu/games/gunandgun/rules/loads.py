"""ガンナガン: loading guns (base game, and the variant's cap on effect loads).

Sources: reference gunandgun.md §1.4 ([N-load]: 装填上限, 最大装填数, face-up bullets);
seed 000 FAQ (装填上限を超えた分は無視され、装填数は上限の値で固定).
"""

from __future__ import annotations

from typing import Iterable

from kifu.auditor.base import Doc, Hit, Severity, Step, Text, rule

from .. import events as ev
from .. import projection as proj
from .facts import cat, game, player_gun

NLOAD = "reference gunandgun.md §1.4 [N-load]"


@rule(
    code="GG-LOAD-001", name="basic-loads-within-load-limit", severity=Severity.ERROR, citation=NLOAD + " (装填上限)",
    title=Text(ja="基本アクションの装填は装填上限まで", en="basic-action loads stay within the gun's per-turn load limit"),
    message=Text(ja="{gun} にこのターン基本アクションで {basic} 枚装填しました (装填上限 {limit})",
                 en="{basic} cards were loaded into {gun} by the basic action this turn (装填上限 {limit})"),
    on=(ev.Loaded,),
    doc=Doc(checks="Cards loaded into one gun by the basic load action in one turn do not exceed its 装填上限; "
                   "loads made by card effects do not count.",
            why="装填上限 limits the basic action only (effect loads do not use it up).",
            bad="キヨヒメ (装填上限 1): load basic 1; load basic 1", good="キヨヒメ: load basic 1; load effect 1 (a4)"),
)
def basic_loads_within_load_limit(s: Step) -> Iterable[Hit]:
    e = s.event
    if e.how != "basic":
        return
    st = game(s.after)
    g = player_gun(st, e.player, e.gun)
    if g is not None and g.limit is not None and g.basic > g.limit:
        yield Hit(e.seq, {"gun": e.gun, "basic": g.basic, "limit": g.limit})


@rule(
    code="GG-LOAD-002", name="loads-never-above-max", severity=Severity.ERROR,
    citation=NLOAD + " (最大装填数) / seed 000 FAQ (装填上限を超えた分は無視) / §ルール適用の例外 (各機銃が装填上限に達した場合はそこで止まる)",
    title=Text(ja="最大装填数を超えて装填しない", en="no gun is loaded past its maximum"),
    message=Text(ja="{gun} は {loads}/{max} 枚で、{n} 枚の装填のうち {over} 枚は上限を超えます (無視され、装填数は {max} のまま)",
                 en="{gun} held {loads}/{max}; {over} of the {n} cards loaded go past the maximum "
                    "(they are ignored and the gun stays at {max})"),
    on=(ev.Loaded,),
    doc=Doc(checks="A basic load never puts more cards into a gun than its 最大装填数 leaves room for (a face-up "
                   "ダブルバレット counts as 2). An "
                   "effect load whose N is larger than the room is not a violation: the excess is ignored and "
                   "the gun stays at its maximum (the projection records it as `loads_ignored_over_max`).",
            why="The player chooses a basic load, so loading a full gun is a play error; an effect's count comes "
                "from the toss, and seed 000's FAQ says the part above the maximum is simply ignored.",
            bad="カサネ 3/3; next turn load カサネ 1 (basic)", good="カサネ 1/3; load effect 5 (N=5: 2 fit, 3 ignored)"),
)
def loads_never_above_max(s: Step) -> Iterable[Hit]:
    e = s.event
    st = game(s.before)
    g = player_gun(st, e.player, e.gun)
    if g is None or g.max is None or e.how == "effect":
        return
    size = e.n * proj.counts_as(st, e)  # ダブルバレット fills two places
    over = size - max(0, g.max - g.loads)
    if over > 0:
        yield Hit(e.seq, {"gun": e.gun, "loads": g.loads, "max": g.max, "n": size, "over": over})


@rule(
    code="GG-LOAD-003", name="face-up-loads-are-bullets", severity=Severity.ERROR,
    citation=NLOAD + " (表向きは【銃弾】のみ; ドドメは【銃弾】を表向きに装填できない)",
    title=Text(ja="表向きに装填できるのは【銃弾】だけ", en="only 【銃弾】 cards are loaded face up"),
    message=Text(ja="{card} を {gun} に表向きで装填しました: {why_ja}", en="{card} was loaded face up into {gun}: {why}"),
    on=(ev.Loaded,),
    doc=Doc(checks="A face-up load names a 【銃弾】 card, into a gun that allows face-up bullets.",
            why="Face up means a special bullet; any other card loads face down as a normal bullet.",
            bad="load up 計略", good="load up 徹甲榴弾"),
)
def face_up_loads_are_bullets(s: Step) -> Iterable[Hit]:
    e = s.event
    if e.face != "up":
        return
    st = game(s.before)
    f = proj.find_card(cat(st), e.card)
    gun = proj.find_gun(cat(st), e.gun)
    if f is None:
        yield Hit(e.seq, {"reason": f"face-up card {e.card!r} is not in the catalogue"}, undecided=True)
    elif f.kind != "bullet":
        yield Hit(e.seq, {"card": e.card, "gun": e.gun, "why": f"it is a {f.kind} card",
                          "why_ja": "【銃弾】ではありません"})
    elif gun is not None and not gun.face_up_bullets:
        yield Hit(e.seq, {"card": e.card, "gun": e.gun, "why": "this gun takes no face-up bullets",
                          "why_ja": "この機銃には【銃弾】を表向きで装填できません"})


RULES = (basic_loads_within_load_limit, loads_never_above_max, face_up_loads_are_bullets)
