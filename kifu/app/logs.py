"""The use cases on a log as such: start one (``new``), ``verify`` it, ``append`` to it, ``repair`` its torn end,
``chain`` one in memory, find what its voids took back."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec

from kifu.auditor.tally import Tally
from kifu.events import logfile, rfc3339, table
from kifu.events.base import FORMAT, Event, KifuError, LogVoided
from kifu.events.i18n import ROLES, Msg
from kifu.events.codec import encode, line_hash

from .reading import LogSource, Progress, Reading, consume

if TYPE_CHECKING:  # the reports' module is for ``voided``: ``verify`` never loads it
    from kifu.auditor.report import Voided


class Verified(NamedTuple):
    """What ``verify`` found of a log that can be trusted."""

    head: logfile.Head
    """Its last seq and the hash of its last line."""
    random: int
    """The random outcomes it records (a die of three faces counts three)."""
    verifiable: int
    """How many of them are verifiable: named by a commitment whose toss checks (docs/randomness.md)."""
    protocol: int
    """Events of the verifiable-toss protocol it records: commits, nonces, reveals and the outcomes that name
    a commitment."""
    voided: int
    """Random outcomes of events a ``log.void`` took back: left out of ``random``, counted here."""
    voids: tuple[tuple[LogVoided, list[int]], ...]
    """Each ``log.void`` that took something back, with the seqs it took back."""

    @property
    def any_random(self) -> bool:
        """True when the log records random outcomes (standing or voided) or verifiable-toss events."""
        return bool(self.random or self.protocol or self.voided)


def verify(
    source: str | os.PathLike[str] | bytes,
    expect_head: str | None = None,
    *,
    progress: Progress | None = None,
) -> Verified:
    """Verify a log's hash chain and every line's schema, and count its random outcomes.

    ``expect_head`` is the head on a match slip (12 hex digits or more): a log cut short or
    extended since is named as such. Anything edited, inserted, deleted or reordered raises the
    ``KifuError`` naming the line and seq; so do a time that is not strict RFC 3339 and two seats
    under one player id (``kifu.events.rfc3339``: what the warehouse could not store; the audit
    reports them as KIFU-LOG-004 and KIFU-LOG-007).

    >>> import kifu
    >>> kifu.verify("fixtures/gunandgun/dispute.jsonl").head.hash[:12]
    'b4a6be3f414a'
    """
    tally = Tally()
    if isinstance(source, (bytes, bytearray)):
        verified = logfile.verify_bytes(bytes(source))
        rfc3339.check_events(verified.events, "<bytes>")
        tally.add_all(verified.events)
        head = verified.head
        if expect_head is not None and not head.hash.startswith(expect_head.lower()):
            raise _mismatch(head, expect_head)
    else:
        where = str(source)

        def seen(events: list[Event]) -> None:
            rfc3339.check_events(events, where)
            tally.add_all(events)

        head = logfile.verify(source, expect_head, progress, seen)
    voids = tuple(tally.voids())
    if not tally.any:
        return Verified(head, 0, 0, 0, 0, voids)
    return Verified(head, tally.outcomes, tally.verifiable, len(tally.ledger), tally.voided, voids)


def new(
    log: str | os.PathLike[str],
    game: str,
    match: str,
    players: Mapping[str, str] | Iterable[tuple[str, str]],
    *,
    rules: Mapping[str, Any] | None = None,
    keys: Mapping[str, str] | None = None,
    title: str | None = None,
    at: str | None = None,
    catalogue: Any = None,
) -> logfile.Head:
    """Create a match log holding its ``match.start`` (``kifu new``), durably and whole; an existing file is
    refused, never overwritten. Returns its head (seq 1 and the hash of its one line).

    ``players`` gives each seat's id and the player's name, in seat order (a mapping, or pairs: two seats under
    one id are refused); ``keys`` gives a player a stable key
    across matches (docs/sql.md, "People"); ``rules`` are the rule options (docs/games/); ``catalogue`` the
    table's own cards in the game's catalogue shape. Anything the game refuses raises the ``KifuError``
    naming the field, before anything is written.

    >>> import kifu, tempfile, pathlib
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "m1.jsonl"
    >>> kifu.new(log, "gunandgun", "R1-T3", {"a": "ミナト", "b": "ユキ"}).seq
    1
    >>> kifu.append(log, {"type": "note", "by": "a", "text": "shuffled"}).seq
    2
    """
    seats = list(players.items() if isinstance(players, Mapping) else players)
    keys = dict(keys or {})
    for pid in keys.keys() - {pid for pid, _ in seats}:
        seated = ", ".join(p for p, _ in seats) or "-"
        raise KifuError(Msg("log.key_no_player", player=pid, seats=seated), where=os.fspath(log), field="keys")
    start: dict[str, Any] = {
        "game": game,
        "match": match,
        "rules": dict(rules or {}),
        "players": [{"id": pid, "name": name, **({"key": keys[pid]} if pid in keys else {})} for pid, name in seats],
    }
    for field, value in (("title", title), ("at", at), ("catalogue", catalogue)):
        if value is not None:
            start[field] = value
    logfile.create(log, start)
    return logfile.verify(log)


def repair(log: str | os.PathLike[str]) -> logfile.Repaired | None:
    """Mend a log whose last line has no line end, losing no byte (``kifu repair``): a complete last event gets
    its line end back; a write cut short by a crash is first copied whole beside the log, then cut. None when
    there was nothing to mend. A complete line that fails to verify is evidence and is never removed."""
    return logfile.repair(log)


class UnknownActor(KifuError):
    """An event's ``by`` names nobody of the match: not a player, the judge, the recorder or the system."""

    def __init__(self, log: str, by: str, known: list[str]) -> None:
        super().__init__(Msg("log.unknown_by", by=by, known=", ".join(known)), where=log, field="by")
        self.by, self.known = by, known
        """What ``by`` said, and whom the match knows (``id (Name)`` of each player, then the roles)."""


def append(log: str | os.PathLike[str], event: Event | Mapping[str, Any], *, expect_seq: int | None = None) -> Event:
    """Append one event to a log, durably and whole, its seq and prev filled in under the file lock; with
    ``expect_seq``, only if it is the next seq. An event whose ``by`` names nobody of the match (KIFU-LOG-002
    would flag it at the audit) is refused before it is written: ``UnknownActor``."""
    by = event.get("by") if isinstance(event, Mapping) else getattr(event, "by", None)
    if by is not None:
        _check_by(log, by)
    return logfile.append(log, event if isinstance(event, Event) else dict(event), expect_seq=expect_seq)


def _check_by(log: str | os.PathLike[str], by: Any) -> None:
    stream = logfile.stream(log)
    try:
        start = next(stream)
    finally:
        getattr(stream, "close", lambda: None)()  # only the first line is read: the file is closed at once
    seats = {p.id: p.name for p in getattr(start, "players", ())}
    if by in seats or by in ROLES:
        return
    known = [f"{pid} ({name})" if name and name != pid else pid for pid, name in seats.items()] + list(ROLES)
    raise UnknownActor(os.fspath(log), str(by), known)


def _mismatch(head: logfile.Head, expect_head: str) -> Exception:
    from kifu.events.base import HeadMismatch
    from kifu.events.i18n import Msg

    return HeadMismatch(Msg("log.head_mismatch", seq=head.seq, hash=head.hash, expected=expect_head), seq=head.seq)


def voided(source: LogSource, progress: Progress | None = None) -> Voided:
    """The events a ``log.void`` took back, each with that void (``kifu show`` strikes them through).

    A log held whole gives them from one read; a long streamed one with a void is read again.
    """
    from kifu.auditor.report import collect_voided

    reading = Reading(source, progress)
    if reading.whole:
        return collect_voided(reading.voided(), reading.events)  # type: ignore[arg-type]
    consume(reading.stream())
    taken = reading.voided()
    return collect_voided(taken, reading.again()) if taken else {}


def chain(game: str, events: Iterable[Event | Mapping[str, Any]]) -> list[Event]:
    """A log in memory: ``events`` numbered from 1 and hash-chained, each decoded through ``game``'s codec.

    The one place a chained log is built in memory (a writer on disk is ``logfile``). The first
    event is the ``match.start``: as a mapping it may leave out ``type``, ``format`` and ``rules``.
    Events may be given as mappings (a simulator's bodies) or as events; a ``seq`` or ``prev`` they
    carry is replaced. The result audits (``kifu.audit``) as the same log read from a file would.

    >>> import kifu
    >>> start = {"game": "generic", "match": "m1", "players": [{"id": "a", "name": "Aoi"}]}
    >>> log = kifu.chain("generic", [start, {"type": "note", "by": "a", "text": "good game"}])
    >>> [(e.seq, type(e).__name__) for e in log], kifu.audit(log).findings
    ([(1, 'MatchStarted'), (2, 'Note')], [])
    """
    codec = table.require(game)
    out: list[Event] = []
    prev = None
    for seq, body in enumerate(events, 1):
        if isinstance(body, Event):
            event = msgspec.structs.replace(body, seq=seq, prev=prev)
        else:
            obj = {**_START, **body} if seq == 1 else dict(body)
            obj["seq"], obj["prev"] = seq, prev
            event = codec.convert(obj, seq=seq)
        out.append(event)
        prev = line_hash(encode(event))
    return out


_START = {"type": "match.start", "format": FORMAT, "rules": {}}
"""What a ``match.start`` given as a mapping may leave out."""
