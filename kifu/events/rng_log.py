"""Verifiable tosses written straight into a match log at one table (docs/randomness.md, "At one table").

The same protocol as over a chat, without the chat: the roller's commitment, the
opponent's nonce and the roller's reveal are appended as ``rng.commit``,
``rng.nonce`` and ``rng.reveal``, and the outcomes the table uses as ``random``
events that name the commitment. The secret waits in the roller's secret store
(``rng_store``) from the commit to the reveal. ``kifu append --toss`` runs the
three steps in one go; a recorder that shows the commitment before it asks for
the nonce (``kifu record``) calls them one by one.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable, Sequence

from . import logfile, rng, rng_store
from .base import Event


@dataclass
class Toss:
    """One toss as it was appended: its three messages, the events and the outcomes."""

    commitment: rng.Commitment
    nonce: rng.Nonce | None = None
    reveal: rng.Reveal | None = None
    outcomes: list[tuple[int, int]] = field(default_factory=list)
    """(sides, face) of outcomes 0, 1 … as recorded."""
    events: list[Event] = field(default_factory=list)
    """Every event appended, in order."""


LogPath = str | os.PathLike[str]
"""A match log's path."""


def _stamp(e: dict[str, Any], at: str | None) -> dict[str, Any]:
    return {**e, "at": at} if at else e


def commit(log: LogPath, by: str, *, store: Path | None = None, at: str | None = None) -> Toss:
    """Make and store a secret, append its ``rng.commit`` by the roller ``by``, and return the toss begun."""
    c = rng_store.new_commitment(store)
    event = logfile.append(log, _stamp({"type": "rng.commit", "by": by, "id": c.id, "digest": c.digest}, at))
    return Toss(commitment=c, events=[event])


def answer(log: LogPath, toss: Toss, by: str, nonce: str | None = None, *, at: str | None = None) -> Toss:
    """Append the opponent's ``rng.nonce``: ``nonce`` as typed (normalised), or a fresh one when None."""
    n = (
        rng.new_nonce(toss.commitment.id)
        if not nonce
        else rng.Nonce(id=toss.commitment.id, text=rng.normalise_nonce(nonce))
    )
    event = logfile.append(log, _stamp({"type": "rng.nonce", "by": by, "id": n.id, "nonce": n.text}, at))
    toss.nonce = n
    toss.events.append(event)
    return toss


def reveal(
    log: LogPath,
    toss: Toss,
    by: str,
    sides: Sequence[int] = (),
    *,
    until: int | None = None,
    purpose: str | None = None,
    store: Path | None = None,
    at: str | None = None,
) -> Toss:
    """Append the roller's ``rng.reveal`` and, for ``sides`` (see ``rng.draw``), one ``random`` event per run of
    dice of one size, naming the commitment and the index of its first outcome."""
    if toss.nonce is None:
        raise rng.RngError("a toss is revealed after its nonce", field="nonce")
    r = rng_store.reveal_for(toss.nonce, store)
    drawn = rng.draw(r, sides, until) if sides else []
    appended = [
        logfile.append(
            log, _stamp({"type": "rng.reveal", "by": by, "id": r.id, "secret": r.secret, "nonce": r.nonce}, at)
        )
    ]
    for index, (size, faces) in _runs(drawn):
        e: dict[str, Any] = {
            "type": "random",
            "by": by,
            "kind": "coin" if size == 2 else "die",
            "sides": size,
            "values": faces,
            "rng": {"commit": r.id, "index": index},
        }
        if purpose:
            e["purpose"] = purpose
        appended.append(logfile.append(log, _stamp(e, at)))
    toss.reveal, toss.outcomes = r, drawn
    toss.events.extend(appended)
    return toss


def _runs(drawn: Sequence[tuple[int, int]]) -> list[tuple[int, tuple[int, list[int]]]]:
    """(index of the first outcome, (sides, faces)) for each run of outcomes of one die size."""
    out: list[tuple[int, tuple[int, list[int]]]] = []
    for i, (size, face) in enumerate(drawn):
        if out and out[-1][1][0] == size:
            out[-1][1][1].append(face)
        else:
            out.append((i, (size, [face])))
    return out


def toss(
    log: LogPath,
    roller: str,
    opponent: str,
    nonce: str | None | Callable[[Toss], str | None],
    sides: Sequence[int] = (),
    *,
    until: int | None = None,
    purpose: str | None = None,
    store: Path | None = None,
) -> Toss:
    """The three steps at once: commit, then the opponent's nonce (``nonce`` may be a function that is shown
    the commitment and asks for it), then the reveal and its outcomes."""
    t = commit(log, roller, store=store)
    typed = nonce(t) if callable(nonce) else nonce
    answer(log, t, opponent, typed)
    return reveal(log, t, roller, sides, until=until, purpose=purpose, store=store)
