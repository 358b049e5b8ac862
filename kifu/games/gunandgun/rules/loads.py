"""ガンナガン: loading guns (base game, and the variant's cap on effect loads).

Sources: ガンナガン非公式wiki「ルール」 §1.4 ([N-load]: 装填上限, 最大装填数, face-up bullets);
トスで決まる枚数ルール FAQ (装填上限を超えた分は無視され、装填数は上限の値で固定).
"""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, rule
from kifu.events.i18n import Msg

from .. import events as ev
from .. import projection as proj
from .facts import player_gun


@rule(
    code="GG-LOAD-001",
    name="basic-loads-within-load-limit",
    severity=Severity.ERROR,
    on=(ev.Loaded,),
)
def basic_loads_within_load_limit(s: Step) -> Iterable[Flag]:
    e = s.event
    if e.how != "basic":
        return ()
    g = player_gun(s.after.game, e.player, e.gun)
    if g is not None and g.limit is not None and g.basic > g.limit:
        return (Flag(e.seq, {"player": e.player, "gun": e.gun, "basic": g.basic, "limit": g.limit}),)
    return ()


@rule(
    code="GG-LOAD-002",
    name="loads-never-above-max",
    severity=Severity.ERROR,
    on=(ev.Loaded,),
)
def loads_never_above_max(s: Step) -> Iterable[Flag]:
    e = s.event
    if e.how == "effect":
        return ()
    st = s.before.game
    g = player_gun(st, e.player, e.gun)
    if g is None or g.max is None:
        return ()
    size = e.n * proj.counts_as(st, e)  # ダブルバレット fills two places
    over = size - max(0, g.max - g.loads)
    if over > 0:
        return (
            Flag(e.seq, {"player": e.player, "gun": e.gun, "loads": g.loads, "max": g.max, "n": size, "over": over}),
        )
    return ()


@rule(
    code="GG-LOAD-003",
    name="face-up-loads-are-bullets",
    severity=Severity.ERROR,
    on=(ev.Loaded,),
)
def face_up_loads_are_bullets(s: Step) -> Iterable[Flag]:
    e = s.event
    if e.face != "up":
        return ()
    return _face_up_load(s)


def _face_up_load(s: Step) -> Iterable[Flag]:
    e = s.event
    st = s.before.game
    f = proj.card_facts(st, e.card)
    gun = proj.gun_facts(st, e.gun)
    if f is None:
        yield Flag(e.seq, {"reason": Msg("reason.gg.card_unknown", card=e.card or e.gun)}, undecided=True)
    elif f.kind != "bullet":
        yield Flag(
            e.seq,
            {
                "player": e.player,
                "card": e.card,
                "gun": e.gun,
                "why": Msg("text.gg.not_a_bullet", kind=Msg(f"word.gg.{f.kind}")),
            },
        )
    elif gun is not None and not gun.face_up_bullets:
        yield Flag(e.seq, {"player": e.player, "card": e.card, "gun": e.gun, "why": Msg("text.gg.no_face_up_bullets")})


RULES = (basic_loads_within_load_limit, loads_never_above_max, face_up_loads_are_bullets)
