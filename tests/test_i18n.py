"""The message catalogue: every id used has its Japanese and its English, and --lang is honoured.

Ids are found in the code where it names them: ``Msg("…")``, ``Text.of("…")``,
``i18n.text("…")``, the command line's ``msg("…")`` (``cli.…``) and the page's
``ctx.t("…")`` (``page.…``); every rule, option, game and chart has its own ids.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from conftest import ROOT

from kifu.auditor import registry
from kifu.events import i18n

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
FIELD = re.compile(r"{(\w+)[^{}]*}")
PHRASE = re.compile(r"(text|reason)\.[a-z]+\.[\w.-]+")
"""Ids of the phrases (``text.<game>.…``) and cannot-decide reasons (``reason.<game>.…``) rules fill findings with."""
CATALOGUES = sorted(ROOT.glob("kifu/locale/*.json")) + sorted(ROOT.glob("kifu/games/*/locale/*.json"))


def _calls() -> set[str]:
    """Message ids the code names literally."""
    found: set[str] = set()
    prefixes = {"Msg": "", "of": "", "text": "", "msg": "cli.", "t": "page.", "label": "report.", "Figure": "board."}
    for path in (ROOT / "kifu").rglob("*.py"):
        # ``word(…)`` is the recording screen's ``cli.…`` and the slip's ``slip.…``
        prefixes["word"] = "slip." if path.name == "slip.py" else "cli."
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and PHRASE.fullmatch(node.value):
                found.add(node.value)  # a rule's phrase or reason, handed to ``Msg`` directly or chosen first
            if not isinstance(node, ast.Call) or not node.args:
                continue
            fn = node.func
            name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else ""
            first = node.args[0]
            if name in prefixes and isinstance(first, ast.Constant) and isinstance(first.value, str):
                key = prefixes[name] + first.value
                if re.fullmatch(r"[\w.-]+", key) and "." in key:
                    found.add(key)
    return found


def _declared() -> set[str]:
    """Ids of every rule's, option's, game's and chart's words, and of the documents their citations name."""
    keys = {"finding.undecided"}
    cites = []
    for r in registry.all_rules():
        keys |= {f"rule.{r.code}.{part}" for part in ("title", "message", "checks", "why", "bad", "good", "citation")}
        cites.append((f"rule.{r.code}.citation", r.game))
    for g in registry.games():
        keys.add(f"game.{g.id}.title")
        keys |= {f"option.{o.name}" for o in registry.options_of(g)} | {
            f"option.{o.name}.citation" for o in registry.options_of(g)
        }
        cites += [(f"option.{o.name}.citation", o.docs) for o in registry.options_of(g)]
        keys |= {f"chart.{m.name}" for m in g.charts.metrics}
    for key, docs in cites:
        for lang in i18n.LANGS:
            for doc in FIELD.findall(i18n.template(key, lang)):
                keys |= {f"doc.{docs}.{doc}.name", f"doc.{docs}.{doc}.title"}
    return keys


def test_every_id_in_use_is_in_both_languages() -> None:
    used = _calls() | _declared()
    for lang in i18n.LANGS:
        missing = sorted(k for k in used if not i18n.has(k, lang))
        assert not missing, (lang, missing)


def test_no_id_is_defined_twice_or_left_unused() -> None:
    owners: dict[str, Path] = {}
    for path in CATALOGUES:
        for key in json.loads(path.read_text(encoding="utf-8")):
            other = owners.setdefault(f"{path.name}:{key}", path)
            assert other == path, (key, other, path)
    used = _calls() | _declared()
    dynamic = (
        "cli.",
        "page.",
        "report.",
        "where.",
        "decode.",
        "cardview.",
        "word.",
        "stance.",
        "decision.",
        "help.",
    )  # built at run time (help.…: kifu/cli/helptext.py, checked by tests/test_cli_conventions.py)
    stale = sorted(k for k in i18n.catalogue("en") if k not in used and not k.startswith(dynamic))
    assert not stale, stale


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_catalogue_pairs_with_the_other_language(path: Path) -> None:
    other = path.with_name("ja.json" if path.name == "en.json" else "en.json")
    mine, theirs = json.loads(path.read_text(encoding="utf-8")), json.loads(other.read_text(encoding="utf-8"))
    assert set(mine) == set(theirs), set(mine) ^ set(theirs)

    def fields(text: str) -> set[str]:  # a rule may fill its Japanese from the evidence's ``x_ja``
        return {re.sub(r"_(ja|en)$", "", f) for f in FIELD.findall(text)}

    for key, text in mine.items():
        assert text.strip(), key
        assert fields(text) == fields(theirs[key]), key


def test_japanese_texts_are_japanese() -> None:
    """A Japanese text with no Japanese in it is an untranslated copy (a template of only fields or code is fine)."""
    _en, ja = i18n.catalogue("en"), i18n.catalogue("ja")
    cited = {f"rule.{r.code}.citation": r.citation.ja for r in registry.all_rules()}
    cited |= {f"option.{o.name}.citation": o.citation.ja for g in registry.games() for o in g.options}
    untranslated = []
    for key, text in ja.items():
        if key.endswith((".bad", ".good")):  # examples written in the log's own notation
            continue
        if key.startswith("doc.") and key.endswith(".name"):  # a document's own name ("Saturday School #56")
            continue
        text = cited.get(key, text)  # a citation as a reader sees it, its documents named
        words = FIELD.sub("", text)
        words = re.sub(r"`[^`]*`|\"[^\"]*\"|\b[\w.-]*[._/]\w+\b|[A-Z]{2,}[\w-]*|seq|N=?\d*|\d+", "", words)
        if re.search(r"[A-Za-z]{4,}", words) and not JAPANESE.search(text):
            untranslated.append((key, text))
    assert not untranslated, untranslated


def _log(tmp_path, kifu, n=4):
    log = tmp_path / "m.jsonl"
    assert kifu("new", log, "-g", "generic", "-m", "x", "-p", "a=A", "-p", "b=B").code == 0
    for i in range(n):
        assert kifu("append", log, "type=note", "by=a", f"text=n{i}").code == 0
    return log


def _edit(log, fn):
    lines = log.read_bytes().split(b"\n")[:-1]
    log.write_bytes(fn(lines))


CASES = {
    "edited": lambda ls: b"\n".join(ls[:2] + [ls[2].replace(b"n1", b"N1")] + ls[3:]) + b"\n",
    "deleted": lambda ls: b"\n".join(ls[:2] + ls[3:]) + b"\n",
    "swapped": lambda ls: b"\n".join(ls[:2] + [ls[3], ls[2]] + ls[4:]) + b"\n",
    "torn": lambda ls: b"\n".join(ls) + b"\n" + ls[-1][:20],
    "not-json": lambda ls: b"\n".join(ls[:2] + [b"{oops"] + ls[3:]) + b"\n",
    "wrong-type": lambda ls: b"\n".join(ls[:2] + [ls[2].replace(b'"seq":3', b'"seq":"3"')] + ls[3:]) + b"\n",
    "unknown-field": lambda ls: b"\n".join(ls[:2] + [ls[2].replace(b'"text"', b'"zz":1,"text"')] + ls[3:]) + b"\n",
    "unknown-type": lambda ls: (
        b"\n".join(ls[:2] + [ls[2].replace(b'"type":"note"', b'"type":"nope"')] + ls[3:]) + b"\n"
    ),
    "empty": lambda ls: b"",
    # the limits of docs/format.md (issue 20)
    "duplicate-key": lambda ls: b"\n".join(ls[:2] + [ls[2].replace(b'"text"', b'"by":"b","text"')] + ls[3:]) + b"\n",
    "too-deep": lambda ls: (
        b"\n".join(ls[:2] + [ls[2].replace(b'"text"', b'"zz":' + b"[" * 100 + b"]" * 100 + b',"text"')] + ls[3:])
        + b"\n"
    ),
    "lone-cr": lambda ls: b"\r".join(ls) + b"\r",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_error_line_is_japanese_with_lang_ja(case, tmp_path, kifu):
    log = _log(tmp_path, kifu)
    _edit(log, CASES[case])
    ja = kifu("verify", log, "--lang", "ja")
    en = kifu("verify", log, "--lang", "en")
    assert ja.code == en.code == 2
    assert len(ja.err.strip().splitlines()) == 1 and "Traceback" not in ja.err
    assert JAPANESE.search(ja.err), ja.err
    assert not JAPANESE.search(en.err), en.err


def test_a_message_is_rendered_in_the_readers_language() -> None:
    m = i18n.Msg("log.torn_tail", bytes=12)
    assert "12" in m.render("ja") and JAPANESE.search(m.render("ja"))
    assert m.render("en") == str(m) and "12 bytes" in str(m)


def test_a_missing_field_stays_visible_and_text_from_outside_is_kept() -> None:
    assert "{bytes}" in i18n.text("log.torn_tail", "en")
    assert i18n.render("something the OS said", "ja") == "something the OS said"
