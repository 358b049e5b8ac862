"""A scorekeeper's client for the World Trigger 1v1 dice game (seed 002), written from the docs alone.

It records a match the way docs/games/worldtrigger.md says a table does, and it
keeps its own reading of seed 002 (trion, distance, face-up cards, tags) so the
scripted matches stay legal by the seed, not by kifu: ``Table.legal`` raises
when a clean match's script would break the seed, which keeps the acceptance
cases honest. Faults are written with ``Table.raw``, bypassing that check.

Costs, ranges and damage come from the EXAMPLE catalogue the docs point at
(kifu/games/worldtrigger/cards.json); a table with its own triggers would put
them in ``match.start.catalogue``.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from importlib import resources
from typing import Any

CATALOGUE = json.loads(resources.files("kifu.games.worldtrigger").joinpath("cards.json").read_text("utf-8"))["triggers"]
M, S, C = "move", "shooting", "close"
JST = timezone(timedelta(hours=9))
T0 = datetime(2026, 11, 21, 13, 0, 0, tzinfo=JST)


class IllegalScript(Exception):
    """The scripted play breaks seed 002 by the checker's own reading."""


class Table:
    """One match being recorded: the lines, the findings a judge expects, and the checker's state."""

    def __init__(
        self,
        name: str,
        about: str,
        players: dict[str, str],
        rules: dict[str, Any] | None = None,
        catalogue: dict[str, Any] | None = None,
        strict: bool = True,
        minimal: bool = False,
    ) -> None:
        self.name, self.about, self.strict = name, about, strict
        self.minimal = minimal
        """A minimal client: no ``at``, no ``by``, and no ``wt.resolve`` for a declaration nobody countered
        (docs: any other game event then closes the chain)."""
        self.players = list(players)
        self.start: dict[str, Any] = {
            "type": "match.start",
            "at": T0.isoformat(),
            "format": "kifu/1",
            "game": "worldtrigger",
            "match": name,
            "players": [{"id": k, "name": v} for k, v in players.items()],
            "title": about[:60],
        }
        if rules:
            self.start["rules"] = rules
        if catalogue:
            self.start["catalogue"] = {"triggers": catalogue}
        self.cat = {**CATALOGUE, **(catalogue or {})}
        self.events: list[dict[str, Any]] = []
        self.expected: list[dict[str, Any]] = []
        self.trion: dict[str, int] = {}
        self.distance = 0
        self.sheet: dict[str, list[str]] = {}
        self.build: dict[str, dict[str, list[str]]] = {}
        self.slots: dict[str, dict[str, tuple[str, bool]]] = {p: {} for p in players}
        self.tags: dict[str, list[str]] = {p: [] for p in players}
        self.used: set[tuple[str, str, str]] = set()
        self.clock = 0
        self.first: str | None = None
        self.slips: list[str] = []
        """What the checker saw broken while a fault was being written: the injected fault only."""

    # -- recording ----------------------------------------------------------------

    @property
    def next_seq(self) -> int:
        return len(self.events) + 2

    def raw(self, type: str, by: str | None = None, **fields: Any) -> int:
        """Record one line as the table said it; return its seq."""
        self.clock += 15
        ev: dict[str, Any] = {"type": type}
        if not self.minimal:
            ev["at"] = (T0 + timedelta(seconds=self.clock)).isoformat()
            if by is not None:
                ev["by"] = by
        ev.update({k: v for k, v in fields.items() if v is not None})
        self.events.append(ev)
        return self.next_seq - 1

    def expect(self, code: str, seq: int, consequences: list[int] | None = None) -> None:
        """The finding at ``seq``; ``consequences``: the later events it explains (one mistake, one finding)."""
        self.expected.append({"code": code, "seq": seq, **({"consequences": consequences} if consequences else {})})

    def legal(self, ok: bool, why: str) -> None:
        if ok:
            return
        if self.strict:
            raise IllegalScript(f"{self.name} at seq {self.next_seq}: {why}")
        self.slips.append(f"seq {self.next_seq}: {why}")

    def other(self, p: str) -> str:
        return self.players[1] if p == self.players[0] else self.players[0]

    # -- ■1 and ■2 --------------------------------------------------------------------

    def prepare(self, p: str, main: list[str], sub: list[str], faces: list[str], trion: int = 100) -> None:
        self.raw("wt.build", by=p, player=p, main=main, sub=sub)
        self.raw("wt.sheet", by=p, player=p, faces=faces)
        self.build[p] = {"main": main, "sub": sub}
        self.sheet[p] = faces

    def deal(self, trion: int = 100) -> None:
        for p in self.players:
            self.raw("wt.deal", by="judge", player=p, trion=trion)
            self.trion[p] = trion

    def initial(self, roll: int, uses: list[tuple[str, int]] = ()) -> int:
        self.raw("wt.init.roll", by=self.players[0], value=roll)
        dist = roll
        for p, delta in uses:
            eff = self.cat["バッグワーム"]["effects"]["潜伏"]
            self.raw(
                "wt.init.use", by=p, player=p, trigger="バッグワーム", effect="潜伏", delta=delta, trion=eff["trion"]
            )
            self.trion[p] -= eff["trion"]
            dist += delta
        self.distance = min(6, max(1, dist))
        return self.raw("wt.init.set", by="judge", distance=self.distance)

    # -- ■3 and ■4 --------------------------------------------------------------------

    def order(self, turn: int, janken: str | None = None, method: str = "janken") -> int:
        """■3: fewer trion goes first; on a tie ``janken`` names who won the fair ``method``."""
        a, b = self.players
        for p in self.players:
            self.tags[p] = []
        self.used.clear()
        if self.trion[a] == self.trion[b]:
            self.legal(janken is not None, "equal trion needs a fair method")
            self.first = janken
            return self.raw("wt.order", by="judge", turn=turn, first=janken, tie_break=method)
        first = self.first = a if self.trion[a] < self.trion[b] else b
        return self.raw("wt.order", by="judge", turn=turn, first=first)

    def set(self, p: str, main: str, sub: str, kept: list[str] = ()) -> int:
        for slot, name in (("main", main), ("sub", sub)):
            self.legal(name in self.build[p][slot], f"{name} is not on {p}'s {slot} side")
            was = self.slots[p].get(slot)
            if slot in kept:
                self.legal(was is not None and was[0] == name and was[1], f"{p} keeps {name} not face up")
                continue
            self.slots[p][slot] = (name, False)
        return self.raw("wt.set", by=p, player=p, main=main, sub=sub, kept=list(kept) or None)

    # -- ■5 plot -------------------------------------------------------------------------

    def plot(self, attacker: str, attack: list[int], defence: list[int]) -> int:
        """■5: each attacker die gives its sheet tag unless the defender plotted the same face."""
        self.raw("wt.plot", by=attacker, attacker=attacker, attack=attack, defence=defence)
        got = [self.sheet[attacker][f - 1] for f in attack if f not in defence]
        self.tags[attacker] = list(got)
        self.tags[self.other(attacker)] = []
        self.used.clear()
        return self.raw("wt.tags", by=attacker, player=attacker, tags=got)

    # -- ■5 tactics ------------------------------------------------------------------------

    def slot_of(self, p: str, trigger: str, effect: str) -> str | None:
        """The set copy of ``trigger`` a use goes to: the first one whose effect is still unused."""
        have = [s for s in ("main", "sub") if self.slots[p].get(s, ("", False))[0] == trigger]
        fresh = [s for s in have if (p, s, effect) not in self.used]
        return (fresh or have or [None])[0]

    def pay(self, p: str, n: int) -> None:
        self.legal(self.trion[p] >= n, f"{p} cannot pay {n}")
        self.trion[p] -= n

    def face_up(self, p: str, slot: str) -> None:
        """■5 step 1: turn a face-down set trigger up, paying its reveal trion."""
        trigger = self.slots[p][slot][0]
        cost = self.cat[trigger].get("reveal", 0)
        self.pay(p, cost)
        self.slots[p][slot] = (trigger, True)
        self.raw("wt.reveal", by=p, player=p, trigger=trigger, trion=cost)

    def use(
        self, p: str, trigger: str, effect: str, counter: int | None = None, to: int | None = None, reveal: bool = True
    ) -> int:
        """■5 steps 1–2: reveal when face down, then declare the effect paying its cost."""
        eff = self.cat[trigger]["effects"][effect]
        slot = self.slot_of(p, trigger, effect)
        if reveal and slot is not None and not self.slots[p][slot][1]:
            self.face_up(p, slot)
        self.legal(slot is not None and self.slots[p][slot][1], f"{p}'s {trigger} is not set face up")
        self.legal((p, slot, effect) not in self.used, f"{p} already used {trigger} {effect}")
        self.used.add((p, slot, effect))
        lo, hi = eff.get("distance", [1, 6])
        self.legal(lo <= self.distance <= hi, f"{trigger} {effect} out of range at {self.distance}")
        if "requires" in eff:
            self.legal(eff["requires"] in self.build[p]["main"] + self.build[p]["sub"], "option not built")
        need = list(eff.get("tags", []))
        for t in need:
            self.legal(t in self.tags[p], f"{p} lacks a {t} tag")
            if t in self.tags[p]:
                self.tags[p].remove(t)
        self.pay(p, eff.get("trion", 0))
        return self.raw(
            "wt.use",
            by=p,
            player=p,
            trigger=trigger,
            effect=effect,
            trion=eff.get("trion", 0),
            tags=need or None,
            counter=counter,
            to=to,
        )

    def move(self, p: str, to: int) -> int:
        self.legal(M in self.tags[p] and abs(to - self.distance) == 1 and 1 <= to <= 6, f"bad move to {to}")
        if M in self.tags[p]:
            self.tags[p].remove(M)
        return self.raw("wt.move", by=p, player=p, to=to, tags=[M])

    def passes(self, *players: str) -> None:
        for p in players:
            self.raw("wt.pass", by=p, player=p)

    def resolve(self, of: int, cancelled: bool = False, alone: bool = False) -> int:
        ev = self.events[of - 2]
        if not cancelled and ev.get("to") is not None:
            self.distance = ev["to"]
        if alone and self.minimal:
            return of
        return self.raw("wt.resolve", by="judge", of=of, cancelled=cancelled or None)

    def damage(self, p: str, amount: int, source: int) -> int:
        self.trion[p] = max(0, self.trion[p] - amount)
        return self.raw("wt.trion", by="judge", player=p, delta=-amount, source=source)

    # -- whole declarations, as a table plays them ------------------------------------------

    def hit(self, p: str, trigger: str, effect: str = "射撃") -> int:
        """An uncontested attack: declare, both players pass, resolve, damage."""
        u = self.use(p, trigger, effect)
        self.passes(p, self.other(p))
        self.resolve(u, alone=True)
        self.damage(self.other(p), self.cat[trigger]["effects"][effect]["damage"], u)
        return u

    def blocked(
        self,
        p: str,
        trigger: str | None,
        effect: Any,
        guard: str,
        guard_effect: str,
        to: int | None = None,
        initiator_first: bool = False,
    ) -> tuple[int, int]:
        """An attack (or a move to ``effect``, trigger None) the defender stops with a counter-use."""
        u = self.use(p, trigger, effect) if trigger else self.move(p, effect)
        self.passes(p)
        q = self.other(p)
        against = self.events[u - 2].get("trigger")
        kind = self.cat[against]["effects"][self.events[u - 2]["effect"]]["kind"] if against else M
        self.legal(kind in self.cat[guard]["effects"][guard_effect].get("against", []), f"{guard} cannot answer {kind}")
        c = self.use(q, guard, guard_effect, counter=u, to=to)
        self.passes(*((p, q) if initiator_first else (q, p)))
        self.resolve(c)
        self.resolve(u, cancelled=True)
        return u, c

    def step(self, p: str, to: int) -> int:
        """An uncontested move."""
        u = self.move(p, to)
        self.passes(p, self.other(p))
        self.resolve(u, alone=True)
        return u

    def jump(self, p: str, to: int) -> int:
        """An uncontested グラスホッパー 跳躍."""
        u = self.use(p, "グラスホッパー", "跳躍", to=to)
        self.legal(abs(to - self.distance) == 1, "a jump moves 1")
        self.passes(p, self.other(p))
        self.resolve(u, alone=True)
        return u

    def end(self, winner: str | None, reason: str) -> int:
        return self.raw("match.end", by="judge", winner=winner, reason=reason)

    def lines(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        return self.start, self.events
