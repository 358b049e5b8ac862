"""The public API (``kifu.audit``, ``kifu.state_at``, ``kifu.report``, ``kifu.verify``, ``kifu.chain``,
``kifu.ingest``): the README's Python example and the API's docstring examples run as written, and the
API gives what the command line prints for the same logs."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import msgspec
import pytest
from conftest import FIXTURES, ROOT, run_cli

import kifu
import kifu.app
import kifu.app.judging
import kifu.app.logs
import kifu.app.reading
import kifu.app.tosses

SAMPLE = sorted(FIXTURES.glob("*/dispute.jsonl")) + sorted((ROOT / "tests" / "acceptance" / "disputes").glob("*.jsonl"))
"""Logs of every game, with rulings, voids and mistakes: the disputes."""


def test_the_readme_python_example_runs_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if ">>>" in b]
    assert blocks, "the README shows the API"
    for i, block in enumerate(blocks):
        test = doctest.DocTestParser().get_doctest(block, {}, f"README.md block {i + 1}", "README.md", 0)
        result = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(test)
        assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("module", [kifu, kifu.app, kifu.app.judging, kifu.app.logs, kifu.app.reading, kifu.app.tosses])
def test_the_api_docstring_examples_run(module, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


@pytest.mark.parametrize("log", SAMPLE, ids=lambda p: p.name)
def test_audit_gives_what_kifu_audit_prints(log: Path) -> None:
    printed = json.loads(run_cli("audit", log, "-f", "json", "--lang", "en").out)
    done = kifu.audit(log)
    assert (done.game, done.match, done.head.hash, done.head.seq) == (
        printed["game"],
        printed["match"],
        printed["head"],
        printed["events"],
    )
    assert [(f.code, f.seq, f.seqs, f.severity, f.message.en) for f in done.findings] == [
        (f["code"], f["seq"], f["seqs"], f["severity"], f["message"]) for f in printed["findings"]
    ]
    assert [(s.ruling.seq, s.kind) for s in done.stances] == [(r["seq"], r["stance"]) for r in printed["rulings"]]
    assert sorted(done.voided) == [v["seq"] for v in printed["voided"]]


@pytest.mark.parametrize("log", SAMPLE[:6], ids=lambda p: p.name)
def test_state_at_gives_what_kifu_state_prints(log: Path) -> None:
    last = kifu.verify(log).head.seq
    for seq in sorted({1, last // 2, last}):
        printed = json.loads(run_cli("state", log, "--at", seq).out)
        assert json.loads(msgspec.json.encode(kifu.state_at(log, seq))) == printed


def test_the_same_log_from_a_path_its_bytes_or_in_memory_audits_the_same() -> None:
    log = FIXTURES / "gunandgun" / "dispute.jsonl"
    by_path = kifu.audit(log)
    events = kifu.app.reading.Reading(log).events
    for other in (kifu.audit(log.read_bytes()), kifu.audit(kifu.chain("gunandgun", events))):
        assert (other.findings, other.head, other.stances, other.final) == (
            by_path.findings,
            by_path.head,
            by_path.stances,
            by_path.final,
        )


def test_a_long_log_with_a_void_streams_and_audits_as_one_held_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``HOLD`` events a log streams; its voids, known only at its end, still take their events back."""
    logs = sorted(p for p in (FIXTURES / "core").rglob("*.jsonl") if b"log.void" in p.read_bytes())
    assert logs
    held = [(kifu.audit(p), kifu.report(p).page, kifu.state_at(p)) for p in logs]
    monkeypatch.setattr(kifu.app.reading, "HOLD", 2)
    for path, (audit, page, state) in zip(logs, held):
        streamed = kifu.audit(path)
        assert (streamed.findings, streamed.voided, streamed.stances, streamed.final) == (
            audit.findings,
            audit.voided,
            audit.stances,
            audit.final,
        ), path
        assert kifu.report(path).page == page and kifu.state_at(path) == state


def test_ingest_loads_logs_into_a_warehouse(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    summary = kifu.ingest([FIXTURES / "gunandgun" / "dispute.jsonl"], db, jobs=1)
    assert (summary.matches, summary.findings["error"], summary.refused) == (1, 2, [])
    assert kifu.ingest([FIXTURES / "gunandgun" / "dispute.jsonl"], db, jobs=1).unchanged == 1


def test_append_refuses_a_by_that_names_nobody_of_the_match(tmp_path: Path) -> None:
    """kifu.append and `kifu append` refuse the same event, before anything is written."""
    log = tmp_path / "m.jsonl"
    run = run_cli("new", log, "-g", "generic", "-m", "m1", "-p", "a=Aoi", "-p", "b=Ren")
    assert run.code == 0, run.err
    before = log.read_bytes()
    with pytest.raises(kifu.UnknownActor) as refused:
        kifu.append(log, {"type": "note", "by": "zed", "text": "hi"})
    assert refused.value.by == "zed" and refused.value.known[:2] == ["a (Aoi)", "b (Ren)"]
    assert "judge" in refused.value.known and log.read_bytes() == before
    run = run_cli("append", log, "type=note", "by=zed", "text=hi")
    assert run.code == 2 and len(run.err.strip().splitlines()) == 1
    assert "a (Aoi), b (Ren)" in run.err and "nothing appended" in run.err and log.read_bytes() == before
    event = kifu.append(log, {"type": "note", "by": "b", "text": "hi"}, expect_seq=2)
    assert event.seq == 2 and kifu.verify(log).head.seq == 2


def test_new_writes_the_log_kifu_new_writes_and_refuses_what_it_refuses(tmp_path: Path) -> None:
    """kifu.new and `kifu new` make the same bytes from the same options, and refuse the same mistakes
    before anything is written."""
    by_cli, by_api = tmp_path / "cli.jsonl", tmp_path / "api.jsonl"
    options = "-g gunandgun -m R1-T3 -p a=ミナト -p b=ユキ -k a=jcg:1 -r cost_payment=hand".split()
    run = run_cli("new", by_cli, *options, "--title", "Round 1", "--at", "2026-11-01T10:00:00+09:00")
    assert run.code == 0, run.err
    head = kifu.new(
        by_api,
        "gunandgun",
        "R1-T3",
        {"a": "ミナト", "b": "ユキ"},
        keys={"a": "jcg:1"},
        rules={"cost_payment": "hand"},
        title="Round 1",
        at="2026-11-01T10:00:00+09:00",
    )
    assert by_api.read_bytes() == by_cli.read_bytes() and head == kifu.verify(by_cli).head
    with pytest.raises(kifu.KifuError, match="already exists|exist"):
        kifu.new(by_api, "gunandgun", "R1-T3", {"a": "ミナト", "b": "ユキ"})
    for players, keys in (([("a", "X"), ("a", "Y")], None), ({"a": "X"}, {"c": "k"})):
        with pytest.raises(kifu.KifuError):
            kifu.new(tmp_path / "refused.jsonl", "generic", "m", players, keys=keys)
        assert not (tmp_path / "refused.jsonl").exists()
    run = run_cli("new", tmp_path / "refused.jsonl", "-g", "generic", "-m", "m", "-p", "a=X", "-k", "c=k")
    assert run.code == 2 and len(run.err.strip().splitlines()) == 1 and "c" in run.err and "a" in run.err
    assert not (tmp_path / "refused.jsonl").exists()


def test_repair_mends_a_torn_end_as_kifu_repair_does(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    kifu.new(log, "generic", "m1", {"a": "Aoi"})
    kifu.append(log, {"type": "note", "by": "a", "text": "gg"})
    whole = log.read_bytes()
    log.write_bytes(whole[:-1])  # an editor stripped the last line end
    assert kifu.repair(log).cut == 0 and log.read_bytes() == whole
    assert kifu.repair(log) is None
