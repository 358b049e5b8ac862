"""World Trigger rules of the tactics phase: reveal, use, counter-use, resolution, moves (seed 002 ■5)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from ...events.worldtrigger import (
    CounterPassed,
    EffectResolved,
    EffectUsed,
    InitialTriggerUsed,
    Moved,
    TriggerRevealed,
    TrionChanged,
)
from ...projector.worldtrigger import Decl, State, other
from ..base import Doc, Hit, Severity, Step, Text, rule
from .common import cat, cite, face_up, set_slot, slots, unknown, who

STEP1 = "■5 戦術フェイズ 手順1"
STEP2 = "■5 戦術フェイズ 手順2"
STEP3 = "■5 戦術フェイズ 手順3"


@rule(
    code="WT-REVEAL-001",
    name="reveal-pays-its-trion",
    severity=Severity.ERROR,
    citation=cite(f"{STEP1} (表向きにする際にトリオンが必要なトリガーはトリオンチップを支払う)"),
    title=Text(ja="表向きにするにはトリオンを支払う", en="turning a trigger face up pays its trion"),
    message=Text(
        ja="{player} の {trigger} の表向き: {why_ja} — {then_ja}",
        en="{player} turning {trigger} face up: {why}; {then}",
    ),
    on=(TriggerRevealed,),
    doc=Doc(
        checks=Text(
            ja="`wt.reveal` が、そのプレイヤーがセットした裏向きのトリガーを挙げ、"
               "カタログの表向きにするコストちょうどのトリオンを支払い、そのプレイヤーにそれだけのトリオンがあること"
               "。",
            en="`wt.reveal` names a face-down trigger the player has set, pays exactly the catalogue's reveal cost, "
               "and the player has that much trion.",
        ),
        why=Text(
            ja="seed 002 ■5 手順1: 裏向きのトリガーはまず表向きにし、必要ならトリオンを支払う。"
               "支払えないプレイヤーは表向きにできず、効果も発揮されない。",
            en="Seed 002 ■5 step 1: a face-down trigger is turned face up first, paying trion if it needs some; a "
               "player who cannot pay cannot turn it up and its effect does not happen.",
        ),
        bad=Text(
            ja='a のトリオンは 2; {"type":"wt.reveal","player":"a","trigger":"メテオラ","trion":3}',
            en='a has 2 trion; {"type":"wt.reveal","player":"a","trigger":"メテオラ","trion":3}',
        ),
        good=Text(
            ja='a のトリオンは 40; {"type":"wt.reveal","player":"a","trigger":"メテオラ","trion":3}',
            en='a has 40 trion; {"type":"wt.reveal","player":"a","trigger":"メテオラ","trion":3}',
        ),
    ),
)
def reveal_pays_its_trion(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, TriggerRevealed)
    a = who(s)
    ev = {"player": e.player, "trigger": e.trigger, **_RECORDING}
    slot = set_slot(a, e.trigger, face_down_first=True)
    t = cat(s).trigger(e.trigger)
    if slot is None:
        yield Hit(e.seq, {**ev, "why": "it is not set", "why_ja": "セットされていません"})
    elif face_up(a, slot):
        yield Hit(e.seq, {**ev, "why": "it is already face up", "why_ja": "既に表向きです"})
    elif t is None:
        yield Hit(e.seq, unknown(e.trigger), undecided=True)
    elif e.trion != t.reveal:
        yield Hit(e.seq, {**ev, "why": f"paid {e.trion} trion, the reveal cost is {t.reveal}",
                          "why_ja": f"支払い {e.trion}、表向きのコストは {t.reveal} です"})
    elif a.dealt_seq is not None and a.trion < e.trion:
        yield Hit(e.seq, {**ev, **_UNPAYABLE, "why": f"the cost is {e.trion} but only {a.trion} trion is left",
                          "why_ja": f"コスト {e.trion} に対し残トリオンは {a.trion} です"})


# What follows from each kind of problem: only an unpayable cost keeps the trigger face down (■5 手順1);
# the others are recordings that disagree with the table's own facts.
_UNPAYABLE = {"then": "it stays face down and its effect does not happen",
              "then_ja": "表向きにならず、効果も発揮されません"}
_RECORDING = {"then": "the recording disagrees with the triggers set and the catalogue's reveal cost",
              "then_ja": "記録がセットしたトリガーやカタログの表向きコストと食い違います"}


@rule(
    code="WT-USE-001",
    name="face-down-trigger-has-no-effect",
    severity=Severity.ERROR,
    citation=cite(f"{STEP1} (使用するトリガーが裏向きの場合、表向きにする)"),
    title=Text(ja="裏向きのトリガーの効果は使えない", en="a face-down trigger's effect cannot be used"),
    message=Text(
        ja="{player} は裏向きの {trigger} の効果 {effect} を使いました (先に wt.reveal で表向きにしてトリオンを支払う)",
        en="{player} used {effect} of {trigger} while it was face down (reveal it, paying its trion, first)",
    ),
    on=(EffectUsed,),
    doc=Doc(
        checks=Text(
            ja="`wt.use` (対抗使用を含む) のトリガーが、使用時に表向きであること。",
            en="The trigger of a `wt.use` (counter-uses included) is face up when used.",
        ),
        why=Text(
            ja="seed 002 ■5 手順1: 裏向きのトリガーは、効果の前にトリオンを支払って表向きにする。"
               "そうしなければ効果は発揮されない。",
            en="Seed 002 ■5 step 1: a face-down trigger is turned face up, paying its trion, before its effect; "
               "otherwise the effect is not exerted.",
        ),
        bad=Text(
            ja='wt.set main アステロイド (裏向き); {"type":"wt.use","trigger":"アステロイド",…}',
            en='wt.set main アステロイド (face down); {"type":"wt.use","trigger":"アステロイド",…}',
        ),
        good='wt.reveal アステロイド trion 2; {"type":"wt.use","trigger":"アステロイド",…}',
    ),
)
def face_down_has_no_effect(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, EffectUsed)
    a = who(s)
    held = slots(a, e.trigger)
    if held and not any(face_up(a, slot) for slot in held):
        yield Hit(e.seq, {"player": e.player, "trigger": e.trigger, "effect": e.effect})


@rule(
    code="WT-USE-002",
    name="used-trigger-is-set",
    severity=Severity.ERROR,
    citation=cite("■5 (４でセットしたトリガーのトリガー能力を使用)"),
    title=Text(ja="使えるのはセットしたトリガーの効果だけ", en="only a set trigger's effects are used"),
    message=Text(
        ja="{player} の {trigger}/{effect}: {why_ja}",
        en="{player}'s {trigger}/{effect}: {why}",
    ),
    on=(EffectUsed,),
    doc=Doc(
        checks=Text(
            ja="`wt.use` が、そのプレイヤーがこのターンにセットした 2 枚のトリガーの 1 つと、"
               "そのトリガーが持つ効果を挙げていること。専用オプションの効果 (旋空) なら、"
               "トリガーセットにそのオプションがあること。",
            en="A `wt.use` names one of the two triggers the player set this turn, an effect that trigger has, and, "
               "for an option's effect (旋空), a build that holds the option.",
        ),
        why=Text(
            ja="seed 002 ■5: 戦術フェイズでは、手順4 でセットしたトリガーのトリガー能力を使用する。",
            en="Seed 002 ■5: in the tactics phase the player uses the abilities of the triggers set in step 4.",
        ),
        bad=Text(
            ja='セットは 弧月 / シールド; {"type":"wt.use","trigger":"アステロイド",…}',
            en='set 弧月 / シールド; {"type":"wt.use","trigger":"アステロイド",…}',
        ),
        good=Text(
            ja='セットは 弧月 / シールド; {"type":"wt.use","trigger":"弧月","effect":"斬撃",…}',
            en='set 弧月 / シールド; {"type":"wt.use","trigger":"弧月","effect":"斬撃",…}',
        ),
    ),
)
def used_trigger_is_set(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, EffectUsed)
    a = who(s)
    ev = {"player": e.player, "trigger": e.trigger, "effect": e.effect}
    eff = cat(s).effect(e.trigger, e.effect)
    if a.set_main is None and a.set_sub is None:
        yield Hit(e.seq, {"reason": f"no wt.set of {e.player} is recorded"}, undecided=True)
    elif set_slot(a, e.trigger) is None or a.set_turn != s.before.game.turn:
        yield Hit(e.seq, {**ev, "why": "it is not one of the triggers set this turn",
                          "why_ja": "このターンにセットしたトリガーではありません"})
    elif eff is None:
        yield Hit(e.seq, unknown(e.trigger, e.effect), undecided=True)
    elif eff.requires is not None and eff.requires not in a.build_main + a.build_sub:
        yield Hit(e.seq, {**ev, "why": f"the effect needs the option {eff.requires}, which is not in the build",
                          "why_ja": f"この効果にはオプション {eff.requires} が必要ですが、トリガーセットにありません"})


def _cost_problem(s: Step, paid_trion: int, paid_tags: list[str], cost_trion: int, cost_tags: list[str],
                  check_hand: bool) -> dict[str, str] | None:
    """Why a payment falls short, in English and Japanese; None when it is paid in full."""
    a = who(s)
    if paid_trion != cost_trion:
        return {"why": f"paid {paid_trion} trion, the cost is {cost_trion}",
                "why_ja": f"支払ったトリオン {paid_trion}、コストは {cost_trion}"}
    if Counter(paid_tags) != Counter(cost_tags):
        return {"why": f"paid tags {sorted(paid_tags)}, the cost is {sorted(cost_tags)}",
                "why_ja": f"支払ったタグ {sorted(paid_tags)}、コストは {sorted(cost_tags)}"}
    if a.dealt_seq is not None and a.trion < paid_trion:
        return {"why": f"only {a.trion} trion was left", "why_ja": f"残トリオンは {a.trion} しかありません"}
    missing = Counter(paid_tags) - Counter(a.tags)
    if check_hand and missing:
        return {"why": f"tags {sorted(missing.elements())} were not in hand (hand: {sorted(a.tags)})",
                "why_ja": f"タグ {sorted(missing.elements())} を持っていません (手持ち: {sorted(a.tags)})"}
    return None


@rule(
    code="WT-USE-003",
    name="effect-cost-paid-in-full",
    severity=Severity.ERROR,
    citation=cite(f"{STEP2} (支払うことができない場合、トリガーの効果は発揮されません); ■2 (トリオンチップを支払います)"),
    title=Text(ja="効果のコストを全て支払う", en="an effect's cost is paid in full"),
    message=Text(
        ja="{player} の {trigger}/{effect}: {why_ja} — コスト未払いの効果は発揮されません",
        en="{player}'s {trigger}/{effect}: {why}; an unpaid effect does not happen",
    ),
    on=(EffectUsed, InitialTriggerUsed),
    options=("tags_expire",),
    doc=Doc(
        checks=Text(
            ja="`wt.use` や `wt.init.use` が、カタログのコストちょうどのトリオンと行動タグを支払い、"
               "そのプレイヤーにそれだけのトリオンがあり、支払ったタグがすべて手元にあること。初期距離の効果でない "
               "`wt.init.use` は WT-INIT-003 に任せる。",
            en="A `wt.use` or `wt.init.use` pays exactly the catalogue cost in trion and tags, the player has that "
               "much trion, and every tag paid is in hand. A `wt.init.use` of an effect that is not an "
               "initial-distance effect is left to WT-INIT-003.",
        ),
        why=Text(
            ja="seed 002 ■5 手順2: 効果に記載されているコスト (トリオン、行動タグ) を支払う。"
               "支払えなければ効果は発揮されない。■2: 初期距離の効果もトリオンを支払う。",
            en="Seed 002 ■5 step 2: pay the costs written on the effect (trion, action tags); if they cannot be paid,"
               " the effect is not exerted. ■2: initial-distance effects are paid in trion too.",
        ),
        bad=Text(
            ja='手元のタグ [move]; {"type":"wt.use","trigger":"アステロイド","effect":"射撃","trion":2,'
               '"tags":["shooting"]}',
            en='hand [move]; {"type":"wt.use","trigger":"アステロイド","effect":"射撃","trion":2,"tags":["shooting"]}',
        ),
        good=Text(
            ja='手元のタグ [shooting]; {"type":"wt.use","trigger":"アステロイド","effect":"射撃","trion":2,'
               '"tags":["shooting"]}',
            en='hand [shooting]; {"type":"wt.use","trigger":"アステロイド","effect":"射撃","trion":2,'
               '"tags":["shooting"]}',
        ),
    ),
)
def effect_cost_paid(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, (EffectUsed, InitialTriggerUsed))
    eff = cat(s).effect(e.trigger, e.effect)
    if eff is None:
        yield Hit(e.seq, unknown(e.trigger, e.effect), undecided=True)
        return
    if isinstance(e, InitialTriggerUsed) and eff.timing != "initial":
        return  # WT-INIT-003 reports it: a wt.init.use has no tags to pay a tactics effect's cost with
    tags = e.tags if isinstance(e, EffectUsed) else []
    why = _cost_problem(s, e.trion, tags, eff.trion, eff.tags, isinstance(e, EffectUsed))
    if why:
        yield Hit(e.seq, {"player": e.player, "trigger": e.trigger, "effect": e.effect, **why})


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
    d = _distance_now(g) if e.counter is None else g.distance
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


@rule(
    code="WT-MOVE-001",
    name="move-costs-one-move-tag",
    severity=Severity.ERROR,
    citation=cite("■5 (移動を行う場合、［移動］タグをコストとして支払い)"),
    title=Text(ja="移動には［移動］タグを1つ支払う", en="a move pays one `move` tag"),
    message=Text(
        ja="{player} の移動: 支払ったタグ {tags}、手持ち {hand} — ［移動］タグ1つが必要です",
        en="{player}'s move paid {tags} with hand {hand}; it costs exactly one [move] tag in hand",
    ),
    on=(Moved,),
    options=("tags_expire",),
    doc=Doc(
        checks=Text(
            ja="`wt.move` がちょうど 1 つの ［移動］タグ (`move`) を支払い、そのプレイヤーがそれを持っていること。",
            en="A `wt.move` pays exactly one `move` tag, and the player holds one.",
        ),
        why=Text(
            ja="seed 002 ■5: 移動するには［移動］タグをコストとして支払い、距離を＋1 ないし－1 する宣言を行う。",
            en="Seed 002 ■5: to move, pay a [移動] tag as the cost and declare distance +1 or −1.",
        ),
        bad=Text(
            ja='手元のタグ [shooting]; {"type":"wt.move","player":"a","to":3,"tags":["shooting"]}',
            en='hand [shooting]; {"type":"wt.move","player":"a","to":3,"tags":["shooting"]}',
        ),
        good=Text(
            ja='手元のタグ [move]; {"type":"wt.move","player":"a","to":3}',
            en='hand [move]; {"type":"wt.move","player":"a","to":3}',
        ),
    ),
)
def move_costs_one_move_tag(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, Moved)
    hand = who(s).tags
    if list(e.tags) != ["move"] or "move" not in hand:
        yield Hit(e.seq, {"player": e.player, "tags": list(e.tags), "hand": list(hand)})


@rule(
    code="WT-MOVE-002",
    name="move-changes-distance-by-one",
    severity=Severity.ERROR,
    citation=cite("■5 (距離を＋１ないし－１する宣言)"),
    title=Text(ja="移動は距離を±1する", en="a move changes the distance by exactly 1"),
    message=Text(
        ja="{player} の移動は距離 {distance} から {to} へ: 1〜6 の範囲で ±1 ではありません",
        en="{player}'s move goes from distance {distance} to {to}, not ±1 within 1–6",
    ),
    on=(Moved,),
    doc=Doc(
        checks=Text(
            ja="`wt.move` の `to` が現在の距離の ±1 で、1〜6 の範囲に収まること: 距離 1 や 6 "
               "では内側への移動しかない (seed が丸めるのは初期距離だけなので、0 や 7 "
               "への移動を「何も変わらない移動」に直すことはしない)。",
            en="A `wt.move`'s `to` is the current distance plus or minus 1 and stays on the 1–6 scale: at 1 or 6 "
               "only the inward move exists (the seed clamps only the initial distance, so a move to 0 or 7 is not "
               "turned into a move that changes nothing).",
        ),
        why=Text(
            ja="seed 002 ■5: 移動は距離を＋1 ないし－1 する宣言。",
            en="Seed 002 ■5: a move declares distance +1 or −1.",
        ),
        bad=Text(
            ja='距離 3; {"type":"wt.move","player":"a","to":5}',
            en='distance 3; {"type":"wt.move","player":"a","to":5}',
        ),
        good=Text(
            ja='距離 3; {"type":"wt.move","player":"a","to":4}',
            en='distance 3; {"type":"wt.move","player":"a","to":4}',
        ),
    ),
)
def move_changes_distance_by_one(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, Moved)
    d = _distance_now(s.before.game)
    if d is None:
        yield Hit(e.seq, {"reason": "the distance is not known (no wt.init.set)"}, undecided=True)
    elif abs(e.to - d) != 1 or not 1 <= e.to <= 6:
        yield Hit(e.seq, {"player": e.player, "distance": d, "to": e.to})


def _distance_now(g: State) -> int | None:
    """The distance a new declaration starts from: pending moves of a closing chain count."""
    d = g.distance
    for decl in reversed(g.chain):
        if not decl.resolved and decl.to is not None:
            d = decl.to
    return d


RULES = (
    reveal_pays_its_trion,
    face_down_has_no_effect,
    used_trigger_is_set,
    effect_cost_paid,
    effect_once_per_phase,
    effect_used_at_its_timing,
    effect_distance_condition,
    declarations_in_own_phase,
    counter_asked_from_declarer,
    resolve_last_declared_first,
    resolution_waits_for_passes,
    void_effect_deals_no_damage,
    move_costs_one_move_tag,
    move_changes_distance_by_one,
)
