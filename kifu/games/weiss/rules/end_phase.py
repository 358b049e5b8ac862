"""Weiss Schwarz end phase: hand limit, the climax leaving, and doing the phase again.

Source: seed 003 §エンドフェイズ 3 (規定枚数を超えた手札を控室へ), 4 (クライマックスを控室へ),
6 (手札が規定枚数以下で待機能力がなければフェイズ終了、でなければもう一回);
reference B1 #8, B6 #6, #17.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from kifu.auditor.base import Doc, End, Hit, Rule, Severity, Step, Text, rule

from .. import events as ev
from ..projection import State
from .common import (
    END_ORDER,
    HAND_LIMIT,
    UNKNOWN_HAND,
    game,
    if_known,
    option,
    pending_hit,
)

END_CITE = "seed 003 §エンドフェイズ"


def _end_phase_over(s: Step) -> tuple[State, int] | None:
    """The state when the end phase is finally over, and the seq to report; None otherwise.

    A pass of the end phase that leaves something to do is followed by another
    ``ws.phase end`` (seed 003 §エンドフェイズ 6), so the verdict waits for the
    next turn: it is reported at the ``ws.phase.end end`` that claimed the end,
    or at the ``ws.turn`` when the end was not recorded.
    """
    before = game(s.before)
    if isinstance(s.event, ev.TurnStarted) and before.phase == "end":
        return before, before.end_closed_seq or s.event.seq
    return None


def _log_ends_after_end_phase(e: End) -> tuple[State, int] | None:
    """The same verdict for a log that stops after its last ``ws.phase.end end``."""
    final = game(e.final)
    if final.phase == "end" and final.end_closed_seq is not None and not final.lost:
        return final, final.end_closed_seq
    return None


def end_phase_rule(judge: Callable[[State, int, Mapping[str, Any]], Iterable[Hit]],
                   extra: Callable[[Step], Iterable[Hit]] | None = None, **kw: Any) -> Rule:
    """A rule judged when the end phase is over (next turn or end of log); ``extra`` sees other events."""

    def check(s: Step) -> Iterable[Hit]:
        over = _end_phase_over(s)
        if over is not None:
            yield from judge(over[0], over[1], s.options)
        elif extra is not None:
            yield from extra(s)

    def finish(e: End) -> Iterable[Hit]:
        over = _log_ends_after_end_phase(e)
        if over is not None:
            yield from judge(over[0], over[1], e.options)

    on = (ev.TurnStarted,) + (tuple(kw.pop("also_on", ())))
    return Rule(check=check, finish=finish, on=on, **kw)


def _hand_over_limit(state: State, seq: int, options: Mapping[str, Any]) -> Iterable[Hit]:
    limit = int(option(options, HAND_LIMIT))
    hand = state.side(state.turn_player).hand
    if hand > limit:
        yield Hit(seq, {"limit": limit, "detail": Text(ja=f"手札 {hand} 枚のままエンドフェイズが終わりました",
                                                       en=f"the end phase ended with {hand} cards in hand")})


def _discarded_too_many(s: Step) -> Iterable[Hit]:
    e = s.event
    if not isinstance(e, ev.Discarded) or e.reason != "hand-limit":
        return
    limit = int(option(s.options, HAND_LIMIT))
    had, left = game(s.before).side(e.player).hand, game(s.after).side(e.player).hand
    if left < limit:
        yield if_known(Hit(e.seq, {"limit": limit, "detail": Text(
            ja=f"{e.player} は手札 {had} 枚から {left} 枚まで捨て、規定枚数を下回りました",
            en=f"{e.player} discarded from {had} to {left}, below the limit",
        )}), game(s.before).side(e.player).hand_known, UNKNOWN_HAND)


end_phase_hand_limit = end_phase_rule(
    _hand_over_limit,
    _discarded_too_many,
    also_on=(ev.Discarded,),
    code="WS-END-001",
    name="end-phase-discards-down-to-the-hand-limit",
    severity=Severity.ERROR,
    citation=f"{END_CITE} 3, 6; reference B1 #8, B6 #17",
    title=Text(ja="手札を規定枚数まで捨てる", en="the end phase discards down to the hand limit"),
    message=Text(ja="手札の規定枚数 {limit}: {detail}", en="hand limit {limit}: {detail}"),
    options=("hand_limit",),
    doc=Doc(
        checks=Text(
            ja="手札の規定枚数による破棄は、規定枚数を超えているときだけ行い、規定枚数で止めること。"
               "エンドフェイズが終わる (次のターンになるか、`ws.phase.end end` の後でログが終わる) のは、"
               "ターンプレイヤーの手札が規定枚数以下のときだけ (オプション hand_limit、既定 7)。もう一度 `ws.phase "
               "end` を行えば、まだ直せる。",
            en="Hand-limit discards happen only above the limit and stop at it; the end phase is over (next turn, or "
               "the log stops after `ws.phase.end end`) only with the turn player's hand at or below the limit "
               "(option hand_limit, default 7). Another `ws.phase end` pass may still fix it.",
        ),
        why=Text(
            ja="seed 003 §エンドフェイズ 3: 甲は規定枚数を超えている分だけ手札を控室に置く。6: "
               "手札が規定枚数を超えていない場合だけフェイズが終わり、そうでなければエンドフェイズをもう一回行う。",
            en="Seed 003 §エンドフェイズ 3: 甲 discards only the cards over the limit; item 6: the phase ends only "
               "when the hand is within the limit, else the end phase is done again.",
        ),
        bad=Text(
            ja="手札 9 枚; ws.discard 1; ws.phase.end end; ws.turn (手札 8 枚)",
            en="hand 9; ws.discard 1; ws.phase.end end; ws.turn (hand 8)",
        ),
        good=Text(
            ja="手札 9 枚; ws.discard 2; ws.phase.end end; ws.turn",
            en="hand 9; ws.discard 2; ws.phase.end end; ws.turn",
        ),
    ),
)


def _climax_still_there(state: State, seq: int, options: Mapping[str, Any]) -> Iterable[Hit]:
    cx = state.side(state.turn_player).climax
    if cx is not None:
        yield Hit(seq, {"player": state.turn_player, "card": cx})


climax_leaves_in_the_end_phase = end_phase_rule(
    _climax_still_there,
    code="WS-END-002",
    name="climax-leaves-in-the-end-phase",
    severity=Severity.ERROR,
    citation=f"{END_CITE} 4; reference B1 #8, B6 #6",
    title=Text(ja="クライマックスはエンドフェイズに控室へ", en="the climax goes to the waiting room in the end phase"),
    message=Text(
        ja="エンドフェイズが終わりましたが {player} のクライマックス {card} がクライマックス置場に残っています",
        en="the end phase ended with {player}'s climax {card} still in the climax zone",
    ),
    doc=Doc(
        checks=Text(
            ja="エンドフェイズが終わったとき、ターンプレイヤーのクライマックス置場が空であること。",
            en="When the end phase is over, the turn player's climax zone is empty.",
        ),
        why=Text(
            ja="seed 003 §エンドフェイズ 4: 甲はクライマックス置場の CX カードを控室に置く。",
            en="Seed 003 §エンドフェイズ 4: 甲 puts the climax card into the waiting room.",
        ),
        bad="ws.climax; … ws.phase end; ws.phase.end end; ws.turn",
        good="ws.climax; … ws.phase end; ws.climax.leave; ws.phase.end end; ws.turn",
    ),
)


def _pending_left(state: State, seq: int, options: Mapping[str, Any]) -> Iterable[Hit]:
    if state.pending:
        yield pending_hit(seq, state.pending, "pending")


end_phase_repeats_while_pending = end_phase_rule(
    _pending_left,
    code="WS-END-003",
    name="end-phase-repeats-while-abilities-are-pending",
    severity=Severity.ERROR,
    citation=f"{END_CITE} 6",
    title=Text(ja="待機能力があればエンドフェイズをもう一度", en="the end phase is done again while abilities are pending"),
    message=Text(
        ja="能力 {pending} が待機中のままエンドフェイズが終わりました (もう一度エンドフェイズを行うべき)",
        en="the end phase ended with abilities {pending} pending (it must be done again)",
    ),
    doc=Doc(
        checks=Text(
            ja="エンドフェイズが終わる (次のターンになるか、`ws.phase.end end` の後でログが終わる) のは、"
               "処理待機中の自動能力がないときだけであること。エンドフェイズをもう一度行うときは、新たに `ws.phase "
               "end` を記録する。",
            en="The end phase is over (next turn, or the log stops after `ws.phase.end end`) only with no pending "
               "automatic ability; a new `ws.phase end` pass is how it is done again.",
        ),
        why=Text(
            ja="seed 003 §エンドフェイズ 6: 手札が規定枚数を超えておらず、かつ処理待機中の能力がない場合でなければ、"
               "エンドフェイズをもう一回行う。",
            en="Seed 003 §エンドフェイズ 6: unless the hand is within the limit and no ability waits, the end phase "
               "is done once more.",
        ),
        bad="ws.phase end; ws.auto a9; ws.phase.end end; ws.turn",
        good="ws.phase end; ws.auto a9; ws.phase end; ws.check; ws.resolve a9; ws.check.end; ws.phase.end end",
    ),
)


@rule(
    code="WS-END-004",
    name="hand-limit-discard-before-the-climax-leaves",
    severity=Severity.WARNING,
    citation=f"{END_CITE} 3–4",
    title=Text(ja="手札の破棄はクライマックスを置く前", en="the hand-limit discard comes before the climax leaves"),
    message=Text(
        ja="手札の破棄が同じエンドフェイズでクライマックスを控室に置いた後に行われました",
        en="the hand-limit discard came after the climax left in the same end phase",
    ),
    on=(ev.Discarded,),
    options=("end_phase_order",),
    doc=Doc(
        checks=Text(
            ja="エンドフェイズの 1 回の中で、手札の規定枚数による破棄が、クライマックスを控室に置いた後に来ないこと "
               "(オプション end_phase_order=seed。`any` でこの検査をやめる)。",
            en="Within one pass of the end phase, a hand-limit discard does not follow the climax leaving (option "
               "end_phase_order=seed; `any` turns the check off).",
        ),
        why=Text(
            ja="seed 003 §エンドフェイズは、手札の破棄を 3 に、クライマックスを 4 に挙げている。",
            en="Seed 003 §エンドフェイズ lists the discard as item 3 and the climax as item 4.",
        ),
        bad="ws.phase end; ws.climax.leave; ws.discard hand-limit",
        good="ws.phase end; ws.discard hand-limit; ws.climax.leave",
    ),
)
def discard_before_climax_leaves(s: Step) -> Iterable[Hit]:
    assert isinstance(s.event, ev.Discarded)
    before = game(s.before)
    if option(s.options, END_ORDER) == "seed" and s.event.reason == "hand-limit" and \
            before.phase == "end" and before.climax_left:
        yield Hit(s.event.seq, {})


RULES = (
    end_phase_hand_limit,
    climax_leaves_in_the_end_phase,
    end_phase_repeats_while_pending,
    discard_before_climax_leaves,
)
