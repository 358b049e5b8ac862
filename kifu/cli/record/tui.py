"""``kifu record``'s terminal app (Textual): the input line, each line's state, the recent events and the audit.

Laid out for an 80×24 terminal over SSH: a header with the match, the seq and the head;
the game's key figures beside the recent timeline; the live findings; the state of the
latest lines entered (queued, appended as seq N, refused with the reason); a preview of the
line being typed; the input line; the keys.

The screen never touches the log. Every key is handled by the input line itself, in the
order it was typed (Enter included: Textual would otherwise run Enter's binding a few hops
later, after keys typed behind it), and a whole line is handed to the ``LineWriter``
(kifu/app/recording.py), the one thread that owns the ``Recording``: it appends the lines
in the order they were entered and reports back what became of each. So typing never waits
for the disk or the audit, and a line can be neither lost, doubled nor merged with the next.
Only ``kifu record`` imports this module: no other command pays for Textual.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import msgspec
from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from kifu.app.recording import (
    MAX_PASTE,
    Line,
    LineState,
    LineWriter,
    Preview,
    Recording,
    Report,
    Slip,
    View,
    check_paste,
    split_paste,
)
from kifu.events import i18n
from kifu.events.display import visible

# The notation (and the importers it reads with) is imported when first used, as the Recording
# does: the app puts the match on screen before it needs it.

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
STATE_STYLE = {
    LineState.QUEUED: "yellow",
    LineState.APPENDED: "green",
    LineState.KEPT: "green",
    LineState.REFUSED: "bold red",
}
TIMELINE = 40
"""Events the writer hands over for the timeline panel (it shows as many as fit)."""
KEPT_LINES = MAX_PASTE + 2_000
"""Lines whose state the app remembers (the panel shows the latest few; a paste's row counts all of it)."""

CSS = """
Screen { layout: vertical; }
#header { height: 1; background: $primary; color: $text; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
#main { height: 1fr; min-height: 5; }
#board { width: 33; height: 100%; border: round $secondary; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
#timeline { width: 1fr; height: 100%; border: round $secondary; padding: 0 1; }
#findings { height: 5; border: round $warning; padding: 0 1; }
#lines { height: 3; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
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


def _folded(line: str, width: int, indent: int) -> list[str]:
    """``line`` cut into rows of ``width`` cells, the rows after the first indented: nothing is cut off."""
    rows: list[str] = []
    row, used = "", 0
    for ch in line:
        w = cell_len(ch)
        if used + w > width and row.strip():
            rows.append(row)
            row, used = " " * indent, indent
        row += ch
        used += w
    return rows + [row]


def _is_text(ch: str) -> bool:
    """A character the input takes: what Textual calls printable, and the spaces it does not
    (U+3000, the full-width space an IME types, is a separator to ``str.isprintable``)."""
    return ch.isprintable() or unicodedata.category(ch) == "Zs"


def _is_burst(key: events.Key) -> bool:
    """A key that types a character or ends a line: what a burst of input is made of."""
    return (key.character is not None and _is_text(key.character)) or key.key in ENTER


class Reported(Message):
    """Something the writer reports (a line's state, the view, a preview, the slip)."""

    def __init__(self, item: Report) -> None:
        super().__init__()
        self.item = item


class WriterReady(Message):
    """The writer runs: the keys the input held until then are handled now, in order."""


class QuitAfterKeys(Message):
    """Ctrl+Q, delivered behind every key typed before it (so a line entered just before is kept)."""


class LineInput(Input):
    """The input line. It handles every key itself, in the order typed: characters (spaces of every
    width), Enter, Tab, Ctrl+Z, F2, Ctrl+S, ↑/↓ and pastes; whole lines go to the app."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.overflow = 0
        """Characters typed past MAX_LINE on this line: the line will be refused."""
        self.pending: list[str] | None = None
        """Lines pasted, waiting for Enter (record them) or Esc (discard)."""
        self._kept = ""
        """What the input held when the paste came (back on Esc)."""
        self._held: list[events.Key | events.Paste] | None = []
        """Keys and pastes that came before the writer ran, in order (None once it runs)."""

    @property
    def rec_app(self) -> RecordApp:
        return cast(RecordApp, self.app)

    async def _on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if self._held is not None:  # before the writer runs (the first frame): kept, in order
            self._held.append(event)
            return
        await self._key(event)

    async def _key(self, event: events.Key, queued: bool = True) -> None:
        """One key; with ``queued``, the characters and Enters waiting behind it in the queue too."""
        key = event.key
        if self.pending is not None:
            self._answer_paste(key)
        elif _is_burst(event):
            self._burst([event, *(self._waiting_keys() if queued else [])])
        elif key in ACTIONS:
            getattr(self.rec_app, f"key_{ACTIONS[key]}")(self)
        else:  # editing keys (←, Backspace, Home …): the input's own bindings, run here, in order
            await self.rec_app.check_bindings(key)

    def _waiting_keys(self) -> list[events.Key]:
        """The characters and Enters already waiting behind this key in the input's queue, taken now:
        a burst (an IME commit, a script, a paste the terminal did not mark) is handled as a whole,
        so a long line costs its length once and a thousand lines are a thousand submits, not a
        thousand edits of the input."""
        out: list[events.Key] = []
        while True:
            nxt = self._peek_message()
            if not isinstance(nxt, events.Key) or not _is_burst(nxt):
                return out
            out.append(nxt)
            # Taken: consumed here, as the message loop would (Textual keeps a peeked message there).
            self._pending_message = None
            self._message_queue.task_done()

    def _burst(self, keys: list[events.Key]) -> None:
        """Characters typed at the cursor, each Enter handing over the line it ends, in order."""
        chars: list[str] = []
        for k in keys:
            if k.key in ENTER:
                self._submit("".join(chars))
                chars = []
            else:
                chars.append(k.character or "")
        if chars:
            self._type("".join(chars))

    def _type(self, text: str) -> None:
        from kifu.events.notation import MAX_LINE

        room = MAX_LINE - len(self.value) - self.overflow
        if len(text) > room:
            self.overflow += len(text) - max(room, 0)
            text = text[: max(room, 0)]
            self.rec_app.show_too_long(len(self.value) + len(text) + self.overflow)
        if text:
            self.insert_text_at_cursor(text)

    def _submit(self, typed: str = "") -> None:
        """Enter: the line, with ``typed`` (characters of the burst not yet in the input) at the cursor."""
        from kifu.events.notation import MAX_LINE

        at = self.cursor_position
        text = self.value[:at] + typed + self.value[at:]
        over = self.overflow + max(0, len(text) - MAX_LINE)
        if self.value:  # (unchanged values cost nothing: in a burst the input stays empty)
            self.value = ""
        self.overflow = 0
        self.rec_app.entered(text[:MAX_LINE], over)

    def _on_paste(self, event: events.Paste) -> None:
        event.stop()
        event.prevent_default()  # Input's own handler would insert the first line
        if self._held is not None:
            self._held.append(event)
            return
        self._paste(event)

    def _paste(self, event: events.Paste) -> None:
        if self.pending is not None or not event.text:
            return
        if "\n" not in event.text and "\r" not in event.text:
            self._type(event.text)
            return
        at = self.cursor_position
        whole = self.value[:at] + event.text + self.value[at:]
        lines = split_paste(whole)
        if self.rec_app.ask_paste(lines):
            self.pending, self._kept = lines, self.value
            self.value = ""

    def _answer_paste(self, key: str) -> None:
        lines, self.pending = self.pending, None
        assert lines is not None
        if key in ENTER:
            self.rec_app.confirm_paste(lines)
        elif key == "escape":
            self.value = self._kept
            self.rec_app.discard_paste(len(lines))
        else:  # any other key: the paste still waits
            self.pending = lines

    async def on_writer_ready(self, _: WriterReady) -> None:
        held, self._held = self._held or [], None
        for event in held:  # in order, one at a time (the queue behind them is newer)
            if isinstance(event, events.Key):
                await self._key(event, queued=False)
            else:
                self._paste(event)

    def on_quit_after_keys(self, _: QuitAfterKeys) -> None:
        self.app.exit()


ENTER = ("enter", "ctrl+j")
"""Enter, and the line feed a script or a paste the terminal did not mark may send."""
ACTIONS = {
    "tab": "complete",
    "ctrl+z": "undo",
    "f2": "speaker",
    "ctrl+s": "slip",
    "up": "back",
    "down": "forward",
}
"""Keys the input line handles beside characters and Enter (Textual's app bindings would run out of order)."""


class RecordApp(App[None]):
    """The recording screen of one log."""

    CSS = CSS
    TITLE = "kifu record"
    ENABLE_COMMAND_PALETTE = False
    input_class: type[LineInput] = LineInput
    """The input line's class (``make_app`` gives it the footer's words in the reader's language)."""

    def __init__(self, recording: Recording, lang: str = "en") -> None:
        super().__init__()
        self.rec = recording
        """The recording; the screen reads only its start, path and opening head (the writer owns it)."""
        self.lang = lang
        self.writer: LineWriter | None = None
        self.view: View | None = None
        """The log as the writer last showed it (None until it has read the log)."""
        self.lines: dict[int, Line] = {}
        """The latest lines entered, by id, in the order entered, with their states."""
        self.pastes: list[tuple[int, int]] = []
        """(first id, last id) of each paste confirmed: the panel shows a paste as one row."""
        self.note: Text | None = None
        """A remark shown in place of the preview until the next keystroke (a refusal, a discarded paste)."""
        self._cycle: tuple[str, str, list[str], int] | None = None
        """After Tab: (the value it left, the text before the word, the candidates, which one)."""
        self.history: list[str] = []
        """Every line entered, refused ones included (↑ recalls them); secrets left out."""
        self._back = 0
        self._quitting = False
        self._redraw_pending = False

    # --- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Horizontal(id="main"):
            yield Static(id="board")
            yield Static(id="timeline")
        yield Static(id="findings")
        yield Static(id="lines")
        yield Static(id="preview")
        yield self.input_class(placeholder=word("record_placeholder", self.lang), id="line", max_length=0)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#board").border_title = word("record_state", self.lang)
        self.query_one("#timeline").border_title = word("record_timeline", self.lang)
        self.input.focus()
        self.query_one("#header", Static).update(self.header_text())
        self.input.border_title = self.speaker_label(self.rec.start.players[0].id if self.rec.start.players else None)
        # The writer starts after the first frame (the match and its head on screen first): it folds
        # and audits the log so far and loads the notation while the recorder starts typing. Keys
        # typed before it exists wait in the input's queue (handled in order once it runs).
        self.call_after_refresh(self._start_writer)

    def _reported(self, item: Report) -> None:
        """What the writer reports, posted to the app (from the writer's thread)."""
        self.post_message(Reported(item))

    def _start_writer(self) -> None:
        self.writer = LineWriter(self.rec, self._reported, self.lang)
        self.input.post_message(WriterReady())

    @property
    def input(self) -> LineInput:
        return self.query_one("#line", LineInput)

    def on_reported(self, message: Reported) -> None:
        item = message.item
        if isinstance(item, Line):
            self.settled(item)
        elif isinstance(item, View):
            self.view = item
            self.refresh_view()
        elif isinstance(item, Preview):
            if item.text == self.input.value and self.input.pending is None:
                self.show_preview(item)
        elif isinstance(item, Slip):
            self.push_screen(SlipScreen(self.rec, item, self.lang))

    def refresh_view(self) -> None:
        self.query_one("#header", Static).update(self.header_text())
        self.query_one("#board", Static).update(self.board_text())
        self.query_one("#timeline", Static).update(self.timeline_text())
        self.show_findings()
        if self.view is not None:
            self.input.border_title = self.speaker_label(self.view.speaker)
        self.ask_preview()

    def header_text(self) -> Text:
        # The head first: a long match id is what gets cut at 80 columns, never the head.
        start = self.rec.start
        head = self.view.head if self.view else self.rec.head
        t = Text()
        t.append(f"kifu {word('record_title', self.lang)}  ", style="bold")
        t.append(f"seq {head.seq}  ", style="bold")
        t.append("head ")
        t.append(head.hash[:20], style="bold")
        t.append(visible(f"  {start.game}  {start.match}", lines=False))
        return t

    def speaker_label(self, who: str | None) -> str:
        names = {p.id: p.name for p in self.rec.start.players}
        return visible(f"{who or ''} {names.get(who or '', '')}".strip(), lines=False) + " ›"

    def board_text(self) -> Text:
        t = Text(no_wrap=True, overflow="ellipsis")
        if self.view is None:
            return t
        names = {p.id: p.name for p in self.rec.start.players}
        width = max(10, self.query_one("#board").content_size.width or 29)
        for pid, figures in self.view.board:
            if pid is not None:
                t.append(visible(f"{pid} {names.get(pid, '')}", lines=False) + "\n", style="bold")
            for line in _packed([f"{i18n.text('board.' + f.key, self.lang)} {f.value}" for f in figures], width - 2):
                t.append(f"  {line}\n")
        return t

    def timeline_text(self) -> Text:
        """The latest events, newest first, each folded to the panel's width (a toss's facing is never
        cut off); while a paste waits for Enter, its lines instead."""
        from kifu.auditor.report import void_note

        size = self.query_one("#timeline").content_size
        width, height = max(20, size.width or 40), max(1, size.height or 7)
        t = Text(no_wrap=True, overflow="crop")
        if self.input.pending is not None:
            return self.pending_text(self.input.pending, width, height)
        if self.view is None:
            return t
        v = self.view
        flagged = {s for f in v.findings for s in f.seqs}
        rows: list[tuple[str, str]] = []
        for e in reversed(v.events):
            mark = "▲" if e.seq in flagged else " "
            if e.seq in v.hidden:
                line = visible(f"{e.seq:>4}{mark}{e.by or '-'} {word('record_secret', self.lang)}", lines=False)
            else:
                line = visible(f"{e.seq:>4}{mark}{e.by or '-'} {_shown(e)}", lines=False)
            style = "strike dim" if e.seq in v.voided else "red" if e.seq in flagged else ""
            more = [(row, style) for row in _folded(line, width, 7)]
            if e.seq in v.voided and v.voided[e.seq] in v.voids:
                note = f"      {visible(void_note(v.voids[v.voided[e.seq]], self.lang), lines=False)}"
                more += [(row, "dim italic") for row in _folded(note, width, 7)]
            if rows and len(rows) + len(more) > height:
                break  # an event is shown whole or not at all
            rows += more
        for row, style in rows[:height]:
            t.append(row + "\n", style=style)
        return t

    def pending_text(self, lines: Sequence[str], width: int, height: int) -> Text:
        t = Text(no_wrap=True, overflow="ellipsis")
        shown = lines if len(lines) <= height else [*lines[: height - 2], "…", lines[-1]]
        for i, line in enumerate(shown):
            n = len(lines) if i == len(shown) - 1 else i + 1
            t.append(
                f"{'' if line == '…' else n:>4} {visible(line, lines=False)}\n", style="dim" if line == "…" else ""
            )
        return t

    def show_findings(self) -> None:
        if self.view is None:
            return
        found = sorted(self.view.findings, key=lambda f: (-f.seq, f.code))
        panel = self.query_one("#findings", Static)
        c = {s: sum(f.severity == s for f in found) for s in ("error", "warning", "info")}
        panel.border_title = f"{word('record_audit', self.lang)}: E {c['error']}  W {c['warning']}  I {c['info']}"
        fresh = self.fresh_findings()
        t = Text(overflow="ellipsis")
        if not found:
            t.append(word("record_audit_clean", self.lang), style="green")
        # A finding just made is shown whole (the table reads it now); the others one line each.
        width = max(10, panel.content_size.width or 76)
        for f in found:
            line = Text()
            new = (f.code, f.seq) in fresh
            line.append(
                f"seq {f.seq} {f.code} ", style=SEVERITY_STYLE.get(f.severity, "") + (" reverse" if new else "")
            )
            line.append(visible(f.message.get(self.lang), lines=False))
            if not new:
                line.truncate(width, overflow="ellipsis")
            t.append_text(line)
            t.append("\n")
        panel.update(t)

    def fresh_findings(self) -> set[tuple[str, int]]:
        """Findings the latest line written brought."""
        for line in reversed(self.lines.values()):
            if line.entered is not None:
                return {(f.code, f.seq) for f in line.entered.added}
        return set()

    # --- each line's state --------------------------------------------------------------------

    def settled(self, line: Line) -> None:
        """The writer says what became of a line (or the screen refused it itself)."""
        self.lines[line.id] = line
        while len(self.lines) > KEPT_LINES:
            self.lines.pop(next(iter(self.lines)))
        if line.secret and line.text in self.history:  # a secret is not recalled by ↑ either
            self.history.remove(line.text)
            self._back = len(self.history)
        if line.state is not LineState.QUEUED and line.paste is None:
            self.note = self.state_note(line)
        self.redraw_soon()

    def redraw_soon(self) -> None:
        """Draw the lines' states once the messages waiting now are handled: a burst of a thousand
        lines is drawn a few times, not a thousand."""
        if not self._redraw_pending:
            self._redraw_pending = True
            self.call_later(self._redraw)

    def _redraw(self) -> None:
        self._redraw_pending = False
        self.show_lines()
        if not self.input.value and not self.input.overflow:
            self.show_preview(None)

    def show_lines(self) -> None:
        rows: list[Text] = []
        pastes: dict[int, list[Line]] = {}
        for line in self.lines.values():
            if line.paste is not None:
                pastes.setdefault(line.id - line.paste[0], []).append(line)
        for line in reversed(self.lines.values()):
            if len(rows) == 3:
                break
            if line.paste is None:
                rows.append(self.line_row(line))
            elif line.paste[0] == line.paste[1] or line is pastes[line.id - line.paste[0]][-1]:
                rows.append(self.paste_row(pastes[line.id - line.paste[0]], line.paste[1]))
        t = Text(no_wrap=True, overflow="ellipsis")
        for row in reversed(rows):
            t.append_text(row)
            t.append("\n")
        self.query_one("#lines", Static).update(t)

    def line_row(self, line: Line) -> Text:
        t = Text(no_wrap=True, overflow="ellipsis")
        state = self.state_word(line)
        t.append(state + " " * max(1, 16 - cell_len(state)), style=STATE_STYLE[line.state])  # by cells: 追記 is 4
        t.append(word("record_secret", self.lang) if line.secret else line.text)
        if line.state is LineState.REFUSED and line.reason:
            t.append(f"  {line.reason}", style="red")
        return t

    def paste_row(self, group: list[Line], n: int) -> Text:
        count = {s: sum(x.state is s for x in group) for s in LineState}
        t = Text(no_wrap=True, overflow="ellipsis")
        if count[LineState.REFUSED]:
            reason = next(x.reason for x in group if x.state is LineState.REFUSED)
            t.append(word("record_paste_refused_row", self.lang, n=n, reason=reason or ""), style="bold red")
            return t
        seqs = [s for x in group for s in x.seqs]
        span = f"{seqs[0]}–{seqs[-1]}" if seqs else "-"
        state = LineState.QUEUED if count[LineState.QUEUED] else LineState.APPENDED
        t.append(
            word("record_paste_row", self.lang, n=n, done=n - count[LineState.QUEUED], seqs=span),
            style=STATE_STYLE[state],
        )
        return t

    def state_word(self, line: Line) -> str:
        if line.state is LineState.APPENDED:
            return word("record_line_appended", self.lang, seqs=",".join(map(str, line.seqs)))
        return word(f"record_line_{line.state.value}", self.lang)

    def state_note(self, line: Line) -> Text:
        """What the preview row says about a line just written: its seqs, findings, a hint or why it was refused."""
        t = Text()
        done = line.entered
        if line.state is LineState.REFUSED:
            t.append(word("record_refused", self.lang, error=line.reason or ""), style="bold red")
            if not line.secret:
                t.append("\n" + word("record_recall", self.lang, line=line.text), style="dim")
            return t
        if line.seqs:
            t.append(word("record_appended", self.lang, seqs=", ".join(map(str, line.seqs))) + "  ")
        if done is None:
            return t
        if done.added:
            t.append(word("record_found", self.lang, n=len(done.added)) + "  ", style="bold red")
        if done.removed:
            t.append(word("record_gone", self.lang, n=len(done.removed)) + " ", style="bold green")
            t.append(", ".join(f.code for f in done.removed), style="green")
        if done.reading.hint:
            t.append(f"  ({i18n.render(done.reading.hint, self.lang)})", style="yellow")
        if done.synced:
            t.append("  " + word("record_synced", self.lang, n=done.synced), style="yellow")
        return t

    # --- the line being typed -----------------------------------------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        if self._cycle is None or event.value != self._cycle[0]:
            self._cycle = None
        if event.value:
            self.note = None
        self.ask_preview()

    def ask_preview(self) -> None:
        """Ask the writer what the line would append; until it answers (after the lines queued
        before it), the row says how many lines wait."""
        value = self.input.value
        if self.input.overflow:
            return
        if not value.strip():
            self.show_preview(None)
            return
        if self.writer is not None:
            self.writer.preview(value)
            if self.writer.waiting:
                self.show_preview(None)

    def show_preview(self, preview: Preview | None) -> None:
        from kifu.events.notation import describe

        panel = self.query_one("#preview", Static)
        if preview is None:
            waiting = sum(line.state is LineState.QUEUED for line in self.lines.values())
            if self.input.pending is not None:
                panel.update(Text(word("record_paste_pending", self.lang, n=len(self.input.pending)), style="bold"))
            elif waiting:
                panel.update(Text(word("record_waiting", self.lang, n=waiting), style="yellow"))
            else:
                panel.update(self.note or Text())
            return
        reading = preview.reading
        t = Text()
        if reading.error:  # while typing: a warning; refused on Enter (then red)
            t.append(word("record_refused", self.lang, error=reading.error), style="yellow")
        elif reading.events:
            t.append(f"{word('record_will_append', self.lang)}: ", style="bold")
            t.append(
                "  ".join(
                    f"+{preview.next_seq + i} {e.get('by') or '-'} {describe(e)}" for i, e in enumerate(reading.events)
                )
            )
            if reading.hint:
                t.append(f"  ({i18n.render(reading.hint, self.lang)})", style="yellow")
        elif reading.speaker != preview.speaker:
            t.append(word("record_speaker_now", self.lang, who=reading.speaker))
        if preview.words:
            t.append("\n" + word("record_candidates", self.lang, words="  ".join(preview.words)), style="dim")
        panel.update(t)

    def show_too_long(self, n: int) -> None:
        from kifu.events.notation import MAX_LINE

        self.query_one("#preview", Static).update(
            Text(word("record_too_long", self.lang, n=n, max=MAX_LINE), style="bold red")
        )

    # --- what the input line hands over -----------------------------------------------------

    def entered(self, text: str, overflow: int = 0) -> None:
        """A whole line (Enter): queued for the writer, or refused here when it was too long."""
        if not text.strip() and not overflow:
            return
        self.history.append(text)
        self._back = len(self.history)
        if overflow:
            from kifu.events.notation import MAX_LINE

            n = len(text) + overflow
            self._local_refusal(text, word("record_too_long", self.lang, n=n, max=MAX_LINE))
            return
        assert self.writer is not None
        self.settled(self.writer.submit(text))

    def _local_refusal(self, text: str, reason: str) -> None:
        ids = [*self.lines] or [0]
        self.settled(Line(-max(ids) - 1, text, LineState.REFUSED, reason=reason))

    def ask_paste(self, lines: list[str]) -> bool:
        """A paste of several lines: True if it waits for Enter, else it was refused whole (shown)."""
        problem = check_paste(lines, self.lang)
        if problem is not None:
            self.note = Text(
                word("record_paste_refused_row", self.lang, n=len(lines), reason=problem), style="bold red"
            )
            self.show_preview(None)
            return False
        self.call_later(self._paste_shown, len(lines))
        return True

    def _paste_shown(self, n: int) -> None:
        self.query_one("#timeline", Static).update(self.timeline_text())
        self.query_one("#timeline").border_title = word("record_pasted", self.lang, n=n)
        self.show_preview(None)

    def confirm_paste(self, lines: list[str]) -> None:
        assert self.writer is not None
        queued = self.writer.paste(lines)
        for line in queued:
            self.lines[line.id] = line
        self.settled(queued[-1])
        self._paste_closed()

    def discard_paste(self, n: int) -> None:
        self.note = Text(word("record_paste_discarded", self.lang, n=n), style="yellow")
        self._paste_closed()

    def _paste_closed(self) -> None:
        self.query_one("#timeline").border_title = word("record_timeline", self.lang)
        self.query_one("#timeline", Static).update(self.timeline_text())
        self.show_preview(None)

    # --- keys (called by the input line, in the order typed) -------------------------------------

    def key_complete(self, line: Input) -> None:
        if self._cycle is not None and line.value == self._cycle[0]:  # Tab again: the next candidate
            _, head, words, i = self._cycle
            i = (i + 1) % len(words)
        else:
            if self.view is None:
                return  # the notation is not loaded yet
            head, words = self.rec.table.complete(line.value)  # read-only: safe beside the writer
            if not words:
                return
            i = 0
        value = head + words[i] + " "
        self._cycle = (value, head, words, i)
        line.value = value
        line.cursor_position = len(value)

    def key_undo(self, _: Input) -> None:
        self.entered("!undo")

    def key_speaker(self, _: Input) -> None:
        assert self.writer is not None
        self.settled(self.writer.submit_next_speaker())

    def key_slip(self, _: Input) -> None:
        assert self.writer is not None
        self.writer.slip()

    def key_back(self, line: Input) -> None:
        self._recall(line, -1)

    def key_forward(self, line: Input) -> None:
        self._recall(line, 1)

    def _recall(self, line: Input, step: int) -> None:
        """↑ / ↓: the lines entered before (a refused one to fix)."""
        if not self.history:
            return
        self._back = max(0, min(len(self.history), self._back + step))
        line.value = self.history[self._back] if self._back < len(self.history) else ""
        line.cursor_position = len(line.value)

    def action_quit_after_keys(self) -> None:
        """Ctrl+Q: quit once the keys typed before it are handled (a line entered just before is kept);
        Ctrl+Q again quits at once."""
        if self._quitting:
            self.exit()
            return
        self._quitting = True
        if self.screen is not self.input.screen:  # a slip on top: no key waits behind the input
            self.exit()
        else:
            self.input.post_message(QuitAfterKeys())

    async def check_bindings(self, key: str) -> None:
        await self._check_bindings(key)

    def action_key(self, name: str) -> None:
        """A key of the footer clicked, or pressed while the input line is not focused."""
        getattr(self, f"key_{name}")(self.input)


def _shown(e: Any) -> str:
    """An event on one timeline row: its type and fields, the acting player's own id left out (it is
    the row's ``by``), so a toss shows its facing at 80 columns."""
    from kifu.events.notation import describe

    fields = msgspec.to_builtins(e)
    if e.by is not None and fields.get("player") == e.by:
        del fields["player"]
    return describe(fields)


class SlipScreen(ModalScreen[None]):
    """The match slip: head, result, audit and the QR code of the head; saves SVG and text."""

    BINDINGS = [Binding("escape", "dismiss", "back"), Binding("s", "save", "save")]

    def __init__(self, rec: Recording, slip: Slip, lang: str) -> None:
        super().__init__()
        self.rec, self.slip, self.lang = rec, slip, lang

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
        svg, txt = save_slip(self.rec.path, self.slip, self.lang)
        self.query_one("#slip-text", Static).update(
            self.text() + Text("\n" + word("record_slip_saved", self.lang, svg=svg.name, txt=txt.name))
        )


def save_slip(path: Path, slip: Slip, lang: str) -> tuple[Path, Path]:
    """Write LOG.slip.svg and LOG.slip.txt beside the log."""
    from kifu.events import atomic

    from .slip import as_svg, as_text

    svg, txt = path.with_suffix(".slip.svg"), path.with_suffix(".slip.txt")
    atomic.write_bytes(svg, as_svg(slip, lang).encode("utf-8"))
    atomic.write_bytes(txt, as_text(slip, lang).encode("utf-8"))
    return svg, txt


KEYS = (
    ("tab", "complete", "record_key_complete"),
    ("ctrl+z", "undo", "record_key_undo"),
    ("f2", "speaker", "record_key_speaker"),
    ("ctrl+s", "slip", "record_key_slip"),
)
"""The keys the footer names (the input line handles them, in the order typed)."""


def make_app(rec: Recording, lang: str) -> RecordApp:
    """The app for one log, its keys labelled in ``lang`` (Textual reads bindings from the class).

    The bindings only name the keys in the footer (and run when it is clicked): the input line
    handles the keys themselves, in the order typed. They sit on the input line, the nearest to the
    focus, or the screen's own Tab (focus the next widget) would hide "Tab complete".
    """
    keys = [Binding(key, f"app.key('{action}')", word(label, lang)) for key, action, label in KEYS]
    line = type("LineInput", (LineInput,), {"BINDINGS": keys})
    quit_ = [Binding("ctrl+q", "quit_after_keys", word("record_key_quit", lang), priority=True)]
    return type("RecordApp", (RecordApp,), {"BINDINGS": quit_, "input_class": line})(rec, lang)


def run(rec: Recording, lang: str) -> LineWriter | None:
    """Run the app; returns its writer, still writing any line queued at the end (``close`` it).

    A guard process puts the terminal back if the app is killed (guard.py).
    """
    from . import guard

    app = make_app(rec, lang)
    keeper = guard.start(word("record_killed", lang, log=str(rec.path)))
    try:
        app.run()
    finally:
        if keeper is not None:
            keeper.release()
    return app.writer
