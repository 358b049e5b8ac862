"""Files written whole or not at all: a new log, an import, a report, an export.

Each is written under a temporary name in the target's own folder
(``.NAME.tmp-XXXXXXXX``: hidden, and no ``*.jsonl`` glob matches it), flushed and
fsync'd, and only then put in place: a log by a hard link that fails if the name
is taken (a log is never overwritten, even by a race), a report or an export by
an atomic rename. A process killed half-way leaves at most a temporary file,
never a file that looks complete; a full disk is one line naming the file, and
nothing is left behind to block the retry.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO
from collections.abc import Iterator

from .base import KifuError
from .i18n import Msg

TEMP_MARK = ".tmp-"
"""What every temporary name holds (``.m1.jsonl.tmp-1a2b3c4d``)."""


def fsync_dir(path: str | os.PathLike[str]) -> None:
    """Make a new name in ``path``'s folder durable (the file's own fsync does not cover its name)."""
    try:
        fd = os.open(Path(path).parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some filesystems cannot sync a directory; the rename is still atomic
        pass
    finally:
        os.close(fd)


def temp_beside(path: str | os.PathLike[str], mode: int = 0o644) -> tuple[int, str]:
    """A new, exclusive temporary file in ``path``'s folder: (fd open for writing, its name)."""
    target = Path(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    for _ in range(64):
        name = target.parent / f".{target.name}{TEMP_MARK}{secrets.token_hex(4)}"
        try:
            return os.open(name, flags, mode), str(name)
        except FileExistsError:
            continue
        except OSError as exc:
            raise cannot_write(exc, path) from None
    raise KifuError(Msg("io.no_temp"), where=str(path))  # pragma: no cover


def cannot_write(exc: OSError, path: str | os.PathLike[str]) -> KifuError:
    """One line for a failed write: the file, the system's reason, and that nothing was left half-made."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return KifuError(Msg("io.cannot_write_full", reason=exc.strerror), where=str(path))
    return KifuError(Msg("io.cannot_write", reason=exc.strerror), where=str(path))


def link_new(temp: str, path: str | os.PathLike[str]) -> None:
    """Give the finished ``temp`` the name ``path`` only if no file has it; never replace one."""
    try:
        os.link(temp, path, follow_symlinks=False)
    except FileExistsError:
        raise KifuError(Msg("log.exists"), where=str(path)) from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        # A filesystem without hard links (FAT, some network mounts): a rename, after a
        # check that leaves only a short race against another writer of the same name.
        if os.path.lexists(path):
            raise KifuError(Msg("log.exists"), where=str(path)) from None
        os.rename(temp, path)
        return
    os.unlink(temp)


@contextmanager
def written(path: str | os.PathLike[str], *, replace: bool, mode: int = 0o644) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through: it takes the name only once the block ends without error.

    ``replace=False`` refuses a name that exists (at the start, and again at the end
    when another process may have taken it); ``replace=True`` swaps a complete new
    file in by rename. An OSError is one KifuError naming ``path``; the temporary
    file is removed on any failure, Ctrl-C included.
    """
    if not replace and os.path.lexists(path):
        raise KifuError(Msg("log.exists"), where=str(path))
    if replace and _special(path):
        # /dev/stdout, a named pipe: nothing to swap in place; written as it comes.
        try:
            with open(path, "wb") as out:
                yield out
        except OSError as exc:
            raise cannot_write(exc, path) from None
        return
    fd, temp = temp_beside(path, mode)
    try:
        try:
            with os.fdopen(fd, "wb") as out:
                yield out
                out.flush()
                os.fsync(out.fileno())
            if replace:
                os.replace(temp, path)
            else:
                link_new(temp, path)
        except OSError as exc:
            raise cannot_write(exc, path) from None
        fsync_dir(path)
    finally:
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass


def _special(path: str | os.PathLike[str]) -> bool:
    """True for an existing target that is no regular file (a device, a pipe)."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def write_bytes(path: str | os.PathLike[str], data: bytes, *, replace: bool = True) -> None:
    """``Path.write_bytes``, whole or not at all (see ``written``)."""
    with written(path, replace=replace) as out:
        out.write(data)
