"""The command line's conventions (issue 29): usage errors, data formats, table widths, short options.

* A usage error (a mistyped option, a missing argument, a value not among the choices) is one line in
  the chosen language (--lang, KIFU_LANG), exit 2: never click's usage block.
* ``-f json`` is one JSON document whatever the number of logs, ``-f jsonl`` one object a line, in
  every command that prints data; import, ingest, export and report print a summary object.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

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


# --- one JSON document for any number of logs; JSON Lines ------------------------------------------

TABLE = FIXTURES / "core" / "table.jsonl"
CCFOLIA = FIXTURES / "imports" / "games" / "gunandgun" / "卓A_コイントス版.html"


def _lines(out: str) -> list[Any]:
    """Each line of JSON Lines, decoded (a line that is not one JSON value fails the test)."""
    return [json.loads(line) for line in out.splitlines()]


def test_audit_json_is_one_document_for_several_logs(kifu) -> None:
    one = kifu("audit", DISPUTE, "-f", "json")
    assert json.loads(one.out)["match"] == "R3-T7"  # one log: its report, as before
    both = kifu("audit", DISPUTE, TABLE, "-f", "json")
    docs = json.loads(both.out)
    assert both.code == 1 and [d["log"] for d in docs] == [str(DISPUTE), str(TABLE)]
    assert docs[0] == json.loads(one.out)
    lines = _lines(kifu("audit", DISPUTE, TABLE, "-f", "jsonl").out)
    assert lines == docs


def test_an_untrusted_log_is_an_entry_of_the_audit_document(kifu, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{\n", encoding="utf-8")
    r = kifu("audit", bad, DISPUTE, "-f", "json")
    docs = json.loads(r.out)
    assert r.code == 2 and docs[0]["log"] == str(bad) and "not JSON" in docs[0]["error"]
    assert docs[1]["match"] == "R3-T7"
    lines = _lines(kifu("audit", bad, DISPUTE, "-f", "jsonl").out)
    assert [set(x) >= {"log"} for x in lines] == [True, True] and "error" in lines[0]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_rules_code_honours_every_format(kifu, lang: str) -> None:
    one = json.loads(kifu("rules", "GG-TOSS-001", "-f", "json", "--lang", lang).out)
    assert one["code"] == "GG-TOSS-001" and one["games"] == ["gunandgun"] and one["documents"]
    assert bool(JAPANESE.search(one["title"])) == (lang == "ja")
    assert _lines(kifu("rules", "GG-TOSS-001", "-f", "jsonl", "--lang", lang).out) == [one]
    rows = list(csv.DictReader(io.StringIO(kifu("rules", "GG-TOSS-001", "-f", "csv", "--lang", lang).out)))
    assert len(rows) == 1 and rows[0]["code"] == "GG-TOSS-001" and rows[0]["title"] == one["title"]
    md = kifu("rules", "GG-TOSS-001", "-f", "md", "--lang", lang).out
    assert md.startswith("### GG-TOSS-001") and one["checks"] in md and "```" in md
    text = kifu("rules", "GG-TOSS-001", "--lang", lang).out
    assert text.startswith("GG-TOSS-001") and one["why"] in text


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_import_ingest_export_and_report_print_a_summary_object(kifu, tmp_path: Path, fmt: str) -> None:
    def read(out: str) -> Any:
        if fmt == "jsonl":
            (only,) = _lines(out)
            return only
        return json.loads(out)

    log = tmp_path / "m.jsonl"
    r = kifu(
        "import",
        CCFOLIA,
        "-o",
        log,
        "-g",
        "gunandgun",
        "--map",
        "gunandgun",
        "-p",
        "a=ミナト",
        "-p",
        "b=ユキ",
        "-f",
        fmt,
    )
    done = read(r.out)
    assert r.code == 0 and done["log"] == str(log) and done["events"] > 0 and r.err == ""
    db = tmp_path / "w.duckdb"
    done = read(kifu("ingest", log, DISPUTE, "--db", db, "-f", fmt).out)
    assert done["matches"] == 2 and done["refused"] == [] and set(done["findings"]) == {"error", "warning", "info"}
    done = read(kifu("export", "--db", db, "--parquet", tmp_path / "out", "-f", fmt).out)
    assert done["tables"]["matches"] == 2
    done = read(kifu("export", "--db", db, "--match", "R3-T7", "-o", tmp_path / "d.jsonl", "-f", fmt).out)
    assert done["bytes"] == DISPUTE.stat().st_size
    r = kifu("report", DISPUTE, "-o", tmp_path / "d.html", "-f", fmt)
    done = read(r.out)
    assert r.code == 1 and done["page"] == str(tmp_path / "d.html") and done["counts"]["error"] == 2


def test_a_summary_of_a_command_whose_stdout_is_its_output_needs_a_file(kifu, tmp_path: Path) -> None:
    r = kifu("report", DISPUTE, "-f", "json", "--lang", "en")
    assert r.code == 2 and "-o" in r.err and r.out == ""


@pytest.mark.parametrize(
    "args",
    [
        ("show", DISPUTE),
        ("rules", "-g", "gunandgun"),
        ("cards", "-g", "gunandgun"),
        ("verify", DISPUTE, TABLE),
    ],
    ids=lambda a: a[0],
)
def test_json_lines_is_one_object_a_line_and_json_the_same_as_one_list(kifu, args: tuple[Any, ...]) -> None:
    lines = _lines(kifu(*args, "-f", "jsonl").out)
    whole = json.loads(kifu(*args, "-f", "json").out)
    assert lines and lines == whole


@pytest.mark.parametrize("stat", ["fairness", "winrate", "rules", "first"])
def test_stats_jsonl_is_the_json_list_a_line_each(kifu, monkeypatch, warehouse: Path, stat: str) -> None:
    monkeypatch.setenv("KIFU_DB", str(warehouse))
    whole = json.loads(kifu("stats", stat, "-f", "json").out)
    assert _lines(kifu("stats", stat, "-f", "jsonl").out) == whole


def test_record_json_is_one_document_and_jsonl_a_line_a_record(kifu, tmp_path: Path) -> None:
    typed = "hello\n!act a1 計略\n"
    start = ("-g", "gunandgun", "-m", "R1", "-p", "a=A", "-p", "b=B")
    whole = json.loads(kifu("record", tmp_path / "a.jsonl", *start, "-f", "json", stdin=typed).out)
    lines = _lines(kifu("record", tmp_path / "b.jsonl", *start, "-f", "jsonl", stdin=typed).out)
    assert [r["seq"] for r in whole["records"]] == [r["seq"] for r in lines[:-1]] == [2, 3]
    assert set(whole["slip"]) == set(lines[-1]["slip"])


# --- tables fit the terminal --------------------------------------------------------------------------


def _widest_line(text: str) -> int:
    from rich.cells import cell_len

    return max((cell_len(line) for line in text.splitlines()), default=0)


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from conftest import run_cli

    db = tmp_path_factory.mktemp("w") / "w.duckdb"
    assert run_cli("ingest", FIXTURES / "gunandgun", "--db", db).code in (0, 1)
    return db


TABLES = {
    "rules": ("rules",),
    "rules of a game": ("rules", "-g", "gunandgun"),
    "show": ("show", DISPUTE),
    "cards gunandgun": ("cards", "-g", "gunandgun"),
    "cards mtg": ("cards", "-g", "mtg"),
    "cards worldtrigger": ("cards", "-g", "worldtrigger"),
    "a card": ("cards", "-g", "gunandgun", "計略"),
    "sql": ("sql", "SELECT match, game, source FROM matches LIMIT 5"),
    "people": ("people",),
    "stats fairness": ("stats", "fairness"),
    "stats winrate": ("stats", "winrate"),
    "stats rules": ("stats", "rules"),
    "stats builds": ("stats", "builds"),
}


@pytest.mark.parametrize("columns", [80, 60, 120])
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("case", sorted(TABLES))
def test_a_table_fits_the_terminal(kifu, monkeypatch, warehouse: Path, case: str, lang: str, columns: int) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("KIFU_DB", str(warehouse))
    r = kifu(*TABLES[case], "--lang", lang)
    assert r.code in (0, 1), r.err
    assert r.out.strip() and _widest_line(r.out) <= columns, r.out


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_table_keeps_every_character_of_its_cells(kifu, monkeypatch, lang: str) -> None:
    """Fitting wraps and folds; it never cuts a cell short: the table holds the same characters as the CSV."""
    monkeypatch.setenv("COLUMNS", "80")
    table = kifu("rules", "--lang", lang).out
    rows = list(csv.reader(io.StringIO(kifu("rules", "-f", "csv", "--lang", lang).out)))
    drawn = Counter(c for c in table if not c.isspace() and c != "─")
    given = Counter(c for row in rows for cell in row for c in cell if not c.isspace())
    assert drawn == given


def test_show_says_the_day_once_and_each_event_its_time_of_day(kifu, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    out = kifu("show", DISPUTE).out
    assert "(2026-11-29)" in out.splitlines()[0] and "14:00:15+09:00" in out and "2026-11-29T14:00:15" not in out
    rows = json.loads(kifu("show", DISPUTE, "-f", "json").out)
    assert rows[1]["at"] == "2026-11-29T14:00:15+09:00"


# --- append refuses a stranger; show marks findings ---------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_append_refuses_a_by_that_is_no_player_judge_or_recorder(kifu, tmp_path: Path, lang: str) -> None:
    log = tmp_path / "m.jsonl"
    assert kifu("new", log, "-g", "gunandgun", "-m", "R1", "-p", "a=Aoi", "-p", "b=Ren").code == 0
    before = log.read_bytes()
    for args in (("type=note", "by=c", "text=hi"), ("--json", '{"type":"note","by":"Aoi","text":"hi"}')):
        r = kifu("append", log, *args, "--lang", lang)
        assert r.code == 2 and len(r.err.splitlines()) == 1, r.err
        assert all(word in r.err for word in ("a (Aoi)", "b (Ren)", "judge", "recorder")), r.err
        assert bool(JAPANESE.search(r.err)) == (lang == "ja")
    assert log.read_bytes() == before
    for by in ("a", "judge", "recorder", "system"):
        assert kifu("append", log, "type=note", f"by={by}", "text=ok").code == 0
    assert kifu("append", log, "type=note", "text=nobody").code == 0


def test_show_marks_the_events_a_finding_rests_on(kifu, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    rows = {r["seq"]: r for r in json.loads(kifu("show", DISPUTE, "-f", "json").out)}
    audit = json.loads(kifu("audit", DISPUTE, "-f", "json").out)
    for f in audit["findings"]:
        for seq in f["seqs"]:
            assert {"code": f["code"], "severity": f["severity"], "consequence": False} in rows[seq]["findings"]
    assert rows[1]["findings"] == []
    table = kifu("show", DISPUTE, "--since", "14", "--until", "14").out
    assert "✗ GG-TOSS-001" in table and "findings" in table
    md = kifu("show", DISPUTE, "-f", "md", "--lang", "ja").out
    assert "| 指摘 |" in md and "✗ GG-LIM-001" in md


# --- kifu record: the notation's refusals in the reader's language (issue 24) -------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("line", ["zz: !turnend", "!void", "!bogus 1", "!undo", "!void 1-999"])
def test_record_refuses_a_line_in_the_readers_language(kifu, tmp_path: Path, lang: str, line: str) -> None:
    start = ("-g", "gunandgun", "-m", "R1", "-p", "a=A", "-p", "b=B", "--lang", lang)
    r = kifu("record", tmp_path / "m.jsonl", *start, stdin=line + "\n")
    (said,) = r.err.splitlines()
    assert r.code == 2 and bool(JAPANESE.search(said.split(":", 2)[-1])) == (lang == "ja"), said
    done = _lines(kifu("record", tmp_path / "n.jsonl", *start, "-f", "jsonl", stdin=line + "\n").out)
    assert bool(JAPANESE.search(done[0]["error"])) == (lang == "ja"), done


# --- --help from the catalogue, in both languages -----------------------------------------------------


def _help_keys() -> dict[str, str]:
    """Every help text the commands show -> its catalogue id (kifu/cli/helptext.py's scheme)."""
    import typer.main

    from kifu.cli import app
    from kifu.cli.helptext import param_key, walk

    keys = {}
    for path, cmd in walk(typer.main.get_command(app)):
        keys[path] = f"help.{path}"
        for p in cmd.params:
            if hasattr(p, "help"):
                keys[f"{path} {p.name}"] = param_key(path, p.name or "")
    return keys


def test_every_help_text_is_in_the_catalogue_in_both_languages() -> None:
    from kifu.events import i18n

    used = set(_help_keys().values()) | {"help.opt.help"}
    for lang in i18n.LANGS:
        missing = sorted(k for k in used if not i18n.has(k, lang))
        assert not missing, (lang, missing)
    words = {f"help.word.{w}" for w in ("usage", "options", "arguments", "commands", "default", "required")}
    words |= {"help.word.envvar", "help.word.dynamic"}
    stale = sorted(k for k in i18n.catalogue("en") if k.startswith("help.") and k not in used | words)
    assert not stale, stale


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_help_is_in_the_chosen_language(kifu, monkeypatch, lang: str) -> None:
    monkeypatch.setenv("KIFU_LANG", lang)
    for path in sorted({k for k in _help_keys() if " " not in k} - {"kifu"}):
        r = kifu(*path.split("."), "--help")
        assert r.code == 0, (path, r.err)
        first = r.out.split("\n\n")[1]  # after the usage line: the command's own first paragraph
        assert bool(JAPANESE.search(first)) == (lang == "ja") or path == "stats.zero-n", (path, first)
        if path not in ("stats", "toss"):
            assert ("例" if lang == "ja" else "Example") in r.out, (path, r.out)
        assert ("使い方:" in r.out) == (lang == "ja")
