"""Adding a game touches one folder and one line (docs/hacking.md, "Adding a game").

A toy dice game is written as source files into a folder of its own and its id added
to ``kifu.games.GAMES`` (the ``install_game`` fixture does exactly that); then every
layer takes it without another change: a log is created, appended, verified, shown,
audited (its rule firing with the words of its own catalogue, in both languages),
charted on the page, ingested with its own warehouse view, and listed by ``kifu rules``.
The suite's tests of every game (tests/test_games.py: its description, legal simulated
matches, the codec, replays, the benchmarks' corpus; tests/test_one_finding.py: one
mistake, one finding) run on it too, in a pytest of their own that installs it the same way.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

TOY = {
    "events.py": '''"""Toy: a race to 10 with one die."""

from typing import Annotated

from msgspec import Meta

from kifu.events.base import Event


class Rolled(Event, tag="toy.roll", kw_only=True):
    """A player rolled the die and moved."""

    player: str
    """Who rolled."""
    face: Annotated[int, Meta(ge=1, le=6)]
    """The face."""


EVENTS = (Rolled,)
''',
    "projection.py": '''"""Toy's state: each player's position."""

from typing import Any, Mapping

import msgspec

from kifu.events.base import MatchStarted
from kifu.projector.base import Dispatch

from .events import Rolled


class State(msgspec.Struct, frozen=True, kw_only=True):
    position: dict[str, int] = {}
    last: str | None = None


def initial(start: MatchStarted, options: Mapping[str, Any]) -> State:
    return State(position={p.id: 0 for p in start.players})


apply: Dispatch[State] = Dispatch()


@apply.on(Rolled)
def _rolled(state: State, e: Rolled) -> State:
    return State(position={**state.position, e.player: state.position.get(e.player, 0) + e.face}, last=e.player)
''',
    "rules.py": '''"""Toy's one rule: players take turns."""

from kifu.auditor.base import Flag, Severity, rule

from .events import Rolled


@rule(code="TOY-TURN-001", name="players-alternate", severity=Severity.ERROR, on=(Rolled,))
def players_alternate(s):
    if s.before.game.last == s.event.player:
        yield Flag(s.event.seq, {"player": s.event.player})


RULES = (players_alternate,)
''',
    "charts.py": """from kifu.projector.series import Charts, Metric, per_player

CHARTS = Charts((Metric("position"),), lambda frame: per_player("position", frame.game.position.items()))
""",
    "game.py": """from kifu.auditor.base import Game

from . import projection
from .charts import CHARTS
from .events import EVENTS
from .rules import RULES

GAME = Game(id="toy", prefix="toy", code="TOY", events=EVENTS, projection=projection, rules=RULES,
            charts=CHARTS, parts=("sim", "views"))
""",
    "sim.py": '''"""Toy: legal races, players taking turns; the one mistake it can make is a player rolling twice."""

import random

from kifu.games.mistakes import Mistake, now

MISTAKES = {"roll-twice": "TOY-TURN-001"}
TURNS = 10


def simulate(seed: int, turns: int | None = None, mistake: Mistake | None = None) -> list[dict]:
    rng = random.Random(seed)
    players = [{"id": "a", "name": "Aoi"}, {"id": "b", "name": "Ren"}]
    events = [{"type": "match.start", "format": "kifu/1", "game": "toy", "match": f"toy-{seed}", "players": players}]
    who = "a"
    for _ in range(TURNS if turns is None else turns):
        events.append({"type": "toy.roll", "by": who, "player": who, "face": rng.randint(1, 6)})
        if now(mistake, "roll-twice"):
            events.append({"type": "toy.roll", "by": who, "player": who, "face": rng.randint(1, 6)})
            mistake.made(len(events), MISTAKES["roll-twice"])
        who = "b" if who == "a" else "a"
    return events
''',
    "views.py": """VIEWS = {"toy_rolls": "SELECT match, seq, json_extract_string(line, '$.player') AS player, "
                       "json_extract(line, '$.face')::INTEGER AS face FROM events WHERE type = 'toy.roll'"}
""",
    "locale/en.json": json.dumps(
        {
            "game.toy.title": "Toy race",
            "chart.position": "Position",
            "rule.TOY-TURN-001.title": "players alternate",
            "rule.TOY-TURN-001.message": "{player} rolled twice in a row",
            "rule.TOY-TURN-001.checks": "No player rolls twice in a row.",
            "rule.TOY-TURN-001.why": "Turns alternate.",
            "rule.TOY-TURN-001.bad": "a rolls; a rolls",
            "rule.TOY-TURN-001.good": "a rolls; b rolls",
            "rule.TOY-TURN-001.citation": "{rules} §1",
            "doc.toy.rules.name": "Toy rules",
            "doc.toy.rules.title": "The rules of the toy race",
        }
    ),
    "locale/ja.json": json.dumps(
        {
            "game.toy.title": "おもちゃの競争",
            "chart.position": "位置",
            "rule.TOY-TURN-001.title": "交互に振る",
            "rule.TOY-TURN-001.message": "{player} が続けて 2 回振りました",
            "rule.TOY-TURN-001.checks": "同じプレイヤーが続けて振らない。",
            "rule.TOY-TURN-001.why": "手番は交互。",
            "rule.TOY-TURN-001.bad": "a が振る; a が振る",
            "rule.TOY-TURN-001.good": "a が振る; b が振る",
            "rule.TOY-TURN-001.citation": "{rules} §1",
            "doc.toy.rules.name": "おもちゃの競争のルール",
            "doc.toy.rules.title": "おもちゃの競争のルール",
        },
        ensure_ascii=False,
    ),
}


@pytest.fixture
def toy(install_game) -> Path:
    return install_game("toy", TOY)


def test_every_layer_takes_a_game_added_as_one_folder_and_one_line(toy: Path, tmp_path: Path, kifu) -> None:
    from kifu.games import GAMES

    assert "toy" in GAMES and toy.name == "toy"
    log = tmp_path / "race.jsonl"
    assert kifu("new", log, "-g", "toy", "-m", "race-1", "-p", "a=Aoi", "-p", "b=Ren").code == 0
    for who, face in (("a", 3), ("b", 5), ("b", 2)):
        r = kifu("append", log, "type=toy.roll", f"by={who}", f"player={who}", f"face={face}")
        assert r.code == 0, r.err
    assert kifu("verify", log).code == 0
    assert "toy.roll" in kifu("show", log, "-f", "csv").out
    assert kifu("state", log, "--path", "game.position.b").out.strip() == "7"
    en, ja = kifu("audit", log, "--lang", "en"), kifu("audit", log, "--lang", "ja")
    assert en.code == ja.code == 1
    assert "TOY-TURN-001" in en.out and "Ren (b) rolled twice in a row" in en.out
    assert "Ren (b) が続けて 2 回振りました" in ja.out
    page = kifu("report", log, "--lang", "ja")
    assert "位置" in page.out and "<svg" in page.out
    assert "TOY-TURN-001" in kifu("rules", "-g", "toy").out
    assert "toy.roll" in kifu("schema", "-g", "toy").out
    bad = tmp_path / "bad.jsonl"
    assert kifu("new", bad, "-g", "toy", "-m", "race-2", "-p", "a=A").code == 0
    assert kifu("append", bad, "type=toy.roll", "player=a", "face=7").code == 2


def test_the_warehouse_takes_its_views(toy: Path, tmp_path: Path, kifu) -> None:
    log = tmp_path / "race.jsonl"
    kifu("new", log, "-g", "toy", "-m", "race-1", "-p", "a=Aoi", "-p", "b=Ren")
    kifu("append", log, "type=toy.roll", "by=a", "player=a", "face=4")
    db = tmp_path / "w.duckdb"
    r = kifu("ingest", log, "--db", db, "--jobs", "1")
    assert r.code == 0, r.err
    out = kifu("sql", "SELECT player, face FROM toy_rolls", "--db", db, "-f", "csv")
    assert out.out.splitlines() == ["player,face", "a,4"]


PLUGIN = """Installs the toy game before the tests are collected: its folder and one line in GAMES."""
PLUGIN_CODE = f"""{PLUGIN!r}

from pathlib import Path


def pytest_configure(config):
    import kifu.games

    kifu.games.__path__.append(str(Path(__file__).parent))  # the folder the toy game is in
    kifu.games.GAMES = (*kifu.games.GAMES, "toy")
    kifu.games.register()
"""


def test_the_suite_of_every_game_runs_on_a_game_added(toy: Path, tmp_path: Path) -> None:
    """The tests that loop over the games take the toy game as they take the bundled ones, the one-finding
    property tests and the benchmarks' corpus included, with no file outside its folder edited."""
    (toy.parent / "toy_plugin.py").write_text(PLUGIN_CODE, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(toy.parent), str(ROOT)])}
    tests = ["tests/test_games.py", "tests/test_one_finding.py"]
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-o",
            "addopts=",
            "-p",
            "toy_plugin",
            "-p",
            "no:cacheprovider",
            "-v",
            "-k",
            "toy",
        ]
        + tests,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    passed = [line for line in run.stdout.splitlines() if "[toy" in line and "PASSED" in line]
    names = {line.split("::")[1].split("[")[0] for line in passed}
    assert names == {
        "test_the_description_names_every_part_of_the_folder",
        "test_legal_simulated_matches_give_no_error_or_warning",
        "test_simulated_events_round_trip_through_the_codec",
        "test_replay_is_deterministic_and_snapshots_agree",
        "test_the_benchmarks_corpus_of_each_game_verifies",
        "test_one_mistake_gives_exactly_one_error_finding",
        "test_each_kind_of_mistake_in_each_game_gives_exactly_one_error_finding",
        "test_the_unfolded_list_keeps_every_finding",
    }, run.stdout[-3000:]
