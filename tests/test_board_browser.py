"""The board in a real browser (headless Chromium, tests/chromium.py): it follows the page's address, steps
with the keys and buttons, and sits above the timeline on a phone.

Without Chromium these tests are skipped, and fail when the env var ``CI`` is set (.ci/run installs
Debian's chromium). What the page embeds is checked without a browser in tests/test_board.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import lxml.html
import pytest
from chromium import Page, dump_dom
from conftest import FIXTURES, run_cli

from kifu.auditor.page import timeline

MATCHES = {
    "gunandgun/dispute.jsonl": (14, 39),
    "mtg/match-clean.jsonl": (6, 33),
    "worldtrigger/match-clean.jsonl": (11, 26),
    "weiss/match-clean.jsonl": (19, 54),
}
"""Each game's bundled match -> two events whose tables differ."""
DISPUTE = FIXTURES / "gunandgun/dispute.jsonl"


def report(log: Path, tmp_path: Path, lang: str = "en") -> str:
    out = tmp_path / f"{log.stem}-{lang}.html"
    r = run_cli("report", str(log), "-o", str(out), "--lang", lang)
    assert r.code in (0, 1), r.err
    return out.as_uri()


def board_at(url: str) -> lxml.html.HtmlElement:
    """The board element of the DOM after the page's script ran."""
    doc = lxml.html.fromstring(dump_dom(url))
    assert "js" in doc.get("class", "").split(), "the page's script did not run (its hash, the policy?)"
    boards = doc.xpath("//svg[@class='board']")
    assert len(boards) == 1
    return boards[0]


@pytest.mark.parametrize("name", MATCHES)
def test_the_board_follows_the_address(name: str, tmp_path: Path) -> None:
    url = report(FIXTURES / name, tmp_path, "ja")
    first, second = MATCHES[name]
    a, b = board_at(f"{url}#seq-{first}"), board_at(f"{url}#seq-{second}")
    assert (a.get("data-seq"), b.get("data-seq")) == (str(first), str(second))
    picture = lambda svg: "".join(lxml.html.tostring(c, encoding="unicode") for c in svg)  # noqa: E731
    assert picture(a) != picture(b)
    assert f"seq {second}" in b.get("aria-label")


def test_a_findings_address_opens_its_event(tmp_path: Path) -> None:
    url = report(DISPUTE, tmp_path)
    assert board_at(f"{url}#f-2").get("data-seq") == "27"
    doc = lxml.html.fromstring(dump_dom(f"{url}#seq-39"))
    assert "now" in doc.get_element_by_id("seq-39").get("class")  # the timeline row moves with the board


def test_keys_and_buttons_step_through_the_events(tmp_path: Path) -> None:
    url = report(DISPUTE, tmp_path)
    with Page(f"{url}#seq-14") as page:
        seq = "document.getElementById('board').getAttribute('data-seq')"
        assert page.js(seq) == "14"
        page.press("ArrowRight")
        page.until(f"{seq}==='15'")
        assert page.js("location.hash") == "#seq-15"
        assert page.js("document.getElementById('seq-15').classList.contains('now')")
        assert not page.js("document.getElementById('seq-14').classList.contains('now')")
        page.press("ArrowLeft")
        page.press("ArrowLeft")
        page.until(f"{seq}==='13'")
        page.js("document.querySelector('button[data-step=\"last\"]').click()")
        page.until(f"{seq}==='55'")
        assert page.js("document.querySelector('button[data-step=\"1\"]').disabled")
        page.js("document.querySelector('button[data-step=\"first\"]').click()")
        page.until(f"{seq}==='1'")
        page.js("location.hash='#seq-39'")  # a seq link anywhere on the page
        page.until(f"{seq}==='39'")
        assert "×" in page.js("document.getElementById('board').textContent")


def test_a_phone_shows_the_board_above_the_timeline(tmp_path: Path) -> None:
    url = report(DISPUTE, tmp_path, "ja")
    top = "document.getElementById('{}').getBoundingClientRect().{}"
    with Page(f"{url}#seq-39", width=390, height=844) as page:
        assert page.js("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
        board, row = page.js(top.format("board", "bottom")), page.js(top.format("seq-39", "top"))
        assert 0 <= board <= row <= 844  # the board, and under it the event's row, both in view
        assert page.js(top.format("board", "width")) >= 330
    with Page(f"{url}#seq-39", width=1280, height=900) as page:
        assert page.js(top.format("board", "right")) <= page.js(top.format("seq-39", "left"))  # beside it
    wide = "(function(){var c=document.querySelector('.stage .tl');return c.scrollWidth-c.clientWidth;})()"
    with Page(report(FIXTURES / "worldtrigger/match-clean.jsonl", tmp_path, "ja"), width=1280, height=900) as page:
        assert page.js(wide) <= 0  # beside the board the timeline wraps its long values, nothing cut off
    # a finding's evidence of long values must not widen the page (a phone would zoom out and cut the board)
    url = report(FIXTURES / "worldtrigger/rules/WT-MOVE-001/bad.jsonl", tmp_path, "ja")
    with Page(f"{url}#seq-15", width=390, height=844) as page:
        assert page.js("document.documentElement.scrollWidth") <= 390
        assert page.js("visualViewport.offsetTop") == 0 and page.js(top.format("board", "top")) >= 0


def test_an_event_the_summary_leaves_out_opens_the_nearest_board(tmp_path: Path, monkeypatch) -> None:
    """A summarised timeline (made short here) leaves gaps: the board shows the event before and says so."""
    monkeypatch.setattr(timeline, "FULL_TIMELINE", 20)
    monkeypatch.setattr(timeline, "HEAD", 8)
    monkeypatch.setattr(timeline, "TAIL", 8)
    monkeypatch.setattr(timeline, "NEAR", 1)
    url = report(DISPUTE, tmp_path)
    doc = lxml.html.fromstring(dump_dom(f"{url}#seq-33"))
    rows = [int(r.get("id")[4:]) for r in doc.xpath("//tr[starts-with(@id, 'seq-')]")]
    assert 33 not in rows
    shown = max(r for r in rows if r < 33)
    assert doc.xpath("//svg[@class='board']")[0].get("data-seq") == str(shown)
    note = doc.xpath("//p[contains(@class, 'board-note')]")[0]
    assert note.get("hidden") is None and re.search(rf"\b33\b.*\b{shown}\b", note.text_content())
