"""kifu's command line as typer reads it: every command, its help, its usage errors.

``kifu.cli.main`` comes here for every command line but the plain forms of ``kifu verify`` and
``kifu audit`` (``kifu.cli.plain``), which run without importing typer or click.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any
from collections.abc import Sequence

import typer

from kifu.events.base import KifuError  # noqa: F401
from kifu.events.display import visible

from . import _argv_lang, outcome
from .say import echo

GROUPS = {
    "log": ("new", "append", "verify", "repair", "show", "state", "schema"),
    "record": ("record", "slip"),
    "audit": ("audit", "report", "rules"),
    "cards": ("cards",),
    "imports": ("import",),
    "warehouse": ("ingest", "sql", "export", "stats"),
    "people": ("people",),
    "toss": ("toss",),
}
"""Each command group's module (``kifu/cli/<group>.py``) and the commands it holds, in the order ``--help``
lists them (``tests/test_cold_start.py`` checks the table against the modules)."""

_GROUP_OF = {command: group for group, commands in GROUPS.items() for command in commands}
_SETTINGS: dict[str, Any] = dict(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="kifu (棋譜): hash-chained match logs and a ruling auditor for tabletop card games.",
)


class _Kifu(typer.Typer):
    """kifu's command line, its command groups loaded as they are needed (a command's cold start).

    typer builds every command it is given (each parameter's annotations evaluated) before it
    runs one, and each group's module imports what its commands need. Run (``app(args=…)``), it
    builds the command typed alone, from its group's module (``_app``); asked for its commands
    (``typer.main.get_command(app)``, a tool walking them) or run for ``--help``, ``--version``,
    no command or one kifu does not have, it loads every group first.
    """

    def __init__(self) -> None:
        self._all = False
        super().__init__(**_SETTINGS)

    @property
    def registered_groups(self) -> list[Any]:
        if not self._all:
            self._all = True
            import importlib

            for group in GROUPS:
                self._groups.append(typer.models.TyperInfo(importlib.import_module(f"kifu.cli.{group}").app))
        return self._groups

    @registered_groups.setter
    def registered_groups(self, value: list[Any]) -> None:
        self._groups = value

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        argv = kwargs.get("args")
        typed = list(sys.argv[1:] if argv is None else argv)
        group = _GROUP_OF.get(typed[0]) if typed else None
        if group is None:
            return super().__call__(*args, **kwargs)
        return _app(group, typed[0])(*args, **kwargs)


app = _Kifu()


def _app(group: str, command: str) -> typer.Typer:
    """The command line with ``command`` alone (of ``group``'s module), the root's options kept."""
    import importlib

    one = typer.Typer(**_SETTINGS)
    one.callback()(_root)
    part = importlib.import_module(f"kifu.cli.{group}").app
    one.registered_commands += [c for c in part.registered_commands if _name(c) == command]
    one.registered_groups += [g for g in part.registered_groups if g.name == command]
    return one


def _name(info: Any) -> str:
    """The name a command is typed by: its own, or its function's with ``_`` as ``-`` (typer's rule)."""
    return info.name or info.callback.__name__.replace("_", "-")


def _version(value: bool) -> None:
    if value:
        # importlib.metadata costs more to import than most commands take to run: only --version pays it.
        from importlib.metadata import PackageNotFoundError, version

        try:
            echo(f"kifu {version('kifu')}")
        except PackageNotFoundError:  # run from a source tree that was never installed
            echo("kifu (not installed)")
        raise typer.Exit(0)


@app.callback()
def _root(
    show_version: Annotated[
        bool | None,
        typer.Option("--version", help="Print kifu's version and exit.", callback=_version, is_eager=True),
    ] = None,
) -> None:
    """kifu (棋譜): hash-chained match logs and a ruling auditor for tabletop card games."""


def run(typed: list[str]) -> int:
    """``kifu TYPED`` read by typer: the command run, a usage error as one line in the reader's language.

    A usage error (a mistyped option, a missing argument, a value not among the choices) is one
    line in the reader's language, exit 2, never click's usage block; `--help` is in that language
    too. The app raises SystemExit with the command's exit code, which propagates.
    """
    import typer.main
    from typer import _click as click  # typer's own click: it raises these

    group = _GROUP_OF.get(typed[0]) if typed else None
    # The command typed alone, from its group's module (a cold start loads nothing else); the whole
    # command line for the root's help, its version, or a command kifu does not have.
    command = typer.main.get_command(_app(group, typed[0]) if group else app)
    args = _old_spellings(command, typed)
    if _wants_help(args):
        from .helptext import localise

        localise(command, _argv_lang(args).value)
    try:
        return outcome(lambda: command.main(args=args, prog_name="kifu", standalone_mode=False), args)
    except click.exceptions.NoArgsIsHelpError as exc:  # `kifu stats`: the group's help, as asked
        echo(exc.ctx.get_help(), err=True)
        return 2
    except click.ClickException as exc:
        from .usage import line, typed_command

        said = line(exc, _argv_lang(args), typed_command(command, args))
        echo(f"kifu: error: {visible(said, lines=False)}", err=True)
        return 2
    except click.exceptions.Abort:
        echo("kifu: interrupted", err=True)
        return 130


OLD_SPELLINGS = {
    "kifu append": {"-r": "--roll"},
    "kifu toss commit": {"-r": "--roll", "-p": "--for"},
    "kifu toss reveal": {"-r": "--roll"},
    "kifu toss check": {"-r": "--roll"},
}
"""Short options that meant something else before each short option got one meaning across commands (README,
"Options"): still read where the command has no option they now stand for (`kifu sql -p` is read by sql)."""


def _old_spellings(root: object, args: list[str]) -> list[str]:
    """``args`` with a command's old short options written as their long names (up to a ``--``)."""
    if not args or f"kifu {args[0]}" not in {" ".join(k.split()[:2]) for k in OLD_SPELLINGS}:
        return args  # most commands: nothing to rewrite, and nothing more imported
    from .usage import typed_command

    old = OLD_SPELLINGS.get(typed_command(root, args))
    if not old:
        return args
    out: list[str] = []
    for i, arg in enumerate(args):
        if arg == "--":
            return out + args[i:]
        short = arg[:2]
        if short in old and (arg == short or not arg.startswith("--")):
            out.append(old[short] if arg == short else f"{old[short]}={arg[2:]}")
        else:
            out.append(arg)
    return out


def _wants_help(args: Sequence[str]) -> bool:
    """Whether click will print a help text: --help asked for, or a group called with nothing to run."""
    return "--help" in args or not [a for a in args if not a.startswith("-")] or args[-1] in ("stats", "toss")
