"""A table's scorekeeper for ガンナガン (coin-toss variant, seed 000): writes kifu events as play goes.

The second acceptance round (tests/acceptance/gunandgun2/) records whole matches, so the
writer keeps the counts a table keeps (hand, loads, voltage, life, decks) and checks its own
arithmetic with asserts: a case that the table itself could not have played fails to build
instead of becoming a misleading expectation. Facts about gunners and guns are the printed
ones of docs/games/gunandgun-cards.md (hand size, 最大装填数, 装填上限, HIT tables).
"""

from __future__ import annotations

from typing import Any

A, B = "aoi", "ren"
OTHER = {A: B, B: A}

GUNNER = {  # speed (速), hand size (札), starting life
    "ヒバナ": (5, 3, 30),
    "ナトリ": (1, 5, 30),
    "ラン": (2, 3, 30),
    "キルコ": (4, 4, 30),
    "アマタ": (4, 4, 30),
    "マカ": (2, 4, 40),
}
GUN = {  # 最大装填数, 装填上限, 重量, HIT table {loads: HIT}
    "エンラ": (3, 2, 3, {1: 1, 2: 3, 3: 5}),
    "ヌエ": (6, 1, 7, {4: 7, 5: 10, 6: 14}),
    "ダタラ": (4, 2, 7, {2: 2, 3: 3, 4: 4}),
    "カサネ": (3, 3, 2, {1: 2, 2: 4, 3: 6}),
    "ハクメン": (4, 1, 6, {2: 2, 3: 3, 4: 5}),
    "ウワン": (3, 1, 8, {1: 1, 2: 2, 3: 4}),
    "ドドメ": (4, 4, 4, {1: 1, 2: 3, 3: 5, 4: 7}),
    "キヨヒメ": (5, 1, 7, {3: 0, 5: 0}),
    "ツエツキ": (4, 1, 8, {2: 0, 3: 0, 4: 0}),
}


def hit_of(gun: str, loads: int) -> int:
    """The HIT of the highest row at or below ``loads`` (the row a shot uses)."""
    table = GUN[gun][3]
    return table[max(row for row in table if row <= loads)]


def n_of(faces: str) -> int:
    """N: tosses facing the tosser before the first facing the opponent."""
    return faces.index("o") if "o" in faces else len(faces)


class Seat:
    """What the table knows about one player."""

    def __init__(self, gunner: str, guns: list[str], skill: str) -> None:
        self.gunner, self.guns, self.skill = gunner, guns, skill
        self.size = GUNNER[gunner][1]
        self.life = GUNNER[gunner][2]
        self.hand = 0
        self.volt = 0
        self.burn = 0
        self.loads = {g: 0 for g in guns}
        self.deck = {g: 20 for g in guns}


class Table:
    """One match being recorded; ``events`` are the lines after match.start."""

    def __init__(self, name: str, about: str, rules: dict[str, Any] | None = None) -> None:
        self.name, self.about, self.rules = name, about, rules or {}
        self.events: list[dict[str, Any]] = []
        self.expected: list[dict[str, Any]] = []
        self.seats: dict[str, Seat] = {}
        self.turn_no = 0
        self.end_reason: str | None = None

    # -- writing ----------------------------------------------------------------

    def add(self, type: str, by: str | None = None, **fields: Any) -> int:
        ev: dict[str, Any] = {"type": type}
        if by is not None:
            ev["by"] = by
        ev.update({k: v for k, v in fields.items() if v is not None})
        self.events.append(ev)
        return len(self.events) + 1

    def expect(self, code: str, seq: int, consequences: list[int] | None = None) -> None:
        """The finding at ``seq``; ``consequences``: the later events it explains (one mistake, one finding)."""
        self.expected.append({"code": code, "seq": seq, **({"consequences": consequences} if consequences else {})})

    def note(self, p: str, text: str) -> int:
        return self.add("note", by=p, text=text)

    # -- setup ----------------------------------------------------------------------

    def choose(self, p: str, gunner: str, guns: list[str], skill: str, **kw: Any) -> int:
        self.seats[p] = Seat(gunner, guns, skill)
        if "life" in kw and kw["life"] is not None:
            self.seats[p].life = kw["life"]
        return self.add("gg.setup", by=p, player=p, gunner=gunner, guns=guns, skill=skill, **kw)

    def first(self, p: str, reason: str) -> int:
        return self.add("gg.first", by="system", player=p, reason=reason)

    def opening(self, first: str, decks: dict[str, str] | None = None) -> None:
        """The first player draws to 札 from one deck, then the second player."""
        for p in (first, OTHER[first]):
            s = self.seats[p]
            self.draw(p, (decks or {}).get(p, s.guns[0]), s.size, "opening")

    def setup(
        self, a: tuple[str, list[str], str], b: tuple[str, list[str], str], reason: str = "speed", first: str = A
    ) -> None:
        self.choose(A, *a)
        self.choose(B, *b)
        self.first(first, reason)
        self.opening(first)

    # -- turns ----------------------------------------------------------------------

    def turn(self, p: str) -> int:
        self.turn_no += 1
        return self.add("gg.turn", by=p, player=p, turn=self.turn_no)

    def refill(self, p: str, deck: str | None = None) -> None:
        """The down phase's refill: draw up to 札 (nothing when the hand already holds that many)."""
        s = self.seats[p]
        need = s.size - s.hand
        if need > 0:
            self.draw(p, deck or s.guns[0], need, "refill")

    def close(self, p: str) -> int:
        return self.add("gg.turn.end", by=p, player=p, turn=self.turn_no)

    def end(self, p: str, deck: str | None = None) -> int:
        self.refill(p, deck)
        return self.close(p)

    def burn_loss(self, p: str, amount: int) -> int:
        self.seats[p].life -= amount
        return self.add("gg.life", by=p, player=p, delta=-amount, why="burn")

    # -- cards ------------------------------------------------------------------------

    def draw(self, p: str, deck: str, n: int, why: str = "effect", act: str | None = None) -> int:
        s = self.seats[p]
        assert s.deck[deck] >= n, (self.name, p, deck, s.deck[deck], n)
        s.deck[deck] -= n
        s.hand += n
        return self.add("gg.draw", by=p, player=p, deck=deck, n=n, why=why, act=act)

    def play(self, p: str, act: str, card: str, kind: str = "action") -> int:
        self.seats[p].hand -= 1
        assert self.seats[p].hand >= 0, (self.name, p)
        return self.add("gg.play", by=p, act=act, player=p, card=card, kind=kind)

    def cost(self, p: str, act: str, n: int, kind: str = "hand", gun: str | None = None) -> int:
        s = self.seats[p]
        if kind == "hand":
            s.hand -= n
        elif kind == "voltage":
            s.volt -= n
        else:
            s.loads[gun] -= n  # type: ignore[index]
        return self.add("gg.cost", by=p, act=act, player=p, kind=kind, n=n, gun=gun)

    def toss(self, p: str, act: str, faces: str) -> list[int]:
        """``s``: the coin faced the tosser; ``o``: it faced the opponent."""
        return [self.add("gg.toss", by=p, act=act, player=p, facing="self" if f == "s" else "opponent") for f in faces]

    def resolve(self, p: str, act: str, n: int, **kw: Any) -> int:
        return self.add("gg.resolve", by=p, act=act, player=p, n=n, **kw)

    def action(self, p: str, act: str, card: str, cost: int, faces: str, **resolve: Any) -> int:
        """An action used: played, COST paid, tossed, resolved; returns the resolve's seq."""
        self.play(p, act, card)
        if cost:
            self.cost(p, act, cost)
        self.toss(p, act, faces)
        return self.resolve(p, act, n_of(faces), **resolve)

    def function(self, p: str, act: str, card: str, cost: int) -> int:
        """A function put into play (tossed from the owner's next turn start)."""
        seq = self.play(p, act, card, kind="function")
        if cost:
            self.cost(p, act, cost)
        return seq

    def group(self, p: str, act: str, kind: str, faces: str, card: str | None = None, copies: int | None = None) -> int:
        """A turn toss group at the owner's turn start; returns the group's seq."""
        seq = self.add("gg.group", by=p, act=act, player=p, kind=kind, card=card, copies=copies)
        self.toss(p, act, faces)
        return seq

    def set_response(self, p: str, act: str, card: str, cost: int = 0) -> int:
        seq = self.play(p, act, card, kind="response")
        if cost:
            self.cost(p, act, cost)
        return seq

    def respond(self, p: str, act: str, against: str | None = None) -> int:
        return self.add("gg.respond", by=p, act=act, player=p, against=against)

    def skill(self, p: str, act: str, skill: str, cost: int) -> int:
        seq = self.add("gg.skill", by=p, act=act, player=p, skill=skill)
        if cost:
            self.cost(p, act, cost, kind="voltage")
        return seq

    def discard(self, p: str, zone: str, n: int = 1, by: str | None = None, **kw: Any) -> int:
        s = self.seats[p]
        if zone == "hand":
            s.hand -= n
        elif zone == "voltage":
            s.volt -= n
        elif zone == "load":
            s.loads[kw["gun"]] -= n
        elif zone == "deck":
            s.deck[kw["gun"]] -= n
        return self.add("gg.discard", by=by or p, player=p, zone=zone, n=n, **kw)

    # -- loads and shots ----------------------------------------------------------------

    def load(self, p: str, gun: str, n: int = 1, **kw: Any) -> int:
        s = self.seats[p]
        if kw.get("zone", "hand") == "hand" and kw.get("how", "basic") == "basic":
            s.hand -= n
        elif kw.get("zone") == "deck":
            s.deck[kw["deck"]] -= n
        s.loads[gun] = min(s.loads[gun] + n, GUN[gun][0])
        return self.add("gg.load", by=p, player=p, gun=gun, n=n, **kw)

    def shoot(self, p: str, shot: str, gun: str) -> tuple[int, int]:
        """The shot declared; the gun's loads go to voltage. Returns (seq, the HIT row's value)."""
        s = self.seats[p]
        loads = s.loads[gun]
        s.volt += loads
        s.loads[gun] = 0
        return self.add("gg.shoot", by=p, shot=shot, player=p, gun=gun), hit_of(gun, loads)

    def damage(
        self, p: str, amount: int, shot: str | None = None, act: str | None = None, by: str | None = None
    ) -> int:
        """``p`` takes ``amount`` HIT (from a shot or an activation)."""
        self.seats[p].life -= amount
        return self.add("gg.life", by=by or OTHER[p], player=p, delta=-amount, why="hit", shot=shot, act=act)

    def heal(self, p: str, amount: int, act: str | None = None) -> int:
        self.seats[p].life += amount
        return self.add("gg.life", by=p, player=p, delta=amount, why="heal", act=act)

    def hit(self, p: str, shot: str, stage: str, delta: int, act: str | None = None) -> int:
        return self.add("gg.hit", by=p, shot=shot, player=p, stage=stage, delta=delta, act=act)

    def ability(self, p: str, act: str, source: str, name: str) -> int:
        return self.add("gg.ability", by=p, act=act, player=p, source=source, name=name)

    def finish(self, winner: str, reason: str) -> int:
        self.end_reason = reason
        return self.add("match.end", by="judge", winner=winner, reason=reason)
