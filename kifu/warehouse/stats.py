"""Statistics over the warehouse (issues 7 and 16): fairness of recorded randomness, win rates.

The ``randomness`` and ``runs`` views feed every game's random outcomes here, so the
fairness tests name no game; the game statistics at the end read the games' own views
(builds and each game's ``stats`` part's statistics, such as ガンナガン's N = 0 on shots, in the
game's folder; first players). Statistics about players group by **person**
(the ``person`` column, docs/sql.md "People"), or by seat id with ``by="seat"``.

Every fairness row says what it tests (``hypothesis``), its n, its effect size with an
interval, its p-value and the correction applied across people (Holm or Benjamini–Hochberg,
since a judge looks at the whole field at once). The tests are scipy's: exact binomial for
coins, chi-square goodness of fit for dice (statistic ``chi2`` on ``df`` degrees of freedom),
and an exact negative-binomial test for run lengths (n runs of a fair coin leave a total
of S ~ NegBin(n, 1/2) tosses facing the tosser, the sum of n Geometric(1/2) lengths). A row
below its test's minimum n (``min_n``) gets no p-value ("too few"): the test could not
reject whatever the outcomes, or its approximation does not hold. Only outcomes that are
uniform by construction (``randomness.uniform``) are tested, and none a log.void took back
(``randomness.voided``: counted apart by ``voided``).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any
from collections.abc import Sequence

from scipy import special
from scipy import stats as sps

from .views import build_keys

if TYPE_CHECKING:
    import duckdb

NO_PLAYER = "(no player)"
"""Who an outcome belongs to when no player of the match made it (a GM's roll, ``by`` missing)."""

BY = {"person": "person", "seat": "player"}
"""``--by``: the column statistics about players group by (``seat`` is the old view: a seat id across matches)."""

# One scan of the randomness view for coins and dice together; Python splits the counts.
OUTCOMES_SQL = """
SELECT kind, coalesce({who}, '{none}') AS who, coalesce(verifiable, false) AS verifiable, sides, value, count(*) AS c
FROM randomness WHERE kind IN ('coin', 'die') AND uniform AND sides >= 2 AND value BETWEEN 1 AND sides
  AND NOT coalesce({voided}, false) AND ($game IS NULL OR game = $game)
GROUP BY ALL ORDER BY ALL"""

VOIDED_SQL = """
SELECT count(*) FROM randomness WHERE coalesce({voided}, false) AND ($game IS NULL OR game = $game)"""
"""Outcomes a log.void took back: left out of every test, counted apart (docs/randomness.md)."""

RUNS_SQL = """
SELECT coalesce({who}, '{none}') AS who, count(*) AS n, sum(n) AS total
FROM runs WHERE n >= 0 AND ($game IS NULL OR game = $game)
GROUP BY ALL ORDER BY who"""

WINRATE_SQL = """
SELECT {keys}, count(*) FILTER (WHERE decided) AS decided, count(*) FILTER (WHERE won) AS wins,
       count(*) AS played
FROM (SELECT game, coalesce({who}, '{none}') AS {column}, decided, won FROM players)
WHERE ($game IS NULL OR game = $game)
GROUP BY ALL ORDER BY ALL"""

FAIRNESS_COLUMNS = (
    "test",
    "person",
    "n",
    "face1",
    "share",
    "chi2",
    "df",
    "total",
    "mean_n",
    "effect",
    "effect_size",
    "effect_low",
    "effect_high",
    "p",
    "correction",
    "p_adj",
    "verdict",
    "min_n",
    "hypothesis",
    "verifiable",
)
"""Every column of ``kifu stats fairness -f json|csv`` (docs/sql.md); a test leaves the others' columns empty.
With ``--by seat`` the second column is ``player``."""

SECTION_COLUMNS = {
    "coin": ("person", "n", "face1", "share", "effect_size", "effect_low", "effect_high", "p", "p_adj", "verdict"),
    "die": ("person", "n", "chi2", "df", "effect_size", "effect_low", "effect_high", "p", "p_adj", "verdict"),
    "runs": ("person", "n", "total", "mean_n", "effect_size", "effect_low", "effect_high", "p", "p_adj", "verdict"),
}
"""The columns a table or Markdown section of each kind of test shows (its title says the rest, including
whether the section's outcomes are verifiable or taken on trust)."""

HYPOTHESES = {
    "coin": "P(face 1) = 1/2; exact two-sided binomial; effect Cohen's h with the Clopper–Pearson interval",
    "die": "each of the {sides} faces 1/{sides}; chi-square goodness of fit on {df} df; effect Cohen's w "
    "(median-unbiased) with the noncentral chi-square interval",
    "runs": "N ~ Geometric(1/2), i.e. the total over n runs ~ NegBin(n, 1/2); exact two-sided; effect Cohen's h "
    "of the share of tosses facing the player, exact interval",
}

TOO_FEW = "too few"
FLAG = "flag"


@dataclass(frozen=True)
class Fairness:
    """One person's (or seat id's) result for one test."""

    test: str
    """``coin`` (face 1 vs 1/2), ``dN`` (an N-sided die vs uniform) or ``runs`` (N vs Geometric(1/2))."""
    who: str
    """The person (or, with ``by="seat"``, the seat id)."""
    n: int
    """Outcomes (coins, dice) or runs."""
    min_n: int
    """The least n this test reports a p-value for (``too few`` below it)."""
    effect: str
    """Name of the effect size: ``cohen_h`` (coin, runs) or ``cohen_w`` (die)."""
    effect_size: float
    effect_low: float
    effect_high: float
    """The effect size's interval at the requested level."""
    p: float | None
    """None when n < min_n."""
    face1: int | None = None
    """Coin: outcomes showing face 1."""
    chi2: float | None = None
    """Die: the chi-square statistic."""
    df: int | None = None
    """Die: its degrees of freedom (sides − 1)."""
    total: int | None = None
    """Runs: the sum of N over the runs (tosses facing the player)."""
    correction: str = ""
    """How ``p_adj`` was corrected: ``holm over 12``, ``bh over 12`` (the method, and the p-values of the family)."""
    family: int = 0
    """How many p-values the correction was across (the test's rows that have one)."""
    p_adj: float | None = None
    flag: bool = False
    verifiable: bool | None = None
    """Coins and dice are tested apart: True for outcomes that verify (docs/randomness.md), False for those
    taken on trust; None for run lengths (a run pools both)."""

    @property
    def kind(self) -> str:
        return "die" if self.test.startswith("d") else self.test

    @property
    def share(self) -> float | None:
        return self.face1 / self.n if self.face1 is not None and self.n else None

    @property
    def mean_n(self) -> float | None:
        return self.total / self.n if self.total is not None and self.n else None

    @property
    def verdict(self) -> str:
        """``too few`` (no p-value), ``flag`` (corrected p below alpha: worth a judge's look) or empty."""
        return TOO_FEW if self.p is None else FLAG if self.flag else ""

    @property
    def hypothesis(self) -> str:
        sides = int(self.test[1:]) if self.kind == "die" else 0
        return HYPOTHESES[self.kind].format(sides=sides, df=sides - 1)

    def as_dict(self) -> dict[str, Any]:
        """The row by ``FAIRNESS_COLUMNS`` (``person`` holds ``who``), rounded for printing."""
        values = {
            "test": self.test,
            "person": self.who,
            "n": self.n,
            "face1": self.face1,
            "share": _round(self.share),
            "chi2": _round(self.chi2),
            "df": self.df,
            "total": self.total,
            "mean_n": _round(self.mean_n),
            "effect": self.effect,
            "effect_size": _round(self.effect_size),
            "effect_low": _round(self.effect_low),
            "effect_high": _round(self.effect_high),
            "p": _sig(self.p),
            "correction": self.correction or None,
            "p_adj": _sig(self.p_adj),
            "verdict": self.verdict,
            "min_n": self.min_n,
            "hypothesis": self.hypothesis,
            "verifiable": self.verifiable,
        }
        return values

    def as_row(self) -> tuple[Any, ...]:
        return tuple(self.as_dict().values())


def _round(x: float | None, digits: int = 4) -> float | None:
    return None if x is None or not math.isfinite(x) else round(x, digits)


def _sig(p: float | None) -> float | None:
    return None if p is None or not math.isfinite(p) else float(f"{p:.3g}")


def cohen_h(p1: float, p2: float) -> float:
    """Cohen's h between two proportions (0.2 small, 0.5 medium, 0.8 large)."""
    return 2 * math.asin(math.sqrt(p1)) - 2 * math.asin(math.sqrt(p2))


def extreme_min_n(alpha: float) -> int:
    """The least n at which the most extreme outcome of a fair coin (all n alike, two-sided
    probability 2·2^−n) is significant at ``alpha``: below it an exact test cannot reject at all."""
    n = 1
    while 2.0 ** (1 - n) >= alpha:
        n += 1
    return n


DIE_MIN_PER_FACE = 5
"""Cochran's rule: the chi-square approximation wants an expected count of at least 5 per face."""


def coin_test(
    who: str, k: int, n: int, *, alpha: float = 0.01, level: float = 0.95, verifiable: bool | None = None
) -> Fairness:
    """Face 1 in ``k`` of ``n`` tosses against a fair coin (exact two-sided binomial)."""
    min_n = extreme_min_n(alpha)
    if n == 0:
        return Fairness("coin", who, 0, min_n, "cohen_h", 0.0, -math.pi, math.pi, None, face1=0, verifiable=verifiable)
    low, high = clopper_pearson(k, n, level)
    p = float(sps.binomtest(k, n, 0.5).pvalue) if n >= min_n else None
    return Fairness(
        "coin",
        who,
        n,
        min_n,
        "cohen_h",
        cohen_h(k / n, 0.5),
        cohen_h(low, 0.5),
        cohen_h(high, 0.5),
        p,
        face1=k,
        verifiable=verifiable,
    )


def noncentrality(chi2: float, df: int, level: float) -> tuple[float, float, float]:
    """The noncentrality λ of a chi-square statistic: (median-unbiased estimate, interval low, high).

    Each inverts the statistic's CDF in λ (cdflib's ``chndtrinc``): the estimate is the λ under
    which the observed statistic is the median, so it always lies inside its interval (``chi2``
    itself overstates λ: under the null its mean is ``df``, not 0).
    """
    tail = (1 - level) / 2
    at_zero = float(sps.chi2.cdf(chi2, df))

    def solve(target: float) -> float:
        return 0.0 if at_zero <= target else float(special.chndtrinc(chi2, df, target))

    return solve(0.5), solve(1 - tail), solve(tail)


def clopper_pearson(k: int, n: int, level: float) -> tuple[float, float]:
    """The exact (Clopper–Pearson) interval of a proportion k/n, from the beta quantiles."""
    tail = (1 - level) / 2
    low = float(special.betaincinv(k, n - k + 1, tail)) if k > 0 else 0.0
    high = float(special.betaincinv(k + 1, n - k, 1 - tail)) if k < n else 1.0
    return low, high


def die_test(
    who: str,
    sides: int,
    faces: Sequence[int],
    counts: Sequence[int],
    *,
    level: float = 0.95,
    verifiable: bool | None = None,
) -> Fairness:
    """Face counts of a ``sides``-sided die against uniform (chi-square, sides − 1 df).

    The effect is Cohen's w = sqrt(λ / n), λ the noncentrality (``noncentrality``).
    """
    observed = [0] * sides
    for face, c in zip(faces, counts):
        if 1 <= face <= sides:
            observed[face - 1] += c
    n, df, min_n = sum(observed), sides - 1, DIE_MIN_PER_FACE * sides
    if n == 0:
        return Fairness(
            f"d{sides}",
            who,
            0,
            min_n,
            "cohen_w",
            0.0,
            0.0,
            math.sqrt(df),
            None,
            chi2=None,
            df=df,
            verifiable=verifiable,
        )
    expected = n / sides
    chi2 = sum((o - expected) ** 2 for o in observed) / expected
    lam, lo, hi = noncentrality(chi2, df, level)
    p = float(sps.chi2.sf(chi2, df)) if n >= min_n else None
    return Fairness(
        f"d{sides}",
        who,
        n,
        min_n,
        "cohen_w",
        math.sqrt(lam / n),
        math.sqrt(lo / n),
        math.sqrt(hi / n),
        p,
        chi2=chi2,
        df=df,
        verifiable=verifiable,
    )


def runs_test(who: str, runs: int, total: int, *, alpha: float = 0.01, level: float = 0.95) -> Fairness:
    """Run lengths against Geometric(1/2): ``total`` of ``runs`` lengths vs NegBin(runs, 1/2), exact.

    Two-sided by doubling the smaller tail. The effect is Cohen's h between the share of
    tosses facing the tosser, total / (total + runs), and 1/2; its interval inverts the
    negative binomial exactly (P(S ≤ s | p) is the regularised beta I_p(runs, s + 1)).
    """
    min_n = extreme_min_n(alpha)
    if runs == 0:
        return Fairness("runs", who, 0, min_n, "cohen_h", 0.0, -math.pi, math.pi, None, total=0)
    dist = sps.nbinom(runs, 0.5)
    p = min(1.0, 2 * min(float(dist.cdf(total)), float(dist.sf(total - 1))))
    tail = (1 - level) / 2
    stop_low = float(special.betaincinv(runs, total + 1, tail))
    stop_high = float(special.betaincinv(runs, total, 1 - tail)) if total > 0 else 1.0
    share = total / (total + runs)
    return Fairness(
        "runs",
        who,
        runs,
        min_n,
        "cohen_h",
        cohen_h(share, 0.5),
        cohen_h(1 - stop_high, 0.5),
        cohen_h(1 - stop_low, 0.5),
        p if runs >= min_n else None,
        total=total,
    )


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
    """Correct p-values across people within each test (verifiable and trusted outcomes apart) and flag
    those below ``alpha``.

    The family of a test is its rows with a p-value: a "too few" row is no test, so it
    neither gets a corrected p nor makes the others' correction stricter.
    """
    out: list[Fairness] = []
    for key in dict.fromkeys((r.test, r.verifiable) for r in results):
        group = [r for r in results if (r.test, r.verifiable) == key]
        tested = [r for r in group if r.p is not None]
        adjusted = dict(zip(map(id, tested), CORRECTIONS[correction]([r.p for r in tested])))  # type: ignore[misc]  # r.p is not None for every tested result (filtered above)
        label = f"{correction} over {len(tested)}"
        for r in group:
            q = adjusted.get(id(r))
            out.append(
                replace(r, family=len(tested))
                if q is None
                else replace(r, correction=label, family=len(tested), p_adj=q, flag=q < alpha)
            )
    return out


def _outcome_tests(rows: list[tuple[str, str, bool, int, int, int]], alpha: float, level: float) -> list[Fairness]:
    """Coin and die tests from (kind, who, verifiable, sides, value, count) rows, verifiable ones apart."""
    coins: dict[tuple[str, bool], list[int]] = {}
    dice: dict[tuple[str, bool, int], tuple[list[int], list[int]]] = {}
    for kind, who, verifiable, sides, value, c in rows:
        if kind == "coin":
            nk = coins.setdefault((who, verifiable), [0, 0])
            nk[0] += c
            nk[1] += c if value == 1 else 0
        else:
            faces, counts = dice.setdefault((who, verifiable, sides), ([], []))
            faces.append(value)
            counts.append(c)
    out = [coin_test(who, k, n, alpha=alpha, level=level, verifiable=v) for (who, v), (n, k) in coins.items()]
    return out + [
        die_test(who, sides, f, c, level=level, verifiable=v)
        for (who, v, sides), (f, c) in sorted(dice.items(), key=lambda x: (x[0][2], x[0][0], x[0][1]))
    ]


def fairness(
    con: duckdb.DuckDBPyConnection,
    *,
    game: str | None = None,
    alpha: float = 0.01,
    correction: str = "holm",
    by: str = "person",
    level: float = 0.95,
) -> list[Fairness]:
    """Every person's (or seat id's) coins, dice and run lengths tested, corrected and flagged."""
    params, who = {"game": game}, BY[by]
    # The statistics are guarded (no empty counts, no zero expectations); numerical corners of
    # scipy's special functions must still never print a warning in the middle of a table.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sql = OUTCOMES_SQL.format(who=who, none=NO_PLAYER, voided=_voided_column(con))
        raw = _outcome_tests(con.execute(sql, params).fetchall(), alpha, level)
        raw += [
            runs_test(w, n, int(t), alpha=alpha, level=level)
            for w, n, t in con.execute(RUNS_SQL.format(who=who, none=NO_PLAYER), params).fetchall()
            if n
        ]
        return adjust(raw, alpha, correction)


def _voided_column(con: duckdb.DuckDBPyConnection) -> str:
    """``voided``, or ``NULL`` for a dataset written before outcomes were marked voided (none then is)."""
    columns = {row[0] for row in con.execute("DESCRIBE SELECT * FROM randomness").fetchall()}
    return "voided" if "voided" in columns else "NULL"


def voided(con: duckdb.DuckDBPyConnection, *, game: str | None = None) -> int:
    """How many random outcomes a log.void took back (``fairness`` leaves them out)."""
    sql = VOIDED_SQL.format(voided=_voided_column(con))
    return int(con.execute(sql, {"game": game}).fetchone()[0])  # type: ignore[index]


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


def winrate(
    con: duckdb.DuckDBPyConnection,
    *,
    game: str | None = None,
    by_game: bool = False,
    by: str = "person",
    level: float = 0.95,
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Wins over decided matches per person or seat id (and game), with the Wilson interval."""
    column = "person" if by == "person" else "player"
    keys = ["game", column] if by_game else [column]
    sql = WINRATE_SQL.format(keys=", ".join(keys), who=BY[by], none=NO_PLAYER, column=column)
    rows = con.execute(sql, {"game": game}).fetchall()
    out = [(*key, played, decided, wins, *_proportion(wins, decided, level)) for *key, decided, wins, played in rows]
    return [*keys, "played", "decided", "wins", "rate", "ci_low", "ci_high"], out


SEATS_SQL = """
SELECT game, seat, count(*) FILTER (WHERE decided) AS decided, count(*) FILTER (WHERE won) AS wins
FROM players WHERE ($game IS NULL OR game = $game)
GROUP BY ALL ORDER BY ALL"""


def seats(
    con: duckdb.DuckDBPyConnection, *, game: str | None = None, level: float = 0.95
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Win rate by seat (1 = first in match.start) per game: is going first an advantage?"""
    rows = con.execute(SEATS_SQL, {"game": game}).fetchall()
    out = [(g, seat, decided, wins, *_proportion(wins, decided, level)) for g, seat, decided, wins in rows]
    return ["game", "seat", "decided", "wins", "rate", "ci_low", "ci_high"], out


RULE_RATES_SQL = """
WITH per_game AS (SELECT game, count(*) AS matches FROM matches GROUP BY game)
SELECT m.game, f.code,
       ['info', 'warning', 'error'][max(CASE f.severity WHEN 'error' THEN 3 WHEN 'warning' THEN 2 ELSE 1 END)]
           AS severity,
       count(DISTINCT f.match) AS hit, any_value(p.matches) AS matches,
       count(*) AS findings
FROM findings f JOIN matches m USING (match) JOIN per_game p ON p.game = m.game
WHERE ($game IS NULL OR m.game = $game)
GROUP BY ALL ORDER BY hit DESC, m.game, f.code"""


def rule_rates(
    con: duckdb.DuckDBPyConnection, *, game: str | None = None, level: float = 0.95
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Per rule: the share of a game's matches with at least one finding of it; ``severity`` is the worst of its
    findings (a rule may report an error in one match and a note in another)."""
    rows = con.execute(RULE_RATES_SQL, {"game": game}).fetchall()
    out = [(g, code, sev, hit, n, total, *_proportion(hit, n, level)) for g, code, sev, hit, n, total in rows]
    return ["game", "code", "severity", "matches_hit", "matches", "findings", "rate", "ci_low", "ci_high"], out


# --- game statistics (each game's ``stats`` part: kifu/games/<id>/stats.py, found by views) -------

# A mirror (both players on the same key) is one win and one loss for that key whatever
# happens: it is counted apart and left out of the rate, which would otherwise drift to 1/2.
BUILDS_SQL = """
WITH k AS ({keys}),
r AS (SELECT k.match, k.key, p.decided, p.won, count(*) OVER (PARTITION BY k.match, k.key) > 1 AS mirror
      FROM k JOIN players p ON p.match = k.match AND p.player = k.player)
SELECT key, count(*) AS played, count(DISTINCT match) FILTER (WHERE decided AND mirror) AS mirrors,
       count(*) FILTER (WHERE decided AND NOT mirror) AS decided, count(*) FILTER (WHERE won AND NOT mirror) AS wins
FROM r GROUP BY key ORDER BY key"""


def builds(
    con: duckdb.DuckDBPyConnection, *, by: str = "gunner", level: float = 0.95
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Win rate per build (a key of a game's ``BUILDS``: gunner, gun pair, trigger set), mirrors apart."""
    game, keys = build_keys()[by]
    rows = con.execute(BUILDS_SQL.format(keys=keys)).fetchall()
    out = [
        (game, key, played, mirrors, decided, wins, *_proportion(wins, decided, level))
        for key, played, mirrors, decided, wins in rows
    ]
    return ["game", by, "played", "mirrors", "decided", "wins", "rate", "ci_low", "ci_high"], out


FIRST_SQL = """
SELECT f.game, count(*) AS matches, count(*) FILTER (WHERE m.winner IS NOT NULL) AS decided,
       count(*) FILTER (WHERE m.winner = f.player) AS first_wins
FROM first_players f JOIN matches m USING (match)
WHERE f.player IS NOT NULL AND ($game IS NULL OR f.game = $game)
GROUP BY ALL ORDER BY ALL"""


def first_player(
    con: duckdb.DuckDBPyConnection, *, game: str | None = None, level: float = 0.95
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Per game, how often the first player won a decided match; Wilson interval, exact test against 1/2."""
    rows = con.execute(FIRST_SQL, {"game": game}).fetchall()
    out = [
        (
            g,
            matches,
            decided,
            wins,
            *_proportion(wins, decided, level),
            _sig(float(sps.binomtest(wins, decided, 0.5).pvalue)) if decided else None,
        )
        for g, matches, decided, wins in rows
    ]
    return ["game", "matches", "decided", "first_wins", "rate", "ci_low", "ci_high", "p"], out


def rate(
    con: duckdb.DuckDBPyConnection, stat: dict[str, Any], *, level: float = 0.95
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """A game's statistic (a ``STATS`` entry of its ``stats`` part): its SQL's rows with the proportion ``rate = (k, n)`` and its Wilson
    interval after column ``k``, and the ``rounded`` columns to 4 places."""
    cur = con.execute(stat["sql"])
    names = [d[0] for d in cur.description]
    k, n = (names.index(c) for c in stat["rate"])
    rounded = {names.index(c) for c in stat.get("rounded", ())}
    out = []
    for row in cur.fetchall():
        cells = [round(v, 4) if i in rounded and v is not None else v for i, v in enumerate(row)]
        out.append((*cells[: k + 1], *_proportion(row[k], row[n], level), *cells[k + 1 :]))
    return [*names[: k + 1], "rate", "ci_low", "ci_high", *names[k + 1 :]], out
