"""Every rule is documented in Japanese and English (`kifu rules CODE --lang ja`).

Judges at Japanese tables read the Japanese documentation, so a rule whose
`checks`/`why` are plain English strings, or whose Japanese example is English
prose, fails here. Gun-and-Gun (`GG-`) is skipped while its docs are still
plain strings: another branch translates it.
"""

from __future__ import annotations

import re

import pytest
from conftest import run_cli

from kifu.auditor import registry
from kifu.auditor.base import Rule, Text
from kifu.auditor.report import label

SECTIONS = ("checks", "why", "bad", "good")
PROSE = ("checks", "why")
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]")
# Code, quoted strings and JSON are language-neutral: they are what a log line says.
NEUTRAL = re.compile(r"`[^`]*`|\"[^\"]*\"|\{[^{}]*\}|\[[^\[\]]*\]")
WORD = re.compile(r"^[A-Za-z][a-z]{2,}(?:'s)?$")
TOKEN = re.compile(r"[^\s,;:()（）、。→…·/]+|[,;:()（）、。→…·/]")
EVENT = re.compile(r"^[a-z]+(?:\.[a-z]+)+$")
ARGS = 2
"""Plain words a short event form may carry (`ws.phase end`, `wt.order turn 2`) before they count as prose."""


def _rules() -> list[Rule]:
    return registry.all_rules()


def _pending(r: Rule) -> bool:
    return r.code.startswith("GG-") and not isinstance(r.doc.checks, Text)


def _english_words(text: str) -> list[str]:
    """English words outside code, quotes, JSON and short event forms, in order; ``|`` breaks runs."""
    out: list[str] = []
    args: int | None = None
    for t in TOKEN.findall(NEUTRAL.sub(" ", NEUTRAL.sub(" ", text))):
        if EVENT.match(t):
            args = 0
        elif len(t) == 1 and not t.isalnum():
            args = None
        elif args is not None and (not WORD.match(t) or args < ARGS):
            args += WORD.match(t) is not None
        else:
            args = None
            out.append(t if WORD.match(t) else "|")
            continue
        out.append("|")
    return out


def _longest_english_run(text: str) -> int:
    best = run = 0
    for t in _english_words(text):
        run = run + 1 if t != "|" else 0
        best = max(best, run)
    return best


def english_prose(text: str) -> bool:
    """True when a Japanese section reads as English: English words with no Japanese, or an English clause.

    Card names (``Krark's Thumb``, ``King of Figaro``) stay in English inside Japanese
    sentences; four English words in a row are a clause, not a name.
    """
    words = [t for t in _english_words(text) if t != "|"]
    if not words:
        return False
    return not JAPANESE.search(text) or _longest_english_run(text) >= 4


def _cases() -> list[object]:
    return [
        pytest.param(
            r,
            id=r.code,
            marks=pytest.mark.skip(
                reason=f"{r.code}: Gun-and-Gun docs are still plain strings (translated on another branch)"
            ),
        )
        if _pending(r)
        else pytest.param(r, id=r.code)
        for r in _rules()
    ]


def test_the_prose_detector_tells_english_from_japanese() -> None:
    assert english_prose("No `mtg.call` for a flip whose card only cares about heads or tails.")
    assert english_prose('Crazed Firecat: won, won, lost; {"type":"mtg.payoff"}')
    assert english_prose("Krark's Thumb を 1 枚 then the second coin is flipped")
    assert not english_prose("Krark's Thumb の下で投げた `mtg.coin` は 2 枚")
    assert not english_prose('{"type":"mtg.flip","flip":"f1"} … {"type":"mtg.flip","flip":"f2"}')
    assert english_prose("ws.reveal icons=[shot]; ws.damage (not cancelled); ws.damage source=shot")
    assert english_prose("turn 1: ws.attack C1; … ws.attack C2")
    assert not english_prose("ws.phase end; ws.discard hand-limit; ws.climax.leave")
    assert not english_prose("1 ターン目: ws.attack C1; … ws.attack C2")
    assert not english_prose("Edgar, King of Figaro をコントロールしている")


@pytest.mark.parametrize("r", _cases())
def test_rule_has_japanese_and_english_docs(r: Rule) -> None:
    for name in PROSE:
        ja, en = r.doc.section(name, "ja"), r.doc.section(name, "en")
        assert isinstance(getattr(r.doc, name), Text), f"{r.code}.{name} is not a Text(ja=…, en=…)"
        assert ja.strip() and en.strip(), f"{r.code}.{name} is empty in one language"
        assert JAPANESE.search(ja), f"{r.code}.{name} (ja) has no Japanese: {ja!r}"
        assert ja != en, f"{r.code}.{name}: the Japanese text is the English one"
    for name in SECTIONS:
        assert r.doc.section(name, "ja").strip() and r.doc.section(name, "en").strip(), f"{r.code}.{name}"
        assert not english_prose(r.doc.section(name, "ja")), f"{r.code}.{name} (ja) is English prose"


@pytest.mark.parametrize("r", _cases())
def test_rules_explain_in_japanese_prints_no_english_prose(r: Rule) -> None:
    res = run_cli("rules", r.code, "--lang", "ja")
    assert res.code == 0, res.err
    shown = {}
    for line in res.out.splitlines():
        head, sep, body = line.partition(": ")
        for name in SECTIONS:
            if sep and head == label(name, "ja"):
                shown[name] = body
    assert set(shown) == set(SECTIONS), res.out
    for name, body in shown.items():
        assert not english_prose(body), f"{r.code} {label(name, 'ja')} is English: {body}"
    for name in PROSE:
        assert JAPANESE.search(shown[name]), f"{r.code} {label(name, 'ja')} has no Japanese: {shown[name]}"


def test_every_registered_game_is_covered() -> None:
    codes = {r.code.split("-")[0] for r in _rules()}
    assert {"KIFU", "MTG", "WT", "WS", "GG"} <= codes
