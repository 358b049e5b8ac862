"""Acceptance cases for the World Trigger 1v1 dice game, written from seed 002 alone.

Each case is a short match log a table would record following docs/format.md and
docs/games/worldtrigger.md, and the findings the seed's ruling implies (code and
seq of every error and warning, [] for a clean log). They were written before
reading the game's implementation: they are the user's checker, not kifu's echo.

Run ``PYTHONPATH=. python tests/acceptance/worldtrigger/make.py`` to rebuild the
logs and ``cases.json`` byte for byte (no clock, no randomness).

Lines are appended with ``kifu.events.logfile``; when kifu refuses a line the docs
call valid, the line is written the way docs/format.md's client recipe writes it,
so the test then reports the log as wrongly rejected instead of the case vanishing.
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

M, S, C = "move", "shooting", "close"
SEED_SHEET = [M, M, S, S, C, C]
"""The sheet of the seed's plot examples (■5): 1,2 移動, 3,4 射撃戦, 5,6 近距離戦."""
A_MAIN = ["弧月", "旋空", "アステロイド", "ハウンド"]
A_SUB = ["シールド", "バッグワーム", "グラスホッパー", "エスクード"]
B_MAIN = ["レイガスト", "スラスター", "アステロイド", "メテオラ"]
B_SUB = ["シールド", "バッグワーム", "ハウンド", "エスクード"]
OTHER = {"a": "b", "b": "a"}


class Case:
    """One dispute: the events after match.start, and the findings expected."""

    def __init__(self, name: str, about: str, rules: dict[str, Any] | None = None) -> None:
        self.name = name
        self.about = about
        self.rules = rules or {}
        self.events: list[dict[str, Any]] = []
        self.expected: list[dict[str, Any]] = []

    def add(self, type: str, by: str | None = None, **fields: Any) -> int:
        ev: dict[str, Any] = {"type": type}
        if by is not None:
            ev["by"] = by
        ev.update(fields)
        self.events.append(ev)
        return len(self.events) + 1

    def expect(self, code: str, seq: int) -> None:
        self.expected.append({"code": code, "seq": seq})

    # -- the seed's steps, each recorded as the docs say ----------------------

    def prelude(
        self,
        roll: int = 3,
        uses: tuple[tuple[str, int], ...] = (),
        fixed: int | None = None,
        deal: int = 100,
        builds: tuple[list[str], list[str], list[str], list[str]] | None = None,
        sheets: tuple[list[str], list[str]] = (SEED_SHEET, SEED_SHEET),
    ) -> None:
        am, asub, bm, bsub = builds or (A_MAIN, A_SUB, B_MAIN, B_SUB)
        self.add("wt.build", by="a", player="a", main=am, sub=asub)
        self.add("wt.build", by="b", player="b", main=bm, sub=bsub)
        self.add("wt.sheet", by="a", player="a", faces=sheets[0])
        self.add("wt.sheet", by="b", player="b", faces=sheets[1])
        self.add("wt.deal", by="judge", player="a", trion=deal)
        self.add("wt.deal", by="judge", player="b", trion=deal)
        self.add("wt.init.roll", by="a", value=roll)
        for player, delta in uses:
            self.add(
                "wt.init.use", by=player, player=player, trigger="バッグワーム", effect="潜伏", delta=delta, trion=2
            )
        dist = roll + sum(d for _, d in uses)
        self.add("wt.init.set", by="judge", distance=fixed if fixed is not None else min(6, max(1, dist)))

    def order(self, turn: int, first: str, tie: str | None = None) -> int:
        fields: dict[str, Any] = {"turn": turn, "first": first}
        if tie:
            fields["tie_break"] = tie
        return self.add("wt.order", by="judge", **fields)

    def set(self, player: str, main: str, sub: str, kept: list[str] | None = None) -> int:
        fields: dict[str, Any] = {"player": player, "main": main, "sub": sub}
        if kept:
            fields["kept"] = kept
        return self.add("wt.set", by=player, **fields)

    def plot(self, attacker: str, attack: list[int], defence: list[int], tags: list[str]) -> int:
        self.add("wt.plot", by=attacker, attacker=attacker, attack=attack, defence=defence)
        return self.add("wt.tags", by=attacker, player=attacker, tags=tags)

    def reveal(self, player: str, trigger: str, trion: int) -> int:
        return self.add("wt.reveal", by=player, player=player, trigger=trigger, trion=trion)

    def use(
        self,
        player: str,
        trigger: str,
        effect: str,
        trion: int = 0,
        tags: list[str] | None = None,
        counter: int | None = None,
        to: int | None = None,
    ) -> int:
        fields: dict[str, Any] = {"player": player, "trigger": trigger, "effect": effect, "trion": trion}
        if tags:
            fields["tags"] = tags
        if counter is not None:
            fields["counter"] = counter
        if to is not None:
            fields["to"] = to
        return self.add("wt.use", by=player, **fields)

    def passes(self, *players: str) -> int:
        seq = 0
        for p in players:
            seq = self.add("wt.pass", by=p, player=p)
        return seq

    def resolve(self, of: int, cancelled: bool = False) -> int:
        fields: dict[str, Any] = {"of": of}
        if cancelled:
            fields["cancelled"] = True
        return self.add("wt.resolve", by="judge", **fields)

    def damage(self, player: str, delta: int, source: int) -> int:
        return self.add("wt.trion", by="judge", player=player, delta=delta, source=source)

    def shot(self, p: str, trigger: str = "アステロイド", reveal: bool = True, dmg: int = 15) -> int:
        """A whole uncontested アステロイド/ハウンド shot: reveal, use, both pass, resolve, damage."""
        if reveal:
            self.reveal(p, trigger, 2)
        u = self.use(p, trigger, "射撃", trion=2, tags=[S])
        self.passes(p, OTHER[p])
        self.resolve(u)
        self.damage(OTHER[p], -dmg, u)
        return u

    def move(self, p: str, to: int, tags: list[str] | None = None) -> int:
        u = self.add("wt.move", by=p, player=p, to=to, tags=tags if tags is not None else [M])
        self.passes(p, OTHER[p])
        self.resolve(u)
        return u

    def opening(self, first: str = "a") -> None:
        """Turn 1 at 100 v 100 (janken), both set アステロイド+シールド, a plots 3,4 → two 射撃戦."""
        self.order(1, first, "janken")
        self.set("a", "アステロイド", "シールド")
        self.set("b", "アステロイド", "シールド")
        self.plot(first, [3, 4], [1, 2], [S, S])

    def end(self, winner: str, reason: str) -> int:
        return self.add("match.end", by="judge", winner=winner, reason=reason)


CASES: list[Callable[[], Case]] = []


def case(fn: Callable[[], Case]) -> Callable[[], Case]:
    CASES.append(fn)
    return fn


# ---------------------------------------------------------------- clean matches


@case
def clean_full_match() -> Case:
    k = Case(
        "clean-full-match",
        "■1–■7 a whole short match: shots, a shield counter, order by trion, kept face-up "
        "triggers used without paying again, a move, bailout; nothing is wrong",
    )
    k.prelude(roll=3)
    k.opening()
    k.shot("a")  # b 85, a 96
    k.plot("b", [3, 6], [6, 1], [S])  # 6 blocked
    k.reveal("b", "アステロイド", 2)
    u = k.use("b", "アステロイド", "射撃", trion=2, tags=[S])
    k.passes("b")
    k.reveal("a", "シールド", 1)
    c = k.use("a", "シールド", "防御", trion=1, counter=u)
    k.passes("a", "b")  # the latest declarer (a) is asked first
    k.resolve(c)
    k.resolve(u, cancelled=True)  # b 81, a 94
    k.order(2, "b")  # fewer trion goes first
    k.set("b", "アステロイド", "ハウンド", kept=["main"])
    k.set("a", "ハウンド", "シールド", kept=["sub"])
    k.plot("b", [1, 4], [2, 3], [M, S])
    k.move("b", 2)
    u = k.use("b", "アステロイド", "射撃", trion=2, tags=[S])  # face up since turn 1: no reveal
    k.passes("b")
    c = k.use("a", "シールド", "防御", trion=1, counter=u)  # face up and kept: no reveal
    k.passes("a", "b")
    k.resolve(c)
    k.resolve(u, cancelled=True)
    k.plot("a", [5, 6], [5, 1], [C])
    k.add("wt.bailout", by="b", player="b")
    k.end("a", "bailout")
    return k


@case
def clean_plot_blocked_examples() -> Case:
    k = Case("clean-plot-blocked", "■5 examples: 1,4 v 3,4 gives only [移動]; 5,5 v 5,6 gives nothing")
    k.prelude()
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "シールド")
    k.plot("a", [1, 4], [3, 4], [M])
    k.move("a", 4)
    k.plot("b", [5, 5], [5, 6], [])
    return k


@case
def clean_plot_open_examples() -> Case:
    k = Case("clean-plot-open", "■5 examples: 1,4 gives [移動][射撃戦]; 5,5 gives two [近距離戦]")
    k.prelude(roll=1)
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "レイガスト", "シールド")
    k.plot("a", [1, 4], [2, 6], [M, S])
    k.move("a", 2)
    k.shot("a")
    k.plot("b", [5, 5], [1, 2], [C, C])
    return k


@case
def clean_unusual_sheet() -> Case:
    k = Case(
        "clean-all-shooting-sheet",
        "■1 the move≥2 / attack≥3 split is only a recommendation: a sheet of six 射撃戦 and one of five 移動 are legal",
    )
    k.prelude(sheets=([S] * 6, [M, M, M, M, M, C]))
    k.opening()
    k.shot("a")
    k.plot("b", [2, 6], [1, 3], [M, C])
    return k


@case
def clean_bagworm_then_order() -> Case:
    k = Case(
        "clean-bagworm-clamp",
        "■2 roll 5 + バッグワーム +2 = 7 is recorded as 6; ■3 a paid 2 trion so a (98) goes first without a tie-break",
        {"initial_order": "seat"},
    )
    k.prelude(roll=5, uses=(("a", 2),))
    k.order(1, "a")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "シールド")
    k.plot("a", [1, 3], [2, 2], [M, S])
    return k


@case
def clean_double_set_trigger() -> Case:
    k = Case(
        "clean-asteroid-both-sides",
        "■5 once per set trigger card: アステロイド set on both sides may shoot "
        "twice in one tactics phase (each copy revealed)",
    )
    k.prelude(builds=(A_MAIN, ["アステロイド", "シールド", "バッグワーム", "グラスホッパー"], B_MAIN, B_SUB))
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "アステロイド")
    k.set("b", "アステロイド", "シールド")
    k.plot("a", [3, 4], [1, 6], [S, S])
    k.shot("a")
    k.shot("a")
    return k


@case
def clean_moves_and_grasshopper() -> Case:
    k = Case(
        "clean-moves",
        "■5 moves are not limited per phase (two [移動] → two moves); グラスホッパー moves "
        "by its own effect without a [移動] tag",
    )
    k.prelude(roll=3)
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "グラスホッパー")
    k.set("b", "アステロイド", "シールド")
    k.plot("a", [1, 2], [5, 6], [M, M])
    k.move("a", 4)
    k.move("a", 5)
    k.reveal("a", "グラスホッパー", 1)
    u = k.use("a", "グラスホッパー", "跳躍", trion=1, to=6)
    k.passes("a", "b")
    k.resolve(u)
    return k


@case
def clean_move_countered() -> Case:
    k = Case(
        "clean-move-escudo", "■5 a move is asked for counters like an effect: エスクード stops it, the distance stays"
    )
    k.prelude(roll=3)
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "エスクード")
    k.plot("a", [1, 3], [5, 6], [M, S])
    mv = k.add("wt.move", by="a", player="a", to=4, tags=[M])
    k.passes("a")
    k.reveal("b", "エスクード", 2)
    c = k.use("b", "エスクード", "防壁", trion=3, counter=mv)
    k.passes("b", "a")
    k.resolve(c)
    k.resolve(mv, cancelled=True)
    k.shot("a")  # still at 3: in アステロイド range
    return k


@case
def clean_move_without_tags_field() -> Case:
    k = Case("clean-move-default-tags", 'docs: wt.move `tags` defaults to ["move"]; a writer may leave it out')
    k.prelude(roll=3)
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "シールド")
    k.plot("a", [1, 3], [5, 6], [M, S])
    mv = k.add("wt.move", by="a", player="a", to=2)
    k.passes("a", "b")
    k.resolve(mv)
    return k


@case
def clean_trion_zero() -> Case:
    k = Case(
        "clean-trion-zero",
        "■7 with starting_trion 15 a single 15-damage shot empties b: a wins on life",
        {"starting_trion": 15},
    )
    k.prelude(deal=15)
    k.opening()
    k.shot("a")
    k.end("a", "life")
    return k


# ---------------------------------------------------------------- one violation each


@case
def bad_plot_block_ignored() -> Case:
    k = Case("bad-plot-block-ignored", "■5 example 1,4 v 3,4: recorded [移動][射撃戦] though the 4 was blocked")
    k.prelude()
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "シールド")
    k.expect("WT-PLOT-001", k.plot("a", [1, 4], [3, 4], [M, S]))
    return k


@case
def bad_plot_pair_half_blocked() -> Case:
    k = Case("bad-plot-pair-half-blocked", "■5 example 5,5 v 5,6 gives nothing; recorded one [近距離戦]")
    k.prelude()
    k.order(1, "a", "janken")
    k.set("a", "弧月", "シールド")
    k.set("b", "アステロイド", "シールド")
    k.expect("WT-PLOT-001", k.plot("a", [5, 5], [5, 6], [C]))
    return k


@case
def bad_build_five_main() -> Case:
    k = Case("bad-build-five-main", "■1 four main and four sub: five main, three sub")
    k.prelude(builds=(A_MAIN + ["スコーピオン"], A_SUB[:3], B_MAIN, B_SUB))
    k.expect("WT-BUILD-001", 2)
    return k


@case
def bad_build_option_side() -> Case:
    k = Case("bad-build-option-side", "■1 ★ a dedicated option goes on its trigger's side: 旋空 on the sub side")
    k.prelude(
        builds=(
            ["弧月", "アステロイド", "ハウンド", "スコーピオン"],
            ["旋空", "シールド", "バッグワーム", "エスクード"],
            B_MAIN,
            B_SUB,
        )
    )
    k.expect("WT-BUILD-002", 2)
    return k


@case
def bad_sheet_five_faces() -> Case:
    k = Case("bad-sheet-five-faces", "■1 the sheet assigns the numbers 1–6: face 6 left out")
    k.prelude(sheets=(SEED_SHEET[:5], SEED_SHEET))
    k.expect("WT-SHEET-001", 4)
    return k


@case
def bad_starting_trion() -> Case:
    k = Case("bad-starting-trion", "■1 初期トリオン量は一律で１００: b dealt 120")
    k.prelude()
    k.events[5]["trion"] = 120
    k.expect("WT-TRION-001", 7)
    return k


@case
def bad_initial_not_clamped() -> Case:
    k = Case("bad-initial-not-clamped", "■2 5 + 2 = 7 must become 6: recorded 7", {"initial_order": "seat"})
    k.prelude(roll=5, uses=(("a", 2),), fixed=7)
    k.expect("WT-INIT-001", 10)
    return k


@case
def bad_initial_wrong_timing() -> Case:
    k = Case(
        "bad-initial-tactics-effect",
        "■2 only 「タイミング：初期距離決定時」 effects shift the distance: 弧月's 斬撃 used",
        {"initial_order": "seat"},
    )
    k.prelude(roll=3)
    k.events.insert(
        7,
        {"type": "wt.init.use", "by": "a", "player": "a", "trigger": "弧月", "effect": "斬撃", "delta": -1, "trion": 0},
    )
    k.events[8]["distance"] = 2
    k.expect("WT-INIT-003", 9)
    return k


@case
def bad_initial_second_player_first() -> Case:
    k = Case(
        "bad-initial-order", "■2 effects are used first player first: b (second on turn 1) used バッグワーム before a"
    )
    k.prelude(roll=2, uses=(("b", 1), ("a", 1)))
    k.order(1, "a", "janken")  # both 98
    # b's use alone would be legal (a may decline); the breach is a's use coming after it
    k.expect("WT-INIT-002", 10)
    return k


@case
def bad_order_after_bagworm() -> Case:
    k = Case(
        "bad-order-more-trion-first",
        "■3 fewer trion goes first: a paid 2 for バッグワーム (98 v 100) but b is recorded first",
        {"initial_order": "seat"},
    )
    k.prelude(roll=3, uses=(("a", 1),))
    k.expect("WT-ORDER-001", k.order(1, "b"))
    return k


@case
def bad_order_turn_two() -> Case:
    k = Case(
        "bad-order-not-redecided",
        "■3 order is decided again each turn: after b takes 15 damage a stays first on turn 2",
    )
    k.prelude()
    k.opening()
    k.shot("a")  # a 96, b 85
    k.plot("b", [1, 2], [1, 2], [])
    k.expect("WT-ORDER-001", k.order(2, "a"))
    return k


@case
def warn_tie_without_method() -> Case:
    k = Case("warn-tie-no-method", "■3 equal trion → a fair method such as janken; none recorded")
    k.prelude()
    k.expect("WT-ORDER-002", k.order(1, "a"))
    return k


@case
def bad_set_two_main() -> Case:
    k = Case("bad-set-two-main", "■4 one main-side and one sub-side trigger: sub slot holds a's main-side ハウンド")
    k.prelude()
    k.order(1, "a", "janken")
    k.expect("WT-SET-001", k.set("a", "アステロイド", "ハウンド"))
    return k


@case
def bad_set_kept_face_down() -> Case:
    k = Case(
        "bad-set-kept-face-down", "■4 only face-up triggers may stay: a keeps シールド that was never turned face up"
    )
    k.prelude()
    k.opening()
    k.shot("a")
    k.plot("b", [1, 2], [1, 2], [])
    k.order(2, "b")
    k.set("b", "アステロイド", "シールド")
    k.expect("WT-SET-002", k.set("a", "アステロイド", "シールド", kept=["main", "sub"]))
    return k


@case
def bad_set_after_plot() -> Case:
    k = Case("bad-set-after-plot", "■4 before ■5: a trigger set changed after the plot")
    k.prelude()
    k.opening()
    k.expect("WT-SET-003", k.set("a", "ハウンド", "シールド"))
    return k


@case
def bad_turn_second_plots_first() -> Case:
    k = Case("bad-turn-second-first", "■5/■6 the first player's turn comes first: b (second) plots first")
    k.prelude()
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "シールド")
    k.add("wt.plot", by="b", attacker="b", attack=[3, 4], defence=[1, 2])
    k.expect("WT-TURN-001", len(k.events) + 1)
    k.add("wt.tags", by="b", player="b", tags=[S, S])
    return k


@case
def bad_turn_skipped() -> Case:
    k = Case("bad-turn-skipped", "■7 repeat ■3–■6: turn 2 ordered before b took the second turn")
    k.prelude()
    k.opening()
    k.shot("a")
    k.expect("WT-TURN-002", k.order(2, "b"))
    return k


@case
def bad_use_not_revealed() -> Case:
    k = Case(
        "bad-use-face-down",
        "■5 step 1: a face-down trigger must be turned face up first: アステロイド used with no reveal",
    )
    k.prelude()
    k.opening()
    u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.expect("WT-USE-001", u)
    k.passes("a", "b")
    k.resolve(u)
    return k


@case
def bad_use_reset_face_down() -> Case:
    k = Case(
        "bad-use-set-again-face-down",
        "■4 a trigger returned to hand and set again is face down: turn 2 "
        "アステロイド set without `kept` and used without paying to reveal it",
    )
    k.prelude()
    k.opening()
    k.shot("a")
    k.plot("b", [1, 2], [1, 2], [])
    k.order(2, "b")
    k.set("b", "アステロイド", "シールド")
    k.set("a", "アステロイド", "シールド")
    k.plot("b", [1, 2], [1, 2], [])
    k.plot("a", [3, 5], [1, 2], [S, C])
    u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.expect("WT-USE-001", u)
    k.passes("a", "b")
    k.resolve(u)
    return k


@case
def bad_reveal_underpaid() -> Case:
    k = Case("bad-reveal-underpaid", "■5 step 1: turning アステロイド face up costs its trion: paid 0")
    k.prelude()
    k.opening()
    k.expect("WT-REVEAL-001", k.reveal("a", "アステロイド", 0))
    return k


@case
def bad_use_tag_not_held() -> Case:
    k = Case(
        "bad-use-tag-not-held",
        "■5 step 2: a cost that cannot be paid means no effect: [射撃戦] paid with only [移動] gained",
    )
    k.prelude()
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "シールド")
    k.plot("a", [1, 4], [3, 4], [M])
    k.reveal("a", "アステロイド", 2)
    u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.expect("WT-USE-003", u)
    k.passes("a", "b")
    k.resolve(u)
    return k


@case
def bad_use_twice() -> Case:
    k = Case("bad-use-twice", "■5 同じトリガー効果の使用は…１枚につき１回: アステロイド shoots twice")
    k.prelude()
    k.opening()
    k.shot("a")
    u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.expect("WT-USE-004", u)
    k.passes("a", "b")
    k.resolve(u)
    return k


@case
def bad_counter_twice() -> Case:
    k = Case(
        "bad-counter-twice",
        "■5 the once-per-phase limit applies to counter-users: b's シールド counters both of a's アステロイド shots",
    )
    k.prelude(builds=(A_MAIN, ["アステロイド", "シールド", "バッグワーム", "グラスホッパー"], B_MAIN, B_SUB))
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "アステロイド")
    k.set("b", "アステロイド", "シールド")
    k.plot("a", [3, 4], [1, 6], [S, S])
    for i in range(2):
        k.reveal("a", "アステロイド", 2)
        u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
        k.passes("a")
        if i == 0:
            k.reveal("b", "シールド", 1)
        c = k.use("b", "シールド", "防御", trion=1, counter=u)
        if i == 1:
            k.expect("WT-USE-004", c)
        k.passes("b", "a")
        k.resolve(c)
        k.resolve(u, cancelled=True)
    return k


@case
def bad_unset_trigger() -> Case:
    k = Case("bad-use-unset-trigger", "■4/■5 only the two set triggers: a shoots with ハウンド (in the build, not set)")
    k.prelude()
    k.opening()
    u = k.use("a", "ハウンド", "射撃", trion=2, tags=[S])
    k.expect("WT-USE-002", u)
    k.passes("a", "b")
    k.resolve(u)
    return k


@case
def bad_out_of_range() -> Case:
    k = Case("bad-use-out-of-range", "trigger text (catalogue): 弧月 斬撃 at distance 3, range 1")
    k.prelude(roll=3)
    k.order(1, "a", "janken")
    k.set("a", "弧月", "シールド")
    k.set("b", "アステロイド", "シールド")
    k.plot("a", [5, 6], [1, 2], [C, C])
    k.reveal("a", "弧月", 3)
    u = k.use("a", "弧月", "斬撃", tags=[C])
    k.expect("WT-USE-006", u)
    k.passes("a", "b")
    k.resolve(u)
    return k


@case
def bad_shield_against_move() -> Case:
    k = Case(
        "bad-counter-wrong-target",
        "■5 step 3: a counter answers the effects it names: シールド (against shots and blades) used against a move",
    )
    k.prelude()
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "シールド")
    k.plot("a", [1, 3], [5, 6], [M, S])
    mv = k.add("wt.move", by="a", player="a", to=4, tags=[M])
    k.passes("a")
    k.reveal("b", "シールド", 1)
    c = k.use("b", "シールド", "防御", trion=1, counter=mv)
    k.expect("WT-USE-005", c)
    k.passes("b", "a")
    k.resolve(c)
    k.resolve(mv)
    return k


@case
def bad_move_in_opponents_phase() -> Case:
    k = Case(
        "bad-move-opponents-phase",
        "■5 moves are made in one's own tactics phase: a spends a left-over [移動] in b's phase",
    )
    k.prelude()
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "シールド")
    k.plot("a", [1, 3], [5, 6], [M, S])
    k.shot("a")
    k.plot("b", [3, 4], [3, 4], [])
    mv = k.add("wt.move", by="a", player="a", to=4, tags=[M])
    k.expect("WT-TACT-001", mv)
    k.passes("a", "b")
    k.resolve(mv)
    return k


@case
def bad_move_wrong_tag() -> Case:
    k = Case("bad-move-wrong-tag", "■5 a move pays a [移動] tag: paid with [射撃戦]")
    k.prelude()
    k.opening()
    mv = k.add("wt.move", by="a", player="a", to=4, tags=[S])
    k.expect("WT-MOVE-001", mv)
    k.passes("a", "b")
    k.resolve(mv)
    return k


@case
def bad_move_two_steps() -> Case:
    k = Case("bad-move-two-steps", "■5 a move is ＋１ or －１: 3 → 5 with one [移動]")
    k.prelude()
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "シールド")
    k.plot("a", [1, 3], [5, 6], [M, S])
    k.expect("WT-MOVE-002", k.move("a", 5))
    return k


@case
def bad_counter_before_declarer_asked() -> Case:
    k = Case(
        "bad-counter-jumped",
        "■5 step 3: counters are asked from the declaring player first: b shields before a was asked",
    )
    k.prelude()
    k.opening()
    k.reveal("a", "アステロイド", 2)
    u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.reveal("b", "シールド", 1)
    c = k.use("b", "シールド", "防御", trion=1, counter=u)
    k.expect("WT-CTR-001", c)
    k.passes("b", "a")
    k.resolve(c)
    k.resolve(u, cancelled=True)
    return k


@case
def bad_resolve_first_declared_first() -> Case:
    k = Case("bad-resolve-order", "■5 step 3: last declared resolves first: the shot resolved before the shield")
    k.prelude()
    k.opening()
    k.reveal("a", "アステロイド", 2)
    u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.passes("a")
    k.reveal("b", "シールド", 1)
    c = k.use("b", "シールド", "防御", trion=1, counter=u)
    k.passes("b", "a")
    k.expect("WT-CTR-002", k.resolve(u))
    k.resolve(c)
    return k


@case
def bad_resolve_without_asking() -> Case:
    k = Case(
        "bad-resolve-unasked",
        "■5 step 3: the counter check comes before the effect applies: the shot resolved with nobody asked",
    )
    k.prelude()
    k.opening()
    k.reveal("a", "アステロイド", 2)
    u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.expect("WT-CTR-003", k.resolve(u))
    k.damage("b", -15, u)
    return k


@case
def bad_damage_from_cancelled() -> Case:
    k = Case("bad-damage-cancelled", "■5 step 3: a shot stopped by シールド deals no damage, yet 15 recorded")
    k.prelude()
    k.opening()
    k.reveal("a", "アステロイド", 2)
    u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.passes("a")
    k.reveal("b", "シールド", 1)
    c = k.use("b", "シールド", "防御", trion=1, counter=u)
    k.passes("b", "a")
    k.resolve(c)
    k.resolve(u, cancelled=True)
    k.expect("WT-TRION-002", k.damage("b", -15, u))
    return k


@case
def bad_play_after_bailout() -> Case:
    k = Case("bad-play-after-bailout", "■7 bailout ends the match: a keeps moving after b bailed out")
    k.prelude()
    k.opening()
    k.add("wt.bailout", by="b", player="b")
    k.expect("WT-END-001", k.reveal("a", "アステロイド", 2))
    k.end("a", "bailout")
    return k


@case
def bad_winner_is_bailer() -> Case:
    k = Case("bad-winner-bailer", "■7 the opponent of the one who bails out wins: winner recorded as b")
    k.prelude()
    k.opening()
    k.add("wt.bailout", by="b", player="b")
    k.expect("WT-END-002", k.end("b", "bailout"))
    return k


@case
def bad_play_after_zero() -> Case:
    k = Case("bad-play-after-zero", "■7 trion 0 ends the match: b plots after being shot to 0", {"starting_trion": 15})
    k.prelude(deal=15)
    k.opening()
    k.shot("a")
    k.add("wt.plot", by="b", attacker="b", attack=[3, 4], defence=[1, 2])
    k.expect("WT-END-001", len(k.events) + 1)
    k.end("a", "life")
    return k


# ---------------------------------------------------------------- second round: edges


@case
def clean_plot_defender_pair() -> Case:
    k = Case(
        "clean-plot-defender-pair",
        "■5 blocking is by face: defence 4,4 blocks the 4 only; attack 3,3 v 3,1 gives nothing",
    )
    k.prelude()
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "シールド")
    k.plot("a", [4, 3], [4, 4], [S])
    k.shot("a")
    k.plot("b", [3, 3], [3, 1], [])
    return k


@case
def clean_pay_last_trion() -> Case:
    k = Case(
        "clean-pay-last-trion",
        "■5/■7 trion is life and mana: paying the last 4 chips for a shot empties a, so b wins",
        {"starting_trion": 4},
    )
    k.prelude(deal=4)
    k.opening()
    k.reveal("a", "アステロイド", 2)
    k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.end("b", "life")
    return k


@case
def clean_tie_on_turn_two() -> Case:
    k = Case("clean-tie-turn-two", "■3 equal trion on turn 2 (both shot once) is settled by janken")
    k.prelude()
    k.opening()
    k.shot("a")
    k.plot("b", [3, 2], [1, 2], [S])
    k.shot("b")
    k.order(2, "b", "janken")
    return k


@case
def clean_range_edge() -> Case:
    k = Case("clean-range-edge", "trigger text (catalogue): アステロイド reaches 2–5, so a shot at 5 stands")
    k.prelude(roll=5)
    k.opening()
    k.shot("a")
    return k


@case
def bad_range_edge() -> Case:
    k = Case("bad-range-edge", "trigger text (catalogue): アステロイド reaches 2–5: a shot at 6")
    k.prelude(roll=6)
    k.opening()
    k.reveal("a", "アステロイド", 2)
    u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.expect("WT-USE-006", u)
    k.passes("a", "b")
    k.resolve(u)
    return k


@case
def bad_use_cannot_pay_trion() -> Case:
    k = Case(
        "bad-use-cannot-pay",
        "■5 step 2: with 1 trion left after revealing, the 2-trion shot cannot be paid",
        {"starting_trion": 3},
    )
    k.prelude(deal=3)
    k.opening()
    k.reveal("a", "アステロイド", 2)
    u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.expect("WT-USE-003", u)
    k.passes("a", "b")
    k.resolve(u)
    return k


@case
def bad_initial_unpaid() -> Case:
    k = Case(
        "bad-initial-unpaid",
        "■2 a trigger used at the initial distance pays its trion: バッグワーム "
        "used for nothing (the table left the distance at the roll)",
        {"initial_order": "seat"},
    )
    k.prelude(roll=3)
    k.events.insert(
        7, {"type": "wt.init.use", "by": "a", "player": "a", "trigger": "バッグワーム", "effect": "潜伏", "delta": 2}
    )
    k.expect("WT-USE-003", 9)
    return k


@case
def bad_counter_asked_opener_first() -> Case:
    k = Case(
        "bad-counter-opener-asked",
        "■5 step 3 (default counter_first=latest): after b's counter, b (who "
        "just declared) is asked first; a was asked first",
    )
    k.prelude()
    k.opening()
    k.reveal("a", "アステロイド", 2)
    u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.passes("a")
    k.reveal("b", "シールド", 1)
    c = k.use("b", "シールド", "防御", trion=1, counter=u)
    k.expect("WT-CTR-001", k.passes("a"))
    k.passes("b")
    k.resolve(c)
    k.resolve(u, cancelled=True)
    return k


@case
def clean_counter_initiator_option() -> Case:
    k = Case(
        "clean-counter-initiator",
        "option counter_first=initiator: after b's counter the chain's opener a is asked first",
        {"counter_first": "initiator"},
    )
    k.prelude()
    k.opening()
    k.reveal("a", "アステロイド", 2)
    u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.passes("a")
    k.reveal("b", "シールド", 1)
    c = k.use("b", "シールド", "防御", trion=1, counter=u)
    k.passes("a", "b")
    k.resolve(c)
    k.resolve(u, cancelled=True)
    return k


@case
def bad_counter_not_set() -> Case:
    k = Case(
        "bad-counter-not-set", "■4/■5 counters too come from the set triggers: b counters with エスクード, set シールド"
    )
    k.prelude()
    k.opening()
    k.reveal("a", "アステロイド", 2)
    u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.passes("a")
    c = k.use("b", "エスクード", "防壁", trion=3, counter=u)
    k.expect("WT-USE-002", c)
    k.passes("b", "a")
    k.resolve(c)
    k.resolve(u, cancelled=True)
    return k


@case
def bad_counter_face_down() -> Case:
    k = Case("bad-counter-face-down", "■5 step 1 applies to counters: b's シールド used while still face down")
    k.prelude()
    k.opening()
    k.reveal("a", "アステロイド", 2)
    u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.passes("a")
    c = k.use("b", "シールド", "防御", trion=1, counter=u)
    k.expect("WT-USE-001", c)
    k.passes("b", "a")
    k.resolve(c)
    k.resolve(u)
    k.damage("b", -15, u)
    return k


@case
def bad_counter_effect_as_tactic() -> Case:
    k = Case(
        "bad-counter-as-tactic",
        "■5 the tactics phase uses 「タイミング：戦術フェイズ」 effects: a raises "
        "シールド on its own with nothing to counter",
    )
    k.prelude()
    k.opening()
    k.reveal("a", "シールド", 1)
    u = k.use("a", "シールド", "防御", trion=1)
    k.expect("WT-USE-005", u)
    k.passes("a", "b")
    k.resolve(u)
    return k


@case
def bad_kept_other_trigger() -> Case:
    k = Case(
        "bad-kept-swapped",
        "■4 only the face-up trigger itself may stay: main slot 'kept' but now holds "
        "ハウンド instead of the face-up アステロイド",
    )
    k.prelude()
    k.opening()
    k.shot("a")
    k.plot("b", [1, 2], [1, 2], [])
    k.order(2, "b")
    k.set("b", "アステロイド", "シールド")
    k.expect("WT-SET-002", k.set("a", "ハウンド", "シールド", kept=["main"]))
    return k


@case
def bad_move_before_plot() -> Case:
    k = Case("bad-move-before-plot", "■5 tags come from the plot: a moves before plotting, with no [移動] held")
    k.prelude()
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "シールド")
    mv = k.add("wt.move", by="a", player="a", to=4, tags=[M])
    k.expect("WT-MOVE-001", mv)
    k.expect("WT-TACT-001", mv)  # before the plot there is no tactics phase either
    k.passes("a", "b")
    k.resolve(mv)
    return k


@case
def bad_stale_tag_next_turn() -> Case:
    k = Case(
        "bad-stale-tag",
        "■5 tags are gained each turn (default tags_expire=turn): a's unused [移動] from "
        "turn 1 spent on turn 2 after a blocked plot",
    )
    k.prelude()
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "シールド")
    k.plot("a", [1, 3], [5, 6], [M, S])
    k.shot("a")
    k.plot("b", [1, 2], [1, 2], [])
    k.order(2, "b")
    k.set("b", "アステロイド", "シールド")
    k.set("a", "アステロイド", "シールド", kept=["main"])
    k.plot("b", [1, 2], [1, 2], [])
    k.plot("a", [1, 3], [1, 3], [])
    mv = k.add("wt.move", by="a", player="a", to=4, tags=[M])
    k.expect("WT-MOVE-001", mv)
    k.passes("a", "b")
    k.resolve(mv)
    return k


@case
def bad_counter_resolved_unasked() -> Case:
    k = Case(
        "bad-counter-resolved-unasked",
        "■5 step 3: a counter is itself asked for counters: b's shield resolved straight after it was declared",
    )
    k.prelude()
    k.opening()
    k.reveal("a", "アステロイド", 2)
    u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.passes("a")
    k.reveal("b", "シールド", 1)
    c = k.use("b", "シールド", "防御", trion=1, counter=u)
    k.expect("WT-CTR-003", k.resolve(c))
    k.resolve(u, cancelled=True)
    return k


@case
def bad_winner_after_zero() -> Case:
    k = Case(
        "bad-winner-after-zero",
        "■7 the one who emptied the other's trion wins: b (at 0) recorded as winner",
        {"starting_trion": 15},
    )
    k.prelude(deal=15)
    k.opening()
    k.shot("a")
    k.expect("WT-END-002", k.end("b", "life"))
    return k


@case
def clean_resolve_omitted() -> Case:
    k = Case("clean-resolve-omitted", "docs: wt.resolve may be left out; the next game event closes the chain")
    k.prelude()
    k.opening()
    k.reveal("a", "アステロイド", 2)
    u = k.use("a", "アステロイド", "射撃", trion=2, tags=[S])
    k.passes("a", "b")
    k.damage("b", -15, u)
    k.plot("b", [1, 3], [2, 2], [M, S])
    k.add("wt.move", by="b", player="b", to=2)
    k.passes("b", "a")
    k.order(2, "b")
    return k


@case
def clean_tie_break_unneeded() -> Case:
    k = Case("clean-order-extra-method", "■3 fewer trion goes first; a table that also noted janken did nothing wrong")
    k.prelude()
    k.opening()
    k.shot("a")
    k.plot("b", [1, 2], [1, 2], [])
    k.order(2, "b", "janken")
    return k


@case
def clean_bagworm_default_order() -> Case:
    k = Case(
        "clean-bagworm-turn1-first",
        "■2/■3 default initial_order=turn1: a uses バッグワーム, so has 98 and is "
        "turn 1's first player: the order of uses holds",
    )
    k.prelude(roll=2, uses=(("a", 2),))
    k.order(1, "a")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "シールド")
    k.plot("a", [3, 4], [1, 2], [S, S])
    k.shot("a")
    return k


# ---------------------------------------------------------------- third round


@case
def clean_dodge_counter() -> Case:
    k = Case(
        "clean-dodge-counter",
        "■5 step 3: b answers a's 弧月 斬撃 with グラスホッパー 回避 (a counter that moves); the slash is cancelled",
    )
    k.prelude(roll=1, builds=(A_MAIN, A_SUB, B_MAIN, ["グラスホッパー", "シールド", "バッグワーム", "エスクード"]))
    k.order(1, "a", "janken")
    k.set("a", "弧月", "シールド")
    k.set("b", "アステロイド", "グラスホッパー")
    k.plot("a", [5, 6], [1, 2], [C, C])
    k.reveal("a", "弧月", 3)
    u = k.use("a", "弧月", "斬撃", tags=[C])
    k.passes("a")
    k.reveal("b", "グラスホッパー", 1)
    c = k.use("b", "グラスホッパー", "回避", trion=2, counter=u, to=2)
    k.passes("b", "a")
    k.resolve(c)
    k.resolve(u, cancelled=True)
    return k


@case
def clean_reveal_then_move() -> Case:
    k = Case(
        "clean-reveal-unused",
        "■5 step 1: turning a trigger face up and then choosing to move instead is allowed (the trion is simply spent)",
    )
    k.prelude()
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "シールド")
    k.plot("a", [1, 2], [5, 6], [M, M])
    k.reveal("a", "アステロイド", 2)
    k.move("a", 4)
    return k


@case
def bad_initial_after_fixed() -> Case:
    k = Case(
        "bad-initial-after-fixed",
        "■2 initial-distance effects come before the distance is fixed: バッグワーム used after wt.init.set",
        {"initial_order": "seat"},
    )
    k.prelude(roll=3)
    k.expect(
        "WT-INIT-003", k.add("wt.init.use", by="a", player="a", trigger="バッグワーム", effect="潜伏", delta=1, trion=2)
    )
    return k


@case
def bad_plot_other_sheet() -> Case:
    k = Case(
        "bad-plot-other-sheet",
        "■5 tags come from the attacker's own sheet: a's 1,2 (移動 on a's sheet) recorded as b's 射撃戦",
    )
    k.prelude(sheets=(SEED_SHEET, [S] * 6))
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "シールド")
    k.expect("WT-PLOT-001", k.plot("a", [1, 2], [5, 6], [S, S]))
    return k


@case
def bad_set_not_in_build() -> Case:
    k = Case("bad-set-not-in-build", "■4 triggers are set from one's trigger set: a sets メテオラ, not among a's eight")
    k.prelude()
    k.order(1, "a", "janken")
    k.expect("WT-SET-001", k.set("a", "メテオラ", "シールド"))
    return k


@case
def bad_win_without_condition() -> Case:
    k = Case(
        "bad-win-no-condition",
        "■7 the only wins are trion 0 and the opponent's bailout: a is recorded winner with b at 85 and no bailout",
    )
    k.prelude()
    k.opening()
    k.shot("a")
    k.expect("WT-END-002", k.end("a", "time"))
    return k


@case
def clean_trion_only_effect_without_tags() -> Case:
    k = Case(
        "clean-jump-no-tags",
        "■5 a fully blocked plot still opens the tactics phase: b jumps with グラスホッパー, which costs trion only",
    )
    k.prelude(builds=(A_MAIN, A_SUB, B_MAIN, ["グラスホッパー", "シールド", "バッグワーム", "エスクード"]))
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "グラスホッパー")
    k.plot("a", [3, 4], [1, 2], [S, S])
    k.shot("a")
    k.plot("b", [5, 5], [5, 6], [])
    k.reveal("b", "グラスホッパー", 1)
    u = k.use("b", "グラスホッパー", "跳躍", trion=1, to=4)
    k.passes("b", "a")
    k.resolve(u)
    return k


@case
def clean_blocked_plot_tags_unrecorded() -> Case:
    k = Case(
        "clean-jump-tags-unrecorded",
        "■5 the tactics phase begins when the plot ends: a table that wrote no "
        "wt.tags line for a plot that gave nothing, then jumped with グラスホッパー",
    )
    k.prelude(builds=(A_MAIN, A_SUB, B_MAIN, ["グラスホッパー", "シールド", "バッグワーム", "エスクード"]))
    k.order(1, "a", "janken")
    k.set("a", "アステロイド", "シールド")
    k.set("b", "アステロイド", "グラスホッパー")
    k.plot("a", [3, 4], [1, 2], [S, S])
    k.shot("a")
    k.add("wt.plot", by="b", attacker="b", attack=[5, 5], defence=[5, 6])
    k.reveal("b", "グラスホッパー", 1)
    u = k.use("b", "グラスホッパー", "跳躍", trion=1, to=4)
    k.passes("b", "a")
    k.resolve(u)
    return k


@case
def bad_initial_not_in_build() -> Case:
    k = Case(
        "bad-initial-not-in-build",
        "■2 initial-distance effects come from one's eight triggers: b uses バッグワーム without it in b's set",
        {"initial_order": "seat"},
    )
    k.prelude(roll=3, builds=(A_MAIN, A_SUB, B_MAIN, ["シールド", "グラスホッパー", "ハウンド", "エスクード"]))
    k.events.insert(
        7,
        {
            "type": "wt.init.use",
            "by": "b",
            "player": "b",
            "trigger": "バッグワーム",
            "effect": "潜伏",
            "delta": 1,
            "trion": 2,
        },
    )
    k.expect("WT-INIT-003", 9)
    return k


@case
def warn_turn_number_jump() -> Case:
    k = Case("warn-turn-jump", "■3–■7 turns repeat one after another: turn 1 is followed by a 'turn 3'")
    k.prelude()
    k.opening()
    k.shot("a")
    k.plot("b", [1, 2], [1, 2], [])
    k.expect("WT-ORDER-003", k.order(3, "b"))
    return k


@case
def bad_build_side() -> Case:
    k = Case(
        "bad-build-side",
        "■1 main and sub triggers (sides from the trigger text, the catalogue): 弧月 (main only) on the sub side",
    )
    k.prelude(
        builds=(
            ["アステロイド", "ハウンド", "スコーピオン", "メテオラ"],
            ["弧月", "シールド", "バッグワーム", "エスクード"],
            B_MAIN,
            B_SUB,
        )
    )
    k.expect("WT-BUILD-003", 2)
    return k


# ---------------------------------------------------------------- writing


def _raw_append(path: Path, event: dict[str, Any]) -> None:
    """docs/format.md's client recipe, for a line kifu itself refused."""
    lines = path.read_bytes().split(b"\n")[:-1]
    event = {"type": event["type"], "seq": len(lines) + 1, "prev": hashlib.sha256(lines[-1]).hexdigest(), **event}
    line = json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode()
    with open(path, "ab") as f:
        f.write(line + b"\n")


def write(k: Case) -> dict[str, Any]:
    path = HERE / f"{k.name}.jsonl"
    path.unlink(missing_ok=True)
    start = {
        "game": "worldtrigger",
        "match": k.name,
        "players": [{"id": "a", "name": "三雲"}, {"id": "b", "name": "空閑"}],
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
    for fn in CASES:
        k = fn()
        cases[f"{k.name}.jsonl"] = write(k)
    (HERE / "cases.json").write_text(json.dumps(cases, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(cases)} cases written to {HERE}")


if __name__ == "__main__":
    main()
