"""Discord BCDice bot posts, from a DiscordChatExporter JSON export or from plain text.

Source: ../shared/reference/online-logs.md §5 (Shunshun94/discord-bcdicebot
StandardInputMessageCreateListener and AsV1DiceResultFormatter; Tyrrrz/DiscordChatExporter).
A bot post reads ``＞<roller>`` then ``<SystemID>: <BCDice text>`` lines (blank lines
between results, ``#n`` headers for repeats). A secret roll posts
``<SystemID>: [Secret Dice] Key: <key>``; the result is only in the roller's DMs.
Slash-command bots put results in embeds (title, description, fields).
DiscordChatExporter JSON gives ``messages[]`` with ``id``, ``timestamp``,
``timestampEdited``, ``content``, ``author{id,name,nickname,isBot}``, ``embeds[]``.
The plain text is DiscordChatExporter's TXT (``[date] Author`` headers) or a bare
paste of bot posts separated by blank lines; its local times carry no zone, so
they are kept in the text but not used as ``at``. A message id that appears twice (two
exports joined, an export resumed over its own end) is read once; a second copy that
differs from the first is kept as an unread note and reported. Line numbers count LF
only, as ``grep -n`` does.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from ..i18n import Msg
from .common import (
    ImportFailed,
    Message,
    Source,
    as_utf8,
    decode_json,
    decode_text,
    iso_time,
    lines,
)

# Every pattern here is linear on any line: no two neighbouring quantifiers can match the same
# characters, and trailing spaces are stripped in code (a lazy ".+?\s*$" is quadratic on a long run of spaces).
_ROLLER = re.compile(r"^\s*[＞>]\s*(?P<name>\S.*)$")
_TXT_HEADER = re.compile(r"^\[(?P<time>(?=[^\]]*\d)[^\]]{4,40})\]\s+(?P<author>\S.*)$")
"""DiscordChatExporter TXT's ``[time] Author`` header: the time holds a digit, so a chat copied from CCFOLIA
(``[main] ミナト : text``, a channel in the brackets) is no Discord export."""
_SECRET = re.compile(r"\[Secret Dice\]", re.I)
_RULE = re.compile(r"^={10,}\s*$")
_TXT_PART = re.compile(r"^\{(?:Attachments|Embed|Reactions|Stickers|Components)\}\s*$")
_REPEAT_HEAD = re.compile(r"#\d+")
_SYSTEM_ID = re.compile(r"[A-Za-z][\w.]*(?::[A-Za-z][\w.]*)?\s*:\s*")
"""A bot's system id before a result (``DiceBot: (1D2) ＞ 1``, ``Cthulhu7th:Korean: …``)."""


def read(data: bytes, file: str) -> Source:
    head = as_utf8(data)[:65536].lstrip(b"\xef\xbb\xbf \t\r\n")
    first = head.split(b"\n", 1)[0].decode("utf-8", "replace")
    # A TXT export without its banner starts with "[date] Author": a "[" that is not JSON.
    if head[:1] == b"{" or head[:1] == b"[" and not _TXT_HEADER.match(first):
        return read_json(data, file)
    return read_text(data, file)


def read_json(data: bytes, file: str) -> Source:
    text, enc = decode_text(data, file)
    doc = decode_json(text, file)
    if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
        raise ImportFailed(Msg("import.discord_json_messages"), where=file)
    channel = doc.get("channel", {}).get("name") if isinstance(doc.get("channel"), dict) else None
    guild = doc.get("guild", {}).get("name") if isinstance(doc.get("guild"), dict) else None
    src = Source("discord", file, title=" / ".join(x for x in (guild, channel) if isinstance(x, str)) or None)
    if enc != "utf-8":
        src.notes.append(Msg("import.note_decoded", encoding=enc))
    kept, again, repeated = _once(doc["messages"])
    raw = [m for _, m in kept]
    src.messages = [_json_message(i, m, channel) for i, m in kept]
    _name_embed_rollers(src.messages, raw)
    _key_post_rollers(src.messages, raw)
    _continue_posts(src.messages, [_author_id(r) for r in raw])
    for k, first in again.items():
        _unread_copy(src.messages[k], first)
    if repeated:
        ids = ", ".join(repeated[:10]) + (" …" if len(repeated) > 10 else "")
        src.notes.append(Msg("import.note_discord_repeated", count=len(repeated), ids=ids))
    return src


def _once(messages: list[Any]) -> tuple[list[tuple[int, Any]], dict[int, str], list[str]]:
    """Each message id once: (index, message) kept, the kept copies that differ from an earlier one, the ids seen again.

    An identical copy is dropped. A copy with other content (an edit between two joined
    exports) is kept, by its index, to become a note: which copy is right is for a person to say.
    """
    kept: list[tuple[int, Any]] = []
    first: dict[str, tuple[str, Any]] = {}
    again: dict[int, str] = {}
    repeated: dict[str, None] = {}
    for i, m in enumerate(messages):
        mid = str(m["id"]) if isinstance(m, dict) and isinstance(m.get("id"), (str, int)) else None
        if mid is None or mid not in first:
            if mid is not None:
                first[mid] = (f"message {mid}", m)
            kept.append((i, m))
            continue
        repeated.setdefault(mid, None)
        if m != first[mid][1]:
            again[len(kept)] = first[mid][0]
            kept.append((i, m))
    return kept, again, list(repeated)


def _unread_copy(msg: Message, first: str) -> None:
    """A later copy of a message id with other content: a note that says so, nothing read from it."""
    msg.loc = f"{msg.loc} (again)"
    msg.unreadable = Msg("import.discord_copy", first=repr(first))
    msg.rolls, msg.randoms, msg.hidden_roll, msg.said = [], None, False, None


def _author_id(raw: Any) -> str | None:
    author = raw.get("author") if isinstance(raw, dict) else None
    return str(author.get("id") or author.get("name")) if isinstance(author, dict) else None


def _continue_posts(messages: list[Message], authors: list[str | None]) -> None:
    """The bot splits a long result (``x10 2D6``) into several posts; only the first names the roller.

    A post by the same bot right after a roller's post, with no roller of its own
    (JSON: it reads as the bot's; TXT: as its author's) and no text but results,
    continues that roll.
    """
    roller: tuple[str | None, str | None] | None = None
    for i, m in enumerate(messages):
        same = i > 0 and authors[i] is not None and authors[i] == authors[i - 1]
        if _ROLLER.match(m.text.split("\n", 1)[0]) and m.text.lstrip().startswith("＞"):
            roller = (m.speaker, m.speaker_key)
        elif roller and same and (m.system or m.speaker == authors[i]) and _only_results(m.text):
            m.speaker, m.speaker_key, m.system = roller[0], roller[1], False
        else:
            roller = None


def _only_results(text: str) -> bool:
    said = [line.strip() for line in lines(text) if line.strip()]
    return bool(said) and all(_result_line(line) for line in said)


def _result_line(line: str) -> bool:
    """A line of a bot's result post: ``#2``, ``(2D6) ＞ 7``, ``DiceBot: (2D6) ＞ 7``, ``[ERROR]…``."""
    if _REPEAT_HEAD.fullmatch(line) or line.startswith(("(", "[ERROR]")):
        return True
    system = _SYSTEM_ID.match(line)
    rest = line[system.end() :] if system else ""
    return bool(rest) and "(" in rest.split(maxsplit=1)[0]


_MENTION = re.compile(r"^<@!?(?P<id>\d+)>$")


def _people(raw: list[Any]) -> dict[str, tuple[str, str]]:
    """Every user the export shows (authors and mentions): id, user name and nickname → (display name, id)."""
    people: dict[str, tuple[str, str]] = {}
    users = [m.get("author") for m in _dicts(raw)] + [u for m in _dicts(raw) for u in _dicts(m.get("mentions"))]
    for u in users:
        if not isinstance(u, dict) or u.get("isBot") or not u.get("id"):
            continue
        names = [n for n in (u.get("nickname"), u.get("name")) if isinstance(n, str) and n]
        if names:
            for key in (str(u["id"]), *names):
                people.setdefault(key, (names[0], str(u["id"])))
    return people


def _named_mentions(text: str, people: dict[str, tuple[str, str]]) -> str:
    """``<@222…>`` as ``@ユキ``, as Discord shows it: ``!hit <@222…> 2`` then names a player."""
    return re.sub(r"<@!?(\d+)>", lambda m: "@" + people[m.group(1)][0] if m.group(1) in people else m.group(0), text)


def _key_post_rollers(messages: list[Message], raw: list[Any]) -> None:
    """A bot's ``＞`` line names the roller by mention (``＞<@id>``, the bot's MentionNameIndicator) or by
    user name where the export shows a nickname: both are the same person as that author.
    """
    people = _people(raw)
    for m, r in zip(messages, raw):
        author = r.get("author") if isinstance(r, dict) else None
        if isinstance(author, dict) and not author.get("isBot") and "<@" in m.text:
            m.said = _named_mentions(m.text, people)
        if not isinstance(author, dict) or not author.get("isBot") or m.speaker_key or not m.speaker:
            continue
        mention = _MENTION.match(m.speaker)
        who = people.get(mention.group("id") if mention else m.speaker)
        if who is not None:
            m.speaker, m.speaker_key = who


def _name_embed_rollers(messages: list[Message], raw: list[Any]) -> None:
    """A slash-command embed often names the roller in its title (``ミナト のロール``).

    Only a name some human author of the export uses is taken; otherwise the
    post stays the bot's own (``by`` = ``system``).
    """
    humans = {
        m.speaker
        for m, r in zip(messages, raw)
        if isinstance(r, dict) and isinstance(r.get("author"), dict) and not r["author"].get("isBot") and m.speaker
    }
    for m, r in zip(messages, raw):
        if not m.system or not isinstance(r, dict):
            continue
        titles = [e["title"] for e in _dicts(r.get("embeds")) if isinstance(e.get("title"), str)]
        for title in titles:
            word = re.split(r"\s|の", title.strip(), maxsplit=1)[0]
            if word in humans:
                m.speaker, m.system = word, False
                break


def _json_message(i: int, m: Any, channel: str | None) -> Message:
    if not isinstance(m, dict):
        return Message(
            loc=f"messages[{i}]", text=msgspec.json.encode(m).decode(), unreadable=Msg("import.not_an_object")
        )
    loc = f"message {m.get('id')}" if m.get("id") else f"messages[{i}]"
    author = m.get("author") if isinstance(m.get("author"), dict) else {}
    content = m.get("content") if isinstance(m.get("content"), str) else ""
    embeds = "\n\n".join(_embed_text(e) for e in _dicts(m.get("embeds")))
    text = "\n\n".join(t for t in (content, embeds) if t)
    name = next((n for n in (author.get("nickname"), author.get("name")) if isinstance(n, str) and n), None)
    msg = Message(
        loc=loc,
        text=text,
        speaker=name,
        speaker_key=str(author["id"]) if author.get("id") else None,
        channel=channel,
        at=iso_time(m.get("timestamp")),
        edited=bool(m.get("timestampEdited")),
    )
    if author.get("isBot"):
        _bot_post(msg, _interaction_user(m))
    return msg


def _dicts(value: Any) -> list[dict[str, Any]]:
    """The objects of a JSON list; anything else in a hostile export counts as empty."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _interaction_user(m: dict[str, Any]) -> tuple[str | None, str | None]:
    """Who ran a slash command, when the export says (the bot is only the messenger)."""
    user = (m.get("interaction") or {}).get("user") if isinstance(m.get("interaction"), dict) else None
    if not isinstance(user, dict):
        return None, None
    name = next((n for n in (user.get("nickname"), user.get("name")) if isinstance(n, str) and n), None)
    return name, str(user["id"]) if user.get("id") else None


def _embed_text(e: dict[str, Any]) -> str:
    parts = [e.get("title"), e.get("description")]
    for f in _dicts(e.get("fields")):
        parts.append("\n".join(str(f[k]) for k in ("name", "value") if isinstance(f.get(k), str) and f[k]))
    return "\n".join(p for p in parts if isinstance(p, str) and p)


def _bot_post(msg: Message, user: tuple[str | None, str | None]) -> None:
    """A bot's post is the roller's roll: the roller is the ``＞name`` line or the command's user."""
    first = msg.text.split("\n", 1)[0]
    roller = _ROLLER.match(first)
    if roller:
        msg.speaker, msg.speaker_key = roller.group("name").rstrip(), None
    elif user[0]:
        msg.speaker, msg.speaker_key = user
    else:
        msg.system = True
    if _SECRET.search(msg.text):
        msg.secret = msg.hidden_roll = True
        msg.rolls = []
    elif "[ERROR]" in msg.text:
        msg.rolls = []


def read_text(data: bytes, file: str) -> Source:
    text, enc = decode_text(data, file)
    src = Source("discord", file)
    if enc != "utf-8":
        src.notes.append(Msg("import.note_decoded", encoding=enc))
    numbered = lines(text)
    blocks = (
        _txt_blocks(numbered) if any(_TXT_HEADER.match(line) for line in numbered[:200]) else _paste_blocks(numbered)
    )
    src.messages = [_text_message(start, author, body) for start, author, body in blocks]
    _continue_posts(src.messages, [author for _, author, _ in blocks])
    if not src.messages:
        raise ImportFailed(Msg("import.discord_none"), where=file)
    return src


def _txt_blocks(rows: list[str]) -> list[tuple[int, str | None, list[str]]]:
    """DiscordChatExporter TXT: ``[time] Author`` then the content until the next header."""
    blocks: list[tuple[int, str | None, list[str]]] = []
    for n, line in enumerate(rows, 1):
        head = _TXT_HEADER.match(line)
        after_blank = n == 1 or not rows[n - 2].strip()
        if head and after_blank:
            blocks.append((n, head.group("author").rstrip(), []))
        elif _RULE.match(line) and after_blank:
            blocks.append((n, None, [line]))  # the exporter's footer ("Exported N message(s)") is no one's message
        elif blocks:
            blocks[-1][2].append(line)
        elif line.strip():
            blocks.append((n, None, [line]))  # the exporter's banner (guild, channel) is kept too
    return [(n, a, _trim(body)) for n, a, body in blocks]


def _paste_blocks(rows: list[str]) -> list[tuple[int, str | None, list[str]]]:
    """A bare paste: a new post starts at each ``＞name`` line; other lines stay with the post."""
    blocks: list[tuple[int, str | None, list[str]]] = []
    for n, line in enumerate(rows, 1):
        if _ROLLER.match(line) and not line.lstrip().startswith(">") or not blocks:
            if line.strip() or blocks:
                blocks.append((n, None, [line]))
        else:
            blocks[-1][2].append(line)
    return [(n, a, _trim(body)) for n, a, body in blocks]


def _trim(body: list[str]) -> list[str]:
    while body and not body[-1].strip():
        body.pop()
    return body


def _text_message(start: int, author: str | None, body: list[str]) -> Message:
    text = "\n".join(body)
    msg = Message(loc=f"line {start}", text=text, speaker=author)
    extra = next((i for i, line in enumerate(body) if _TXT_PART.match(line)), None)
    if extra is not None and author is not None:
        # What the author typed ends where the exporter lists attachments, embeds or reactions:
        # "!resolve a1 0" with a photo of the board is still a one-line command.
        msg.said = "\n".join(_trim(body[:extra]))
    if body and _ROLLER.match(body[0]) and body[0].lstrip().startswith("＞"):
        _bot_post(msg, (None, None))
    return msg
