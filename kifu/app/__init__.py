"""kifu's use cases, between the auditor and its callers (the command line, the warehouse, benchmarks, tests).

Each use case reads its log once, through the log layer's one verifier, and returns typed values:

* ``audit(source)`` -> ``Audit``: findings, the events voids took back, kifu's stance on each
  judge ruling, the provenance of edited messages, the head, the final state;
* ``report(source, lang)`` -> ``Report``: the match page drawn from that same pass, and its audit;
* ``state_at(source, seq)`` -> the frame after an event (time travel);
* ``board_at(source, seq, lang)`` -> the table drawn after an event, as SVG;
* ``verify(source)`` -> ``Verified``: the head and the random outcomes it records;
* ``voided(source)``: the events voids took back, with the voids;
* ``chain(game, events)``: a hash-chained log in memory (a simulator's match, a test's case).

A source is a log file's path, its bytes, or the events of a log built in memory. ``kifu``
re-exports them: ``kifu.audit("m1.jsonl").findings``.
"""

from .judging import Audit, NoBoard, OutOfRange, Report, audit, board_at, report, state_at
from .logs import Verified, chain, verify, voided
from .reading import HOLD, LogSource

__all__ = [
    "HOLD",
    "Audit",
    "NoBoard",
    "LogSource",
    "OutOfRange",
    "Report",
    "Verified",
    "audit",
    "board_at",
    "chain",
    "report",
    "state_at",
    "verify",
    "voided",
]
