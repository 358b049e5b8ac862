"""One big log into a new warehouse: time and peak memory by size (issue 32, defect 12).

Each size is a generic log of notes and coin tosses, ingested by `kifu ingest --jobs 1` in
a child process (its own clock, its peak RSS from the kernel). Linear means the seconds
and the memory per MB stay flat as the log grows: PASS when the largest log's seconds per
MB are at most twice the smallest's and its peak memory is at most twice the smallest's
plus its own size (DuckDB's pages for what it stores).

    python bench/bench_ingest_big.py            # 8, 16, 32, 64 MB
    python bench/bench_ingest_big.py 16 128     # other sizes, MB

Before the fix (the issue's figures): 32 MB 3.5 s, 64 MB 16 s, 256 MB 338 s and 2.6 GB.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kifu.events import logfile  # noqa: E402


def make(path: Path, megabytes: int) -> Path:
    n = megabytes * (1 << 20) // 150
    logfile.write_new(
        path,
        {"game": "generic", "match": path.stem, "players": [{"id": "a", "name": "Aoi"}, {"id": "b", "name": "Ren"}]},
        (
            {"type": "random", "by": "ab"[j % 2], "kind": "coin", "sides": 2, "values": [1 + j % 2]}
            if j % 4 == 0
            else {"type": "note", "by": "a", "text": "x" * 90 + str(j), "at": "2026-03-01T10:00:00Z"}
            for j in range(n)
        ),
    )
    return path


def ingest(log: Path, db: Path) -> tuple[float, int]:
    """Seconds and peak RSS (MB) of `kifu ingest LOG` in a child."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "kifu", "ingest", str(log), "--db", str(db), "--jobs", "1"],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=True,
        capture_output=True,
    )
    took = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return took, max(peak, before) >> 10


def main(sizes: list[int]) -> int:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for mb in sizes:
            log = make(Path(tmp) / f"big{mb}.jsonl", mb)
            real = log.stat().st_size / (1 << 20)
            took, peak = ingest(log, Path(tmp) / f"w{mb}.duckdb")
            rows.append((real, took, peak))
            print(f"{real:7.1f} MB  {took:7.2f} s  {took / real:6.3f} s/MB  peak {peak:6d} MB", flush=True)
            log.unlink()
    (small, t0, m0), (large, t1, m1) = rows[0], rows[-1]
    time_ok = t1 / large <= 2 * t0 / small
    memory_ok = m1 <= 2 * m0 + large
    print(f"time per MB {t0 / small:.3f} -> {t1 / large:.3f}: {'PASS' if time_ok else 'MISS'}")
    print(f"peak memory {m0} -> {m1} MB for {small:.0f} -> {large:.0f} MB: {'PASS' if memory_ok else 'MISS'}")
    return 0 if time_ok and memory_ok else 1


if __name__ == "__main__":
    sys.exit(main([int(a) for a in sys.argv[1:]] or [8, 16, 32, 64]))
