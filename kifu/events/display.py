"""Text from a log, made safe to show a person: one escaping for the terminal, the page and the slip.

A log is written by whoever wrote it, and so is every string in it: a player's name, a
note, a card, a chat line. Shown raw, a string can act instead of being read: on a
terminal an escape sequence moves the cursor, erases a line or sets the clipboard
(``ESC ] 52``), a carriage return or a backspace overwrites what kifu printed (a
finding erased, "no finding" forged in its place), and a right-to-left override
(U+202E) reverses the words after it on a terminal and a page alike. So every
human-readable output (text, tables, Markdown, errors, the recorder's lines, the slip,
the match page through ``kifu.auditor.markup``) passes the strings it shows through
``visible``: C0 and C1 control characters (but tab and, where a value may span
lines, newline), the bidirectional marks, embeddings, overrides and isolates, the line
and paragraph separators, the BOM and the interlinear annotation characters are shown
as ``[U+202E]``. Nothing is dropped, so a judge still sees what the log holds.

Data formats stay data: ``json_safe`` writes the same characters as JSON's ``\\u``
escapes, which every JSON reader decodes back to the same string (msgspec already
escapes C0, not C1 or bidi controls); CSV is escaped only on a terminal.
"""

from __future__ import annotations

import re
from typing import Any

_INVISIBLE = (
    "\x7f-\x9f"  # DEL and the C1 controls (U+009B is a CSI to a terminal that takes 8-bit controls)
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidirectional marks, embeddings, overrides, isolates
    "\u2028\u2029\ufeff\ufff9-\ufffb"  # line and paragraph separators, BOM, interlinear annotation
)
CONTROLS = re.compile(f"[\x00-\x08\x0b-\x1f{_INVISIBLE}]")
"""What ``visible`` shows as a code: every control character but tab and newline, and the invisible
characters that reorder or hide text."""
_ONE_LINE = re.compile(f"[\x00-\x08\x0a-\x1f{_INVISIBLE}]")
"""``CONTROLS`` and the newline: for a value that stands in one line (a finding, a table cell, an error)."""
_JSON = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f{_INVISIBLE}]")
"""What ``json_safe`` escapes: as ``CONTROLS``, but a carriage return is left to the JSON it is in (outside a
string it is white space; inside one, every encoder escapes it already)."""


def _code(m: re.Match[str]) -> str:
    return f"[U+{ord(m.group()):04X}]"


def visible(value: Any, *, lines: bool = True) -> str:
    """``value`` as text a person can be shown: control and bidi characters as ``[U+XXXX]``.

    ``lines=False`` shows a newline as ``[U+000A]`` too: a value printed within one line
    of output (a finding, an error, a table cell in Markdown) can then never start a line
    of its own that looks like kifu's. Idempotent: what it returns has nothing left to escape.
    """
    text = "" if value is None else str(value)
    return (CONTROLS if lines else _ONE_LINE).sub(_code, text)


def _json_escape(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"


def json_safe(text: str) -> str:
    """A JSON text with the characters ``visible`` escapes written as ``\\uXXXX``: the same JSON value.

    In a JSON text such characters can stand only inside strings, where the escape means
    the very same character, so nothing a JSON reader sees changes.
    """
    return _JSON.sub(_json_escape, text)
