"""Weiss Schwarz stand, draw, clock and climax phases: what each phase's item 3 does.

Source: seed 003 §スタンドフェイズ 3 (全てのキャラをスタンド), §ドローフェイズ 3 (1枚引く),
§クロックフェイズ 3 (1枚置いたら2枚引く), §クライマックスフェイズ 3 (1枚置いてもよい);
reference B1 #5, B6 #2–#4, #6.
"""

from __future__ import annotations

from typing import Iterable

from kifu.auditor.base import Doc, Hit, Severity, Step, Text, rule

from .. import events as ev
from .common import CLOSERS, STATE_JA, closed_phase, game


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
        slots = Text(ja=", ".join(f"{k} {side.stage[k].card} ({STATE_JA[side.stage[k].state]})" for k in down),
                     en=", ".join(f"{k} {side.stage[k].card} ({side.stage[k].state})" for k in down))
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
            yield Hit(e.seq, {"detail": Text(ja=f"クロックに置いていないのに、クロックとして {e.count} 枚引きました",
                                             en=f"{e.count} drawn for the clock, but no card was clocked")})
        elif after.clock_draws > 2:
            yield Hit(e.seq, {"detail": Text(ja=f"1 回のクロックで {after.clock_draws} 枚引きました (2 枚まで)",
                                             en=f"{after.clock_draws} cards drawn for one clock (2 allowed)")})
    elif closed_phase(s) == "clock" and before.clocked and before.clock_draws < 2:
        yield Hit(e.seq, {"detail": Text(
            ja=f"クロックに置きましたが、{before.clock_draws} 枚しか引いていません (2 枚引く)",
            en=f"a card was clocked but only {before.clock_draws} drawn (2 required)",
        )})


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


RULES = (
    stand_phase_stands_every_character,
    draw_phase_draws_one_card,
    clock_draws_two,
    clock_at_most_one_card,
    one_climax_per_turn,
)
