"""The card command: a game's built-in catalogue, or one card in full.

Each game with cards declares what is shown in its own ``listing.py`` (kifu/events/cardview.py
has the shapes); this module only prints it, so a new game brings its own listing.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
import typer

from kifu.events import table
from kifu.events.cardview import Entry, closest

from .common import (
    echo,
    DataFormat,
    FormatOpt,
    GameOpt,
    LangOpt,
    fail,
    lang_of,
    msg,
    print_json,
    print_jsonl,
    print_rows,
)

app = typer.Typer()


@app.command(rich_help_panel="Judging")
def cards(
    name: Annotated[str | None, typer.Argument(help="A card, gun, gunner, skill or trigger to show in full.")] = None,
    game: GameOpt = "gunandgun",
    fmt: FormatOpt = DataFormat.table,
    lang: LangOpt = None,
) -> None:
    """List a game's built-in card catalogue, or show one card with every number the auditor uses.

    A name that matches nothing suggests the closest accepted names (exit 2).

    Examples: kifu cards -g gunandgun     kifu cards -g gunandgun 計略 --lang ja     kifu cards -g mtg "ral zarek" -f json
    """
    if not table.has_part(game, "listing"):
        fail(msg("cards_none", lang, game=game))
    view = table.part(game, "listing")
    code = lang_of(lang).value
    if name is None:
        sections = view.listing(code)
        if fmt is DataFormat.json:
            print_json([msgspec.to_builtins(s) for s in sections])
            return
        if fmt is DataFormat.jsonl:  # one section a line
            for s in sections:
                print_jsonl(msgspec.to_builtins(s))
            return
        for i, s in enumerate(sections):
            if fmt is DataFormat.md:
                echo(("\n" if i else "") + f"## {s.title}\n")
            elif fmt is DataFormat.csv and i:
                echo("")
            print_rows(s.columns, s.rows, fmt, title=s.title if fmt is DataFormat.table else None)
        return
    entry = view.describe(name, code)
    if entry is None:
        near = closest(name, view.forms())
        fail(msg("cards_unknown", lang, name=name, game=game, near=", ".join(near) or "—"))
    show(entry, fmt)


def show(entry: Entry, fmt: DataFormat) -> None:
    """One card: its labelled lines, then its tables (JSON: the catalogue entry as stored)."""
    if fmt in (DataFormat.json, DataFormat.jsonl):
        (print_json if fmt is DataFormat.json else print_jsonl)(entry.data)
        return
    if fmt is DataFormat.md:
        echo(f"### {entry.name} ({entry.kind})\n")
    print_rows(
        ["", entry.name], entry.lines, fmt, title=f"{entry.name} ({entry.kind})" if fmt is DataFormat.table else None
    )
    for t in entry.tables:
        echo("")
        if fmt is DataFormat.md:
            echo(f"{t.title}:\n")
        print_rows(t.columns, t.rows, fmt, title=t.title if fmt is DataFormat.table else None)
