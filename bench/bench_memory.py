"""Peak memory of the commands that read a whole log, at 10k, 100k and 1M events (issue 19).

    python bench/bench_memory.py            # 10,000, 100,000 and 1,000,000 events (~2 min)
    python bench/bench_memory.py --sizes 10000 100000

Each command runs in its own process on the bench corpus (``bench_core``'s generic
match: notes and dice with times; written under ``bench/out/``, reused when
present); its peak resident set size is the kernel's figure for that process
(``wait4``, the one ``/usr/bin/time -v`` prints). The growth from 10k to 1M events
is what the streaming commands must not have: target ≤ 150 MB at 1M for each.
``kifu report`` also prints the page's size: target ≤ 5 MB (the timeline of a long
log is summarised; findings and rulings are always complete).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from bench_core import OUT  # noqa: E402

RSS_TARGET_MB = 150
PAGE_TARGET_MB = 5
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "KIFU_LANG": "en"}
COMMANDS = {
    "verify": ["verify", "{log}"],
    "audit": ["audit", "{log}"],
    "state": ["state", "{log}"],
    "state --at 2": ["state", "{log}", "--at", "2"],
    "show -f csv": ["show", "{log}", "-f", "csv"],
    "report": ["report", "{log}", "-o", "{page}"],
}


def peak(args: list[str]) -> tuple[float, float, int]:
    """(peak RSS in MB, wall seconds, exit code) of ``python -m kifu ARGS``, its output thrown away."""
    t = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "kifu", *args], env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss / 1024, time.perf_counter() - t, proc.returncode


def corpus(n: int) -> Path:
    """The corpus of ``n`` events, written by a child process: a parent that had built a million
    events would lend its size to every child forked from it (``ru_maxrss`` counts from the fork)."""
    path = OUT / f"corpus-{n}.jsonl"
    if not path.exists():
        OUT.mkdir(exist_ok=True)
        code = f"from bench_core import write_corpus; from pathlib import Path; write_corpus(Path({str(path)!r}), {n})"
        subprocess.run([sys.executable, "-c", code], cwd=HERE, env=ENV, check=True)
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    args = ap.parse_args()
    logs = {n: corpus(n) for n in args.sizes}
    print(
        f"peak RSS (MB) of `kifu COMMAND LOG`, generic corpus, Python {sys.version.split()[0]}, "
        f"load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'command':<14}" + "".join(f"{n:>12,}" for n in args.sizes) + "   target at the largest")
    missed = 0
    pages: dict[int, float] = {}
    for name, template in COMMANDS.items():
        cells = []
        for n, log in logs.items():
            page = OUT / f"page-{n}.html"
            mb, secs, code = peak([a.format(log=log, page=page) for a in template])
            if code not in (0, 1):
                raise SystemExit(f"kifu {name} failed on {log} (exit {code})")
            cells.append(f"{mb:>7.0f} {secs:>3.0f}s")
            if name == "report":
                pages[n] = page.stat().st_size / 1e6
        ok = mb <= RSS_TARGET_MB
        missed += not ok
        print(
            f"{name:<14}" + "".join(f"{c:>12}" for c in cells) + f"   ≤ {RSS_TARGET_MB} MB  {'PASS' if ok else 'MISS'}"
        )
    ok = all(mb <= PAGE_TARGET_MB for mb in pages.values())
    missed += not ok
    print(
        f"{'report page':<14}"
        + "".join(f"{pages[n]:>10.2f}MB" for n in args.sizes)
        + f"   ≤ {PAGE_TARGET_MB} MB   {'PASS' if ok else 'MISS'}"
    )
    print(f"{missed} target(s) missed" if missed else "all targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
