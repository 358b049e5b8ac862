"""World Trigger plots and tags (seed 002 ■5): the seed's examples and every plot of sampled sheets."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kifu.auditor import registry
from kifu.auditor.engine import Engine
from kifu.events import table
from kifu.events.base import MatchStarted
from kifu.games.worldtrigger import projection as proj
from kifu.games.worldtrigger.rules import turn

SEED_SHEET = ["move", "move", "shooting", "shooting", "close", "close"]
ALL_PLOTS = list(itertools.product(range(1, 7), repeat=4))
sheets = st.lists(st.sampled_from(["move", "shooting", "close"]), min_size=6, max_size=6)


def spec(sheet: list[str], attack: tuple[int, int], defence: tuple[int, int]) -> Counter[str]:
    """The rule as the seed words it, per attacker die: blocked when the defender plotted the same face."""
    out: Counter[str] = Counter()
    for die in attack:
        if all(die != d for d in defence):
            out[sheet[die - 1]] += 1
    return out


@pytest.mark.parametrize(
    "attack,defence,tags",
    [
        ([1, 4], [2, 6], ["move", "shooting"]),  # ■5 例: 1 and 4 give one [移動] and one [射撃戦]
        ([5, 5], [1, 2], ["close", "close"]),  # ■5 例: 5,5 gives two [近距離戦]
        ([1, 4], [3, 4], ["move"]),  # ■5 例: the 4 is blocked, only [移動]
        ([5, 5], [5, 6], []),  # ■5 例: one defender 5 blocks both 5s
    ],
)
def test_seed_examples(attack: list[int], defence: list[int], tags: list[str]) -> None:
    assert Counter(proj.gained(SEED_SHEET, attack, defence)) == Counter(tags)


@given(sheets)
def test_every_plot_of_a_sheet_gives_the_unblocked_faces(sheet: list[str]) -> None:
    for a1, a2, d1, d2 in ALL_PLOTS:
        assert Counter(proj.gained(sheet, [a1, a2], [d1, d2])) == spec(sheet, (a1, a2), (d1, d2))


def _events(sheet: list[str], attack: list[int], defence: list[int], tags: list[str]):
    codec = table.codec("worldtrigger")
    raw = [
        {
            "type": "match.start",
            "format": "kifu/1",
            "game": "worldtrigger",
            "match": "p",
            "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        },
        {"type": "wt.sheet", "player": "a", "faces": sheet},
        {"type": "wt.order", "turn": 1, "first": "a", "tie_break": "janken"},
        {"type": "wt.set", "player": "a", "main": "アステロイド", "sub": "シールド"},
        {"type": "wt.set", "player": "b", "main": "アステロイド", "sub": "シールド"},
        {"type": "wt.plot", "attacker": "a", "attack": attack, "defence": defence},
        {"type": "wt.tags", "player": "a", "tags": tags},
    ]
    return [codec.convert({**e, "seq": i, "prev": None if i == 1 else "x"}) for i, e in enumerate(raw, 1)]


def _plot_findings(events) -> list[int]:
    g = registry.game("worldtrigger")
    assert isinstance(events[0], MatchStarted)
    found = Engine(g.projection, (turn.tags_are_unblocked_faces,)).run(events, {}, None, strict=True)
    return [f.seq for f in found]


@given(sheets, st.tuples(*[st.integers(1, 6)] * 4), st.data())
def test_rule_accepts_the_right_tags_and_rejects_others(sheet, plot, data) -> None:
    a1, a2, d1, d2 = plot
    right = sorted(spec(sheet, (a1, a2), (d1, d2)).elements())
    assert _plot_findings(_events(sheet, [a1, a2], [d1, d2], right)) == []
    wrong = data.draw(st.lists(st.sampled_from(["move", "shooting", "close"]), max_size=3))
    if Counter(wrong) != Counter(right):
        assert _plot_findings(_events(sheet, [a1, a2], [d1, d2], wrong)) == [7]
