"""Simulated matches of the four games written as log files, for the benchmarks.

Each game's seeded simulator (``kifu/games/<id>/sim.py``) plays a legal match; here its
events are numbered, chained and written at once (building a corpus is never timed).
The same seed gives the same bytes, so runs and branches compare on the same files.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any
from collections.abc import Callable

import msgspec

from kifu.events import games
from kifu.events.codec import encode, line_hash

GAMES = ("gunandgun", "mtg", "worldtrigger", "weiss")


def _gunandgun(seed: int, turns: int) -> list[dict[str, Any]]:
    from kifu.games.gunandgun import sim

    return sim.simulate(random.Random(seed), f"gg-{seed}", turns)


def _mtg(seed: int, turns: int) -> list[dict[str, Any]]:
    from kifu.games.mtg import sim

    return sim.legal_match(seed, turns)


def _worldtrigger(seed: int, turns: int) -> list[dict[str, Any]]:
    from kifu.games.worldtrigger import sim

    start, events = sim.match(seed, turns, match_id=f"wt-{seed}")
    return [{"type": "match.start", "format": "kifu/1", **start}, *events]


def _weiss(seed: int, turns: int) -> list[dict[str, Any]]:
    from kifu.games.weiss import sim

    return [msgspec.to_builtins(e) for e in sim.play_match(seed, turns, f"ws-{seed}")]


PLAY: dict[str, Callable[[int, int], list[dict[str, Any]]]] = {
    "gunandgun": _gunandgun,
    "mtg": _mtg,
    "worldtrigger": _worldtrigger,
    "weiss": _weiss,
}
TURNS = {"gunandgun": 14, "mtg": 8, "worldtrigger": 10, "weiss": 8}
"""Turns of a typical match: 150–450 events each (Magic's flips are few per turn)."""


def lines(game: str, bodies: list[dict[str, Any]]) -> list[bytes]:
    """The canonical lines of a match's event bodies, numbered and chained."""
    codec = games.codec(game)
    prev = None
    out = []
    for seq, body in enumerate(bodies, start=1):
        body = {k: v for k, v in body.items() if k not in ("seq", "prev")}
        line = encode(codec.convert({**body, "seq": seq, "prev": prev}))
        out.append(line)
        prev = line_hash(line)
    return out


def write(path: Path, game: str, bodies: list[dict[str, Any]]) -> int:
    """Write one match log; return its number of events."""
    data = lines(game, bodies)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(line + b"\n" for line in data))
    return len(data)


def corpus(root: Path, game: str, matches: int, turns: int | None = None) -> list[Path]:
    """``matches`` simulated matches of ``game`` under ``root/game/`` (reused when present)."""
    turns = TURNS[game] if turns is None else turns
    folder = root / f"{game}-{matches}x{turns}"
    paths = [folder / f"{seed:04d}.jsonl" for seed in range(matches)]
    if not all(p.exists() for p in paths):
        for seed, p in enumerate(paths):
            write(p, game, PLAY[game](seed, turns))
    return paths
