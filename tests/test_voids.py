"""Voids (log.void) and the live audit: taken-back events never happened, for every reader.

The incremental audit (``Engine.session``) must give exactly what the batch audit gives,
on every fixture log fed one event at a time, and on simulated matches with voids
inserted anywhere; projections must equal a fold of the log with the voided events
left out.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from conftest import FIXTURES
from hypothesis import given
from hypothesis import strategies as st

from kifu import app
from kifu.auditor import registry
from kifu.events import logfile
from kifu.events.base import LogVoided
from kifu.games.gunandgun.sim import play
from kifu.projector.base import Replay, frames, voided_in


def chain(payloads: list[dict[str, Any]]) -> list[Any]:
    """A simulated match's payloads as a chained log (``kifu.chain``)."""
    return app.chain("gunandgun", payloads)


def _session(events: list[Any]):
    start = events[0]
    g = registry.game(start.game)
    return registry.engine(g.id).session(
        start, registry.options(g, start), g.catalogue(start) if g.catalogue else None, strict=True
    )


def _fed(events: list[Any]):
    s = _session(events)
    for e in events[1:]:
        s.feed(e)
    return s


def _logs() -> list[Path]:
    return sorted(p for p in FIXTURES.rglob("*.jsonl") if "imports" not in p.relative_to(FIXTURES).parts)


def test_every_fixture_log_fed_one_event_at_a_time_gives_the_batch_findings() -> None:
    checked = 0
    for path in _logs():
        events = logfile.load(path).events
        assert _fed(events).finish() == registry.audit(events, strict=True), path
        checked += 1
    assert checked > 400


def test_extend_gives_what_feeding_gives() -> None:
    for path in _logs()[::7]:
        events = logfile.load(path).events
        s = _session(events)
        s.extend(events[1:])
        assert s.finish() == registry.audit(events, strict=True), path


# --- ガンナガン: a toss typed before its cost, found, then taken back ------------------------

P = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]
START = {"type": "match.start", "format": "kifu/1", "game": "gunandgun", "match": "v1", "players": P}


def _toss_before_cost() -> list[dict[str, Any]]:
    return [
        START,
        {"type": "gg.setup", "player": "a", "gunner": "ラン", "guns": ["ダタラ", "ハクメン"], "skill": "がんばる!!"},
        {"type": "gg.setup", "player": "b", "gunner": "ラン", "guns": ["ダタラ", "ハクメン"], "skill": "がんばる!!"},
        {"type": "gg.first", "player": "a", "reason": "random"},
        {"type": "gg.turn", "player": "a", "turn": 1},
        {"type": "gg.play", "act": "a1", "player": "a", "card": "計略", "kind": "action"},
        {"type": "gg.toss", "act": "a1", "player": "a", "facing": "opponent"},  # seq 7: before the cost
        {"type": "gg.cost", "act": "a1", "player": "a", "kind": "hand", "n": 1},
    ]


def _codes(findings) -> set[tuple[str, int]]:
    return {(f.code, f.seq) for f in findings}


def test_a_void_takes_the_finding_of_the_voided_toss_away_in_batch_and_live() -> None:
    payloads = _toss_before_cost()
    assert ("GG-TOSS-001", 7) in _codes(registry.audit(chain(payloads)))
    voided = payloads + [
        {"type": "log.void", "by": "recorder", "about": [7], "reason": "toss typed before the cost"},
        {"type": "gg.toss", "act": "a1", "player": "a", "facing": "opponent"},
    ]
    events = chain(voided)
    assert not any(f.code == "GG-TOSS-001" for f in registry.audit(events))
    s = _session(events)
    for e in events[1:8]:
        s.feed(e)
    assert ("GG-TOSS-001", 7) in _codes(s.findings())
    delta = s.feed(events[8])
    assert ("GG-TOSS-001", 7) in _codes(delta.removed) and s.voided == {7: 9}
    assert not any(f.code == "GG-TOSS-001" for f in s.findings())
    s.feed(events[9])
    assert s.finish() == registry.audit(events)


def test_a_refused_void_keeps_the_event_and_is_a_finding() -> None:
    payloads = _toss_before_cost() + [{"type": "log.void", "by": "a", "about": [7], "reason": "oops"}]
    found = _codes(registry.audit(chain(payloads)))
    assert {("GG-TOSS-001", 7), ("KIFU-LOG-009", 9)} <= found
    assert voided_in(chain(payloads)) == {}


# --- properties: voids anywhere in simulated matches ------------------------------------------


def _with_voids(seed: int, turns: int, n: int) -> list[Any]:
    """A simulated legal match with ``n`` voids inserted at random places, each naming 1–2 random
    earlier seqs (some refused: match.start, a void, a ruled event, or by a player)."""
    rng = random.Random(seed)
    payloads = play(rng, f"v{seed}", turns)
    for _ in range(n):
        at = rng.randrange(2, len(payloads) + 1)
        about = sorted({rng.randrange(1, at + 1) for _ in range(rng.randrange(1, 3))})
        by = rng.choice(["recorder", "recorder", "judge", "a"])
        payloads.insert(at, {"type": "log.void", "by": by, "about": about, "reason": "test"})
        if rng.random() < 0.3:
            payloads.insert(at, {"type": "judge.ruling", "by": "judge", "about": about, "text": "stands"})
    return chain(payloads)


@given(st.integers(0, 10_000), st.integers(1, 8), st.integers(1, 5))
def test_live_audit_equals_batch_audit_with_voids_anywhere(seed: int, turns: int, n: int) -> None:
    events = _with_voids(seed, turns, n)
    assert _fed(events).finish() == registry.audit(events, strict=True)


def _game(frame) -> Any:
    return msgspec.to_builtins(frame.game)


@given(st.integers(0, 10_000), st.integers(1, 8), st.integers(1, 5))
def test_projection_passes_over_voided_events_as_if_never_recorded(seed: int, turns: int, n: int) -> None:
    events = _with_voids(seed, turns, n)
    g = registry.game("gunandgun")
    options = registry.options(g, events[0])
    gone = voided_in(events)
    kept = [e for e in events if e.seq not in gone]
    assert _game(list(frames(g.projection, events, options))[-1]) == _game(
        list(frames(g.projection, kept, options, ()))[-1]
    )
    replay = Replay(g.projection, events, options, every=8)
    for seq in range(1, len(events) + 1, 5):
        assert replay.state_at(seq) == replay.replay_from_start(seq)


@pytest.mark.parametrize(
    "path", ["KIFU-LOG-013/bad_ruling_voided_later.jsonl", "KIFU-LOG-013/good.jsonl", "KIFU-LOG-012/bad.jsonl"]
)
def test_a_void_is_judged_on_the_log_as_it_stood_before_it(path: str) -> None:
    events = logfile.load(FIXTURES / "core" / "rules" / path).events
    voids = [e for e in events if isinstance(e, LogVoided)]
    taken = voided_in(events)
    if path.endswith("bad_ruling_voided_later.jsonl"):
        assert taken == {6: voids[1].seq}  # the ruling, not the coin it was about
    elif path.endswith("good.jsonl"):
        assert taken == {6: voids[0].seq, 5: voids[1].seq}
    else:
        assert taken == {5: voids[0].seq}


# --- show, audit and report strike voided events through, with the reason ---------------------

VOIDED = FIXTURES / "core" / "rules" / "KIFU-LOG-013" / "good.jsonl"  # seq 5 (a coin) and seq 6 (a ruling) voided


def test_show_strikes_voided_events_and_names_the_void(kifu) -> None:
    import json

    rows = json.loads(kifu("show", VOIDED, "-f", "json", "--lang", "en").out)
    notes = {r["seq"]: r["voided"] for r in rows}
    assert notes[5] == "voided at seq 8 by recorder: typo" and notes[6].startswith("voided at seq 7 by judge")
    assert [s for s, n in notes.items() if n] == [5, 6]
    md = kifu("show", VOIDED, "-f", "md", "--lang", "ja").out.splitlines()
    rows = [line for line in md if line.startswith("| ") and not line.startswith("| seq")]
    assert rows[4].startswith("| ~~5~~ |") and rows[4].endswith("| seq 8 で recorder が取り消し: typo |  |")
    assert rows[3].startswith("| 4 |")


def test_audit_lists_voided_events_struck_through_in_every_format(kifu) -> None:
    import json

    text = kifu("audit", VOIDED, "--lang", "en").out
    assert "~~seq 5 random" in text and "(voided at seq 8 by recorder: typo)" in text
    doc = json.loads(kifu("audit", VOIDED, "-f", "json").out)
    assert doc["voided"] == [
        {"seq": 5, "void": 8, "by": "recorder", "reason": "typo"},
        {"seq": 6, "void": 7, "by": "judge", "reason": "ruling on the wrong seq"},
    ]
    assert "~~seq 6 judge.ruling" in kifu("audit", VOIDED, "-f", "md").out


def test_report_page_strikes_voided_rows_with_the_reason(kifu, tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    assert kifu("report", VOIDED, "-o", page, "--lang", "en").code == 0
    html = page.read_text(encoding="utf-8")
    row = html[html.index('<tr id="seq-5"') : html.index('<tr id="seq-6"')]
    shown = re.sub(r"<[^>]+>", "", row)  # names and reasons from the log stand in <bdi> (kifu/auditor/markup.py)
    assert (
        'class="voided"' in row
        and "<del>" in row
        and "voided at seq 8 by the recorder (a recording mistake): typo" in shown
    )
    assert "<del>" not in html[html.index('<tr id="seq-4"') : html.index('<tr id="seq-5"')]
