"""``kifu record``'s terminal app (Textual): an input line, the state, the recent events and the live audit.

Laid out for an 80×24 terminal over SSH: a header with the match, the seq and the head;
the game's key figures beside the recent timeline; the live findings; a preview of what
the typed line will append; the input line; the keys. Everything it does goes through a
``Recording`` (recording.py), so the line-by-line mode and the tests see the same thing.
Only ``kifu record`` imports this module: no other command pays for Textual.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from kifu.events import i18n
from kifu.events.base import KifuError, LogVoided, event_type
from kifu.events.display import visible

from .recording import Entered, Recording

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
TIMELINE = 40
"""Events kept in the timeline panel (it shows as many as fit)."""

CSS = """
Screen { layout: vertical; }
#header { height: 1; background: $primary; color: $text; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
#main { height: 1fr; min-height: 6; }
#board { width: 40; border: round $secondary; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
#timeline { width: 1fr; border: round $secondary; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
#findings { height: 6; border: round $warning; padding: 0 1; }
#preview { height: 2; padding: 0 1; }
#line { height: 3; }
SlipScreen { align: center middle; }
#slip { width: 80; height: 24; background: $surface; }
#slip-text { width: 41; padding: 0 1; }
#slip-qr { width: 39; }
"""


def word(key: str, lang: str, **kw: Any) -> str:
    """The command line's word ``cli.<key>`` in ``lang``."""
    return i18n.text(f"cli.{key}", lang, **kw)


def _packed(items: list[str], width: int) -> list[str]:
    """Items on as few lines of ``width`` cells as they fit, never split."""
    lines: list[str] = []
    for item in items:
        if lines and cell_len(lines[-1]) + 2 + cell_len(item) <= width:
            lines[-1] += "  " + item
        else:
            lines.append(item)
    return lines


class RecordApp(App[None]):
    """The recording screen of one log."""

    CSS = CSS
    TITLE = "kifu record"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, recording: Recording, lang: str = "en") -> None:
        super().__init__()
        self.rec = recording
        self.lang = lang
        self.last: Entered | None = None
        """What the last Enter did, shown until the next keystroke."""
        self._cycle: tuple[str, str, list[str], int] | None = None
        """After Tab: (the value it left, the text before the word, the candidates, which one)."""
        self.history: list[str] = []
        """Every line entered, refused ones included (↑ recalls them)."""
        self._back = 0

    # --- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Horizontal(id="main"):
            yield Static(id="board")
            yield Static(id="timeline")
        yield Static(id="findings")
        yield Static(id="preview")
        yield Input(placeholder=word("record_placeholder", self.lang), id="line")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#board").border_title = word("record_state", self.lang)
        self.query_one("#timeline").border_title = word("record_timeline", self.lang)
        self.query_one("#line", Input).focus()
        self.query_one("#header", Static).update(self.header_text())
        # The match and its head are on screen at once; the log recorded so far is folded and
        # audited right after the first frame (a long log takes a moment).
        self.call_after_refresh(self.refresh_all)

    def refresh_all(self) -> None:
        self.query_one("#header", Static).update(self.header_text())
        self.query_one("#board", Static).update(self.board_text())
        self.query_one("#timeline", Static).update(self.timeline_text())
        self.show_findings()
        self.show_preview(self.query_one("#line", Input).value)
        self.query_one("#line", Input).border_title = self.speaker_label()

    def header_text(self) -> Text:
        # The head first: a long match id is what gets cut at 80 columns, never the head.
        start, head = self.rec.start, self.rec.head
        t = Text()
        t.append(f"kifu {word('record_title', self.lang)}  ", style="bold")
        t.append(f"seq {head.seq}  ", style="bold")
        t.append("head ")
        t.append(head.hash[:20], style="bold")
        t.append(visible(f"  {start.game}  {start.match}", lines=False))
        return t

    def speaker_label(self) -> str:
        who = self.rec.table.speaker
        names = {p.id: p.name for p in self.rec.start.players}
        return visible(f"{who} {names.get(who or '', '')}".strip(), lines=False) + " ›"

    def board_text(self) -> Text:
        names = {p.id: p.name for p in self.rec.start.players}
        width = max(10, self.query_one("#board").content_size.width or 36)
        t = Text(no_wrap=True, overflow="ellipsis")
        for pid, figures in self.rec.board():
            if pid is not None:
                t.append(visible(f"{pid} {names.get(pid, '')}", lines=False) + "\n", style="bold")
            for line in _packed([f"{i18n.text('board.' + f.key, self.lang)} {f.value}" for f in figures], width - 2):
                t.append(f"  {line}\n")
        return t

    def timeline_text(self) -> Text:
        from kifu.auditor.report import void_note
        from kifu.events.notation import describe

        events = self.rec.events[-TIMELINE:]
        flagged = {s for f in self.rec.findings() for s in f.seqs}
        voided = self.rec.session.voided
        by_seq = {e.seq: e for e in self.rec.events if isinstance(e, LogVoided)}
        t = Text(no_wrap=True, overflow="ellipsis")
        for e in reversed(events):
            mark = "▲" if e.seq in flagged else " "
            fields = describe(msgspec.to_builtins(e)).removeprefix(event_type(type(e))).strip()
            line = visible(f"{e.seq:>4}{mark}{e.by or '-'} {event_type(type(e))} {fields}", lines=False)
            if e.seq in voided:
                t.append(line + "\n", style="strike dim")
                t.append(
                    f"      {visible(void_note(by_seq[voided[e.seq]], self.lang), lines=False)}\n", style="dim italic"
                )
            else:
                t.append(line + "\n", style="red" if e.seq in flagged else "")
        return t

    def show_findings(self) -> None:
        found = sorted(self.rec.findings(), key=lambda f: (-f.seq, f.code))
        panel = self.query_one("#findings", Static)
        c = {s: sum(f.severity == s for f in found) for s in ("error", "warning", "info")}
        panel.border_title = f"{word('record_audit', self.lang)}: E {c['error']}  W {c['warning']}  I {c['info']}"
        fresh = {id(f) for f in (self.last.added if self.last else [])}
        t = Text(overflow="ellipsis")
        if not found:
            t.append(word("record_audit_clean", self.lang), style="green")
        # A finding just made is shown whole (the table reads it now); the others one line each.
        width = max(10, panel.content_size.width or 76)
        for f in found:
            line = Text()
            line.append(
                f"seq {f.seq} {f.code} ",
                style=SEVERITY_STYLE.get(f.severity, "") + (" reverse" if id(f) in fresh else ""),
            )
            line.append(visible(f.message.get(self.lang), lines=False))
            if id(f) not in fresh:
                line.truncate(width, overflow="ellipsis")
            t.append_text(line)
            t.append("\n")
        panel.update(t)

    def show_preview(self, value: str) -> None:
        from kifu.events.notation import describe

        panel = self.query_one("#preview", Static)
        if not value.strip():
            panel.update(self.last_text())
            return
        reading = self.rec.preview(value)
        t = Text()
        if reading.error:  # while typing: a warning; refused on Enter (then red, see last_text)
            t.append(word("record_refused", self.lang, error=reading.error), style="yellow")
        elif reading.events:
            t.append(f"{word('record_will_append', self.lang)}: ", style="bold")
            seq = self.rec.head.seq
            t.append(
                "  ".join(f"+{seq + i} {e.get('by') or '-'} {describe(e)}" for i, e in enumerate(reading.events, 1))
            )
            if reading.hint:
                t.append(f"  ({reading.hint})", style="yellow")
        elif reading.speaker != self.rec.table.speaker:
            t.append(word("record_speaker_now", self.lang, who=reading.speaker))
        _, words = self.rec.table.complete(value)
        if words:
            t.append("\n" + word("record_candidates", self.lang, words="  ".join(words[:8])), style="dim")
        panel.update(t)

    def last_text(self) -> Text:
        t = Text()
        last = self.last
        if last is None:
            return t
        if last.error:
            t.append(word("record_refused", self.lang, error=last.error), style="bold red")
            t.append("\n" + word("record_recall", self.lang, line=last.reading.text), style="dim")
            return t
        if last.events:
            seqs = ", ".join(str(e.seq) for e in last.events)
            t.append(word("record_appended", self.lang, seqs=seqs) + "  ")
        if last.added:
            t.append(word("record_found", self.lang, n=len(last.added)) + "  ", style="bold red")
        if last.removed:
            t.append(word("record_gone", self.lang, n=len(last.removed)) + " ", style="bold green")
            t.append(", ".join(f.code for f in last.removed), style="green")
        if last.synced:
            t.append("  " + word("record_synced", self.lang, n=last.synced), style="yellow")
        return t

    # --- input -------------------------------------------------------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        if self._cycle is None or event.value != self._cycle[0]:
            self._cycle = None
        self.show_preview(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.enter(event.value)

    def enter(self, text: str) -> Entered | None:
        """Record one line (what Enter does). The input is cleared either way, so lines typed
        fast (or sent by a script) never run into a refused one; ↑ brings a line back to fix."""
        if not text.strip():
            return None
        line = self.query_one("#line", Input)
        self.history.append(text)
        self._back = len(self.history)
        try:
            self.last = self.rec.enter(text)
        except KifuError as exc:
            self.last = None
            line.value = ""
            self.query_one("#preview", Static).update(
                Text(word("record_error", self.lang, error=exc.render(self.lang)), style="bold red")
            )
            return None
        line.value = ""
        self.refresh_all()
        return self.last

    def action_back(self, step: int) -> None:
        """↑ / ↓: the lines entered before (a refused one to fix)."""
        if not self.history:
            return
        self._back = max(0, min(len(self.history), self._back + step))
        line = self.query_one("#line", Input)
        line.value = self.history[self._back] if self._back < len(self.history) else ""
        line.cursor_position = len(line.value)

    def action_undo(self) -> None:
        self.enter("!undo")

    def action_speaker(self) -> None:
        ids = [p.id for p in self.rec.start.players]
        if not ids:
            return
        now = self.rec.table.speaker
        nxt = ids[(ids.index(now) + 1) % len(ids)] if now in ids else ids[0]
        self.enter(f"{nxt}:")

    def action_complete(self) -> None:
        line = self.query_one("#line", Input)
        if self._cycle is not None and line.value == self._cycle[0]:  # Tab again: the next candidate
            _, head, words, i = self._cycle
            i = (i + 1) % len(words)
        else:
            head, words = self.rec.table.complete(line.value)
            if not words:
                return
            i = 0
        value = head + words[i] + " "
        self._cycle = (value, head, words, i)
        line.value = value
        line.cursor_position = len(value)

    def action_slip(self) -> None:
        self.push_screen(SlipScreen(self.rec, self.lang))


class SlipScreen(ModalScreen[None]):
    """The match slip: head, result, audit and the QR code of the head; saves SVG and text."""

    BINDINGS = [Binding("escape", "dismiss", "back"), Binding("s", "save", "save")]

    def __init__(self, rec: Recording, lang: str) -> None:
        super().__init__()
        self.rec, self.lang = rec, lang
        self.slip = rec.slip()

    def compose(self) -> ComposeResult:
        with Horizontal(id="slip"):
            yield Static(self.text(), id="slip-text")
            yield Static(self.qr(), id="slip-qr")

    def text(self) -> Text:
        t = Text()
        for label, value in self.slip.lines(self.lang):
            t.append(f"{label}\n", style="bold")
            t.append(f"  {visible(value, lines=False)}\n")
        for part in self.slip.grouped_head():
            t.append(f"{part}\n", style="bold")
        t.append("\n" + word("record_slip_keys", self.lang), style="dim")
        return t

    def qr(self) -> Text:
        from .slip import qr_styled

        return qr_styled(self.slip.head.hash)

    def action_save(self) -> None:
        svg, txt = save_slip(self.rec, self.lang)
        self.query_one("#slip-text", Static).update(
            self.text() + Text("\n" + word("record_slip_saved", self.lang, svg=svg.name, txt=txt.name))
        )


def save_slip(rec: Recording, lang: str) -> tuple[Path, Path]:
    """Write LOG.slip.svg and LOG.slip.txt beside the log."""
    from kifu.events import atomic

    from .slip import as_svg, as_text

    slip = rec.slip()
    svg, txt = rec.path.with_suffix(".slip.svg"), rec.path.with_suffix(".slip.txt")
    atomic.write_bytes(svg, as_svg(slip, lang).encode("utf-8"))
    atomic.write_bytes(txt, as_text(slip, lang).encode("utf-8"))
    return svg, txt


KEYS = (
    ("tab", "complete", "record_key_complete"),
    ("ctrl+z", "undo", "record_key_undo"),
    ("f2", "speaker", "record_key_speaker"),
    ("ctrl+s", "slip", "record_key_slip"),
    ("ctrl+q", "quit", "record_key_quit"),
)
"""The app's keys (before the input line's own: Tab completes instead of moving the focus)."""


def make_app(rec: Recording, lang: str) -> RecordApp:
    """The app for one log, its keys labelled in ``lang`` (Textual reads bindings from the class)."""
    bindings = [Binding(key, action, word(label, lang), priority=True) for key, action, label in KEYS]
    bindings += [Binding("up", "back(-1)", show=False), Binding("down", "back(1)", show=False)]
    return type("RecordApp", (RecordApp,), {"BINDINGS": bindings})(rec, lang)


def run(rec: Recording, lang: str) -> None:
    make_app(rec, lang).run()
