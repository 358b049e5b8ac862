"""Acceptance cases for ガンナガン with the coin-toss variant, written from seed 000 alone.

Each case is a short match log a table (or a judge at the table) would record following
docs/format.md and docs/games/gunandgun.md, and the findings the seed's ruling implies
(code and seq of every error and warning, [] for a clean log). They were written before
reading the game's implementation: they are the user's checker, not kifu's echo.

Run ``PYTHONPATH=. python tests/acceptance/gunandgun/make.py`` to rebuild the logs and
``cases.json`` byte for byte (no clock, no randomness).

Lines are appended with ``kifu.events.logfile``; when kifu refuses a line the docs call
valid, the line is written the way docs/format.md's client recipe writes it, so the test
then reports the log as wrongly rejected instead of the case vanishing.
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

from kifu.events import logfile  # noqa: E402
from kifu.events.base import KifuError  # noqa: E402

A, B = "aoi", "ren"
OTHER = {A: B, B: A}
HAND = {"キルコ": 4, "ナトリ": 5, "ヒバナ": 3, "ラン": 3}
SPEED = {"キルコ": 4, "ナトリ": 1, "ヒバナ": 5, "ラン": 2}
SKILL = {"キルコ": "ドーピング", "ナトリ": "グッドメディスン", "ヒバナ": "朧走り", "ラン": "がんばる!!"}


class Case:
    """One dispute: the events after match.start, and the findings expected."""

    def __init__(self, name: str, about: str, rules: dict[str, Any] | None = None) -> None:
        self.name = name
        self.about = about
        self.rules = rules or {}
        self.events: list[dict[str, Any]] = []
        self.expected: list[dict[str, Any]] = []
        self.hand = {A: 0, B: 0}
        self.size = {A: 4, B: 5}
        self.turn_no = 0
        self.active = A

    def add(self, type: str, by: str | None = None, **fields: Any) -> int:
        ev: dict[str, Any] = {"type": type}
        if by is not None:
            ev["by"] = by
        ev.update({k: v for k, v in fields.items() if v is not None})
        self.events.append(ev)
        return len(self.events) + 1

    def seq_of(self, type: str, nth: int = 0) -> int:
        """The seq of the ``nth`` event of ``type`` recorded so far."""
        return [i + 2 for i, e in enumerate(self.events) if e["type"] == type][nth]

    def expect(self, code: str, seq: int, consequences: list[int] | None = None) -> None:
        """The finding at ``seq``; ``consequences``: the later events it explains (one mistake, one finding)."""
        self.expected.append({"code": code, "seq": seq, **({"consequences": consequences} if consequences else {})})

    # -- setup and turns ---------------------------------------------------------

    def setup(
        self,
        a: tuple[str, list[str]] = ("キルコ", ["ドドメ", "エンラ"]),
        b: tuple[str, list[str]] = ("ナトリ", ["ヌエ", "カサネ"]),
        skills: tuple[str | None, str | None] = (None, None),
    ) -> None:
        """Both players' choices, the first player by speed, the opening draws."""
        for p, (gunner, guns), skill in ((A, a, skills[0]), (B, b, skills[1])):
            self.add("gg.setup", by=p, player=p, gunner=gunner, guns=guns, skill=skill or SKILL[gunner])
            self.size[p] = HAND[gunner]
        first = A if SPEED[a[0]] >= SPEED[b[0]] else B
        assert first == A, "every case seats the faster gunner as aoi"
        self.add("gg.first", by="system", player=A, reason="speed")
        self.draw(A, a[1][0], HAND[a[0]], "opening")
        self.draw(B, b[1][0], HAND[b[0]], "opening")

    def turn(self, p: str) -> int:
        self.turn_no += 1
        self.active = p
        return self.add("gg.turn", by=p, player=p, turn=self.turn_no)

    def end(self, p: str, deck: str | None = None) -> int:
        """The down phase: refill to the gunner's hand size, then the turn ends."""
        need = self.size[p] - self.hand[p]
        if need > 0:
            self.draw(p, deck or self._deck(p), need, "refill")
        return self.add("gg.turn.end", by=p, player=p, turn=self.turn_no)

    def _deck(self, p: str) -> str:
        for ev in self.events:
            if ev["type"] == "gg.setup" and ev["player"] == p:
                return ev["guns"][0]
        raise AssertionError(p)

    def pass_turn(self, p: str) -> None:
        self.turn(p)
        self.end(p)

    # -- actions -------------------------------------------------------------------

    def draw(self, p: str, deck: str, n: int, why: str = "effect", act: str | None = None) -> int:
        self.hand[p] += n
        return self.add("gg.draw", by=p, player=p, deck=deck, n=n, why=why, act=act)

    def play(self, p: str, act: str, card: str, kind: str = "action") -> int:
        self.hand[p] -= 1
        return self.add("gg.play", by=p, act=act, player=p, card=card, kind=kind)

    def cost(self, p: str, act: str, n: int, kind: str = "hand", gun: str | None = None) -> int:
        if kind == "hand":
            self.hand[p] -= n
        return self.add("gg.cost", by=p, act=act, player=p, kind=kind, n=n, gun=gun)

    def toss(self, p: str, act: str, faces: str) -> list[int]:
        """Tosses written as a string: ``s`` faced the tosser, ``o`` the opponent."""
        return [self.add("gg.toss", by=p, act=act, player=p, facing="self" if f == "s" else "opponent") for f in faces]

    def resolve(self, p: str, act: str, n: int, **kw: Any) -> int:
        return self.add("gg.resolve", by=p, act=act, player=p, n=n, **kw)

    def load(self, p: str, gun: str, n: int = 1, **kw: Any) -> int:
        if kw.get("zone", "hand") == "hand" and kw.get("how", "basic") == "basic":
            self.hand[p] -= n
        return self.add("gg.load", by=p, player=p, gun=gun, n=n, **kw)

    def shoot(self, p: str, shot: str, gun: str) -> int:
        return self.add("gg.shoot", by=p, shot=shot, player=p, gun=gun)

    def life(self, p: str, delta: int, why: str = "hit", by: str | None = None, **kw: Any) -> int:
        return self.add("gg.life", by=by or OTHER[p], player=p, delta=delta, why=why, **kw)

    def hit(self, p: str, shot: str, stage: str, delta: int, act: str | None = None) -> int:
        return self.add("gg.hit", by=p, shot=shot, player=p, stage=stage, delta=delta, act=act)

    def activation(self, p: str, act: str, card: str, cost: int, faces: str, **resolve: Any) -> int:
        """An action: played, COST paid, tossed; returns the seq of its resolution."""
        self.play(p, act, card)
        if cost:
            self.cost(p, act, cost)
        self.toss(p, act, faces)
        return self.resolve(p, act, faces.count("s") if "o" in faces else len(faces), **resolve)


CASES: list[Callable[[], Case]] = []


def case(fn: Callable[[], Case]) -> Callable[[], Case]:
    CASES.append(fn)
    return fn


# -- 【行動】: 計略 (§裁定例【行動】, §概要, FAQ) ----------------------------------------


def _keiryaku(name: str, about: str, faces: str, drawn: int | None = None) -> Case:
    k = Case(name, about)
    k.setup(a=("キルコ", ["ダタラ", "ドドメ"]))
    k.turn(A)
    n = faces.count("s")
    k.activation(A, "a1", "計略", 1, faces, values=[n])
    k.draw(A, "ダタラ", n if drawn is None else drawn, act="a1")
    k.end(A)
    return k


@case
def ok_keiryaku_n3() -> Case:
    return _keiryaku("ok-keiryaku-n3", "裁定例【行動】計略: 3 tosses faced the tosser, so draw 3", "ssso")


@case
def ok_keiryaku_n0() -> Case:
    return _keiryaku(
        "ok-keiryaku-n0",
        "裁定例【行動】計略 / FAQ 0: first toss faced the opponent, draw 0 (recorded as a 0-card draw)",
        "o",
    )


@case
def bad_keiryaku_printed_draw() -> Case:
    k = _keiryaku(
        "bad-keiryaku-printed-draw", "§概要3: N=1 replaces the 3 of 計略, but 3 cards were drawn", "so", drawn=3
    )
    k.expect("GG-NUM-002", 13)
    return k


@case
def ok_two_cards_each_own_toss() -> Case:
    k = Case("ok-two-cards-each-own-toss", "FAQ 複数: two 計略 in one turn, each tossed on its own (N=2, then N=0)")
    k.setup(a=("キルコ", ["ダタラ", "ドドメ"]))
    k.turn(A)
    k.activation(A, "a1", "計略", 1, "sso", values=[2])
    k.draw(A, "ダタラ", 2, act="a1")
    k.activation(A, "a2", "計略", 1, "o", values=[0])
    k.draw(A, "ダタラ", 0, act="a2")
    k.end(A)
    return k


@case
def bad_toss_before_cost() -> Case:
    k = Case("bad-toss-before-cost", "§ルール適用の例外 各種コストは先払い: 計略 tossed before its COST was paid")
    k.setup(a=("キルコ", ["ダタラ", "ドドメ"]))
    k.turn(A)
    k.play(A, "a1", "計略")
    first = k.toss(A, "a1", "so")[0]
    k.cost(A, "a1", 1)
    k.resolve(A, "a1", 1, values=[1])
    k.draw(A, "ダタラ", 1, act="a1")
    k.end(A)
    k.expect("GG-TOSS-001", first)
    return k


@case
def bad_cost_refunded() -> Case:
    k = Case("bad-cost-refunded", "FAQ コスト: N=0 after paying; the COST was taken back into the hand")
    k.setup(a=("キルコ", ["ダタラ", "ドドメ"]))
    k.turn(A)
    k.activation(A, "a1", "計略", 1, "o", values=[0])
    k.hand[A] += 1
    refund = k.add("gg.refund", by=A, act="a1", player=A, kind="hand", n=1)
    k.end(A)
    k.expect("GG-COST-004", refund)
    return k


@case
def bad_n_miscounted() -> Case:
    k = Case("bad-n-miscounted", "§概要1-2: self, self, opponent is N=2; the player counted 3 and drew 3")
    k.setup(a=("キルコ", ["ダタラ", "ドドメ"]))
    k.turn(A)
    k.play(A, "a1", "計略")
    k.cost(A, "a1", 1)
    k.toss(A, "a1", "sso")
    res = k.resolve(A, "a1", 3, values=[3])
    drew = k.draw(A, "ダタラ", 3, act="a1")
    k.end(A)
    k.expect("GG-TOSS-003", res, consequences=[drew])  # drawing 3 follows from the miscount
    return k


@case
def bad_toss_after_opponent() -> Case:
    k = Case(
        "bad-toss-after-opponent",
        "§概要2: the sequence ends at the first toss facing the opponent; a third toss was made",
    )
    k.setup(a=("キルコ", ["ダタラ", "ドドメ"]))
    k.turn(A)
    k.play(A, "a1", "計略")
    k.cost(A, "a1", 1)
    extra = k.toss(A, "a1", "sos")[2]
    k.resolve(A, "a1", 1, values=[1])
    k.draw(A, "ダタラ", 1, act="a1")
    k.end(A)
    k.expect("GG-TOSS-002", extra)
    return k


@case
def bad_turn_limit_after_zero() -> Case:
    k = Case(
        "bad-turn-limit-after-zero",
        "§例外 使用制限は変わらない + FAQ 0 (処理は行われた): 叩き付け (1/turn) used twice, the first with N=0",
    )
    k.setup(a=("キルコ", ["カサネ", "ドドメ"]))
    k.turn(A)
    k.activation(A, "a1", "叩き付け", 0, "o", values=[0, 0])
    second = k.play(A, "a2", "叩き付け")
    k.toss(A, "a2", "o")
    k.resolve(A, "a2", 0, values=[0, 0])
    k.end(A)
    k.expect("GG-LIM-001", second)
    return k


@case
def ok_limit_imposed_is_not_usage_limit() -> Case:
    k = Case(
        "ok-overboost-once-draws-n",
        "§例外: オーバーブースト (1/turn) once with N=4: the draw uses N, the 1/turn limit stays",
    )
    k.setup(a=("キルコ", ["エンラ", "ドドメ"]))
    k.turn(A)
    k.activation(A, "a1", "オーバーブースト", 2, "sssso", values=[4])
    k.draw(A, "エンラ", 4, act="a1")
    k.end(A)
    return k


# -- 追加コスト: 過焔地獄 (§追加コストについて, §裁定例【行動】) -----------------------


def _kaen(name: str, about: str, loads: int, faces: str, paid: int | None, burn: int | None) -> Case:
    k = Case(name, about)
    k.setup(a=("キルコ", ["キヨヒメ", "ダタラ"]))
    for _ in range(loads):
        k.turn(A)
        k.load(A, "キヨヒメ")
        k.end(A, "ダタラ")
        k.pass_turn(B)
    k.turn(A)
    n = faces.count("s")
    k.play(A, "a1", "過焔地獄")
    k.cost(A, "a1", 2)
    k.toss(A, "a1", faces)
    if paid is not None:
        k.cost(A, "a1", paid, kind="additional", gun="キヨヒメ")
    k.resolve(A, "a1", n, values=[n, n])
    if burn:
        k.add("gg.burn", by=A, player=B, delta=burn, act="a1")
    k.end(A, "ダタラ")
    return k


@case
def ok_kaen_n2() -> Case:
    return _kaen(
        "ok-kaen-jigoku-n2",
        "§追加コスト 過焔地獄 N=2: discard 2 loads of キヨヒメ (it holds only 2), 2 burn counters",
        2,
        "sso",
        2,
        2,
    )


@case
def ok_kaen_n0() -> Case:
    return _kaen(
        "ok-kaen-jigoku-n0",
        "§追加コスト 過焔地獄 N=0 with an empty キヨヒメ: additional cost 0, 0 burn counters",
        0,
        "o",
        0,
        None,
    )


@case
def bad_kaen_printed_burn() -> Case:
    k = _kaen(
        "bad-kaen-jigoku-printed-burn",
        "§裁定例 過焔地獄 N=2 but the printed 4 burn counters were given",
        2,
        "sso",
        2,
        4,
    )
    k.expect("GG-NUM-002", k.seq_of("gg.burn"))
    return k


@case
def bad_kaen_additional_not_n() -> Case:
    k = _kaen(
        "bad-kaen-jigoku-additional-not-n",
        "§追加コスト 過焔地獄 N=2 but only 1 load of キヨヒメ was discarded",
        2,
        "sso",
        1,
        2,
    )
    res = next(i + 2 for i, e in enumerate(k.events) if e["type"] == "gg.resolve")
    k.expect("GG-COST-002", res)
    return k


# -- 【銃弾】: 徹甲榴弾 (§裁定例【銃弾】) -------------------------------------------------


def _tekko(name: str, about: str, faces: str, delta: int | None, damage: int) -> Case:
    k = Case(name, about)
    k.setup(a=("キルコ", ["カサネ", "ヌエ"]))
    k.turn(A)
    k.load(A, "カサネ", face="up", card="徹甲榴弾")
    k.load(A, "カサネ", 2)
    k.shoot(A, "s1", "カサネ")
    k.add("gg.bullet", by=A, act="b1", player=A, shot="s1", card="徹甲榴弾")
    k.toss(A, "b1", faces)
    n = faces.count("s")
    k.resolve(A, "b1", n, values=[n, n], measured=3, holds=3 >= n)
    if delta is not None:
        k.hit(A, "s1", "bullet", delta, act="b1")
    k.life(B, -damage, shot="s1")
    k.end(A, "カサネ")
    return k


@case
def ok_tekko_n3() -> Case:
    return _tekko(
        "ok-tekko-n3", "裁定例【銃弾】徹甲榴弾 N=3: 3 loaded >= 3, HIT+3 (カサネ 3 loads = 6, total 9)", "ssso", 3, 9
    )


@case
def ok_tekko_n0() -> Case:
    return _tekko("ok-tekko-n0", "裁定例【銃弾】徹甲榴弾 N=0: load >= 0 holds, HIT+0", "o", 0, 6)


@case
def ok_tekko_fails_no_bonus() -> Case:
    return _tekko("ok-tekko-n4-no-bonus", "§銃弾 徹甲榴弾 N=4: 3 loaded < 4, no bonus, plain 6 HIT", "sssso", None, 6)


@case
def bad_tekko_threshold_ignored() -> Case:
    k = _tekko("bad-tekko-threshold-ignored", "§銃弾 徹甲榴弾 N=4: 3 loaded < 4 yet HIT+4 was added", "sssso", 4, 10)
    k.expect("GG-NUM-003", next(i + 2 for i, e in enumerate(k.events) if e["type"] == "gg.hit"))
    return k


@case
def bad_tekko_printed_bonus() -> Case:
    k = _tekko(
        "bad-tekko-printed-bonus", "§銃弾 徹甲榴弾 N=1: the bonus is +1, but the printed +2 was added", "so", 2, 8
    )
    k.expect("GG-NUM-002", next(i + 2 for i, e in enumerate(k.events) if e["type"] == "gg.hit"))
    return k


# -- 【対応】: 緊急回避, 相撃ち (§裁定例【対応】, FAQ 対応) --------------------------------


def _respond(name: str, about: str, card: str, loads: int = 4) -> Case:
    """aoi loads ドドメ on turn 1; ren sets ``card`` on turn 2; aoi shoots on turn 3."""
    k = Case(name, about)
    k.setup()
    k.turn(A)
    k.load(A, "ドドメ", loads)
    k.end(A)
    k.turn(B)
    k.play(B, "r1", card, kind="response")
    k.end(B)
    k.turn(A)
    k.shoot(A, "s1", "ドドメ")
    k.add("gg.respond", by=B, act="r1", player=B, against="s1")
    return k


def _kinkyu(name: str, about: str, faces: str, delta: int) -> Case:
    k = _respond(name, about, "緊急回避")
    n = faces.count("s")
    k.toss(B, "r1", faces)
    k.resolve(B, "r1", n, values=[n])
    k.hit(B, "s1", "response", delta, act="r1")
    k.life(B, -(7 + delta), shot="s1")
    k.end(A)
    return k


@case
def ok_kinkyu_n2() -> Case:
    return _kinkyu("ok-kinkyu-n2", "裁定例【対応】緊急回避 N=2: HIT-2 (ドドメ 4 loads = 7, 5 dealt)", "sso", -2)


@case
def ok_kinkyu_n0() -> Case:
    return _kinkyu("ok-kinkyu-n0", "裁定例【対応】緊急回避 N=0: HIT-0, all 7 dealt", "o", 0)


@case
def bad_kinkyu_printed() -> Case:
    k = _kinkyu("bad-kinkyu-printed", "§対応 緊急回避 N=2 but the printed HIT-3 was applied", "sso", -3)
    k.expect("GG-NUM-002", next(i + 2 for i, e in enumerate(k.events) if e["type"] == "gg.hit"))
    return k


@case
def ok_aiuchi_n1() -> Case:
    k = _respond("ok-aiuchi-n1", "裁定例【対応】相撃ち N=1: 7 incoming >= 1, deal 1 HIT back", "相撃ち")
    k.toss(B, "r1", "so")
    k.resolve(B, "r1", 1, values=[1, 1], measured=7, holds=True)
    k.life(A, -1, by=B, act="r1")
    k.life(B, -7, shot="s1")
    k.end(A)
    return k


@case
def ok_aiuchi_n0() -> Case:
    k = _respond("ok-aiuchi-n0", "裁定例【対応】相撃ち N=0: 7 incoming >= 0, deal 0 HIT back", "相撃ち")
    k.toss(B, "r1", "o")
    k.resolve(B, "r1", 0, values=[0, 0], measured=7, holds=True)
    k.life(B, -7, shot="s1")
    k.end(A)
    return k


@case
def ok_aiuchi_fizzles() -> Case:
    k = _respond(
        "ok-aiuchi-fizzles",
        "FAQ 対応 / §対応: 相撃ち N=4 against a 3-HIT shot: condition fails, straight to the discard",
        "相撃ち",
        loads=2,
    )
    k.toss(B, "r1", "sssso")
    k.resolve(B, "r1", 4, values=[4, 4], outcome="fizzled", measured=3, holds=False)
    k.add("gg.discard", by=B, player=B, zone="set", card="相撃ち", act="r1")
    k.life(B, -3, shot="s1")
    k.end(A)
    return k


@case
def bad_aiuchi_fails_still_hits() -> Case:
    k = _respond(
        "bad-aiuchi-fails-still-hits",
        "FAQ 対応: 相撃ち N=4 against 3 HIT fails, but 4 HIT was dealt back",
        "相撃ち",
        loads=2,
    )
    k.toss(B, "r1", "sssso")
    # The table wrote no holds/outcome: kifu measures 3 incoming against N=4 itself and
    # judges the resolution that applied a failed response (seed: そのまま捨て札に置く).
    res = k.resolve(B, "r1", 4, values=[4, 4])
    k.life(A, -4, by=B, act="r1")
    k.life(B, -3, shot="s1")
    k.end(A)
    k.expect("GG-RESP-001", res)
    return k


@case
def bad_response_tossed_when_set() -> Case:
    k = Case(
        "bad-response-tossed-when-set",
        "§トス実行タイミング【対応】: 緊急回避 tossed when set in its owner's turn, not at the declaration",
    )
    k.setup()
    k.pass_turn(A)
    k.turn(B)
    k.play(B, "r1", "緊急回避", kind="response")
    early = k.toss(B, "r1", "o")[0]
    k.end(B)
    k.expect("GG-TOSS-005", early)
    return k


# -- 【機能】: リロード・サポーター, ヒーリング・チューブ, ノイズジェネレーター ----------------


def _functions(name: str, about: str, cards: list[str], guns: list[str] | None = None) -> Case:
    """aoi plays function cards on turn 1 (COST paid), ren passes turn 2, aoi's turn 3 starts."""
    k = Case(name, about)
    k.setup(a=("キルコ", guns or ["ハクメン", "ドドメ"]))
    k.turn(A)
    for i, card in enumerate(cards, 1):
        k.play(A, f"f{i}", card, kind="function")
        cost = {"リロード・サポーター": 1}.get(card, 0)
        if cost:
            k.cost(A, f"f{i}", cost)
    k.end(A)
    k.pass_turn(B)
    k.turn(A)
    return k


def _reload(name: str, about: str, faces: str, loaded: int) -> Case:
    k = _functions(name, about, ["リロード・サポーター"])
    k.add("gg.group", by=A, act="g1", player=A, kind="function", card="リロード・サポーター")
    k.toss(A, "g1", faces)
    n = faces.count("s")
    k.resolve(A, "g1", n, values=[n])
    if loaded:
        k.load(A, "ドドメ", loaded, zone="deck", how="effect", deck="ハクメン", act="g1")
    k.end(A)
    return k


@case
def ok_reload_supporter_n2() -> Case:
    return _reload(
        "ok-reload-supporter-n2",
        "裁定例【機能】リロード・サポーター N=2 (tossed at turn start): load 2 from the deck top",
        "sso",
        2,
    )


@case
def ok_reload_supporter_n0() -> Case:
    return _reload("ok-reload-supporter-n0", "裁定例【機能】リロード・サポーター N=0: load 0", "o", 0)


@case
def bad_reload_supporter_over_n() -> Case:
    k = _reload("bad-reload-supporter-over-n", "§機能 リロード・サポーター N=2 but 3 cards were loaded", "sso", 3)
    k.expect("GG-NUM-002", next(i + 2 for i, e in enumerate(k.events) if e["type"] == "gg.load" and e.get("act")))
    return k


@case
def bad_function_tossed_mid_turn() -> Case:
    k = _functions(
        "bad-function-tossed-mid-turn",
        "§機能 自分のターン開始時: the turn toss was made after a basic load",
        ["リロード・サポーター"],
    )
    k.load(A, "ドドメ")
    late = k.add("gg.group", by=A, act="g1", player=A, kind="function", card="リロード・サポーター")
    k.toss(A, "g1", "so")
    k.resolve(A, "g1", 1, values=[1])
    k.load(A, "ドドメ", 1, zone="deck", how="effect", deck="ハクメン", act="g1")
    k.end(A)
    k.expect("GG-TOSS-005", late)
    return k


@case
def ok_same_kind_one_toss() -> Case:
    k = _functions(
        "ok-same-kind-one-toss",
        "FAQ 機能 同じ種類: two リロード・サポーター share one toss (N=1), each loads 1",
        ["リロード・サポーター", "リロード・サポーター"],
    )
    k.add("gg.group", by=A, act="g1", player=A, kind="function", card="リロード・サポーター", copies=2)
    k.toss(A, "g1", "so")
    k.resolve(A, "g1", 1, values=[1])
    k.load(A, "ドドメ", 1, zone="deck", how="effect", deck="ハクメン", act="g1")
    k.load(A, "ハクメン", 1, zone="deck", how="effect", deck="ハクメン", act="g1")
    k.end(A)
    return k


@case
def bad_same_kind_tossed_twice() -> Case:
    k = _functions(
        "bad-same-kind-tossed-twice",
        "FAQ 機能 同じ種類: two リロード・サポーター tossed separately",
        ["リロード・サポーター", "リロード・サポーター"],
    )
    k.add("gg.group", by=A, act="g1", player=A, kind="function", card="リロード・サポーター")
    k.toss(A, "g1", "so")
    second = k.add("gg.group", by=A, act="g2", player=A, kind="function", card="リロード・サポーター")
    k.toss(A, "g2", "sso")
    k.resolve(A, "g1", 1, values=[1])
    k.load(A, "ドドメ", 1, zone="deck", how="effect", deck="ハクメン", act="g1")
    k.resolve(A, "g2", 2, values=[2])
    k.load(A, "ハクメン", 2, zone="deck", how="effect", deck="ハクメン", act="g2")
    k.end(A)
    k.expect("GG-TOSS-007", second)
    return k


@case
def ok_different_kinds_own_tosses() -> Case:
    k = _functions(
        "ok-different-kinds-own-tosses",
        "FAQ 機能 種類が異なる: リロード・サポーター (N=1) and ヒーリング・チューブ (N=0) tossed separately",
        ["リロード・サポーター", "ヒーリング・チューブ"],
    )
    k.add("gg.group", by=A, act="g1", player=A, kind="function", card="リロード・サポーター")
    k.toss(A, "g1", "so")
    k.add("gg.group", by=A, act="g2", player=A, kind="function", card="ヒーリング・チューブ")
    k.toss(A, "g2", "o")
    k.resolve(A, "g1", 1, values=[1])
    k.load(A, "ドドメ", 1, zone="deck", how="effect", deck="ハクメン", act="g1")
    k.resolve(A, "g2", 0, values=[0])
    k.end(A)
    return k


def _noise(name: str, about: str, faces: str, actions: int) -> tuple[Case, list[int]]:
    k = Case(name, about)
    k.setup(a=("キルコ", ["ツエツキ", "ドドメ"]), b=("ナトリ", ["ダタラ", "カサネ"]))
    k.turn(A)
    k.play(A, "f1", "ノイズジェネレーター", kind="function")
    k.end(A, "ツエツキ")
    k.pass_turn(B)
    k.turn(A)
    k.add("gg.group", by=A, act="g1", player=A, kind="function", card="ノイズジェネレーター")
    k.toss(A, "g1", faces)
    n = faces.count("s")
    k.resolve(A, "g1", n, values=[n])
    k.end(A, "ツエツキ")
    k.turn(B)
    plays = []
    for i in range(actions):
        plays.append(len(k.events) + 2)
        k.activation(B, f"b{i}", "計略", 1, "o", values=[0])
        k.draw(B, "ダタラ", 0, act=f"b{i}")
    k.end(B)
    return k, plays


@case
def ok_noise_generator_n3() -> Case:
    k, _ = _noise(
        "ok-noise-generator-n3",
        "裁定例【機能】ノイズジェネレーター N=3: the opponent plays 2 actions (<= 3)",
        "ssso",
        2,
    )
    return k


@case
def bad_noise_generator_n0() -> Case:
    k, plays = _noise(
        "bad-noise-generator-n0",
        "裁定例【機能】ノイズジェネレーター N=0: the opponent may play no action, but played 計略",
        "o",
        1,
    )
    k.expect("GG-LIM-003", plays[0])
    return k


# -- 継続技能等 (§トス実行タイミング, §裁定例 継続技能等, FAQ 継続技能) ---------------------


def _continuous(name: str, about: str) -> Case:
    """aoi (キルコ) builds 6 voltage with two shots, uses バレットキャッチ, and starts turn 5."""
    k = Case(name, about)
    k.setup(skills=("バレットキャッチ", None))
    k.turn(A)
    k.load(A, "ドドメ", 4)
    k.shoot(A, "s1", "ドドメ")
    k.life(B, -7, shot="s1")
    k.end(A)
    k.pass_turn(B)
    k.turn(A)
    k.load(A, "エンラ", 2)
    k.shoot(A, "s2", "エンラ")
    k.life(B, -3, shot="s2")
    k.add("gg.skill", by=A, act="k1", player=A, skill="バレットキャッチ")
    k.cost(A, "k1", 6, kind="voltage")
    k.end(A)
    k.pass_turn(B)
    k.turn(A)
    return k


@case
def ok_continuous_one_toss() -> Case:
    k = _continuous("ok-continuous-one-toss", "§継続技能等: バレットキャッチ tossed once at aoi's turn start (N=1)")
    k.add("gg.group", by=A, act="c1", player=A, kind="continuous")
    k.toss(A, "c1", "so")
    k.resolve(A, "c1", 1, values=[1])
    k.end(A)
    return k


@case
def bad_continuous_tossed_twice() -> Case:
    k = _continuous("bad-continuous-tossed-twice", "FAQ 継続技能: tossed twice at one turn start")
    k.add("gg.group", by=A, act="c1", player=A, kind="continuous")
    k.toss(A, "c1", "so")
    second = k.add("gg.group", by=A, act="c2", player=A, kind="continuous")
    k.toss(A, "c2", "o")
    k.resolve(A, "c1", 1, values=[1])
    k.end(A)
    k.expect("GG-TOSS-007", second)
    return k


# -- 銃士効果・機銃の固有効果, 装填 (§例外, FAQ 装填) -------------------------------------


@case
def bad_gun_effect_tossed() -> Case:
    k = Case("bad-gun-effect-tossed", "§例外 機銃の固有効果には適用されない: a toss was made for ドドメ's own effect")
    k.setup()
    k.turn(A)
    k.add("gg.ability", by=A, act="g1", player=A, source="gun", name="ドドメ")
    first = k.toss(A, "g1", "o")[0]
    k.end(A)
    k.expect("GG-TOSS-009", first)
    return k


def _multi_gun(name: str, about: str, faces: str, rules: dict[str, Any] | None = None) -> Case:
    """キルコ's マキシマムリロード with エンラ room 2 and ドドメ room 4 (voltage from two shots)."""
    k = Case(name, about, rules)
    k.setup(skills=("マキシマムリロード", None))
    k.turn(A)
    k.load(A, "ドドメ", 3)
    k.shoot(A, "s1", "ドドメ")
    k.life(B, -5, shot="s1")
    k.load(A, "エンラ", 1)
    k.end(A)
    k.pass_turn(B)
    k.turn(A)
    k.load(A, "ドドメ", 3)
    k.shoot(A, "s2", "ドドメ")
    k.life(B, -5, shot="s2")
    k.add("gg.skill", by=A, act="k1", player=A, skill="マキシマムリロード")
    k.cost(A, "k1", 6, kind="voltage")
    k.toss(A, "k1", faces)
    k.resolve(A, "k1", 4, values=[4])
    k.load(A, "エンラ", 2, zone="deck", how="effect", deck="ドドメ", act="k1")
    k.load(A, "ドドメ", 4, zone="deck", how="effect", deck="ドドメ", act="k1")
    k.end(A)
    return k


@case
def ok_multi_gun_load_cap() -> Case:
    k = _multi_gun(
        "ok-multi-gun-load-cap",
        "FAQ 装填効果 / §例外: guns with room 2 and 4; tossing stops at 4 self, エンラ gets 2, ドドメ 4",
        "ssss",
    )
    return k


@case
def bad_multi_gun_tossed_past_cap() -> Case:
    k = _multi_gun(
        "bad-multi-gun-tossed-past-cap",
        "§例外 装填上限に達した場合はそこで止まる, read as 'the tossing stops' "
        "(option load_toss_end=cap): a fifth toss after the larger room (4) was reached",
        "sssso",
        {"load_toss_end": "cap"},
    )
    k.expect("GG-TOSS-002", next(i + 2 for i, e in enumerate(k.events) if e["type"] == "gg.toss") + 4)
    return k


@case
def ok_load_over_max_ignored() -> Case:
    k = Case(
        "ok-load-over-max-ignored",
        "FAQ 装填上限を超えた場合: 高速充電 N=6 into キヨヒメ (max 5): 5 loaded, the rest ignored; 6 drawn",
    )
    k.setup(a=("キルコ", ["ヌエ", "キヨヒメ"]))
    k.turn(A)
    k.activation(A, "a1", "高速充電", 0, "sssssso", values=[6, 6])
    k.load(A, "キヨヒメ", 5, zone="deck", how="effect", deck="ヌエ", act="a1")
    k.draw(A, "ヌエ", 6, act="a1")
    k.end(A)
    return k


@case
def ok_load_over_max_recorded_as_n() -> Case:
    k = Case(
        "ok-load-over-max-recorded-as-n",
        "FAQ 装填上限を超えた場合: 高速充電 N=6 recorded as 'load 6' into キヨヒメ (max 5): the excess is ignored, no error",
    )
    k.setup(a=("キルコ", ["ヌエ", "キヨヒメ"]))
    k.turn(A)
    k.activation(A, "a1", "高速充電", 0, "sssssso", values=[6, 6])
    k.load(A, "キヨヒメ", 6, zone="deck", how="effect", deck="ヌエ", act="a1")
    k.draw(A, "ヌエ", 6, act="a1")
    k.end(A)
    return k


@case
def bad_basic_load_into_full_gun() -> Case:
    k = Case(
        "bad-basic-load-into-full-gun",
        "FAQ 装填数は装填上限の値で固定: after 高速充電 filled キヨヒメ to 5, a basic load was added",
    )
    k.setup(a=("キルコ", ["ヌエ", "キヨヒメ"]))
    k.turn(A)
    k.activation(A, "a1", "高速充電", 0, "sssssso", values=[6, 6])
    k.load(A, "キヨヒメ", 5, zone="deck", how="effect", deck="ヌエ", act="a1")
    k.draw(A, "ヌエ", 6, act="a1")
    k.expect("GG-LOAD-002", k.load(A, "キヨヒメ"))
    k.end(A)
    return k


# -- base-game rules a judge hits in these matches (builder's known gaps) ------------


def _blitz(name: str, about: str, faces: str) -> Case:
    k = Case(name, about)
    k.setup()
    k.turn(A)
    k.activation(A, "a1", "ブリッツ", 3, faces, values=[faces.count("s")])
    k.end(A)
    return k


@case
def ok_blitz_extra_turn() -> Case:
    k = _blitz("ok-blitz-extra-turn", "ブリッツ N=1 gives one extra turn: aoi takes turns 1 and 2, then ren", "so")
    k.pass_turn(A)
    k.pass_turn(B)
    return k


@case
def bad_blitz_zero_extra_turn() -> Case:
    k = _blitz("bad-blitz-zero-extra-turn", "ブリッツ N=0 gives no extra turn, but aoi took another turn", "o")
    wrong = k.turn(A)
    k.end(A)
    k.expect("GG-TURN-001", wrong)
    return k


@case
def bad_overheat_first_turn() -> Case:
    k = Case(
        "bad-overheat-first-turn",
        "オーバーヒート cannot be used on your own first turn (a structural number, never tossed)",
    )
    k.setup(a=("キルコ", ["ドドメ", "ダタラ"]), b=("ナトリ", ["ヌエ", "カサネ"]))
    k.turn(A)
    k.activation(A, "a1", "計略", 1, "sssso", values=[4])
    k.draw(A, "ドドメ", 4, act="a1")
    play = len(k.events) + 2
    k.activation(A, "a2", "オーバーヒート", 5, "o")
    k.draw(A, "ドドメ", 0, act="a2")
    k.end(A)
    k.expect("GG-LIM-005", play)
    return k


@case
def ok_full_exchange() -> Case:
    k = Case("ok-full-exchange", "a clean four-turn exchange: loads, a shot, a set response, 計略, a turn toss group")
    k.setup(a=("キルコ", ["ドドメ", "ダタラ"]), b=("ナトリ", ["ヌエ", "カサネ"]))
    k.turn(A)
    k.load(A, "ドドメ", 2)
    k.activation(A, "a1", "計略", 1, "so", values=[1])
    k.draw(A, "ダタラ", 1, act="a1")
    k.end(A)
    k.turn(B)
    k.play(B, "r1", "緊急回避", kind="response")
    k.load(B, "カサネ", 2)
    k.shoot(B, "s1", "カサネ")
    k.life(A, -4, shot="s1")
    k.end(B)
    k.turn(A)
    k.shoot(A, "s2", "ドドメ")
    k.add("gg.respond", by=B, act="r1", player=B, against="s2")
    k.toss(B, "r1", "sso")
    k.resolve(B, "r1", 2, values=[2])
    k.hit(B, "s2", "response", -2, act="r1")
    k.life(B, -1, shot="s2")
    k.end(A)
    k.pass_turn(B)
    return k


@case
def ok_blitz_two_extra_turns() -> Case:
    k = _blitz(
        "ok-blitz-two-extra-turns",
        "ブリッツ N=2: the 1 of 'one extra turn' is replaced, aoi takes turns 1, 2 and 3",
        "sso",
    )
    k.pass_turn(A)
    k.pass_turn(A)
    k.pass_turn(B)
    return k


@case
def ok_overheat_later_turn() -> Case:
    k = Case("ok-overheat-later-turn", "オーバーヒート on aoi's second turn: allowed; N=1 draws 1")
    k.setup(a=("キルコ", ["ドドメ", "ダタラ"]), b=("ナトリ", ["ヌエ", "カサネ"]))
    k.pass_turn(A)
    k.pass_turn(B)
    k.turn(A)
    k.activation(A, "a1", "計略", 1, "sssso", values=[4])
    k.draw(A, "ドドメ", 4, act="a1")
    k.activation(A, "a2", "オーバーヒート", 5, "so")
    k.draw(A, "ドドメ", 1, act="a2")
    k.end(A)
    return k


@case
def ok_keiryaku_zero_without_draw_line() -> Case:
    k = Case(
        "ok-keiryaku-zero-without-draw-line", "FAQ 0: 計略 N=0 recorded with no gg.draw at all (nothing was drawn)"
    )
    k.setup(a=("キルコ", ["ダタラ", "ドドメ"]))
    k.turn(A)
    k.activation(A, "a1", "計略", 1, "o", values=[0])
    k.end(A)
    return k


@case
def ok_response_cost_at_declaration() -> Case:
    k = _respond(
        "ok-response-cost-at-declaration",
        "多層防壁 set on turn 2, its COST 1 paid when declared, then tossed (N=1: HIT-1)",
        "多層防壁",
    )
    k.cost(B, "r1", 1)
    k.toss(B, "r1", "so")
    k.resolve(B, "r1", 1, values=[1])
    k.hit(B, "s1", "response", -1, act="r1")
    k.life(B, -6, shot="s1")
    k.end(A)
    return k


def _two_responses(name: str, about: str, order: tuple[str, str]) -> Case:
    k = Case(name, about)
    k.setup()
    k.turn(A)
    k.load(A, "ドドメ", 4)
    k.end(A)
    k.turn(B)
    k.play(B, "r1", "緊急回避", kind="response")
    k.play(B, "r2", "相撃ち", kind="response")
    k.end(B)
    k.turn(A)
    k.shoot(A, "s1", "ドドメ")
    for r in ("r1", "r2"):
        k.add("gg.respond", by=B, act=r, player=B, against="s1")
        k.toss(B, r, "so")
    for r in order:
        if r == "r1":
            k.resolve(B, "r1", 1, values=[1])
            k.hit(B, "s1", "response", -1, act="r1")
        else:
            k.resolve(B, "r2", 1, values=[1, 1], measured=7 if order[0] == "r2" else 6, holds=True)
            k.life(A, -1, by=B, act="r2")
    k.life(B, -6, shot="s1")
    k.end(A)
    return k


@case
def ok_responses_last_in_first_out() -> Case:
    return _two_responses(
        "ok-responses-lifo",
        "two responses to one shot resolve last declared first (相撃ち, then 緊急回避)",
        ("r2", "r1"),
    )


@case
def bad_responses_first_in_first_out() -> Case:
    k = _two_responses(
        "bad-responses-fifo", "two responses to one shot: the first declared (緊急回避) resolved first", ("r1", "r2")
    )
    k.expect("GG-RESP-004", k.seq_of("gg.resolve"))
    return k


def _blocked(name: str, about: str, gun: str, stealth: bool, respond: bool) -> Case:
    k = Case(name, about)
    k.setup(a=("キルコ", [gun, "ドドメ"]))
    k.turn(A)
    if stealth:
        k.load(A, gun, face="up", card="ステルスバレット")
        k.load(A, gun)
    else:
        k.load(A, gun, 2)
    k.end(A)
    k.turn(B)
    k.play(B, "r1", "緊急回避", kind="response")
    k.end(B)
    k.turn(A)
    k.shoot(A, "s1", gun)
    if stealth:
        k.add("gg.bullet", by=A, act="b1", player=A, shot="s1", card="ステルスバレット")
    damage = 3 if gun == "エンラ" else 2
    if respond:
        k.add("gg.respond", by=B, act="r1", player=B, against="s1")
        k.toss(B, "r1", "so")
        k.resolve(B, "r1", 1, values=[1])
        k.hit(B, "s1", "response", -1, act="r1")
        damage -= 1
    k.life(B, -damage, shot="s1")
    k.end(A)
    return k


@case
def bad_respond_to_datara() -> Case:
    k = _blocked(
        "bad-respond-to-datara",
        "ダタラ's own effect: no 【対応】 against its shots, yet 緊急回避 was declared",
        "ダタラ",
        False,
        True,
    )
    k.expect("GG-RESP-005", k.seq_of("gg.respond"))
    return k


@case
def bad_respond_to_stealth() -> Case:
    k = _blocked(
        "bad-respond-to-stealth",
        "ステルスバレット: no 【対応】 against this shot, yet 緊急回避 was declared",
        "エンラ",
        True,
        True,
    )
    k.expect("GG-RESP-005", k.seq_of("gg.respond"))
    return k


@case
def ok_stealth_shot_unanswered() -> Case:
    return _blocked(
        "ok-stealth-shot-unanswered",
        "ステルスバレット (no number, so no toss) fired; the set 緊急回避 stays set",
        "エンラ",
        True,
        False,
    )


@case
def ok_respond_without_against() -> Case:
    k = Case(
        "ok-respond-without-against",
        "緊急回避 declared without `against` (optional in the docs): it answers the shot just declared",
    )
    k.setup()
    k.turn(A)
    k.load(A, "ドドメ", 4)
    k.end(A)
    k.turn(B)
    k.play(B, "r1", "緊急回避", kind="response")
    k.end(B)
    k.turn(A)
    k.shoot(A, "s1", "ドドメ")
    k.add("gg.respond", by=B, act="r1", player=B)
    k.toss(B, "r1", "so")
    k.resolve(B, "r1", 1, values=[1])
    k.hit(B, "s1", "response", -1, act="r1")
    k.life(B, -6, shot="s1")
    k.end(A)
    return k


@case
def ok_action_without_numbers_not_tossed() -> Case:
    k = Case(
        "ok-action-without-numbers-not-tossed", "バラージ has no number to replace: played and resolved without a toss"
    )
    k.setup()
    k.turn(A)
    k.play(A, "a1", "バラージ")
    k.resolve(A, "a1", 0)
    k.end(A)
    return k


@case
def ok_keiryaku_without_resolve_line() -> Case:
    k = Case(
        "ok-keiryaku-without-resolve-line", "計略 N=2 recorded as play, cost, tosses and the draw (no gg.resolve line)"
    )
    k.setup(a=("キルコ", ["ダタラ", "ドドメ"]))
    k.turn(A)
    k.play(A, "a1", "計略")
    k.cost(A, "a1", 1)
    k.toss(A, "a1", "sso")
    k.draw(A, "ダタラ", 2, act="a1")
    k.end(A)
    return k


@case
def ok_tekko_unmeasured() -> Case:
    k = Case("ok-tekko-unmeasured", "徹甲榴弾 N=2 without measured/holds in the log: 3 loaded >= 2, HIT+2 (6 + 2 = 8)")
    k.setup(a=("キルコ", ["カサネ", "ヌエ"]))
    k.turn(A)
    k.load(A, "カサネ", face="up", card="徹甲榴弾")
    k.load(A, "カサネ", 2)
    k.shoot(A, "s1", "カサネ")
    k.add("gg.bullet", by=A, act="b1", player=A, shot="s1", card="徹甲榴弾")
    k.toss(A, "b1", "sso")
    k.resolve(A, "b1", 2, values=[2, 2])
    k.hit(A, "s1", "bullet", 2, act="b1")
    k.life(B, -8, shot="s1")
    k.end(A, "カサネ")
    return k


@case
def ok_noise_generator_before_first_toss() -> Case:
    k = Case(
        "ok-noise-generator-before-first-toss",
        "ノイズジェネレーター played on turn 1 has no N until aoi's next turn start: ren's two actions on turn 2 are not errors",
    )
    k.setup(a=("キルコ", ["ツエツキ", "ドドメ"]), b=("ナトリ", ["ダタラ", "カサネ"]))
    k.turn(A)
    k.play(A, "f1", "ノイズジェネレーター", kind="function")
    k.end(A, "ツエツキ")
    k.turn(B)
    for i in range(2):
        k.activation(B, f"b{i}", "計略", 1, "o", values=[0])
    k.end(B)
    return k


@case
def ok_response_cost_when_set() -> Case:
    k = Case(
        "ok-response-cost-when-set",
        "多層防壁's COST 1 paid when it was set (turn 2); tossed at the declaration (N=2: HIT-2)",
    )
    k.setup()
    k.turn(A)
    k.load(A, "ドドメ", 4)
    k.end(A)
    k.turn(B)
    k.play(B, "r1", "多層防壁", kind="response")
    k.cost(B, "r1", 1)
    k.end(B)
    k.turn(A)
    k.shoot(A, "s1", "ドドメ")
    k.add("gg.respond", by=B, act="r1", player=B, against="s1")
    k.toss(B, "r1", "sso")
    k.resolve(B, "r1", 2, values=[2])
    k.hit(B, "s1", "response", -2, act="r1")
    k.life(B, -5, shot="s1")
    k.end(A)
    return k


@case
def bad_additional_cost_prepaid() -> Case:
    k = Case(
        "bad-additional-cost-prepaid",
        "§追加コスト: 過焔地獄's additional cost depends on N, yet 2 loads were discarded before the toss",
    )
    k.setup(a=("キルコ", ["キヨヒメ", "ダタラ"]))
    for _ in range(2):
        k.turn(A)
        k.load(A, "キヨヒメ")
        k.end(A, "ダタラ")
        k.pass_turn(B)
    k.turn(A)
    k.play(A, "a1", "過焔地獄")
    k.cost(A, "a1", 2)
    early = k.cost(A, "a1", 2, kind="additional", gun="キヨヒメ")
    k.toss(A, "a1", "sso")
    k.resolve(A, "a1", 2, values=[2, 2])
    k.add("gg.burn", by=A, player=B, delta=2, act="a1")
    k.end(A, "ダタラ")
    k.expect("GG-COST-002", early)
    return k


def _oboro(name: str, about: str, faces: str, dealt: int) -> Case:
    """ヒバナ builds 5 voltage with two shots, then uses 朧走り (3 HIT → N HIT)."""
    k = Case(name, about)
    k.setup(a=("ヒバナ", ["ドドメ", "カサネ"]))
    k.turn(A)
    k.load(A, "ドドメ", 3)
    k.shoot(A, "s1", "ドドメ")
    k.life(B, -5, shot="s1")
    k.end(A)
    k.pass_turn(B)
    k.turn(A)
    k.load(A, "カサネ", 2)
    k.shoot(A, "s2", "カサネ")
    k.life(B, -4, shot="s2")
    k.add("gg.skill", by=A, act="k1", player=A, skill="朧走り")
    k.cost(A, "k1", 5, kind="voltage")
    k.toss(A, "k1", faces)
    n = faces.count("s")
    k.resolve(A, "k1", n, values=[n])
    k.life(B, -dealt, act="k1")
    k.end(A)
    return k


@case
def ok_skill_hit_uses_n() -> Case:
    return _oboro(
        "ok-skill-hit-uses-n",
        "§基本ルール2 (skills are not excluded): 朧走り N=2 deals 2 HIT; its voltage cost 5 stays",
        "sso",
        2,
    )


@case
def bad_skill_hit_printed() -> Case:
    k = _oboro("bad-skill-hit-printed", "朧走り N=1 but the printed 3 HIT was dealt", "so", 3)
    k.expect("GG-NUM-002", k.seq_of("gg.life", 2))
    return k


def _bullet_catch(name: str, about: str, delta: int) -> Case:
    k = _continuous(name, about)
    k.add("gg.group", by=A, act="c1", player=A, kind="continuous")
    k.toss(A, "c1", "so")
    k.resolve(A, "c1", 1, values=[1])
    k.end(A)
    k.turn(B)
    k.load(B, "カサネ", 2)
    k.shoot(B, "s3", "カサネ")
    k.hit(A, "s3", "effect", delta, act="c1")
    k.life(A, -(4 + delta), shot="s3")
    k.end(B)
    return k


@case
def ok_continuous_n_applied() -> Case:
    return _bullet_catch(
        "ok-continuous-n-applied",
        "§継続技能等: バレットキャッチ's N=1 from aoi's turn start takes 1 HIT off ren's next shot",
        -1,
    )


@case
def bad_continuous_printed() -> Case:
    k = _bullet_catch("bad-continuous-printed", "§継続技能等: バレットキャッチ N=1, but the printed -2 was applied", -2)
    k.expect("GG-NUM-002", k.seq_of("gg.hit"))
    return k


@case
def ok_burn_at_turn_start() -> Case:
    k = _kaen(
        "ok-burn-at-turn-start",
        "過焔地獄 N=2 gives 2 burn counters; ren loses 3 at the start of ren's turn (option burn=flat)",
        2,
        "sso",
        2,
        2,
    )
    k.turn(B)
    k.life(B, -3, why="burn", by=B)
    k.end(B)
    return k


@case
def ok_draw_split_across_decks() -> Case:
    k = Case("ok-draw-split-across-decks", "計略 N=3 draws 2 from ダタラ's deck and 1 from ドドメ's")
    k.setup(a=("キルコ", ["ダタラ", "ドドメ"]))
    k.turn(A)
    k.activation(A, "a1", "計略", 1, "ssso", values=[3])
    k.draw(A, "ダタラ", 2, act="a1")
    k.draw(A, "ドドメ", 1, act="a1")
    k.end(A)
    return k


@case
def ok_copies_not_written() -> Case:
    k = _functions(
        "ok-copies-not-written",
        "FAQ 同じ種類: two リロード・サポーター in play, the group written without `copies`; each loads N=1",
        ["リロード・サポーター", "リロード・サポーター"],
    )
    k.add("gg.group", by=A, act="g1", player=A, kind="function", card="リロード・サポーター")
    k.toss(A, "g1", "so")
    k.resolve(A, "g1", 1, values=[1])
    k.load(A, "ドドメ", 1, zone="deck", how="effect", deck="ハクメン", act="g1")
    k.load(A, "ハクメン", 1, zone="deck", how="effect", deck="ハクメン", act="g1")
    k.end(A)
    return k


@case
def bad_opponent_tossed() -> Case:
    k = Case("bad-opponent-tossed", "§基本ルール2 カードを発動する際にコイントス: ren tossed the coin for aoi's 計略")
    k.setup(a=("キルコ", ["ダタラ", "ドドメ"]))
    k.turn(A)
    k.play(A, "a1", "計略")
    k.cost(A, "a1", 1)
    wrong = k.add("gg.toss", by=B, act="a1", player=B, facing="opponent")
    k.resolve(A, "a1", 0, values=[0])
    k.end(A)
    k.expect("GG-TOSS-006", wrong)
    return k


@case
def bad_function_tossed_in_opponents_turn() -> Case:
    k = _functions(
        "bad-function-tossed-in-opponents-turn",
        "§機能 自分のターン開始時: aoi tossed for リロード・サポーター at the start of ren's turn",
        ["リロード・サポーター"],
    )
    k.end(A)
    k.turn(B)
    wrong = k.add("gg.group", by=A, act="g1", player=A, kind="function", card="リロード・サポーター")
    k.toss(A, "g1", "o")
    k.resolve(A, "g1", 0, values=[0])
    k.end(B)
    k.expect("GG-TOSS-005", wrong)
    return k


@case
def bad_values_not_n() -> Case:
    k = Case(
        "bad-values-not-n", "§概要3: 計略 N=2 resolved with values [3] (the printed number) although 2 cards were drawn"
    )
    k.setup(a=("キルコ", ["ダタラ", "ドドメ"]))
    k.turn(A)
    res = k.activation(A, "a1", "計略", 1, "sso", values=[3])
    k.draw(A, "ダタラ", 2, act="a1")
    k.end(A)
    k.expect("GG-NUM-001", res)
    return k


@case
def bad_tekko_holds_misjudged() -> Case:
    k = Case(
        "bad-tekko-holds-misjudged",
        "裁定例【銃弾】徹甲榴弾 N=2 with 3 loaded holds (3 >= 2), but the table wrote holds=false and added nothing",
    )
    k.setup(a=("キルコ", ["カサネ", "ヌエ"]))
    k.turn(A)
    k.load(A, "カサネ", face="up", card="徹甲榴弾")
    k.load(A, "カサネ", 2)
    k.shoot(A, "s1", "カサネ")
    k.add("gg.bullet", by=A, act="b1", player=A, shot="s1", card="徹甲榴弾")
    k.toss(A, "b1", "sso")
    res = k.resolve(A, "b1", 2, values=[2, 2], measured=3, holds=False)
    k.life(B, -6, shot="s1")
    k.end(A, "カサネ")
    k.expect("GG-NUM-003", res)
    return k


@case
def bad_cost_never_paid() -> Case:
    k = Case(
        "bad-cost-never-paid", "§概要5 / §例外: 計略 (COST 1) was tossed and resolved without its COST ever being paid"
    )
    k.setup(a=("キルコ", ["ダタラ", "ドドメ"]))
    k.turn(A)
    k.play(A, "a1", "計略")
    first = k.toss(A, "a1", "so")[0]
    res = k.resolve(A, "a1", 1, values=[1])
    k.draw(A, "ダタラ", 1, act="a1")
    k.end(A)
    k.expect("GG-TOSS-001", first, consequences=[res])  # resolved unpaid: the same cost never paid
    return k


@case
def bad_overdraw_without_resolve_line() -> Case:
    k = Case(
        "bad-overdraw-without-resolve-line",
        "§概要3: 計略 tossed self, opponent (N=1) and 3 cards drawn, with no gg.resolve line",
    )
    k.setup(a=("キルコ", ["ダタラ", "ドドメ"]))
    k.turn(A)
    k.play(A, "a1", "計略")
    k.cost(A, "a1", 1)
    k.toss(A, "a1", "so")
    drew = k.draw(A, "ダタラ", 3, act="a1")
    k.end(A)
    k.expect("GG-NUM-002", drew)
    return k


@case
def bad_aiuchi_fails_without_resolve_line() -> Case:
    k = _respond(
        "bad-aiuchi-fails-without-resolve-line",
        "FAQ 対応: 相撃ち N=4 against 3 HIT fails, yet 4 HIT was dealt back (no gg.resolve line)",
        "相撃ち",
        loads=2,
    )
    k.toss(B, "r1", "sssso")
    back = k.life(A, -4, by=B, act="r1")
    k.life(B, -3, shot="s1")
    k.end(A)
    k.expect("GG-NUM-003", back)
    return k


# -- writing ---------------------------------------------------------------------------


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


def write(k: Case) -> dict[str, Any]:
    path = HERE / f"{k.name}.jsonl"
    path.unlink(missing_ok=True)
    start: dict[str, Any] = {
        "game": "gunandgun",
        "match": k.name,
        "players": [{"id": A, "name": "Aoi"}, {"id": B, "name": "Ren"}],
        "title": k.about,
    }
    if k.rules:
        start["rules"] = k.rules
    logfile.create(path, start)
    refused = []
    for ev in k.events:
        try:
            logfile.append(path, ev)
        except KifuError as exc:
            refused.append(str(exc))
            _raw_append(path, ev)
    return {
        "about": k.about,
        "expected": sorted(k.expected, key=lambda f: (f["seq"], f["code"])),
        **({"refused_when_written": refused} if refused else {}),
    }


def main() -> None:
    for old in HERE.glob("*.jsonl"):
        old.unlink()
    cases = {}
    for make in CASES:
        k = make()
        cases[f"{k.name}.jsonl"] = write(k)
    (HERE / "cases.json").write_text(
        json.dumps(cases, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
