"""What the limits of issue 20 cost a reader: one reading of a line, no recursion, bounded lines.

Every reader now refuses a key given twice, nesting past 64 levels and lines over
4 MiB (docs/format.md, "Limits"). kifu's own lines are in canonical form and are
checked in bulk (one re-encoding of the block, compared); a line in another
client's form is walked key by key. This prints, on the corpus of
``bench_core.py`` (a generic match of notes and dice):

* read+decode+verify of the corpus as kifu writes it, as a share of the floor
  (bare ``msgspec.json.decode`` per line), with the target of issue 2 (≥ 40 %);
* the same log as another client writes it (``json.dumps`` with its default
  ``", "`` and ``": "`` separators, chain recomputed), where every line is walked;
* ``limits.too_deep`` and ``limits.scan`` per line, for scale.

    python bench/bench_limits.py            # 1,000,000 events
    python bench/bench_limits.py --quick    # 100,000 events
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_core import OUT, Table, floor_decode, median_time, paired_ratio, rate, write_corpus  # noqa: E402

from kifu.events import limits, logfile  # noqa: E402
from kifu.events.codec import line_hash  # noqa: E402


def foreign(data: bytes) -> bytes:
    """The same events as another client writes them: spaced JSON, non-ASCII escaped, chain recomputed."""
    out: list[bytes] = []
    for raw in data.splitlines():
        obj = json.loads(raw)
        obj["prev"] = line_hash(out[-1]) if out else None
        out.append(json.dumps(obj).encode())
    return b"".join(line + b"\n" for line in out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--quick", action="store_true", help="100,000 events, 3 runs")
    ap.add_argument("--events", type=int, default=None)
    args = ap.parse_args()
    n = args.events or (100_000 if args.quick else 1_000_000)
    runs = 3 if args.quick else 5
    OUT.mkdir(exist_ok=True)
    path = OUT / f"corpus-{n}.jsonl"
    data = path.read_bytes() if path.exists() else write_corpus(path, n)
    other = OUT / f"foreign-{n}.jsonl"
    if not other.exists():
        other.write_bytes(foreign(data))
    other_data = other.read_bytes()
    print(
        f"kifu limits benchmark: {n:,} events ({len(data) / 1e6:.0f} MB canonical, "
        f"{len(other_data) / 1e6:.0f} MB in another client's form), medians of {runs} runs"
    )
    t = Table()
    floor = n / median_time(lambda: floor_decode(data), runs)
    t.row(f"floor: msgspec.json.decode per line ({n:,})", f"{floor:,.0f} ev/s")
    took, ratio = paired_ratio(lambda: logfile.verify(path), data, runs)
    t.row("verify, kifu's canonical lines (checked in bulk)", rate(n, took))
    t.row("  ratio to the floor (paired runs)", f"{ratio:.0%}", "≥ 40%", ratio >= 0.40)
    took_other, ratio_other = paired_ratio(lambda: logfile.verify(other), data, runs)
    t.row("verify, another client's lines (each walked)", rate(n, took_other))
    t.row("  ratio to the floor (paired runs)", f"{ratio_other:.0%}")
    t.row("  slower than canonical", f"{took_other / took:.1f}×")
    lines = data.splitlines()[: min(n, 100_000)]
    start = time.perf_counter()
    for ln in lines:
        limits.too_deep(ln)
    t.row("limits.too_deep per line", f"{(time.perf_counter() - start) / len(lines) * 1e6:.2f} µs")
    start = time.perf_counter()
    for ln in lines:
        limits.scan(ln)
    t.row("limits.scan per line (the walk)", f"{(time.perf_counter() - start) / len(lines) * 1e6:.2f} µs")
    return 1 if t.misses else 0


if __name__ == "__main__":
    sys.exit(main())
