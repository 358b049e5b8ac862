"""A table's client for Weiss Schwarz (seed 003), written from docs/games/weiss.md alone.

It keeps its own count of every zone (as a client at a real table does) so the
events it writes carry the numbers a careful recorder would write: the damage a
seed-003 attack deals, the level-up at 7 clock, the refresh when the deck runs
out, the discard down to the hand limit. It does not use kifu's projector or
simulator: the point of the acceptance matches is to check kifu against an
independent reading of the seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

STAND, REST, REVERSE = "stand", "rest", "reverse"
CENTER = ("C1", "C2", "C3")


class JudgeCalled(Exception):
    """The table stopped at this seq: the dispute in a match is written up to the judge call."""


@dataclass
class Chara:
    """A character on stage as the client shows it."""

    card: str
    level: int
    power: int
    soul: int = 1
    state: str = STAND
    power_mod: int = 0
    soul_mod: int = 0


@dataclass
class Side:
    """One player's zones, as counts (clock and level keep names: level-up picks one)."""

    deck: int = 50
    hand: int = 0
    stock: int = 0
    waiting: int = 0
    clock: list[str] = field(default_factory=list)
    level: list[str] = field(default_factory=list)
    stage: dict[str, Chara] = field(default_factory=dict)
    climax: str | None = None
    refresh_due: bool = False


class Table:
    """Writes one match: events in order, plus the findings the seed's ruling gives (code, seq)."""

    def __init__(
        self,
        name: str,
        statement: str,
        players: tuple[str, str] = ("aoi", "ren"),
        rules: dict[str, Any] | None = None,
        bug: str | None = None,
        explicit_ends: bool = False,
        listed: bool = True,
        anonymous: bool = False,
    ) -> None:
        self.name, self.statement, self.bug = name, statement, bug
        self.explicit_ends, self.listed, self.anonymous = explicit_ends, listed, anonymous
        self.hold_levelup = False
        self.hand_limit = int((rules or {}).get("hand_limit", 7))
        self.battle_tie = str((rules or {}).get("battle_tie", "both"))
        self.judge_call: str | None = None
        self.bug_done = False
        self.current_phase: str | None = None
        self.players = players
        start: dict[str, Any] = {
            "type": "match.start",
            "at": "2026-11-14T13:00:00+09:00",
            "game": "weiss",
            "match": f"qa2-{name}",
            "title": "store championship, round 3",
            "players": [{"id": players[0], "name": "Aoi Kisaragi"}, {"id": players[1], "name": "Ren Tachibana"}],
        }
        if rules:
            start["rules"] = rules
        self.events: list[dict[str, Any]] = [start]
        self.expect: list[dict[str, Any]] = []
        self.sides = {p: Side() for p in players}
        self.tp = players[0]
        self.turn_no = 0
        self.minute = 0
        self._names = {p: 0 for p in players}
        self.attack_kind: str | None = None
        self.attack_slot: str | None = None
        self.trigger_soul = 0
        self.counter_power = 0

    # --- writing -----------------------------------------------------------------

    @property
    def opp(self) -> str:
        return self.players[1] if self.tp == self.players[0] else self.players[0]

    def other(self, p: str) -> str:
        return self.players[1] if p == self.players[0] else self.players[0]

    def ev(self, type_: str, by: str | None = None, **fields: Any) -> int:
        """Record one event the way `kifu append --json` takes it; return its seq."""
        self.minute += 1
        h, m = divmod(self.minute // 4, 60)
        e: dict[str, Any] = {"type": type_, "at": f"2026-11-14T{13 + h:02d}:{m:02d}:{(self.minute % 4) * 15:02d}+09:00"}
        if by and not self.anonymous:
            e["by"] = by
        if self.anonymous:
            del e["at"]
        e.update(fields)
        self.events.append(e)
        if self.judge_call:
            self.expect_at(self.judge_call, len(self.events))
            raise JudgeCalled(len(self.events))
        for p, side in self.sides.items():
            for zone in ("deck", "hand", "stock", "waiting"):
                assert getattr(side, zone) >= 0, (self.name, len(self.events), p, zone, side)
        return len(self.events)

    def expect_at(self, code: str, seq: int) -> None:
        self.expect.append({"code": code, "seq": seq})

    def card(self, p: str, prefix: str = "") -> str:
        """A name for the next card off the deck (the client shows what was revealed)."""
        pool = DECKS[p] if p in DECKS else DECKS["aoi"]
        self._names[p] += 1
        return prefix + pool[self._names[p] % len(pool)]

    # --- zones the client keeps ----------------------------------------------------

    def _deck_out(self, p: str, n: int) -> None:
        s = self.sides[p]
        s.deck -= n
        if s.deck == 0:
            self.refresh(p)

    def refresh(self, p: str) -> int:
        s = self.sides[p]
        if self.bug == "no-refresh":
            self.judge_call = "WS-RULE-002"  # the table plays on from an empty deck; a judge is called
            return 0
        seq = self.ev("ws.refresh", by=p, player=p)
        s.deck, s.waiting, s.refresh_due = s.waiting, 0, True
        return seq

    def refresh_point(self, p: str) -> int:
        """The refresh point, after the process the refresh interrupted (reference B2)."""
        s = self.sides[p]
        name = self.card(p)
        seq = self.ev("ws.refresh.point", by=p, player=p, card=name)
        s.refresh_due = False
        s.clock.append(name)
        self._deck_out(p, 1)
        self.level_up_if_due(p)
        return seq

    def level_up_if_due(self, p: str, pick: int = 0) -> int | None:
        s = self.sides[p]
        if len(s.clock) < 7 or self.hold_levelup:
            return None
        chosen = s.clock[pick]
        seq = self.ev("ws.levelup", by=p, player=p, card=chosen)
        s.level.append(chosen)
        s.waiting += 6
        s.clock = s.clock[7:]
        return seq

    # --- the turn ------------------------------------------------------------------

    def opening(self, mulligan: dict[str, int]) -> None:
        for p in self.players:
            self.ev("ws.draw", by=p, player=p, count=5, reason="setup")
            self.sides[p].deck -= 5
            self.sides[p].hand += 5
        for p in self.players:
            n = mulligan.get(p, 0)
            if n:
                self.ev("ws.discard", by=p, player=p, count=n, reason="mulligan")
                self.ev("ws.draw", by=p, player=p, count=n, reason="setup")
                self.sides[p].deck -= n
                self.sides[p].waiting += n

    def turn(self, p: str) -> int:
        self.turn_no += 1
        if getattr(self, "owed_point", False):
            self.owed_point = False
            self.judge_call = "WS-RULE-003"
        self.tp = p
        self.current_phase = None
        for s in self.sides.values():
            for c in s.stage.values():
                c.power_mod = c.soul_mod = 0
        return self.ev("ws.turn", by=p, player=p, number=self.turn_no)

    def phase(self, name: str) -> int:
        """A client that writes every フェイズ終了 closes the phase in progress first."""
        if self.explicit_ends and self.current_phase and self.current_phase != name:
            self.ev("ws.phase.end", by=self.tp, phase=self.current_phase)
        self.current_phase = name
        return self.ev("ws.phase", by=self.tp, phase=name)

    def phase_end(self, name: str) -> int:
        self.current_phase = None
        return self.ev("ws.phase.end", by=self.tp, phase=name)

    def stand_phase(self, held: tuple[str, ...] = ()) -> int:
        """スタンド 3; `held` are slots an effect keeps rested (they are named, not stood)."""
        self.phase("stand")
        for slot, c in self.sides[self.tp].stage.items():
            if slot not in held:
                c.state = STAND
        if held:
            return self.ev("ws.stand", by=self.tp, player=self.tp, held=list(held))
        return self.ev("ws.stand", by=self.tp, player=self.tp)

    def draw(self, p: str, n: int, reason: str) -> list[int]:
        """Draw n; a refresh interrupts a draw that empties the deck, then the draw goes on."""
        seqs, s = [], self.sides[p]
        while n > 0:
            k = min(n, s.deck)
            seqs.append(self.ev("ws.draw", by=p, player=p, count=k, reason=reason))
            s.hand += k
            n -= k
            self._deck_out(p, k)
        return seqs

    def draw_phase(self) -> list[int]:
        self.phase("draw")
        seqs = self.draw(self.tp, 1, "draw-phase")
        self.settle_refresh(self.tp)
        return seqs

    def settle_refresh(self, p: str) -> int | None:
        if self.sides[p].refresh_due and self.bug == "no-refresh-point":
            self.sides[p].refresh_due = False
            self.owed_point = True  # the table forgets the refresh point; the next ws.turn shows it
            return None
        if self.sides[p].refresh_due:
            return self.refresh_point(p)
        return None

    def clock_phase(self, card: str | None) -> int | None:
        self.phase("clock")
        if card is None:
            return None
        p, s = self.tp, self.sides[self.tp]
        seq = self.ev("ws.clock", by=p, player=p, card=card)
        s.hand -= 1
        s.clock.append(card)
        self.level_up_if_due(p)
        self.draw(p, 2, "clock")
        self.settle_refresh(p)
        return seq

    def play(self, slot: str, card: str, level: int, power: int, soul: int = 1, cost: int = 0) -> int:
        p, s = self.tp, self.sides[self.tp]
        seq = self.ev(
            "ws.play.chara", by=p, player=p, card=card, slot=slot, level=level, power=power, soul=soul, cost=cost
        )
        s.hand -= 1
        s.stock -= cost
        s.waiting += cost
        if slot in s.stage:
            s.waiting += 1  # the character already there goes to the waiting room
        s.stage[slot] = Chara(card, level, power, soul)
        return seq

    def event_card(self, card: str, cost: int) -> int:
        p, s = self.tp, self.sides[self.tp]
        seq = self.ev("ws.play.event", by=p, player=p, card=card, cost=cost)
        s.hand -= 1
        s.stock -= cost
        s.waiting += cost
        return seq

    def move(
        self,
        p: str,
        src: str,
        dst: str,
        count: int = 1,
        slot: str | None = None,
        card: str | None = None,
        by: str | None = None,
    ) -> int:
        fields: dict[str, Any] = {"player": p, "from": src, "to": dst}
        if count != 1:
            fields["count"] = count
        if slot:
            fields["slot"] = slot
        if card:
            fields["card"] = card
        seq = self.ev("ws.move", by=by or p, **fields)
        s = self.sides[p]
        for zone, sign in ((src, -1), (dst, +1)):
            if zone == "stage":
                if sign < 0:
                    s.stage.pop(slot or "", None)
            elif zone in ("deck", "hand", "stock", "waiting"):
                setattr(s, zone, getattr(s, zone) + sign * count)
        if src == "deck" and s.deck == 0:
            self.refresh(p)
            self.settle_refresh(p)
        return seq

    def act(self, slot: str, ability: str, cost: int, rest: bool) -> int:
        p, s = self.tp, self.sides[self.tp]
        seq = self.ev("ws.act", by=p, player=p, slot=slot, ability=ability, cost=cost, rest=rest)
        s.stock -= cost
        s.waiting += cost
        if rest:
            s.stage[slot].state = REST
        return seq

    def modify(self, p: str, slot: str, power: int = 0, soul: int = 0) -> int:
        fields: dict[str, Any] = {"player": p, "slot": slot}
        if power:
            fields["power"] = power
        if soul:
            fields["soul"] = soul
        seq = self.ev("ws.modify", by=p, **fields)
        c = self.sides[p].stage[slot]
        c.power_mod += power
        c.soul_mod += soul
        return seq

    def swap(self, a: str, b: str, player: str | None = None, effect: bool = False) -> int:
        """メイン 3 舞台の枠と枠の入替, or (effect=True) an ability's move in any phase."""
        p = player or self.tp
        st = self.sides[p].stage
        extra = {"effect": True} if effect else {}
        seq = self.ev("ws.swap", by=p, player=p, a=a, b=b, **extra)
        ca, cb = st.pop(a, None), st.pop(b, None)
        if ca:
            st[b] = ca
        if cb:
            st[a] = cb
        return seq

    def climax(self, card: str) -> int:
        p, s = self.tp, self.sides[self.tp]
        seq = self.ev("ws.climax", by=p, player=p, card=card)
        s.hand -= 1
        s.climax = card
        return seq

    # --- check timing --------------------------------------------------------------

    def auto(self, p: str, ability: str, card: str, text: str) -> int:
        return self.ev("ws.auto", by=p, player=p, ability=ability, card=card, text=text)

    def check(self) -> int:
        return self.ev("ws.check", by=self.tp)

    def resolve(self, p: str, ability: str) -> int:
        return self.ev("ws.resolve", by=p, player=p, ability=ability)

    def check_end(self) -> int:
        return self.ev("ws.check.end", by=self.tp)

    # --- the attack ----------------------------------------------------------------

    def step(self, name: str) -> int:
        return self.ev("ws.step", by=self.tp, step=name)

    def declare(self, slot: str, kind: str) -> int:
        p = self.tp
        self.step("declare")
        seq = self.ev("ws.attack", by=p, player=p, slot=slot, kind=kind)
        self.sides[p].stage[slot].state = REST
        self.attack_kind, self.attack_slot = kind, slot
        self.trigger_soul = self.counter_power = 0
        return seq

    def trigger(
        self, icons: tuple[str, ...] = (), climax: bool = False, to: str = "stock", card: str | None = None
    ) -> int:
        p, s = self.tp, self.sides[self.tp]
        self.step("trigger")
        name = card or self.card(p)
        fields: dict[str, Any] = {"player": p, "card": name}
        if icons:
            fields["icons"] = list(icons)
        if climax:
            fields["climax"] = True
        if to != "stock":
            fields["to"] = to
        seq = self.ev("ws.reveal", by=p, **fields)
        self.trigger_soul = sum(1 for i in icons if i == "soul")
        if to == "stock":
            s.stock += 1
        elif to == "hand":
            s.hand += 1
        else:
            s.waiting += 1
        self._deck_out(p, 1)
        self.settle_refresh(p)
        return seq

    def facing(self, slot: str) -> str:
        """front when a character faces this column, else direct (seed A.3)."""
        return "front" if slot in self.sides[self.opp].stage else "direct"

    def defender(self) -> Chara | None:
        return self.sides[self.opp].stage.get(self.attack_slot or "")

    def soul_damage(self) -> int:
        """The seed's damage: soul (+ mods, + soul icons), +1 direct, − the opposing level on a side attack."""
        c = self.sides[self.tp].stage.get(self.attack_slot or "")
        if c is None:
            return 0
        soul = c.soul + c.soul_mod + self.trigger_soul
        if self.attack_kind == "direct":
            soul += 1
        elif self.attack_kind == "side" and self.side_level is not None:
            soul -= self.side_level
        return max(soul, 0)

    side_level: int | None = None

    def counter(self, card: str, power: int, cost: int) -> int:
        d, s = self.opp, self.sides[self.opp]
        seq = self.ev("ws.counter", by=d, player=d, card=card, power=power, cost=cost)
        s.hand -= 1
        s.stock -= cost
        s.waiting += cost + 1
        self.counter_power += power
        return seq

    def damage(
        self,
        climax_at: int | None = None,
        amount: int | None = None,
        listed: bool | None = None,
        source: str = "attack",
        target: str | None = None,
        cards: list[dict[str, Any]] | None = None,
    ) -> int:
        """Reveal `amount` cards one by one; a climax stops the reveal and cancels (reference B3)."""
        d = target or self.opp
        s = self.sides[d]
        n = self.soul_damage() if amount is None else amount
        if cards is None:
            cards = []
            for i in range(n):
                if climax_at is not None and i == climax_at:
                    cards.append({"card": self.card(d, "CX "), "climax": True})
                    break
                cards.append({"card": self.card(d)})
        cancelled = any(c.get("climax") for c in cards)
        fields: dict[str, Any] = {"player": d, "amount": n}
        if self.listed if listed is None else listed:
            fields["cards"] = cards
        if cancelled:
            fields["cancelled"] = True
        if source != "attack":
            fields["source"] = source
        seq = self.ev("ws.damage", by=self.tp, **fields)
        first = min(len(cards), s.deck)
        s.deck -= first
        if s.deck == 0:
            # the refresh interrupted the reveal: the cards still to reveal come off the new deck
            self.refresh(d)
            s.deck -= len(cards) - first
        if cancelled:
            s.waiting += len(cards)
        else:
            s.clock += [c.get("card", "?") for c in cards]
        self.level_up_if_due(d)
        self.settle_refresh(d)
        return seq

    def battle(self, reversed_: list[str] | None = None) -> int:
        a = self.sides[self.tp].stage[self.attack_slot or ""]
        dch = self.defender()
        assert dch is not None
        ap, dp = a.power + a.power_mod, dch.power + dch.power_mod + self.counter_power
        if reversed_ is None:
            tie = ["attacker", "defender"] if self.battle_tie == "both" else []
            reversed_ = tie if ap == dp else (["defender"] if ap > dp else ["attacker"])
        seq = self.ev("ws.battle", by=self.tp, attacker_power=ap, defender_power=dp, reversed=reversed_)
        if "attacker" in reversed_:
            a.state = REVERSE
        if "defender" in reversed_:
            dch.state = REVERSE
        return seq

    def attack(
        self,
        slot: str,
        kind: str,
        icons: tuple[str, ...] = (),
        climax: bool = False,
        to: str = "stock",
        counter: tuple[str, int, int] | None = None,
        climax_at: int | None = None,
        shot: bool = False,
    ) -> int:
        """One whole attack as seed A–E writes it, with the client's own arithmetic; return the declaration."""
        seq = self.declare(slot, kind)
        d = self.defender()
        self.side_level = d.level if kind == "side" and d else None
        self.trigger(icons, climax, to)
        if kind == "front":
            self.step("counter")
            if counter:
                self.counter(*counter)
        self.step("damage")
        self.damage(climax_at=climax_at)
        if shot and climax_at is not None:
            self.damage(amount=1, source="shot")
        if kind == "front":
            self.step("battle")
            if self.defender() is not None and slot in self.sides[self.tp].stage:
                self.battle()
        return seq

    def encore_step(self, encore: dict[tuple[str, str], dict[str, Any]] | None = None) -> None:
        """A.3 アタックを終了, then F: 甲's reversed cards, then 乙's; encore some of them."""
        encore = encore or {}
        self.step("declare")
        self.step("encore")
        for p in (self.tp, self.opp):
            for slot in sorted(self.sides[p].stage):
                if self.sides[p].stage[slot].state == REVERSE:
                    self.retire(p, slot)
                    wanted = encore.get((p, slot))
                    if wanted is not None and wanted.get("stock", 3) <= self.sides[p].stock:
                        self.encore(p, slot, **wanted)

    def reverse(self, p: str, slot: str) -> int:
        """An effect reverses a character (相打ち)."""
        seq = self.ev("ws.reverse", by=p, player=p, slot=slot)
        self.sides[p].stage[slot].state = REVERSE
        return seq

    def retire(self, p: str, slot: str) -> int:
        seq = self.ev("ws.retire", by=p, player=p, slot=slot)
        c = self.sides[p].stage.pop(slot)
        self.sides[p].waiting += 1
        self._retired = c
        return seq

    def encore(self, p: str, slot: str, via: str = "rule", stock: int = 3, card: str | None = None) -> int:
        """The encore of the character that last left `slot` (after a retire, or an effect's move to waiting)."""
        c = self._retired
        fields: dict[str, Any] = {"player": p, "slot": slot, "card": card or c.card, "via": via, "stock": stock}
        standing = self.bug == "encore-standing" and not self.bug_done
        if standing:
            self.bug_done = True
            fields["rested"] = False
        seq = self.ev("ws.encore", by=p, **fields)
        if standing:
            self.expect_at("WS-ENC-004", seq)
        self.last_encore = seq
        s = self.sides[p]
        s.stock -= stock
        s.waiting += stock - 1
        self.sides[p].stage[slot] = Chara(c.card, c.level, c.power, c.soul, REST)
        return seq

    def end_phase(self, discard: int | None = None, again: bool = False) -> int:
        p, s = self.tp, self.sides[self.tp]
        self.phase("end")
        over = s.hand - self.hand_limit if discard is None else discard
        if over > 0:
            self.ev("ws.discard", by=p, player=p, count=over, reason="hand-limit")
            s.hand -= over
            s.waiting += over
        if s.climax:
            self.ev("ws.climax.leave", by=p, player=p)
            s.climax = None
            s.waiting += 1
        return self.phase_end("end")

    def discard(self, p: str, n: int, reason: str) -> int:
        seq = self.ev("ws.discard", by=p, player=p, count=n, reason=reason)
        self.sides[p].hand -= n
        self.sides[p].waiting += n
        return seq


DECKS = {
    "aoi": [
        "Mikoto Misaka",
        "Kuroko Shirai",
        "Ruiko Saten",
        "Kazari Uiharu",
        "Misaki Shokuhou",
        "Touma Kamijou",
        "Index",
        "Accelerator",
        "Last Order",
        "Mitsuko Kongou",
        "Kinuho Wannai",
    ],
    "ren": [
        "Shana",
        "Yuji Sakai",
        "Wilhelmina",
        "Kazumi Yoshida",
        "Marianne",
        "Hecate",
        "Margery Daw",
        "Khamsin",
        "Sydonay",
        "Pheles",
        "Tenmoku Ikko",
    ],
}


def board(t: Table, turn: int, turn_player: str, phase: str, sides: dict[str, Side]) -> int:
    """Start a dispute excerpt mid-match: the client writes the position it shows (ws.board)."""
    rec = []
    for p, s in sides.items():
        stage = {
            slot: {
                "card": c.card,
                "level": c.level,
                "power": c.power,
                "soul": c.soul,
                **({"state": c.state} if c.state != STAND else {}),
            }
            for slot, c in s.stage.items()
        }
        side: dict[str, Any] = {
            "player": p,
            "deck": s.deck,
            "hand": s.hand,
            "stock": s.stock,
            "waiting": s.waiting,
            "clock": list(s.clock),
            "level": list(s.level),
            "stage": stage,
        }
        if s.climax:
            side["climax"] = s.climax
        rec.append(side)
    t.sides = sides
    t.tp, t.turn_no = turn_player, turn
    return t.ev(
        "ws.board", by="judge", turn=turn, turn_player=turn_player, first_player=t.players[0], phase=phase, sides=rec
    )
