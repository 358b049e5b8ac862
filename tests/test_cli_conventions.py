"""The command line's conventions (issue 29): usage errors, data formats, table widths, short options.

* A usage error (a mistyped option, a missing argument, a value not among the choices) is one line in
  the chosen language (--lang, KIFU_LANG), exit 2: never click's usage block.
"""

from __future__ import annotations

import re

import pytest
from conftest import FIXTURES

DISPUTE = FIXTURES / "gunandgun" / "dispute.jsonl"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")

USAGE_ERRORS = {
    "mistyped option": (("audit", DISPUTE, "--frmat", "json"), ("--frmat", "--format", "kifu audit --help")),
    "missing argument": (("new",), ("LOG", "kifu new --help")),
    "missing option": (("new", "m.jsonl", "-g", "gunandgun"), ("--match",)),
    "not a choice": (("audit", DISPUTE, "-f", "xml"), ("xml", "json")),
    "not a number": (("show", DISPUTE, "--since", "abc"), ("--since", "abc")),
    "out of range": (("sql", "SELECT 1", "--timeout", "-1"), ("--timeout", "-1")),
    "no value": (("verify", "--expect-head"), ("--expect-head", "kifu verify --help")),
    "extra argument": (("schema", "extra"), ("extra",)),
    "no such command": (("audti",), ("audti", "audit")),
    "no such subcommand": (("stats", "nope"), ("nope", "kifu stats --help")),
}


@pytest.mark.parametrize("case", sorted(USAGE_ERRORS))
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_usage_error_is_one_line_in_the_chosen_language(kifu, monkeypatch, case: str, lang: str) -> None:
    monkeypatch.setenv("KIFU_LANG", lang)
    args, words = USAGE_ERRORS[case]
    r = kifu(*args)
    assert r.code == 2, (r.code, r.err)
    lines = r.err.splitlines()
    assert len(lines) == 1, r.err
    assert lines[0].startswith("kifu: error: ") and "Usage:" not in r.err and "Traceback" not in r.err
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert bool(JAPANESE.search(lines[0])) == (lang == "ja"), lines[0]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_lang_on_the_command_line_wins_over_kifu_lang(kifu, monkeypatch, lang: str) -> None:
    monkeypatch.setenv("KIFU_LANG", "en" if lang == "ja" else "ja")
    r = kifu("audit", DISPUTE, "--frmat", "json", "--lang", lang)
    assert r.code == 2 and len(r.err.splitlines()) == 1, r.err
    assert bool(JAPANESE.search(r.err)) == (lang == "ja"), r.err
