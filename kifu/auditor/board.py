"""A game's board: the state of the table after one event, drawn as an SVG picture.

A judge asks "what did the table look like when this happened?": each game answers in
its own folder, ``kifu/games/<id>/board.py``, with one pure function

    draw(frame, lang, around=NOTHING) -> Picture

from the projection's frame after an event (and the language of the words) to a
picture: the game's zones, counters and the play in progress. ``around`` adds what a
page knows beside the frame: the event itself (drawn as the caption, and the thing it
touched outlined, as a chess board marks the last move), the frame before it (so a
change can be shown as one: ``22 (−3)``), the findings on that event (the gun, the coin,
the card they are about, outlined in their severity's colour and listed below the
picture) and the players' names. The game's ``Game`` description names the function
(``Game.board``); the match page (kifu/auditor/page/board.py) and ``kifu state -f svg``
draw it.

A picture is a list of parts, each one SVG element (a ``<g>`` of a few, or a single
``<text>``, ``<rect>``…): a figure, a card, a coin, an outline. The page keeps every
distinct part once and each event as the list of its parts, so a long match costs a few
numbers per event rather than a picture per event. Everything a picture shows from a
log is escaped, control characters made visible (kifu/auditor/markup.py), and cut to the
room it has. Pure: values in, strings out.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple
from collections.abc import Callable, Iterable, Mapping, Sequence

from ..events import i18n
from ..events.base import Event, event_type
from ..projector.base import Frame
from .markup import esc

PALETTE = ("#2563eb", "#dc2626", "#059669", "#9333ea", "#ea580c", "#0891b2")
"""Each player's colour, by seat: the same on the board, the charts and the players' table."""
INK, MUTE, LINE, PAPER, SOFT = "#1f2937", "#6b7280", "#d1d5db", "#ffffff", "#f3f4f6"
SEVERITY_COLOUR = {"error": "#dc2626", "warning": "#d97706", "info": "#2563eb"}
"""The outline of what a finding is about, by its severity (the page's colours)."""
TOUCHED = "#0ea5e9"
"""The outline of what the event shown touched (the last move)."""
FONT = "system-ui,'Hiragino Sans','Noto Sans CJK JP','Yu Gothic','IPAGothic',sans-serif"
ROOT = f'font-family="{FONT}" font-size="12" fill="{INK}"'
"""The attributes of every picture's root: what its texts inherit unless they say otherwise."""
SEVERITIES = ("error", "warning", "info")


class Mark(NamedTuple):
    """A finding on the event shown, as the board marks it."""

    severity: str
    """``error``, ``warning`` or ``info``."""
    code: str
    """The rule's code (``GG-TOSS-001``)."""
    message: str
    """The finding's message in the picture's language."""
    evidence: Mapping[str, Any]
    """The values the rule compared: the game's board finds in them what the finding is about
    (a ``gun``, an ``act``, a ``flip``, a ``slot``)."""


@dataclass(frozen=True)
class Around:
    """What a picture may show beside the frame: the event, the frame before it, the findings, the names."""

    event: Event | None = None
    """The event after which the frame is (its caption; what it touched is outlined)."""
    before: Frame[Any] | None = None
    """The frame before the event, to show what changed."""
    marks: tuple[Mark, ...] = ()
    """The findings on this event."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Player id -> name, from match.start."""
    voided: bool = False
    """The event was taken back by a log.void: it changed nothing."""


NOTHING = Around()


@dataclass(frozen=True)
class Picture:
    """A drawn board: its size in user units and its parts, each one SVG element."""

    width: int
    """Width in user units (the game's drawing width; the page scales it to its column)."""
    height: int
    """Height in user units: the game's drawing and the findings listed below it."""
    parts: tuple[str, ...]
    """The SVG elements, in drawing order (later ones paint over earlier ones)."""
    label: str
    """What the picture shows, in words (its accessible name)."""

    def body(self) -> str:
        return "".join(self.parts)

    def document(self) -> str:
        """The picture as a standalone SVG file (``kifu state -f svg``): a judge attaches it to a ruling."""
        return (
            '<?xml version="1.0" encoding="utf-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width * 2}" height="{self.height * 2}" '
            f'viewBox="0 0 {self.width} {self.height}" {ROOT} role="img" '
            f'aria-label="{esc(self.label)}"><title>{esc(self.label)}</title>'
            f'<rect width="{self.width}" height="{self.height}" fill="{PAPER}"/>{self.body()}</svg>\n'
        )


# --- drawing ------------------------------------------------------------------------------


def _n(v: float) -> str:
    """A coordinate without a needless ``.0`` (the hot path of every picture: ints pass straight through)."""
    if type(v) is int:
        return str(v)
    return str(int(v)) if v.is_integer() else f"{v:.1f}"


@lru_cache(maxsize=8192)
def _em(c: str) -> float:
    """How wide a character is, in ems: wide (Japanese) characters one, the others about 0.6."""
    return 1.0 if unicodedata.east_asian_width(c) in "WF" else 0.6


def text_width(s: str, size: float) -> float:
    """About how wide ``s`` is at ``size``."""
    return size * sum(map(_em, s))


def fit(value: Any, width: float, size: float) -> str:
    """``value`` as text cut with ``…`` to about ``width`` at ``size`` (a name from a log may be anything)."""
    s = "" if value is None else str(value)
    room = width / size
    if sum(map(_em, s)) <= room:
        return s
    out, used = [], 0.6  # the ellipsis
    for c in s:
        used += _em(c)
        if used > room:
            break
        out.append(c)
    return "".join(out) + "…"


def text(
    x: float,
    y: float,
    value: Any,
    *,
    size: float = 12,
    fill: str = INK,
    anchor: str = "start",
    weight: str | None = None,
    width: float | None = None,
    mono: bool = False,
) -> str:
    """A line of text with its baseline at ``y``, escaped, cut to ``width`` when given."""
    s = fit(value, width, size) if width is not None else ("" if value is None else str(value))
    # the picture's root sets the usual size and ink (``ROOT``): most texts need neither
    extra = f' font-size="{_n(size)}"' if size != 12 else ""
    extra += f' fill="{fill}"' if fill != INK else ""
    extra += f' text-anchor="{anchor}"' if anchor != "start" else ""
    extra += f' font-weight="{weight}"' if weight else ""
    extra += ' font-family="ui-monospace,monospace"' if mono else ""
    return f'<text x="{_n(x)}" y="{_n(y)}"{extra}>{esc(s)}</text>'


def rect(
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    fill: str = "none",
    stroke: str | None = None,
    sw: float = 1,
    rx: float = 0,
    dash: str | None = None,
    title: Any = None,
) -> str:
    """A box; with ``title``, a tooltip naming what it stands for (a card in a clock, a face of a sheet)."""
    extra = f' stroke="{stroke}" stroke-width="{_n(sw)}"' if stroke else ""
    extra += f' rx="{_n(rx)}"' if rx else ""
    extra += f' stroke-dasharray="{dash}"' if dash else ""
    box = f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" fill="{fill}"{extra}'
    return f"{box}><title>{esc(title)}</title></rect>" if title is not None else f"{box}/>"


def circle(cx: float, cy: float, r: float, *, fill: str = "none", stroke: str | None = None, sw: float = 1) -> str:
    extra = f' stroke="{stroke}" stroke-width="{_n(sw)}"' if stroke else ""
    return f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="{fill}"{extra}/>'


def line(
    x1: float, y1: float, x2: float, y2: float, *, stroke: str = LINE, sw: float = 1, dash: str | None = None
) -> str:
    extra = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" stroke="{stroke}" '
        f'stroke-width="{_n(sw)}"{extra}/>'
    )


def group(*items: str, title: Any = None, transform: str | None = None) -> str:
    """One part of a picture: its items in a ``<g>``, with a tooltip when ``title`` is given."""
    tip = f"<title>{esc(title)}</title>" if title else ""
    attr = f' transform="{transform}"' if transform else ""
    return f"<g{attr}>{tip}{''.join(items)}</g>"


def ring(x: float, y: float, w: float, h: float, severity: str | None, *, rx: float = 6) -> str:
    """The outline of what a finding is about (or, with severity ``touched``, what the event touched)."""
    if severity is None:
        return ""
    if severity == "touched":
        return rect(x - 2, y - 2, w + 4, h + 4, stroke=TOUCHED, sw=2, rx=rx, dash="5 3")
    return rect(x - 3, y - 3, w + 6, h + 6, stroke=SEVERITY_COLOUR.get(severity, INK), sw=3, rx=rx)


# --- what a finding is about ----------------------------------------------------------------


class Targets:
    """What the board outlines: what the findings on the event are about, and what the event touched.

    A game's board turns each mark's evidence (and the event) into a chain of subject keys of its
    own, most specific first (``[("coin", 10), ("flip", "f1")]``: the coin, else its flip), and
    asks ``at(key)`` while it draws each element. An element is outlined in the worst severity of
    the chains it stands in, unless a more specific subject of the same chain was drawn before it
    (so a game draws the small things before the box around them). What the event touched is
    outlined likewise, dashed (``touched``), where no finding is.
    """

    def __init__(self) -> None:
        self.chains: list[tuple[list[tuple[Any, ...]], str]] = []
        self.drawn: list[int | None] = []
        """Per chain: the position in it of the most specific subject drawn so far."""
        self.rings: list[str] = []
        """The outlines drawn, each a part of its own on top of the picture: the element they outline
        stays one part whether or not it is outlined at this event."""

    def mark(self, keys: Sequence[tuple[Any, ...]], severity: str) -> None:
        """A finding is about the first of ``keys`` that the board draws (none: about nothing it draws)."""
        self.chains.append((list(keys), severity))
        self.drawn.append(None)

    def touch(self, keys: Sequence[tuple[Any, ...]]) -> None:
        """The event touched these (each one of them, not the first drawn only)."""
        for key in keys:
            self.chains.append(([key], "touched"))
            self.drawn.append(None)

    def at(self, *keys: tuple[Any, ...]) -> str | None:
        """The outline for an element standing for any of ``keys``: a finding's severity, ``touched`` or None."""
        found = []
        for i, (chain, severity) in enumerate(self.chains):
            pos = min((chain.index(k) for k in keys if k in chain), default=None)
            if pos is None:
                continue
            done = self.drawn[i]
            if done is not None and done < pos:
                continue  # a more specific subject of this finding is outlined already
            self.drawn[i] = pos
            found.append(severity)
        for severity in (*SEVERITIES, "touched"):
            if severity in found:
                return severity
        return None

    def ring(self, x: float, y: float, w: float, h: float, *keys: tuple[Any, ...], rx: float = 6) -> str:
        """Outline the box of an element standing for ``keys`` if a finding is about it or the event touched it.

        Returns "": the outline is kept aside and drawn on top of everything (``picture``).
        """
        severity = self.at(*keys)
        if severity is not None:
            self.rings.append(ring(x, y, w, h, severity, rx=rx))
        return ""

    def missed(self) -> bool:
        """True if a finding's subject was not drawn anywhere (the legend then outlines the whole board)."""
        return any(d is None and s != "touched" for (_, s), d in zip(self.chains, self.drawn, strict=True))


def targets(
    around: Around, subjects: Callable[[Any, Any], list[tuple[Any, ...]]], touched: int | None = None
) -> Targets:
    """The ``Targets`` of one board: each finding's chain of subjects (``subjects(event, evidence)``, the game's
    own keys) outlined in its severity, and what the event alone is about as touched (its first ``touched``
    subjects only, when a game outlines less than the whole chain: Magic's coin, not its whole flip)."""
    t = Targets()
    t.touch(subjects(around.event, {})[:touched])
    for m in around.marks:
        t.mark(subjects(around.event, m.evidence), m.severity)
    return t


def worst(marks: Iterable[Mark]) -> str | None:
    found = [m.severity for m in marks if m.severity in SEVERITIES]
    return min(found, key=SEVERITIES.index) if found else None


# --- the frame around a game's drawing ----------------------------------------------------


CAPTION = 26
"""Height of the caption line above a game's drawing."""


def colour(frame: Frame[Any], pid: str | None) -> str:
    """A player's colour, by seat (the page's charts use the same)."""
    players = frame.log.players
    return PALETTE[players.index(pid) % len(PALETTE)] if pid in players else MUTE


def name(around: Around, pid: str | None) -> str:
    """A player's name (their id when the log names nobody by it)."""
    if pid is None:
        return ""
    return around.names.get(pid, pid)


def who(around: Around, by: str | None, lang: str) -> str:
    if by in ("judge", "system", "recorder"):
        return i18n.text(f"page.{by}", lang)
    return name(around, by)


def caption(frame: Frame[Any], around: Around, lang: str, width: int) -> str:
    """The line above the drawing: the event the picture is after, and who made it."""
    e = around.event
    if e is None:
        words = i18n.text("board.at", lang, seq=frame.seq)
    elif e.by:
        words = i18n.text("board.after_by", lang, seq=e.seq, type=event_type(type(e)), who=who(around, e.by, lang))
    else:
        words = i18n.text("board.after", lang, seq=e.seq, type=event_type(type(e)))
    if around.voided:
        words += " " + i18n.text("board.voided", lang)
    return text(8, 16, words, size=12.5, weight="600", width=width - 16)


def wrap(value: Any, width: float, size: float, lines: int = 2) -> list[str]:
    """``value`` broken into at most ``lines`` lines of about ``width`` (the last cut with ``…``)."""
    rest = "" if value is None else str(value)
    out: list[str] = []
    while rest and len(out) < lines - 1:
        line = fit(rest, width, size).removesuffix("…") if text_width(rest, size) > width else rest
        cut = line.rfind(" ")
        if line != rest and cut > len(line) // 2:  # break at a space when one is near the end
            line = line[:cut]
        out.append(line)
        rest = rest[len(line) :].lstrip()
    if rest:
        out.append(fit(rest, width, size))
    return out


def legend(around: Around, lang: str, y: float, width: int, missed: bool) -> tuple[str, float]:
    """The findings on this event below the drawing, each in up to three lines; (the part, its height)."""
    if not around.marks:
        return "", 0
    items = [text(8, y + 16, i18n.text("board.findings", lang), size=11, fill=MUTE)]
    cy = y + 34
    for m in around.marks:
        items.append(rect(8, cy - 10, 12, 12, fill=SEVERITY_COLOUR.get(m.severity, INK), rx=2))
        for i, part in enumerate(wrap(f"{m.code} {m.message}", width - 34, 11.5, lines=3)):
            items.append(text(26, cy + i * 15, part, size=11.5))
            last = cy + i * 15
        cy = last + 19
    if missed:  # the finding is about something this game does not draw: the whole board is its subject
        colour = SEVERITY_COLOUR[worst(around.marks) or "info"]
        items.insert(0, rect(1.5, CAPTION - 2, width - 3, y - CAPTION + 2, stroke=colour, sw=3, rx=6))
    return group(*items), cy - 19 + 8 - y


def picture(
    frame: Frame[Any],
    around: Around,
    lang: str,
    width: int,
    bottom: float,
    parts: Iterable[str],
    label: str,
    targets: Targets,
) -> Picture:
    """The game's parts framed: the caption above, the findings' legend below."""
    foot, h = legend(around, lang, bottom, width, targets.missed())
    band = rect(0, 0, width, CAPTION - 4, fill=SOFT, rx=4)  # a part of its own: the same at every event
    body = [band, caption(frame, around, lang, width), *(p for p in parts if p), *targets.rings]
    if foot:
        body.append(foot)
    return Picture(width, int(bottom + h + 4), tuple(body), label)
