"""ガンナガン: shooting and damage (base game; gun HIT tables are never tossed).

Sources: ガンナガン非公式wiki「ルール」 §1.5 ([N-shoot] sequence and HIT table), トスで決まる枚数ルール
§ルール適用の例外 (機銃の固有効果には適用されない).
"""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, rule
from kifu.events.i18n import Msg

from .. import events as ev
from .. import projection as proj
from .facts import expected_damage, player_gun, shot_named

STAGES = ("effect", "bullet", "response", "replace")


@rule(
    code="GG-SHOT-001",
    name="gun-shoots-once-per-turn",
    severity=Severity.ERROR,
    options=("shots_per_gun",),
    on=(ev.ShotDeclared,),
)
def gun_shoots_once_per_turn(s: Step) -> Iterable[Flag]:
    e = s.event
    st = s.after.game
    g = player_gun(st, e.player, e.gun)
    limit = s.options.get("shots_per_gun", 1)
    if g is not None and g.shots > limit:
        yield Flag(e.seq, {"player": e.player, "gun": e.gun, "shots": g.shots, "limit": limit}, about=("shot", e.shot))


@rule(
    code="GG-SHOT-002",
    name="shot-needs-lowest-hit-row",
    severity=Severity.ERROR,
    on=(ev.ShotDeclared,),
)
def shot_needs_lowest_hit_row(s: Step) -> Iterable[Flag]:
    e = s.event
    st = s.before.game
    g = player_gun(st, e.player, e.gun)
    gun = proj.gun_facts(st, e.gun)
    if g is None or gun is None:
        if g is not None:
            yield Flag(
                e.seq, {"reason": Msg("reason.gg.gun_unknown", gun=e.gun)}, undecided=True, about=("shot", e.shot)
            )
        return
    need = gun.min_load()
    if need is not None and g.loads < need:
        yield Flag(e.seq, {"player": e.player, "gun": e.gun, "loads": g.loads, "need": need}, about=("shot", e.shot))


@rule(
    code="GG-SHOT-003",
    name="hit-modifiers-in-order",
    severity=Severity.ERROR,
    on=(ev.HitModified,),
)
def hit_modifiers_in_order(s: Step) -> Iterable[Flag]:
    e = s.event
    shot = s.before.game.shots.get(e.shot)
    if shot is None or not shot.mods:
        return
    last = max(STAGES.index(m[0]) for m in shot.mods)
    if STAGES.index(e.stage) < last:
        yield Flag(
            e.seq,
            {
                "shot": e.shot,
                "target": shot_named(s.start, shot),
                "stage": Msg(f"word.gg.stage.{e.stage}"),
                "after": Msg(f"word.gg.stage.{STAGES[last]}"),
            },
            (shot.seq,),
            about=("shot", e.shot),
        )


@rule(
    code="GG-SHOT-004",
    name="damage-matches-hit-table-and-modifiers",
    severity=Severity.ERROR,
    on=(ev.LifeChanged,),
)
def damage_matches_hit_table_and_modifiers(s: Step) -> Iterable[Flag]:
    e = s.event
    if e.why != "hit" or e.shot is None:
        return
    st = s.after.game
    shot = st.shots.get(e.shot)
    gun = proj.gun_facts(st, shot.gun) if shot else None
    if shot is None or gun is None or e.player == shot.player:
        return  # the shooter's own loss (RECOIL) on the shot is not the shot's damage
    want = expected_damage(gun, shot)
    if want is not None and shot.damage != want:
        # what the damage follows from: the shot's modifiers, and a gun or gunner effect of the shooter declared
        # during the shot (a HIT taken from a wrongly tossed gun effect's N is that effect's mistake)
        modifiers = tuple(
            ("act", a.id)
            for a in st.acts.values()
            if a.shot == shot.id or a.kind in ("gun", "gunner") and a.player == shot.player and a.seq > shot.seq
        )
        yield Flag(
            e.seq,
            {
                "shot": e.shot,
                "target": shot_named(s.start, shot),
                "gun": shot.gun,
                "loads": shot.loads,
                "want": want,
                "got": shot.damage,
            },
            (shot.seq,),
            about=("shot", e.shot),
            follows=modifiers,
        )


RULES = (
    gun_shoots_once_per_turn,
    shot_needs_lowest_hit_row,
    hit_modifiers_in_order,
    damage_matches_hit_table_and_modifiers,
)
