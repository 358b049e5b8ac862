"""What every game owes, checked on every game of the list (``GAMES``): a game added as its folder and one
line is tested here without a line of this file changing (tests/test_games_added.py runs it on a toy game).

* its one description (``GAME``) names exactly the optional parts its folder has, each declaring what
  ``PARTS`` says;
* with a simulator: its legal matches audit with no error or warning, their events round-trip through the
  codec, a replay is deterministic and its snapshots agree with a replay from the start, and the
  benchmarks' corpus of it is a log that verifies.

One mistake, one finding, for every game with a simulator: tests/test_one_finding.py.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu import app
from kifu.auditor import registry
from kifu.auditor.base import PARTS
from kifu.events import table
from kifu.events import logfile
from kifu.events.codec import encode
from kifu.projector.base import Replay

GAMES = list(table.ids())
SIMULATED = [g for g in GAMES if table.has_part(g, "sim")]
REQUIRED = {"sim": ("simulate", "MISTAKES", "TURNS"), "listing": ("listing",)}
"""What each optional part must declare (a views or stats part declares any of its tables or statistics)."""


@pytest.mark.parametrize("game", GAMES)
def test_the_description_names_every_part_of_the_folder(game: str) -> None:
    g = registry.game(game)
    assert set(g.parts) <= set(PARTS), g.parts
    assert {p for p in PARTS if table.has_part(game, p)} == set(g.parts)
    for name in g.parts:
        module = g.part(name)
        assert all(hasattr(module, attr) for attr in REQUIRED.get(name, ())), (game, name)
    assert g.events is table.part(game, "events").EVENTS  # the log layer reads the same events part


def _match(game: str, seed: int, turns: int | None = None) -> list:
    return app.chain(game, table.part(game, "sim").simulate(seed, turns))


@pytest.mark.parametrize("game", SIMULATED)
@settings(max_examples=8)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_legal_simulated_matches_give_no_error_or_warning(game: str, seed: int) -> None:
    findings = app.audit(_match(game, seed), strict=True).findings
    assert [(f.code, f.seq, f.message.en) for f in findings if f.severity != "info"] == []


@pytest.mark.parametrize("game", SIMULATED)
@settings(max_examples=5)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_simulated_events_round_trip_through_the_codec(game: str, seed: int) -> None:
    codec = table.codec(game)
    for event in _match(game, seed):
        assert codec.decode(encode(event)) == event


@pytest.mark.parametrize("game", SIMULATED)
@settings(max_examples=5)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), data=st.data())
def test_replay_is_deterministic_and_snapshots_agree(game: str, seed: int, data: st.DataObject) -> None:
    events = _match(game, seed)
    g = registry.game(game)
    options = registry.options(g, events[0])
    replay = Replay(g.projection, events, options, every=7)
    seq = data.draw(st.integers(min_value=1, max_value=len(events)))
    assert replay.state_at(seq) == replay.replay_from_start(seq) == Replay(g.projection, events, options).state_at(seq)


def _sims():
    spec = importlib.util.spec_from_file_location("sims", ROOT / "bench" / "sims.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["sims"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", SIMULATED)
def test_the_benchmarks_corpus_of_each_game_verifies(game: str, tmp_path: Path) -> None:
    sims = _sims()
    assert game in sims.GAMES
    paths = sims.corpus(tmp_path, game, 2, 3)
    assert paths == sims.corpus(tmp_path, game, 2, 3)  # written once, reused
    for path in paths:
        assert logfile.verify(path).seq == len(path.read_bytes().splitlines())
        assert not app.audit(path).errors
