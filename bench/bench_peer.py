"""`kifu audit` CPU per event against python-chess's legality-checked PGN replay per move, in one run (issue 27).

    pip install '.[bench]'                  # python-chess, the yardstick (bench only)
    python bench/bench_peer.py              # 120 matches per game, 600 chess games, medians of 5 runs
    python bench/bench_peer.py --quick      # 40 matches per game, 200 chess games, 3 runs
    python bench/bench_peer.py --games gunandgun mtg

The yardstick: python-chess reading random games from PGN (``chess.pgn.read_game``, whose
SAN parser finds each move among the position's legal moves: a move that is not legal is
an error) and replaying each on a board (``Board.push``): a well-kept library checking every
move of a recorded game against the rules, as kifu checks every event of a recorded match. Its games are generated here from a fixed seed
(random legal moves, at most 120 plies; ``bench/out/peer/``), so every run and branch
replays the same moves. Its figure is CPU µs per move, in this process, timed right
before each kifu run.

kifu: ``python -m kifu audit FILE…`` over each game's simulated matches (``bench/sims.py``,
the corpus ``bench_audit.py`` uses), as a user runs it: read, verify, fold, every rule, the
text report. CPU time (user + system of the child, ``wait4``) less the cold start (the same
command on a two-event log of the game), over the events; the files are named again until
a run audits at least 60,000 events. Target: kifu's µs per event ≤ 0.5 × python-chess's µs
per move (the median of the per-run ratios). Without python-chess the script says SKIP and
exits 0.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import sims  # noqa: E402

OUT = HERE / "out"
TARGET = 0.5
EVENTS = 60_000
"""Events audited per run, at least (the corpus named again as needed)."""
SEED = 27
PLIES = 120
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "KIFU_LANG": "en"}


def pgn_corpus(chess: Any, games: int) -> str:
    """``games`` random games as PGN text, from ``SEED``: each move drawn among the legal ones."""
    path = OUT / "peer" / f"random-{SEED}-{games}.pgn"
    if path.exists():
        return path.read_text()
    rnd = random.Random(SEED)
    out = []
    for i in range(games):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < PLIES:
            board.push(rnd.choice(list(board.legal_moves)))
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = f"random {i}"
        out.append(str(game))
    text = "\n\n".join(out) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return text


def replay(chess: Any, text: str) -> tuple[float, int]:
    """CPU seconds to read every game of ``text`` (each move checked legal as it is parsed) and replay it; the moves."""
    moves = 0
    t = time.process_time()
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        board = game.board()
        if game.errors:
            raise SystemExit(f"{game.headers['Event']}: {game.errors[0]}")
        for move in game.mainline_moves():
            board.push(move)
            moves += 1
    return time.process_time() - t, moves


def run_cli(paths: list[Path]) -> float:
    """CPU seconds of one ``kifu audit`` process over ``paths`` (exit 0 or 1: findings are fine)."""
    return sims.cpu_of([sys.executable, "-m", "kifu", "audit", *map(str, paths)], ENV)


def bench_game(chess: Any, text: str, game: str, matches: int, runs: int) -> bool:
    paths = sims.corpus(OUT / "sims", game, matches)
    per = sum(p.read_bytes().count(b"\n") for p in paths)
    paths = paths * max(1, -(-EVENTS // per))
    n = per * (len(paths) // matches)

    def peer() -> float:
        seconds, moves = replay(chess, text)
        return seconds / moves * 1e6

    m = sims.paired(run_cli, paths, sims.tiny(OUT / "sims", game), peer, lambda p, c: c / n * 1e6 / p, runs)
    peer_us, cold, ratio = m.reference, m.cold, m.ratio
    ours = (m.cpu - cold) / n * 1e6
    ok = ratio <= TARGET
    print(
        f"{game:<13} {n:>8,} {cold:>6.3f} {ours:>10.2f} {peer_us:>10.2f} {ratio:>7.2f}×  ≤ {TARGET}×  "
        f"{'PASS' if ok else 'MISS'}",
        flush=True,
    )
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="40 matches per game, 200 chess games, 3 runs")
    ap.add_argument("--matches", type=int, help="matches per game (default 120; 40 with --quick)")
    ap.add_argument("--chess-games", type=int, help="random chess games (default 600; 200 with --quick)")
    ap.add_argument("--runs", type=int, help="runs per figure (default 5; 3 with --quick)")
    ap.add_argument("--games", nargs="+", choices=sims.GAMES, default=list(sims.GAMES))
    args = ap.parse_args()
    try:
        import chess
        import chess.pgn
    except ImportError:
        print("SKIP: python-chess is not installed (pip install '.[bench]'): no yardstick, nothing measured")
        return 0
    matches = args.matches or (40 if args.quick else 120)
    games = args.chess_games or (200 if args.quick else 600)
    runs = args.runs or (3 if args.quick else 5)
    text = pgn_corpus(chess, games)
    print(
        f"kifu audit vs python-chess {chess.__version__}: {matches} simulated matches per game, {games} random "
        f"chess games (seed {SEED}), medians of {runs} runs, Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'game':<13} {'events':>8} {'cold s':>6} {'kifu µs/ev':>10} {'chess µs/mv':>10} {'ratio':>8}")
    results = [bench_game(chess, text, g, matches, runs) for g in args.games]
    print(f"load after: {os.getloadavg()[0]:.1f}")
    missed = results.count(False)
    print(f"{missed} target(s) missed" if missed else "all targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
