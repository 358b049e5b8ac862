"""A seeded generator of legal ガンナガン matches played with the coin-toss variant (seed 000).

``simulate(rng, match_id, turns)`` returns event payloads (without ``seq``/``prev``)
that audit with no error findings under the default options: costs paid before the
toss, toss sequences that end at the first opponent-facing toss (or the load cap),
N used for every replaceable number, usage limits kept, loads within the caps,
one shot per gun per turn, hands refilled, functions tossed once per kind at the
owner's turn start. The generator folds its own events through the projection
and decides from the state, so what it writes is what the auditor will see.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

from kifu.events import games
from kifu.events.base import MatchStarted

from . import cards
from . import projection as proj
from .rules.facts import load_cap

GUNS = ("エンラ", "ダタラ", "カサネ", "ハクメン", "ウワン", "ドドメ")
GUNNERS = ("ヒバナ", "ナトリ", "ラン", "キルコ")


class Table:
    """The match being generated: payloads so far and the state they project to."""

    def __init__(self, rng: random.Random, match_id: str, rules: dict[str, Any] | None = None,
                 catalogue: dict[str, Any] | None = None) -> None:
        self.rng = rng
        self.cat = cards.load()
        self.codec = games.codec("gunandgun")
        self.events: list[dict[str, Any]] = []
        self.acts = 0
        self.ids = ("p1", "p2")
        start = {"type": "match.start", "format": "kifu/1", "game": "gunandgun", "match": match_id,
                 "players": [{"id": "p1", "name": "Aoi"}, {"id": "p2", "name": "Ren"}], "rules": rules or {}}
        if catalogue:
            start["catalogue"] = catalogue
        self.events.append(start)
        ev = self.codec.convert({**start, "seq": 1, "prev": None})
        assert isinstance(ev, MatchStarted)
        self.state = proj.initial(ev, rules or {})
        self.over = False
        self.first = self.ids[0]

    def emit(self, type_: str, by: str | None = None, **fields: Any) -> None:
        payload = {"type": type_, **({"by": by} if by else {}), **{k: v for k, v in fields.items() if v is not None}}
        self.events.append(payload)
        event = self.codec.convert({**payload, "seq": len(self.events), "prev": None})
        self.state = proj.apply(self.state, event)

    def act_id(self) -> str:
        self.acts += 1
        return f"a{self.acts}"

    def me(self, pid: str) -> proj.Player:
        return self.state.players[pid]

    def other(self, pid: str) -> str:
        return self.ids[1] if pid == self.ids[0] else self.ids[0]

    def toss(self, pid: str, act: str, cap: int | None = None) -> int:
        """Toss until the coin faces the opponent (or N reaches ``cap``); return N."""
        n = 0
        while cap is None or n < cap:
            facing = "self" if self.rng.random() < 0.5 else "opponent"
            self.emit("gg.toss", pid, act=act, player=pid, facing=facing)
            if facing == "opponent":
                break
            n += 1
        return n


def _setup(t: Table) -> None:
    for pid in t.ids:
        gunner = t.cat.gunner(t.rng.choice(GUNNERS))
        guns = t.rng.sample(GUNS, 2)
        skill = next(s for s in (t.cat.skill(k) for k in gunner.skills) if s.cost is not None)
        t.emit("gg.setup", pid, player=pid, gunner=gunner.name, guns=guns, skill=skill.name)
    keys = []
    for pid in t.ids:
        p = t.me(pid)
        keys.append((pid, t.cat.gunner(p.gunner).speed, sum(t.cat.gun(g).weight for g in p.guns)))
    (a, sa, wa), (b, sb, wb) = keys
    if sa != sb:
        first, reason = (a if sa > sb else b), "speed"
    elif wa != wb:
        first, reason = (a if wa < wb else b), "weight"
    else:
        first, reason = t.rng.choice((a, b)), "random"
    if reason == "random":
        t.emit("random", "system", kind="coin", sides=2, values=[1], purpose="first-player")
    t.emit("gg.first", "system", player=first, reason=reason)
    for pid in (first, t.other(first)):
        deck = next(iter(t.me(pid).guns))
        t.emit("gg.draw", pid, player=pid, deck=deck, n=_hand_size(t, pid), why="opening")
    t.first = first


def _hand_size(t: Table, pid: str) -> int:
    return t.cat.gunner(t.me(pid).gunner).hand


def _draw(t: Table, pid: str, n: int, why: str, act: str | None = None) -> None:
    for name, g in t.me(pid).guns.items():
        if n <= 0:
            break
        k = min(n, g.deck)
        if k:
            t.emit("gg.draw", pid, player=pid, deck=name, n=k, why=why, act=act)
            n -= k


def _turn_start(t: Table, pid: str) -> None:
    t.emit("gg.turn", pid, player=pid, turn=t.state.turn + 1)
    p = t.me(pid)
    if p.burn:
        t.emit("gg.life", "system", player=pid, delta=-3, why="burn")
    for card in dict.fromkeys(p.functions):
        gid = t.act_id()
        t.emit("gg.group", pid, act=gid, player=pid, kind="function", card=card, copies=p.functions.count(card))
        t.toss(pid, gid, load_cap(t.state, t.state.acts[gid]))


def _play_keiryaku(t: Table, pid: str) -> None:
    act = t.act_id()
    t.emit("gg.play", pid, act=act, player=pid, card="計略", kind="action")
    t.emit("gg.cost", pid, act=act, player=pid, kind="hand", n=1)
    n = t.toss(pid, act)
    t.emit("gg.resolve", pid, act=act, player=pid, n=n, values=[n])
    _draw(t, pid, n, "effect", act)


def _play_tataki(t: Table, pid: str) -> None:
    """叩き付け: COST 0, once per turn by name; deals N HIT to its own player."""
    if t.me(pid).plays.get("叩き付け") or t.me(pid).life <= 5:
        return
    act = t.act_id()
    t.emit("gg.play", pid, act=act, player=pid, card="叩き付け", kind="action")
    n = t.toss(pid, act)
    t.emit("gg.resolve", pid, act=act, player=pid, n=n, values=[n, n])
    if n:
        t.emit("gg.life", pid, player=pid, delta=-n, why="hit", act=act)


def _play_function(t: Table, pid: str) -> None:
    act = t.act_id()
    t.emit("gg.play", pid, act=act, player=pid, card="リロード・サポーター", kind="function")
    t.emit("gg.cost", pid, act=act, player=pid, kind="hand", n=1)


def _set_response(t: Table, pid: str) -> None:
    t.emit("gg.play", pid, act=t.act_id(), player=pid, card="緊急回避", kind="response")


def _basic_load(t: Table, pid: str, face: str) -> None:
    p = t.me(pid)
    names = [n for n, g in p.guns.items() if g.loads < (g.max or 0) and g.basic < (g.limit or 0)]
    if not names or p.hand < 1:
        return
    gun = t.rng.choice(names)
    if face == "up" and t.cat.gun(gun).face_up_bullets and p.up_loads.get("徹甲榴弾", 0) == 0:
        t.emit("gg.load", pid, player=pid, gun=gun, face="up", card="徹甲榴弾")
    else:
        t.emit("gg.load", pid, player=pid, gun=gun)


def _shoot(t: Table, pid: str) -> None:
    p = t.me(pid)
    ready = [n for n, g in p.guns.items() if g.shots == 0 and g.loads >= t.cat.gun(n).min_load()]
    if not ready:
        return
    gun = t.rng.choice(ready)
    shot = t.act_id().replace("a", "s")
    t.emit("gg.shoot", pid, shot=shot, player=pid, gun=gun)
    s = t.state.shots[shot]
    for card in s.up:
        act = t.act_id()
        t.emit("gg.bullet", pid, act=act, player=pid, shot=shot, card=card)
        n = t.toss(pid, act)
        holds = s.loads >= n
        t.emit("gg.resolve", pid, act=act, player=pid, n=n, values=[n, n], measured=s.loads, holds=holds)
        if holds and n:
            t.emit("gg.hit", pid, shot=shot, player=pid, stage="bullet", delta=n, act=act)
    _respond(t, t.other(pid), shot)
    _damage(t, pid, shot)


def _respond(t: Table, pid: str, shot: str) -> None:
    p = t.me(pid)
    if not p.set or t.cat.gun(t.state.shots[shot].gun).no_responses or t.rng.random() < 0.4:
        return  # ダタラ's own effect takes the response timing away
    act = p.set[0]
    t.emit("gg.respond", pid, act=act, player=pid, against=shot)
    n = t.toss(pid, act)
    t.emit("gg.resolve", pid, act=act, player=pid, n=n, values=[n])
    if n:
        t.emit("gg.hit", pid, shot=shot, player=pid, stage="response", delta=-n, act=act)


def _damage(t: Table, pid: str, shot: str) -> None:
    from .rules.shots import expected_damage

    s = t.state.shots[shot]
    hit = expected_damage(t.cat.gun(s.gun), s) or 0
    target = t.other(pid)
    t.emit("gg.life", pid, player=target, delta=-hit, why="hit", shot=shot)
    _check_end(t)


def _skill(t: Table, pid: str) -> None:
    p = t.me(pid)
    skill = t.cat.skill(p.skill)
    if p.plays.get(p.skill, 0) >= (skill.per_turn or 1):
        return
    if p.skill_up or skill.cost is None or p.voltage < skill.cost or skill.kind != "normal":
        return
    if not skill.numbers or any(x.role != "hit" for x in skill.numbers):
        return
    act = t.act_id()
    t.emit("gg.skill", pid, act=act, player=pid, skill=p.skill)
    t.emit("gg.cost", pid, act=act, player=pid, kind="voltage", n=skill.cost)
    n = t.toss(pid, act)
    t.emit("gg.resolve", pid, act=act, player=pid, n=n, values=[n] * len(skill.numbers))
    if n:
        t.emit("gg.life", pid, player=t.other(pid), delta=-n, why="hit", act=act)
        _check_end(t)


def _check_end(t: Table) -> None:
    for pid in t.ids:
        if t.me(pid).life <= 0 and not t.over:
            t.emit("match.end", "system", winner=t.other(pid), reason="life")
            t.over = True


def _main(t: Table, pid: str) -> None:
    for _ in range(t.rng.randint(2, 6)):
        if t.over:
            return
        p = t.me(pid)
        choice = t.rng.random()
        decks = sum(g.deck for g in p.guns.values())
        if choice < 0.3:
            _basic_load(t, pid, "up" if t.rng.random() < 0.3 else "down")
        elif choice < 0.45 and p.hand >= 2 and decks > 6:
            _play_keiryaku(t, pid)
        elif choice < 0.5 and p.hand >= 2 and "リロード・サポーター" not in p.plays_game:
            _play_function(t, pid)
        elif choice < 0.6 and p.hand >= 1 and len(p.set) < 2:
            _set_response(t, pid)
        elif choice < 0.66:
            _skill(t, pid)
        elif choice < 0.72 and p.hand >= 1:
            _play_tataki(t, pid)
        else:
            _shoot(t, pid)


def _turn_end(t: Table, pid: str) -> None:
    p = t.me(pid)
    for card, gid in p.group_of.items():
        a = t.state.acts[gid]
        if card == "リロード・サポーター" and a.turn == t.state.turn:
            t.emit("gg.resolve", pid, act=gid, player=pid, n=a.n, values=[a.n], card=card)
            _effect_load(t, pid, gid, a.n * a.copies)
    want = _hand_size(t, pid) - t.me(pid).hand
    if want > 0:
        _draw(t, pid, want, "refill")
    t.emit("gg.turn.end", pid, player=pid, turn=t.state.turn)


def _effect_load(t: Table, pid: str, act: str, n: int) -> None:
    for name, g in t.me(pid).guns.items():
        room = (g.max or 0) - g.loads
        deck = next((d for d, x in t.me(pid).guns.items() if x.deck), None)
        k = min(n, room, t.me(pid).guns[deck].deck if deck else 0)
        if k > 0 and deck:
            t.emit("gg.load", pid, player=pid, gun=name, n=k, zone="deck", deck=deck, how="effect", act=act)
            n -= k


def _decked(t: Table) -> str | None:
    return next((pid for pid in t.ids if not any(g.deck for g in t.me(pid).guns.values())), None)


def _turns(t: Table, turns: int) -> Iterator[str]:
    pid = t.first
    for _ in range(turns):
        yield pid
        pid = t.other(pid)


def to_events(payloads: list[dict[str, Any]]) -> list[Any]:
    """Number and chain payloads (seq, prev as a log would store them) and decode them into events."""
    from kifu.events.codec import encode, line_hash

    codec = games.codec("gunandgun")
    events: list[Any] = []
    prev = None
    for i, p in enumerate(payloads, 1):
        e = codec.convert({**p, "seq": i, "prev": prev})
        prev = line_hash(encode(e))
        events.append(e)
    return events


def simulate(rng: random.Random, match_id: str, turns: int) -> list[dict[str, Any]]:
    """Event payloads (without seq/prev) of a legal match of at most ``turns`` turns."""
    t = Table(rng, match_id)
    _setup(t)
    for pid in _turns(t, turns):
        loser = _decked(t)
        if loser:
            t.emit("match.end", "system", winner=t.other(loser), reason="deck-out")
            t.over = True
        if t.over:
            break
        _turn_start(t, pid)
        _main(t, pid)
        if t.over:
            break
        _turn_end(t, pid)
    return t.events
