"""Verifiable tosses written straight into a match log at one table (docs/randomness.md, "At one table").

The same protocol as over a chat, without the chat: the roller's commitment, the
opponents' nonces and the roller's reveal become ``rng.commit``, ``rng.nonce`` and
``rng.reveal``, and the outcomes the table uses ``random`` events that name the
commitment. The secret waits in the roller's secret store (``rng_store``).

``toss`` (``kifu append --toss``) makes a v2 commitment bound to the log's match,
the toss's purpose and its roll, shows it, asks each opponent for a nonce, and only
then appends the whole toss in one write: a toss given up at the nonce prompt
leaves nothing in the log (its secret stays unused in the store). A recorder that
must append the commitment before the answers (``commit``, ``answer``, ``reveal``
one by one) takes a commitment nobody answered back with ``withdraw``: a log.void
of an unanswered commitment is no finding.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable, Sequence

from . import logfile, rng, rng_store
from .base import Event, KifuError
from .i18n import Msg


@dataclass
class Toss:
    """One toss: its commitment, the opponents' nonces, the reveal, the outcomes and the events appended."""

    commitment: rng.Commitment
    roller: str = ""
    """The player who tosses (``by`` of the commit and the reveal)."""
    opponents: list[str] = field(default_factory=list)
    """The players who answer, in seat order."""
    named: bool = False
    """The opponents were named (``--opponent``): the commit records them."""
    purpose: str | None = None
    """What the toss decides, as the ``random`` events record it (None: not said)."""
    names: dict[str, str] = field(default_factory=dict)
    """Player id -> name, to ask each opponent by name."""
    nonces: list[rng.Nonce] = field(default_factory=list)
    reveal: rng.Reveal | None = None
    outcomes: list[tuple[int, int]] = field(default_factory=list)
    """(sides, face) of outcomes 0, 1 … as recorded."""
    events: list[Event] = field(default_factory=list)
    """Every event appended, in order."""

    @property
    def nonce(self) -> rng.Nonce | None:
        """The first opponent's nonce (v1 tosses have one)."""
        return self.nonces[0] if self.nonces else None


LogPath = str | os.PathLike[str]
"""A match log's path."""


def _stamp(e: dict[str, Any], at: str | None) -> dict[str, Any]:
    return {**e, "at": at} if at else e


def begin(
    log: LogPath,
    roller: str,
    opponents: Sequence[str] | None = None,
    sides: Sequence[int] = (2,),
    *,
    until: int | None = None,
    purpose: str | None = None,
    store: Path | None = None,
    warn: rng_store.Warn = rng_store._quiet,
) -> Toss:
    """A v2 commitment for a toss of ``roller`` in ``log``, made and stored but not yet appended: bound to the
    log's match, to ``purpose`` (``toss-<seq>`` of its commit when not said) and to the roll of ``sides``."""
    lg = logfile.load(log)
    players = [p.id for p in lg.start.players]
    if roller not in players:
        raise KifuError(Msg("cli.toss_not_a_player", who=roller, players=", ".join(players)), field="toss")
    named = opponents is not None
    chosen = [p for p in players if p != roller] if opponents is None else list(dict.fromkeys(opponents))
    for p in chosen:
        if p not in players or p == roller:
            others = ", ".join(q for q in players if q != roller)
            raise KifuError(Msg("cli.toss_not_a_player", who=p, players=others), field="opponent")
    if not chosen:
        raise KifuError(Msg("cli.toss_which_opponent"), field="opponent")
    token_purpose = rng.normalise_purpose(purpose) if purpose else f"toss-{lg.head.seq + 1}"
    roll = rng.Roll.of(list(sides) or [2], until)
    binding = rng.Binding(match=rng.match_field(lg.start.match), purpose=token_purpose, roll=roll.text())
    commitment = rng_store.new_commitment(store, binding, warn=warn)
    ordered = [p for p in players if p in chosen]
    names = {p.id: p.name for p in lg.start.players}
    return Toss(commitment=commitment, roller=roller, opponents=ordered, named=named, purpose=purpose, names=names)


def finish(
    log: LogPath,
    t: Toss,
    nonces: Sequence[str | None],
    *,
    store: Path | None = None,
    at: str | None = None,
    warn: rng_store.Warn = rng_store._quiet,
) -> Toss:
    """The whole toss appended in one write: the commit, each opponent's nonce (``nonces[i]`` as typed for
    ``t.opponents[i]``, or a fresh one when None), the reveal and one ``random`` event per run of dice of
    one size, naming the commitment and the index of its first outcome."""
    c = t.commitment
    t.nonces = [
        rng.new_nonce(c.id, c.version) if not n else rng.Nonce(id=c.id, text=rng.normalise_nonce(n), version=c.version)
        for n in nonces
    ]
    r = rng_store.reveal_for(t.nonces, store, warn=warn)
    assert c.binding is not None
    drawn = c.binding.dice.draw(r.stream())
    commit: dict[str, Any] = {"type": "rng.commit", "by": t.roller, "id": c.id, "digest": c.digest, "version": 2}
    commit |= {"match": c.binding.match, "purpose": c.binding.purpose, "roll": c.binding.roll}
    if t.named:
        commit["opponents"] = t.opponents
    events = [_stamp(commit, at)]
    events += [
        _stamp({"type": "rng.nonce", "by": who, "id": c.id, "nonce": n.text}, at)
        for who, n in zip(t.opponents, t.nonces)
    ]
    events.append(
        _stamp(
            {"type": "rng.reveal", "by": t.roller, "id": c.id, "secret": r.secret, "nonce": r.nonce, "version": 2}, at
        )
    )
    events += [_stamp(e, at) for e in _randoms(t.roller, c.id, drawn, t.purpose)]
    with logfile.Writer(log) as w:
        t.events = w.append_all(events)
    t.reveal, t.outcomes = r, drawn
    return t


def _randoms(by: str, id: str, drawn: Sequence[tuple[int, int]], purpose: str | None) -> list[dict[str, Any]]:
    out = []
    for index, (size, faces) in _runs(drawn):
        e: dict[str, Any] = {
            "type": "random",
            "by": by,
            "kind": "coin" if size == 2 else "die",
            "sides": size,
            "values": faces,
            "rng": {"commit": id, "index": index},
        }
        if purpose:
            e["purpose"] = purpose
        out.append(e)
    return out


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
    opponents: Sequence[str] | None,
    nonce: Sequence[str | None] | Callable[[Toss, str], str | None],
    sides: Sequence[int] = (2,),
    *,
    until: int | None = None,
    purpose: str | None = None,
    store: Path | None = None,
    warn: rng_store.Warn = rng_store._quiet,
) -> Toss:
    """The whole toss: ``begin``, then each opponent's nonce (``nonce`` may be a function that is shown the
    commitment and the opponent and asks), then ``finish``. Nothing is appended until every nonce is in."""
    t = begin(log, roller, opponents, sides, until=until, purpose=purpose, store=store, warn=warn)
    if callable(nonce):
        typed = [nonce(t, who) for who in t.opponents]
    else:
        typed = list(nonce) + [None] * (len(t.opponents) - len(nonce))
    return finish(log, t, typed[: len(t.opponents)], store=store, warn=warn)


# --- one step at a time, for a recorder that shows the commitment in the log first -----------------------


def commit(log: LogPath, by: str, *, store: Path | None = None, at: str | None = None) -> Toss:
    """Make and store a v1 secret, append its ``rng.commit`` by the roller ``by``, and return the toss begun."""
    c = rng_store.new_commitment(store)
    event = logfile.append(log, _stamp({"type": "rng.commit", "by": by, "id": c.id, "digest": c.digest}, at))
    return Toss(commitment=c, roller=by, events=[event])


def answer(log: LogPath, t: Toss, by: str, nonce: str | None = None, *, at: str | None = None) -> Toss:
    """Append the opponent's ``rng.nonce``: ``nonce`` as typed (normalised), or a fresh one when None."""
    c = t.commitment
    n = (
        rng.new_nonce(c.id, c.version)
        if not nonce
        else rng.Nonce(id=c.id, text=rng.normalise_nonce(nonce), version=c.version)
    )
    event = logfile.append(log, _stamp({"type": "rng.nonce", "by": by, "id": n.id, "nonce": n.text}, at))
    t.nonces.append(n)
    t.events.append(event)
    return t


def reveal(
    log: LogPath,
    t: Toss,
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
    if not t.nonces:
        raise rng.RngError("a toss is revealed after its nonce", field="nonce")
    r = rng_store.reveal_for(t.nonces, store)
    drawn = rng.draw(r, sides, until) if sides else []
    e: dict[str, Any] = {"type": "rng.reveal", "by": by, "id": r.id, "secret": r.secret, "nonce": r.nonce}
    if r.version == 2:
        e["version"] = 2
    appended = [logfile.append(log, _stamp(e, at))]
    for made in _randoms(by, r.id, drawn, purpose):
        appended.append(logfile.append(log, _stamp(made, at)))
    t.reveal, t.outcomes = r, drawn
    t.events.extend(appended)
    return t


def withdraw(log: LogPath, t: Toss, *, reason: str = "toss given up before it was answered") -> Event:
    """Take back a commitment nobody answered (the recorder's log.void): nothing was fixed, so no finding."""
    commit_seq = next(e.seq for e in t.events if type(e).__struct_config__.tag == "rng.commit")
    return logfile.append(log, {"type": "log.void", "by": "recorder", "about": [commit_seq], "reason": reason})
