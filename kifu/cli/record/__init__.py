"""Recording at the table: ``kifu record`` (the terminal app, or line by line from a pipe) and ``kifu slip``.

The app (``tui.py``) and QR codes (``slip.py``, segno) are imported only by these
commands: every other command starts without Textual.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from kifu.events import i18n
from kifu.events.display import json_safe, visible

from ..common import (
    echo,
    Lang,
    LangOpt,
    LogArg,
    NewGameOpt,
    RuleOpt,
    fail,
    lang_of,
    msg,
    pairs,
    players,
)

app = typer.Typer()
PANEL = "Recording at the table"


class LineFormat(str, Enum):
    text = "text"
    json = "json"
    jsonl = "jsonl"


class SlipFormat(str, Enum):
    text = "text"
    svg = "svg"


@app.command(rich_help_panel=PANEL)
def record(
    log: LogArg,
    game: NewGameOpt = None,
    match: Annotated[str | None, typer.Option("--match", "-m", help="Match id (a new log).")] = None,
    player: Annotated[
        list[str] | None, typer.Option("--player", "-p", help="Player as id=Name; repeat (a new log).")
    ] = None,
    rule: RuleOpt = None,
    title: Annotated[str | None, typer.Option(help="Tournament, round or table (a new log).")] = None,
    time: Annotated[
        bool, typer.Option("--time/--no-time", help="Stamp each event with the time it was entered.")
    ] = True,
    slip: Annotated[
        Path | None,
        typer.Option(
            "--slip",
            help="At the end, write the match slip here (.svg: SVG, else text with the QR code in block characters).",
        ),
    ] = None,
    fmt: Annotated[
        LineFormat,
        typer.Option(
            "--format",
            "-f",
            help="Without a terminal: text; jsonl: one object a line per appended event, finding and refusal as "
            "they come, then the slip; json: the same objects as one document at the end ({records, slip}).",
        ),
    ] = LineFormat.text,
    lang: LangOpt = None,
) -> None:
    """Record a match at the table: type lines in the chat notation, the audit answers at once.

    A new log takes -g, -m and -p as `kifu new`; an existing log is continued. Each
    line (docs/notation.md: `!act a1 計略`, `b: !toss a1 相手`, `!undo`) is appended
    durably under the log's lock, and each event is audited as it is written: a
    finding shows at once, with its code. Mistakes are voided (`!undo`, Ctrl+Z), never
    edited. In a terminal it is a full-screen app (80×24 is enough); from a pipe it
    reads one line at a time and prints the appended seqs and findings (refused lines
    on stderr). At the end it prints the match slip: head, result and a QR code.
    Exit 2 if a line was refused, else 1 if the audit found errors, else 0.

    \b
    Examples:
      kifu record m1.jsonl -g gunandgun -m R1-T3 -p a=ミナト -p b=ユキ
      kifu record m1.jsonl --lang ja
      printf '!act a1 計略\\n!cost a1 手札 1\\n' | kifu record m1.jsonl
    """
    from kifu.app.recording import local_now

    code = lang_of(lang).value
    clock = local_now if time else (lambda: None)
    rec = _open(log, game, match, player, rule, title, clock, lang)
    if sys.stdin.isatty() and sys.stdout.isatty():
        from .tui import run  # Textual: only here

        writer = run(rec, code)
        if writer is not None:
            _finish(writer, lang)
        _print_slip(rec, code)
        _write_slip(rec, slip, code, lang)
        raise typer.Exit(1 if _errors(rec) else 0)
    kept: list[Any] = []  # -f json: every record, printed as one document at the end
    refused = _lines(rec, sys.stdin, fmt, code, lang, kept)
    if fmt is not LineFormat.text:
        s = rec.slip()
        slip_ = {
            "head": s.head.hash,
            "seq": s.head.seq,
            "result": s.result(code),
            "counts": _counts(s.findings),
            "voided": s.voided,
        }
        if fmt is LineFormat.jsonl:
            _json({"slip": slip_}, fmt, kept)
        else:
            echo(json_safe(json.dumps({"records": kept, "slip": slip_}, ensure_ascii=False, indent=2)), data=True)
    else:
        echo(_slip_text(rec, code), nl=False)
    _write_slip(rec, slip, code, lang)
    raise typer.Exit(2 if refused else 1 if _errors(rec) else 0)


def _open(
    log: Path,
    game: str | None,
    match: str | None,
    player: list[str] | None,
    rule: list[str] | None,
    title: str | None,
    clock: Any,
    lang: Lang | None,
) -> Any:
    """The recording of an existing log, or of a new one made from the options."""
    from kifu.app.recording import Recording

    if log.exists():
        rec = Recording(log, clock)
        if (game and game != rec.start.game) or (match and match != rec.start.match):
            fail(msg("record_other_log", lang, path=log, game=rec.start.game, match=rec.start.match))
        return rec
    if not (game and match and player):
        fail(msg("record_needs_start", lang, path=log))
    start: dict[str, Any] = {
        "game": game,
        "match": match,
        "rules": pairs(rule or [], lang),
        "players": [{"id": pid, "name": name} for pid, name in players(player, lang)],
    }
    if title:
        start["title"] = title
    return Recording.create(log, start, clock)


def _finish(writer: Any, lang: Lang | None) -> None:
    """After the app: write the lines still queued (each was entered: none is dropped), then say
    what faults of kifu's own the writer met, if any."""
    if writer.unwritten:
        echo(msg("record_writing_queued", lang, n=writer.unwritten), err=True)
    writer.close()
    for fault in writer.faults:
        echo(fault, err=True)


def _lines(rec: Any, stream: TextIO, fmt: LineFormat, code: str, lang: Lang | None, kept: list[Any]) -> int:
    """Record each line of ``stream``; print what was appended and found. Returns the lines refused."""
    refused = 0
    for n, raw in enumerate(stream, 1):
        text = raw.rstrip("\r\n")
        if not text.strip():
            continue
        done = rec.enter(text)
        if done.error is not None:
            refused += 1
            if fmt is not LineFormat.text:
                _json({"line": n, "error": i18n.render(done.error, code)}, fmt, kept)
            else:
                echo(
                    visible(f"kifu: {msg('record_line_error', lang, line=n, error=done.error)}", lines=False), err=True
                )
            continue
        for event in done.events:
            _print_event(n, event, fmt, kept)
        for change, found in (("added", done.added), ("removed", done.removed)):
            for f in found:
                _print_finding(n, change, f, fmt, code, kept)
    return refused


def _print_event(n: int, event: Any, fmt: LineFormat, kept: list[Any]) -> None:
    import msgspec

    from kifu.auditor.report import event_detail
    from kifu.events.base import event_type

    if fmt is not LineFormat.text:
        _json({"line": n, "seq": event.seq, "event": msgspec.to_builtins(event)}, fmt, kept)
    else:
        echo(visible(f"seq {event.seq} {event.by or '-'} {event_type(type(event))} {event_detail(event)}", lines=False))


def _print_finding(n: int, change: str, f: Any, fmt: LineFormat, code: str, kept: list[Any]) -> None:
    if fmt is not LineFormat.text:
        _json(
            {
                "line": n,
                change: {
                    "code": f.code,
                    "severity": f.severity,
                    "seq": f.seq,
                    "seqs": f.seqs,
                    "message": f.message.get(code),
                },
            },
            fmt,
            kept,
        )
    else:
        mark = "+" if change == "added" else "-"
        echo(visible(f"  {mark} {f.code} [{f.severity}] seq {f.seq}: {f.message.get(code)}", lines=False))


def _json(obj: Any, fmt: LineFormat, kept: list[Any]) -> None:
    """One record: a line of JSON Lines now (jsonl), or kept for the one document printed at the end (json)."""
    if fmt is LineFormat.jsonl:
        echo(json_safe(json.dumps(obj, ensure_ascii=False)), data=True)
    else:
        kept.append(obj)


def _counts(findings: Any) -> dict[str, int]:
    from kifu.auditor.report import counts

    return counts(findings)


def _errors(rec: Any) -> bool:
    return any(f.severity == "error" for f in rec.slip().findings)


def _slip_text(rec: Any, code: str) -> str:
    from .slip import as_text

    return as_text(rec.slip(), code, qr=False)


def _print_slip(rec: Any, code: str) -> None:
    """The slip on the terminal after the app: its rows, then the QR code in its own colours (any theme)."""
    from .slip import print_on_terminal

    print_on_terminal(rec.slip(), code)


def _write_slip(rec: Any, path: Path | None, code: str, lang: Lang | None) -> None:
    if path is None:
        return
    from .slip import as_svg, as_text

    s = rec.slip()
    from kifu.events import atomic

    atomic.write_bytes(path, (as_svg(s, code) if path.suffix.lower() == ".svg" else as_text(s, code)).encode("utf-8"))
    echo(msg("record_slip_wrote", lang, path=path), err=True)


@app.command("slip", rich_help_panel=PANEL)
def slip_(
    log: LogArg,
    fmt: Annotated[
        SlipFormat, typer.Option("--format", "-f", help="text (the QR code in block characters) or svg.")
    ] = SlipFormat.text,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the slip to this file.")] = None,
    lang: LangOpt = None,
) -> None:
    """Print the match slip of a log: its head, result, audit and a QR code of the head.

    Write the head on the score sheet, or print the slip; later,
    `kifu verify LOG --expect-head HEX` shows whether the log is still the one signed.

    Example: kifu slip m1.jsonl -f svg -o m1.slip.svg --lang ja
    """
    from kifu.auditor import registry
    from kifu.events import logfile
    from kifu.projector.base import frames, voided_in

    from kifu.app.recording import build

    from .slip import as_svg, as_text

    code = lang_of(lang).value
    lg = logfile.load(log)
    g = registry.game(lg.start.game)
    last = None
    for last in frames(g.projection, lg.events, registry.options(g, lg.start)):  # noqa: B007
        pass  # the loop keeps the last frame
    assert last is not None
    s = build(
        lg.start,
        lg.head,
        registry.audit(lg.events),
        lg.events,
        last.log.ended,
        len(voided_in(lg.events)),
        Path(log).name,
    )
    if output is None and fmt is SlipFormat.text and sys.stdout.isatty():
        from .slip import print_on_terminal

        print_on_terminal(s, code)  # the QR code in its own colours: it scans on a dark terminal too
        return
    text = as_svg(s, code) if fmt is SlipFormat.svg else as_text(s, code)
    if output is None:
        echo(text, nl=False)
    else:
        from kifu.events import atomic

        atomic.write_bytes(output, text.encode("utf-8"))
        echo(msg("record_slip_wrote", lang, path=output), err=True)
