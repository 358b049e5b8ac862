"""`--help` in the reader's language: every command's and option's text from the message catalogue.

The texts are the catalogue's ``help.…`` messages (kifu/locale/{en,ja}.json): ``help.<command>`` is a
command's whole help (``help.kifu`` the program's, ``help.stats.fairness`` a subcommand's), and
``help.<command>.<parameter>`` one option's or argument's, else ``help.opt.<parameter>`` when every
command means the same by it (``--lang``, ``--db``). The words click and typer add around them
(``Usage:``, ``Options``, ``[default: …]``) come from ``help.word.…``.

This runs only when a help text is about to be printed (kifu/cli/__init__.py decides), so no
other command pays for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kifu.events import i18n

WORDS = {
    "Options": "options",
    "Arguments": "arguments",
    "Commands": "commands",
    "default: {default}": "default",
    "required": "required",
    "env var: {var}": "envvar",
    "(dynamic)": "dynamic",
}
"""typer's own words in a help text (its gettext ids) -> ``help.word.<id>``; its click writes ``Usage:``
(``help.word.usage``) and the help option's text (``help.opt.help``) without gettext."""


def walk(command: Any, path: str = "kifu") -> Iterator[tuple[str, Any]]:
    """Every command under ``command`` (itself first) with its catalogue path: ``kifu``, ``audit``, ``stats.first``."""
    yield path, command
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from walk(sub, name if path == "kifu" else f"{path}.{name}")


def param_key(path: str, name: str, lang: str = "en") -> str:
    """The catalogue id of parameter ``name``'s help under command ``path``: its own, else the shared one."""
    own = f"help.{path}.{name}"
    return own if i18n.has(own, lang) or i18n.has(own, "en") else f"help.opt.{name}"


def localise(command: Any, lang: str) -> None:
    """Put the catalogue's texts in ``lang`` on ``command`` and every command under it, and teach click's
    and typer's help formatting the same language."""
    _words(lang)
    for path, cmd in walk(command):
        cmd.help = _text(f"help.{path}", lang, cmd.help)
        cmd.short_help = None
        for p in cmd.params:
            if hasattr(p, "help"):
                p.help = _text(param_key(path, p.name or "", lang), lang, p.help)


def _text(key: str, lang: str, written: str | None) -> str | None:
    """The catalogue's text of ``key`` in ``lang``; the code's own only where the catalogue has none (a test
    holds every command of kifu to the catalogue)."""
    if not i18n.has(key, "en"):
        return written
    import kifu.games

    # Not a format string: help texts show JSON ({"log", "error"}); the one field filled is the games' list.
    return i18n.template(key, lang).replace("{games}", ", ".join(kifu.games.GAMES))


def _words(lang: str) -> None:
    """typer's ``_`` (gettext), its click's ``Usage:`` and the help option's text: the help words in ``lang``;
    every other message (the errors kifu/cli/usage.py reads) stays as typer wrote it."""
    import typer.core
    from typer._click import core, formatting

    def translate(message: str) -> str:
        word = WORDS.get(message)
        return message if word is None else i18n.text(f"help.word.{word}", lang)

    typer.core._ = translate
    usage = i18n.text("help.word.usage", lang)
    write = _WRITE_USAGE.setdefault("write", formatting.HelpFormatter.write_usage)

    def write_usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        write(self, prog, args, f"{usage} " if prefix is None else prefix)

    setattr(formatting.HelpFormatter, "write_usage", write_usage)  # noqa: B010  (mypy: no assigning a method)
    helped = i18n.text("help.opt.help", lang)
    option = _WRITE_USAGE.setdefault("help_option", core.Command.get_help_option)

    def get_help_option(self: Any, ctx: Any) -> Any:
        made = option(self, ctx)
        if made is not None:
            made.help = helped
        return made

    setattr(core.Command, "get_help_option", get_help_option)  # noqa: B010  (mypy: no assigning a method)


_WRITE_USAGE: dict[str, Any] = {}
"""click's own ``write_usage`` and ``get_help_option``, kept the first time they are wrapped (a process may print
help twice: the tests)."""
