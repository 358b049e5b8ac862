"""`kifu audit` of many simulated matches of each game, against the decode floor (issue 19).

    python bench/bench_audit.py             # 120 matches per game, medians of 5 runs (~2 min)
    python bench/bench_audit.py --quick     # 40 matches per game, 3 runs
    python bench/bench_audit.py --games mtg weiss

For each game, ``matches`` legal matches from its seeded simulator (``bench/sims.py``)
are written under ``bench/out/sims/`` (reused when present) and audited the way a
user does it: one ``python -m kifu audit FILE…`` process over all of them (read,
verify, decode, fold, every rule, per-match set-up, the text report). Its rate is
the events over the wall time less the cold start (the same command on a
two-event log of the same game, which imports the same modules). The floor is
``msgspec.json.decode`` (untyped) of the same lines, already in memory, timed
right before each run; the ratio printed is the median of the per-run ratios.
Both sides are CPU time (the child's user + system time from ``wait4``, the
floor's ``process_time``): on a shared machine wall time mostly measures the
other processes. Target: ≥ 40 % of the floor.

The second table shows that the cost per event does not grow with a match's
length: matches cut to about 50 and 500 events, and 5,000 where the game's
simulator plays that long (Magic's, which takes any number of turns; the other
games end by their own rules at a few hundred events), read and audited in
process as `kifu audit` does it (``kifu.app.audit``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from collections.abc import Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import msgspec  # noqa: E402
import sims  # noqa: E402

OUT = HERE / "out" / "sims"
TARGET = 0.40
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "KIFU_LANG": "en"}


def run_cli(paths: list[Path]) -> float:
    """CPU seconds of one `kifu audit` process over ``paths`` (exit 0 or 1: findings are fine)."""
    return sims.cpu_of([sys.executable, "-m", "kifu", "audit", *map(str, paths)], ENV)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def bench_game(game: str, matches: int, runs: int) -> bool:
    paths = sims.corpus(OUT, game, matches)
    datas = [p.read_bytes() for p in paths]
    n = sum(d.count(b"\n") for d in datas)
    m = sims.paired(
        run_cli, paths, sims.tiny(OUT, game), lambda: sims.floor(datas), lambda f, c: f / max(c, 1e-9), runs
    )
    f, w, cold, ratio = m
    rate = n / max(w - cold, 1e-9)
    print(
        f"{game:<13} {matches:>4} {n:>8,} {n / f:>12,.0f} {w:>7.2f} {cold:>6.2f} {rate:>12,.0f} "
        f"{ratio:>7.1%}  ≥ {TARGET:.0%}  {verdict(ratio >= TARGET)}",
        flush=True,
    )
    return ratio >= TARGET


def per_event_us(run: Callable[[], Any], n: int, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.process_time()
        run()
        times.append(time.process_time() - t)
    return statistics.median(times) / n * 1e6


def length_logs(game: str, length: int, total: int) -> list[Path]:
    """Matches of about ``length`` events (cut from longer ones), ``total`` events in all; [] if none is that long."""
    turns = {"mtg": length // 30 + 3}.get(game)
    out, have, seed = [], 0, 0
    while have < total and seed < 400:
        bodies = sims.play(game, seed, turns if turns else sims.turns(game) * 3)
        seed += 1
        if len(bodies) < length * 0.9:
            continue
        path = OUT / f"len-{game}-{length}" / f"{seed:04d}.jsonl"
        if not path.exists():
            sims.write(path, game, bodies[:length])
        out.append(path)
        have += min(length, len(bodies))
    return out if have >= total else []


def bench_lengths(games: list[str], runs: int) -> bool:
    try:
        from kifu.app import audit as audit_path
    except ImportError:  # an older kifu (to compare branches): the same work through load()
        from kifu.auditor import registry
        from kifu.events import logfile

        def audit_path(path: Path) -> Any:
            return registry.audit(logfile.load(path).events)

    ok = True
    for game in games:
        cells, previous = [], None
        for length in (50, 500, 5000):
            paths = length_logs(game, length, total=20_000)
            if not paths:
                cells.append(f"{'–':>10}")
                continue
            n = sum(p.read_bytes().count(b"\n") for p in paths)
            us = per_event_us(lambda paths=paths: [audit_path(p) for p in paths], n, runs)
            grew = previous is not None and us > 1.25 * previous
            ok &= not grew
            cells.append(f"{us:>8.2f}{'!' if grew else ' '} ")
            previous = us
        print(f"{game:<13} {''.join(cells)}", flush=True)
    print(f"cost per event at 500 and 5,000 events ≤ 1.25 × the next shorter  {verdict(ok)}")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="40 matches per game, 3 runs")
    ap.add_argument("--matches", type=int, help="matches per game (default 120; 40 with --quick)")
    ap.add_argument("--runs", type=int, help="runs per figure (default 5; 3 with --quick)")
    ap.add_argument("--games", nargs="+", choices=sims.GAMES, default=list(sims.GAMES))
    args = ap.parse_args()
    matches = args.matches or (40 if args.quick else 120)
    runs = args.runs or (3 if args.quick else 5)
    load = os.getloadavg()[0]
    print(
        f"kifu audit benchmark: {matches} simulated matches per game, medians of {runs} runs, "
        f"Python {sys.version.split()[0]}, msgspec {msgspec.__version__}, {os.cpu_count()} cores, load {load:.1f}"
    )
    print(
        f"{'game':<13} {'logs':>4} {'events':>8} {'floor ev/s':>12} {'cpu s':>7} {'cold':>6} {'audit ev/s':>12} "
        f"{'ratio':>7}"
    )
    results = [bench_game(g, matches, runs) for g in args.games]
    print()
    print("CPU µs/event of read + verify + audit, by match length (in process, as `kifu audit` does it)")
    print(f"{'game':<13} {'50':>10}{'500':>10}{'5,000':>10}")
    results.append(bench_lengths(args.games, runs))
    missed = results.count(False)
    print(f"{missed} target(s) missed" if missed else "all targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
