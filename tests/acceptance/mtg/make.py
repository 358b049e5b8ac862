"""Acceptance dispute cases for Magic coin flips, written from seed 001 (MTG Wiki コイン投げ, CR 705) alone.

Each case is a short match log as a table or a client would write it following docs/format.md and
docs/games/mtg.md, plus the findings a judge reading the seed expects (code and seq of every error
or warning; [] for a clean match). Run ``python tests/acceptance/mtg/make.py`` to rebuild the logs and
``cases.json`` byte for byte (fixed times, no randomness).
"""

from __future__ import annotations

import hashlib
import json
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from collections.abc import Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from kifu.events import logfile  # noqa: E402
from kifu.events.base import KifuError  # noqa: E402

_T0 = datetime(2026, 11, 29, 13, 0, tzinfo=timezone(timedelta(hours=9)))


class Table:
    """One match being written: events go out through the library so the chain is valid."""

    def __init__(self, name: str, rules: dict[str, Any] | None = None) -> None:
        self.path = HERE / f"{name}.jsonl"
        self.path.unlink(missing_ok=True)
        self.seq = 1
        self.expected: list[dict[str, Any]] = []
        start = {
            "game": "mtg",
            "match": f"acc-{name}",
            "at": self._at(),
            "players": [{"id": "a", "name": "Aoi"}, {"id": "b", "name": "Ren"}],
            "rules": rules or {},
        }
        logfile.create(self.path, start)

    def _at(self) -> str:
        return (_T0 + timedelta(seconds=15 * self.seq)).isoformat()

    def add(self, type_: str, by: str | None = None, expect: str | None = None, **fields: Any) -> int:
        """Append one event; ``expect`` names the rule a judge says it breaks."""
        self.seq += 1
        event = {"type": type_, "at": self._at(), **fields}
        if by is not None:
            event["by"] = by
        try:
            logfile.append(self.path, event)
        except KifuError:
            # kifu refused the line: write it as any client following docs/format.md would, so the
            # acceptance test sees the rejection when it reads the log
            self._append_raw(event)
        if expect is not None:
            self.expected.append({"code": expect, "seq": self.seq})
        return self.seq

    def _append_raw(self, event: dict[str, Any]) -> None:
        last = self.path.read_bytes().split(b"\n")[-2]
        line = {
            "type": event["type"],
            "seq": self.seq,
            "prev": hashlib.sha256(last).hexdigest(),
            **{k: v for k, v in event.items() if k != "type"},
        }
        with open(self.path, "ab") as fh:
            fh.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")

    # the usual table moves, so each case reads like the table's record
    def flip(self, flip: str, card: str, flipper: str, **kw: Any) -> int:
        return self.add("mtg.flip", by=flipper, flip=flip, card=card, flipper=flipper, **kw)

    def call(self, flip: str, player: str, side: str, **kw: Any) -> int:
        return self.add("mtg.call", by=player, flip=flip, player=player, side=side, **kw)

    def coin(self, flip: str, result: str, by: str, **kw: Any) -> int:
        return self.add("mtg.coin", by=by, flip=flip, result=result, **kw)

    def outcome(self, flip: str, player: str, outcome: str, **kw: Any) -> int:
        return self.add("mtg.outcome", by=player, flip=flip, player=player, outcome=outcome, **kw)


CASES: dict[str, tuple[str, Callable[[Table], None]]] = {}


def case(name: str, statement: str) -> Callable[[Callable[[Table], None]], Callable[[Table], None]]:
    def deco(fn: Callable[[Table], None]) -> Callable[[Table], None]:
        CASES[name] = (statement, fn)
        return fn

    return deco


def _efreet(t: Table, flip: str, player: str, call: str, result: str, **expect: str) -> None:
    """Frenetic Efreet (seed: a card that cares about winning): call, coin, outcome, payoff."""
    t.flip(flip, "Frenetic Efreet", player)
    t.call(flip, player, call, expect=expect.get("call"))
    t.coin(flip, result, by=player)
    won = call == result
    t.outcome(flip, player, "won" if won else "lost", expect=expect.get("outcome"))


# --- 705.2, called flips -------------------------------------------------------------------------


@case("c01-efreet-won", "705.2: the flipper calls, the call matches, the flipper wins (clean)")
def _c01(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.add("mtg.enters", by="a", permanent="fe1", card="Frenetic Efreet", controller="a")
    _efreet(t, "f1", "a", "heads", "heads")
    t.add("mtg.payoff", by="a", flip="f1", kind="other", player="a")


@case("c02-mana-crypt-lost", "705.2: the call misses, the flipper loses; Mana Crypt deals 3 (clean)")
def _c02(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    _efreet_like = "Mana Crypt"
    t.flip("f1", _efreet_like, "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "tails", by="a")
    t.outcome("f1", "a", "lost")
    t.add("mtg.payoff", by="a", flip="f1", kind="damage", amount=3, player="a")


@case(
    "c03-call-then-toss-with-table-talk",
    "seed: 宣言→投げる order is fine; notes between call and coin change nothing (clean)",
)
def _c03(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Stitch in Time", "a")
    t.call("f1", "a", "tails")
    t.add("note", by="b", text="どうぞ")
    t.add("note", by="a", text="投げます")
    t.coin("f1", "tails", by="a")
    t.outcome("f1", "a", "won")
    t.add("mtg.payoff", by="a", flip="f1", kind="extra-turn", player="a")


@case("c04-hidden-then-call", "seed: 投げる→落ちると同時に隠す→宣言 is allowed: the call precedes the reveal (clean)")
def _c04(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Sorcerer's Strongbox", "a")
    t.add("note", by="a", text="投げて手で隠しました")
    t.call("f1", "a", "heads")
    t.coin("f1", "heads", by="a")
    t.outcome("f1", "a", "won")
    t.add("mtg.payoff", by="a", flip="f1", kind="draw", amount=3, player="a")


@case("c05-call-after-result-seen", "705.2 / seed 正式な手順: a call made after the result is seen")
def _c05(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.coin("f1", "tails", by="a")
    t.call("f1", "a", "tails", expect="MTG-CALL-004")
    t.outcome("f1", "a", "won")


@case("c06-opponent-calls", "705.2: the flipper calls, not the opponent (the pre-Coldsnap habit)")
def _c06(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "b", "tails", expect="MTG-CALL-003")
    t.coin("f1", "heads", by="a")
    t.outcome("f1", "a", "won")


@case("c07-won-though-call-missed", "705.2: 一致した場合は勝ち、そうでなければ負け (recorded won on a miss)")
def _c07(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Bottle of Suleiman", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "tails", by="a")
    t.outcome("f1", "a", "won", expect="MTG-CALL-006")


@case("c08-lost-though-call-matched", "705.2: a matching call wins (recorded lost on a match)")
def _c08(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="b")
    t.flip("f1", "Frenetic Efreet", "b")
    t.call("f1", "b", "tails")
    t.coin("f1", "tails", by="b")
    t.outcome("f1", "b", "lost", expect="MTG-CALL-006")


@case("c09-opponent-recorded-as-winner", "705.2: only the flipper wins or loses; the opponent does not win")
def _c09(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "tails", by="a")
    t.outcome("f1", "a", "lost")
    t.outcome("f1", "b", "won", expect="MTG-CALL-005")


@case("c10-opponent-flips-for-player", "seed ルール: the affected player flips (opponent tossed the coin)")
def _c10(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Goblin Archaeologist", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "heads", by="b", player="b", expect="MTG-CALL-007")
    t.outcome("f1", "a", "won")


@case(
    "c11-called-no-outcome-recorded",
    "705.2: the outcome follows from call and result; recording it is optional (clean)",
)
def _c11(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "tails")
    t.coin("f1", "heads", by="a")
    t.add("mtg.payoff", by="a", flip="f1", kind="other", player="a")


@case("c12-both-players-flip-own-cards", "705.2: each flipper calls and wins or loses their own flip (clean)")
def _c12(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    _efreet(t, "f1", "a", "heads", "tails")
    t.add("mtg.turn", turn=2, player="b")
    t.flip("f2", "Mana Crypt", "b")
    t.call("f2", "b", "tails")
    t.coin("f2", "tails", by="b")
    t.outcome("f2", "b", "won")
    _efreet(t, "f3", "a", "tails", "tails")


# --- 705.2, heads/tails-only flips ---------------------------------------------------------------


def _mana_clash_round(t: Table, flip: str, group: int, a: str, b: str, **expect: str) -> None:
    t.coin(flip, a, by="a", player="a", group=group)
    t.coin(flip, b, by="b", player="b", group=group)
    for pid, side in (("a", a), ("b", b)):
        if side == "tails":
            t.add("mtg.payoff", by="a", flip=flip, kind="damage", amount=1, player=pid, group=group)


@case("c13-mana-clash-clean", "705.2: heads/tails only: nobody calls, nobody wins; repeat until both heads (clean)")
def _c13(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Mana Clash", "a")
    _mana_clash_round(t, "f1", 1, "heads", "tails")
    _mana_clash_round(t, "f1", 2, "tails", "tails")
    _mana_clash_round(t, "f1", 3, "heads", "heads")


@case("c14-call-on-mana-clash", "705.2 / seed: 誰も何も宣言せず (a call on a heads/tails-only flip)")
def _c14(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Mana Clash", "a")
    t.call("f1", "a", "heads", expect="MTG-CALL-001")
    _mana_clash_round(t, "f1", 1, "heads", "heads")


@case("c15-winner-on-mana-clash", "705.2 / seed: どのプレイヤーにも勝敗はつかない (won recorded on Mana Clash)")
def _c15(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Mana Clash", "a")
    t.coin("f1", "heads", by="a", player="a")
    t.coin("f1", "heads", by="b", player="b")
    t.outcome("f1", "a", "won", expect="MTG-CALL-002")


@case("c16-luck-counter-from-mana-clash", "seed: 勝敗がつかない場合、偶然の出合いに運勢カウンターは乗らない")
def _c16(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.add("mtg.enters", by="a", permanent="ce1", card="Chance Encounter", controller="a")
    t.flip("f1", "Mana Clash", "a")
    t.coin("f1", "heads", by="a", player="a")
    t.coin("f1", "heads", by="b", player="b")
    t.add(
        "mtg.payoff",
        by="a",
        flip="f1",
        kind="luck-counter",
        amount=1,
        permanent="ce1",
        player="a",
        expect="MTG-PAY-003",
    )


@case("c17-luck-counter-from-won-flip", "seed: a won called flip does put a luck counter on Chance Encounter (clean)")
def _c17(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.add("mtg.enters", by="a", permanent="ce1", card="Chance Encounter", controller="a")
    _efreet(t, "f1", "a", "tails", "tails")
    t.add("mtg.payoff", by="a", flip="f1", kind="luck-counter", amount=1, permanent="ce1", player="a")
    t.add("mtg.turn", turn=2, player="b")
    t.flip("f2", "Mana Clash", "b")
    _mana_clash_round(t, "f2", 1, "heads", "heads")


@case(
    "c18-luck-counter-for-opponents-win",
    "705.2: only the flipper wins; the opponent's Chance Encounter gets nothing from that win",
)
def _c18(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="b")
    t.add("mtg.enters", by="a", permanent="ce1", card="Chance Encounter", controller="a")
    _efreet(t, "f1", "b", "heads", "heads")
    t.add(
        "mtg.payoff",
        by="a",
        flip="f1",
        kind="luck-counter",
        amount=1,
        permanent="ce1",
        player="a",
        expect="MTG-PAY-003",
    )


@case("c19-ral-zarek-five-coins", "705.2: heads/tails-only flips with no call and no outcome (clean)")
def _c19(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="b")
    t.flip("f1", "Ral Zarek", "b", ability="-7")
    for g, side in enumerate(("heads", "tails", "tails", "heads", "tails"), start=1):
        t.coin("f1", side, by="b", group=g)
    t.add("mtg.payoff", by="b", flip="f1", kind="extra-turn", amount=2, player="b")


# --- 705.1, the coin and its substitutes ---------------------------------------------------------


@case("c20-d6-odd-even", "705.1: an even-sided die read odd=heads, both players agreed (clean)")
def _c20(t: Table) -> None:
    t.add("mtg.randomiser", by="a", randomiser="d6", kind="die", sides=6, heads="odd", agreed=["a", "b"])
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "heads", by="a", face=3, randomiser="d6")
    t.outcome("f1", "a", "won")


@case("c21-d6-low-high", "seed: a d6 read 3以下・4以上 (low=heads), both agreed; face 5 is tails (clean)")
def _c21(t: Table) -> None:
    t.add("mtg.randomiser", by="b", randomiser="d6", kind="die", sides=6, heads="low", agreed=["a", "b"])
    t.add("mtg.turn", turn=1, player="b")
    t.flip("f1", "Mana Crypt", "b")
    t.call("f1", "b", "tails")
    t.coin("f1", "tails", by="b", face=5, randomiser="d6")
    t.outcome("f1", "b", "won")


@case("c22-die-without-opponents-agreement", "705.1: a substitute needs both players' agreement")
def _c22(t: Table) -> None:
    t.add(
        "mtg.randomiser", by="a", randomiser="d6", kind="die", sides=6, heads="odd", agreed=["a"], expect="MTG-COIN-001"
    )
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "heads", by="a", face=1, randomiser="d6")
    t.outcome("f1", "a", "won")


@case("c23-die-face-misread", "705.1: 奇数がオモテ: a 4 is tails, recorded as heads")
def _c23(t: Table) -> None:
    t.add("mtg.randomiser", by="a", randomiser="d6", kind="die", sides=6, heads="odd", agreed=["a", "b"])
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "heads", by="a", face=4, randomiser="d6", expect="MTG-COIN-003")


@case("c24-odd-sided-die", "705.1: 偶数面のサイコロ: a d3 gives no two equal results")
def _c24(t: Table) -> None:
    t.add(
        "mtg.randomiser",
        by="a",
        randomiser="d3",
        kind="die",
        sides=3,
        heads="odd",
        agreed=["a", "b"],
        expect="MTG-COIN-002",
    )
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "heads", by="a", face=1, randomiser="d3")


@case("c25-ten-yen-named-first", "705.1 / seed: 10円玉: heads named (鳳凰堂) before flipping (clean)")
def _c25(t: Table) -> None:
    t.add("mtg.randomiser", by="a", randomiser="yen10", kind="coin", sides=2, clear=False)
    t.add("mtg.heads", by="a", randomiser="yen10", heads="平等院鳳凰堂", agreed=["a", "b"])
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "tails")
    t.coin("f1", "tails", by="a", randomiser="yen10")
    t.outcome("f1", "a", "won")


@case("c26-ten-yen-named-after-flip", "705.1 / seed: 投げる前にはっきりさせておかなくてはならない")
def _c26(t: Table) -> None:
    t.add("mtg.randomiser", by="a", randomiser="yen10", kind="coin", sides=2, clear=False)
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "tails")
    t.coin("f1", "tails", by="a", randomiser="yen10", expect="MTG-COIN-004")
    t.add("mtg.heads", by="a", randomiser="yen10", heads="平等院鳳凰堂", agreed=["a", "b"])
    t.outcome("f1", "a", "won")


@case("c27-two-face-down-cards", "seed / 705.1: two face-down cards picked at random, agreed by both (clean)")
def _c27(t: Table) -> None:
    t.add("mtg.randomiser", by="a", randomiser="cards", kind="cards", sides=2, heads="land", agreed=["a", "b"])
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "heads", by="a", face=1, randomiser="cards")
    t.outcome("f1", "a", "won")


@case("c28-three-sided-coin", "705.1: the coin is a two-sided object")
def _c28(t: Table) -> None:
    t.add("mtg.randomiser", by="a", randomiser="token", kind="coin", sides=3, agreed=["a", "b"], expect="MTG-COIN-002")


# --- Krark's Thumb (seed 解説: the 50% principle can be bent) -------------------------------------


@case("c29-thumb-keeps-the-win", "seed 解説 / Krark's Thumb: two coins, one kept after both seen (clean)")
def _c29(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.add("mtg.enters", by="a", permanent="kt1", card="Krark's Thumb", controller="a")
    t.add("mtg.enters", by="a", permanent="ce1", card="Chance Encounter", controller="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "tails", by="a")
    t.coin("f1", "heads", by="a")
    t.add("mtg.keep", by="a", flip="f1", player="a", coin=2)
    t.outcome("f1", "a", "won")
    t.add("mtg.payoff", by="a", flip="f1", kind="luck-counter", amount=1, permanent="ce1", player="a")


@case("c30-thumb-single-coin", "Krark's Thumb: each flip becomes two coins")
def _c30(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.add("mtg.enters", by="a", permanent="kt1", card="Krark's Thumb", controller="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "heads", by="a", expect="MTG-THUMB-001")
    t.outcome("f1", "a", "won")


@case("c31-thumb-left-play", "Krark's Thumb left play: one coin per flip again (clean)")
def _c31(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.add("mtg.enters", by="a", permanent="kt1", card="Krark's Thumb", controller="a")
    t.add("mtg.leaves", by="a", permanent="kt1")
    _efreet(t, "f1", "a", "heads", "tails")


# --- what a table writes that must not be flagged ------------------------------------------------


@case(
    "c32-mana-clash-no-payoffs-recorded",
    "705.2: the seed's own Mana Clash example recorded as flips only (damage not logged) (clean)",
)
def _c32(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Mana Clash", "a")
    t.coin("f1", "tails", by="a", player="a", group=1)
    t.coin("f1", "heads", by="b", player="b", group=1)
    t.coin("f1", "heads", by="a", player="a", group=2)
    t.coin("f1", "heads", by="b", player="b", group=2)


@case("c33-bottle-won-token-not-logged", "705.2: a won flip recorded without the card's effect (clean)")
def _c33(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Bottle of Suleiman", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "heads", by="a")
    t.outcome("f1", "a", "won")


@case(
    "c34-call-changed-before-toss",
    "seed: 宣言→投げる: the flipper changes the call before the coin is thrown; the last call counts (clean)",
)
def _c34(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "heads")
    t.add("note", by="a", text="やっぱり裏")
    t.call("f1", "a", "tails")
    t.coin("f1", "tails", by="a")
    t.outcome("f1", "a", "won")


@case("c35-die-result-without-face", "705.1: an agreed d6 whose face was not written down, only the side (clean)")
def _c35(t: Table) -> None:
    t.add("mtg.randomiser", by="a", randomiser="d6", kind="die", sides=6, heads="even", agreed=["a", "b"])
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "heads", by="a", randomiser="d6")
    t.outcome("f1", "a", "won")


@case("c36-judge-ruling-and-end", "a judge's ruling, table talk and the match end change nothing (clean)")
def _c36(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Mogg Assassin", "a")
    t.add("note", by="b", text="対象はこのクリーチャー")
    t.call("f1", "a", "tails")
    t.coin("f1", "heads", by="a")
    t.outcome("f1", "a", "lost")
    t.add("judge.ruling", by="judge", about=[6], text="Only the controller flips; the loss stands.", decision="upheld")
    t.add("match.end", by="judge", winner="b", reason="concede")
    t.add("note", by="a", text="gg")


@case("c37-call-then-opponent-echoes", "705.2: the opponent repeats the flipper's call aloud: not a call by them?")
def _c37(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "heads", by="a")
    t.outcome("f1", "a", "won")
    t.outcome("f1", "b", "lost", expect="MTG-CALL-005")


@case(
    "c38-opponent-told-to-flip",
    "seed ルール: the affected player (here the opponent) flips, calls and wins; their Chance Encounter counts it (clean)",
)
def _c38(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.add("mtg.enters", by="b", permanent="ce-b", card="Chance Encounter", controller="b")
    t.add("mtg.enters", by="a", permanent="ce-a", card="Chance Encounter", controller="a")
    t.flip("f1", "Fickle Wager", "b", controller="a", kind="called")
    t.call("f1", "b", "heads")
    t.coin("f1", "heads", by="b", player="b")
    t.outcome("f1", "b", "won")
    t.add("mtg.payoff", by="b", flip="f1", kind="luck-counter", amount=1, permanent="ce-b", player="b")


@case(
    "c39-heads-named-without-asking", "705.1: heads made clear before flipping; asking the opponent is advice (clean)"
)
def _c39(t: Table) -> None:
    t.add("mtg.randomiser", by="a", randomiser="yen100", kind="coin", sides=2, clear=False)
    t.add("mtg.heads", by="a", randomiser="yen100", heads="桜の面", agreed=["a"])
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Stitch in Time", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "tails", by="a", randomiser="yen100")
    t.outcome("f1", "a", "lost")


@case("c40-thumb-coins-agree", "Krark's Thumb: both coins the same, no keep needed (clean)")
def _c40(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.add("mtg.enters", by="a", permanent="kt1", card="Krark's Thumb", controller="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "tails", by="a")
    t.coin("f1", "tails", by="a")
    t.outcome("f1", "a", "lost")


@case("c41-two-headed-giant-two-flips", "705.2: heads/tails only, two flips numbered by group (clean)")
def _c41(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="b")
    t.flip("f1", "Two-Headed Giant", "b")
    t.coin("f1", "heads", by="b", group=1)
    t.coin("f1", "heads", by="b", group=2)


@case("c42-yusri-three-coins", "705.2: a call before each of three flips; each flip won or lost on its own (clean)")
def _c42(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Yusri, Fortune's Flame", "a", chosen=3)
    for g, (call, side) in enumerate((("heads", "heads"), ("heads", "tails"), ("tails", "tails")), start=1):
        t.call("f1", "a", call, group=g)
        t.coin("f1", side, by="a", group=g)
        t.outcome("f1", "a", "won" if call == side else "lost", group=g)
    t.add("mtg.payoff", by="a", flip="f1", kind="draw", amount=2, player="a")
    t.add("mtg.payoff", by="a", flip="f1", kind="damage", amount=2, player="a")


@case("c43-second-flip-same-turn-wrong-outcome", "705.2: the second flip of a turn is judged on its own")
def _c43(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    _efreet(t, "f1", "a", "heads", "heads")
    t.flip("f2", "Frenetic Efreet", "a")
    t.call("f2", "a", "tails")
    t.coin("f2", "heads", by="a")
    t.outcome("f2", "a", "won", expect="MTG-CALL-006")


@case(
    "c44-reflip-after-a-miss",
    "seed 解説 (床に落としても構わない): the coin that fell counts; flipping again is a re-flip",
)
def _c44(t: Table) -> None:
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "tails", by="a")
    t.add("note", by="a", text="落ちたのでやり直し")
    t.coin("f1", "heads", by="a", expect="MTG-THUMB-001")
    t.outcome("f1", "a", "won")


@case(
    "c45-die-reading-named-separately",
    "705.1: 「奇数がオモテで偶数が裏」と宣言して: the die is agreed first, its reading named before flipping (clean)",
)
def _c45(t: Table) -> None:
    t.add("mtg.randomiser", by="a", randomiser="d20", kind="die", sides=20, agreed=["a", "b"])
    t.add("mtg.heads", by="a", randomiser="d20", heads="odd", agreed=["a", "b"])
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "tails")
    t.coin("f1", "tails", by="a", face=14, randomiser="d20")
    t.outcome("f1", "a", "won")


@case(
    "c46-die-rolled-before-reading-named",
    "seed: 表裏を参照する場合はどちらか一方を表…と決めておけばよい: the reading is named only after the roll",
)
def _c46(t: Table) -> None:
    t.add("mtg.randomiser", by="a", randomiser="d6", kind="die", sides=6, agreed=["a", "b"])
    t.add("mtg.turn", turn=1, player="a")
    t.flip("f1", "Frenetic Efreet", "a")
    t.call("f1", "a", "heads")
    t.coin("f1", "heads", by="a", face=2, randomiser="d6", expect="MTG-COIN-004")
    t.add("mtg.heads", by="a", randomiser="d6", heads="even", agreed=["a", "b"])
    t.outcome("f1", "a", "won")


def build() -> dict[str, Any]:
    """Write every case's log and return cases.json's content."""
    out: dict[str, Any] = {}
    for name, (statement, fn) in CASES.items():
        t = Table(name)
        fn(t)
        out[t.path.name] = {"statement": statement, "expected": t.expected}
    return out


def main() -> None:
    cases = build()
    text = json.dumps(cases, ensure_ascii=False, indent=1) + "\n"
    (HERE / "cases.json").write_text(text, encoding="utf-8")
    print(f"{len(cases)} cases written to {HERE}")


if __name__ == "__main__":
    main()
