"""Game statistics of `kifu stats` (issue 7): builds, first player, N = 0 on shots, recomputed in Python.

The corpus is the generated matches of tests/test_views.py; generated ガンナガン,
MTG and Weiss matches that stop undecided get a ``match.end`` with a seeded winner,
so every game has decided matches.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from scipy import stats as sps
from test_views import build_corpus

from kifu import warehouse as wh
from kifu.events import logfile
from kifu.warehouse import stats


def _tag(e: Any) -> str:
    return type(e).__struct_config__.tag


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, dict[str, list[Any]]]:
    tmp = tmp_path_factory.mktemp("gamestats")
    root = build_corpus(tmp / "logs")
    rng = random.Random(7)
    logs = {}
    for path in sorted(root.rglob("*.jsonl")):
        log = logfile.load(path)
        if not any(_tag(e) == "match.end" for e in log.events):
            with logfile.Writer(path, durable=False) as w:
                w.append({"type": "match.end", "winner": rng.choice(log.start.players).id, "reason": "time"})
            log = logfile.load(path)
        logs[log.start.match] = log.events
    db = tmp / "w.duckdb"
    con = wh.connect(db)
    assert not wh.ingest(con, [root], jobs=1).refused
    con.close()
    return db, logs


def _winner(es: list[Any]) -> str | None:
    return next(e.winner for e in es if _tag(e) == "match.end")


def _cli_json(kifu, *args: Any) -> list[dict[str, Any]]:
    r = kifu("stats", *args, "-f", "json")
    assert r.code == 0, r.err
    return json.loads(r.out)


def _rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = stats.wilson(k, n)
    return {"rate": round(k / n, 4) if n else None, "ci_low": round(lo, 4), "ci_high": round(hi, 4)}


@pytest.mark.parametrize(
    "by, tag, key",
    [
        ("gunner", "gg.setup", lambda e: e.gunner),
        ("guns", "gg.setup", lambda e: "+".join(sorted(e.guns))),
        ("triggers", "wt.build", lambda e: ",".join(sorted(e.main)) + " / " + ",".join(sorted(e.sub))),
    ],
)
def test_builds_win_rate_leaves_mirrors_apart(kifu, corpus, by: str, tag: str, key) -> None:
    db, logs = corpus
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # played, mirrors, decided, wins
    for es in logs.values():
        keys = {e.player: key(e) for e in es if _tag(e) == tag}
        winner = _winner(es)
        for player, k in keys.items():
            mirror = list(keys.values()).count(k) > 1
            t = tally[k]
            t[0] += 1
            if winner is not None and mirror and player == min(p for p, q in keys.items() if q == k):
                t[1] += 1
            if winner is not None and not mirror:
                t[2] += 1
                t[3] += winner == player
    assert tally
    want = [
        {
            "game": "worldtrigger" if by == "triggers" else "gunandgun",
            by: k,
            "played": t[0],
            "mirrors": t[1],
            "decided": t[2],
            "wins": t[3],
            **_rate(t[3], t[2]),
        }
        for k, t in sorted(tally.items())
    ]
    assert _cli_json(kifu, "builds", "--by", by, "--db", db) == want


def test_first_player_advantage_per_game(kifu, corpus) -> None:
    db, logs = corpus
    firsts = {"gg.first": "player", "wt.order": "first", "ws.turn": "player", "mtg.turn": "player"}
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for es in logs.values():
        first = next((getattr(e, firsts[_tag(e)]) for e in es if _tag(e) in firsts), None)
        if first is None:
            continue
        t = tally[es[0].game]
        t[0] += 1
        t[1] += _winner(es) is not None
        t[2] += _winner(es) == first
    want = [
        {
            "game": g,
            "matches": t[0],
            "decided": t[1],
            "first_wins": t[2],
            **_rate(t[2], t[1]),
            "p": float(f"{sps.binomtest(t[2], t[1], 0.5).pvalue:.3g}"),
        }
        for g, t in sorted(tally.items())
    ]
    assert len(want) == 4
    assert _cli_json(kifu, "first", "--db", db) == want
    assert _cli_json(kifu, "first", "--db", db, "-g", "weiss") == [w for w in want if w["game"] == "weiss"]


def test_zero_n_counts_shots_whose_bullet_or_response_got_n_zero(kifu, corpus) -> None:
    db, logs = corpus
    out = {k: [0, 0, 0, 0.0] for k in ("bullet", "response", "any")}  # shots, tossed, zero, expected sum
    for es in logs.values():
        shots = [e.shot for e in es if _tag(e) == "gg.shoot"]
        tied: dict[str, tuple[str, str]] = {}
        for e in es:
            if _tag(e) == "gg.bullet":
                tied[e.act] = ("bullet", e.shot)
            elif _tag(e) == "gg.respond" and e.against:
                tied[e.act] = ("response", e.against)
        n: dict[str, int] = {}
        finished: set[str] = set()
        for e in es:
            if _tag(e) == "gg.toss" and e.act in tied and e.act not in finished:
                n[e.act] = n.get(e.act, 0) + (e.facing == "self")
                if e.facing == "opponent":
                    finished.add(e.act)
        for shot in shots:
            for kind in out:
                ns = [n[a] for a, (k, s) in tied.items() if s == shot and a in finished and kind in (k, "any")]
                out[kind][0] += 1
                out[kind][1] += bool(ns)
                out[kind][2] += 0 in ns
                out[kind][3] += (1 - 0.5 ** len(ns)) if ns else 0
    assert out["any"][2] > 0
    want = [
        {
            "effect": k,
            "shots": s,
            "tossed": t,
            "zero": z,
            **_rate(z, t),
            "expected": round(e / t, 4),
            "of_all_shots": round(z / s, 4),
        }
        for k, (s, t, z, e) in out.items()
    ]
    assert _cli_json(kifu, "zero-n", "--db", db) == want


def test_game_stats_in_every_format(kifu, corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # a wide terminal: each cell on one line
    db, _ = corpus
    csv = kifu("stats", "first", "--db", db, "-f", "csv").out.splitlines()
    assert csv[0] == "game,matches,decided,first_wins,rate,ci_low,ci_high,p" and len(csv) == 5
    md = kifu("stats", "zero-n", "--db", db, "-f", "md").out.splitlines()
    assert md[0] == "**ガンナガン: how often N = 0 decided a shot (Wilson interval 95%)**" and md[1] == ""
    assert md[2].startswith("| effect | shots |") and len(md) == 7
    table = kifu("stats", "builds", "--by", "triggers", "--db", db).out
    assert "worldtrigger" in table and "ci_low" in table and "Win rate per triggers" in table
