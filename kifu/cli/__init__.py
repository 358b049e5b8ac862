"""kifu's command line: parsing, printing and exit codes; no game logic.

One module per command group, each a small typer app merged into ``app``:
``log`` (new, append, verify, repair, show, state, schema), ``record`` (record,
slip), ``audit`` (audit, report, rules), ``cards`` (a game's card catalogue), ``imports``
(import), ``warehouse`` (ingest, sql, stats, export), ``people`` (people) and ``toss`` (toss
commit, nonce, reveal, check). What they share (options declared once, messages, printing) is in
``common``, the progress bars in ``progress``.

Exit codes (DESIGN.md contract 5): 0 clean, 1 findings of error severity,
2 a usage error or a log that cannot be trusted (one line on stderr, never a
traceback). Commands that do not touch DuckDB never import it.
"""

from __future__ import annotations

import sys
from typing import Annotated
from collections.abc import Sequence

import typer

from kifu.events.base import KifuError
from kifu.events.display import visible

from . import audit, cards, imports, log, people, record, toss, warehouse
from .common import Interrupted, Lang, default_lang, echo

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="kifu (棋譜): hash-chained match logs and a ruling auditor for tabletop card games.",
)
for group in (log, record, audit, cards, imports, warehouse, people, toss):
    app.add_typer(group.app)


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


def _argv_lang(argv: Sequence[str] | None) -> Lang:
    """The --lang of a command line that stopped with an error (else the default)."""
    args = list(sys.argv[1:] if argv is None else argv)
    for i, arg in enumerate(args):
        value = (
            arg.split("=", 1)[1]
            if arg.startswith("--lang=")
            else (args[i + 1] if arg == "--lang" and i + 1 < len(args) else None)
        )
        if value in ("ja", "en"):
            return Lang(value)
    return default_lang()


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point: run the app; a KifuError becomes one line on stderr and exit 2.

    A usage error (a mistyped option, a missing argument, a value not among the choices) is one
    line in the reader's language, exit 2, never click's usage block; `--help` is in that language
    too. The app raises SystemExit with the command's exit code, which propagates.
    """
    import typer.main
    from typer import _click as click  # typer's own click: it raises these

    command = typer.main.get_command(app)
    args = _old_spellings(command, list(sys.argv[1:] if argv is None else argv))
    if _wants_help(args):
        from .helptext import localise

        localise(command, _argv_lang(args).value)
    try:
        code = command.main(args=args, prog_name="kifu", standalone_mode=False)
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
    except KifuError as exc:
        echo(f"kifu: error: {visible(exc.render(_argv_lang(args).value), lines=False)}", err=True)
        return 2
    except Interrupted as exc:
        echo(f"kifu: {visible(exc, lines=False)}", err=True)
        return 130
    except KeyboardInterrupt:
        echo("kifu: interrupted", err=True)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        echo(visible(f"kifu: error: {exc.filename or ''}: {exc.strerror}", lines=False), err=True)
        return 2
    if code == 130:  # typer turns Ctrl-C into exit 130 and says nothing: say it, in one line
        echo("kifu: interrupted", err=True)
    if isinstance(code, int) and code:
        raise SystemExit(code)
    return 0


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


if __name__ == "__main__":
    sys.exit(main())
