"""The benchmark's corpus is a valid log and its peer rebuild agrees on the events
(a smoke test of bench/bench_core.py on a tiny corpus; the timings are not tested)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from kifu.events import logfile


def _bench():
    spec = importlib.util.spec_from_file_location("bench_core", ROOT / "bench" / "bench_core.py")
    module = importlib.util.module_from_spec(spec)
    # eventsourcing finds aggregate classes again by module name (its "topic").
    sys.modules["bench_core"] = module
    spec.loader.exec_module(module)
    return module


def test_bench_corpus_is_a_valid_deterministic_log(tmp_path: Path) -> None:
    bench = _bench()
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert bench.write_corpus(a, 300) == bench.write_corpus(b, 300)
    assert logfile.verify(a).seq == 300
    kinds = {e.__struct_config__.tag for e in logfile.stream(a)}
    assert kinds == {"match.start", "note", "random"}


def test_bench_peer_rebuilds_the_same_events() -> None:
    pytest.importorskip("eventsourcing")
    bench = _bench()
    seconds = bench.peer_rebuild(bench.bodies(50), runs=1)
    assert seconds is not None and seconds > 0
