"""Create, append to, read, verify and repair a kifu/1 match log (JSON Lines).

Appends are one ``write`` of a whole line under an exclusive ``flock``, fsync'd
before they return, so two processes appending at once never interleave, lose or
duplicate an event. Readers check every line against the chain as they stream, so
nothing downstream ever sees an event of an edited log.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import operator
import os
from itertools import chain
from typing import Any, NamedTuple
from collections.abc import Callable, Iterable, Iterator, Sequence

import msgspec

from . import atomic, limits, rfc3339, table
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
from .codec import _ENCODER, Codec, encode, equivalent, line_hash, malformed
from .i18n import Msg

_CHUNK = 1 << 20

_PREV = operator.attrgetter("prev")
_HEXDIGEST = type(hashlib.sha256()).hexdigest
_SEQ = operator.attrgetter("seq")


class Head(NamedTuple):
    """What identifies a log: its last seq and the hash of its last line."""

    seq: int
    hash: str


class Log(msgspec.Struct):  # not a dataclass: making one compiles its methods, a cost of every cold start
    """A whole log read into memory and verified."""

    path: str
    start: MatchStarted
    events: list[Event] = msgspec.field(default_factory=list)
    head: Head = Head(0, "")


def _decode_start(raw: bytes, where: str) -> str:
    """Check line 1 is a kifu/1 match.start and return its game id."""
    _check_limits(raw, where, 1, 0)
    try:
        obj = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise MalformedEvent(Msg("log.not_json", detail=str(exc)), where=where, line=1) from None
    if not isinstance(obj, dict) or obj.get("type") != "match.start":
        found = obj.get("type") if isinstance(obj, dict) else type(obj).__name__
        raise MalformedEvent(Msg("log.first_not_start", found=repr(found)), where=where, line=1, field="type")
    if obj.get("format") != FORMAT:
        raise MalformedEvent(
            Msg("log.bad_format", found=repr(obj.get("format")), expected=repr(FORMAT)),
            where=where,
            line=1,
            field="format",
        )
    game = obj.get("game")
    if not isinstance(game, str):
        raise MalformedEvent(Msg("log.no_game"), where=where, line=1, field="game")
    return game


def _codec_of_start(raw: bytes, where: str) -> Codec:
    game = _decode_start(raw, where)
    try:
        return table.codec(game)
    except KeyError:
        raise MalformedEvent(Msg("log.unknown_game", game=repr(game)), where=where, line=1, field="game") from None


class Verifier:
    """The one place where the lines of a log are checked, whoever reads them.

    Fed a log's bytes in order, a block of whole lines at a time, it checks each
    line's envelope and fields against the game's schema (the game named by line 1,
    looked up in the game table), its seq, its place in the hash chain, the game's
    own check of ``match.start`` (the catalogue a log brings), and at the end a torn
    last line or an empty log. The streaming reader feeds it 1 MiB blocks, the bulk
    reader one block: both give the same verdict and the same message for the same
    bytes.

    A line is only *confirmed* once the next line's ``prev`` has vouched for its
    bytes (the last line, at the end): an edited line is caught by its successor,
    and a streaming reader must never have been handed it. ``block`` and ``finish``
    return the events confirmed so far and the first error, if any; the caller hands
    out the events, then raises the error.
    """

    def __init__(self, where: str) -> None:
        self.where = where
        self.codec: Codec | None = None
        self._decode: Callable[[bytes], Event] | None = None
        self.line = 0
        """Lines verified so far (the seq of the last one)."""
        self.prev: str | None = None
        """Hash of the last verified line: the head."""
        self._pending: Event | None = None

    @property
    def head(self) -> Head:
        return Head(self.line, self.prev or "")

    def block(self, data: bytes, offset: int) -> tuple[list[Event], KifuError | None]:
        """Verify ``data``, whole lines each ending in ``\\n``, found at byte ``offset`` of the log."""
        lines = data.split(b"\n")
        lines.pop()  # data ends with a terminator: the piece after it is empty
        if not lines:
            return [], None
        if b"\r" in data:  # a CRLF file: the CR belongs to the terminator
            lines = [ln[:-1] if ln[-1:] == b"\r" else ln for ln in lines]
        events = self._bulk(lines, data)
        if events is None:
            events, error = self._line_by_line(lines, data, offset)
        else:
            error = None
        return self._confirm(events, error)

    def finish(self, tail: bytes, offset: int) -> tuple[list[Event], KifuError | None]:
        """The end of the log: ``tail`` is what follows the last terminator (empty in a whole log)."""
        if len(tail) > limits.MAX_LINE:  # as the streaming reader, which stops reading there
            return self.too_long(tail, offset)
        if tail and _lone_cr(tail):
            return self._confirm(
                [],
                MalformedEvent(
                    Msg("log.lone_cr"), where=self.where, line=self.line + 1, offset=offset, seq=self.line + 1
                ),
            )
        if tail:
            error: KifuError = TornTail(
                Msg("log.torn_tail", bytes=len(tail)),
                where=self.where,
                line=self.line + 1,
                offset=offset,
                seq=self.line + 1,
            )
            return self._confirm([], error)
        if self._pending is None:
            return [], MalformedEvent(Msg("log.empty"), where=self.where, line=1)
        last, self._pending = self._pending, None
        return [last], None

    def _confirm(self, events: list[Event], error: KifuError | None) -> tuple[list[Event], KifuError | None]:
        """Each event but the last is confirmed by its successor; the last waits (see the class)."""
        if self._pending is not None:
            events.insert(0, self._pending)
            self._pending = None
        if error is not None:
            # The line before the bad one is confirmed unless the error is that it was edited.
            if events and isinstance(error, ChainBroken) and error.seq == events[-1].seq:
                events.pop()
            return events, error
        if events:
            self._pending = events.pop()
        return events, None

    def too_long(self, head: bytes, offset: int) -> tuple[list[Event], KifuError]:
        """A line that goes on past ``limits.MAX_LINE`` bytes from ``offset`` (``head`` is its start): the reader stops there."""
        return self._confirm([], _overlong(head, self.where, self.line + 1, offset))  # type: ignore[return-value]  # _confirm passes the error through, never None here

    def _bulk(self, lines: list[bytes], data: bytes) -> list[Event] | None:
        """The events of lines that are all clean, in a few C-level passes; None at the first doubt.

        Besides the schema and the chain, every line must keep to the limits (docs/format.md):
        no line longer than ``MAX_LINE`` (a block no longer than that has none), no key given
        twice, no nesting deeper than ``MAX_DEPTH``. kifu writes every line in one canonical
        form, and a canonical line (``encode(decode(line)) == line``) names each key once:
        so the whole block is re-encoded in one C call and compared, and only a line written
        otherwise (another client's) is walked token by token. Only an event type with a
        free-form field (``match.start``'s ``rules``) can nest deeper than its schema allows;
        only its lines are measured.
        """
        if len(data) > limits.MAX_LINE and max(map(len, lines)) > limits.MAX_LINE:
            return None
        try:
            if self.codec is None:
                self.codec = _codec_of_start(lines[0], self.where)
                self._decode = self.codec.decode_raw
            assert self._decode is not None  # set with the codec, on the first block
            events = list(map(self._decode, lines))
        except (msgspec.DecodeError, KifuError, RecursionError):
            return None
        if not _canonical(events, lines, data, self.codec):
            return None
        first = self.line + 1
        # map() with the hash type's own method: cheaper than a comprehension calling two methods per line.
        hashes = list(map(_HEXDIGEST, map(hashlib.sha256, lines)))
        # map() over C-level getters: a Python-level loop here cost as much as the hashing.
        if list(map(_SEQ, events)) != list(range(first, first + len(events))):
            return None
        prevs = list(map(_PREV, events))
        if prevs[0] != self.prev or prevs[1:] != hashes[:-1]:
            return None
        kinds = set(map(type, events if first > 1 else events[1:]))
        if any(issubclass(t, MatchStarted) for t in kinds):
            return None
        free = self.codec.free
        if not kinds.isdisjoint(free) and any(type(e) in free and limits.too_deep(ln) for e, ln in zip(events, lines)):
            return None
        if first == 1:
            if not isinstance(events[0], MatchStarted):
                return None
            try:
                self._check_start(events[0])
            except KifuError:
                return None
        self.line += len(events)
        self.prev = hashes[-1]
        return events

    def _line_by_line(self, lines: list[bytes], data: bytes, offset: int) -> tuple[list[Event], KifuError]:
        """The events before the first bad line, and that line's error (the exact one)."""
        events: list[Event] = []
        pos = offset
        try:
            for raw in lines:
                lineno = self.line + 1
                try:
                    _check_limits(raw, self.where, lineno, pos)
                    if self.codec is None:
                        self.codec = _codec_of_start(raw, self.where)
                        self._decode = self.codec.decode_raw
                    event = self._decode(raw)  # type: ignore[misc]  # set with the codec just above; no assert in the per-line loop
                except (msgspec.DecodeError, MalformedEvent) as exc:
                    raise _bad_line(exc, raw, self.where, lineno, pos) from None
                if encode(event) != raw:
                    _check_keys(raw, self.where, lineno, pos)
                _check_link(event, lineno, self.prev, self.where)
                if lineno == 1:
                    self._check_start(event)
                self.line, self.prev = lineno, hashlib.sha256(raw).hexdigest()
                events.append(event)
                pos = data.index(b"\n", pos - offset) + 1 + offset
        except KifuError as exc:
            return events, exc
        raise AssertionError("a block that failed in bulk verified line by line")  # pragma: no cover

    def _check_start(self, start: Event) -> None:
        """The game's own check of match.start (its catalogue), located at line 1."""
        assert self.codec is not None
        if self.codec.check_start is None:
            return
        try:
            self.codec.check_start(start)
        except KifuError as exc:
            exc.where, exc.line = self.where, 1
            raise


def _lone_cr(raw: bytes) -> bool:
    """True when ``raw`` holds a CR that no LF follows: a line end of the old Mac kind, inside what looks like one line."""
    return b"\r" in raw.rstrip(b"\r")


def _canonical(events: list[Event], lines: list[bytes], data: bytes, codec: Codec) -> bool:
    """True unless some line names a key twice (see ``Verifier._bulk``).

    A line that differs from its event's canonical line (another writer's: defaults written
    out, keys in another order) is first proven to name each key once without decoding it
    again (``codec.equivalent``, a few C-level splits and counts); only a line that proof
    cannot vouch for has its keys counted from a second decode.
    """
    if b"\r" not in data:
        encoded = _ENCODER.encode_lines(events)
        if encoded == data:
            return True
        canonical = encoded.split(b"\n")  # a JSON line holds no raw line end: one piece per event, and ""
    else:
        canonical = list(map(_ENCODER.encode, events))
        if canonical == lines:
            return True
    keys = codec.keys
    unescaped = b"\\u003" not in data  # what equivalent() looks for in each line, looked for once
    for ln, event, enc in zip(lines, events, canonical):
        if ln != enc and not equivalent(ln, enc, keys[type(event)], unescaped=unescaped) and not limits.keys_unique(ln):
            return False
    return True


def _repeats_a_key(raw: bytes) -> bool:
    """True when a line that parses as JSON names a key twice in one object."""
    try:
        return not limits.keys_unique(raw)
    except msgspec.DecodeError:
        return False


def _check_limits(raw: bytes, where: str, lineno: int | None, offset: int) -> None:
    """A line longer than MAX_LINE or nested deeper than MAX_DEPTH, refused before any parser sees it."""
    if len(raw) > limits.MAX_LINE:
        raise _overlong(raw, where, lineno, offset)
    if limits.too_deep(raw):
        problem = limits.scan(raw) or limits.Problem("depth", None)
        raise MalformedEvent(
            problem.message(), where=where, line=lineno, offset=offset, seq=lineno, field=problem.field
        )


def _overlong(head: bytes, where: str, lineno: int | None, offset: int) -> KifuError:
    """The error for a line longer than MAX_LINE (``head``: at least its first MAX_LINE bytes).

    A file whose line ends are lone CRs reads as one long line: say so instead.
    """
    if _lone_cr(head[: limits.MAX_LINE]):
        return MalformedEvent(Msg("log.lone_cr"), where=where, line=lineno, offset=offset, seq=lineno)
    return limits.too_long(where=where, line=lineno, offset=offset, seq=lineno)


def _check_keys(raw: bytes, where: str, lineno: int, offset: int) -> None:
    """A line not in canonical form: refused if it names a key twice."""
    problem = None if limits.keys_unique(raw) else limits.scan(raw)
    if problem is not None:
        raise MalformedEvent(
            problem.message(), where=where, line=lineno, offset=offset, seq=lineno, field=problem.field
        )


def _bad_line(exc: Exception, raw: bytes, where: str, lineno: int, offset: int) -> MalformedEvent:
    """The error for a line that does not decode, naming its seq."""
    if not raw.strip():
        return MalformedEvent(Msg("log.empty_line"), where=where, line=lineno, offset=offset, seq=lineno)
    not_json = isinstance(exc, msgspec.DecodeError) or (
        isinstance(exc, MalformedEvent) and isinstance(exc.message, Msg) and exc.message.key == "log.not_json"
    )
    if not_json and _lone_cr(raw):
        return MalformedEvent(Msg("log.lone_cr"), where=where, line=lineno, offset=offset, seq=lineno)
    if isinstance(exc, msgspec.ValidationError) and _repeats_a_key(raw):
        # Two "type"s fail the schema; the repeated key is the cause, so it is what is named.
        problem = limits.scan(raw) or limits.Problem("duplicate", None)
        return MalformedEvent(
            problem.message(), where=where, line=lineno, offset=offset, seq=lineno, field=problem.field
        )
    err = exc if isinstance(exc, MalformedEvent) else malformed(exc, raw, where=where, line=lineno)
    # Every line before this one verified with seq == line, so this line
    # stands where seq `lineno` belongs: name it even when the line is too
    # broken to say so itself.
    if err.seq is None:
        err.seq = lineno
    return err


def _check_link(event: Event, lineno: int, prev: str | None, where: str) -> None:
    if event.seq != lineno:
        found = (
            Msg("log.seq_missing", expected=lineno, found=event.seq)
            if event.seq > lineno
            else Msg("log.seq_inserted", expected=lineno, found=event.seq)
        )
        raise ChainBroken(found, where=where, line=lineno, seq=lineno)
    if lineno == 1:
        if event.prev is not None:
            raise ChainBroken(Msg("log.first_prev"), where=where, line=1, seq=1, field="prev")
        if not isinstance(event, MatchStarted):
            raise MalformedEvent(Msg("log.first_must_be_start"), where=where, line=1, field="type")
        return
    if isinstance(event, MatchStarted):
        raise MalformedEvent(Msg("log.second_start"), where=where, line=lineno, seq=lineno, field="type")
    if event.prev != prev:
        raise ChainBroken(
            Msg("log.edited", edited=lineno - 1, next=lineno),
            where=where,
            line=lineno - 1,
            seq=lineno - 1,
        )


Progress = Callable[[int], None]
"""Told the byte offset reached, once per block read (about 1 MiB): for progress bars."""


def stream(path: str | os.PathLike[str], progress: Progress | None = None) -> Iterator[Event]:
    """Stream the verified events of a log, reading it in 1 MiB blocks.

    Raises MalformedEvent for a line that does not decode, ChainBroken for a seq
    or ``prev`` that does not follow, TornTail for an unterminated last line, each
    naming the file, line, seq or byte offset. Events before the problem are
    yielded first: a reader sees exactly the trustworthy prefix. The generator's
    ``head`` is known once it is exhausted: use ``Reader`` to keep it.
    """
    return Reader(path, progress).events()


class Reader:
    """One pass over a log file through the Verifier; ``head`` is the log's once ``events()`` is done."""

    def __init__(self, path: str | os.PathLike[str], progress: Progress | None = None) -> None:
        self.where = str(path)
        self.path = path
        self.progress = progress
        self.verifier = Verifier(self.where)

    @property
    def head(self) -> Head:
        return self.verifier.head

    def events(self) -> Iterator[Event]:
        """The verified events one by one."""
        for block in self.blocks():
            yield from block

    def blocks(self) -> Iterator[list[Event]]:
        """The verified events a block (about 1 MiB) at a time; the trustworthy prefix first, then the error."""
        try:
            fh = open(self.path, "rb")
        except OSError as exc:
            raise KifuError(Msg("io.cannot_read", reason=exc.strerror), where=self.where) from None
        verifier, progress = self.verifier, self.progress
        error: KifuError | None
        with fh:
            offset, rest = 0, b""
            while chunk := fh.read(_CHUNK):
                if progress is not None:
                    progress(offset)
                cut = chunk.rfind(b"\n")
                if cut < 0:
                    rest += chunk
                    if len(rest) > limits.MAX_LINE:
                        events, error = verifier.too_long(rest, offset)
                        if events:
                            yield events
                        raise error
                    continue
                data, rest = rest + chunk[: cut + 1], chunk[cut + 1 :]
                events, error = verifier.block(data, offset)
                if events:
                    yield events
                if error is not None:
                    raise error
                offset += len(data)
            events, error = verifier.finish(rest, offset)
            if events:
                yield events
            if error is not None:
                raise error
            if progress is not None:
                progress(offset + len(rest))


def mentions(path: str | os.PathLike[str], needle: bytes) -> bool:
    """True if the file's bytes contain ``needle`` anywhere (a quick look before a second pass)."""
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise KifuError(Msg("io.cannot_read", reason=exc.strerror), where=str(path)) from None
    with fh:
        tail = b""
        while chunk := fh.read(_CHUNK):
            if needle in tail + chunk[: len(needle)] or needle in chunk:
                return True
            tail = chunk[-len(needle) + 1 :] if len(needle) > 1 else b""
    return False


def load(path: str | os.PathLike[str], progress: Progress | None = None) -> Log:
    """Read and verify a whole log."""
    reader = Reader(path, progress)
    events = list(chain.from_iterable(reader.blocks()))
    start = events[0]
    assert isinstance(start, MatchStarted)
    return Log(str(path), start, events, reader.head)


def verify(
    path: str | os.PathLike[str],
    expect_head: str | None = None,
    progress: Progress | None = None,
    each: Callable[[list[Event]], None] | None = None,
) -> Head:
    """Verify a log and return its head; with ``expect_head`` also detect truncation.

    ``expect_head`` is the head hash written on a match slip (a prefix of at least
    12 hex digits is enough). If the log's head differs, the log was cut off or
    changed, unless the slip's head is an earlier line (events were appended after
    the slip was written), which is reported as such. ``each`` is shown the
    verified events a block at a time as they go by (``kifu verify`` counts random
    outcomes with it).
    """
    want = expect_head.lower() if expect_head else None
    if want is not None and (len(want) < 12 or any(c not in "0123456789abcdef" for c in want)):
        raise KifuError(Msg("log.expect_head_digits"), where=str(path))
    seen_at: int | None = None
    reader = Reader(path, progress)
    for block in reader.blocks():
        if want is not None and seen_at is None:
            # A verified prev is the hash of the line before: no need to hash twice.
            seen_at = next((e.seq - 1 for e in block if e.prev is not None and e.prev.startswith(want)), None)
        if each is not None:
            each(block)
    head = reader.head
    if want is not None and not head.hash.startswith(want):
        if seen_at is not None:
            raise HeadMismatch(
                Msg("log.appended_after_slip", expected=seen_at, last=head.seq),
                where=str(path),
                seq=seen_at,
            )
        raise HeadMismatch(
            Msg("log.head_mismatch", seq=head.seq, hash=head.hash, expected=want),
            where=str(path),
            seq=head.seq,
        )
    return head


# --- writing -----------------------------------------------------------------


def start_line(path: str | os.PathLike[str], start: MatchStarted | dict[str, Any]) -> tuple[Event, Codec]:
    """The ``match.start`` of a new log at ``path``, checked as a reader will check it, and its game's codec."""
    where = str(path)
    obj = msgspec.to_builtins(start) if isinstance(start, Event) else dict(start)
    obj.update(type="match.start", seq=1, prev=None)
    obj.setdefault("format", FORMAT)
    game = obj.get("game")
    if not isinstance(game, str):
        raise MalformedEvent(Msg("log.no_game"), where=where, line=1, field="game")
    codec = table.require(game, where=where, line=1, field="game")
    event = codec.convert(obj, where=where, line=1)
    # A reader accepts what a writer wrote, and the warehouse stores it: strict times, one id per seat.
    assert isinstance(event, MatchStarted)
    rfc3339.check_time(event.at, where=where, line=1, seq=1)
    rfc3339.check_seats(event, where=where)
    if codec.check_start is not None:
        try:
            codec.check_start(event)
        except KifuError as exc:
            exc.where, exc.line = where, 1
            raise
    return event, codec


def create(
    path: str | os.PathLike[str],
    start: MatchStarted | dict[str, Any],
) -> Event:
    """Create a new log holding its ``match.start``; refuse to overwrite one.

    The line is written to a temporary file beside ``path``, fsync'd, and linked to
    ``path`` only if no file has that name (``kifu.events.atomic``): a crash or a
    full disk leaves no empty or partial log behind, and a retry works.
    """
    event, codec = start_line(path, start)
    line = codec.line(event, where=str(path), line=1)
    with atomic.written(path, replace=False) as out:
        out.write(line + b"\n")
    return event


class Built(dict):  # type: ignore[type-arg]
    """The plain mapping of an event already built once through the game's codec (an importer checks each
    event it makes): ``write_new`` numbers and chains the ``event`` it holds instead of building it again."""

    __slots__ = ("event",)

    def __init__(self, body: dict[str, Any], event: Event) -> None:
        super().__init__(body)
        self.event = event
        """The event built from ``body`` (its ``seq`` and ``prev`` are set when it is written)."""


def _next_line(codec: Codec, obj: dict[str, Any], seq: int, prev: str, where: str) -> tuple[Event, bytes]:
    """Event ``seq`` after the line hashed ``prev``, from a plain mapping, and its canonical line."""
    if obj.get("type") == "match.start":
        raise MalformedEvent(Msg("log.one_start"), where=where, seq=seq, field="type")
    obj["seq"], obj["prev"] = seq, prev
    new = codec.convert(obj, where=where, seq=seq)
    rfc3339.check_time(new.at, where=where, seq=seq)
    return new, codec.line(new, where=where, seq=seq)


def write_new(
    path: str | os.PathLike[str],
    start: MatchStarted | dict[str, Any],
    events: Iterable[Event | dict[str, Any]],
) -> Head:
    """Create a new log of ``match.start`` and ``events`` (seq and prev filled in), whole or not at all.

    The events are converted and written one by one as ``events`` yields them (an
    import never holds its log in memory) to a temporary file that takes the name
    ``path`` only once complete and fsync'd (see ``create``).
    """
    where = str(path)
    first, codec = start_line(path, start)
    line = codec.line(first, where=where, line=1)
    with atomic.written(path, replace=False) as out:
        out.write(line + b"\n")
        seq, prev = 1, line_hash(line)
        for event in events:
            seq += 1
            if isinstance(event, Built) and not isinstance(event.event, MatchStarted):
                rfc3339.check_time(event.event.at, where=where, seq=seq)
                line = codec.line(msgspec.structs.replace(event.event, seq=seq, prev=prev), where=where, seq=seq)
            else:
                obj = msgspec.to_builtins(event) if isinstance(event, Event) else dict(event)
                _, line = _next_line(codec, obj, seq, prev, where)
            out.write(line + b"\n")
            prev = line_hash(line)
    return Head(seq, prev)


def _write_all(fd: int, data: bytes, size_before: int, where: str) -> None:
    """Write ``data`` at the end; on any failure cut the file back: all or nothing."""
    try:
        written = os.write(fd, data)
        while written < len(data):
            written += os.write(fd, data[written:])
    except OSError as exc:
        os.ftruncate(fd, size_before)
        raise KifuError(Msg("log.append_failed", reason=exc.strerror), where=where) from None


class Writer:
    """Appends events to a log under an exclusive lock held for the writer's life.

    Use as a context manager. Each ``append`` is one write of a whole line,
    fsync'd before it returns unless ``durable=False`` (benchmarks, and a batch that
    ends with ``sync``).
    """

    def __init__(self, path: str | os.PathLike[str], *, durable: bool = True) -> None:
        self.path = str(path)
        self.durable = durable
        self._fd = -1
        self.head: Head = Head(0, "")
        self.size = 0
        self.codec: Codec | None = None

    def __enter__(self) -> Writer:
        try:
            self._fd = os.open(self.path, os.O_RDWR | os.O_APPEND)
        except OSError as exc:
            raise KifuError(Msg("io.cannot_open_append", reason=exc.strerror), where=self.path) from None
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
            raise MalformedEvent(Msg("log.empty"), where=self.path, line=1)
        first = self._read_first_line()
        self.codec = _codec_of_start(first, self.path)
        last, offset = self._read_last_line()
        _check_limits(last, self.path, None, offset)
        try:
            seq = msgspec.json.decode(last).get("seq")
        except (msgspec.DecodeError, AttributeError):
            seq = None
        if not isinstance(seq, int):
            raise MalformedEvent(Msg("log.last_no_seq"), where=self.path, offset=offset, field="seq")
        self.head = Head(seq, line_hash(last))

    def _read_first_line(self) -> bytes:
        buf = b""
        while b"\n" not in buf and len(buf) <= limits.MAX_LINE:
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
                Msg("log.torn_tail_append", bytes=end - start),
                where=self.path,
                offset=start,
            )
        start = self._line_start(end - 1)
        if end - 1 - start > limits.MAX_LINE:
            raise _overlong(os.pread(self._fd, limits.MAX_LINE, start), self.path, None, start)
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
                    Msg("log.stale", claimed=want, next=seq),
                    where=self.path,
                    seq=want,
                )
        if claimed_prev is not None and claimed_prev != self.head.hash:
            raise StaleAppend(Msg("log.stale_prev"), where=self.path, seq=seq, field="prev")
        assert self.codec is not None  # set by __enter__
        new, line = _next_line(self.codec, obj, seq, self.head.hash, self.path)
        _write_all(self._fd, line + b"\n", self.size, self.path)
        if self.durable:
            os.fsync(self._fd)
        self.size += len(line) + 1
        self.head = Head(seq, line_hash(line))
        return new

    def sync(self) -> None:
        """fsync what was appended: a batch written with ``durable=False`` is durable once this returns."""
        os.fsync(self._fd)

    def append_all(self, events: Sequence[Event | dict[str, Any]]) -> list[Event]:
        """Append several events in one write, all or none (a verifiable toss: commit, nonces, reveal and
        outcomes), filling each ``seq`` and ``prev``; return them as written."""
        assert self.codec is not None  # set by __enter__
        made: list[Event] = []
        lines: list[bytes] = []
        seq, prev = self.head.seq, self.head.hash
        for event in events:
            obj = msgspec.to_builtins(event) if isinstance(event, Event) else dict(event)
            obj.pop("seq", None)
            obj.pop("prev", None)
            seq += 1
            new, line = _next_line(self.codec, obj, seq, prev, self.path)
            made.append(new)
            lines.append(line)
            prev = line_hash(line)
        if not lines:
            return []
        data = b"".join(line + b"\n" for line in lines)
        _write_all(self._fd, data, self.size, self.path)
        if self.durable:
            os.fsync(self._fd)
        self.size += len(data)
        self.head = Head(seq, prev)
        return made


def append(
    path: str | os.PathLike[str],
    event: Event | dict[str, Any],
    *,
    expect_seq: int | None = None,
) -> Event:
    """Append one event durably (see Writer.append)."""
    with Writer(path) as writer:
        return writer.append(event, expect_seq)


class Repaired(NamedTuple):
    """What ``repair`` did to a log whose last line had no terminator."""

    cut: int
    """Bytes cut off (0 when the last line was a complete event and only its ``\\n`` was added)."""
    offset: int
    """Byte offset where the last line begins."""
    kept: int
    """Complete lines the log holds after the repair."""
    copy: str | None
    """The copy of the whole file as it was before the cut (None when nothing was cut)."""


def repair(path: str | os.PathLike[str]) -> Repaired | None:
    """Mend a log whose last line has no terminator, losing no byte; None if it has none.

    A last line that parses as a complete event (its ``\\n`` was stripped by an
    editor or a copy) gets its ``\\n`` back and nothing is cut. Any other last line
    is a write cut short: the whole file is first copied to ``LOG.torn-OFFSET``
    (``.2``, ``.3`` … if that name is taken: an earlier copy is never overwritten,
    and the copy is created exclusively, so a link planted at its name is never
    followed), the copy is fsync'd, and only then is the line cut off. A complete
    line that fails to verify is evidence and stays. A file that is not JSON Lines
    at all (lone-CR line ends, a first byte other than ``{``) is refused unchanged,
    and so is a symbolic link (the file must be named itself).
    """
    where = str(path)
    try:
        fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise KifuError(Msg("repair.symlink"), where=where) from None
        raise KifuError(Msg("io.cannot_open", reason=exc.strerror), where=where) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
            return None

        writer = Writer(path)
        writer._fd, writer.size = fd, size
        start = writer._line_start(size)
        head = os.pread(fd, min(size - start, limits.MAX_LINE + 1), start)
        if os.pread(fd, 64, 0).lstrip(b" \t")[:1] != b"{":
            raise KifuError(Msg("repair.not_json_lines"), where=where)
        if _lone_cr(head[: limits.MAX_LINE]):
            raise MalformedEvent(Msg("repair.lone_cr"), where=where, offset=start)
        kept = _count_lines(fd, start)
        if len(head) <= limits.MAX_LINE and _complete_event(fd, head, start, where):
            try:
                os.pwrite(fd, b"\n", size)
                os.fsync(fd)
            except OSError as exc:
                os.ftruncate(fd, size)
                raise atomic.cannot_write(exc, path) from None
            return Repaired(0, start, kept + 1, None)
        copy = _keep_copy(fd, where, start, size)
        os.ftruncate(fd, start)
        os.fsync(fd)
        return Repaired(size - start, start, kept, copy)
    finally:
        os.close(fd)


def _count_lines(fd: int, end: int) -> int:
    lines, pos = 0, 0
    while pos < end:
        chunk = os.pread(fd, min(_CHUNK, end - pos), pos)
        if not chunk:
            break
        lines += chunk.count(b"\n")
        pos += len(chunk)
    return lines


def _complete_event(fd: int, raw: bytes, start: int, where: str) -> bool:
    """True when the unterminated last line ``raw`` decodes as a whole event of the log's game."""
    raw = raw.rstrip(b"\r")
    try:
        _check_limits(raw, where, None, start)
        if start == 0:
            codec = _codec_of_start(raw, where)
        else:
            first = os.pread(fd, min(start, limits.MAX_LINE + 1), 0).split(b"\n", 1)[0].rstrip(b"\r")
            codec = _codec_of_start(first, where)
        codec.decode_raw(raw)
    except (KifuError, msgspec.DecodeError, RecursionError):
        return False
    return True


def _keep_copy(fd: int, where: str, offset: int, size: int) -> str:
    """Copy the whole file to a new name beside it, exclusively and durably; return that name."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    mode = os.fstat(fd).st_mode & 0o777
    for n in range(1, 10_000):
        name = f"{where}.torn-{offset}" + (f".{n}" if n > 1 else "")
        try:
            out = os.open(name, flags, mode)
        except FileExistsError:  # an earlier copy, or anything planted at the name: never touched
            continue
        except OSError as exc:
            raise KifuError(Msg("repair.copy_failed", reason=exc.strerror), where=name) from None
        try:
            pos = 0
            while pos < size:
                chunk = os.pread(fd, min(_CHUNK, size - pos), pos)
                if not chunk:
                    break
                _write_fully(out, chunk)
                pos += len(chunk)
            os.fsync(out)
        except OSError as exc:
            os.close(out)
            os.unlink(name)
            raise KifuError(Msg("repair.copy_failed", reason=exc.strerror), where=name) from None
        os.close(out)
        atomic.fsync_dir(name)
        return name
    raise KifuError(Msg("repair.too_many_copies"), where=where)  # pragma: no cover


def _write_fully(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


# --- whole logs in memory ------------------------------------------------------


class Verified(NamedTuple):
    """A log verified from its bytes: every event and its head."""

    events: list[Event]
    """The decoded events, seq 1 first."""
    head: Head
    """The last seq and the hash of the last line."""


def verify_bytes(data: bytes, where: str = "<bytes>") -> Verified:
    """Verify a whole log held in memory: the Verifier over one block, as ``stream`` reads a file."""
    verifier = Verifier(where)
    cut = data.rfind(b"\n") + 1
    events, error = verifier.block(data[:cut], 0)
    if error is None:
        last, error = verifier.finish(data[cut:], cut)
        events += last
    if error is not None:
        raise error
    return Verified(events, verifier.head)
