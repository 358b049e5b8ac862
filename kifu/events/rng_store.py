"""The roller's secret store for verifiable tosses (issue 18): a secret waits here for its reveal.

One file per user, looked for in this order: ``$KIFU_HOME/secrets.jsonl`` when
KIFU_HOME is set, ``$XDG_DATA_HOME/kifu/secrets.jsonl`` when XDG_DATA_HOME is an
absolute path, else ``~/.local/share/kifu/secrets.jsonl``. JSON Lines, only
ever appended to, one ``{"id", "secret", "created"}`` per commitment (and, for a
v2 commitment, ``version``, ``match``, ``purpose`` and ``roll``, so that its reveal
needs nothing but the opponents' answers).

A damaged line (a disk error, a hand edit) is reported (``warn``: file, line,
why) and skipped: every other secret stays usable, and new commitments are made.

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
from collections.abc import Callable, Mapping, Sequence

import msgspec

from . import rng
from .i18n import Msg
from .codec import field_error
from .atomic import fsync_dir as _fsync_dir  # a new name made durable
from .logfile import _write_all  # the log's all-or-nothing append

FILE_NAME = "secrets.jsonl"
"""The store's file name inside its directory."""


class StoredSecret(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """One line of the store: a secret and the commitment id it was shown under."""

    id: str
    """The commitment's id (``rng.commitment_id``), by which ``kifu toss reveal`` finds the secret."""
    secret: str
    """The 32-byte secret in lower-case hex."""
    created: str
    """When it was made, RFC 3339 in UTC (``2026-11-01T01:00:00Z``)."""
    version: int = 1
    """The protocol version of the commitment: 1, or 2 (bound to ``match``, ``purpose`` and ``roll``)."""
    match: str | None = None
    """v2: the match the commitment is bound to, as its token names it."""
    purpose: str | None = None
    """v2: what the toss decides."""
    roll: str | None = None
    """v2: the dice it rolls."""

    def __post_init__(self) -> None:
        if rng.commit(rng.parse_secret(self.secret), self.binding).id != self.id:
            raise rng.RngError(Msg("rng.store_id", id=self.id), field="id")

    @property
    def binding(self) -> rng.Binding | None:
        """What a v2 commitment is bound to (None in v1)."""
        if self.version == 1:
            return None
        if self.match is None or self.purpose is None or self.roll is None:
            raise rng.RngError(Msg("rng.binding_version", version=self.version), field="version")
        return rng.Binding(match=self.match, purpose=self.purpose, roll=self.roll)

    @property
    def commitment(self) -> rng.Commitment:
        """The commitment this secret was shown under."""
        return rng.commit(rng.parse_secret(self.secret), self.binding)


Warn = Callable[[rng.RngError], None]
"""Told of each damaged line of the store (the error names file, line and field), which is then skipped."""


def _quiet(_: rng.RngError) -> None:
    pass


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


def new_commitment(
    path: Path | None = None,
    binding: rng.Binding | None = None,
    *,
    now: datetime | None = None,
    warn: Warn = _quiet,
) -> rng.Commitment:
    """Make a secret, store it durably, and return its commitment (the token to show is ``.format()``): v1, or
    v2 bound to ``binding``."""
    path = path or default_path()
    where = str(path)
    created = (now or datetime.now(UTC)).astimezone(UTC)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, made = _open_for_append(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        data = _read_all(fd)
        size = _cut_torn_tail(fd, data)
        held = {entry.id for entry in _entries(data, where, warn)}
        while True:
            # A 40-bit id repeats within one store with odds around 1e-5 after ten thousand commitments:
            # cheap to rule out here, and then an id always names one secret.
            secret = rng.new_secret()
            commitment = rng.commit(secret, binding)
            if commitment.id not in held:
                break
        bound = {} if binding is None else {"version": 2, **msgspec.structs.asdict(binding)}
        entry = StoredSecret(id=commitment.id, secret=secret.hex(), created=_rfc3339(created), **bound)
        _write_all(fd, _ENCODER.encode(entry) + b"\n", size, where)
        os.fsync(fd)
    finally:
        os.close(fd)
    if made:
        _fsync_dir(path)
    return commitment


def stored(path: Path | None = None, *, warn: Warn = _quiet) -> list[StoredSecret]:
    """Every secret in the store, oldest first; none when there is no store yet. A damaged line is told to
    ``warn`` and skipped."""
    path = path or default_path()
    try:
        fd = _open(path, os.O_RDONLY)
    except FileNotFoundError:
        return []
    try:
        return _entries(_read_all(fd), str(path), warn)
    finally:
        os.close(fd)


def entry_for(id: str, path: Path | None = None, *, warn: Warn = _quiet) -> StoredSecret:
    """The store's line for commitment ``id``; RngError when this store does not hold it."""
    path = path or default_path()
    for entry in stored(path, warn=warn):
        if entry.id == id:
            return entry
    raise rng.RngError(Msg("rng.store_missing", id=id), where=str(path), field="id")


def secret_for(id: str, path: Path | None = None, *, warn: Warn = _quiet) -> bytes:
    """The secret behind commitment ``id``; RngError when this store does not hold it."""
    return rng.parse_secret(entry_for(id, path, warn=warn).secret)


def reveal_for(nonce: rng.Nonce | Sequence[rng.Nonce], path: Path | None = None, *, warn: Warn = _quiet) -> rng.Reveal:
    """The reveal that answers ``nonce`` (v1), or every opponent's nonce (v2), with the secret of the
    commitment they name."""
    answers = [nonce] if isinstance(nonce, rng.Nonce) else list(nonce)
    ids = {n.id for n in answers}
    if len(ids) != 1:
        raise rng.RngError(Msg("rng.nonces_ids", ids=", ".join(sorted(ids))), field="nonce")
    entry = entry_for(ids.pop(), path, warn=warn)
    return rng.reveal(rng.parse_secret(entry.secret), answers, entry.version)


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


def _entries(data: bytes, where: str, warn: Warn) -> list[StoredSecret]:
    """The store's lines, decoded and checked; a torn last line (see ``_cut_torn_tail``) is not one. A line
    that does not decode or check is told to ``warn`` (file, line, field) and skipped: one damaged line
    must not keep every other secret, and every new commitment, from the player."""
    out = []
    for line, raw in enumerate(data.split(b"\n")[:-1], 1):
        try:
            out.append(_DECODER.decode(raw))
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            message, field = field_error(exc)
            warn(rng.RngError(Msg("rng.store_line", detail=message), where=where, line=line, field=field))
        except rng.RngError as exc:
            exc.line = line
            warn(exc.located(where))  # type: ignore[arg-type]
    return out
