"""`kifu verify` of each game's simulated matches against the decode floor, in one run (issue 27).

    python bench/bench_verify.py             # 120 matches per game, medians of 5 runs
    python bench/bench_verify.py --quick     # 40 matches per game, 3 runs
    python bench/bench_verify.py --games mtg weiss

Two corpora per game, the same matches from the seeded simulators (``bench/sims.py``,
written under ``bench/out/sims/``, reused when present):

* ``canonical``: each line as kifu writes it;
* ``as given``: each line as another writer writes it, the simulator's mapping as it is:
  keys in its order with ``seq`` and ``prev`` last, the defaults it spells out written
  (``"group":1``, ``"rules":{}``, ``"tags":["move"]``). Its chain is over those bytes.

``kifu verify`` runs as a user runs it, one process over all the game's files (read, split,
decode into the game's types, keys once, seq and chain, SHA-256 of every line, the
randomness count, the text report); its CPU time (user + system of the child, from
``wait4``) less the cold start (the same command on a two-event log of the game); the corpus is named again on the command
line until a run verifies at least 100,000 events, so the cold start is a small part. The
floor is ``msgspec.json.decode`` (untyped) of each line of the same files, already in
memory, CPU time in this process, timed right before each run; the ratio printed is the
median of the per-run ratios (floor's events/s over verify's). Target: ≥ 40 % of the floor.

    python bench/bench_verify.py --instructions --games mtg   # needs valgrind; ~2 min a game

counts machine instructions instead (Valgrind's callgrind: the same under any load, where CPU
time on a shared machine moves more than a change does): ``kifu verify`` of each game's matches,
named once, less the command on the two-event log; the floor, a process decoding every line of
the same files as above less one only reading them; per line, and their ratio.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import msgspec  # noqa: E402
import sims  # noqa: E402

OUT = HERE / "out" / "sims"
TARGET = 0.40
EVENTS = 100_000
"""Events verified per run, at least (the corpus named again as needed)."""
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "KIFU_LANG": "en"}


def run_cli(paths: list[Path]) -> float:
    """CPU seconds of one ``kifu verify`` process over ``paths``; it must exit 0."""
    return sims.cpu_of([sys.executable, "-m", "kifu", "verify", *map(str, paths)], ENV, (0,))


def bench(game: str, form: str, paths: list[Path], runs: int) -> bool:
    """One line of the table: ``kifu verify`` of ``paths`` against the floor, medians of ``runs``.

    The files are named again until the run holds ``EVENTS`` events, so the work, not the cold
    start it is measured against, is what the figure shows on a machine with a noisy start-up.
    """
    per = sum(p.read_bytes().count(b"\n") for p in paths)
    paths = paths * max(1, -(-EVENTS // per))
    datas = [p.read_bytes() for p in paths]
    n = sum(d.count(b"\n") for d in datas)
    m = sims.paired(
        run_cli, paths, sims.tiny(OUT, game), lambda: sims.floor(datas), lambda f, c: f / max(c, 1e-9), runs
    )
    f, c, cold, ratio = m
    ok = ratio >= TARGET
    print(
        f"{game:<13} {form:<10} {n:>8,} {f / n * 1e6:>9.2f} {c:>7.3f} {cold:>6.3f} {(c - cold) / n * 1e6:>10.2f} "
        f"{ratio:>7.1%}  ≥ {TARGET:.0%}  {'PASS' if ok else 'MISS'}",
        flush=True,
    )
    return ok


def instructions(cmd: list[str]) -> int:
    """Machine instructions one process running ``cmd`` executes, counted by Valgrind's callgrind."""
    grind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    err = subprocess.run(grind + cmd, env=ENV, capture_output=True, text=True, check=True, cwd=ROOT).stderr
    found = re.search(r"Collected : (\d+)", err)
    if found is None:
        raise SystemExit(f"no instruction count from valgrind:\n{err[-2000:]}")
    return int(found.group(1))


def floor_child(paths: list[str], decode: bool) -> None:
    """Under valgrind: read ``paths`` and (``decode``) decode each line untyped, as ``sims.floor`` does."""
    datas = [Path(p).read_bytes() for p in paths]
    if decode:
        for data in datas:
            for line in data.splitlines():
                msgspec.json.decode(line)


def count(game: str, form: str, paths: list[Path]) -> None:
    """One line of ``--instructions``: the command's and the floor's instructions per line, and their ratio."""
    n = sum(p.read_bytes().count(b"\n") for p in paths)
    files = list(map(str, paths))
    kifu = instructions([sys.executable, "-m", "kifu", "verify", *files])
    cold = instructions([sys.executable, "-m", "kifu", "verify", str(sims.tiny(OUT, game))])
    child = [sys.executable, __file__, "--child"]
    floor = instructions([*child, "decode", *files]) - instructions([*child, "read", *files])
    ratio = floor / (kifu - cold)
    print(
        f"{game:<13} {form:<10} {n:>8,} {floor // n:>9,} {(kifu - cold) // n:>10,} {ratio:>7.1%}  ≥ {TARGET:.0%}  "
        f"{'PASS' if ratio >= TARGET else 'MISS'}",
        flush=True,
    )


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        floor_child(sys.argv[3:], sys.argv[2] == "decode")
        return 0
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="40 matches per game, 3 runs")
    ap.add_argument("--matches", type=int, help="matches per game (default 120; 40 with --quick)")
    ap.add_argument("--runs", type=int, help="runs per figure (default 5; 3 with --quick)")
    ap.add_argument("--games", nargs="+", choices=sims.GAMES, default=list(sims.GAMES))
    ap.add_argument(
        "--instructions",
        action="store_true",
        help="count machine instructions under Valgrind's callgrind instead of CPU time (each game's matches once)",
    )
    args = ap.parse_args()
    matches = args.matches or (40 if args.quick else 120)
    if args.instructions:
        print(f"{'game':<13} {'lines':<10} {'events':>8} {'floor/ln':>9} {'verify/ln':>10} {'ratio':>7}")
        for game in args.games:
            count(game, "canonical", sims.corpus(OUT, game, matches))
            count(game, "as given", sims.corpus_as_given(OUT, game, matches))
        return 0
    runs = args.runs or (3 if args.quick else 5)
    print(
        f"kifu verify benchmark: {matches} simulated matches per game, medians of {runs} runs, "
        f"Python {sys.version.split()[0]}, msgspec {msgspec.__version__}, {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'game':<13} {'lines':<10} {'events':>8} {'floor µs':>9} {'cpu s':>7} {'cold':>6} {'verify µs':>10} "
        f"{'ratio':>7}"
    )
    results = []
    for game in args.games:
        results.append(bench(game, "canonical", sims.corpus(OUT, game, matches), runs))
        results.append(bench(game, "as given", sims.corpus_as_given(OUT, game, matches), runs))
    print(f"load after: {os.getloadavg()[0]:.1f}")
    missed = results.count(False)
    print(f"{missed} target(s) missed" if missed else "all targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
