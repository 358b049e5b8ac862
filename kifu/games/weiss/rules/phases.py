"""Weiss Schwarz stand, draw, clock and climax phases: what each phase's item 3 does.

Source: WSターンの流れ §スタンドフェイズ 3 (全てのキャラをスタンド), §ドローフェイズ 3 (1枚引く),
§クロックフェイズ 3 (1枚置いたら2枚引く), §クライマックスフェイズ 3 (1枚置いてもよい);
reference B1 #5, B6 #2–#4, #6.
"""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, Text, rule

from .. import events as ev
from .common import CLOSERS, STATE_JA, closed_phase


@rule(
    code="WS-STAND-001",
    name="stand-phase-stands-every-character",
    severity=Severity.ERROR,
    on=CLOSERS,
)
def stand_phase_stands_every_character(s: Step) -> Iterable[Flag]:
    if closed_phase(s) != "stand":
        return
    before = s.before.game
    side = before.side(before.turn_player)
    down = sorted(k for k, v in side.stage.items() if v.state != "stand" and k not in before.stand_held)
    if down:
        slots = Text(
            ja=", ".join(f"{k} {side.stage[k].card} ({STATE_JA[side.stage[k].state]})" for k in down),
            en=", ".join(f"{k} {side.stage[k].card} ({side.stage[k].state})" for k in down),
        )
        yield Flag(s.event.seq, {"player": before.turn_player, "slots": slots})


@rule(
    code="WS-DRAW-001",
    name="draw-phase-draws-one-card",
    severity=Severity.ERROR,
    on=(ev.Drew,) + CLOSERS,
)
def draw_phase_draws_one_card(s: Step) -> Iterable[Flag]:
    before, after, e = s.before.game, s.after.game, s.event
    if isinstance(e, ev.Drew):
        # The extra card is known at the draw that took it; a writer looks there first.
        if e.reason == "draw-phase" and before.phase_draws < 2 <= after.phase_draws:
            yield Flag(e.seq, {"drawn": after.phase_draws, "player": before.turn_player})
    elif closed_phase(s) == "draw" and before.phase_draws == 0:
        yield Flag(e.seq, {"drawn": 0, "player": before.turn_player})


@rule(
    code="WS-CLK-001",
    name="clock-draws-two-and-no-clock-draws-none",
    severity=Severity.ERROR,
    on=(ev.Drew,) + CLOSERS,
)
def clock_draws_two(s: Step) -> Iterable[Flag]:
    before, after, e = s.before.game, s.after.game, s.event
    if isinstance(e, ev.Drew):
        if e.reason != "clock":
            return
        if before.clocked == 0:
            yield Flag(
                e.seq,
                {
                    "detail": Text(
                        ja=f"クロックに置いていないのに、クロックとして {e.count} 枚引きました",
                        en=f"{e.count} drawn for the clock, but no card was clocked",
                    )
                },
            )
        elif after.clock_draws > 2:
            yield Flag(
                e.seq,
                {
                    "detail": Text(
                        ja=f"1 回のクロックで {after.clock_draws} 枚引きました (2 枚まで)",
                        en=f"{after.clock_draws} cards drawn for one clock (2 allowed)",
                    )
                },
            )
    elif closed_phase(s) == "clock" and before.clocked and before.clock_draws < 2:
        yield Flag(
            e.seq,
            {
                "detail": Text(
                    ja=f"クロックに置きましたが、{before.clock_draws} 枚しか引いていません (2 枚引く)",
                    en=f"a card was clocked but only {before.clock_draws} drawn (2 required)",
                )
            },
        )


@rule(
    code="WS-CLK-002",
    name="clock-at-most-one-card",
    severity=Severity.ERROR,
    on=(ev.Clocked,),
)
def clock_at_most_one_card(s: Step) -> Iterable[Flag]:
    before = s.before.game
    if before.clocked >= 1:
        yield Flag(s.event.seq, {"n": before.clocked + 1, "player": before.turn_player})


@rule(
    code="WS-CX-001",
    name="one-climax-per-turn",
    severity=Severity.ERROR,
    on=(ev.ClimaxPlayed,),
)
def one_climax_per_turn(s: Step) -> Iterable[Flag]:
    before = s.before.game
    if before.climaxes >= 1:
        yield Flag(s.event.seq, {"n": before.climaxes + 1, "player": before.turn_player})


RULES = (
    stand_phase_stands_every_character,
    draw_phase_draws_one_card,
    clock_draws_two,
    clock_at_most_one_card,
    one_climax_per_turn,
)
