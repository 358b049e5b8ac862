"""Magic coin flips: the coin itself (CR 705.1, seed 001 §ルール) and flip bookkeeping."""

from __future__ import annotations

from typing import Iterable

from kifu.auditor.base import Doc, Hit, Severity, Step, Text, rule

from ..events import (
    ChoiceMade,
    CoinCalled,
    CoinKept,
    CoinLanded,
    FlipDecided,
    FlipInstructed,
    HeadsNamed,
    PayoffApplied,
    RandomiserAgreed,
)
from ..projection import Randomiser
from .common import CR_705_1, CR_705_2, flip_of

DIE_READINGS = ("odd", "even", "low", "high")


@rule(
    code="MTG-COIN-001",
    name="substitute-needs-every-players-agreement",
    severity=Severity.ERROR,
    citation=CR_705_1,
    title=Text(ja="コインの代用には全員の同意が要る", en="a coin substitute needs every player's agreement"),
    message=Text(
        ja="{randomiser} をコインの代わりに使っていますが {missing} の同意が記録されていません",
        en="{randomiser} stands in for a coin without the recorded agreement of {missing}",
    ),
    on=(RandomiserAgreed, CoinLanded),
    doc=Doc(
        checks=Text(
            ja="ダイスや伏せた 2 枚のカードから選ぶ方法 (`mtg.randomiser` の kind が `die` か `cards`) では、"
               "`agreed` に全プレイヤーが並んでいること (指摘は `mtg.randomiser` の位置)。ダイスの目 `face` を読む "
               "`mtg.coin` や `randomiser` id を挙げる `mtg.coin` は、それより前に宣言された代用品を指していること "
               "(でなければ指摘はそのコインの位置)。",
            en="A die or a pick of two face-down cards (`mtg.randomiser` kind `die` or `cards`) lists every player "
               "in `agreed` (reported at the `mtg.randomiser`); a `mtg.coin` that reads a die `face` or names a "
               "`randomiser` id must name one declared earlier (else reported at the coin).",
        ),
        why=Text(
            ja="705.1: 2 つの結果が同じ確率で出る他の方法は、両方のプレイヤーが同意した場合にだけコインの代わりに使え"
               "る。",
            en="705.1: another method with two equally likely results may replace the coin only if the players agree.",
        ),
        bad=Text(
            ja='プレイヤー a,b; {"type":"mtg.randomiser","randomiser":"d6","kind":"die","sides":6,"heads":"odd",'
               '"agreed":["a"]}',
            en='players a,b; {"type":"mtg.randomiser","randomiser":"d6","kind":"die","sides":6,"heads":"odd",'
               '"agreed":["a"]}',
        ),
        good='… "agreed":["a","b"]}',
    ),
)
def substitute_needs_agreement(s: Step) -> Iterable[Hit]:
    e = s.event
    players = s.after.log.players
    if isinstance(e, RandomiserAgreed):
        missing = [p for p in players if p not in e.agreed]
        if e.kind != "coin" and missing:
            yield Hit(e.seq, {"randomiser": e.randomiser, "missing": ", ".join(missing)})
    elif isinstance(e, CoinLanded):
        r = s.before.game.randomisers.get(e.randomiser)
        if r is None or (r.kind == "coin" and e.face is not None):
            yield Hit(e.seq, {"randomiser": e.randomiser, "missing": ", ".join(players)})


@rule(
    code="MTG-COIN-002",
    name="substitute-gives-two-equal-results",
    severity=Severity.ERROR,
    citation=CR_705_1,
    title=Text(ja="代用品は 2 つの結果が同じ確率で出るものに限る", en="a substitute must give two equally likely results"),
    message=Text(
        ja="{randomiser} ({kind}, {sides} 面, 表={heads}) は表と裏が同じ確率になりません",
        en="{randomiser} ({kind}, {sides} sides, heads={heads}) does not give heads and tails equally often",
    ),
    on=(RandomiserAgreed, HeadsNamed),
    doc=Doc(
        checks=Text(
            ja="コインは 2 面、伏せたカードから選ぶ方法は 2 枚であること。ダイスは偶数面で、表の読み方が `odd` "
               "(奇数)、`even` (偶数)、`low` (小さい半分)、`high` (大きい半分) のいずれかで、`mtg.randomiser` か後の "
               "`mtg.heads` で決められていること (振った時点で読み方が決まっていないダイスは MTG-COIN-004 で扱う)。",
            en="A coin has 2 sides and a pick of face-down cards 2 cards; a die has an even number of faces and "
               "reads heads as `odd`, `even`, `low` (the lower half) or `high`, named in the `mtg.randomiser` or in "
               "a later `mtg.heads` (a die whose reading is still unnamed when it is rolled is MTG-COIN-004's).",
        ),
        why=Text(
            ja="705.1: 使う物は 2 面で、どちらの面もほぼ等確率で出るものか、50% ずつの他の方法でなければならない "
               "(seed 001: 偶数面のダイスを奇数/偶数や 1〜3/4〜6 で読む)。",
            en="705.1: the object must be two-sided with both results about equally likely, or another 50/50 method "
               "(seed 001: an even-sided die read odd/even or 1–3/4–6).",
        ),
        bad='{"type":"mtg.randomiser","randomiser":"d5","kind":"die","sides":5,"heads":"odd",…}',
        good='{"type":"mtg.randomiser","randomiser":"d6","kind":"die","sides":6,"heads":"odd",…}',
    ),
)
def substitute_two_equal_results(s: Step) -> Iterable[Hit]:
    e = s.event
    r = s.after.game.randomisers.get(e.randomiser)  # type: ignore[attr-defined]
    if r is None or (isinstance(e, HeadsNamed) and r.kind != "die"):
        return
    bad_coin = r.kind in ("coin", "cards") and r.sides != 2
    # a die's reading may be named later (mtg.heads); only a reading that is named and not 50/50 is wrong
    bad_die = r.kind == "die" and (r.sides % 2 or (r.heads is not None and r.heads not in DIE_READINGS))
    if bad_coin or bad_die:
        yield Hit(e.seq, {"randomiser": r.randomiser, "kind": r.kind, "sides": r.sides, "heads": r.heads})


def die_side(r: Randomiser, face: int) -> str | None:
    """The side a die face reads as under the agreed reading; None if it cannot be read."""
    if face > r.sides or r.heads not in DIE_READINGS:
        return None
    low = face <= r.sides // 2
    heads = {"odd": face % 2 == 1, "even": face % 2 == 0, "low": low, "high": not low}[r.heads]
    return "heads" if heads else "tails"


@rule(
    code="MTG-COIN-003",
    name="die-face-reads-as-agreed",
    severity=Severity.ERROR,
    citation=CR_705_1,
    title=Text(ja="ダイスの目は合意した読み方で表裏にする", en="a die face reads as the agreed side"),
    message=Text(
        ja="{randomiser} の目 {face} は {expected} と読むはずですが {result} と記録されています",
        en="face {face} of {randomiser} reads as {expected}, but {result} was recorded",
    ),
    on=(CoinLanded,),
    doc=Doc(
        checks=Text(
            ja="ダイスの目 `face` を記録したコインは、合意した読み方 (odd/even/low/high) が与える面を `result` "
               "にしていて、その目がそのダイスにあること。",
            en="A coin with a die `face` records the side the agreed reading gives (odd/even/low/high), and the face "
               "exists on the die.",
        ),
        why=Text(
            ja="705.1: どの目を表とするかは事前にプレイヤーが合意する。後から別の読み方をすれば、"
               "結果を見てからコイン投げを決めることになる。",
            en="705.1: the players agree beforehand which results mean heads; reading it otherwise afterwards "
               "decides the flip after the fact.",
        ),
        bad=Text(
            ja='d6 は heads=odd; {"type":"mtg.coin",…,"face":3,"result":"tails","randomiser":"d6"}',
            en='d6 heads=odd; {"type":"mtg.coin",…,"face":3,"result":"tails","randomiser":"d6"}',
        ),
        good=Text(
            ja='d6 は heads=odd; {"type":"mtg.coin",…,"face":3,"result":"heads","randomiser":"d6"}',
            en='d6 heads=odd; {"type":"mtg.coin",…,"face":3,"result":"heads","randomiser":"d6"}',
        ),
    ),
)
def die_face_reads_as_agreed(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, CoinLanded)
    r = s.before.game.randomisers.get(e.randomiser)
    if e.face is None or r is None or r.kind != "die" or r.heads is None:
        return  # no reading named yet: MTG-COIN-004
    expected = die_side(r, e.face)
    if expected != e.result:
        yield Hit(e.seq, {"randomiser": e.randomiser, "face": e.face, "result": e.result,
                          "expected": expected or f"no side (the die has {r.sides} faces)"}, (r.seq,))


@rule(
    code="MTG-COIN-004",
    name="unclear-coin-has-heads-named-before-flipping",
    severity=Severity.ERROR,
    citation=CR_705_1 + "; seed 001 §ルール (表裏が分かりにくい場合、投げる前に)",
    title=Text(ja="表裏の分かりにくいコインは投げる前に表を決める", en="name heads on an unclear coin before flipping it"),
    message=Text(
        ja="{randomiser} は表裏がはっきりしないのに、どちらが表かを決める前に投げています",
        en="{randomiser} has no obvious heads, and it was flipped before a side was named heads",
    ),
    on=(CoinLanded,),
    doc=Doc(
        checks=Text(
            ja="`clear: false` と宣言したコイン、またはダイスは、`heads` (どちらを表とするか) が決まるまで投げない "
               "(`mtg.randomiser` か後の `mtg.heads` で決める。ダイスなら読み方 `odd`/`even`/`low`/`high`)。",
            en="A coin declared `clear: false`, or a die, is not flipped until `heads` is set (in `mtg.randomiser` "
               "or a later `mtg.heads`; for a die its reading `odd`/`even`/`low`/`high`).",
        ),
        why=Text(
            ja="705.1: コインのどちらが表か分かりにくい場合は、投げる前にどちらが表かを明確にしておかなければならな"
               "い (seed 001: 例えば日本の硬貨は法律上裏表が決まっていない)。"
               "ダイスもどの目を表とするかを振る前に決める (seed 001: どちらか一方を表、"
               "他方を裏として決めておけばよい)。",
            en="705.1: if the coin's heads and tails are not obvious, which side is heads must be made clear first "
               "(seed 001: e.g. Japanese coins, whose sides are not fixed by law); likewise which die results count "
               "as heads is decided before rolling (seed 001: どちらか一方を表、他方を裏として決めておけばよい).",
        ),
        bad=Text(
            ja='{"type":"mtg.randomiser","randomiser":"10yen","clear":false} の後に {"type":"mtg.coin",…,'
               '"randomiser":"10yen"}',
            en='{"type":"mtg.randomiser","randomiser":"10yen","clear":false} then {"type":"mtg.coin",…,'
               '"randomiser":"10yen"}',
        ),
        good=Text(
            ja='… {"type":"mtg.heads","randomiser":"10yen","heads":"平等院鳳凰堂"} の後にコイン',
            en='… {"type":"mtg.heads","randomiser":"10yen","heads":"平等院鳳凰堂"} then the coin',
        ),
    ),
)
def unclear_coin_heads_named(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, CoinLanded)
    r = s.before.game.randomisers.get(e.randomiser)
    if r is not None and (not r.clear or r.kind == "die") and r.heads is None:
        yield Hit(e.seq, {"randomiser": e.randomiser}, (r.seq,) if r.seq else ())


REFERS = (CoinCalled, CoinLanded, CoinKept, FlipDecided, ChoiceMade, PayoffApplied)


@rule(
    code="MTG-FLIP-001",
    name="flip-events-name-an-instruction",
    severity=Severity.ERROR,
    citation="kifu docs/games/mtg.md (event model)",
    title=Text(ja="コインの記録が投げる指示を参照していない", en="a flip event names no instruction"),
    message=Text(
        ja="{type} が参照する flip={flip} は、それ以前のどの mtg.flip にもありません",
        en="{type} names flip={flip}, which no earlier mtg.flip introduced",
    ),
    on=REFERS,
    doc=Doc(
        checks=Text(
            ja="宣言・コイン・残すコイン・勝敗・選択・効果 (call, coin, keep, outcome, choice, payoff) "
               "の記録がすべて、それより前の `mtg.flip` の id を挙げていること。",
            en="Every call, coin, keep, outcome, choice and payoff names the id of an earlier `mtg.flip`.",
        ),
        why=Text(
            ja="コインに意味があるのは、そのコインを投げさせた効果があってこそ: 宣言するかどうか (705.2)、"
               "何回投げるか、何を数えるかはカードが決める。",
            en="A coin is only meaningful for the effect that made the player flip it: the card decides whether it "
               "is called (705.2), how many flips there are, and what counts.",
        ),
        bad=Text(
            ja='{"type":"mtg.coin","flip":"f9",…} の前に mtg.flip f9 がない',
            en='{"type":"mtg.coin","flip":"f9",…} with no mtg.flip f9 before it',
        ),
        good=Text(
            ja='{"type":"mtg.flip","flip":"f9",…} の後に {"type":"mtg.coin","flip":"f9",…}',
            en='{"type":"mtg.flip","flip":"f9",…} then {"type":"mtg.coin","flip":"f9",…}',
        ),
    ),
)
def events_name_an_instruction(s: Step) -> Iterable[Hit]:
    flip = getattr(s.event, "flip")
    if flip_of(s.before.game, flip) is None:
        yield Hit(s.event.seq, {"type": type(s.event).__struct_config__.tag, "flip": flip})


@rule(
    code="MTG-FLIP-002",
    name="flip-ids-are-unique",
    severity=Severity.ERROR,
    citation="kifu docs/games/mtg.md (event model)",
    title=Text(ja="flip id が再利用されている", en="a flip id is used twice"),
    message=Text(ja="flip={flip} は seq {first} で既に使われています", en="flip={flip} was already used at seq {first}"),
    on=(FlipInstructed,),
    doc=Doc(
        checks=Text(
            ja="`mtg.flip` ごとに新しい `flip` id を使っていること。",
            en="Each `mtg.flip` has a new `flip` id.",
        ),
        why=Text(
            ja="コイン・宣言・効果は id でその指示を指す。id を使い回すと 2 つの効果のコインが混ざる。",
            en="Coins, calls and payoffs refer to their instruction by id; a reused id mixes two effects' coins.",
        ),
        bad='{"type":"mtg.flip","flip":"f1",…} … {"type":"mtg.flip","flip":"f1",…}',
        good='{"type":"mtg.flip","flip":"f1",…} … {"type":"mtg.flip","flip":"f2",…}',
    ),
)
def flip_ids_unique(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, FlipInstructed)
    old = flip_of(s.before.game, e.flip)
    if old is not None:
        yield Hit(e.seq, {"flip": e.flip, "first": old.seq}, (old.seq,))


@rule(
    code="MTG-FLIP-003",
    name="flip-card-is-classified",
    severity=Severity.INFO,
    citation=CR_705_2,
    title=Text(ja="カードの種類が分からない", en="the card's kind of flip is unknown"),
    message=Text(ja="{card} の分類", en="classification of {card}"),
    on=(FlipInstructed,),
    doc=Doc(
        checks=Text(
            ja="`mtg.flip` のカードがカタログにあるか、イベントが `kind` (called: 宣言する / heads-tails: 表裏だけ) "
               "を書いていること。",
            en="The card of a `mtg.flip` is in the catalogue, or the event says `kind` (called or heads-tails).",
        ),
        why=Text(
            ja="705.2 は宣言するコイン投げと表裏だけのコイン投げを別に扱う。どちらか分からなければ、"
               "宣言と勝敗のルールは判定できない (情報として指摘し、エラーにはしない)。",
            en="705.2 treats called and heads/tails-only flips differently; without knowing which, the call and "
               "outcome rules cannot decide (reported as info, never as an error).",
        ),
        bad=Text(
            ja='{"type":"mtg.flip","card":"Unknown Gambler",…} (kind がない)',
            en='{"type":"mtg.flip","card":"Unknown Gambler",…} (no kind)',
        ),
        good='{"type":"mtg.flip","card":"Unknown Gambler","kind":"called",…}',
    ),
)
def flip_card_classified(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, FlipInstructed)
    ins = flip_of(s.after.game, e.flip)
    if ins is not None and ins.seq == e.seq and ins.kind is None:
        yield Hit(e.seq, {"card": e.card, "reason": f"{e.card} is not in the catalogue and the event gives no kind"},
                  undecided=True)


RULES = (
    substitute_needs_agreement, substitute_two_equal_results, die_face_reads_as_agreed, unclear_coin_heads_named,
    events_name_an_instruction, flip_ids_unique, flip_card_classified,
)
