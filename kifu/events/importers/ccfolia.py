"""ココフォリア (CCFOLIA) chat log exports: classic HTML, the newer article/time HTML, JSON.

Source: ../shared/reference/online-logs.md §1 (cp-20/dice-spec-v2 parsers and
fixtures, nununu-tatata/log-checker). Classic HTML has one ``<p>`` per message with
spans [tab], speaker, body (the BCDice result follows the typed command in the
body) and no times. The new HTML has ``article.message`` with ``time@datetime``, a
``.roll-result`` span and an ``.edited`` marker. JSON has ``messages[]`` with
``createdAt`` in seconds or milliseconds and ``extend.roll.result`` (``secret`` when the roll
was a secret one); a JSON object naming a key twice is refused. Neither HTML export marks
a secret roll: a message is secret when its command carries BCDice's ``S`` prefix
(``S1D100``, ``SCC<=50``), and a command that shows no result is a hidden roll only then;
any other command with no result (one BCDice did not recognise, an error) stays chat.
HTML is parsed with lxml's forgiving HTML parser, never with regexes over markup.
"""

from __future__ import annotations

import re
from typing import Any

import lxml.html
import msgspec

from ..i18n import Msg
from . import bcdice
from .common import (
    ImportFailed,
    Message,
    Source,
    as_utf8,
    declared_charset,
    decode_json,
    decode_text,
    epoch_ms,
    iso_time,
    markup_stopped,
)

TABS = {"main": "メイン", "info": "情報", "other": "雑談"}
"""CCFOLIA's built-in tab keys and their displayed names."""


def read(data: bytes, file: str) -> Source:
    """Read any CCFOLIA export: JSON when it starts with ``{``, else HTML."""
    if as_utf8(data)[:65536].lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{":
        return read_json(data, file)
    return read_html(data, file)


def read_html(data: bytes, file: str) -> Source:
    text, enc = decode_text(data, file, declared_charset(data))
    # lxml refuses text that still declares its encoding (an XHTML save, or an XML file read as HTML).
    text = re.sub(r"^\s*<\?xml[^>]*\?>", "", text)
    parser = lxml.html.HTMLParser()
    try:
        doc = lxml.html.document_fromstring(text, parser=parser)
    except (ValueError, lxml.etree.ParserError) as exc:
        raise ImportFailed(Msg("import.not_html", detail=str(exc)), where=file) from None
    # The forgiving parser stops at a fatal error (elements nested past MARKUP_DEPTH) and hands back
    # what it read so far: every message after it would be lost without a word.
    stopped = next((e for e in parser.error_log if e.level == lxml.etree.ErrorLevels.FATAL), None)
    if stopped is not None:
        raise markup_stopped(stopped, file)
    articles = doc.xpath("//article[contains(concat(' ', normalize-space(@class), ' '), ' message ')]")
    src = Source("ccfolia", file)
    if enc != "utf-8":
        src.notes.append(Msg("import.note_decoded", encoding=enc))
    if articles:
        src.title = _text(doc.find(".//title"))
        src.messages = [_secrecy(_article(a, i)) for i, a in enumerate(articles, 1)]
    else:
        paragraphs = doc.xpath("//body//p")
        if not paragraphs or not _classic(doc, paragraphs):
            raise ImportFailed(Msg("import.ccfolia_none"), where=file)
        src.messages = [_classic_secrecy(_paragraph(p, i)) for i, p in enumerate(paragraphs, 1)]
    if b"</html>" not in data[-512:].lower():
        src.notes.append(Msg("import.note_html_truncated"))
    return src


def _classic(doc: Any, paragraphs: list[Any]) -> bool:
    """A classic log: its title says so, or some <p> has the speaker and body spans.

    Any other HTML page (a blog, a saved forum thread) is not read as chat: its
    paragraphs would all become "unreadable" notes in a log that looks imported.
    """
    title = (_text(doc.find(".//title")) or "").strip()
    return title == "ccfolia - logs" or any(len(p.findall("span")) >= 2 for p in paragraphs)


def _secrecy(msg: Message) -> Message:
    """Mark a secret roll, and a hidden one: a secret command (or the client's placeholder) with no result shown.

    BCDice answers nothing for a command the room's system does not know (``CC<=50`` in a
    room without Call of Cthulhu), and the exports then show the command alone: that is
    chat, not a secret. Only the ``S`` prefix, or the source's own flag, makes a roll secret.
    """
    if msg.unreadable or msg.system:
        return msg
    said = msg.command if msg.command is not None else msg.text
    msg.secret = msg.secret or bcdice.typed_secret(said)
    shown = msg.result is not None or bcdice.SEP in msg.text
    if not shown and (msg.secret or bcdice.is_hidden_marker(msg.text)):
        msg.hidden_roll = msg.secret = True
    return msg


# What a classic page writes for a secret roll not yet opened: the placeholder alone, never the command
# (kurocafe/ccfolia-log-viewer: docs/cc.html, docs/ccb.html, 17 such rolls, none with its command shown).
_CLASSIC_HIDDEN = re.compile(r"シークレットダイス[ \t\u3000]*[?？]*")


def _classic_secrecy(msg: Message) -> Message:
    """A classic page's message: hidden only as the client's placeholder (``シークレットダイス ???``).

    An ``S`` command shown with no result is not how that page writes a hidden roll, so it is a
    command BCDice did not take (the player typed it again, or gave up): chat everyone saw. It
    is reported, since an ``S`` command the reader got wrong would otherwise pass unseen.
    """
    if msg.unreadable or msg.system:
        return msg
    shown = msg.result is not None or bcdice.SEP in msg.text
    if shown:
        return _secrecy(msg)
    if _CLASSIC_HIDDEN.fullmatch(msg.text.strip()):
        msg.hidden_roll = msg.secret = True
    elif bcdice.typed_secret(msg.text):
        msg.rolls = []  # no result to read: the line is chat, reported once below
        msg.unreadable = Msg("import.ccfolia_secret_no_result")
    return msg


def _text(el: Any) -> str | None:
    return None if el is None else el.text_content()


def _body(el: Any) -> str:
    """Text of an element with ``<br>`` as a newline and the export's indentation removed."""
    for br in el.iter("br"):
        br.tail = "\ue000" + (br.tail or "")
    # A <br> next to a raw newline is one line break, not two (exports differ in which they write).
    text = el.text_content().replace("\n\ue000", "\n").replace("\ue000\n", "\n").replace("\ue000", "\n")
    lines = text.split("\n")
    return "\n".join(line.strip() for line in lines).strip("\n ")


def _loc(el: Any, tag: str, index: int) -> str:
    """``line N``; past line 65,535, where libxml2's HTML parser stops counting, ``p[i]`` (the i-th message)."""
    line = el.sourceline
    return f"line {line}" if line is not None and line < 65535 else f"{tag}[{index}]"


def _paragraph(p: Any, index: int) -> Message:
    spans = p.findall("span")
    loc = _loc(p, "p", index)
    if len(spans) == 2:  # an export without the tab span: speaker and body only
        return Message(loc=loc, text=_body(spans[1]), speaker=spans[0].text_content().strip())
    if len(spans) < 3:
        return Message(loc=loc, text=_body(p), unreadable=Msg("import.ccfolia_spans", spans=len(spans)))
    tab = spans[0].text_content().strip().strip("[]").strip()
    return Message(loc=loc, text=_body(spans[2]), speaker=spans[1].text_content().strip(), channel=_channel(tab))


def _channel(tab: str) -> str:
    """The displayed tab name: built-in keys become メイン/情報/雑談, custom tabs stay."""
    return TABS.get(tab, tab)


def _article(a: Any, index: int) -> Message:
    loc = _loc(a, "article", index)
    speaker = _first(a, "speaker")
    body = _first_el(a, "message-text")
    roll = _first_el(a, "roll-result")
    time = a.xpath(".//time/@datetime")
    key = a.get("data-channel") or ""
    shown = (_first(a, "channel-name") or "").strip().strip("[]").strip()
    # A custom tab's key is an opaque id ("ch_8f2a"); its name is what the classic export and the players show.
    channel = TABS.get(key) or shown or key
    msg = Message(
        loc=loc,
        text=_body(body) if body is not None else "",
        speaker=speaker.strip() if speaker else None,
        channel=channel or None,
        at=iso_time(str(time[0])) if time else None,
        result=_body(roll) if roll is not None else None,
        edited=_first_el(a, "edited") is not None,
        # The client's own lines (a status change "HP : 10 → 9") are <article class="message system">.
        system="system" in (a.get("class") or "").split(),
    )
    if msg.result is not None:
        msg.command = msg.text
    else:
        msg.rolls = []  # this export keeps a result in its own element: a line without one holds no roll
    if body is None:
        msg.unreadable = Msg("import.ccfolia_no_message_text")
    elif time and msg.at is None:
        msg.unreadable = Msg("import.unreadable_time", time=repr(time[0]))
    return msg


def _first_el(el: Any, cls: str) -> Any:
    found = el.xpath(f".//*[contains(concat(' ', normalize-space(@class), ' '), ' {cls} ')]")
    return found[0] if found else None


def _first(el: Any, cls: str) -> str | None:
    found = _first_el(el, cls)
    return None if found is None else found.text_content()


def read_json(data: bytes, file: str) -> Source:
    text, enc = decode_text(data, file)
    doc = decode_json(text, file)
    if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
        raise ImportFailed(Msg("import.ccfolia_json_messages"), where=file)
    src = Source("ccfolia", file, title=doc.get("title") if isinstance(doc.get("title"), str) else None)
    if enc != "utf-8":
        src.notes.append(
            Msg("import.note_decoded", encoding=enc)
        )  # re-saved by an editor: the judge should know the bytes were guessed
    src.messages = [_secrecy(_json_message(i, m)) for i, m in enumerate(doc["messages"])]
    return src


def _name(value: Any) -> str | None:
    """A speaker name; a number where a name belongs (a damaged export) is kept as its text."""
    if isinstance(value, bool):
        return None
    return value if isinstance(value, str) else str(value) if isinstance(value, (int, float)) else None


def _json_message(i: int, m: Any) -> Message:
    loc = f"messages[{i}]"
    if not isinstance(m, dict):
        return Message(loc=loc, text=msgspec.json.encode(m).decode(), unreadable=Msg("import.not_an_object"))
    roll = m.get("extend", {}).get("roll") if isinstance(m.get("extend"), dict) else None
    result = roll.get("result") if isinstance(roll, dict) else None
    channel = m.get("channelName") or _channel(str(m.get("channel") or "")) or None
    msg = Message(
        loc=loc,
        text=m["text"] if isinstance(m.get("text"), str) else "",
        speaker=_name(m.get("name")),
        channel=channel,
        at=epoch_ms(m.get("createdAt")),
        system=m.get("type") == "system",
        result=result if isinstance(result, str) else None,
        secret=roll.get("secret") is True if isinstance(roll, dict) else False,
    )
    if not isinstance(m.get("text"), str):
        msg.text = msgspec.json.encode(m).decode()
        msg.unreadable = Msg("import.no_text")
        msg.result, msg.rolls = None, []  # the object's dump is evidence, not a roll to read
    elif msg.result is not None:
        msg.command = msg.text
    else:
        msg.rolls = []  # the JSON keeps a result in extend.roll: a message without one holds no roll
    return msg
