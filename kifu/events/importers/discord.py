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
they are kept in the text but not used as ``at``.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from .common import ImportFailed, Message, Source, as_utf8, decode_text, iso_time

_ROLLER = re.compile(r"^\s*[＞>]\s*(?P<name>\S.*?)\s*$")
_TXT_HEADER = re.compile(r"^\[(?P<time>[^\]]{4,40})\]\s+(?P<author>.+?)\s*$")
_SECRET = re.compile(r"\[Secret Dice\]", re.I)
_RULE = re.compile(r"^={10,}\s*$")
_TXT_PART = re.compile(r"^\{(?:Attachments|Embed|Reactions|Stickers|Components)\}\s*$")


def read(data: bytes, file: str) -> Source:
    head = as_utf8(data)[:65536].lstrip(b"\xef\xbb\xbf \t\r\n")
    first = head.split(b"\n", 1)[0].decode("utf-8", "replace")
    # A TXT export without its banner starts with "[date] Author": a "[" that is not JSON.
    if head[:1] == b"{" or head[:1] == b"[" and not _TXT_HEADER.match(first):
        return read_json(data, file)
    return read_text(data, file)


def read_json(data: bytes, file: str) -> Source:
    text, enc = decode_text(data, file)
    try:
        doc = msgspec.json.decode(text.encode())
    except msgspec.DecodeError as exc:
        raise ImportFailed(f"not valid JSON ({exc}); the file may be truncated", where=file) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
        raise ImportFailed("a DiscordChatExporter JSON needs a top-level \"messages\" list", where=file)
    channel = doc.get("channel", {}).get("name") if isinstance(doc.get("channel"), dict) else None
    guild = doc.get("guild", {}).get("name") if isinstance(doc.get("guild"), dict) else None
    src = Source("discord", file, title=" / ".join(x for x in (guild, channel) if isinstance(x, str)) or None)
    if enc != "utf-8":
        src.notes.append(f"decoded as {enc}")
    src.messages = [_json_message(i, m, channel) for i, m in enumerate(doc["messages"])]
    _name_embed_rollers(src.messages, doc["messages"])
    _key_post_rollers(src.messages, doc["messages"])
    _continue_posts(src.messages, [_author_id(r) for r in doc["messages"]])
    return src


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
    lines = [line for line in text.splitlines() if line.strip()]
    return bool(lines) and all(re.match(r"^\s*(#\d+\s*$|[A-Za-z][\w.:]*\s*:\s*\S*\(|\(|\[ERROR\])", line) for line in lines)


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
    humans = {m.speaker for m, r in zip(messages, raw)
              if isinstance(r, dict) and isinstance(r.get("author"), dict) and not r["author"].get("isBot") and m.speaker}
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
        return Message(loc=f"messages[{i}]", text=msgspec.json.encode(m).decode(), unreadable="not an object")
    loc = f"message {m.get('id')}" if m.get("id") else f"messages[{i}]"
    author = m.get("author") if isinstance(m.get("author"), dict) else {}
    content = m.get("content") if isinstance(m.get("content"), str) else ""
    embeds = "\n\n".join(_embed_text(e) for e in _dicts(m.get("embeds")))
    text = "\n\n".join(t for t in (content, embeds) if t)
    name = next((n for n in (author.get("nickname"), author.get("name")) if isinstance(n, str) and n), None)
    msg = Message(loc=loc, text=text, speaker=name, speaker_key=str(author["id"]) if author.get("id") else None,
                  channel=channel, at=iso_time(m.get("timestamp")), edited=bool(m.get("timestampEdited")))
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
        msg.speaker, msg.speaker_key = roller.group("name"), None
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
        src.notes.append(f"decoded as {enc}")
    lines = text.splitlines()
    blocks = _txt_blocks(lines) if any(_TXT_HEADER.match(line) for line in lines[:200]) else _paste_blocks(lines)
    src.messages = [_text_message(start, author, body) for start, author, body in blocks]
    _continue_posts(src.messages, [author for _, author, _ in blocks])
    if not src.messages:
        raise ImportFailed("no Discord messages found", where=file)
    return src


def _txt_blocks(lines: list[str]) -> list[tuple[int, str | None, list[str]]]:
    """DiscordChatExporter TXT: ``[time] Author`` then the content until the next header."""
    blocks: list[tuple[int, str | None, list[str]]] = []
    for n, line in enumerate(lines, 1):
        head = _TXT_HEADER.match(line)
        after_blank = n == 1 or not lines[n - 2].strip()
        if head and after_blank:
            blocks.append((n, head.group("author"), []))
        elif _RULE.match(line) and after_blank:
            blocks.append((n, None, [line]))  # the exporter's footer ("Exported N message(s)") is no one's message
        elif blocks:
            blocks[-1][2].append(line)
        elif line.strip():
            blocks.append((n, None, [line]))  # the exporter's banner (guild, channel) is kept too
    return [(n, a, _trim(body)) for n, a, body in blocks]


def _paste_blocks(lines: list[str]) -> list[tuple[int, str | None, list[str]]]:
    """A bare paste: a new post starts at each ``＞name`` line; other lines stay with the post."""
    blocks: list[tuple[int, str | None, list[str]]] = []
    for n, line in enumerate(lines, 1):
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
