"""Magic coin flips: how many flips an effect makes and when a sequence stops (card texts, reference A2/A4)."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from kifu.auditor.base import Doc, End, Hit, Severity, Step, Text, end_rule, rule

from ..events import ChoiceMade, CoinLanded, FlipInstructed, PayoffApplied
from ..projection import (
    Group,
    Instruction,
    counted,
    effective_groups,
    groups_in_order,
    kept_coin,
    true_outcome,
)
from .common import (
    CARD,
    THUMB,
    card,
    evidence,
    flip_of,
    last_coin_seq,
    new_group,
    players_flipping,
)

UNTIL_LOSE = ("until-lose", "until-lose-or-stop", "capped")


def _starting(s: Step) -> tuple[Instruction, Instruction] | None:
    """(before, after) when this coin starts a new flip of an existing instruction."""
    e = s.event
    assert isinstance(e, CoinLanded)
    before, after = flip_of(s.before.game, e.flip), flip_of(s.after.game, e.flip)
    if before is None or after is None or not new_group(before, e.group):
        return None
    return before, after


@rule(
    code="MTG-SEQ-001",
    name="until-lose-flips-stop-at-the-first-kept-loss",
    severity=Severity.ERROR,
    citation=CARD + "; " + THUMB + " (Fiery Gambit: the chain goes on only if the kept flip is won)",
    title=Text(ja="負けるまで投げる効果は最初の負けで止まる", en="flip-until-you-lose stops at the first kept loss"),
    message=Text(
        ja="{card} は seq {loss_seq} のコイン投げ {lost_group} で負けて終わっているのに、コイン投げ {group} が続いています",
        en="{card} ended when flip {lost_group} was lost (seq {loss_seq}), yet flip {group} followed",
    ),
    on=(CoinLanded,),
    doc=Doc(
        checks=Text(
            ja="負けるまで投げるカード (Crazed Firecat、Mirror March、Okaun、Zndrsplt、Toothy、Fiery Gambit) と "
               "Squee's Revenge では、残したコインが負けたコイン投げの後に、次のコイン投げが始まらないこと。",
            en="For until-lose cards (Crazed Firecat, Mirror March, Okaun, Zndrsplt, Toothy, Fiery Gambit) and "
               "Squee's Revenge, no flip starts after a flip whose kept coin lost.",
        ),
        why=Text(
            ja="これらの効果はプレイヤーがコイン投げに負けるまで投げ続ける。クラークの親指/Krark's Thumb "
               "の下では残したコインだけが決める (Saturday School #56)。",
            en="These effects flip until the player loses a flip; under Krark's Thumb only the kept coin decides "
               "(Saturday School #56).",
        ),
        bad=Text(
            ja='Crazed Firecat: 1 回目で負け、その後に {"type":"mtg.coin","group":2,…}',
            en='Crazed Firecat: flip 1 lost, then {"type":"mtg.coin","group":2,…}',
        ),
        good=Text(
            ja="Crazed Firecat: 1 回目で勝ち、2 回目で負け、終わり",
            en="Crazed Firecat: flip 1 won, flip 2 lost, end",
        ),
    ),
)
def stops_at_first_loss(s: Step) -> Iterable[Hit]:
    pair = _starting(s)
    if pair is None or pair[0].sequence not in UNTIL_LOSE:
        return
    before, after = pair
    for g, outcome in counted(before):
        if outcome == "lost" and g.group < s.event.group:  # type: ignore[attr-defined]
            seq = kept_coin(g, before.flipper).seq if kept_coin(g, before.flipper) else g.first_seq
            yield Hit(s.event.seq, evidence(after, group=s.event.group, lost_group=g.group,  # type: ignore[attr-defined]
                                            loss_seq=seq), (seq,))
            return


def _ends_well(ins: Instruction, last: Group, outcome: str) -> bool:
    if outcome == "lost":
        return True
    if any(c.value == "stop" for c in last.choices):
        return True  # whether that stop was allowed, and whose it was, is MTG-SEQ-004's finding
    if ins.sequence == "capped":
        return len(ins.groups) >= (ins.chosen or 0)
    return False


@end_rule(
    code="MTG-SEQ-002",
    name="until-lose-flips-end-on-a-kept-loss",
    severity=Severity.ERROR,
    citation=CARD,
    title=Text(ja="負けるまで投げる効果は負けで終わる", en="flip-until-you-lose ends on a kept loss"),
    message=Text(
        ja="{card} のコイン投げは {flips} 回目の勝ちで終わっています ({why})",
        en="{card}'s flips end on a win at flip {flips} ({why})",
    ),
    doc=Doc(
        checks=Text(
            ja="負けるまで投げる指示は、負けたコイン投げで終わること。Fiery Gambit は投げたプレイヤーの `stop` "
               "選択で勝ったまま終われる。Squee's Revenge は N 回投げたら勝ったまま終われる。"
               "指摘は最後のコインの位置に出す。",
            en="An until-lose instruction ends with a lost flip; Fiery Gambit may end on a win with the flipper's "
               "`stop` choice; Squee's Revenge may end on a win once N flips were made. Reported at the last coin.",
        ),
        why=Text(
            ja="カードは負けるまで投げ続ける。カードが許していないのに勝ったところで止めると、"
               "必要なコイン投げを飛ばすことになる (しかも勝ちの数が増える)。",
            en="The card keeps flipping until a loss; stopping on a win without the card's permission skips flips it "
               "requires (and inflates the win count).",
        ),
        bad=Text(
            ja="Crazed Firecat: 1 回目で勝ち、その次のイベントは関係のないもの",
            en="Crazed Firecat: flip 1 won, then the next event is unrelated",
        ),
        good=Text(
            ja="Crazed Firecat: 1 回目で勝ち、2 回目で負け",
            en="Crazed Firecat: flip 1 won, flip 2 lost",
        ),
    ),
)
def ends_on_a_loss(end: End) -> Iterable[Hit]:
    for ins in end.final.game.flips.values():
        if ins.sequence not in UNTIL_LOSE:
            continue
        results = counted(ins)
        if not results:
            if not (ins.sequence == "capped" and not ins.chosen):
                yield Hit(ins.seq, evidence(ins, flips=0, why="no flip at all"))
            continue
        last, outcome = results[-1]
        if outcome is not None and not _ends_well(ins, last, outcome):
            why = {"until-lose": "it only stops on a loss", "capped": f"fewer than N={ins.chosen} flips"}.get(
                ins.sequence, "no stop choice by the flipper")
            yield Hit(last_coin_seq(ins), evidence(ins, flips=len(results), why=why))


def expected_flips(s: Step | End, ins: Instruction) -> int | None:
    """Flips the instruction must make (fixed and chosen counts), or at most (capped); else None."""
    c = card(s.after.game if isinstance(s, Step) else s.final.game, ins)
    if ins.sequence == "fixed":
        return c.coins if c is not None and c.coins else ins.coins
    if ins.sequence in ("chosen", "capped"):
        return ins.chosen
    return None


def _choice_range(s: Step, ins: Instruction) -> tuple[int, int | None] | None:
    c = card(s.after.game, ins)
    return c.choose if c is not None else None


@rule(
    code="MTG-SEQ-003",
    name="flips-the-number-instructed",
    severity=Severity.ERROR,
    citation=CARD + " (Yusri: one to five coins; Squee's Revenge: up to N; Ral Zarek: five)",
    title=Text(ja="指示された回数だけ投げる", en="flip exactly as many times as instructed"),
    message=Text(
        ja="{card} のコイン投げは {expected} 回のはずが {found} 回です",
        en="{card} calls for {expected} flip(s), but {found} were made",
    ),
    on=(FlipInstructed, CoinLanded),
    doc=Doc(
        checks=Text(
            ja="回数が決まったカードはその回数だけ投げること (`coins`、またはカード自身の数)。Yusri は 1〜5 "
               "から選んだ `chosen` 回ちょうど、Squee's Revenge は `chosen` 回まで。"
               "多いコイン投げはその最初のコインの位置に、足りないコイン投げは最後のコインの位置に、不正な選択は "
               "`mtg.flip` の位置に指摘する。",
            en="A fixed-count card makes its number of flips (`coins`, or the card's own number); Yusri makes "
               "exactly `chosen` flips, chosen from 1–5; Squee's Revenge makes at most `chosen`. An extra flip is "
               "reported at its first coin, a missing one at the last coin, a bad choice at the `mtg.flip`.",
        ),
        why=Text(
            ja="Yusri は選んだ回数ちょうど投げ、Squee's Revenge は N 回で止まる。多くても少なくても、"
               "数える勝ちとすべての効果が変わる。",
            en="Yusri flips exactly the number chosen; Squee's Revenge stops at N; an extra or missing flip changes "
               "the counted wins and every payoff.",
        ),
        bad=Text(
            ja="{\"type\":\"mtg.flip\",\"card\":\"Yusri, Fortune's Flame\",\"chosen\":3,…} の後に 4 回のコイン投げ",
            en="{\"type\":\"mtg.flip\",\"card\":\"Yusri, Fortune's Flame\",\"chosen\":3,…} then four flips",
        ),
        good=Text(
            ja='… "chosen":3 の後に 3 回のコイン投げ',
            en='… "chosen":3 then three flips',
        ),
    ),
)
def number_instructed(s: Step) -> Iterable[Hit]:
    e = s.event
    ins = flip_of(s.after.game, e.flip)  # type: ignore[attr-defined]
    if ins is None:
        return
    if isinstance(e, FlipInstructed):
        yield from _bad_choice(s, ins)
        return
    want = expected_flips(s, ins)
    if want is not None and _starting(s) is not None and len(ins.groups) > want:
        yield Hit(e.seq, evidence(ins, expected=want, found=len(ins.groups)))


def _bad_choice(s: Step, ins: Instruction) -> Iterable[Hit]:
    rng = _choice_range(s, ins)
    if ins.seq != s.event.seq or rng is None or ins.sequence not in ("chosen", "capped"):
        return
    lo, hi = rng
    if ins.chosen is None or ins.chosen < lo or (hi is not None and ins.chosen > hi):
        yield Hit(s.event.seq, evidence(ins, expected=f"a chosen number in {lo}–{hi if hi is not None else '∞'}",
                                        found=ins.chosen if ins.chosen is not None else "no choice"))


def _too_few_flips(end: End) -> Iterable[Hit]:
    for ins in end.final.game.flips.values():
        want = expected_flips(end, ins)
        if ins.sequence in ("fixed", "chosen") and want is not None and len(ins.groups) < want:
            yield Hit(last_coin_seq(ins), evidence(ins, expected=want, found=len(ins.groups)))


NUMBER_INSTRUCTED = replace(number_instructed, finish=_too_few_flips)


@rule(
    code="MTG-SEQ-004",
    name="stop-is-allowed-by-the-card-and-final",
    severity=Severity.ERROR,
    citation=CARD + " (Fiery Gambit: flip until you lose or choose to stop)",
    title=Text(ja="止める選択はカードが許す時だけ、止めたら終わり", en="a stop is allowed by the card, and final"),
    message=Text(
        ja="{card}: {what}",
        en="{card}: {what}",
    ),
    on=(ChoiceMade, CoinLanded),
    doc=Doc(
        checks=Text(
            ja="`choice: stop` (止める) は止めることを許すカードでだけ記録され (Fiery Gambit: 投げたプレイヤーが、"
               "Game of Chaos: 決める側のプレイヤーが選ぶ)、止めた後にその指示のコイン投げがないこと。",
            en="`choice: stop` appears only for cards that allow stopping (Fiery Gambit: by the flipper; Game of "
               "Chaos: by the deciding player), and no flip of the instruction follows a stop.",
        ),
        why=Text(
            ja="負けるまでの連続を投げたプレイヤーが止められるのは Fiery Gambit だけで、"
               "他の「負けるまで投げる」カードは負けるまで続く。止めた後のコイン投げは、"
               "効果がもう行わないコイン投げである。",
            en="Only Fiery Gambit lets its flipper stop an until-lose chain; other until-lose cards go on until a "
               "loss. A flip after a stop is a flip the effect no longer makes.",
        ),
        bad=Text(
            ja='Crazed Firecat の指示で {"type":"mtg.choice","choice":"stop",…}',
            en='Crazed Firecat: {"type":"mtg.choice","choice":"stop",…}',
        ),
        good=Text(
            ja='Fiery Gambit: 1 回目に勝ち、{"type":"mtg.choice","player":"a","choice":"stop"}',
            en='Fiery Gambit: won flip 1, {"type":"mtg.choice","player":"a","choice":"stop"}',
        ),
    ),
)
def stop_allowed_and_final(s: Step) -> Iterable[Hit]:
    e = s.event
    ins = flip_of(s.after.game, e.flip)  # type: ignore[attr-defined]
    if ins is None:
        return
    if isinstance(e, ChoiceMade):
        yield from _bad_stop(ins, e)
        return
    pair = _starting(s)
    stops = [c for g in groups_in_order(pair[0]) for c in g.choices if c.value == "stop"] if pair else []
    if stops:
        yield Hit(e.seq, evidence(ins, what=f"a flip follows the stop at seq {stops[0].seq}"), (stops[0].seq,))


def _bad_stop(ins: Instruction, e: ChoiceMade) -> Iterable[Hit]:
    if e.choice != "stop" or ins.sequence == "repeat":
        return
    if ins.sequence != "until-lose-or-stop":
        yield Hit(e.seq, evidence(ins, what="the card gives no choice to stop"))
    elif e.player != ins.flipper:
        yield Hit(e.seq, evidence(ins, what=f"only the flipper {ins.flipper} may stop, not {e.player}"))


def _decider(ins: Instruction, g: Group) -> str | None:
    """Game of Chaos: who decides whether to flip again after flip ``g`` (the winner's side)."""
    outcome = true_outcome(ins, g)
    if outcome is None:
        return None
    return ins.flipper if outcome == "won" else "an opponent"


@rule(
    code="MTG-SEQ-005",
    name="repeat-only-on-the-right-players-decision",
    severity=Severity.ERROR,
    citation=CARD + " (Game of Chaos)",
    title=Text(ja="もう一度投げるかは勝った側が決める", en="the winning side decides whether to flip again"),
    message=Text(
        ja="{card} のコイン投げ {group}: 直前のコイン投げ {prev} の後に {decider} が「続ける」を選んだ記録がありません",
        en="flip {group} of {card}: after flip {prev}, {decider} did not choose to flip again",
    ),
    on=(CoinLanded,),
    doc=Doc(
        checks=Text(
            ja="Game of Chaos では、2 回目以降のコイン投げはそれぞれ、直前のコイン投げについての `continue` (続ける) "
               "選択の後にあること。その選択をするのは、投げたプレイヤーが勝っていればそのプレイヤー、"
               "負けていれば対戦相手。",
            en="For Game of Chaos each flip after the first follows a `continue` choice on the previous flip by the "
               "flipper if they won it, or by an opponent if the flipper lost it.",
        ),
        why=Text(
            ja="Game of Chaos: 直前のコイン投げに勝った側がもう一度投げるかを決める。投げるのは毎回コントローラー。",
            en="Game of Chaos: whoever won the last flip decides whether to flip again; the controller flips each "
               "time.",
        ),
        bad=Text(
            ja='a が 1 回目に勝ち; {"type":"mtg.choice","group":1,"player":"b","choice":"continue"}; 2 回目',
            en='a won flip 1; {"type":"mtg.choice","group":1,"player":"b","choice":"continue"}; flip 2',
        ),
        good=Text(
            ja='a が 1 回目に勝ち; {"type":"mtg.choice","group":1,"player":"a","choice":"continue"}; 2 回目',
            en='a won flip 1; {"type":"mtg.choice","group":1,"player":"a","choice":"continue"}; flip 2',
        ),
    ),
)
def repeat_on_right_decision(s: Step) -> Iterable[Hit]:
    pair = _starting(s)
    if pair is None or pair[0].sequence != "repeat":
        return
    before = pair[0]
    earlier = [g for g in groups_in_order(before) if g.group < s.event.group]  # type: ignore[attr-defined]
    if not earlier:
        return
    prev = earlier[-1]
    decider = _decider(before, prev)
    if decider is None:
        return
    ok = any(c.value == "continue" and (c.player == decider or (decider == "an opponent" and c.player != before.flipper))
             for c in prev.choices)
    if not ok:
        yield Hit(s.event.seq, evidence(before, group=s.event.group, prev=prev.group, decider=decider))  # type: ignore[attr-defined]


@rule(
    code="MTG-SEQ-006",
    name="stakes-double-with-each-flip",
    severity=Severity.ERROR,
    citation=CARD + " (Game of Chaos)",
    title=Text(ja="賭けるライフはコイン投げごとに倍になる", en="the life at stake doubles with each flip"),
    message=Text(
        ja="{card} のコイン投げ {group} の {kind} は {expected} のはずが {amount} です",
        en="{kind} for flip {group} of {card} should be {expected}, but {amount} was recorded",
    ),
    on=(PayoffApplied,),
    doc=Doc(
        checks=Text(
            ja="Game of Chaos 自身の `life-gain`/`life-loss` の効果は、n 回目のコイン投げで 2^(n−1) (1、2、4 …) "
               "点であり、`group` を挙げていること (挙げていなければ情報)。",
            en="Game of Chaos' own `life-gain`/`life-loss` payoffs for flip n are 2^(n−1) (1, 2, 4 …) and name their "
               "`group` (info when they do not).",
        ),
        why=Text(
            ja="Game of Chaos は、コインを投げるたびに得るライフと失うライフが倍になる。",
            en="Game of Chaos doubles the life gained and lost each time a coin is flipped.",
        ),
        bad='{"type":"mtg.payoff","flip":"f1","group":2,"kind":"life-gain","amount":1}',
        good='{"type":"mtg.payoff","flip":"f1","group":2,"kind":"life-gain","amount":2}',
    ),
)
def stakes_double(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, PayoffApplied)
    ins = flip_of(s.after.game, e.flip)
    c = card(s.after.game, ins) if ins else None
    if ins is None or c is None or c.stakes != "double" or e.permanent or e.kind not in ("life-gain", "life-loss"):
        return
    if e.group is None:
        yield Hit(e.seq, evidence(ins, group="?", kind=e.kind, reason="the payoff names no group"), undecided=True)
    elif e.amount != 2 ** (e.group - 1):
        yield Hit(e.seq, evidence(ins, group=e.group, kind=e.kind, expected=2 ** (e.group - 1), amount=e.amount))


def _all_heads(ins: Instruction, g: Group) -> bool | None:
    sides = [kept_coin(g, who) for who in players_flipping(g)]
    if not sides or any(k is None for k in sides):
        return None
    return all(k.result == "heads" for k in sides if k is not None)


@rule(
    code="MTG-SEQ-007",
    name="mana-clash-repeats-until-both-land-heads",
    severity=Severity.ERROR,
    citation=CARD + " (Mana Clash); seed 001 §ルール (魔力激突)",
    title=Text(ja="魔力激突は両方が表になるまで繰り返す", en="Mana Clash repeats until both coins land heads"),
    message=Text(
        ja="{card} のラウンド {group}: {what}",
        en="{card} round {group}: {what}",
    ),
    on=(CoinLanded,),
    doc=Doc(
        checks=Text(
            ja="魔力激突/Mana Clash (各プレイヤーが同じラウンドで投げる。`group` = ラウンド) では、"
               "毎ラウンド両プレイヤーが投げ、残したコインが全部表になったラウンドの後に次のラウンドがなく、"
               "最後のラウンドは全部表であること。",
            en="For Mana Clash (each player flips in the same round, `group` = round) both players flip in every "
               "round, no round follows one where every kept coin was heads, and the last round is all heads.",
        ),
        why=Text(
            ja="魔力激突は、同じ回に両方のコインが表になるまで手順を繰り返す。",
            en="Mana Clash repeats the process until both coins land heads on the same flip.",
        ),
        bad=Text(
            ja="1 ラウンド目: 表、表; その後に 2 ラウンド目",
            en="round 1: heads, heads; then a round 2",
        ),
        good=Text(
            ja="1 ラウンド目: 表、裏; 2 ラウンド目: 表、表; 終わり",
            en="round 1: heads, tails; round 2: heads, heads; end",
        ),
    ),
)
def mana_clash_until_heads(s: Step) -> Iterable[Hit]:
    pair = _starting(s)
    if pair is None or pair[0].sequence != "until-both-heads":
        return
    for g in groups_in_order(pair[0]):
        if g.group < s.event.group and _all_heads(pair[0], g):  # type: ignore[attr-defined]
            yield Hit(s.event.seq, evidence(pair[1], group=s.event.group,  # type: ignore[attr-defined]
                                            what=f"round {g.group} already landed heads for everyone"))
            return


def _clash_unfinished(end: End) -> Iterable[Hit]:
    for ins in end.final.game.flips.values():
        # rounds after the all-heads one were reported where they began; judge the rounds the spell made
        groups = effective_groups(ins)
        if ins.sequence != "until-both-heads":
            continue
        for g in groups:
            if g.coins and len(players_flipping(g)) < 2:
                yield Hit(g.coins[-1].seq, evidence(ins, group=g.group,
                                                    what=f"only {g.coins[0].player} flipped; both players flip"))
        if groups and _all_heads(ins, groups[-1]) is False:
            yield Hit(last_coin_seq(ins), evidence(ins, group=groups[-1].group,
                                                   what="the last round did not land heads for everyone"))


MANA_CLASH = replace(mana_clash_until_heads, finish=_clash_unfinished)

RULES = (stops_at_first_loss, ends_on_a_loss, NUMBER_INSTRUCTED, stop_allowed_and_final, repeat_on_right_decision,
         stakes_double, MANA_CLASH)
