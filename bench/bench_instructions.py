"""Instructions per event of the audit of each game's simulated matches, counted by Valgrind (issue 19).

    python bench/bench_instructions.py                 # 20 matches per game (~2 min; needs valgrind)
    python bench/bench_instructions.py --games mtg --matches 40

CPU time on a shared machine moves by a fifth from one run to the next (bench_audit.py
pairs its runs against the floor for that reason); the number of machine instructions a
process executes does not. For each game, ``registry.audit`` of the decoded events of
``matches`` simulated matches (``bench/sims.py``, the corpus bench_audit.py reads) runs
under ``valgrind --tool=callgrind``, and so does the same process without the audit
(reading the logs, imports, one audit to warm the catalogue): the difference over the
events is the audit's instructions per event, the fold and every rule included, the
reading of the files not. An instruction is not a unit of time (a cache miss costs more
than an add), so compare games and commits with it, and quote the CPU time of
bench_audit.py to users.

Target (issue 19): ガンナガン and Magic at World Trigger's cost per event or below.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import sims  # noqa: E402

OUT = HERE / "out" / "sims"
REFERENCE = "worldtrigger"
HEAVY = ("gunandgun", "mtg")


def child(game: str, matches: int, audit: bool) -> None:
    """Under valgrind: read the matches, warm up, and (``audit``) audit each once; print the event count."""
    from kifu.auditor import registry
    from kifu.events import logfile

    logs = [logfile.load(p).events for p in sims.corpus(OUT, game, 120)[:matches]]
    registry.audit(logs[0])  # imports and the match's catalogue, outside the difference
    if audit:
        for events in logs:
            registry.audit(events)
    print(sum(map(len, logs)), file=sys.stderr)


def count(game: str, matches: int, audit: bool) -> tuple[int, int]:
    """(instructions, events) of one child run under callgrind."""
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--child",
        "audit" if audit else "read",
        "--games",
        game,
        "--matches",
        str(matches),
    ]
    err = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT).stderr
    found = re.search(r"Collected : (\d+)", err)
    events = re.search(r"^(\d+)$", err, re.M)
    if found is None or events is None:
        raise SystemExit(f"no instruction count from valgrind for {game}:\n{err[-2000:]}")
    return int(found.group(1)), int(events.group(1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", choices=sims.GAMES, default=list(sims.GAMES))
    ap.add_argument("--matches", type=int, default=20, help="simulated matches per game (default 20)")
    ap.add_argument("--child", choices=("read", "audit"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.games[0], args.matches, args.child == "audit")
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind): nothing measured")
        return 0
    games = list(dict.fromkeys(args.games + ([REFERENCE] if any(g in HEAVY for g in args.games) else [])))
    print(f"instructions per event of registry.audit, {args.matches} simulated matches per game (callgrind)")
    per: dict[str, float] = {}
    for game in games:
        sims.corpus(OUT, game, 120)  # written once, outside valgrind
        with_audit, events = count(game, args.matches, True)
        without, _ = count(game, args.matches, False)
        per[game] = (with_audit - without) / events
        print(f"{game:<13} {events:>7,} events {per[game]:>10,.0f} instructions/event", flush=True)
    missed = 0
    for game in (g for g in games if g in HEAVY):
        ok = per[game] <= per[REFERENCE]
        missed += not ok
        print(f"{game} / {REFERENCE}: {per[game] / per[REFERENCE]:.2f}  ≤ 1.00  {'PASS' if ok else 'MISS'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
