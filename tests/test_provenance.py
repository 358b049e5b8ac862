"""Provenance a judge can see (issue 12, item 4): an event imported from a message the source marks as
edited after it was sent is marked in `kifu show`, next to the findings of `kifu audit` and on the page.

The Weiss import (fixtures/imports/games/weiss/ws対戦ログ.html) has one such message: the `!damage ミオ 3`
at line 271, seq 31, on which WS-DMG-001 rests (seqs 24 and 31). WS-ATK-003 rests on seq 24 alone.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import lxml.html
import pytest
from conftest import FIXTURES

from kifu.auditor import provenance
from kifu.auditor.base import Finding, Text
from kifu.events import logfile
from kifu.events.base import Source

WEISS = FIXTURES / "imports" / "games" / "weiss" / "ws対戦ログ.html.kifu.jsonl"
UDONARIUM = FIXTURES / "imports" / "udonarium" / "chat.xml.kifu.jsonl"  # seq 8 edited: "x2 1D6 & <繰り返し>"
PLAIN = FIXTURES / "gunandgun" / "dispute.jsonl"  # recorded by hand: no src at all
WHERE = "ws対戦ログ.html:line 271"
SAID = {
    "en": f"seq 31 comes from a message edited after it was sent ({WHERE}): '!damage ミオ 3'",
    "ja": f"seq 31 は送信後に編集されたメッセージから取り込まれています ({WHERE}): 「!damage ミオ 3」",
}


# --- kifu show --------------------------------------------------------------------------------------


def test_show_json_and_csv_carry_each_events_source(kifu) -> None:
    rows = {r["seq"]: r for r in json.loads(kifu("show", WEISS, "-f", "json").out)}
    assert rows[31] | {"detail": None} == {
        "seq": 31,
        "at": "2025-08-03T09:05:12.000Z",
        "by": "a",
        "type": "ws.damage",
        "detail": None,
        "voided": None,
        "src_file": "ws対戦ログ.html",
        "src_loc": "line 271",
        "edited": True,
        "src_text": "!damage ミオ 3",
        "findings": [{"code": "WS-DMG-001", "severity": "error", "consequence": False}],
    }
    assert [s for s, r in rows.items() if r["edited"]] == [31]
    assert rows[30]["src_loc"] == "line 260" and rows[30]["src_text"] == "!step ダメージ"
    assert rows[1]["src_file"] is None and rows[1]["edited"] is False  # match.start is kifu's own
    table = list(csv.DictReader(io.StringIO(kifu("show", WEISS, "-f", "csv").out)))
    assert list(table[0])[:6] == ["seq", "at", "by", "type", "detail", "voided"]  # the old columns first, as they were
    assert [(r["seq"], r["src_loc"]) for r in table if r["edited"] == "True"] == [("31", "line 271")]
    assert "src_text" not in table[0]


def test_show_json_of_a_log_recorded_by_hand_has_no_source(kifu) -> None:
    rows = json.loads(kifu("show", PLAIN, "-f", "json").out)
    assert all(r["src_file"] is None and r["src_text"] is None and r["edited"] is False for r in rows)


@pytest.mark.parametrize(
    "lang, head, legend",
    [
        (
            "en",
            "| seq | at | by | type | detail | voided | edited | findings |",
            "✎ the source marks the message as edited",
        ),
        ("ja", "| seq | 時刻 | 誰 | 種類 | 内容 | 取り消し | 編集済 | 指摘 |", "✎ 元のログで送信後に編集された"),
    ],
)
def test_show_md_marks_the_edited_row_and_explains_the_mark(kifu, lang: str, head: str, legend: str) -> None:
    out = kifu("show", WEISS, "-f", "md", "--lang", lang).out.splitlines()
    assert head in out
    marked = [line for line in out if "✎" in line and line.startswith("| ")]
    assert len(marked) == 1 and marked[0].startswith("| 31 |") and marked[0].endswith(f"| ✎ {WHERE} | ✗ WS-DMG-001 |")
    assert out[-1].startswith(legend) and out[-2] == ""  # a paragraph after the table


@pytest.mark.parametrize("lang, legend", [("en", "edited after it was sent"), ("ja", "送信後に編集")])
def test_show_table_marks_the_edited_row(kifu, lang: str, legend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # a wide terminal: the row on one line
    out = kifu("show", WEISS, "--since", "30", "--until", "32", "--lang", lang).out
    row = next(line for line in out.splitlines() if "ws.damage" in line)
    assert f"✎ {WHERE}" in row
    assert legend in out.splitlines()[-1]


def test_show_says_nothing_of_edits_where_there_are_none(kifu) -> None:
    """A log without an edited message keeps the columns it always had; a range without one gets no legend."""
    md = kifu("show", PLAIN, "-f", "md", "--lang", "en").out
    assert "| seq | at | by | type | detail | voided | findings |" in md and "edited" not in md and "✎" not in md
    near = kifu("show", WEISS, "-f", "md", "--since", "1", "--until", "30").out
    assert "✎" not in near


def test_show_keeps_the_source_text_as_exported(kifu) -> None:
    rows = {r["seq"]: r for r in json.loads(kifu("show", UDONARIUM, "-f", "json").out)}
    assert rows[8]["edited"] is True and rows[8]["src_text"] == "x2 1D6 & <繰り返し>"
    assert rows[8]["src_loc"] == "chat-tab[1]/chat[6] line 9"


# --- kifu audit --------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_audit_text_names_the_edited_event_under_its_finding_once(kifu, lang: str) -> None:
    lines = kifu("audit", WEISS, "--lang", lang).out.splitlines()
    notes = [i for i, line in enumerate(lines) if "✎" in line]
    assert [lines[i] for i in notes] == [f"  ✎ {SAID[lang]}"]
    assert "WS-DMG-001" in lines[notes[0] - 1]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_audit_json_gives_a_provenance_list_on_each_finding(kifu, lang: str) -> None:
    doc = json.loads(kifu("audit", WEISS, "-f", "json", "--lang", lang).out)
    found = {f["code"]: f for f in doc["findings"]}
    assert found["WS-DMG-001"]["provenance"] == [
        {
            "seq": 31,
            "file": "ws対戦ログ.html",
            "loc": "line 271",
            "text": "!damage ミオ 3",
            "edited": True,
            "says": SAID[lang],
        }
    ]
    assert found["WS-ATK-003"]["provenance"] == [] and found["WS-ATK-003"]["seqs"] == [24]
    # extra context, not a verdict: the findings are those the auditor makes
    assert (found["WS-DMG-001"]["seqs"], found["WS-DMG-001"]["severity"]) == ([24, 31], "error")


def test_audit_findings_are_unchanged_by_provenance(kifu) -> None:
    from kifu.auditor import registry

    doc = json.loads(kifu("audit", WEISS, "-f", "json").out)
    audited = registry.audit(logfile.load(WEISS).events)
    assert [(f["code"], f["seq"], f["seqs"], f["message"]) for f in doc["findings"]] == [
        (f.code, f.seq, f.seqs, f.message.en) for f in audited
    ]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_audit_md_says_it_in_the_findings_row(kifu, lang: str) -> None:
    rows = [line for line in kifu("audit", WEISS, "-f", "md", "--lang", lang).out.splitlines() if "WS-" in line]
    marked = [r for r in rows if "✎" in r]
    assert len(marked) == 1 and "WS-DMG-001" in marked[0] and SAID[lang] in marked[0]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_audit_html_is_the_match_page(kifu, tmp_path: Path, lang: str) -> None:
    """One HTML page: ``kifu audit -f html`` writes the page ``kifu report`` writes (its marks: below)."""
    audited, reported = tmp_path / "a.html", tmp_path / "r.html"
    assert kifu("audit", WEISS, "-f", "html", "-o", audited, "--lang", lang).code == 1
    assert kifu("report", WEISS, "-o", reported, "--lang", lang).code == 1
    assert audited.read_text(encoding="utf-8") == reported.read_text(encoding="utf-8")


def test_audit_of_a_log_without_edits_carries_no_provenance(kifu) -> None:
    doc = json.loads(kifu("audit", PLAIN, "-f", "json").out)
    assert doc["findings"] and all(f["provenance"] == [] for f in doc["findings"])
    assert "✎" not in kifu("audit", PLAIN).out


# --- the pure helper: consequences, several edits, no text, long text ----------------------------------


def _finding(seqs: list[int], consequences: list[int] = ()) -> Finding:
    return Finding(
        code="X-1",
        name="x",
        severity="error",
        seq=seqs[-1],
        seqs=seqs,
        citation=Text(ja="j", en="e"),
        message=Text(ja="j", en="e"),
        consequences=list(consequences),
    )


def test_a_finding_names_its_consequences_edited_events_too_once() -> None:
    edited = {
        5: Source(file="r.html", loc="line 9", text="1D6 → 4", edited=True),
        8: Source(file="r.html", loc="line 12", edited=True),
        9: Source(file="r.html", loc="line 13", text="elsewhere", edited=True),
    }
    f = _finding([3, 5], consequences=[8])
    assert [s for s, _ in provenance.of(f, edited)] == [5, 8]
    assert provenance.note(f, edited, "en") == (
        "seq 5 comes from a message edited after it was sent (r.html:line 9): "
        "'1D6 → 4'; seq 8 comes from a message edited after it was sent "
        "(r.html:line 12)"
    )
    assert provenance.note(_finding([3]), edited, "en") == "" and provenance.to_json(_finding([3]), edited, "ja") == []


def test_a_long_or_multiline_source_text_stays_on_one_capped_line() -> None:
    assert provenance.quoted("1D100\n(1D100) ＞ 42", "en") == "1D100 ⏎ (1D100) ＞ 42"
    long = provenance.quoted("あ" * 5000, "ja")
    assert long.startswith("あ" * 200) and long.endswith("(5,000 文字のうち 200 文字を表示)")


# --- kifu report (the match page) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "lang, label, said",
    [
        ("en", "From edited messages", f"edited after it was sent ({WHERE}); as exported: !damage ミオ 3"),
        (
            "ja",
            "編集されたメッセージ",
            f"送信後に編集されたメッセージ ({WHERE})。エクスポートされた本文: !damage ミオ 3",
        ),
    ],
)
def test_page_marks_the_edited_event_and_its_finding(kifu, tmp_path: Path, lang: str, label: str, said: str) -> None:
    out = tmp_path / "r.html"
    assert kifu("report", WEISS, "-o", out, "--lang", lang).code == 1  # WS-DMG-001 is an error
    doc = lxml.html.fromstring(out.read_text(encoding="utf-8"))
    assert doc.xpath("//tr[@id='seq-31']//span[@class='editmark']")
    assert [s.text_content() for s in doc.xpath("//tr[@id='seq-31']//span[@class='edited']")] == [f"✎ {said}"]
    assert len(doc.xpath("//span[@class='editmark']")) == 1  # the only edited message of the match
    cards = {a.xpath(".//span[@class='code']")[0].text: a for a in doc.xpath("//article")}
    dts = [dt.text_content() for dt in cards["WS-DMG-001"].xpath(".//dt")]
    assert label in dts
    dd = cards["WS-DMG-001"].xpath(".//dd")[dts.index(label)]
    assert dd.text_content() == f"✎ seq 31 {said}" and dd.xpath(".//a[@href='#seq-31']")
    assert label not in [dt.text_content() for dt in cards["WS-ATK-003"].xpath(".//dt")]


def test_page_isolates_a_hostile_edited_message(kifu, tmp_path: Path) -> None:
    """The source's text and location come from outside kifu: escaped, isolated and cut like any log string."""
    hostile = "<script>alert(1)</script>\u202e4 → 6D1"
    log = tmp_path / "m.jsonl"
    logfile.write_new(
        log,
        {"game": "generic", "match": "m-1", "players": [{"id": "a", "name": "Aoi"}]},
        [
            {
                "type": "note",
                "by": "a",
                "text": "1D6",
                "src": {"file": "r<b>.html", "loc": "line 3", "text": hostile, "edited": True},
            },
            {
                "type": "note",
                "by": "a",
                "text": "x" * 10,
                "src": {"file": "r.html", "loc": "line 4", "text": "y" * 5000, "edited": True},
            },
        ],
    )
    for command in (("report",), ("audit", "-f", "html")):
        out = tmp_path / "p.html"
        assert kifu(*command, log, "-o", out).code == 0
        text = out.read_text(encoding="utf-8")
        assert "<script>" not in text and "\u202e" not in text and "r<b>" not in text
        assert "[U+202E]4 → 6D1" in text and "Content-Security-Policy" in text
        doc = lxml.html.fromstring(text)
        assert not doc.xpath("//script") and not doc.xpath("//b[contains(., '.html')]")
        assert "(5,000 characters, shown" in doc.xpath("//tr[@id='seq-3']")[0].text_content()
