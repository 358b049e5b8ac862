"""Messages to events: the generic mapping every format shares.

Source: issue 8 §4–5 and DESIGN.md contract 6. Each message becomes events in
this order of preference: events the format built itself (Arena's match end);
its rolls (BCDice results, Cockatrice coins, Arena dice), each a ``random`` event
unless a ``[[roll]]`` mapping names another event; a ``[[command]]`` in the chat
notation; a ``[[pattern]]``; else a ``note`` with its text. Unreadable parts are
kept as notes. Every event carries ``src`` (file, location, original text).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable, Iterable

import msgspec

from .. import limits
from ..base import MalformedEvent
from ..codec import Codec
from ..logfile import Built
from . import bcdice, mapping
from .bcdice import Roll
from ..i18n import Msg
from .common import ImportReport, Located, Message, Source, entry, inner
from .mapping import MapFile, PlayerBook, Unfilled
from .tokens import Tokens


_ROOM = limits.MAX_LINE - 1024
"""Bytes an event may take before its envelope (seq, prev, the canonical form) is added."""


def _large(msg: Message) -> bool:
    """A message that might not fit a line: the few whose events are worth measuring (a character is at most
    six bytes of JSON, and a note holds the text twice)."""
    return 12 * (len(msg.text) + len(msg.result or "")) > _ROOM


def _said(loc: str, why: Msg) -> Located:
    """A report entry said from the catalogue (``entry``, which a loop variable hides in the converter)."""
    return entry(loc, why)


class Converter:
    """Turns one source's messages into event dicts (no seq/prev yet), counting as it goes."""

    def __init__(
        self,
        src: Source,
        maps: MapFile,
        codec: Codec,
        players: PlayerBook,
        report: ImportReport,
        place: Callable[[dict[str, Any], dict[str, dict[str, Any]]], dict[str, Any]] | None = None,
    ) -> None:
        self.src, self.maps, self.codec, self.players, self.report = src, maps, codec, players, report
        self.place = place
        """The game's own step on each event made, in order (``table.placer``: an MTG coin's round)."""
        self.memory: dict[str, dict[str, Any]] = {}
        """Values of the last message each remembering entry matched, by name (``{plot.d1}``)."""
        self.written = 1
        """Events made so far, match.start included: the next event's seq is one more."""
        self.tokens = Tokens(report)
        """kifu's verifiable-toss tokens (docs/randomness.md), read in every message."""

    def events(self) -> Iterable[dict[str, Any]]:
        for msg in self.src.messages:
            self.report.messages += 1
            if msg.edited:
                self.report.edited.append(msg.loc)
            out = self.message(msg)
            self.written += len(out)
            yield from out

    def oversized(self, msg: Message, base: dict[str, Any]) -> dict[str, Any]:
        """One message too big for a line of the log: skipped and reported, a note without its text in its
        place (where it was, who said it, when), so the log says what is missing and the rest is imported."""
        size = len(msg.text.encode("utf-8", "surrogatepass")) + len((msg.result or "").encode("utf-8", "surrogatepass"))
        told = entry(msg.loc, Msg("import.oversized", size=f"{size:,}", limit=f"{limits.MAX_LINE:,}"))
        why = told.what
        self.report.unreadable.append(told)
        src = {k: v for k, v in base["src"].items() if k != "text"}
        return {**base, "src": src, "type": "note", "text": f"[{why}]"}

    def message(self, msg: Message) -> list[dict[str, Any]]:
        _as_text(msg)
        by = self.by(msg)
        base = self.envelope(msg, by)
        values = {
            "by": by,
            "speaker": msg.speaker,
            "text": msg.text,
            "channel": msg.channel,
            "secret": msg.secret,
            "at": msg.at,
            "seq": self.written + 1,
        }
        out = [self.shared(e, base) for e in msg.events or []]
        verified = self.tokens.read(msg, base)
        out.extend(verified.events)
        # A message that carries kifu tokens is a verifiable toss, not a dice bot's line: its arrow and
        # numbers are the outcomes it posts (docs/randomness.md), not a BCDice result to read.
        randoms = verified.randoms if verified.events else self.randoms(msg)
        if msg.unreadable:
            self.report.unreadable.append(entry(msg.loc, msg.unreadable))
        for r in randoms:
            out.extend(self.mapped_roll(msg, r, base, values))
        if not out:
            out.extend(self.chat(msg, base, values))
        if self.place is not None:
            out = [self.place(e, self.memory) for e in out]
        if _large(msg) and any(len(msgspec.json.encode(e)) > _ROOM for e in out):
            out = [self.oversized(msg, base)]
        for e in out:
            self.count(e)
        return out

    # --- who, where ---------------------------------------------------------------

    def by(self, msg: Message) -> str | None:
        if msg.system:
            return "system"
        pid = self.players.lookup(msg.speaker_key) or self.players.lookup(msg.speaker)
        if pid is None and (msg.speaker or msg.speaker_key):
            name = msg.speaker or msg.speaker_key or ""
            self.report.unattributed[name] = self.report.unattributed.get(name, 0) + 1
        return pid

    def envelope(self, msg: Message, by: str | None) -> dict[str, Any]:
        src = {
            "file": self.src.file,
            "loc": msg.loc,
            "text": msg.text if msg.result is None else f"{msg.text}\n{msg.result}" if msg.text else msg.result,
        }
        if msg.edited:
            src["edited"] = True
        base: dict[str, Any] = {"src": src}
        if msg.at:
            base["at"] = msg.at
        if by:
            base["by"] = by
        return base

    def shared(self, e: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
        e = dict(e)
        seat = e.pop("winner_seat", None)
        if e.get("type") == "match.end":
            e["winner"] = self.players.lookup(f"seat{seat}") if seat is not None else None
            if e["winner"] is None:
                e.pop("winner")
        return {**base, **e}

    # --- rolls -------------------------------------------------------------------

    def randoms(self, msg: Message) -> list[dict[str, Any]]:
        """The random outcomes of a message as ``random`` templates plus mapping values."""
        if msg.randoms is not None:
            return [dict(r, echo=r.get("expr"), secret=bool(r.get("secret") or msg.secret)) for r in msg.randoms]
        if msg.rolls is not None:
            rolls, lead = msg.rolls, ""
        elif msg.result is not None:
            _, rolls = bcdice.parse(msg.result, msg.game_system, bot=True, command=msg.text)
            lead = msg.text
        else:
            lead, rolls = bcdice.parse(msg.text, msg.game_system, bot=msg.from_bot, command=msg.command)
        if not rolls and msg.hidden_roll:
            return [self.hidden(msg)]
        # A bot's answer (or a result the source keeps apart) is a result for sure: whatever
        # kifu cannot read in it is reported. In a player's line only BCDice's own forms are.
        bot = msg.from_bot or msg.result is not None
        answer = msg.result if msg.result is not None else msg.text
        if not rolls and bot and answer.strip():
            msg.unread_result = "result not in a BCDice form kifu reads"
            self.report.unreadable.append(entry(msg.loc, Msg("import.result_no_form", text=_short(answer))))
        flagged = not rolls and msg.rolls is None and not bot and not msg.typed and bcdice.maybe_result(msg.text)
        if flagged:
            self.report.maybe_results += 1
            self.report.unreadable.append(entry(msg.loc, Msg("import.maybe_result", text=_short(msg.text))))
        unread = [r for r in rolls if r.problem and (bot or r.certain)]
        for roll in unread:
            told = Msg("import.result_unread", why=inner(_reason(roll, msg.game_system)), text=_short(roll.text))
            self.report.unreadable.append(entry(msg.loc, told))
        if unread:
            msg.unread_result = "; ".join(dict.fromkeys(entry("", _reason(r, msg.game_system)).what for r in unread))
        for roll in rolls:
            if not roll.ordered and not unread:
                self.report.unordered.append(Located(msg.loc, _short(roll.text)))
            if roll.totals and not unread:
                self.report.totals.append(Located(msg.loc, _short(roll.text)))
        # The typed S prefix counts where the command and its result share one message (CCFOLIA's
        # classic page); a source that keeps the result apart or tags it says secret itself.
        shared = msg.result is None and not msg.from_bot
        secret = msg.secret or (
            shared
            and bool(rolls or unread or flagged)
            and bcdice.typed_secret(lead, next((r.echo for r in rolls or unread), None))
        )
        msg.secret = secret  # so the note of an unread secret result is secret too
        typed = lead.split(maxsplit=1)[0] if lead.strip() else ""
        if unread:
            # All of a message's dice or none: whether a die is shown can depend on its face
            # (a 6 that explodes), so keeping the readable rest could bias the statistics.
            return []
        return [r for roll in rolls for r in self.from_roll(roll, typed, secret, msg)]

    def hidden(self, msg: Message) -> dict[str, Any]:
        kind, sides = bcdice.dice_of_command(msg.text)
        self.report.hidden += 1
        return {
            "type": "random",
            "kind": kind,
            "sides": sides,
            "values": [],
            "secret": True,
            "expr": msg.text.split(maxsplit=1)[0] if bcdice.looks_like_command(msg.text) else None,
            "echo": None,
        }

    def from_roll(self, roll: Roll, typed: str, secret: bool, msg: Message) -> list[dict[str, Any]]:
        """One ``random`` template per run of dice of one size, or per pick of a choice."""
        if roll.kind == "other":
            return []  # a calculation, an error text, or faces kifu could not prove (reported)
        expr = (
            typed
            if typed
            and bcdice.normalise(typed).lstrip("S")
            in (bcdice.normalise(roll.echo), bcdice.normalise(roll.echo).lstrip("S"))
            else roll.echo
        )
        if roll.prefix not in ("", "c", "C"):  # a table echoes its value, which is no command
            expr = typed or next(iter((msg.command or "").split()), "") or f"{roll.prefix}({roll.echo})"
        if roll.kind == "choice":
            parts = [("choice", left, None, (index,)) for left, index in roll.picks]
        else:  # runs of faces, and sums of dice BCDice shows only as a sum (kind "total")
            parts = [
                (kind, sides, count if kind == "total" else None, values) for kind, sides, count, values in roll.parts
            ]
        return [
            {
                "type": "random",
                "kind": kind,
                "sides": sides,
                "dice": count,
                "values": list(values),
                "expr": expr,
                "result": roll.text,
                "secret": secret,
                "echo": roll.echo,
                "pick": roll.pick,
                "pick_index": roll.picks[0][1] if roll.picks else None,
                "total": roll.total,
                "outcome": roll.outcome,
                "repeat": roll.repeat,
                "options": list(roll.options),
            }
            for kind, sides, count, values in parts
        ]

    def mapped_roll(
        self, msg: Message, r: dict[str, Any], base: dict[str, Any], values: dict[str, Any]
    ) -> list[dict[str, Any]]:
        v = {**values, **r, "value": r["values"][0] if r.get("values") else None}
        entry = mapping.find_roll(self.maps, v)
        if entry is not None:
            built = self.build(entry, v, base, msg)
            if built is not None:
                return built
        return [self.validated(self.random_event(r, base, msg), msg) or self.note(msg, base)]

    def random_event(self, r: dict[str, Any], base: dict[str, Any], msg: Message) -> dict[str, Any]:
        keep = ("type", "kind", "sides", "dice", "values", "expr", "result", "secret", "purpose", "rng")
        e = {k: r[k] for k in keep if r.get(k) is not None and r.get(k) is not False}
        return _with_roller({**base, **e}, msg)

    # --- chat ----------------------------------------------------------------------

    def chat(self, msg: Message, base: dict[str, Any], values: dict[str, Any]) -> list[dict[str, Any]]:
        """A command in the notation, else a pattern, else a note; a mapping that fails leaves a note."""
        if msg.unreadable is None and not msg.system:
            said = msg.text if msg.said is None else msg.said
            cmd = mapping.parse_command(said)
            if cmd is None and said.strip()[:1] in mapping.BANGS and len(said.strip()) > mapping.MAX_COMMAND:
                self.report.unreadable.append(
                    Located(
                        msg.loc,
                        f"a {len(said.strip())}-character line is too long "
                        f"to be a command (at most {mapping.MAX_COMMAND})",
                    )
                )
            entry = mapping.find_command(self.maps, cmd) if cmd else None
            if cmd is not None and entry is not None and entry.note:
                self.remember(entry, mapping.translated(mapping.command_values(cmd, entry, values), entry))
                return [self.note(msg, base)]
            if cmd is not None and entry is not None:
                return self.build(entry, mapping.command_values(cmd, entry, values), base, msg) or [
                    self.note(msg, base)
                ]
            hit = mapping.find_pattern(self.maps, said)
            if hit is not None:
                return self.build(hit[0], mapping.pattern_values(hit[1], values), base, msg) or [self.note(msg, base)]
            if cmd is not None and cmd.bang:
                self.report.unmapped.append(Located(msg.loc, "!" + cmd.name))
        return [self.note(msg, base)]

    def note(self, msg: Message, base: dict[str, Any]) -> dict[str, Any]:
        # A note holds what was said; a Cockatrice chat line's "Name: " prefix is already in by/speaker and src.
        # An unreadable line keeps all of it: its "Name:" may not be a speaker at all.
        said = msg.said if msg.said is not None and not msg.unreadable else msg.text
        e: dict[str, Any] = {**base, "type": "note", "text": said if msg.result is None else base["src"]["text"]}
        if msg.channel:
            e["channel"] = msg.channel
        if msg.speaker and "by" not in base:
            e["speaker"] = msg.speaker
        if msg.secret:
            e["secret"] = True
        if msg.unread_result:
            e["unread"] = msg.unread_result
        return e

    # --- templates -----------------------------------------------------------------

    def build(
        self, entry: mapping.Entry, values: dict[str, Any], base: dict[str, Any], msg: Message
    ) -> list[dict[str, Any]] | None:
        """Fill an entry's templates; on any failure report it and return None (the caller keeps a note).

        On success the entry's values are remembered for later entries and its
        ``clear`` names forgotten.
        """
        values = {**self.recalled(), **values}
        out = []
        for item_values in map(lambda v: mapping.translated(v, entry), self.items(entry, values, msg)):
            for t in entry.templates:
                try:
                    e = _with_roller({**base, **mapping.fill(t, item_values, self.players)}, msg)
                except Unfilled as exc:
                    why = Msg("mapping.unfilled", kind=entry.kind, index=entry.index, why=inner(exc.message))
                    self.report.failed.append(_said(msg.loc, why))
                    return None
                checked = self.validated(e, msg, entry)
                if checked is None:
                    return None
                out.append(checked)
        if not out:
            return None
        for name in entry.clear:
            self.memory.pop(name, None)
        self.remember(
            entry,
            {**mapping.translated(values, entry), **{k: v for k, v in out[-1].items() if k not in ("src", "type")}},
        )
        return out

    def items(self, entry: mapping.Entry, values: dict[str, Any], msg: Message) -> list[dict[str, Any]]:
        """One set of values per element of the entry's ``each`` list (the values themselves without ``each``)."""
        if entry.each is None:
            return [values]
        seq = values.get(entry.each)
        if not isinstance(seq, list) or not seq:
            why = Msg("mapping.no_list", kind=entry.kind, index=entry.index, placeholder=f"{{{entry.each}}}")
            self.report.failed.append(_said(msg.loc, why))
            return []
        ref = values.get("rng")
        # A verified roll's outcomes one per event: the i-th item is outcome rng.index + i - 1.
        return [
            dict(
                values,
                item=x,
                index=i,
                **({"rng": {**ref, "index": ref.get("index", 0) + i - 1}} if isinstance(ref, dict) else {}),
            )
            for i, x in enumerate(seq, 1)
        ]

    def recalled(self) -> dict[str, Any]:
        """Remembered values as ``name.key`` for the templates."""
        return {f"{name}.{k}": v for name, d in self.memory.items() for k, v in d.items() if "." not in k}

    def remember(self, entry: mapping.Entry, values: dict[str, Any]) -> None:
        """Keep a command's values, and the fields of the last event it made, under its name and ``remember_as``."""
        kept = {k: v for k, v in values.items() if "." not in k}
        for name in {entry.name, entry.remember_as} - {None}:
            self.memory[str(name)] = kept

    def validated(self, e: dict[str, Any], msg: Message, entry: mapping.Entry | None = None) -> dict[str, Any] | None:
        try:
            event = self.codec.convert({**e, "seq": 2, "prev": ""})
        except MalformedEvent as exc:
            label = f"[[{entry.kind}]] #{entry.index}: " if entry else ""
            self.report.failed.append(Located(msg.loc, f"{label}{e.get('type')}: {exc}"))
            return None
        return Built(e, event)  # the writer chains this event: each event is built once

    def count(self, e: dict[str, Any]) -> None:
        kind = e["type"]
        if kind == "note":
            self.report.notes += 1
        elif kind == "random":
            self.report.random += 1
        elif not kind.startswith("rng."):  # counted as tokens (ImportReport.rng)
            self.report.game_events += 1
        if e.get("secret") is True:  # an rng.reveal's ``secret`` is the revealed key, not a hidden message
            self.report.secret += 1
            self.report.secret_read += kind == "random"
            self.report.secret_unread += kind == "note" and "unread" in e
        self.report.unread_results += kind == "note" and "unread" in e


def _reason(roll: Roll, system: str | None) -> Msg:
    """Why a result was not read, as specific as the grammar knows: its command and system, and the problem
    (by catalogue id where the reader said it so, else as written)."""
    head = roll.echo.split("<", 1)[0].split(">", 1)[0][:24] if roll.echo else ""
    problem = roll.why if roll.why is not None else roll.problem or ""
    if system:
        return Msg("import.reason_system", system=system, head=f" ({head})" if head else "", problem=problem)
    return Msg("import.reason", head=f" ({head})" if head else "", problem=problem)


def _with_roller(e: dict[str, Any], msg: Message) -> dict[str, Any]:
    """A ``random`` event by a speaker who is no player names the speaker, as a note would."""
    if e.get("type") == "random" and "by" not in e and msg.speaker and not msg.system and "speaker" not in e:
        e["speaker"] = msg.speaker
    return e


def _as_text(msg: Message) -> None:
    """A format may hand over a number or an object where text belongs (a hostile JSON export)."""
    for name in ("speaker", "speaker_key", "channel", "at"):
        v = getattr(msg, name)
        if v is not None and not isinstance(v, str):
            setattr(msg, name, str(v) if isinstance(v, (int, float)) else None)
    if not isinstance(msg.text, str):
        msg.text = str(msg.text)


def _short(text: str, limit: int = 160) -> str:
    """A result quoted in the report, cut to a readable length (a table's text can run long)."""
    one = " / ".join(line.strip() for line in text.strip().splitlines())
    return repr(one if len(one) <= limit else one[: limit - 1] + "…")
