"""Shared helpers of the World Trigger rulebook (ボーダー隊員ソロランク戦ゲーム（仮）): citations, options, catalogue access, the distance."""

from __future__ import annotations

from typing import Any

from kifu.auditor.base import Option
from kifu.events.i18n import Msg

from .. import cards
from ..projection import Agent, State, agent


OPTIONS: tuple[Option, ...] = (
    Option(
        docs="wt",
        name="starting_trion",
        default=100,
    ),
    Option(
        docs="wt",
        name="initial_order",
        default="turn1",
        choices=("turn1", "seat"),
    ),
    Option(
        docs="wt",
        name="use_limit",
        default="effect",
        choices=("effect", "trigger"),
    ),
    Option(
        docs="wt",
        name="counter_first",
        default="latest",
        choices=("latest", "initiator"),
    ),
    Option(
        docs="wt",
        name="tags_expire",
        default="turn",
        choices=("turn", "phase"),
    ),
)


def cat(s: Any) -> cards.Catalogue:
    """The catalogue of a Step or End; the bundled example when the engine was given none."""
    return s.catalogue if s.catalogue is not None else cards.load()


def who(s: Any) -> Agent:
    """The acting player's agent before the event."""
    return agent(s.before.game, s.event.player)


def slots(a: Agent, trigger: str) -> list[str]:
    """The slots (``main``, ``sub``) where ``a`` has ``trigger`` on the table (both if set twice)."""
    return [slot for slot, t in (("main", a.set_main), ("sub", a.set_sub)) if t == trigger]


def set_slot(a: Agent, trigger: str, face_down_first: bool = False) -> str | None:
    """A slot holding ``trigger``; with ``face_down_first`` a face-down one if there is one."""
    found = slots(a, trigger)
    if face_down_first:
        found.sort(key=lambda slot: face_up(a, slot))
    return found[0] if found else None


def face_up(a: Agent, slot: str) -> bool:
    return a.main_face_up if slot == "main" else a.sub_face_up


def unknown(name: str, effect: str | None = None) -> dict[str, Any]:
    """Evidence of an undecided finding: a trigger or effect the catalogue lacks."""
    what = name if effect is None else f"{name}/{effect}"
    return {"reason": Msg("reason.wt.not_in_catalogue", what=what), "trigger": name}


def distance_now(g: State) -> int | None:
    """The distance a new declaration starts from: pending moves of a closing chain count."""
    d = g.distance
    for decl in reversed(g.chain):
        if not decl.resolved and decl.to is not None:
            d = decl.to
    return d
