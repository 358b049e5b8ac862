"""Magic coin flips (CR 705, MTG Wiki «コイン投げ»): citations, options and helpers shared by the rule areas."""

from __future__ import annotations

from typing import Any

from kifu.auditor.base import Option

from ..cards import Card
from ..projection import Group, Instruction, State, card_of, groups_in_order


STACKING = Option(
    docs="mtg",
    name="thumbs_stack",
    default="multiply",
    choices=("multiply", "add"),
)

STATED = Option(
    docs="mtg",
    name="stated_results",
    default=True,
    choices=(True, False),
)

RECORDED = Option(
    docs="mtg",
    name="recorded_coins",
    default="all",
    choices=("all", "kept"),
)

CALLS = Option(
    docs="mtg",
    name="call_counts",
    default="last-before-result",
    choices=("last-before-result", "first"),
)

UNRECORDED = Option(
    docs="mtg",
    name="unrecorded_payoffs",
    default="undecided",
    choices=("undecided", "error"),
)

OPTIONS = (STACKING, STATED, RECORDED, CALLS, UNRECORDED)


def expected_coins(thumbs: int, stacking: str) -> int:
    """Coins one replaced flip makes under ``thumbs`` Krark's Thumbs."""
    return 1 + thumbs if stacking == "add" else 2**thumbs


def card(state: State, ins: Instruction) -> Card | None:
    return card_of(state, ins.card)


def last_coin_seq(ins: Instruction) -> int:
    seqs = [c.seq for g in groups_in_order(ins) for c in g.coins]
    return seqs[-1] if seqs else ins.seq


def players_flipping(g: Group) -> list[str]:
    return list(dict.fromkeys(c.player for c in g.coins))


def flip_subject(ins: Instruction, group: int) -> tuple[str, str, int]:
    """What a finding about one flip of an instruction is about (``Flag.about``)."""
    return ("flip", ins.flip, group)


def every_flip(ins: Instruction) -> tuple[tuple[Any, ...], ...]:
    """Every flip of an instruction, and how many it made: what its payoffs follow from (``Flag.follows``; a
    flip recorded after the effect was over, and paid for, is one mistake)."""
    return tuple(flip_subject(ins, n) for n in sorted(ins.groups)) + (("length", ins.flip),)


def evidence(ins: Instruction, **more: Any) -> dict[str, Any]:
    return {"flip": ins.flip, "card": ins.card, "flipper": ins.flipper, **more}
