"""World Trigger rules of the counter chain: who is asked first, the order effects resolve in, and
effects that did not happen dealing no damage (seed 002 ■5 戦術フェイズ 手順1–3)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from kifu.auditor.base import Doc, Hit, Severity, Step, Text, rule

from ..events import CounterPassed, EffectResolved, EffectUsed, TrionChanged
from ..projection import State, other
from .common import STEP1, STEP3, cat, cite


def _asked_first(s: Step, g: State) -> str:
    mode = s.options.get("counter_first", "latest")
    return (g.chain[0] if mode == "initiator" else g.chain[-1]).player


@rule(
    code="WT-CTR-001",
    name="counter-use-asked-from-declarer-first",
    severity=Severity.ERROR,
    citation=cite(f"{STEP3} (この使用の確認を今トリガーの効果を宣言したプレイヤーから順に行います)"),
    title=Text(ja="対抗使用の確認は宣言したプレイヤーから", en="counter-use is asked from the declaring player first"),
    message=Text(
        ja="seq {decl} の宣言への対抗使用の確認は {first} から (counter_first={rule}) ですが、{player} が先に{what_ja}",
        en="after the declaration at seq {decl} {first} is asked first (counter_first={rule}), but {player} {what} "
           "before that",
    ),
    on=(EffectUsed, CounterPassed),
    options=("counter_first",),
    doc=Doc(
        checks=Text(
            ja="宣言のたびに、最初の応答 (`wt.pass` か対抗使用の `wt.use`) が宣言したプレイヤーから来ること "
               "(オプション `counter_first`: 最後に宣言したプレイヤー (既定) か、連鎖を始めたプレイヤー)。"
               "もう一方のプレイヤーは、そのプレイヤーがパスした後にだけ応答する。両者がパスした後の対抗使用はない。",
            en="After each declaration, the first answer (`wt.pass` or a counter `wt.use`) comes from the player who "
               "declared (option `counter_first`: the latest declarer, default, or the chain's initiator); the other "
               "player answers only after that player passed; nobody counters after both passed.",
        ),
        why=Text(
            ja="seed 002 ■5 手順3: 効果を適用する前に、今トリガーの効果を宣言したプレイヤーから順に対抗使用の確認を行"
               "う。どちらも対抗使用しなければ効果を適用する。",
            en="Seed 002 ■5 step 3: before an effect applies, counter-use is checked starting from the player who "
               "just declared it; if neither counter-uses, the effects resolve.",
        ),
        bad=Text(
            ja="a が アステロイド を宣言 (seq 20); a がパスする前に b が シールド で対抗使用 (seq 21)",
            en="a declares アステロイド (seq 20); b counters with シールド (seq 21) before a passed",
        ),
        good=Text(
            ja="a が アステロイド を宣言 (seq 20); a がパス (21); b が シールド で対抗使用 (22)",
            en="a declares アステロイド (seq 20); a passes (21); b counters with シールド (22)",
        ),
    ),
)
def counter_asked_from_declarer(s: Step) -> Iterable[Hit]:
    e = s.event
    g = s.before.game
    if isinstance(e, EffectUsed) and e.counter is None or not g.chain:
        return
    first = _asked_first(s, g)
    ev: dict[str, Any] = {"decl": g.chain[-1].seq, "first": first, "player": e.player,
                          "rule": s.options.get("counter_first", "latest")}
    passed = isinstance(e, CounterPassed)
    if not g.passes and e.player != first:
        what = {"what": "passed", "what_ja": "パスしました"} if passed else \
            {"what": "counter-used", "what_ja": "対抗使用しました"}
        yield Hit(e.seq, {**ev, **what}, seqs=(g.chain[-1].seq,))
    elif set(g.passes) >= {first, other(g, first)} and not passed:
        yield Hit(e.seq, {**ev, "what": "counter-used after both players passed",
                          "what_ja": "両者がパスした後に対抗使用しました"}, seqs=(g.chain[-1].seq,))


@rule(
    code="WT-CTR-002",
    name="resolve-last-declared-first",
    severity=Severity.ERROR,
    citation=cite(f"{STEP3} (最後に使用の宣言のあったトリガーの効果から順に効果の適用)"),
    title=Text(ja="効果は最後に宣言されたものから適用", en="effects resolve last declared first"),
    message=Text(
        ja="seq {of} を適用しましたが、{why_ja}",
        en="seq {of} was resolved, but {why}",
    ),
    on=(EffectResolved,),
    doc=Doc(
        checks=Text(
            ja="各 `wt.resolve` が、開いている連鎖のうちまだ適用されていない最後の宣言を指していること。",
            en="Each `wt.resolve` names the latest declaration of the open chain that is not yet resolved.",
        ),
        why=Text(
            ja="seed 002 ■5 手順3: もう誰も対抗使用しなくなったら、最後に使用の宣言のあったトリガーの効果から順に適用"
               "する (シールドは、それが対抗する射撃より先に適用される)。",
            en="Seed 002 ■5 step 3: when nobody counter-uses any more, the effects apply starting from the last "
               "declared one (a shield resolves before the shot it answers).",
        ),
        bad=Text(
            ja="a の アステロイド (20)、b の シールド による対抗使用 (22); 先に 20 の wt.resolve",
            en="a アステロイド (20), b シールド counter (22); wt.resolve of 20 first",
        ),
        good=Text(
            ja="a の アステロイド (20)、b の シールド による対抗使用 (22); 22 の wt.resolve、次に 20 の wt.resolve",
            en="a アステロイド (20), b シールド counter (22); wt.resolve of 22, then of 20",
        ),
    ),
)
def resolve_last_declared_first(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, EffectResolved)
    pending = [d for d in s.before.game.chain if not d.resolved]
    expected = pending[-1].seq if pending else None
    if e.of == expected:
        return
    if expected is None:
        why = ("no declaration is open: a later event (a new declaration, a plot, the next turn order) already "
               "closed its chain, so record wt.resolve before it")
        why_ja = ("開いている宣言がありません: 後のイベント (新しい宣言、プロット、次のターンの先攻決定) が連鎖を閉じています。"
                  "wt.resolve はその前に記録します")
    else:
        why, why_ja = f"the last declared open one is seq {expected}", f"先に適用するのは最後に宣言された seq {expected} です"
    yield Hit(e.seq, {"of": e.of, "expected": expected, "why": why, "why_ja": why_ja})


@rule(
    code="WT-CTR-003",
    name="resolution-waits-for-both-players-to-decline",
    severity=Severity.ERROR,
    citation=cite(f"{STEP3} (どちらも対抗使用がなかった場合、…効果の適用を行います)"),
    title=Text(ja="両者が対抗使用しないと確認してから適用", en="effects apply only after both players declined"),
    message=Text(
        ja="seq {of} の適用の前に、最後の宣言 (seq {decl}) への対抗使用の確認が {missing} に行われていません",
        en="seq {of} was resolved before {missing} was asked for a counter-use to the last declaration (seq {decl})",
    ),
    on=(EffectResolved,),
    doc=Doc(
        checks=Text(
            ja="連鎖の最初の `wt.resolve` が、その連鎖の最後の宣言以降に両プレイヤーが `wt.pass` "
               "を記録した後にあること。",
            en="The first `wt.resolve` of a chain comes after both players recorded `wt.pass` since the chain's "
               "latest declaration.",
        ),
        why=Text(
            ja="seed 002 ■5 手順3: 効果を適用する前に、両プレイヤーに順に対抗使用の確認を行う。"
               "どちらも対抗使用しなかったときだけ効果を適用する。",
            en="Seed 002 ■5 step 3: before an effect applies, both players are asked for counter-use in turn; only "
               "when neither counter-uses do the effects apply.",
        ),
        bad=Text(
            ja="a が アステロイド を宣言 (20); a がパス (21); 20 の wt.resolve (b に確認していない)",
            en="a declares アステロイド (20); a passes (21); wt.resolve of 20 (b was never asked)",
        ),
        good=Text(
            ja="a が アステロイド を宣言 (20); a がパス (21); b がパス (22); 20 の wt.resolve",
            en="a declares アステロイド (20); a passes (21); b passes (22); wt.resolve of 20",
        ),
    ),
)
def resolution_waits_for_passes(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, EffectResolved)
    g = s.before.game
    if not g.chain or any(d.resolved for d in g.chain):
        return
    missing = [p for p in g.agents if p not in g.passes]
    if missing:
        yield Hit(e.seq, {"of": e.of, "decl": g.chain[-1].seq, "missing": ", ".join(missing)},
                  seqs=(g.chain[-1].seq,))


VOID = {
    "face-down": ("its trigger's reveal could not be paid, so it stayed face down",
                  "トリガーの表向きのトリオンを支払えず、裏向きのままでした"),
    "trion": ("its trion could not be paid", "トリオンを支払えませんでした"),
    "tags": ("its tags were not in hand", "タグを持っていませんでした"),
    "cancelled": ("a counter-use cancelled it", "対抗使用で打ち消されました"),
    "cost": ("its cost was not paid as the catalogue says", "カタログ通りのコストが支払われていません"),
}


@rule(
    code="WT-TRION-002",
    name="effect-without-effect-deals-no-damage",
    severity=Severity.ERROR,
    citation=cite(f"{STEP1}–2 (トリガーの効果は発揮されません); {STEP3} (対抗使用)"),
    title=Text(ja="発揮されなかった効果でトリオンは減らない", en="an effect that did not happen deals no damage"),
    message=Text(
        ja="{player} のトリオン {delta} は seq {source} の {trigger}/{effect} によるものですが、その効果は発揮されていません: {why_ja}",
        en="{player}'s trion change {delta} is credited to {trigger}/{effect} at seq {source}, which had no effect: {why}",
    ),
    on=(TrionChanged,),
    doc=Doc(
        checks=Text(
            ja="`source` がこのターンの `wt.use` である `wt.trion` の減少が、"
               "効果が発揮されなかった使用によるものでないこと: 表向きのトリオンを支払えず裏向きのまま、"
               "トリオンや行動タグを支払っていない (またはカタログのコストと違う)、適用時に対抗使用で打ち消された。"
               "セットしていない、または wt.reveal の記録がないトリガーの使用は WT-USE-002 / WT-USE-001 が報告し、"
               "ここでは重ねて報告しない。",
            en="A `wt.trion` loss whose `source` is a `wt.use` of this turn is not credited to a use that had no "
               "effect: its reveal could not be paid (it stayed face down), trion or tags not paid (or not the "
               "catalogue cost), or cancelled by a counter-use at its resolution. A use of a trigger not set, or "
               "with no `wt.reveal` recorded, is WT-USE-002 / WT-USE-001 and is not reported again here.",
        ),
        why=Text(
            ja="seed 002 ■5 手順1〜2: 表向きにできなかったトリガーや、"
               "コストを支払わなかったトリガーの効果は発揮されない。手順3: 対抗使用 (アステロイドに対するシールド) "
               "が効果に応じる。",
            en="Seed 002 ■5 steps 1–2: a trigger that could not be turned face up, or whose cost was not paid, "
               "exerts no effect; step 3: a counter-use (シールド against アステロイド) answers the effect.",
        ),
        bad=Text(
            ja='a が［射撃戦］タグを持たずに アステロイド を使用 (seq 14); '
               '{"type":"wt.trion","player":"b","delta":-15,"source":14}',
            en='a uses アステロイド paying a [射撃戦] tag it does not hold (seq 14); '
               '{"type":"wt.trion","player":"b","delta":-15,"source":14}',
        ),
        good=Text(
            ja='a が表向きにしてから アステロイド を使用 (seq 15); {"type":"wt.trion","player":"b","delta":-15,'
               '"source":15}',
            en='a reveals, then uses アステロイド (seq 15); {"type":"wt.trion","player":"b","delta":-15,"source":15}',
        ),
    ),
)
def void_effect_deals_no_damage(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, TrionChanged)
    rec = s.before.game.uses_this_turn.get(e.source) if e.source is not None else None
    if rec is None or e.delta >= 0:
        return
    reason = rec.void
    eff = cat(s).effect(rec.trigger, rec.effect)
    if reason is None and eff is not None and (rec.trion != eff.trion or Counter(rec.tags) != Counter(eff.tags)):
        reason = "cost"
    if reason is not None:
        why, why_ja = VOID[reason]
        yield Hit(e.seq, {"player": e.player, "delta": e.delta, "source": e.source, "trigger": rec.trigger,
                          "effect": rec.effect, "why": why, "why_ja": why_ja}, seqs=(e.source,))


RULES = (
    counter_asked_from_declarer,
    resolve_last_declared_first,
    resolution_waits_for_passes,
    void_effect_deals_no_damage,
)
