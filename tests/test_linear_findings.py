"""Findings stay linear in the log (issue 32, defect 13).

The reproducer: in a Magic log with W watchers in play and F flips they all count, a watcher
payoff the log does not record was one finding per (watcher, flip): W × F findings (a 96 KB
log made `kifu report` take 15 s and write an 84 MB page; a 254 KB log a 498 MB page using
2.2 GB). Now a rule that checks every watcher at every flip gives one finding per flip
(the first watcher named, the number of the others said, their payoffs as seqs), so the
findings and the seqs they list, and every output made of them, grow with the log. One
mistake still makes one finding at its event (tests/test_one_finding.py).

Sizes are compared, never times: a page may take its time on a busy machine, but its bytes
per byte of log must not grow with the log.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kifu.auditor import registry
from kifu.events import logfile

WATCHER = "Zndrsplt, Eye of Wisdom"  # any player's win makes it draw a card


def _log(path: Path, watchers: int, flips: int, paid: set[tuple[int, int]] = frozenset()) -> Path:
    """``watchers`` watchers enter, then ``flips`` Stitch in Time flips, each won and paid for itself;
    a watcher's payoff is recorded only for the (watcher, flip) pairs in ``paid``."""
    events: list[dict] = [{"type": "mtg.turn", "turn": 1, "player": "a"}]
    for w in range(watchers):
        events.append({"type": "mtg.enters", "permanent": f"w{w}", "card": WATCHER, "controller": "ab"[w % 2]})
    for f in range(flips):
        flip = f"f{f}"
        events += [
            {"type": "mtg.flip", "flip": flip, "card": "Stitch in Time", "controller": "a", "flipper": "a"},
            {"type": "mtg.call", "flip": flip, "group": 1, "player": "a", "side": "heads"},
            {"type": "mtg.coin", "flip": flip, "group": 1, "player": "a", "result": "heads"},
            {"type": "mtg.outcome", "flip": flip, "group": 1, "player": "a", "outcome": "won"},
            {"type": "mtg.payoff", "flip": flip, "kind": "extra-turn", "amount": 1, "player": "a"},
        ]
        for w in range(watchers):
            if (w, f) in paid:
                events.append(
                    {
                        "type": "mtg.payoff",
                        "flip": flip,
                        "permanent": f"w{w}",
                        "kind": "draw",
                        "amount": 1,
                        "player": "ab"[w % 2],
                    }
                )
    start = {
        "game": "mtg",
        "match": f"w{watchers}-f{flips}",
        "players": [{"id": "a", "name": "Aoi"}, {"id": "b", "name": "Ren"}],
    }
    logfile.write_new(path, start, events)
    return path


def _findings(path: Path):
    return registry.audit(logfile.load(path).events)


@pytest.mark.parametrize("n", [10, 20, 40])
def test_unpaid_watchers_give_one_finding_per_flip(tmp_path: Path, n: int) -> None:
    log = _log(tmp_path / "m.jsonl", n, n)
    found = _findings(log)
    assert [f.code for f in found] == ["MTG-PAY-003"] * n, [f.code for f in found][:5]
    events = logfile.verify(log).seq
    assert sum(len(f.seqs) for f in found) <= events
    first = found[0]
    assert "w0" in first.message.en and f"{n - 1} other" in first.message.en, first.message.en
    assert "w0" in first.message.ja and str(n - 1) in first.message.ja


def test_the_outputs_grow_with_the_log_not_with_its_square(tmp_path: Path, kifu) -> None:
    """The page and the JSON report per byte of log stay the same as watchers and flips double."""
    ratios = {}
    for n in (15, 30, 60):
        log = _log(tmp_path / f"m{n}.jsonl", n, n)
        page = tmp_path / f"m{n}.html"
        assert kifu("report", log, "-o", page).code == 1
        report = kifu("audit", log, "-f", "json")
        size = log.stat().st_size
        ratios[n] = (page.stat().st_size / size, len(report.out) / size)
    # Doubling W and F doubles the log's flips and watchers' events alike; a W × F output would double
    # its bytes per byte of log each time (the reproducer's 84 MB page for a 96 KB log).
    for kind in (0, 1):
        assert ratios[60][kind] < 1.5 * ratios[15][kind], ratios


def test_one_watcher_unpaid_once_is_one_finding_at_its_flip(tmp_path: Path) -> None:
    watchers, flips = 6, 5
    paid = {(w, f) for w in range(watchers) for f in range(flips)} - {(3, 2)}
    log = _log(tmp_path / "m.jsonl", watchers, flips, paid)
    found = _findings(log)
    assert len(found) == 1 and found[0].code == "MTG-PAY-003", [(f.code, f.seq) for f in found]
    f = found[0]
    assert f.evidence["watcher"] == "w3" and f.evidence["flip"] == "f2" and "other" not in f.message.en
    events = logfile.load(log).events
    last_coin = max(e.seq for e in events if getattr(e, "flip", None) == "f2" and type(e).__name__ == "CoinLanded")
    assert f.seq == last_coin, (f.seq, last_coin)


def test_overpaid_watchers_are_named_by_their_payoffs(tmp_path: Path) -> None:
    """Each excess payoff is a seq of its flip's finding: every payoff event is listed once in all."""
    watchers, flips = 4, 3
    paid = {(w, f) for w in range(watchers) for f in range(flips)}
    log = _log(tmp_path / "m.jsonl", watchers, flips, paid)
    lines = log.read_text(encoding="utf-8").splitlines()
    doubled = [json.loads(x) for x in lines]
    extra = [e for e in doubled if e.get("type") == "mtg.payoff" and e.get("permanent") and e["flip"] == "f1"]
    again = tmp_path / "over.jsonl"
    start = {k: v for k, v in doubled[0].items() if k not in ("type", "seq", "prev")}
    body = [{k: v for k, v in e.items() if k not in ("seq", "prev")} for e in doubled[1:]]
    body += [{k: v for k, v in e.items() if k not in ("seq", "prev")} for e in extra]
    logfile.write_new(again, start, body)
    found = _findings(again)
    assert [f.code for f in found] == ["MTG-PAY-003"]
    assert len(found[0].seqs) == watchers and "3 other" in found[0].message.en
