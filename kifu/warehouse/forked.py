"""``--cluster local:N``: a local Dask cluster whose N worker processes kifu forks itself, first thing.

Dask's own ``LocalCluster`` *spawns* each worker (a fresh interpreter that imports distributed,
then kifu, DuckDB and each game again on its first task: about 3.5 s of CPU before the first log
on this machine). Forking shares what this process imported, but forking a process that runs
other threads is unsafe (a lock another thread holds stays held in the child; a module's thread
pool has no thread there). So the workers are forked **before any other thread exists**:

1. this process imports what the workers need (distributed, DuckDB, the games the logs name),
   with OpenBLAS told to start no thread of its own (numpy, which distributed imports, would
   start one; kifu does no linear algebra), and checks it runs exactly one thread (the
   system's count, native ones included); otherwise the caller spawns workers as Dask does;
2. it forks the N workers, each holding the read end of a pipe of its own;
3. it starts the scheduler (in a thread of its own, now that nothing forks any more) and writes
   the scheduler's address into each pipe; each worker runs a ``distributed.Worker`` (one
   thread) against it;
4. at the end it closes the pipes and waits for each worker to exit.

A worker stops when its pipe ends: this process closed it, or died (a SIGKILL leaves no
orphan: the system closes a dead process's files, and only this process holds the write
ends), or when its scheduler goes away. Ctrl-C reaches the whole process group; the workers
ignore it and stop when this process stops them.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import os
import signal
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NoReturn

from kifu.app.batch import threads

if TYPE_CHECKING:
    from distributed import Client

CLOCKS = {
    "distributed.admin.tick.interval": "1s",  # the event loop's health check (a warning if blocked): 20 ms
    "distributed.admin.system-monitor.interval": "5s",  # CPU and memory figures for a dashboard: 500 ms
    "distributed.worker.memory.monitor-interval": "1s",  # spill and pause checks: 100 ms
    "distributed.worker.profile.enabled": False,  # a sampling profiler walking the task's stack every 10 ms
}
"""Dask's own periodic work, made rarer: it costs CPU per second of wall time, not per log (idle, a
``local:1`` cluster spent 36 ms of CPU a second with Dask's defaults, 7 ms with these), so on a busy
machine, where an ingest takes longer, it grew with the load. Nobody reads what it feeds here."""

NEEDED = ("distributed", "duckdb", "kifu.app", "kifu.warehouse.cluster", "kifu.warehouse.ingest")
"""What every worker imports anyway: imported once, here, before the workers fork."""


@dataclass
class Forked:
    """Worker processes forked and waiting for their scheduler's address."""

    pids: list[int] = field(default_factory=list)
    """The workers' process ids (this process's children)."""
    pipes: list[int] = field(default_factory=list)
    """The write end of each worker's pipe: the address goes through it; its closing stops the worker."""

    def tell(self, address: str) -> None:
        """Send the scheduler's address to every worker."""
        for w in self.pipes:
            os.write(w, address.encode() + b"\n")

    def exited(self) -> list[int]:
        """The workers that have exited already (reaped here)."""
        gone = []
        for pid in self.pids:
            with contextlib.suppress(ChildProcessError):
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    gone.append(pid)
        self.pids = [p for p in self.pids if p not in gone]
        return gone

    def stop(self) -> None:
        """Close the pipes (each worker then stops) and wait for every worker to exit."""
        for w in self.pipes:
            with contextlib.suppress(OSError):
                os.close(w)
        self.pipes = []
        for pid in self.pids:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
        self.pids = []


def no_blas_threads() -> None:
    """Tell OpenBLAS (loaded with numpy, which distributed imports) to start no thread of its own: kifu
    does no linear algebra, and a thread would make forking unsafe. Nothing changes once numpy is loaded."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def fork_workers(count: int, modules: Iterable[str] = ()) -> Forked | None:
    """``count`` worker processes forked now (see the module docstring); None where forking is not
    safe here (another thread runs, or the system cannot fork): the caller spawns them instead."""
    if not hasattr(os, "fork") or not os.path.isdir("/proc/self/task"):
        return None  # no fork, or no way to count native threads
    no_blas_threads()
    for name in (*NEEDED, *modules):
        importlib.import_module(name)
    if threads() != 1:
        return None
    forked = Forked()
    sys.stdout.flush()
    sys.stderr.flush()
    for _ in range(count):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(w)
            for other in forked.pipes:  # only the command holds write ends: its death ends every pipe
                os.close(other)
            _worker(r)
        os.close(r)
        forked.pids.append(pid)
        forked.pipes.append(w)
    return forked


def _worker(pipe: int) -> NoReturn:
    """A forked worker's whole life: the scheduler's address from ``pipe``, then a Dask worker until the pipe ends."""
    code = 70
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        address = _address(pipe)
        if address:
            asyncio.run(_serve(address, pipe))
        code = 0
    except BaseException:  # noqa: BLE001 - nothing to say it to: the command sees the worker exit unregistered
        pass
    finally:
        os._exit(code)  # never the command's own exit handlers, nor its buffered output


def _address(pipe: int) -> str:
    """The line the command writes into ``pipe``: '' when the pipe ends first (the command stopped)."""
    got = b""
    while not got.endswith(b"\n"):
        more = os.read(pipe, 256)
        if not more:
            return ""
        got += more
    return got.decode().strip()


async def _serve(address: str, pipe: int) -> None:
    import dask
    from distributed import Worker

    dask.config.set(CLOCKS)
    # Tasks return their failures: what Dask's loggers would say (its closing included) lands among kifu's lines.
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    ended = asyncio.Event()
    asyncio.get_running_loop().add_reader(pipe, ended.set)  # readable again only at its end
    async with Worker(address, nthreads=1, host="127.0.0.1", silence_logs=logging.CRITICAL, dashboard=False) as worker:
        waits = {asyncio.ensure_future(worker.finished()), asyncio.ensure_future(ended.wait())}
        _, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for p in pending:
            p.cancel()


@contextlib.contextmanager
def client(forked: Forked) -> Iterator[Client]:
    """A client of a scheduler started here for the ``forked`` workers, every one of them registered;
    the scheduler closed and the workers stopped after."""
    import dask
    from distributed import Client, LocalCluster

    from kifu.events.base import KifuError
    from kifu.events.i18n import Msg

    # A forked worker that dies (killed, out of memory) never comes back (no nanny restarts it): once none
    # is left, the tasks waiting for one fail (the ingest then says so in one line) instead of waiting forever.
    settings = dask.config.set({**CLOCKS, "distributed.scheduler.no-workers-timeout": "5s"})
    try:
        with (
            settings,
            LocalCluster(
                n_workers=0,
                processes=False,  # the scheduler only, in this process; the workers are the forked ones
                protocol="tcp://",
                host="127.0.0.1",
                scheduler_port=0,
                dashboard_address=":0",  # its HTTP server (health, metrics) runs anyway: on a free port
                silence_logs=logging.CRITICAL,
            ) as cluster,
            Client(cluster) as c,
        ):
            forked.tell(cluster.scheduler_address)
            count = len(forked.pids)
            while len(c.scheduler_info(n_workers=-1).get("workers", {})) < count:
                try:
                    c.wait_for_workers(count, timeout=5)
                except TimeoutError:
                    if forked.exited():  # a worker that ended before it registered never will
                        raise KifuError(Msg("cluster.local_worker_lost")) from None
            yield c
    finally:
        forked.stop()
