"""Weiss Schwarz: a seeded generator of legal turns (WSターンの流れ's turn flow), and the table it plays on.

``Table`` keeps the projected state while it writes events, so every helper can
act legally (draw what the deck holds, level up at 7 clock, attack with standing
characters). ``play_match(seed, turns)`` plays whole turns with choices drawn from
``random.Random(seed)``: the same seed always gives the same events. Fixture
scripts use the same helpers and then break one rule on purpose.

Given a ``Mistake`` (kifu/games/mistakes.py) ``play_match`` makes one mistake of a kind in
``MISTAKES`` and plays on from what it recorded, as a table that did not notice.
"""

from __future__ import annotations

import random
from typing import Any
from collections.abc import Iterable

import msgspec

from kifu.events.base import Event, MatchStarted
from kifu.events.codec import Codec
from kifu.projector.base import Frame, first_frame, step

from ..mistakes import Mistake, now
from . import projection
from .events import CENTER, EVENTS

CODEC = Codec(EVENTS)

# The table's choices where the rules leave one (docs/games/weiss.md, "Options"), with the
# documented defaults, written out here rather than taken from the rulebook: a generator that
# borrowed the auditor's arithmetic could never catch the auditor getting it wrong.
DEFAULTS = {"hand_limit": 7, "battle_tie": "both", "side_attack_level": "defender", "deck_size": 50}


def reversed_by_battle(attacker: int, defender: int, tie: str) -> list[str]:
    """The battle step: the character with the lower power is reversed; on a tie, both (or, by option, neither)."""
    if attacker == defender:
        return ["attacker", "defender"] if tie == "both" else []
    return ["attacker"] if attacker < defender else ["defender"]


def attack_damage(soul: int, trigger_soul: int, kind: str, side_level: int) -> int:
    """The damage step: the attacker's soul plus trigger soul, +1 for a direct attack,
    minus the level that a side attack subtracts; never below 0."""
    bonus = 1 if kind == "direct" else -side_level if kind == "side" else 0
    return max(0, soul + trigger_soul + bonus)


ICONS = (["soul"], ["soul"], [], ["draw"], ["pool"], ["soul", "soul"], ["gate"], [], ["soul", "shot"])

MISTAKES = {
    "phase-out-of-order": "WS-FLOW-001",
    "draw-two": "WS-DRAW-001",
    "damage-miscounted": "WS-DMG-001",
    "second-climax": "WS-CX-001",
}
"""The mistakes ``play_match`` can make and the rule each breaks: the climax phase played before the main
phase, two cards drawn in the draw phase, one damage more than the soul, a second climax played in one
turn (the first is replaced by the second, which leaves in the end phase)."""


class GameOver(Exception):
    """Raised by ``Table.act`` once a loss has been recorded: nothing else may follow."""


class Table:
    """A match being written: events so far and the state after them."""

    def __init__(
        self,
        match: str = "ws-sim",
        players: tuple[str, str] = ("p1", "p2"),
        rules: dict[str, Any] | None = None,
        rng: random.Random | None = None,
        mistake: Mistake | None = None,
    ) -> None:
        start = {
            "type": "match.start",
            "seq": 1,
            "prev": None,
            "format": "kifu/1",
            "game": "weiss",
            "match": match,
            "players": [{"id": p, "name": p.upper()} for p in players],
            "rules": rules or {},
        }
        self.start = CODEC.convert(start)
        assert isinstance(self.start, MatchStarted)
        self.options = {**DEFAULTS, **self.start.rules}
        self.events: list[Event] = [self.start]
        self.frame: Frame[projection.State] = first_frame(projection, self.start, self.options)
        self.rng = rng or random.Random(0)
        self.players = players
        self._ability = 0
        self.mistake = mistake

    def mistook(self, kind: str, seq: int) -> None:
        assert self.mistake is not None
        self.mistake.made(seq, MISTAKES[kind])

    # --- writing -------------------------------------------------------------

    @property
    def state(self) -> projection.State:
        return self.frame.game

    def emit(self, type_: str, **fields: Any) -> int:
        """Append one event (no interrupts); return its seq."""
        seq = len(self.events) + 1
        event = CODEC.convert({"type": type_, "seq": seq, "prev": None, **fields})
        self.events.append(event)
        self.frame = step(projection, self.frame, event)
        return seq

    def act(self, type_: str, **fields: Any) -> int:
        """Append one event, then the interrupting rule actions it makes due (refresh, level-up)."""
        seq = self.emit(type_, **fields)
        self.interrupts()
        if self.lose_if_due():
            raise GameOver(seq)
        return seq

    def interrupts(self) -> None:
        """Level-ups and refreshes (each refresh with its refresh point) until none is due."""
        while True:
            due = [k.rsplit(":", 1) for k in projection.rule_actions(self.state) if not k.startswith("lose-")]
            if not due:
                return
            kind, player = due[0]
            if kind == "refresh":
                self.emit("ws.refresh", player=player)
                self.emit("ws.refresh.point", player=player)
            else:
                self.emit("ws.levelup", player=player)

    def side(self, player: str) -> projection.Side:
        return self.state.side(player)

    def other(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    def ability(self) -> str:
        self._ability += 1
        return f"a{self._ability}"

    # --- phases ---------------------------------------------------------------

    def setup(self, hand: int = 5) -> None:
        for p in self.players:
            self.emit("ws.draw", player=p, count=hand, reason="setup")

    def begin(self, player: str) -> None:
        self.emit("ws.turn", player=player, number=self.state.turn + 1)

    def phase(self, name: str) -> int:
        return self.emit("ws.phase", phase=name)

    def end(self, name: str) -> int:
        return self.emit("ws.phase.end", phase=name)

    def stand_phase(self, player: str) -> None:
        self.phase("stand")
        if self.side(player).stage:
            self.emit("ws.stand", player=player)
        self.end("stand")

    def draw_phase(self, player: str) -> None:
        self.phase("draw")
        two = self.side(player).deck > 2 and now(self.mistake, "draw-two")
        seq = self.act("ws.draw", player=player, count=2 if two else 1, reason="draw-phase")
        if two:
            self.mistook("draw-two", seq)
        self.end("draw")

    def clock_phase(self, player: str, clock: bool) -> None:
        self.phase("clock")
        if clock and self.side(player).hand > 0:
            self.act("ws.clock", player=player)
            self.act("ws.draw", player=player, count=1, reason="clock")
            self.act("ws.draw", player=player, count=1, reason="clock")
        self.end("clock")

    def main_phase(self, player: str, plays: Iterable[tuple[str, int, int, int]] = ()) -> None:
        """``plays``: (slot, level, power, soul) of characters to put on empty slots."""
        self.phase("main")
        for slot, level, power, soul in plays:
            self.act(
                "ws.play.chara",
                player=player,
                card=f"{player}-L{level}-{power}",
                slot=slot,
                level=level,
                power=power,
                soul=soul,
            )
        self.end("main")

    def climax_phase(self, player: str, climax: bool) -> None:
        self.phase("climax")
        if climax and self.side(player).hand > 0:
            self.act("ws.climax", player=player, card=f"{player}-CX")
            if self.side(player).hand > 0 and now(self.mistake, "second-climax"):
                self.mistook("second-climax", self.act("ws.climax", player=player, card=f"{player}-CX2"))
        self.end("climax")

    def end_phase(self, player: str, again: bool = False) -> None:
        """The end phase; ``again``: an ability triggers late, so the phase is done once more (item 6)."""
        self.phase("end")
        extra = self.side(player).hand - int(self.options["hand_limit"])
        if extra > 0:
            self.act("ws.discard", player=player, count=extra, reason="hand-limit")
        if self.side(player).climax is not None:
            self.act("ws.climax.leave", player=player)
        if again:
            ability = self.ability()
            self.emit("ws.auto", player=player, ability=ability, text="triggered at the end of the end phase")
            self.phase("end")
            self.emit("ws.check")
            self.act("ws.resolve", player=player, ability=ability)
            self.emit("ws.check.end")
        self.end("end")

    # --- check timing -----------------------------------------------------------

    def triggered(self, controllers: Iterable[str]) -> None:
        """Abilities trigger for each controller, then one check timing resolves them in order."""
        ids = [(p, self.ability()) for p in controllers]
        for p, a in ids:
            self.emit("ws.auto", player=p, ability=a, text="draw-free trigger")
        self.emit("ws.check")
        tp = self.state.turn_player
        for p, a in sorted(ids, key=lambda pa: pa[0] != tp):
            self.act("ws.resolve", player=p, ability=a)
        self.emit("ws.check.end")

    # --- attack phase ------------------------------------------------------------

    def attack(
        self,
        player: str,
        slot: str,
        kind: str | None = None,
        icons: list[str] | None = None,
        counter: int = 0,
        damage: list[bool] | None = None,
    ) -> None:
        """One whole attack: declare, trigger, counter, damage, battle; ``damage`` marks climaxes revealed."""
        self.emit("ws.step", step="declare")
        opposing = self.side(self.other(player)).stage.get(slot)
        kind = kind or ("direct" if opposing is None else "front")
        self.emit("ws.attack", player=player, slot=slot, kind=kind)
        self.emit("ws.step", step="trigger")
        self.act("ws.reveal", player=player, icons=icons if icons is not None else self.rng.choice(ICONS))
        if kind == "front":
            self.emit("ws.step", step="counter")
            if counter:
                self.act("ws.counter", player=self.other(player), power=counter)
        self.emit("ws.step", step="damage")
        self.damage(self.other(player), damage)
        attack = self.state.attack
        if attack is not None and attack.shots and attack.cancelled:
            self.act("ws.damage", player=self.other(player), amount=1, cards=[{}], source="shot")
        if kind == "front":
            self.battle()

    def damage(self, defender: str, climaxes: list[bool] | None) -> None:
        amount = self.expected_damage()
        wrong = now(self.mistake, "damage-miscounted")
        amount += wrong
        if climaxes is None:
            marks = [self.rng.random() < 0.15 for _ in range(amount)]
        else:
            marks = climaxes + [False] * amount
        cards = []
        for is_cx in marks[:amount]:
            cards.append({"climax": True} if is_cx else {})
            if is_cx:
                break
        cancelled = any(c.get("climax") for c in cards)
        if wrong:
            self.mistook("damage-miscounted", len(self.events) + 1)
        self.act("ws.damage", player=defender, amount=amount, cards=cards, cancelled=cancelled)

    def expected_damage(self) -> int:
        attack = self.state.attack
        if attack is None:
            return 0
        slot = self.side(attack.player).stage.get(attack.slot)
        if slot is None:
            return 0
        side_level = slot.level_now if self.options["side_attack_level"] == "attacker" else attack.defender_level
        return attack_damage(slot.soul_now, attack.trigger_soul, attack.kind, side_level)

    def battle(self) -> None:
        self.emit("ws.step", step="battle")
        attack = self.state.attack
        assert attack is not None
        mine = self.side(attack.player).stage.get(attack.slot)
        theirs = self.side(attack.defender).stage.get(attack.slot)
        if mine is None or theirs is None:
            return
        rev = reversed_by_battle(mine.power_now, theirs.power_now, str(self.options["battle_tie"]))
        self.act("ws.battle", attacker_power=mine.power_now, defender_power=theirs.power_now, reversed=rev)

    def encore_step(self, player: str, encore: bool = True) -> None:
        self.emit("ws.step", step="declare")
        self.emit("ws.step", step="encore")
        for p in (player, self.other(player)):
            for slot, card in sorted(self.side(p).stage.items()):
                if card.state != "reverse":
                    continue
                self.act("ws.retire", player=p, slot=slot)
                if encore and self.side(p).stock >= 3:
                    self.act("ws.encore", player=p, slot=slot, via="rule", stock=3)

    def attack_phase(self, player: str, attacks: int | None = None) -> None:
        self.phase("attack")
        slots = [s for s in CENTER if self.side(player).stage.get(s) and self.side(player).stage[s].state == "stand"]
        limit = 1 if self.state.turn == 1 else len(slots)
        for slot in slots[: min(limit, attacks if attacks is not None else limit)]:
            kinds = ["direct"] if self.side(self.other(player)).stage.get(slot) is None else ["front", "side"]
            counter = self.rng.choice([0, 0, 0, 1000, 2000]) if self.side(self.other(player)).hand else 0
            self.attack(player, slot, self.rng.choice(kinds), counter=counter)
        self.encore_step(player)
        self.end("attack")

    # --- whole turns ---------------------------------------------------------------

    def lose_if_due(self) -> bool:
        for key in projection.rule_actions(self.state):
            kind, player = key.rsplit(":", 1)
            if kind.startswith("lose-"):
                self.emit("ws.lose", player=player, reason="level" if kind == "lose-level" else "deck")
                self.emit("match.end", winner=self.other(player), reason=kind)
                return True
        return False

    def random_plays(self, player: str) -> list[tuple[str, int, int, int]]:
        level = len(self.side(player).level)
        empty = [s for s in ("C1", "C2", "C3", "B1", "B2") if s not in self.side(player).stage]
        n = min(len(empty), self.side(player).hand, self.rng.randint(1, 3))
        return [
            (
                s,
                0 if level == 0 else self.rng.randint(0, level),
                self.rng.choice([500, 1000, 1500, 2500]),
                self.rng.choice([1, 1, 2]),
            )
            for s in empty[:n]
        ]

    def turn(self, player: str) -> None:
        """One legal turn chosen at random (GameOver when a player loses)."""
        self.begin(player)
        self.stand_phase(player)
        self.draw_phase(player)
        self.clock_phase(player, self.rng.random() < 0.5)
        early = now(self.mistake, "phase-out-of-order")
        if early:  # the climax phase played before the main phase, then the turn goes on
            self.mistook("phase-out-of-order", len(self.events) + 1)
            self.climax_phase(player, self.rng.random() < 0.3)
        self.phase("main")
        if self.rng.random() < 0.3:
            self.triggered([player, self.other(player)])
        self.state_plays(player)
        self.end("main")
        if not early:
            self.climax_phase(player, self.rng.random() < 0.3)
        self.attack_phase(player)
        self.end_phase(player, again=self.rng.random() < 0.2)

    def state_plays(self, player: str) -> None:
        for slot, level, power, soul in self.random_plays(player):
            self.act(
                "ws.play.chara",
                player=player,
                card=f"{player}-L{level}-{power}",
                slot=slot,
                level=level,
                power=power,
                soul=soul,
            )


TURNS = 8
"""Turns of a typical simulated match."""


def simulate(seed: int, turns: int | None = None, mistake: Mistake | None = None) -> list[dict[str, Any]]:
    """Every event body of a legal match ``ws-<seed>`` (``play_match`` of ``turns`` turns, ``TURNS`` when
    None), ``match.start`` first: every game's one signature (kifu/games/mistakes.py)."""
    events = play_match(seed, TURNS if turns is None else turns, f"ws-{seed}", mistake)
    return [msgspec.to_builtins(e) for e in events]


def play_match(seed: int, turns: int = 4, match: str = "ws-sim", mistake: Mistake | None = None) -> list[Event]:
    """A legal match of up to ``turns`` turns, chosen with ``random.Random(seed)``; with ``mistake``, one mistake
    of that kind where the match gives its ``nth`` chance."""
    table = Table(match=match, rng=random.Random(seed), mistake=mistake)
    table.setup()
    try:
        for n in range(turns):
            table.turn(table.players[n % 2])
    except GameOver:
        pass
    return table.events
