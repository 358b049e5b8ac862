"""The numbers worth charting after each event, as a game declares them (its ``charts`` module).

Used by the match page (kifu/auditor/page/) to draw the state over time. A game's
``Charts`` names its metrics, in the order a page draws them (their labels are the
catalogue's ``chart.<name>``), and a function from a Frame to the values after that event. A game with
no charts draws nothing. Its ``board`` gives the key figures a table watches while
recording (``kifu record``): per player and for the table, a few labelled values.

A series key is ``metric:player`` for a per-player number and ``metric`` for a
number of the whole table. Nothing here does I/O.
"""

from __future__ import annotations

from typing import Any, NamedTuple
from collections.abc import Callable, Iterable

from .base import Frame

Values = dict[str, float]
SeriesFn = Callable[[Frame[Any]], Values]


class Metric(NamedTuple):
    """One chart: the metric name used in series keys; its label is the catalogue's ``chart.<name>``."""

    name: str
    """The part of a series key before ``:``."""


class Figure(NamedTuple):
    """One key figure of the state, as the recording screen shows it; its label is the catalogue's ``board.<key>``."""

    key: str
    """What it is (``life``, ``turn``)."""
    value: Any
    """A number or a short text (``ダタラ 2``)."""


Board = list[tuple[str | None, tuple[Figure, ...]]]
"""(player id, or None for the whole table; that row's figures), in seat order, the table last."""


class Charts(NamedTuple):
    """What a game charts: its metrics and the values after a frame; and its key figures."""

    metrics: tuple[Metric, ...] = ()
    """The charts, in drawing order."""
    values: SeriesFn = lambda frame: {}
    """Frame -> the values worth charting after that event."""
    board: Callable[[Frame[Any]], Board] = lambda frame: []
    """Frame -> the key figures a table watches while it records."""


NONE = Charts()
"""A game that charts nothing."""


def key(metric: str, player: str | None = None) -> str:
    """The series key of a metric, for one player or for the table."""
    return metric if player is None else f"{metric}:{player}"


def split(series_key: str) -> tuple[str, str | None]:
    """(metric, player or None) of a series key."""
    metric, _, player = series_key.partition(":")
    return metric, player or None


def per_player(metric: str, values: Iterable[tuple[str, Any]]) -> Values:
    """One value per player, keyed ``metric:player``."""
    return {key(metric, p): float(v) for p, v in values}


def table(charts: Charts, frames: Iterable[Frame[Any]]) -> list[tuple[int, Values]]:
    """(seq, values) after every frame: the data of a game's charts."""
    return [(f.seq, charts.values(f)) for f in frames]
