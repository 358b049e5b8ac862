"""World Trigger rules of the build and the initial distance (seed 002 ■1, ■2)."""

from __future__ import annotations

from typing import Iterable, Iterator

from kifu.auditor.base import Doc, End, Hit, Severity, Step, Text, end_rule, rule

from .. import cards
from ..events import (
    BuildChosen,
    DistanceFixed,
    InitialTriggerUsed,
    SheetMade,
    TrionDealt,
)
from ..projection import InitUse
from .common import cat, cite, unknown, who

SLOTS = 4


@rule(
    code="WT-BUILD-001",
    name="four-main-and-four-sub-triggers",
    severity=Severity.ERROR,
    citation=cite("■1 トリガーセットの決定 (メイントリガーを４つ、サブトリガーを４つ)"),
    title=Text(ja="トリガーセットはメイン4・サブ4", en="a trigger set has 4 main and 4 sub triggers"),
    message=Text(
        ja="{player} のトリガーセットはメイン {main} 個・サブ {sub} 個です (各4個)",
        en="{player}'s trigger set has {main} main and {sub} sub slots (4 each)",
    ),
    on=(BuildChosen,),
    doc=Doc(
        checks=Text(
            ja="`wt.build` に、メイン側ちょうど 4 枠とサブ側ちょうど 4 枠が並んでいること (専用オプションも 1 "
               "枠を使う)。",
            en="`wt.build` lists exactly four main-side and four sub-side slots (dedicated options take a slot).",
        ),
        why=Text(
            ja="seed 002 ■1: メイントリガーを 4 つ、サブトリガーを 4 つ選ぶ。",
            en="Seed 002 ■1: choose four main triggers and four sub triggers.",
        ),
        bad='{"type":"wt.build","player":"a","main":["弧月","旋空","アステロイド","ハウンド","メテオラ"],"sub":[…4…]}',
        good='{"type":"wt.build","player":"a","main":["弧月","旋空","アステロイド","ハウンド"],"sub":[…4…]}',
    ),
)
def four_main_and_four_sub(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, BuildChosen)
    if len(e.main) != SLOTS or len(e.sub) != SLOTS:
        yield Hit(e.seq, {"player": e.player, "main": len(e.main), "sub": len(e.sub)})


@rule(
    code="WT-BUILD-002",
    name="option-on-its-trigger-side",
    severity=Severity.ERROR,
    citation=cite("■1 トリガーセットの決定 (★専用オプションはそれが付属するトリガーと同じ側に)"),
    title=Text(ja="専用オプションは付属するトリガーと同じ側", en="a dedicated option sits on its trigger's side"),
    message=Text(
        ja="{player} の {side} 側の {option} は {parent} のオプションですが、{parent} が同じ側にありません",
        en="{player}'s {option} on the {side} side belongs to {parent}, which is not on that side",
    ),
    on=(BuildChosen,),
    doc=Doc(
        checks=Text(
            ja="`wt.build` の専用オプション (カタログの `option_of`) がすべて、"
               "それが付属するトリガーと同じ側にあること。",
            en="Every dedicated option in `wt.build` (catalogue `option_of`) is on the side holding its trigger.",
        ),
        why=Text(
            ja="seed 002 ■1 ★: 専用オプションは、それが付属するトリガーと同じ側に選ぶ。",
            en="Seed 002 ■1 ★: choose a dedicated option on the same side as the trigger it comes with.",
        ),
        bad='"main":["弧月","アステロイド","ハウンド","メテオラ"], "sub":["旋空","シールド","エスクード","バッグワーム"]',
        good='"main":["弧月","旋空",…]',
    ),
)
def option_on_its_trigger_side(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, BuildChosen)
    for side, names, name, t in _build_entries(e, cat(s)):
        if t is not None and t.option_of is not None and t.option_of not in names:
            yield Hit(e.seq, {"player": e.player, "side": side, "option": name, "parent": t.option_of})


@rule(
    code="WT-BUILD-003",
    name="trigger-fits-its-side",
    severity=Severity.ERROR,
    citation=cite("■1 トリガーセットの決定; trigger sides from the catalogue"),
    title=Text(ja="トリガーは置ける側に置く", en="a trigger is on a side it may take"),
    message=Text(
        ja="{player} の {trigger} は {side} 側に置けません (カタログ: {allowed})",
        en="{player}'s {trigger} cannot take the {side} side (catalogue: {allowed})",
    ),
    on=(BuildChosen,),
    doc=Doc(
        checks=Text(
            ja="`wt.build` の各トリガーがカタログにあり、その `side` が置かれた側を許していること。",
            en="Each trigger of `wt.build` is known to the catalogue and its `side` allows the side it is on.",
        ),
        why=Text(
            ja="seed 002 ■1 はトリガーセットをメイントリガーとサブトリガーに分ける。"
               "どのトリガーをどちらに置けるかはカタログのデータで決まる。",
            en="Seed 002 ■1 splits a set into main and sub triggers; which trigger may go where is catalogue data.",
        ),
        bad=Text(
            ja='"sub":["弧月",…] (例のカタログでは 弧月 はメイン側専用)',
            en='"sub":["弧月",…] (弧月 is main-only in the example catalogue)',
        ),
        good='"main":["弧月",…]',
    ),
)
def trigger_fits_its_side(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, BuildChosen)
    for side, _, name, t in _build_entries(e, cat(s)):
        if t is None:
            yield Hit(e.seq, unknown(name), undecided=True)
        elif t.option_of is None and t.side not in ("any", side):
            yield Hit(e.seq, {"player": e.player, "trigger": name, "side": side, "allowed": t.side})


def _build_entries(e: BuildChosen, c: cards.Catalogue) -> Iterator[tuple[str, list[str], str, cards.Trigger | None]]:
    """Each trigger of a build as (side, the names on that side, its name, its catalogue entry or None)."""
    for side, names in (("main", e.main), ("sub", e.sub)):
        for name in names:
            yield side, names, name, c.trigger(name)


@rule(
    code="WT-SHEET-001",
    name="plot-sheet-assigns-every-face",
    severity=Severity.ERROR,
    citation=cite("■1 プロットシートの作成 (１～６の数字に…割り振って作成)"),
    title=Text(ja="プロットシートは1〜6の全ての目に割り振る", en="the plot sheet assigns every face 1–6"),
    message=Text(
        ja="{player} のプロットシートは {count} 個の目しか割り振っていません (6個必要)",
        en="{player}'s plot sheet assigns {count} faces, not 6",
    ),
    on=(SheetMade,),
    doc=Doc(
        checks=Text(
            ja="`wt.sheet` が 6 つの目それぞれに行動タグ (move: 移動、shooting: 射撃戦、close: 近距離戦) を 1 "
               "つずつ、過不足なく割り振っていること。",
            en="`wt.sheet` gives a tag (move, shooting, close) for each of the six faces, no more, no less.",
        ),
        why=Text(
            ja="seed 002 ■1: プロットシートは 1〜6 の数字に 移動/射撃戦/近距離戦 を割り振って作る。"
               "割り振りのない目にプロットしたダイスは何も与えない。",
            en="Seed 002 ■1: the sheet is made by assigning 移動/射撃戦/近距離戦 to the numbers 1–6; a plot die on "
               "an unassigned face would give nothing.",
        ),
        bad='{"type":"wt.sheet","player":"a","faces":["move","move","shooting","shooting","close"]}',
        good='{"type":"wt.sheet","player":"a","faces":["move","move","shooting","shooting","close","close"]}',
    ),
)
def plot_sheet_assigns_every_face(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, SheetMade)
    if len(e.faces) != 6:
        yield Hit(e.seq, {"player": e.player, "count": len(e.faces)})


@rule(
    code="WT-TRION-001",
    name="starting-trion-is-100",
    severity=Severity.ERROR,
    citation=cite("■1 初期トリオン量分のトリオンチップをそれぞれ配布 (一律で１００)"),
    title=Text(ja="初期トリオンは100", en="each player starts with 100 trion"),
    message=Text(
        ja="{player} に配られたトリオンは {trion} です (規定 {expected})",
        en="{player} was dealt {trion} trion, not {expected}",
    ),
    on=(TrionDealt,),
    options=("starting_trion",),
    doc=Doc(
        checks=Text(
            ja="`wt.deal` が各プレイヤーに初期トリオン (オプション `starting_trion`、既定 100) を配ること。",
            en="`wt.deal` gives each player the starting trion (option `starting_trion`, default 100).",
        ),
        why=Text(
            ja="seed 002 ■1: 初期トリオン量は一律で 100 (調整するのは案にすぎないので、オプションにしている)。",
            en="Seed 002 ■1: the starting trion is 100 for everyone (an adjustment is only an idea, hence the "
               "option).",
        ),
        bad='{"type":"wt.deal","player":"a","trion":120}',
        good='{"type":"wt.deal","player":"a","trion":100}',
    ),
)
def starting_trion_is_100(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, TrionDealt)
    expected = s.options.get("starting_trion", 100)
    if e.trion != expected:
        yield Hit(e.seq, {"player": e.player, "trion": e.trion, "expected": expected})


def clamp(value: int) -> int:
    """Seed 002 ■2: below 1 becomes 1, 7 or more becomes 6."""
    return max(1, min(6, value))


@rule(
    code="WT-INIT-001",
    name="initial-distance-is-die-plus-shifts-clamped",
    severity=Severity.ERROR,
    citation=cite("■2 初期距離の決定 (１未満は１に、７以上は６に)"),
    title=Text(ja="初期距離 = ダイス + 修正 (1〜6に丸める)", en="initial distance = die + shifts, clamped to 1–6"),
    message=Text(
        ja="初期距離は {distance} と記録されていますが、ダイス {roll} と修正 {shifts} からは {expected} です",
        en="the initial distance is recorded as {distance}, but die {roll} with shifts {shifts} gives {expected}",
    ),
    on=(DistanceFixed,),
    doc=Doc(
        checks=Text(
            ja="`wt.init.set` が、`wt.init.roll` のダイスの目に `wt.init.use` の修正を足し、1〜6 "
               "に丸めた値であること。効果が発揮されなかった使用 (そのプレイヤーの 8 つのトリガーにない、"
               "初期距離決定時の効果でない、修正が範囲外、カタログどおりにトリオンを支払っていない) "
               "は合計から除いてよい: それは WT-INIT-003 か WT-USE-003 が指摘しており、適用しなかった卓が正しい。",
            en="`wt.init.set` equals the `wt.init.roll` die plus the `wt.init.use` deltas, clamped to 1–6. A use "
               "that had no effect (not one of the player's eight triggers, not an initial-timing effect, a delta "
               "outside its range, its trion not paid as the catalogue says) may be left out of the sum: WT-INIT-003 "
               "or WT-USE-003 already reports it, and a table that did not apply it is right.",
        ),
        why=Text(
            ja="seed 002 ■2: ダイスを振り、初期距離を操作する効果を使い、1 未満は 1 に、7 以上は 6 に変更する。■2/■5 "
               "手順2: トリオンを支払わなかったトリガーの効果は発揮されない。",
            en="Seed 002 ■2: roll a die, apply initial-distance effects, then clamp below 1 to 1 and 7+ to 6; ■2/■5 "
               "手順2: a trigger whose trion is not paid exerts no effect.",
        ),
        bad=Text(
            ja="ダイス 5、バッグワーム +2、その後 wt.init.set 5 (正しくは 6: 7 は 6 に変更する)",
            en="roll 5, バッグワーム +2, then wt.init.set 5 (should be 6: 7 is clamped to 6)",
        ),
        good=Text(
            ja="ダイス 5、バッグワーム +2、wt.init.set 6",
            en="roll 5, バッグワーム +2, wt.init.set 6",
        ),
    ),
)
def initial_distance_clamped(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, DistanceFixed)
    g = s.before.game
    if g.initial_roll is None:
        yield Hit(e.seq, {"reason": "no wt.init.roll before the initial distance"}, undecided=True)
        return
    c = cat(s)
    shifts = [u.delta for u in g.init_uses if shift_happens(c, u)]
    expected = clamp(g.initial_roll + sum(shifts))
    as_recorded = clamp(g.initial_roll + sum(u.delta for u in g.init_uses))
    if e.distance not in (expected, as_recorded):
        yield Hit(e.seq, {"distance": e.distance, "roll": g.initial_roll, "shifts": shifts, "expected": expected},
                  seqs=tuple(u.seq for u in g.init_uses))


def shift_happens(c: cards.Catalogue, u: InitUse) -> bool:
    """False for a ``wt.init.use`` that exerts no effect by seed 002 ■2 (undecidable ones count)."""
    eff = c.effect(u.trigger, u.effect)
    if not u.in_build or u.short:
        return False
    if eff is None:
        return True
    in_range = eff.shift is None or eff.shift[0] <= u.delta <= eff.shift[1]
    return eff.timing == "initial" and in_range and u.trion == eff.trion


@end_rule(
    code="WT-INIT-002",
    name="initial-effects-used-first-player-first",
    severity=Severity.ERROR,
    citation=cite("■2 初期距離を操作する効果 (効果の使用は先攻プレイヤーから順に)"),
    title=Text(ja="初期距離の効果は先攻から順に使う", en="initial-distance effects are used first player first"),
    message=Text(
        ja="{player} (先攻: initial_order={order}) の初期距離効果が、後攻 {second} の効果 (seq {after}) の後に使われています",
        en="{player} (first player by initial_order={order}) used an initial-distance effect after {second}'s (seq {after})",
    ),
    options=("initial_order",),
    doc=Doc(
        checks=Text(
            ja="先攻プレイヤーの `wt.init.use` が、後攻プレイヤーの `wt.init.use` の後に来ないこと。先攻は 1 "
               "ターン目の先攻 (オプション `initial_order`=turn1、既定) か、最初の席 (`seat`)。",
            en="No `wt.init.use` of the first player comes after one of the second player. The first player is turn "
               "1's (option `initial_order`=turn1, default) or the first seat (`seat`).",
        ),
        why=Text(
            ja="seed 002 ■2: 効果の使用は先攻プレイヤーから順に行う。",
            en="Seed 002 ■2: effects are used in order starting from the first player.",
        ),
        bad=Text(
            ja="b (後攻) の wt.init.use の後に a (先攻) の wt.init.use",
            en="wt.init.use by b (second), then wt.init.use by a (first)",
        ),
        good=Text(
            ja="a (先攻) の wt.init.use の後に b の wt.init.use",
            en="wt.init.use by a (first), then wt.init.use by b",
        ),
    ),
)
def initial_effects_first_player_first(end: End) -> Iterable[Hit]:
    g = end.final.game
    uses = [(u.player, u.seq) for u in g.init_uses]
    first = g.turn1_first if end.options.get("initial_order", "turn1") == "turn1" else end.start.players[0].id
    if first is None:
        if len({p for p, _ in uses}) > 1:
            yield Hit(uses[-1][1], {"reason": "no turn order was recorded"}, undecided=True)
        return
    second_at: int | None = None
    second = next((p for p in g.agents if p != first), "?")
    for player, seq in uses:
        if player != first and second_at is None:
            second_at = seq
        elif player == first and second_at is not None:
            yield Hit(seq, {"player": first, "second": second, "after": second_at,
                            "order": end.options.get("initial_order", "turn1")}, seqs=(second_at,))


@rule(
    code="WT-INIT-003",
    name="initial-shift-is-an-initial-timing-effect",
    severity=Severity.ERROR,
    citation=cite("■2 (「タイミング：初期距離決定時」の効果を持つものを使用)"),
    title=Text(ja="初期距離を動かすのは初期距離決定時の効果だけ", en="only initial-timing effects shift the initial distance"),
    message=Text(
        ja="{player} の {trigger}/{effect} による初期距離修正 {delta} は使えません: {why_ja}",
        en="{player}'s shift {delta} by {trigger}/{effect} is not allowed: {why}",
    ),
    on=(InitialTriggerUsed,),
    doc=Doc(
        checks=Text(
            ja="`wt.init.use` が、そのプレイヤーの 8 つのトリガーの 1 つ、タイミングが `initial` (初期距離決定時) "
               "の効果、その効果の `shift` の範囲内の修正を挙げていて、`wt.init.set` より前にあること。",
            en="A `wt.init.use` names a trigger of the player's eight, an effect with timing `initial`, a delta "
               "within the effect's `shift` range, and comes before `wt.init.set`.",
        ),
        why=Text(
            ja="seed 002 ■2: 選択した 8 つのトリガーのうち「タイミング：初期距離決定時」の効果を持つものが、"
               "効果に応じて初期距離を上下させる。",
            en="Seed 002 ■2: of the eight chosen triggers, those with timing 初期距離決定時 move the initial "
               "distance up or down as their effect says.",
        ),
        bad='{"type":"wt.init.use","player":"a","trigger":"アステロイド","effect":"射撃","delta":1}',
        good='{"type":"wt.init.use","player":"a","trigger":"バッグワーム","effect":"潜伏","delta":2,"trion":2}',
    ),
)
def initial_shift_is_initial_effect(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, InitialTriggerUsed)
    a = who(s)
    ev = {"player": e.player, "trigger": e.trigger, "effect": e.effect, "delta": e.delta}
    if e.trigger not in a.build_main + a.build_sub:
        yield Hit(e.seq, {**ev, "why": "not in the player's trigger set", "why_ja": "トリガーセットにありません"})
        return
    if s.before.game.distance is not None:
        yield Hit(e.seq, {**ev, "why": "the initial distance was already fixed", "why_ja": "初期距離は既に決定済みです"})
        return
    eff = cat(s).effect(e.trigger, e.effect)
    if eff is None:
        yield Hit(e.seq, unknown(e.trigger, e.effect), undecided=True)
    elif eff.timing != "initial":
        yield Hit(e.seq, {**ev, "why": f"its timing is {eff.timing}", "why_ja": f"タイミングが {eff.timing} です"})
    elif eff.shift is not None and not eff.shift[0] <= e.delta <= eff.shift[1]:
        yield Hit(e.seq, {**ev, "why": f"the effect shifts {eff.shift[0]}..{eff.shift[1]}",
                          "why_ja": f"効果の修正幅は {eff.shift[0]}〜{eff.shift[1]} です"})


RULES = (
    four_main_and_four_sub,
    option_on_its_trigger_side,
    trigger_fits_its_side,
    plot_sheet_assigns_every_face,
    starting_trion_is_100,
    initial_distance_clamped,
    initial_effects_first_player_first,
    initial_shift_is_initial_effect,
)
