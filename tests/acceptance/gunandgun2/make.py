"""Second acceptance round for ガンナガン with the coin-toss variant (seed 000): whole matches and base checks.

Written from seed 000, reference/gunandgun.md, docs/format.md and docs/games/gunandgun.md only,
the way a scorekeeper at the table records play (``table.py`` keeps the counts). The first
round (tests/acceptance/gunandgun/) covered the seed's rulings one by one; this round covers
complete matches that must audit clean, the base-game checks, multi-gun loads, turn-start
groups and every documented option.

Run ``PYTHONPATH=. python tests/acceptance/gunandgun2/make.py`` to rebuild the logs and
``cases.json`` byte for byte (no clock, no randomness).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any
from collections.abc import Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True

from table import A, B, Table, n_of  # noqa: E402

from kifu.events import logfile  # noqa: E402
from kifu.events.base import KifuError  # noqa: E402

CASES: list[Callable[[], Table]] = []


def case(fn: Callable[[], Table]) -> Callable[[], Table]:
    CASES.append(fn)
    return fn


def shot_with_damage(t: Table, p: str, shot: str, gun: str, extra: int = 0) -> int:
    """A shot nobody answers: declared, then the HIT row's damage (plus ``extra``) dealt."""
    _, hit = t.shoot(p, shot, gun)
    return t.damage(t_other(p), hit + extra, shot=shot)


def t_other(p: str) -> str:
    return B if p == A else A


# == complete matches that must audit clean ===========================================


@case
def match_life_zero() -> Table:
    """キルコ (ドドメ/カサネ) against ナトリ (ヌエ/ハクメン), seven turns, ends at life 0."""
    t = Table(
        "match-life-zero",
        "a full match ending at life 0: shots, RECOIL, RECOVER, ヌエ's turn-end load, "
        "リロード・サポーター, 緊急回避 and 整息 declared, 突貫, 起死回生, マキシマムリロード over two guns, "
        "グッドメディスン, a refill with the hand already above 札",
    )
    t.setup(
        ("キルコ", ["ドドメ", "カサネ"], "マキシマムリロード"), ("ナトリ", ["ヌエ", "ハクメン"], "グッドメディスン")
    )
    # turn 1, aoi: three loads and a shot
    t.turn(A)
    t.load(A, "ドドメ", 3)
    shot_with_damage(t, A, "s1", "ドドメ")  # 5 HIT: ren 25
    t.end(A, deck="カサネ")
    # turn 2, ren: a function, a set response, one load into each gun
    t.turn(B)
    t.function(B, "f1", "リロード・サポーター", 1)
    t.set_response(B, "r1", "緊急回避")
    t.load(B, "ヌエ")
    t.load(B, "ハクメン")
    t.end(B)
    # turn 3, aoi: 突貫 (N=2: draw 2, 2 HIT to herself), カサネ shot answered by 緊急回避
    t.turn(A)
    t.action(A, "a1", "突貫", 0, "sso", values=[2, 2])
    t.draw(A, "カサネ", 2, act="a1")
    t.damage(A, 2, act="a1", by=A)
    t.load(A, "カサネ", 3)
    t.load(A, "ドドメ", 2)
    _, hit = t.shoot(A, "s2", "カサネ")  # 3 loads: 6 HIT, RECOIL3
    t.respond(B, "r1", against="s2")
    t.toss(B, "r1", "so")
    t.resolve(B, "r1", 1, values=[1])
    t.hit(B, "s2", "response", -1, act="r1")
    t.damage(B, hit - 1, shot="s2")  # ren 20
    t.ability(A, "g1", "gun", "カサネ")
    t.damage(A, 3, act="g1", by=A)  # RECOIL3: aoi 25
    shot_with_damage(t, A, "s3", "ドドメ")  # 2 loads: 3 HIT, ren 17
    t.end(A, deck="カサネ")
    # turn 4, ren: リロード・サポーター's first turn-start toss; ハクメン shot with RECOVER
    t.turn(B)
    t.group(B, "g1", "function", "sso", card="リロード・サポーター")
    t.load(B, "ヌエ")
    t.load(B, "ハクメン")
    _, hit = t.shoot(B, "s4", "ハクメン")  # 2 loads: 2 HIT
    t.damage(A, hit, shot="s4")  # aoi 23
    t.ability(B, "g2", "gun", "ハクメン")
    t.heal(B, hit, act="g2")  # RECOVER: ren 19
    t.set_response(B, "r2", "整息")
    t.refill(B, deck="ハクメン")
    t.resolve(B, "g1", 2, values=[2])
    t.load(B, "ヌエ", 2, zone="deck", deck="ヌエ", how="effect", act="g1")
    t.ability(B, "g3", "gun", "ヌエ")  # ren 19 < aoi 23: ヌエ loads 1
    t.load(B, "ヌエ", 1, zone="deck", deck="ヌエ", how="effect", act="g3")
    t.close(B)
    # turn 5, aoi: マキシマムリロード (N=2) into both guns, then two shots
    t.turn(A)
    t.skill(A, "k1", "マキシマムリロード", 6)
    t.toss(A, "k1", "sso")
    t.resolve(A, "k1", 2, values=[2])
    t.load(A, "ドドメ", 2, zone="deck", deck="ドドメ", how="effect", act="k1")
    t.load(A, "カサネ", 2, zone="deck", deck="カサネ", how="effect", act="k1")
    t.load(A, "ドドメ", 2)
    t.load(A, "カサネ", 1)
    _, hit = t.shoot(A, "s5", "ドドメ")  # 4 loads: 7 HIT
    t.respond(B, "r2", against="s5")
    t.toss(B, "r2", "ssso")
    t.resolve(B, "r2", 3, values=[3, 3], measured=7, holds=True)
    t.draw(B, "ハクメン", 3, act="r2")
    t.damage(B, hit, shot="s5")  # ren 12
    _, hit = t.shoot(A, "s6", "カサネ")  # 3 loads: 6 HIT
    t.damage(B, hit, shot="s6")  # ren 6
    t.ability(A, "g4", "gun", "カサネ")
    t.damage(A, 3, act="g4", by=A)  # aoi 20
    t.end(A, deck="ドドメ")
    # turn 6, ren: N=0 for リロード・サポーター; ヌエ at 5; グッドメディスン; hand already over 札
    t.turn(B)
    t.group(B, "g5", "function", "o", card="リロード・サポーター")
    shot_with_damage(t, B, "s7", "ヌエ")  # 5 loads: 10 HIT, aoi 10
    t.skill(B, "k2", "グッドメディスン", 4)
    t.toss(B, "k2", "sssso")
    t.resolve(B, "k2", 4, values=[4, 4])
    t.heal(B, 4, act="k2")  # ren 10
    t.load(B, "ハクメン")
    t.resolve(B, "g5", 0, values=[0])
    assert t.seats[B].hand >= 5
    t.end(B)
    # turn 7, aoi: 起死回生 (N=3) and a last ドドメ shot
    t.turn(A)
    t.action(A, "a2", "起死回生", 0, "ssso")
    t.damage(B, 3, act="a2")  # ren 7
    t.load(A, "ドドメ", 3)
    shot_with_damage(t, A, "s8", "ドドメ")  # 5 HIT: ren 2
    assert t.seats[B].life == 2 and t.seats[A].hand == 0, (t.seats[B].life, t.seats[A].hand)
    t.end(A, deck="ドドメ")
    # turn 8, ren: one more ハクメン shot with RECOVER
    t.turn(B)
    t.load(B, "ハクメン")
    _, hit = t.shoot(B, "s9", "ハクメン")  # 2 loads: 2 HIT
    t.damage(A, hit, shot="s9")
    t.ability(B, "g6", "gun", "ハクメン")
    t.heal(B, hit, act="g6")  # ren 4
    t.end(B, deck="ハクメン")
    # turn 9, aoi: カサネ's 6 HIT ends it
    t.turn(A)
    t.load(A, "カサネ", 3)
    shot_with_damage(t, A, "s10", "カサネ")  # ren -2
    assert t.seats[B].life <= 0
    t.finish(A, "life")
    return t


@case
def match_deck_out() -> Table:
    """キルコ (ウワン/ダタラ) mills ラン (エンラ/カサネ) out of her エンラ deck."""
    t = Table(
        "match-deck-out",
        "a full match ending by deck-out (deck_out: either-empty): three 過負荷光球 copies "
        "tossed once per turn start, ANNIHILATION mills, 亜空光線 with its additional cost, がんばる!! "
        "declared (no toss until its owner's next turn start)",
        rules={"deck_out": "either-empty"},
    )
    t.setup(("キルコ", ["ウワン", "ダタラ"], "バレットキャッチ"), ("ラン", ["エンラ", "カサネ"], "がんばる!!"))
    t.turn(A)  # 1
    t.function(A, "f1", "過負荷光球", 0)
    t.function(A, "f2", "過負荷光球", 0)
    t.action(A, "a1", "計略", 1, "so", values=[1])
    t.draw(A, "ウワン", 1, act="a1")
    t.load(A, "ウワン")
    t.end(A)
    t.turn(B)  # 2
    t.load(B, "エンラ", 2)
    shot_with_damage(t, B, "s1", "エンラ")  # 3 HIT: aoi 27
    t.load(B, "カサネ")
    t.end(B)
    t.turn(A)  # 3
    t.group(A, "g1", "function", "sso", card="過負荷光球", copies=2)
    t.resolve(A, "g1", 2, values=[2])
    t.discard(B, "deck", 2, by=A, gun="エンラ", act="g1")
    t.discard(B, "deck", 2, by=A, gun="エンラ", act="g1")
    _, hit = t.shoot(A, "s2", "ウワン")  # 1 load: 1 HIT
    t.damage(B, hit, shot="s2")
    t.ability(A, "u1", "gun", "ウワン")  # ANNIHILATION: mill 1
    t.discard(B, "deck", hit, by=A, gun="エンラ", act="u1")
    t.function(A, "f3", "過負荷光球", 0)
    t.load(A, "ウワン")
    t.load(A, "ダタラ", 2)
    t.end(A)
    t.turn(B)  # 4
    t.load(B, "エンラ", 2)
    shot_with_damage(t, B, "s3", "エンラ")  # 3 HIT: aoi 24
    t.load(B, "カサネ")
    _, hit = t.shoot(B, "s4", "カサネ")  # 2 loads: 4 HIT, RECOIL2
    t.damage(A, hit, shot="s4")
    t.ability(B, "g2", "gun", "カサネ")
    t.damage(B, 2, act="g2", by=B)
    t.end(B)
    t.turn(A)  # 5
    t.group(A, "g3", "function", "so", card="過負荷光球", copies=3)
    t.resolve(A, "g3", 1, values=[1])
    for _ in range(3):
        t.discard(B, "deck", 1, by=A, gun="エンラ", act="g3")
    t.load(A, "ウワン")
    t.play(A, "a2", "亜空光線")
    t.cost(A, "a2", 2)
    t.toss(A, "a2", "sso")
    t.cost(A, "a2", 2, kind="additional", gun="ウワン")
    t.resolve(A, "a2", 2, values=[2, 2, 2])
    t.discard(B, "deck", 2, by=A, gun="エンラ", act="a2")
    t.draw(A, "ダタラ", 2, act="a2")
    shot_with_damage(t, A, "s5", "ダタラ")  # 2 loads: 2 HIT
    t.load(A, "ダタラ", 2)
    t.end(A, deck="ダタラ")
    t.turn(B)  # 6
    t.load(B, "エンラ", 2)
    shot_with_damage(t, B, "s6", "エンラ")  # 3 HIT
    t.skill(B, "k1", "がんばる!!", 8)
    t.load(B, "カサネ")
    t.end(B, deck="カサネ")
    t.turn(A)  # 7
    t.group(A, "g4", "function", "so", card="過負荷光球", copies=3)
    t.resolve(A, "g4", 1, values=[1])
    left = t.seats[B].deck["エンラ"]
    assert left == 1, left
    t.discard(B, "deck", 1, by=A, gun="エンラ", act="g4")
    t.discard(B, "deck", 1, by=A, gun="カサネ", act="g4")
    t.discard(B, "deck", 1, by=A, gun="カサネ", act="g4")
    t.finish(A, "deck-out")
    return t


@case
def match_groups_and_limits() -> Table:
    """キルコ (ハクメン/ウワン) against ナトリ (キヨヒメ/ツエツキ): nine turns, groups and an imposed limit."""
    t = Table(
        "match-groups-and-limits",
        "a full match: two リロード・サポーター copies share one toss, 過負荷光球 "
        "tossed apart, ノイズジェネレーター's N bounds aoi's actions, BREAK and BURN gun effects, burn "
        "at turn start, バレットキャッチ then a turn start with a continuous skill and two function "
        "kinds; ends by concession",
    )
    t.setup(
        ("キルコ", ["ハクメン", "ウワン"], "バレットキャッチ"), ("ナトリ", ["キヨヒメ", "ツエツキ"], "バッドメディスン")
    )
    t.turn(A)  # 1
    t.function(A, "f1", "リロード・サポーター", 1)
    t.function(A, "f2", "リロード・サポーター", 1)
    t.end(A, deck="ウワン")
    t.turn(B)  # 2
    t.function(B, "f3", "ノイズジェネレーター", 0)
    t.set_response(B, "r1", "奪火")
    t.load(B, "キヨヒメ")
    t.load(B, "ツエツキ")
    t.end(B)
    t.turn(A)  # 3
    t.group(A, "g1", "function", "sso", card="リロード・サポーター", copies=2)
    t.function(A, "f4", "過負荷光球", 0)
    t.load(A, "ハクメン")
    t.load(A, "ウワン")
    _, hit = t.shoot(A, "s1", "ウワン")  # 1 load: 1 HIT
    t.respond(B, "r1", against="s1")
    t.toss(B, "r1", "o")
    t.resolve(B, "r1", 0, values=[0])
    t.hit(B, "s1", "response", 0, act="r1")
    t.damage(B, hit, shot="s1")  # ren 29
    t.ability(A, "u1", "gun", "ウワン")
    t.discard(B, "deck", hit, by=A, gun="キヨヒメ", act="u1")
    t.refill(A, deck="ウワン")
    t.resolve(A, "g1", 2, values=[2])
    t.load(A, "ハクメン", 2, zone="deck", deck="ハクメン", how="effect", act="g1")
    t.load(A, "ウワン", 2, zone="deck", deck="ウワン", how="effect", act="g1")
    t.close(A)
    t.turn(B)  # 4
    t.group(B, "g2", "function", "ssso", card="ノイズジェネレーター")
    t.resolve(B, "g2", 3, values=[3])
    t.load(B, "キヨヒメ")
    t.load(B, "ツエツキ")
    t.shoot(B, "s2", "ツエツキ")  # 2 loads: 0 HIT, BREAK1
    t.ability(B, "t1", "gun", "ツエツキ")
    t.discard(A, "load", 1, by=B, gun="ハクメン", act="t1")
    t.end(B)
    t.turn(A)  # 5: ノイズジェネレーター allows 3 actions
    t.group(A, "g3", "function", "so", card="リロード・サポーター", copies=2)
    t.group(A, "g4", "function", "o", card="過負荷光球")
    t.resolve(A, "g4", 0, values=[0])
    t.action(A, "a1", "計略", 1, "o", values=[0])
    t.action(A, "a2", "計略", 1, "sso", values=[2])
    t.draw(A, "ウワン", 2, act="a2")
    t.load(A, "ハクメン")
    t.load(A, "ウワン")
    _, hit = t.shoot(A, "s3", "ハクメン")  # 3 loads: 3 HIT, RECOVER
    t.damage(B, hit, shot="s3")
    t.ability(A, "h1", "gun", "ハクメン")
    t.heal(A, hit, act="h1")
    _, hit = t.shoot(A, "s4", "ウワン")  # 3 loads: 4 HIT, ANNIHILATION
    t.damage(B, hit, shot="s4")
    t.ability(A, "u2", "gun", "ウワン")
    t.discard(B, "deck", hit, by=A, gun="キヨヒメ", act="u2")
    t.refill(A, deck="ウワン")
    t.resolve(A, "g3", 1, values=[1])
    t.load(A, "ハクメン", 1, zone="deck", deck="ハクメン", how="effect", act="g3")
    t.load(A, "ウワン", 1, zone="deck", deck="ウワン", how="effect", act="g3")
    t.close(A)
    t.turn(B)  # 6
    t.group(B, "g5", "function", "so", card="ノイズジェネレーター")
    t.resolve(B, "g5", 1, values=[1])
    t.load(B, "キヨヒメ")
    t.shoot(B, "s5", "キヨヒメ")  # 3 loads: 0 HIT, BURN1
    t.ability(B, "k1", "gun", "キヨヒメ")
    t.add("gg.burn", by=B, player=A, delta=1, act="k1")
    t.load(B, "ツエツキ")
    t.end(B)
    t.turn(A)  # 7: burn first, then the groups
    t.burn_loss(A, 3)
    t.group(A, "g6", "function", "sso", card="リロード・サポーター", copies=2)
    t.group(A, "g7", "function", "so", card="過負荷光球")
    t.resolve(A, "g7", 1, values=[1])
    t.discard(B, "deck", 1, by=A, gun="ツエツキ", act="g7")
    t.action(A, "a3", "計略", 1, "so", values=[1])  # 1 action: ノイズジェネレーター N=1
    t.draw(A, "ウワン", 1, act="a3")
    t.skill(A, "k2", "バレットキャッチ", 6)
    t.load(A, "ハクメン")
    _, hit = t.shoot(A, "s6", "ハクメン")  # 2 loads: 2 HIT, RECOVER
    t.damage(B, hit, shot="s6")
    t.ability(A, "h2", "gun", "ハクメン")
    t.heal(A, hit, act="h2")
    t.refill(A, deck="ウワン")
    t.resolve(A, "g6", 2, values=[2])
    t.load(A, "ハクメン", 2, zone="deck", deck="ハクメン", how="effect", act="g6")
    t.load(A, "ウワン", 1, zone="deck", deck="ウワン", how="effect", act="g6")
    t.close(A)
    t.turn(B)  # 8
    t.group(B, "g8", "function", "o", card="ノイズジェネレーター")
    t.resolve(B, "g8", 0, values=[0])
    t.load(B, "ツエツキ")
    t.end(B)
    t.turn(A)  # 9: burn, a continuous skill and two function kinds
    t.burn_loss(A, 3)
    t.group(A, "c1", "continuous", "sso")
    t.resolve(A, "c1", 2, values=[2])
    t.group(A, "g9", "function", "o", card="リロード・サポーター", copies=2)
    t.group(A, "g10", "function", "sso", card="過負荷光球")
    t.resolve(A, "g10", 2, values=[2])
    t.discard(B, "deck", 2, by=A, gun="ツエツキ", act="g10")
    t.finish(A, "concede")
    return t


@case
def match_bullets_and_responses() -> Table:
    """ヒバナ (ヌエ/エンラ) against ラン (カサネ/ダタラ): 徹甲榴弾, a fizzled 相撃ち, 朧走り."""
    t = Table(
        "match-bullets-and-responses",
        "a full match: a face-up 徹甲榴弾 tossed at the shot, 相撃ち whose "
        "condition fails after the toss (to the discard), no response to ダタラ, 高速充電's effect load "
        "beside a basic one, 整息 drawing for the defender in the shooter's turn, 朧走り; ends by concession",
    )
    t.setup(("ヒバナ", ["ヌエ", "エンラ"], "朧走り"), ("ラン", ["カサネ", "ダタラ"], "いただきまーす!!"))
    t.turn(A)  # 1
    t.load(A, "ヌエ", 1, face="up", card="徹甲榴弾")
    t.load(A, "エンラ", 2)
    shot_with_damage(t, A, "s1", "エンラ")  # 3 HIT: ren 27
    t.end(A)
    t.turn(B)  # 2
    t.set_response(B, "r1", "相撃ち")
    t.load(B, "カサネ", 2)
    _, hit = t.shoot(B, "s2", "カサネ")  # 4 HIT, RECOIL2
    t.damage(A, hit, shot="s2")
    t.ability(B, "g1", "gun", "カサネ")
    t.damage(B, 2, act="g1", by=B)
    t.end(B, deck="ダタラ")
    t.turn(A)  # 3
    t.load(A, "ヌエ")
    t.load(A, "エンラ", 2)
    _, hit = t.shoot(A, "s3", "エンラ")  # 3 HIT
    t.respond(B, "r1", against="s3")
    t.toss(B, "r1", "sssso")
    t.resolve(B, "r1", 4, values=[4, 4], outcome="fizzled", measured=3, holds=False)
    t.discard(B, "set", card="相撃ち", act="r1")
    t.damage(B, hit, shot="s3")
    t.end(A)
    t.turn(B)  # 4
    t.set_response(B, "r2", "整息")
    t.load(B, "ダタラ", 2)
    shot_with_damage(t, B, "s4", "ダタラ")  # 2 HIT, no response possible
    t.end(B, deck="ダタラ")
    t.turn(A)  # 5
    t.action(A, "a1", "高速充電", 0, "sso", values=[2, 2])
    t.load(A, "ヌエ", 2, zone="deck", deck="ヌエ", how="effect", act="a1")
    t.draw(A, "ヌエ", 2, act="a1")
    t.load(A, "ヌエ")
    _, hit = t.shoot(A, "s5", "ヌエ")  # 5 loads: 10 HIT
    t.add("gg.bullet", by=A, act="b1", player=A, shot="s5", card="徹甲榴弾")
    t.toss(A, "b1", "ssso")
    t.resolve(A, "b1", 3, values=[3, 3], measured=5, holds=True)
    t.hit(A, "s5", "bullet", 3, act="b1")
    t.respond(B, "r2", against="s5")
    t.toss(B, "r2", "so")
    t.resolve(B, "r2", 1, values=[1, 1], measured=13, holds=True)
    t.draw(B, "ダタラ", 1, act="r2")
    t.damage(B, hit + 3, shot="s5")  # ren 9
    t.skill(A, "k1", "朧走り", 5)
    t.toss(A, "k1", "sso")
    t.resolve(A, "k1", 2, values=[2])
    t.damage(B, 2, act="k1")  # ren 7
    t.end(A)
    t.turn(B)  # 6
    t.load(B, "カサネ", 3)
    _, hit = t.shoot(B, "s6", "カサネ")  # 6 HIT, RECOIL3
    t.damage(A, hit, shot="s6")
    t.ability(B, "g2", "gun", "カサネ")
    t.damage(B, 3, act="g2", by=B)
    t.end(B, deck="ダタラ")
    t.finish(A, "concede")
    return t


# == base-game checks ========================================================================


def _two_turns(
    name: str,
    about: str,
    rules: dict[str, Any] | None = None,
    a: tuple[str, list[str], str] = ("キルコ", ["ドドメ", "エンラ"], "マキシマムリロード"),
    b: tuple[str, list[str], str] = ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"),
) -> Table:
    """Setup, aoi's turn 1 (passes), ren's turn 2 (passes), aoi's turn 3 started."""
    t = Table(name, about, rules)
    t.setup(a, b)
    t.turn(A)
    t.end(A)
    t.turn(B)
    t.end(B)
    t.turn(A)
    return t


@case
def bad_gun_shoots_twice() -> Table:
    t = Table(
        "bad-gun-shoots-twice", "reference §1.5: ドドメ shoots, is loaded again, and shoots a second time in the turn"
    )
    t.setup(("キルコ", ["ドドメ", "エンラ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.load(A, "ドドメ", 2)
    shot_with_damage(t, A, "s1", "ドドメ")
    t.load(A, "ドドメ", 2)
    second, _ = t.shoot(A, "s2", "ドドメ")
    t.damage(B, 3, shot="s2")
    t.end(A)
    t.expect("GG-SHOT-001", second)
    return t


@case
def ok_two_guns_shoot_once_each() -> Table:
    t = Table("ok-two-guns-shoot-once-each", "reference §1.5: each of aoi's two guns shoots once in one turn")
    t.setup(("キルコ", ["ドドメ", "エンラ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.load(A, "ドドメ", 2)
    t.load(A, "エンラ", 2)
    shot_with_damage(t, A, "s1", "ドドメ")
    shot_with_damage(t, A, "s2", "エンラ")
    t.end(A)
    return t


@case
def bad_basic_loads_past_load_limit() -> Table:
    t = Table(
        "bad-basic-loads-past-load-limit",
        "reference §1.4 装填上限: ヌエ (装填上限 1) loaded twice by basic actions in one turn",
    )
    t.setup(("キルコ", ["ヌエ", "カサネ"], "ドーピング"), ("ラン", ["エンラ", "ダタラ"], "がんばる!!"))
    t.turn(A)
    t.load(A, "ヌエ")
    second = t.load(A, "ヌエ")
    t.end(A)
    t.expect("GG-LOAD-001", second)
    return t


@case
def ok_effect_load_beside_load_limit() -> Table:
    t = Table(
        "ok-effect-load-beside-load-limit",
        "reference §1.4: ヌエ's one basic load plus 高速充電's effect load (effect loads do not use 装填上限)",
    )
    t.setup(("キルコ", ["ヌエ", "カサネ"], "ドーピング"), ("ラン", ["エンラ", "ダタラ"], "がんばる!!"))
    t.turn(A)
    t.load(A, "ヌエ")
    t.action(A, "a1", "高速充電", 0, "sso", values=[2, 2])
    t.load(A, "ヌエ", 2, zone="deck", deck="ヌエ", how="effect", act="a1")
    t.draw(A, "ヌエ", 2, act="a1")
    t.end(A)
    return t


@case
def bad_basic_load_above_max() -> Table:
    t = Table(
        "bad-basic-load-above-max",
        "FAQ / reference §1.4 最大装填数: エンラ (max 3) holds 2 from turn 1 and gets 2 more basic loads on turn 3",
    )
    t.setup(("キルコ", ["エンラ", "ドドメ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.load(A, "エンラ", 2)
    t.end(A)
    t.turn(B)
    t.end(B)
    t.turn(A)
    over = t.load(A, "エンラ", 2)
    t.end(A)
    t.expect("GG-LOAD-002", over)
    return t


@case
def bad_face_up_non_bullet() -> Table:
    t = Table("bad-face-up-non-bullet", "reference §1.4: 計略 (an action) loaded face up into エンラ")
    t.setup(("キルコ", ["エンラ", "ダタラ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    bad = t.load(A, "エンラ", 1, face="up", card="計略")
    t.end(A)
    t.expect("GG-LOAD-003", bad)
    return t


@case
def ok_double_bullet_counts_two() -> Table:
    t = Table(
        "ok-double-bullet-counts-two",
        "reference §1.4 / #1: ダブルバレット face up counts as 2 loads; with "
        "one normal bullet エンラ holds 3 and its shot deals the 3-row's 5 HIT",
    )
    t.setup(("キルコ", ["エンラ", "ドドメ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.load(A, "エンラ", 1, face="up", card="ダブルバレット")
    t.seats[A].loads["エンラ"] += 1
    t.end(A)
    t.turn(B)
    t.end(B)
    t.turn(A)
    t.load(A, "エンラ")
    shot_with_damage(t, A, "s1", "エンラ")
    assert t.events[-1]["delta"] == -5
    t.end(A)
    return t


@case
def bad_shot_below_lowest_row() -> Table:
    t = Table("bad-shot-below-lowest-row", "reference §1.5: ヌエ (lowest HIT row 4) shoots with 3 loads")
    t.setup(("キルコ", ["ヌエ", "カサネ"], "ドーピング"), ("ラン", ["エンラ", "ダタラ"], "がんばる!!"))
    for _ in range(2):
        t.turn(A)
        t.load(A, "ヌエ")
        t.end(A)
        t.turn(B)
        t.end(B)
    t.turn(A)
    t.load(A, "ヌエ")
    bad = t.add("gg.shoot", by=A, shot="s1", player=A, gun="ヌエ")
    t.end(A)
    t.expect("GG-SHOT-002", bad)
    return t


@case
def bad_damage_from_wrong_row() -> Table:
    t = Table(
        "bad-damage-from-wrong-row", "reference §1.5 HIT table: ドドメ with 3 loads uses the 3-row (5 HIT), 7 recorded"
    )
    t.setup(("キルコ", ["ドドメ", "エンラ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.load(A, "ドドメ", 3)
    t.shoot(A, "s1", "ドドメ")
    bad = t.damage(B, 7, shot="s1")
    t.end(A)
    t.expect("GG-SHOT-004", bad)
    return t


@case
def ok_kiyohime_between_rows() -> Table:
    t = Table(
        "ok-kiyohime-between-rows",
        "reference §1.5 (atwiki Kiyohime Q1): キヨヒメ with 4 loads uses the "
        "3-row: 0 HIT and BURN1 (a gun effect, never tossed); the burn hits at ren's turn start",
    )
    t.setup(("キルコ", ["キヨヒメ", "ドドメ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    for _ in range(3):
        t.turn(A)
        t.load(A, "キヨヒメ")
        t.end(A)
        t.turn(B)
        t.end(B)
    t.turn(A)
    t.load(A, "キヨヒメ")
    t.shoot(A, "s1", "キヨヒメ")
    t.ability(A, "k1", "gun", "キヨヒメ")
    t.add("gg.burn", by=A, player=B, delta=1, act="k1")
    t.end(A)
    t.turn(B)
    t.burn_loss(B, 3)
    t.load(B, "ヌエ")
    t.end(B)
    return t


@case
def bad_skill_cost_over_voltage() -> Table:
    t = Table("bad-skill-cost-over-voltage", "reference §1.7 skill cost: 朧走り (5) declared with 3 voltage")
    t.setup(("ヒバナ", ["ドドメ", "エンラ"], "朧走り"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.load(A, "ドドメ", 3)
    shot_with_damage(t, A, "s1", "ドドメ")
    t.add("gg.skill", by=A, act="k1", player=A, skill="朧走り")
    bad = t.add("gg.cost", by=A, act="k1", player=A, kind="voltage", n=5)
    t.toss(A, "k1", "so")
    t.resolve(A, "k1", 1, values=[1])
    t.damage(B, 1, act="k1")
    t.end(A)
    t.expect("GG-COST-003", bad)
    return t


def _kaen(name: str, about: str, rules: dict[str, Any] | None = None, loads: int = 2, faces: str = "sso") -> Table:
    """aoi loads キヨヒメ on turns 1 and 3 (and 5), then plays 過焔地獄."""
    t = Table(name, about, rules)
    t.setup(("キルコ", ["キヨヒメ", "ドドメ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    for _ in range(loads - 1):
        t.turn(A)
        t.load(A, "キヨヒメ")
        t.end(A)
        t.turn(B)
        t.end(B)
    t.turn(A)
    t.load(A, "キヨヒメ")
    t.play(A, "a1", "過焔地獄")
    t.cost(A, "a1", 2)
    t.toss(A, "a1", faces)
    return t


@case
def bad_additional_cost_unavailable() -> Table:
    t = _kaen(
        "bad-additional-cost-unavailable",
        "§追加コスト / reference §1.7: 過焔地獄 N=3, additional cost 3 loads of キヨヒメ paid while it holds 2",
        faces="ssso",
    )
    bad = t.add("gg.cost", by=A, act="a1", player=A, kind="additional", n=3, gun="キヨヒメ")
    t.resolve(A, "a1", 3, values=[3, 3])
    t.add("gg.burn", by=A, player=B, delta=3, act="a1")
    t.end(A)
    t.expect("GG-COST-003", bad)
    return t


@case
def ok_kaen_pays_n() -> Table:
    t = _kaen(
        "ok-kaen-pays-n",
        "§追加コスト: 過焔地獄 N=2 pays 2 of キヨヒメ's 2 loads and gives 2 burn; "
        "ren burns 3 at her turn start (burn: flat)",
    )
    t.cost(A, "a1", 2, kind="additional", gun="キヨヒメ")
    t.resolve(A, "a1", 2, values=[2, 2])
    t.add("gg.burn", by=A, player=B, delta=2, act="a1")
    t.end(A)
    t.turn(B)
    t.burn_loss(B, 3)
    t.load(B, "ヌエ")
    t.end(B)
    return t


@case
def bad_once_per_turn_card_twice() -> Table:
    t = Table(
        "bad-once-per-turn-card-twice",
        "§例外 「1ターン1度」は変わらない: ディバージョン (1 per turn by name) played twice in a turn, both N=0",
    )
    t.setup(("キルコ", ["ハクメン", "ドドメ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.action(A, "a1", "ディバージョン", 0, "o", values=[0])
    second = t.play(A, "a2", "ディバージョン")
    t.toss(A, "a2", "o")
    t.resolve(A, "a2", 0, values=[0])
    t.end(A)
    t.expect("GG-LIM-001", second)
    return t


@case
def ok_once_per_turn_card_next_turn() -> Table:
    t = Table(
        "ok-once-per-turn-card-next-turn", "§例外: ディバージョン once on turn 1 and once on turn 3 (N=1, 1 draw)"
    )
    t.setup(("キルコ", ["ハクメン", "ドドメ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.action(A, "a1", "ディバージョン", 0, "o", values=[0])
    t.end(A)
    t.turn(B)
    t.end(B)
    t.turn(A)
    t.action(A, "a2", "ディバージョン", 0, "so", values=[1])
    t.draw(A, "ハクメン", 1, act="a2")
    t.end(A)
    return t


@case
def bad_blitz_twice_in_game() -> Table:
    t = Table(
        "bad-blitz-twice-in-game", "§例外 使用制限は変わらない: ブリッツ (once per game) on turns 1 and 3, both N=0"
    )
    t.setup(("キルコ", ["ドドメ", "エンラ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.action(A, "a1", "ブリッツ", 3, "o", values=[0])
    t.end(A)
    t.turn(B)
    t.end(B)
    t.turn(A)
    second = t.play(A, "a2", "ブリッツ")
    t.cost(A, "a2", 3)
    t.toss(A, "a2", "o")
    t.resolve(A, "a2", 0, values=[0])
    t.end(A)
    t.expect("GG-LIM-002", second)
    return t


@case
def ok_blitz_one_extra_turn() -> Table:
    t = Table("ok-blitz-one-extra-turn", "ブリッツ N=1: aoi takes one extra turn right after (turn 2 is aoi's again)")
    t.setup(("キルコ", ["ドドメ", "エンラ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.action(A, "a1", "ブリッツ", 3, "so", values=[1])
    t.end(A)
    t.turn(A)
    t.load(A, "ドドメ", 4)
    shot_with_damage(t, A, "s1", "ドドメ")
    t.end(A)
    t.turn(B)
    t.end(B)
    return t


@case
def bad_refill_short_of_hand_size() -> Table:
    t = Table("bad-refill-short-of-hand-size", "reference §1.3 ②: ナトリ (札 5) refills to 4")
    t.setup(("キルコ", ["ドドメ", "エンラ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.end(A)
    t.turn(B)
    t.load(B, "ヌエ")
    t.load(B, "カサネ", 2)
    t.draw(B, "ヌエ", 2, "refill")
    bad = t.close(B)
    t.expect("GG-TURN-002", bad)
    return t


@case
def ok_first_by_weight() -> Table:
    t = Table(
        "ok-first-by-weight",
        "reference §1.2: キルコ and アマタ both speed 4; キルコ's guns weigh 7 "
        "(ドドメ 4 + エンラ 3) against 14: the lighter goes first",
    )
    t.setup(("キルコ", ["ドドメ", "エンラ"], "ドーピング"), ("アマタ", ["ヌエ", "キヨヒメ"], "鬼火"), reason="weight")
    t.turn(A)
    t.end(A)
    return t


@case
def bad_first_heavier_by_weight() -> Table:
    t = Table("bad-first-heavier-by-weight", "reference §1.2: speeds tie at 4, the heavier pair (14) is seated first")
    t.choose(A, "キルコ", ["ドドメ", "エンラ"], "ドーピング")
    t.choose(B, "アマタ", ["ヌエ", "キヨヒメ"], "鬼火")
    bad = t.first(B, "weight")
    t.opening(B)
    t.turn(B)
    t.end(B)
    t.expect("GG-SETUP-001", bad)
    return t


@case
def ok_first_at_random() -> Table:
    t = Table(
        "ok-first-at-random",
        "reference §1.2: speed 4 each, weight 10 each (キヨヒメ 7 + エンラ 3, "
        "ハクメン 6 + ドドメ 4): a coin decides, ren goes first",
    )
    t.choose(A, "キルコ", ["キヨヒメ", "エンラ"], "ドーピング")
    t.choose(B, "アマタ", ["ハクメン", "ドドメ"], "鬼火")
    t.add("random", by="judge", kind="coin", sides=2, values=[2], purpose="first-player")
    t.first(B, "random")
    t.opening(B)
    t.turn(B)
    t.end(B)
    t.turn(A)
    t.end(A)
    return t


@case
def bad_first_slower_by_speed() -> Table:
    t = Table("bad-first-slower-by-speed", "reference §1.2: ナトリ (speed 1) seated first against ヒバナ (speed 5)")
    t.choose(A, "ヒバナ", ["ドドメ", "エンラ"], "朧走り")
    t.choose(B, "ナトリ", ["ヌエ", "カサネ"], "グッドメディスン")
    bad = t.first(B, "speed")
    t.opening(B)
    t.turn(B)
    t.end(B)
    t.expect("GG-SETUP-001", bad)
    return t


@case
def ok_maka_starts_at_40() -> Table:
    t = Table(
        "ok-maka-starts-at-40", "reference §1.1: マカ starts at 40 (life left out of gg.setup), takes 5 and is at 35"
    )
    t.setup(("キルコ", ["ドドメ", "エンラ"], "ドーピング"), ("マカ", ["ヌエ", "カサネ"], "キミのためなら死ねる"))
    t.turn(A)
    t.load(A, "ドドメ", 3)
    shot_with_damage(t, A, "s1", "ドドメ")
    t.end(A)
    assert t.seats[B].life == 35
    return t


@case
def bad_life_40_for_natori() -> Table:
    t = Table("bad-life-40-for-natori", "reference §1.1: ナトリ recorded with 40 starting life (only マカ has 40)")
    t.choose(A, "キルコ", ["ドドメ", "エンラ"], "ドーピング")
    bad = t.choose(B, "ナトリ", ["ヌエ", "カサネ"], "グッドメディスン", life=40)
    t.first(A, "speed")
    t.opening(A)
    t.turn(A)
    t.end(A)
    t.expect("GG-SETUP-003", bad)
    return t


@case
def bad_double_bullet_twice_in_turn() -> Table:
    t = Table(
        "bad-double-bullet-twice-in-turn",
        "reference #1 / §例外 使用制限は変わらない: two ダブルバレット loaded "
        "face up into エンラ in one turn (at most 1 per turn)",
    )
    t.setup(("キルコ", ["エンラ", "ダタラ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.load(A, "エンラ", 1, face="up", card="ダブルバレット")
    t.end(A)
    t.turn(B)
    t.end(B)
    t.turn(A)
    t.add("gg.shoot", by=A, shot="s1", player=A, gun="エンラ")
    t.damage(B, 3, shot="s1")
    t.load(A, "エンラ", 1, face="up", card="ダブルバレット")
    bad = t.load(A, "ダタラ", 1, face="up", card="ダブルバレット")
    t.end(A)
    t.expect("GG-LIM-001", bad)
    return t


@case
def bad_face_up_bullet_into_dodome() -> Table:
    t = Table(
        "bad-face-up-bullet-into-dodome", "reference §1.4 gun restrictions: ドドメ cannot take a 【銃弾】 face up"
    )
    t.setup(("キルコ", ["ドドメ", "エンラ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    bad = t.load(A, "ドドメ", 1, face="up", card="ステルスバレット")
    t.end(A)
    t.expect("GG-LOAD-003", bad)
    return t


@case
def ok_recoil_written_on_the_shot() -> Table:
    t = Table(
        "ok-recoil-written-on-the-shot",
        "reference §2.1 カサネ RECOIL: the table writes the shooter's RECOIL "
        "as gg.life why=hit shot=s1 for aoi herself; the shot's damage to ren is still 6",
    )
    t.setup(("キルコ", ["カサネ", "エンラ"], "ドーピング"), ("ナトリ", ["ヌエ", "ハクメン"], "グッドメディスン"))
    t.turn(A)
    t.load(A, "カサネ", 3)
    _, hit = t.shoot(A, "s1", "カサネ")
    t.damage(B, hit, shot="s1")
    t.damage(A, 3, shot="s1", by=A)
    t.end(A)
    return t


@case
def bad_flip_back_skill_twice_in_turn() -> Table:
    t = Table("bad-flip-back-skill-twice-in-turn", "reference §1.9: 朧走り flips back but is once per turn; used twice")
    t.setup(("ヒバナ", ["ドドメ", "エンラ"], "朧走り"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.load(A, "ドドメ", 3)
    shot_with_damage(t, A, "s1", "ドドメ")
    t.end(A)
    t.turn(B)
    t.end(B)
    t.turn(A)
    t.load(A, "ドドメ", 3)
    shot_with_damage(t, A, "s2", "ドドメ")
    assert t.seats[A].volt == 6
    t.skill(A, "k1", "朧走り", 5)
    t.toss(A, "k1", "o")
    t.resolve(A, "k1", 0, values=[0])
    t.seats[A].volt += 5  # the table's slip: it paid again from cards it did not have
    bad = t.skill(A, "k2", "朧走り", 5)
    t.toss(A, "k2", "so")
    t.resolve(A, "k2", 1, values=[1])
    t.damage(B, 1, act="k2")
    t.end(A)
    # the second use is the mistake; paying its voltage from cards the first use spent follows from it
    t.expect("GG-LIM-004", bad, consequences=[bad + 1])
    return t


@case
def ok_flip_back_skill_each_turn() -> Table:
    t = Table("ok-flip-back-skill-each-turn", "reference §1.9: 朧走り (flips back, once per turn) on turns 3 and 7")
    t.setup(("ヒバナ", ["ドドメ", "エンラ"], "朧走り"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    for turn in range(4):
        t.turn(A)
        t.load(A, "ドドメ", 3)
        shot_with_damage(t, A, f"s{turn}", "ドドメ")
        if turn in (1, 3):
            t.skill(A, f"k{turn}", "朧走り", 5)
            t.toss(A, f"k{turn}", "sso")
            t.resolve(A, f"k{turn}", 2, values=[2])
            t.damage(B, 2, act=f"k{turn}")
        t.end(A)
        t.turn(B)
        t.end(B)
    return t


@case
def bad_one_shot_skill_used_again() -> Table:
    t = Table("bad-one-shot-skill-used-again", "reference §1.9: ドーピング stays face up once used; declared again")
    t.setup(("キルコ", ["ドドメ", "エンラ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    for _ in range(3):
        t.turn(A)
        t.load(A, "ドドメ", 4)
        shot_with_damage(t, A, "s" + str(t.turn_no), "ドドメ")
        t.end(A)
        t.turn(B)
        t.end(B)
    t.turn(A)
    t.skill(A, "k1", "ドーピング", 6)
    t.toss(A, "k1", "o")
    t.resolve(A, "k1", 0, values=[0])
    bad = t.skill(A, "k2", "ドーピング", 6)
    t.toss(A, "k2", "o")
    t.resolve(A, "k2", 0, values=[0])
    t.end(A)
    t.expect("GG-LIM-004", bad)
    return t


@case
def ok_response_against_skill() -> Table:
    t = Table("ok-response-against-skill", "§【対応】 緊急回避 answers 朧走り (a skill): N=1 takes 1 off its N=3 HIT")
    t.setup(("ヒバナ", ["ドドメ", "エンラ"], "朧走り"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.load(A, "ドドメ", 3)
    shot_with_damage(t, A, "s1", "ドドメ")
    t.end(A)
    t.turn(B)
    t.set_response(B, "r1", "緊急回避")
    t.end(B)
    t.turn(A)
    t.load(A, "エンラ", 2)
    shot_with_damage(t, A, "s2", "エンラ")
    t.skill(A, "k1", "朧走り", 5)
    t.toss(A, "k1", "ssso")
    t.resolve(A, "k1", 3, values=[3])
    t.respond(B, "r1", against="k1")
    t.toss(B, "r1", "so")
    t.resolve(B, "r1", 1, values=[1])
    t.damage(B, 2, act="k1")
    t.end(A)
    return t


# == multi-gun loads, groups, responses =====================================================


def _maximum(name: str, about: str, faces: str, ddm: int, enra: int, rules: dict[str, Any] | None = None) -> Table:
    """キルコ: ドドメ just shot (room 4), エンラ holding 1 (room 2); マキシマムリロード from 6 voltage."""
    t = Table(name, about, rules)
    t.setup(("キルコ", ["ドドメ", "エンラ"], "マキシマムリロード"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.load(A, "ドドメ", 4)
    shot_with_damage(t, A, "s1", "ドドメ")
    t.end(A)
    t.turn(B)
    t.end(B)
    t.turn(A)
    t.load(A, "エンラ")
    t.load(A, "ドドメ", 2)
    shot_with_damage(t, A, "s2", "ドドメ")
    assert t.seats[A].volt == 6
    t.skill(A, "k1", "マキシマムリロード", 6)
    t.toss(A, "k1", faces)
    n = n_of(faces)
    t.resolve(A, "k1", n, values=[n])
    t.load(A, "ドドメ", ddm, zone="deck", deck="ドドメ", how="effect", act="k1")
    t.load(A, "エンラ", enra, zone="deck", deck="エンラ", how="effect", act="k1")
    return t


@case
def ok_multi_gun_load_tossed_to_opponent() -> Table:
    t = _maximum(
        "ok-multi-gun-load-tossed-to-opponent",
        "§例外 装填効果で複数の機銃 / FAQ 装填効果: rooms 4 and 2; "
        "the coin is tossed on until it faces the opponent (self ×5): processed against the larger room, "
        "ドドメ +4 and エンラ +2, each stopping at its limit",
        "ssssso",
        4,
        2,
    )
    t.end(A)
    return t


@case
def ok_multi_gun_load_stops_at_room() -> Table:
    t = _maximum(
        "ok-multi-gun-load-stops-at-room",
        "§例外 装填効果で複数の機銃: rooms 4 and 2; the table stops tossing once N reached 4, the larger room",
        "ssss",
        4,
        2,
    )
    t.end(A)
    return t


@case
def ok_multi_gun_load_small_n() -> Table:
    t = _maximum(
        "ok-multi-gun-load-small-n",
        "§例外 装填効果で複数の機銃: N=2 loads 2 into each gun (エンラ fills its room of 2)",
        "sso",
        2,
        2,
    )
    t.end(A)
    return t


@case
def bad_option_multi_gun_load_stops_early() -> Table:
    t = _maximum(
        "bad-option-multi-gun-load-stops-early",
        "option load_toss_end=opponent (the seed's 原則 read "
        "strictly): the table stopped tossing at N=4 without the coin facing the opponent",
        "ssss",
        4,
        2,
        {"load_toss_end": "opponent"},
    )
    res = len(t.events) - 1  # the resolve, before the two loads
    t.end(A)
    t.expect("GG-TOSS-004", res)
    return t


@case
def ok_option_multi_gun_load_to_opponent() -> Table:
    t = _maximum(
        "ok-option-multi-gun-load-to-opponent",
        "option load_toss_end=opponent: tossed on to the opponent side (N=5), ドドメ +4 and エンラ +2",
        "ssssso",
        4,
        2,
        {"load_toss_end": "opponent"},
    )
    t.end(A)
    return t


@case
def bad_multi_gun_load_past_n() -> Table:
    t = _maximum("bad-multi-gun-load-past-n", "§概要3: マキシマムリロード N=2 but ドドメ got 3", "sso", 3, 2)
    bad = len(t.events)  # the ドドメ load, before エンラ's
    t.end(A)
    t.expect("GG-NUM-002", bad)
    return t


@case
def bad_fizzled_response_still_draws() -> Table:
    t = Table(
        "bad-fizzled-response-still-draws",
        "FAQ 対応: 整息 tossed N=4 against a 3 HIT shot fails and is discarded, yet ren draws 4",
    )
    t.setup(("キルコ", ["ドドメ", "エンラ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.end(A)
    t.turn(B)
    t.set_response(B, "r1", "整息")
    t.end(B)
    t.turn(A)
    t.load(A, "エンラ", 2)
    _, hit = t.shoot(A, "s1", "エンラ")
    t.respond(B, "r1", against="s1")
    t.toss(B, "r1", "sssso")
    t.resolve(B, "r1", 4, values=[4, 4], outcome="fizzled", measured=3, holds=False)
    t.discard(B, "set", card="整息", act="r1")
    bad = t.draw(B, "ヌエ", 4, act="r1")
    t.damage(B, hit, shot="s1")
    t.end(A)
    t.expect("GG-RESP-002", bad)
    return t


@case
def ok_response_condition_holds_after_toss() -> Table:
    t = Table(
        "ok-response-condition-holds-after-toss",
        "§【対応】: インパクト・チャージ (COST 1 paid when set) "
        "tossed N=2 against 5 HIT: the condition (N or more) holds, heal 2",
    )
    t.setup(("キルコ", ["ドドメ", "エンラ"], "ドーピング"), ("ナトリ", ["ハクメン", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.end(A)
    t.turn(B)
    t.set_response(B, "r1", "インパクト・チャージ", cost=1)
    t.end(B)
    t.turn(A)
    t.load(A, "ドドメ", 3)
    _, hit = t.shoot(A, "s1", "ドドメ")
    t.respond(B, "r1", against="s1")
    t.toss(B, "r1", "sso")
    t.resolve(B, "r1", 2, values=[2, 2], measured=5, holds=True)
    t.damage(B, hit, shot="s1")
    t.heal(B, 2, act="r1")
    t.end(A)
    return t


@case
def ok_two_kinds_and_continuous_at_turn_start() -> Table:
    t = Table(
        "ok-two-kinds-and-continuous-at-turn-start",
        "§【機能】/§継続技能等: at one turn start a continuous "
        "skill's single toss and two ヒーリング・チューブ sharing one toss (copies share N, each heals N); "
        "ren's next shot takes バレットキャッチ's N=1 off",
    )
    t.setup(("キルコ", ["ハクメン", "ドドメ"], "バレットキャッチ"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.load(A, "ドドメ", 4)
    shot_with_damage(t, A, "s1", "ドドメ")
    t.end(A)
    t.turn(B)
    t.end(B)
    t.turn(A)
    t.function(A, "f1", "ヒーリング・チューブ", 0)
    t.function(A, "f2", "ヒーリング・チューブ", 0)
    t.load(A, "ドドメ", 2)
    shot_with_damage(t, A, "s2", "ドドメ")
    t.skill(A, "k1", "バレットキャッチ", 6)
    t.end(A, deck="ハクメン")
    t.turn(B)
    t.load(B, "ヌエ")
    t.end(B)
    t.turn(A)
    t.group(A, "c1", "continuous", "so")
    t.resolve(A, "c1", 1, values=[1])
    t.group(A, "g1", "function", "ssso", card="ヒーリング・チューブ", copies=2)
    t.load(A, "ハクメン")
    t.refill(A, deck="ハクメン")
    t.resolve(A, "g1", 3, values=[3])
    t.heal(A, 3, act="g1")
    t.heal(A, 3, act="g1")
    t.close(A)
    t.turn(B)
    t.load(B, "ヌエ")
    t.load(B, "カサネ", 2)
    _, hit = t.shoot(B, "s3", "カサネ")  # 4 HIT - 1 (バレットキャッチ N=1)
    t.hit(A, "s3", "effect", -1, act="c1")
    t.damage(A, hit - 1, shot="s3")
    t.ability(B, "g2", "gun", "カサネ")
    t.damage(B, 2, act="g2", by=B)
    t.end(B)
    return t


@case
def ok_spiral_shooter_on_two_shots() -> Table:
    t = Table(
        "ok-spiral-shooter-on-two-shots",
        "§【機能】: スパイラル・シューター (HIT+1 to your shots) tossed N=1 at "
        "aoi's turn start adds +1 to each of her two shots that turn",
    )
    t.setup(("キルコ", ["ハクメン", "ドドメ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.function(A, "f1", "スパイラル・シューター", 1)
    t.load(A, "ハクメン")
    t.load(A, "ドドメ", 1)
    t.end(A)
    t.turn(B)
    t.end(B)
    t.turn(A)
    t.group(A, "g1", "function", "so", card="スパイラル・シューター")
    t.resolve(A, "g1", 1, values=[1])
    t.load(A, "ハクメン")
    t.load(A, "ドドメ", 2)
    _, hit = t.shoot(A, "s1", "ハクメン")  # 2 loads: 2 HIT + 1
    t.hit(A, "s1", "effect", 1, act="g1")
    t.damage(B, hit + 1, shot="s1")
    t.ability(A, "h1", "gun", "ハクメン")
    t.heal(A, hit + 1, act="h1")
    _, hit = t.shoot(A, "s2", "ドドメ")  # 3 loads: 5 HIT + 1
    t.hit(A, "s2", "effect", 1, act="g1")
    t.damage(B, hit + 1, shot="s2")
    t.end(A)
    return t


@case
def ok_bullet_catch_on_two_shots() -> Table:
    t = Table(
        "ok-bullet-catch-on-two-shots",
        "§継続技能等: バレットキャッチ's N=2 (aoi's turn-start toss) takes 2 off "
        "each of ren's two shots in her next turn",
    )
    t.setup(("キルコ", ["ドドメ", "エンラ"], "バレットキャッチ"), ("ナトリ", ["ダタラ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.load(A, "ドドメ", 4)
    shot_with_damage(t, A, "s1", "ドドメ")
    t.end(A)
    t.turn(B)
    t.end(B)
    t.turn(A)
    t.load(A, "エンラ", 2)
    shot_with_damage(t, A, "s2", "エンラ")
    t.skill(A, "k1", "バレットキャッチ", 6)
    t.end(A)
    t.turn(B)
    t.load(B, "カサネ", 2)
    t.load(B, "ダタラ", 2)
    t.end(B)
    t.turn(A)
    t.group(A, "c1", "continuous", "sso")
    t.resolve(A, "c1", 2, values=[2])
    t.end(A)
    t.turn(B)
    _, hit = t.shoot(B, "s3", "カサネ")  # 2 loads: 4 HIT - 2
    t.hit(A, "s3", "effect", -2, act="c1")
    t.damage(A, hit - 2, shot="s3")
    t.ability(B, "g1", "gun", "カサネ")
    t.damage(B, 2, act="g1", by=B)
    _, hit = t.shoot(B, "s4", "ダタラ")  # 2 loads: 2 HIT - 2
    t.hit(A, "s4", "effect", -2, act="c1")
    t.damage(A, hit - 2, shot="s4")
    t.end(B)
    return t


def _two_noise(name: str, about: str, actions: int) -> tuple[Table, int]:
    """ren has two ノイズジェネレーター (one toss, N=1); aoi then activates ``actions`` actions."""
    t = Table(name, about)
    t.setup(("キルコ", ["ダタラ", "ドドメ"], "ドーピング"), ("ナトリ", ["ツエツキ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.end(A)
    t.turn(B)
    t.function(B, "f1", "ノイズジェネレーター", 0)
    t.function(B, "f2", "ノイズジェネレーター", 0)
    t.end(B)
    t.turn(A)
    t.end(A)
    t.turn(B)
    t.group(B, "g1", "function", "so", card="ノイズジェネレーター", copies=2)
    t.resolve(B, "g1", 1, values=[1])
    t.end(B)
    t.turn(A)
    last = 0
    for i in range(actions):
        last = t.play(A, f"a{i}", "計略")
        t.cost(A, f"a{i}", 1)
        t.toss(A, f"a{i}", "o")
        t.resolve(A, f"a{i}", 0, values=[0])
    t.end(A)
    return t, last


@case
def ok_two_noise_generators_one_action() -> Table:
    t, _ = _two_noise(
        "ok-two-noise-generators-one-action",
        "裁定例 ノイズジェネレーター / FAQ 同じ種類: two copies share N=1; aoi activates one action",
        1,
    )
    return t


@case
def bad_two_noise_generators_two_actions() -> Table:
    t, last = _two_noise(
        "bad-two-noise-generators-two-actions",
        "裁定例 ノイズジェネレーター: two copies with N=1 "
        "still allow one action (each copy says at most N), yet aoi activates two",
        2,
    )
    t.expect("GG-LIM-003", last)
    return t


# == options ====================================================================================


def _keiryaku_paid(name: str, about: str, kind: str, rules: dict[str, Any] | None) -> tuple[Table, int]:
    t = Table(name, about, rules)
    t.setup(("キルコ", ["ダタラ", "ドドメ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.load(A, "ドドメ", 2)
    shot_with_damage(t, A, "s1", "ドドメ")
    t.play(A, "a1", "計略")
    t.cost(A, "a1", 1, kind=kind)
    t.toss(A, "a1", "sso")
    res = t.resolve(A, "a1", 2, values=[2])
    t.draw(A, "ダタラ", 2, act="a1")
    t.end(A)
    return t, res


@case
def ok_option_cost_from_voltage() -> Table:
    t, _ = _keiryaku_paid(
        "ok-option-cost-from-voltage",
        "option cost_payment=voltage: 計略's COST 1 paid from voltage",
        "voltage",
        {"cost_payment": "voltage"},
    )
    return t


@case
def bad_option_cost_from_hand_under_voltage() -> Table:
    t, res = _keiryaku_paid(
        "bad-option-cost-from-hand-under-voltage",
        "option cost_payment=voltage: 計略's COST paid from the hand instead",
        "hand",
        {"cost_payment": "voltage"},
    )
    t.expect("GG-COST-001", res)
    return t


@case
def bad_option_cost_from_voltage_by_default() -> Table:
    t, res = _keiryaku_paid(
        "bad-option-cost-from-voltage-by-default",
        "default cost_payment=hand: 計略's COST paid from voltage",
        "voltage",
        None,
    )
    t.expect("GG-COST-001", res)
    return t


def _burned(
    name: str, about: str, rules: dict[str, Any] | None, loss: int, remove: bool = False, next_loss: int | None = None
) -> tuple[Table, int]:
    """過焔地獄 N=2 gives ren 2 burn; ren's turn 4 start loses ``loss``; turn 6 start ``next_loss``."""
    t = _kaen(name, about, rules)
    t.cost(A, "a1", 2, kind="additional", gun="キヨヒメ")
    t.resolve(A, "a1", 2, values=[2, 2])
    t.add("gg.burn", by=A, player=B, delta=2, act="a1")
    t.end(A)
    t.turn(B)
    t.burn_loss(B, loss)
    if remove:
        t.add("gg.burn", by=B, player=B, delta=-2)
    first = t.load(B, "ヌエ")
    t.end(B)
    t.turn(A)
    t.end(A)
    t.turn(B)
    if next_loss:
        t.burn_loss(B, next_loss)
    main = t.load(B, "ヌエ")
    t.end(B)
    return t, main if next_loss is None else first


@case
def ok_option_burn_per_counter() -> Table:
    t, _ = _burned(
        "ok-option-burn-per-counter",
        "option burn=per-counter: 2 counters cost 6 at each of ren's turn starts (counters kept)",
        {"burn": "per-counter"},
        6,
        next_loss=6,
    )
    return t


@case
def bad_option_burn_flat_amount_under_per_counter() -> Table:
    t, _ = _burned(
        "bad-option-burn-flat-amount-under-per-counter",
        "option burn=per-counter: 2 counters, only 3 lost",
        {"burn": "per-counter"},
        3,
        next_loss=6,
    )
    t.expect("GG-TURN-003", t.seq_of_burn(0))
    return t


@case
def ok_option_burn_counters_removed() -> Table:
    t, _ = _burned(
        "ok-option-burn-counters-removed",
        "option burn_counters=remove: 3 lost once (flat), counters removed, nothing at the next turn start",
        {"burn_counters": "remove"},
        3,
        remove=True,
    )
    return t


@case
def bad_burn_counters_kept_but_skipped() -> Table:
    t, main = _burned(
        "bad-burn-counters-kept-but-skipped",
        "default burn_counters=keep: ren still holds 2 counters but loses nothing at her next turn start",
        None,
        3,
    )
    t.expect("GG-TURN-003", main)
    return t


def _reload_support(name: str, about: str, rules: dict[str, Any] | None, before_refill: bool) -> tuple[Table, int]:
    t = Table(name, about, rules)
    t.setup(("キルコ", ["ハクメン", "ドドメ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.function(A, "f1", "リロード・サポーター", 1)
    t.end(A)
    t.turn(B)
    t.end(B)
    t.turn(A)
    t.group(A, "g1", "function", "so", card="リロード・サポーター")
    t.load(A, "ドドメ", 2)
    if before_refill:
        res = t.resolve(A, "g1", 1, values=[1])
        t.load(A, "ハクメン", 1, zone="deck", deck="ハクメン", how="effect", act="g1")
        t.end(A)
    else:
        t.refill(A)
        res = t.resolve(A, "g1", 1, values=[1])
        t.load(A, "ハクメン", 1, zone="deck", deck="ハクメン", how="effect", act="g1")
        t.close(A)
    return t, res


@case
def ok_option_turn_end_after_refill() -> Table:
    t, _ = _reload_support(
        "ok-option-turn-end-after-refill",
        "option turn_end_order=after-refill: リロード・サポーター resolves after the refill",
        {"turn_end_order": "after-refill"},
        False,
    )
    return t


@case
def bad_option_turn_end_before_refill() -> Table:
    t, res = _reload_support(
        "bad-option-turn-end-before-refill",
        "option turn_end_order=before-refill: リロード・サポーター resolved after the refill",
        {"turn_end_order": "before-refill"},
        False,
    )
    t.expect("GG-TURN-004", res)
    return t


@case
def ok_option_turn_end_any() -> Table:
    t, _ = _reload_support(
        "ok-option-turn-end-any",
        "default turn_end_order=any: リロード・サポーター resolves before the refill",
        None,
        True,
    )
    return t


def _function_on_play(name: str, about: str, rules: dict[str, Any] | None) -> tuple[Table, int]:
    t = Table(name, about, rules)
    t.setup(("キルコ", ["ウワン", "ドドメ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.function(A, "f1", "過負荷光球", 0)
    first = t.toss(A, "f1", "so")[0]
    t.resolve(A, "f1", 1, values=[1])
    t.discard(B, "deck", 1, by=A, gun="ヌエ", act="f1")
    t.end(A)
    return t, first


@case
def ok_option_function_tossed_on_play() -> Table:
    t, _ = _function_on_play(
        "ok-option-function-tossed-on-play",
        "option function_first_toss=on-play: 過負荷光球 tossed once when played",
        {"function_first_toss": "on-play"},
    )
    return t


@case
def bad_function_tossed_on_play_by_default() -> Table:
    t, first = _function_on_play(
        "bad-function-tossed-on-play-by-default",
        "default function_first_toss=next-turn-start: 過負荷光球 tossed when played",
        None,
    )
    t.expect("GG-TOSS-005", first)
    return t


def _two_shots(name: str, about: str, rules: dict[str, Any] | None) -> tuple[Table, int]:
    t = Table(name, about, rules)
    t.setup(("キルコ", ["ドドメ", "エンラ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.load(A, "ドドメ", 2)
    shot_with_damage(t, A, "s1", "ドドメ")
    t.load(A, "ドドメ", 2)
    second, hit = t.shoot(A, "s2", "ドドメ")
    t.damage(B, hit, shot="s2")
    t.end(A)
    return t, second


@case
def ok_option_two_shots_per_gun() -> Table:
    t, _ = _two_shots(
        "ok-option-two-shots-per-gun", "option shots_per_gun=2: ドドメ shoots twice in a turn", {"shots_per_gun": 2}
    )
    return t


@case
def ok_option_deck_out_both_empty_goes_on() -> Table:
    t = Table(
        "ok-option-deck-out-both-empty-goes-on",
        "default deck_out=both-empty: ren's ヌエ deck is milled to 0 but カサネ's is not; the match goes on",
    )
    t.setup(("キルコ", ["ウワン", "ドドメ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.function(A, "f1", "過負荷光球", 0)
    t.end(A)
    t.turn(B)
    t.end(B)
    t.turn(A)
    t.group(A, "g1", "function", "s" * 15 + "o", card="過負荷光球")
    t.resolve(A, "g1", 15, values=[15])
    t.discard(B, "deck", 15, by=A, gun="ヌエ", act="g1")
    t.end(A)
    t.turn(B)
    t.load(B, "カサネ", 2)
    t.end(B, deck="カサネ")
    t.turn(A)
    t.end(A)
    return t


@case
def bad_option_deck_out_either_empty_plays_on() -> Table:
    t = Table(
        "bad-option-deck-out-either-empty-plays-on",
        "option deck_out=either-empty: ren's ヌエ deck is milled to 0, yet ren takes another turn",
        {"deck_out": "either-empty"},
    )
    t.setup(("キルコ", ["ウワン", "ドドメ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.function(A, "f1", "過負荷光球", 0)
    t.end(A)
    t.turn(B)
    t.end(B)
    t.turn(A)
    t.group(A, "g1", "function", "s" * 15 + "o", card="過負荷光球")
    t.resolve(A, "g1", 15, values=[15])
    t.discard(B, "deck", 15, by=A, gun="ヌエ", act="g1")
    t.end(A)
    bad = t.turn(B)
    t.end(B, deck="カサネ")
    t.expect("GG-END-002", bad)
    return t


def _milled_nue(name: str, about: str, rules: dict[str, Any] | None) -> Table:
    """aoi's 過負荷光球 (N=15) mills ren's ヌエ deck (15 left after her opening draw) to 0."""
    t = Table(name, about, rules)
    t.setup(("キルコ", ["ウワン", "ドドメ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.function(A, "f1", "過負荷光球", 0)
    t.end(A)
    t.turn(B)
    t.end(B)
    t.turn(A)
    t.group(A, "g1", "function", "s" * 15 + "o", card="過負荷光球")
    t.resolve(A, "g1", 15, values=[15])
    t.discard(B, "deck", 15, by=A, gun="ヌエ", act="g1")
    t.end(A)
    t.turn(B)
    t.load(B, "カサネ")
    return t


@case
def bad_option_deck_out_failed_draw_plays_on() -> Table:
    t = _milled_nue(
        "bad-option-deck-out-failed-draw-plays-on",
        "option deck_out=failed-draw: ren refills from her "
        "empty ヌエ deck (the draw cannot be made), yet the match goes on",
        {"deck_out": "failed-draw"},
    )
    t.add("gg.draw", by=B, player=B, deck="ヌエ", n=1, why="refill")
    t.close(B)
    bad = t.turn(A)
    t.end(A)
    t.expect("GG-END-002", bad)
    return t


@case
def ok_option_deck_out_failed_draw_not_yet() -> Table:
    t = _milled_nue(
        "ok-option-deck-out-failed-draw-not-yet",
        "option deck_out=failed-draw: ren's ヌエ deck is "
        "empty but she refills from カサネ: no failed draw, the match goes on",
        {"deck_out": "failed-draw"},
    )
    t.end(B, deck="カサネ")
    t.turn(A)
    t.end(A)
    return t


@case
def bad_option_turn_end_after_refill() -> Table:
    t, res = _reload_support(
        "bad-option-turn-end-after-refill",
        "option turn_end_order=after-refill: リロード・サポーター resolved before the refill",
        {"turn_end_order": "after-refill"},
        True,
    )
    t.expect("GG-TURN-004", res)
    return t


@case
def ok_response_cost_paid_when_declared() -> Table:
    t = Table(
        "ok-response-cost-paid-when-declared",
        "§例外 コストは先払い: 多層防壁 (COST 1) set on turn 2, its "
        "COST paid when declared, before its toss (N=2: HIT-2)",
    )
    t.setup(("キルコ", ["ドドメ", "エンラ"], "ドーピング"), ("ナトリ", ["ヌエ", "カサネ"], "グッドメディスン"))
    t.turn(A)
    t.end(A)
    t.turn(B)
    t.set_response(B, "r1", "多層防壁")
    t.end(B)
    t.turn(A)
    t.load(A, "ドドメ", 4)
    _, hit = t.shoot(A, "s1", "ドドメ")
    t.respond(B, "r1", against="s1")
    t.cost(B, "r1", 1)
    t.toss(B, "r1", "sso")
    t.resolve(B, "r1", 2, values=[2])
    t.hit(B, "s1", "response", -2, act="r1")
    t.damage(B, hit - 2, shot="s1")
    t.end(A)
    return t


# == writing ==========================================================================================


def _seq_of_burn(self: Table, nth: int) -> int:
    return [i + 2 for i, e in enumerate(self.events) if e["type"] == "gg.life" and e.get("why") == "burn"][nth]


Table.seq_of_burn = _seq_of_burn  # type: ignore[attr-defined]


def _raw_append(path: Path, ev: dict[str, Any]) -> None:
    """docs/format.md's client recipe: what any other writer would have put in the file."""
    lines = path.read_bytes().split(b"\n")[:-1]
    full = {
        "type": ev["type"],
        "seq": len(lines) + 1,
        "prev": hashlib.sha256(lines[-1]).hexdigest(),
        **{k: v for k, v in ev.items() if k != "type"},
    }
    with path.open("ab") as f:
        f.write(json.dumps(full, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")


def write(t: Table) -> dict[str, Any]:
    path = HERE / f"{t.name}.jsonl"
    path.unlink(missing_ok=True)
    start: dict[str, Any] = {
        "game": "gunandgun",
        "match": t.name,
        "players": [{"id": A, "name": "Aoi"}, {"id": B, "name": "Ren"}],
        "title": t.about,
    }
    if t.rules:
        start["rules"] = t.rules
    logfile.create(path, start)
    refused = []
    for ev in t.events:
        try:
            logfile.append(path, ev)
        except KifuError as exc:
            refused.append(str(exc))
            _raw_append(path, ev)
    return {
        "about": t.about,
        "expected": sorted(t.expected, key=lambda f: (f["seq"], f["code"])),
        **({"refused_when_written": refused} if refused else {}),
    }


def main() -> None:
    for old in HERE.glob("*.jsonl"):
        old.unlink()
    cases = {}
    for make in CASES:
        t = make()
        assert f"{t.name}.jsonl" not in cases, t.name
        cases[f"{t.name}.jsonl"] = write(t)
    (HERE / "cases.json").write_text(
        json.dumps(cases, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
