"""The import command: a chat or client export from online play into a new log."""

from __future__ import annotations

import os
from enum import Enum
from pathlib import Path
from typing import Annotated, Any
from collections.abc import Callable

import msgspec
import typer

from kifu.events import atomic

from . import progress as bars
from .common import (
    GameOpt,
    Lang,
    LangOpt,
    RuleOpt,
    SummaryFormat,
    SummaryOpt,
    echo,
    fail,
    lang_of,
    msg,
    pairs,
    players,
    print_summary,
)
from .progress import Bar

app = typer.Typer()
PANEL = "Importing online play"


class ImportFrom(str, Enum):
    auto = "auto"
    ccfolia = "ccfolia"
    udonarium = "udonarium"
    discord = "discord"
    cockatrice = "cockatrice"
    arena = "arena"


@app.command("import", rich_help_panel=PANEL)
def import_(
    source: Annotated[
        Path,
        typer.Argument(
            help="The export: CCFOLIA .html/.json, Udonarium .xml/.zip, "
            "Discord .json/.txt, Cockatrice log, Arena Player.log.",
            show_default=False,
        ),
    ],
    output: Annotated[
        Path, typer.Option("--output", "-o", help="The new log to write (never overwritten).", show_default=False)
    ],
    from_: Annotated[ImportFrom, typer.Option("--from", help="The source format; auto detects it.")] = ImportFrom.auto,
    game: GameOpt = "generic",
    map_: Annotated[
        str | None,
        typer.Option(
            "--map",
            help="Mapping file (TOML): commands and rolls to game events; "
            "or a game id for the game's own (--map gunandgun).",
        ),
    ] = None,
    match: Annotated[str | None, typer.Option("--match", "-m", help="Match id (default: from the source).")] = None,
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player", "-p", help="Player as id=Name (Name as the source shows it); repeat. Default: every speaker."
        ),
    ] = None,
    report_: Annotated[Path | None, typer.Option("--report", help="Also write the import report as JSON here.")] = None,
    rule: RuleOpt = None,
    system: Annotated[
        str | None,
        typer.Option(
            "--system",
            help="BCDice game system id (Cthulhu7th, SwordWorld2.5 …) of rolls whose export records none (CCFOLIA).",
            show_default=False,
        ),
    ] = None,
    fmt: SummaryOpt = SummaryFormat.text,
    lang: LangOpt = None,
) -> None:
    """Import a chat or client log from online play into a new kifu/1 log.

    Every message becomes an event: rolls become `random` events, commands in
    the chat notation become game events through --map, everything else a note.
    The report (stderr) counts them and lists what could not be read; -f json
    prints it on stdout instead, as one object (the log written, then the
    fields of --report's file), -f jsonl as one line.

    --map names a mapping file, or a game id for the notation the game ships
    (docs/notation.md: the same one `kifu record` reads).

    \b
    Examples:
      kifu import room.html -o m1.jsonl --game gunandgun --map gunandgun -p a=ミナト -p b=ユキ
      kifu import coc-room.html -o s1.jsonl --system Cthulhu7th
    """
    rules = pairs(rule or [], lang)
    from kifu.events import importers

    if os.path.lexists(output):
        fail(msg("import_exists", lang, path=output))
    if report_ is not None:
        atomic.check_output(report_)  # before the log is made: a refused report name leaves nothing behind
    given = players(player or [], lang, names_required=True)
    map_text, map_name = _map_text(map_, lang) if map_ is not None else (None, "")
    with bars.progress(bars.size(source), msg("progress_source", lang), bars.BIG_SOURCE) as bar:
        rep = importers.import_file(
            source,
            output,
            fmt=from_.value,
            game=game,
            map_text=map_text,
            map_name=map_name,
            match=match,
            players=given,
            rules=rules,
            progress=_import_stages(bar, lang),
            system=system,
        )
    if fmt is SummaryFormat.text:
        for line in _import_lines(rep, output, lang):
            echo(line, err=True)
    else:
        print_summary({"log": str(output), **msgspec.to_builtins(rep)}, fmt)
    if report_ is not None:
        atomic.write_bytes(report_, msgspec.json.format(msgspec.json.encode(rep), indent=2) + b"\n")


def _map_text(value: str, lang: Lang | None) -> tuple[str, str]:
    """The mapping's text and name: a game's own for a bare game id (no file of that name here), else the file."""
    import kifu.games
    from kifu.events import importers

    if value in kifu.games.GAMES and not os.path.exists(value):
        found = importers.map_source(value)
        if found is None:
            fail(msg("import_map_unreadable", lang, path=value, reason="this game ships no mapping"))
        return found
    try:
        return Path(value).read_text(encoding="utf-8"), value
    except (OSError, UnicodeDecodeError) as exc:
        fail(msg("import_map_unreadable", lang, path=value, reason=getattr(exc, "strerror", None) or exc))


def _import_stages(bar: Bar, lang: Lang | None) -> Callable[[str, list[Any] | None], Any] | None:
    """The importer's stages on the bar: reading pulses (the readers parse the export at
    once); then "writing events" counts the messages, each converted and written in turn."""
    if not bar.live:
        return None
    labels = {"read": "progress_source", "convert": "progress_write"}

    def stage(name: str, items: list[Any] | None) -> Any:
        bar.phase(msg(labels[name], lang), None if items is None else len(items))
        return items if items is None else bar.counted(items, 0, len(items))

    return stage


def _import_lines(rep: Any, output: Path, lang: Lang | None) -> list[str]:
    lines = [
        msg(
            "import_done",
            lang,
            path=output,
            format=rep.format,
            messages=rep.messages,
            events=rep.events,
            game=rep.game_events,
            random=rep.random,
            notes=rep.notes,
            head=rep.head,
        ),
        msg("import_players", lang, players=", ".join(rep.players) or "-", match=rep.match),
    ]
    if rep.unread_results:
        lines.append(msg("import_unread", lang, count=rep.unread_results))
    if rep.maybe_results:
        lines.append(msg("import_maybe", lang, count=rep.maybe_results))
    if rep.secret or rep.hidden:
        other = rep.secret - rep.secret_read - rep.secret_unread
        lines.append(
            msg(
                "import_secret",
                lang,
                secret=rep.secret,
                read=rep.secret_read,
                hidden=rep.hidden,
                unread=rep.secret_unread,
                other=other,
            )
        )
    if rep.rng or rep.rng_quotes:
        lines.append(msg("import_rng", lang, tokens=rep.rng, quotes=rep.rng_quotes))
    code = lang_of(lang).value
    lines.extend(msg("import_refused", lang, loc=i.loc, what=i.render(code)) for i in rep.refused)
    for key, items in (
        ("import_unreadable", rep.unreadable),
        ("import_unmapped", rep.unmapped),
        ("import_failed", rep.failed),
    ):
        lines.extend(msg(key, lang, loc=i.loc, what=i.render(code)) for i in items)
    if rep.edited:
        lines.append(msg("import_edited", lang, count=len(rep.edited), locs=", ".join(rep.edited[:10])))
    if rep.unattributed:
        names = ", ".join(f"{n} ({c})" for n, c in rep.unattributed.items())
        lines.append(msg("import_unattributed", lang, names=names))
    if rep.skipped_lines:
        lines.append(msg("import_skipped", lang, count=rep.skipped_lines))
    lines.extend(msg("import_remark", lang, text=r.render(code)) for r in rep.remarks)
    return lines
