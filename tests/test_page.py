"""The match page (`kifu report`, kifu/auditor/page/) and the charted series (each game's charts.py).

The page must be well-formed HTML, name every finding and link it to its events'
timeline rows (and back), escape everything the log says, draw each game's
charts, and exit like `kifu audit`.
"""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path

import lxml.html
import pytest
from conftest import FIXTURES, run_cli

from kifu.auditor import page, registry
from kifu.auditor.base import Text
from kifu.auditor.page import board, charts
from kifu.events import i18n, logfile
from kifu.projector import series
from kifu.projector.base import frames

MATCHES = {
    "gunandgun/dispute.jsonl": 2,
    "gunandgun/match-clean.jsonl": 2,
    "mtg/match-clean.jsonl": 2,
    "worldtrigger/match-clean.jsonl": 2,
    "weiss/match-clean.jsonl": 3,
}
"""Fixture match -> how many charts its page draws."""

VOID = {"meta", "br", "hr", "img", "input", "link", "area", "base", "col", "embed", "source", "track", "wbr"}
SVG_LEAVES = {"path", "line", "circle", "rect", "polygon", "ellipse"}


class Balance(HTMLParser):
    """Every element opened is closed, in order (void elements and self-closed SVG leaves aside)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        if tag not in VOID and tag not in SVG_LEAVES:
            self.errors.append(f"self-closed <{tag}/>")

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


def balanced(text: str) -> list[str]:
    p = Balance()
    p.feed(text)
    p.close()
    return p.errors + [f"<{t}> never closed" for t in p.stack]


def report(log: Path, out: Path, lang: str = "en") -> tuple[int, str, lxml.html.HtmlElement]:
    r = run_cli("report", str(log), "-o", str(out), "--lang", lang)
    text = out.read_text(encoding="utf-8") if out.exists() else ""
    return r.code, text, (lxml.html.fromstring(text) if text else None)


def findings_of(log: Path):
    lg = logfile.load(log)
    return lg, registry.audit(lg.events)


@pytest.mark.parametrize("name", MATCHES)
def test_page_is_well_formed_and_links_every_finding(name: str, tmp_path: Path) -> None:
    log = FIXTURES / name
    code, text, doc = report(log, tmp_path / "page.html")
    _, findings = findings_of(log)
    assert balanced(text) == []
    assert code == (1 if any(f.severity == "error" for f in findings) else 0)
    rows = {int(tr.get("id").removeprefix("seq-")) for tr in doc.xpath("//tr[starts-with(@id, 'seq-')]")}
    assert rows == set(range(1, len(rows) + 1)) and len(rows) > 1
    for i, f in enumerate(findings, 1):
        card = doc.get_element_by_id(f"f-{i}")
        assert f.code in card.text_content()
        assert f.message.en in card.text_content()
        links = {a.get("href") for a in card.xpath(".//a")}
        assert {f"#seq-{s}" for s in f.seqs} <= links
        back = doc.xpath(f"//tr[@id='seq-{f.seq}']//a[@href='#f-{i}']")
        assert back, f"timeline row {f.seq} does not link back to {f.code}"
        assert f.severity in doc.get_element_by_id(f"seq-{f.seq}").get("class")
    if not findings:
        assert not doc.xpath("//article")


def test_dispute_page_explains_its_rules_and_rulings(tmp_path: Path) -> None:
    """Each finding of the ガンナガン dispute shows its rule's doc, citation, evidence, and the judge's ruling."""
    log = FIXTURES / "gunandgun/dispute.jsonl"
    _, text, doc = report(log, tmp_path / "en.html", "en")
    _, findings = findings_of(log)
    assert findings
    for i, f in enumerate(findings, 1):
        card = doc.get_element_by_id(f"f-{i}").text_content()
        rule = registry.find_rule(f.code)
        assert rule.doc.section("checks", "en").replace("`", "") in card
        assert rule.title.en in card and f.citation.en in card
        for k, v in f.evidence.items():
            if not k.endswith("_ja"):
                assert k in card and (v.en if isinstance(v, Text) else str(v)) in card
    # seq 20 is the judge's warning about the toss of GG-TOSS-001 at seq 14.
    toss = doc.get_element_by_id("f-1")
    assert "#seq-20" in {a.get("href") for a in toss.xpath(".//a")}
    ruling = doc.get_element_by_id("seq-20")
    assert "ruling" in ruling.get("class") and ruling.xpath(".//a[@href='#seq-14']")
    _, ja, jdoc = report(log, tmp_path / "ja.html", "ja")
    assert jdoc.get("lang") == "ja" and "判定" in ja
    assert all(f.message.ja in jdoc.get_element_by_id(f"f-{i}").text_content() for i, f in enumerate(findings, 1))


@pytest.mark.parametrize("name", MATCHES)
def test_charts_exist_for_each_game(name: str, tmp_path: Path) -> None:
    _, _, doc = report(FIXTURES / name, tmp_path / "page.html")
    charts = doc.xpath("//div[contains(@class, 'chart')]/svg")
    assert len(charts) == MATCHES[name]
    for svg in charts:
        paths = svg.xpath(".//path")
        assert paths and all(p.get("d").startswith("M") for p in paths)


@pytest.mark.parametrize("name", MATCHES)
def test_series_keys_name_listed_metrics_and_players(name: str) -> None:
    lg = logfile.load(FIXTURES / name)
    g = registry.game(lg.start.game)
    table = series.table(g.charts, frames(g.projection, lg.events, registry.options(g, lg.start)))
    metrics = {m.name for m in g.charts.metrics}
    players = {p.id for p in lg.start.players}
    seen = {series.split(k) for _, values in table for k in values}
    assert {m for m, _ in seen} == metrics
    assert {p for _, p in seen} - {None} == players


def test_series_follow_the_state() -> None:
    """The dispute's life points are the projection's: p2 takes 3 at seq 10 and ends at 19."""
    lg = logfile.load(FIXTURES / "gunandgun/dispute.jsonl")
    g = registry.game("gunandgun")
    table = dict(series.table(g.charts, frames(g.projection, lg.events, registry.options(g, lg.start))))
    assert table[9]["life:p2"] - table[10]["life:p2"] == 3
    assert table[max(table)]["life:p2"] == 19


def test_unknown_game_charts_nothing(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    logfile.create(log, {"game": "generic", "match": "m", "players": [{"id": "a", "name": "A"}]})
    logfile.append(log, {"type": "random", "by": "a", "kind": "die", "sides": 6, "values": [3]})
    lg = logfile.load(log)
    replay = list(frames(registry.game("generic").projection, lg.events, {}))
    assert registry.game("generic").charts.values(replay[-1]) == {}
    text = page.render(lg.events, replay, [], "en")
    assert "<svg" not in text and i18n.text("page.no_charts", "en") in text


HOSTILE_NOTE = '<script>alert("x")</script> & "quoted" \'single\''
HOSTILE_BY = '"><img src=x onerror=alert(1)>'


def hostile_log(path: Path) -> Path:
    start = {
        "game": "gunandgun",
        "match": 'm"<b>',
        "title": "</title><script>alert(1)</script>",
        "players": [{"id": "p1", "name": "Tom & Jerry"}, {"id": "p2", "name": "<i>Ren</i>"}],
    }
    logfile.create(path, start)
    for event in (
        {"type": "note", "by": "p1", "text": HOSTILE_NOTE},
        {"type": "note", "by": HOSTILE_BY, "text": "by names nobody: KIFU-LOG-002"},
    ):
        logfile.append(path, event)
    return path


def test_hostile_log_is_escaped(tmp_path: Path) -> None:
    log = hostile_log(tmp_path / "hostile.jsonl")
    code, text, doc = report(log, tmp_path / "page.html")
    assert code == 1  # KIFU-LOG-002: the by names nobody
    assert balanced(text) == []
    assert not doc.xpath("//img | //i[. = 'Ren']")
    # the one script is the page's own, allowed by its hash; nothing from the log runs
    assert [s.text for s in doc.xpath("//script")] == [board.SCRIPT]
    assert f"script-src '{board.SCRIPT_HASH}'" in doc.xpath("//meta[@http-equiv='Content-Security-Policy']/@content")[0]
    assert "</title><script>alert(1)</script>" in doc.xpath("//h1")[0].text_content()
    assert 'm"<b>' in doc.xpath("//header")[0].text_content() and "<i>Ren</i>" in doc.text_content()
    assert not [a for el in doc.iter() for a in el.attrib if a.startswith("on")]
    assert "Tom &amp; Jerry" in text and "Tom & Jerry" in doc.text_content()
    assert HOSTILE_NOTE in doc.get_element_by_id("seq-2").text_content()
    assert HOSTILE_BY in doc.get_element_by_id("seq-3").text_content()
    finding = doc.get_element_by_id("f-1").text_content()
    assert "KIFU-LOG-002" in finding and HOSTILE_BY in finding
    assert "default-src 'none'" in doc.xpath("//meta[@http-equiv='Content-Security-Policy']/@content")[0]


def test_render_is_deterministic() -> None:
    log = FIXTURES / "gunandgun/dispute.jsonl"
    lg, findings = findings_of(log)
    g = registry.game(lg.start.game)
    replay = list(frames(g.projection, lg.events, registry.options(g, lg.start)))
    assert page.render(lg.events, replay, findings, "ja") == page.render(lg.events, replay, findings, "ja")


def test_axis_ends_on_round_numbers() -> None:
    assert charts._bounds([21.0, 30.0]) == (0.0, 30.0, 10)
    assert charts._bounds([0.0, 8.0]) == (0.0, 8.0, 2)
    assert charts._ticks(0.0, 30.0, 10) == [0.0, 10.0, 20.0, 30.0]


def _exit_cases(tmp_path: Path) -> dict[str, Path]:
    tampered = tmp_path / "tampered.jsonl"
    shutil.copy(FIXTURES / "gunandgun/match-clean.jsonl", tampered)
    lines = tampered.read_bytes().split(b"\n")
    lines[5] = lines[5].replace(b'"opening"', b'"refill"', 1)  # the second opening draw, edited
    tampered.write_bytes(b"\n".join(lines))
    return {
        "dispute": FIXTURES / "gunandgun/dispute.jsonl",
        "clean": FIXTURES / "weiss/match-clean.jsonl",
        "tampered": tampered,
        "missing": tmp_path / "nope.jsonl",
    }


def test_exit_codes_match_audit(tmp_path: Path) -> None:
    want = {"dispute": 1, "clean": 0, "tampered": 2, "missing": 2}
    for case, log in _exit_cases(tmp_path).items():
        out = tmp_path / f"{case}.html"
        audit = run_cli("audit", str(log))
        rep = run_cli("report", str(log), "-o", str(out))
        assert rep.code == audit.code == want[case], (case, rep.err, audit.err)
        assert out.exists() == (want[case] < 2)
        if want[case] == 2:
            assert rep.err.startswith("kifu: error:") and "Traceback" not in rep.err


def test_evidence_given_in_both_languages_shows_in_the_page_language():
    from kifu.auditor.base import Finding, Text
    from kifu.auditor.page.findings import _in_language

    ev = {"detail": Text(ja="控室へ", en="to the waiting room"), "n": 2}
    assert _in_language(ev, "ja") == [("detail", "控室へ"), ("n", 2)]
    assert _in_language(ev, "en") == [("detail", "to the waiting room"), ("n", 2)]
    assert Finding  # the evidence of a Finding is such a mapping
