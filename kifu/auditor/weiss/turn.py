"""Weiss Schwarz phases outside the attack: stand, draw, clock, climax, end; rule actions; losing.

Source: seed 003 (§スタンドフェイズ, §ドローフェイズ, §クロックフェイズ, §クライマックスフェイズ,
§エンドフェイズ) and reference B2 (level-up, refresh, losing conditions), B6 #2–#6, #13, #14,
#17, #18.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from ...events import weiss as ev
from ...events.base import JudgeRuling, MatchEnded, Note
from ...projector.weiss import NEUTRAL, State
from ..base import Doc, End, Hit, Rule, Severity, Step, Text, rule
from .common import CLOSERS, UNKNOWN_BOARD, UNKNOWN_HAND, closed_phase, game, is_game_event, tag, undecided


@rule(
    code="WS-STAND-001",
    name="stand-phase-stands-every-character",
    severity=Severity.ERROR,
    citation="seed 003 §スタンドフェイズ 3; reference B6 #2",
    title=Text(ja="スタンドフェイズで全キャラをスタンド", en="the stand phase stands every character"),
    message=Text(
        ja="スタンドフェイズの終わりに {player} のキャラがスタンドしていません: {slots}",
        en="at the end of the stand phase these characters of {player} are not standing: {slots}",
    ),
    on=CLOSERS,
    doc=Doc(
        checks=Text(
            ja="スタンドフェイズが終わるとき、ターンプレイヤーのキャラがすべてスタンドしていること。"
               "効果でスタンドしないキャラは `ws.stand` の `held` に書く (参考資料 B6 #2: 効果が別に言う場合を除く)。",
            en="When the stand phase ends, every character of the turn player is standing; a character an effect "
               "keeps rested is named in the `ws.stand`'s `held` (reference B6 #2: unless an effect says otherwise).",
        ),
        why=Text(
            ja="seed 003 §スタンドフェイズ 3: 甲の全てのキャラをスタンドする (自動)。",
            en="Seed 003 §スタンドフェイズ 3: all of 甲's characters stand (automatic).",
        ),
        bad=Text(
            ja="C1 は前のターンからレスト; ws.phase stand; ws.phase.end stand",
            en="C1 rested from the last turn; ws.phase stand; ws.phase.end stand",
        ),
        good="ws.phase stand; ws.stand; ws.phase.end stand",
    ),
)
def stand_phase_stands_every_character(s: Step) -> Iterable[Hit]:
    if closed_phase(s) != "stand":
        return
    before = game(s.before)
    side = before.side(before.turn_player)
    down = sorted(k for k, v in side.stage.items() if v.state != "stand" and k not in before.stand_held)
    if down:
        slots = ", ".join(f"{k} {side.stage[k].card} ({side.stage[k].state})" for k in down)
        yield Hit(s.event.seq, {"player": before.turn_player, "slots": slots})


@rule(
    code="WS-DRAW-001",
    name="draw-phase-draws-one-card",
    severity=Severity.ERROR,
    citation="seed 003 §ドローフェイズ 3; reference B6 #3",
    title=Text(ja="ドローフェイズは1枚引く", en="the draw phase draws exactly one card"),
    message=Text(ja="ドローフェイズに {drawn} 枚引きました (1 枚のはず)", en="the draw phase drew {drawn} cards, not 1"),
    on=(ev.Drew,) + CLOSERS,
    doc=Doc(
        checks=Text(
            ja="ドローフェイズでちょうど 1 枚引くこと: 2 枚目以降のドローはその `ws.draw` の位置に、"
               "引いていないことはドローフェイズの終わりに指摘する。",
            en="The draw phase draws exactly one card: a draw past the first is reported at that `ws.draw`, a "
               "missing draw when the draw phase ends.",
        ),
        why=Text(
            ja="seed 003 §ドローフェイズ 3: 甲は山札からカードを 1 枚引く。",
            en="Seed 003 §ドローフェイズ 3: 甲 draws one card from the deck.",
        ),
        bad="ws.phase draw; ws.phase.end draw",
        good="ws.phase draw; ws.draw 1; ws.phase.end draw",
    ),
)
def draw_phase_draws_one_card(s: Step) -> Iterable[Hit]:
    before, after, e = game(s.before), game(s.after), s.event
    if isinstance(e, ev.Drew):
        # The extra card is known at the draw that took it; a writer looks there first.
        if e.reason == "draw-phase" and before.phase_draws < 2 <= after.phase_draws:
            yield Hit(e.seq, {"drawn": after.phase_draws})
    elif closed_phase(s) == "draw" and before.phase_draws == 0:
        yield Hit(e.seq, {"drawn": 0})


@rule(
    code="WS-CLK-001",
    name="clock-draws-two-and-no-clock-draws-none",
    severity=Severity.ERROR,
    citation="seed 003 §クロックフェイズ 3 (置いたら 2枚引く / 置かないなら次へ); reference B6 #4",
    title=Text(ja="クロックしたら2枚引く、しなければ引かない", en="a clock draws exactly two; no clock, no draw"),
    message=Text(ja="クロックフェイズ: {detail}", en="clock phase: {detail}"),
    on=(ev.Drew,) + CLOSERS,
    doc=Doc(
        checks=Text(
            ja="クロックによるドローは、カードをクロックに置いた後にだけ行い、クロックフェイズが終わるまでにちょうど "
               "2 枚引くこと。",
            en="Draws for the clock come only after a card was clocked, and exactly two of them before the clock "
               "phase ends.",
        ),
        why=Text(
            ja="seed 003 §クロックフェイズ 3: 甲がカードをクロック置き場に置いたら 2 枚引く。置かないなら次へ進む。",
            en="Seed 003 §クロックフェイズ 3: if 甲 puts a card into the clock, 甲 draws two; if not, the phase "
               "moves on.",
        ),
        bad=Text(
            ja="ws.phase clock; ws.draw 2 reason=clock (クロックに置いていない)",
            en="ws.phase clock; ws.draw 2 reason=clock (nothing clocked)",
        ),
        good="ws.phase clock; ws.clock; ws.draw 2 reason=clock",
    ),
)
def clock_draws_two(s: Step) -> Iterable[Hit]:
    before, after, e = game(s.before), game(s.after), s.event
    if isinstance(e, ev.Drew):
        if e.reason != "clock":
            return
        if before.clocked == 0:
            yield Hit(e.seq, {"detail": f"{e.count} drawn for the clock, but no card was clocked"})
        elif after.clock_draws > 2:
            yield Hit(e.seq, {"detail": f"{after.clock_draws} cards drawn for one clock (2 allowed)"})
    elif closed_phase(s) == "clock" and before.clocked and before.clock_draws < 2:
        yield Hit(e.seq, {"detail": f"a card was clocked but only {before.clock_draws} drawn (2 required)"})


@rule(
    code="WS-CLK-002",
    name="clock-at-most-one-card",
    severity=Severity.ERROR,
    citation="seed 003 §クロックフェイズ 3 (1枚選び); reference B6 #4",
    title=Text(ja="クロックは1枚まで", en="at most one card is clocked"),
    message=Text(ja="このクロックフェイズで {n} 枚目のクロックです", en="card number {n} clocked in one clock phase"),
    on=(ev.Clocked,),
    doc=Doc(
        checks=Text(
            ja="クロックフェイズごとに `ws.clock` は 1 回までであること。",
            en="At most one `ws.clock` per clock phase.",
        ),
        why=Text(
            ja="seed 003 §クロックフェイズ 3: 甲は手札から 1 枚選んでクロック置き場に置いてよい。",
            en="Seed 003 §クロックフェイズ 3: 甲 may choose one card from hand for the clock.",
        ),
        bad="ws.clock; ws.clock",
        good="ws.clock; ws.draw 2 reason=clock",
    ),
)
def clock_at_most_one_card(s: Step) -> Iterable[Hit]:
    before = game(s.before)
    if before.clocked >= 1:
        yield Hit(s.event.seq, {"n": before.clocked + 1})


@rule(
    code="WS-CX-001",
    name="one-climax-per-turn",
    severity=Severity.ERROR,
    citation="seed 003 §クライマックスフェイズ 3; reference B1 #5, B6 #6",
    title=Text(ja="クライマックスは1ターンに1枚", en="one climax per turn"),
    message=Text(ja="このターン {n} 枚目のクライマックスです", en="climax number {n} this turn"),
    on=(ev.ClimaxPlayed,),
    doc=Doc(
        checks=Text(
            ja="1 ターンに `ws.climax` は 1 回までであること。",
            en="At most one `ws.climax` per turn.",
        ),
        why=Text(
            ja="seed 003 §クライマックスフェイズ 3: 甲は手札からクライマックスカードを 1 枚選び、"
               "クライマックス置場に置いてもよい (1 回だけ)。",
            en="Seed 003 §クライマックスフェイズ 3: 甲 may put a climax from hand into the climax zone, once.",
        ),
        bad="ws.climax A; ws.climax B",
        good="ws.climax A",
    ),
)
def one_climax_per_turn(s: Step) -> Iterable[Hit]:
    before = game(s.before)
    if before.climaxes >= 1:
        yield Hit(s.event.seq, {"n": before.climaxes + 1})


# --- end phase ------------------------------------------------------------------

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
    limit = int(options.get("hand_limit", 7))
    hand = state.side(state.turn_player).hand
    if hand > limit:
        yield Hit(seq, {"limit": limit, "detail": f"the end phase ended with {hand} cards in hand"})


def _discarded_too_many(s: Step) -> Iterable[Hit]:
    e = s.event
    if not isinstance(e, ev.Discarded) or e.reason != "hand-limit":
        return
    limit = int(s.options.get("hand_limit", 7))
    had, left = game(s.before).side(e.player).hand, game(s.after).side(e.player).hand
    if left < limit and not game(s.before).side(e.player).hand_known:
        yield undecided(e.seq, UNKNOWN_HAND)
    elif left < limit:
        yield Hit(e.seq, {"limit": limit, "detail": f"{e.player} discarded from {had} to {left}, below the limit"})


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
        yield Hit(seq, {"pending": ", ".join(p.ability for p in state.pending)}, tuple(p.seq for p in state.pending))


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
    if s.options.get("end_phase_order", "seed") == "seed" and s.event.reason == "hand-limit" and \
            before.phase == "end" and before.climax_left:
        yield Hit(s.event.seq, {})


# --- rule actions and losing -------------------------------------------------------

INTERRUPTS = {"level-up": ev.LeveledUp, "refresh": ev.Refreshed}
QUIET = (Note, JudgeRuling)


def _overdue(s: Step, kind: str) -> Iterable[tuple[str, int]]:
    """(player, seq) of rule actions of ``kind`` made due since the last game action and still not done.

    Rule actions may follow one another in any order (a damage can fill the
    clock and empty the deck at once); the first other game event after them is
    where an undone one is reported, once.
    """
    before = game(s.before)
    if isinstance(s.event, QUIET + NEUTRAL + (ev.AbilityResolved,)) or not is_game_event(s.event):
        return  # an ability resolved first is WS-CHK-001's finding
    for key, seq in before.due.items():
        k, player = key.rsplit(":", 1)
        if k == kind and seq >= before.last_action_seq:
            yield player, seq


@rule(
    code="WS-RULE-001",
    name="level-up-at-seven-clock-at-once",
    severity=Severity.ERROR,
    citation="CR 9.3 and 9.1.2.1 per reference B2; reference B6 #13",
    title=Text(ja="クロック7枚で直ちにレベルアップ", en="seven clock cards level up at once"),
    message=Text(ja="{player}: {detail}", en="{player}: {detail}"),
    on=None,
    doc=Doc(
        checks=Text(
            ja="`ws.levelup` にはクロック 7 枚が必要。クロックが 7 枚になったら、"
               "次のゲームのイベントがそのレベルアップであること。",
            en="A `ws.levelup` needs 7 clock cards; when the clock reaches 7, the next game event is that level-up.",
        ),
        why=Text(
            ja="レベルアップは割り込み型のルール処理: 他の処理の途中でも直ちに行う。",
            en="Level-up is an interrupting rule action: it happens at once, even in the middle of another process.",
        ),
        bad=Text(
            ja="ws.damage (クロック 6 → 8); ws.step damage… (レベルアップがない)",
            en="ws.damage (clock 6 → 8); ws.step damage… (no level-up)",
        ),
        good=Text(
            ja="ws.damage (クロック 6 → 8); ws.levelup",
            en="ws.damage (clock 6 → 8); ws.levelup",
        ),
    ),
)
def level_up_at_seven(s: Step) -> Iterable[Hit]:
    e = s.event
    if isinstance(e, ev.LeveledUp):
        n = len(game(s.before).side(e.player).clock)
        if n < 7 and not game(s.before).known:
            yield undecided(e.seq, UNKNOWN_BOARD)
        elif n < 7:
            yield Hit(e.seq, {"player": e.player, "detail": f"levelled up with {n} clock cards (7 needed)"})
        return
    if not is_game_event(e):
        return
    for player, seq in _overdue(s, "level-up"):
        yield Hit(e.seq, {"player": player, "detail": f"the clock reached 7 at seq {seq} but {tag(e)} came "
                                                      "before the level-up"}, (seq,))


@rule(
    code="WS-RULE-002",
    name="refresh-when-the-deck-empties",
    severity=Severity.ERROR,
    citation="CR 9.2 and 9.1.2.1 per reference B2; reference B6 #14",
    title=Text(ja="山札が0枚になったら直ちにリフレッシュ", en="an empty deck refreshes at once"),
    message=Text(ja="{player}: {detail}", en="{player}: {detail}"),
    on=None,
    doc=Doc(
        checks=Text(
            ja="`ws.refresh` には空の山札が必要。山札がなくなったら (控室にカードがあれば)、"
               "次のゲームのイベントがリフレッシュであること。",
            en="A `ws.refresh` needs an empty deck; when the deck empties (and the waiting room has cards), the next "
               "game event is the refresh.",
        ),
        why=Text(
            ja="リフレッシュは割り込み型のルール処理 (CR 9.2): 控室が直ちに新しい山札になる。",
            en="Refresh is an interrupting rule action (CR 9.2): the waiting room becomes the new deck at once.",
        ),
        bad=Text(
            ja="ws.draw (山札 1 → 0); ws.phase.end draw",
            en="ws.draw (deck 1 → 0); ws.phase.end draw",
        ),
        good=Text(
            ja="ws.draw (山札 1 → 0); ws.refresh; ws.phase.end draw",
            en="ws.draw (deck 1 → 0); ws.refresh; ws.phase.end draw",
        ),
    ),
)
def refresh_when_deck_empties(s: Step) -> Iterable[Hit]:
    e = s.event
    if isinstance(e, ev.Refreshed):
        n = game(s.before).side(e.player).deck
        if n > 0 and not game(s.before).side(e.player).hand_known:
            yield undecided(e.seq, UNKNOWN_HAND)
        elif n > 0:
            yield Hit(e.seq, {"player": e.player, "detail": f"refreshed with {n} cards still in the deck"})
        return
    if not is_game_event(e):
        return
    for player, seq in _overdue(s, "refresh"):
        yield Hit(e.seq, {"player": player, "detail": f"the deck emptied at seq {seq} but {tag(e)} came "
                                                      "before the refresh"}, (seq,))


@rule(
    code="WS-RULE-003",
    name="refresh-point-follows-the-refresh",
    severity=Severity.ERROR,
    citation="CR 9.2 per reference B2 (refresh point after the interrupted process); reference B3, B6 #14",
    title=Text(ja="リフレッシュの後にリフレッシュポイント", en="a refresh is followed by its refresh point"),
    message=Text(ja="{player}: {detail}", en="{player}: {detail}"),
    on=(ev.RefreshPointPaid, ev.TurnStarted),
    doc=Doc(
        checks=Text(
            ja="各 `ws.refresh` の後、次のターンまでに、そのプレイヤーの `ws.refresh.point` が 1 回あること。"
               "リフレッシュなしのリフレッシュポイントはない。",
            en="Each `ws.refresh` is followed, before the next turn, by one `ws.refresh.point` of that player, and "
               "no refresh point comes without a refresh.",
        ),
        why=Text(
            ja="リフレッシュの後、割り込まれた処理が終わったら、新しい山札の上のカードをクロックに置く (reference B2 "
               "による CR 9.2。2022 年の変更後の正確なタイミングは [要確認] なので、"
               "「次のターンより前」だけを検査する)。",
            en="After a refresh the top card of the new deck goes to the clock once the interrupted process ends (CR "
               "9.2 per reference B2; the exact timing after the 2022 change is [to verify], so only 'before the "
               "next turn' is checked).",
        ),
        bad="ws.refresh; … ws.turn",
        good="ws.refresh; ws.refresh.point; … ws.turn",
    ),
)
def refresh_point_follows_refresh(s: Step) -> Iterable[Hit]:
    before, e = game(s.before), s.event
    if isinstance(e, ev.RefreshPointPaid):
        if e.player not in before.refresh_owed:
            yield Hit(e.seq, {"player": e.player, "detail": "a refresh point without a refresh"})
        return
    for player, seq in sorted(before.refresh_owed.items()):
        yield Hit(e.seq, {"player": player, "detail": f"the refresh at seq {seq} got no refresh point before "
                                                      "the next turn"}, (seq,))


def _loss_overdue(s: Step, kind: str) -> Iterable[Hit]:
    e = s.event
    if isinstance(e, (ev.GameLost, MatchEnded)) or not (is_game_event(e)):
        return
    for player, seq in _overdue(s, kind):
        yield Hit(e.seq, {"player": player, "seq_due": seq, "type": tag(e)}, (seq,))


@rule(
    code="WS-GAME-001",
    name="level-four-loses",
    severity=Severity.ERROR,
    citation="CR 1.2.2.1 per reference B2; reference B6 #18",
    title=Text(ja="レベル4で敗北", en="level 4 loses the game"),
    message=Text(
        ja="{player} は seq {seq_due} でレベル4になりましたが、敗北の前に {type} が記録されています",
        en="{player} reached level 4 at seq {seq_due}, but {type} is recorded instead of the loss",
    ),
    on=None,
    doc=Doc(
        checks=Text(
            ja="プレイヤーのレベル置場が 4 枚になったら、次のゲームのイベントがそのプレイヤーの `ws.lose` (または "
               "`match.end`) であること。",
            en="When a player has 4 level cards, the next game event is their `ws.lose` (or `match.end`).",
        ),
        why=Text(
            ja="レベル置場のカードが 4 枚になると敗北する (CR 1.2.2.1)。次のチェックで最初に行うルール処理。",
            en="Four cards in the level zone lose the game (CR 1.2.2.1), a rule action done first at the next check.",
        ),
        bad=Text(
            ja="ws.levelup (4 枚目のレベル); ws.step battle",
            en="ws.levelup (4th level card); ws.step battle",
        ),
        good=Text(
            ja="ws.levelup (4 枚目のレベル); ws.lose reason=level; match.end",
            en="ws.levelup (4th level card); ws.lose reason=level; match.end",
        ),
    ),
)
def level_four_loses(s: Step) -> Iterable[Hit]:
    yield from _loss_overdue(s, "lose-level")


@rule(
    code="WS-GAME-002",
    name="empty-deck-and-waiting-room-loses",
    severity=Severity.ERROR,
    citation="CR 1.2.2.2 per reference B2; reference B6 #18",
    title=Text(ja="山札と控室が0枚で敗北", en="an empty deck and waiting room lose the game"),
    message=Text(
        ja="{player} は seq {seq_due} で山札も控室も0枚になりましたが、敗北の前に {type} が記録されています",
        en="{player}'s deck and waiting room were both empty at seq {seq_due}, but {type} is recorded instead "
           "of the loss",
    ),
    on=None,
    doc=Doc(
        checks=Text(
            ja="プレイヤーの山札と控室がどちらも空になったら、次のゲームのイベントがそのプレイヤーの `ws.lose` "
               "であること。",
            en="When a player's deck and waiting room are both empty, the next game event is their `ws.lose`.",
        ),
        why=Text(
            ja="リフレッシュするカードがなければ、そのプレイヤーは敗北する (CR 1.2.2.2)。",
            en="With nothing to refresh from, the player loses (CR 1.2.2.2).",
        ),
        bad=Text(
            ja="ws.draw (山札 1 → 0、控室 0 枚); ws.phase.end draw",
            en="ws.draw (deck 1 → 0, waiting room 0); ws.phase.end draw",
        ),
        good=Text(
            ja="ws.draw (山札 1 → 0、控室 0 枚); ws.lose reason=deck; match.end",
            en="ws.draw (deck 1 → 0, waiting room 0); ws.lose reason=deck; match.end",
        ),
    ),
)
def empty_deck_and_waiting_loses(s: Step) -> Iterable[Hit]:
    yield from _loss_overdue(s, "lose-deck")


@rule(
    code="WS-GAME-003",
    name="a-loss-has-its-cause",
    severity=Severity.ERROR,
    citation="CR 1.2.2 per reference B2; reference B6 #18",
    title=Text(ja="敗北理由が状態と合わない", en="a recorded loss matches the state"),
    message=Text(ja="{player} の敗北 ({reason}): {detail}", en="{player} lost ({reason}), but {detail}"),
    on=(ev.GameLost,),
    doc=Doc(
        checks=Text(
            ja="`level` による敗北にはレベル 4 枚が、`deck` による敗北には山札と控室が空であることが必要。",
            en="A loss for `level` needs 4 level cards; a loss for `deck` needs an empty deck and waiting room.",
        ),
        why=Text(
            ja="ゲームを終わらせるのは CR 1.2.2 の敗北条件 (または投了か効果) だけ。",
            en="Only the losing conditions of CR 1.2.2 (or a concession or an effect) end the game.",
        ),
        bad=Text(
            ja="レベル 3; ws.lose reason=level",
            en="level 3; ws.lose reason=level",
        ),
        good=Text(
            ja="レベル 4; ws.lose reason=level",
            en="level 4; ws.lose reason=level",
        ),
    ),
)
def a_loss_has_its_cause(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, ev.GameLost)
    before = game(s.before)
    side = before.side(e.player)
    if e.reason in ("level", "deck") and not (before.known and (e.reason == "level" or side.hand_known)):
        yield undecided(e.seq, UNKNOWN_BOARD if e.reason == "level" else UNKNOWN_HAND)
    elif e.reason == "level" and len(side.level) < 4:
        yield Hit(e.seq, {"player": e.player, "reason": e.reason, "detail": f"has {len(side.level)} level cards"})
    elif e.reason == "deck" and side.deck + side.waiting > 0:
        yield Hit(e.seq, {"player": e.player, "reason": e.reason,
                          "detail": f"has {side.deck} deck and {side.waiting} waiting-room cards"})


@rule(
    code="WS-GAME-004",
    name="a-loser-does-not-win",
    severity=Severity.ERROR,
    citation="CR 1.2.2–1.2.3 per reference B2; reference B6 #18",
    title=Text(ja="敗北したプレイヤーは勝者にならない", en="a player who lost is not the winner"),
    message=Text(ja="match.end の勝者 {winner}: {detail}", en="match.end names {winner} the winner, but {detail}"),
    on=(MatchEnded,),
    doc=Doc(
        checks=Text(
            ja="`match.end` が、敗北したプレイヤー (`ws.lose`、レベル 4 枚、または山札と控室が空) "
               "を勝者にしていないこと。両者が同時に敗北したら引き分け (勝者なし)。",
            en="`match.end` does not name as winner a player who lost (`ws.lose`, 4 level cards, or deck and waiting "
               "room empty); when both lost at once the match is a draw (no winner).",
        ),
        why=Text(
            ja="敗北条件を満たしたプレイヤーはゲームに負ける (CR 1.2.2)。同時に敗北したら引き分け (1.2.3)。",
            en="Losing conditions end the game for that player (CR 1.2.2); simultaneous losses are a draw (1.2.3).",
        ),
        bad="ws.lose p1 reason=level; match.end winner=p1",
        good="ws.lose p1 reason=level; match.end winner=p2",
    ),
)
def a_loser_does_not_win(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, MatchEnded)
    before = game(s.before)
    losers = set(before.lost) | {key.rsplit(":", 1)[1] for key in before.due if key.startswith("lose-")}
    if e.winner is not None and e.winner in losers:
        both = len(losers & set(before.players)) > 1
        yield Hit(e.seq, {"winner": e.winner, "detail": "both players lost: it is a draw" if both
                          else f"{e.winner} lost"})


RULES = (
    stand_phase_stands_every_character,
    draw_phase_draws_one_card,
    clock_draws_two,
    clock_at_most_one_card,
    one_climax_per_turn,
    end_phase_hand_limit,
    climax_leaves_in_the_end_phase,
    end_phase_repeats_while_pending,
    discard_before_climax_leaves,
    level_up_at_seven,
    refresh_when_deck_empties,
    refresh_point_follows_refresh,
    level_four_loses,
    empty_deck_and_waiting_loses,
    a_loss_has_its_cause,
    a_loser_does_not_win,
)
