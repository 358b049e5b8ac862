"""The ``generic`` game: shared events only (imported chat, dice and notes).

Used for logs whose game kifu does not audit yet, and by the importers when a
table's messages map to no game.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping

import msgspec

from kifu.events.base import MatchStarted, RandomRolled
from kifu.projector.base import Dispatch


class State(msgspec.Struct, frozen=True, kw_only=True):
    """Counts of random outcomes per player."""

    rolls: dict[str, int] = {}
    """Random events recorded, by ``by`` (``?`` when nobody is named)."""


def initial(start: MatchStarted, options: Mapping[str, Any]) -> State:
    return State()


apply: Dispatch[State] = Dispatch()


@apply.on(RandomRolled)
def _rolled(state: State, event: RandomRolled) -> State:
    who = event.by or "?"
    return State(rolls={**state.rolls, who: state.rolls.get(who, 0) + 1})
