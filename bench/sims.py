"""Simulated matches of every game with a simulator, written as log files, for the benchmarks.

Each game's seeded simulator (its ``sim`` part, ``kifu/games/<id>/sim.py``) plays a legal
match; here its events are numbered, chained (``kifu.chain``) and written at once (building
a corpus is never timed).
The same seed gives the same bytes, so runs and branches compare on the same files.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

from kifu import app
from kifu.events import table
from kifu.events.codec import encode, line_hash

GAMES = tuple(g for g in table.ids() if table.has_part(g, "sim"))
"""Every game with a simulator (its ``sim`` part), in the order of the list of games."""


def play(game: str, seed: int, turns: int | None = None) -> list[dict[str, Any]]:
    """The event bodies of one simulated match of ``game`` (``simulate(seed, turns)``, every game's one signature)."""
    return table.part(game, "sim").simulate(seed, turns)


def turns(game: str) -> int:
    """Turns of a typical match of ``game`` (its simulator's ``TURNS``): 150–450 events."""
    return table.part(game, "sim").TURNS


def lines(game: str, bodies: list[dict[str, Any]]) -> list[bytes]:
    """The canonical lines of a match's event bodies, numbered and chained (``kifu.chain``)."""
    return [encode(e) for e in app.chain(game, bodies)]


def write(path: Path, game: str, bodies: list[dict[str, Any]]) -> int:
    """Write one match log; return its number of events."""
    data = lines(game, bodies)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(line + b"\n" for line in data))
    return len(data)


START = {"type": "match.start", "format": "kifu/1", "rules": {}}
"""What a writer that spells out defaults puts first in a ``match.start``."""


def write_as_given(path: Path, game: str, bodies: list[dict[str, Any]]) -> int:
    """Write one match log as another writer would: each mapping as the simulator gives it.

    Keys in the simulator's order with ``seq`` and ``prev`` last, and the defaults it spells
    out written (``"group":1``, ``"rules":{}``, ``"tags":["move"]``); ``prev`` is the hash of
    the line before as written. Every event is checked through the game's codec first.
    """
    codec = table.require(game)
    out, prev = [], None
    for seq, body in enumerate(bodies, 1):
        obj = {**START, **body} if seq == 1 else dict(body)
        obj["seq"], obj["prev"] = seq, prev
        codec.convert(obj, seq=seq)
        out.append(msgspec.json.encode(obj))
        prev = line_hash(out[-1])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(line + b"\n" for line in out))
    return len(out)


def corpus_as_given(root: Path, game: str, matches: int) -> list[Path]:
    """``corpus`` written by ``write_as_given``, under ``root/<game>-given-…/``."""
    folder = root / f"{game}-given-{matches}x{turns(game)}"
    paths = [folder / f"{seed:04d}.jsonl" for seed in range(matches)]
    if not all(p.exists() for p in paths):
        for seed, p in enumerate(paths):
            write_as_given(p, game, play(game, seed, turns(game)))
    return paths


def corpus(root: Path, game: str, matches: int, turns_: int | None = None) -> list[Path]:
    """``matches`` simulated matches of ``game`` under ``root/game/`` (reused when present)."""
    n = turns(game) if turns_ is None else turns_
    folder = root / f"{game}-{matches}x{n}"
    paths = [folder / f"{seed:04d}.jsonl" for seed in range(matches)]
    if not all(p.exists() for p in paths):
        for seed, p in enumerate(paths):
            write(p, game, play(game, seed, n))
    return paths


# --- measuring (shared by the benchmarks that time kifu against a floor or a peer) ---------------------


def floor(datas: list[bytes]) -> float:
    """CPU seconds to decode every line, untyped: what any reader of the lines must at least pay."""
    decode = msgspec.json.decode
    t = time.process_time()
    for data in datas:
        for line in data.splitlines():
            decode(line)
    return time.process_time() - t


def cpu_of(cmd: list[str], env: dict[str, str], codes: tuple[int, ...] = (0, 1)) -> float:
    """CPU seconds (user + system, from ``wait4``) of one process running ``cmd``; it must exit with one
    of ``codes`` (an audit exits 1 on error findings).

    CPU time, not wall time: on a machine shared with other work, waiting for a core would count
    against whichever side of a ratio happened to wait.
    """
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read() if proc.stderr else b""
    if os.waitstatus_to_exitcode(status) not in codes:
        raise SystemExit(f"{' '.join(cmd[:4])} … failed: {err.decode(errors='replace')[-300:]}")
    return usage.ru_utime + usage.ru_stime


class Paired(NamedTuple):
    """Medians of kifu's runs and of the yardstick measured beside each of them."""

    reference: float
    """The yardstick's figure (the floor's CPU seconds, python-chess's µs per move)."""
    cpu: float
    """CPU seconds of kifu's process over the corpus, cold start included."""
    cold: float
    """CPU seconds of the same command on ``tiny``'s log: its cold start."""
    ratio: float
    """The median of the per-run ratios (each run against the yardstick measured right before it)."""


def paired(
    run: Callable[[list[Path]], float],
    paths: list[Path],
    cold_log: Path,
    reference: Callable[[], float],
    ratio: Callable[[float, float], float],
    runs: int,
) -> Paired:
    """``run`` (CPU seconds of a kifu process over some logs) over ``paths``, each time right after
    ``reference()``; ``ratio(reference, kifu's CPU less its cold start)`` of each pair. The cold start is
    ``run([cold_log])``'s median; one run of each first warms the page cache and the .pyc files."""
    run([cold_log])
    run(paths)
    cold = statistics.median(run([cold_log]) for _ in range(runs))
    refs, cpus, ratios = [], [], []
    for _ in range(runs):
        r = reference()
        c = run(paths)
        refs.append(r)
        cpus.append(c)
        ratios.append(ratio(r, c - cold))
    return Paired(statistics.median(refs), statistics.median(cpus), cold, statistics.median(ratios))


def tiny(root: Path, game: str) -> Path:
    """match.start and match.end of ``game``: the cold start of a command on that game's logs."""
    path = root / f"tiny-{game}.jsonl"
    first = play(game, 0, 1)[0]
    write(path, game, [first, {"type": "match.end", "by": "judge", "reason": "bench"}])
    return path
