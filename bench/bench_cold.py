"""Cold start: `kifu audit` and `kifu verify` of a 2,000-event log as fresh processes (issue 27).

    python bench/bench_cold.py              # medians of 15 runs
    python bench/bench_cold.py --runs 31

The log is a simulated Magic match of 2,000 events (``bench/sims.py``, seed 0, cut at 2,000;
``bench/out/sims/``). The commands run as from an installed package: in a virtual environment
of their own (``bench/out/cold-venv``, made once, no pip) whose one ``.pth`` file names this
tree and the libraries of the environment running the script, so an editable install's
import hook (``pip install -e``: about as long as a command's own imports here) is not paid,
and with kifu's modules compiled to bytecode first (``compileall``), as an install does. Each command runs ``--runs`` times as a
fresh ``python -m kifu`` process; its CPU time (user + system of the child, from ``wait4``)
and wall time are printed as medians, with the interpreter's own start (``python -c pass``)
msgspec alone (``python -c "import msgspec"``: every command reads its log with it, the floor of
the plain forms of verify and audit, which import neither typer nor click since issue 27) and
msgspec with typer (what every other command imports) measured in the same run, and the load
average. Target: ≤ 0.12 s for each command; the verdict is on
CPU time, which the neighbours' load moves far less than the wall time (printed beside it).
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import sims  # noqa: E402

OUT = HERE / "out" / "sims"
TARGET = 0.12
EVENTS = 2000
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"KIFU_LANG": "en"}
VENV = HERE / "out" / "cold-venv"


def installed_python() -> str:
    """The interpreter of ``VENV``: this tree and this environment's libraries on its path, no import hook."""
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(VENV)], check=True)
    libs = [p for p in sys.path if p.endswith("site-packages")]
    site = next(VENV.glob("lib/python*/site-packages"))
    (site / "kifu-bench.pth").write_text("\n".join([str(ROOT), *libs]) + "\n")
    return str(python)


def log_of_2000() -> Path:
    """A simulated Magic match cut at 2,000 events."""
    path = OUT / f"cold-mtg-{EVENTS}.jsonl"
    if not path.exists():
        sims.write(path, "mtg", sims.play("mtg", 0, EVENTS // 30 + 3)[:EVENTS])
    return path


def once(cmd: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of ``cmd``; it must exit 0 or 1."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=15, help="runs per command (default 15)")
    args = ap.parse_args()
    compileall.compile_dir(ROOT / "kifu", quiet=1)
    log = log_of_2000()
    assert log.read_bytes().count(b"\n") == EVENTS
    python = installed_python()
    commands = {
        "python -c pass": [python, "-c", "pass"],
        "python -c 'import msgspec'": [python, "-c", "import msgspec"],
        "python -c 'import msgspec, typer'": [python, "-c", "import msgspec, typer"],
        "kifu verify (2,000 events)": [python, "-m", "kifu", "verify", str(log)],
        "kifu audit (2,000 events)": [python, "-m", "kifu", "audit", str(log)],
    }
    print(
        f"cold start: medians of {args.runs} runs, Python {sys.version.split()[0]}, {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'command':<38} {'cpu s':>7} {'wall s':>7}")
    for cmd in commands.values():
        once(cmd)  # page cache, not timed
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(args.runs):  # the commands in turn, so a change of load touches each alike
        for name, cmd in commands.items():
            results[name].append(once(cmd))
    missed = 0
    for name, runs in results.items():
        cpu = statistics.median(c for c, _ in runs)
        wall = statistics.median(w for _, w in runs)
        verdict = ""
        if name.startswith("kifu"):
            ok = cpu <= TARGET
            missed += not ok
            verdict = f"  ≤ {TARGET} s  {'PASS' if ok else 'MISS'}"
        print(f"{name:<38} {cpu:>7.3f} {wall:>7.3f}{verdict}", flush=True)
    print(f"load after: {os.getloadavg()[0]:.1f}")
    print(f"{missed} target(s) missed" if missed else "all targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
