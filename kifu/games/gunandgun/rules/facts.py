"""ガンナガン (トスで決まる枚数ルール): shared helpers for the rule modules.

Card facts come from the catalogue (kifu/games/gunandgun/cards.py); the helpers
turn an activation of the projection into what its card says, and compute N-based
values the way トスで決まる枚数ルール §基本ルール and §ルール適用の例外 describe.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from collections.abc import Iterable, Sequence

from kifu.auditor.base import Flag
from kifu.events.base import MatchStarted
from kifu.events.i18n import Msg

from .. import projection as proj
from ..projection import Activation, State

CARD_KINDS = proj.CARD_KINDS
SKILL_KINDS = proj.SKILL_KINDS
TOSSED_KINDS = CARD_KINDS + SKILL_KINDS


def player_gun(state: State, player: str, gun: str | None) -> proj.Gun | None:
    """The player's gun named ``gun``; None when the log has not set that player up (it started mid-game)."""
    p = state.players.get(player)
    return proj.gun_of(state, p, gun) if p else None


def facts_of(state: State, a: Activation, card: str | None = None) -> Any:
    """The card or skill an activation (or one skill of a continuous group) uses; None if unknown.

    The activation's own card is a fact the projection keeps for it (``proj.derived``); a resolution that
    names another card (one skill of a continuous group) is looked up here."""
    if not card or card == a.card:
        return proj.derived(state, a).facts
    return _facts(state.ckey, a.kind, card)


# An activation's card is kept by the projection (``proj.derived``); a card a resolution names is a fact of
# the catalogue, kept by (catalogue, kind of use, name).
@lru_cache(maxsize=4096)
def _facts(ckey: str, kind: str, key: str | None) -> Any:
    if kind in CARD_KINDS:
        return proj.tables(ckey).cards.get(key)
    if kind in SKILL_KINDS:
        return proj.tables(ckey).skills.get(key)
    return None


def numbers(facts: Any) -> Sequence[Any]:
    """The effect's numbers in printed order (the card's own list: read, never changed)."""
    return getattr(facts, "numbers", None) or ()


def expected_values(facts: Any, n: int) -> list[int]:
    """Each number of the effect as the variant applies it: N where replaceable, else as printed."""
    return [n if x.replaceable else x.value for x in numbers(facts)]


def value_of(facts: Any, n: int, role: str) -> int | None:
    """Total of the effect's numbers of one role under N (None when the card has none)."""
    vals = [n if x.replaceable else x.value for x in numbers(facts) if x.role == role]
    return sum(vals) if vals else None


def load_cap(state: State, a: Activation) -> int | None:
    """Room of the gun with the most room left: a load effect's toss stops there (トスで決まる枚数ルール §ルール適用の例外).

    Measured when the activation opened and again at its first toss; kept by the projection (``proj.derived``)."""
    return proj.derived(state, a).cap


def sequence_over(state: State, a: Activation, options: Any = None) -> bool:
    """The toss sequence has ended at an ending option ``load_toss_end`` allows.

    An opponent-facing toss always ends it. A load effect may also end where N reached the
    cap (the room of the gun with the most room): under ``cap-or-opponent`` only exactly
    there (a table that tossed on past the cap must go on until the coin faces the
    opponent), under ``cap`` there or past it (the toss past it is GG-TOSS-002's), under
    ``opponent`` never (トスで決まる枚数ルール's "原則として相手側が出るまでトスを続ける" read strictly).
    """
    if a.ended:
        return True
    cap = load_cap(state, a)
    if cap is None:
        return False
    option = (options or {}).get("load_toss_end", "cap-or-opponent")
    if option == "opponent":
        return False
    return a.n >= cap if option == "cap" else a.n == cap


def n_choices(state: State, a: Activation, options: Any = None) -> tuple[int, ...]:
    """The N a resolution may record: the capped N, and (unless option ``load_toss_end`` is ``cap``) the full count.

    A table that tossed on past a load effect's cap (the seed's 原則) may write the N it tossed
    (FAQ: トスで8になった) or the N that applies; both load the same cards.
    """
    n = effective_n(state, a)
    if (options or {}).get("load_toss_end", "cap-or-opponent") == "cap":
        return (n,)
    return (n, a.n)


def selects_alternative(facts: Any) -> bool:
    """The threshold picks between two HIT numbers (起死回生) instead of gating the whole effect."""
    return any(x.role == "hit" and "instead" in (x.note or "") for x in numbers(facts))


def expected_cost(state: State, a: Activation, options: Any) -> tuple[str, int] | None:
    """(currency, amount) of the printed cost, never scaled by N; None when unknown or X.

    A skill is paid in voltage; a deck card's COST in hand cards or voltage per the
    ``cost_payment`` option (reference §1.7, open question 1).
    """
    f = facts_of(state, a)
    if f is None:
        return None
    if a.kind == "skill":
        return None if f.cost is None else ("voltage", f.cost)
    if a.kind in ("action", "function", "response"):
        return (options.get("cost_payment", "hand"), f.cost)
    return None


def opponent(state: State, pid: str) -> str | None:
    return next((o for o in state.order if o != pid), None)


def unknown(seq: int, what: str, seqs: Iterable[int] = (), about: Any = None) -> Flag:
    """An info finding: the rule cannot decide without the card's facts."""
    return Flag(seq, {"reason": what}, seqs=tuple(seqs), undecided=True, about=about)


def effective_n(state: State, a: Activation) -> int:
    """N as the variant counts it: tosses facing the tosser, stopped at a load effect's cap (``proj.derived``)."""
    return proj.derived(state, a).n


def expected_damage(gun: Any, shot: proj.Shot) -> int | None:
    row = gun.hit_at(shot.loads)
    if row is None:
        return None
    hit = row.hit
    for stage, delta, to in shot.mods:
        hit = to if stage == "replace" and to is not None else hit + delta
    return max(0, hit)


def current_hit(state: State, shot: proj.Shot) -> int | None:
    """The HIT a shot would deal now (its row plus the modifiers recorded so far)."""
    gun = proj.gun_facts(state, shot.gun)
    return None if gun is None else expected_damage(gun, shot)


def _auto_measure(state: State, a: Activation, condition: str) -> tuple[int, str] | None:
    """What the card's condition compares, read from the state (None when the log must say)."""
    shot = state.shots.get(a.shot or "")
    if "incoming HIT" in condition and shot is not None:
        hit = current_hit(state, shot)
        return (hit, "ge") if hit is not None else None
    if "load count" in condition and shot is not None:
        return shot.loads, "ge"
    if "your life <=" in condition and a.player in state.players:
        return state.players[a.player].life, "le"
    return None


def threshold(state: State, a: Activation, e: Any) -> tuple[int, int, str, bool] | None:
    """(measured, threshold under N, cmp, holds) of a resolution, or None when the card has no threshold.

    ``measured`` is the log's when recorded; otherwise the incoming HIT of the answered shot, the
    firing gun's load count, or the owner's life, as the card's condition says.
    """
    f = facts_of(state, a, getattr(e, "card", None))
    nums = [x for x in numbers(f) if x.role == "threshold"]
    if not nums:
        return None
    thr = e.n if nums[0].replaceable else nums[0].value
    if e.measured is not None:
        measured, cmp = e.measured, e.cmp
    else:
        auto = _auto_measure(state, a, getattr(f, "condition", "") or "")
        if auto is None:
            return None
        measured, cmp = auto
    return measured, thr, cmp, (measured >= thr if cmp == "ge" else measured <= thr)


def player_name(start: MatchStarted, pid: str) -> str:
    """A player by the name match.start gives them (their id where it names none)."""
    return next((p.name for p in start.players if p.id == pid), pid)


def activation(start: MatchStarted, state: State, a: Activation) -> Msg:
    """An activation as a judge reads it: ``Ren's 計略 (r1)``, its player by name, what it uses (a continuous
    group: the skills sharing its toss) and its id."""
    return Msg("text.gg.activation", player=player_name(start, a.player), card=uses(state, a), act=a.id)


def uses(state: State, a: Activation) -> object:
    """What an activation uses: its card, skill, gun or gunner; a continuous group's skills by name."""
    if a.card:
        return a.card
    p = state.players.get(a.player)
    skills = [
        n
        for n in dict.fromkeys((p.skills_up + p.skills) if p else ())
        if getattr(proj.skill_facts(state, n), "kind", None) == "continuous"
    ]
    return Msg("text.gg.continuous_skills", skills=skills) if skills else Msg("word.gg.continuous")


def shot_named(start: MatchStarted, shot: Any) -> Msg:
    """A shot as a judge reads it: ``Aoi's shot s1 from カサネ``."""
    return Msg("text.gg.shot", player=player_name(start, shot.player), gun=shot.gun, shot=shot.id)
