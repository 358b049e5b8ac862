"""Weiss Schwarz turn flow: phase and step order, who acts where, and the check timing.

Source: WSターンの流れ: the phases, the attack-phase steps A–F and the
check timing (items 1–4 at the top of the seed); reference B1, B2 and B6 #1, #15.
The order is declared as data (``PHASES``, ``STEP_NEXT``, ``ACTION_PLACE``) and one
generic check reads it, as boardgame.io declares phases.
"""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, Text, rule
from kifu.events.i18n import Msg
from kifu.events.base import Event

from .. import events as ev
from ..projection import State, rule_actions
from .common import CLOSERS, ability_named, closed_phase, pending_hit, phase_ja, rule_action_words, step_ja, tag

PHASES = ev.PHASES

STEP_NEXT: dict[tuple[str | None, str], tuple[str, ...]] = {
    (None, "-"): ("declare",),
    ("declare", "attack"): ("trigger",),
    ("declare", "-"): ("encore",),
    ("trigger", "front"): ("counter",),
    ("trigger", "direct"): ("damage",),
    ("trigger", "side"): ("damage",),
    ("counter", "front"): ("damage",),
    ("counter", "direct"): ("damage",),
    ("counter", "side"): ("damage",),
    ("damage", "front"): ("battle",),
    ("damage", "direct"): ("declare",),
    ("damage", "side"): ("declare",),
    ("battle", "front"): ("declare",),
}
"""(current step, attack kind or ``attack``/``-``) -> the steps that may come next (WSターンの流れ A.3, B.7, D.5, E.8).

A counter step after a direct or side attack is left to WS-ATK-005, which names
that rule; from it the flow goes on to the damage step as usual.
"""

OWNED_ELSEWHERE = {"counter"}

ACTION_PLACE: dict[type[Event], tuple[str, str | None]] = {
    ev.Stood: ("stand", None),
    ev.Clocked: ("clock", None),
    ev.CharacterPlayed: ("main", None),
    ev.EventPlayed: ("main", None),
    ev.ActPlayed: ("main", None),
    ev.SlotsSwapped: ("main", None),
    ev.ClimaxPlayed: ("climax", None),
    ev.AttackDeclared: ("attack", "declare"),
    ev.TriggerRevealed: ("attack", "trigger"),
    ev.BattleResolved: ("attack", "battle"),
    ev.ClimaxLeft: ("end", None),
}
"""Turn-player actions and automatic steps -> (phase, step) where WSターンの流れ places them."""

DRAW_PLACE = {"draw-phase": "draw", "clock": "clock"}
DISCARD_PLACE = {"hand-limit": "end"}


def _next_phase(done: tuple[str, ...]) -> tuple[str, ...]:
    if not done:
        return ("stand",)
    # judged from the furthest phase reached, so one phase recorded out of order is one finding,
    # not a second one at the phase that rightly comes next
    furthest = max(done, key=PHASES.index)
    if furthest == "end":
        return ("end",)
    return (PHASES[PHASES.index(furthest) + 1],)


@rule(
    code="WS-FLOW-001",
    name="phases-follow-the-turn-order",
    severity=Severity.ERROR,
    on=(ev.PhaseStarted, ev.PhaseEnded),
)
def phases_follow_the_turn_order(s: Step) -> Iterable[Flag]:
    before = s.before.game
    if isinstance(s.event, ev.PhaseEnded):
        if not before.phase_open or before.phase != s.event.phase:
            current = before.phase if before.phase_open else "none"
            yield Flag(
                s.event.seq,
                {
                    "found": Text(ja=f"{phase_ja(s.event.phase)}の終わり", en=f"ws.phase.end {s.event.phase}"),
                    "expected": Text(
                        ja=f"{phase_ja(before.phase)}の終わり" if before.phase_open else "進行中のフェイズなし",
                        en=f"ws.phase.end {current}",
                    ),
                    "detail": Text(ja="そのフェイズは進行中ではありません", en="that phase is not in progress"),
                },
                about=("phases", before.turn),
            )
        return
    assert isinstance(s.event, ev.PhaseStarted)
    expected = _next_phase(before.phases_done)
    if before.partial_turn and not before.phases_done:
        return  # an excerpt may begin its first turn at any phase
    detail = None
    if before.turn_player is None:
        detail = Text(ja="ターンが始まっていません", en="no turn has started")
    elif s.event.phase not in expected:
        detail = Text(ja="順番が違います", en="out of order")
    if detail:
        yield Flag(
            s.event.seq,
            {
                "found": Text(ja=phase_ja(s.event.phase), en=f"ws.phase {s.event.phase}"),
                "expected": Text(ja="・".join(phase_ja(p) for p in expected), en="ws.phase " + "/".join(expected)),
                "detail": detail,
            },
            about=("phases", before.turn),
        )


def _step_key(state: State) -> tuple[str | None, str]:
    if state.step == "declare":
        return ("declare", "attack" if state.attack is not None else "-")
    if state.step is None:
        return (None, "-")
    return (state.step, state.attack.kind if state.attack else "-")


@rule(
    code="WS-FLOW-002",
    name="attack-steps-follow-the-turn-flow",
    severity=Severity.ERROR,
    on=(ev.StepStarted,) + CLOSERS,
)
def attack_steps_follow_the_seed(s: Step) -> Iterable[Flag]:
    before = s.before.game
    current = _step_key(before)
    if not isinstance(s.event, ev.StepStarted):
        if closed_phase(s) == "attack" and before.step != "encore":
            yield Flag(
                s.event.seq,
                {
                    "found": Text(ja="アタックフェイズの終わり", en="the end of the attack phase"),
                    "current": Text(ja=step_ja(before.step), en=before.step)
                    if before.step
                    else Text(ja="フェイズの始まり", en="its start"),
                    "expected": Text(
                        ja="・".join(step_ja(x) for x in STEP_NEXT.get(current, ("encore",))),
                        en="/".join(STEP_NEXT.get(current, ("encore",))),
                    ),
                },
            )
        return
    assert isinstance(s.event, ev.StepStarted)
    if before.phase != "attack" or not before.phase_open:
        yield Flag(
            s.event.seq,
            {
                "found": Text(ja=step_ja(s.event.step), en=s.event.step),
                "current": Text(ja=phase_ja(before.phase), en=f"phase {before.phase}"),
                "expected": Text(ja=phase_ja("attack"), en="attack phase"),
            },
        )
        return
    allowed = STEP_NEXT.get(current, ())
    if s.event.step not in allowed and s.event.step not in OWNED_ELSEWHERE:
        yield Flag(
            s.event.seq,
            {
                "found": Text(ja=step_ja(s.event.step), en=s.event.step),
                "current": Text(ja=step_ja(current[0]), en=current[0])
                if current[0]
                else Text(ja="フェイズの始まり", en="the phase start"),
                "expected": Text(ja="・".join(step_ja(x) for x in allowed), en="/".join(allowed))
                if allowed
                else Text(ja="フェイズの終わり", en="the end of the phase"),
            },
        )


AUTOMATIC = (ev.BattleResolved, ev.DamageDealt)
"""Automatic steps: their place is checked, not who did them (a damage names the damaged player)."""


def _place_of(event: Event) -> tuple[str, str | None] | None:
    if isinstance(event, ev.DamageDealt):
        return ("attack", "damage") if event.source == "attack" else None
    if isinstance(event, ev.Drew):
        phase = DRAW_PLACE.get(event.reason)
        return (phase, None) if phase else None
    if isinstance(event, ev.Discarded):
        phase = DISCARD_PLACE.get(event.reason)
        return (phase, None) if phase else None
    if isinstance(event, ev.SlotsSwapped) and event.effect:
        return None  # an ability's move, not 甲's main-phase 入替
    return ACTION_PLACE.get(type(event))


@rule(
    code="WS-FLOW-003",
    name="actions-happen-in-their-phase-by-the-turn-player",
    severity=Severity.ERROR,
    on=tuple(ACTION_PLACE) + (ev.Drew, ev.Discarded, ev.DamageDealt),
)
def actions_happen_in_their_phase(s: Step) -> Iterable[Flag]:
    place = _place_of(s.event)
    if place is None:
        return
    before = s.before.game
    phase, step = place
    where_ok = before.phase == phase and before.phase_open and (step is None or before.step == step)
    who = before.turn_player if isinstance(s.event, AUTOMATIC) else getattr(s.event, "player", None)
    if where_ok and who == before.turn_player:
        return
    where = Text(
        ja=phase_ja(before.phase) + (f"の{step_ja(before.step)}" if before.step else ""),
        en=f"in phase {before.phase or '-'}" + (f", step {before.step}" if before.step else ""),
    )
    allowed = Text(ja=phase_ja(phase) + (f"の{step_ja(step)}" if step else ""), en=phase + (f"/{step}" if step else ""))
    yield Flag(
        s.event.seq,
        {
            "type": tag(s.event),
            "player": who,
            "where": where,
            "allowed": allowed,
            "turn_player": before.turn_player,
            **_hint(s.event, before),
        },
    )


def _hint(e: Event, state: State) -> dict[str, str]:
    """Seed C.3 calls the counter an ACT (起動能力), so a writer may record it as ``ws.act``: say where it goes."""
    if isinstance(e, ev.ActPlayed) and state.step == "counter":
        return {
            "hint_ja": " (カウンターステップの【カウンター】は ws.counter で記録します)",
            "hint_en": " (a counter-step counter ACT is recorded as ws.counter)",
        }
    return {"hint_ja": "", "hint_en": ""}


@rule(
    code="WS-FLOW-004",
    name="a-turn-starts-after-the-end-phase-and-alternates",
    severity=Severity.ERROR,
    on=(ev.TurnStarted,),
)
def a_turn_starts_after_the_end_phase(s: Step) -> Iterable[Flag]:
    before = s.before.game
    e = s.event
    assert isinstance(e, ev.TurnStarted)
    problems: list[Text | Msg] = []
    if before.turn_player is not None:
        if before.phase != "end":
            problems.append(
                Text(
                    ja=f"ターン {before.turn} がエンドフェイズまで進んでいません",
                    en=f"turn {before.turn} has not reached its end phase",
                )
            )
        if e.player == before.turn_player:
            problems.append(Msg("text.ws.took_turn_too", player=e.player, turn=before.turn))
    if before.turn_player is not None and e.number != before.turn + 1:
        problems.append(
            Text(ja=f"次のターン番号は {before.turn + 1} です", en=f"the next turn number is {before.turn + 1}")
        )
    if problems:
        yield Flag(e.seq, {"number": e.number, "player": e.player, "detail": problems})


# --- check timing -------------------------------------------------------------


@rule(
    code="WS-CHK-001",
    name="rule-actions-come-before-abilities",
    severity=Severity.ERROR,
    on=(ev.AbilityResolved,),
)
def rule_actions_come_before_abilities(s: Step) -> Iterable[Flag]:
    assert isinstance(s.event, ev.AbilityResolved)
    due = rule_actions(s.before.game)
    if due:
        yield Flag(
            s.event.seq,
            {
                "player": s.event.player,
                "ability": s.event.ability,
                "what": ability_named(s.event.player, s.event.ability, s.before.game.pending),
                "due": rule_action_words(due),
            },
        )


@rule(
    code="WS-CHK-002",
    name="turn-player-abilities-resolve-first",
    severity=Severity.ERROR,
    on=(ev.AbilityResolved,),
)
def turn_player_abilities_resolve_first(s: Step) -> Iterable[Flag]:
    before = s.before.game
    assert isinstance(s.event, ev.AbilityResolved)
    if s.event.player == before.turn_player:
        return
    waiting = [p for p in before.pending if p.player == before.turn_player]
    if waiting:
        yield pending_hit(
            s.event.seq,
            waiting,
            "waiting",
            player=s.event.player,
            ability=s.event.ability,
            what=ability_named(s.event.player, s.event.ability, before.pending),
        )


@rule(
    code="WS-CHK-003",
    name="abilities-resolve-one-at-a-time-in-a-check-timing",
    severity=Severity.ERROR,
    on=(ev.AbilityResolved,),
)
def abilities_resolve_in_check_timing(s: Step) -> Iterable[Flag]:
    before = s.before.game
    e = s.event
    assert isinstance(e, ev.AbilityResolved)
    if before.check is None:
        yield Flag(
            e.seq,
            {
                "ability": e.ability,
                "what": ability_named(e.player, e.ability, before.pending),
                "detail": Text(ja="チェックタイミングの外です", en="no check timing is open"),
            },
        )
    elif not any(p.ability == e.ability and p.player == e.player for p in before.pending):
        yield Flag(
            e.seq,
            {
                "ability": e.ability,
                "what": ability_named(e.player, e.ability, before.pending),
                "detail": Msg("text.ws.not_pending", player=e.player),
            },
        )


@rule(
    code="WS-CHK-004",
    name="check-timing-ends-with-nothing-pending",
    severity=Severity.ERROR,
    on=(ev.CheckTimingEnded, ev.StepStarted) + CLOSERS,
)
def check_timing_ends_with_nothing_pending(s: Step) -> Iterable[Flag]:
    before = s.before.game
    if not before.pending:
        return
    closing = closed_phase(s)
    if isinstance(s.event, CLOSERS) and closing in (None, "end"):
        return
    what = tag(s.event) + (f" {getattr(s.event, 'phase', getattr(s.event, 'step', ''))}".rstrip())
    yield pending_hit(s.event.seq, before.pending, "pending", what=what)


RULES = (
    phases_follow_the_turn_order,
    attack_steps_follow_the_seed,
    actions_happen_in_their_phase,
    a_turn_starts_after_the_end_phase,
    rule_actions_come_before_abilities,
    turn_player_abilities_resolve_first,
    abilities_resolve_in_check_timing,
    check_timing_ends_with_nothing_pending,
)
