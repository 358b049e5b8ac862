"""Warehouse commands: ingest, sql, stats, export."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional, Sequence

import typer

from kifu.events.base import KifuError

from . import progress as bars
from .common import (
    DataFormat,
    DbOpt,
    FormatOpt,
    GameFilter,
    Interrupted,
    Lang,
    LangOpt,
    WaitOpt,
    fail,
    lang_of,
    msg,
    print_rows,
)

app = typer.Typer()
PANEL = "Warehouse (many matches)"


@app.command(rich_help_panel=PANEL)
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Match logs, or folders searched for *.jsonl.", show_default=False)],
    db: DbOpt = None,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", help="Worker processes (default: every core).")] = None,
    wait: WaitOpt = None,
    lang: LangOpt = None,
) -> None:
    """Verify, audit and load match logs into the DuckDB warehouse.

    A log that does not verify, or a different log for a match already stored
    (a fork, shown with both heads), is refused and reported; the others are
    loaded. Loading the same log again changes nothing. Exit 0 when every log
    was taken (stored, or already stored unchanged), 1 when some were refused,
    2 when none could be. If the disk fills, the batch being loaded is rolled back
    (one line says so) and running the same ingest again completes it. One process
    writes the warehouse at a time: a second one waits (--wait) for the first.

    Example: kifu ingest fixtures/ matches/2026-11/ --db club.duckdb
    """
    from kifu import warehouse as wh

    files = wh.log_paths(paths)
    if not files:
        fail(msg("no_logs", lang, paths=" ".join(map(str, paths))))
    con = wh.connect(db, wait=wait)
    try:
        with bars.progress(len(files), msg("progress_ingest", lang), bars.MANY) as bar:
            summary = wh.ingest(con, files, jobs=jobs,
                                progress=lambda done, total, ev: bar.update(done, note=msg(
                                    "progress_ingested", lang, done=done, total=total, events=ev)))
    except KifuError as exc:
        raise exc.located(wh.db_path(db)) from None
    finally:
        wh.close(con)
    code = lang_of(lang).value
    for path, reason in summary.refused:
        shown = reason.render(code)
        typer.echo(msg("refused", lang, path=path, reason=shown), err=True)
    typer.echo(msg("ingested", lang, matches=summary.matches, events=summary.events, unchanged=summary.unchanged,
                   refused=len(summary.refused), db=wh.db_path(db), **summary.findings))
    # Refusals are reported, not fatal: 1 when some logs were refused, 2 only when none could be taken.
    if not summary.refused:
        raise typer.Exit(0)
    raise typer.Exit(2 if len(summary.refused) == len(files) else 1)


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


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True}, rich_help_panel=PANEL)
def sql(
    ctx: typer.Context,
    statement: Annotated[str, typer.Argument(help="One SELECT; '-' reads it from stdin. Then -p NAME VALUE, "
                                             "repeated: bound as $NAME (a string: cast it in SQL).",
                                             show_default=False)],
    db: DbOpt = None,
    fmt: FormatOpt = DataFormat.table,
    timeout: Annotated[float, typer.Option("--timeout", metavar="SECONDS", min=0,
                                           help="Stop the statement after this long (0: no limit).")
                       ] = 60.0,
    wait: WaitOpt = None,
    lang: LangOpt = None,
) -> None:
    """Run one read-only SELECT on the warehouse (opened read-only, no file access).

    A statement that writes (INSERT, COPY, ATTACH, CREATE …) is refused, exit 2.
    Parameters follow the statement: -p NAME VALUE (or --param NAME VALUE).
    A statement running longer than --timeout (60 s) is stopped, exit 2; Ctrl-C
    stops it at once, exit 130.

    \b
    Examples:
      kifu sql "SELECT game, count(*) FROM matches GROUP BY game"
      kifu sql "SELECT seq, type FROM events WHERE match = $m ORDER BY seq" -p m demo-001 -f csv
      echo "SELECT * FROM randomness WHERE sides = $s::INTEGER" | kifu sql - -p s 6
    """
    from kifu import warehouse as wh

    params = _sql_params(ctx.args, lang)
    text = sys.stdin.read() if statement == "-" else statement
    if not text.strip():
        fail(msg("sql_stdin", lang))
    wh.check_read_only(text)
    con = wh.connect(db, read_only=True, sandbox=True, wait=wait)
    try:
        columns, rows = wh.query(con, text, params, timeout=timeout)
    except KeyboardInterrupt:
        raise Interrupted(msg("sql_interrupted", lang)) from None
    finally:
        wh.close(con)
    print_rows(columns, rows, fmt)


stats_app = typer.Typer(no_args_is_help=True, help="Statistics over the warehouse, with confidence intervals.")
app.add_typer(stats_app, name="stats", rich_help_panel=PANEL)


class Correction(str, Enum):
    holm = "holm"
    bh = "bh"


def _stats_table(summary: str, db: Optional[Path], fmt: DataFormat, **kw: Any) -> None:
    """Run one ``kifu.warehouse.stats`` summary on the read-only warehouse and print its rows."""
    from kifu.warehouse import connect, stats

    con = connect(db, read_only=True)
    try:
        columns, rows = getattr(stats, summary)(con, **kw)
    finally:
        con.close()
    print_rows(columns, rows, fmt)


@stats_app.command("fairness")
def stats_fairness(
    db: DbOpt = None,
    game: GameFilter = None,
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
    from kifu.warehouse import connect, stats

    con = connect(db, read_only=True)
    try:
        rows = stats.fairness(con, game=game, alpha=alpha, correction=correction.value)
    finally:
        con.close()
    rows = [r for r in rows if r.flag or not flagged]
    print_rows(stats.FAIRNESS_COLUMNS, [r.as_row() for r in rows], fmt)


@stats_app.command("winrate")
def stats_winrate(
    db: DbOpt = None,
    game: GameFilter = None,
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
    game: GameFilter = None,
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
    game: GameFilter = None,
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
    game: GameFilter = None,
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


@app.command(rich_help_panel=PANEL)
def export(
    parquet: Annotated[Optional[Path], typer.Option("--parquet", help="Write hive-partitioned Parquet here.")] = None,
    match: Annotated[Optional[str], typer.Option("--match", "-m", help="Write this match's log, byte for byte.")] = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="File for --match (default: stdout).")] = None,
    db: DbOpt = None,
    wait: WaitOpt = None,
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
    from kifu import warehouse as wh

    con = wh.connect(db, read_only=True, wait=wait)
    try:
        data = wh.match_lines(con, match) if match is not None else None
        written = wh.export_parquet(con, parquet) if parquet is not None else {}
    finally:
        con.close()
    if data is not None and output is not None:
        from kifu.events import atomic

        atomic.write_bytes(output, data)
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
