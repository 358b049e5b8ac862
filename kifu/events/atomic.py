"""Files written whole or not at all: a new log, an import, a report, an export.

Each is written under a temporary name in the target's own folder
(``.NAME.tmp-XXXXXXXX``: hidden, and no ``*.jsonl`` glob matches it), flushed and
fsync'd, and only then put in place: a log by a hard link that fails if the name
is taken (a log is never overwritten, even by a race), a report or an export by
an atomic rename. A process killed half-way leaves at most a temporary file,
never a file that looks complete; a full disk is one line naming the file, and
nothing is left behind to block the retry.

An output is a regular file kifu makes: a name that is a link (even to a regular
file), a pipe, a device or a folder is refused before anything is opened, so nothing
is ever written through a planted link and a FIFO with no reader cannot block a
command. A temporary file is locked (``flock``) by its writer for as long as it lives;
the next write in the same folder removes every temporary file whose writer is gone
(killed, or the machine lost power), decided by that lock, never by its age.
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO
from collections.abc import Callable, Iterator

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


_STALE = re.compile(r"\..+\.tmp-[0-9a-f]{8}")
"""A temporary name, as ``_locked`` gives it (and only that: a name kifu did not make is never touched)."""
_UNNAMED = ".~"
"""The prefix of a temporary file or folder until its writer holds its lock."""


def temp_beside(path: str | os.PathLike[str], mode: int = 0o644) -> tuple[int, str]:
    """A new, exclusive temporary file in ``path``'s folder, locked: (fd open for writing, its name).

    The lock lasts until the fd is closed (see ``_locked``).
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    return _locked(Path(path), lambda fresh: os.open(fresh, flags, mode))


@contextmanager
def staging(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A new private folder ``.NAME.tmp-XXXXXXXX`` beside ``path``, locked while the block runs, removed after.

    For work that is many files (a new warehouse, a dataset's version): what is made in
    it is put in place by a rename from it; whatever a failure or a kill leaves in it is
    removed, by this block or by the next writer in that folder (``clean_stale``).
    """
    fd, name = _locked(Path(path), _new_folder)
    try:
        yield Path(name)
    finally:
        import shutil  # here, not above: only a writer of many files needs it, and every command imports this module

        shutil.rmtree(name, ignore_errors=True)
        os.close(fd)


def _new_folder(fresh: Path) -> int:
    os.mkdir(fresh, 0o755)
    return os.open(fresh, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)


def _locked(target: Path, create: Callable[[Path], int]) -> tuple[int, str]:
    """A new temporary file or folder beside ``target`` made by ``create`` (its fd), locked: (fd, name).

    It is made under a first name (``.~NAME.tmp-…``), locked, and renamed to its temporary
    name only while locked. A cleaner removes an item only once it holds its lock, so it
    can take a writer's item only in the instant before the writer locks it; the writer
    then finds the lock taken, or its first name gone at the rename, and starts again with
    another name. Whatever a kill leaves, under either name, is unlocked: the next writer
    in the folder removes it (``clean_stale``). The stale ones are removed first.
    """
    clean_stale(target.parent)
    for _ in range(64):
        token = os.urandom(4).hex()  # what secrets.token_hex(4) gives: importing secrets costs a cold start
        name = target.parent / f".{target.name}{TEMP_MARK}{token}"
        fresh = target.parent / f"{_UNNAMED}{target.name}{TEMP_MARK}{token}"
        try:
            fd = create(fresh)
        except FileExistsError:
            continue
        except FileNotFoundError as exc:
            # A folder is made, then opened: a cleaner in the same folder can take it in between
            # (unlocked, it looks abandoned). Another name, unless the folder itself is missing.
            if target.parent.is_dir():
                continue
            raise cannot_write(exc, target) from None
        except OSError as exc:
            raise cannot_write(exc, target) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # a cleaner took it for abandoned in the instant before the lock: it removes it
            os.close(fd)
            continue
        try:
            if os.path.lexists(name):
                raise FileExistsError(name)
            os.rename(fresh, name)
        except (FileExistsError, FileNotFoundError):  # the name taken, or the first name gone to a cleaner
            os.close(fd)
            _remove(fresh)
            continue
        except OSError as exc:
            os.close(fd)
            _remove(fresh)
            raise cannot_write(exc, target) from None
        return fd, str(name)
    raise KifuError(Msg("io.no_temp"), where=str(target))  # pragma: no cover


def _remove(path: str | os.PathLike[str]) -> None:
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            import shutil  # as in ``staging``

            shutil.rmtree(path)
        else:
            os.unlink(path)
    except FileNotFoundError:
        pass


def clean_stale(folder: str | os.PathLike[str]) -> int:
    """Remove the temporary files and folders in ``folder`` whose writer is gone; how many were removed.

    A writer holds its temporary file's (or folder's) lock until it has put it in place or
    removed it, so one whose lock can be taken belongs to a run that was killed. Only
    regular files and folders with kifu's temporary names are looked at, opened without
    following a link; a folder is removed with what is in it (links in it are removed,
    never followed).
    """
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        if not _STALE.fullmatch(entry.name):
            continue
        folder_ = entry.is_dir(follow_symlinks=False)
        if not folder_ and not entry.is_file(follow_symlinks=False):
            continue
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK | (os.O_DIRECTORY if folder_ else 0)
        try:
            fd = os.open(entry.path, flags)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if os.path.samestat(os.fstat(fd), os.lstat(entry.path)):
                _remove(entry.path)
                removed += 1
        except OSError:  # locked: its writer is alive (or it went meanwhile)
            pass
        finally:
            os.close(fd)
    return removed


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
    if replace:
        check_output(path)
    fd, temp = temp_beside(path, mode)
    out = os.fdopen(fd, "wb")
    try:
        try:
            yield out
            out.flush()
            os.fsync(out.fileno())
            # Put in place while still locked: no cleaner can take the file between here and there.
            if replace:
                check_output(path)  # a link planted while the file was written is not replaced either
                os.replace(temp, path)
            else:
                link_new(temp, path)
        except OSError as exc:
            raise cannot_write(exc, path) from None
        fsync_dir(path)
    finally:
        try:
            out.close()  # the lock goes with it
        except OSError:  # a buffer a full disk refused: said above already, the file is removed below
            pass
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass


def check_output(path: str | os.PathLike[str]) -> None:
    """Refuse an output name that exists as anything but a regular file (a link, a pipe, a device, a folder).

    Looked at without following a link: kifu replaces a regular file of that name by a
    complete new one, and writes through nothing.
    """
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise cannot_write(exc, path) from None
    if not stat.S_ISREG(st.st_mode):
        raise not_regular(path, st)


def not_regular(path: str | os.PathLike[str], st: os.stat_result) -> KifuError:
    """The one line for an output name taken by something that is no regular file kifu may replace."""
    if stat.S_ISLNK(st.st_mode):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        return KifuError(Msg("io.output_link", target=target), where=str(path))
    if stat.S_ISDIR(st.st_mode):
        return KifuError(Msg("io.output_folder"), where=str(path))
    if stat.S_ISFIFO(st.st_mode):
        return KifuError(Msg("io.output_pipe"), where=str(path))
    return KifuError(Msg("io.output_special"), where=str(path))


def write_bytes(path: str | os.PathLike[str], data: bytes, *, replace: bool = True) -> None:
    """``Path.write_bytes``, whole or not at all (see ``written``)."""
    with written(path, replace=replace) as out:
        out.write(data)
