"""Loading a log in pieces of lines: linear time at any size, and one big log in bounded memory.

Issue 32, defect 12: a log was loaded as one string that DuckDB split into its lines, with
one list of envelope columns per match; DuckDB's time grew faster than the log (25 MB
2.8 s, 51 MB 15 s; 256 MB 338 s), and a worker held the whole log three times over (its
bytes, its events, the columns), then handed the bytes to the loading process (a 1 GB log
reached 9.1 GB). Two remedies, used by ``ingest``:

* every match is handed to DuckDB in pieces of at most ``PIECE`` lines, each with its own
  columns and the seq of its first line (``pieces``, ``PARSE``): linear time;
* a log over ``STREAM_ABOVE`` bytes is not read whole by a worker: it is verified and
  audited as it streams (``check``: the log layer's one verifier over blocks of lines, the
  auditor fed one event at a time; only the match row, the findings and the head are
  kept), then streamed again into the warehouse inside the batch's one transaction
  (``load``: each block verified again, its lines parsed as one piece; the head must be
  the one audited, else the file changed between the passes and the log is refused).
  Memory holds a block and the audit's state, whatever the log's size.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import msgspec

from kifu.events import limits, logfile, rfc3339
from kifu.events.base import Event, KifuError, MatchEnded, MatchStarted
from kifu.events.i18n import Msg

if TYPE_CHECKING:
    import duckdb

    from .checked import Audit, Checked

STREAM_ABOVE = 64 << 20
"""Bytes of one log above which it is ingested as it streams (two passes, bounded memory)."""
PIECE = 16_384
"""Lines of a log DuckDB splits in one piece (a piece's cost is linear; a whole big log's was not)."""

# $contents are pieces of verified files (whole lines, each ending in a newline), $columns one JSON
# document per piece with the envelope columns the worker decoded, $bases the seq before each
# piece's first line. A piece ends with a newline, so its last split piece is empty and has no seq.
# A time counts only with its UTC offset (KIFU-LOG-004): a naive one would silently become UTC.
PARSE = """
WITH f AS (SELECT unnest($matches) AS match, unnest($bases) AS base, unnest($columns) AS cols,
                  unnest($contents) AS content),
p AS (SELECT match, base, content,
             from_json(cols, '{"type": ["VARCHAR"], "at": ["VARCHAR"], "by": ["VARCHAR"], "src": ["JSON"]}') AS c
      FROM f),
l AS (SELECT match, base, unnest(string_split(content, chr(10))) AS raw, generate_subscripts(c.type, 1) AS i,
             unnest(c.type) AS type, unnest(c."at") AS at_text, unnest(c.by) AS actor, unnest(c.src) AS src
      FROM p)
SELECT match, base + i AS seq, type,
       CASE WHEN regexp_matches(at_text, '([Zz]|[+-][0-9][0-9]:?[0-9][0-9])$') THEN TRY_CAST(at_text AS TIMESTAMPTZ) END
           AS time,
       actor, src, CASE WHEN suffix(raw, chr(13)) THEN left(raw, length(raw) - 1) ELSE raw END AS line
FROM l WHERE i IS NOT NULL
"""
CREATE_BATCH = "CREATE OR REPLACE TEMP TABLE _batch AS " + PARSE
APPEND_BATCH = "INSERT INTO _batch " + PARSE


def pieces(data: bytes, columns: bytes) -> Iterator[tuple[int, bytes, bytes]]:
    """(seq before its first line, its lines, their columns) for each piece of ``PIECE`` lines of a log."""
    if data.count(b"\n") <= PIECE:
        yield 0, data, columns
        return
    cols = msgspec.json.decode(columns)
    at = base = 0
    while at < len(data):
        end = at
        for _ in range(PIECE):
            end = data.find(b"\n", end) + 1
            if end == 0:
                end = len(data)
                break
        part = {k: v[base : base + PIECE] for k, v in cols.items()}
        yield base, data[at:end], msgspec.json.encode(part)
        base += len(part["type"])
        at = end


def parse(con: duckdb.DuckDBPyConnection, sql: str, rows: list[tuple[str, int, bytes, bytes]]) -> None:
    """Run ``CREATE_BATCH`` or ``APPEND_BATCH`` over (match, base, lines, columns) pieces."""
    con.execute(
        sql,
        {
            "matches": [r[0] for r in rows],
            "bases": [r[1] for r in rows],
            "contents": [r[2].decode() for r in rows],
            "columns": [r[3].decode() for r in rows],
        },
    )


# --- one big log ------------------------------------------------------------------------------


class Blocks:
    """(the bytes of a block of whole lines, its verified events) of a log, as ``logfile.Reader.blocks`` reads
    them: the log layer's one verifier, about a mebibyte at a time; a line that does not verify raises.
    ``head`` is the log's head once iterated to its end."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.head: logfile.Head | None = None

    def __iter__(self) -> Iterator[tuple[bytes, list[Event]]]:
        verifier = logfile.Verifier(self.path)
        try:
            fh = open(self.path, "rb")
        except OSError as exc:
            raise KifuError(Msg("io.cannot_read", reason=exc.strerror), where=self.path) from None
        # The verifier may hand a block's last event over with the next block's: the lines wait here until
        # their events are verified, so each block's bytes are exactly its events' lines.
        waiting: deque[bytes] = deque()
        with fh:
            offset, rest = 0, b""
            while chunk := fh.read(1 << 20):
                cut = chunk.rfind(b"\n")
                if cut < 0:
                    rest += chunk
                    if len(rest) > limits.MAX_LINE:
                        raise verifier.too_long(rest, offset)[1]
                    continue
                data, rest = rest + chunk[: cut + 1], chunk[cut + 1 :]
                waiting.extend(data.split(b"\n")[:-1])
                events, error = verifier.block(data, offset)
                if error is not None:
                    raise error
                if events:
                    yield _lines(waiting, len(events)), events
                offset += len(data)
            if rest:
                waiting.append(rest)
            events, error = verifier.finish(rest, offset)
            if error is not None:
                raise error
            if events:
                yield _lines(waiting, len(events)), events
        self.head = verifier.head


def _lines(waiting: deque[bytes], n: int) -> bytes:
    """The first ``n`` lines waiting, each with its newline."""
    return b"".join(waiting.popleft() + b"\n" for _ in range(n))


class _Watched:
    """The events of a streamed log as the auditor reads them, noting what the match row needs."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.start: MatchStarted | None = None
        self.end: MatchEnded | None = None
        self.events = 0
        self.head: Any = None

    def __iter__(self) -> Iterator[Event]:
        blocks = Blocks(self.path)
        for _, events in blocks:
            rfc3339.check_events(events, self.path)  # as ``ingest.check_bytes`` refuses what it cannot store
            for e in events:
                if self.start is None:
                    assert isinstance(e, MatchStarted)  # the verifier refuses any other first line
                    self.start = e
                elif self.end is None and type(e) is MatchEnded:
                    self.end = e
                yield e
            self.events += len(events)
        self.head = blocks.head


def check(path: str, audit: Audit | None, known: dict[str, str] | None = None) -> Checked:
    """``ingest.check_match`` of a big log, as it streams: the match row, the findings and the head, no bytes.

    ``audit`` (``kifu.app.audit``) reads the file itself, a block at a time (a second read only if
    the log holds a void); without one the log is only verified.
    """
    from .checked import Checked, finding_row, ruling_rows
    from .views import match_facts

    done = None
    try:
        if audit is None:
            watched = _Watched(path)
            for _ in watched:
                pass
            start, end, head, count = watched.start, watched.end, watched.head, watched.events
        else:
            done = audit(path)  # type: ignore[arg-type]  # the app's audit reads a path as it reads a Log
            start, end, head, count = done.start, done.end, done.head, done.head.seq
            _storable(done, path)
    except KifuError as exc:
        return Checked(path, error=exc.located(path))
    assert start is not None and head is not None
    row = {
        "match": start.match,
        "game": start.game,
        "title": start.title,
        "players": [{"id": p.id, "name": p.name, "key": p.key} for p in start.players],
        "rules": msgspec.json.encode(start.rules).decode(),
        "events": count,
        "head": head.hash,
        "ended_seq": end.seq if end else None,
        "winner": end.winner if end else None,
        "end_reason": end.reason if end else None,
        "source": path,
    }
    out = Checked(path, match=start.match, head=head.hash, events=count, row=row, streamed=True)
    stored = (known or {}).get(out.match)
    if stored == head.hash:
        return out
    if stored is not None:
        extends = _seq_of_hash(path, stored)
        if extends is not None:
            out.extends = extends
            return out
    if done is not None:
        for f in done.findings:
            out.findings.append(finding_row(out.match, f))
            out.counts[f.severity] = out.counts.get(f.severity, 0) + 1
        out.facts = match_facts(out.match, done.game, done.final.game)
        out.rulings = ruling_rows(out.match, done.stances)
    return out


def _storable(done: Any, path: str) -> None:
    """Refuse, as ``ingest.check_bytes`` does, a streamed log the warehouse cannot store as written: the audit
    read every event once, and its KIFU-LOG-004 names each time that is not strict RFC 3339."""
    rfc3339.check_seats(done.start, where=path)
    for f in done.findings:
        if f.code == "KIFU-LOG-004":
            rfc3339.check_time(f.evidence.get("at"), where=path, line=f.seq, seq=f.seq)
    if any(f.consequences for f in done.findings):
        # A KIFU-LOG-004 after a decided match is folded into that finding and names no time: the times
        # are read once more, only for such a log (rare), as the verify-only path reads them.
        for _ in _Watched(path):
            pass


def _seq_of_hash(path: str, head: str) -> int | None:
    """The seq whose line hashes to ``head`` (a verified prev names the line before), streamed once more."""
    for _, events in Blocks(path):
        for e in events:
            if e.prev == head:
                return e.seq - 1
    return None


def load(con: duckdb.DuckDBPyConnection, c: Checked, create: bool) -> None:
    """Fill ``_batch`` with a streamed log's lines, a block at a time, inside the caller's transaction
    (``create``: the first rows of the batch make the table).

    Each block is verified again and parsed as it comes; the head reached must be the one the
    audit saw, else the file changed between the two passes and nothing of it is stored.
    """
    from .checked import columns, types_of

    from kifu.auditor.tally import Tally

    sql = CREATE_BATCH if create else APPEND_BATCH
    blocks = Blocks(c.path)
    tally = Tally()  # its randomness row, counted as the blocks go by (as ``ingest.randomness_row`` does whole)
    for data, events in blocks:
        parse(con, sql, [(c.match, events[0].seq - 1, data, columns(events, types_of(events)))])
        tally.add_all(events)
        sql = APPEND_BATCH
    if blocks.head is None or blocks.head.hash != c.head:
        raise KifuError(Msg("warehouse.changed_meanwhile", head=c.head), where=c.path)
    r = tally.result()
    c.randomness = {"match": c.match, "verifiable": sorted(r.verified), "voided": sorted(r.voided_seqs)}


def big(path: str) -> bool:
    """True for a log ``ingest`` streams rather than reads whole."""
    try:
        return os.path.getsize(path) > STREAM_ABOVE
    except OSError:
        return False
