"""kifu (棋譜): an event-sourced match log and ruling auditor for tabletop card games.

The public API is the application layer's use cases (``kifu.app``), re-exported here:

>>> import kifu
>>> done = kifu.audit("fixtures/gunandgun/dispute.jsonl")
>>> done.head.seq, [(f.code, f.seq) for f in done.errors]
(55, [('GG-TOSS-001', 14), ('GG-LIM-001', 27)])

They are imported on first use, so ``import kifu`` stays cheap for every command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import games  # noqa: F401  (the one list of games, registered with the game table every layer reads)

__version__ = "0.1.0"

if TYPE_CHECKING:
    from .app import (
        Audit,
        NoBoard,
        OutOfRange,
        Report,
        UnknownActor,
        Verified,
        append,
        audit,
        board_at,
        chain,
        new,
        repair,
        report,
        state_at,
        verify,
    )
    from .events.base import KifuError
    from .events.importers import import_file
    from .app.recording import Recording
    from .app.tosses import TossCheck, toss_check, toss_commit, toss_nonce, toss_reveal
    from .warehouse.ingest import Summary, ingest_logs as ingest

_API = {
    "Audit": "app",
    "Report": "app",
    "Verified": "app",
    "UnknownActor": "app",
    "KifuError": "events.base",
    "append": "app",
    "new": "app",
    "repair": "app",
    "import_file": "events.importers:import_file",
    "NoBoard": "app",
    "OutOfRange": "app",
    "Recording": "app.recording",
    "audit": "app",
    "board_at": "app",
    "chain": "app",
    "report": "app",
    "state_at": "app",
    "verify": "app",
    "TossCheck": "app.tosses",
    "toss_check": "app.tosses",
    "toss_commit": "app.tosses",
    "toss_nonce": "app.tosses",
    "toss_reveal": "app.tosses",
    "ingest": "warehouse.ingest:ingest_logs",
    "Summary": "warehouse.ingest",
}
__all__ = [
    "Audit",
    "KifuError",
    "NoBoard",
    "OutOfRange",
    "Recording",
    "Report",
    "Summary",
    "UnknownActor",
    "Verified",
    "__version__",
    "append",
    "audit",
    "board_at",
    "chain",
    "import_file",
    "ingest",
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
]


def __getattr__(name: str) -> Any:
    """The API's names, each imported from its layer the first time it is asked for."""
    where = _API.get(name)
    if where is None:
        raise AttributeError(f"module 'kifu' has no attribute {name!r}")
    import importlib

    module, _, attr = where.partition(":")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), attr or name)
    globals()[name] = value
    return value
