"""Magic coin flips (CR 705, seed 001): citations, options and helpers shared by the rule areas."""

from __future__ import annotations

from typing import Any

from kifu.auditor.base import Option

from ..cards import Card
from ..projection import Group, Instruction, State, card_of, groups_in_order

CR_705_1 = "CR 705.1; seed 001 §引用：総合ルール 705.1"
CR_705_2 = "CR 705.2; seed 001 §ルール, §引用：総合ルール 705.2"
CR_705_3 = "CR 705.3 (2025, Edgar, King of Figaro); reference A1"
THUMB = "Saturday School #56 (2003-12-13), Krark's Thumb; CR 614.1a"
CARD = "card text (reference A2, Forge card script) with CR 705.2"

STACKING = Option(
    name="thumbs_stack",
    default="multiply",
    choices=("multiply", "add"),
    citation="Saturday School #56; reference A1 (multiplication marked to verify against the Scryfall ruling)",
)

STATED = Option(
    name="stated_results",
    default=True,
    choices=(True, False),
    citation=CR_705_3,
)

RECORDED = Option(
    name="recorded_coins",
    default="all",
    choices=("all", "kept"),
    citation="reference A3 (Forge logs only the kept coin), A4 item 10",
)

CALLS = Option(
    name="call_counts",
    default="last-before-result",
    choices=("last-before-result", "first"),
    citation="CR 705.2 (the flipper calls); seed 001 §ルール (宣言→投げる の順序も可); the seed is silent on changing a call",
)

UNRECORDED = Option(
    name="unrecorded_payoffs",
    default="undecided",
    choices=("undecided", "error"),
    citation="CR 705 says nothing of recording effects; docs/games/mtg.md (mtg.payoff is optional)",
)

OPTIONS = (STACKING, STATED, RECORDED, CALLS, UNRECORDED)


def expected_coins(thumbs: int, stacking: str) -> int:
    """Coins one replaced flip makes under ``thumbs`` Krark's Thumbs."""
    return 1 + thumbs if stacking == "add" else 2 ** thumbs


def flip_of(state: State, flip: str) -> Instruction | None:
    return state.flips.get(flip)


def card(state: State, ins: Instruction) -> Card | None:
    return card_of(state, ins.card)


def new_group(before: Instruction | None, n: int) -> bool:
    """True when group ``n`` had no coin before this event."""
    return before is None or n not in before.groups or not before.groups[n].coins


def last_coin_seq(ins: Instruction) -> int:
    seqs = [c.seq for g in groups_in_order(ins) for c in g.coins]
    return seqs[-1] if seqs else ins.seq


def players_flipping(g: Group) -> list[str]:
    return list(dict.fromkeys(c.player for c in g.coins))


def flip_subject(ins: Instruction, group: int) -> tuple[str, str, int]:
    """What a finding about one flip of an instruction is about (``Hit.about``)."""
    return ("flip", ins.flip, group)


def every_flip(ins: Instruction) -> tuple[tuple[str, str, int], ...]:
    """Every flip of an instruction: what its payoffs and its length follow from (``Hit.follows``)."""
    return tuple(flip_subject(ins, n) for n in sorted(ins.groups))


def evidence(ins: Instruction, **more: Any) -> dict[str, Any]:
    return {"flip": ins.flip, "card": ins.card, "flipper": ins.flipper, **more}

