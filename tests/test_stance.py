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
    assert "## 裁定" in ja.out and "| 20 | 14 | 警告 GG-TOSS-001 |" in ja.out and "warning" not in ja.out
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
        if lang == "ja":
            assert "警告" in stances[0].text_content() and "warning" not in stances[0].text_content()
