"""The judge's board (kifu/auditor/board.py, each game's board.py, kifu/auditor/page/board.py), read without a
browser: what the page embeds for each event, the static boards of findings and rulings, the marks, the
words of both languages, a long log's page size, and `kifu state -f svg`.

The page's script is checked in a real browser in tests/test_board_browser.py.
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import lxml.html
import pytest
from conftest import FIXTURES, ROOT, run_cli

from kifu.auditor import board as b
from kifu.auditor import registry
from kifu.auditor.page import board as page_board
from kifu.auditor.page import timeline
from kifu.events import logfile
from kifu.projector.base import frames

MATCHES = {
    "gunandgun/dispute.jsonl": (14, 39),
    "mtg/match-clean.jsonl": (6, 33),
    "worldtrigger/match-clean.jsonl": (11, 26),
    "weiss/match-clean.jsonl": (19, 54),
}
"""Each game's bundled match -> two events whose tables differ."""
DISPUTE = FIXTURES / "gunandgun/dispute.jsonl"


def page(log: Path, tmp_path: Path, lang: str = "en") -> tuple[str, lxml.html.HtmlElement]:
    out = tmp_path / f"{log.stem}.{lang}.html"
    r = run_cli("report", str(log), "-o", str(out), "--lang", lang)
    assert r.code in (0, 1), r.err
    text = out.read_text(encoding="utf-8")
    return text, lxml.html.fromstring(text)


def decode(data: str) -> dict[int, tuple[int, list[int]]]:
    """``data-frames`` as the page's script reads it: seq -> (height, part ids), ``~k`` copying k ids."""
    out, prev = {}, []
    for frame in data.split(";"):
        seq, height, tokens = frame.split(":")
        ids: list[int] = []
        for token in tokens.split(".") if tokens else []:
            if token.startswith("~"):
                ids += prev[len(ids) : len(ids) + int(token[1:])]
            else:
                ids.append(int(token))
        out[int(seq)] = (int(height), ids)
        prev = ids
    return out


def boards(doc: lxml.html.HtmlElement) -> tuple[dict[int, tuple[int, list[int]]], list[str]]:
    """The frames of the stepped board and the parts they are made of, as markup."""
    panel = doc.get_element_by_id("board-panel")
    template = doc.get_element_by_id("board-parts")
    parts = [lxml.html.tostring(p, encoding="unicode") for p in template.xpath(".//svg/*")]
    return decode(panel.get("data-frames")), parts


def drawn(doc: lxml.html.HtmlElement, seq: int) -> str:
    """The board after ``seq`` as the script draws it: its parts' markup, in order."""
    frames_, parts = boards(doc)
    return "".join(parts[i] for i in frames_[seq][1])


@pytest.mark.parametrize("name", MATCHES)
def test_every_shown_event_has_its_board(name: str, tmp_path: Path) -> None:
    _, doc = page(FIXTURES / name, tmp_path)
    frames_, parts = boards(doc)
    rows = {int(tr.get("id").removeprefix("seq-")) for tr in doc.xpath("//tr[starts-with(@id, 'seq-')]")}
    assert set(frames_) == rows  # the board and the timeline cover the same events
    assert all(0 <= i < len(parts) for _, ids in frames_.values() for i in ids)
    assert len({tuple(ids) for _, ids in frames_.values()}) == len(frames_)  # each event its own picture
    first, second = MATCHES[name]
    assert drawn(doc, first) != drawn(doc, second)
    main = doc.xpath("//svg[@class='board']")
    assert len(main) == 1 and main[0].get("id") == "board"


@pytest.mark.parametrize("name", MATCHES)
def test_the_board_without_scripts_is_one_events_picture(name: str, tmp_path: Path) -> None:
    """The board as written (what a page without its script shows) is the picture of its data-seq."""
    _, doc = page(FIXTURES / name, tmp_path)
    board = doc.get_element_by_id("board")
    seq = int(board.get("data-seq"))
    frames_, _ = boards(doc)
    inner = "".join(lxml.html.tostring(c, encoding="unicode") for c in board)
    assert inner == drawn(doc, seq)
    assert board.get("viewbox") == f"0 0 {doc.get_element_by_id('board-panel').get('data-width')} {frames_[seq][0]}"
    _, findings = findings_of(FIXTURES / name)
    flagged = [f.seq for f in findings if f.severity != "info"]
    assert seq == (min(flagged) if flagged else max(frames_))


def findings_of(log: Path):
    lg = logfile.load(log)
    return lg, registry.audit(lg.events)


def test_each_finding_and_ruling_carries_a_static_board(tmp_path: Path) -> None:
    _, doc = page(DISPUTE, tmp_path)
    lg, findings = findings_of(DISPUTE)
    for i, f in enumerate(findings, 1):
        card = doc.get_element_by_id(f"f-{i}")
        assert card.get("data-seq") == str(f.seq)
        static = card.xpath(".//figure[@class='board-at']/svg[@class='board-static']")
        assert [s.get("data-seq") for s in static] == [str(f.seq)]
        assert f.code in static[0].text_content()  # the finding is listed under its event's board
    rulings = [e for e in lg.events if e.__class__.__name__ == "JudgeRuling"]
    shown = [int(s.get("data-seq")) for s in doc.xpath("//div[@class='boards']//svg[@class='board-static']")]
    assert shown == [s for r in rulings for s in r.about]  # the ruling at 41 shows the load at 39


def test_the_third_ruling_shows_the_loads_past_the_maximum(tmp_path: Path) -> None:
    """seq 39: カサネ holds 3 of 3 and the 2 loads past its maximum are drawn, marked ignored."""
    for lang, words in (("en", "2 over the maximum: ignored"), ("ja", "最大装填数超過 2 枚: 無視")):
        _, doc = page(DISPUTE, tmp_path, lang)
        at39 = drawn(doc, 39)
        assert words in at39 and "3/3" in drawn(doc, 40) and "3/3" not in drawn(doc, 38)
        assert at39.count("×") == 2
        assert words not in drawn(doc, 40)  # only the event that loaded them shows them


def test_a_finding_is_outlined_in_its_colour_where_it_is(tmp_path: Path) -> None:
    _, doc = page(DISPUTE, tmp_path)
    at14 = drawn(doc, 14)
    red = b.SEVERITY_COLOUR["error"]
    assert f'stroke="{red}" stroke-width="3"' in at14 and "GG-TOSS-001" in at14
    assert "cost 1 not paid yet" in at14  # the activation the finding is about, drawn with its cost unpaid
    # the finding rests on the late payment too (seq 16, "paid at seq 16"), not on the toss between (seq 15)
    assert f'stroke="{red}" stroke-width="3"' in drawn(doc, 16)
    assert f'stroke="{red}" stroke-width="3"' not in drawn(doc, 15)


@pytest.mark.parametrize("name", MATCHES)
def test_the_words_come_from_the_catalogue_in_both_languages(name: str, tmp_path: Path) -> None:
    for lang in ("en", "ja"):
        _, doc = page(FIXTURES / name, tmp_path, lang)
        _, parts = boards(doc)
        words = " ".join(re.sub(r"<[^>]+>", " ", p) for p in parts)
        assert not re.search(r"\b(board|word)\.[a-z]+\.[\w.-]+", words), "an id shown instead of its words"
        japanese = bool(re.search(r"[\u3040-\u30ff]", words))
        if lang == "ja":
            assert japanese
        elif name.startswith(("mtg", "weiss")):  # no card or player name of these logs is Japanese
            assert not japanese


def test_each_game_draws_its_own_table() -> None:
    """What the issue lists per game is on its board: guns and loads, coins and calls, distance and trion,
    stage and clock."""
    want = {
        "gunandgun/dispute.jsonl": (39, ["カサネ", "2 over the maximum: ignored", "N = 3", "voltage", "deck 17"]),
        "mtg/match-clean.jsonl": (44, ["Fiery Gambit", "call heads", "Krark&#x27;s Thumb", "flips won 4 · lost 0"]),
        "worldtrigger/match-clean.jsonl": (26, ["distance 2", "trion 93 (−3)", "エスクード", "face up", "5"]),
        "weiss/match-clean.jsonl": (54, ["front attack", "damage 4 to P1", "clock", "level 0", "stock 1"]),
    }
    for name, (seq, texts) in want.items():
        lg = logfile.load(FIXTURES / name)
        g = registry.game(lg.start.game)
        replay = list(frames(g.projection, lg.events, registry.options(g, lg.start)))
        names = {p.id: p.name for p in lg.start.players}
        pic = g.board(replay[seq - 1], "en", b.Around(event=lg.events[seq - 1], before=replay[seq - 2], names=names))
        body = pic.body()
        for text in texts:
            assert text in body, (name, text)
        ET.fromstring(pic.document().split("\n", 1)[1])  # a well-formed SVG document


def test_a_hostile_name_is_escaped_on_the_board(tmp_path: Path) -> None:
    log = tmp_path / "h.jsonl"
    evil = "<script>alert(1)</script>\u202e"
    logfile.create(
        log, {"game": "gunandgun", "match": "m", "players": [{"id": "p1", "name": evil}, {"id": "p2", "name": "B"}]}
    )
    logfile.append(
        log, {"type": "gg.setup", "by": "p1", "player": "p1", "gunner": evil, "guns": ["カサネ", evil], "skill": evil}
    )
    text, doc = page(log, tmp_path)
    assert "<script>alert" not in text and [s.text for s in doc.xpath("//script")] == [page_board.SCRIPT]
    assert "[U+202E]" in drawn(doc, 2)


def test_a_long_log_covers_what_the_timeline_summarises_and_stays_small(tmp_path: Path) -> None:
    """A simulated Magic match of thousands of events with a finding every 250: the board covers the
    timeline's rows (the first and last 500, each finding's neighbourhood) and the page is under 5 MB."""
    sys.path.insert(0, str(ROOT / "bench"))
    import sims

    bodies = sims.play("mtg", 7, 350)
    out = []
    for i, body in enumerate(bodies):
        out.append(body)
        if i and i % 250 == 0:  # KIFU-LOG-002: a line by nobody of the match
            out.append({"type": "note", "by": "ghost", "text": f"note {i}"})
    log = tmp_path / "long.jsonl"
    n = sims.write(log, "mtg", out)
    assert n > timeline.FULL_TIMELINE
    text, doc = page(log, tmp_path)
    assert len(text.encode("utf-8")) < 5_000_000
    frames_, _ = boards(doc)
    rows = {int(tr.get("id").removeprefix("seq-")) for tr in doc.xpath("//tr[starts-with(@id, 'seq-')]")}
    assert set(frames_) == rows
    assert set(range(1, timeline.HEAD + 1)) <= rows and set(range(n - timeline.TAIL + 1, n + 1)) <= rows
    _, findings = findings_of(log)
    for f in findings:
        assert {f.seq - timeline.NEAR, f.seq, f.seq + timeline.NEAR} & set(range(1, n + 1)) <= rows
    assert doc.xpath("//tr[@class='gap']")


def test_state_svg_is_the_boards_picture(tmp_path: Path) -> None:
    out = tmp_path / "39.svg"
    r = run_cli("state", str(DISPUTE), "--at", "39", "-f", "svg", "-o", str(out), "--lang", "ja")
    assert r.code == 0, r.err
    svg = out.read_text(encoding="utf-8")
    root = ET.fromstring(svg.split("\n", 1)[1])
    assert root.tag.endswith("svg") and "最大装填数超過 2 枚: 無視" in svg
    _, doc = page(DISPUTE, tmp_path, "ja")
    texts = re.compile(r">([^<>]+)</text>")
    assert texts.findall(drawn(doc, 39)) == texts.findall(svg)  # the same picture as the page's board
    at14 = run_cli("state", str(DISPUTE), "--at", "14", "-f", "svg")
    assert at14.code == 0 and "GG-TOSS-001" in at14.out and at14.out.startswith("<?xml")
    last = run_cli("state", str(DISPUTE), "-f", "svg")
    assert "After seq 55" in last.out


@pytest.mark.parametrize(
    "args, words",
    [
        (("--at", "99"), "outside 1..55"),
        (("--at", "9", "--flat"), "--path and --flat"),
        (("--at", "9", "--path", "game"), "--path and --flat"),
    ],
)
def test_state_svg_usage_errors_are_one_line(args: tuple[str, ...], words: str) -> None:
    r = run_cli("state", str(DISPUTE), "-f", "svg", *args)
    assert r.code == 2 and r.err.count("\n") == 1 and words in r.err and "Traceback" not in r.err


def test_a_game_without_a_board_says_so(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    logfile.create(log, {"game": "generic", "match": "m", "players": [{"id": "a", "name": "A"}]})
    r = run_cli("state", str(log), "-f", "svg")
    assert r.code == 2 and "generic" in r.err and r.err.count("\n") == 1
    text, doc = page(log, tmp_path)
    assert not doc.xpath("//svg[@class='board']") and "<script" not in text


def test_a_voided_event_changes_nothing_on_the_board(tmp_path: Path) -> None:
    log = tmp_path / "v.jsonl"
    logfile.create(
        log, {"game": "gunandgun", "match": "m", "players": [{"id": "p1", "name": "A"}, {"id": "p2", "name": "B"}]}
    )
    logfile.append(log, {"type": "gg.life", "by": "p1", "player": "p2", "delta": -3, "why": "hit"})
    logfile.append(log, {"type": "log.void", "by": "recorder", "about": [2], "reason": "typo"})
    _, doc = page(log, tmp_path)
    at2 = drawn(doc, 2)
    assert "gg.life by A (voided)" in at2 and ">27<" not in at2 and "(−3)" not in at2


def test_a_finding_about_what_the_board_does_not_draw_outlines_the_whole_board(tmp_path: Path) -> None:
    """A line by nobody (KIFU-LOG-002) is about no gun or card: the board is outlined and the finding listed."""
    log = tmp_path / "n.jsonl"
    logfile.create(
        log, {"game": "gunandgun", "match": "m", "players": [{"id": "p1", "name": "A"}, {"id": "p2", "name": "B"}]}
    )
    logfile.append(log, {"type": "note", "by": "ghost", "text": "hello"})
    _, doc = page(log, tmp_path)
    at2 = drawn(doc, 2)
    assert "KIFU-LOG-002" in at2 and f'stroke="{b.SEVERITY_COLOUR["error"]}" stroke-width="3" rx="6"' in at2


def test_a_log_longer_than_the_boards_keeps_those_a_summary_keeps(tmp_path: Path, monkeypatch) -> None:
    """Past ``BOARDS`` events (made small here) every row stays but only the first and last events and each
    finding's and ruling's neighbourhood have a board; an address between them opens the nearest (browser test)."""
    monkeypatch.setattr(timeline, "BOARDS", 20)
    monkeypatch.setattr(timeline, "HEAD", 5)
    monkeypatch.setattr(timeline, "TAIL", 5)
    monkeypatch.setattr(timeline, "NEAR", 1)
    _, doc = page(DISPUTE, tmp_path)
    frames_, _ = boards(doc)
    rows = {int(tr.get("id").removeprefix("seq-")) for tr in doc.xpath("//tr[starts-with(@id, 'seq-')]")}
    assert rows == set(range(1, 56))
    findings = {12, 13, 14, 15, 16, 17, 26, 27, 28}  # GG-TOSS-001 at 13, 14, 16, GG-LIM-001 at 27, one either side
    rulings = {19, 20, 21, 30, 31, 32, 38, 39, 40, 41, 42}  # the rulings at 20, 31 and 41, and the load at 39
    assert set(frames_) == set(range(1, 6)) | set(range(51, 56)) | findings | rulings
