"""How the work of a function grows with the size of its input, measured so that a busy machine cannot fail it.

The linearity tests (readers, whole imports, the BCDice parser, the token scanner) ask
one question: does reading ten times the text cost about ten times the work, or a
hundred times (a pattern that backtracks, a parser that rescans)? Work here is the CPU
time of a process of its own (``time.process_time`` in a forked child), never the wall
clock: other processes holding the CPUs delay the child but add nothing to its CPU time,
so the answer is the same on an idle machine and under three busy loops. (Counting
instructions would be better still, but the machines this suite runs on have no
hardware counters: ``perf stat -e instructions`` says "not supported".)

A case that grows too fast is stopped by the kernel at a CPU budget (``RLIMIT_CPU``)
proportional to its bound, so a quadratic reader fails in seconds instead of running
for minutes; the only wall-clock limit is a hang guard of minutes for a child that stops
using the CPU at all.
"""

from __future__ import annotations

import gc
import math
import multiprocessing
import resource
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

HANG_GUARD = 600
"""Wall-clock seconds after which a child that neither finishes nor spends CPU is taken as hung."""


@dataclass
class Step:
    """One size measured (or cut short) after the first."""

    size: int
    """Characters (or units) of input."""
    bound: float
    """The CPU seconds allowed: the reference's, scaled by the sizes, times the slack."""
    seconds: float | None
    """The CPU seconds taken (the least of the runs); None when the CPU budget stopped the child first."""

    @property
    def ok(self) -> bool:
        """True when the step stayed within its bound."""
        return self.seconds is not None and self.seconds <= self.bound


@dataclass
class Growth:
    """The work of one input at growing sizes."""

    base_size: int
    """The size of the reference measurement."""
    base_seconds: float
    """The reference's CPU seconds (raised to the floor)."""
    steps: list[Step] = field(default_factory=list)
    """The larger sizes in order; measuring stops at the first one over its bound."""

    @property
    def linear(self) -> bool:
        """True when every size stayed within its bound."""
        return all(s.ok for s in self.steps)

    def __str__(self) -> str:
        parts = [f"{self.base_size} -> {self.base_seconds * 1e3:.2f} ms CPU"]
        for s in self.steps:
            took = "stopped at its CPU budget" if s.seconds is None else f"{s.seconds * 1e3:.2f} ms"
            parts.append(f"{s.size} -> {took} (bound {s.bound * 1e3:.2f} ms)")
        return ", ".join(parts)


def cpu_seconds(run: Callable[[], object], runs: int) -> float:
    """The least CPU time of ``runs`` calls, the cyclic collector off (a collection landing in one
    run says nothing about the code measured); the inherited heap is frozen by the caller."""
    best = math.inf
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            start = time.process_time()
            run()
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return best


def _budget(seconds: float) -> None:
    """Let this process spend ``seconds`` more CPU time at most (the kernel stops it then)."""
    used = time.process_time()
    limit = math.ceil(used + seconds) + 1
    # The soft limits only (SIGXCPU ends the process, with no core file); a hard one could not be raised again.
    resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))
    resource.setrlimit(resource.RLIMIT_CPU, (limit, resource.getrlimit(resource.RLIMIT_CPU)[1]))


def _measure(
    make: Callable[[int], Callable[[], object]],
    sizes: Sequence[int],
    slack: float,
    floor: float,
    relative_to_previous: bool,
    runs: tuple[int, int],
    report: Connection,
) -> None:
    # The heap inherited from the test process (every test module collected, hundreds of MB in a
    # pytest-xdist worker) is not the code measured: frozen, the collections before each run skip it.
    # Unfrozen, each gc.collect() walked all of it, several times per size: seconds of CPU per case.
    gc.freeze()
    base_size = sizes[0]
    base = max(cpu_seconds(make(base_size), runs[0]), floor)
    report.send(("base", base_size, base))
    ref_size, ref = base_size, base
    for size in sizes[1:]:
        bound = ref * (size / ref_size) * slack
        run = make(size)  # building the input is not measured, nor budgeted
        _budget(2 * bound * runs[1] + 1)
        took = math.inf
        for _ in range(runs[1]):  # another run only while none was within the bound
            took = min(took, cpu_seconds(run, 1))
            if took <= bound:
                break
        report.send(("step", size, took, bound))
        if took > bound:
            return
        if relative_to_previous:
            ref_size, ref = size, max(took, floor)


def growth(
    make: Callable[[int], Callable[[], object]],
    sizes: Sequence[int],
    *,
    slack: float,
    floor: float,
    relative_to_previous: bool = False,
    runs: tuple[int, int] = (5, 2),
) -> Growth:
    """Measure ``make(size)()`` at each size in a forked child; each larger size may cost at most
    ``slack`` times the work of the first (or, ``relative_to_previous``, of the one before) scaled
    by the sizes. ``runs`` is how many runs of the first size are measured (the least counts), and
    how many of a larger size at most (one within its bound is enough). ``floor`` is the least CPU time a reference is taken as (timer resolution)."""
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_measure, args=(make, sizes, slack, floor, relative_to_previous, runs, send))
    child.start()
    send.close()
    result: Growth | None = None
    while True:
        if not receive.poll(HANG_GUARD):
            child.kill()  # hung: neither a measurement nor the end in minutes
            break
        try:
            message = receive.recv()
        except EOFError:
            break
        if message[0] == "base":
            result = Growth(message[1], message[2])
        else:
            assert result is not None
            result.steps.append(Step(message[1], message[3], message[2]))
    child.join(HANG_GUARD)
    if child.is_alive():
        child.kill()
        child.join()
    assert result is not None, f"the measuring child failed before its first measurement (exit {child.exitcode})"
    if child.exitcode != 0:
        # Stopped at its CPU budget (SIGXCPU) while measuring the next size: over its bound.
        done = {s.size for s in result.steps}
        nxt = next((s for s in sizes[1:] if s not in done), None)
        assert nxt is not None and child.exitcode < 0, f"the measuring child failed (exit {child.exitcode})"
        ref_size, ref = result.base_size, result.base_seconds
        if relative_to_previous and result.steps:
            ref_size, ref = result.steps[-1].size, max(result.steps[-1].seconds or 0.0, floor)
        result.steps.append(Step(nxt, ref * (nxt / ref_size) * slack, None))
    return result
