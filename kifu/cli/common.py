"""What every command group shares: options declared once, messages, printing, failing.

Exit codes (DESIGN.md contract 5): 0 clean, 1 findings of error severity, 2 a usage
error or a log that cannot be trusted (one line on stderr, never a traceback).
"""

from __future__ import annotations

import csv
import io
import itertools
import os
from pathlib import Path
from typing import (
    Annotated,
    Any,
    NoReturn,
)
from collections.abc import Collection, Iterable, Iterator, Sequence

import msgspec
import typer

import kifu.games
from kifu.events import i18n, limits
from kifu.events.base import MalformedEvent
from kifu.events.display import json_safe, visible
from kifu.games import GAMES

from .say import (  # noqa: F401  (re-exported: what every command shares, typer's or not)
    DataFormat,
    Interrupted,
    Lang,
    ReportFormat,
    SummaryFormat,
    default_lang,
    echo,
    lang_of,
    msg,
    print_json,
    print_jsonl,
)


def fail(text: str) -> NoReturn:
    """One clear line on stderr, exit 2 (a value in it that holds a line break cannot make it two)."""
    echo(f"kifu: error: {visible(text, lines=False)}", err=True)
    raise typer.Exit(2)


def _known_game(ctx: typer.Context, value: str | None) -> str | None:
    """--game names a game kifu knows (one check, for every command that takes it)."""
    if value is not None and value not in kifu.games.GAMES:
        lang = ctx.params.get("lang")
        fail(msg("unknown_game", lang, game=value, known=", ".join(kifu.games.GAMES)))
    return value


def _game_option(help: str) -> Any:
    return typer.Option("--game", "-g", help=help, callback=_known_game, is_eager=False)


LangOpt = Annotated[
    Lang | None,
    typer.Option(
        "--lang", help="Language of messages: ja or en (default: KIFU_LANG or LANG).", show_default=False, is_eager=True
    ),
]


def _for_a_person(value: DataFormat | str) -> str:
    """-f text is -f table: one word for "for a person" in every command (the choice's text: typer makes it
    the enum after the callback)."""
    chosen = DataFormat(value)
    return (DataFormat.table if chosen is DataFormat.text else chosen).value


FormatOpt = Annotated[
    DataFormat,
    typer.Option(
        "--format",
        "-f",
        callback=_for_a_person,
        help="table (or text: for a person), csv, json (one document: a list of objects), jsonl (one a line) or md.",
    ),
]
SummaryOpt = Annotated[
    SummaryFormat,
    typer.Option(
        "--format", "-f", help="text (lines for a person), json (one summary object on stdout) or jsonl (one line)."
    ),
]
JobsOpt = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        "-j",
        help="Worker processes, each checking one log at a time (default: every core this process may use; "
        "1: no worker, this process alone).",
        show_default=False,
    ),
]


def jobs_of(jobs: int | None, lang: Lang | None) -> int:
    """The worker processes -j asks for (default: the cores this process may use); 0 or fewer is refused."""
    if jobs is None:
        from kifu.app.batch import cores

        return cores()
    if jobs < 1:
        fail(msg("jobs_positive", lang, jobs=jobs))
    return jobs


LogArg = Annotated[Path, typer.Argument(help="A kifu/1 match log (.jsonl).", show_default=False)]
GameOpt = Annotated[str, _game_option(f"Game id: {', '.join(GAMES)}.")]
GameFilter = Annotated[str | None, _game_option("Only this game's matches (or rules).")]
NewGameOpt = Annotated[str | None, _game_option(f"Game id of a new log: {', '.join(GAMES)}.")]
DbOpt = Annotated[
    Path | None,
    typer.Option(
        "--db", envvar="KIFU_DB", show_default=False, help="Warehouse file (default: KIFU_DB, else ./kifu.duckdb)."
    ),
]
PeopleOpt = Annotated[
    Path | None,
    typer.Option(
        "--people",
        envvar="KIFU_PEOPLE",
        show_default=False,
        help="Identity file: aliases gathered under one person (default: KIFU_PEOPLE, else people.toml beside "
        "the warehouse or dataset).",
    ),
]
ParquetOpt = Annotated[
    Path | None,
    typer.Option(
        "--parquet",
        show_default=False,
        help="Query this Parquet dataset (kifu export --parquet, kifu ingest --cluster … --parquet) in place, "
        "instead of the warehouse file.",
    ),
]
WaitOpt = Annotated[
    float | None,
    typer.Option(
        "--wait",
        envvar="KIFU_DB_WAIT",
        show_default=False,
        metavar="SECONDS",
        min=0,
        help="How long to wait for another kifu process using the warehouse (an ingest) before giving up "
        "(default: KIFU_DB_WAIT, else 30).",
    ),
]
RuleOpt = Annotated[
    list[str] | None, typer.Option("--rule", "-r", help="Rule option as key=value (into match.start.rules); repeat.")
]


# --- output ----------------------------------------------------------------------


TABLE_ROWS = 1000
"""Rows per drawn table: a longer output (``kifu show`` of a big log) is drawn as one table per block of
rows, so it streams in memory that does not grow with it (a table's widths need all of its rows)."""


def print_rows(
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    fmt: DataFormat,
    title: str | None = None,
    struck: Collection[int] = (),
    labels: Sequence[str] | None = None,
    notes: int = 1,
    optional: Collection[str] = (),
) -> None:
    """Print rows as a table, CSV, JSON (a list of objects) or Markdown, as they come.

    Rows whose index is in ``struck`` (events a void took back) are struck through in a
    table and in Markdown, all but the last ``notes`` cells in Markdown (the reason and
    other remarks on the row); CSV and JSON carry the reason in a column of their own.
    ``labels`` head a table's and Markdown's columns for a person (in their language);
    CSV and JSON keep the ``columns`` as keys. A table leaves out the ``optional`` columns that are
    empty in all its rows (a terminal's width is precious: no `voided` column when nothing was voided).
    """
    heads = list(labels) if labels is not None else list(columns)
    if fmt is DataFormat.json:
        _print_json_rows(columns, rows)
    elif fmt is DataFormat.jsonl:
        for r in rows:
            print_jsonl(dict(zip(columns, r)))
    elif fmt is DataFormat.csv:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(columns)
        for block in _blocks(rows, TABLE_ROWS):
            w.writerows(block)
            echo(buf.getvalue(), nl=False, data=True)
            buf.seek(0)
            buf.truncate()
        if buf.getvalue():
            echo(buf.getvalue(), nl=False, data=True)
    elif fmt is DataFormat.md:
        esc = lambda v: "" if v is None else visible(v, lines=False).replace("|", "\\|")  # noqa: E731
        if title:
            echo(f"**{esc(title)}**\n")
        echo("| " + " | ".join(map(esc, heads)) + " |")
        echo("|" + "---|" * len(columns))
        for i, r in enumerate(rows):
            cells = [esc(v) for v in r]
            if i in struck:
                cells = [f"~~{c}~~" if c and k < len(cells) - notes else c for k, c in enumerate(cells)]
            echo("| " + " | ".join(cells) + " |")
    else:  # table, text
        hide = [k for k, c in enumerate(columns) if c in optional]
        _print_table(heads, rows, title, struck, hide)


SHORT = 16
"""A column whose every cell (and head) is at most this wide keeps its width whatever the terminal's (a
seq, a severity); the others give up width, the widest first, and wrap."""


def column_widths(widest: Sequence[int], longest: Sequence[int], room: int) -> list[int]:
    """Each column's width so that they all fit in ``room`` cells: each as wide as its widest cell when
    that fits; else every column wider than a common cap is cut to it (the cap as high as the room
    allows), so a narrow column (a seq, a severity) keeps its width and the wide ones share the rest.
    While there is room for it, no column is made narrower than its longest word (``longest``): prose
    wraps between words and a word is never folded; else a column of single words is cut to two thirds
    of the cap (never under ``SHORT``), as a word folds where prose wraps."""
    if sum(widest) <= room:
        return list(widest)
    whole = sum(longest) <= room
    words = [lw >= w for w, lw in zip(widest, longest, strict=True)]

    def cut(cap: int) -> list[int]:
        if whole:
            return [max(lw, min(w, cap)) for w, lw in zip(widest, longest, strict=True)]
        return [
            min(w, max(min(cap, SHORT), cap * 2 // 3) if word else cap) for w, word in zip(widest, words, strict=True)
        ]

    low, high = 1, max(widest)  # the highest cap that fits: cut(cap) grows with cap
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if sum(cut(mid)) <= room else (low, mid - 1)
    out = cut(low)
    spare = room - sum(out)
    for i in sorted(
        range(len(out)), key=lambda i: widest[i] - out[i], reverse=True
    ):  # what is left: the most cut first
        give = min(max(spare, 0), widest[i] - out[i])
        out[i] += give
        spare -= give
    return out


def _print_table(
    heads: Sequence[str],
    rows: Iterable[Sequence[Any]],
    title: str | None,
    struck: Collection[int],
    hide: Sequence[int] = (),
) -> None:
    """Rows drawn as tables that fit the terminal's width (``term_width``): short columns kept whole on one
    line, long ones (a detail, a citation) wrapped at spaces, and folded only where a word is wider than the
    column; a block of ``TABLE_ROWS`` rows at a time."""
    from rich import box
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    width = term_width()
    console = Console(width=width)
    done = 0
    for i, block in enumerate(_blocks(rows, TABLE_ROWS)):
        # Cells are data (rule texts, chat lines): a `[word]` in them is text, not rich markup, and a
        # control character is shown, never sent to the terminal (rich passes ESC through).
        cells = [["" if v is None else visible(v) for v in r] for r in block]
        empty = {k for k in hide if not any(r[k] for r in cells if k < len(r))}
        shown = [h for k, h in enumerate(heads) if k not in empty]  # an optional column empty in this block: out
        cells = [[v for k, v in enumerate(r) if k not in empty] for r in cells]
        if title and i == 0:  # above the table, as wide as the terminal (a table's own title is as narrow as it)
            console.print(Text(visible(title), style="italic"))
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)
        for head, w in zip(shown, _widths(shown, cells, width), strict=True):
            table.add_column(escape(visible(head)), overflow="fold", width=w)
        for k, r in enumerate(cells, done):
            table.add_row(*(escape(v) for v in r), style="strike dim" if k in struck else None)
        console.print(table)
        done += len(block)


def _widths(heads: Sequence[str], cells: Sequence[Sequence[str]], width: int) -> list[int]:
    """The width of each column of a table ``width`` cells wide (2 between columns): ``column_widths`` of
    each column's widest line and longest word, its head's included."""
    from rich.cells import cell_len

    widest, longest = [], []
    for k, head in enumerate(heads):
        column = [head, *(r[k] for r in cells if k < len(r))]
        widest.append(max(cell_len(line) for c in column for line in c.split("\n")))
        longest.append(max([0, *(cell_len(word) for c in column for word in c.split())]))
    return column_widths(widest, longest, width - 2 * (len(heads) - 1))


def _blocks(rows: Iterable[Sequence[Any]], size: int) -> Iterator[list[Sequence[Any]]]:
    """``rows`` in lists of ``size``; one empty list when there are none (a table still shows its head)."""
    it = iter(rows)
    block = list(itertools.islice(it, size))
    yield block
    while len(block) == size:
        block = list(itertools.islice(it, size))
        if block:
            yield block


def _print_json_rows(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """A JSON list of objects, one object at a time, as ``print_json`` would lay out the whole list."""
    first = True
    for r in rows:
        item = json_safe(msgspec.json.format(msgspec.json.encode(dict(zip(columns, r))), indent=2).decode())
        echo(("[\n" if first else ",\n") + "\n".join("  " + line for line in item.split("\n")), nl=False, data=True)
        first = False
    echo("[]" if first else "\n]", data=True)


FALLBACK_WIDTH = 160
"""Columns a table is drawn in when neither COLUMNS nor a terminal says (no terminal at all: a file, a CI
log): wide, so that a cell is cut into as few lines as can be (grep finds it); COLUMNS=80 draws it for an
80-column screen."""


def term_width() -> int:
    """The columns a table may take: COLUMNS when set, else the terminal's (stdout's, else stderr's: a
    table piped to a pager is still read on that terminal), else ``FALLBACK_WIDTH``. Never under 40."""
    given = os.environ.get("COLUMNS", "")
    if given.isdigit() and int(given) > 0:
        return max(40, int(given))
    for fd in (1, 2):
        try:
            return max(40, os.get_terminal_size(fd).columns)
        except OSError:
            continue
    return FALLBACK_WIDTH


def print_summary(value: Any, fmt: SummaryFormat) -> None:
    """A command's summary object as one JSON document or one JSON line (``fmt`` is not text)."""
    if fmt is SummaryFormat.jsonl:
        print_jsonl(value)
    else:
        print_json(value)


# --- parsing key=value input ---------------------------------------------------------


def _parse_value(text: str, key: str) -> Any:
    """A value as JSON when it reads as JSON (held to the limits of docs/format.md), else as the text."""
    try:
        return limits.decode(text, field=key)
    except MalformedEvent as exc:
        if isinstance(exc.message, i18n.Msg) and exc.message.key == "log.not_json":
            return text
        raise


def pairs(items: Sequence[str], lang: Lang | None) -> dict[str, Any]:
    """``key=value`` items as a mapping; a value that reads as JSON is taken as JSON."""
    out: dict[str, Any] = {}
    for pair in items:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            fail(msg("bad_pair", lang, pair=pair))
        out[key] = _parse_value(value, key)
    return out


def players(items: Sequence[str], lang: Lang | None, *, names_required: bool = False) -> list[tuple[str, str]]:
    """``id=Name`` items as (id, name) pairs."""
    out = []
    for p in items:
        pid, sep, name = p.partition("=")
        if not sep or not pid or (names_required and not name):
            fail(msg("bad_pair", lang, pair=p))
        out.append((pid, name))
    return out
