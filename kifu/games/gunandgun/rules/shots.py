"""ガンナガン: shooting and damage (base game; gun HIT tables are never tossed).

Sources: reference gunandgun.md §1.5 ([N-shoot] sequence and HIT table), seed 000
§ルール適用の例外 (機銃の固有効果には適用されない).
"""

from __future__ import annotations

from typing import Any, Iterable

from kifu.auditor.base import Doc, Hit, Severity, Step, Text, rule

from .. import events as ev
from .. import projection as proj
from .facts import cat, game, player_gun

NSHOOT = "reference gunandgun.md §1.5 [N-shoot]"
STAGES = ("effect", "bullet", "response", "replace")


@rule(
    code="GG-SHOT-001", name="gun-shoots-once-per-turn", severity=Severity.ERROR,
    citation="reference gunandgun.md §1.5 (C1: each gun shoots at most once per turn)", options=("shots_per_gun",),
    title=Text(ja="1丁の機銃は1ターンに1回だけ射撃する", en="each gun shoots at most once per turn"),
    message=Text(ja="{gun} はこのターン {shots} 回目の射撃です (上限 {limit})", en="{gun} shot {shots} times this turn (limit {limit})"),
    on=(ev.ShotDeclared,),
    doc=Doc(checks="A gun is not declared to shoot more times in one turn than `shots_per_gun` (default 1).",
            why="Cards such as Sou[N]d Crack exist to lift exactly this limit.",
            bad="shoot カサネ; shoot カサネ (same turn)", good="shoot カサネ; shoot キヨヒメ"),
)
def gun_shoots_once_per_turn(s: Step) -> Iterable[Hit]:
    e = s.event
    st = game(s.after)
    g = player_gun(st, e.player, e.gun)
    limit = s.options.get("shots_per_gun", 1)
    if g is not None and g.shots > limit:
        yield Hit(e.seq, {"gun": e.gun, "shots": g.shots, "limit": limit})


@rule(
    code="GG-SHOT-002", name="shot-needs-lowest-hit-row", severity=Severity.ERROR,
    citation=NSHOOT + " (最低限の装填数を満たさない限り、射撃はできません)",
    title=Text(ja="HIT表の最小装填数がないと射撃できない", en="a shot needs at least the lowest load of the HIT table"),
    message=Text(ja="{gun} は {loads} 枚で射撃しましたが、最小は {need} 枚です", en="{gun} shot with {loads} loaded, but needs {need}"),
    on=(ev.ShotDeclared,),
    doc=Doc(checks="When a shot is declared the gun holds at least the load count of its lowest HIT-table row.",
            why="Below the lowest row the gun cannot shoot.",
            bad="キヨヒメ (rows 3, 5) with 2 loaded: shoot", good="キヨヒメ with 3 loaded: shoot"),
)
def shot_needs_lowest_hit_row(s: Step) -> Iterable[Hit]:
    e = s.event
    st = game(s.before)
    g = player_gun(st, e.player, e.gun)
    gun = proj.find_gun(cat(st), e.gun)
    if g is None or gun is None:
        if g is not None:
            yield Hit(e.seq, {"reason": f"gun {e.gun!r} is not in the catalogue"}, undecided=True)
        return
    need = gun.min_load()
    if need is not None and g.loads < need:
        yield Hit(e.seq, {"gun": e.gun, "loads": g.loads, "need": need})


@rule(
    code="GG-SHOT-003", name="hit-modifiers-in-order", severity=Severity.ERROR, citation=NSHOOT + " (sequence 1-5)",
    title=Text(ja="HIT修正の順序: 効果 → 特殊弾 → 対応 → 置換", en="HIT modifiers apply in order: effects, bullets, responses, replacements"),
    message=Text(ja="{shot} の {stage} 修正が {after} 修正の後に記録されています",
                 en="a {stage} modifier of {shot} is recorded after a {after} modifier"),
    on=(ev.HitModified,),
    doc=Doc(checks="A shot's HIT modifiers are recorded in the order effect → bullet → response → replacement.",
            why="Order matters: a replacement (迎撃: HIT becomes 0) overrides everything before it.",
            bad="hit s1 response -2; hit s1 bullet +2", good="hit s1 bullet +2; hit s1 response -2"),
)
def hit_modifiers_in_order(s: Step) -> Iterable[Hit]:
    e = s.event
    shot = game(s.before).shots.get(e.shot)
    if shot is None or not shot.mods:
        return
    last = max(STAGES.index(m[0]) for m in shot.mods)
    if STAGES.index(e.stage) < last:
        yield Hit(e.seq, {"shot": e.shot, "stage": e.stage, "after": STAGES[last]}, (shot.seq,))


def expected_damage(gun: Any, shot: proj.Shot) -> int | None:
    row = gun.hit_at(shot.loads)
    if row is None:
        return None
    hit = row.hit
    for stage, delta, to in shot.mods:
        hit = to if stage == "replace" and to is not None else hit + delta
    return max(0, hit)


def current_hit(state: Any, shot: proj.Shot) -> int | None:
    """The HIT a shot would deal now (its row plus the modifiers recorded so far)."""
    gun = proj.find_gun(cat(state), shot.gun)
    return None if gun is None else expected_damage(gun, shot)


@rule(
    code="GG-SHOT-004", name="damage-matches-hit-table-and-modifiers", severity=Severity.ERROR,
    citation=NSHOOT + " (HIT table row; steps 1-6) / seed 000 §ルール適用の例外 (機銃の固有効果には適用されない)",
    title=Text(ja="ダメージは HIT表の値と修正の合計", en="a shot deals its HIT-table row plus its modifiers"),
    message=Text(ja="{shot} ({gun}, 装填 {loads}) のダメージは {want} のはずですが {got} でした",
                 en="{shot} ({gun}, {loads} loaded) should deal {want}, but dealt {got}"),
    on=(ev.LifeChanged,),
    doc=Doc(checks="The HIT a shot deals to its target equals its HIT-table row (highest threshold ≤ loads, a "
                   "face-up ダブルバレット counting 2, never tossed) with its modifiers applied in order, not below "
                   "0. The shooter's own RECOIL written on the shot is not its damage.",
            why="Gun HIT tables are gun effects: the variant does not replace them.",
            bad="カサネ 2 loaded (4 HIT); life -2", good="カサネ 2 loaded; life -4"),
)
def damage_matches_hit_table_and_modifiers(s: Step) -> Iterable[Hit]:
    e = s.event
    if e.why != "hit" or e.shot is None:
        return
    st = game(s.after)
    shot = st.shots.get(e.shot)
    gun = proj.find_gun(cat(st), shot.gun) if shot else None
    if shot is None or gun is None or e.player == shot.player:
        return  # the shooter's own loss (RECOIL) on the shot is not the shot's damage
    want = expected_damage(gun, shot)
    if want is not None and shot.damage != want:
        yield Hit(e.seq, {"shot": e.shot, "gun": shot.gun, "loads": shot.loads, "want": want, "got": shot.damage},
                  (shot.seq,))


RULES = (gun_shoots_once_per_turn, shot_needs_lowest_hit_row, hit_modifiers_in_order,
         damage_matches_hit_table_and_modifiers)
