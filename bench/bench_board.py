"""The match page with its board: page size and time for long simulated matches (issue 31).

    python bench/bench_board.py            # each game's longest simulated match, and Magic's with findings (~1 min)

For each game, a legal match from its seeded simulator (``bench/sims.py``) played as long
as the game lets it (ガンナガン, World Trigger and Weiss end by their own rules at a few
hundred events; Magic's simulator plays any number of turns: 400 turns, about 20,000
events), and that Magic match again with a line by nobody every 100 events (a
KIFU-LOG-002 finding each: about 200 findings, so the board also covers every finding's
neighbourhood). Each log is written under ``bench/out/board/`` (reused when present) and
its page rendered in process the way ``kifu report`` does (verify and audit, then fold and
draw), twice: with the game's board, and with the board left out (the reference, the page
as it was before boards). Printed: events, events the board draws, the page's size with
and without the board, and CPU seconds of each render. Target: every page ≤ 5 MB.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import msgspec

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import sims  # noqa: E402

import kifu  # noqa: E402
from kifu.auditor import registry  # noqa: E402

OUT = HERE / "out" / "board"
TARGET_MB = 5.0
TURNS = {"gunandgun": 400, "mtg": 400, "worldtrigger": 400, "weiss": 400}
"""More turns than any game but Magic plays: each match runs until the game ends it."""


def corpus() -> dict[str, Path]:
    """The logs: each game's long match, and Magic's with a line by nobody every 100 events."""
    logs = {}
    for game, turns in TURNS.items():
        path = OUT / f"{game}.jsonl"
        if not path.exists():
            sims.write(path, game, sims.play(game, 7, turns))
        logs[game] = path
    path = OUT / "mtg-findings.jsonl"
    if not path.exists():
        bodies: list[dict[str, Any]] = []
        for i, body in enumerate(sims.play("mtg", 7, TURNS["mtg"])):
            bodies.append(body)
            if i and i % 100 == 0:
                bodies.append({"type": "note", "by": "ghost", "text": f"a line by nobody {i}"})
        sims.write(path, "mtg", bodies)
    logs["mtg + findings"] = path
    return logs


def render(path: Path, board: bool) -> tuple[int, int, float]:
    """(page bytes, events drawn, CPU seconds) of ``kifu report`` of ``path`` (``kifu.report``), with or without
    the board."""
    t = time.process_time()
    real = registry.game

    def boardless(game_id: str) -> Any:
        g = real(game_id)
        return msgspec.structs.replace(g, parts=tuple(p for p in g.parts if p != "board"))

    if not board:
        registry.game = boardless  # type: ignore[assignment]  # the page and the audit look the game up by id
    try:
        text = kifu.report(path, "en").page
    finally:
        registry.game = real  # type: ignore[assignment]
    drawn = text.count(";", text.find('data-frames="'), text.find('"', text.find('data-frames="') + 13)) + 1
    return len(text.encode("utf-8")), drawn if board else 0, time.process_time() - t


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    print(
        f"{'match':<16}{'events':>8}{'drawn':>8}{'page':>10}{'no board':>10}{'cpu s':>8}{'no board':>10}   target ≤ 5 MB"
    )
    missed = 0
    for name, path in corpus().items():
        events = sum(1 for _ in path.open("rb"))
        size, drawn, secs = render(path, True)
        ref, _, ref_secs = render(path, False)
        ok = size / 1e6 <= TARGET_MB
        missed += not ok
        print(
            f"{name:<16}{events:>8,}{drawn:>8,}{size / 1e6:>9.2f}M{ref / 1e6:>9.2f}M{secs:>8.1f}{ref_secs:>10.1f}"
            f"   {'PASS' if ok else 'MISS'}"
        )
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
