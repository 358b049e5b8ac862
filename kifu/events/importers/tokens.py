"""kifu's verifiable-toss tokens in chat messages: ``rng.*`` events, and the outcomes posted with a reveal.

Source: docs/randomness.md ("Reading tokens from chat text", "Posting the
outcomes") and docs/importers.md. Every message is read with ``rng.read_chat``:
a commit, nonce or reveal token becomes its ``rng.commit``, ``rng.nonce`` or
``rng.reveal`` event (the message stays its ``src``); the outcomes posted after a
reveal's arrow (``→ 裏``, ``→ d6=4``) become ``random`` templates naming the
commitment, which a mapping's ``[[roll]]`` entry may turn into a game's tosses.

A token the chat changed on the way (check digits or id that do not hold) is
still recorded as it reads, and listed in the import report: the audit then
says what it does not match, at that message. A token repeating one that another
speaker posted earlier is a quote (a reply that cites the roller's line), not a
new commit, nonce or reveal: it stays in its message's text and makes no event.

A v2 commitment names its roll, so a v2 reveal fixes its outcomes even when it
posts none: they are then recorded as the reveal derives them (with the
commitment's purpose), and the audit checks the reveal itself. Posted outcomes
are recorded as posted, so that one changed on the way is a finding at its message.
``kifu toss check`` reads a pasted chat through this same class.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import rng
from ..i18n import Msg
from .common import ImportReport, Message, entry, inner


@dataclass
class Read:
    """What the tokens of one message make."""

    events: list[dict[str, Any]] = field(default_factory=list)
    """``rng.commit``, ``rng.nonce`` and ``rng.reveal`` events, in the message's order."""
    randoms: list[dict[str, Any]] = field(default_factory=list)
    """The outcomes a reveal posted, as ``random`` templates (one per run of dice of one size)."""


_NOTHING = Read()
"""What a message without tokens makes (shared: callers only read it)."""


class Tokens:
    """Reads the tokens of a chat's messages in order, remembering who posted each (to tell quotes)."""

    def __init__(self, report: ImportReport) -> None:
        self.report = report
        self.posted: dict[str, str | None] = {}
        """Each token as first read (canonical text) -> who posted it."""
        self.commitments: dict[str, rng.Commitment] = {}
        """The first valid v2 commitment of each id: what a v2 reveal's outcomes are drawn by."""

    def read(self, msg: Message, base: dict[str, Any]) -> Read:
        found_all = rng.read_chat(msg.text)
        if not found_all:
            return _NOTHING  # most messages: read once, nothing to make
        out = Read()
        who = base.get("by") or (f"@{msg.speaker}" if msg.speaker else None)
        seen: set[str] = set()
        for found in found_all:
            made = _event(found)
            if made is None:
                if isinstance(found.token, rng.Refused):  # unreadable even as written: nothing to record
                    self.report.unreadable.append(
                        entry(msg.loc, Msg("import.token_unreadable", kind=found.token.kind, reason=_why(found.token)))
                    )
                continue
            key = _key(made)
            if key in seen:
                continue  # the same token twice in one message
            seen.add(key)
            first = self.posted.setdefault(key, who)
            if first != who:
                self.report.rng_quotes += 1
                continue
            e = {**base, **made}
            if "by" not in base and msg.speaker and not msg.system:
                e["speaker"] = msg.speaker
            out.events.append(e)
            self.report.rng += 1
            if isinstance(found.token, rng.Refused):
                self.report.refused.append(
                    entry(msg.loc, Msg("import.token_refused", text=found.token.text[:40], reason=_why(found.token)))
                )
            if isinstance(found.token, rng.Commitment) and found.token.binding is not None:
                self.commitments.setdefault(found.token.id, found.token)
            if made["type"] == "rng.reveal":
                out.randoms.extend(self._outcomes(made["id"], found))
        return out

    def _outcomes(self, id: str, found: rng.Found) -> list[dict[str, Any]]:
        """``random`` templates of a reveal's outcomes: those posted after its arrow; for a v2 reveal that
        posts none, those it derives by its commitment's roll (a reveal alone is a whole toss)."""
        commitment = self.commitments.get(id)
        purpose = commitment.binding.purpose if commitment is not None and commitment.binding else None
        claims = found.claims
        token = found.token
        if (
            not found.arrow
            and isinstance(token, rng.Reveal)
            and token.version == 2
            and commitment is not None
            and commitment.binding is not None
            and rng.verify_reveal(commitment, token)
        ):
            claims = tuple(commitment.binding.dice.draw(token.stream()))
        return _claimed(id, claims, purpose)


def _event(found: rng.Found) -> dict[str, Any] | None:
    """The event a token makes: the valid token's fields, or a changed token's fields as they read."""
    token, fields = found.token, found.fields
    if token.kind == "c1" and {"id", "digest"} <= fields.keys():
        return {"type": "rng.commit", "id": fields["id"], "digest": fields["digest"]}
    if token.kind == "c2" and {"id", "digest", "match", "purpose", "roll"} <= fields.keys():
        try:  # a binding that does not even read as one cannot be recorded: the token is unreadable
            rng.Binding(match=fields["match"], purpose=fields["purpose"], roll=fields["roll"])
        except rng.RngError:
            return None
        bound = {k: fields[k] for k in ("match", "purpose", "roll")}
        return {"type": "rng.commit", "id": fields["id"], "digest": fields["digest"], "version": 2, **bound}
    if token.kind in ("n1", "n2") and isinstance(token, rng.Nonce):
        return {"type": "rng.nonce", "id": token.id, "nonce": token.text}
    if token.kind in ("r1", "r2") and {"id", "secret", "nonce"} <= fields.keys():
        made = {"type": "rng.reveal", "id": fields["id"], "secret": fields["secret"], "nonce": fields["nonce"]}
        return made | {"version": 2} if token.kind == "r2" else made
    return None


def _key(made: dict[str, Any]) -> str:
    return ":".join(str(v) for v in made.values())


def _claimed(id: str, claims: tuple[tuple[int, int], ...], purpose: str | None = None) -> list[dict[str, Any]]:
    """``random`` templates of a reveal's outcomes: one per run of one die size (with the commitment's purpose)."""
    out: list[dict[str, Any]] = []
    index = 0
    for sides, face in claims:
        if out and out[-1]["sides"] == sides:
            out[-1]["values"].append(face)
        else:
            made: dict[str, Any] = {
                "type": "random",
                "kind": "coin" if sides == 2 else "die",
                "sides": sides,
                "values": [face],
                "rng": {"commit": id, "index": index} if index else {"commit": id},
            }
            if purpose is not None:
                made["purpose"] = purpose
            out.append(made)
        index += 1
    return out


def _why(token: rng.Refused) -> Any:
    """Why kifu could not take ``token``, as a report entry's value: rendered in the reader's language (the JSON
    report keeps the English)."""
    why = token.why
    return inner(why) if isinstance(why, Msg) else why
