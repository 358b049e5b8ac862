"""Text from a log, made safe to show on a page kifu writes (the match page, ``audit -f html``).

Escaping keeps a name from running as markup; it does not keep it from changing
what the reader *sees*. A right-to-left override (U+202E) in a player's name
reverses the text after it, so a line such as "winner NAME (reason: …)" can be
made to read otherwise. So every string that comes from a log is

* escaped, with bidirectional and other invisible control characters shown as
  ``[U+202E]``, in text and in attributes alike (``esc``);
* isolated in ``<bdi>`` where it stands in running text, so even ordinary
  right-to-left letters cannot reorder the words around it (``isolate``);
* cut at a length a page can show, saying so (``… (1,048,576 characters,
  shown 200)``): a one-megabyte name repeated on every row made pages of 90 MB.

Every page also carries ``CSP``: no script, no network, inline styles and data
images only (the match page adds its one script, allowed by its hash:
kifu/auditor/page/board.py). Pure: strings in, strings out.
"""

from __future__ import annotations

from typing import Any

from ..events import i18n
from ..events.display import visible

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
"""The Content-Security-Policy of every page kifu writes."""

NAME_CAP = 200
"""Characters shown of a name, an id, a title or a path."""
TEXT_CAP = 2000
"""Characters shown of any other string from a log (a note, an event's field, a finding's message)."""


def esc(value: Any) -> str:
    """Escape any value for HTML text or a quoted attribute, control characters made visible
    (``kifu.events.display.visible``: the same characters as on a terminal).

    The five replacements of ``html.escape(text, quote=True)``, ``&`` first: importing ``html`` loads its
    table of named character references, which kifu never reads, and every ``kifu audit`` imports this module."""
    text = visible(value)
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#x27;")
    )


def capped(value: Any, cap: int) -> tuple[str, int | None]:
    """The text to show of a value and, when it was cut, its full length in characters."""
    text = "" if value is None else str(value)
    if len(text) <= cap:
        return text, None
    return text[:cap], len(text)


def isolate(value: Any, cap: int = TEXT_CAP, lang: str = "en") -> str:
    """A string from a log as page content: escaped, isolated in ``<bdi>``, cut at ``cap`` with a visible note."""
    text, full = capped(value, cap)
    out = f"<bdi>{esc(text)}</bdi>"
    if full is not None:
        out += f'<span class="cut">{esc(cut_note(full, cap, lang))}</span>'
    return out


def attribute(value: Any, cap: int = NAME_CAP, lang: str = "en") -> str:
    """A string from a log for an attribute or an SVG title: escaped, controls visible, cut with a note."""
    text, full = capped(value, cap)
    return esc(text if full is None else text + cut_note(full, cap, lang))


def cut_note(full: int, cap: int, lang: str) -> str:
    """``… (1,048,576 characters, shown 200)`` in ``lang``."""
    return i18n.text("page.cut", lang, full=f"{full:,}", shown=f"{cap:,}")
