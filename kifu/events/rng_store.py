"""The roller's secret store for verifiable tosses (issue 18): a secret waits here for its reveal.

One file per user, looked for in this order: ``$KIFU_HOME/secrets.jsonl`` when
KIFU_HOME is set, ``$XDG_DATA_HOME/kifu/secrets.jsonl`` when XDG_DATA_HOME is an
absolute path, else ``~/.local/share/kifu/secrets.jsonl``. JSON Lines, only
ever appended to, one ``{"id", "secret", "created"}`` per commitment.

The file is created with mode 0600 (its directory, if kifu makes it, 0700).
A store that others may read or write, that another user owns, that is a
symbolic link or not a regular file is refused, never used. The secret is
written here and nowhere else: not in a log, a token or a message before the
reveal. It is on disk (fsync'd) before its commitment is returned, so a
commitment that was shown always has its secret.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from datetime import datetime, UTC
from pathlib import Path
from collections.abc import Mapping

import msgspec

from . import rng
from .i18n import Msg
from .codec import field_error
from .atomic import fsync_dir as _fsync_dir  # a new name made durable
from .logfile import _write_all  # the log's all-or-nothing append

FILE_NAME = "secrets.jsonl"
"""The store's file name inside its directory."""


class StoredSecret(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One line of the store: a secret and the commitment id it was shown under."""

    id: str
    """The commitment's id (``rng.commitment_id``), by which ``kifu toss reveal ID`` finds the secret."""
    secret: str
    """The 32-byte secret in lower-case hex."""
    created: str
    """When it was made, RFC 3339 in UTC (``2026-11-01T01:00:00Z``)."""

    def __post_init__(self) -> None:
        if rng.commit(rng.parse_secret(self.secret)).id != self.id:
            raise rng.RngError(Msg("rng.store_id", id=self.id), field="id")


_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder(StoredSecret)


def default_path(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the store is for this user and environment (see the module docstring)."""
    home = environ.get("KIFU_HOME")
    if home:
        return Path(home) / FILE_NAME
    data = environ.get("XDG_DATA_HOME", "")
    # The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
    base = Path(data) if os.path.isabs(data) else Path.home() / ".local" / "share"
    return base / "kifu" / FILE_NAME


def new_commitment(path: Path | None = None, *, now: datetime | None = None) -> rng.Commitment:
    """Make a secret, store it durably, and return its commitment (the token to show is ``.format()``)."""
    path = path or default_path()
    where = str(path)
    created = (now or datetime.now(UTC)).astimezone(UTC)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, made = _open_for_append(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        data = _read_all(fd)
        size = _cut_torn_tail(fd, data)
        held = {entry.id for entry in _entries(data, where)}
        while True:
            # A 40-bit id repeats within one store with odds around 1e-5 after ten thousand commitments:
            # cheap to rule out here, and then an id always names one secret.
            secret = rng.new_secret()
            commitment = rng.commit(secret)
            if commitment.id not in held:
                break
        entry = StoredSecret(id=commitment.id, secret=secret.hex(), created=_rfc3339(created))
        _write_all(fd, _ENCODER.encode(entry) + b"\n", size, where)
        os.fsync(fd)
    finally:
        os.close(fd)
    if made:
        _fsync_dir(path)
    return commitment


def stored(path: Path | None = None) -> list[StoredSecret]:
    """Every secret in the store, oldest first; none when there is no store yet."""
    path = path or default_path()
    try:
        fd = _open(path, os.O_RDONLY)
    except FileNotFoundError:
        return []
    try:
        return _entries(_read_all(fd), str(path))
    finally:
        os.close(fd)


def secret_for(id: str, path: Path | None = None) -> bytes:
    """The secret behind commitment ``id``; RngError when this store does not hold it."""
    path = path or default_path()
    for entry in stored(path):
        if entry.id == id:
            return rng.parse_secret(entry.secret)
    raise rng.RngError(Msg("rng.store_missing", id=id), where=str(path), field="id")


def reveal_for(nonce: rng.Nonce, path: Path | None = None) -> rng.Reveal:
    """The reveal that answers ``nonce``, with the secret of the commitment it names."""
    return rng.reveal(secret_for(nonce.id, path), nonce)


def _rfc3339(when: datetime) -> str:
    return when.replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _open_for_append(path: Path) -> tuple[int, bool]:
    """The store opened for appending, and whether this call created it (with mode 0600)."""
    try:
        return _open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL), True
    except FileExistsError:
        return _open(path, os.O_RDWR | os.O_APPEND), False


def _open(path: Path, flags: int) -> int:
    """Open the store, refusing anything but a private regular file of this user."""
    where = str(path)
    try:
        # O_NOFOLLOW: a symbolic link planted where the store should be would send secrets elsewhere.
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except (FileNotFoundError, FileExistsError):
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise rng.RngError(Msg("rng.store_link"), where=where) from None
        raise rng.RngError(Msg("rng.store_open", reason=exc.strerror), where=where) from None
    try:
        _check_private(os.fstat(fd), where)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _check_private(st: os.stat_result, where: str) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise rng.RngError(Msg("rng.store_not_file"), where=where)
    if st.st_uid != os.geteuid():
        raise rng.RngError(Msg("rng.store_owner"), where=where)
    if st.st_mode & 0o077:
        mode = stat.S_IMODE(st.st_mode)
        raise rng.RngError(Msg("rng.store_mode", mode=f"{mode:o}", path=where), where=where)


def _read_all(fd: int) -> bytes:
    chunks, offset = [], 0
    while chunk := os.pread(fd, 1 << 16, offset):
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def _cut_torn_tail(fd: int, data: bytes) -> int:
    """Cut a last line that has no terminator and return the size after.

    Such a line is an append that a crash cut off before its fsync: it was never
    acknowledged, so no commitment was ever shown for it and nothing refers to it.
    """
    end = data.rfind(b"\n") + 1
    if end != len(data):
        os.ftruncate(fd, end)
    return end


def _entries(data: bytes, where: str) -> list[StoredSecret]:
    """The store's lines, decoded and checked; a torn last line (see ``_cut_torn_tail``) is not one."""
    out = []
    for line, raw in enumerate(data.split(b"\n")[:-1], 1):
        try:
            out.append(_DECODER.decode(raw))
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            message, field = field_error(exc)
            raise rng.RngError(Msg("rng.store_line", detail=message), where=where, line=line, field=field) from None
        except rng.RngError as exc:
            exc.line = line
            raise exc.located(where) from None
    return out
