"""A seeded generator of legal ガンナガン matches played with the coin-toss variant (トスで決まる枚数ルール).

``simulate(seed, turns, mistake)`` (every game's one signature, kifu/games/mistakes.py) returns
event payloads (without ``seq``/``prev``; ``kifu.chain`` numbers and chains them) that
audit with no error findings under the default options; ``play(rng, match_id, turns)`` is
the same with the random source and the match id chosen by the caller. Each player's two
20-card decks are built from the catalogue's deck lists for the guns chosen (only guns
whose whole deck is listed), shuffled, and drawn card by card: a player plays only the
cards in their hand, pays COST with other hand cards, loads from the hand or a deck
top, and every mandatory effect (RECOIL, RECOVER, BURN, RETRIEVAL, ヌエ's turn-end load,
ナトリ's HIT back, burn at the turn start) is recorded.

The generator works out legal play by itself from the card data: N from its own
tosses, each number under N, a load effect's cap, the HIT-table row and the damage.
It never calls the auditor's helpers (``rules/``), so a generated match can catch the
auditor being wrong. ``Table`` (events plus their projection) is shared with the
fixture generators, which write one event at a time.

Given a ``Mistake`` (kifu/games/mistakes.py) the generator makes one mistake of a kind in
``MISTAKES`` and plays on from what it recorded, as a table that did not notice.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Iterator

from kifu.events import table
from kifu.events.base import MatchStarted

from ..mistakes import Mistake, now
from . import cards
from . import projection as proj

GUNS = ("エンラ", "ヌエ", "ダタラ", "カサネ", "ハクメン", "キヨヒメ")
"""Guns the generator picks: every gun whose 20-card deck the catalogue lists in full."""
GUNNERS = ("ヒバナ", "ナトリ", "ラン", "キルコ")

DRAWS = ("計略", "オーバーブースト", "突貫", "高速充電")
"""Actions the generator plays (their effects are below); other cards pay costs or load face down."""
ACTIONS = DRAWS + ("叩き付け", "クールダウン", "起死回生", "チャフ", "バレットブレイク", "リサイクル")
FUNCTIONS = ("リロード・サポーター", "蓄電装置", "ヒーリング・チューブ")
RESPONSES = ("緊急回避", "多層防壁", "焼却壁", "相撃ち")
BULLETS = ("徹甲榴弾", "ドレイン・ボルト")

MISTAKES = {
    "cost-after-toss": "GG-TOSS-001",
    "second-use": "GG-LIM-001",
    "load-past-max": "GG-LOAD-002",
    "effect-tossed": "GG-TOSS-009",
    "no-toss-to-opponent": "GG-TOSS-004",
    "bullet-tossed-at-load": "GG-TOSS-005",
}
"""The mistakes the generator can make (``Mistake.kind``) and the rule each breaks: a cost paid after the toss,
a once-per-turn card used again, a basic load past the gun's maximum, a gunner or gun effect tossed (as
often as the coin faces the tosser), an activation resolved before its toss faces the opponent, a face-up
bullet tossed when it is loaded (its activation named there) instead of at the shot, which then uses that N."""


def values_under(card: Any, n: int) -> list[int]:
    """Each number of a card's effect under N, in catalogue order (トスで決まる枚数ルール §基本ルール 2)."""
    return [n if x.replaceable else x.value for x in card.numbers]


def hit_of(gun: Any, loads: int) -> tuple[int, str] | None:
    """(HIT, row keyword) of a shot with ``loads`` cards: the highest row at most the loads (reference §1.5)."""
    row = None
    for r in gun.hit_table:
        if r.load <= min(loads, gun.max_load):
            row = r
    return None if row is None else (row.hit, row.extra)


@dataclass
class Side:
    """One player's cards as the generator holds them (names; deck tops at the end of each list)."""

    gunner: Any
    guns: list[Any]
    decks: dict[str, list[str]]
    hand: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    voltage: list[str] = field(default_factory=list)
    loads: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Gun name -> (card, face) loaded."""
    responses: list[tuple[str, str]] = field(default_factory=list)
    """(activation, card) of responses set face down."""
    functions: list[str] = field(default_factory=list)
    life: int = 30
    burn: int = 0
    skill: Any = None
    skill_up: bool = False
    turns: int = 0
    basic: Counter[str] = field(default_factory=Counter)
    shots: Counter[str] = field(default_factory=Counter)
    plays: Counter[str] = field(default_factory=Counter)
    barred: set[str] = field(default_factory=set)
    """Guns that may not shoot this turn (the opponent's 叩き付け)."""
    retrieval: bool = False
    """ダタラ fired from its RETRIEVAL row this turn."""
    early: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Gun -> (activation, N) of a face-up bullet tossed when it was loaded (the mistake "bullet-tossed-at-load")."""


class Table:
    """The match being generated: payloads so far and the state they project to."""

    def __init__(
        self,
        rng: random.Random,
        match_id: str,
        rules: dict[str, Any] | None = None,
        catalogue: dict[str, Any] | None = None,
        mistake: Mistake | None = None,
    ) -> None:
        self.rng = rng
        self.mistake = mistake
        self.cat = cards.load()
        self.codec = table.codec("gunandgun")
        self.events: list[dict[str, Any]] = []
        self.acts = 0
        self.ids = ("p1", "p2")
        start = {
            "type": "match.start",
            "format": "kifu/1",
            "game": "gunandgun",
            "match": match_id,
            "players": [{"id": "p1", "name": "Aoi"}, {"id": "p2", "name": "Ren"}],
            "rules": rules or {},
        }
        if catalogue:
            start["catalogue"] = catalogue
        self.events.append(start)
        ev = self.codec.convert({**start, "seq": 1, "prev": None})
        assert isinstance(ev, MatchStarted)
        self.state = proj.initial(ev, rules or {})
        self.over = False
        self.first = self.ids[0]
        self.sides: dict[str, Side] = {}

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

    def toss(self, pid: str, act: str, cap: int | None = None, resolves: bool = False) -> int:
        """Toss until the coin faces the opponent (or N reaches ``cap``); return N. ``resolves``: the
        activation resolves right after (where the mistake "no-toss-to-opponent" can show)."""
        n = 0
        while cap is None or n < cap:
            facing = "self" if self.rng.random() < 0.5 else "opponent"
            if facing == "opponent" and n and resolves and now(self.mistake, "no-toss-to-opponent"):
                self.mistook("no-toss-to-opponent", self.seq + 1)
                break  # the table stops at a self-facing toss and resolves with the N so far
            self.emit("gg.toss", pid, act=act, player=pid, facing=facing)
            if facing == "opponent":
                break
            n += 1
        return n

    @property
    def seq(self) -> int:
        """The seq of the last event written."""
        return len(self.events)

    def mistook(self, kind: str, seq: int | None = None) -> None:
        """The mistake of ``kind`` was made at ``seq`` (the last event by default)."""
        assert self.mistake is not None
        self.mistake.made(self.seq if seq is None else seq, MISTAKES[kind])

    def effect_tossed(self, pid: str, act: str) -> None:
        """A gunner or gun effect is never tossed (トスで決まる枚数ルール); the mistake tosses one until the coin faces the
        opponent, and the effect then applies as printed (the table knew N does not replace it)."""
        if not now(self.mistake, "effect-tossed"):
            return
        mark = self.seq + 1
        self.toss(pid, act)
        self.mistook("effect-tossed", mark)


# --- setup ------------------------------------------------------------------------------


def build_deck(cat: Any, gun: Any, rng: random.Random) -> list[str]:
    """A gun's own deck as the rules build it (reference §1.1, §2.2), shuffled."""
    deck = [cat.card(cid).name for cid, copies in cat.deck(gun.id).items() for _ in range(copies)]
    assert len(deck) == gun.deck_size, (gun.name, len(deck))
    rng.shuffle(deck)
    return deck


def _setup(t: Table) -> None:
    for pid in t.ids:
        gunner = t.cat.gunner(t.rng.choice(GUNNERS))
        guns = [t.cat.gun(g) for g in t.rng.sample(GUNS, 2)]
        skill = next(s for s in (t.cat.skill(k) for k in gunner.skills) if s.cost is not None)
        names = [g.short_name for g in guns]
        t.sides[pid] = Side(
            gunner=gunner,
            guns=guns,
            decks={n: build_deck(t.cat, g, t.rng) for n, g in zip(names, guns)},
            loads={n: [] for n in names},
            life=gunner.life,
            skill=skill,
        )
        t.emit("gg.setup", pid, player=pid, gunner=gunner.name, guns=names, skill=skill.name)
    keys = [(pid, s.gunner.speed, sum(g.weight for g in s.guns)) for pid, s in t.sides.items()]
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
        s = t.sides[pid]
        deck = next(iter(s.decks))
        _take(t, pid, deck, s.gunner.hand, "opening")
    t.first = first


# --- moving cards -------------------------------------------------------------------------


def _take(t: Table, pid: str, deck: str, n: int, why: str, act: str | None = None) -> None:
    s = t.sides[pid]
    for _ in range(n):
        s.hand.append(s.decks[deck].pop())
    t.emit("gg.draw", pid, player=pid, deck=deck, n=n, why=why, act=act)


def _draw(t: Table, pid: str, n: int, why: str, act: str | None = None) -> int:
    """Draw ``n`` from the decks, the first deck first; returns how many could be drawn."""
    s = t.sides[pid]
    done = 0
    for deck, cards_left in s.decks.items():
        k = min(n - done, len(cards_left))
        if k > 0:
            _take(t, pid, deck, k, why, act)
            done += k
    return done


def _cards_left(s: Side) -> int:
    return sum(len(d) for d in s.decks.values())


def _pay(t: Table, pid: str, act: str, cost: int, keep: str) -> None:
    """Pay a COST by discarding ``cost`` other hand cards (option cost_payment: hand)."""
    s = t.sides[pid]
    if not cost:
        return
    s.hand.remove(keep)
    for _ in range(cost):
        s.discard.append(s.hand.pop(t.rng.randrange(len(s.hand))))
    s.hand.append(keep)
    t.emit("gg.cost", pid, act=act, player=pid, kind="hand", n=cost)


def _affordable(s: Side, card: Any) -> bool:
    return len(s.hand) - 1 >= card.cost


def _room(s: Side, gun: str) -> int:
    g = next(x for x in s.guns if x.short_name == gun)
    return g.max_load - len(s.loads[gun])


def _load_from_deck(t: Table, pid: str, gun: str, n: int, act: str) -> None:
    """Load up to ``n`` deck-top cards into ``gun`` by an effect; cards past the gun's maximum are not taken."""
    s = t.sides[pid]
    deck = max(s.decks, key=lambda d: len(s.decks[d]))
    k = min(n, _room(s, gun), len(s.decks[deck]))
    if k <= 0:
        return
    for _ in range(k):
        s.loads[gun].append((s.decks[deck].pop(), "down"))
    t.emit("gg.load", pid, player=pid, gun=gun, n=k, zone="deck", deck=deck, how="effect", act=act)


# --- turns --------------------------------------------------------------------------------


def _turn_start(t: Table, pid: str) -> dict[str, tuple[str, int, int]]:
    """The turn starts: burn, then one toss group per function kind in play; returns card -> (group, N, copies).

    A copy played later this turn has no N until the owner's next turn start (トスで決まる枚数ルール 【機能】)."""
    s = t.sides[pid]
    s.turns += 1
    s.basic.clear()
    s.shots.clear()
    s.plays.clear()
    s.retrieval = False
    t.emit("gg.turn", pid, player=pid, turn=t.state.turn + 1)
    if s.burn:
        s.life -= 3  # option burn: flat, counters kept
        t.emit("gg.life", "system", player=pid, delta=-3, why="burn")
        _check_end(t)
    groups = {}
    for card in dict.fromkeys(s.functions):
        gid = t.act_id()
        copies = s.functions.count(card)
        t.emit("gg.group", pid, act=gid, player=pid, kind="function", card=card, copies=copies)
        # a pure load effect stops tossing once N reaches the room of the gun with the most room (トスで決まる枚数ルール)
        cap = max(_room(s, g) for g in s.loads) if card != "ヒーリング・チューブ" else None
        groups[card] = (gid, t.toss(pid, gid, cap), copies)
    return groups


def _turn_end(t: Table, pid: str, groups: dict[str, tuple[str, int, int]]) -> None:
    s = t.sides[pid]
    for card, (gid, n, copies) in groups.items():
        t.emit("gg.resolve", pid, act=gid, player=pid, n=n, values=values_under(t.cat.card(card), n), card=card)
        if card == "ヒーリング・チューブ":
            if n:
                s.life += n * copies
                t.emit("gg.life", pid, player=pid, delta=n * copies, why="heal", act=gid)
        else:
            gun = max(s.loads, key=lambda g: _room(s, g))
            _load_from_deck(t, pid, gun, n * copies, gid)
    _gun_turn_end(t, pid)
    want = s.gunner.hand - len(s.hand)
    if want > 0:
        _draw(t, pid, want, "refill")
    t.emit("gg.turn.end", pid, player=pid, turn=t.state.turn)


def _gun_turn_end(t: Table, pid: str) -> None:
    """The guns' own turn-end effects, never tossed: ヌエ's load while behind, ダタラ's RETRIEVAL."""
    s = t.sides[pid]
    if "ヌエ" in s.loads and s.life < t.sides[t.other(pid)].life and _room(s, "ヌエ") and _cards_left(s):
        act = t.act_id()
        t.emit("gg.ability", pid, act=act, player=pid, source="gun", name="ヌエ")
        t.effect_tossed(pid, act)
        _load_from_deck(t, pid, "ヌエ", 1, act)
    if s.retrieval and s.discard:
        act = t.act_id()
        t.emit("gg.ability", pid, act=act, player=pid, source="gun", name="ダタラ")
        card = s.discard.pop()
        s.hand.append(card)
        t.emit("gg.move", pid, player=pid, zone="discard", to="hand", card=card, act=act)


# --- the main phase -----------------------------------------------------------------------


def _basic_load(t: Table, pid: str) -> None:
    s = t.sides[pid]
    guns = [g for g in s.guns if len(s.loads[g.short_name]) < g.max_load and s.basic[g.short_name] < g.load_limit]
    if not guns or not s.hand:
        return
    gun = t.rng.choice(guns)
    bullets = [c for c in s.hand if c in BULLETS]
    name = gun.short_name
    room = gun.max_load - len(s.loads[name])
    if room + 1 <= min(len(s.hand), gun.load_limit - s.basic[name]) and now(t.mistake, "load-past-max"):
        _load_past_max(t, pid, gun, room + 1)
        return
    if bullets and gun.face_up_bullets and t.rng.random() < 0.6:
        card, face = t.rng.choice(bullets), "up"
    else:
        card, face = t.rng.choice(s.hand), "down"
    s.hand.remove(card)
    s.loads[name].append((card, face))
    s.basic[name] += 1
    early = face == "up" and name not in s.early and now(t.mistake, "bullet-tossed-at-load")
    act = t.act_id() if early else None
    t.emit("gg.load", pid, player=pid, gun=name, face=face, card=card if face == "up" else None, act=act)
    if act is not None:
        t.mistook("bullet-tossed-at-load", t.seq + 1)
        s.early[name] = (act, t.toss(pid, act))


def _load_past_max(t: Table, pid: str, gun: Any, n: int) -> None:
    """The mistake: ``n`` hand cards loaded face down into a gun with room for ``n - 1``. The gun holds its
    maximum; the card past it goes to the discard (トスで決まる枚数ルール FAQ: loads past the maximum are ignored)."""
    s = t.sides[pid]
    name = gun.short_name
    for i in range(n):
        card = s.hand.pop(t.rng.randrange(len(s.hand)))
        (s.loads[name].append((card, "down")) if i < n - 1 else s.discard.append(card))
    s.basic[name] += n
    t.emit("gg.load", pid, player=pid, gun=name, n=n)
    t.mistook("load-past-max")


def _use(t: Table, pid: str, card: str, kind: str, pay: bool = True) -> tuple[str, Any]:
    """Take ``card`` from the hand, open its activation and pay its COST (unless ``pay`` is False: the
    caller pays it later)."""
    s = t.sides[pid]
    facts = t.cat.card(card)
    act = t.act_id()
    t.emit("gg.play", pid, act=act, player=pid, card=card, kind=kind)
    if _spent(s, facts):
        t.mistook("second-use")
    if pay:
        _pay(t, pid, act, facts.cost, card)
    s.hand.remove(card)
    s.plays[card] += 1
    return act, facts


def _resolve(t: Table, pid: str, act: str, facts: Any, n: int, **kw: Any) -> None:
    t.emit("gg.resolve", pid, act=act, player=pid, n=n, values=values_under(facts, n), **kw)


def _action(t: Table, pid: str, card: str) -> None:
    s = t.sides[pid]
    opp = t.sides[t.other(pid)]
    late = t.cat.card(card).cost > 0 and now(t.mistake, "cost-after-toss")
    act, facts = _use(t, pid, card, "action", pay=not late)
    if late:
        t.mistook("cost-after-toss", t.seq + 1)
        n = t.toss(pid, act)
        s.hand.append(card)  # the card is still in play while its cost is paid: it is not a card to discard
        _pay(t, pid, act, facts.cost, card)
        s.hand.remove(card)
    else:
        n = t.toss(pid, act, resolves=True)
    _resolve(t, pid, act, facts, n)
    s.discard.append(card)
    if card in DRAWS and card != "高速充電":
        _draw(t, pid, n, "effect", act)
    if card == "高速充電":
        gun = max(s.loads, key=lambda g: _room(s, g))
        _load_from_deck(t, pid, gun, n, act)
        _draw(t, pid, n, "effect", act)
    if card in ("突貫", "叩き付け") and n:
        s.life -= n
        t.emit("gg.life", pid, player=pid, delta=-n, why="hit", act=act)
    if card == "叩き付け":
        opp.barred = {g.short_name for g in opp.guns[:n]}
    if card == "起死回生" and n:
        _hurt(t, pid, t.other(pid), n, act=act)
    if card == "クールダウン":
        for _ in range(min(n, len(s.voltage))):
            s.hand.append(s.voltage.pop())
            t.emit("gg.move", pid, player=pid, zone="voltage", to="hand", act=act)
    if card == "リサイクル":
        for _ in range(min(n, len(s.discard) - 1)):  # never the リサイクル itself, last in the discard
            back = s.discard.pop(-2)
            if t.cat.card(back).kind == "bullet":  # a bullet goes to the hand instead
                s.hand.append(back)
                t.emit("gg.move", pid, player=pid, zone="discard", to="hand", card=back, act=act)
            else:
                deck = next(iter(s.decks))
                s.decks[deck].append(back)
                t.emit("gg.move", pid, player=pid, zone="discard", to="deck", gun=deck, card=back, act=act)
    if card == "チャフ":
        k = min(n, len(opp.hand))
        for _ in range(k):
            opp.discard.append(opp.hand.pop(t.rng.randrange(len(opp.hand))))
        if k:
            t.emit("gg.discard", pid, player=t.other(pid), zone="hand", n=k, act=act)
    if card == "バレットブレイク":
        gun = max(opp.loads, key=lambda g: len(opp.loads[g]))
        k = min(n, len(opp.loads[gun]))
        for _ in range(k):
            opp.discard.append(opp.loads[gun].pop()[0])
        if k:
            t.emit("gg.discard", pid, player=t.other(pid), zone="load", gun=gun, n=k, act=act)
    _check_end(t)


def _playable(t: Table, pid: str) -> list[str]:
    s = t.sides[pid]
    out = []
    for card in dict.fromkeys(s.hand):
        facts = t.cat.card(card)
        if not _affordable(s, facts) or _spent(s, facts):
            continue
        if card in DRAWS and _cards_left(s) < 14:
            continue  # a draw of N must be possible in full (GG-NUM-004): keep well clear of the deck's end
        if card in ("突貫", "叩き付け") and s.life <= 8:
            continue
        if (
            card in ACTIONS
            or (card in FUNCTIONS and s.functions.count(card) < 2)
            or (card in RESPONSES and len(s.responses) < 2)
        ):
            out.append(card)
    return out


def _spent(s: Side, facts: Any) -> bool:
    """A per-turn limit of the card is used up this turn."""
    return any(lim.scope == "turn" and s.plays[facts.name] >= lim.n for lim in facts.limits)


def _play(t: Table, pid: str) -> None:
    s = t.sides[pid]
    again = [
        c
        for c in dict.fromkeys(s.hand)
        if c in ACTIONS
        and _spent(s, t.cat.card(c))
        and _affordable(s, t.cat.card(c))
        and not (c in DRAWS and _cards_left(s) < 14)
    ]
    if again and now(t.mistake, "second-use"):
        _action(t, pid, t.rng.choice(again))
        return
    options = _playable(t, pid)
    if not options:
        return
    card = t.rng.choice(options)
    s = t.sides[pid]
    if card in ACTIONS:
        _action(t, pid, card)
    elif card in FUNCTIONS:
        _use(t, pid, card, "function")
        s.functions.append(card)
    else:
        act, _ = _use(t, pid, card, "response")
        s.responses.append((act, card))


def _shoot(t: Table, pid: str) -> None:
    s = t.sides[pid]
    ready = [
        g
        for g in s.guns
        if not s.shots[g.short_name]
        and g.short_name not in s.barred
        and g.hit_table
        and len(s.loads[g.short_name]) >= g.hit_table[0].load
    ]
    if not ready:
        return
    gun = t.rng.choice(ready)
    name = gun.short_name
    shot = t.act_id().replace("a", "s")
    fired = s.loads[name]
    s.loads[name] = []
    s.voltage.extend(c for c, _ in fired)
    s.shots[name] += 1
    t.emit("gg.shoot", pid, shot=shot, player=pid, gun=name)
    hit, extra = hit_of(gun, len(fired)) or (0, "")
    target = t.other(pid)
    if extra.startswith("RECOIL"):
        act = t.act_id()
        t.emit("gg.ability", pid, act=act, player=pid, source="gun", name=name)
        _hurt(t, pid, pid, int(extra[len("RECOIL") :]), act=act)
    heal = 0
    no_responses = gun.no_responses
    early = s.early.pop(name, None)
    for card, face in fired:
        if face != "up":
            continue
        facts = t.cat.card(card)
        no_responses = no_responses or facts.no_responses
        if early is not None:  # tossed when it was loaded: the table uses that N
            (act, n), early = early, None
            t.emit("gg.bullet", pid, act=act, player=pid, shot=shot, card=card)
        else:
            act = t.act_id()
            t.emit("gg.bullet", pid, act=act, player=pid, shot=shot, card=card)
            n = t.toss(pid, act)
        if card == "徹甲榴弾":
            holds = len(fired) >= n
            _resolve(t, pid, act, facts, n, measured=len(fired), holds=holds)
            if holds and n:
                hit += n
                t.emit("gg.hit", pid, shot=shot, player=pid, stage="bullet", delta=n, act=act)
        else:
            _resolve(t, pid, act, facts, n)
            heal += n
            if n:
                s.life += n
                t.emit("gg.life", pid, player=pid, delta=n, why="heal", act=act)
    if not no_responses:
        hit = _respond(t, target, shot, hit)
    if hit > 0:
        _hurt(t, pid, target, hit, shot=shot)
    if extra == "RECOVER" and hit > 0:
        act = t.act_id()
        t.emit("gg.ability", pid, act=act, player=pid, source="gun", name=name)
        s.life += hit
        t.emit("gg.life", pid, player=pid, delta=hit, why="heal", act=act)
    if extra.startswith("BURN"):
        act = t.act_id()
        t.emit("gg.ability", pid, act=act, player=pid, source="gun", name=name)
        t.sides[target].burn += int(extra[len("BURN") :])
        t.emit("gg.burn", pid, player=target, delta=int(extra[len("BURN") :]), act=act)
    if extra == "RETRIEVAL":
        s.retrieval = True
    _check_end(t)


def _respond(t: Table, pid: str, shot: str, hit: int) -> int:
    """The defender may declare one set response; returns the HIT after it."""
    s = t.sides[pid]
    if not s.responses or t.rng.random() < 0.4 or t.over:
        return hit
    act, card = s.responses.pop(0)
    facts = t.cat.card(card)
    t.emit("gg.respond", pid, act=act, player=pid, against=shot)
    n = t.toss(pid, act)
    s.discard.append(card)
    if card == "相撃ち":
        holds = hit >= n
        _resolve(t, pid, act, facts, n, measured=hit, holds=holds, outcome="applied" if holds else "fizzled")
        if holds and n:
            _hurt(t, pid, t.other(pid), n, act=act)
        return hit
    _resolve(t, pid, act, facts, n)
    if n:
        t.emit("gg.hit", pid, shot=shot, player=pid, stage="response", delta=-n, act=act)
    return max(0, hit - n)


def _hurt(t: Table, by: str, target: str, hit: int, **tag: Any) -> None:
    """``hit`` HIT to ``target``; ナトリ deals 1 HIT back when dealt 3 or more by the opponent."""
    side = t.sides[target]
    side.life -= hit
    t.emit("gg.life", by, player=target, delta=-hit, why="hit", **tag)
    if by != target and hit >= 3 and side.gunner.name == "ナトリ" and side.life > 0:
        act = t.act_id()
        t.emit("gg.ability", target, act=act, player=target, source="gunner", name="ナトリ")
        t.effect_tossed(target, act)
        t.sides[by].life -= 1
        t.emit("gg.life", target, player=by, delta=-1, why="hit", act=act)


def _skill(t: Table, pid: str) -> None:
    s = t.sides[pid]
    skill = s.skill
    if s.skill_up or skill.cost is None or len(s.voltage) < skill.cost or skill.kind != "normal":
        return
    if s.plays[skill.name] >= (skill.per_turn or 1) or not skill.numbers or any(x.role != "hit" for x in skill.numbers):
        return
    act = t.act_id()
    t.emit("gg.skill", pid, act=act, player=pid, skill=skill.name)
    for _ in range(skill.cost):
        s.discard.append(s.voltage.pop())
    t.emit("gg.cost", pid, act=act, player=pid, kind="voltage", n=skill.cost)
    s.plays[skill.name] += 1
    s.skill_up = not skill.flip_back
    n = t.toss(pid, act)
    t.emit("gg.resolve", pid, act=act, player=pid, n=n, values=values_under(skill, n))
    if n:
        _hurt(t, pid, t.other(pid), n, act=act)
    _check_end(t)


def _check_end(t: Table) -> None:
    for pid in t.ids:
        if t.sides[pid].life <= 0 and not t.over:
            t.emit("match.end", "system", winner=t.other(pid), reason="life")
            t.over = True


def _main(t: Table, pid: str) -> None:
    for _ in range(t.rng.randint(2, 6)):
        if t.over:
            return
        choice = t.rng.random()
        if choice < 0.35:
            _basic_load(t, pid)
        elif choice < 0.7:
            _play(t, pid)
        elif choice < 0.78:
            _skill(t, pid)
        else:
            _shoot(t, pid)
    t.sides[pid].barred = set()


def _decked(t: Table) -> str | None:
    return next((pid for pid in t.ids if not _cards_left(t.sides[pid])), None)


def _turns(t: Table, turns: int) -> Iterator[str]:
    pid = t.first
    for _ in range(turns):
        yield pid
        pid = t.other(pid)


TURNS = 14
"""Turns of a typical match (150–450 events)."""


def simulate(seed: int, turns: int | None = None, mistake: Mistake | None = None) -> list[dict[str, Any]]:
    """Event payloads (without seq/prev) of a legal match ``gg-<seed>`` of at most ``turns`` turns (``TURNS``
    when None), chosen with ``random.Random(seed)``; with ``mistake``, one mistake of that kind where the match
    gives its ``nth`` chance."""
    return play(random.Random(seed), f"gg-{seed}", TURNS if turns is None else turns, mistake)


def play(rng: random.Random, match_id: str, turns: int, mistake: Mistake | None = None) -> list[dict[str, Any]]:
    """Event payloads (without seq/prev) of a legal match of at most ``turns`` turns (with ``mistake``: one
    mistake of that kind, where the match gives its ``nth`` chance)."""
    t = Table(rng, match_id, mistake=mistake)
    _setup(t)
    for pid in _turns(t, turns):
        loser = _decked(t)
        if loser:
            t.emit("match.end", "system", winner=t.other(loser), reason="deck-out")
            t.over = True
        if t.over:
            break
        groups = _turn_start(t, pid)
        if t.over:
            break
        _main(t, pid)
        if t.over:
            break
        _turn_end(t, pid, groups)
    return t.events
