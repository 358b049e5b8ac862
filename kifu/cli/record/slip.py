"""The match slip: the head to write down and sign, as text or SVG, with a QR code of the head.

A judge compares a slip with the log later: ``kifu verify LOG --expect-head HEX`` fails if
the log was cut short or changed after the slip was printed (docs/format.md). The QR
code holds the head hash in upper case (QR's compact alphanumeric mode; ``--expect-head``
reads either case). segno draws it; nothing here writes a file.
"""

from __future__ import annotations

from html import escape
from typing import Any

from kifu.app.recording import Slip
from kifu.auditor import markup
from kifu.events import i18n
from kifu.events.display import visible


def word(key: str, lang: str, **kw: Any) -> str:
    """The slip's word ``slip.<key>`` in ``lang``."""
    return i18n.text(f"slip.{key}", lang, **kw)


QUIET = 4
"""The quiet zone QR asks for, in modules: the terminal's own colours begin only past it."""
LIGHT_ON_DARK = "#ffffff on #000000"
"""The QR code's colours on a terminal, set by the code itself: a dark theme would otherwise draw
the modules light on dark (inverted), which most readers, zbar among them, do not decode. The
light modules are the ones drawn (in white), the dark ones are the black background: every row
then ends in its quiet zone's blocks, never in spaces that a copy of the screen may trim."""


def qr_matrix(head: str, border: int = 2) -> list[list[bool]]:
    """The QR code of a head: True for a dark module, a quiet zone of ``border`` modules included."""
    import segno

    qr = segno.make(head.upper(), error="m", boost_error=False)
    return [[bool(m) for m in row] for row in qr.matrix_iter(border=border)]


_HALF = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
"""(top, bottom) dark modules → the half block that draws them (dark on light: paper, a light screen)."""
_LIGHT = {(True, True): " ", (True, False): "▄", (False, True): "▀", (False, False): "█"}
"""(top, bottom) dark modules → the half block that draws the light ones (``LIGHT_ON_DARK``)."""


def _pairs(head: str, border: int = 2) -> list[list[tuple[bool, bool]]]:
    """The QR matrix as text rows of (top, bottom) module pairs: two module rows per line."""
    m = qr_matrix(head, border)
    if len(m) % 2:
        m.append([False] * len(m[0]))
    return [list(zip(m[i], m[i + 1])) for i in range(0, len(m), 2)]


def qr_text(head: str) -> list[str]:
    """The QR code in half blocks, dark modules drawn: for paper, or a light screen."""
    return ["".join(_HALF[pair] for pair in row) for row in _pairs(head)]


def qr_styled(head: str, border: int = 2) -> Any:
    """The QR code as rich text that sets its own colours (``LIGHT_ON_DARK``), quiet zone included:
    it reads the same on a light and on a dark terminal."""
    from rich.text import Text

    t = Text()
    for row in _pairs(head, border):
        t.append("".join(_LIGHT[pair] for pair in row), style=LIGHT_ON_DARK)
        t.append("\n")
    return t


def print_on_terminal(slip: Slip, lang: str) -> None:
    """The slip on a terminal: its rows, then the QR code in its own colours with the whole quiet
    zone, then the line to sign (``as_text`` is the same slip for a file or paper)."""
    from rich.console import Console

    console = Console(highlight=False, soft_wrap=True)
    console.print(as_text(slip, lang, qr=False), end="", markup=False)
    console.print()
    console.print(qr_styled(slip.head.hash, QUIET), end="")
    console.print()
    console.print(f"{word('sign', lang)}: ______________________   ______________________", markup=False)


def as_text(slip: Slip, lang: str, qr: bool = True) -> str:
    """The slip to print or keep with the score sheet: plain text, the QR code in block characters."""
    from rich.cells import cell_len  # Japanese labels are two cells a character wide

    def pad(label: str) -> str:
        return label + " " * (width - cell_len(label))

    width = max(cell_len(label) for label, _ in slip.lines(lang) + [(word("check", lang), "")])
    out = [word("title", lang), ""]
    out += [f"{pad(label)}  {visible(value, lines=False)}" for label, value in slip.lines(lang)]
    out += [" " * width + "  " + part for part in slip.grouped_head()]
    out += [f"{pad(word('check', lang))}  {slip.check()}"]
    if qr:
        out += [""] + qr_text(slip.head.hash)
        out += ["", f"{word('sign', lang)}: ______________________   ______________________"]
    return "\n".join(out) + "\n"


def as_svg(slip: Slip, lang: str) -> str:
    """The slip as one SVG page (A6-ish, 105 × 148 mm): the rows, the head in full and its QR code."""
    m = qr_matrix(slip.head.hash)
    cell = 1.6
    qr = "".join(
        f'<rect x="{x * cell:.1f}" y="{y * cell:.1f}" width="{cell}" height="{cell}"/>'
        for y, row in enumerate(m)
        for x, dark in enumerate(row)
        if dark
    )
    rows = [(word("title", lang), "")] + slip.lines(lang) + [("", part) for part in slip.grouped_head()]
    text = "".join(
        f'<text x="6" y="{14 + i * 6}" font-size="{5 if i == 0 else 3.6}">'
        f'<tspan font-weight="bold">{escape(label)}</tspan>'
        f'<tspan x="28" unicode-bidi="isolate">{markup.attribute(value, markup.NAME_CAP, lang)}</tspan></text>'
        for i, (label, value) in enumerate(rows)
    )
    y = 14 + len(rows) * 6
    size = len(m) * cell
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="105mm" height="148mm" viewBox="0 0 105 148" '
        'font-family="monospace, sans-serif">'
        '<rect width="105" height="148" fill="#fff"/>'
        f"{text}"
        f'<text x="6" y="{y}" font-size="3">{escape(slip.check())}</text>'
        f'<g transform="translate({(105 - size) / 2:.1f},{y + 4})" fill="#000">{qr}</g>'
        f'<text x="6" y="{y + 10 + size}" font-size="3.6">{escape(word("sign", lang))}: ____________  ____________</text>'
        "</svg>\n"
    )
