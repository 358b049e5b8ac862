"""Acceptance round 2 for the World Trigger 1v1 dice game (seed 002): whole matches.

Five long, realistic matches recorded the way docs/games/worldtrigger.md tells
a table to (both players, 4–6 turns, reveals, kept triggers, counters, a
counter's trigger used later in its owner's phase, moves walled by エスクード,
jumps and dodges, both copies of a trigger set on two sides, initial distance
clamped above 6 and below 1 with a table's own trigger, ties broken by janken
and by a coin, every non-default option; ends by bailout, by 0 trion, by the
last trion paid and by time), each clean; match 1 again as a minimal client
writes it; and each match again with ONE dispute injected deep inside, at a
known seq. The expected findings come from the seed, not from kifu.

Run ``PYTHONPATH=. python tests/acceptance/worldtrigger2/make.py`` to rebuild
the logs and ``cases.json`` byte for byte (no clock, no randomness).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE))

from table import C, M, S, Table  # noqa: E402

from kifu.events import logfile  # noqa: E402
from kifu.events.base import KifuError  # noqa: E402

MIXED = [M, M, S, S, C, C]
"""The seed's example sheet (■5): 1,2 移動, 3,4 射撃戦, 5,6 近距離戦."""
SHOOTER = [M, M, M, S, S, S]
"""■1 the beginner's sheet for gunner/shooter triggers."""
ATTACKER = [M, M, M, C, C, C]
"""■1 the beginner's sheet for attacker triggers."""


# ------------------------------------------------------------------ match 1: bailout


def osamu_vs_yuma(fault: str | None = None, minimal: bool = False) -> Table:
    """Six turns, 100 trion, a shooter against an attacker; 空閑 bails out."""
    k = Table(
        "m1-osamu-vs-yuma",
        "shooter v attacker, 6 turns, bailout",
        {"osamu": "三雲", "yuma": "空閑"},
        strict=fault is None,
        minimal=minimal,
    )
    a, b = "osamu", "yuma"
    k.prepare(
        a,
        ["アステロイド", "ハウンド", "メテオラ", "バイパー"],
        ["シールド", "バッグワーム", "グラスホッパー", "エスクード"],
        MIXED,
    )
    k.prepare(
        b,
        ["弧月", "旋空", "スコーピオン", "アステロイド"],
        ["シールド", "バッグワーム", "グラスホッパー", "スコーピオン"],
        ATTACKER,
    )
    k.deal()
    k.initial(4, [(a, 2)])  # 4 + 2 = 6; osamu pays 2 and so goes first
    # turn 1: osamu 98, yuma 100
    k.order(1)
    k.set(a, "アステロイド", "シールド")
    k.set(b, "弧月", "グラスホッパー")
    k.plot(a, [1, 3], [2, 5])  # [移動][射撃戦]
    if fault == "shot-out-of-range":
        u = k.hit(a, "アステロイド")  # at 6: アステロイド reaches 2–5
        k.expect("WT-USE-006", u)
        k.step(a, 5)
    else:
        k.step(a, 5)
        k.hit(a, "アステロイド")  # yuma 85
    k.plot(b, [1, 2], [3, 4])  # [移動][移動]
    k.jump(b, 4)
    if fault == "move-two-steps":
        u = k.raw("wt.move", by=b, player=b, to=2, tags=[M])
        k.passes(b, a)
        k.resolve(u)
        k.distance = 2
        k.expect("WT-MOVE-002", u)
    else:
        k.step(b, 3)
        k.step(b, 2)
    # turn 2: osamu 94, yuma 83
    k.order(2)
    if fault == "jump-face-down":
        k.set(b, "弧月", "グラスホッパー")  # not kept: back to the hand, face down
    else:
        k.set(b, "弧月", "グラスホッパー", kept=["sub"])
    if fault == "set-after-plot":
        # the ruling falls on the plot that opened ■5 while osamu had set nothing; his late set is the same slip
        k.expect("WT-SET-003", k.plot(b, [4, 5], [4, 1]) - 1)
        k.set(a, "ハウンド", "シールド")
    else:
        k.set(a, "ハウンド", "シールド")
    if fault == "set-after-plot":
        pass  # the plot is already recorded, before osamu's set
    elif fault == "tags-blocked-face-counted":
        k.raw("wt.plot", by=b, attacker=b, attack=[4, 5], defence=[4, 1])
        k.expect("WT-PLOT-001", k.raw("wt.tags", by=b, player=b, tags=[C, C]))
        k.tags[b] = [C]
    else:
        k.plot(b, [4, 5], [4, 1])  # 4 blocked: [近距離戦]
    if fault == "jump-face-down":
        k.strict = False
        u = k.use(b, "グラスホッパー", "跳躍", to=1, reveal=False)
        k.expect("WT-USE-001", u)
        k.passes(b, a)
        k.resolve(u)
    else:
        k.jump(b, 1)
    k.strict = fault is None
    u, c = k.blocked(b, "弧月", "斬撃", "シールド", "防御")
    k.plot(a, [1, 6], [6, 2])  # 6 blocked: [移動]
    k.step(a, 2)
    # turn 3: osamu 92, yuma 79
    if fault == "wrong-first-player":
        k.expect("WT-ORDER-001", k.raw("wt.order", by="judge", turn=3, first=a))
        k.used.clear()
        k.set(a, "アステロイド", "シールド", kept=["sub"])
        k.set(b, "弧月", "グラスホッパー", kept=["main", "sub"])
        k.plot(a, [3, 4], [5, 6])
        k.hit(a, "アステロイド")
        k.plot(b, [5, 6], [1, 2])
        k.hit(b, "弧月", "旋空")
    else:
        k.order(3)
        # after an unrevealed jump the card is still face down: only 弧月 may stay
        k.set(b, "弧月", "グラスホッパー", kept=["main"] if fault == "jump-face-down" else ["main", "sub"])
        k.set(a, "アステロイド", "シールド", kept=["sub"])
        k.plot(b, [5, 6], [1, 2])  # [近距離戦][近距離戦]
        k.hit(b, "弧月", "旋空")  # osamu 72
        k.plot(a, [3, 4], [5, 6])  # [射撃戦][射撃戦]
        k.hit(a, "アステロイド")  # yuma 62
        if fault == "second-use-same-card":
            k.strict = False
            k.expect("WT-USE-004", k.use(a, "アステロイド", "射撃"))
            k.raw("note", by=b, text="今のアステロイド、このフェイズ2回目では？ ジャッジ！")
            k.strict = True
    # turn 4: osamu 68, yuma 62 — both スコーピオン copies set
    k.order(4)
    k.set(b, "スコーピオン", "スコーピオン")
    k.set(a, "アステロイド", "シールド", kept=["main", "sub"])
    k.plot(b, [4, 6], [3, 5])  # [近距離戦][近距離戦]
    k.hit(b, "スコーピオン", "斬撃")  # the main copy: osamu 53
    if fault == "counter-before-declarer-asked":
        u = k.use(b, "スコーピオン", "斬撃")
        c = k.use(a, "シールド", "防御", counter=u)
        k.expect("WT-CTR-001", c)
        k.passes(a, b)
        k.resolve(c)
        k.resolve(u, cancelled=True)
    elif fault == "resolved-in-wrong-order":
        u = k.use(b, "スコーピオン", "斬撃")
        k.passes(b)
        c = k.use(a, "シールド", "防御", counter=u)
        k.passes(a, b)
        k.expect("WT-CTR-002", k.resolve(u, cancelled=True))
        k.resolve(c)
    else:
        u, c = k.blocked(b, "スコーピオン", "斬撃", "シールド", "防御")  # the sub copy, shielded
    if fault == "damage-from-shielded-slash":
        k.expect("WT-TRION-002", k.damage(a, 15, u))
    k.plot(a, [2, 4], [4, 1])  # [移動]
    k.step(a, 3)
    # turn 5: osamu 52, yuma 58
    k.order(5)
    k.set(a, "メテオラ", "エスクード")
    k.set(b, "スコーピオン", "スコーピオン", kept=["main", "sub"])
    k.plot(a, [3, 4], [1, 5])
    k.hit(a, "メテオラ")  # yuma 33
    k.plot(b, [1, 5], [5, 6])  # [移動]
    if fault == "move-paid-with-close-tag":
        k.strict = False
        u = k.raw("wt.move", by=b, player=b, to=2, tags=[C])
        k.expect("WT-MOVE-001", u)
        k.passes(b)
        c = k.use(a, "エスクード", "防壁", counter=u)
        k.passes(a, b)
        k.resolve(c)
        k.resolve(u, cancelled=True)
    else:
        k.blocked(b, None, 2, "エスクード", "防壁")  # the move is walled off
    # turn 6: osamu 40, yuma 33
    k.order(6)
    k.set(b, "弧月", "グラスホッパー")
    k.set(a, "アステロイド", "シールド")
    k.plot(k.first, [4, 5], [4, 5])  # everything blocked
    bail = k.raw("wt.bailout", by=b, player=b)
    if fault == "play-after-bailout":
        k.expect("WT-END-001", k.raw("wt.plot", by=a, attacker=a, attack=[3, 4], defence=[1, 2]))
    if fault == "winner-is-the-bailer":
        k.expect("WT-END-002", k.end(b, "bailout"))
    else:
        k.end(a, "bailout")
    assert bail
    return k


# ------------------------------------------------------------------ match 2: 0 trion


def nino_vs_kage(fault: str | None = None) -> Table:
    """A 40-trion short game: both use バッグワーム (clamped), janken ties, ends at 0 trion."""
    rules = None if fault == "forty-without-rule" else {"starting_trion": 40}
    k = Table(
        "m2-nino-vs-kage",
        "short 40-trion game, both bagworms, ends at 0 trion",
        {"nino": "二宮", "kage": "影浦"},
        rules=rules,
        strict=fault is None,
    )
    a, b = "nino", "kage"
    k.prepare(
        a,
        ["アステロイド", "ハウンド", "バイパー", "メテオラ"],
        ["アステロイド", "シールド", "バッグワーム", "エスクード"],
        SHOOTER,
    )
    k.prepare(
        b,
        ["スコーピオン", "レイガスト", "スラスター", "アステロイド"],
        ["スコーピオン", "シールド", "グラスホッパー", "バッグワーム"],
        [M, M, C, C, S, C],
    )
    k.deal(40)
    if fault == "forty-without-rule":
        k.expect("WT-TRION-001", 6)  # one starting trion, dealt to both: one finding, both seqs
    if fault == "bagworm-second-player-first":
        k.raw("wt.init.roll", by=a, value=3)
        k.raw("wt.init.use", by=b, player=b, trigger="バッグワーム", effect="潜伏", delta=2, trion=2)
        k.expect(
            "WT-INIT-002", k.raw("wt.init.use", by=a, player=a, trigger="バッグワーム", effect="潜伏", delta=2, trion=2)
        )
        k.trion = {a: 38, b: 38}
        k.distance = 6
        k.raw("wt.init.set", by="judge", distance=6)
    elif fault == "initial-not-clamped":
        k.raw("wt.init.roll", by=a, value=3)
        for p in (a, b):
            k.raw("wt.init.use", by=p, player=p, trigger="バッグワーム", effect="潜伏", delta=2, trion=2)
        k.trion = {a: 38, b: 38}
        k.distance = 6
        k.expect("WT-INIT-001", k.raw("wt.init.set", by="judge", distance=7))
    else:
        k.initial(3, [(a, 2), (b, 2)])  # 3 + 2 + 2 = 7 → 6
    # turn 1: 38 v 38, nino wins the janken
    if fault == "tie-without-method":
        k.expect("WT-ORDER-002", k.raw("wt.order", by="judge", turn=1, first=a))
    else:
        k.order(1, janken=a)
    k.set(a, "アステロイド", "アステロイド")
    k.set(b, "スコーピオン", "グラスホッパー")
    k.plot(a, [1, 4], [2, 3])  # [移動][射撃戦]
    k.step(a, 5)
    k.hit(a, "アステロイド")  # kage 23
    k.plot(b, [1, 3], [3, 6])  # 3 blocked: [移動]
    k.step(b, 4)
    # turn 2: nino 34, kage 23
    k.order(2)
    k.set(b, "スコーピオン", "グラスホッパー")
    k.set(a, "アステロイド", "シールド", kept=["main"])
    k.plot(b, [2, 4], [5, 6])  # [移動][近距離戦]
    k.jump(b, 3)
    k.step(b, 2)
    k.blocked(b, "スコーピオン", "斬撃", "シールド", "防御")
    k.plot(a, [4, 6], [4, 1])  # 4 blocked: [射撃戦]
    k.hit(a, "アステロイド")  # kept face up: no reveal; kage 4
    # turn 3: nino 30, kage 4
    if fault == "turn-number-skipped":
        k.expect("WT-ORDER-003", k.order(4))
    else:
        k.order(3)
    k.set(b, "スコーピオン", "グラスホッパー", kept=["main", "sub"])
    k.set(a, "アステロイド", "シールド", kept=["main", "sub"])
    k.plot(b, [3, 5], [1, 2])  # [近距離戦][射撃戦]
    k.hit(b, "スコーピオン", "斬撃")  # nino 15
    if fault == "shot-with-unset-trigger":
        u = k.raw("wt.use", by=b, player=b, trigger="アステロイド", effect="射撃", trion=2, tags=[S])
        k.expect("WT-USE-002", u)
        k.passes(b, a)
        k.resolve(u)
    k.plot(a, [4, 5], [4, 5])  # all blocked: []
    # turn 4: kage 4, nino 15
    k.order(5 if fault == "turn-number-skipped" else 4)
    k.set(b, "スコーピオン", "グラスホッパー", kept=["main", "sub"])
    k.set(a, "アステロイド", "シールド", kept=["main", "sub"])
    k.plot(b, [3, 4], [3, 4])  # all blocked: []
    k.plot(a, [5, 6], [3, 1])  # [射撃戦][射撃戦]
    u = k.use(a, "アステロイド", "射撃")
    k.passes(a, b)
    k.resolve(u)
    k.damage(b, 15, u)  # kage 4 − 15: 0
    if fault == "played-on-at-zero":
        k.expect("WT-END-001", k.raw("wt.bailout", by=b, player=b))
    k.end(a, "trion")
    return k


# ------------------------------------------------------------------ match 3: time


def mido_vs_kitora(fault: str | None = None) -> Table:
    """Four turns and time called: 弧月+旋空, two アステロイド, エスクード against moves, notes and a ruling."""
    k = Table(
        "m3-mido-vs-kitora",
        "all-rounder v shooter, time called after turn 4",
        {"midorikawa": "緑川", "kitora": "木虎"},
        strict=fault is None,
    )
    a, b = "midorikawa", "kitora"
    k.prepare(
        a,
        ["弧月", "旋空", "アステロイド", "ハウンド"],
        ["アステロイド", "シールド", "グラスホッパー", "バッグワーム"],
        MIXED,
    )
    k.prepare(
        b,
        ["レイガスト", "スラスター", "バイパー", "メテオラ"],
        ["シールド", "エスクード", "グラスホッパー", "バッグワーム"],
        [M, M, S, S, S, C],
    )
    k.deal()
    k.initial(2)
    k.raw("note", by=b, text="じゃんけんで木虎の勝ち、先攻")
    k.order(1, janken=b)
    k.set(b, "レイガスト", "シールド")
    k.set(a, "アステロイド", "アステロイド")
    k.plot(b, [1, 6], [6, 3])  # 6 blocked: [移動]
    k.step(b, 1)
    k.plot(a, [1, 3], [5, 6])  # [移動][射撃戦]
    k.step(a, 2)
    k.hit(a, "アステロイド")  # the main copy; kitora 85
    # turn 2: midorikawa 96, kitora 85
    k.order(2)
    k.set(b, "バイパー", "エスクード")
    if fault == "kept-face-down-copy":
        k.expect(
            "WT-SET-002", k.raw("wt.set", by=a, player=a, main="アステロイド", sub="アステロイド", kept=["main", "sub"])
        )
        k.slots[a]["sub"] = ("アステロイド", True)
    else:
        k.set(a, "アステロイド", "アステロイド", kept=["main"])
    k.plot(b, [3, 4], [1, 2])
    k.hit(b, "バイパー")  # midorikawa 84
    k.plot(a, [3, 4], [1, 5])
    k.hit(a, "アステロイド")  # kitora 64
    if fault == "resolved-before-other-asked":
        k.strict = False
        u = k.use(a, "アステロイド", "射撃")
        k.passes(a)
        c = k.use(b, "エスクード", "防壁", counter=u)
        k.passes(b)
        k.expect("WT-CTR-003", k.resolve(c))
        k.resolve(u, cancelled=True)
        k.strict = True
    else:
        k.blocked(a, "アステロイド", "射撃", "エスクード", "防壁")  # the sub copy, walled
    # turn 3: midorikawa 78, kitora 59
    k.order(3)
    k.set(b, "メテオラ", "エスクード", kept=["sub"])
    k.set(a, "弧月", "シールド")
    k.plot(b, [1, 5], [2, 6])  # [移動][射撃戦]
    k.step(b, 3)
    if fault != "second-turn-skipped":
        k.plot(a, [5, 6], [1, 2])  # [近距離戦][近距離戦]
        if fault == "reveal-underpaid":
            k.expect("WT-REVEAL-001", k.raw("wt.reveal", by=a, player=a, trigger="弧月", trion=2))
            k.slots[a]["main"] = ("弧月", True)
            k.trion[a] -= 2
        k.hit(a, "弧月", "旋空")  # 1–3 with the option built; kitora 39
    # turn 4: midorikawa 73, kitora 39
    order4 = k.order(4)
    if fault == "second-turn-skipped":
        k.expect("WT-TURN-002", order4)
    k.set(b, "メテオラ", "エスクード", kept=["sub"])
    k.set(a, "弧月", "グラスホッパー", kept=["main"] if fault != "second-turn-skipped" else [])
    k.plot(b, [3, 4], [5, 6])
    if fault == "meteora-underpaid":
        k.face_up(b, "main")
        u = k.raw("wt.use", by=b, player=b, trigger="メテオラ", effect="射撃", trion=3, tags=[S, S])
        k.passes(b, a)
        k.resolve(u)
        # ■5 step 2: a cost not paid, no effect; the damage recorded follows from it (one finding)
        k.expect("WT-USE-003", u, consequences=[k.damage(a, 25, u)])
    else:
        k.hit(b, "メテオラ")  # midorikawa 48
    k.plot(a, [1, 5], [2, 3])  # [移動][近距離戦]
    k.blocked(a, None, 2, "エスクード", "防壁")
    k.jump(a, 2)
    if fault == "slash-out-of-range":
        k.strict = False
        u = k.hit(a, "弧月", "斬撃")  # 斬撃 reaches 1 only
        k.expect("WT-USE-006", u)
        k.strict = True
    # turn 5: time is called during the sets
    k.order(5)
    k.set(b, "メテオラ", "エスクード", kept=["main", "sub"])
    if fault == "two-main-side-triggers":
        k.expect("WT-SET-001", k.raw("wt.set", by=a, player=a, main="弧月", sub="ハウンド"))
    else:
        k.set(a, "ハウンド", "シールド")
    k.raw("note", by="judge", text="時間切れ。勝者なし")
    k.end(None, "time")
    return k


# ------------------------------------------------------------------ match 4: the last trion paid


SPIDER = {
    "スパイダー": {
        "side": "sub",
        "reveal": 0,
        "effects": {"張り巡らす": {"timing": "initial", "kind": "other", "trion": 1, "shift": [-2, 0]}},
    }
}
"""The table's own trigger (match.start.catalogue): an initial-distance effect that closes in."""


def murakami_vs_karasuma(fault: str | None = None) -> Table:
    """60 trion, the table's own スパイダー (clamped below 1), shields from レイガスト, a dodge, 5-5 plots,
    a defender plotting a pair, and a loss by paying the last trion."""
    k = Table(
        "m4-murakami-vs-karasuma",
        "attacker v all-rounder, own catalogue, ends on the last trion paid",
        {"murakami": "村上", "karasuma": "烏丸"},
        rules={"starting_trion": 60},
        catalogue=SPIDER,
        strict=fault is None,
    )
    a, b = "murakami", "karasuma"
    k.prepare(
        a,
        ["レイガスト", "スラスター", "弧月", "旋空"],
        ["シールド", "グラスホッパー", "バッグワーム", "エスクード"],
        [M, M, C, C, C, C],
    )
    k.prepare(
        b,
        ["アステロイド", "スコーピオン", "メテオラ", "ハウンド"],
        ["シールド", "グラスホッパー", "スパイダー", "アステロイド"],
        MIXED,
    )
    k.deal(60)
    k.raw("wt.init.roll", by=a, value=2)  # karasuma alone uses an initial effect: he is turn 1's first
    if fault == "shift-beyond-range":
        k.expect(
            "WT-INIT-003",
            k.raw("wt.init.use", by=b, player=b, trigger="スパイダー", effect="張り巡らす", delta=-3, trion=1),
        )
    else:
        k.raw("wt.init.use", by=b, player=b, trigger="スパイダー", effect="張り巡らす", delta=-2, trion=1)
    k.trion[b] -= 1
    k.distance = 1
    k.raw("wt.init.set", by="judge", distance=1)  # 2 − 2 = 0, clamped to 1
    # turn 1: karasuma 59 (paid for スパイダー) goes first
    k.order(1)
    k.set(b, "スコーピオン", "シールド")
    k.set(a, "レイガスト", "グラスホッパー")
    k.plot(b, [5, 5], [4, 6])  # the seed's 5-5: two [近距離戦]
    if fault == "counter-asked-in-wrong-order":
        u = k.use(b, "スコーピオン", "斬撃")
        k.passes(b)
        c = k.use(a, "レイガスト", "シールドモード", counter=u)
        k.expect("WT-CTR-001", k.next_seq)  # karasuma answers before murakami, who just declared
        k.passes(b, a)
        k.resolve(c)
        k.resolve(u, cancelled=True)
    else:
        k.blocked(b, "スコーピオン", "斬撃", "レイガスト", "シールドモード")
    k.plot(a, [3, 4], [3, 3])  # a defender's pair blocks one face: [近距離戦]
    k.hit(a, "レイガスト", "斬撃")  # face up since the counter: no new reveal
    # turn 2
    k.order(2)
    k.set(b, "スコーピオン", "グラスホッパー", kept=["main"])
    k.set(a, "レイガスト", "グラスホッパー", kept=["main"])
    k.plot(b, [1, 2], [5, 6])  # [移動][移動]
    k.step(b, 2)
    k.jump(b, 3)
    k.step(b, 4)
    k.plot(a, [1, 2], [3, 4])  # [移動][移動]
    k.jump(a, 3)
    k.step(a, 2)
    k.step(a, 1)
    # turn 3: karasuma 40, murakami 54 — both アステロイド copies set
    k.order(3)
    k.set(b, "アステロイド", "アステロイド")
    k.set(a, "弧月", "グラスホッパー", kept=["sub"])
    k.plot(b, [1, 3], [5, 6])  # [移動][射撃戦]
    k.step(b, 2)
    k.hit(b, "アステロイド")
    k.plot(a, [5, 6], [1, 2])  # [近距離戦][近距離戦]
    k.hit(a, "弧月", "旋空")  # 旋空 reaches 1–3 with the option built
    # turn 4
    k.order(4)
    k.set(b, "アステロイド", "シールド", kept=["main"])
    k.set(a, "弧月", "グラスホッパー", kept=["main", "sub"])
    k.plot(b, [3, 4], [3, 4])  # all blocked: the tags line is still written, []
    k.plot(a, [5, 1], [2, 3])  # dice in any order: [近距離戦][移動]
    k.step(a, 1)
    k.blocked(a, "弧月", "斬撃", "シールド", "防御")
    # turn 5
    k.order(5)
    k.set(b, "アステロイド", "グラスホッパー", kept=["main"])
    k.set(a, "弧月", "グラスホッパー", kept=["main", "sub"])
    k.plot(b, [1, 4], [5, 6])
    k.step(b, 2)
    k.hit(b, "アステロイド")
    k.plot(a, [1, 5], [3, 4])
    k.step(a, 1)
    k.blocked(a, "弧月", "斬撃", "グラスホッパー", "回避", to=2)  # dodged: 回避 moves b away first
    # turn 6
    k.order(6)
    k.set(b, "メテオラ", "シールド")
    k.set(a, "弧月", "シールド", kept=["main"])
    k.plot(b, [3, 4], [5, 6])
    k.blocked(b, "メテオラ", "射撃", "シールド", "防御")
    k.plot(a, [5, 6], [1, 2])
    u = k.use(a, "弧月", "旋空")
    k.passes(a)
    last = k.use(b, "シールド", "防御", counter=u)  # karasuma pays the last trion: 0, and loses (■7)
    assert k.trion[b] == 0, k.trion
    if fault == "played-on-after-last-trion":
        k.passes(b)
        k.expect("WT-END-001", k.next_seq - 1)
        k.passes(a)
        k.resolve(last)
        k.resolve(u, cancelled=True)
    k.end(a, "trion")
    return k


# ------------------------------------------------------------------ match 5: every option set

OPTIONS = {"initial_order": "seat", "counter_first": "initiator", "use_limit": "trigger", "tags_expire": "phase"}
"""A table that settled each ambiguity of seed 002 the other way from kifu's defaults."""


def ikoma_vs_mizukami(fault: str | None = None) -> Table:
    """Four turns under non-default options; time is called. Under the defaults the same play breaks ■2 and ■5."""
    rules = {} if fault == "same-play-default-options" else dict(OPTIONS)
    k = Table(
        "m5-ikoma-vs-mizukami",
        "a table's own options: seat order, initiator asked first, per-trigger limit",
        {"ikoma": "生駒", "mizukami": "水上"},
        rules=rules or None,
        strict=fault is None,
    )
    a, b = "ikoma", "mizukami"
    k.prepare(
        a,
        ["弧月", "旋空", "スコーピオン", "アステロイド"],
        ["シールド", "グラスホッパー", "バッグワーム", "エスクード"],
        [M, M, S, C, C, C],
    )
    k.prepare(
        b,
        ["アステロイド", "ハウンド", "バイパー", "メテオラ"],
        ["シールド", "バッグワーム", "グラスホッパー", "ハウンド"],
        SHOOTER,
    )
    k.deal()
    if fault == "seat-order-broken":
        k.raw("wt.init.roll", by=a, value=3)
        k.raw("wt.init.use", by=b, player=b, trigger="バッグワーム", effect="潜伏", delta=1, trion=2)
        k.expect(
            "WT-INIT-002", k.raw("wt.init.use", by=a, player=a, trigger="バッグワーム", effect="潜伏", delta=2, trion=2)
        )
        k.trion = {a: 98, b: 98}
        k.distance = 6
        k.raw("wt.init.set", by="judge", distance=6)
    else:
        k.initial(3, [(a, 2), (b, 1)])  # seat order: ikoma (seat 1) first, though mizukami wins turn 1
        if fault == "same-play-default-options":
            k.expect("WT-INIT-002", k.next_seq - 2)
    # turn 1: 98 v 98, mizukami wins the janken
    k.order(1, janken=b)
    k.set(b, "ハウンド", "シールド")
    k.set(a, "弧月", "シールド")
    k.plot(b, [4, 5], [1, 2])
    if fault == "latest-asked-first":
        u = k.use(b, "ハウンド", "射撃")
        k.passes(b)
        c = k.use(a, "シールド", "防御", counter=u)
        k.expect("WT-CTR-001", k.next_seq)  # the chain's opener, mizukami, is asked first
        k.passes(a, b)
        k.resolve(c)
        k.resolve(u, cancelled=True)
    else:
        u, c = k.blocked(b, "ハウンド", "射撃", "シールド", "防御", initiator_first=True)
        if fault == "same-play-default-options":
            k.expect("WT-CTR-001", c + 1)
    k.plot(a, [1, 2], [3, 6])  # [移動][移動]
    k.step(a, 5)
    k.step(a, 4)
    # turn 2: ikoma 96, mizukami 94
    k.order(2)
    k.set(b, "ハウンド", "シールド", kept=["main"])
    k.set(a, "弧月", "グラスホッパー")
    k.plot(b, [3, 4], [5, 6])  # 3 is 移動 on the shooter's sheet: [移動][射撃戦]
    k.hit(b, "ハウンド")
    k.plot(a, [5, 6], [1, 2])  # [近距離戦][近距離戦]
    k.jump(a, 3)
    u, c = k.blocked(a, "弧月", "旋空", "シールド", "防御", initiator_first=True)
    if fault == "same-play-default-options":
        k.expect("WT-CTR-001", c + 1)
    # turn 3
    k.order(3)
    k.set(a, "弧月", "グラスホッパー", kept=["main", "sub"])
    k.set(b, "ハウンド", "ハウンド", kept=["main"])
    k.plot(a, [1, 4], [5, 6])  # [移動][近距離戦]
    k.jump(a, 2)
    k.step(a, 1)
    k.hit(a, "弧月", "斬撃")  # one effect of 弧月 this phase: within the per-trigger limit
    k.plot(b, [1, 5], [2, 3])  # [移動][射撃戦]
    k.step(b, 2)
    k.hit(b, "ハウンド")
    # turn 4: 73 v 73 mid-match, a coin decides
    k.order(4, janken=a, method="coin")
    k.set(a, "スコーピオン", "シールド")
    k.set(b, "ハウンド", "ハウンド", kept=["main"])
    k.plot(a, [3, 5], [1, 2])  # [射撃戦][近距離戦]
    k.hit(a, "スコーピオン", "斬撃")
    k.raw("note", by="judge", text="時間切れ")
    k.end(None, "time")
    return k


MATCHES: dict[str, Callable[..., Table]] = {
    "m1": osamu_vs_yuma,
    "m2": nino_vs_kage,
    "m3": mido_vs_kitora,
    "m4": murakami_vs_karasuma,
    "m5": ikoma_vs_mizukami,
}
DISPUTES: list[tuple[str, str, str]] = [
    ("m1", "shot-out-of-range", "■5 a shot at distance 6 with a 2–5 trigger (turn 1)"),
    ("m1", "move-two-steps", "■5 a move of two steps on one [移動] tag (turn 1)"),
    ("m1", "jump-face-down", "■5 step 1 a jump with a trigger set again without kept, never revealed (turn 2)"),
    ("m1", "set-after-plot", "■4 the second player's set recorded after the first player's plot (turn 2)"),
    ("m1", "tags-blocked-face-counted", "■5 the tags count a face the defender blocked (turn 2)"),
    ("m1", "wrong-first-player", "■3 the player with more trion went first (turn 3)"),
    ("m1", "second-use-same-card", "■5 one set アステロイド used twice in one tactics phase (turn 3)"),
    ("m1", "counter-before-declarer-asked", "■5 step 3 a shield declared before the slasher was asked (turn 4)"),
    ("m1", "resolved-in-wrong-order", "■5 step 3 the slash applied before the shield declared after it (turn 4)"),
    ("m1", "damage-from-shielded-slash", "■5 step 3 damage recorded for a shielded slash (turn 4)"),
    ("m1", "move-paid-with-close-tag", "■5 a move paid with a [近距離戦] tag (turn 5)"),
    ("m1", "play-after-bailout", "■7 play goes on after the bailout"),
    ("m1", "winner-is-the-bailer", "■7 the one who bailed out is named winner"),
    ("m2", "forty-without-rule", "■1 40 trion dealt with no starting_trion rule"),
    ("m2", "bagworm-second-player-first", "■2 the second player's バッグワーム used before the first player's"),
    ("m2", "initial-not-clamped", "■2 3+2+2 recorded as 7, not clamped to 6"),
    ("m2", "tie-without-method", "■3 38 v 38 with no fair method recorded"),
    ("m2", "shot-with-unset-trigger", "■5 a shot with アステロイド, built but not set this turn (turn 3)"),
    ("m2", "played-on-at-zero", "■7 a bailout recorded after trion reached 0"),
    ("m3", "kept-face-down-copy", "■4 the never-revealed sub アステロイド kept (turn 2)"),
    ("m3", "resolved-before-other-asked", "■5 step 3 a wall applied before the shooter declined (turn 2)"),
    ("m3", "slash-out-of-range", "■5 a 弧月 斬撃 at distance 2 (turn 4)"),
    ("m3", "two-main-side-triggers", "■4 two main-side triggers set (turn 5)"),
    ("m3", "second-turn-skipped", "■6 midorikawa's turn 3 never played: turn 4 ordered after kitora's alone"),
    ("m3", "reveal-underpaid", "■5 step 1 弧月 revealed paying 2, its reveal costs 3 (turn 3)"),
    ("m3", "meteora-underpaid", "■5 step 2 メテオラ paid 3 of its 4 trion, and its damage recorded (turn 4)"),
    ("m2", "turn-number-skipped", "■3/■7 turns numbered 1, 2, 4, 5"),
    ("m4", "shift-beyond-range", "■2 the table's own スパイダー (shift −2…0) recorded as −3"),
    ("m4", "counter-asked-in-wrong-order", "■5 step 3 after a counter, its declarer is asked first (turn 1)"),
    ("m4", "played-on-after-last-trion", "■7 the chain played on after karasuma paid his last trion (turn 6)"),
    ("m5", "seat-order-broken", "■2 with initial_order=seat, the second seat's バッグワーム came first"),
    ("m5", "latest-asked-first", "■5 step 3 with counter_first=initiator, the counter's declarer asked first (turn 1)"),
    ("m5", "same-play-default-options", "the options matter: m5's clean play under kifu's defaults breaks ■2 and ■5"),
]


def tables() -> list[Table]:
    out = [fn() for fn in MATCHES.values()]
    lean = osamu_vs_yuma(minimal=True)
    lean.name, lean.about = (
        "m1-minimal-client",
        "match 1 by a minimal client: no at, no by, wt.resolve only after counters",
    )
    lean.start["match"] = lean.name
    out.append(lean)
    for match, fault, about in DISPUTES:
        t = MATCHES[match](fault)
        t.name = f"{match}-{fault}"
        t.about = about
        t.start["match"] = t.name
        assert t.expected, t.name
        out.append(t)
    return out


def write(t: Table) -> dict[str, object]:
    path = HERE / f"{t.name}.jsonl"
    path.unlink(missing_ok=True)
    start, events = t.lines()
    logfile.create(path, start)
    refused = None
    with logfile.Writer(path) as w:
        for ev in events:
            try:
                w.append(ev)
            except KifuError as exc:  # a line the docs call valid, refused: the test reports it
                refused = f"seq {w.head.seq + 1}: {exc}"
                break
    case: dict[str, object] = {"about": t.about, "expected": sorted(t.expected, key=lambda f: (f["seq"], f["code"]))}
    if refused:
        case["refused_when_written"] = refused
    return case


def main() -> None:
    for old in HERE.glob("*.jsonl"):
        old.unlink()
    made = tables()
    for t in made:
        if t.slips:
            print(t.name, t.slips)
    cases = {f"{t.name}.jsonl": write(t) for t in made}
    text = json.dumps(cases, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    (HERE / "cases.json").write_text(text, encoding="utf-8")
    print(f"{len(cases)} cases written to {HERE}")


if __name__ == "__main__":
    main()
