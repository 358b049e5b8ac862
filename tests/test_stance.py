"""kifu's stance on judge rulings (docs/format.md § Rulings): every decision word compared with the findings
on the events a ruling is about, shown by `kifu audit` (text, md, json) and first after the verdict in
`kifu report`; decisions in the reader's language."""

from __future__ import annotations

import json
from pathlib import Path

import lxml.html
import pytest
from conftest import FIXTURES

from kifu.auditor import registry
from kifu.auditor.stance import BROKEN, DECISIONS, LEGAL, decision_word, judged_broken, stance
from kifu.events import i18n, logfile
from kifu.events.base import JudgeRuling

DISPUTE = FIXTURES / "gunandgun/dispute.jsonl"


def _ruling(about: list[int], decision: str | None, code: str | None = None) -> JudgeRuling:
    return JudgeRuling(seq=99, prev=None, about=about, text="…", code=code, decision=decision)


@pytest.fixture(scope="module")
def findings():
    return registry.audit(logfile.load(DISPUTE).events)


def test_every_decision_word_says_whether_a_rule_was_broken() -> None:
    assert all(judged_broken(_ruling([1], w, "GG-TOSS-001")) is True for w in BROKEN)
    assert all(judged_broken(_ruling([1], w)) is False for w in LEGAL)
    assert judged_broken(_ruling([1], "upheld")) is False  # without a code: the play stands as recorded
    assert judged_broken(_ruling([1], "Warning ")) is True  # the words are read as a judge types them
    assert judged_broken(_ruling([1], "a stern look")) is None and judged_broken(_ruling([1], None)) is None
    for w in DECISIONS:  # every word is in both languages, and Japanese is Japanese
        assert i18n.has(f"decision.{w}", "ja") and decision_word(w, "ja") != w


@pytest.mark.parametrize(
    "about,decision,code,kind",
    [
        ([14], "warning", "GG-TOSS-001", "agree"),  # a penalty on an event kifu calls an error: a rule was broken
        ([27], "upheld", "GG-LIM-001", "agree"),
        ([39], "upheld", None, "agree"),  # the play stands, and kifu finds nothing there
        ([39], "legal", None, "agree"),
        ([14], "legal", None, "stricter"),  # the judge let it stand; kifu finds an error
        ([14], "overturned", "GG-TOSS-001", "stricter"),
        ([39], "game-loss", None, "none"),  # the judge found a rule broken where kifu finds none
        ([14], "a stern look", None, "unknown"),
    ],
)
def test_the_stance_compares_the_ruling_with_the_findings_on_its_events(findings, about, decision, code, kind) -> None:
    s = stance(_ruling(about, decision, code), findings)
    assert s.kind == kind
    words = s.words()
    assert words.ja and words.en and "-" not in words.en.split() and "None" not in words.en
    if kind in ("agree", "stricter") and s.findings:
        assert s.findings[0].code in words.en and s.findings[0].code in words.ja


def test_a_warning_or_an_info_only_is_more_lenient_or_undecided() -> None:
    from kifu.auditor.base import Finding, Text

    def finding(severity: str) -> Finding:
        return Finding(
            code="X-Y-001",
            name="x",
            severity=severity,
            seq=5,
            seqs=[5],
            citation=Text(ja="j", en="e"),
            message=Text(ja="j", en="e"),
        )

    assert stance(_ruling([5], "warning"), [finding("warning")]).kind == "lenient"
    assert stance(_ruling([5], "warning"), [finding("info")]).kind == "undecided"
    assert stance(_ruling([5], "legal"), [finding("warning")]).kind == "stricter"


def test_a_ruling_about_a_consequence_finds_the_finding_it_is_folded_into() -> None:
    """A ruling about the damage of a shot whose bullet was tossed at load time meets the one finding that
    explains the damage."""
    from kifu.auditor.base import Finding, Text

    folded = Finding(
        code="GG-TOSS-005",
        name="x",
        severity="error",
        seq=9,
        seqs=[9, 10],
        consequences=[31, 32],
        citation=Text(ja="j", en="e"),
        message=Text(ja="j", en="e"),
    )
    assert stance(_ruling([32], "rewind"), [folded]).findings == [folded]


def test_audit_shows_the_stance_on_each_ruling_in_every_format(kifu) -> None:
    text = kifu("audit", DISPUTE)
    assert text.code == 1
    lines = text.out.splitlines()
    at = lines.index("Rulings:")
    assert len(lines[at + 1 : at + 4]) == 3 and all("kifu agrees" in line for line in lines[at + 1 : at + 4])
    ja = kifu("audit", DISPUTE, "--lang", "ja", "-f", "md")
    assert "## 裁定" in ja.out and "| 20 | 14 | GG-TOSS-001 について警告 | 「Costs are prepaid" in ja.out
    decisions = [
        line.split(" | ")[2] for line in ja.out.splitlines() if line.startswith(("| 20 |", "| 31 |", "| 41 |"))
    ]
    assert len(decisions) == 3 and not any(
        "warning" in d or "upheld" in d for d in decisions
    )  # the judge's own text stays
    doc = json.loads(kifu("audit", DISPUTE, "-f", "json").out)
    assert [(r["seq"], r["stance"], r["judge_finds_rule_broken"], r["kifu"]) for r in doc["rulings"]] == [
        (20, "agree", True, "error"),
        (31, "agree", True, "error"),
        (41, "agree", False, "none"),
    ]


def test_the_report_shows_the_stances_right_after_the_verdict_and_the_options_after_the_findings(
    kifu, tmp_path: Path
) -> None:
    for lang, agrees in (("en", "kifu agrees"), ("ja", "kifu も同じ判断です")):
        page = tmp_path / f"{lang}.html"
        assert kifu("report", DISPUTE, "-o", page, "--lang", lang).code == 1
        doc = lxml.html.fromstring(page.read_text(encoding="utf-8"))
        order = [
            e.get("class") or e.get("id")
            for e in doc.xpath(
                "//div[contains(@class,'verdict')] | "
                "//div[contains(@class,'stances')] | "
                "//h2[@id='findings'] | //h2[@id='options']"
            )
        ]
        assert order == ["card verdict error", "card stances", "findings", "options"]
        stances = doc.xpath("//div[contains(@class,'stances')]//li")
        assert len(stances) == 3 and all(agrees in li.text_content() for li in stances)
        # what the judge ruled is on the row itself: the decision, unambiguous, and the ruling's own words
        assert all(li.xpath(".//q[@class='ruling-text']") for li in stances)
        if lang == "ja":
            decision = stances[0].xpath(".//b")[0].text_content()
            assert "警告" in decision and "warning" not in decision  # the judge's own words stay as written
            assert "ペナルティ支持" in stances[1].text_content() and "プレイはそのまま有効" in stances[2].text_content()
        else:
            assert "penalty upheld under GG-LIM-001" in stances[1].text_content()
            assert "upheld (the play stands)" in stances[2].text_content()
            assert "Costs are prepaid" in stances[0].text_content()


def test_upheld_says_which_way_it_went() -> None:
    """ "upheld" with a rule code upholds the penalty (a rule was broken), without one the play stands."""
    with_code = stance(_ruling([1], "upheld", "GG-LIM-001"), [])
    without = stance(_ruling([1], "upheld"), [])
    assert with_code.ruled("en") == "penalty upheld under GG-LIM-001 (a rule was broken)"
    assert without.ruled("en") == "upheld (the play stands)"
    assert stance(_ruling([1], "legal"), []).ruled("en") == "legal (the play stands)"
    assert "ペナルティ支持" in with_code.ruled("ja") and "プレイはそのまま有効" in without.ruled("ja")


def test_a_long_ruling_text_is_shortened_with_a_visible_note() -> None:
    long = JudgeRuling(seq=42, prev=None, about=[1], text="The judge explains at length. " * 20, decision="warning")
    shown = stance(long, []).quoted("en")
    assert len(shown) < 260 and "…" in shown and "the whole ruling is at seq 42" in shown
    assert stance(_ruling([1], "warning"), []).quoted("en") == "“…”"  # a short text is shown whole
    doc = stance(long, []).to_json("en")
    assert doc["text"] == long.text and doc["ruled"] == "warning"
