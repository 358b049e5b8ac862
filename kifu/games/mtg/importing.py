"""Magic coin flips from a chat or a client log: which round a coin belongs to, by what the card says.

Source: the card catalogue (``cards.json``: Mana Clash, ``flippers: each-player``, ``sequence:
until-both-heads``: you and an opponent each flip, the process repeats until both land heads in one
round), Krark's Thumb (Saturday School #56: each flip you would make becomes two, 2^k under k
Thumbs, or k + 1 with the table's ``thumbs_stack=add``).

A client's coin button (Cockatrice's "flipped a coin", a BCDice ``1D2``) says nothing of rounds,
and nobody calls a heads/tails-only flip, so the mapping leaves such a coin's ``group`` out. Here
it is given one: for a card every player flips round by round, a coin of a player whose coins of
this round are all in while the other player's are not is a re-flip and stays in the round (the
audit's MTG-THUMB-001 then names it); once both players' coins of the round are in, the next coin
opens the next round. Any other card's coins stay in group 1, as before. A group given in the
chat (``!coin 表 2``, a ``!call`` with its group) is kept.

The state lives in the converter's memory (``_rounds``), replaced and never changed in place, so
``kifu record``'s dry runs and undo restore it with the rest of the memory.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .cards import Catalogue, for_match

KEY = "_rounds"
"""The converter memory's entry holding the rounds' state."""

Placer = Callable[[dict[str, Any], dict[str, dict[str, Any]]], dict[str, Any]]


def coins_per_flip(thumbs: int, stacking: str) -> int:
    """Coins one flip of a player makes under ``thumbs`` Krark's Thumbs (the auditor's ``expected_coins``)."""
    return 1 + thumbs if stacking == "add" else 2**thumbs


def placer(players: Sequence[str], rules: Mapping[str, Any] | None, catalogue: Mapping[str, Any] | None) -> Placer:
    """The function the importer runs on every event it makes, in order (``rules``: ``match.start.rules``;
    ``catalogue``: the match's own cards). ``players`` (the match's ids) is not needed: the card names
    who flips, its flipper and one opponent (Mana Clash's "target opponent"), the first other player
    whose coin comes."""
    cards = for_match(catalogue)
    stacking = str((rules or {}).get("thumbs_stack", "multiply"))

    def place(e: dict[str, Any], memory: dict[str, dict[str, Any]]) -> dict[str, Any]:
        state = memory.get(KEY) or {"thumbs": {}, "flips": {}, "last": None}
        kind = e.get("type")
        if kind == "mtg.enters" and _is_thumb(cards, e.get("card")):
            state = {**state, "thumbs": {**state["thumbs"], str(e["permanent"]): e.get("controller")}}
        elif kind == "mtg.leaves":
            state = {**state, "thumbs": {k: v for k, v in state["thumbs"].items() if k != e.get("permanent")}}
        elif kind == "mtg.flip":
            flip: dict[str, Any] = {
                "rounds": _by_round(cards, e),
                "flipper": e.get("flipper"),
                "round": 1,
                "coins": {},
                "who": [],
            }
            state = {**state, "flips": {**state["flips"], str(e["flip"]): flip}}
        elif kind in ("mtg.coin", "mtg.keep") and e.get("flip") in state["flips"]:
            e, flip = _placed(e, state["flips"][e["flip"]], state["thumbs"], stacking)
            state = {**state, "flips": {**state["flips"], e["flip"]: flip}}
        memory[KEY] = state
        return e

    return place


def _is_thumb(cards: Catalogue, name: Any) -> bool:
    card = cards.get(str(name)) if name else None
    return card is not None and card.modifier == "thumb"


def _by_round(cards: Catalogue, e: dict[str, Any]) -> bool:
    """The card has every player flip round after round (Mana Clash), by the catalogue or, for a card
    it lacks, by the instruction's own ``sequence``."""
    card = cards.get(str(e.get("card", "")))
    if card is not None:
        return card.flippers == "each-player"
    return e.get("sequence") == "until-both-heads"


def _placed(
    e: dict[str, Any], flip: dict[str, Any], thumbs: dict[str, Any], stacking: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The coin or keep with its round, and the flip's state after it."""
    player = e.get("player") or flip["flipper"]
    if e["type"] == "mtg.keep":
        if "group" not in e:
            e = {**e, "group": flip["coins"].get(player, [flip["round"]])[-1] if flip["rounds"] else 1}
        return e, flip
    if "group" in e or not flip["rounds"]:
        group = int(e.get("group", 1))
        flip = {**flip, "round": group} if flip["rounds"] else flip
    else:
        group = _round_of(player, flip, thumbs, stacking)
        e = {**e, "group": group}
    who = flip["who"] if player in flip["who"] else [*flip["who"], player]
    coins = {**flip["coins"], player: [*flip["coins"].get(player, []), group]}
    return e, {**flip, "round": group, "who": who, "coins": coins}


def _round_of(player: str, flip: dict[str, Any], thumbs: dict[str, Any], stacking: str) -> int:
    """The round a coin of ``player`` with no group belongs to: the next one once both players' coins
    of the current round are in, else the current one (a player flipping again before the other is a
    re-flip, not a new round)."""
    current = flip["round"]
    flippers = flip["who"][:2]
    if len(flippers) < 2 or player not in flippers:
        return current  # the first coins of the flip: the second player has not flipped yet
    want = {p: coins_per_flip(sum(1 for c in thumbs.values() if c == p), stacking) for p in flippers}
    done = all(flip["coins"].get(p, []).count(current) >= want[p] for p in flippers)
    return current + 1 if done else current
