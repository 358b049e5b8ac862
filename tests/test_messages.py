"""Every message of every bundled log reads as a judge reads it, in both languages.

Every finding (``merged=False``: the ones ``kifu audit --all`` shows too) of every fixture and
acceptance log, in Japanese and in English: players named by name with their seat id in
parentheses (never a bare id), an activation, shot, ability or flip the log gave an id named by what it is
with its id in parentheses (``Ren's 計略 (r1)``, never a bare ``r1``), no ``None`` and no bare ``none`` (``by=none``)
where a value belongs, no ``-`` where a value belongs, no Python
``['list']`` or ``True``, no ``{field}`` left unfilled; the Japanese message has no English
word but the names and values the log itself wrote and identifiers; no citation names a seed.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest
from conftest import FIXTURES, ROOT

from kifu.auditor import registry
from kifu.events import logfile

LOGS = sorted(p for p in FIXTURES.rglob("*.jsonl") if "imports" not in p.relative_to(FIXTURES).parts) + sorted(
    (ROOT / "tests/acceptance").rglob("*.jsonl")
)
REPR = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\[['\"]|['\"]\]|\{\w+(:\w+)?\}|<\w+ object")
NONE = re.compile(r"=(none|なし)\b|(?<![\w'-])none(?![\w'-]| kept)")
"""An empty value written as the word for nothing (``by=none``, ``with hand none``): a message says what is missing."""
IDS = ("act", "shot", "ability", "flip")
"""Fields whose value is an id the log gives an activation, a shot, an ability or a flip, and names it by later."""
DASH = re.compile(r"(^|[\s(,:=])-($|[\s),;])")
_A = r"(?<![A-Za-z0-9_])"
_Z = r"(?![A-Za-z0-9_])"
IDENT = re.compile(
    rf"`[^`]*`|{_A}[\w-]+\.[\w.-]+{_Z}|{_A}\w+=\S+|{_A}[A-Za-z0-9-]*_[A-Za-z0-9_-]*{_Z}"
    rf"|{_A}[A-Z]{{2,}}[A-Za-z-]*{_Z}|{_A}(seq|N){_Z}|{_A}[A-Za-z]*\d[A-Za-z0-9-]*{_Z}"
)
"""What a Japanese message may write in Latin letters: code (`…`), event types and ids (gg.toss, a1),
settings (key=value), identifiers, acronyms (HIT, FAQ), seq and N."""


@cache
def _audited(path: Path) -> tuple[Any, tuple[Any, ...]]:
    log = logfile.load(path)
    return log, tuple(registry.audit(log.events, merged=False))


def _written(events: list[Any]) -> set[str]:
    """Every word the log itself wrote (names, cards, ids, values): a message may quote them in any language."""
    out: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, str):
            out.add(v)
            out.update(re.findall(r"[A-Za-z][\w'.-]*", v))
            out.update(re.findall(r"[A-Za-z][A-Za-z'-]{2,}", IDENT.sub(" ", v)))
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for e in events:
        d = msgspec.to_builtins(e)
        for k in ("type", "prev", "at", "by", "src", "text"):
            d.pop(k, None)
        walk(d)
    return out


def _ids(events: list[Any]) -> set[str]:
    """The ids the log gives things (an activation, a shot, an ability, a flip) and names them by again."""
    seen: dict[str, int] = {}
    for e in events:
        for key in IDS:
            value = getattr(e, key, None)
            if isinstance(value, str):
                seen[value] = seen.get(value, 0) + 1
    return {v for v, n in seen.items() if n > 1}


def _unnamed(message: str, ids: set[str]) -> list[str]:
    """Ids the message writes bare: ``Ren's 計略 (r1)`` names it, ``r1`` alone or ``a1 (計略)`` does not."""
    found = []
    for i in ids:
        for m in re.finditer(rf"(?<![\w.=-]){re.escape(i)}(?![\w.-])", message):
            if not (
                message[: m.start()].endswith(("(", "（")) and message[m.end() :].startswith((")", ",", "、", "）"))
            ):
                found.append(i)
    return found


def _bare(message: str, names: dict[str, str], lang: str) -> list[str]:
    """Player ids the message writes without their name: ``Aoi (p1)`` is how it names a player."""
    found = []
    for pid, name in names.items():
        if name == pid or (len(pid) < 2 and lang == "en"):  # an English "a" is a word, not a seat
            continue
        for m in re.finditer(rf"(?<![\w.-]){re.escape(pid)}(?![\w.-])", message):
            if not (message[: m.start()].endswith(f"{name} (") and message[m.end() :].startswith(")")):
                found.append(pid)
    return found


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_message_reads_as_a_judge_reads_it(path: Path) -> None:
    log, findings = _audited(path)
    names = {p.id: p.name for p in log.start.players}
    written = _written(log.events) | set(names.values())
    ids = _ids(log.events)
    problems = []
    for f in findings:
        for lang in ("ja", "en"):
            m = f.message.get(lang)
            if REPR.search(m) or DASH.search(m):
                problems.append((f.code, lang, "None, '-', a repr or an unfilled field", m))
            if _bare(m, names, lang):
                problems.append((f.code, lang, "a player id without the name", m))
            if _unnamed(m, ids):
                problems.append((f.code, lang, f"an id without what it names {_unnamed(m, ids)}", m))
            if NONE.search(m):
                problems.append((f.code, lang, "a bare none where a value belongs", m))
            if "seed" in f.citation.get(lang).lower():
                problems.append((f.code, lang, "a seed in the citation", f.citation.get(lang)))
        english = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]{2,}", IDENT.sub(" ", f.message.ja)) if w not in written]
        if english:
            problems.append((f.code, "ja", f"English words {english}", f.message.ja))
    assert not problems, problems


SEEN = {
    "GG": "fixtures/gunandgun/rules/GG-TOSS-001/bad.jsonl",
    "MTG": "fixtures/mtg/rules/MTG-THUMB-001/bad.jsonl",
    "WT": "fixtures/worldtrigger/rules/WT-BUILD-001/bad.jsonl",
    "WS": "fixtures/weiss/rules/WS-ATK-001/bad.jsonl",
    "KIFU": "fixtures/core/rules/KIFU-LOG-001/bad.jsonl",
}
"""One log of each game, chosen by name (a violating fixture of one of its rules): a sample taken by
position shifts whenever a fixture is added."""


@pytest.mark.parametrize("game", sorted(SEEN))
def test_the_scan_sees_findings_in_every_game(game: str) -> None:
    """The scan is not vacuous: a bundled log of each game gives findings of that game, worded in both languages."""
    path = ROOT / SEEN[game]
    assert path in LOGS
    found = [f for f in _audited(path)[1] if f.code.split("-")[0] == game]
    assert found, f"{SEEN[game]} gives no {game} finding"
    assert all(
        f.message.get("ja") and f.message.get("en") and f.message.get("ja") != f.message.get("en") for f in found
    )


def test_the_scan_catches_ids_without_names_and_bare_none() -> None:
    """What the issue saw in bundled findings is caught: an activation by its id alone, ``by=none``."""
    assert _unnamed("the toss for a1 (計略) came first", {"a1"}) == ["a1"]
    assert _unnamed("Ren's 計略 (a1) came first", {"a1"}) == []
    assert _unnamed("still pending: P1 (p1)'s ability (a1)", {"a1"}) == []
    assert NONE.search("log.void by=none is by neither")
    assert NONE.search("with hand none; it costs")
    assert not NONE.search("kept 0 of 2 coins (none kept)")


def test_a_card_the_table_typed_in_japanese_is_named_by_that_word() -> None:
    """魔力激突 is Mana Clash (the catalogue's Japanese name): judged as the card, named as the table typed it."""
    from kifu import app

    players = [{"id": "a", "name": "Aoi"}, {"id": "b", "name": "Ren"}]
    bodies = [
        {"game": "mtg", "match": "ja-name", "players": players},
        {"type": "mtg.flip", "flip": "f1", "card": "魔力激突", "controller": "a", "flipper": "a"},
        {"type": "mtg.call", "flip": "f1", "player": "a", "side": "heads"},
        {"type": "mtg.coin", "flip": "f1", "player": "a", "result": "heads"},
        {"type": "mtg.coin", "flip": "f1", "player": "b", "result": "heads"},
    ]
    found = app.audit(app.chain("mtg", bodies)).findings
    assert [f.code for f in found] == ["MTG-CALL-001"]
    assert "魔力激突" in found[0].message.ja and "Mana Clash" not in found[0].message.ja
