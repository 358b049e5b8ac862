"""Magic coin flips: Krark's Thumb (Saturday School #56, 2003-12-13; CR 614.1a replacement)."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Iterator

from kifu.auditor.base import Doc, End, Hit, Severity, Step, Text, end_rule, rule

from ..events import CoinLanded
from ..projection import Group, Instruction, State, coins_of, groups_in_order
from .call import explained_by_ignored, wrong_outcomes
from .common import (
    RECORDED,
    STACKING,
    THUMB,
    evidence,
    expected_coins,
    flip_of,
    players_flipping,
)


def _expected(g: Group, player: str, options) -> int:  # type: ignore[no-untyped-def]
    return expected_coins(g.thumbs.get(player, 0), options[STACKING.name])


@rule(
    code="MTG-THUMB-001",
    name="each-flip-makes-2-to-the-k-coins",
    severity=Severity.ERROR,
    citation=THUMB,
    title=Text(ja="親指 k 枚なら 1 回のコイン投げは 2^k 枚", en="k Krark's Thumbs make 2^k coins per flip"),
    message=Text(
        ja="{card} のコイン投げ {group}: {player} の親指 {thumbs} 枚なら {expected} 枚のはずが {found} 枚です{note}",
        en="flip {group} of {card}: {player} controls {thumbs} Krark's Thumb(s), so {expected} coin(s), "
           "but {found} were flipped{note}",
    ),
    on=(CoinLanded,),
    options=(STACKING.name, RECORDED.name),
    doc=Doc(
        checks=Text(
            ja="1 回 (group) のコイン投げで各プレイヤーが投げるコインは、コントロールするクラークの親指/Krark's "
               "Thumb k 枚につき 2^k 枚 (`thumbs_stack: add` なら 1+k 枚)。親指がなければ 1 枚。"
               "多いコインはそれが落ちた位置に、足りないコインはその回の最後のコインの位置に指摘する "
               "(`recorded_coins: kept` なら情報)。",
            en="Each player's coins in one group number 2^k for the k Thumbs they control (1+k with `thumbs_stack: "
               "add`); with no Thumb, one coin. An extra coin is reported where it lands, a missing one at the "
               "group's last coin (info when `recorded_coins: kept`).",
        ),
        why=Text(
            ja="クラークの親指は 1 回のコイン投げを、1 枚を無視する 2 回のコイン投げに置き換える。"
               "親指はそれぞれ前の親指が生んだすべてのコインを置き換えるので、親指 2 枚ならコインは 4 枚 (reference "
               "A1、XMage)。",
            en="Krark's Thumb replaces each flip with two flips of which one is ignored; each Thumb replaces every "
               "coin the previous one produced, so two Thumbs make four coins (reference A1, XMage).",
        ),
        bad=Text(
            ja='親指 1 枚; {"type":"mtg.coin","group":1,…} だけで 2 枚目のコインがない',
            en='one Thumb; {"type":"mtg.coin","group":1,…} and no second coin',
        ),
        good=Text(
            ja='親指 1 枚; 1 回目にコイン 2 枚、その後に {"type":"mtg.keep","group":1,"coin":2,…}',
            en='one Thumb; two coins in group 1, then {"type":"mtg.keep","group":1,"coin":2,…}',
        ),
    ),
)
def coins_per_flip(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, CoinLanded)
    ins = flip_of(s.after.game, e.flip)
    if ins is None:
        return
    g = ins.groups[e.group]
    who = e.player or ins.flipper
    want, found = _expected(g, who, s.options), len(coins_of(g, who))
    if found > want:
        yield Hit(e.seq, _count_evidence(ins, g, who, want, found, s.options))


def _count_evidence(ins: Instruction, g: Group, who: str, want: int, found: int, options) -> dict:  # type: ignore[no-untyped-def]
    k = g.thumbs.get(who, 0)
    additive = options[STACKING.name] == "multiply" and k > 1 and found == 1 + k
    note = " (an additive, Forge-style count)" if additive else ""
    if k == 0 and found > want:
        note = (" (without a Thumb a second coin in one flip is a re-flip; a card's further flips each need "
                "their own `group`)")
    return evidence(ins, group=g.group, player=who, thumbs=k, expected=want, found=found, note=note)


def _too_few(end: End) -> Iterable[Hit]:
    for ins, g, who in _flippers(end.final.game):
        yield from _short_group(ins, g, who, end.options)


def _flippers(state: State) -> Iterator[tuple[Instruction, Group, str]]:
    """(instruction, group, player) for every player who flipped in every group of every instruction."""
    for ins in state.flips.values():
        for g in groups_in_order(ins):
            for who in players_flipping(g):
                yield ins, g, who


def _short_group(ins: Instruction, g: Group, who: str, options) -> Iterable[Hit]:  # type: ignore[no-untyped-def]
    want, mine = _expected(g, who, options), coins_of(g, who)
    if len(mine) >= want:
        return
    ev = _count_evidence(ins, g, who, want, len(mine), options)
    if options[RECORDED.name] == "kept":
        ev["reason"] = f"the log records only the kept coin, so the {want} coins of flip {g.group} cannot be counted"
        yield Hit(mine[-1].seq, ev, undecided=True)
    else:
        yield Hit(mine[-1].seq, ev)


THUMB_COUNT = replace(coins_per_flip, finish=_too_few)


def _keeps(g: Group, who: str) -> list:  # type: ignore[type-arg]
    return [k for k in g.keeps if k.player == who]


@end_rule(
    code="MTG-THUMB-002",
    name="exactly-one-coin-is-kept",
    severity=Severity.ERROR,
    citation=THUMB,
    title=Text(ja="親指で投げたコインは 1 枚だけ残す", en="exactly one of the Thumb's coins is kept"),
    message=Text(
        ja="{card} のコイン投げ {group}: {player} のコイン {found} 枚のうち残したのは {kept} 枚 ({why})",
        en="flip {group} of {card}: {player} kept {kept} of {found} coins ({why})",
    ),
    options=(RECORDED.name,),
    doc=Doc(
        checks=Text(
            ja="親指の下で 1 回に 2 枚以上のコインを投げたプレイヤーは、その回についてちょうど 1 つの `mtg.keep` "
               "を記録し、自分のコインの 1 枚 (ログの順に 1 から数える) を挙げること。全部のコインが同じ面なら keep "
               "は省いてよい (どれを選んでも結果は変わらない)。",
            en="A player who flipped more than one coin in a group under a Thumb records exactly one `mtg.keep` for "
               "it, naming one of their coins (1-based, in log order). When all their coins show the same side the "
               "keep may be left out (the choice cannot change the result).",
        ),
        why=Text(
            ja="クラークの親指: コインを 2 枚投げ、1 枚を無視する。残したコインがそのコイン投げの結果で、"
               "残りはなかったことになる。残したコインがなければ結果がなく、2 枚残せば結果が 2 つになる。",
            en="Krark's Thumb: flip two coins and ignore one; the one kept is the flip's result, the rest never "
               "happened. No kept coin leaves the flip without a result; two kept coins give it two.",
        ),
        bad=Text(
            ja="1 回目にコイン 2 枚、mtg.keep なし (または mtg.keep が 2 つ)",
            en="two coins in group 1, no mtg.keep (or two mtg.keep)",
        ),
        good=Text(
            ja='1 回目にコイン 2 枚、{"type":"mtg.keep","group":1,"player":"a","coin":1}',
            en='two coins in group 1, {"type":"mtg.keep","group":1,"player":"a","coin":1}',
        ),
    ),
)
def exactly_one_kept(end: End) -> Iterable[Hit]:
    for ins, g, who in _flippers(end.final.game):
        yield from _kept_count(ins, g, who)


def _kept_count(ins: Instruction, g: Group, who: str) -> Iterable[Hit]:
    mine, keeps = coins_of(g, who), _keeps(g, who)
    valid = [k for k in keeps if 1 <= k.value <= len(mine)]
    # with no Thumb an extra coin is a re-flip (MTG-THUMB-001), not a coin waiting to be kept
    thumbed = g.thumbs.get(who, 0) > 0
    if thumbed and len(mine) > 1 and not keeps and len({c.result for c in mine}) > 1:
        yield Hit(mine[-1].seq, evidence(ins, group=g.group, player=who, found=len(mine), kept=0, why="none kept"))
    for k in keeps[1:]:
        yield Hit(k.seq, evidence(ins, group=g.group, player=who, found=len(mine), kept=len(keeps),
                                  why="kept a second time"), (keeps[0].seq,))
    if keeps and keeps[0] not in valid:
        yield Hit(keeps[0].seq, evidence(ins, group=g.group, player=who, found=len(mine), kept=0,
                                         why=f"coin {keeps[0].value} does not exist"))


@rule(
    code="MTG-THUMB-003",
    name="coin-is-kept-after-every-coin-is-seen",
    severity=Severity.ERROR,
    citation=THUMB + " (Mana Clash: the opponent's coin too)",
    title=Text(ja="残すコインは全部のコインを見てから選ぶ", en="the kept coin is chosen after every coin is seen"),
    message=Text(
        ja="{card} のコイン投げ {group}: {player} は seq {seq} で残すコインを選びましたが、その後 seq {late} でコインが投げられています",
        en="flip {group} of {card}: {player} chose the kept coin at seq {seq}, but a coin of that flip landed "
           "later at seq {late}",
    ),
    on=(CoinLanded,),
    options=(RECORDED.name,),
    doc=Doc(
        checks=Text(
            ja="ある回の `mtg.keep` の後に、その回のコイン (魔力激突ならどのプレイヤーのものも) が落ちないこと。"
               "指摘は早すぎた keep の位置に出す。",
            en="No coin of a group (any player's, for Mana Clash) lands after a `mtg.keep` of that group. The "
               "finding is reported at the premature keep.",
        ),
        why=Text(
            ja="Saturday School #56: 親指のコントローラーは、魔力激突なら対戦相手のコインも含めてすべての結果を見てか"
               "ら、残すコインを選ぶ。",
            en="Saturday School #56: the Thumb's controller sees all the results, with Mana Clash the opponent's "
               "coin included, and then picks which coin to keep.",
        ),
        bad=Text(
            ja='魔力激突: a のコイン 2 枚、{"type":"mtg.keep","player":"a",…}、その後に b のコイン',
            en="Mana Clash: a's two coins, {\"type\":\"mtg.keep\",\"player\":\"a\",…}, then b's coin",
        ),
        good=Text(
            ja="魔力激突: a のコイン 2 枚と b のコインの後に keep",
            en="Mana Clash: a's two coins and b's coin, then the keep",
        ),
    ),
)
def kept_after_all_seen(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, CoinLanded)
    before = flip_of(s.before.game, e.flip)
    g = before.groups.get(e.group) if before else None
    if before is None or g is None or not g.keeps:
        return
    keep = g.keeps[0]
    if all(c.seq < keep.seq for c in g.coins):
        yield Hit(keep.seq, evidence(before, group=e.group, player=keep.player, seq=keep.seq, late=e.seq), (e.seq,))


@end_rule(
    code="MTG-THUMB-004",
    name="ignored-coin-counts-for-nothing",
    severity=Severity.ERROR,
    citation=THUMB,
    title=Text(ja="無視したコインは何にも数えない", en="an ignored coin counts for nothing"),
    message=Text(
        ja="{card} のコイン投げ {group}: 残したコインでは {expected} ですが、無視したコインの結果 ({outcome}) が記録されています",
        en="flip {group} of {card}: the kept coin gives {expected}, but the ignored coin's {outcome} was recorded",
    ),
    doc=Doc(
        checks=Text(
            ja="勝敗 (outcome) は無視したコインではなく残したコインに従うこと (指摘は outcome の位置)。"
               "無視したコインの勝ちでしか説明できない、勝ちを数えるパーマネントの効果もここで payoff "
               "の位置に指摘する (MTG-PAY-003 参照)。",
            en="An outcome follows the kept coin, not an ignored one (reported at the outcome); a watcher payoff "
               "that only an ignored win explains is reported here too, at the payoff (see MTG-PAY-003).",
        ),
        why=Text(
            ja="Saturday School #56: 無視したコイン投げはなかったものとして扱われ、それで何も誘発しない。"
               "例えばそれが「勝ち」でも、偶然の出合いに運勢カウンターは乗らない。",
            en="Saturday School #56: an ignored flip is treated as if it never happened; nothing triggers on it, "
               "e.g. Chance Encounter gets no luck counter for it even if it was a 'win'.",
        ),
        bad=Text(
            ja='宣言は表; コインは裏、表; コイン 1 を残す; {"type":"mtg.outcome","outcome":"won"}',
            en='call heads; coins tails, heads; keep coin 1; {"type":"mtg.outcome","outcome":"won"}',
        ),
        good=Text(
            ja='宣言は表; コインは裏、表; コイン 1 を残す; {"type":"mtg.outcome","outcome":"lost"}',
            en='call heads; coins tails, heads; keep coin 1; {"type":"mtg.outcome","outcome":"lost"}',
        ),
    ),
)
def ignored_counts_for_nothing(end: End) -> Iterable[Hit]:
    for ins, g, o, expected, seen in wrong_outcomes(end.final.game):
        if explained_by_ignored(ins, g, o.value):
            yield Hit(o.seq, evidence(ins, group=g.group, expected=expected, outcome=o.value, **seen))


RULES = (THUMB_COUNT, exactly_one_kept, kept_after_all_seen, ignored_counts_for_nothing)
