"""Verifiable tosses over a chat (docs/randomness.md) as use cases: commit, nonce, reveal, check.

The roller ``commit``\\ s and ``reveal``\\ s, each opponent answers with a ``nonce``, anyone ``check``\\ s the
chat. Each returns typed values; ``kifu toss`` only parses its arguments, calls these and prints:

>>> import kifu
>>> chat = [
...     "ミナト: kifu:c2:5521jj1r:r1-t3:first-player:coin:2944194838efdcffca2f304a347f0510278ab3152a0ed13f077890f1f6e603f0:e05196",
...     "ハル: kifu:n2:5521jj1r:q4v8c1m9z2x7b5n3k6pw",
...     "ユキ: kifu:n2:5521jj1r:7d2mq9xk4fa8wz3np6rt",
...     "ミナト: kifu:r2:5521jj1r:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f:e68bd5:7d2mq9xk4fa8wz3np6rt → 表",
... ]
>>> toss = kifu.toss_check(chat, players=["ミナト", "ユキ"], match="R1-T3").tosses[0]
>>> toss.verdict.value, toss.outcomes
('verified', [(2, 1)])
>>> [(p.code, p.severity) for p in toss.problems]  # the spectator ハル's nonce: recorded and ignored
[('KIFU-RNG-003', 'info')]
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kifu.events import rng
from kifu.events.base import KifuError
from kifu.events.i18n import Msg


# --- commit, nonce, reveal -------------------------------------------------------------------------------


def _ignore(err: rng.RngError) -> None:
    """A damaged line of the secret store, when the caller does not ask to hear of it: it is skipped."""


def toss_commit(
    match: str | None = None,
    purpose: str | None = None,
    roll: rng.Roll | None = None,
    *,
    v1: bool = False,
    store: Path | None = None,
    warn: Callable[[rng.RngError], None] | None = None,
) -> Any:
    """A new commitment, its secret kept in the secret store (``store``, else the default one): the roller's
    first line is its ``format()``. A v2 commitment is bound to ``match``, ``purpose`` and ``roll`` (default
    one coin); ``v1`` makes an old one, bound to nothing. ``warn`` hears of each damaged line of the store
    (skipped). Raises ``rng.RngError`` when a v2 commitment lacks its match or purpose."""
    from kifu.events import rng_store

    if v1:
        return rng_store.new_commitment(store, warn=warn or _ignore)
    if not match or not purpose:
        raise rng.RngError(Msg("rng.commit_needs"), field="match")
    dice = roll if roll is not None else rng.Roll.of([2], None)
    binding = rng.Binding(match=rng.match_field(match), purpose=rng.normalise_purpose(purpose), roll=dice.text())
    return rng_store.new_commitment(store, binding, warn=warn or _ignore)


@dataclass(frozen=True)
class Answer:
    """An opponent's nonce answering a commitment, and the commitment as its message showed it."""

    nonce: rng.Nonce
    """The nonce to post (``nonce.format()``)."""
    commitment: rng.Commitment | None
    """The commitment answered, when its whole message was given (what the toss is for), else None."""


def toss_nonce(commitment: str) -> Answer:
    """A fresh nonce (100 random bits) answering ``commitment``: the roller's whole commit message, or just
    its public id. The commit message tells the toss's match, purpose and dice, and its version."""
    found = [t for t in rng.find_tokens(commitment) if isinstance(t, rng.Commitment)]
    c = found[0] if len(found) == 1 else None
    id = c.id if c is not None else commitment_id(commitment)
    return Answer(rng.new_nonce(id, 1 if c is not None and c.version == 1 else 2), c)


@dataclass(frozen=True)
class Revealed:
    """A reveal and the outcomes it fixes."""

    reveal: rng.Reveal
    """The reveal token (``reveal.format()``)."""
    outcomes: list[tuple[int, int]]
    """(sides, face) of each outcome drawn, from outcome 0: the v2 commitment's roll, or the v1 roll asked."""
    weak: list[str] = field(default_factory=list)
    """The v2 nonces answered below the minimum strength (accepted: the caller warns)."""

    def line(self, lang: str = "en") -> str:
        """The line to post: the token, and the outcomes after an arrow (in ``lang``'s words)."""
        token = self.reveal.format()
        return f"{token} {rng.format_claims(self.outcomes, lang)}" if self.outcomes else token


class RollBound(KifuError):
    """A v2 reveal asked for other dice than its commitment is bound to."""

    def __init__(self, id: str, roll: str) -> None:
        super().__init__(Msg("rng.roll_bound", id=id, roll=roll), field="roll")
        self.id, self.roll = id, roll


def toss_reveal(
    answers: Sequence[str],
    nonces: Sequence[str] = (),
    roll: rng.Roll | None = None,
    *,
    store: Path | None = None,
    warn: Callable[[rng.RngError], None] | None = None,
) -> Revealed:
    """The reveal of the commitment the ``answers`` (the opponents' nonce messages, or its id) name, with
    ``nonces`` given apart (messages, or bare nonces of that id); the secret comes from the store. A v2
    commitment draws its own roll (``roll``, if given, must be it: ``RollBound``); a v1 one draws ``roll``.
    Raises ``rng.RngError`` (no nonce, several ids, an unknown id) and the store's errors."""
    from kifu.events import rng_store

    id, answered = _answers(list(answers), list(nonces))
    entry = rng_store.entry_for(id, store, warn=warn or _ignore)
    if entry.version == 2:
        binding = entry.binding
        assert binding is not None
        if roll is not None and roll.text() != binding.roll:
            raise RollBound(id, binding.roll)
        weak = [n.text for n in answered if not rng.is_strong(n.text)]
        r = rng_store.reveal_for(answered, store)
        return Revealed(r, binding.dice.draw(r.stream()), weak)
    if len(answered) != 1:
        raise rng.RngError(Msg("rng.v1_one_nonce"), field="nonce")
    r = rng_store.reveal_for(answered[0], store)
    return Revealed(r, roll.draw(r.stream()) if roll is not None else [])


def commitment_id(text: str) -> str:
    """An id as typed, or the id a pasted commit, nonce or reveal message names."""
    found = rng.find_tokens(text)
    if found:
        ids = {t.id for t in found}
        if len(ids) > 1:
            raise rng.RngError(Msg("rng.nonces_ids", ids=", ".join(sorted(ids))), field="id")
        return ids.pop()
    return rng.normalise_id(text)


def _answers(texts: list[str], extra: list[str]) -> tuple[str, list[rng.Nonce]]:
    """The commitment id and the opponents' nonces given: nonce messages (their tokens name the id), an id or a
    commit message, and ``extra`` values (messages, or bare nonces of that id)."""
    ids: set[str] = set()
    nonces: list[rng.Nonce] = []
    bare: list[str] = []
    for text in [*texts, *extra]:
        tokens = rng.find_tokens(text)
        if tokens:
            ids |= {t.id for t in tokens}
            nonces += [t for t in tokens if isinstance(t, rng.Nonce)]
        elif text in extra:
            bare.append(text)
        else:
            ids.add(rng.normalise_id(text))
    if len(ids) != 1:
        raise rng.RngError(Msg("rng.nonces_ids", ids=", ".join(sorted(ids)) or "-"), field="nonce")
    id = ids.pop()
    nonces += [rng.Nonce(id=id, text=rng.normalise_nonce(b)) for b in bare]
    unique = list({n.text: n for n in nonces}.values())
    if not unique:
        raise rng.RngError(Msg("rng.no_token", kind="n"), field="nonce")
    return id, unique


# --- check -----------------------------------------------------------------------------------------------


@dataclass
class Said:
    """One message of a pasted chat or an export: where it is, what it says, and who said it."""

    loc: str
    """Its place: ``line 3`` of pasted text, ``FILE:3``, ``#2`` (the second text given), an export's own."""
    text: str
    """The message as written."""
    speaker: str | None = None
    """Who posted it, as the chat names them (None: not known)."""


_SPEAKER = re.compile(r"^\s*(?:\[[^\]\n]{1,40}\]\s*)?(?P<name>[^\s:：>\[`*@][^:：\n]{0,40}?)\s*[:：]\s?(?P<text>.*)$")
"""A pasted chat line ``name: text`` (also ``[main] name : text`` as CCFOLIA shows it, and a full-width colon)."""


def _speaker_line(line: str) -> tuple[str, str] | None:
    m = _SPEAKER.match(line)
    if m is None:
        return None
    name = m.group("name").strip()
    folded = unicodedata.normalize("NFKC", name).lower()
    if folded == "kifu" or m.group("text").startswith("//"):  # a token or an address, not a speaker
        return None
    return name, m.group("text")


def pasted(text: str, where: str = "-") -> list[Said]:
    """Messages of pasted chat text: a ``name: text`` line starts one, any other line continues the last (a
    message a chat wrapped). A line that only completes a token cut over two lines is a continuation too."""
    out: list[Said] = []
    for n, line in enumerate(text.splitlines(), 1):
        spoken = _speaker_line(line)
        if spoken is not None and out and _completes(out[-1].text, line):
            spoken = None
        loc = f"line {n}" if where == "-" else f"{where}:{n}"
        if spoken is not None:
            out.append(Said(loc, spoken[1], spoken[0]))
        elif out:
            out[-1].text += "\n" + line
        elif line.strip():
            out.append(Said(loc, line))
    return out


def _completes(before: str, line: str) -> bool:
    """True when ``line`` joined to ``before`` reads more tokens than ``before`` alone: the rest of a token."""
    if "kifu" not in unicodedata.normalize("NFKC", before).lower() or rng.find_tokens(line):
        return False
    return len(rng.find_tokens(before + "\n" + line)) > len(rng.find_tokens(before))


def messages(chat: str | Path | Sequence[str | Path]) -> list[Said]:
    """Every message of a chat: a ``Path`` is a file (an export of CCFOLIA, Udonarium or Discord, read by its
    importer with its speakers; any other file as pasted chat lines), a ``str`` pasted text (``name: text``
    lines) or, without a speaker line, one message. A text given alone has its lines as places (``line 3``);
    in a list, the i-th text's are ``#i:3`` (``#i`` for a single message)."""
    from kifu.events import importers
    from kifu.events.importers.common import ImportFailed

    if isinstance(chat, str):  # one pasted text: its places are its lines
        return pasted(chat)
    out: list[Said] = []
    for i, part in enumerate([chat] if isinstance(chat, Path) else chat, 1):
        if isinstance(part, Path):
            try:
                src, _ = importers.read_source(part)
            except ImportFailed:
                out += pasted(part.read_text(encoding="utf-8", errors="replace"), part.name)
                continue
            out += [Said(m.loc, m.text, m.speaker or m.speaker_key) for m in src.messages if not m.system]
        elif any(_speaker_line(ln) for ln in part.splitlines()):
            out += pasted(part, f"#{i}")
        else:
            out.append(Said(f"#{i}", part))
    return out


class Verdict(enum.Enum):
    """What ``toss_check`` finds of one toss."""

    verified = "verified"
    """Revealed, and every check holds (information findings only): its outcomes are verifiable."""
    warning = "warning"
    """Revealed, with a warning (a weak nonce): not verifiable."""
    bad = "bad"
    """Does not verify: an error (a changed outcome, a nonce by the roller, a reveal that fails …)."""
    open = "open"
    """Not revealed yet (answered or not)."""


@dataclass(frozen=True)
class Problem:
    """What the audit says of one toss: one KIFU-RNG finding, its events named by their place in the chat."""

    code: str
    """The rule's code (``KIFU-RNG-006``)."""
    severity: str
    """``error``, ``warning`` or ``info``."""
    messages: dict[str, str]
    """The finding's message in each language (``en``, ``ja``), seqs replaced by the chat's places."""


@dataclass(frozen=True)
class Toss:
    """One toss of the chat (a commitment's round) and what ``toss_check`` finds of it."""

    id: str
    """The commitment's public id."""
    verdict: Verdict
    match: str | None
    """The match a v2 commitment is bound to (None: v1)."""
    purpose: str | None
    """What a v2 commitment decides (None: v1)."""
    outcomes: list[tuple[int, int]]
    """(sides, face) of each outcome its reveal fixes, posted or not; a v1 toss's only with ``sides``."""
    problems: list[Problem]
    """The audit's findings about it (its own open-ness aside)."""
    answered: bool
    """An opponent's nonce answers it."""
    revealed: bool
    """Its reveal is posted."""
    v1_without_dice: bool
    """A revealed v1 toss whose dice were not given (``sides``): no outcomes shown."""

    @property
    def ok(self) -> bool:
        """Verified."""
        return self.verdict is Verdict.verified


@dataclass(frozen=True)
class TossCheck:
    """Every toss of a chat, judged as the audit judges a match's."""

    tosses: list[Toss]
    """In the order of their commitments."""
    players: list[str]
    """The players, as named or as the chat's speakers (``roller``/``opponent`` for bare token lines)."""
    speakers_known: bool
    """The chat names who posted each message (False: bare token lines, roles assumed)."""
    named: bool
    """The players were named by the caller (else every speaker is one)."""

    @property
    def ok(self) -> bool:
        """Every toss verified."""
        return all(t.ok for t in self.tosses)


class NoToss(KifuError):
    """The chat holds no verifiable toss."""

    def __init__(self) -> None:
        super().__init__(Msg("rng.no_toss"))


def toss_check(
    chat: str | Path | Sequence[str | Path],
    players: Sequence[str] = (),
    match: str | None = None,
    sides: Sequence[int] = (),
) -> TossCheck:
    """Judge every toss posted in ``chat`` (see ``messages``) as the audit does: who may post what, which
    nonce binds, and every outcome each reveal fixes. ``players`` are names as the chat shows them (``id=Name``
    works too; default: every speaker): anyone else's nonce is ignored. ``match``: v2 tosses must be bound to
    it. ``sides``: the dice to draw for v1 tosses. Raises ``NoToss`` when the chat holds none."""
    from kifu.auditor import rng as audit

    said = messages(chat)
    names = [p.split("=", 1)[1] if "=" in p else p for p in players]
    events, names, known, where = _ledger(said, names)
    ledger = [e for e in events if type(e).__struct_config__.tag.startswith("rng.") or getattr(e, "rng", None)]
    analysis = audit.analyse(ledger, names, {}, match, shown=True)
    if not analysis.rounds:
        raise NoToss()
    tosses = [_toss(r, analysis, ledger, names, list(sides), where) for r in analysis.rounds]
    return TossCheck(tosses, names, known, bool(players))


def _ledger(said: list[Said], players: list[str]) -> tuple[list[Any], list[str], bool, dict[int, str]]:
    """The chat's tokens as the events an import makes of them (the importer's own reading, quotes and all),
    decoded; the players; whether who posted each message was known; and where each event's message is."""
    from kifu.events import table
    from kifu.events.importers.common import ImportReport, Message
    from kifu.events.importers.tokens import Tokens

    known = any(s.speaker for s in said)
    if not known:  # bare token lines: the poster of a commit or a reveal rolls, of a nonce answers
        said = [Said(s.loc, s.text, _role(s.text)) for s in said]
        players = ["roller", "opponent"]
    elif not players:
        players = list(dict.fromkeys(s.speaker for s in said if s.speaker))
    reader = Tokens(ImportReport(file="-", format="chat"))
    made: list[dict[str, Any]] = []
    where: dict[int, str] = {}
    for s in said:
        base = {"by": s.speaker} if s.speaker in players else {}
        read = reader.read(Message(loc=s.loc, text=s.text, speaker=s.speaker), base)
        for e in read.events + [{**base, **r} for r in read.randoms]:
            made.append(e)
            where[len(made) + 1] = s.loc
    codec = table.codec("generic")
    events = [codec.convert({**e, "seq": i, "prev": "0" * 64}) for i, e in enumerate(made, 2)]
    return events, players, known, where


def _role(text: str) -> str | None:
    kinds = {t.letter for t in rng.find_tokens(text)}
    return "roller" if kinds & {"c", "r"} else "opponent" if "n" in kinds else None


_SEQ = re.compile(r"\bseq (\d+)")


def _toss(
    r: Any, analysis: Any, ledger: list[Any], players: list[str], sides: list[int], where: dict[int, str]
) -> Toss:
    """One round as a ``Toss``: its verdict, outcomes and the audit's findings about it."""
    from kifu.auditor import registry

    names = {p: p for p in players}
    problems = []
    for p in analysis.problems:
        if not _about(p, r.id) or p.code == "KIFU-RNG-008":  # open: that is the verdict
            continue
        rule = registry.find_rule(p.code)
        said = rule.finding(p.hit, names).message
        placed = {
            lang: _SEQ.sub(lambda m: where.get(int(m.group(1)), m.group(0)), said.get(lang)) for lang in ("en", "ja")
        }
        problems.append(Problem(p.code, rule.severity.value, placed))
    severities = {p.severity for p in problems}
    outcomes = list(r.outcomes)
    if r.settled and r.binding is None and not outcomes and sides:
        reveal = next(e for e in ledger if type(e).__struct_config__.tag == "rng.reveal" and e.id == r.id)
        token = rng.Reveal(id=r.id, secret=reveal.secret, nonce=reveal.nonce)
        outcomes = list(zip(sides, token.outcomes(sides)))
    revealed = any(type(e).__struct_config__.tag == "rng.reveal" and e.seq in r.seqs for e in ledger)
    answered = any(type(e).__struct_config__.tag == "rng.nonce" and e.seq in r.seqs for e in ledger)
    if not revealed:
        verdict = Verdict.open
    elif r.settled and r.clean and not severities - {"info"}:
        verdict = Verdict.verified
    elif r.settled and "error" not in severities and "warning" in severities:
        verdict = Verdict.warning
    else:
        verdict = Verdict.bad
    bound = r.binding
    return Toss(
        id=r.id,
        verdict=verdict,
        match=bound.match if bound is not None else None,
        purpose=bound.purpose if bound is not None else None,
        outcomes=outcomes if r.settled else [],
        problems=problems,
        answered=answered,
        revealed=revealed,
        v1_without_dice=bool(r.settled and bound is None and not outcomes),
    )


def _about(p: Any, id: str) -> bool:
    ev = p.hit.evidence
    return ev.get("id") == id or id in str(ev.get("ids", "")).split(", ")
