"""Magic coin flips: calls, winning and losing (CR 705.2, seed 001 §ルール) and stated results (CR 705.3)."""

from __future__ import annotations

from typing import Iterable

from kifu.auditor.base import Doc, End, Hit, Severity, Step, Text, end_rule, rule

from ..events import CoinCalled, CoinLanded, FlipDecided
from ..projection import (
    Group,
    Instruction,
    Mark,
    State,
    coins_of,
    groups_in_order,
    ignored_coins,
    kept_coin,
    stated_group,
    the_call,
)
from .common import CALLS, CR_705_2, CR_705_3, STATED, evidence, flip_of


def _called(s: Step) -> Instruction | None:
    """The instruction of this event if it is a called flip without a stated result."""
    ins = flip_of(s.after.game, s.event.flip)  # type: ignore[attr-defined]
    stated = ins is not None and stated_group(ins, s.event.group)  # type: ignore[attr-defined]
    return ins if ins is not None and ins.kind == "called" and not stated else None


@rule(
    code="MTG-CALL-001",
    name="heads-tails-flip-has-no-call",
    severity=Severity.ERROR,
    citation=CR_705_2,
    title=Text(ja="表裏だけを参照するコイン投げには宣言がない", en="a heads/tails-only flip has no call"),
    message=Text(
        ja="{card} は表裏だけを参照するので誰も宣言しませんが、{player} の宣言 ({side}) が記録されています",
        en="{card} cares only about heads or tails, so nobody calls, yet {player} called {side}",
    ),
    on=(CoinCalled,),
    doc=Doc(
        checks=Text(
            ja="表か裏かだけを参照するカード (魔力激突/Mana Clash、Ral Zarek の −7、Two-Headed Giant、Rakdos) "
               "のコイン投げに `mtg.call` (宣言) が記録されていないこと。",
            en="No `mtg.call` for a flip whose card only cares about heads or tails (Mana Clash, Ral Zarek −7, "
               "Two-Headed Giant, Rakdos).",
        ),
        why=Text(
            ja="705.2: 表か裏かだけを参照する効果では、どのプレイヤーも宣言しない (seed 001: 魔力激突)。",
            en="705.2: for effects that refer only to heads or tails, no player calls (seed 001: 魔力激突).",
        ),
        bad=Text(
            ja='{"type":"mtg.flip","flip":"f1","card":"Mana Clash",…} の後に {"type":"mtg.call","flip":"f1",…}',
            en='{"type":"mtg.flip","flip":"f1","card":"Mana Clash",…} then {"type":"mtg.call","flip":"f1",…}',
        ),
        good=Text(
            ja='{"type":"mtg.flip","flip":"f1","card":"Mana Clash",…} の後はコインだけで、宣言はない',
            en='{"type":"mtg.flip","flip":"f1","card":"Mana Clash",…} then the coins, no call',
        ),
    ),
)
def heads_tails_has_no_call(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, CoinCalled)
    ins = flip_of(s.after.game, e.flip)
    if ins is not None and ins.kind == "heads-tails":
        yield Hit(e.seq, evidence(ins, player=e.player, side=e.side))


@rule(
    code="MTG-CALL-002",
    name="heads-tails-flip-has-no-winner",
    severity=Severity.ERROR,
    citation=CR_705_2 + "; " + CR_705_3,
    title=Text(ja="表裏だけのコイン投げには勝ちも負けもない", en="nobody wins or loses a heads/tails-only flip"),
    message=Text(
        ja="{card} のコイン投げは表裏だけを参照するので勝敗はありませんが、{player} の {outcome} が記録されています",
        en="{card}'s flip cares only about heads or tails, so nobody wins or loses, yet {player} {outcome}",
    ),
    on=(FlipDecided,),
    options=(STATED.name,),
    doc=Doc(
        checks=Text(
            ja="表裏だけを参照するコイン投げに `mtg.outcome` (勝ち/負け) が記録されていないこと。"
               "ただし結果を指定する効果 (705.3、Edgar) がそのプレイヤーの勝ちとする場合は除く。",
            en="No `mtg.outcome` for a heads/tails-only flip, unless a stated result (705.3, Edgar) says the player "
               "wins it.",
        ),
        why=Text(
            ja="705.2: 表か裏かだけを参照するコイン投げでは、どのプレイヤーも勝ちも負けもしない (seed 001: "
               "だから魔力激突で偶然の出合い/Chance Encounter に運勢カウンターは乗らない)。",
            en="705.2: in a flip that refers only to heads or tails no player wins or loses (seed 001: so Chance "
               "Encounter gets no luck counter from Mana Clash).",
        ),
        bad=Text(
            ja='魔力激突のコイン投げ f1; {"type":"mtg.outcome","flip":"f1","player":"a","outcome":"won"}',
            en='Mana Clash flip f1; {"type":"mtg.outcome","flip":"f1","player":"a","outcome":"won"}',
        ),
        good=Text(
            ja="魔力激突のコイン投げ f1; コインの記録だけ",
            en="Mana Clash flip f1; coins only",
        ),
    ),
)
def heads_tails_has_no_winner(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, FlipDecided)
    ins = flip_of(s.after.game, e.flip)
    if ins is not None and ins.kind == "heads-tails" and not stated_group(ins, e.group):
        yield Hit(e.seq, evidence(ins, player=e.player, outcome=e.outcome))


@rule(
    code="MTG-CALL-003",
    name="the-flipper-calls",
    severity=Severity.ERROR,
    citation=CR_705_2,
    title=Text(ja="宣言するのはコインを投げるプレイヤー", en="the player who flips makes the call"),
    message=Text(
        ja="{card} のコインを投げるのは {flipper} ですが、宣言したのは {player} です",
        en="{flipper} flips for {card}, but {player} made the call",
    ),
    on=(CoinCalled,),
    doc=Doc(
        checks=Text(
            ja="`mtg.call` の `player` が、その指示でコインを投げるプレイヤー (flipper) であること。",
            en="The `player` of a `mtg.call` is the flipper of its instruction.",
        ),
        why=Text(
            ja="705.2: 表か裏かを宣言するのはコインを投げたプレイヤー本人 (コールドスナップより前は対戦相手が宣言して"
               "いたが、そのルールはもうない。reference A1)。",
            en="705.2: the player who flips calls heads or tails (before Coldsnap an opponent called; that rule is "
               "gone, reference A1).",
        ),
        bad=Text(
            ja='{"type":"mtg.flip","flipper":"a",…} の後に {"type":"mtg.call","player":"b",…}',
            en='{"type":"mtg.flip","flipper":"a",…} then {"type":"mtg.call","player":"b",…}',
        ),
        good=Text(
            ja='{"type":"mtg.flip","flipper":"a",…} の後に {"type":"mtg.call","player":"a",…}',
            en='{"type":"mtg.flip","flipper":"a",…} then {"type":"mtg.call","player":"a",…}',
        ),
    ),
)
def flipper_calls(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, CoinCalled)
    ins = _called(s)
    if ins is not None and e.player != ins.flipper:
        yield Hit(e.seq, evidence(ins, player=e.player))


@rule(
    code="MTG-CALL-004",
    name="call-comes-before-the-result",
    severity=Severity.ERROR,
    citation=CR_705_2 + "; seed 001 §ルール (投げる→空中にある間に宣言→確認)",
    title=Text(ja="宣言は結果が出る前に行う", en="the call is made before the result is known"),
    message=Text(
        ja="{card} のコイン投げ {group} の宣言 (seq {seq}) が、結果 (seq {coin_seq}) より後に記録されています",
        en="the call for flip {group} of {card} (seq {seq}) is recorded after its result (seq {coin_seq})",
    ),
    on=(CoinCalled, CoinLanded, FlipDecided),
    doc=Doc(
        checks=Text(
            ja="宣言するコイン投げでは、投げたプレイヤーの `mtg.call` が、"
               "そのコイン投げのどのコインの結果よりも前にあること。宣言がまったく記録されていないログ (Forge、古い "
               "XMage) は、順序を判定できないとして情報の指摘にする。",
            en="For a called flip, the flipper's `mtg.call` comes before any coin of that flip lands. A called flip "
               "whose log has no call at all (Forge, older XMage) gets an info finding: timing undecidable.",
        ),
        why=Text(
            ja="705.2: 投げたプレイヤーが宣言し、その宣言を結果と比べる。コインの結果を見てからの宣言は宣言ではない "
               "(seed 001: イカサマで勝敗を操作する余地をなくすため、コインが空中にある間に宣言する)。",
            en="705.2: the flipper calls and the call is compared with the result; a call made once the coin is seen "
               "is no call at all (seed 001: the call is made while the coin is in the air to leave no room for "
               "cheating).",
        ),
        bad=Text(
            ja='{"type":"mtg.coin","flip":"f1","result":"heads"} の後に {"type":"mtg.call","flip":"f1",'
               '"side":"heads"}',
            en='{"type":"mtg.coin","flip":"f1","result":"heads"} then {"type":"mtg.call","flip":"f1","side":"heads"}',
        ),
        good=Text(
            ja='{"type":"mtg.call","flip":"f1","player":"a","side":"heads"} の後に {"type":"mtg.coin",…}',
            en='{"type":"mtg.call","flip":"f1","player":"a","side":"heads"} then {"type":"mtg.coin",…}',
        ),
    ),
)
def call_before_result(s: Step) -> Iterable[Hit]:
    ins = _called(s)
    if ins is None:
        return
    e = s.event
    before = flip_of(s.before.game, e.flip)  # type: ignore[attr-defined]
    g_before = before.groups.get(e.group) if before else None  # type: ignore[attr-defined]
    if isinstance(e, CoinCalled):
        landed = coins_of(g_before, ins.flipper) if g_before else ()
        if landed and e.player == ins.flipper:
            yield Hit(e.seq, evidence(ins, group=e.group, seq=e.seq, coin_seq=landed[0].seq), (landed[0].seq,))
        return
    yield from _no_call(ins, g_before, e)


def _no_call(ins: Instruction, g_before, e) -> Iterable[Hit]:  # type: ignore[no-untyped-def]
    """Info: a result with no call before it and nothing earlier in the flip: the timing cannot be decided."""
    if g_before is not None and (any(c.player == ins.flipper for c in g_before.calls) or g_before.coins):
        return
    if isinstance(e, CoinLanded) and (e.player or ins.flipper) != ins.flipper:
        return
    reason = (f"the log records no call by the flipper ({ins.flipper}) for flip {e.group} of {ins.card} "
              "(a client that records only outcomes, or a call by someone else)")
    yield Hit(e.seq, evidence(ins, group=e.group, reason=reason), undecided=True)


@rule(
    code="MTG-CALL-005",
    name="only-the-flipper-wins-or-loses",
    severity=Severity.ERROR,
    citation=CR_705_2,
    title=Text(ja="勝ち負けがつくのはコインを投げたプレイヤーだけ", en="only the flipper wins or loses"),
    message=Text(
        ja="{card} のコインを投げたのは {flipper} ですが、{player} の {outcome} が記録されています",
        en="{flipper} flipped for {card}, but {player} is recorded as having {outcome}",
    ),
    on=(FlipDecided,),
    doc=Doc(
        checks=Text(
            ja="`mtg.outcome` の `player` が、その指示でコインを投げるプレイヤーであること。",
            en="The `player` of a `mtg.outcome` is the flipper of its instruction.",
        ),
        why=Text(
            ja="705.2: コイン投げに勝ったり負けたりするのはコインを投げたプレイヤーだけで、"
               "他のプレイヤーには関係しない (だから対戦相手の偶然の出合い/Chance Encounter はその勝ちを数えない)。",
            en="705.2: only the player who flips wins or loses the flip; no other player is involved (so an "
               "opponent's Chance Encounter never counts it).",
        ),
        bad=Text(
            ja='{"type":"mtg.flip","flipper":"a",…} … {"type":"mtg.outcome","player":"b","outcome":"won"}',
            en='{"type":"mtg.flip","flipper":"a",…} … {"type":"mtg.outcome","player":"b","outcome":"won"}',
        ),
        good=Text(
            ja='{"type":"mtg.flip","flipper":"a",…} … {"type":"mtg.outcome","player":"a","outcome":"lost"}',
            en='{"type":"mtg.flip","flipper":"a",…} … {"type":"mtg.outcome","player":"a","outcome":"lost"}',
        ),
    ),
)
def only_flipper_wins(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, FlipDecided)
    ins = flip_of(s.after.game, e.flip)
    if ins is not None and ins.kind != "heads-tails" and e.player != ins.flipper:
        yield Hit(e.seq, evidence(ins, player=e.player, outcome=e.outcome))


def expected_outcome(ins: Instruction, g: Group) -> tuple[str | None, dict]:
    """The outcome 705.2/705.3 give for flip ``g``, with the values compared."""
    if stated_group(ins, g.group):
        return "won", {"call": "-", "result": "heads (stated, 705.3)"}
    kept, call = kept_coin(g, ins.flipper), the_call(ins, g)
    if kept is None or call is None:
        return None, {}
    return ("won" if call.value == kept.result else "lost"), {"call": call.value, "result": kept.result}


def explained_by_ignored(ins: Instruction, g: Group, outcome: str) -> bool:
    """True when the recorded outcome is what an ignored Thumb coin would have given."""
    call = the_call(ins, g)
    if call is None or stated_group(ins, g.group):
        return False
    return any((c.result == call.value) == (outcome == "won") for c in ignored_coins(g, ins.flipper))


def wrong_outcomes(state: State) -> Iterable[tuple[Instruction, Group, Mark, str, dict]]:
    """Each flipper's recorded outcome of a called flip that contradicts call and kept coin, judged once the
    whole log is in (a keep or a coin may be recorded after the outcome)."""
    for ins in state.flips.values():
        if ins.kind != "called":
            continue
        for g in groups_in_order(ins):
            if stated_group(ins, g.group):
                continue  # a stated result is MTG-STATE-001's to judge
            expected, seen = expected_outcome(ins, g)
            for o in g.outcomes:
                if o.player == ins.flipper and expected is not None and o.value != expected:
                    yield ins, g, o, expected, seen


@end_rule(
    code="MTG-CALL-006",
    name="won-means-the-call-matches-the-result",
    severity=Severity.ERROR,
    citation=CR_705_2 + "; " + CR_705_3,
    title=Text(ja="宣言と結果が一致すれば勝ち、そうでなければ負け", en="won if the call matches the result, else lost"),
    message=Text(
        ja="{card} のコイン投げ {group}: 宣言 {call}、結果 {result} なので {expected} のはずが {outcome} と記録されています",
        en="flip {group} of {card}: call {call}, result {result}, so the flipper {expected}, but {outcome} is recorded",
    ),
    options=(STATED.name, CALLS.name),
    doc=Doc(
        checks=Text(
            ja="投げたプレイヤーの `mtg.outcome` が `won` (勝ち) になるのは、そのプレイヤーの宣言 "
               "(結果より前の最後の宣言。オプション `call_counts`) が残したコインの結果と一致するときだけであること。"
               "他のプレイヤーの宣言は数えない。結果を指定する効果 (705.3、Edgar) の下では `won` (MTG-STATE-001)。"
               "指摘は outcome の位置に出す。",
            en="The flipper's `mtg.outcome` is `won` exactly when the flipper's call (the last one before the "
               "result; option `call_counts`) equals the kept coin's result; calls by other players do not count; "
               "under a stated result (705.3, Edgar) it is `won` (MTG-STATE-001). Reported at the outcome.",
        ),
        why=Text(
            ja="705.2: 宣言が結果と一致すれば投げたプレイヤーの勝ち、そうでなければ負け。705.3: "
               "結果を指定する効果は実際の結果に置き換わる。",
            en="705.2: if the call matches the result the flipper wins, otherwise loses. 705.3: a stated result "
               "replaces the real one.",
        ),
        bad=Text(
            ja='宣言は表、コインは裏、{"type":"mtg.outcome","outcome":"won"}',
            en='call heads, coin tails, {"type":"mtg.outcome","outcome":"won"}',
        ),
        good=Text(
            ja='宣言は表、コインは裏、{"type":"mtg.outcome","outcome":"lost"}',
            en='call heads, coin tails, {"type":"mtg.outcome","outcome":"lost"}',
        ),
    ),
)
def won_means_call_matches(end: End) -> Iterable[Hit]:
    for ins, g, o, expected, seen in wrong_outcomes(end.final.game):
        if not explained_by_ignored(ins, g, o.value):
            yield Hit(o.seq, evidence(ins, group=g.group, expected=expected, outcome=o.value, **seen))


@rule(
    code="MTG-CALL-007",
    name="the-instructed-player-flips",
    severity=Severity.ERROR,
    citation=CR_705_2 + "; seed 001 §ルール (その影響を受けるプレイヤーがコインを投げる)",
    title=Text(ja="コインを投げるのは指示されたプレイヤー", en="the player the effect names flips the coin"),
    message=Text(
        ja="{card} でコインを投げるのは {flipper} ですが、{player} が投げています",
        en="{card} tells {flipper} to flip, but {player} flipped",
    ),
    on=(CoinLanded,),
    doc=Doc(
        checks=Text(
            ja="コイン (`mtg.coin`) の `player` がその指示でコインを投げるプレイヤーであること。"
               "ただし全員が投げるカード (魔力激突) は除く。",
            en="A coin's `player` is the instruction's flipper, except for cards where every player flips (Mana "
               "Clash).",
        ),
        why=Text(
            ja="705.2: 効果が指示したプレイヤーがコインを投げて宣言し、そのプレイヤーだけが勝ち負けする。"
               "別の人が投げたコインはそのプレイヤーのコイン投げではない (seed 001: "
               "その影響を受けるプレイヤーがコインを投げる)。",
            en="705.2: the player the effect tells to flip flips and calls, and only that player wins or loses; a "
               "coin flipped by someone else is not that player's flip (seed 001: the affected player flips).",
        ),
        bad=Text(
            ja='{"type":"mtg.flip","flipper":"a",…} の後に {"type":"mtg.coin","player":"b",…}',
            en='{"type":"mtg.flip","flipper":"a",…} then {"type":"mtg.coin","player":"b",…}',
        ),
        good=Text(
            ja='{"type":"mtg.flip","flipper":"a",…} の後に {"type":"mtg.coin","player":"a",…}',
            en='{"type":"mtg.flip","flipper":"a",…} then {"type":"mtg.coin","player":"a",…}',
        ),
    ),
)
def instructed_player_flips(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, CoinLanded)
    ins = flip_of(s.after.game, e.flip)
    if ins is not None and ins.flippers != "each-player" and e.player not in (None, ins.flipper):
        yield Hit(e.seq, evidence(ins, player=e.player))


@rule(
    code="MTG-STATE-001",
    name="stated-result-lands-heads-and-wins",
    severity=Severity.ERROR,
    citation=CR_705_3 + "; Edgar, King of Figaro (reference A2 #24)",
    title=Text(ja="エドガー: その手番最初のコイン投げは全部表で勝ち", en="Edgar: the first flips each turn are heads and won"),
    message=Text(
        ja="{card} はこの手番で {flipper} が最初に投げるコインなのでエドガーにより表・勝ちのはずが、{what} と記録されています",
        en="{card} is {flipper}'s first flip this turn under Edgar, so every coin is heads and won, but {what} is recorded",
    ),
    on=(CoinLanded, FlipDecided),
    options=(STATED.name,),
    doc=Doc(
        checks=Text(
            ja="Edgar, King of Figaro のコントローラーがそれをコントロールしている間、各ターン (`mtg.turn` ごと) "
               "にそのプレイヤーが投げる最初の `mtg.flip` では、そのプレイヤーのコインは表だけ、"
               "勝敗は勝ちだけを記録すること (表裏だけのカードでも)。1 回ずつ投げる連続 (負けるまで投げる、Game of "
               "Chaos、魔力激突のラウンド) では最初の 1 回だけ。",
            en="While its controller controls Edgar, the first `mtg.flip` each turn (per `mtg.turn`) whose flipper "
               "is that player records only heads (that player's coins) and only won outcomes, also on "
               "heads/tails-only cards; for one-at-a-time sequences (until-lose, Game of Chaos, Mana Clash rounds) "
               "only the first flip.",
        ),
        why=Text(
            ja="705.3: コイン投げの結果と勝者を指定する効果はコインより優先する。Edgar "
               "はターンごとの最初のコイン投げを表で勝ちと指定する。古い総合ルールで監査するには `stated_results: "
               "false` にする。",
            en="705.3: an effect that states a flip's result and winner overrides the coin; Edgar states heads and a "
               "win the first time each turn. Set `stated_results: false` to audit under the older CR.",
        ),
        bad=Text(
            ja='Edgar が戦場にある; 3 ターン目; a の最初のコイン投げ: {"type":"mtg.coin","result":"tails"}',
            en='Edgar in play; turn 3; first flip of a: {"type":"mtg.coin","result":"tails"}',
        ),
        good=Text(
            ja='Edgar が戦場にある; 3 ターン目; a の最初のコイン投げ: {"type":"mtg.coin","result":"heads"} で勝ち',
            en='Edgar in play; turn 3; first flip of a: {"type":"mtg.coin","result":"heads"} and won',
        ),
    ),
)
def stated_result(s: Step) -> Iterable[Hit]:
    e = s.event
    ins = flip_of(s.after.game, e.flip)  # type: ignore[attr-defined]
    if ins is None or not stated_group(ins, e.group):  # type: ignore[attr-defined]
        return
    if isinstance(e, CoinLanded) and e.result != "heads" and (e.player or ins.flipper) == ins.flipper:
        yield Hit(e.seq, evidence(ins, what=f"a {e.result} coin"))
    if isinstance(e, FlipDecided) and e.outcome != "won":
        yield Hit(e.seq, evidence(ins, what=f"{e.player} {e.outcome}"))


RULES = (
    heads_tails_has_no_call, heads_tails_has_no_winner, flipper_calls, call_before_result, only_flipper_wins,
    won_means_call_matches, instructed_player_flips, stated_result,
)
