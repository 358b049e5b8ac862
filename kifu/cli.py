"""kifu's command line: parsing, printing and exit codes; no game logic.

Exit codes (DESIGN.md contract 5): 0 clean, 1 findings of error severity,
2 a usage error or a log that cannot be trusted (one line on stderr, never a
traceback). Commands that do not touch DuckDB never import it.
"""

from __future__ import annotations

import csv
import io
import itertools
import os
import sys
from contextlib import AbstractContextManager, contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Callable, Iterable, Iterator, NoReturn, Optional, Sequence

import msgspec
import typer

from .events.base import KifuError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="kifu (棋譜): hash-chained match logs and a ruling auditor for tabletop card games.",
)


class Lang(str, Enum):
    ja = "ja"
    en = "en"


class DataFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"
    md = "md"


class ReportFormat(str, Enum):
    text = "text"
    json = "json"
    md = "md"
    html = "html"


def _default_lang() -> Lang:
    env = os.environ.get("KIFU_LANG") or os.environ.get("LANG", "")
    return Lang.ja if env.startswith("ja") else Lang.en


LangOpt = Annotated[Optional[Lang], typer.Option("--lang", help="Language of messages: ja or en (default: KIFU_LANG or LANG).",
                                                 show_default=False)]
FormatOpt = Annotated[DataFormat, typer.Option("--format", "-f", help="Output format.")]
LogArg = Annotated[Path, typer.Argument(help="A kifu/1 match log (.jsonl).", show_default=False)]

MESSAGES: dict[str, dict[str, str]] = {
    "created": {"ja": "{path} を作成しました (seq 1, head {head})", "en": "created {path} (seq 1, head {head})"},
    "appended": {"ja": "seq {seq} を追記しました (head {head})", "en": "appended seq {seq} (head {head})"},
    "verified": {"ja": "{path}: 正常 — {seq} イベント, head {head}", "en": "{path}: ok — {seq} events, head {head}"},
    "repaired": {"ja": "{path}: 途切れた最終行 {cut} バイトを切り取りました (元のファイルの写し: {copy})",
                 "en": "{path}: cut off the torn last line ({cut} bytes); a copy of the file is at {copy}"},
    "nothing_to_repair": {"ja": "{path}: 途切れた行はありません。何も変更していません",
                          "en": "{path}: no torn line; nothing changed"},
    "no_event": {"ja": "イベントがありません: --json, 標準入力, または key=value で渡してください",
                 "en": "no event given: pass --json, JSON on stdin, or key=value pairs"},
    "bad_pair": {"ja": "key=value の形ではありません: {pair}", "en": "not a key=value pair: {pair}"},
    "unknown_rule": {"ja": "そのコードのルールはありません: {code}", "en": "no rule has the code {code}"},
    "unknown_game": {"ja": "不明なゲーム: {game} (既知: {known})", "en": "unknown game {game} (known: {known})"},
    "seq_range": {"ja": "--at {seq} は 1..{last} の範囲外です", "en": "--at {seq} is outside 1..{last}"},
    "wrote": {"ja": "{path} に書き出しました", "en": "wrote {path}"},
    "no_path": {"ja": "--path {path}: {part} はありません (ここにあるもの: {known})",
                "en": "--path {path}: no {part} here (there is: {known})"},
    "import_done": {"ja": "{path} を作成しました: {format} から {messages} メッセージ → {events} イベント "
                          "(ゲーム {game} / ランダム {random} / ノート {notes}), head {head}",
                    "en": "created {path}: {messages} messages from {format} → {events} events "
                          "({game} game, {random} random, {notes} notes), head {head}"},
    "import_players": {"ja": "参加者: {players} (試合 {match})", "en": "players: {players} (match {match})"},
    "import_secret": {"ja": "シークレット {secret} 件 (結果が伏せられたロール {hidden} 件)",
                      "en": "{secret} secret events ({hidden} rolls with the result hidden)"},
    "import_unreadable": {"ja": "読めなかった箇所 (ノートとして保存): {loc}: {what}",
                          "en": "could not read (kept as a note): {loc}: {what}"},
    "import_unmapped": {"ja": "対応表にないコマンド (ノートとして保存): {loc}: {what}",
                        "en": "command not in the mapping (kept as a note): {loc}: {what}"},
    "import_failed": {"ja": "対応表どおりに変換できず (ノートとして保存): {loc}: {what}",
                      "en": "mapping did not apply (kept as a note): {loc}: {what}"},
    "import_edited": {"ja": "編集済みのメッセージ {count} 件: {locs}", "en": "{count} edited messages: {locs}"},
    "import_unattributed": {"ja": "参加者でない発言者: {names}", "en": "speakers who are not players: {names}"},
    "import_skipped": {"ja": "試合と関係のない行 {count} 行は写していません",
                       "en": "{count} lines not about the match were not copied"},
    "import_remark": {"ja": "注記: {text}", "en": "remark: {text}"},
    "import_exists": {"ja": "{path} は既に存在します。ログは上書きしません",
                      "en": "{path} already exists; a log is never overwritten"},
    "import_map_unreadable": {"ja": "{path}: 対応表を読めません ({reason})", "en": "{path}: cannot read the mapping ({reason})"},
}


def msg(key: str, lang: Lang | str | None, **kw: Any) -> str:
    code = _lang(lang).value if lang is None or isinstance(lang, Lang) else lang
    return MESSAGES[key][code].format(**kw)


def _lang(lang: Lang | None) -> Lang:
    return lang if lang is not None else _default_lang()


def fail(text: str) -> NoReturn:
    """One clear line on stderr, exit 2."""
    typer.echo(f"kifu: error: {text}", err=True)
    raise typer.Exit(2)


def _registry() -> Any:
    from .auditor import registry

    return registry


def _load(path: Path) -> Any:
    from .events import logfile

    return logfile.load(path, _registry().codec_for)


def _game_events(path: Path) -> tuple[Any, list[Any]]:
    log = _load(path)
    return log, log.events


# --- output helpers ------------------------------------------------------------


def print_rows(columns: Sequence[str], rows: Iterable[Sequence[Any]], fmt: DataFormat, title: str | None = None) -> None:
    """Print rows as a table, CSV, JSON (a list of objects) or Markdown."""
    rows = [list(r) for r in rows]
    if fmt is DataFormat.json:
        data = [dict(zip(columns, r)) for r in rows]
        typer.echo(msgspec.json.format(msgspec.json.encode(data), indent=2).decode())
    elif fmt is DataFormat.csv:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(columns)
        w.writerows(rows)
        typer.echo(buf.getvalue(), nl=False)
    elif fmt is DataFormat.md:
        esc = lambda v: "" if v is None else str(v).replace("|", "\\|").replace("\n", " ")  # noqa: E731
        typer.echo("| " + " | ".join(columns) + " |")
        typer.echo("|" + "---|" * len(columns))
        for r in rows:
            typer.echo("| " + " | ".join(esc(v) for v in r) + " |")
    else:
        from rich.console import Console
        from rich.markup import escape
        from rich.table import Table

        # Cells are data (rule texts, chat lines): a `[word]` in them is text, not rich markup.
        table = Table(title=escape(title) if title else None, show_lines=False)
        for c in columns:
            table.add_column(escape(c), overflow="fold")
        for r in rows:
            table.add_row(*("" if v is None else escape(str(v)) for v in r))
        Console(width=max(100, _term_width())).print(table)


def _term_width() -> int:
    try:
        return os.get_terminal_size().columns
    except OSError:
        return 160


def _parse_value(text: str) -> Any:
    try:
        return msgspec.json.decode(text)
    except msgspec.DecodeError:
        return text


def _pairs(pairs: Sequence[str], lang: Lang) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            fail(msg("bad_pair", lang, pair=pair))
        out[key] = _parse_value(value)
    return out


# --- progress bars (stderr, only on a terminal, only for long work) ----------------

MESSAGES.update({
    "progress_verify": {"ja": "検証", "en": "verifying"},
    "progress_read": {"ja": "読み込み", "en": "reading"},
    "progress_audit": {"ja": "監査", "en": "auditing"},
    "progress_replay": {"ja": "再生", "en": "replaying"},
    "progress_render": {"ja": "ページを作成", "en": "writing the page"},
    "progress_source": {"ja": "書き出しを読み込み", "en": "reading the export"},
    "progress_convert": {"ja": "メッセージを変換", "en": "converting messages"},
    "progress_write": {"ja": "イベントを書き込み", "en": "writing events"},
    "progress_ingest": {"ja": "取り込み", "en": "ingesting"},
    "progress_log": {"ja": "ログ {done}/{total}", "en": "log {done}/{total}"},
    "progress_ingested": {"ja": "{done}/{total} ログ, {events:,} イベント", "en": "{done}/{total} logs, {events:,} events"},
})

_BIG_LOGS = 4 << 20
"""Bytes of log (about 20,000 events) below which verify, audit and report end in well under a second."""
_BIG_SOURCE = 2 << 20
"""Bytes of export (about 10,000 messages) below which an import ends in well under a second."""
_MANY = 50
"""This many logs are long work whatever their size: each costs an open, a start and a report."""
_BLOCK = 16384
"""Records or items between two reports to a bar (a few a second on a big log; it redraws 4 times a second).

Blocks are taken with ``islice`` so the per-record loop stays in C: reading with a
bar is as fast as ``logfile.verify``, within the noise of a shared machine.
"""


class _Bar:
    """One progress task on stderr, or (not live) a bar that does nothing.

    While a bar is live and stdout is the same terminal, stdout lines are held
    and printed once the bar is gone, so the two never tear each other's lines;
    a pipe gets them as they come.
    """

    def __init__(self, progress: Any = None, label: str = "", total: float | None = None, hold: bool = False) -> None:
        self._progress = progress
        self._task = progress.add_task(label, total=total, note="") if progress is not None else None
        self._hold = hold
        self._held: list[str] = []

    @property
    def live(self) -> bool:
        return self._progress is not None

    def phase(self, label: str, total: float | None, note: str = "") -> None:
        """Start a new stretch of work: a new label, total and time estimate."""
        if self._progress is not None:
            self._progress.reset(self._task, total=total, description=label, note=note)

    def update(self, completed: float, label: str | None = None, note: str | None = None) -> None:
        if self._progress is not None:
            kw = {k: v for k, v in (("description", label), ("note", note)) if v is not None}
            self._progress.update(self._task, completed=completed, **kw)

    def counted(self, items: list[Any], start: float, span: float) -> list[Any]:
        """``items`` as a list whose iteration moves the bar from ``start`` to ``start + span``."""
        if self._progress is None or not items:
            return items
        return _Counted(items, lambda done: self.update(start + span * done / len(items)))

    def echo(self, text: str) -> None:
        if self._progress is not None and self._hold:
            self._held.append(text)
        else:
            typer.echo(text)

    def warn(self, text: str) -> None:
        """A line for stderr: above a live bar, kept whole (no wrapping, markup or colour added)."""
        if self._progress is not None:
            self._progress.console.print(text, markup=False, highlight=False, emoji=False, soft_wrap=True)
        else:
            typer.echo(text, err=True)

    def release(self) -> None:
        for text in self._held:
            typer.echo(text)
        self._held.clear()


class _Counted(list):  # type: ignore[type-arg]
    """A list that reports how far an iteration over it has come.

    The auditor, the replay, the importer's converter and its writer take the
    list and iterate it once; this lets them move a bar without a callback.
    """

    def __init__(self, items: Iterable[Any], tick: Callable[[int], None]) -> None:
        super().__init__(items)
        self._tick = tick

    def __iter__(self) -> Iterator[Any]:
        whole = super().__getitem__
        for done in range(0, len(self), _BLOCK):
            self._tick(done)
            yield from whole(slice(done, done + _BLOCK))
        self._tick(len(self))


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or bare stream is no terminal
        return False


@contextmanager
def _progress(total: float | None, label: str, small: float = _BIG_LOGS) -> Iterator[_Bar]:
    """A progress bar on stderr over ``total`` units of work, or a no-op ``_Bar``.

    Shown only when stderr is a terminal and ``total`` reaches ``small``: pipes,
    CI logs and tests stay clean, and short commands do not flash a bar (nor
    pay for importing rich). Transient: it leaves nothing on the screen.
    """
    if not _isatty(sys.stderr) or total is None or total < small:
        yield _Bar()
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn

    # isatty was asked above; forcing keeps rich from asking again through a wrapped stream.
    # No redirection: rich would send stdout to stderr and re-wrap lines; _Bar.echo and
    # _Bar.warn keep both streams byte for byte what they are without a bar.
    progress = Progress(TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
                        TextColumn("{task.fields[note]}"), TimeRemainingColumn(),
                        console=Console(stderr=True, force_terminal=True), transient=True,
                        redirect_stdout=False, redirect_stderr=False, refresh_per_second=4)
    bar = _Bar(progress, label, total, hold=_isatty(sys.stdout))
    try:
        with progress:
            yield bar
    finally:
        bar.release()


def _size(path: Path) -> int:
    try:
        return os.path.getsize(path)
    except OSError:  # a missing log fails later with its own clear line
        return 0


def _logs_progress(logs: Sequence[Path], passes: int, label: str) -> tuple[AbstractContextManager[_Bar], list[int]]:
    """A bar over ``passes`` reads of every log, in bytes; and each log's size."""
    sizes = [_size(p) for p in logs]
    small = 0 if len(logs) >= _MANY else _BIG_LOGS
    return _progress(passes * sum(sizes), label, small), sizes


def _read_log(path: Path, bar: _Bar, start: float) -> Any:
    """``logfile.load``, moving the bar by the bytes read."""
    from .events import logfile

    tick = (lambda offset: bar.update(start + offset)) if bar.live else None
    return logfile.load(path, _registry().codec_for, tick)


def _verify_log(path: Path, expect_head: Optional[str], bar: _Bar, start: float) -> Any:
    """``logfile.verify``, moving the bar by the bytes read."""
    from .events import logfile

    tick = (lambda offset: bar.update(start + offset)) if bar.live else None
    return logfile.verify(path, _registry().codec_for, expect_head, tick)


def _log_note(i: int, logs: Sequence[Path], lang: Lang | None) -> str:
    return msg("progress_log", lang, done=i + 1, total=len(logs)) if len(logs) > 1 else ""


# --- commands ------------------------------------------------------------------


@app.command()
def new(
    log: LogArg,
    game: Annotated[str, typer.Option("--game", "-g", help="Game id (see `kifu rules`).")],
    match: Annotated[str, typer.Option("--match", "-m", help="Match id.")],
    player: Annotated[list[str], typer.Option("--player", "-p", help="Player as id=Name; repeat per player.")],
    rule: Annotated[Optional[list[str]], typer.Option("--rule", "-r", help="Rule option as key=value; repeat.")] = None,
    title: Annotated[Optional[str], typer.Option(help="Tournament, round or table.")] = None,
    at: Annotated[Optional[str], typer.Option(help="RFC 3339 start time.")] = None,
    catalogue: Annotated[Optional[Path], typer.Option(help="A JSON file: the cards or triggers this table plays with.")] = None,
    lang: LangOpt = None,
) -> None:
    """Create a new match log holding its match.start.

    --catalogue puts the table's own cards (in the game's catalogue shape,
    docs/games/) into match.start; it is checked like the built-in one.

    Example: kifu new m1.jsonl -g gunandgun -m R1-T3 -p a=Aoi -p b=Ren -r cost_payment=hand
    """
    from .events import logfile

    reg = _registry()
    if game not in reg.GAMES:
        fail(msg("unknown_game", lang, game=game, known=", ".join(reg.GAMES)))
    players = []
    for p in player:
        pid, sep, name = p.partition("=")
        if not sep or not pid:
            fail(msg("bad_pair", lang, pair=p))
        players.append({"id": pid, "name": name})
    start: dict[str, Any] = {"game": game, "match": match, "players": players, "rules": _pairs(rule or [], lang)}
    if title:
        start["title"] = title
    if at:
        start["at"] = at
    if catalogue is not None:
        try:
            start["catalogue"] = msgspec.json.decode(catalogue.read_bytes())
        except (OSError, msgspec.DecodeError) as exc:
            fail(f"{catalogue}: {getattr(exc, 'strerror', None) or exc}")
    logfile.create(log, start, reg.codec_for)
    head = logfile.verify(log, reg.codec_for)
    typer.echo(msg("created", lang, path=log, head=head.hash))


@app.command()
def append(
    log: LogArg,
    pairs: Annotated[Optional[list[str]], typer.Argument(help="The event as key=value pairs (values may be JSON).")] = None,
    json_: Annotated[Optional[str], typer.Option("--json", help="The event as a JSON object; '-' reads stdin.")] = None,
    expect_seq: Annotated[Optional[int], typer.Option(help="Refuse unless this is the next seq (optimistic concurrency).")] = None,
    lang: LangOpt = None,
) -> None:
    """Append one event; seq and prev are filled in under the file lock.

    Examples:
      kifu append m1.jsonl type=note by=a text="shuffled"
      kifu append m1.jsonl --json '{"type":"note","text":"hi"}' --expect-seq 7
      echo '{"type":"note","text":"hi"}' | kifu append m1.jsonl
    """
    from .events import logfile

    if json_ is not None:
        text = sys.stdin.read() if json_ == "-" else json_
    elif pairs:
        text = None
    elif not sys.stdin.isatty():
        text = sys.stdin.read()
    else:
        fail(msg("no_event", lang))
    if text is not None:
        try:
            obj = msgspec.json.decode(text.strip().encode())
        except msgspec.DecodeError as exc:
            fail(f"--json: not JSON ({exc})")
        if not isinstance(obj, dict):
            fail("--json: the event must be a JSON object")
        obj.update(_pairs(pairs or [], lang))
    else:
        obj = _pairs(pairs or [], lang)
    event = logfile.append(log, obj, _registry().codec_for, expect_seq=expect_seq)
    from .events.codec import encode, line_hash

    typer.echo(msg("appended", lang, seq=event.seq, head=line_hash(encode(event))))


class VerifyFormat(str, Enum):
    text = "text"
    json = "json"


@app.command()
def verify(
    logs: Annotated[list[Path], typer.Argument(help="Match logs to verify.", show_default=False)],
    expect_head: Annotated[Optional[str], typer.Option(help="Head hash from the match slip (≥ 12 hex digits).")] = None,
    fmt: Annotated[VerifyFormat, typer.Option("--format", "-f", help="text, or json: one object per log "
                                              "(path, seq, head, ok, error).")] = VerifyFormat.text,
    lang: LangOpt = None,
) -> None:
    """Verify each log's hash chain and schema, and print its head (last seq and hash).

    Any edited, inserted, deleted or reordered event is named by seq; with
    --expect-head a truncated log is detected too. Text stops at the first log
    that fails; -f json verifies every log and reports each (a failed one with
    ok false and the error line, also on stderr). Exit 2 if any log failed.

    \b
    Examples:
      kifu verify m1.jsonl --expect-head 3f9a0c…
      kifu verify matches/*.jsonl -f json
    """
    progress, sizes = _logs_progress(logs, 1, msg("progress_verify", lang))
    rows: list[dict[str, Any]] = []
    with progress as bar:
        start = 0
        for i, (path, size) in enumerate(zip(logs, sizes, strict=True)):
            bar.update(start, note=_log_note(i, logs, lang))
            if fmt is VerifyFormat.json:
                rows.append(_verify_row(path, expect_head, bar, start, lang))
            else:
                head = _verify_log(path, expect_head, bar, start)
                bar.echo(msg("verified", lang, path=path, seq=head.seq, head=head.hash))
            start += size
    if fmt is VerifyFormat.json:
        typer.echo(msgspec.json.format(msgspec.json.encode(rows), indent=2).decode())
        raise typer.Exit(0 if all(r["ok"] for r in rows) else 2)


def _verify_row(path: Path, expect_head: Optional[str], bar: _Bar, start: float, lang: Lang | None) -> dict[str, Any]:
    """One log's verdict for `verify -f json`; a failure is a row (and a line on stderr), not the end."""
    try:
        head = _verify_log(path, expect_head, bar, start)
    except KifuError as exc:
        error = exc.located(str(path)).render(_lang(lang).value)
        bar.warn(f"kifu: error: {error}")
        return {"path": str(path), "seq": None, "head": None, "ok": False, "error": error}
    return {"path": str(path), "seq": head.seq, "head": head.hash, "ok": True, "error": None}


@app.command()
def repair(log: LogArg, lang: LangOpt = None) -> None:
    """Cut off a torn last line (a write cut short by a crash), keeping a copy first.

    Only an unterminated last line is cut; a complete line that fails to verify
    is evidence and is never removed.

    Example: kifu repair m1.jsonl
    """
    from .events import logfile

    result = logfile.repair(log)
    if result is None:
        typer.echo(msg("nothing_to_repair", lang, path=log))
    else:
        typer.echo(msg("repaired", lang, path=log, cut=result[0], copy=result[1]))


@app.command()
def show(
    log: LogArg,
    fmt: FormatOpt = DataFormat.table,
    since: Annotated[int, typer.Option(help="First seq to show.")] = 1,
    until: Annotated[Optional[int], typer.Option(help="Last seq to show.")] = None,
) -> None:
    """Print the timeline of a log: seq, time, who, type and the event's fields.

    Example: kifu show m1.jsonl --since 10 --until 40 -f md
    """
    from .auditor.report import event_detail
    from .events.base import event_type

    _, events = _game_events(log)
    rows = [
        (e.seq, e.at, e.by, event_type(type(e)), event_detail(e))
        for e in events
        if e.seq >= since and (until is None or e.seq <= until)
    ]
    print_rows(["seq", "at", "by", "type", "detail"], rows, fmt, title=str(log))


@app.command()
def state(
    log: LogArg,
    at: Annotated[Optional[int], typer.Option("--at", help="Show the state after this seq (default: the last).")] = None,
    path: Annotated[Optional[str], typer.Option("--path", help="Only this part, dot-separated (game.players.p1).")] = None,
    flat: Annotated[bool, typer.Option("--flat", help="One `path = value` line per leaf, easy to grep and diff.")] = False,
    lang: LangOpt = None,
) -> None:
    """Print the projected state after an event, as JSON (time travel).

    Examples:
      kifu state m1.jsonl --at 42
      kifu state m1.jsonl --at 42 --path game.players.p1
      kifu state m1.jsonl --at 41 --flat > before.txt; kifu state m1.jsonl --at 42 --flat | diff before.txt -
    """
    from .projector.base import Replay

    reg = _registry()
    lg, events = _game_events(log)
    g = reg.game(lg.start.game)
    last = events[-1].seq
    seq = last if at is None else at
    if not 1 <= seq <= last:
        fail(msg("seq_range", lang, seq=seq, last=last))
    frame = Replay(g.projection, events, reg.options(g, lg.start)).state_at(seq)
    tree = msgspec.to_builtins(frame)
    for key in path.split(".") if path else ():
        if isinstance(tree, dict) and key in tree:
            tree = tree[key]
        elif isinstance(tree, (list, tuple)) and key.lstrip("-").isdigit() and -len(tree) <= int(key) < len(tree):
            tree = tree[int(key)]
        else:
            known = ", ".join(map(str, tree)) if isinstance(tree, dict) else (
                f"0..{len(tree) - 1}" if isinstance(tree, (list, tuple)) else "-")
            fail(msg("no_path", lang, path=path, part=key, known=known))
    if flat:
        for leaf, value in _leaves(tree, path or ""):
            typer.echo(f"{leaf} = {msgspec.json.encode(value).decode()}")
    else:
        typer.echo(msgspec.json.format(msgspec.json.encode(tree), indent=2).decode())


def _leaves(tree: Any, prefix: str) -> Iterable[tuple[str, Any]]:
    items = list(tree.items() if isinstance(tree, dict) else enumerate(tree) if isinstance(tree, (list, tuple)) else ())
    if not items:
        yield prefix or ".", tree
        return
    for key, value in items:
        yield from _leaves(value, f"{prefix}.{key}" if prefix else str(key))


@app.command()
def audit(
    logs: Annotated[list[Path], typer.Argument(help="Match logs to audit.", show_default=False)],
    fmt: Annotated[ReportFormat, typer.Option("--format", "-f", help="text, json, md, or html (a page).")] = ReportFormat.text,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write the report to this file.")] = None,
    lang: LangOpt = None,
) -> None:
    """Audit match logs against their game's rulebook; findings cite the rule.

    Exit 0 when no finding is an error, 1 when one is, 2 when a log cannot be
    trusted (malformed or a broken chain).

    Example: kifu audit fixtures/gunandgun/dispute.jsonl --lang ja -f md
    """
    from .auditor import report

    out: list[str] = []
    worst = 0
    progress, sizes = _logs_progress(logs, 2, msg("progress_read", lang))
    with progress as bar:
        for i, (path, size, start) in enumerate(zip(logs, sizes, _starts(sizes, 2), strict=True)):
            try:
                lg, findings = _audit_log(path, bar, start, size, _log_note(i, logs, lang), lang)
            except KifuError as exc:  # one untrusted log does not hide the others' reports
                if len(logs) == 1:
                    raise exc.located(str(path)) from None
                bar.warn(f"kifu: error: {exc.located(str(path)).render(_lang(lang).value)}")
                worst = 2
                continue
            if worst < 2 and any(f.severity == "error" for f in findings):
                worst = 1
            title = f"{path} ({lg.start.game}, {lg.start.match})"
            if fmt is ReportFormat.json:
                meta = {"log": str(path), "game": lg.start.game, "match": lg.start.match,
                        "head": lg.head.hash, "events": lg.head.seq}
                out.append(report.as_json(findings, _lang(lang).value, meta))
            elif fmt is ReportFormat.md:
                out.append(report.as_markdown(findings, _lang(lang).value, title))
            elif fmt is ReportFormat.html:
                out.append(report.as_html(findings, lg.events, _lang(lang).value, title))
            else:
                prefix = f"{path}: " if len(logs) > 1 else ""
                out.append(report.as_text(findings, _lang(lang).value, prefix))
            if output is None:
                bar.echo(out.pop())
    if output is not None:
        text = "\n".join(out)
        output.write_text(text + ("" if text.endswith("\n") else "\n"), encoding="utf-8")
        typer.echo(msg("wrote", lang, path=output), err=True)
    raise typer.Exit(worst)


def _starts(sizes: Sequence[int], passes: int) -> list[int]:
    """Where each log's first pass begins on a bar of ``passes`` passes over every log."""
    return [passes * before for before in itertools.accumulate(sizes[:-1], initial=0)]


def _audit_log(path: Path, bar: _Bar, start: float, size: int, note: str, lang: Lang | None) -> tuple[Any, list[Any]]:
    """Read and audit one log: two passes of ``size`` on the bar from ``start``."""
    bar.update(start, label=msg("progress_read", lang), note=note)
    lg = _read_log(path, bar, start)
    bar.update(start + size, label=msg("progress_audit", lang))
    return lg, _registry().audit(bar.counted(lg.events, start + size, size))


@app.command()
def rules(
    code: Annotated[Optional[str], typer.Argument(help="A rule code to explain, e.g. GG-TOSS-001.")] = None,
    game: Annotated[Optional[str], typer.Option("--game", "-g", help="Only this game's rules.")] = None,
    fmt: FormatOpt = DataFormat.table,
    lang: LangOpt = None,
) -> None:
    """List every rule with its code, severity and citation, or explain one.

    Examples: kifu rules -g gunandgun     kifu rules GG-TOSS-001 --lang ja
    """
    from .auditor import report

    reg = _registry()
    if code:
        try:
            typer.echo(report.explain(reg.find_rule(code), _lang(lang).value))
        except KeyError:
            fail(msg("unknown_rule", lang, code=code))
        return
    if game is not None and game not in reg.GAMES:
        fail(msg("unknown_game", lang, game=game, known=", ".join(reg.GAMES)))
    selected = reg.all_rules() if game is None else sorted(
        reg.rules_of(reg.game(game)), key=lambda r: r.code)
    rows = [(r.code, r.name, r.severity.value, r.title.get(_lang(lang).value), r.citation) for r in selected]
    print_rows(["code", "name", "severity", "title", "citation"], rows, fmt)


@app.command()
def schema(
    game: Annotated[str, typer.Option("--game", "-g", help="Game whose events to describe.")] = "generic",
    lang: LangOpt = None,
) -> None:
    """Print the JSON Schema of one line of a game's log, generated from the event structs.

    Example: kifu schema -g gunandgun > gg.schema.json
    """
    reg = _registry()
    if game not in reg.GAMES:
        fail(msg("unknown_game", lang, game=game, known=", ".join(reg.GAMES)))
    from .events.schema import schema as described

    doc = described(reg.codec_for(game))
    typer.echo(msgspec.json.format(msgspec.json.encode(doc), indent=2).decode())


# --- import ------------------------------------------------------------------


class ImportFrom(str, Enum):
    auto = "auto"
    ccfolia = "ccfolia"
    udonarium = "udonarium"
    discord = "discord"
    cockatrice = "cockatrice"
    arena = "arena"


@app.command("import")
def import_(
    source: Annotated[Path, typer.Argument(help="The export: CCFOLIA .html/.json, Udonarium .xml/.zip, "
                                                "Discord .json/.txt, Cockatrice log, Arena Player.log.",
                                           show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="The new log to write (never overwritten).",
                                         show_default=False)],
    from_: Annotated[ImportFrom, typer.Option("--from", help="The source format; auto detects it.")] = ImportFrom.auto,
    game: Annotated[str, typer.Option("--game", "-g", help="Game id of the log.")] = "generic",
    map_: Annotated[Optional[Path], typer.Option("--map", help="Mapping file (TOML): commands and rolls to game events.")] = None,
    match: Annotated[Optional[str], typer.Option("--match", "-m", help="Match id (default: from the source).")] = None,
    player: Annotated[Optional[list[str]], typer.Option("--player", "-p", help="Player as id=Name (Name as the source "
                                                                            "shows it); repeat. Default: every speaker.")] = None,
    report_: Annotated[Optional[Path], typer.Option("--report", help="Also write the import report as JSON here.")] = None,
    rule: Annotated[Optional[list[str]], typer.Option("--rule", "-r", help="The table's rule option as key=value "
                                                                       "(into match.start.rules); repeat.")] = None,
    lang: LangOpt = None,
) -> None:
    """Import a chat or client log from online play into a new kifu/1 log.

    Every message becomes an event: rolls become `random` events, commands in
    the chat notation become game events through --map, everything else a note.
    The report (stderr) counts them and lists what could not be read.

    Example: kifu import room.html -o m1.jsonl --game gunandgun --map gg.toml -p a=ミナト -p b=ユキ
    """
    rules = _pairs(rule or [], lang)
    from .events import importers

    reg = _registry()
    if game not in reg.GAMES:
        fail(msg("unknown_game", lang, game=game, known=", ".join(reg.GAMES)))
    if os.path.lexists(output):
        fail(msg("import_exists", lang, path=output))
    players = []
    for p in player or []:
        pid, sep, name = p.partition("=")
        if not sep or not pid or not name:
            fail(msg("bad_pair", lang, pair=p))
        players.append((pid, name))
    map_text = None
    if map_ is not None:
        try:
            map_text = map_.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            fail(msg("import_map_unreadable", lang, path=map_, reason=getattr(exc, "strerror", None) or exc))
    with _progress(_size(source), msg("progress_source", lang), _BIG_SOURCE) as bar:
        rep = importers.import_file(source, output, reg.codec_for, fmt=from_.value, game=game,
                                    map_text=map_text, map_name=str(map_ or ""), match=match,
                                    players=players, rules=rules, progress=_import_stages(bar, lang))
    for line in _import_lines(rep, output, lang):
        typer.echo(line, err=True)
    if report_ is not None:
        report_.write_bytes(msgspec.json.format(msgspec.json.encode(rep), indent=2) + b"\n")


def _import_stages(bar: _Bar, lang: Lang | None) -> Callable[[str, list[Any] | None], Any] | None:
    """The importer's stages on the bar: reading pulses (the readers parse the export at
    once), converting counts messages, writing counts events."""
    if not bar.live:
        return None
    labels = {"read": "progress_source", "convert": "progress_convert", "write": "progress_write"}

    def stage(name: str, items: list[Any] | None) -> Any:
        bar.phase(msg(labels[name], lang), None if items is None else len(items))
        return items if items is None else bar.counted(items, 0, len(items))

    return stage


def _import_lines(rep: Any, output: Path, lang: Lang | None) -> list[str]:
    lines = [msg("import_done", lang, path=output, format=rep.format, messages=rep.messages, events=rep.events,
                 game=rep.game_events, random=rep.random, notes=rep.notes, head=rep.head),
             msg("import_players", lang, players=", ".join(rep.players) or "-", match=rep.match)]
    if rep.secret or rep.hidden:
        lines.append(msg("import_secret", lang, secret=rep.secret, hidden=rep.hidden))
    for key, items in (("import_unreadable", rep.unreadable), ("import_unmapped", rep.unmapped),
                       ("import_failed", rep.failed)):
        lines.extend(msg(key, lang, loc=i.loc, what=i.what) for i in items)
    if rep.edited:
        lines.append(msg("import_edited", lang, count=len(rep.edited), locs=", ".join(rep.edited[:10])))
    if rep.unattributed:
        names = ", ".join(f"{n} ({c})" for n, c in rep.unattributed.items())
        lines.append(msg("import_unattributed", lang, names=names))
    if rep.skipped_lines:
        lines.append(msg("import_skipped", lang, count=rep.skipped_lines))
    lines.extend(msg("import_remark", lang, text=r) for r in rep.remarks)
    return lines


# --- report (the match page) ---------------------------------------------------

MESSAGES.update({
    "report_wrote": {"ja": "{path} に試合レポートを書き出しました ({summary})",
                     "en": "wrote the match report to {path} ({summary})"},
})


@app.command()
def report(
    log: LogArg,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="The page to write (default: stdout).")] = None,
    lang: LangOpt = None,
) -> None:
    """Write one self-contained HTML page for a match: players, verdict, findings explained, charts, timeline.

    Exit codes as `kifu audit`: 0 clean, 1 findings of error severity, 2 a log that cannot be trusted.

    Example: kifu report fixtures/gunandgun/dispute.jsonl -o dispute.html --lang ja
    """
    from .auditor import page
    from .auditor.report import summary
    from .projector.base import frames

    reg = _registry()
    code = _lang(lang).value
    progress, (size,) = _logs_progress([log], 3, msg("progress_read", lang))
    with progress as bar:
        lg, findings = _audit_log(log, bar, 0, size, "", lang)
        g = reg.game(lg.start.game)
        bar.update(2 * size, label=msg("progress_replay", lang))
        replay = list(frames(g.projection, bar.counted(lg.events, 2 * size, size), reg.options(g, lg.start)))
        bar.phase(msg("progress_render", lang), None)  # the page has no step to count: the bar only pulses
        text = page.render(lg.events, replay, findings, code, head=lg.head.hash, source=str(log))
    if output is None:
        typer.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        typer.echo(msg("report_wrote", lang, path=output, summary=summary(findings, code)), err=True)
    raise typer.Exit(1 if any(f.severity == "error" for f in findings) else 0)


# --- warehouse (issue 7): ingest, sql, stats, export ------------------------------

MESSAGES.update({
    "ingested": {"ja": "取り込み: 新規 {matches} 試合 / {events} イベント, 既存と同一 {unchanged} 試合, "
                       "指摘 エラー {error}・警告 {warning}・情報 {info}, 拒否 {refused} ({db})",
                 "en": "ingested {matches} new matches / {events} events, {unchanged} already stored unchanged, "
                       "findings: {error} errors, {warning} warnings, {info} info; {refused} refused ({db})"},
    "refused": {"ja": "拒否: {path}: {reason}", "en": "refused: {path}: {reason}"},
    "no_logs": {"ja": "*.jsonl が見つかりません: {paths}", "en": "no *.jsonl found in {paths}"},
    "exported": {"ja": "{out}/{name} に {rows} 行を書き出しました", "en": "wrote {rows} rows to {out}/{name}"},
    "export_what": {"ja": "--parquet DIR か --match ID のどちらかを指定してください",
                    "en": "give either --parquet DIR or --match ID"},
    "sql_stdin": {"ja": "SQL が空です", "en": "the SQL is empty"},
    "sql_extra": {"ja": "余分な引数: {arg} (パラメータは文の後に -p NAME VALUE)",
                  "en": "unexpected argument {arg} (parameters follow the statement: -p NAME VALUE)"},
    "sql_param": {"ja": "-p には NAME と VALUE の二つが必要です", "en": "-p needs a NAME and a VALUE"},
})

DbOpt = Annotated[Optional[Path], typer.Option("--db", envvar="KIFU_DB", show_default=False,
                                               help="Warehouse file (default: KIFU_DB, else ./kifu.duckdb).")]


def _warehouse() -> Any:
    from .events import warehouse

    return warehouse


@app.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Match logs, or folders searched for *.jsonl.", show_default=False)],
    db: DbOpt = None,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", help="Worker processes (default: every core).")] = None,
    lang: LangOpt = None,
) -> None:
    """Verify, audit and load match logs into the DuckDB warehouse.

    A log that does not verify, or a different log for a match already stored
    (a fork, shown with both heads), is refused and reported; the others are
    loaded. Loading the same log again changes nothing. Exit 2 if any log was
    refused, else 0.

    Example: kifu ingest fixtures/ matches/2026-11/ --db club.duckdb
    """
    wh = _warehouse()
    reg = _registry()
    files = wh.log_paths(paths)
    if not files:
        fail(msg("no_logs", lang, paths=" ".join(map(str, paths))))
    con = wh.connect(db)
    try:
        with _progress(len(files), msg("progress_ingest", lang), _MANY) as bar:
            summary = wh.ingest(con, files, reg.codec_for, reg.audit, jobs=jobs,
                                progress=lambda done, total, ev: bar.update(done, note=msg(
                                    "progress_ingested", lang, done=done, total=total, events=ev)))
    finally:
        con.close()
    for path, reason in summary.refused:
        typer.echo(msg("refused", lang, path=path, reason=reason), err=True)
    typer.echo(msg("ingested", lang, matches=summary.matches, events=summary.events, unchanged=summary.unchanged,
                   refused=len(summary.refused), db=wh.db_path(db), **summary.findings))
    raise typer.Exit(2 if summary.refused else 0)


def _sql_params(extra: Sequence[str], lang: Lang | None) -> dict[str, str]:
    """`-p NAME VALUE` pairs (typer has no repeatable two-value option, so click hands them over raw)."""
    out: dict[str, str] = {}
    it = iter(extra)
    for flag in it:
        if flag not in ("-p", "--param"):
            fail(msg("sql_extra", lang, arg=flag))
        try:
            name, value = next(it), next(it)
        except StopIteration:
            fail(msg("sql_param", lang))
        out[name] = value
    return out


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def sql(
    ctx: typer.Context,
    statement: Annotated[str, typer.Argument(help="One SELECT; '-' reads it from stdin. Then -p NAME VALUE, "
                                             "repeated: bound as $NAME (a string: cast it in SQL).",
                                             show_default=False)],
    db: DbOpt = None,
    fmt: FormatOpt = DataFormat.table,
    lang: LangOpt = None,
) -> None:
    """Run one read-only SELECT on the warehouse (opened read-only, no file access).

    A statement that writes (INSERT, COPY, ATTACH, CREATE …) is refused, exit 2.
    Parameters follow the statement: -p NAME VALUE (or --param NAME VALUE).

    \b
    Examples:
      kifu sql "SELECT game, count(*) FROM matches GROUP BY game"
      kifu sql "SELECT seq, type FROM events WHERE match = $m ORDER BY seq" -p m demo-001 -f csv
      echo "SELECT * FROM randomness WHERE sides = $s::INTEGER" | kifu sql - -p s 6
    """
    wh = _warehouse()
    params = _sql_params(ctx.args, lang)
    text = sys.stdin.read() if statement == "-" else statement
    if not text.strip():
        fail(msg("sql_stdin", lang))
    wh.check_read_only(text)
    con = wh.connect(db, read_only=True, sandbox=True)
    try:
        columns, rows = wh.query(con, text, params)
    finally:
        con.close()
    print_rows(columns, rows, fmt)


stats_app = typer.Typer(no_args_is_help=True, help="Statistics over the warehouse, with confidence intervals.")
app.add_typer(stats_app, name="stats")


class Correction(str, Enum):
    holm = "holm"
    bh = "bh"


def _stats_table(summary: str, db: Optional[Path], fmt: DataFormat, **kw: Any) -> None:
    """Run one ``kifu.events.stats`` summary on the read-only warehouse and print its rows."""
    from .events import stats

    con = _warehouse().connect(db, read_only=True)
    try:
        columns, rows = getattr(stats, summary)(con, **kw)
    finally:
        con.close()
    print_rows(columns, rows, fmt)


@stats_app.command("fairness")
def stats_fairness(
    db: DbOpt = None,
    game: Annotated[Optional[str], typer.Option("--game", "-g", help="Only this game's matches.")] = None,
    alpha: Annotated[float, typer.Option(help="Flag when the corrected p-value is below this.")] = 0.01,
    correction: Annotated[Correction, typer.Option(help="Across players: holm (FWER) or bh (FDR).")] = Correction.holm,
    flagged: Annotated[bool, typer.Option("--flagged", help="Only the rows flagged for a judge's look.")] = False,
    fmt: FormatOpt = DataFormat.table,
) -> None:
    """Each player's recorded randomness against its declared distribution.

    Coins: exact binomial against 1/2; run lengths N: exact negative binomial
    against Geometric(1/2); dice: chi-square against uniform. p-values are
    corrected across players per test; `flag` marks who deserves a judge's look.

    Example: kifu stats fairness -g gunandgun --correction bh --flagged
    """
    from .events import stats

    con = _warehouse().connect(db, read_only=True)
    try:
        rows = stats.fairness(con, game=game, alpha=alpha, correction=correction.value)
    finally:
        con.close()
    rows = [r for r in rows if r.flag or not flagged]
    print_rows(stats.FAIRNESS_COLUMNS, [r.as_row() for r in rows], fmt)


@stats_app.command("winrate")
def stats_winrate(
    db: DbOpt = None,
    game: Annotated[Optional[str], typer.Option("--game", "-g", help="Only this game's matches.")] = None,
    by_game: Annotated[bool, typer.Option("--by-game", help="One row per player and game.")] = False,
    level: Annotated[float, typer.Option(help="Confidence level of the Wilson interval.")] = 0.95,
    fmt: FormatOpt = DataFormat.table,
) -> None:
    """Win rate per player (decided matches only) with a Wilson confidence interval.

    Example: kifu stats winrate --by-game -f md
    """
    _stats_table("winrate", db, fmt, game=game, by_game=by_game, level=level)


@stats_app.command("seats")
def stats_seats(
    db: DbOpt = None,
    game: Annotated[Optional[str], typer.Option("--game", "-g", help="Only this game's matches.")] = None,
    level: Annotated[float, typer.Option(help="Confidence level of the Wilson interval.")] = 0.95,
    fmt: FormatOpt = DataFormat.table,
) -> None:
    """Win rate by seat (seat 1 is listed first in match.start) per game, with Wilson intervals.

    Example: kifu stats seats -g weiss
    """
    _stats_table("seats", db, fmt, game=game, level=level)


@stats_app.command("rules")
def stats_rules(
    db: DbOpt = None,
    game: Annotated[Optional[str], typer.Option("--game", "-g", help="Only this game's matches.")] = None,
    level: Annotated[float, typer.Option(help="Confidence level of the Wilson interval.")] = 0.95,
    fmt: FormatOpt = DataFormat.table,
) -> None:
    """Per rule: the share of matches with at least one finding of it, with Wilson intervals.

    Example: kifu stats rules -g gunandgun -f md
    """
    _stats_table("rule_rates", db, fmt, game=game, level=level)


class BuildKey(str, Enum):
    gunner = "gunner"
    guns = "guns"
    triggers = "triggers"


@stats_app.command("builds")
def stats_builds(
    db: DbOpt = None,
    by: Annotated[BuildKey, typer.Option("--by", help="gunner or guns (ガンナガン), triggers (World Trigger).")
                  ] = BuildKey.gunner,
    level: Annotated[float, typer.Option(help="Confidence level of the Wilson interval.")] = 0.95,
    fmt: FormatOpt = DataFormat.table,
) -> None:
    """Win rate per gunner, gun pair or trigger set, with Wilson intervals; mirror matches counted apart.

    Example: kifu stats builds --by guns -f md
    """
    _stats_table("builds", db, fmt, by=by.value, level=level)


@stats_app.command("first")
def stats_first(
    db: DbOpt = None,
    game: Annotated[Optional[str], typer.Option("--game", "-g", help="Only this game's matches.")] = None,
    level: Annotated[float, typer.Option(help="Confidence level of the Wilson interval.")] = 0.95,
    fmt: FormatOpt = DataFormat.table,
) -> None:
    """First-player advantage per game: the first player's win rate, Wilson interval, exact p against 1/2.

    Example: kifu stats first -f csv
    """
    _stats_table("first_player", db, fmt, game=game, level=level)


@stats_app.command("zero-n")
def stats_zero_n(
    db: DbOpt = None,
    level: Annotated[float, typer.Option(help="Confidence level of the Wilson interval.")] = 0.95,
    fmt: FormatOpt = DataFormat.table,
) -> None:
    """ガンナガン: how often N = 0 decided a shot (a special bullet's or a response's N was 0).

    Example: kifu stats zero-n -f json
    """
    _stats_table("zero_n", db, fmt, level=level)


@app.command()
def export(
    parquet: Annotated[Optional[Path], typer.Option("--parquet", help="Write hive-partitioned Parquet here.")] = None,
    match: Annotated[Optional[str], typer.Option("--match", "-m", help="Write this match's log, byte for byte.")] = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="File for --match (default: stdout).")] = None,
    db: DbOpt = None,
    lang: LangOpt = None,
) -> None:
    """Export the warehouse as Parquet (DIR/<table>/game=…/month=…/), or one match's original log.

    \b
    Examples:
      kifu export --parquet out/          (matches, events, findings; DuckDB, Spark or Trino read it)
      kifu export --match demo-001 -o demo.jsonl && kifu verify demo.jsonl
    """
    if (parquet is None) == (match is None):
        fail(msg("export_what", lang))
    wh = _warehouse()
    con = wh.connect(db, read_only=True)
    try:
        data = wh.match_lines(con, match) if match is not None else None
        written = wh.export_parquet(con, parquet) if parquet is not None else {}
    finally:
        con.close()
    if data is not None and output is not None:
        output.write_bytes(data)
        typer.echo(msg("wrote", lang, path=output), err=True)
    elif data is not None:
        # Bytes, not text: the exported log must verify byte for byte.
        out = getattr(sys.stdout, "buffer", None)
        if out is None:
            typer.echo(data.decode(), nl=False)
        else:
            out.write(data)
    for name, rows in written.items():
        typer.echo(msg("exported", lang, out=parquet, name=name, rows=rows))


def _argv_lang(argv: Sequence[str] | None) -> Lang:
    """The --lang of a command line that stopped with an error (else the default)."""
    args = list(sys.argv[1:] if argv is None else argv)
    for i, arg in enumerate(args):
        value = arg.split("=", 1)[1] if arg.startswith("--lang=") else (
            args[i + 1] if arg == "--lang" and i + 1 < len(args) else None)
        if value in ("ja", "en"):
            return Lang(value)
    return _default_lang()


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point: run the app; a KifuError becomes one line on stderr and exit 2.

    Usage errors are typer's own (exit 2); the app raises SystemExit with the
    command's exit code, which propagates.
    """
    try:
        app(args=list(argv) if argv is not None else None, prog_name="kifu")
    except KifuError as exc:
        typer.echo(f"kifu: error: {exc.render(_argv_lang(argv).value)}", err=True)
        return 2
    except KeyboardInterrupt:
        typer.echo("kifu: interrupted", err=True)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        typer.echo(f"kifu: error: {exc.filename or ''}: {exc.strerror}", err=True)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
