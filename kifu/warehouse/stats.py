"""Statistics over the warehouse (issue 7): fairness of recorded randomness, win rates.

The ``randomness`` and ``runs`` views (kifu/games/<id>/views.py) feed every game's
random outcomes here, so the fairness tests name no game; the game statistics at
the end read the games' own views (builds, first players, N = 0 on shots). The tests are scipy's:
exact binomial for coins, chi-square goodness of fit for dice, and an exact
negative-binomial test for run lengths (n runs of a fair coin leave a total of
S ~ NegBin(n, 1/2) tosses facing the tosser, the sum of n Geometric(1/2)
lengths). p-values are corrected across players per test (Holm or
Benjamini–Hochberg), since a judge looks at the whole field at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from scipy import stats as sps

if TYPE_CHECKING:
    import duckdb

# One scan of the randomness view for coins and dice together; Python splits the counts.
OUTCOMES_SQL = """
SELECT kind, coalesce(player, '?') AS player, coalesce(verifiable, false) AS verifiable, sides, value, count(*) AS c
FROM randomness WHERE kind IN ('coin', 'die') AND sides >= 2 AND ($game IS NULL OR game = $game)
GROUP BY ALL ORDER BY ALL"""

RUNS_SQL = """
SELECT coalesce(player, '?') AS player, count(*) AS n, sum(n) AS total
FROM runs WHERE n >= 0 AND ($game IS NULL OR game = $game)
GROUP BY ALL ORDER BY player"""

WINRATE_SQL = """
SELECT {keys}, count(*) FILTER (WHERE decided) AS decided, count(*) FILTER (WHERE won) AS wins,
       count(*) AS played
FROM players WHERE ($game IS NULL OR game = $game)
GROUP BY ALL ORDER BY ALL"""

FAIRNESS_COLUMNS = ("test", "player", "n", "observed", "expected", "effect", "effect_size", "p", "p_adj", "flag",
                    "verifiable")


@dataclass(frozen=True)
class Fairness:
    """One player's result for one test."""

    test: str
    """``coin`` (face 1 vs 1/2), ``dN`` (an N-sided die vs uniform) or ``runs`` (N vs Geometric(1/2))."""
    player: str
    n: int
    """Outcomes (coins, dice) or runs."""
    observed: float
    """Share of face 1 (coin), chi-square statistic (die), mean N (runs)."""
    expected: float
    """The same under the declared distribution."""
    effect: str
    """Name of the effect size: Cohen's h (coin, runs) or Cohen's w (die)."""
    effect_size: float
    p: float
    p_adj: float = math.nan
    flag: bool = False
    verifiable: bool | None = None
    """Coins and dice are tested apart: True for outcomes that verify (docs/randomness.md), False for those
    taken on trust; None for run lengths (a run pools both)."""

    def as_row(self) -> tuple[Any, ...]:
        return (self.test, self.player, self.n, round(self.observed, 4), round(self.expected, 4), self.effect,
                round(self.effect_size, 4), _sig(self.p), _sig(self.p_adj), "★" if self.flag else "", self.verifiable)


def _sig(p: float) -> float:
    return float(f"{p:.3g}")


def cohen_h(p1: float, p2: float) -> float:
    """Cohen's h between two proportions (0.2 small, 0.5 medium, 0.8 large)."""
    return 2 * math.asin(math.sqrt(p1)) - 2 * math.asin(math.sqrt(p2))


def coin_test(player: str, k: int, n: int, verifiable: bool | None = None) -> Fairness:
    """Face 1 in ``k`` of ``n`` tosses against a fair coin (exact two-sided binomial)."""
    p = sps.binomtest(k, n, 0.5).pvalue
    return Fairness("coin", player, n, k / n, 0.5, "cohen_h", cohen_h(k / n, 0.5), float(p), verifiable=verifiable)


def die_test(player: str, sides: int, faces: Sequence[int], counts: Sequence[int],
             verifiable: bool | None = None) -> Fairness:
    """Face counts of a ``sides``-sided die against uniform (chi-square, sides − 1 df)."""
    observed = [0] * sides
    for face, c in zip(faces, counts):
        if 1 <= face <= sides:
            observed[face - 1] += c
    n = sum(observed)
    chi2, p = sps.chisquare(observed)
    return Fairness(f"d{sides}", player, n, float(chi2), sides - 1.0, "cohen_w", math.sqrt(chi2 / n), float(p),
                    verifiable=verifiable)


def runs_test(player: str, runs: int, total: int) -> Fairness:
    """Run lengths against Geometric(1/2): ``total`` of ``runs`` lengths vs NegBin(runs, 1/2), exact.

    Two-sided by doubling the smaller tail. The effect is Cohen's h between the
    share of tosses facing the tosser, total / (total + runs), and 1/2.
    """
    dist = sps.nbinom(runs, 0.5)
    p = min(1.0, 2 * min(dist.cdf(total), dist.sf(total - 1)))
    share = total / (total + runs)
    return Fairness("runs", player, runs, total / runs, 1.0, "cohen_h", cohen_h(share, 0.5), float(p))


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (controls the family-wise error rate)."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out, running = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        out[i] = running
    return out


def bh(ps: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (controls the false discovery rate)."""
    return [float(p) for p in sps.false_discovery_control(list(ps), method="bh")] if ps else []


CORRECTIONS = {"holm": holm, "bh": bh}


def adjust(results: list[Fairness], alpha: float, correction: str = "holm") -> list[Fairness]:
    """Correct p-values across players within each test (verifiable and trusted outcomes apart) and flag
    those below ``alpha``."""
    out: list[Fairness] = []
    for key in dict.fromkeys((r.test, r.verifiable) for r in results):
        group = [r for r in results if (r.test, r.verifiable) == key]
        for r, q in zip(group, CORRECTIONS[correction]([r.p for r in group])):
            out.append(Fairness(**{**r.__dict__, "p_adj": q, "flag": q < alpha}))
    return out


def _outcome_tests(rows: list[tuple[str, str, bool, int, int, int]]) -> list[Fairness]:
    """Coin and die tests from (kind, player, verifiable, sides, value, count) rows, verifiable ones apart."""
    coins: dict[tuple[str, bool], list[int]] = {}
    dice: dict[tuple[str, bool, int], tuple[list[int], list[int]]] = {}
    for kind, player, verifiable, sides, value, c in rows:
        if kind == "coin":
            nk = coins.setdefault((player, verifiable), [0, 0])
            nk[0] += c
            nk[1] += c if value == 1 else 0
        else:
            faces, counts = dice.setdefault((player, verifiable, sides), ([], []))
            faces.append(value)
            counts.append(c)
    out = [coin_test(pl, k, n, v) for (pl, v), (n, k) in coins.items()]
    return out + [die_test(pl, sides, f, c, v) for (pl, v, sides), (f, c) in dice.items()]


def fairness(con: "duckdb.DuckDBPyConnection", *, game: str | None = None, alpha: float = 0.01,
             correction: str = "holm") -> list[Fairness]:
    """Every player's coins, dice and run lengths tested, corrected and flagged."""
    params = {"game": game}
    raw = _outcome_tests(con.execute(OUTCOMES_SQL, params).fetchall())
    raw += [runs_test(pl, n, int(t)) for pl, n, t in con.execute(RUNS_SQL, params).fetchall() if n]
    return adjust(raw, alpha, correction)


def wilson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a proportion k/n (sensible at small n and near 0 or 1)."""
    if n == 0:
        return (0.0, 1.0)
    z = float(sps.norm.ppf(0.5 + level / 2))
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _proportion(k: int, n: int, level: float) -> tuple[float | None, float, float]:
    lo, hi = wilson(k, n, level)
    return (round(k / n, 4) if n else None, round(lo, 4), round(hi, 4))


def winrate(con: "duckdb.DuckDBPyConnection", *, game: str | None = None, by_game: bool = False,
            level: float = 0.95) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Wins over decided matches per player (and game), with the Wilson interval."""
    keys = ["game", "player"] if by_game else ["player"]
    rows = con.execute(WINRATE_SQL.format(keys=", ".join(keys)), {"game": game}).fetchall()
    out = [(*key, played, decided, wins, *_proportion(wins, decided, level)) for *key, decided, wins, played in rows]
    return [*keys, "played", "decided", "wins", "rate", "ci_low", "ci_high"], out


SEATS_SQL = """
SELECT game, seat, count(*) FILTER (WHERE decided) AS decided, count(*) FILTER (WHERE won) AS wins
FROM players WHERE ($game IS NULL OR game = $game)
GROUP BY ALL ORDER BY ALL"""


def seats(con: "duckdb.DuckDBPyConnection", *, game: str | None = None,
          level: float = 0.95) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Win rate by seat (1 = first in match.start) per game: is going first an advantage?"""
    rows = con.execute(SEATS_SQL, {"game": game}).fetchall()
    out = [(g, seat, decided, wins, *_proportion(wins, decided, level)) for g, seat, decided, wins in rows]
    return ["game", "seat", "decided", "wins", "rate", "ci_low", "ci_high"], out


RULE_RATES_SQL = """
WITH per_game AS (SELECT game, count(*) AS matches FROM matches GROUP BY game)
SELECT m.game, f.code, any_value(f.severity) AS severity, count(DISTINCT f.match) AS hit, any_value(p.matches) AS matches,
       count(*) AS findings
FROM findings f JOIN matches m USING (match) JOIN per_game p ON p.game = m.game
WHERE ($game IS NULL OR m.game = $game)
GROUP BY ALL ORDER BY hit DESC, m.game, f.code"""


def rule_rates(con: "duckdb.DuckDBPyConnection", *, game: str | None = None,
               level: float = 0.95) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Per rule: the share of a game's matches with at least one finding of it."""
    rows = con.execute(RULE_RATES_SQL, {"game": game}).fetchall()
    out = [(g, code, sev, hit, n, total, *_proportion(hit, n, level)) for g, code, sev, hit, n, total in rows]
    return ["game", "code", "severity", "matches_hit", "matches", "findings", "rate", "ci_low", "ci_high"], out


# --- game statistics (the games' views: kifu/games/<id>/views.py) ------------------------------

# A player's build is the last one recorded in the match (a correction is a later event).
BUILD_KEYS: dict[str, tuple[str, str]] = {
    "gunner": ("gunandgun", """SELECT match, player, gunner AS key FROM gg_setups
                               QUALIFY row_number() OVER (PARTITION BY match, player ORDER BY seq DESC) = 1"""),
    "guns": ("gunandgun", """SELECT match, player, gun_pair AS key FROM gg_setups
                             QUALIFY row_number() OVER (PARTITION BY match, player ORDER BY seq DESC) = 1"""),
    "triggers": ("worldtrigger", """SELECT match, player, trigger_set AS key FROM wt_builds
                                    QUALIFY row_number() OVER (PARTITION BY match, player ORDER BY seq DESC) = 1"""),
}
"""``kifu stats builds --by``: (game, the SELECT of each player's key in each match)."""

# A mirror (both players on the same key) is one win and one loss for that key whatever
# happens: it is counted apart and left out of the rate, which would otherwise drift to 1/2.
BUILDS_SQL = """
WITH k AS ({keys}),
r AS (SELECT k.match, k.key, p.decided, p.won, count(*) OVER (PARTITION BY k.match, k.key) > 1 AS mirror
      FROM k JOIN players p ON p.match = k.match AND p.player = k.player)
SELECT key, count(*) AS played, count(DISTINCT match) FILTER (WHERE decided AND mirror) AS mirrors,
       count(*) FILTER (WHERE decided AND NOT mirror) AS decided, count(*) FILTER (WHERE won AND NOT mirror) AS wins
FROM r GROUP BY key ORDER BY key"""


def builds(con: "duckdb.DuckDBPyConnection", *, by: str = "gunner",
           level: float = 0.95) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Win rate per gunner or gun pair (ガンナガン) or trigger set (World Trigger), mirrors apart."""
    game, keys = BUILD_KEYS[by]
    rows = con.execute(BUILDS_SQL.format(keys=keys)).fetchall()
    out = [(game, key, played, mirrors, decided, wins, *_proportion(wins, decided, level))
           for key, played, mirrors, decided, wins in rows]
    return ["game", by, "played", "mirrors", "decided", "wins", "rate", "ci_low", "ci_high"], out


FIRST_SQL = """
SELECT f.game, count(*) AS matches, count(*) FILTER (WHERE m.winner IS NOT NULL) AS decided,
       count(*) FILTER (WHERE m.winner = f.player) AS first_wins
FROM first_players f JOIN matches m USING (match)
WHERE f.player IS NOT NULL AND ($game IS NULL OR f.game = $game)
GROUP BY ALL ORDER BY ALL"""


def first_player(con: "duckdb.DuckDBPyConnection", *, game: str | None = None,
                 level: float = 0.95) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Per game, how often the first player won a decided match; Wilson interval, exact test against 1/2."""
    rows = con.execute(FIRST_SQL, {"game": game}).fetchall()
    out = [(g, matches, decided, wins, *_proportion(wins, decided, level),
            _sig(float(sps.binomtest(wins, decided, 0.5).pvalue)) if decided else None)
           for g, matches, decided, wins in rows]
    return ["game", "matches", "decided", "first_wins", "rate", "ci_low", "ci_high", "p"], out


# docs/sql.md ("How often N = 0 decided a shot"): per shot, the finished toss sequences of the
# special bullets fired on it and of the responses declared against it; a fair coin gives
# each N = 0 with probability 1/2, so a shot with k of them expects 1 - 2^-k.
ZERO_N_SQL = """
WITH a AS (SELECT match, shot, kind, n FROM gg_activations
           WHERE shot IS NOT NULL AND kind IN ('bullet', 'response') AND finished),
per AS (SELECT s.match, s.shot, k.kind, count(a.n) AS tossed, coalesce(bool_or(a.n = 0), false) AS zero
        FROM gg_shots s CROSS JOIN (VALUES ('bullet'), ('response'), ('any')) k(kind)
        LEFT JOIN a ON a.match = s.match AND a.shot = s.shot AND (k.kind = 'any' OR a.kind = k.kind)
        GROUP BY ALL)
SELECT kind, count(*) AS shots, count(*) FILTER (WHERE tossed > 0) AS tossed,
       count(*) FILTER (WHERE zero) AS zero, avg(1 - 0.5 ** tossed) FILTER (WHERE tossed > 0) AS expected
FROM per GROUP BY kind ORDER BY CASE kind WHEN 'bullet' THEN 1 WHEN 'response' THEN 2 ELSE 3 END"""


def zero_n(con: "duckdb.DuckDBPyConnection", *, level: float = 0.95) -> tuple[list[str], list[tuple[Any, ...]]]:
    """ガンナガン: the share of shots where a bullet's or a response's N came out 0, with its Wilson interval."""
    out = []
    for kind, shots, tossed, zero, expected in con.execute(ZERO_N_SQL).fetchall():
        out.append((kind, shots, tossed, zero, *_proportion(zero, tossed, level),
                    round(expected, 4) if expected is not None else None,
                    round(zero / shots, 4) if shots else None))
    return ["effect", "shots", "tossed", "zero", "rate", "ci_low", "ci_high", "expected", "of_all_shots"], out
