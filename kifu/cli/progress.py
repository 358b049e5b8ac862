"""Progress bars on stderr: only on a terminal, only for long work.

Verify, audit, report, import and ingest show one; pipes, CI logs and tests
stay clean, and short commands neither flash a bar nor pay for importing rich.
"""

from __future__ import annotations

import itertools
import os
import sys
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterable, Iterator, Sequence


from kifu.events.display import visible

from .say import Lang, echo, msg

BIG_LOGS = 4 << 20
"""Bytes of log (about 20,000 events) below which verify, audit and report end in well under a second."""
BIG_SOURCE = 2 << 20
"""Bytes of export (about 10,000 messages) below which an import ends in well under a second."""
MANY = 50
"""This many logs are long work whatever their size: each costs an open, a start and a report."""
BLOCK = 16384
"""Records or items between two reports to a bar (a few a second on a big log; it redraws 4 times a second).

Blocks are taken with ``islice`` so the per-record loop stays in C: reading with a
bar is as fast as ``logfile.verify``, within the noise of a shared machine.
"""


class Bar:
    """One progress task on stderr, or (not live) a bar that does nothing.

    While a bar is live and stdout is the same terminal, stdout lines are held
    and printed once the bar is gone, so the two never tear each other's lines;
    a pipe gets them as they come.
    """

    def __init__(self, progress: Any = None, label: str = "", total: float | None = None, hold: bool = False) -> None:
        self._progress = progress
        self._task = progress.add_task(label, total=total, note="") if progress is not None else None
        self._hold = hold
        self._held: list[tuple[str, bool]] = []

    @property
    def live(self) -> bool:
        return self._progress is not None

    def phase(self, label: str, total: float | None, note: str = "") -> None:
        """Start a new stretch of work: a new label, total and time estimate."""
        if self._progress is not None:
            self._progress.reset(self._task, total=total, description=label, note=note)

    def update(self, completed: float, label: str | None = None, note: str | None = None) -> None:
        if self._progress is not None:
            kw = {k: v for k, v in (("description", label), ("note", note)) if v is not None}
            self._progress.update(self._task, completed=completed, **kw)

    def counted(self, items: list[Any], start: float, span: float) -> list[Any]:
        """``items`` as a list whose iteration moves the bar from ``start`` to ``start + span``."""
        if self._progress is None or not items:
            return items
        return _Counted(items, lambda done: self.update(start + span * done / len(items)))

    def echo(self, text: str, data: bool = False) -> None:
        """A command's output (``common.echo``: ``data`` as there), held while a bar is drawn."""
        if self._progress is not None and self._hold:
            self._held.append((text, data))
        else:
            echo(text, data=data)

    def warn(self, text: str) -> None:
        """A line for stderr: above a live bar, kept whole (no wrapping, markup or colour added), one line
        whatever a value in it holds."""
        text = visible(text, lines=False)
        if self._progress is not None:
            self._progress.console.print(text, markup=False, highlight=False, emoji=False, soft_wrap=True)
        else:
            echo(text, err=True)

    def release(self) -> None:
        for text, data in self._held:
            echo(text, data=data)
        self._held.clear()


class _Counted(list):
    """A list that reports how far an iteration over it has come.

    The auditor, the replay, the importer's converter and its writer take the
    list and iterate it once; this lets them move a bar without a callback.
    """

    def __init__(self, items: Iterable[Any], tick: Callable[[int], None]) -> None:
        super().__init__(items)
        self._tick = tick

    def __iter__(self) -> Iterator[Any]:
        whole = super().__getitem__
        for done in range(0, len(self), BLOCK):
            self._tick(done)
            yield from whole(slice(done, done + BLOCK))
        self._tick(len(self))


def isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or bare stream is no terminal
        return False


@contextmanager
def progress(total: float | None, label: str, small: float = BIG_LOGS) -> Iterator[Bar]:
    """A progress bar on stderr over ``total`` units of work, or a no-op ``Bar``.

    Shown only when stderr is a terminal and ``total`` reaches ``small``: pipes,
    CI logs and tests stay clean, and short commands do not flash a bar (nor
    pay for importing rich). Transient: it leaves nothing on the screen.
    """
    if not isatty(sys.stderr) or total is None or total < small:
        yield Bar()
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    # isatty was asked above; forcing keeps rich from asking again through a wrapped stream.
    # No redirection: rich would send stdout to stderr and re-wrap lines; Bar.echo and
    # Bar.warn keep both streams byte for byte what they are without a bar.
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[note]}"),
        TimeRemainingColumn(),
        console=Console(stderr=True, force_terminal=True),
        transient=True,
        redirect_stdout=False,
        redirect_stderr=False,
        refresh_per_second=4,
    )
    bar = Bar(progress, label, total, hold=isatty(sys.stdout))
    try:
        with progress:
            yield bar
    finally:
        bar.release()


def size(path: Path) -> int:
    try:
        return os.path.getsize(path)
    except OSError:  # a missing log fails later with its own clear line
        return 0


def logs_progress(logs: Sequence[Path], passes: int, label: str) -> tuple[AbstractContextManager[Bar], list[int]]:
    """A bar over ``passes`` reads of every log, in bytes; and each log's size."""
    sizes = [size(p) for p in logs]
    small = 0 if len(logs) >= MANY else BIG_LOGS
    return progress(passes * sum(sizes), label, small), sizes


def verify_log(path: Path, expect_head: str | None, bar: Bar, start: float) -> Any:
    """``kifu.app.verify``, moving the bar by the bytes read."""
    from kifu import app

    tick = (lambda offset: bar.update(start + offset)) if bar.live else None
    return app.verify(path, expect_head, progress=tick)


def log_note(i: int, logs: Sequence[Path], lang: Lang | None) -> str:
    return msg("progress_log", lang, done=i + 1, total=len(logs)) if len(logs) > 1 else ""


def starts(sizes: Sequence[int], passes: int) -> list[int]:
    """Where each log's first pass begins on a bar of ``passes`` passes over every log."""
    return [passes * before for before in itertools.accumulate(sizes[:-1], initial=0)]
