"""Disputes with exactly one mistake each, and clean matches: ``PYTHONPATH=. python tests/acceptance/disputes/make.py``.

A judge reads one finding per mistake (docs/format.md § Findings). Each dispute here is a
match with one mistake in it, and the table plays on from what it recorded, as a table
that did not notice would: later counts, damage and payoffs follow from the mistake. Its
audit must give exactly one error finding, at the wrong event, and no "cannot decide"
that a later event decided; a clean match gives none.

Two sources, both written before any audit: logs a judge would write by hand from the
games' docs (the mistakes judges were seen to be shown several findings for: a bullet's
toss recorded at load time, a gunner effect tossed five times, two Krark's Thumb keep
lines, a late call, a watcher the catalogue does not know, ...), and matches of the
games' simulators that make one mistake of each kind they know (kifu/games/mistakes.py),
named by the rule the mistake breaks and the seq the simulator wrote it at. Fixed
seeds and times: re-running writes every file byte for byte.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from kifu.events import logfile  # noqa: E402
from kifu.events.codec import encode  # noqa: E402
from kifu.games.gunandgun import sim as gg  # noqa: E402
from kifu.games.mtg import sim as mtg  # noqa: E402
from kifu.games.mistakes import Mistake  # noqa: E402
from kifu.games.weiss import sim as ws  # noqa: E402
from kifu.games.worldtrigger import sim as wt  # noqa: E402

CASES: dict[str, dict[str, Any]] = {}
P = [{"id": "p1", "name": "Aoi"}, {"id": "p2", "name": "Ren"}]


def write(name: str, bodies: list[dict[str, Any]], about: str, expected: list[tuple[str, int]]) -> None:
    """One log (``bodies[0]`` is match.start) and its case: the findings (code, seq) the rules give."""
    path = HERE / f"{name}.jsonl"
    if path.exists():
        path.unlink()
    start = {"format": "kifu/1", "rules": {}, **bodies[0], "match": f"dispute-{name}"}
    start.pop("type", None)
    logfile.create(path, {"type": "match.start", **start})
    with logfile.Writer(path, durable=False) as w:
        for body in bodies[1:]:
            w.append(body)
    CASES[path.name] = {"about": about, "expected": [{"code": c, "seq": s} for c, s in expected]}


def seq_of(bodies: list[dict[str, Any]], body: dict[str, Any]) -> int:
    """The seq ``body`` gets in the log (match.start is seq 1)."""
    return next(i for i, b in enumerate(bodies, 1) if b is body)


# --- written by hand from the docs ----------------------------------------------------------------------


def gg_opening() -> list[dict[str, Any]]:
    """Aoi (キルコ, ドドメ + ヌエ) and Ren (ナトリ, カサネ + ヌエ), opening hands drawn."""
    return [
        {"game": "gunandgun", "players": P},
        {
            "type": "gg.setup",
            "by": "p1",
            "player": "p1",
            "gunner": "キルコ",
            "guns": ["ドドメ", "ヌエ"],
            "skill": "ドーピング",
        },
        {
            "type": "gg.setup",
            "by": "p2",
            "player": "p2",
            "gunner": "ナトリ",
            "guns": ["カサネ", "ヌエ"],
            "skill": "グッドメディスン",
        },
        {"type": "gg.first", "by": "system", "player": "p1", "reason": "speed"},
        {"type": "gg.draw", "by": "p1", "player": "p1", "deck": "ヌエ", "n": 4, "why": "opening"},
        {"type": "gg.draw", "by": "p2", "player": "p2", "deck": "カサネ", "n": 5, "why": "opening"},
    ]


def bullet_tossed_at_load() -> None:
    b = gg_opening() + [
        {"type": "gg.turn", "by": "p1", "player": "p1", "turn": 1},
        {"type": "gg.load", "by": "p1", "player": "p1", "gun": "ヌエ", "face": "up", "card": "徹甲榴弾"},
    ]
    first = {"type": "gg.toss", "by": "p1", "act": "a1", "player": "p1", "facing": "self"}
    b += [
        first,
        {"type": "gg.toss", "by": "p1", "act": "a1", "player": "p1", "facing": "opponent"},
        {"type": "gg.draw", "by": "p1", "player": "p1", "deck": "ヌエ", "n": 1, "why": "refill"},
        {"type": "gg.turn.end", "by": "p1", "player": "p1", "turn": 1},
        {"type": "gg.turn", "by": "p2", "player": "p2", "turn": 2},
        {"type": "gg.turn.end", "by": "p2", "player": "p2", "turn": 2},
        {"type": "gg.turn", "by": "p1", "player": "p1", "turn": 3},
        {"type": "gg.load", "by": "p1", "player": "p1", "gun": "ヌエ", "n": 1},
        {"type": "gg.draw", "by": "p1", "player": "p1", "deck": "ヌエ", "n": 1, "why": "refill"},
        {"type": "gg.turn.end", "by": "p1", "player": "p1", "turn": 3},
        {"type": "gg.turn", "by": "p2", "player": "p2", "turn": 4},
        {"type": "gg.turn.end", "by": "p2", "player": "p2", "turn": 4},
        {"type": "gg.turn", "by": "p1", "player": "p1", "turn": 5},
        {"type": "gg.load", "by": "p1", "player": "p1", "gun": "ヌエ", "n": 1},
        {"type": "gg.draw", "by": "p1", "player": "p1", "deck": "ヌエ", "n": 1, "why": "refill"},
        {"type": "gg.turn.end", "by": "p1", "player": "p1", "turn": 5},
        {"type": "gg.turn", "by": "p2", "player": "p2", "turn": 6},
        {"type": "gg.turn.end", "by": "p2", "player": "p2", "turn": 6},
        {"type": "gg.turn", "by": "p1", "player": "p1", "turn": 7},
        {"type": "gg.load", "by": "p1", "player": "p1", "gun": "ヌエ", "n": 1},
        # the shot: the bullet's effect opened here and resolved with the N tossed at load time
        {"type": "gg.shoot", "by": "p1", "shot": "s1", "player": "p1", "gun": "ヌエ"},
        {"type": "gg.bullet", "by": "p1", "act": "a1", "player": "p1", "shot": "s1", "card": "徹甲榴弾"},
        {
            "type": "gg.resolve",
            "by": "p1",
            "act": "a1",
            "player": "p1",
            "n": 1,
            "values": [1, 1],
            "measured": 4,
            "holds": True,
        },
        {"type": "gg.hit", "by": "p1", "shot": "s1", "player": "p1", "stage": "bullet", "delta": 1, "act": "a1"},
        {"type": "gg.life", "by": "p1", "player": "p2", "delta": -8, "why": "hit", "shot": "s1"},
        {"type": "gg.ability", "by": "p2", "act": "a2", "player": "p2", "source": "gunner", "name": "ナトリ"},
        {"type": "gg.life", "by": "p2", "player": "p1", "delta": -1, "why": "hit", "act": "a2"},
    ]
    write(
        "gg-bullet-tossed-at-load",
        b,
        "コイントス・バリアント §カード処理ごとのトス実行タイミング: 【銃弾】 tosses at the "
        "shot declaration; 徹甲榴弾's toss was recorded when it was loaded face up, and the shot used that N",
        [("GG-TOSS-005", seq_of(b, first))],
    )


def gunner_effect_tossed_five_times() -> None:
    b = gg_opening() + [
        {"type": "gg.turn", "by": "p1", "player": "p1", "turn": 1},
        {"type": "gg.load", "by": "p1", "player": "p1", "gun": "ドドメ", "n": 2},
        {"type": "gg.shoot", "by": "p1", "shot": "s1", "player": "p1", "gun": "ドドメ"},
        {"type": "gg.life", "by": "p1", "player": "p2", "delta": -3, "why": "hit", "shot": "s1"},
        {"type": "gg.ability", "by": "p2", "act": "a1", "player": "p2", "source": "gunner", "name": "ナトリ"},
    ]
    tosses = [
        {"type": "gg.toss", "by": "p2", "act": "a1", "player": "p2", "facing": f}
        for f in ("self", "self", "self", "self", "opponent")
    ]
    b += tosses + [
        {"type": "gg.life", "by": "p2", "player": "p1", "delta": -1, "why": "hit", "act": "a1"},
        {"type": "gg.draw", "by": "p1", "player": "p1", "deck": "ヌエ", "n": 2, "why": "refill"},
        {"type": "gg.turn.end", "by": "p1", "player": "p1", "turn": 1},
    ]
    write(
        "gg-gunner-effect-tossed-five-times",
        b,
        "コイントス・バリアント §ルール適用の例外 (銃士効果には適用されない): ナトリ's "
        "HIT back was tossed five times (and still dealt 1)",
        [("GG-TOSS-009", seq_of(b, tosses[0]))],
    )


def mtg_opening() -> list[dict[str, Any]]:
    return [{"game": "mtg", "players": P}, {"type": "mtg.turn", "turn": 1, "player": "p1"}]


def two_thumb_keeps(order: tuple[int, int], name: str) -> None:
    b = mtg_opening() + [
        {"type": "mtg.enters", "by": "p1", "permanent": "thumb", "card": "Krark's Thumb", "controller": "p1"},
        {"type": "mtg.enters", "by": "p1", "permanent": "ce", "card": "Chance Encounter", "controller": "p1"},
        {"type": "mtg.flip", "by": "p1", "flip": "f1", "card": "Frenetic Efreet", "controller": "p1", "flipper": "p1"},
        {"type": "mtg.call", "by": "p1", "flip": "f1", "player": "p1", "side": "heads"},
        {"type": "mtg.coin", "by": "p1", "flip": "f1", "player": "p1", "result": "heads"},
        {"type": "mtg.coin", "by": "p1", "flip": "f1", "player": "p1", "result": "tails"},
    ]
    keeps = [{"type": "mtg.keep", "by": "p1", "flip": "f1", "player": "p1", "coin": c} for c in order]
    kept = "won" if order[0] == 1 else "lost"  # the table goes by the first keep line it wrote
    b += keeps + [{"type": "mtg.outcome", "by": "p1", "flip": "f1", "player": "p1", "outcome": kept}]
    if kept == "won":
        b.append(
            {
                "type": "mtg.payoff",
                "by": "p1",
                "flip": "f1",
                "kind": "luck-counter",
                "amount": 1,
                "permanent": "ce",
                "player": "p1",
            }
        )
    write(
        name,
        b,
        "Saturday School #56: under Krark's Thumb one coin is kept; two keep lines name different coins "
        f"(in the order {order}) and the table paid as the first said",
        [("MTG-THUMB-002", seq_of(b, keeps[1]))],
    )


def late_call() -> None:
    b = mtg_opening() + [
        {
            "type": "mtg.flip",
            "by": "p1",
            "flip": "f1",
            "card": "Mana Crypt",
            "controller": "p1",
            "flipper": "p1",
            "ability": "upkeep",
        },
        {"type": "mtg.coin", "by": "p1", "flip": "f1", "player": "p1", "result": "tails"},
    ]
    call = {"type": "mtg.call", "by": "p1", "flip": "f1", "player": "p1", "side": "tails"}
    b += [call, {"type": "mtg.outcome", "by": "p1", "flip": "f1", "player": "p1", "outcome": "won"}]
    write(
        "mtg-call-after-the-coin",
        b,
        "総合ルール 705.2 / MTG Wiki «コイン投げ»: the call is made while the coin is in "
        "the air; Aoi's call is recorded after the coin",
        [("MTG-CALL-004", seq_of(b, call))],
    )


def unknown_watcher() -> None:
    b = mtg_opening() + [
        {"type": "mtg.enters", "by": "p2", "permanent": "km-b", "card": "Homebrew Fortune Teller", "controller": "p2"},
        {"type": "mtg.flip", "by": "p1", "flip": "f1", "card": "Stitch in Time", "controller": "p1", "flipper": "p1"},
        {"type": "mtg.call", "by": "p1", "flip": "f1", "player": "p1", "side": "heads"},
        {"type": "mtg.coin", "by": "p1", "flip": "f1", "player": "p1", "result": "heads"},
        {"type": "mtg.outcome", "by": "p1", "flip": "f1", "player": "p1", "outcome": "won"},
        {"type": "mtg.payoff", "by": "p1", "flip": "f1", "kind": "extra-turn", "amount": 1, "player": "p1"},
        {
            "type": "mtg.payoff",
            "by": "p2",
            "flip": "f1",
            "kind": "luck-counter",
            "amount": 1,
            "permanent": "km-b",
            "player": "p2",
        },
    ]
    write(
        "mtg-watcher-not-in-the-catalogue",
        b,
        "a watcher the catalogue does not know (its controller named) pays a "
        "luck counter: kifu cannot decide what it counts, so no error",
        [],
    )


def gg_kiyohime_opening() -> list[dict[str, Any]]:
    """Aoi (キルコ, キヨヒメ + ヌエ) and Ren (ナトリ, カサネ + ヌエ), opening hands drawn."""
    b = gg_opening()
    b[1] = {**b[1], "guns": ["キヨヒメ", "ヌエ"]}
    b[4] = {**b[4], "deck": "キヨヒメ"}
    return b


def turn(player: str, n: int, refill: int = 0, deck: str = "ヌエ") -> list[dict[str, Any]]:
    """The end of a turn (its refill first) and the next player's turn start."""
    other = "p2" if player == "p1" else "p1"
    out = [{"type": "gg.draw", "by": player, "player": player, "deck": deck, "n": refill, "why": "refill"}]
    return (out if refill else []) + [
        {"type": "gg.turn.end", "by": player, "player": player, "turn": n},
        {"type": "gg.turn", "by": other, "player": other, "turn": n + 1},
    ]


def additional_cost_printed() -> None:
    b = gg_kiyohime_opening() + [
        {"type": "gg.turn", "by": "p1", "player": "p1", "turn": 1},
        {"type": "gg.load", "by": "p1", "player": "p1", "gun": "キヨヒメ", "n": 1},
        *turn("p1", 1, refill=1),
        *turn("p2", 2),
        {"type": "gg.load", "by": "p1", "player": "p1", "gun": "キヨヒメ", "n": 1},
        {"type": "gg.play", "by": "p1", "act": "a1", "player": "p1", "card": "過焔地獄", "kind": "action"},
        {"type": "gg.cost", "by": "p1", "act": "a1", "player": "p1", "kind": "hand", "n": 2},
        {"type": "gg.toss", "by": "p1", "act": "a1", "player": "p1", "facing": "self"},
        {"type": "gg.toss", "by": "p1", "act": "a1", "player": "p1", "facing": "self"},
        {"type": "gg.toss", "by": "p1", "act": "a1", "player": "p1", "facing": "opponent"},
        # N=2, but the printed 5 was paid and written in the resolution's first number (the additional cost)
        {"type": "gg.cost", "by": "p1", "act": "a1", "player": "p1", "kind": "additional", "n": 5, "gun": "キヨヒメ"},
    ]
    resolve = {"type": "gg.resolve", "by": "p1", "act": "a1", "player": "p1", "n": 2, "values": [5, 2]}
    b += [
        resolve,
        {"type": "gg.burn", "by": "p1", "player": "p2", "delta": 2, "act": "a1"},
        *turn("p1", 3, refill=4),
    ]
    write(
        "gg-additional-cost-printed",
        b,
        "コイントス・バリアント §追加コストについて: 過焔地獄's additional cost is N loads of キヨヒメ; with N=2 the "
        "table paid the printed 5 and wrote 5 as the resolution's additional cost: one wrong number, one finding "
        "(GG-COST-002, the rule of the additional cost; GG-NUM-001 on the same number folds into it)",
        [("GG-COST-002", seq_of(b, resolve))],
    )


def hit_from_gun_effect_n() -> None:
    b = gg_opening() + [
        {"type": "gg.turn", "by": "p1", "player": "p1", "turn": 1},
        {"type": "gg.load", "by": "p1", "player": "p1", "gun": "ドドメ", "n": 2},
        {"type": "gg.shoot", "by": "p1", "shot": "s1", "player": "p1", "gun": "ドドメ"},
        {"type": "gg.ability", "by": "p1", "act": "g1", "player": "p1", "source": "gun", "name": "ドドメ"},
    ]
    first = {"type": "gg.toss", "by": "p1", "act": "g1", "player": "p1", "facing": "self"}
    b += [
        first,
        {"type": "gg.toss", "by": "p1", "act": "g1", "player": "p1", "facing": "self"},
        {"type": "gg.toss", "by": "p1", "act": "g1", "player": "p1", "facing": "opponent"},
        {"type": "gg.resolve", "by": "p1", "act": "g1", "player": "p1", "n": 2},
        # the shot's HIT taken from that N (2) instead of ドドメ's table (2 loaded: 3)
        {"type": "gg.life", "by": "p1", "player": "p2", "delta": -2, "why": "hit", "shot": "s1"},
        *turn("p1", 1, refill=2),
    ]
    write(
        "gg-hit-from-gun-effect-n",
        b,
        "コイントス・バリアント §ルール適用の例外 (銃効果には適用されない): ドドメ's gun effect was tossed and the "
        "shot's HIT taken from that N instead of the gun's HIT table: the damage is the toss's consequence",
        [("GG-TOSS-009", seq_of(b, first))],
    )


def turn_after_deck_out() -> None:
    b = gg_opening()
    b[0] = {**b[0], "rules": {"deck_out": "either-empty"}}
    b[2] = {**b[2], "deck": 6}  # Ren's guns bring 6-card decks: the opening hand leaves カサネ's at 1
    b += [
        {"type": "gg.turn", "by": "p1", "player": "p1", "turn": 1},
        *turn("p1", 1),
        {"type": "gg.load", "by": "p2", "player": "p2", "gun": "カサネ", "n": 2},
    ]
    out = {"type": "gg.draw", "by": "p2", "player": "p2", "deck": "カサネ", "n": 2, "why": "refill"}
    b += [
        out,
        {"type": "gg.turn.end", "by": "p2", "player": "p2", "turn": 2},
        {"type": "gg.turn", "by": "p1", "player": "p1", "turn": 3},
        {"type": "gg.load", "by": "p1", "player": "p1", "gun": "ドドメ", "n": 1},
        *turn("p1", 3, refill=1),
    ]
    write(
        "gg-turn-after-deck-out",
        b,
        "option deck_out=either-empty: Ren's refill of 2 from カサネ's deck of 1 ran it out, and Ren lost there; "
        "the turns recorded after it are that finding's consequences, not a second finding (GG-END-002)",
        [("GG-DECK-003", seq_of(b, out))],
    )


WT_PLAYERS = [{"id": "a", "name": "三雲"}, {"id": "b", "name": "空閑"}]


def wt_play_after_defeat() -> None:
    faces = ["move", "move", "shooting", "shooting", "close", "close"]
    b: list[dict[str, Any]] = [
        {"game": "worldtrigger", "players": WT_PLAYERS},
        {
            "type": "wt.build",
            "by": "a",
            "player": "a",
            "main": ["弧月", "旋空", "アステロイド", "レイガスト"],
            "sub": ["シールド", "バッグワーム", "グラスホッパー", "エスクード"],
        },
        {"type": "wt.sheet", "by": "a", "player": "a", "faces": faces},
        {
            "type": "wt.build",
            "by": "b",
            "player": "b",
            "main": ["アステロイド", "ハウンド", "メテオラ", "バイパー"],
            "sub": ["シールド", "バッグワーム", "エスクード", "スコーピオン"],
        },
        {"type": "wt.sheet", "by": "b", "player": "b", "faces": faces},
        {"type": "wt.deal", "by": "judge", "player": "a", "trion": 100},
        {"type": "wt.deal", "by": "judge", "player": "b", "trion": 100},
        {"type": "wt.init.roll", "by": "a", "value": 3},
        {"type": "wt.init.set", "by": "judge", "distance": 3},
        {"type": "wt.order", "by": "judge", "turn": 1, "first": "a", "tie_break": "janken"},
        {"type": "wt.set", "by": "a", "player": "a", "main": "アステロイド", "sub": "シールド"},
        {"type": "wt.set", "by": "b", "player": "b", "main": "アステロイド", "sub": "シールド"},
        {"type": "wt.plot", "by": "a", "attacker": "a", "attack": [1, 3], "defence": [2, 5]},
        {"type": "wt.tags", "by": "a", "player": "a", "tags": ["move", "shooting"]},
        {"type": "wt.reveal", "by": "a", "player": "a", "trigger": "アステロイド", "trion": 2},
        {
            "type": "wt.use",
            "by": "a",
            "player": "a",
            "trigger": "アステロイド",
            "effect": "射撃",
            "trion": 2,
            "tags": ["shooting"],
        },
        {"type": "wt.pass", "by": "a", "player": "a"},
        {"type": "wt.pass", "by": "b", "player": "b"},
        {"type": "wt.resolve", "by": "judge", "of": 16},
        {"type": "wt.trion", "by": "judge", "player": "b", "delta": -15, "source": 16},
        {"type": "wt.trion", "by": "judge", "player": "b", "delta": -85, "source": 16},
    ]
    # 空閑 is at 0 trion: the match is over, yet 三雲 plots again (and, as a plot, by the wrong attacker)
    again = {"type": "wt.plot", "by": "a", "attacker": "a", "attack": [2, 4], "defence": [1, 6]}
    b += [again, {"type": "wt.tags", "by": "a", "player": "a", "tags": ["move", "move"]}]
    write(
        "wt-play-after-defeat",
        b,
        "■7 勝利条件: 空閑 reached 0 trion, which ended the match; the plot recorded after it (which also names an "
        "attacker who already attacked this turn) and what follows are that one finding's consequences",
        [("WT-END-001", seq_of(b, again))],
    )


# --- one mistake of each kind a simulator knows, and clean matches --------------------------------------


def _gg(seed: int, mistake: Mistake | None) -> list[dict[str, Any]]:
    return gg.play(random.Random(seed), "sim", 12, mistake)


def _mtg(seed: int, mistake: Mistake | None) -> list[dict[str, Any]]:
    return mtg.legal_match(seed, thumbs=True, mistake=mistake)


def _wt(seed: int, mistake: Mistake | None) -> list[dict[str, Any]]:
    start, events = wt.match(seed, mistake=mistake)
    return [start] + events


def _ws(seed: int, mistake: Mistake | None) -> list[dict[str, Any]]:
    import msgspec

    events = ws.play_match(seed, 6, mistake=mistake)
    out = [msgspec.to_builtins(e) for e in events]
    for o in out:
        o.pop("seq", None), o.pop("prev", None)
    return out


SIMS = {"gg": (_gg, gg.MISTAKES), "mtg": (_mtg, mtg.MISTAKES), "wt": (_wt, wt.MISTAKES), "ws": (_ws, ws.MISTAKES)}


def simulated() -> None:
    for prefix, (make, mistakes) in SIMS.items():
        write(f"sim-{prefix}-clean", make(7, None), "a legal simulated match", [])
        for kind, _code in mistakes.items():
            for seed in range(1000):
                mistake = Mistake(kind, 1 if seed % 2 else 0)
                bodies = make(seed, mistake)
                if mistake.seq is not None:
                    write(
                        f"sim-{prefix}-{kind}",
                        bodies,
                        f"the simulator's mistake {kind!r} (seed {seed}): {mistake.code}",
                        [(mistake.code, mistake.seq)],
                    )  # type: ignore[list-item]
                    break


def main() -> None:
    for old in HERE.glob("*.jsonl"):
        old.unlink()
    bullet_tossed_at_load()
    gunner_effect_tossed_five_times()
    two_thumb_keeps((1, 2), "mtg-two-thumb-keeps")
    two_thumb_keeps((2, 1), "mtg-two-thumb-keeps-other-order")
    late_call()
    unknown_watcher()
    additional_cost_printed()
    hit_from_gun_effect_n()
    turn_after_deck_out()
    wt_play_after_defeat()
    simulated()
    (HERE / "cases.json").write_text(
        json.dumps(dict(sorted(CASES.items())), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    assert encode  # the codec writes every line (logfile.Writer): canonical bytes, fixed times
    main()
