"""Warehouse commands: ingest, sql, stats, export."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any
from collections.abc import Sequence

import typer

from kifu.events.base import KifuError
from kifu.events.display import json_safe

from . import progress as bars
from .common import (
    echo,
    DataFormat,
    DbOpt,
    FormatOpt,
    GameFilter,
    Interrupted,
    JobsOpt,
    Lang,
    LangOpt,
    ParquetOpt,
    PeopleOpt,
    SummaryFormat,
    SummaryOpt,
    WaitOpt,
    fail,
    jobs_of,
    lang_of,
    msg,
    print_rows,
    print_summary,
)

app = typer.Typer()
PANEL = "Warehouse (many matches)"


@app.command(rich_help_panel=PANEL)
def ingest(
    paths: Annotated[
        list[str],
        typer.Argument(
            help="Match logs, or folders searched for *.jsonl; with --cluster "
            "also object URLs (s3://bucket/prefix/, via fsspec).",
            show_default=False,
        ),
    ],
    db: DbOpt = None,
    jobs: JobsOpt = None,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            help="Run on a Dask cluster: a scheduler address (tcp://scheduler:8786) or local:N (N local "
            "worker processes); needs --parquet and the extra kifu[cluster].",
            show_default=False,
        ),
    ] = None,
    parquet: Annotated[
        str | None,
        typer.Option(
            "--parquet",
            help="With --cluster: the hive-partitioned Parquet dataset to write (a folder, or a URL the "
            "workers can write).",
            show_default=False,
        ),
    ] = None,
    people_file: PeopleOpt = None,
    wait: WaitOpt = None,
    fmt: SummaryOpt = SummaryFormat.text,
    lang: LangOpt = None,
) -> None:
    """Verify, audit and load match logs into the DuckDB warehouse (or, on a cluster, a Parquet dataset).

    A log that does not verify, or a different log for a match already stored
    (a fork, shown with both heads), is refused and reported; the others are
    loaded. Loading the same log again changes nothing. Exit 0 when every log
    was taken (stored, or already stored unchanged), 1 when some were refused,
    2 when none could be. If the disk fills, the batch being loaded is rolled back
    (one line says so) and running the same ingest again completes it. One process
    writes the warehouse at a time: a second one waits (--wait) for the first.

    -j N verifies and audits N logs at a time in N worker processes (default:
    every core this process may use; -j 1: none); this process alone writes the
    warehouse, in the order of the files, so what is stored is the same.

    -f json prints what was done as one object (db, logs, matches, events,
    unchanged, findings by severity, refused: each log and why); -f jsonl as one line.

    --cluster ADDRESS --parquet OUT runs the same verify and audit on a Dask
    cluster's workers and writes the warehouse's tables as Parquet
    (OUT/<table>/game=…/month=…/), which kifu sql and kifu stats read with
    --parquet OUT (docs/scale.md).

    \b
    Examples:
      kifu ingest fixtures/ matches/2026-11/ --db club.duckdb
      kifu ingest fixtures/ -j 2 --db club.duckdb
      kifu ingest fixtures/ --cluster local:2 --parquet out/
      kifu ingest s3://league/logs/ --cluster tcp://scheduler:8786 --parquet s3://league/warehouse/
    """
    from kifu import warehouse as wh
    from kifu.warehouse.ingest import checkers

    workers = jobs_of(jobs, lang)
    if (cluster is None) != (parquet is None):
        fail(msg("cluster_parquet", lang))
    if cluster is not None and db is not None:
        fail(msg("cluster_db", lang))
    if cluster is not None:
        identity = _named_identity(parquet or "", people_file)
        summary, total, where = _ingest_cluster(paths, cluster, parquet or "", identity, lang)
    else:
        files = wh.log_paths(paths)
        if not files:
            fail(msg("no_logs", lang, paths=" ".join(map(str, paths))))
        identity = wh.people.identity_for(wh.db_path(db), people_file)
        ready = checkers(files, workers)  # forked before DuckDB's threads run (one writer: this process)
        try:
            con = wh.connect(db, wait=wait)
            try:
                with bars.progress(len(files), msg("progress_ingest", lang), bars.MANY) as bar:
                    summary = wh.ingest(
                        con,
                        files,
                        jobs=workers,
                        identity=identity,
                        progress=lambda done, total, ev: bar.update(
                            done, note=msg("progress_ingested", lang, done=done, total=total, events=ev)
                        ),
                        ready=ready,
                    )
            except KifuError as exc:
                raise exc.located(wh.db_path(db)) from None
            finally:
                wh.close(con)
        finally:
            if ready is not None:
                ready.close()
        total, where = len(files), wh.db_path(db)
    code = lang_of(lang).value
    for path, reason in summary.refused:
        shown = reason.render(code)
        echo(msg("refused", lang, path=path, reason=shown), err=True)
    if fmt is not SummaryFormat.text:
        print_summary(
            {
                "db": str(where),
                "logs": total,
                "matches": summary.matches,
                "events": summary.events,
                "unchanged": summary.unchanged,
                "findings": dict(summary.findings),
                "refused": [{"log": str(path), "reason": reason.render(code)} for path, reason in summary.refused],
            },
            fmt,
        )
    else:
        _ingested(summary, where, lang)
    # Refusals are reported, not fatal: 1 when some logs were refused, 2 only when none could be taken.
    if not summary.refused:
        raise typer.Exit(0)
    raise typer.Exit(2 if len(summary.refused) == total else 1)


def _ingested(summary: Any, where: Any, lang: Lang | None) -> None:
    """The line `kifu ingest` ends with: what it stored, left unchanged and refused, and where."""
    echo(
        msg(
            "ingested",
            lang,
            matches=summary.matches,
            events=summary.events,
            unchanged=summary.unchanged,
            refused=len(summary.refused),
            db=where,
            **summary.findings,
        )
    )


def _named_identity(out: str, people_file: Path | None) -> Any:
    """The identity file a cluster ingest's new version carries: the one named (--people, KIFU_PEOPLE; it must
    exist), else people.toml in a local dataset's folder; None: the previous version's."""
    from kifu.warehouse import people
    from kifu.warehouse.cluster import is_url

    if people.named_identity(people_file) is None and (is_url(out) or not people.beside(Path(out)).is_file()):
        return None
    return people.identity_for(Path(out), people_file)


def _ingest_cluster(paths: list[str], address: str, out: str, identity: Any, lang: Lang | None) -> tuple[Any, int, str]:
    """`kifu ingest --cluster`: (the summary, logs in all, the dataset written)."""
    from kifu.warehouse import cluster

    files = cluster.sources(paths)
    if not files:
        fail(msg("no_logs", lang, paths=" ".join(map(str, paths))))
    # The cluster first: local:N forks its workers while this process runs one thread (a bar runs one more).
    with (
        cluster.connect(address, cluster.game_modules(files)) as client,
        bars.progress(len(files), msg("progress_ingest", lang), bars.MANY) as bar,
    ):
        summary = cluster.run(
            client,
            files,
            out,
            identity=identity,
            progress=lambda done, total, ev: bar.update(
                done, note=msg("progress_ingested", lang, done=done, total=total, events=ev)
            ),
        )
    return summary, len(files), out


def _sql_params(extra: Sequence[str], lang: Lang | None) -> dict[str, str]:
    """`--param NAME VALUE` pairs (typer has no repeatable two-value option, so click hands them over raw); the
    old spelling `-p NAME VALUE` is still read (sql has no player for -p to mean)."""
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
    statement: Annotated[
        str,
        typer.Argument(
            help="One SELECT; '-' reads it from stdin. Then --param NAME VALUE, "
            "repeated: bound as $NAME (a string: cast it in SQL).",
            show_default=False,
        ),
    ],
    db: DbOpt = None,
    parquet: ParquetOpt = None,
    people_file: PeopleOpt = None,
    fmt: FormatOpt = DataFormat.table,
    timeout: Annotated[
        float,
        typer.Option("--timeout", metavar="SECONDS", min=0, help="Stop the statement after this long (0: no limit)."),
    ] = 60.0,
    wait: WaitOpt = None,
    lang: LangOpt = None,
) -> None:
    """Run one read-only SELECT on the warehouse (opened read-only, no file access).

    --parquet DIR queries a Parquet dataset in place instead (the same tables and
    views; file access limited to DIR).

    A statement that writes (INSERT, COPY, ATTACH, CREATE …) is refused, exit 2.
    Parameters follow the statement: --param NAME VALUE (the old -p NAME VALUE
    still works here; elsewhere -p is a player).
    A statement running longer than --timeout (60 s) is stopped, exit 2; Ctrl-C
    stops it at once, exit 130.

    \b
    Examples:
      kifu sql "SELECT game, count(*) FROM matches GROUP BY game"
      kifu sql "SELECT seq, type FROM events WHERE match = $m ORDER BY seq" --param m demo-001 -f csv
      echo "SELECT * FROM randomness WHERE sides = $s::INTEGER" | kifu sql - --param s 6
      kifu sql "SELECT person, count(*) FROM players GROUP BY ALL" --parquet out/
    """
    from kifu import warehouse as wh

    params = _sql_params(ctx.args, lang)
    text = sys.stdin.read() if statement == "-" else statement
    if not text.strip():
        fail(msg("sql_stdin", lang))
    wh.check_read_only(text)
    con = _reader(db, parquet, people_file, lang, ctx=ctx, sandbox=True, wait=wait)
    try:
        columns, rows = wh.query(con, text, params, timeout=timeout)
    except KeyboardInterrupt:
        raise Interrupted(msg("sql_interrupted", lang)) from None
    finally:
        wh.close(con)
    print_rows(columns, rows, fmt)


stats_app = typer.Typer(
    no_args_is_help=True,
    help="Statistics over the warehouse (or a Parquet dataset), per person, with confidence intervals.",
)
app.add_typer(stats_app, name="stats", rich_help_panel=PANEL)


class Correction(str, Enum):
    holm = "holm"
    bh = "bh"


class By(str, Enum):
    person = "person"
    seat = "seat"


ByOpt = Annotated[
    By,
    typer.Option(
        "--by",
        help='person (seats resolved to people, docs/sql.md "People") or '
        "seat (a seat id such as p1 across matches: the old view).",
    ),
]
LevelOpt = Annotated[float, typer.Option(help="Confidence level of the intervals.")]


@stats_app.callback()
def _stats(
    ctx: typer.Context,
    parquet: ParquetOpt = None,
) -> None:
    """Statistics over the warehouse (or a Parquet dataset), per person, with confidence intervals.

    Example: kifu stats fairness --flagged   (or: kifu stats --parquet out/ fairness)
    """
    ctx.obj = {"parquet": parquet}


def _parquet(ctx: typer.Context, parquet: Path | None) -> Path | None:
    """The subcommand's --parquet, else the group's (kifu stats --parquet DIR fairness)."""
    return parquet or (ctx.obj or {}).get("parquet")


def _identity(db: Path | None, people_file: Path | None) -> Any:
    """The warehouse's identity file (``people.identity_for``: a file named but missing is an error)."""
    from kifu import warehouse as wh

    return wh.people.identity_for(wh.db_path(db), people_file)


def _from_environment(ctx: typer.Context | None, name: str) -> bool:
    """True when the command's option ``name`` was set by its environment variable, not typed."""
    source = ctx.get_parameter_source(name) if ctx is not None else None
    return source is not None and source.name == "ENVIRONMENT"


def _reader(
    db: Path | None,
    parquet: Path | None,
    people_file: Path | None,
    lang: Lang | None,
    *,
    ctx: typer.Context | None = None,
    sandbox: bool = False,
    wait: float | None = None,
) -> Any:
    """A read-only connection: the warehouse file (people brought up to date) or a Parquet dataset.

    ``ctx`` (the command's) tells a --db typed from one KIFU_DB set: --parquet beats the latter."""
    from kifu import warehouse as wh

    if parquet is not None and db is not None:
        if not _from_environment(ctx, "db"):
            fail(msg("parquet_and_db", lang))
        db = None  # an option typed beats the environment: --parquet with KIFU_DB set reads the dataset
    if parquet is not None:
        from kifu.warehouse.dataset import open_dataset

        return open_dataset(parquet, people_file=people_file)
    return wh.open_read(db, _identity(db, people_file), sandbox=sandbox, wait=wait)


def _level(level: float) -> str:
    return f"{level:.0%}"


def _stats_table(
    summary: str,
    title: str,
    ctx: typer.Context,
    db: Path | None,
    parquet: Path | None,
    people_file: Path | None,
    fmt: DataFormat,
    lang: Lang | None,
    **kw: Any,
) -> None:
    """Run one ``kifu.warehouse.stats`` summary on the read-only warehouse and print its rows under a title."""
    from kifu.warehouse import stats

    con = _reader(db, _parquet(ctx, parquet), people_file, lang, ctx=ctx)
    try:
        columns, rows = getattr(stats, summary)(con, **kw)
    finally:
        con.close()
    print_rows(columns, rows, fmt, title=title)


@stats_app.command("fairness")
def stats_fairness(
    ctx: typer.Context,
    db: DbOpt = None,
    parquet: ParquetOpt = None,
    people_file: PeopleOpt = None,
    game: GameFilter = None,
    by: ByOpt = By.person,
    alpha: Annotated[float, typer.Option(help="Flag when the corrected p-value is below this.")] = 0.01,
    correction: Annotated[Correction, typer.Option(help="Across people: holm (FWER) or bh (FDR).")] = Correction.holm,
    level: LevelOpt = 0.95,
    flagged: Annotated[bool, typer.Option("--flagged", help="Only the rows flagged for a judge's look.")] = False,
    fmt: FormatOpt = DataFormat.table,
    lang: LangOpt = None,
) -> None:
    """Each person's recorded randomness against its declared distribution.

    Coins: exact binomial against 1/2; dice: chi-square against uniform (chi2 on
    df = sides − 1); run lengths N: exact negative binomial against
    Geometric(1/2). Each row has n, the effect size with its interval, p, the
    correction applied across people (p_adj) and a verdict: flag (p_adj below
    --alpha: worth a judge's look, not proof), or "too few" (n below the test's
    least n: no p-value). Only outcomes uniform by construction are tested
    (a D66 as two d6 faces; docs/sql.md), and none a log.void took back (their
    number is said on stderr). Tables and Markdown print one titled
    section per test; CSV and JSON one row per test and person with every column.

    Example: kifu stats fairness -g gunandgun --correction bh --flagged
    """
    from kifu.warehouse import stats

    con = _reader(db, _parquet(ctx, parquet), people_file, lang, ctx=ctx)
    try:
        rows = stats.fairness(con, game=game, alpha=alpha, correction=correction.value, by=by.value, level=level)
        left_out = stats.voided(con, game=game)
    finally:
        con.close()
    if left_out:  # on stderr: JSON and CSV on stdout stay one row per test
        echo(msg("fairness_voided", lang, voided=left_out), err=True)
    rows = [r for r in rows if r.flag or not flagged]
    who = "person" if by is By.person else "player"
    columns = [who if c == "person" else c for c in stats.FAIRNESS_COLUMNS]
    if fmt in (DataFormat.json, DataFormat.jsonl, DataFormat.csv):
        print_rows(columns, [r.as_row() for r in rows], fmt)
        return
    if not rows:
        echo(msg("no_fairness", lang), err=True)
    sections: dict[tuple[str, bool | None], list[Any]] = {}
    for r in rows:
        sections.setdefault((r.test, r.verifiable), []).append(r)
    for i, group in enumerate(sections.values()):
        if i:
            echo("")
        print_rows(
            [who if c == "person" else c for c in stats.SECTION_COLUMNS[group[0].kind]],
            [_section_row(r, lang) for r in group],
            fmt,
            title=_fairness_title(group, by, correction, level, lang),
        )


def _section_row(r: Any, lang: Lang | None) -> list[Any]:
    from kifu.warehouse import stats

    values = r.as_dict()
    values["p"] = msg("too_few", lang) if r.p is None else values["p"]
    values["verdict"] = {stats.FLAG: msg("flag", lang), stats.TOO_FEW: f"n < {r.min_n}"}.get(r.verdict, "")
    return [values[c] for c in stats.SECTION_COLUMNS[r.kind]]


def _fairness_title(group: list[Any], by: By, correction: Correction, level: float, lang: Lang | None) -> str:
    first = group[0]
    kw = {
        "by": msg(f"by_{by.value}", lang),
        "level": _level(level),
        "correction": msg(f"correction_{correction.value}", lang, m=first.family),
    }
    if first.kind == "die":
        title = msg("title_die", lang, sides=first.df + 1, df=first.df, min_n=first.min_n, **kw)
    else:
        title = msg(f"title_{first.kind}", lang, **kw)
    if first.verifiable is None:  # run lengths pool verifiable and trusted tosses
        return title
    return title + msg("outcomes_verifiable" if first.verifiable else "outcomes_trusted", lang)


@stats_app.command("winrate")
def stats_winrate(
    ctx: typer.Context,
    db: DbOpt = None,
    parquet: ParquetOpt = None,
    people_file: PeopleOpt = None,
    game: GameFilter = None,
    by: ByOpt = By.person,
    by_game: Annotated[bool, typer.Option("--by-game", help="One row per person and game.")] = False,
    level: LevelOpt = 0.95,
    fmt: FormatOpt = DataFormat.table,
    lang: LangOpt = None,
) -> None:
    """Win rate per person (decided matches only) with a Wilson confidence interval.

    Example: kifu stats winrate --by-game -f md
    """
    _stats_table(
        "winrate",
        msg("title_winrate", lang, by=msg(f"by_{by.value}", lang), level=_level(level)),
        ctx,
        db,
        parquet,
        people_file,
        fmt,
        lang,
        game=game,
        by_game=by_game,
        by=by.value,
        level=level,
    )


@stats_app.command("seats")
def stats_seats(
    ctx: typer.Context,
    db: DbOpt = None,
    parquet: ParquetOpt = None,
    game: GameFilter = None,
    level: LevelOpt = 0.95,
    fmt: FormatOpt = DataFormat.table,
    lang: LangOpt = None,
) -> None:
    """Win rate by seat (seat 1 is listed first in match.start) per game, with Wilson intervals.

    Example: kifu stats seats -g weiss
    """
    _stats_table(
        "seats",
        msg("title_seats", lang, level=_level(level)),
        ctx,
        db,
        parquet,
        None,
        fmt,
        lang,
        game=game,
        level=level,
    )


@stats_app.command("rules")
def stats_rules(
    ctx: typer.Context,
    db: DbOpt = None,
    parquet: ParquetOpt = None,
    game: GameFilter = None,
    level: LevelOpt = 0.95,
    fmt: FormatOpt = DataFormat.table,
    lang: LangOpt = None,
) -> None:
    """Per rule: the share of matches with at least one finding of it, with Wilson intervals.

    Example: kifu stats rules -g gunandgun -f md
    """
    _stats_table(
        "rule_rates",
        msg("title_rules", lang, level=_level(level)),
        ctx,
        db,
        parquet,
        None,
        fmt,
        lang,
        game=game,
        level=level,
    )


def _stats_parts() -> list[Any]:
    """Every game's ``stats`` part (found through the game table: the warehouse is not imported to build the
    commands, only to run one)."""
    from kifu.events import table

    return [table.part(g, "stats") for g in table.ids() if table.has_part(g, "stats")]


def _build_keys() -> Any:
    """--by of ``kifu stats builds``: every game's build keys (its ``stats`` part's ``BUILDS``)."""
    keys = [k for part in _stats_parts() for k in getattr(part, "BUILDS", {})]
    return Enum("BuildKey", {k: k for k in keys}, type=str)


BuildKey = _build_keys()
FIRST_BUILD = next(iter(BuildKey))


@stats_app.command("builds")
def stats_builds(
    ctx: typer.Context,
    db: DbOpt = None,
    parquet: ParquetOpt = None,
    by: Annotated[
        BuildKey,  # type: ignore[valid-type]  # an Enum made at import of the games' statistics
        typer.Option("--by", help="A build: " + ", ".join(k.value for k in BuildKey) + " (each game's own)."),
    ] = FIRST_BUILD,
    level: LevelOpt = 0.95,
    fmt: FormatOpt = DataFormat.table,
    lang: LangOpt = None,
) -> None:
    """Win rate per build (a gunner, gun pair or trigger set), with Wilson intervals; mirror matches counted apart.

    Example: kifu stats builds --by guns -f md
    """
    _stats_table(
        "builds",
        msg("title_builds", lang, build=by.value, level=_level(level)),  # type: ignore[attr-defined]  # a BuildKey
        ctx,
        db,
        parquet,
        None,
        fmt,
        lang,
        by=by.value,  # type: ignore[attr-defined]  # a BuildKey
        level=level,
    )


@stats_app.command("first")
def stats_first(
    ctx: typer.Context,
    db: DbOpt = None,
    parquet: ParquetOpt = None,
    game: GameFilter = None,
    level: LevelOpt = 0.95,
    fmt: FormatOpt = DataFormat.table,
    lang: LangOpt = None,
) -> None:
    """First-player advantage per game: the first player's win rate, Wilson interval, exact p against 1/2.

    Example: kifu stats first -f csv
    """
    _stats_table(
        "first_player",
        msg("title_first", lang, level=_level(level)),
        ctx,
        db,
        parquet,
        None,
        fmt,
        lang,
        game=game,
        level=level,
    )


def _game_stat(name: str, stat: dict[str, Any]) -> None:
    """``kifu stats <name>``: one statistic of a game's ``stats`` part (its SQL, its rate, its title and help)."""

    def command(
        ctx: typer.Context,
        db: DbOpt = None,
        parquet: ParquetOpt = None,
        level: LevelOpt = 0.95,
        fmt: FormatOpt = DataFormat.table,
        lang: LangOpt = None,
    ) -> None:
        title = msg(stat["title"], lang, level=_level(level))
        _stats_table("rate", title, ctx, db, parquet, None, fmt, lang, stat=stat, level=level)

    command.__doc__ = stat["help"]
    stats_app.command(name)(command)


def _game_stats() -> None:
    for part in _stats_parts():
        for name, stat in getattr(part, "STATS", {}).items():
            _game_stat(name, stat)


_game_stats()


@app.command(rich_help_panel=PANEL)
def export(
    parquet: Annotated[Path | None, typer.Option("--parquet", help="Write hive-partitioned Parquet here.")] = None,
    match: Annotated[str | None, typer.Option("--match", "-m", help="Write this match's log, byte for byte.")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="File for --match (default: stdout).")] = None,
    db: DbOpt = None,
    people_file: PeopleOpt = None,
    wait: WaitOpt = None,
    fmt: SummaryOpt = SummaryFormat.text,
    lang: LangOpt = None,
) -> None:
    """Export the warehouse as Parquet (DIR/<table>/game=…/month=…/), or one match's original log.

    \b
    Examples:
      kifu export --parquet out/          (matches, events, findings, random_outcomes, run_lengths;
                                          DuckDB, Spark or Trino read it; so does kifu sql --parquet out/)
      kifu export --match demo-001 -o demo.jsonl && kifu verify demo.jsonl
      kifu export --parquet out/ -f json      ({"parquet", "tables": {table: rows}})
    """
    if (parquet is None) == (match is None):
        fail(msg("export_what", lang))
    if fmt is not SummaryFormat.text and match is not None and output is None:
        fail(msg("export_json_output", lang))  # stdout holds the log itself
    from kifu import warehouse as wh

    identity = _identity(db, people_file) if parquet is not None else None
    con = wh.connect(db, read_only=True, wait=wait)
    try:
        data = wh.match_lines(con, match) if match is not None else None
        written = wh.export_parquet(con, parquet, identity) if parquet is not None else {}
    finally:
        con.close()
    if data is not None and output is not None:
        from kifu.events import atomic

        atomic.write_bytes(output, data)
        echo(msg("wrote", lang, path=output), err=True)
    elif data is not None:
        # Bytes, not text: the exported log must verify byte for byte.
        out = getattr(sys.stdout, "buffer", None)
        if out is None or sys.stdout.isatty():
            # On a terminal, the log's lines with their control and bidi characters as JSON escapes:
            # the same events, nothing that acts on the terminal (a pipe or a file gets the bytes).
            echo(json_safe(data.decode()), nl=False, data=True)
        else:
            out.write(data)
    if fmt is not SummaryFormat.text:
        done = (
            {"parquet": str(parquet), "tables": dict(written)}
            if parquet is not None
            else {"match": match, "output": str(output), "bytes": len(data or b"")}
        )
        print_summary(done, fmt)
        return
    for name, rows in written.items():
        echo(msg("exported", lang, out=parquet, name=name, rows=rows))
