"""`kifu people`: who is who in the warehouse: people, the seats merged into each, a search."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .common import DataFormat, DbOpt, FormatOpt, LangOpt, ParquetOpt, PeopleOpt, msg, print_rows
from .warehouse import PANEL, _reader

app = typer.Typer()

PEOPLE_SQL = """
SELECT person, count(*) AS seats, count(DISTINCT match) AS matches,
       string_agg(DISTINCT game, ', ' ORDER BY game) AS games,
       string_agg(DISTINCT name, ', ' ORDER BY name) AS names,
       string_agg(DISTINCT "key", ', ' ORDER BY "key") AS keys,
       string_agg(DISTINCT via, ', ' ORDER BY via) AS via
FROM people WHERE person IN (SELECT unnest($people::VARCHAR[]))
GROUP BY person ORDER BY person"""

MERGE_SQL = """
SELECT person, name, "key", via, count(*) AS seats, count(DISTINCT match) AS matches,
       string_agg(DISTINCT player, ', ' ORDER BY player) AS seat_ids,
       min(match) AS first_match
FROM people WHERE person IN (SELECT unnest($people::VARCHAR[]))
GROUP BY ALL ORDER BY person, seats DESC, name, "key" NULLS FIRST"""


@app.command(rich_help_panel=PANEL)
def people(
    ctx: typer.Context,
    text: Annotated[
        str | None,
        typer.Argument(
            help="Only people whose name, spelling or key contains this (width, case and spaces ignored).",
            show_default=False,
        ),
    ] = None,
    merge: Annotated[
        bool,
        typer.Option(
            "--merge", help="One row per spelling, key and rule merged into each person, instead of one per person."
        ),
    ] = False,
    db: DbOpt = None,
    parquet: ParquetOpt = None,
    people_file: PeopleOpt = None,
    fmt: FormatOpt = DataFormat.table,
    lang: LangOpt = None,
) -> None:
    """List the people of the warehouse: each seat of each match resolved to a person.

    A seat goes to a person by its stable key (match.start players[].key), else by
    its name with width, case and spaces ignored; the identity file (people.toml
    beside the warehouse, or --people / KIFU_PEOPLE) gathers other aliases under
    one person. `via` says which rule took each seat (docs/sql.md, "People").

    \b
    Examples:
      kifu people                      every person: seats, matches, spellings, keys
      kifu people aoi --merge          what was merged into each person matching "aoi"
      kifu people --people club.toml -f json
    """
    from kifu.warehouse.people import search

    con = _reader(db, parquet, people_file, lang, ctx=ctx)
    try:
        seats = con.execute('SELECT game, match, seat, player, name, "key", person, via FROM people').fetchall()
        chosen = sorted({r[6] for r in search(seats, text)})
        columns, rows = _rows(con, MERGE_SQL if merge else PEOPLE_SQL, chosen)
    finally:
        con.close()
    title = (
        msg("title_merge", lang)
        if merge
        else msg("title_people", lang, people=len(chosen), seats=sum(r[1] for r in rows) if rows else 0)
    )
    print_rows(columns, rows, fmt, title=title)


def _rows(con: Any, sql: str, chosen: list[str]) -> tuple[list[str], list[tuple[Any, ...]]]:
    cur = con.execute(sql, {"people": chosen})
    return [d[0] for d in cur.description], cur.fetchall()
