"""ガンナガン (トスで決まる枚数ルール): usage limits stay as printed; N=0 still counts.

Sources: トスで決まる枚数ルール §ルール適用の例外 (「1ターン1度」などのカード使用制限は変わらない), FAQ
(0 でもカードの処理自体は行われたものとして扱う), 裁定例 ノイズジェネレーター; reference
gunandgun.md §1.8 (keyword limits), §1.9 (skills).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, rule
from kifu.events.i18n import Msg

from .. import events as ev
from .. import projection as proj
from .facts import opponent

PER_JA = {"name": "同名カード", "effect": "この効果", "loading": "装填"}


def _used(s: Step, scope: str, p: Any, card: str, f: Any) -> Iterable[tuple[Any, int, str]]:
    """(limit, count so far, card) for each of the card's limits of ``scope`` this event counts against."""
    e = s.event
    for lim in f.limits:
        if lim.scope != scope:
            continue
        if isinstance(e, (ev.CardPlayed, ev.BulletFired)) and lim.per == "name":
            yield lim, (p.plays if scope == "turn" else p.plays_game).get(card, 0), card
        elif isinstance(e, ev.EffectResolved) and lim.per == "effect" and scope == "turn":
            yield lim, p.resolves.get(card, 0), card
        elif isinstance(e, ev.Loaded) and e.face == "up" and lim.per == "loading" and scope == "turn":
            yield lim, p.up_loads.get(card, 0), card


def _check(s: Step, scope: str) -> Iterable[Flag]:
    # Both rules watch every use of a card, and few cards have a limit: the look-up first, in a plain function.
    e = s.event
    if type(e) is ev.Loaded and e.face != "up":
        return ()  # only a face-up loading counts against a limit: skip the catalogue look-ups
    st = s.after.game
    if type(e) is ev.EffectResolved:
        a = st.acts.get(e.act)
        card = proj.canon(st, e.card) or (a.card if a else None)
    else:
        card = proj.canon(st, getattr(e, "card", None))
    f = proj.card_facts(st, card)
    p = st.players.get(e.player)
    if p is None or f is None or not f.limits:
        return ()
    return _over(s, scope, _used(s, scope, p, card, f))


def _over(s: Step, scope: str, used: Iterable[tuple[Any, int, str]]) -> Iterable[Flag]:
    for lim, count, card in used:
        if count > lim.n:
            yield Flag(
                s.event.seq,
                {
                    "card": card,
                    "per": lim.per,
                    "per_ja": PER_JA[lim.per],
                    "n": lim.n,
                    "count": count,
                    "player": s.event.player,
                },
                about=("limit", scope, s.event.player, card, s.after.game.turn if scope == "turn" else 0),
            )


@rule(
    code="GG-LIM-001",
    name="turn-usage-limit-unchanged",
    severity=Severity.ERROR,
    on=(ev.CardPlayed, ev.BulletFired, ev.EffectResolved, ev.Loaded),
)
def turn_usage_limit_unchanged(s: Step) -> Iterable[Flag]:
    return _check(s, "turn")


@rule(
    code="GG-LIM-002",
    name="game-usage-limit-unchanged",
    severity=Severity.ERROR,
    on=(ev.CardPlayed, ev.BulletFired),
)
def game_usage_limit_unchanged(s: Step) -> Iterable[Flag]:
    return _check(s, "game")


def _imposed(st: Any, owner: str) -> Iterable[tuple[str, int | None, int]]:
    """(card, limit under its latest toss or None, group seq) for each opponent function imposing a limit."""
    p = st.players.get(owner)
    for card in dict.fromkeys(p.functions if p else ()):
        f = proj.card_facts(st, card)
        nums = [x for x in getattr(f, "numbers", []) if x.role == "limit_imposed"]
        if not nums:
            continue
        g = st.acts.get(p.group_of.get(card, ""))
        if not nums[0].replaceable:
            yield card, nums[0].value, 0
        elif g is not None and g.ended:
            yield card, g.n, g.seq
        else:
            yield card, None, 0


@rule(
    code="GG-LIM-003",
    name="imposed-limit-uses-n",
    severity=Severity.ERROR,
    on=(ev.CardPlayed,),
)
def imposed_limit_uses_n(s: Step) -> Iterable[Flag]:
    e = s.event
    if e.kind != "action":
        return
    st = s.after.game
    opp = opponent(st, e.player)
    count = st.players[e.player].actions if e.player in st.players else 0
    for card, limit, gseq in _imposed(st, opp or ""):
        if limit is None:
            yield Flag(e.seq, {"reason": Msg("reason.gg.not_tossed_yet", card=card)}, undecided=True)
        elif count > limit:
            yield Flag(e.seq, {"player": e.player, "count": count, "card": card, "n": limit}, (gseq,) if gseq else ())


@rule(
    code="GG-LIM-004",
    name="used-skill-stays-face-up",
    severity=Severity.ERROR,
    on=(ev.SkillUsed,),
)
def used_skill_stays_face_up(s: Step) -> Iterable[Flag]:
    e = s.event
    st = s.before.game
    p = st.players.get(e.player)
    f = proj.skill_facts(st, e.skill)
    if p is None:
        return
    chosen = [proj.skill_facts(st, x) for x in p.skills]
    if p.skills and e.skill not in p.skills and f is not None and f not in chosen:
        names = ", ".join(p.skills)
        yield Flag(
            e.seq,
            {
                "player": e.player,
                "skill": e.skill,
                "why": f"the chosen skill is {names}",
                "why_ja": f"選んだ技能は {names} です",
            },
            about=("act", e.act),
        )
    elif (proj.canon(st, e.skill) or e.skill) in p.skills_up:
        yield Flag(
            e.seq,
            {
                "player": e.player,
                "skill": e.skill,
                "why": "it is face up (already used)",
                "why_ja": "表向き (使用済み) です",
            },
            about=("act", e.act),
        )
    elif f is not None and f.per_turn is not None and p.plays.get(f.name, 0) >= f.per_turn:
        yield Flag(
            e.seq,
            {
                "player": e.player,
                "skill": e.skill,
                "why": f"used {f.per_turn}× this turn already",
                "why_ja": f"このターン既に {f.per_turn} 回使っています",
            },
            about=("act", e.act),
        )


@rule(
    code="GG-LIM-005",
    name="card-not-used-on-own-first-turn",
    severity=Severity.ERROR,
    on=(ev.CardPlayed,),
)
def card_not_used_on_own_first_turn(s: Step) -> Iterable[Flag]:
    e = s.event
    st = s.before.game
    f = proj.card_facts(st, e.card)
    if f is None or not f.not_first_turn:
        return
    p = st.players.get(e.player)
    if st.active is None or p is None or p.turns == 0:
        yield Flag(e.seq, {"reason": Msg("reason.gg.no_turns")}, undecided=True)
    elif st.active == e.player and p.turns == 1:
        yield Flag(e.seq, {"player": e.player, "card": f.name, "turn": st.turn})


RULES = (
    turn_usage_limit_unchanged,
    game_usage_limit_unchanged,
    imposed_limit_uses_n,
    used_skill_stays_face_up,
    card_not_used_on_own_first_turn,
)
