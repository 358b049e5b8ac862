"""Seeded generator of legal Magic coin-flip matches (CR 705, MTG Wiki «コイン投げ», Krark's Thumb rulings).

``simulate(seed, turns, mistake)`` is every game's one signature (kifu/games/mistakes.py);
``legal_match(seed, …)`` chooses the Thumbs, their stacking and Edgar itself. Each plays a few turns in which the players flip coins for
cards from the catalogue, with watchers and optionally Krark's Thumbs in play,
and records everything as ``mtg.*`` event bodies: calls before coins, every
Thumb coin then the keep, outcomes from the kept coin, sequences that stop
where the card says, and payoffs that match the counted wins. It is written
from the card facts, independently of the auditor, so the property tests can
compare the two. The same seed always gives the same match.

Given a ``Mistake`` (kifu/games/mistakes.py) it makes one mistake of a kind in ``MISTAKES`` and
plays on from what it recorded, as a table that did not notice: payoffs and the
decision to flip again follow the outcome the table wrote down.
"""

from __future__ import annotations

import random
from typing import Any

from ..mistakes import Mistake, MakesMistakes, now
from .cards import Card, builtin

PLAYERS = ("a", "b")
FIXED = (
    "Mana Crypt",
    "Stitch in Time",
    "Frenetic Efreet",
    "Bottle of Suleiman",
    "Sorcerer's Strongbox",
    "Goblin Archaeologist",
    "Krark, the Thumbless",
    "Tavern Scoundrel",
    "Mogg Assassin",
)
UNTIL_LOSE = ("Crazed Firecat", "Mirror March", "Okaun, Eye of Chaos", "Zndrsplt, Eye of Wisdom", "Toothy and Zndrsplt")
SPECIAL = (
    "Fiery Gambit",
    "Squee's Revenge",
    "Yusri, Fortune's Flame",
    "Game of Chaos",
    "Ral Zarek",
    "Mana Clash",
    "Two-Headed Giant",
    "Rakdos, the Showstopper",
)
WATCHERS = ("Chance Encounter", "Tavern Scoundrel", "Okaun, Eye of Chaos", "Zndrsplt, Eye of Wisdom")
SIDES = ("heads", "tails")

MISTAKES = {
    "wrong-outcome": "MTG-CALL-006",
    "call-after-coin": "MTG-CALL-004",
    "extra-coin": "MTG-THUMB-001",
    "two-keeps": "MTG-THUMB-002",
}
"""The mistakes the generator can make and the rule each breaks: a won flip written as lost (or the other
way), a call written after its coin, a coin flipped again in one flip without a Thumb (the table reads
the second), a second keep line under Krark's Thumb naming another coin (the table goes by either line)."""


class Sim(MakesMistakes):
    """One match being played; ``events`` holds the bodies (no seq/prev) in order."""

    MISTAKES = MISTAKES

    def __init__(
        self,
        seed: int,
        thumbs: bool = True,
        stacking: str = "multiply",
        edgar: bool = False,
        mistake: Mistake | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.mistake = mistake
        self.use_thumbs = thumbs
        self.use_edgar = edgar
        self.edgar: set[str] = set()
        self.edgar_used: set[tuple[int, str]] = set()
        self.turn = 0
        self.stated = False
        self.sequential = False
        self.stacking = stacking
        self.events: list[dict[str, Any]] = []
        self.thumbs = {p: 0 for p in PLAYERS}
        self.watchers: list[tuple[str, str, str]] = []
        self.flips = 0

    def emit(self, type_: str, **fields: Any) -> None:
        self.events.append({"type": f"mtg.{type_}", **{k: v for k, v in fields.items() if v is not None}})

    # --- one group of coins ---------------------------------------------------------------

    def coins_for(self, player: str) -> int:
        k = self.thumbs[player]
        return 1 + k if self.stacking == "add" else 2**k

    def forced(self, group: int) -> bool:
        """Edgar (705.3): the instruction's flips land heads and are won; of a one-at-a-time sequence only the first."""
        return self.stated and (group == 1 or not self.sequential)

    def land(self, fid: str, group: int, player: str, forced: bool = False) -> list[str]:
        n = self.coins_for(player)
        sides = ["heads"] * n if forced else [self.rng.choice(SIDES) for _ in range(n)]
        for side in sides:
            self.emit("coin", flip=fid, group=group, player=player, result=side)
        return sides

    def keep(self, fid: str, group: int, player: str, sides: list[str], want: str | None) -> str:
        """The kept side: the player keeps a coin showing ``want`` when there is one (or any coin)."""
        if len(sides) == 1:
            return sides[0]
        pick = sides.index(want) if want in sides and self.rng.random() < 0.8 else self.rng.randrange(len(sides))
        other = next((i for i, side in enumerate(sides) if side != sides[pick]), None)
        if other is not None and now(self.mistake, "two-keeps"):
            # two keep lines naming coins that differ, in either order; the table goes by one of them
            lines = [pick, other] if self.rng.random() < 0.5 else [other, pick]
            for i in lines:
                self.emit("keep", flip=fid, group=group, player=player, coin=i + 1)
            self.mistook("two-keeps")
            return sides[pick]
        self.emit("keep", flip=fid, group=group, player=player, coin=pick + 1)
        return sides[pick]

    def called(self, fid: str, group: int, flipper: str) -> bool:
        """A called flip: call, coin(s), keep, outcome. True if won."""
        if self.forced(group):
            self.land(fid, group, flipper, forced=True)
            self.emit("outcome", flip=fid, group=group, player=flipper, outcome="won")
            return True
        call = self.rng.choice(SIDES)
        if now(self.mistake, "call-after-coin"):
            sides = self.land(fid, group, flipper)
            self.emit("call", flip=fid, group=group, player=flipper, side=call)
            self.mistook("call-after-coin")
            kept = self.keep(fid, group, flipper, sides, call)
        else:
            if self.rng.random() < 0.15:  # a call changed before the coin lands (option call_counts)
                self.emit("call", flip=fid, group=group, player=flipper, side="tails" if call == "heads" else "heads")
            self.emit("call", flip=fid, group=group, player=flipper, side=call)
            sides = self.land(fid, group, flipper)
            if len(sides) == 1 and now(self.mistake, "extra-coin"):
                sides = self.land(fid, group, flipper)  # flipped again: the table reads the second coin
                self.mistook("extra-coin")
            kept = self.keep(fid, group, flipper, sides, call)
        won = kept == call
        if now(self.mistake, "wrong-outcome"):
            won = not won  # written down wrong, and played on as written
            self.emit("outcome", flip=fid, group=group, player=flipper, outcome="won" if won else "lost")
            self.mistook("wrong-outcome")
            # an ignored Thumb coin that would give the written outcome makes it MTG-THUMB-004's
            if any((side == call) == won for side in sides):
                self.mistake.code = "MTG-THUMB-004"  # type: ignore[union-attr]  # mistook() just set the mistake
            return won
        self.emit("outcome", flip=fid, group=group, player=flipper, outcome="won" if won else "lost")
        return won

    def heads_tails(self, fid: str, group: int, flipper: str) -> str:
        return self.keep(fid, group, flipper, self.land(fid, group, flipper, self.forced(group)), None)

    # --- instructions ------------------------------------------------------------------------

    def instruct(self, card: str, flipper: str, **kw: Any) -> tuple[str, tuple[tuple[str, str, str], ...]]:
        self.flips += 1
        fid = f"f{self.flips}"
        self.stated = flipper in self.edgar and (self.turn, flipper) not in self.edgar_used
        self.edgar_used |= {(self.turn, flipper)} if self.stated else set()
        self.sequential = _card(card).sequence not in ("fixed", "chosen")
        self.emit("flip", flip=fid, card=card, controller=flipper, flipper=flipper, **kw)
        return fid, tuple(self.watchers)

    def pay(self, fid: str, kind: str, amount: int, **kw: Any) -> None:
        if amount > 0:
            self.emit("payoff", flip=fid, kind=kind, amount=amount, **kw)

    def pay_watchers(self, fid: str, watchers: tuple[tuple[str, str, str], ...], flipper: str, wins: int) -> None:
        for pid, name, controller in watchers:
            watch = _card(name).watch
            assert watch is not None
            counted = wins if watch.scope == "any" or controller == flipper else 0
            if watch.per == "event" and not self.sequential:
                counted = min(counted, 1)  # "one or more coin flips": coins flipped at once trigger once
            self.pay(fid, watch.kind, counted * watch.per_win, permanent=pid, player=controller)

    def pay_per_result(self, fid: str, c: Card, wins: int, losses: int, flipper: str) -> None:
        for kind, amount in c.per_win.items():
            self.pay(fid, kind, amount * wins, player=flipper)
        for kind, amount in c.per_loss.items():
            self.pay(fid, kind, amount * losses, player=flipper)

    def fixed(self, card: str, flipper: str) -> None:
        fid, watchers = self.instruct(card, flipper)
        won = self.called(fid, 1, flipper)
        self.pay_per_result(fid, _card(card), int(won), int(not won), flipper)
        self.pay_watchers(fid, watchers, flipper, int(won))

    def until_lose(self, card: str, flipper: str) -> None:
        fid, watchers = self.instruct(card, flipper)
        wins = 0
        while self.called(fid, wins + 1, flipper):
            wins += 1
        self.pay_per_result(fid, _card(card), wins, 0, flipper)
        self.pay_watchers(fid, watchers, flipper, wins)

    def fiery_gambit(self, flipper: str) -> None:
        fid, watchers = self.instruct("Fiery Gambit", flipper)
        wins, lost = 0, False
        while not lost:
            lost = not self.called(fid, wins + 1, flipper)
            wins += not lost
            if not lost and self.rng.random() < 0.4:
                self.emit("choice", flip=fid, group=wins, player=flipper, choice="stop")
                break
        if not lost:
            for tier in _card("Fiery Gambit").tiers:
                if wins >= tier.wins:
                    self.pay(fid, tier.kind, tier.amount * (len(PLAYERS) - 1 if tier.each_opponent else 1))
        self.pay_watchers(fid, watchers, flipper, wins)

    def squees_revenge(self, flipper: str) -> None:
        n = self.rng.randint(0, 4)
        fid, watchers = self.instruct("Squee's Revenge", flipper, chosen=n)
        wins = 0
        while wins < n and self.called(fid, wins + 1, flipper):
            wins += 1
        self.pay(fid, "draw", 2 * n if wins == n else 0, player=flipper)
        self.pay_watchers(fid, watchers, flipper, wins)

    def yusri(self, flipper: str) -> None:
        n = self.rng.randint(1, 5)
        fid, watchers = self.instruct("Yusri, Fortune's Flame", flipper, chosen=n)
        wins = sum(self.called(fid, g, flipper) for g in range(1, n + 1))
        self.pay_per_result(fid, _card("Yusri, Fortune's Flame"), wins, n - wins, flipper)
        self.pay(fid, "free-cast", int(wins == 5), player=flipper)
        self.pay_watchers(fid, watchers, flipper, wins)

    def game_of_chaos(self, flipper: str) -> None:
        fid, watchers = self.instruct("Game of Chaos", flipper)
        other = _opponent(flipper)
        wins, group = 0, 1
        while True:
            won = self.called(fid, group, flipper)
            wins += won
            winner, loser = (flipper, other) if won else (other, flipper)
            self.pay(fid, "life-gain", 2 ** (group - 1), player=winner, group=group)
            self.pay(fid, "life-loss", 2 ** (group - 1), player=loser, group=group)
            again = group < 6 and self.rng.random() < 0.5
            self.emit("choice", flip=fid, group=group, player=winner, choice="continue" if again else "stop")
            if not again:
                break
            group += 1
        self.pay_watchers(fid, watchers, flipper, wins)

    def heads_tails_card(self, card: str, flipper: str) -> None:
        c = _card(card)
        n = c.coins or self.rng.randint(1, 3)
        fid, watchers = self.instruct(card, flipper, coins=n)
        heads = sum(self.heads_tails(fid, g, flipper) == "heads" for g in range(1, n + 1))
        for kind, amount in c.per_heads.items():
            self.pay(fid, kind, amount * heads, player=flipper)
        self.pay_stated_wins(fid, watchers, flipper, n)

    def pay_stated_wins(self, fid: str, watchers: tuple[tuple[str, str, str], ...], flipper: str, groups: int) -> None:
        """705.3: a stated win counts even on a heads/tails-only card (Edgar's ruling)."""
        wins = sum(self.forced(g) for g in range(1, groups + 1))
        if wins:
            for g in range(1, wins + 1):
                self.emit("outcome", flip=fid, group=g, player=flipper, outcome="won")
            self.pay_watchers(fid, watchers, flipper, wins)

    def mana_clash(self, flipper: str) -> None:
        fid, watchers = self.instruct("Mana Clash", flipper)
        group = 0
        while True:
            group += 1
            seen = {p: self.land(fid, group, p, self.forced(group) and p == flipper) for p in PLAYERS}
            kept = {p: self.keep(fid, group, p, seen[p], None) for p in PLAYERS}
            for p in PLAYERS:
                self.pay(fid, "damage", int(kept[p] == "tails"), player=p, group=group)
            if all(side == "heads" for side in kept.values()):
                break
        self.pay_stated_wins(fid, watchers, flipper, 1)

    # --- turns -----------------------------------------------------------------------------------

    def setup(self, active: str) -> None:
        if self.use_edgar and active not in self.edgar and self.rng.random() < 0.5:
            self.edgar.add(active)
            self.emit("enters", permanent=f"edgar-{active}", card="Edgar, King of Figaro", controller=active)
        if self.use_thumbs and self.rng.random() < 0.35 and self.thumbs[active] < 2:
            self.thumbs[active] += 1
            self.emit(
                "enters", permanent=f"thumb-{active}{self.thumbs[active]}", card="Krark's Thumb", controller=active
            )
        if self.rng.random() < 0.4 and len(self.watchers) < 4:
            name = self.rng.choice(WATCHERS)
            pid = f"w{len(self.watchers) + 1}"
            self.watchers.append((pid, name, active))
            self.emit("enters", permanent=pid, card=name, controller=active)

    def play_flip(self, flipper: str) -> None:
        kind = self.rng.random()
        if kind < 0.35:
            self.fixed(self.rng.choice(FIXED), flipper)
        elif kind < 0.55:
            self.until_lose(self.rng.choice(UNTIL_LOSE), flipper)
        else:
            self.special(self.rng.choice(SPECIAL), flipper)

    def special(self, card: str, flipper: str) -> None:
        handlers = {
            "Fiery Gambit": self.fiery_gambit,
            "Squee's Revenge": self.squees_revenge,
            "Yusri, Fortune's Flame": self.yusri,
            "Game of Chaos": self.game_of_chaos,
            "Mana Clash": self.mana_clash,
        }
        if card in handlers:
            handlers[card](flipper)
        else:
            self.heads_tails_card(card, flipper)

    def play(self, turns: int) -> list[dict[str, Any]]:
        for turn in range(1, turns + 1):
            active = PLAYERS[(turn - 1) % 2]
            self.turn = turn
            self.emit("turn", turn=turn, player=active)
            self.setup(active)
            for _ in range(self.rng.randint(1, 3)):
                self.play_flip(active if self.rng.random() < 0.8 else _opponent(active))
        return self.events


def _card(name: str) -> Card:
    c = builtin().get(name)
    assert c is not None, name
    return c


def _opponent(player: str) -> str:
    return PLAYERS[1 - PLAYERS.index(player)]


def start(match: str = "sim", rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``match.start`` body of a simulated match."""
    return {
        "type": "match.start",
        "format": "kifu/1",
        "game": "mtg",
        "match": match,
        "players": [{"id": p, "name": p.upper()} for p in PLAYERS],
        "rules": rules or {},
    }


def legal_match(
    seed: int,
    turns: int = 4,
    thumbs: bool = True,
    stacking: str = "multiply",
    edgar: bool = False,
    mistake: Mistake | None = None,
) -> list[dict[str, Any]]:
    """Every event body of a legal match, ``match.start`` first (no seq or prev yet); with ``mistake``, one
    mistake of that kind where the match gives its ``nth`` chance."""
    rules = {"thumbs_stack": stacking} if stacking != "multiply" else {}
    return [start(f"sim-{seed}", rules)] + Sim(seed, thumbs, stacking, edgar, mistake).play(turns)


TURNS = 8
"""Turns of a typical simulated match (Magic's flips are few per turn)."""


def simulate(seed: int, turns: int | None = None, mistake: Mistake | None = None) -> list[dict[str, Any]]:
    """``legal_match`` of ``turns`` turns (``TURNS`` when None), Krark's Thumbs in play for an even seed and
    Edgar for a seed divisible by 5, so that the seeds cover them all."""
    return legal_match(
        seed, TURNS if turns is None else turns, thumbs=seed % 2 == 0, edgar=seed % 5 == 0, mistake=mistake
    )
