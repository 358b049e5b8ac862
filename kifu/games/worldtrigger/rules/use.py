"""World Trigger rules of when, where and how often an effect is used: once per set trigger per tactics
phase, at its timing, at its distance, in one's own tactics phase (seed 002 ■5 戦術フェイズ, 手順3 for counters)."""

from __future__ import annotations

from typing import Iterable

from kifu.auditor.base import Doc, Hit, Severity, Step, Text, rule

from ..events import EffectUsed, Moved
from ..projection import Decl, State
from .common import STEP3, cat, cite, distance_now, slots, who


@rule(
    code="WT-USE-004",
    name="effect-once-per-set-trigger-per-tactics-phase",
    severity=Severity.ERROR,
    citation=cite("■5 (同じトリガー効果の使用は１回の戦術フェイズでセットしたトリガー１枚につき１回まで。"
                  "この制限は対抗使用を行うプレイヤーにも適用)"),
    title=Text(ja="同じ効果はトリガー1枚につき戦術フェイズ1回", en="each set trigger's effect once per tactics phase"),
    message=Text(
        ja="{player} は {trigger}/{effect} をこの戦術フェイズで既に seq {earlier} に使っています",
        en="{player} already used {trigger}/{effect} this tactics phase at seq {earlier}",
    ),
    on=(EffectUsed,),
    options=("use_limit",),
    doc=Doc(
        checks=Text(
            ja="1 回の戦術フェイズ (あるプロットから次のプロットまで) の中で、どのプレイヤーも、"
               "セットした同じトリガーの同じ効果を 2 回使わないこと (対抗使用を含む)。`use_limit`=trigger なら、"
               "同じトリガーの別の効果の 2 回目も数える。",
            en="Within one tactics phase (from a plot to the next), no player uses the same effect of the same set "
               "trigger twice, counter-uses included. With `use_limit`=trigger, any second effect of the same "
               "trigger counts too.",
        ),
        why=Text(
            ja="seed 002 ■5: コストを支払える限り効果の使用と移動は何度でも行えるが、同じトリガー効果の使用は 1 "
               "回の戦術フェイズでセットしたトリガー 1 枚につき 1 回まで。"
               "この制限は対抗使用を行うプレイヤーにも適用される。",
            en="Seed 002 ■5: uses and moves may repeat while costs can be paid, but the same trigger effect only "
               "once per set trigger per tactics phase, and the limit applies to counter-users as well.",
        ),
        bad=Text(
            ja="a の戦術フェイズに、b が シールド/防御 で seq 30 と seq 34 の 2 回対抗使用",
            en="b counters with シールド/防御 at seq 30 and again at seq 34 in a's tactics phase",
        ),
        good=Text(
            ja="b が シールド/防御 を a の戦術フェイズに 1 回、自分の戦術フェイズに 1 回",
            en="b counters with シールド/防御 once in a's phase and once in its own",
        ),
    ),
)
def effect_once_per_phase(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, EffectUsed)
    per_trigger = s.options.get("use_limit", "effect") == "trigger"
    earlier = [u.seq for u in s.before.game.used_this_phase
               if u.player == e.player and u.trigger == e.trigger and (per_trigger or u.effect == e.effect)]
    copies = max(1, len(slots(who(s), e.trigger)))  # the limit is per set card: the same trigger set twice, twice
    if len(earlier) >= copies:
        yield Hit(e.seq, {"player": e.player, "trigger": e.trigger, "effect": e.effect, "earlier": earlier[-1]},
                  seqs=tuple(earlier))


def _open(g: State, seq: int | None) -> Decl | None:
    return next((d for d in g.chain if d.seq == seq and not d.resolved), None)


def _kind(s: Step, d: Decl) -> str:
    if d.trigger is None:
        return "move"
    eff = cat(s).effect(d.trigger, d.effect or "")
    return eff.kind if eff is not None else "?"


@rule(
    code="WT-USE-005",
    name="effect-used-at-its-timing",
    severity=Severity.ERROR,
    citation=cite("■5 (「タイミング：戦術フェイズ」となっているトリガーの効果を使用); "
                  f"{STEP3} (特定のトリガーの効果が発揮された際に使用できるもの)"),
    title=Text(ja="効果はそのタイミングで使う", en="an effect is used at its timing"),
    message=Text(
        ja="{player} の {trigger}/{effect}: {why_ja}",
        en="{player}'s {trigger}/{effect}: {why}",
    ),
    on=(EffectUsed,),
    doc=Doc(
        checks=Text(
            ja="`counter` のない `wt.use` は `tactics` (戦術フェイズ) の効果を使うこと。`counter` のある `wt.use` は "
               "`counter` (対抗) の効果を使い、その `against` が、応じる宣言 (まだ開いているもの) "
               "の種類を挙げていること。",
            en="A `wt.use` without `counter` uses a `tactics` effect; one with `counter` uses a `counter` effect "
               "whose `against` lists the kind of the declaration it answers, which is still open.",
        ),
        why=Text(
            ja="seed 002 ■5: 戦術フェイズでは「タイミング：戦術フェイズ」の効果を使う。手順3: 対抗の効果は、"
               "それが応じる特定の効果が発揮された際にだけ使える (アステロイドに対するシールド)。",
            en="Seed 002 ■5: the tactics phase uses effects with timing 戦術フェイズ; step 3: counter effects are "
               "usable only when the specific effects they answer are exerted (シールド against アステロイド).",
        ),
        bad=Text(
            ja='{"type":"wt.use","trigger":"シールド","effect":"防御"} で counter がない',
            en='{"type":"wt.use","trigger":"シールド","effect":"防御"} with no counter',
        ),
        good='{"type":"wt.use","trigger":"シールド","effect":"防御","counter":31}',
    ),
)
def effect_used_at_its_timing(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, EffectUsed)
    eff = cat(s).effect(e.trigger, e.effect)
    if eff is None:
        return  # WT-USE-002 reports the unknown effect once
    ev = {"player": e.player, "trigger": e.trigger, "effect": e.effect}
    if e.counter is None:
        if eff.timing != "tactics":
            yield Hit(e.seq, {**ev, "why": f"its timing is {eff.timing}, not tactics",
                              "why_ja": f"タイミングが戦術フェイズではなく {eff.timing} です"})
        return
    target = _open(s.before.game, e.counter)
    if eff.timing != "counter":
        yield Hit(e.seq, {**ev, "why": f"its timing is {eff.timing}: it cannot counter",
                          "why_ja": f"タイミングが {eff.timing} なので対抗使用できません"})
    elif target is None:
        yield Hit(e.seq, {**ev, "why": f"seq {e.counter} is no open declaration",
                          "why_ja": f"seq {e.counter} は未解決の宣言ではありません"})
    elif _kind(s, target) not in eff.against:
        yield Hit(e.seq, {**ev, "why": f"it counters {eff.against}, not {_kind(s, target)}",
                          "why_ja": f"対抗できるのは {eff.against} で、{_kind(s, target)} ではありません"}, seqs=(target.seq,))


@rule(
    code="WT-USE-006",
    name="effect-distance-condition-holds",
    severity=Severity.ERROR,
    citation=cite("■5 戦術フェイズ (距離条件はトリガーの効果による; catalogue `distance`, `moves`)"),
    title=Text(ja="効果の距離条件を満たす", en="an effect's distance condition holds"),
    message=Text(
        ja="{player} の {trigger}/{effect} は距離 {distance} では使えません: {why_ja}",
        en="{player}'s {trigger}/{effect} cannot be used at distance {distance}: {why}",
    ),
    on=(EffectUsed,),
    doc=Doc(
        checks=Text(
            ja="現在の距離が効果の `distance` の範囲内にあり、効果の `to` が距離を最大でその `moves` "
               "までしか変えないこと。",
            en="The current distance is inside the effect's `distance` range, and an effect's `to` changes the "
               "distance by at most its `moves`.",
        ),
        why=Text(
            ja="seed 002 では距離 (1〜6) を移動で奪い合う。各効果はどの距離で使えるかを定めている (カタログのデータ。"
               "同梱の数値は一例)。",
            en="Seed 002 makes distance (1–6) the thing moves fight over: each effect states at which distances it "
               "works (catalogue data; the bundled numbers are an example).",
        ),
        bad=Text(
            ja='距離 4; {"type":"wt.use","trigger":"弧月","effect":"斬撃",…} (射程 1–1)',
            en='distance 4; {"type":"wt.use","trigger":"弧月","effect":"斬撃",…} (range 1–1)',
        ),
        good=Text(
            ja='距離 1; {"type":"wt.use","trigger":"弧月","effect":"斬撃",…}',
            en='distance 1; {"type":"wt.use","trigger":"弧月","effect":"斬撃",…}',
        ),
    ),
)
def effect_distance_condition(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, EffectUsed)
    eff = cat(s).effect(e.trigger, e.effect)
    g = s.before.game
    d = distance_now(g) if e.counter is None else g.distance
    if eff is None or d is None:
        return
    ev = {"player": e.player, "trigger": e.trigger, "effect": e.effect, "distance": d}
    if eff.distance is not None and not eff.distance[0] <= d <= eff.distance[1]:
        yield Hit(e.seq, {**ev, "why": f"its range is {eff.distance[0]}–{eff.distance[1]}",
                          "why_ja": f"使用できる距離は {eff.distance[0]}〜{eff.distance[1]} です"})
    elif e.to is not None and (abs(e.to - d) > eff.moves or not 1 <= e.to <= 6):
        yield Hit(e.seq, {**ev, "why": f"to={e.to} moves more than {eff.moves} or leaves 1–6",
                          "why_ja": f"to={e.to} は移動量 {eff.moves} を超えるか 1〜6 の外です"})


@rule(
    code="WT-TACT-001",
    name="declarations-in-own-tactics-phase",
    severity=Severity.ERROR,
    citation=cite("■5 (プロットが終わると、手番プレイヤーの戦術フェイズになります)"),
    title=Text(ja="効果の使用と移動は自分の戦術フェイズに", en="uses and moves belong to one's own tactics phase"),
    message=Text(
        ja="{player} の {what} は自分の戦術フェイズの外です (現在の手番: {active})",
        en="{player}'s {what} is outside their own tactics phase (turn player: {active})",
    ),
    on=(EffectUsed, Moved),
    doc=Doc(
        checks=Text(
            ja="`counter` のない `wt.use` と `wt.move` が、手番プレイヤーによって、その `wt.plot` の後に行われること "
               "(`wt.tags` の行が書かれていなくても、戦術フェイズはプロットが終わった時に始まる)。",
            en="A `wt.use` without `counter`, or a `wt.move`, is by the turn player after their `wt.plot` (the phase "
               "begins when the plot ends, whether or not a `wt.tags` line was written).",
        ),
        why=Text(
            ja="seed 002 ■5: プロットが終わると手番プレイヤーの戦術フェイズになる。"
               "もう一方のプレイヤーは対抗使用で応じるだけ。",
            en="Seed 002 ■5: after the plot the turn player's tactics phase begins; the other player only answers "
               "with counter-uses.",
        ),
        bad=Text(
            ja='a の戦術フェイズ; {"type":"wt.move","player":"b",…}',
            en="a's tactics phase; {\"type\":\"wt.move\",\"player\":\"b\",…}",
        ),
        good=Text(
            ja='a の戦術フェイズ; {"type":"wt.move","player":"a",…}',
            en="a's tactics phase; {\"type\":\"wt.move\",\"player\":\"a\",…}",
        ),
    ),
)
def declarations_in_own_phase(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, (EffectUsed, Moved))
    if isinstance(e, EffectUsed) and e.counter is not None:
        return
    g = s.before.game
    if g.active is None and g.turn == 0:
        yield Hit(e.seq, {"reason": "no wt.order or wt.plot is recorded: whose phase it is is unknown"},
                  undecided=True)
    elif e.player != g.active or not g.in_tactics_phase:
        what = "move" if isinstance(e, Moved) else f"{e.trigger}/{e.effect}"
        yield Hit(e.seq, {"player": e.player, "what": what, "active": g.active or "-"})


RULES = (
    effect_once_per_phase,
    effect_used_at_its_timing,
    effect_distance_condition,
    declarations_in_own_phase,
)
