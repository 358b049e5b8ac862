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
from typing import Any
from collections.abc import Callable, Sequence

from kifu.events.base import KifuError
from kifu.events.display import visible

from .say import Interrupted, Lang, default_lang, echo


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point: run the command; a KifuError becomes one line on stderr and exit 2.

    The plain forms of ``kifu verify FILE…`` and ``kifu audit FILE…`` (their documented options,
    ``kifu.cli.plain``) run without importing typer or click: most of a cold start went to them.
    Every other command line (help, a usage error, an option the plain forms do not know) is
    typer's (``kifu.cli.root``), as before; both print through the same code
    (``kifu.cli.checks``), so the output and the exit code are the same either way.
    """
    typed = list(sys.argv[1:] if argv is None else argv)
    from .plain import parse

    work = parse(typed)
    if work is None:
        from .root import run

        return run(typed)
    return outcome(work, typed)


def outcome(work: Callable[[], Any], args: Sequence[str]) -> int:
    """Run a command (``work`` returns its exit code); a KifuError, Ctrl-C or an OSError as one line.

    A nonzero code is raised as SystemExit, which propagates; 0 is returned.
    """
    try:
        code = work()
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


def __getattr__(name: str) -> Any:
    """typer's command line (``app``) and the table of command groups (``GROUPS``), from ``root``."""
    if name in ("app", "GROUPS"):
        from . import root

        return getattr(root, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    sys.exit(main())
