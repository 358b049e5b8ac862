"""What every section of the match page shares: the Context and the escaping and formatting helpers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Iterable, Mapping

import msgspec

from ...events import i18n
from ...events.base import JudgeRuling, LogVoided, MatchEnded, MatchStarted, Source
from ...projector import series
from .. import provenance
from ..base import Game, Rule
from ..markup import NAME_CAP, TEXT_CAP, attribute, esc, isolate

__all__ = [
    "NAME_CAP",
    "SEVERITIES",
    "TEXT_CAP",
    "Context",
    "edited_note",
    "esc",
    "labelled_table",
    "metric_label",
    "num",
    "plain",
    "seq_links",
]

SEVERITIES = ("error", "warning", "info")


def plain(value: Any) -> str:
    """A value as a reader wants it: strings as they are, anything else as compact JSON."""
    if isinstance(value, str):
        return value
    return msgspec.json.encode(value).decode()


@dataclass(frozen=True)
class Context:
    """What every section needs: the language, the match and its players, rules and series."""

    lang: str
    start: MatchStarted
    game: Game | None
    rules: Mapping[str, Rule]
    options: Mapping[str, Any]
    names: Mapping[str, str]
    colours: Mapping[str, str]
    metrics: tuple[series.Metric, ...]
    """The game's charts, in drawing order."""
    table: list[tuple[int, series.Values]]
    last_seq: int
    rulings: tuple[JudgeRuling, ...]
    end: MatchEnded | None = None
    """The first match.end, if any."""
    by_seq: Mapping[int, str | None] = field(default_factory=dict)
    """Who acted at each event a finding is reported at."""
    timed: bool = False
    """Some event carries a time (a log with none gets no time column)."""
    voids: Mapping[int, LogVoided] = field(default_factory=dict)
    """Seq of each event a void took back -> that void."""
    randomness: Any = None
    """The match's random outcomes and how many are verifiable (``kifu.auditor.tally.Tally``)."""
    edited: Mapping[int, Source] = field(default_factory=dict)
    """Seq of each event a finding names that came from a message the source marks as edited -> its source."""
    boards: Any = None
    """The boards of the events shown (``page.board.Shown``); None when the game draws no board."""

    def t(self, key: str, **kw: Any) -> str:
        return i18n.text(f"page.{key}", self.lang, **kw)

    def th(self, key: str, **html_values: str) -> str:
        """A label as HTML, its placeholders filled with HTML already made safe (``user``, ``esc``)."""
        text = esc(i18n.template(f"page.{key}", self.lang))
        return text.format(**html_values) if html_values else text

    def who(self, pid: str | None) -> str:
        if pid in ("judge", "system", "recorder"):
            return self.t(pid)
        return self.names.get(pid or "", pid or "")

    def user(self, value: Any, cap: int = TEXT_CAP) -> str:
        """A string from the log as page content: escaped, isolated, cut at ``cap`` (kifu/auditor/markup.py)."""
        return isolate(value, cap, self.lang)

    def name(self, value: Any) -> str:
        """A name, id, title or path from the log as page content."""
        return isolate(value, NAME_CAP, self.lang)

    def attr(self, value: Any) -> str:
        """A string from the log for an attribute or an SVG title."""
        return attribute(value, NAME_CAP, self.lang)


def edited_note(ctx: Context, src: Source) -> str:
    """An edited source message as page content: where the export has it and its text as exported."""
    where = ctx.name(provenance.where(src))
    if src.text is None:
        return ctx.th("edited_no_text", where=where)
    return ctx.th("edited", where=where, text=ctx.user(src.text))


def seq_links(seqs: Iterable[int]) -> str:
    """Links to the timeline rows of these events."""
    return ", ".join(f'<a class="seqlink" href="#seq-{int(s)}">seq {int(s)}</a>' for s in seqs)


def labelled_table(ctx: Context, columns: Iterable[str], rows: str, cls: str = "") -> str:
    """A table whose head row names ``columns`` (label keys) in the page's language."""
    head = "".join(f"<th>{esc(ctx.t(k))}</th>" for k in columns)
    attr = f' class="{cls}"' if cls else ""
    return f"<table{attr}><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def num(v: float) -> str:
    """A charted number without a needless ``.0``."""
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def metric_label(ctx: Context, name: str) -> str:
    """The label of a game's metric in the page's language (the name itself if the game has no such metric)."""
    if any(m.name == name for m in ctx.metrics):
        return i18n.text(f"chart.{name}", ctx.lang)
    return name
