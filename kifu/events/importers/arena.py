"""MTG Arena ``Player.log`` (Detailed Logs enabled): match, seats, play/draw roll, coin flips.

Source: ../shared/reference/online-logs.md §6d (depr-quint/mtga methods.go, mtgatool
enums). GRE payloads are JSON after a ``[UnityCrossThreadLogger]`` line, sometimes
spread over several lines. Read here: ``matchGameRoomStateChangedEvent`` (match id,
``reservedPlayers`` seats, final result), ``GREMessageType_DieRollResultsResp``
(the play/draw roll) and ``AnnotationType_CoinFlip`` annotations. The CoinFlip
detail keys are not documented anywhere we could check, so each flip keeps the
whole raw annotation as its ``src.text`` and ``result``, with no values. The
rest of the log (Unity noise, game state diffs) is not match testimony: it is
counted in the import report, not copied. Line numbers count LF only, as ``grep -n``
does (a lone CR inside a Unity line is no line break).
"""

from __future__ import annotations

import re
from typing import Any
from collections.abc import Callable, Iterator

import msgspec

from .. import limits
from ..i18n import Msg
from .common import ImportFailed, Message, Source, decode_text, lines

DIE_SIDES = 20
"""Faces of Arena's play/draw die (the values seen are 1–20); an assumption, see docs/importers.md."""
MAX_JSON_LINES = 5000
"""Most lines one JSON payload may span before it is given up as unreadable."""
_KEYS = ("greToClientEvent", "matchGameRoomStateChangedEvent")
_DECODE = msgspec.json.Decoder()


def read(data: bytes, file: str) -> Source:
    text, enc = decode_text(data, file)
    src = Source("arena", file)
    if enc != "utf-8":
        src.notes.append(Msg("import.note_decoded", encoding=enc))
    state = _State(src)
    held = _Holdings()
    for n, payload, raw in _payloads(lines(text), src, held.scan):  # numbered as grep -n numbers them: LF only
        if payload is None:
            src.messages.append(Message(loc=f"line {n}", text=raw[:2000], unreadable=Msg("import.json_payload_cut")))
        else:
            state.visit(n, payload)
    if not state.seen:
        raise ImportFailed(held.why_no_match(), where=file)
    state.finish()
    if held.draft:
        src.notes.append(Msg("import.note_arena_draft", draft=held.describe()))
    return src


_PACK = re.compile(r"(?:SelfPack|PackNumber|\bPack)\W{1,12}(\d{1,2})\b")
_PICK = re.compile(r"(?:SelfPick|PickNumber|\bPick)\W{1,12}(\d{1,3})\b")
_EVENT_NAME = re.compile(r"(?:EventName|EventId)\W{1,12}([A-Za-z][A-Za-z0-9_]{2,60})")
_DRAFT = ("Draft.Notify", "DraftMakePick", "BotDraft_DraftPick", "DraftId", "draftId")
_PICKED = ("DraftMakePick", "BotDraft_DraftPick", "PickGrpId")
"""A line that records a pick made (the others announce the next pack)."""


class _Holdings:
    """What a Player.log holds besides a match, from the lines the reader skips: draft picks (Arena's
    ``Draft.Notify``, ``EventPlayerDraftMakePick``, ``LogBusinessEvents`` with a ``DraftId``, a quick
    draft's ``BotDraft_DraftPick``), the events joined, and the client's requests (``==>``), which
    Arena writes only with Detailed Logs on. Said when the file holds no match."""

    def __init__(self) -> None:
        self.draft = False
        self.picks: set[tuple[int, int]] = set()
        self.events: list[str] = []
        self.requests = 0

    def scan(self, line: str) -> None:
        if "==>" in line or "<==" in line:
            self.requests += 1
        if any(k in line for k in _DRAFT):
            self.draft = True
            pack, pick = _PACK.search(line), _PICK.search(line)
            if pack and pick and any(k in line for k in _PICKED):
                self.picks.add((int(pack.group(1)), int(pick.group(1))))
        name = _EVENT_NAME.search(line) if "Event" in line else None
        if name and name.group(1) not in self.events and len(self.events) < 20:
            self.events.append(name.group(1))

    def describe(self) -> str:
        events = ", ".join(self.events[:3]) or "event not named"
        return f"{len(self.picks)} picks, {events}"

    def why_no_match(self) -> Msg:
        """What the file holds, where it holds no match."""
        if self.draft:
            return Msg("import.arena_draft_only", picks=len(self.picks), events=", ".join(self.events[:3]) or "-")
        if self.requests:
            return Msg("import.arena_no_match", requests=self.requests)
        return Msg("import.arena_no_events")


def _payloads(lines: list[str], src: Source, skipped: Callable[[str], None]) -> Iterator[tuple[int, Any, str]]:
    """(line number, decoded JSON or None, raw text) for each payload about the match; every other
    line goes to ``skipped``."""
    i = 0
    while i < len(lines):
        line = lines[i]
        start = line.find("{")
        if start < 0 or not any(k in line for k in _KEYS) and not (start == 0 and _wanted_next(lines, i)):
            src.skipped += 1
            skipped(line)
            i += 1
            continue
        n, chunk, i = i + 1, line[start:], i + 1
        obj = _try(chunk, src.file, n)
        if obj is None:
            # Decoding again after every added line was quadratic (a 3,000-line payload took 0.25 s):
            # gather lines until the braces balance, then decode once.
            scan, parts = _Braces(), [chunk]
            scan.feed(chunk)
            while scan.end is None and i < len(lines) and i - n < MAX_JSON_LINES and not lines[i].startswith("["):
                parts.append(lines[i])
                scan.feed("\n" + lines[i])
                i += 1
            chunk = "\n".join(parts)
            obj = _try(chunk[: scan.end], src.file, n) if scan.end is not None else None
        yield n, obj, chunk


class _Braces:
    """Where the first JSON object of a text closes, found by counting braces outside strings."""

    _SIGNIFICANT = re.compile(r'[{}"\\]')

    def __init__(self) -> None:
        self.depth, self.in_string, self.seen, self.end = 0, False, 0, None
        self._skip = -1

    def feed(self, text: str) -> None:
        for m in self._SIGNIFICANT.finditer(text):
            at, ch = self.seen + m.start(), m.group()
            if at == self._skip or self.end is not None:
                continue
            if ch == "\\":
                self._skip = at + 1  # the escaped character cannot open or close anything
            elif self.in_string or ch == '"':
                self.in_string = not self.in_string if ch == '"' else True
            else:
                self.depth += 1 if ch == "{" else -1
                if self.depth == 0:
                    self.end = at + 1
        self.seen += len(text)


def _wanted_next(lines: list[str], i: int) -> bool:
    """A payload on its own line belongs to the header line before it."""
    return i > 0 and any(k.lower() in lines[i - 1].lower() for k in _KEYS)


def _try(chunk: str, file: str, line: int) -> Any:
    """The payload decoded, or None when it is not (yet) whole JSON; one nested past the limit is refused
    before the decoder recurses (msgspec raises RecursionError)."""
    if limits.too_deep(chunk):
        raise ImportFailed(Msg("limits.too_deep", depth=limits.MAX_DEPTH), where=file, line=line)
    try:
        return _DECODE.decode(chunk)
    except msgspec.DecodeError:
        return None


def _seat(value: Any) -> bool:
    """A seat number as Arena writes it (1 to 4 at a table)."""
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 4


def _dicts(value: Any) -> list[dict[str, Any]]:
    """The objects of a JSON list; anything else counts as empty."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


class _State:
    """Folds the payloads into messages, once per fact (each seat may log the same message)."""

    def __init__(self, src: Source) -> None:
        self.src = src
        self.seen_keys: set[str] = set()
        self.seen = False
        self.teams: dict[int, set[int]] = {}
        """Team id -> the seats the game states put in it (``gameStateMessage.players``)."""
        self.seats: set[int] = set()
        """Every seat the GRE messages name."""
        self.ends: list[tuple[dict[str, Any], Any]] = []
        """Each match.end made and the winning team its result names, placed at ``finish``."""

    def once(self, key: Any) -> bool:
        k = msgspec.json.encode(key).decode()
        if k in self.seen_keys:
            return False
        self.seen_keys.add(k)
        return True

    def visit(self, n: int, obj: Any) -> None:
        if not isinstance(obj, dict):
            return
        room = obj.get("matchGameRoomStateChangedEvent")
        if isinstance(room, dict):
            self.seen = True
            info = room.get("gameRoomInfo")
            self.room(n, info if isinstance(info, dict) else {})
        gre = obj.get("greToClientEvent")
        if isinstance(gre, dict):
            self.seen = True
            for m in _dicts(gre.get("greToClientMessages")):
                self.gre(n, m)

    def room(self, n: int, info: dict[str, Any]) -> None:
        config = info.get("gameRoomConfig") if isinstance(info.get("gameRoomConfig"), dict) else {}
        if config.get("matchId") and not self.src.match:
            self.src.match = str(config["matchId"])
        seats = [p for p in _dicts(config.get("reservedPlayers")) if isinstance(p.get("systemSeatId"), int)]
        for p in sorted(seats, key=lambda p: p["systemSeatId"]):
            key = f"seat{p.get('systemSeatId')}"
            if key not in dict(self.src.players) and p.get("playerName"):
                self.src.players.append((key, str(p["playerName"])))
            # The account is the person (its user id, else a screen name with its #number); the seat
            # is only this match's.
            name = str(p.get("playerName") or "")
            account = p.get("userId") or (name if re.fullmatch(r".+#\d+", name) else None)
            if account and key not in self.src.keys:
                self.src.keys[key] = f"arena:{account}"
        final = info.get("finalMatchResult")
        if isinstance(final, dict) and self.once(("final", final)):
            self.final(n, final, config)

    def final(self, n: int, final: dict[str, Any], config: dict[str, Any]) -> None:
        results = [r for r in _dicts(final.get("resultList")) if r.get("scope") == "MatchScope_Match"]
        team = results[0].get("winningTeamId") if results else None
        seats = [p.get("systemSeatId") for p in _dicts(config.get("reservedPlayers")) if p.get("teamId") == team]
        end = {
            "type": "match.end",
            "reason": str(results[0].get("reason") or "") if results else "",
            "winner_seat": seats[0] if len(seats) == 1 else None,
        }
        self.src.messages.append(
            Message(loc=f"line {n}", text=msgspec.json.encode(final).decode(), system=True, events=[end], rolls=[])
        )
        self.ends.append((end, team))

    def finish(self) -> None:
        """Place what needed the whole log: players named by their seats where the log lists none,
        and each winner's seat where only the game states tie a team to it; say what stays unplaced."""
        if not self.src.players and self.seats:
            self.src.players.extend((f"seat{s}", f"seat{s}") for s in sorted(self.seats))
            self.src.notes.append(
                Msg("import.note_arena_seats", seats=", ".join(f"seat{s}" for s in sorted(self.seats)))
            )
        for end, team in self.ends:
            if end["winner_seat"] is None and team is not None:
                seats = self.teams.get(team, set()) if isinstance(team, int) else set()
                end["winner_seat"] = next(iter(seats)) if len(seats) == 1 else None
            if team is None:
                self.src.notes.append(Msg("import.note_arena_no_winner"))
            elif end["winner_seat"] is None or f"seat{end['winner_seat']}" not in dict(self.src.players):
                self.src.notes.append(Msg("import.note_arena_team_unplaced", team=team))

    def gre(self, n: int, m: dict[str, Any]) -> None:
        if m.get("type") == "GREMessageType_DieRollResultsResp":
            self.die_rolls(n, m)
        state = m.get("gameStateMessage")
        if isinstance(state, dict):
            self.players(state)
            info = state.get("gameInfo") if isinstance(state.get("gameInfo"), dict) else {}
            if info.get("matchID") and not self.src.match:
                self.src.match = str(info["matchID"])
            for a in _dicts(state.get("annotations")):
                if isinstance(a.get("type"), list) and "AnnotationType_CoinFlip" in a["type"]:
                    self.coin_flip(n, a, state.get("gameStateId"))

    def players(self, state: dict[str, Any]) -> None:
        """The seats a game state names, and the team of each (a winner is named by team)."""
        for p in _dicts(state.get("players")):
            seat, team = p.get("systemSeatNumber"), p.get("teamId")
            if _seat(seat):
                self.seats.add(seat)
                if isinstance(team, int) and not isinstance(team, bool):
                    self.teams.setdefault(team, set()).add(seat)

    def die_rolls(self, n: int, m: dict[str, Any]) -> None:
        resp = m.get("dieRollResultsResp")
        rolls = _dicts(resp.get("playerDieRolls")) if isinstance(resp, dict) else []
        if not self.once(("die", rolls)):
            return
        for r in rolls:
            seat, value = r.get("systemSeatId"), r.get("rollValue")
            if _seat(seat):
                self.seats.add(seat)
            msg = Message(
                loc=f"line {n} msgId {m.get('msgId')}",
                text=msgspec.json.encode(r).decode(),
                speaker_key=f"seat{seat}",
                rolls=[],
            )
            if isinstance(value, int) and not isinstance(value, bool):
                msg.randoms = [
                    {
                        "type": "random",
                        "kind": "die",
                        "sides": DIE_SIDES,
                        "values": [value],
                        "purpose": "play-draw",
                        "result": str(value),
                    }
                ]
            else:
                msg.unreadable = Msg("import.arena_die_no_value")
            self.src.messages.append(msg)

    def coin_flip(self, n: int, a: dict[str, Any], state_id: Any) -> None:
        if not self.once(("coin", state_id, a.get("id"), a)):
            return
        raw = msgspec.json.encode(a).decode()
        seat = a.get("affectorId")
        msg = Message(
            loc=f"line {n} gameStateId {state_id} annotation {a.get('id')}",
            text=raw,
            rolls=[],
            randoms=[
                {"type": "random", "kind": "coin", "sides": 2, "values": [], "result": raw, "purpose": "card-coin-flip"}
            ],
        )
        msg.speaker_key = f"seat{seat}" if isinstance(seat, int) and seat in (1, 2, 3, 4) else None
        self.src.messages.append(msg)
