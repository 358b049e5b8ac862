"""The plain forms of ``kifu verify`` and ``kifu audit``, read without typer (a cold start's cost).

Most of a cold ``kifu verify`` or ``kifu audit`` went to importing typer and click, which the
plain forms do not need: log files and the options these two commands document, each given
once. ``parse`` reads exactly those (as click would: ``-f json``, ``-fjson``, ``--format json``,
``--format=json``, a ``--`` before file names) and hands back the command to run, which calls
the same code as the typer command (``kifu.cli.checks``). Anything else, whatever it is (help,
a usage error, a value not among the choices, an option given twice, one these forms do not
know, a file name that starts with ``-``), is left to typer (``parse`` gives None): its output,
messages and exit codes stay the ones typer's reading gives. ``tests/test_plain_forms.py`` runs
every documented form both ways and compares them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from .say import Lang, ReportFormat, VerifyFormat, echo


class _Option(NamedTuple):
    """One option of a plain form: its parameter, whether it takes a value, and the values it takes."""

    name: str
    """The command function's parameter it sets."""
    flag: bool = False
    """True for an option that takes no value (``--all``)."""
    choices: tuple[str, ...] = ()
    """The values it takes (a choice); empty for any value."""


_LANG = _Option("lang", choices=tuple(lang.value for lang in Lang))
_FORMS: dict[str, dict[str, _Option]] = {
    "verify": {
        "--expect-head": _Option("expect_head"),
        "--format": _Option("fmt", choices=tuple(f.value for f in VerifyFormat)),
        "-f": _Option("fmt", choices=tuple(f.value for f in VerifyFormat)),
        "--lang": _LANG,
    },
    "audit": {
        "--format": _Option("fmt", choices=tuple(f.value for f in ReportFormat)),
        "-f": _Option("fmt", choices=tuple(f.value for f in ReportFormat)),
        "--output": _Option("output"),
        "-o": _Option("output"),
        "--all": _Option("every", flag=True),
        "--jobs": _Option("jobs"),
        "-j": _Option("jobs"),
        "--lang": _LANG,
    },
}
"""Each plain form's options, as ``kifu verify --help`` and ``kifu audit --help`` document them."""


def parse(args: Sequence[str]) -> Callable[[], int] | None:
    """The command ``kifu ARGS`` runs, when it is a plain form of verify or audit; else None (typer's)."""
    if not args or args[0] not in _FORMS:
        return None
    read = _read(_FORMS[args[0]], args[1:])
    if read is None:
        return None
    values, files = read
    if args[0] == "verify":
        return _guarded(lambda: _verify(files, values))
    return _guarded(lambda: _audit(files, values))


def _read(options: dict[str, _Option], args: Sequence[str]) -> tuple[dict[str, Any], list[Path]] | None:
    """(option values by parameter, files) of a plain form's arguments; None for anything else."""
    values: dict[str, Any] = {}
    files: list[Path] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            rest = args[i:]
            if not all(rest):
                return None
            files += map(Path, rest)
            break
        if not arg.startswith("-"):
            files.append(Path(arg))
            continue
        name, value = _split(arg, options)
        option = options.get(name)
        if option is None or option.name in values:
            return None  # not a documented option, or one given twice: typer says what it makes of it
        if option.flag:
            if value is not None:
                return None
            values[option.name] = True
            continue
        if value is None:
            if i == len(args):
                return None
            value, i = args[i], i + 1
        if not value or value.startswith("-") or (option.choices and value not in option.choices):
            return None
        if option.name == "jobs" and not (value.isascii() and value.isdigit() and int(value) >= 1):
            return None  # typer's reading of it: its own error, or -j 0's refusal
        values[option.name] = value
    if not files or "" in args:
        return None
    return values, files


def _split(arg: str, options: dict[str, _Option]) -> tuple[str, str | None]:
    """An option as written: ``--name=value``, ``-fvalue`` (a short option with its value) or the name alone."""
    if arg.startswith("--"):
        name, eq, value = arg.partition("=")
        return name, value if eq else None
    if len(arg) > 2 and arg[:2] in options and not options[arg[:2]].flag:
        return arg[:2], arg[2:]
    return arg, None


def _verify(files: list[Path], values: dict[str, Any]) -> int:
    from .checks import verify_logs

    fmt = VerifyFormat(values.get("fmt", "text"))
    return verify_logs(files, values.get("expect_head"), fmt, _lang(values))


def _audit(files: list[Path], values: dict[str, Any]) -> int:
    from .checks import audit_logs

    fmt = ReportFormat(values.get("fmt", "text"))
    output = Path(values["output"]) if "output" in values else None
    if "jobs" in values:
        workers = int(values["jobs"])
    else:
        from kifu.app.batch import cores

        workers = cores()
    return audit_logs(files, fmt, output, values.get("every", False), _lang(values), workers)


def _lang(values: dict[str, Any]) -> Lang | None:
    return Lang(values["lang"]) if "lang" in values else None


def _guarded(run: Callable[[], int]) -> Callable[[], int]:
    """``run`` as typer runs a command: Ctrl-C (or an end of input) leaves a line end on stderr first."""

    def work() -> int:
        try:
            return run()
        except (EOFError, KeyboardInterrupt):
            echo(err=True)
            raise KeyboardInterrupt from None

    return work
