"""Weiss Schwarz end phase: hand limit, the climax leaving, and doing the phase again.

Source: WSターンの流れ §エンドフェイズ 3 (規定枚数を超えた手札を控室へ), 4 (クライマックスを控室へ),
6 (手札が規定枚数以下で待機能力がなければフェイズ終了、でなければもう一回);
reference B1 #8, B6 #6, #17.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable, Iterable, Mapping

from kifu.auditor.base import End, Flag, Rule, Severity, Step, Text, rule
from kifu.events.i18n import Msg

from .. import events as ev
from ..projection import State
from .common import (
    END_ORDER,
    HAND_LIMIT,
    UNKNOWN_HAND,
    if_known,
    option,
    pending_hit,
)


def _end_phase_over(s: Step) -> tuple[State, int] | None:
    """The state when the end phase is finally over, and the seq to report; None otherwise.

    A pass of the end phase that leaves something to do is followed by another
    ``ws.phase end`` (WSターンの流れ §エンドフェイズ 6), so the verdict waits for the
    next turn: it is reported at the ``ws.phase.end end`` that claimed the end,
    or at the ``ws.turn`` when the end was not recorded.
    """
    before = s.before.game
    if isinstance(s.event, ev.TurnStarted) and before.phase == "end":
        return before, before.end_closed_seq or s.event.seq
    return None


def _log_ends_after_end_phase(e: End) -> tuple[State, int] | None:
    """The same verdict for a log that stops after its last ``ws.phase.end end``."""
    final = e.final.game
    if final.phase == "end" and final.end_closed_seq is not None and not final.lost:
        return final, final.end_closed_seq
    return None


def end_phase_rule(
    judge: Callable[[State, int, Mapping[str, Any]], Iterable[Flag]],
    extra: Callable[[Step], Iterable[Flag]] | None = None,
    **kw: Any,
) -> Rule:
    """A rule judged when the end phase is over (next turn or end of log); ``extra`` sees other events."""

    def check(s: Step) -> Iterable[Flag]:
        over = _end_phase_over(s)
        if over is not None:
            yield from judge(over[0], over[1], s.options)
        elif extra is not None:
            yield from extra(s)

    def finish(e: End) -> Iterable[Flag]:
        over = _log_ends_after_end_phase(e)
        if over is not None:
            yield from judge(over[0], over[1], e.options)

    on = (ev.TurnStarted,) + (tuple(kw.pop("also_on", ())))
    return Rule(check=check, finish=finish, on=on, **kw)


def _hand_over_limit(state: State, seq: int, options: Mapping[str, Any]) -> Iterable[Flag]:
    limit = int(option(options, HAND_LIMIT))
    hand = state.side(state.turn_player).hand
    if hand > limit:
        yield Flag(
            seq,
            {
                "limit": limit,
                "detail": Text(
                    ja=f"手札 {hand} 枚のままエンドフェイズが終わりました",
                    en=f"the end phase ended with {hand} cards in hand",
                ),
            },
        )


def _discarded_too_many(s: Step) -> Iterable[Flag]:
    e = s.event
    if not isinstance(e, ev.Discarded) or e.reason != "hand-limit":
        return
    limit = int(option(s.options, HAND_LIMIT))
    had, left = s.before.game.side(e.player).hand, s.after.game.side(e.player).hand
    if left < limit:
        yield if_known(
            Flag(
                e.seq, {"limit": limit, "detail": Msg("text.ws.discarded_below", player=e.player, had=had, left=left)}
            ),
            s.before.game.side(e.player).hand_known,
            UNKNOWN_HAND,
        )


end_phase_hand_limit = end_phase_rule(
    _hand_over_limit,
    _discarded_too_many,
    also_on=(ev.Discarded,),
    code="WS-END-001",
    name="end-phase-discards-down-to-the-hand-limit",
    severity=Severity.ERROR,
    options=("hand_limit",),
)


def _climax_still_there(state: State, seq: int, options: Mapping[str, Any]) -> Iterable[Flag]:
    cx = state.side(state.turn_player).climax
    if cx is not None:
        yield Flag(seq, {"player": state.turn_player, "card": cx})


climax_leaves_in_the_end_phase = end_phase_rule(
    _climax_still_there,
    code="WS-END-002",
    name="climax-leaves-in-the-end-phase",
    severity=Severity.ERROR,
)


def _pending_left(state: State, seq: int, options: Mapping[str, Any]) -> Iterable[Flag]:
    if state.pending:
        yield pending_hit(seq, state.pending, "pending")


end_phase_repeats_while_pending = end_phase_rule(
    _pending_left,
    code="WS-END-003",
    name="end-phase-repeats-while-abilities-are-pending",
    severity=Severity.ERROR,
)


@rule(
    code="WS-END-004",
    name="hand-limit-discard-before-the-climax-leaves",
    severity=Severity.WARNING,
    on=(ev.Discarded,),
    options=("end_phase_order",),
)
def discard_before_climax_leaves(s: Step) -> Iterable[Flag]:
    assert isinstance(s.event, ev.Discarded)
    before = s.before.game
    if (
        option(s.options, END_ORDER) != "any"
        and s.event.reason == "hand-limit"
        and before.phase == "end"
        and before.climax_left
    ):
        yield Flag(s.event.seq, {})


RULES = (
    end_phase_hand_limit,
    climax_leaves_in_the_end_phase,
    end_phase_repeats_while_pending,
    discard_before_climax_leaves,
)
