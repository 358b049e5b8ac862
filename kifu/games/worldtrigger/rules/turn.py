"""World Trigger rules of each turn's order, trigger set, plot and tags (seed 002 ■3, ■4, ■5)."""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from kifu.auditor.base import Doc, Hit, Severity, Step, Text, rule

from ..events import OrderDecided, Plotted, TagsGained, TriggersSet
from ..projection import agent, other
from .common import cat, cite, face_up, who


@rule(
    code="WT-ORDER-001",
    name="fewer-trion-goes-first",
    severity=Severity.ERROR,
    citation=cite("■3 先攻／後攻の決定 (残りのトリオンチップが少ないほうが先攻)"),
    title=Text(ja="残トリオンが少ないほうが先攻", en="the player with less trion goes first"),
    message=Text(
        ja="ターン {turn} の先攻は {first} (トリオン {first_trion}) ですが、{second} (トリオン {second_trion}) のほうが少ない",
        en="turn {turn}: {first} goes first with {first_trion} trion, but {second} has less ({second_trion})",
    ),
    on=(OrderDecided,),
    doc=Doc(
        checks=Text(
            ja="各 `wt.order` で、先攻プレイヤーの残トリオンが相手より多くないこと。",
            en="At each `wt.order`, the first player does not have more trion than the other.",
        ),
        why=Text(
            ja="seed 002 ■3: 先攻後攻は 1 ターンごとに決め直し、残りのトリオンチップが少ないほうが先攻になる。",
            en="Seed 002 ■3: the order is decided again every turn; fewer remaining trion chips goes first.",
        ),
        bad="a 80, b 65; {\"type\":\"wt.order\",\"turn\":2,\"first\":\"a\"}",
        good="a 80, b 65; {\"type\":\"wt.order\",\"turn\":2,\"first\":\"b\"}",
    ),
)
def fewer_trion_goes_first(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, OrderDecided)
    g = s.before.game
    second = other(g, e.first)
    if second is None:
        return
    ft, st = agent(g, e.first).trion, agent(g, second).trion
    if ft > st:
        yield Hit(e.seq, {"turn": e.turn, "first": e.first, "second": second, "first_trion": ft, "second_trion": st})


@rule(
    code="WT-ORDER-002",
    name="tie-broken-by-fair-random-method",
    severity=Severity.WARNING,
    citation=cite("■3 (残りのトリオンチップが同じ場合は、じゃんけん等の公平な方法で決定)"),
    title=Text(ja="同トリオンなら公平なランダムで先攻を決める", en="equal trion: a fair random method decides"),
    message=Text(
        ja="ターン {turn}: 両者のトリオンが {trion} で同じなのに、先攻を決めたランダムな方法が記録されていません",
        en="turn {turn}: both have {trion} trion, but no fair random method (tie_break) is recorded",
    ),
    on=(OrderDecided,),
    doc=Doc(
        checks=Text(
            ja="`wt.order` の時点で両プレイヤーの残トリオンが同じなら、その `tie_break` "
               "がランダムな決め方を挙げていること。",
            en="When both players have the same trion at `wt.order`, its `tie_break` names the random method.",
        ),
        why=Text(
            ja="seed 002 ■3: 残トリオンが同じ場合は、じゃんけん等の公平な方法で決める。"
               "ただ選んだだけではないことをジャッジが確認できる必要がある。",
            en="Seed 002 ■3: on equal trion the order is decided by rock-paper-scissors or another fair method; a "
               "judge needs to see it was not simply chosen.",
        ),
        bad='a 100, b 100; {"type":"wt.order","turn":1,"first":"a"}',
        good='a 100, b 100; {"type":"wt.order","turn":1,"first":"a","tie_break":"janken"}',
    ),
)
def tie_broken_at_random(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, OrderDecided)
    g = s.before.game
    second = other(g, e.first)
    if second is not None and agent(g, e.first).trion == agent(g, second).trion and e.tie_break is None:
        yield Hit(e.seq, {"turn": e.turn, "trion": agent(g, e.first).trion})


@rule(
    code="WT-SET-001",
    name="set-one-main-and-one-sub-from-the-build",
    severity=Severity.ERROR,
    citation=cite("■4 (メイン側のトリガーから１枚、サブ側のトリガーから１枚)"),
    title=Text(ja="メイン側1枚・サブ側1枚をトリガーセットからセット", en="set one main-side and one sub-side trigger of the build"),
    message=Text(
        ja="{player} の {slot} 側にセットされた {trigger} は {why_ja}",
        en="{player}'s {slot}-side {trigger} {why}",
    ),
    on=(TriggersSet,),
    doc=Doc(
        checks=Text(
            ja="`wt.set` の `main` がトリガーセットのメイン側のトリガー、`sub` がサブ側のトリガーであること。"
               "専用オプションは単独ではセットしない。",
            en="`wt.set` names a trigger from the build's main side as `main` and one from its sub side as `sub`; a "
               "dedicated option is not set on its own.",
        ),
        why=Text(
            ja="seed 002 ■4: 毎ターン、メイン側のトリガーから 1 枚、サブ側のトリガーから 1 枚を提出する。",
            en="Seed 002 ■4: each turn submit one trigger from the main side and one from the sub side.",
        ),
        bad=Text(
            ja='トリガーセット メイン [弧月,旋空,…]、サブ [シールド,…]; {"type":"wt.set","player":"a","main":"弧月",'
               '"sub":"旋空"}',
            en='build main [弧月,旋空,…], sub [シールド,…]; {"type":"wt.set","player":"a","main":"弧月","sub":"旋空"}',
        ),
        good='{"type":"wt.set","player":"a","main":"弧月","sub":"シールド"}',
    ),
)
def set_one_main_and_one_sub(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, TriggersSet)
    a = who(s)
    c = cat(s)
    for slot, trigger, side in (("main", e.main, a.build_main), ("sub", e.sub, a.build_sub)):
        t = c.trigger(trigger)
        if trigger not in side:
            yield Hit(e.seq, {"player": e.player, "slot": slot, "trigger": trigger,
                              "why": f"is not on the {slot} side of the build",
                              "why_ja": f"トリガーセットの {slot} 側にありません"})
        elif t is not None and t.option_of is not None:
            yield Hit(e.seq, {"player": e.player, "slot": slot, "trigger": trigger,
                              "why": f"is a dedicated option of {t.option_of}, not a trigger",
                              "why_ja": f"{t.option_of} の専用オプションで、単独ではセットできません"})


@rule(
    code="WT-SET-002",
    name="only-face-up-triggers-are-kept",
    severity=Severity.ERROR,
    citation=cite("■4 (前のターンにだしたトリガーのうち、表になっているものは手札に戻さなくても構いません)"),
    title=Text(ja="戻さずに残せるのは表向きのトリガーだけ", en="only a face-up trigger stays on the table"),
    message=Text(
        ja="{player} は {slot} 側の {trigger} を残しましたが、前のターンのそれは {was_ja} でした",
        en="{player} kept the {slot}-side {trigger}, but last turn's was {was}",
    ),
    on=(TriggersSet,),
    doc=Doc(
        checks=Text(
            ja="`wt.set.kept` に挙げた枠には、前のターンに同じトリガーが表向きで置かれていたこと。",
            en="A slot listed in `wt.set.kept` held the same trigger last turn, face up.",
        ),
        why=Text(
            ja="seed 002 ■4: 前のターンに出したトリガーは手札に戻すが、表になっているものは戻さなくてよい "
               "(表向きにするトリオンを節約できる)。裏向きのものは必ず戻し、改めて裏向きでセットする。",
            en="Seed 002 ■4: last turn's triggers return to hand; face-up ones may stay (saving their reveal trion). "
               "Face-down ones are always returned and set again face down.",
        ),
        bad=Text(
            ja='前のターンの シールド は裏向き; {"type":"wt.set",…,"sub":"シールド","kept":["sub"]}',
            en='last turn シールド face down; {"type":"wt.set",…,"sub":"シールド","kept":["sub"]}',
        ),
        good=Text(
            ja='前のターンの シールド は表向き; {"type":"wt.set",…,"sub":"シールド","kept":["sub"]}',
            en='last turn シールド revealed; {"type":"wt.set",…,"sub":"シールド","kept":["sub"]}',
        ),
    ),
)
def only_face_up_kept(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, TriggersSet)
    a = who(s)
    for slot in dict.fromkeys(e.kept):
        now = e.main if slot == "main" else e.sub
        before = a.set_main if slot == "main" else a.set_sub
        ev = {"player": e.player, "slot": slot, "trigger": now}
        if before != now:
            yield Hit(e.seq, {**ev, "was": f"{before} (another trigger)" if before else "empty",
                              "was_ja": f"別のトリガー {before}" if before else "空"})
        elif not face_up(a, slot):
            yield Hit(e.seq, {**ev, "was": "face down", "was_ja": "裏向き"})


@rule(
    code="WT-SET-003",
    name="triggers-set-once-each-turn-before-plots",
    severity=Severity.ERROR,
    citation=cite("■4 使用するトリガーの決定 (毎ターン、プロットの前に)"),
    title=Text(ja="毎ターン、プロット前に1回だけトリガーをセット", en="triggers are set once each turn, before the plots"),
    message=Text(
        ja="ターン {turn}: {player} のトリガーのセット{why_ja}",
        en="turn {turn}: {player}'s trigger set {why}",
    ),
    on=(TriggersSet, Plotted),
    doc=Doc(
        checks=Text(
            ja="各 `wt.order` の後、そのターンの最初の `wt.plot` より前に、両プレイヤーがちょうど 1 回ずつ `wt.set` "
               "を記録していること。",
            en="After each `wt.order`, both players record exactly one `wt.set` before the turn's first `wt.plot`.",
        ),
        why=Text(
            ja="seed 002 のゲームの流れ: 手順4 (トリガーを 2 枚セット) は毎ターン、先攻/後攻の決定 (3) と手番 (5、6) "
               "の間にある。",
            en="Seed 002 flow: step 4 (set two triggers) comes every turn between the order (3) and the turns (5, 6).",
        ),
        bad=Text(
            ja="wt.order turn 2, wt.set a, wt.plot (b がセットしていない)",
            en="wt.order turn 2, wt.set a, wt.plot (b never set)",
        ),
        good="wt.order turn 2, wt.set a, wt.set b, wt.plot",
    ),
)
def triggers_set_each_turn(s: Step) -> Iterable[Hit]:
    g = s.before.game
    e = s.event
    if isinstance(e, TriggersSet):
        a = agent(g, e.player)
        if g.turn and g.plots and not a.sets_this_turn:
            return  # already reported at the first plot as missing: one late set is one finding
        if g.turn == 0 or g.plots:
            yield Hit(e.seq, {"turn": g.turn, "player": e.player,
                              "why": "came outside the set step (after the plots began, or before any turn order)",
                              "why_ja": "がセットの手順の外 (プロット開始後、または先攻決定前) に行われました"})
        elif a.sets_this_turn:
            yield Hit(e.seq, {"turn": g.turn, "player": e.player, "why": "was recorded twice",
                              "why_ja": "が2回記録されています"})
    elif isinstance(e, Plotted) and not g.plots and g.turn:
        for player, a in g.agents.items():
            if a.sets_this_turn == 0:
                yield Hit(e.seq, {"turn": g.turn, "player": player, "why": "is missing before the first plot",
                                  "why_ja": "が最初のプロットの前にありません"})


@rule(
    code="WT-TURN-001",
    name="plots-follow-the-turn-order",
    severity=Severity.ERROR,
    citation=cite("■5 先攻プレイヤーの手番, ■6 後攻プレイヤーの手番"),
    title=Text(ja="手番は先攻、後攻の順に1回ずつ", en="the first player's turn, then the second's, once each"),
    message=Text(
        ja="ターン {turn} の {n} 回目のプロットの攻撃プレイヤーは {attacker} ですが、{expected_ja} のはずです",
        en="turn {turn}, plot {n}: the attacker is {attacker}, expected {expected}",
    ),
    on=(Plotted,),
    doc=Doc(
        checks=Text(
            ja="各ターンで、1 回目のプロットの攻撃プレイヤーが先攻プレイヤー、2 回目が後攻プレイヤーで、3 "
               "回目のプロットがないこと。",
            en="In each turn the first plot's attacker is the first player, the second plot's the second player, and "
               "there is no third plot.",
        ),
        why=Text(
            ja="seed 002 のゲームの流れ: 先攻/後攻の決定 (3) とトリガーのセット (4) の後に、先攻プレイヤーの手番 (5) "
               "と後攻プレイヤーの手番 (6) が来て、それから新たに先攻/後攻を決める。",
            en="Seed 002 flow: after the order (3) and the set (4) come the first player's turn (5) and the second "
               "player's (6), then a new order.",
        ),
        bad="wt.order first a; wt.plot attacker b",
        good="wt.order first a; wt.plot attacker a; …; wt.plot attacker b",
    ),
)
def plots_follow_turn_order(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, Plotted)
    g = s.before.game
    n = len(g.plots) + 1
    if g.first is None:
        yield Hit(e.seq, {"reason": "no wt.order before this plot: the turn order is unknown"}, undecided=True)
        return
    if n == 1:
        expected = expected_ja = g.first
    elif n == 2:
        expected = expected_ja = other(g, g.first) or "?"
    else:
        expected, expected_ja = "(nobody: both players already had their turn)", "(なし: 両者とも手番を終えています)"
    if e.attacker != expected:
        yield Hit(e.seq, {"turn": g.turn, "n": n, "attacker": e.attacker, "expected": expected,
                          "expected_ja": expected_ja})


@rule(
    code="WT-PLOT-001",
    name="tags-are-the-unblocked-plot-faces",
    severity=Severity.ERROR,
    citation=cite("■5 プロットを行い、行動タグを入手 (同じ目にプロットしていた場合、その目による行動タグの入手を防ぐ)"),
    title=Text(ja="入手タグ = 防御側に当てられなかった攻撃側の目", en="tags gained = attacker faces the defender did not match"),
    message=Text(
        ja="{player} の入手タグ {tags} は、シート {sheet} とプロット {attack} 対 {defence} からは {expected_ja} です",
        en="{player} recorded tags {tags}, but sheet {sheet} with plot {attack} vs {defence} gives {expected}",
    ),
    on=(TagsGained,),
    doc=Doc(
        checks=Text(
            ja="`wt.tags` が攻撃プレイヤーの `wt.plot` の後にあり、防御プレイヤーのどのプロットダイスとも目が一致しな"
               "かった攻撃側のダイスについて、プロットシートの行動タグを (重複を含めて) 並べていること。"
               "妨害は目の値で決まる: 防御側の 5 が 1 つあれば攻撃側の 5 を 2 つとも防ぎ、"
               "妨害されなかったゾロ目はタグを 2 つ与える。",
            en="`wt.tags` follows the attacker's `wt.plot` and lists, as a multiset, the sheet tag of each attacker "
               "die whose face no defender die shows. Blocking is by face value: one defender 5 blocks both attacker "
               "5s; an unblocked pair gives two tags.",
        ),
        why=Text(
            ja="seed 002 ■5: プロットダイスはそれぞれ、その目に対応した行動タグを与える。防御側のダイスが同じ目なら、"
               "その入手を防ぐ (例: 1,4 対 3,4 なら［移動］だけ、5,5 対 5,6 なら何もなし、妨害されない 5,5 "
               "なら［近距離戦］2 つ)。",
            en="Seed 002 ■5: each plot die gives the tag of its face; a defender die on the same face prevents it "
               "(examples: 1,4 vs 3,4 gives only [移動]; 5,5 vs 5,6 gives nothing; 5,5 unblocked gives two "
               "[近距離戦]).",
        ),
        bad=Text(
            ja='シート move,move,shooting,shooting,close,close; プロット 1,4 対 3,4; {"type":"wt.tags",'
               '"tags":["move","shooting"]}',
            en='sheet move,move,shooting,shooting,close,close; plot 1,4 vs 3,4; {"type":"wt.tags","tags":["move",'
               '"shooting"]}',
        ),
        good=Text(
            ja='シート move,move,shooting,shooting,close,close; プロット 1,4 対 3,4; {"type":"wt.tags",'
               '"tags":["move"]}',
            en='sheet move,move,shooting,shooting,close,close; plot 1,4 vs 3,4; {"type":"wt.tags","tags":["move"]}',
        ),
    ),
)
def tags_are_unblocked_faces(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, TagsGained)
    g = s.before.game
    if not agent(g, e.player).sheet:
        yield Hit(e.seq, {"reason": f"no wt.sheet of {e.player}: the tags cannot be checked"}, undecided=True)
    elif g.expected_tags is None or g.active != e.player:
        yield Hit(e.seq, {"player": e.player, "tags": e.tags, "sheet": "-", "attack": "-", "defence": "-",
                          "expected": "nothing (no plot of this player precedes it)",
                          "expected_ja": "なし (このプレイヤーのプロットが先にありません)"})
    elif Counter(e.tags) != Counter(g.expected_tags):
        yield Hit(e.seq, {"player": e.player, "tags": e.tags, "sheet": list(agent(g, e.player).sheet),
                          "attack": list(g.attack), "defence": list(g.defence), "expected": list(g.expected_tags),
                          "expected_ja": list(g.expected_tags)})


@rule(
    code="WT-ORDER-003",
    name="turns-numbered-consecutively",
    severity=Severity.WARNING,
    citation=cite("■7 (３～６を繰り返す); ■3 (先攻後攻は１ターンごとに決め直します)"),
    title=Text(ja="ターン番号は1から連番", en="turns are numbered 1, 2, 3 …"),
    message=Text(
        ja="wt.order のターン番号は {turn} ですが、{expected} のはずです",
        en="wt.order says turn {turn}, expected turn {expected}",
    ),
    on=(OrderDecided,),
    doc=Doc(
        checks=Text(
            ja="各 `wt.order` のターン番号が直前より 1 大きく、1 から始まること。",
            en="Each `wt.order` numbers its turn one more than the previous one, starting at 1.",
        ),
        why=Text(
            ja="seed 002 は 3〜6 をターンごとに繰り返し、毎ターン先攻後攻を決め直す。"
               "番号が飛んだり重なったりしていれば、ターンの記録が抜けているか二重になっている。",
            en="Seed 002 repeats steps 3–6 turn by turn, deciding the order anew each turn; a skipped or repeated "
               "number means a turn is missing from the record or recorded twice.",
        ),
        bad='{"type":"wt.order","turn":1,…} … {"type":"wt.order","turn":3,…}',
        good='{"type":"wt.order","turn":1,…} … {"type":"wt.order","turn":2,…}',
    ),
)
def turns_numbered_consecutively(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, OrderDecided)
    expected = s.before.game.turn + 1
    if e.turn != expected:
        yield Hit(e.seq, {"turn": e.turn, "expected": expected})


@rule(
    code="WT-TURN-002",
    name="both-players-take-their-turn",
    severity=Severity.ERROR,
    citation=cite("■5 先攻プレイヤーの手番, ■6 後攻プレイヤーの手番, ■7 (３～６を繰り返す)"),
    title=Text(ja="各ターン、両プレイヤーが手番を行う", en="each turn, both players take their turn"),
    message=Text(
        ja="ターン {turn} は {plots} 回のプロットで終わり、次の先攻決定に進みました: {missing} の手番がありません (両者の手番が必要)",
        en="turn {turn} had {plots} plot(s) before the next turn order: {missing} never took a turn (both players "
           "take a turn)",
    ),
    on=(OrderDecided,),
    doc=Doc(
        checks=Text(
            ja="新しい `wt.order` は、前のターンに両プレイヤーのプロットがあった後にだけ来ること。",
            en="A new `wt.order` comes only after the previous turn had both players' plots.",
        ),
        why=Text(
            ja="seed 002: 1 ターンは先攻/後攻の決定 (3)、セット (4)、先攻プレイヤーの手番 (5)、後攻プレイヤーの手番 "
               "(6) からなり、その後で初めて手順3 に戻る。",
            en="Seed 002: a turn is the order (3), the set (4), the first player's turn (5) and the second player's "
               "turn (6); only then does step 3 come again.",
        ),
        bad=Text(
            ja="wt.order turn 1; wt.plot a; … wt.order turn 2 (b が手番を行っていない)",
            en="wt.order turn 1; wt.plot a; … wt.order turn 2 (b never had its turn)",
        ),
        good="wt.order turn 1; wt.plot a; …; wt.plot b; … wt.order turn 2",
    ),
)
def both_players_take_their_turn(s: Step) -> Iterable[Hit]:
    g = s.before.game
    if g.turn > 0 and len(g.plots) < 2:
        missing = ", ".join(p for p in (g.first, g.second) if p is not None and p not in g.plots)
        yield Hit(s.event.seq, {"turn": g.turn, "plots": len(g.plots), "missing": missing or "?"})


RULES = (
    fewer_trion_goes_first,
    turns_numbered_consecutively,
    both_players_take_their_turn,
    tie_broken_at_random,
    set_one_main_and_one_sub,
    only_face_up_kept,
    triggers_set_each_turn,
    plots_follow_turn_order,
    tags_are_unblocked_faces,
)
