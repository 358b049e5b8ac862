"""Create, append to, read, verify and repair a kifu/1 match log (JSON Lines).

Appends are one ``write`` of a whole line under an exclusive ``flock``, fsync'd
before they return, so two processes appending at once never interleave, lose or
duplicate an event. Readers check every line against the chain as they stream, so
nothing downstream ever sees an event of an edited log.
"""

from __future__ import annotations

import fcntl
import hashlib
import operator
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, NamedTuple

import msgspec

from .base import (
    FORMAT,
    ChainBroken,
    Event,
    HeadMismatch,
    KifuError,
    MalformedEvent,
    MatchStarted,
    StaleAppend,
    TornTail,
)
from .codec import Codec, encode, line_hash, malformed

CodecFor = Callable[[str], Codec]
"""Looks up the codec of a game id (the auditor's registry provides one)."""

_CHUNK = 1 << 20
_GENERIC = Codec()


def _generic(game: str) -> Codec:
    return _GENERIC


class Record(NamedTuple):
    """One verified line of a log."""

    line: int
    """1-based line number (equal to the event's seq in a valid log)."""
    offset: int
    """Byte offset of the line's first byte."""
    raw: bytes
    """The exact stored bytes, without the terminator."""
    event: Event
    """The decoded event."""


class Head(NamedTuple):
    """What identifies a log: its last seq and the hash of its last line."""

    seq: int
    hash: str


@dataclass
class Log:
    """A whole log read into memory and verified."""

    path: str
    start: MatchStarted
    records: list[Record] = field(default_factory=list)

    @property
    def events(self) -> list[Event]:
        return [r.event for r in self.records]

    @property
    def head(self) -> Head:
        last = self.records[-1]
        return Head(last.event.seq, line_hash(last.raw))


def _line_batches(fh: Any) -> Iterator[tuple[int, list[bytes], bool]]:
    """Yield (offset of the first line, lines, terminated) per chunk read, streaming.

    Whole batches rather than single lines: a generator step per line cost
    more than hashing it. Only the very last batch can be unterminated (a
    torn tail), and it then holds that one line.
    """
    offset = 0
    rest = b""
    while chunk := fh.read(_CHUNK):
        parts = (rest + chunk).split(b"\n")
        rest = parts.pop()
        if parts:
            yield offset, parts, True
            offset += sum(map(len, parts)) + len(parts)
    if rest:
        yield offset, [rest], False


def _decode_start(raw: bytes, where: str) -> str:
    """Check line 1 is a kifu/1 match.start and return its game id."""
    try:
        obj = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise MalformedEvent(f"not JSON ({exc})", where=where, line=1) from None
    if not isinstance(obj, dict) or obj.get("type") != "match.start":
        found = obj.get("type") if isinstance(obj, dict) else type(obj).__name__
        raise MalformedEvent(
            f"the first event must be match.start, found {found!r}", where=where, line=1, field="type"
        )
    if obj.get("format") != FORMAT:
        raise MalformedEvent(
            f"unsupported format {obj.get('format')!r}, expected {FORMAT!r}", where=where, line=1, field="format"
        )
    if not isinstance(obj.get("game"), str):
        raise MalformedEvent("match.start names no game", where=where, line=1, field="game")
    return obj["game"]


def _codec_of_start(raw: bytes, where: str, codec_for: CodecFor) -> Codec:
    game = _decode_start(raw, where)
    try:
        return codec_for(game)
    except KeyError:
        raise MalformedEvent(f"unknown game {game!r}", where=where, line=1, field="game") from None


Progress = Callable[[int], None]
"""Told the byte offset reached, once per block read (about 1 MiB): for progress bars."""


def iter_records(
    path: str | os.PathLike[str], codec_for: CodecFor | None = None, progress: Progress | None = None
) -> Iterator[Record]:
    """Stream the verified records of a log.

    Raises MalformedEvent for a line that does not decode, ChainBroken for a seq
    or ``prev`` that does not follow, TornTail for an unterminated last line, each
    naming the file, line, seq or byte offset. Events before the problem are
    yielded first: a reader sees exactly the trustworthy prefix.
    """
    where = str(path)
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise KifuError(f"cannot read: {exc.strerror}", where=where) from None
    with fh:
        yield from _verified(fh, where, codec_for or _generic, progress)


def _verified(fh: Any, where: str, codec_for: CodecFor, progress: Progress | None = None) -> Iterator[Record]:
    # The hot loop of every read (bench/bench_core.py), kept in one frame:
    # names are bound locally and the full link check (_check_link) runs only
    # when the cheap comparison fails.
    # Each record is yielded one line late, once the next line's prev has
    # confirmed its bytes (the last one at the end of the file): an edited line
    # is caught only by its successor, and a streaming reader must never have
    # been handed it. An error about the next line itself lets it through.
    codec: Codec | None = None
    decode: Callable[[bytes], Event] = _GENERIC.decode_raw
    sha256 = hashlib.sha256
    new_record = tuple.__new__  # Record(...) runs a Python-level __new__: twice the cost
    prev: str | None = None
    pending: Record | None = None
    lineno = 0
    try:
        for offset, batch, terminated in _line_batches(fh):
            if progress is not None:  # once per block, outside the per-line loop
                progress(offset)
            if not terminated:
                raise TornTail(
                    f"the last line ({len(batch[0])} bytes) has no terminator: a write was cut off; "
                    "`kifu repair` cuts it off and keeps a copy",
                    where=where, line=lineno + 1, offset=offset, seq=lineno + 1,
                )
            for raw in batch:
                lineno += 1
                following = offset + len(raw) + 1
                if raw[-1:] == b"\r":
                    raw = raw[:-1]
                try:
                    if codec is None:
                        codec = _codec_of_start(raw, where, codec_for)
                        decode = codec.decode_raw
                    event = decode(raw)
                except (msgspec.DecodeError, MalformedEvent) as exc:
                    raise _bad_line(exc, raw, where, lineno, offset) from None
                if lineno == 1 or event.seq != lineno or event.prev != prev or isinstance(event, MatchStarted):
                    _check_link(event, lineno, prev, where)
                    if lineno == 1 and codec.check_start is not None:
                        _check_start(codec, event, where)
                prev = sha256(raw).hexdigest()
                if pending is not None:
                    yield pending
                pending = new_record(Record, (lineno, offset, raw, event))
                offset = following
    except KifuError as exc:
        if pending is not None and not (isinstance(exc, ChainBroken) and exc.seq == pending.line):
            yield pending
        raise
    if pending is None:
        raise MalformedEvent("empty log: no match.start", where=where, line=1)
    if progress is not None:
        progress(fh.tell())
    yield pending


def _check_start(codec: Codec, start: Event, where: str) -> None:
    """The game's own check of match.start (its catalogue), located at line 1."""
    try:
        codec.check_start(start)  # type: ignore[misc]
    except KifuError as exc:
        exc.where, exc.line = where, 1
        raise


def _bad_line(exc: Exception, raw: bytes, where: str, lineno: int, offset: int) -> MalformedEvent:
    """The error for a line that does not decode, naming its seq."""
    if not raw.strip():
        return MalformedEvent("empty line", where=where, line=lineno, offset=offset, seq=lineno)
    err = exc if isinstance(exc, MalformedEvent) else malformed(exc, raw, where=where, line=lineno)
    # Every line before this one verified with seq == line, so this line
    # stands where seq `lineno` belongs: name it even when the line is too
    # broken to say so itself.
    if err.seq is None:
        err.seq = lineno
    return err


def _check_link(event: Event, lineno: int, prev: str | None, where: str) -> None:
    if event.seq != lineno:
        if event.seq > lineno:
            why = f"event {lineno} is missing, or lines were reordered"
        else:
            why = "a line was inserted, duplicated or moved here"
        raise ChainBroken(f"expected seq {lineno}, found seq {event.seq}: {why}", where=where, line=lineno, seq=lineno)
    if lineno == 1:
        if event.prev is not None:
            raise ChainBroken("prev of seq 1 must be null", where=where, line=1, seq=1, field="prev")
        if not isinstance(event, MatchStarted):
            raise MalformedEvent("the first event must be match.start", where=where, line=1, field="type")
        return
    if isinstance(event, MatchStarted):
        raise MalformedEvent("a second match.start", where=where, line=lineno, seq=lineno, field="type")
    if event.prev != prev:
        raise ChainBroken(
            f"seq {lineno - 1} does not match the hash that seq {lineno} records in prev: "
            f"seq {lineno - 1} was edited (or seq {lineno}'s prev was)",
            where=where, line=lineno - 1, seq=lineno - 1,
        )


def load(path: str | os.PathLike[str], codec_for: CodecFor | None = None, progress: Progress | None = None) -> Log:
    """Read and verify a whole log."""
    records = list(iter_records(path, codec_for, progress))
    start = records[0].event
    assert isinstance(start, MatchStarted)
    return Log(str(path), start, records)


def verify(
    path: str | os.PathLike[str],
    codec_for: CodecFor | None = None,
    expect_head: str | None = None,
    progress: Progress | None = None,
) -> Head:
    """Verify a log and return its head; with ``expect_head`` also detect truncation.

    ``expect_head`` is the head hash written on a match slip (a prefix of at least
    12 hex digits is enough). If the log's head differs, the log was cut off or
    changed, unless the slip's head is an earlier line (events were appended after
    the slip was written), which is reported as such.
    """
    want = expect_head.lower() if expect_head else None
    if want is not None and (len(want) < 12 or any(c not in "0123456789abcdef" for c in want)):
        raise KifuError("--expect-head needs at least 12 hex digits", where=str(path))
    seen_at: int | None = None
    last: Record | None = None
    for rec in iter_records(path, codec_for, progress):
        last = rec
        # A verified prev is the hash of the line before: no need to hash twice.
        if want is not None and seen_at is None and rec.event.prev is not None and rec.event.prev.startswith(want):
            seen_at = rec.event.seq - 1
    assert last is not None
    head = Head(last.event.seq, line_hash(last.raw))
    if want is not None and not head.hash.startswith(want):
        if seen_at is not None:
            raise HeadMismatch(
                f"the expected head is seq {seen_at}; the log goes on to seq {head.seq} "
                "(events were appended after the slip was written)",
                where=str(path), seq=seen_at,
            )
        raise HeadMismatch(
            f"head is seq {head.seq} {head.hash}, not the expected {want}: "
            f"events after seq {head.seq} were cut off, or the log was changed",
            where=str(path), seq=head.seq,
        )
    return head


# --- writing -----------------------------------------------------------------


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path.parent or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def create(
    path: str | os.PathLike[str],
    start: MatchStarted | dict[str, Any],
    codec_for: CodecFor | None = None,
) -> Event:
    """Create a new log holding its ``match.start``; refuse to overwrite one."""
    where = str(path)
    obj = msgspec.to_builtins(start) if isinstance(start, Event) else dict(start)
    obj.update(type="match.start", seq=1, prev=None)
    obj.setdefault("format", FORMAT)
    game = obj.get("game")
    codec = (codec_for or _generic)(game) if isinstance(game, str) else _GENERIC
    event = codec.convert(obj, where=where, line=1)
    if codec.check_start is not None:
        _check_start(codec, event, where)
    line = encode(event) + b"\n"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise KifuError("already exists; a log is never overwritten", where=where) from None
    except OSError as exc:
        raise KifuError(f"cannot create: {exc.strerror}", where=where) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _write_all(fd, line, 0, where)
        os.fsync(fd)
    finally:
        os.close(fd)
    _fsync_dir(Path(path))
    return event


def _write_all(fd: int, data: bytes, size_before: int, where: str) -> None:
    """Write ``data`` at the end; on any failure cut the file back: all or nothing."""
    try:
        written = os.write(fd, data)
        while written < len(data):
            written += os.write(fd, data[written:])
    except OSError as exc:
        os.ftruncate(fd, size_before)
        raise KifuError(f"append failed, nothing written: {exc.strerror}", where=where) from None


class Writer:
    """Appends events to a log under an exclusive lock held for the writer's life.

    Use as a context manager. Each ``append`` is one write of a whole line,
    fsync'd before it returns unless ``durable=False`` (benchmarks only).
    """

    def __init__(
        self, path: str | os.PathLike[str], codec_for: CodecFor | None = None, *, durable: bool = True
    ) -> None:
        self.path = str(path)
        self.durable = durable
        self._codec_for = codec_for or _generic
        self._fd = -1
        self.head: Head = Head(0, "")
        self.size = 0
        self.codec: Codec = _GENERIC

    def __enter__(self) -> "Writer":
        try:
            self._fd = os.open(self.path, os.O_RDWR | os.O_APPEND)
        except OSError as exc:
            raise KifuError(f"cannot open for append: {exc.strerror}", where=self.path) from None
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            self._read_head()
        except BaseException:
            os.close(self._fd)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self._fd)  # closing releases the lock

    def _read_head(self) -> None:
        self.size = os.fstat(self._fd).st_size
        if self.size == 0:
            raise MalformedEvent("empty log: no match.start", where=self.path, line=1)
        first = self._read_first_line()
        game = _decode_start(first, self.path)
        try:
            self.codec = self._codec_for(game)
        except KeyError:
            raise MalformedEvent(f"unknown game {game!r}", where=self.path, line=1, field="game") from None
        last, offset = self._read_last_line()
        try:
            seq = msgspec.json.decode(last).get("seq")
        except (msgspec.DecodeError, AttributeError):
            seq = None
        if not isinstance(seq, int):
            raise MalformedEvent("the last line has no integer seq", where=self.path, offset=offset, field="seq")
        self.head = Head(seq, line_hash(last))

    def _read_first_line(self) -> bytes:
        buf = b""
        while b"\n" not in buf:
            chunk = os.pread(self._fd, 65536, len(buf))
            if not chunk:
                break
            buf += chunk
        return buf.split(b"\n", 1)[0].rstrip(b"\r")

    def _read_last_line(self) -> tuple[bytes, int]:
        end = self.size
        tail = os.pread(self._fd, 1, end - 1)
        if tail != b"\n":
            start = self._line_start(end)
            raise TornTail(
                f"the last line ({end - start} bytes) has no terminator: a write was cut off; "
                "run `kifu repair` before appending",
                where=self.path, offset=start,
            )
        start = self._line_start(end - 1)
        return os.pread(self._fd, end - 1 - start, start).rstrip(b"\r"), start

    def _line_start(self, end: int) -> int:
        pos = end
        while pos > 0:
            step = min(65536, pos)
            chunk = os.pread(self._fd, step, pos - step)
            nl = chunk.rfind(b"\n")
            if nl >= 0:
                return pos - step + nl + 1
            pos -= step
        return 0

    def append(self, event: Event | dict[str, Any], expect_seq: int | None = None) -> Event:
        """Append one event, filling ``seq`` and ``prev``; return it as written.

        ``expect_seq`` (or a ``seq``/``prev`` inside the event) names the position
        the caller believes it writes; if another writer got there first the
        append is refused with StaleAppend and nothing is written.
        """
        obj = msgspec.to_builtins(event) if isinstance(event, Event) else dict(event)
        seq = self.head.seq + 1
        claimed = obj.pop("seq", None) if isinstance(event, dict) else None
        claimed_prev = obj.pop("prev", None) if isinstance(event, dict) else None
        for want in (expect_seq, claimed):
            if want is not None and want != seq:
                raise StaleAppend(
                    f"expected to write seq {want}, but the next seq is {seq}: the log changed; read it again",
                    where=self.path, seq=want,
                )
        if claimed_prev is not None and claimed_prev != self.head.hash:
            raise StaleAppend("prev is not the hash of the last line", where=self.path, seq=seq, field="prev")
        if obj.get("type") == "match.start":
            raise MalformedEvent("a log has exactly one match.start", where=self.path, seq=seq, field="type")
        obj["seq"], obj["prev"] = seq, self.head.hash
        new = self.codec.convert(obj, where=self.path, seq=seq)
        line = encode(new)
        _write_all(self._fd, line + b"\n", self.size, self.path)
        if self.durable:
            os.fsync(self._fd)
        self.size += len(line) + 1
        self.head = Head(seq, line_hash(line))
        return new


def append(
    path: str | os.PathLike[str],
    event: Event | dict[str, Any],
    codec_for: CodecFor | None = None,
    *,
    expect_seq: int | None = None,
) -> Event:
    """Append one event durably (see Writer.append)."""
    with Writer(path, codec_for) as writer:
        return writer.append(event, expect_seq)


def repair(path: str | os.PathLike[str]) -> tuple[int, str] | None:
    """Cut off a torn last line, keeping a copy of the whole file first.

    Returns (bytes cut, path of the copy), or None if the log had no torn line.
    Only an unterminated last line is ever cut: a complete line that fails to
    verify is evidence and stays.
    """
    where = str(path)
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError as exc:
        raise KifuError(f"cannot open: {exc.strerror}", where=where) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
            return None
        writer = Writer(path)
        writer._fd, writer.size = fd, size
        cut_at = writer._line_start(size)
        copy = f"{where}.torn-{cut_at}"
        shutil.copyfile(path, copy)
        os.ftruncate(fd, cut_at)
        os.fsync(fd)
        return size - cut_at, copy
    finally:
        os.close(fd)


# --- whole logs in memory ------------------------------------------------------


_PREV = operator.attrgetter("prev")
_SEQ = operator.attrgetter("seq")


class Verified(NamedTuple):
    """A log verified from its bytes: every event, and the chain hash of every line."""

    events: list[Event]
    """The decoded events, seq 1 first."""
    hashes: list[str]
    """SHA-256 of each stored line without its terminator; ``hashes[-1]`` is the head."""


def verify_bytes(data: bytes, codec_for: CodecFor | None = None, where: str = "<bytes>") -> Verified:
    """Verify a whole log held in memory, with the checks of ``iter_records``.

    For the same bytes it accepts exactly what ``iter_records`` accepts and raises
    what it raises (class, message, line, seq, offset), so a reader of many whole
    files (the warehouse) needs no second opinion. A clean log takes a few bulk
    passes (decode every line, hash every line, compare the links as lists);
    only when one of them fails does the line-by-line loop run, to name the
    first problem exactly as the streaming reader would.
    """
    codec_for = codec_for or _generic
    lines = data.split(b"\n")
    tail = lines.pop()
    if b"\r" in data:
        lines = [ln[:-1] if ln[-1:] == b"\r" else ln for ln in lines]
    fast = _bulk_verified(lines, codec_for, where) if lines and not tail else None
    if fast is not None:
        return fast
    return _verified_lines(data, lines, tail, codec_for, where)


def _bulk_verified(lines: list[bytes], codec_for: CodecFor, where: str) -> Verified | None:
    """The events and hashes of a clean log; None at the first doubt."""
    try:
        decode = _codec_of_start(lines[0], where, codec_for).decode_raw
        events = list(map(decode, lines))
    except (msgspec.DecodeError, KifuError):
        return None
    sha256 = hashlib.sha256
    hashes = [sha256(ln).hexdigest() for ln in lines]
    first = events[0]
    if not isinstance(first, MatchStarted) or first.seq != 1 or first.prev is not None:
        return None
    # map() over C-level getters: a Python-level loop here cost as much as the hashing.
    rest = events[1:]
    if list(map(_PREV, rest)) != hashes[:-1] or list(map(_SEQ, events)) != list(range(1, len(events) + 1)):
        return None
    if any(issubclass(t, MatchStarted) for t in set(map(type, rest))):
        return None
    return Verified(events, hashes)


def _verified_lines(data: bytes, lines: list[bytes], tail: bytes, codec_for: CodecFor, where: str) -> Verified:
    """Line by line, raising the error ``_verified`` raises for the same lines."""
    decode: Callable[[bytes], Event] = _GENERIC.decode_raw
    events: list[Event] = []
    hashes: list[str] = []
    prev: str | None = None
    for lineno, raw in enumerate(lines, 1):
        try:
            if lineno == 1:
                decode = _codec_of_start(raw, where, codec_for).decode_raw
            event = decode(raw)
        except (msgspec.DecodeError, MalformedEvent) as exc:
            raise _bad_line(exc, raw, where, lineno, _offset(data, lineno)) from None
        if lineno == 1 or event.seq != lineno or event.prev != prev or isinstance(event, MatchStarted):
            _check_link(event, lineno, prev, where)
        prev = hashlib.sha256(raw).hexdigest()
        events.append(event)
        hashes.append(prev)
    if tail:
        raise TornTail(
            f"the last line ({len(tail)} bytes) has no terminator: a write was cut off; "
            "`kifu repair` cuts it off and keeps a copy",
            where=where, line=len(lines) + 1, offset=len(data) - len(tail), seq=len(lines) + 1,
        )
    if not events:
        raise MalformedEvent("empty log: no match.start", where=where, line=1)
    return Verified(events, hashes)


def _offset(data: bytes, lineno: int) -> int:
    """Byte offset of line ``lineno`` (1-based) as stored; only computed for an error."""
    pos = 0
    for _ in range(lineno - 1):
        pos = data.index(b"\n", pos) + 1
    return pos
