"""Benchmark of the kifu core: appends, read+verify, replay, time travel, cold audit.

Issue 2, deliverable 8. Generates a synthetic generic-game corpus under
``bench/out/`` (git-ignored) and prints each figure as the median of several
runs, with its target and PASS/MISS where the issue sets one. Ratios compare
with the floor: bare ``msgspec.json.decode`` of the same line bytes.

    python bench/bench_core.py            # 1,000,000-event corpus (a few minutes)
    python bench/bench_core.py --quick    # 100,000 events, fewer runs (CI smoke)

The peer is the ``eventsourcing`` library (``pip install '.[bench]'``),
rebuilding an aggregate from the same 2,000 events in memory.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from collections.abc import Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from kifu import app  # noqa: E402
from kifu.auditor import registry  # noqa: E402
from kifu.events import logfile, table  # noqa: E402
from kifu.events.codec import encode  # noqa: E402
from kifu.projector.base import Replay, frames  # noqa: E402

OUT = HERE / "out"
CODEC = table.codec("generic")
GENERIC = registry.game("generic")
PLAYERS = ("aoi", "ren")


# --- corpus ----------------------------------------------------------------------


def bodies(n: int, seed: int = 2) -> list[dict[str, Any]]:
    """``n`` events after match.start: notes and dice, fixed seed, fixed clock."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        at = f"2026-11-01T{10 + i // 3_600_000 % 14:02d}:{i // 60_000 % 60:02d}:{i // 1000 % 60:02d}.{i % 1000:03d}+09:00"
        by = PLAYERS[i % 2]
        if rng.random() < 0.5:
            out.append({"type": "note", "at": at, "by": by, "text": f"手札を{rng.randint(1, 9)}枚引いた / drew"})
        else:
            sides = rng.choice((2, 6, 20))
            values = [rng.randint(1, sides) for _ in range(rng.randint(1, 3))]
            out.append(
                {
                    "type": "random",
                    "at": at,
                    "by": by,
                    "kind": "die",
                    "sides": sides,
                    "values": values,
                    "expr": f"{len(values)}D{sides}",
                }
            )
    return out


START = {
    "type": "match.start",
    "format": "kifu/1",
    "game": "generic",
    "match": "bench",
    "at": "2026-11-01T10:00:00+09:00",
    "players": [{"id": p, "name": p.title()} for p in PLAYERS],
}


def write_corpus(path: Path, n: int) -> bytes:
    """A valid log of ``n`` events built in memory and written at once (not timed)."""
    data = b"".join(encode(e) + b"\n" for e in app.chain("generic", [START, *bodies(n - 1)]))
    path.write_bytes(data)
    return data


# --- timing ----------------------------------------------------------------------


def median_time(fn: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


class Table:
    def __init__(self) -> None:
        self.misses = 0

    def row(self, name: str, value: str, target: str = "", ok: bool | None = None) -> None:
        verdict = "" if ok is None else ("PASS" if ok else "MISS")
        self.misses += ok is False
        print(f"{name:<52} {value:>22}  {target:<22} {verdict}", flush=True)


def rate(n: int, seconds: float) -> str:
    return f"{n / seconds:,.0f} ev/s"


# --- the measurements -------------------------------------------------------------


def bench_appends(t: Table, floor: float, n_fast: int, n_durable: int, n_proc: int, runs: int) -> None:
    events = bodies(max(n_fast, n_durable, n_proc), seed=3)

    def writer_run(n: int, durable: bool) -> Callable[[], None]:
        def go() -> None:
            path = OUT / "append.jsonl"
            path.unlink(missing_ok=True)
            logfile.create(path, START)
            with logfile.Writer(path, durable=durable) as w:
                for e in events[:n]:
                    w.append(e)

        return go

    def per_process_run() -> None:
        path = OUT / "append1.jsonl"
        path.unlink(missing_ok=True)
        logfile.create(path, START)
        for e in events[:n_proc]:
            logfile.append(path, e)

    for name, n, run in (
        (f"append, Writer, no fsync ({n_fast:,})", n_fast, writer_run(n_fast, False)),
        (f"append, Writer, fsync each ({n_durable:,})", n_durable, writer_run(n_durable, True)),
        (f"append(), lock+head+fsync per event ({n_proc:,})", n_proc, per_process_run),
    ):
        r = n / median_time(run, runs)
        t.row(name, f"{r:,.0f} ev/s")
        t.row("  ratio to the floor", f"{r / floor:.1%}")


def floor_decode(data: bytes) -> None:
    decode = msgspec.json.decode
    for line in data.splitlines():
        decode(line)


def bench_floor(t: Table, data: bytes, n: int, runs: int) -> float:
    floor = n / median_time(lambda: floor_decode(data), runs)
    t.row(f"floor: msgspec.json.decode per line ({n:,})", f"{floor:,.0f} ev/s")
    return floor


def paired_ratio(fn: Callable[[], Any], data: bytes, runs: int) -> tuple[float, float]:
    """(median seconds of ``fn``, median of per-run floor/fn time ratios).

    Each run times the floor right before ``fn``, so load from other processes
    on a shared machine hits both sides of a ratio alike.
    """
    times, ratios = [], []
    for _ in range(runs):
        floor = median_time(lambda: floor_decode(data), 1)
        took = median_time(fn, 1)
        times.append(took)
        ratios.append(floor / took)
    return statistics.median(times), statistics.median(ratios)


def bench_read(t: Table, path: Path, data: bytes, n: int, runs: int) -> None:
    took, ratio = paired_ratio(lambda: logfile.verify(path), data, runs)
    t.row("read+decode+verify (logfile.verify)", rate(n, took))
    t.row("  ratio to the floor (paired runs)", f"{ratio:.0%}", "≥ 40%", ratio >= 0.40)


def bench_replay(t: Table, path: Path, data: bytes, n: int, runs: int) -> None:
    events = logfile.load(path).events
    options = registry.options(GENERIC, events[0])

    def replay() -> None:
        for _ in frames(GENERIC.projection, events, options):
            pass

    took, ratio = paired_ratio(replay, data, runs)
    t.row(f"replay from the start ({n:,}, decoded events)", rate(n, took))
    t.row("  ratio to the floor (paired runs)", f"{ratio:.0%}")


def state_at_latency(replay: Replay[Any], seqs: list[int]) -> float:
    """Median seconds of one warm ``state_at`` over ``seqs``."""
    times = []
    for seq in seqs:
        t = time.perf_counter()
        replay.state_at(seq)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def bench_state_at(t: Table, path: Path, samples: int) -> None:
    events = logfile.load(path).events
    options = registry.options(GENERIC, events[0])
    replay = Replay(GENERIC.projection, events, options)
    first = median_time(lambda: replay.state_at(len(events)), 1)
    t.row(f"state_at, first call (full replay, {len(events):,})", f"{first * 1000:,.1f} ms")
    rng = random.Random(5)
    warm = state_at_latency(replay, [rng.randint(1, len(events)) for _ in range(samples)])
    t.row(f"state_at warm, median of {samples} random seqs", f"{warm * 1000:.3f} ms", "≤ 5 ms", warm <= 0.005)


def peer_rebuild(events: list[dict[str, Any]], runs: int) -> float | None:
    """Median seconds for eventsourcing to rebuild one aggregate from ``events``."""
    try:
        from eventsourcing.application import Application
        from eventsourcing.domain import Aggregate, event
    except ImportError:
        return None

    class Match(Aggregate):
        @event("Started")
        def __init__(self, match: str) -> None:
            self.match = match
            self.notes = 0
            self.rolls: dict[str, int] = {}

        @event("Noted")
        def note(self, by: str, text: str) -> None:
            self.notes += 1

        @event("Rolled")
        def roll(self, by: str, values: list[int]) -> None:
            self.rolls[by] = self.rolls.get(by, 0) + 1

    app = Application()
    agg = Match(match="bench")
    for e in events:
        if e["type"] == "note":
            agg.note(by=e["by"], text=e["text"])
        else:
            agg.roll(by=e["by"], values=e["values"])
    app.save(agg)
    assert app.repository.get(agg.id).version == len(events) + 1
    return median_time(lambda: app.repository.get(agg.id), runs)


def bench_peer(t: Table, runs: int, samples: int) -> None:
    path = OUT / "peer.jsonl"
    write_corpus(path, 2000)
    events = logfile.load(path).events
    replay = Replay(GENERIC.projection, events, registry.options(GENERIC, events[0]))
    cold = median_time(lambda: Replay(GENERIC.projection, events, {}).state_at(2000), runs)
    replay.state_at(1)
    rng = random.Random(7)
    warm = max(
        state_at_latency(replay, [rng.randint(1, 2000) for _ in range(samples)]),
        state_at_latency(replay, [2000] * samples),
    )
    peer = peer_rebuild(bodies(1999), runs)
    t.row("state_at over 2,000 events, warm (worse of random/last)", f"{warm * 1000:.3f} ms")
    t.row("state_at over 2,000 events, cold (no snapshots yet)", f"{cold * 1000:.2f} ms")
    if peer is None:
        t.row("eventsourcing rebuild of 2,000 events", "not installed", "pip install '.[bench]'", False)
        return
    t.row("eventsourcing: rebuild aggregate from 2,000 events", f"{peer * 1000:.2f} ms")
    t.row("  peer rebuild / state_at warm", f"{peer / warm:,.0f}×", "≥ 20×", peer / warm >= 20)
    t.row("  peer rebuild / state_at cold (info)", f"{peer / cold:,.1f}×")


def bench_cold_audit(t: Table, runs: int) -> None:
    path = OUT / "audit2000.jsonl"
    write_corpus(path, 2000)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "kifu", "audit", str(path)]
    subprocess.run(cmd, env=env, capture_output=True, check=False)  # warm the OS page cache, not Python

    def once() -> None:
        r = subprocess.run(cmd, env=env, capture_output=True)
        if r.returncode not in (0, 1):
            raise SystemExit(f"kifu audit failed: {r.stderr.decode()}")

    s = median_time(once, runs)
    t.row("cold `kifu audit` of 2,000 events (subprocess)", f"{s:.3f} s", "≤ 0.3 s", s <= 0.3)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="100,000-event corpus and fewer runs")
    ap.add_argument("--events", type=int, help="corpus size (default 1,000,000; 100,000 with --quick)")
    args = ap.parse_args()
    n = args.events or (100_000 if args.quick else 1_000_000)
    runs = 3 if args.quick else 5
    OUT.mkdir(exist_ok=True)
    corpus = OUT / f"corpus-{n}.jsonl"
    data = corpus.read_bytes() if corpus.exists() else write_corpus(corpus, n)
    print(
        f"kifu core benchmark: {n:,}-event corpus ({len(data) / 1e6:,.0f} MB), medians of {runs} runs, "
        f"Python {sys.version.split()[0]}, msgspec {msgspec.__version__}"
    )
    t = Table()
    floor = bench_floor(t, data, n, runs)
    bench_appends(
        t,
        floor,
        n_fast=min(n, 100_000) // (4 if args.quick else 1),
        n_durable=500 if args.quick else 2000,
        n_proc=200 if args.quick else 1000,
        runs=3,
    )
    bench_read(t, corpus, data, n, runs)
    bench_replay(t, corpus, data, n, runs)
    log100k = OUT / "time-travel-100000.jsonl"
    if not log100k.exists():
        write_corpus(log100k, 100_000)
    bench_state_at(t, log100k, samples=200 if args.quick else 1000)
    bench_peer(t, runs, samples=200)
    bench_cold_audit(t, runs)
    for leftover in ("append.jsonl", "append1.jsonl"):
        (OUT / leftover).unlink(missing_ok=True)
    print(f"{t.misses} target(s) missed" if t.misses else "all targets met")
    return 1 if t.misses else 0


if __name__ == "__main__":
    sys.exit(main())
