"""Simulated matches of every game with a simulator, written as log files, for the benchmarks.

Each game's seeded simulator (its ``sim`` part, ``kifu/games/<id>/sim.py``) plays a legal
match; here its events are numbered, chained (``kifu.chain``) and written at once (building
a corpus is never timed).
The same seed gives the same bytes, so runs and branches compare on the same files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kifu import app
from kifu.events import table
from kifu.events.codec import encode

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


def corpus(root: Path, game: str, matches: int, turns_: int | None = None) -> list[Path]:
    """``matches`` simulated matches of ``game`` under ``root/game/`` (reused when present)."""
    n = turns(game) if turns_ is None else turns_
    folder = root / f"{game}-{matches}x{n}"
    paths = [folder / f"{seed:04d}.jsonl" for seed in range(matches)]
    if not all(p.exists() for p in paths):
        for seed, p in enumerate(paths):
            write(p, game, play(game, seed, n))
    return paths
