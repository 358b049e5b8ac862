"""Audit CPU per event on two corpora: the generic bench corpus and simulated ガンナガン matches.

Run from the repository root: ``PYTHONPATH=. python bench/bench_audit.py``. The generic corpus is
``bench/out/corpus-100000.jsonl`` (``python bench/bench_core.py --quick`` writes it). Prints the
median µs/event of each corpus.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from kifu.auditor import registry
from kifu.events import logfile
from kifu.games.gunandgun import sim as gunandgun


def _median_us(run, n: int, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        run()
        times.append(time.perf_counter() - t)
    return statistics.median(times) / n * 1e6


def generic(path: Path, repeat: int) -> None:
    events = logfile.load(path).events[:200_000]
    us = _median_us(lambda: registry.audit(events), len(events), repeat)
    print(f"generic {path.name}: {len(events)} events, audit {us:.2f} us/event")


def gunandgun_matches(matches: int, repeat: int) -> None:
    # Fixed seeds: the same 40 matches every run, so runs compare.
    logs = [gunandgun.to_events(gunandgun.simulate(random.Random(i), f"m{i}", 14)) for i in range(matches)]
    n = sum(len(log) for log in logs)

    def run() -> None:
        for events in logs:
            registry.audit(events)

    print(f"gunandgun {matches} matches: {n} events, audit {_median_us(run, n, repeat):.2f} us/event")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--corpus", type=Path, default=Path("bench/out/corpus-100000.jsonl"))
    p.add_argument("--matches", type=int, default=40)
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args()
    if a.corpus.exists():
        generic(a.corpus, a.repeat)
    else:
        print(f"{a.corpus} missing: run python bench/bench_core.py --quick first")
    gunandgun_matches(a.matches, a.repeat)


if __name__ == "__main__":
    main()
