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
from kifu.events import logfile
from kifu.games.generic import views as generic
from kifu.warehouse import stats

FAIR, BIASED = 50, "p50"


def write_match(path: Path, match: str, players: list[str], events: list[dict]) -> None:
    logfile.create(
        path, {"game": "generic", "match": match, "players": [{"id": p, "name": p.upper()} for p in players]}
    )
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
    summary = wh.ingest(con, [coin_corpus], jobs=1)
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
    # People: each player's name is the id in capitals (write_match), the same in both matches.
    assert [row["person"] for row in coins if row["verdict"] == "flag"] == [BIASED.upper()]
    biased = next(row for row in coins if row["person"] == BIASED.upper())
    assert biased["n"] >= 240 and biased["share"] > 0.65 and biased["effect_size"] > 0.3
    assert biased["effect_low"] <= biased["effect_size"] <= biased["effect_high"]
    assert all(row["p_adj"] >= row["p"] for row in coins)
    assert {row["correction"] for row in coins} == {f"{correction} over {FAIR + 1}"}
    assert set(rows[0]) == set(stats.FAIRNESS_COLUMNS)
    seats = json.loads(kifu("stats", "fairness", "--db", coin_db, "--by", "seat", "-f", "json").out)
    assert [row["player"] for row in seats if row["verdict"] == "flag"] == [BIASED]


def test_flagged_only_and_markdown(kifu, coin_db: Path) -> None:
    r = kifu("stats", "fairness", "--db", coin_db, "--flagged", "-f", "md")
    lines = r.out.strip().splitlines()
    assert lines[0].startswith("**Coins per person: P(face 1) = 1/2") and "Holm across 51" in lines[0]
    assert lines[2].startswith("| person | n | face1 | share |") and len(lines) == 5
    assert f"| {BIASED.upper()} |" in lines[4] and lines[4].endswith("| flag |")


def test_winrate_has_wilson_intervals(kifu, coin_db: Path) -> None:
    r = kifu("stats", "winrate", "--db", coin_db, "-f", "json")
    rows = {row["person"]: row for row in json.loads(r.out)}
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
        events += [
            {"type": "random", "by": p, "kind": "die", "sides": 6, "values": rng.choices(range(1, 7), weights, k=2)}
            for _ in range(120)
        ]
        write_match(tmp_path / f"{p}.jsonl", p, [p], events)
    con = wh.connect(tmp_path / "w.duckdb")
    wh.ingest(con, [tmp_path], jobs=1, views=(generic, RUNS_FEED))
    rows = stats.fairness(con, alpha=0.01)
    con.close()
    runs = [r for r in rows if r.test == "runs"]
    dice = [r for r in rows if r.test == "d6"]
    assert len(runs) == 20 and len(dice) == 20
    assert [r.who for r in runs if r.flag] == ["R13"]
    assert [r.who for r in dice if r.flag] == ["R05"]
    assert next(r for r in runs if r.who == "R13").mean_n > 1.3
    assert all(r.df == 5 and r.chi2 is not None and r.effect_low <= r.effect_size <= r.effect_high for r in dice)


def test_runs_test_is_exact_negative_binomial() -> None:
    # One run is below what any outcome could make significant: no p-value at all.
    one = stats.runs_test("x", 1, 0)
    assert one.p is None and one.verdict == "too few" and one.min_n == 8
    # 10 runs totalling 30: P(S >= 30) under NegBin(10, 1/2), doubled.
    want = 2 * sps.nbinom(10, 0.5).sf(29)
    assert math.isclose(stats.runs_test("x", 10, 30).p, want)


def test_coin_and_die_tests_match_scipy() -> None:
    assert math.isclose(stats.coin_test("x", 60, 100).p, sps.binomtest(60, 100).pvalue)
    r = stats.die_test("x", 6, [1, 2, 6], [20, 10, 10])
    chi = sps.chisquare([20, 10, 0, 0, 0, 10])
    assert r.n == 40 and math.isclose(r.p, chi.pvalue) and math.isclose(r.chi2, chi.statistic) and r.df == 5
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
    wh.ingest(con, [tmp_path], jobs=1)
    columns, rows = stats.rule_rates(con)
    con.close()
    row = dict(zip(columns, rows[0]))
    assert (row["code"], row["matches_hit"], row["matches"], row["findings"], row["rate"]) == (
        "KIFU-LOG-002",
        3,
        4,
        4,
        0.75,
    )


# --- statistics that cannot mislead (issue 16) ---------------------------------------------------


def die(by: str, sides: int, values: list[int], expr: str | None = None) -> dict:
    return {
        "type": "random",
        "by": by,
        "kind": "die",
        "sides": sides,
        "values": values,
        **({"expr": expr} if expr else {}),
    }


@pytest.fixture(scope="module")
def dice_db(tmp_path_factory) -> Path:
    """One d20 roll, a D66 as recorded before the importers split it, a sorted D66S, exploding and
    keep-highest dice, a face outside its die, and a d6 that is fair and well sampled."""
    rng = random.Random(66)
    d = tmp_path_factory.mktemp("dice")
    events = [
        die("a", 20, [4]),
        die("a", 66, [35], "1D66"),
        die("a", 66, [14, 62], "D66"),
        die("a", 66, [25], "D66S"),
        die("a", 6, [5, 10, 3], "3U6[6]"),
        die("a", 20, [3, 17], "2D20KH1"),
        die("a", 6, [7]),
        die("b", 66, [70], "1D66"),
    ]
    events += [die("b", 6, [rng.randint(1, 6) for _ in range(2)], "2D6") for _ in range(40)]
    write_match(d / "m.jsonl", "m", ["a", "b"], events)
    db = d / "w.duckdb"
    con = wh.connect(db)
    wh.ingest(con, [d], jobs=1)
    con.close()
    return db


def test_d66_is_two_d6_faces_and_derived_values_are_kept_but_not_tested(dice_db: Path) -> None:
    con = wh.connect(dice_db, read_only=True)
    rows = con.execute(
        "SELECT seq, idx, sides, value, uniform FROM randomness WHERE player = 'a' ORDER BY seq, idx"
    ).fetchall()
    bad = con.execute("SELECT sides, value, uniform FROM randomness WHERE player = 'b' AND sides <> 6").fetchall()
    con.close()
    assert rows == [
        (2, 1, 20, 4, True),
        (3, 1, 6, 3, True),
        (3, 2, 6, 5, True),  # 1D66 ＞ 35
        (4, 1, 6, 1, True),
        (4, 2, 6, 4, True),
        (4, 3, 6, 6, True),
        (4, 4, 6, 2, True),  # D66 twice
        (5, 1, 66, 25, False),  # sorted: not two fair dice
        (6, 1, 6, 5, False),
        (6, 2, 6, 10, False),
        (6, 3, 6, 3, False),  # exploding sums
        (7, 1, 20, 3, False),
        (7, 2, 20, 17, False),  # keep-highest
        (8, 1, 6, 7, False),
    ]  # not a face of a d6
    assert bad == [(66, 70, False)]  # "70" is no pair of d6 faces


def test_too_few_rows_get_no_p_value_and_nothing_leaks(kifu, dice_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # a wide terminal: each title and cell on one line
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = kifu("stats", "fairness", "--db", dice_db, "-f", "json")
    assert r.code == 0 and r.err == "" and "nan" not in r.out.lower()
    rows = {(row["test"], row["person"]): row for row in json.loads(r.out)}
    assert set(rows) == {("d20", "A"), ("d6", "A"), ("d6", "B")}  # never a d66
    d20 = rows[("d20", "A")]
    assert (d20["n"], d20["p"], d20["p_adj"], d20["verdict"], d20["min_n"]) == (1, None, None, "too few", 100)
    assert (rows[("d6", "A")]["n"], rows[("d6", "A")]["verdict"]) == (6, "too few")
    fair = rows[("d6", "B")]
    assert fair["n"] == 80 and fair["p"] is not None and fair["df"] == 5 and fair["chi2"] >= 0
    assert fair["correction"] == "holm over 1" and fair["verdict"] == ""
    assert "chi-square goodness of fit on 5 df" in fair["hypothesis"]
    table = kifu("stats", "fairness", "--db", dice_db)
    assert table.err == "" and "too few" in table.out and "nan" not in table.out
    assert "d20 per person: each face 1/20" in table.out and "least n 100" in table.out
    ja = kifu("stats", "fairness", "--db", dice_db, "-f", "md", "--lang", "ja")
    assert "**20面ダイス (人ごと)" in ja.out and "| 少なすぎ |" in ja.out


def test_an_empty_warehouse_prints_no_table_and_says_so(kifu, tmp_path: Path) -> None:
    write_match(tmp_path / "m.jsonl", "m", ["a"], [{"type": "note", "by": "a", "text": "hi"}])
    assert kifu("ingest", tmp_path, "--db", tmp_path / "w.duckdb").code == 0
    r = kifu("stats", "fairness", "--db", tmp_path / "w.duckdb")
    assert r.code == 0 and r.out == "" and r.err.strip() == "no recorded randomness to test"
    assert kifu("stats", "fairness", "--db", tmp_path / "w.duckdb", "-f", "json").out.strip() == "[]"


from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@given(k=st.integers(0, 400), extra=st.integers(0, 400), level=st.sampled_from([0.9, 0.95, 0.99]))
def test_coin_and_runs_effects_lie_in_their_intervals(k: int, extra: int, level: float) -> None:
    n = k + extra
    if n:
        c = stats.coin_test("x", k, n, level=level)
        assert c.effect_low - 1e-9 <= c.effect_size <= c.effect_high + 1e-9
    if extra:
        r = stats.runs_test("x", extra, k, level=level)
        assert r.effect_low - 1e-9 <= r.effect_size <= r.effect_high + 1e-9


@given(counts=st.lists(st.integers(0, 60), min_size=2, max_size=8).filter(lambda c: sum(c) > 0))
def test_die_effect_lies_in_its_interval(counts: list[int]) -> None:
    r = stats.die_test("x", len(counts), list(range(1, len(counts) + 1)), counts)
    assert 0 <= r.effect_low <= r.effect_size <= r.effect_high
    assert r.chi2 is not None and r.df == len(counts) - 1


def test_runs_interval_inverts_the_negative_binomial() -> None:
    r = stats.runs_test("x", 20, 31, level=0.95)
    # The interval's ends are the stop probabilities under which the observed total is just at a 2.5% tail.
    share_of = lambda h: math.sin((h + 2 * math.asin(math.sqrt(0.5))) / 2) ** 2  # noqa: E731
    stop_low, stop_high = 1 - share_of(r.effect_high), 1 - share_of(r.effect_low)
    assert math.isclose(sps.nbinom(20, stop_low).cdf(31), 0.025, rel_tol=1e-6)
    assert math.isclose(sps.nbinom(20, stop_high).sf(30), 0.025, rel_tol=1e-6)


def test_minimum_n_is_where_an_exact_test_can_first_reject() -> None:
    for alpha in (0.05, 0.01, 0.001):
        n = stats.extreme_min_n(alpha)
        assert sps.binomtest(n, n).pvalue < alpha <= sps.binomtest(n - 1, n - 1).pvalue


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (10, 10), (60, 100), (191, 260)])
def test_clopper_pearson_is_scipys_exact_interval(k: int, n: int) -> None:
    want = sps.binomtest(k, n).proportion_ci(0.95, method="exact")
    assert stats.clopper_pearson(k, n, 0.95) == pytest.approx((want.low, want.high), abs=1e-9)
