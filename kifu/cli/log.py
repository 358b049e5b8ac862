"""Commands on one match log: new, append, verify, repair, show, state, schema."""

from __future__ import annotations

import itertools
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any
from collections.abc import Iterable

import msgspec
import typer

from kifu.events.display import visible

from kifu.events import limits, logfile
from kifu.events.base import KifuError
from kifu.events.i18n import Msg

from .common import (
    echo,
    DataFormat,
    FormatOpt,
    GameOpt,
    Lang,
    LangOpt,
    LogArg,
    RuleOpt,
    fail,
    lang_of,
    msg,
    pairs,
    players,
    print_json,
    print_rows,
)
from . import checks
from .say import VerifyFormat
from .toss import RollOpt, StoreOpt, UntilOpt, append_toss

app = typer.Typer()
PANEL = "Match logs"


@app.command(rich_help_panel=PANEL)
def new(
    log: LogArg,
    game: GameOpt,
    match: Annotated[str, typer.Option("--match", "-m", help="Match id.")],
    player: Annotated[list[str], typer.Option("--player", "-p", help="Player as id=Name; repeat per player.")],
    key: Annotated[
        list[str] | None,
        typer.Option(
            "--key",
            "-k",
            help="A player's stable key across matches as id=KEY (a membership or tournament id, "
            "such as jcg:12345); repeat per player.",
        ),
    ] = None,
    rule: RuleOpt = None,
    title: Annotated[str | None, typer.Option(help="Tournament, round or table.")] = None,
    at: Annotated[str | None, typer.Option(help="RFC 3339 start time.")] = None,
    catalogue: Annotated[
        Path | None, typer.Option(help="A JSON file: the cards or triggers this table plays with.")
    ] = None,
    lang: LangOpt = None,
) -> None:
    """Create a new match log holding its match.start.

    --catalogue puts the table's own cards (in the game's catalogue shape,
    docs/games/) into match.start; it is checked like the built-in one.

    --key gives a player the stable key that makes the warehouse count their
    matches as one person's (docs/sql.md, "People").

    Example: kifu new m1.jsonl -g gunandgun -m R1-T3 -p a=Aoi -p b=Ren -k a=jcg:12345 -r cost_payment=hand
    """
    from kifu import app as use

    keys = dict(players(key or [], lang, names_required=True))
    seated = players(player, lang)
    head = use.new(
        log,
        game,
        match,
        seated,
        rules=pairs(rule or [], lang),
        keys=keys,
        title=title or None,
        at=at or None,
        catalogue=None if catalogue is None else _read_json(catalogue),
    )
    echo(msg("created", lang, path=log, head=head.hash))


@app.command(rich_help_panel=PANEL)
def append(
    log: LogArg,
    items: Annotated[
        list[str] | None, typer.Argument(help="The event as key=value pairs (values may be JSON).")
    ] = None,
    json_: Annotated[str | None, typer.Option("--json", help="The event as a JSON object; '-' reads stdin.")] = None,
    expect_seq: Annotated[
        int | None, typer.Option(help="Refuse unless this is the next seq (optimistic concurrency).")
    ] = None,
    toss: Annotated[
        str | None,
        typer.Option(
            "--toss",
            help="Instead of one event, a verifiable toss by this "
            "player: commit, the opponent's nonce, reveal and --roll's outcomes "
            "(docs/randomness.md).",
            show_default=False,
            rich_help_panel="Toss",
        ),
    ] = None,
    opponent: Annotated[
        list[str] | None,
        typer.Option(
            "--opponent",
            help="Who answers the toss's commitment; repeat for several (default: every other player).",
            show_default=False,
            rich_help_panel="Toss",
        ),
    ] = None,
    nonce: Annotated[
        list[str] | None,
        typer.Option(
            "--nonce",
            "-n",
            help="Each opponent's nonce, in seat order; without it kifu shows the commitment and asks "
            "(Enter draws one).",
            show_default=False,
            rich_help_panel="Toss",
        ),
    ] = None,
    roll: RollOpt = None,
    until: UntilOpt = None,
    purpose: Annotated[
        str | None,
        typer.Option(
            "--purpose",
            help="What the toss decides (first-player); the commitment is bound to it.",
            show_default=False,
            rich_help_panel="Toss",
        ),
    ] = None,
    store: StoreOpt = None,
    lang: LangOpt = None,
) -> None:
    """Append one event; seq and prev are filled in under the file lock. Or, with --toss, a verifiable toss.

    A toss shows its commitment (bound to this match, its --purpose and --roll),
    asks each opponent for a nonce, then appends the whole toss in one write:
    given up at the prompt (Ctrl-C, Ctrl-D), it leaves nothing in the log.

    \b
    Examples:
      kifu append m1.jsonl type=note by=a text="shuffled"
      kifu append m1.jsonl --json '{"type":"note","text":"hi"}' --expect-seq 7
      echo '{"type":"note","text":"hi"}' | kifu append m1.jsonl
      kifu append m1.jsonl --toss a --roll coin --purpose first-player
      kifu append m1.jsonl --toss a --opponent b --nonce neko1234 --roll coin --until 2
    """
    if toss is not None:
        if items or json_ is not None or expect_seq is not None:
            fail(msg("toss_alone", lang))
        append_toss(log, toss, opponent, nonce, roll, until, purpose, store, lang)
        return
    if json_ is not None:
        text = sys.stdin.read() if json_ == "-" else json_
    elif items:
        text = None
    elif not sys.stdin.isatty():
        text = sys.stdin.read()
    else:
        fail(msg("no_event", lang))
    if text is not None:
        if len(text) > limits.MAX_LINE:
            raise limits.too_long(where="--json")
        obj = limits.decode(text.strip(), where="--json")
        if not isinstance(obj, dict):
            fail("--json: the event must be a JSON object")
        obj.update(pairs(items or [], lang))
    else:
        obj = pairs(items or [], lang)
    from kifu import app as use

    try:
        event = use.append(log, obj, expect_seq=expect_seq)
    except use.UnknownActor as exc:  # the command's own line: where, and that nothing was appended
        fail(msg("append_unknown_by", lang, by=exc.by, path=log, known=", ".join(exc.known)))
    from kifu.events.codec import encode, line_hash

    echo(msg("appended", lang, seq=event.seq, head=line_hash(encode(event))))


def _read_json(path: Path) -> Any:
    """A JSON file given on the command line (a catalogue), held to the limits of docs/format.md."""
    try:
        size = path.stat().st_size
        if size > limits.MAX_LINE:  # it goes into one line of the log
            raise KifuError(
                Msg("limits.event_too_big", size=f"{size:,}", limit=f"{limits.MAX_LINE:,}"), where=str(path)
            )
        data = path.read_bytes()
    except OSError as exc:
        raise KifuError(Msg("io.cannot_read", reason=exc.strerror), where=str(path)) from None
    return limits.decode(data, where=str(path))


@app.command(rich_help_panel=PANEL)
def verify(
    logs: Annotated[list[Path], typer.Argument(help="Match logs to verify.", show_default=False)],
    expect_head: Annotated[str | None, typer.Option(help="Head hash from the match slip (≥ 12 hex digits).")] = None,
    fmt: Annotated[
        VerifyFormat,
        typer.Option(
            "--format",
            "-f",
            help="text; json: one list, an object per log (path, seq, head, ok, error, random, verifiable, voided, "
            "voids); jsonl: those objects, one a line as each log is verified.",
        ),
    ] = VerifyFormat.text,
    lang: LangOpt = None,
) -> None:
    """Verify each log's hash chain and schema, and print its head (last seq and hash).

    Any edited, inserted, deleted or reordered event is named by seq; with
    --expect-head a truncated log is detected too. Text stops at the first log
    that fails; -f json (one list) and -f jsonl (a line per log) verify every log and report each (a failed one with
    ok false and the error line, also on stderr). Exit 2 if any log failed.

    A log that records random outcomes also gets how many of them are
    verifiable: named by a commitment whose toss checks (docs/randomness.md).
    Outcomes a log.void took back are left out of that count and said apart,
    and each void is reported with the seqs it took back.

    \b
    Examples:
      kifu verify m1.jsonl --expect-head 3f9a0c…
      kifu verify matches/*.jsonl -f json
    """
    raise typer.Exit(checks.verify_logs(logs, expect_head, fmt, lang))


@app.command(rich_help_panel=PANEL)
def repair(log: LogArg, lang: LangOpt = None) -> None:
    """Mend a log whose last line has no line end, losing no byte.

    A last line that is a complete event (its line end was stripped by an editor
    or a copy) gets its line end back; nothing is cut. Any other last line is a
    write cut short by a crash: the whole file is first copied to LOG.torn-OFFSET
    (LOG.torn-OFFSET.2, .3 … if taken; a copy is never overwritten), then the
    line is cut. A complete line that fails to verify is evidence and is never
    removed. A file that is not JSON Lines (lone-CR line ends, say) is refused
    unchanged, and so is a symbolic link.

    Example: kifu repair m1.jsonl
    """
    from kifu import app as use

    result = use.repair(log)
    if result is None:
        echo(msg("nothing_to_repair", lang, path=log))
    elif result.copy is None:
        echo(msg("repaired_end", lang, path=log, kept=result.kept))
    else:
        echo(msg("repaired", lang, path=log, cut=result.cut, offset=result.offset, kept=result.kept, copy=result.copy))


@app.command(rich_help_panel=PANEL)
def show(
    log: LogArg,
    fmt: FormatOpt = DataFormat.table,
    since: Annotated[int, typer.Option(help="First seq to show.")] = 1,
    until: Annotated[int | None, typer.Option(help="Last seq to show.")] = None,
    lang: LangOpt = None,
) -> None:
    """Print the timeline of a log: seq, time, who, type and the event's fields.

    An event a log.void took back (a recording mistake) is struck through, and the
    `voided` column says which void, who and why.

    The `findings` column marks each event a finding of the audit rests on with
    its code (✗ error, ⚠ warning, ℹ info), and each event that is only a
    consequence of one with the code in parentheses (json: a list of
    {code, severity, consequence}).

    An imported event keeps where it came from: csv and json add `src_file`,
    `src_loc` and `edited` (json also `src_text`, the message as exported). An
    event made of a message the source marks as edited after it was sent is
    marked ✎ with its file:location in the table's and Markdown's `edited`
    column, which a log with such a message gets (docs/importers.md).

    Example: kifu show m1.jsonl --since 10 --until 40 -f md
    """
    from kifu import app as use
    from kifu.events.i18n import who
    from kifu.auditor.provenance import where
    from kifu.auditor.report import event_detail, label, void_note
    from kifu.events import i18n
    from kifu.events.base import event_type

    gone = use.voided(log)
    code = lang_of(lang).value
    person = fmt in (DataFormat.table, DataFormat.md)
    found = _finding_marks(use.audit(log).findings)
    # The column is there when the log holds an edited message at all: a byte scan, as for voids. A key
    # written other than canonically (a space, an escape) could hide it; only a hand-made line does that.
    marked = person and logfile.mentions(log, b'"edited"')
    # Streamed: rows are printed as the log is read. The whole log is still read, so a line
    # after --until that does not verify fails the command as it always did (exit 2).
    stream = logfile.stream(log)
    start = next(stream)
    names = {p.id: p.name for p in start.players} if person else {}
    shown = (e for e in itertools.chain((start,), stream) if e.seq >= since and (until is None or e.seq <= until))
    roles = {r: i18n.text(f"page.{r}", code) for r in ("judge", "system", "recorder")} if names else {}
    # For a person the match's day is said once, in the title; each event shows its time of day (an
    # 80-column table has no room for twenty-five characters of date a row).
    day = start.at[:10] if person and start.at and len(start.at) > 10 and start.at[10] in "Tt " else None
    seen_edit = False

    def row(e: Any) -> tuple[Any, ...]:
        nonlocal seen_edit
        base = (
            e.seq,
            _clock(e.at, day) if person else e.at,
            roles.get(e.by) or who(e.by, names) if e.by else e.by,
            event_type(type(e)),
            _flagged(e, event_detail(e), code),
            void_note(gone[e.seq][0], code) if e.seq in gone else None,
        )
        src = e.src
        edited = src is not None and src.edited
        marks = _marks_cell(found.get(e.seq, []), fmt)
        if person:
            seen_edit = seen_edit or edited
            return (*base, f"✎ {where(src)}" if edited else None, marks) if marked else (*base, marks)
        files = (src.file, src.loc, edited) if src is not None else (None, None, False)
        return (
            (*base, *files, src.text if src is not None else None, marks)
            if fmt in (DataFormat.json, DataFormat.jsonl)
            else (*base, *files, marks)
        )

    first = max(since, 1)
    struck = {seq - first for seq in gone if seq >= first and (until is None or seq <= until)}
    columns = ["seq", "at", "by", "type", "detail", "voided"]
    if marked:
        columns.append("edited")
    elif not person:
        columns += ["src_file", "src_loc", "edited"] + (
            ["src_text"] if fmt in (DataFormat.json, DataFormat.jsonl) else []
        )
    columns.append("findings")  # last: a script reading the columns by place still finds the old ones
    heads = {"voided": "voided_column", "edited": "edited_column", "findings": "findings_column"}
    print_rows(
        columns,
        map(row, shown),
        fmt,
        title=f"{log} ({day})" if day else str(log),
        struck=struck,
        labels=[label(heads.get(c, c), code) for c in columns],
        optional=("voided", "findings"),
        notes=len(columns) - 5,
    )
    if seen_edit:  # Markdown: a paragraph of its own, not a row of the table
        echo(("\n" if fmt is DataFormat.md else "") + label("edited_legend", code))


def _clock(at: str | None, day: str | None) -> str | None:
    """An event's time as a table shows it: the time of day when it is on the match's ``day``, else whole."""
    if at is None or day is None or not at.startswith(day) or len(at) <= 11:
        return at
    return at[11:]


MARKS = {"error": "✗", "warning": "⚠", "info": "ℹ"}
"""How a table and Markdown mark an event a finding rests on, by the finding's severity."""


def _finding_marks(findings: Any) -> dict[int, list[tuple[str, str, bool]]]:
    """Each event's findings: (code, severity, whether the event is only a consequence of it); an event a
    finding rests on (its seq and seqs) first, then the ones it is a consequence of."""
    out: dict[int, list[tuple[str, str, bool]]] = {}
    for f in findings:
        for seq in dict.fromkeys([f.seq, *f.seqs]):
            out.setdefault(seq, []).append((f.code, str(f.severity), False))
        for seq in f.consequences:
            out.setdefault(seq, []).append((f.code, str(f.severity), True))
    return out


def _marks_cell(marks: list[tuple[str, str, bool]], fmt: DataFormat) -> Any:
    """The `findings` cell: ``✗ GG-TOSS-001`` (a consequence in parentheses) for a person, the codes for CSV,
    a list of {code, severity, consequence} for JSON."""
    if fmt in (DataFormat.json, DataFormat.jsonl):
        return [{"code": c, "severity": sev, "consequence": cons} for c, sev, cons in marks]
    if not marks:
        return None
    if fmt is DataFormat.csv:
        return " ".join(f"({c})" if cons else c for c, _, cons in marks)
    return " ".join(f"({c})" if cons else f"{MARKS.get(sev, '')} {c}" for c, sev, cons in marks)


class StateFormat(str, Enum):
    json = "json"
    svg = "svg"


def _flagged(e: Any, detail: Any, code: str) -> Any:
    """A note holding a dice result the import could not read says so first (``Note.unread``)."""
    why = getattr(e, "unread", None)
    if why is None:
        return detail
    from kifu.events import i18n

    return f"{i18n.text('cli.show_unread', code, why=why)} — {detail}"


@app.command(rich_help_panel=PANEL)
def state(
    log: LogArg,
    at: Annotated[int | None, typer.Option("--at", help="Show the state after this seq (default: the last).")] = None,
    path: Annotated[str | None, typer.Option("--path", help="Only this part, dot-separated (game.players.p1).")] = None,
    flat: Annotated[
        bool, typer.Option("--flat", help="One `path = value` line per leaf, easy to grep and diff.")
    ] = False,
    fmt: Annotated[
        StateFormat,
        typer.Option(
            "--format", "-f", help="json: the projected state; svg: the table drawn, as the match page's board."
        ),
    ] = StateFormat.json,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write it to this file (default: stdout).")
    ] = None,
    lang: LangOpt = None,
) -> None:
    """Print the projected state after an event, as JSON (time travel), or draw the table as SVG.

    -f svg draws the same picture as the board of `kifu report`: the game's zones and
    the play in progress after event --at, what that event touched outlined and the
    findings on it marked and listed, in --lang; a judge attaches it to a ruling.

    Examples:
      kifu state m1.jsonl --at 42
      kifu state m1.jsonl --at 42 --path game.players.p1
      kifu state m1.jsonl --at 41 --flat > before.txt; kifu state m1.jsonl --at 42 --flat | diff before.txt -
      kifu state fixtures/gunandgun/dispute.jsonl --at 39 -f svg -o seq39.svg --lang ja
    """
    from kifu import app as use

    if fmt is StateFormat.svg:
        if path or flat:
            fail(msg("svg_whole", lang))
        try:
            picture = use.board_at(log, at, lang_of(lang).value)
        except use.OutOfRange as exc:
            fail(msg("seq_range", lang, seq=exc.seq, last=exc.last))
        except use.NoBoard as exc:
            fail(msg("no_board", lang, game=exc.game))
        _write(picture, output, lang)
        return
    try:
        frame = use.state_at(log, at)
    except use.OutOfRange as exc:
        fail(msg("seq_range", lang, seq=exc.seq, last=exc.last))
    tree = msgspec.to_builtins(frame)
    for key in path.split(".") if path else ():
        if isinstance(tree, dict) and key in tree:
            tree = tree[key]
        elif isinstance(tree, (list, tuple)) and key.lstrip("-").isdigit() and -len(tree) <= int(key) < len(tree):
            tree = tree[int(key)]
        else:
            known = (
                ", ".join(map(str, tree))
                if isinstance(tree, dict)
                else (f"0..{len(tree) - 1}" if isinstance(tree, (list, tuple)) else "-")
            )
            fail(msg("no_path", lang, path=path, part=key, known=known))
    if output is not None:
        text = "\n".join(f"{leaf} = {msgspec.json.encode(value).decode()}" for leaf, value in _leaves(tree, path or ""))
        _write(text + "\n" if flat else msgspec.json.format(msgspec.json.encode(tree)).decode() + "\n", output, lang)
    elif flat:
        for leaf, value in _leaves(tree, path or ""):
            echo(visible(f"{leaf} = {msgspec.json.encode(value).decode()}", lines=False))
    else:
        print_json(tree)


def _write(text: str, output: Path | None, lang: Lang | None) -> None:
    """``text`` to stdout, or written whole to ``output`` (a line on stderr says so)."""
    if output is None:
        echo(text, nl=False, data=True)  # an SVG picture: escaped only on a terminal
        return
    from kifu.events import atomic

    atomic.write_bytes(output, text.encode("utf-8"))
    echo(msg("wrote", lang, path=output), err=True)


def _leaves(tree: Any, prefix: str) -> Iterable[tuple[str, Any]]:
    items = list(tree.items() if isinstance(tree, dict) else enumerate(tree) if isinstance(tree, (list, tuple)) else ())
    if not items:
        yield prefix or ".", tree
        return
    for key, value in items:
        yield from _leaves(value, f"{prefix}.{key}" if prefix else str(key))


@app.command(rich_help_panel=PANEL)
def schema(
    game: GameOpt = "generic",
    lang: LangOpt = None,
) -> None:
    """Print the JSON Schema of one line of a game's log, generated from the event structs.

    Example: kifu schema -g gunandgun > gg.schema.json
    """
    from kifu.events import table
    from kifu.events.schema import schema as described

    print_json(described(table.codec(game)))
