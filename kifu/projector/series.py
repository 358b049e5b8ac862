"""The numbers worth charting for each game, read from its projected State.

Used by the match page (kifu/auditor/page/) to draw the state over time:
ガンナガン (seed 000) life and voltage, Magic coin flips (seed 001, CR 705)
flips won and lost, World Trigger (seed 002) trion and distance, Weiss Schwarz
(seed 003) level, clock and stock. A game with no entry charts nothing.

A series key is ``metric:player`` for a per-player number and ``metric`` for a
number of the whole table; the metric names are listed in ``METRICS`` with
their ja and en labels, in the order a page draws them. Nothing here does I/O.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, NamedTuple

from .base import Frame

Values = dict[str, float]
SeriesFn = Callable[[Frame[Any]], Values]


class Metric(NamedTuple):
    """One chart: the metric name used in series keys and its labels."""

    name: str
    """The part of a series key before ``:``."""
    ja: str
    """Japanese label."""
    en: str
    """English label."""


def key(metric: str, player: str | None = None) -> str:
    """The series key of a metric, for one player or for the table."""
    return metric if player is None else f"{metric}:{player}"


def split(series_key: str) -> tuple[str, str | None]:
    """(metric, player or None) of a series key."""
    metric, _, player = series_key.partition(":")
    return metric, player or None


def _per_player(metric: str, values: Iterable[tuple[str, Any]]) -> Values:
    return {key(metric, p): float(v) for p, v in values}


def _gunandgun(frame: Frame[Any]) -> Values:
    players = frame.game.players
    return {
        **_per_player("life", ((p, pl.life) for p, pl in players.items())),
        **_per_player("voltage", ((p, pl.voltage) for p, pl in players.items())),
    }


def _mtg(frame: Frame[Any]) -> Values:
    # Every player appears from the start (at 0) so a player who never wins a
    # flip still has a line at zero rather than no line at all.
    state = frame.game
    return {
        **_per_player("wins", ((p, state.wins.get(p, 0)) for p in state.players)),
        **_per_player("losses", ((p, state.losses.get(p, 0)) for p in state.players)),
    }


def _worldtrigger(frame: Frame[Any]) -> Values:
    state = frame.game
    # Trion counts from the deal; before it the agent holds no chips yet (not a loss).
    out = _per_player("trion", ((p, a.trion) for p, a in state.agents.items() if a.dealt_seq is not None))
    # Distance is unknown until the initial distance is rolled: no point yet.
    if state.distance is not None:
        out[key("distance")] = float(state.distance)
    return out


def _weiss(frame: Frame[Any]) -> Values:
    sides = frame.game.sides
    return {
        **_per_player("level", ((p, len(s.level)) for p, s in sides.items())),
        **_per_player("clock", ((p, len(s.clock)) for p, s in sides.items())),
        **_per_player("stock", ((p, s.stock) for p, s in sides.items())),
    }


SERIES: Mapping[str, SeriesFn] = {
    "gunandgun": _gunandgun,
    "mtg": _mtg,
    "worldtrigger": _worldtrigger,
    "weiss": _weiss,
}
"""Game id -> Frame -> the values worth charting after that event."""

METRICS: Mapping[str, tuple[Metric, ...]] = {
    "gunandgun": (Metric("life", "ライフ", "Life"), Metric("voltage", "電圧", "Voltage")),
    "mtg": (Metric("wins", "フリップに勝った回数", "Flips won"),
            Metric("losses", "フリップに負けた回数", "Flips lost")),
    "worldtrigger": (Metric("trion", "トリオン", "Trion"), Metric("distance", "距離", "Distance")),
    "weiss": (Metric("level", "レベル", "Level"), Metric("clock", "クロック", "Clock"),
              Metric("stock", "ストック", "Stock")),
}
"""Game id -> the charts of that game, in drawing order."""


def values(game_id: str, frame: Frame[Any]) -> Values:
    """The charted values after one frame; empty for a game with no series."""
    fn = SERIES.get(game_id)
    return fn(frame) if fn is not None else {}


def table(game_id: str, frames: Iterable[Frame[Any]]) -> list[tuple[int, Values]]:
    """(seq, values) after every frame: the data of a game's charts."""
    return [(f.seq, values(game_id, f)) for f in frames]
