"""`kifu stats`: fairness of recorded randomness (binomial, chi-square, runs) and win rates."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from types import ModuleType

import pytest
from scipy import stats as sps

from kifu import warehouse as wh
from kifu.auditor import registry
from kifu.events import logfile
from kifu.games.generic import views as generic
from kifu.warehouse import stats

FAIR, BIASED = 50, "p50"


def write_match(path: Path, match: str, players: list[str], events: list[dict]) -> None:
    logfile.create(path, {"game": "generic", "match": match, "players": [{"id": p, "name": p.upper()} for p in players]})
    with logfile.Writer(path, durable=False) as w:
        for e in events:
            w.append(e)


def coin(by: str, value: int) -> dict:
    return {"type": "random", "by": by, "kind": "coin", "sides": 2, "values": [value]}


@pytest.fixture(scope="module")
def coin_corpus(tmp_path_factory) -> Path:
    """Fifty-one players in pairs of matches; p50's coin shows face 1 three times in four."""
    rng = random.Random(20261129)
    d = tmp_path_factory.mktemp("coins")
    players = [f"p{i:02d}" for i in range(FAIR + 1)]
    for i, p in enumerate(players):
        q = players[(i + 1) % len(players)]
        share = 0.75 if p == BIASED else 0.5
        flips = [coin(p, 1 if rng.random() < share else 2) for _ in range(240)]
        flips += [coin(q, rng.randint(1, 2)) for _ in range(20)]
        winner = p if rng.random() < (0.9 if p == "p00" else 0.5) else q
        write_match(d / f"{p}.jsonl", f"m-{p}", [p, q], flips + [{"type": "match.end", "winner": winner}])
    return d


@pytest.fixture(scope="module")
def coin_db(coin_corpus: Path, tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("db") / "w.duckdb"
    con = wh.connect(db)
    summary = wh.ingest(con, [coin_corpus], registry.audit, jobs=1)
    con.close()
    assert summary.matches == FAIR + 1 and not summary.refused
    return db


@pytest.mark.parametrize("correction", ["holm", "bh"])
def test_one_biased_coin_among_fifty_fair_is_flagged(kifu, coin_db: Path, correction: str) -> None:
    r = kifu("stats", "fairness", "--db", coin_db, "--correction", correction, "-f", "json")
    assert r.code == 0, r.err
    rows = json.loads(r.out)
    coins = [row for row in rows if row["test"] == "coin"]
    assert len(coins) == FAIR + 1
    assert [row["player"] for row in coins if row["flag"]] == [BIASED]
    biased = next(row for row in coins if row["player"] == BIASED)
    assert biased["n"] >= 240 and biased["observed"] > 0.65 and biased["effect_size"] > 0.3
    assert all(row["p_adj"] >= row["p"] for row in coins)


def test_flagged_only_and_markdown(kifu, coin_db: Path) -> None:
    r = kifu("stats", "fairness", "--db", coin_db, "--flagged", "-f", "md")
    lines = r.out.strip().splitlines()
    assert lines[0].startswith("| test | player | n |") and len(lines) == 3 and f"| {BIASED} |" in lines[2]


def test_winrate_has_wilson_intervals(kifu, coin_db: Path) -> None:
    r = kifu("stats", "winrate", "--db", coin_db, "-f", "json")
    rows = {row["player"]: row for row in json.loads(r.out)}
    assert len(rows) == FAIR + 1 and all(row["played"] == 2 and row["decided"] == 2 for row in rows.values())
    for row in rows.values():
        assert row["ci_low"] <= row["rate"] <= row["ci_high"]
    assert sum(row["wins"] for row in rows.values()) == FAIR + 1


# A synthetic run-length feed: notes whose text is the N of one run (until a game feeds real runs).
RUNS_FEED = ModuleType("synthetic_runs")
RUNS_FEED.RUNS = """
    SELECT m.game, e.match, e.seq, e.actor AS player, CAST(json_extract_string(e.line, '$.text') AS INTEGER) AS n
    FROM {events} e JOIN matches m USING (match) WHERE e.type = 'note' AND e.actor IS NOT NULL"""


def geometric(rng: random.Random, p_self: float) -> int:
    n = 0
    while rng.random() < p_self:
        n += 1
    return n


def test_runs_and_dice_against_their_distributions(tmp_path: Path) -> None:
    rng = random.Random(7)
    players = [f"r{i:02d}" for i in range(20)]
    for p in players:
        p_self = 0.62 if p == "r13" else 0.5
        events = [{"type": "note", "by": p, "text": str(geometric(rng, p_self))} for _ in range(300)]
        weights = [3, 1, 1, 1, 1, 1] if p == "r05" else [1] * 6
        events += [{"type": "random", "by": p, "kind": "die", "sides": 6,
                    "values": rng.choices(range(1, 7), weights, k=2)} for _ in range(120)]
        write_match(tmp_path / f"{p}.jsonl", p, [p], events)
    con = wh.connect(tmp_path / "w.duckdb")
    wh.ingest(con, [tmp_path], registry.audit, jobs=1, views=(generic, RUNS_FEED))
    rows = stats.fairness(con, alpha=0.01)
    con.close()
    runs = [r for r in rows if r.test == "runs"]
    dice = [r for r in rows if r.test == "d6"]
    assert len(runs) == 20 and len(dice) == 20
    assert [r.player for r in runs if r.flag] == ["r13"]
    assert [r.player for r in dice if r.flag] == ["r05"]
    assert next(r for r in runs if r.player == "r13").observed > 1.3


def test_runs_test_is_exact_negative_binomial() -> None:
    # One run of length 0 is the likeliest outcome of all: nothing to see.
    assert stats.runs_test("x", 1, 0).p == 1.0
    # 10 runs totalling 30: P(S >= 30) under NegBin(10, 1/2), doubled.
    want = 2 * sps.nbinom(10, 0.5).sf(29)
    assert math.isclose(stats.runs_test("x", 10, 30).p, want)


def test_coin_and_die_tests_match_scipy() -> None:
    assert math.isclose(stats.coin_test("x", 60, 100).p, sps.binomtest(60, 100).pvalue)
    r = stats.die_test("x", 6, [1, 2, 6], [10, 5, 5])
    assert r.n == 20 and math.isclose(r.p, sps.chisquare([10, 5, 0, 0, 0, 5]).pvalue)
    assert math.isclose(stats.cohen_h(0.5, 0.5), 0.0)


def test_corrections() -> None:
    ps = [0.01, 0.04, 0.03, 0.5]
    assert stats.holm(ps) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert stats.bh(ps) == pytest.approx([0.04, 0.05333333, 0.05333333, 0.5])


def test_wilson_interval() -> None:
    lo, hi = stats.wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = stats.wilson(50, 100)
    assert (lo, hi) == pytest.approx((0.4038, 0.5962), abs=1e-4)


def test_seats_and_rule_rates(kifu, coin_db: Path) -> None:
    seats = json.loads(kifu("stats", "seats", "--db", coin_db, "-f", "json").out)
    assert [(r["seat"], r["decided"]) for r in seats] == [(1, FAIR + 1), (2, FAIR + 1)]
    assert seats[0]["wins"] + seats[1]["wins"] == FAIR + 1
    assert all(r["ci_low"] <= r["rate"] <= r["ci_high"] for r in seats)
    # The coin corpus is clean: no rule fired; an empty table, not an error.
    r = kifu("stats", "rules", "--db", coin_db, "-f", "csv")
    assert r.code == 0 and r.out == "game,code,severity,matches_hit,matches,findings,rate,ci_low,ci_high\n"


def test_rule_rates_count_matches_not_findings(tmp_path: Path) -> None:
    for i in range(4):
        events = [coin("z" if i < 3 else "a", 1), coin("z" if i == 0 else "a", 2)]
        write_match(tmp_path / f"m{i}.jsonl", f"m{i}", ["a"], events)
    con = wh.connect(tmp_path / "w.duckdb")
    wh.ingest(con, [tmp_path], registry.audit, jobs=1)
    columns, rows = stats.rule_rates(con)
    con.close()
    row = dict(zip(columns, rows[0]))
    assert (row["code"], row["matches_hit"], row["matches"], row["findings"], row["rate"]) == ("KIFU-LOG-002", 3, 4, 4, 0.75)
