"""Many logs over the cores: ``kifu audit -j N`` and ``kifu ingest -j N`` share one ordered map.

``ordered(fn, items, jobs)`` gives ``fn(item)`` for each item in the items' order, whatever order the
workers finish in. With one job or one item it is a plain loop in this process (no pool at all);
otherwise worker processes start once (forked from this process when it runs no other thread, so
they import nothing; else from a fork server that imported kifu once), receive file paths in
chunks, and send back what ``fn`` returns: compact values (``judge`` returns msgspec-encoded bytes),
never the objects an audit builds.

``judged(paths, how, jobs)`` is ``kifu audit``'s use case over many logs: each log's report made in
the format asked (``judge``, the same function serially and in a worker), so the output of
``-j N`` is by construction the output of ``-j 1``.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec

from kifu.events.base import KifuError

from .reading import Progress

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")
R = TypeVar("R")


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says, else every core)."""
    counted = getattr(os, "process_cpu_count", None)  # Python 3.13+
    if counted is not None:
        return int(counted() or 1)
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no affinity on this system (macOS, Windows)
        return os.cpu_count() or 1


def chunk_size(items: int, jobs: int) -> int:
    """Items per message to a worker: about eight chunks per worker (a slow chunk does not hold the
    others back), at most 32 items (the results come back in order, as soon as a chunk is done)."""
    return max(1, min(32, items // (jobs * 8)))


def _started(preload: tuple[str, ...], setup: Callable[..., None] | None, args: tuple[Any, ...]) -> None:
    """Each worker's one set-up: the modules it needs imported (already there when forked), then ``setup(*args)``."""
    import importlib
    import signal

    for name in preload:
        importlib.import_module(name)
    # Ctrl-C reaches the whole process group: the parent stops the pool and says so in one line; a
    # worker interrupted mid-task would print a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A match's events, frames and steps are freed by their reference counts (they make no cycles):
    # the cyclic collector running every 700 new objects cost a worker 6 % of its time.
    gc.set_threshold(50_000, *gc.get_threshold()[1:])
    if setup is not None:
        setup(*args)


def ordered(
    fn: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    preload: tuple[str, ...] = (),
    setup: Callable[..., None] | None = None,
    args: tuple[Any, ...] = (),
    method: str | None = None,
) -> Iterator[R]:
    """``fn(item)`` of each item, in the items' order, over up to ``jobs`` worker processes.

    ``fn`` must be a module-level function (a worker finds it by name) and its results small
    (they are pickled back). ``preload``: modules a worker needs, imported once (by this process
    before it forks its workers, or by the fork server); ``setup(*args)`` runs once in each worker
    (a module-level function: what every task needs, sent once, not with each task). The workers start and every item is sent
    before this returns (so a progress bar's thread started after it is never forked); with one job
    or one item nothing starts and ``fn`` runs here, item by item, as the results are asked for.
    ``method``: how workers start (``fork``, ``forkserver``, ``spawn``; None: ``_pool`` chooses).
    """
    jobs = min(jobs, len(items))
    if jobs <= 1:
        return map(fn, items)
    pool = _pool(jobs, preload, setup, args, method)
    try:
        results = pool.map(fn, items, chunksize=chunk_size(len(items), jobs))
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    return _draining(pool, results)


class Workers:
    """Worker processes started now and kept for later tasks (``map``), until ``close``.

    For a caller that must start them before something else starts threads: ``kifu ingest``
    starts its workers, then connects to DuckDB (whose threads would make forking unsafe).
    """

    def __init__(
        self,
        jobs: int,
        preload: tuple[str, ...] = (),
        setup: Callable[..., None] | None = None,
        args: tuple[Any, ...] = (),
        method: str | None = None,
    ) -> None:
        self.jobs = jobs
        self._pool = _pool(jobs, preload, setup, args, method)
        try:
            self._pool.submit(int).result()  # forked workers all start at the first task: now, then
        except BaseException:
            self.close()
            raise

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        """``fn(item)`` of each item on the workers, in the items' order (every item sent before this returns)."""
        return iter(self._pool.map(fn, items, chunksize=chunk_size(len(items), self.jobs)))

    def close(self) -> None:
        """Stop the workers: what is queued is cancelled, what runs is waited for."""
        self._pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def warmed(
    fn: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    first: Iterable[int],
    preload: tuple[str, ...] = (),
    setup: Callable[..., None] | None = None,
    args: tuple[Any, ...] = (),
    method: str | None = None,
) -> Iterator[R]:
    """``ordered``, the items at the indices ``first`` done in this process before any worker starts.

    Their work sets up, once and here, what the lazy parts of kifu load on first use (a game's rules,
    its messages): forked workers then have it all. ``setup(*args)`` runs here first, as in a worker.
    """
    if min(jobs, len(items)) <= 1:
        return map(fn, items)
    if setup is not None:
        setup(*args)
    early = {i: fn(items[i]) for i in sorted(set(first))}
    rest = [x for i, x in enumerate(items) if i not in early]
    return merged(len(items), early, ordered(fn, rest, jobs, preload, setup, args, method))


def merged(count: int, early: dict[int, R], done: Iterator[R]) -> Iterator[R]:
    """The items done here and those the workers did, in the order given; the pool closed after the last."""
    for i in range(count):
        yield early[i] if i in early else next(done)
    for _ in done:  # nothing is left: this ends the workers' iterator, which shuts the pool down
        pass


def _draining(pool: ProcessPoolExecutor, results: Iterator[R]) -> Iterator[R]:
    """The results, the pool shut down after the last (or when the caller stops early: what is queued is
    cancelled, what runs is waited for)."""
    try:
        yield from results
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def threads() -> int:
    """Threads this process runs, native ones included (DuckDB's): the system's count where it has one."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        import threading

        return threading.active_count()


def _pool(
    jobs: int, preload: tuple[str, ...], setup: Callable[..., None] | None, args: tuple[Any, ...], method: str | None
) -> ProcessPoolExecutor:
    """Worker processes that start once: forked when this process runs one thread (they share what it
    imported and set up, nothing to redo); else from a fork server (forking a threaded process is
    unsafe: a lock another thread holds stays held in the child) that imports ``preload`` once,
    each worker then forked from it; on a system with neither, spawned.

    multiprocessing and concurrent.futures are imported here, not with this module: a command over one
    log (or with one job) starts no worker and should not pay for importing them (most of its imports)."""
    import importlib
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_all_start_methods, get_context

    methods = [method] if method else get_all_start_methods()
    if "fork" in methods and (method or threads() == 1):
        for name in preload:
            importlib.import_module(name)
        ctx: Any = get_context("fork")
    elif "forkserver" in methods:
        ctx = get_context("forkserver")
        ctx.set_forkserver_preload(list(preload))
    else:
        ctx = get_context(methods[-1] if method else "spawn")
    return ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_started, initargs=(preload, setup, args))


def firsts(paths: Sequence[str]) -> list[tuple[str, str] | None]:
    """The (game, match) each of ``paths`` names in its first line (``match.start``), None for a file that
    names none: only the first line is read, and what a file is wrong with is said when it is checked."""
    out: list[tuple[str, str] | None] = []
    for path in paths:
        try:
            with open(path, "rb") as f:
                first = _START.decode(f.readline(1 << 16))
        except (OSError, msgspec.DecodeError, msgspec.ValidationError):
            out.append(None)
            continue
        ok = isinstance(first.game, str) and isinstance(first.match, str)
        out.append((first.game, first.match) if ok else None)  # type: ignore[arg-type]
    return out


def games_of(paths: Sequence[str]) -> dict[str, int]:
    """Game id -> the index of the first of ``paths`` that names it in its first line (``firsts``)."""
    found: dict[str, int] = {}
    for i, named in enumerate(firsts(paths)):
        if named is not None:
            found.setdefault(named[0], i)
    return found


def game_modules(games: Iterable[str]) -> tuple[str, ...]:
    """The modules that describe ``games`` (their ``game`` parts: rules, projection), for a fork server to import."""
    from kifu.events import table

    return tuple(table.module_of(g, "game") for g in games if table.is_known(g))


class _Start(msgspec.Struct):
    game: object = None
    """The game the log names (anything, as written: only a string is taken)."""
    match: object = None
    """The match id the log names (as ``game``)."""


_START = msgspec.json.Decoder(_Start)


# --- kifu audit over many logs ------------------------------------------------------------------


class How(msgspec.Struct, frozen=True):
    """How each log's report is made: the same for every log of a run."""

    fmt: str
    """``text``, ``json``, ``jsonl``, ``md`` or ``html`` (a page, as ``kifu report`` draws it)."""
    lang: str
    """The language of the report and of the reason a log cannot be trusted (``en``, ``ja``)."""
    merged: bool = True
    """One finding per mistake, its consequences folded in (False: ``--all``)."""
    prefix: bool = False
    """Text reports start each line with the log's path (several logs)."""
    keep_going: bool = True
    """A log that cannot be trusted gives its reason (``Judged.error``) instead of raising it."""


class Judged(msgspec.Struct, frozen=True, array_like=True):
    """One log's report, made as ``how`` asked: what ``kifu audit`` prints for it."""

    path: str
    """The log as given."""
    text: str = ""
    """Its report in the format asked (for json, one document; the caller lists several)."""
    errors: bool = False
    """Some finding is of error severity (exit 1)."""
    error: str | None = None
    """Why the log cannot be trusted, naming file, line and field, in ``how.lang`` (exit 2)."""


PRELOAD = ("kifu.app.judging", "kifu.auditor.report")
"""What ``judge`` needs (and ``kifu.auditor.page`` for html): imported once, before the workers start."""

_ENCODE = msgspec.json.Encoder()
_DECODE = msgspec.json.Decoder(Judged)


def judge(path: str, how: How, progress: Progress | None = None) -> Judged:
    """One log audited and its report made as ``how`` asks (``kifu audit``'s work for one log)."""
    from kifu.auditor import report

    from .judging import audit, report as page

    try:
        if how.fmt == "html":  # the match page, as `kifu report` writes it
            made = page(path, how.lang, merged=how.merged, progress=progress)
            done, text = made.audit, made.page
        else:
            done = audit(path, merged=how.merged, progress=progress)
    except KifuError as exc:  # one untrusted log does not hide the others' reports
        if not how.keep_going:
            raise exc.located(path) from None
        return Judged(path, error=exc.located(path).render(how.lang))
    findings, code = done.findings, how.lang
    if how.fmt in ("json", "jsonl"):
        meta: dict[str, Any] = {"log": path, "game": done.game, "match": done.match, "head": done.head.hash}
        meta["events"] = done.head.seq
        text = report.as_json(findings, code, meta, done.voided, done.stances, done.provenance)
    elif how.fmt == "md":
        title = f"{path} ({done.game}, {done.match})"
        text = report.as_markdown(findings, code, title, done.voided, done.stances, done.provenance)
    elif how.fmt != "html":
        prefix = f"{path}: " if how.prefix else ""
        text = report.as_text(findings, code, prefix, done.voided, done.stances, done.provenance)
    return Judged(path, text, bool(done.errors))


def _judge_encoded(item: tuple[str, How]) -> bytes:
    """``judge`` in a worker: its result as JSON bytes (a string and three small values, no objects)."""
    return _ENCODE.encode(judge(*item))


def judged(
    paths: Sequence[str], how: How, jobs: int = 1, progress: Callable[[int], Progress | None] | None = None
) -> Iterator[Judged]:
    """Each log's report (``judge``), in the order of ``paths``, over up to ``jobs`` worker processes.

    ``progress(i)`` is asked, as log ``i`` starts, for a callback told the bytes read (one job only:
    the workers report nothing until a log is done). With more than one job, the workers have started
    and been sent every path when this returns.
    """
    if min(jobs, len(paths)) <= 1:
        return (judge(p, how, progress(i) if progress else None) for i, p in enumerate(paths))
    # Each game's first log is audited here, before the workers fork: its rules, messages and
    # report code are then set up once, in this process, and every worker has them.
    games = games_of(paths)
    preload = PRELOAD + (("kifu.auditor.page",) if how.fmt == "html" else ()) + game_modules(games)
    done = warmed(_judge_encoded, [(p, how) for p in paths], jobs, games.values(), preload)
    return map(_DECODE.decode, done)
