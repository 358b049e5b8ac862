"""Import rate of `kifu import`: a 100,000-message CCFOLIA export and a 50 MB Arena Player.log; long messages.

Usage (from the repository root):

    PYTHONPATH=. python bench/bench_import.py            # full size, 3 runs each
    PYTHONPATH=. python bench/bench_import.py --quick    # 5,000 messages and 2 MB, for a smoke run
    PYTHONPATH=. python bench/bench_import.py --runs 5

Inputs are generated under bench/out/ (git-ignored) from a fixed seed, so every
machine times the same bytes. Each run imports into a fresh log (written with
one fsync at the end, as `kifu import` does) and the median of the runs is
reported in source lines per second and messages per second. Target (issue 19):
the CCFOLIA export at ≥ 100,000 lines/s.

The second table imports CCFOLIA exports holding one message of 10 KB, 100 KB and
1 MB (a BCDice result line, a run of spaces, a long word, a run of ＞ marks): the
whole import, BCDice reader included, must take time linear in the message. Target:
the 1 MB message costs at most 3× per KB what the 10 KB one does (a quadratic
reader costs 100× more).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kifu.events import importers  # noqa: E402

OUT = ROOT / "bench" / "out"
NAMES = ["ミナト", "ユキ", "ハル", "ソラ"]


def ccfolia_export(path: Path, messages: int, seed: int = 8) -> None:
    """A classic CCFOLIA export: chat, CHOICE tosses, 2D6 rolls and chat-notation commands."""
    rng = random.Random(seed)
    head = (
        '<!DOCTYPE html>\n<html lang="ja">\n  <head>\n    <meta charset="UTF-8" />\n'
        '    <meta name="viewport" content="width=device-width, initial-scale=1.0" />\n'
        '    <meta http-equiv="X-UA-Compatible" content="ie=edge" />\n    <title>ccfolia - logs</title>\n'
        "  </head>\n  <body>\n    \n\n"
    )
    with path.open("w", encoding="utf-8") as fh:
        fh.write(head)
        for i in range(messages):
            fh.write(_p(rng.choice(NAMES), _body(rng, i)))
        fh.write("\n  </body>\n</html>\n")


def _body(rng: random.Random, i: int) -> str:
    kind = i % 5
    if kind == 0:
        pick = rng.choice(["自分", "相手"])
        return f"CHOICE[自分,相手] (choice[自分,相手]) ＞ {pick}"
    if kind == 1:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        return f"2d6 (2D6) ＞ {a + b}[{a},{b}] ＞ {a + b}"
    if kind == 2:
        return f"!act a{i % 9} 計略"
    return f"メッセージ {i}: 了解です &amp; よろしく"


def _p(name: str, body: str) -> str:
    return (
        f'\n<p style="color:#e91e63;">\n  <span> [main]</span>\n  <span>{name}</span> :\n  <span>\n'
        f"    {body}\n  </span>\n</p>\n"
    )


def arena_log(path: Path, size: int, seed: int = 8) -> None:
    """A Player.log of about ``size`` bytes: Unity noise, game-state diffs, a die roll, coin flips."""
    rng = random.Random(seed)
    players = [
        {"userId": "U1", "playerName": "Aiko", "systemSeatId": 1, "teamId": 1},
        {"userId": "U2", "playerName": "Ren", "systemSeatId": 2, "teamId": 2},
    ]
    room = {
        "matchGameRoomStateChangedEvent": {
            "gameRoomInfo": {
                "gameRoomConfig": {"matchId": "bench-match", "reservedPlayers": players},
                "stateType": "MatchGameRoomStateType_Playing",
            }
        }
    }
    die = {
        "greToClientEvent": {
            "greToClientMessages": [
                {
                    "type": "GREMessageType_DieRollResultsResp",
                    "msgId": 1,
                    "dieRollResultsResp": {
                        "playerDieRolls": [{"systemSeatId": 1, "rollValue": 7}, {"systemSeatId": 2, "rollValue": 15}]
                    },
                }
            ]
        }
    }
    written = 0
    with path.open("w", encoding="utf-8") as fh:
        for line in (
            "[UnityCrossThreadLogger]Match to U1: MatchGameRoomStateChangedEvent",
            json.dumps(room),
            "[UnityCrossThreadLogger]Match to U1: GreToClientEvent",
            json.dumps(die),
        ):
            fh.write(line + "\n")
        state = 1
        while written < size:
            state += 1
            for _ in range(rng.randint(2, 6)):
                written += fh.write(f"[UnityCrossThreadLogger]Unity noise {rng.random():.12f} loading assets\n")
            written += fh.write("[UnityCrossThreadLogger]Match to U1: GreToClientEvent\n")
            written += fh.write(json.dumps(_state(rng, state)) + "\n")


def _state(rng: random.Random, state: int) -> dict:
    objects = [
        {
            "instanceId": 100 + k,
            "grpId": rng.randint(60000, 90000),
            "zoneId": rng.randint(20, 40),
            "owner": 1 + k % 2,
            "controller": 1 + k % 2,
            "cardTypes": ["CardType_Creature"],
            "power": {"value": rng.randint(0, 9)},
            "toughness": {"value": rng.randint(1, 9)},
        }
        for k in range(12)
    ]
    annotations = [
        {
            "id": state * 10,
            "affectorId": 1,
            "affectedIds": [101],
            "type": ["AnnotationType_ZoneTransfer"],
            "details": [{"key": "zone_src", "type": "KeyValuePairValueType_int32", "valueInt32": [31]}],
        }
    ]
    if state % 50 == 0:
        annotations.append(
            {
                "id": state * 10 + 1,
                "affectorId": 1 + state % 2,
                "affectedIds": [300],
                "type": ["AnnotationType_CoinFlip"],
                "details": [{"key": "flip", "type": "KeyValuePairValueType_int32", "valueInt32": [rng.randint(0, 1)]}],
            }
        )
    return {
        "greToClientEvent": {
            "greToClientMessages": [
                {
                    "type": "GREMessageType_GameStateMessage",
                    "msgId": state,
                    "gameStateId": state,
                    "gameStateMessage": {
                        "type": "GameStateType_Diff",
                        "gameStateId": state,
                        "prevGameStateId": state - 1,
                        "gameInfo": {"matchID": "bench-match", "gameNumber": 1, "stage": "GameStage_Play"},
                        "gameObjects": objects,
                        "annotations": annotations,
                    },
                }
            ]
        }
    }


def time_import(src: Path, runs: int) -> tuple[float, importers.ImportReport]:
    times, report = [], None
    for i in range(runs):
        out = OUT / f"{src.stem}.{i}.jsonl"
        out.unlink(missing_ok=True)
        t0 = time.perf_counter()
        report = importers.import_file(src, out)
        times.append(time.perf_counter() - t0)
        out.unlink()
    assert report is not None
    return statistics.median(times), report


LONG_TEXTS = {
    "BCDice result": lambda n: "2D6 (2D6) ＞ 7[3,4] ＞ 7 " + ("x" * 9 + " ") * (n // 10),
    "space run": lambda n: "a" + " " * n + "b",
    "long word": lambda n: "a" * n,
    "＞ marks": lambda n: "＞ 1 " * (n // 8),
}
"""Texts of one long message, as functions of its length in characters."""


def long_message(path: Path, text: str) -> None:
    with path.open("w", encoding="utf-8") as fh:
        fh.write("<!DOCTYPE html><html><head><title>ccfolia - logs</title></head><body>\n")
        fh.write(_p("ミナト", "2d6 (2D6) ＞ 7[3,4] ＞ 7"))
        fh.write(_p("ユキ", text))
        fh.write("</body></html>\n")


def bench_long(runs: int) -> bool:
    sizes = (10_000, 100_000, 1_000_000)
    print(f"{'one long message':<18}" + "".join(f"{n // 1000:>9,} KB" for n in sizes) + "   1 MB / 10 KB per KB")
    ok = True
    for name, make in LONG_TEXTS.items():
        per_kb = []
        for n in sizes:
            src = OUT / f"long-{name.split()[0]}-{n}.html"
            if not src.exists():
                long_message(src, make(n))
            secs, _ = time_import(src, runs)
            per_kb.append(secs / (src.stat().st_size / 1000))
        growth = per_kb[-1] / per_kb[0]
        ok &= growth <= 3
        print(
            f"{name:<18}"
            + "".join(f"{us * 1e6:>9,.0f} µs" for us in per_kb)
            + f"   {growth:>5.2f}×  ≤ 3×  {'PASS' if growth <= 3 else 'MISS'}"
        )
    return ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small inputs (5,000 messages, 2 MB)")
    ap.add_argument("--runs", type=int, default=3, help="runs per input; the median is reported")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    n, size = (5_000, 2 * 1024 * 1024) if args.quick else (100_000, 50 * 1024 * 1024)
    html, log = OUT / f"ccfolia_{n}.html", OUT / f"Player_{size >> 20}MB.log"
    if not html.exists():
        ccfolia_export(html, n)
    if not log.exists():
        arena_log(log, size)
    missed = 0
    for src in (html, log):
        lines = sum(1 for _ in src.open("rb"))
        secs, rep = time_import(src, args.runs)
        verdict = ""
        if src is html:
            ok = lines / secs >= 100_000
            missed += not ok
            verdict = f"  ≥ 100,000 lines/s  {'PASS' if ok else 'MISS'}"
        print(
            f"{src.name}: {src.stat().st_size / 1e6:.1f} MB, {lines} lines, {rep.messages} messages → "
            f"{rep.events} events; median of {args.runs}: {secs:.2f} s = {lines / secs:,.0f} lines/s, "
            f"{rep.messages / secs:,.0f} messages/s{verdict}"
        )
    print("per KB of the export, median of the runs (the whole import)")
    missed += not bench_long(args.runs)
    print(f"{missed} target(s) missed" if missed else "all targets met")
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
