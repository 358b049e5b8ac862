"""Pages show what a log says, never what it pretends (issue 20, item 8; kifu/auditor/markup.py).

The issue's reproducers: a player's name holding a right-to-left override reordered
the verdict line beside it; `audit -f html` had no Content-Security-Policy; a
one-megabyte name made a page of 42–92 MB.
"""

from __future__ import annotations

import re
from pathlib import Path

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.auditor import markup, page
from kifu.auditor.page import board
from kifu.events import logfile

RLO, PDF = "\u202e", "\u202c"
SPOOF = f"Aoi{RLO} niw neR {PDF}"
"""Shown raw, the override reverses what follows: "…Ren win" would appear in the verdict line."""


def _log(path: Path, name: str, winner: str = "a", texts: tuple[str, ...] = ()) -> Path:
    logfile.write_new(
        path,
        {"game": "generic", "match": "m-1", "players": [{"id": "a", "name": name}, {"id": "b", "name": "Ren"}]},
        [
            *({"type": "note", "by": "a", "text": t} for t in texts),
            {"type": "match.end", "by": "judge", "winner": winner, "reason": "concede"},
        ],
    )
    return path


def _page(kifu, log: Path, out: Path, *args: str) -> lxml.html.HtmlElement:
    r = kifu(*args, log, "-o", out)
    assert r.code in (0, 1), r.err
    return lxml.html.fromstring(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize("command", [("report",), ("audit", "-f", "html")])
def test_no_control_character_reaches_a_page(tmp_path: Path, kifu, command) -> None:
    log = _log(tmp_path / "m.jsonl", SPOOF, texts=(f"note {RLO}txet desrever", "bell\x07 and \u2066isolate"))
    _page(kifu, log, tmp_path / "p.html", *command)
    text = (tmp_path / "p.html").read_text(encoding="utf-8")
    for ch in (RLO, PDF, "\x07", "\u2066"):
        assert ch not in text
    assert "Aoi[U+202E] niw neR [U+202C]" in text and "[U+2066]" in text
    assert "[U+0007]" in text or "\\u0007" in text  # audit -f html shows the event as JSON, which escapes it


def test_each_name_is_isolated_where_it_stands_in_a_sentence(tmp_path: Path, kifu) -> None:
    doc = _page(kifu, _log(tmp_path / "m.jsonl", SPOOF), tmp_path / "p.html", "report")
    result = doc.xpath("//div[contains(@class,'verdict')]//p[b]")[-1]
    isolated = [b.text_content() for b in result.xpath(".//bdi")]
    assert isolated == ["Aoi[U+202E] niw neR [U+202C]", "concede"]
    who = doc.xpath("//td[@class='who']")
    assert who and all(td.xpath("bdi") for td in who)


def test_a_right_to_left_name_cannot_pull_the_words_beside_it(tmp_path: Path, kifu) -> None:
    """Ordinary Hebrew or Arabic letters, no control character: still isolated from the text around them."""
    doc = _page(kifu, _log(tmp_path / "m.jsonl", "אבי 3"), tmp_path / "p.html", "report")
    assert "אבי 3" in [b.text_content() for b in doc.xpath("//bdi")]


@pytest.mark.parametrize("command", [("report",), ("audit", "-f", "html")])
def test_a_megabyte_name_makes_a_small_page_that_says_it_was_cut(tmp_path: Path, kifu, command) -> None:
    log = _log(tmp_path / "m.jsonl", "A" * 1_048_576, texts=tuple(f"hello {i}" for i in range(200)))
    out = tmp_path / "p.html"
    _page(kifu, log, out, *command)
    assert out.stat().st_size < 500_000
    text = out.read_text(encoding="utf-8")
    # The report shows the name itself; audit -f html shows match.start as JSON, the name inside it.
    assert re.search(r"\(1,04\d,\d{3} characters, shown (200|2,000)\)", text)


def test_the_cut_note_is_in_the_page_language(tmp_path: Path, kifu) -> None:
    log = _log(tmp_path / "m.jsonl", "名" * 300)
    r = kifu("report", log, "-o", tmp_path / "p.html", "--lang", "ja")
    assert r.code == 0
    assert "(300 文字のうち 200 文字を表示)" in (tmp_path / "p.html").read_text(encoding="utf-8")


def test_audit_html_carries_the_content_security_policy(tmp_path: Path, kifu) -> None:
    doc = _page(
        kifu, _log(tmp_path / "m.jsonl", "<script>alert(1)</script>"), tmp_path / "p.html", "audit", "-f", "html"
    )
    # the match page, as `kifu report` writes it: the one script is the page's own, allowed by its hash
    policy = doc.xpath("//meta[@http-equiv='Content-Security-Policy']/@content")
    assert policy == [page.PAGE_CSP] and policy[0].startswith(markup.CSP) and "default-src 'none'" in policy[0]
    assert all(s.text == board.SCRIPT for s in doc.xpath("//script"))  # (a game with no board: none at all)


def test_esc_and_isolate() -> None:
    assert markup.esc(f'<a href="x">{RLO}') == "&lt;a href=&quot;x&quot;&gt;[U+202E]"
    assert markup.esc("tab\tand\nnewline stay") == "tab\tand\nnewline stay"
    assert markup.isolate("x" * 5, cap=3) == '<bdi>xxx</bdi><span class="cut">… (5 characters, shown 3)</span>'
    assert markup.attribute("ab\u2067c", cap=10) == "ab[U+2067]c"


@settings(max_examples=300)
@given(st.text())
def test_esc_escapes_as_the_standard_library_does(text: str) -> None:
    """markup.esc does html.escape's five replacements itself (importing html costs every audit): the same
    text for any input, once control characters are made visible."""
    import html

    from kifu.events.display import visible

    assert markup.esc(text) == html.escape(visible(text), quote=True)
