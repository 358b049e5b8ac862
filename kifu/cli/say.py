"""What every command says and how: the languages, the output formats, messages and printing, without typer.

Split from ``common`` so that the plain forms of ``kifu verify`` and ``kifu audit`` (``kifu.cli.plain``)
print through the same code as every command without importing typer or click (a cold start pays for
them). ``common`` re-exports all of it.
"""

from __future__ import annotations

import codecs
import os
import re
import sys
from enum import Enum
from typing import IO, Any

import msgspec

from kifu.events import i18n
from kifu.events.display import json_safe, visible


class Lang(str, Enum):
    ja = "ja"
    en = "en"


class DataFormat(str, Enum):
    """Rows of data: a table for a person (``text`` is the same: -f text means "for a person" in every
    command), or CSV, one JSON document (a list of objects), JSON Lines (one object a line) or Markdown."""

    table = "table"
    text = "text"
    csv = "csv"
    json = "json"
    jsonl = "jsonl"
    md = "md"


class ReportFormat(str, Enum):
    """An audit's report: text, one JSON document (whatever the number of logs), JSON Lines (one object
    per log), Markdown or the HTML page."""

    text = "text"
    json = "json"
    jsonl = "jsonl"
    md = "md"
    html = "html"


class SummaryFormat(str, Enum):
    """What a command that does work (import, ingest, export, report, verify) says it did: lines for a
    person, or one JSON document, or JSON Lines."""

    text = "text"
    json = "json"
    jsonl = "jsonl"


class VerifyFormat(str, Enum):
    """What ``kifu verify`` prints: lines for a person, one JSON list, or a JSON line per log."""

    text = "text"
    json = "json"
    jsonl = "jsonl"


def default_lang() -> Lang:
    env = os.environ.get("KIFU_LANG") or os.environ.get("LANG", "")
    return Lang.ja if env.startswith("ja") else Lang.en


def lang_of(lang: Lang | None) -> Lang:
    """The --lang given, else the environment's."""
    return lang if lang is not None else default_lang()


def msg(key: str, lang: Lang | str | None, **kw: Any) -> str:
    """The command line's message ``cli.<key>`` from the catalogue, in ``lang``."""
    code = lang_of(lang).value if lang is None or isinstance(lang, Lang) else lang
    return i18n.text(f"cli.{key}", code, **kw)


class Interrupted(Exception):
    """Ctrl-C stopped a command's work; the message says what was stopped (main prints it, exit 130)."""


def echo(text: str = "", *, err: bool = False, nl: bool = True, data: bool = False) -> None:
    """Print for a person, on stdout (or stderr): the one door every command's output goes through.

    Strings from a log are shown with ``display.visible`` (control and bidi characters as
    ``[U+001B]``), so nothing a log holds acts on the terminal. ``data=True`` is output in
    a data format that is already safe to show (JSON through ``display.json_safe``, a page)
    or must stay byte for byte what it is when it goes to a file or a pipe (CSV): it is
    escaped only when the stream is a terminal.
    """
    if not data or _terminal(err):
        text = visible(text)
    write(text + "\n" if nl else text, err=err)


_ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")
"""An ANSI style code, as click's ``echo`` strips it from what goes to a file or a pipe."""


def write(out: str, *, err: bool = False) -> None:
    """``out`` written and flushed as click's ``echo`` writes a string (kifu's commands printed through it).

    Style codes are left out when the stream is no terminal, as click does. A stream whose encoding
    is ASCII is one click re-opens as UTF-8: that rare case is handed to click itself, so the bytes
    are the same whichever way a command ran.
    """
    stream: IO[str] | None = sys.stderr if err else sys.stdout
    if stream is None:  # no stream to write to (pythonw)
        return
    if _ascii(stream):
        from typer import echo as click_echo

        click_echo(out, err=err, nl=False)
        return
    if out:
        if "\033" in out and not _terminal(err):
            out = _ANSI.sub("", out)
        stream.write(out)
    stream.flush()


def _ascii(stream: IO[str]) -> bool:
    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "ascii").name == "ascii"
    except LookupError:
        return False


def _terminal(err: bool) -> bool:
    stream = sys.stderr if err else sys.stdout
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream: no terminal to protect
        return False


def print_json(value: Any) -> None:
    """A JSON document, its control and bidi characters written as ``\\u`` escapes (the same strings)."""
    echo(json_safe(msgspec.json.format(msgspec.json.encode(value), indent=2).decode()), data=True)


def print_jsonl(value: Any) -> None:
    """One line of JSON Lines: ``value`` as compact JSON, its control and bidi characters escaped."""
    echo(json_safe(msgspec.json.encode(value).decode()), data=True)
