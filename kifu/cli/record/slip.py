"""The match slip: the head to write down and sign, as text or SVG, with a QR code of the head.

A judge compares a slip with the log later: ``kifu verify LOG --expect-head HEX`` fails if
the log was cut short or changed after the slip was printed (docs/format.md). The QR
code holds the head hash in upper case (QR's compact alphanumeric mode; ``--expect-head``
reads either case). segno draws it; nothing here writes a file.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any
from collections.abc import Sequence

from kifu.auditor import markup
from kifu.auditor.base import Finding
from kifu.auditor.report import counts
from kifu.events import i18n
from kifu.events.base import Event, MatchEnded, MatchStarted
from kifu.events.display import visible
from kifu.events.logfile import Head


def word(key: str, lang: str, **kw: Any) -> str:
    """The slip's word ``slip.<key>`` in ``lang``."""
    return i18n.text(f"slip.{key}", lang, **kw)


@dataclass(frozen=True)
class Slip:
    """What a match slip says."""

    start: MatchStarted
    head: Head
    findings: Sequence[Finding]
    """Every finding, end-of-match rules included."""
    end: MatchEnded | None
    """The match.end that stands (not voided), if any."""
    voided: int
    """How many events voids took back."""
    log: str
    """The log's file name, for the check line."""

    def result(self, lang: str) -> str:
        if self.end is None:
            return word("unfinished", lang)
        names = {p.id: p.name for p in self.start.players}
        reason = self.end.reason or "-"
        if self.end.winner is None:
            return word("draw", lang, reason=reason)
        return word("winner", lang, who=f"{self.end.winner} {names.get(self.end.winner, '')}".strip(), reason=reason)

    def lines(self, lang: str) -> list[tuple[str, str]]:
        """(label, value) rows, in print order."""
        c = counts(self.findings)
        players = "  ".join(f"{p.id}={p.name}" for p in self.start.players)
        events = f"{self.head.seq}" + (f" ({word('voided', lang, n=self.voided)})" if self.voided else "")
        return [
            (word("game", lang), self.start.game),
            (word("match", lang), self.start.match + (f"  {self.start.title}" if self.start.title else "")),
            (word("players", lang), players),
            (word("result", lang), self.result(lang)),
            (word("events", lang), events),
            (word("audit", lang), word("audit_counts", lang, **c)),
            (word("head", lang), f"seq {self.head.seq}"),
        ]

    def grouped_head(self) -> list[str]:
        """The head hash in four groups of 16 hex digits, two per line: easy to read aloud and compare."""
        h = self.head.hash
        return [f"{h[0:16]} {h[16:32]}", f"{h[32:48]} {h[48:64]}"]

    def check(self) -> str:
        return f"kifu verify {self.log} --expect-head {self.head.hash[:16]}"


def build(
    start: MatchStarted,
    head: Head,
    findings: Sequence[Finding],
    events: Sequence[Event],
    ended: int | None,
    voided: int,
    log: str,
) -> Slip:
    """A slip of a log whose standing match.end (if any) is at seq ``ended``."""
    end = events[ended - 1] if ended is not None else None
    assert end is None or isinstance(end, MatchEnded)
    return Slip(start, head, findings, end, voided, log)


def qr_matrix(head: str) -> list[list[bool]]:
    """The QR code of a head: True for a dark module, a quiet zone of 2 included."""
    import segno

    qr = segno.make(head.upper(), error="m", boost_error=False)
    return [[bool(m) for m in row] for row in qr.matrix_iter(border=2)]


_HALF = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}


def _pairs(head: str) -> list[list[tuple[bool, bool]]]:
    """The QR matrix as text rows of (top, bottom) module pairs: two module rows per line."""
    m = qr_matrix(head)
    if len(m) % 2:
        m.append([False] * len(m[0]))
    return [list(zip(m[i], m[i + 1])) for i in range(0, len(m), 2)]


def qr_text(head: str) -> list[str]:
    """The QR code in half blocks, dark modules drawn: for paper, or a light screen."""
    return ["".join(_HALF[pair] for pair in row) for row in _pairs(head)]


def qr_styled(head: str) -> Any:
    """The QR code as rich text, dark modules black on white whatever the terminal's colours."""
    from rich.text import Text

    t = Text()
    for row in _pairs(head):
        t.append("".join(_HALF[pair] for pair in row), style="black on white")
        t.append("\n")
    return t


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
