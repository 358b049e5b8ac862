"""The chat notation typed at a table (``kifu record``): one line to the events it appends.

Source: issue 17 and docs/notation.md. A line is read by the importers' own parser and
mapping (``importers.mapping`` through ``importers.convert.Converter``), as one chat
message of the speaker, so a line means at the table what it means in an imported
chat log. What a table adds, and nothing else:

* a speaker prefix, ``b: !toss a1 相手`` (a player id or name; it stays the speaker for
  the lines after it) or ``judge: …`` / ``recorder: …`` (that line only); a command after a
  prefix that names nobody (``zz: !turnend``) is refused, naming the speakers;
* a line is at most ``MAX_LINE`` characters (a longer one is refused before it is read);
* the recorder's own commands: ``!undo [reason]`` voids the events of the last line
  recorded, ``!void SEQ… [reason]`` voids named seqs (a ``log.void`` by the recorder);
* a dry run for the preview (``read`` changes nothing; ``commit`` keeps what a line
  appended), and completion of command words, players and catalogue names.

Nothing here does I/O or reads a clock: the caller passes the time and appends.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any
from collections.abc import Container, Iterable, Sequence

import msgspec

from . import table
from .base import MatchStarted
from .codec import Codec
from .i18n import Msg
from .importers.common import ImportReport, Message, Source
from .importers.convert import Converter
from .importers.mapping import (
    BANGS,
    MAX_COMMAND,
    Command,
    MapFile,
    PlayerBook,
    find_command,
    parse_command,
)

ROLES = {"judge": "judge", "ジャッジ": "judge", "審判": "judge", "recorder": "recorder", "記録係": "recorder"}
"""Speaker prefixes that name a role at the table, not a player (for their line only)."""
TABLE_COMMANDS = ("undo", "void")
"""The recorder's own commands, read before the game's mapping."""
_PREFIX = re.compile(r"^\s*([^\s:：!！]{1,40})\s*[:：]\s*(.*)$", re.S)
_SEQS = re.compile(r"^(\d+)(?:[-–](\d+))?$")
_MAX_RANGE = 100
MAX_LINE = MAX_COMMAND
"""Characters a line typed at the table may hold (a command's limit): a longer one is refused unread."""


@dataclass(frozen=True)
class Reading:
    """What one typed line would do: the events it appends, or why it cannot be recorded."""

    text: str
    """The line as typed."""
    events: tuple[dict[str, Any], ...] = ()
    """The events to append, in order (no seq or prev yet), each checked against the game's schema."""
    error: str | Msg | None = None
    """Why nothing can be recorded from this line (an unknown command, a wrong value): the catalogue's message
    (rendered in the reader's language), or an import's reason as the importer words it."""
    hint: str | Msg | None = None
    """A remark on a line that will be recorded, such as a command word typed without ``!``."""
    speaker: str | None = None
    """The speaker after this line (a player prefix changes it)."""
    undo: int | None = None
    """For ``!undo``: the index of the line it voids in the table's list of lines."""
    memory: dict[str, dict[str, Any]] | None = None
    """The mapping's remembered values after this line (``{act.act}``), kept on commit."""
    secret: str | None = None
    """For the first half of a pair kept for a later line (``note = true``, World Trigger's
    ``plot``): the name it is remembered under. It stays secret until that name is used up."""


@dataclass
class _Line:
    """A line recorded: its seqs, and the remembered values before it (restored by its undo)."""

    seqs: tuple[int, ...]
    text: str
    memory_before: dict[str, dict[str, Any]] = field(default_factory=dict)


class _TableConverter(Converter):
    """The importers' converter; a role prefix (judge, recorder) is the line's ``by``."""

    def by(self, msg: Message) -> str | None:
        if msg.speaker_key in ROLES.values():
            return msg.speaker_key
        return super().by(msg)


class Table:
    """One match's notation at the table: reads lines, keeps the speaker, the mapping's memory
    and the lines recorded (for ``!undo``)."""

    def __init__(self, start: MatchStarted, codec: Codec, maps: MapFile, vocabulary: Iterable[str] = ()) -> None:
        self.start = start
        self.maps = maps
        self.book = PlayerBook()
        for p in start.players:
            self.book.add(p.id, p.name)
        self.speaker: str | None = start.players[0].id if start.players else None
        """Who the next line is by, unless it names someone (``b: …``)."""
        self.lines: list[_Line] = []
        """The lines recorded with ``commit`` (or ``recorded``), oldest first."""
        report = ImportReport(file="<table>", format="table", game=start.game, match=start.match)
        place = table.placer(start.game, [p.id for p in start.players], start.rules, start.catalogue)
        self._conv = _TableConverter(Source("table", "<table>"), maps, codec, self.book, report, place)
        self._words = _vocabulary(maps, vocabulary)
        self._secrets: dict[str, tuple[int, ...]] = {}
        """Seqs of the first halves still secret, by the name they are remembered under."""
        self._withdrawn: frozenset[int] = frozenset()
        """Seqs of first halves undone before they were answered: never shown."""

    # --- reading a line ------------------------------------------------------------------

    def read(self, text: str, next_seq: int, at: str | None = None, voided: Container[int] = ()) -> Reading:
        """What ``text`` would append as seq ``next_seq`` on: a dry run, nothing is kept."""
        if len(text) > MAX_LINE:  # refused unread: reading it costs nothing then
            return Reading(
                text, error=Msg("notation.too_long", size=f"{len(text):,}", limit=f"{MAX_LINE:,}"), speaker=self.speaker
            )
        who, said, explicit = self._speaker(text)
        speaker = who if explicit and who not in ROLES.values() else self.speaker
        if not said.strip():
            return Reading(text, speaker=speaker)  # only a speaker, or nothing
        cmd = parse_command(said)
        if cmd is not None and cmd.bang and cmd.name in TABLE_COMMANDS:
            by = who if explicit else "recorder"
            return self._table_command(text, cmd.name, list(cmd.typed or cmd.args), by, at, voided, speaker)
        stranger = self._stranger(text) if not explicit else None
        if stranger is not None:
            said_cmd = parse_command(stranger[1])
            if said_cmd is not None and (said_cmd.bang or find_command(self.maps, said_cmd) is not None):
                return Reading(
                    text, error=Msg("notation.stranger", word=stranger[0], known=self.speakers()), speaker=speaker
                )
        reading = self._mapped(text, said, who, next_seq, at, speaker, cmd)
        if stranger is not None and reading.error is None:
            hint = Msg("notation.stranger_note", word=stranger[0], known=self.speakers(), speaker=speaker)
            return replace(reading, hint=hint)
        return reading

    def _speaker(self, text: str) -> tuple[str | None, str, bool]:
        """(who, what they said, whether the line named them)."""
        m = _PREFIX.match(text)
        if m:
            word = unicodedata.normalize("NFKC", m.group(1))
            role = ROLES.get(word.lower()) or ROLES.get(word)
            pid = role or self.book.lookup(word)
            if pid is not None:
                return pid, m.group(2), True
        return self.speaker, text, False

    def _stranger(self, text: str) -> tuple[str, str] | None:
        """(the word, what follows it) when the line starts like a speaker prefix naming nobody."""
        m = _PREFIX.match(text)
        return (m.group(1), m.group(2)) if m else None

    def speakers(self) -> str:
        """Who a line may name: each player by id and name, then the roles."""
        players = [f"{p.id} {p.name}" if p.name and p.name != p.id else p.id for p in self.start.players]
        return ", ".join(players + ["judge", "recorder"])

    def _mapped(
        self,
        text: str,
        said: str,
        who: str | None,
        next_seq: int,
        at: str | None,
        speaker: str | None,
        cmd: Command | None,
    ) -> Reading:
        conv = self._conv
        memory = dict(conv.memory)
        conv.report = ImportReport(file="<table>", format="table", game=self.start.game, match=self.start.match)
        conv.written = next_seq - 1
        try:
            made = conv.message(
                Message(loc=f"seq {next_seq}", text=said.strip(), speaker=who, speaker_key=who, at=at, typed=True)
            )
            after = conv.memory
        finally:
            conv.memory = memory
        rep = conv.report
        entry = find_command(self.maps, cmd) if cmd is not None else None
        only_notes = all(e.get("type") == "note" for e in made)
        if cmd is not None and cmd.bang and entry is None and only_notes and not rep.failed:
            known = ", ".join(sorted(self.maps.commands)[:12])
            return Reading(
                text,
                error=Msg("notation.unknown_command", command=cmd.name, game=self.start.game, known=known),
                speaker=speaker,
            )
        # What an import keeps as a note and reports (a value missing or of the wrong kind, a
        # result it cannot read) is refused at the table: the recorder fixes the line instead.
        problems = [_plain_problem(p.what) for p in rep.failed + rep.unreadable]
        if problems:
            return Reading(text, error="; ".join(problems), speaker=speaker)
        events = tuple({k: v for k, v in e.items() if k != "src"} for e in made)
        hint = None
        if cmd is not None and not cmd.bang and cmd.name in self.maps.commands and entry is None:
            hint = Msg("notation.without_bang", command=cmd.name)
        secret = cmd.name if entry is not None and entry.note and cmd is not None else None
        return Reading(text, events=events, hint=hint, speaker=speaker, memory=after, secret=secret)

    def _table_command(
        self,
        text: str,
        name: str,
        args: list[str],
        by: str | None,
        at: str | None,
        voided: Container[int],
        speaker: str | None,
    ) -> Reading:
        if name == "undo":
            i = self._last_line(voided)
            if i is None:
                return Reading(text, error=Msg("notation.nothing_to_undo"), speaker=speaker)
            about = [s for s in self.lines[i].seqs if s not in voided]
            reason = " ".join(args) or f"undo: {self.lines[i].text.strip()}"
            return Reading(text, events=(_void(about, reason, by, at),), speaker=speaker, undo=i)
        seqs: list[int] = []
        while args and _SEQS.match(args[0].strip(",")):
            m = _SEQS.match(args.pop(0).strip(","))
            assert m is not None
            lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
            if not 0 <= hi - lo < _MAX_RANGE:
                return Reading(
                    text, error=Msg("notation.bad_range", range=m.group(0), most=_MAX_RANGE), speaker=speaker
                )
            seqs.extend(range(lo, hi + 1))
        if not seqs:
            return Reading(text, error=Msg("notation.void_needs_seqs"), speaker=speaker)
        return Reading(text, events=(_void(seqs, " ".join(args) or "recording mistake", by, at),), speaker=speaker)

    def _last_line(self, voided: Container[int]) -> int | None:
        for i in range(len(self.lines) - 1, -1, -1):
            if any(s not in voided for s in self.lines[i].seqs):
                return i
        return None

    # --- keeping what was recorded --------------------------------------------------------

    def commit(self, reading: Reading, seqs: Sequence[int], taken: bool = True) -> None:
        """``reading`` was appended as ``seqs``: keep its speaker, memory and line (for undo).

        ``taken`` is False for an undo whose void took nothing back (the audit refused it):
        the line stays, as does what the mapping remembers after it.
        """
        self.speaker = reading.speaker
        if reading.undo is not None:
            if taken:
                line = self.lines.pop(reading.undo)
                self._conv.memory = line.memory_before
                self._withdraw(line.seqs)
            return
        if reading.memory is not None:
            before = dict(self._conv.memory)
            self._conv.memory = reading.memory
            if seqs and not _is_void(reading):
                self.lines.append(_Line(tuple(seqs), reading.text, before))
            if reading.secret is not None:
                self._secrets[reading.secret] = tuple(seqs)
            # A secret is answered once the later line has used its name up (``clear``).
            self._secrets = {k: v for k, v in self._secrets.items() if k in self._conv.memory}

    def _withdraw(self, seqs: Sequence[int]) -> None:
        """An undone first half is never shown, even once nothing keeps it secret."""
        for name, kept in list(self._secrets.items()):
            if set(kept) & set(seqs):
                self._withdrawn |= set(kept)
                del self._secrets[name]

    def hidden(self) -> set[int]:
        """Seqs whose text the screen must not show: secrets not yet answered, and withdrawn ones."""
        return {s for seqs in self._secrets.values() for s in seqs} | self._withdrawn

    def mark(self) -> tuple[Any, ...]:
        """What ``commit`` changes, to ``rewind`` to after a dry run of several lines."""
        return (self.speaker, list(self.lines), self._conv.memory, dict(self._secrets), self._withdrawn)

    def rewind(self, mark: tuple[Any, ...]) -> None:
        self.speaker, lines, self._conv.memory, self._secrets, self._withdrawn = mark
        self.lines = list(lines)

    def recorded(self, seq: int, text: str) -> None:
        """An event recorded before this session (a log continued): one line of its own for ``!undo``."""
        self.lines.append(_Line((seq,), text))

    # --- completion --------------------------------------------------------------------------

    def complete(self, text: str) -> tuple[str, list[str]]:
        """(the line up to the word being typed, the words that complete it), best first."""
        who, said, explicit = self._speaker(text)
        body = said if explicit else text
        cut = max(body.rfind(" "), body.rfind("\u3000")) + 1
        word = unicodedata.normalize("NFKC", body[cut:])
        head = text[: len(text) - len(body) + cut]
        if not body[:cut].strip():  # the first word: a command, a bare command or a speaker
            if word[:1] in BANGS:
                return head, _matching(self.commands(), "!" + word[1:])
            words = [c for c, e in self.maps.commands.items() if e.bare]
            if not explicit:
                words += [f"{p.id}:" for p in self.start.players] + [f"{p.name}:" for p in self.start.players]
                words += ["judge:", "recorder:"]
            return head, _matching(words, word)
        cmd = parse_command(body)
        entry = self.maps.commands.get(cmd.name) if cmd is not None else None
        words = list(entry_words(entry)) if entry is not None else []
        words += [p.name for p in self.start.players] + [p.id for p in self.start.players] + ["自分", "相手"]
        words += self._words
        return head, _matching(list(dict.fromkeys(words)), word)

    def commands(self) -> list[str]:
        """Every command word a line may start with, the recorder's own first."""
        return ["!" + c for c in TABLE_COMMANDS] + ["!" + c for c in sorted(self.maps.commands)]


def entry_words(entry: Any) -> Iterable[str]:
    """The words a mapping entry translates (``手札``, ``hand`` …): what its arguments may be."""
    for k, v in entry.translate:
        yield k
        if isinstance(v, str):
            yield v
    for _, pairs in entry.translate_by_name:
        for k, v in pairs:
            if not k.isdigit():
                yield k
            if isinstance(v, str):
                yield v


def _vocabulary(maps: MapFile, extra: Iterable[str]) -> list[str]:
    """Catalogue names and every word the mapping translates: what an argument may be."""
    words = list(extra)
    for e in maps.commands.values():
        words.extend(entry_words(e))
    return list(dict.fromkeys(w for w in words if w))


def _matching(words: list[str], typed: str) -> list[str]:
    """The words that start with ``typed`` (case and width folded), shortest first, then the rest containing it."""
    key = unicodedata.normalize("NFKC", typed).casefold()
    folded = [(w, unicodedata.normalize("NFKC", w).casefold()) for w in words]
    starts = [w for w, f in folded if f.startswith(key) and f != key]
    inside = [w for w, f in folded if key and key in f and not f.startswith(key)] if len(key) > 1 else []
    return sorted(starts, key=len) + inside


_ENTRY_LABEL = re.compile(r"^\[\[\w+\]\] #\d+: ")
_CHECK_SEQ = re.compile(r"\bseq \d+: ")


def _plain_problem(what: str) -> str:
    """An import report's reason as the table reads it: without the mapping entry's number and the
    placeholder seq the converter checks events at (neither means anything to the recorder)."""
    return _CHECK_SEQ.sub("", _ENTRY_LABEL.sub("", what), count=1)


def _void(about: list[int], reason: str, by: str | None, at: str | None) -> dict[str, Any]:
    e: dict[str, Any] = {"type": "log.void", "about": list(dict.fromkeys(about)), "reason": reason}
    if by is not None:
        e["by"] = by
    if at is not None:
        e["at"] = at
    return e


def _is_void(reading: Reading) -> bool:
    return bool(reading.events) and all(e.get("type") == "log.void" for e in reading.events)


def describe(event: dict[str, Any]) -> str:
    """One event as the preview shows it: its type, then its fields (``gg.toss act=a1 facing=self``); the
    envelope (who, when) is shown apart."""
    fields = " ".join(
        f"{k}={_plain(v)}" for k, v in event.items() if k not in ("type", "seq", "prev", "at", "by", "src")
    )
    return f"{event.get('type')} {fields}".strip()


def _plain(v: Any) -> str:
    return v if isinstance(v, str) else msgspec.json.encode(v).decode()
