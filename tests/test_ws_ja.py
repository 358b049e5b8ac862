"""Weiss Schwarz (seed 003): `kifu audit --lang ja` speaks Japanese throughout.

A judge at a Japanese table reads the findings of every Weiss fixture and
acceptance log in Japanese: an explanation that reaches the message through an
evidence value (``{detail}``) is a ``Text`` and follows ``--lang``. What may stay
in Latin letters is code (event types, field values such as ``front``, slot ids,
seqs) and the names the log itself gives (players, cards, abilities); three
English words in a row are a sentence, and fail here.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import pytest
from conftest import ROOT, run_cli

LOGS = sorted(
    p.relative_to(ROOT)
    for d in [ROOT / "fixtures" / "weiss", *sorted((ROOT / "tests" / "acceptance").glob("weiss*"))]
    for p in d.rglob("*.jsonl")
)
NAME_KEYS = {"player", "players", "id", "name", "card", "cards", "ability", "winner", "match"}
"""Fields whose values are names the log gives: they stay as written inside a Japanese message."""
TOKEN = re.compile(r"[\x21-\x7e]+|[^\x00-\x7f\s]+")
"""A run of printable ASCII (a word or some code), or a run of anything else (kana, kanji, arrows)."""
WORD = re.compile(r"^[A-Za-z]+(?:[-'][A-Za-z]+)*$")
PUNCT = "()[],.;:!?\"'"
RUN = 3


def _names(value: Any, key: str | None = None) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _names(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from _names(v, key)
    elif isinstance(value, str) and key in NAME_KEYS:
        yield value


def names_in(log: Path) -> set[str]:
    """Every player, card and ability name the log records."""
    lines = (ROOT / log).read_text(encoding="utf-8").splitlines()
    return {n for line in lines if line.strip() for n in _names(json.loads(line))}


def english_run(message: str, names: set[str]) -> list[str]:
    """The longest run of English words in ``message`` once names and code are set aside."""
    for n in sorted(names, key=len, reverse=True):
        message = re.sub(rf"(?<![A-Za-z0-9]){re.escape(n)}(?![A-Za-z0-9])", " ", message)
    best: list[str] = []
    run: list[str] = []
    for token in TOKEN.findall(message):
        word = token.strip(PUNCT)
        if not word:
            continue  # a lone bracket or comma neither makes nor breaks a sentence
        run = run + [word] if WORD.match(word) else []
        best = max(best, run, key=len)
    return best


def test_english_run_finds_a_sentence_and_spares_code_and_names() -> None:
    assert english_run("C2 のアタック宣言: Mikoto there is rested, not standing", {"Mikoto"}) == [
        "there",
        "is",
        "rested",
        "not",
        "standing",
    ]
    assert len(english_run("ws.phase.end stand が記録されましたが、来るべきは ws.phase.end end です", set())) < RUN
    assert len(english_run("防御側 Kuroko Shirai の front アタック", {"Kuroko Shirai"})) < RUN


@cache
def _audit_ja(log: Path) -> list[dict[str, Any]]:
    r = run_cli("audit", "-f", "json", "--lang", "ja", str(ROOT / log))
    assert r.code in (0, 1), r.err
    return json.loads(r.out)["findings"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("log", LOGS, ids=str)
def test_every_finding_is_japanese(log: Path) -> None:
    names = names_in(log)
    english = {f"{f['code']} seq {f['seq']}: {f['message']}": english_run(f["message"], names) for f in _audit_ja(log)}
    assert not {k: v for k, v in english.items() if len(v) >= RUN}


def test_the_logs_give_findings_to_judge() -> None:
    """The check above has something to read: the fixtures hold findings of every severity (audits are cached)."""
    assert len(LOGS) > 200
    severities: set[str] = set()
    for log in (log for log in LOGS if "rules" in log.parts or "rulings" in log.parts):
        severities |= {f["severity"] for f in _audit_ja(log)}
        if {"error", "warning", "info"} <= severities:
            break  # (no need to audit the rest: every severity has been seen)
    assert {"error", "warning", "info"} <= severities
