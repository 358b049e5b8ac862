"""kifu's use cases, between the auditor and its callers (the command line, the warehouse, benchmarks, tests).

Each use case reads its log once, through the log layer's one verifier, and returns typed values:

* ``audit(source)`` -> ``Audit``: findings, the events voids took back, kifu's stance on each
  judge ruling, the provenance of edited messages, the head, the final state;
* ``report(source, lang)`` -> ``Report``: the match page drawn from that same pass, and its audit;
* ``state_at(source, seq)`` -> the frame after an event (time travel);
* ``board_at(source, seq, lang)`` -> the table drawn after an event, as SVG;
* ``verify(source)`` -> ``Verified``: the head and the random outcomes it records;
* ``voided(source)``: the events voids took back, with the voids;
* ``append(log, event)``: one event appended durably, whole, under the file lock (``by`` must name someone
  of the match: ``UnknownActor``);
* ``chain(game, events)``: a hash-chained log in memory (a simulator's match, a test's case);
* ``toss_commit``, ``toss_nonce``, ``toss_reveal``, ``toss_check`` -> ``TossCheck``: verifiable tosses
  over a chat (docs/randomness.md): the roller's commitment and reveal, an opponent's nonce, and every toss
  of a chat judged as the audit judges a match's.

A source is a log file's path, its bytes, or the events of a log built in memory. ``kifu``
re-exports them: ``kifu.audit("m1.jsonl").findings``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .judging import Audit, NoBoard, OutOfRange, Report, audit, board_at, report, state_at
    from .logs import UnknownActor, Verified, append, chain, new, repair, verify, voided
    from .reading import HOLD, LogSource
    from .tosses import TossCheck, toss_check, toss_commit, toss_nonce, toss_reveal

_HOME = {
    **dict.fromkeys(("Audit", "NoBoard", "OutOfRange", "Report", "audit", "board_at", "report", "state_at"), "judging"),
    **dict.fromkeys(("UnknownActor", "Verified", "append", "chain", "new", "repair", "verify", "voided"), "logs"),
    **dict.fromkeys(("HOLD", "LogSource"), "reading"),
    **dict.fromkeys(("TossCheck", "toss_check", "toss_commit", "toss_nonce", "toss_reveal"), "tosses"),
}
"""Where each name lives: imported on first use, so ``kifu verify`` never loads the auditor's rules."""


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)


__all__ = [
    "HOLD",
    "Audit",
    "NoBoard",
    "LogSource",
    "OutOfRange",
    "Report",
    "UnknownActor",
    "Verified",
    "append",
    "audit",
    "board_at",
    "chain",
    "new",
    "repair",
    "report",
    "state_at",
    "TossCheck",
    "toss_check",
    "toss_commit",
    "toss_nonce",
    "toss_reveal",
    "verify",
    "voided",
]
