"""Weiss Schwarz attack damage: soul, the direct and side adjustments, soul ≤ 0, and the climax cancel.

Source: WSターンの流れ §アタックフェイズ A.3 and D.3; reference B1 #6, B3, B6 #8 and #11.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, Text, rule
from kifu.events.i18n import Msg

from .. import events as ev
from ..projection import State
from .common import SIDE_ATTACK_LEVEL, UNKNOWN_BOARD, attack_named, option, undecided

SIDE_LEVEL = "side_attack_level"


def expected_damage(state: State, side_level: str = "defender") -> dict[str, Any] | None:
    """What the attack's damage should be by WSターンの流れ, and how it is made up; None without an attack.

    ``side_level`` is the option ``side_attack_level``: whose level a side attack subtracts.
    """
    attack = state.attack
    if attack is None:
        return None
    slot = state.side(attack.player).stage.get(attack.slot)
    if slot is None:
        return {"present": False, "soul": 0, "base": 0, "direct": 0, "side": 0, "expected": 0}
    direct = 1 if attack.kind == "direct" else 0
    side = (slot.level_now if side_level == "attacker" else attack.defender_level) if attack.kind == "side" else 0
    base = slot.soul_now + attack.trigger_soul
    soul = base + direct - side
    return {"present": True, "soul": soul, "base": base, "direct": direct, "side": side, "expected": max(0, soul)}


def _attack_damage(s: Step) -> tuple[ev.DamageDealt, dict[str, Any]] | None:
    e = s.event
    if not isinstance(e, ev.DamageDealt) or e.source != "attack":
        return None
    if e.cancelled and e.amount == 0:
        return None  # a cancelled damage may be written as the 0 that stuck; the reveal is WS-DMG-005's
    calc = expected_damage(s.before.game, str(option(s.options, SIDE_ATTACK_LEVEL)))
    if calc is None or e.amount == calc["expected"] or not _damage_knowable(s.before.game):
        return None
    return e, calc


def _damage_knowable(state: State) -> bool:
    """Whether the log shows the attacker (and, for a side attack, the defender) it started without."""
    a = state.attack
    if a is None or state.known:
        return True
    return a.slot in state.side(a.player).stage and (a.kind != "side" or a.defender_present)


def _diagnosis(e: ev.DamageDealt, calc: dict[str, Any]) -> str:
    """Which statement of WSターンの流れ the recorded amount breaks (one finding per wrong damage)."""
    if not calc["present"]:
        return "absent"
    # The unsubtracted soul is the side penalty forgotten, even when the right soul is 0 or less.
    if calc["side"] and e.amount == max(0, calc["base"] + calc["direct"]):
        return "side"
    if calc["soul"] <= 0 < e.amount:
        return "floor"
    if calc["direct"] and e.amount == calc["expected"] - 1:
        return "direct"
    return "other"


def _damage_hit(s: Step, kinds: tuple[str, ...]) -> Iterable[Flag]:
    found = _attack_damage(s)
    if found is None:
        return
    e, calc = found
    if _diagnosis(e, calc) in kinds:
        by = _damage_of(s.before.game, e)
        yield Flag(e.seq, {"amount": e.amount, **calc, "player": e.player, "by": by}, (s.before.game.attack.seq,))


DAMAGE_DOC_GOOD = "soul 1 direct: ws.damage amount=2"


@rule(
    code="WS-DMG-001",
    name="attack-damage-equals-soul",
    severity=Severity.ERROR,
    options=(SIDE_LEVEL,),
    on=(ev.DamageDealt,),
)
def attack_damage_equals_soul(s: Step) -> Iterable[Flag]:
    before = s.before.game
    if isinstance(s.event, ev.DamageDealt) and s.event.source == "attack" and not _damage_knowable(before):
        yield undecided(s.event.seq, UNKNOWN_BOARD)
    yield from _damage_hit(s, ("other", "absent"))


@rule(
    code="WS-DMG-002",
    name="direct-attack-adds-one-soul",
    severity=Severity.ERROR,
    options=(SIDE_LEVEL,),
    on=(ev.DamageDealt,),
)
def direct_attack_adds_one_soul(s: Step) -> Iterable[Flag]:
    yield from _damage_hit(s, ("direct",))


@rule(
    code="WS-DMG-003",
    name="side-attack-subtracts-the-opposing-level",
    severity=Severity.ERROR,
    options=(SIDE_LEVEL,),
    on=(ev.DamageDealt,),
)
def side_attack_subtracts_level(s: Step) -> Iterable[Flag]:
    yield from _damage_hit(s, ("side",))


@rule(
    code="WS-DMG-004",
    name="no-damage-when-soul-is-zero-or-less",
    severity=Severity.ERROR,
    options=(SIDE_LEVEL,),
    on=(ev.DamageDealt,),
)
def no_damage_when_soul_not_positive(s: Step) -> Iterable[Flag]:
    yield from _damage_hit(s, ("floor",))


def _cards(cards: Iterable[ev.DamageCard]) -> list[object]:
    """Revealed cards by the names the log gave them (a card it did not name: "an unnamed card")."""
    return [c.card or Msg("text.ws.unnamed_card") for c in cards]


def _climax(c: ev.DamageCard) -> Msg:
    """A revealed climax: by its name where the log gave one."""
    return Msg("text.ws.climax_named", card=c.card) if c.card else Msg("text.ws.climax_unnamed")


def _reveal_problem(e: ev.DamageDealt) -> Msg | None:
    if not e.cards:
        return None  # the log did not record the reveal; only the amount can be judged
    climaxes = [i for i, c in enumerate(e.cards) if c.climax]
    if climaxes and climaxes[0] < len(e.cards) - 1:
        first = climaxes[0]
        return Msg(
            "text.ws.reveal_after_climax",
            n=len(e.cards) - first - 1,
            climax=_climax(e.cards[first]),
            after=_cards(e.cards[first + 1 :]),
        )
    if climaxes and not e.cancelled:
        return Msg("text.ws.reveal_not_cancelled", climax=_climax(e.cards[climaxes[0]]))
    if e.cancelled and not climaxes:
        return Msg("text.ws.reveal_cancelled_without_climax", cards=_cards(e.cards))
    if not climaxes and len(e.cards) != e.amount:
        return Msg("text.ws.reveal_count", n=len(e.cards), cards=_cards(e.cards), amount=e.amount)
    return None


def _damage_of(state: State, e: ev.DamageDealt) -> Msg:
    """What dealt the damage, as a judge names it: the attack (``attack_named``) or an effect."""
    if e.source == "effect" or state.attack is None:
        return Msg(f"word.ws.damage_source.{e.source}")
    return attack_named(state, state.attack)


@rule(
    code="WS-DMG-005",
    name="a-revealed-climax-cancels-and-stops-the-reveal",
    severity=Severity.ERROR,
    on=(ev.DamageDealt,),
)
def climax_cancels_damage(s: Step) -> Iterable[Flag]:
    assert isinstance(s.event, ev.DamageDealt)
    problem = _reveal_problem(s.event)
    if problem:
        yield Flag(
            s.event.seq,
            {"player": s.event.player, "by": _damage_of(s.before.game, s.event), "detail": problem},
            (s.before.game.attack.seq,) if s.before.game.attack else (),
        )


@rule(
    code="WS-DMG-006",
    name="shot-damage-only-after-a-cancel",
    severity=Severity.ERROR,
    on=(ev.DamageDealt,),
)
def shot_only_after_cancel(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, ev.DamageDealt)
    if e.source != "shot":
        return
    a = s.before.game.attack
    if a is None or a.shots == 0:
        yield Flag(
            e.seq,
            {
                "detail": Text(
                    ja="このアタックでショットアイコンは公開されていません",
                    en="no shot icon was revealed in this attack",
                )
            },
        )
    elif not a.cancelled:
        yield Flag(
            e.seq,
            {
                "detail": Text(
                    ja="アタックのダメージはキャンセルされていません", en="the attack's damage was not cancelled"
                )
            },
            (a.damage_seq or a.seq,),
        )


RULES = (
    attack_damage_equals_soul,
    direct_attack_adds_one_soul,
    side_attack_subtracts_level,
    no_damage_when_soul_not_positive,
    climax_cancels_damage,
    shot_only_after_cancel,
)
