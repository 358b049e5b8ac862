"""Verifiable tosses at scale (issue 18): audit, `kifu verify`'s count and chat import of many commit–reveal tosses.

Usage (from the repository root):

    PYTHONPATH=. python bench/bench_rng.py             # 2,500 tosses of 4 coins (10,000 verifiable outcomes)
    PYTHONPATH=. python bench/bench_rng.py --tosses 250 --runs 3

Inputs are built under bench/out/ (git-ignored) from fixed secrets, so every machine
times the same bytes: a generic match log of TOSSES tosses (commit, nonce, reveal and
a `random` event of four coins naming the commitment, rollers alternating) and a
CCFOLIA export of the same tosses as chat lines (the reveal posting its coins).
Medians of the runs are printed with the targets below and PASS/MISS:

* the whole audit of the match (every rule, the KIFU-RNG ones included): ≤ 100 µs per
  verifiable outcome (1 s for 10,000);
* `kifu verify`'s count of verifiable outcomes, on top of verifying: ≤ 50 µs per outcome;
* importing the chat: ≥ 2,000 messages per second (a token message is read, folded and
  turned into events; a plain message costs what it did before).
"""

from __future__ import annotations

import argparse
import hashlib
import html
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from collections.abc import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kifu.auditor import registry  # noqa: E402
from kifu.auditor.tally import Tally  # noqa: E402
from kifu.events import importers, logfile, rng  # noqa: E402

OUT = ROOT / "bench" / "out"
COINS = 4


def _secret(i: int) -> bytes:
    return hashlib.sha256(f"bench toss {i}".encode()).digest()


def tosses(n: int) -> list[tuple[str, str, rng.Commitment, rng.Nonce, rng.Reveal]]:
    out = []
    for i in range(n):
        roller, other = ("a", "b") if i % 2 == 0 else ("b", "a")
        c = rng.commit(_secret(i))
        nonce = rng.Nonce(id=c.id, text=f"n{i:08d}")
        out.append((roller, other, c, nonce, rng.reveal(_secret(i), nonce)))
    return out


def match_log(path: Path, n: int) -> None:
    start = {
        "type": "match.start",
        "game": "generic",
        "match": f"rng-{n}",
        "rules": {"verified_random": True},
        "players": [{"id": "a", "name": "Aoi"}, {"id": "b", "name": "Ren"}],
    }
    logfile.create(path, start)
    with logfile.Writer(path, durable=False) as w:
        for roller, other, c, nonce, r in tosses(n):
            w.append({"type": "rng.commit", "by": roller, "id": c.id, "digest": c.digest})
            w.append({"type": "rng.nonce", "by": other, "id": c.id, "nonce": nonce.text})
            w.append({"type": "rng.reveal", "by": roller, "id": c.id, "secret": r.secret, "nonce": r.nonce})
            w.append(
                {
                    "type": "random",
                    "by": roller,
                    "kind": "coin",
                    "sides": 2,
                    "values": r.outcomes([2] * COINS),
                    "rng": {"commit": c.id},
                }
            )


def chat(path: Path, n: int) -> int:
    """A classic CCFOLIA export of the tosses: commit, nonce, reveal with its coins, and a chat line each."""
    names = {"a": "ミナト", "b": "ユキ"}
    rows = []
    for roller, other, c, nonce, r in tosses(n):
        rows += [
            (names[roller], c.format()),
            (names[other], nonce.format()),
            (names[roller], f"{r.format()} {rng.format_claims(rng.draw(r, [2] * COINS))}"),
            (names[other], "了解です"),
        ]
    body = "".join(
        f'\n<p style="color:#e91e63;">\n  <span> [main]</span>\n  <span>{html.escape(who)}</span> :\n'
        f"  <span>\n    {html.escape(text)}\n  </span>\n</p>\n"
        for who, text in rows
    )
    path.write_text(
        '<!DOCTYPE html>\n<html lang="ja">\n  <head>\n    <meta charset="UTF-8" />\n'
        f"    <title>ccfolia - logs</title>\n  </head>\n  <body>\n{body}\n  </body>\n</html>\n",
        encoding="utf-8",
    )
    return len(rows)


def _median(fn: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tosses", type=int, default=2500)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    log = OUT / f"rng-{args.tosses}.jsonl"
    if not log.exists():
        match_log(log, args.tosses)
    export = OUT / f"rng-chat-{args.tosses}.html"
    messages = chat(export, args.tosses)
    outcomes = args.tosses * COINS
    events = logfile.load(log).events

    findings = registry.audit(events)
    assert not findings, findings[:3]
    audit = _median(lambda: registry.audit(events), args.runs)

    def counted() -> None:
        t = Tally()
        logfile.verify(log, each=t.add_all)
        assert t.verifiable == outcomes

    plain = _median(lambda: logfile.verify(log), args.runs)
    with_count = _median(counted, args.runs)

    def imported() -> None:
        with tempfile.TemporaryDirectory() as d:
            report = importers.import_file(export, Path(d) / "chat.jsonl")
            assert report.rng == 3 * args.tosses, report.rng

    imp = _median(imported, args.runs)

    ok = True
    per = audit / outcomes * 1e6
    print(f"{log.name}: {len(events)} events, {outcomes} verifiable outcomes ({args.tosses} tosses × {COINS} coins)")
    print(f"  audit (all rules)          {audit:8.3f} s  {per:8.1f} µs/outcome   target ≤ 100  {_verdict(per <= 100)}")
    ok &= per <= 100
    extra = max(0.0, with_count - plain) / outcomes * 1e6
    print(f"  verify                     {plain:8.3f} s")
    print(
        f"  verify + count             {with_count:8.3f} s  {extra:8.1f} µs/outcome   target ≤ 50   {_verdict(extra <= 50)}"
    )
    ok &= extra <= 50
    rate = messages / imp
    print(f"{export.name}: {messages} messages")
    print(f"  kifu import                {imp:8.3f} s  {rate:8.0f} msg/s        target ≥ 2000 {_verdict(rate >= 2000)}")
    ok &= rate >= 2000
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
