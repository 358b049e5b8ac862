"""A usage error (a mistyped option, a missing argument, a value not among the choices) as one line
in the reader's language, instead of click's usage block in English.

click raises its ``UsageError`` family with English sentences; this module reads what each one is
about (the option, the value, the choices) from the exception and says it with the catalogue's
``usage.…`` messages. An error of a kind not recognised keeps click's own sentence, still on one line.
"""

from __future__ import annotations

import re
from typing import Any

from typer._click import exceptions as click  # typer's own click: it raises these, not the click package's
from typer._click import types

from .common import Lang, msg

_VALUE = re.compile(r"^(?P<value>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\S+) is not\b")
"""The value a type refused, as click quotes it at the start of its sentence (``'x' is not one of …``)."""
_EXTRA = re.compile(r"^Got unexpected extra argument(?:s|\(s\))? \((?P<args>.*)\)$", re.S)
_COMMAND = re.compile(r"^No such command '(?P<name>[^']*)'\.(?: Did you mean '(?P<near>[^']*)'\?)?")
_RANGE = re.compile(r" is not in the range (?P<range>.+?)\.?$")


def _hint(exc: click.ClickException, typed: str) -> str:
    """The command to ask for help, ``kifu audit --help`` (the exception's, else the one typed)."""
    ctx = getattr(exc, "ctx", None)
    return f"{ctx.command_path if ctx is not None else typed} --help"


def typed_command(root: Any, args: list[str]) -> str:
    """The command the arguments name, as far as they name one: ``kifu stats fairness``."""
    words, command = ["kifu"], root
    for arg in args:
        sub = getattr(command, "commands", {}).get(arg)
        if sub is None:
            break
        words.append(arg)
        command = sub
    return " ".join(words)


def _param_name(exc: Any) -> str:
    """How the reader typed (or would type) the parameter: ``--format``, ``LOG``."""
    param = getattr(exc, "param", None)
    if getattr(exc, "param_hint", None):
        hint = exc.param_hint
        return " / ".join(hint) if isinstance(hint, (list, tuple)) else str(hint).strip("'\"")
    if param is None:
        return "?"
    if param.param_type_name == "option":
        return max(param.opts, key=len)
    return (param.human_readable_name or param.name or "?").upper()


def line(exc: click.ClickException, lang: Lang | None, typed: str = "kifu") -> str:
    """The one line to print for ``exc`` (without the ``kifu: error:`` prefix); ``typed`` is the command the
    arguments name (``typed_command``), for an error click raised outside any command's context."""
    return _what(exc, lang) + msg("usage_help", lang, command=_hint(exc, typed))


def _what(exc: click.ClickException, lang: Lang | None) -> str:
    if isinstance(exc, click.NoSuchOption):
        near = ", ".join(exc.possibilities or [])
        key = "usage_no_option_near" if near else "usage_no_option"
        return msg(key, lang, option=exc.option_name, near=near)
    if isinstance(exc, click.MissingParameter):
        param = exc.param
        kind = "argument" if "argument" in (exc.param_type, getattr(param, "param_type_name", None)) else "option"
        return msg(f"usage_missing_{kind}", lang, name=_param_name(exc))
    if isinstance(exc, click.BadParameter):
        return _bad_value(exc, lang)
    if isinstance(exc, click.BadOptionUsage) and "requires an argument" in exc.message:
        return msg("usage_needs_value", lang, option=exc.option_name)
    command = _COMMAND.match(exc.message)
    if command:
        key = "usage_no_command_near" if command.group("near") else "usage_no_command"
        return msg(key, lang, command=command.group("name"), near=command.group("near"))
    extra = _EXTRA.match(exc.message)
    if extra:
        return msg("usage_extra", lang, args=extra.group("args"))
    return msg("usage_other", lang, text=" ".join(exc.format_message().split()))


def _bad_value(exc: click.BadParameter, lang: Lang | None) -> str:
    """A value the parameter's type refused: not one of the choices, not a number, out of range."""
    name = _param_name(exc)
    found = _VALUE.match(exc.message)
    value = found.group("value") if found else "?"
    kind: Any = getattr(exc.param, "type", None)
    choices = getattr(kind, "choices", None)
    if choices:
        return msg("usage_choice", lang, name=name, value=value, choices=", ".join(map(str, choices)))
    ranged = _RANGE.search(exc.message)
    if ranged:
        return msg("usage_range", lang, name=name, value=value, range=ranged.group("range"))
    if isinstance(kind, types.IntParamType):
        return msg("usage_integer", lang, name=name, value=value)
    if isinstance(kind, types.FloatParamType):
        return msg("usage_number", lang, name=name, value=value)
    return msg("usage_bad_value", lang, name=name, text=" ".join(exc.message.split()))
