"""Seeded generator of legal World Trigger 1v1 dice-game matches (ボーダー隊員ソロランク戦ゲーム（仮）).

``match(seed)`` plays two simple agents against each other with the example
catalogue and returns ``match.start`` and the events as plain dicts, ready for
``logfile.create`` and ``Writer.append``. Every choice follows ボーダー隊員ソロランク戦ゲーム（仮） as the
rulebook reads it (defaults of every option), so an audit of a generated match
gives no errors: the property tests and ``fixtures/worldtrigger/make.py`` rely
on that. Same seed, same match.

Given a ``Mistake`` (kifu/games/mistakes.py) it makes one mistake of a kind in ``MISTAKES`` and
plays on from what it recorded, as a table that did not notice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..mistakes import Mistake, MakesMistakes, now
from . import cards

BUILDS: dict[str, dict[str, list[str]]] = {
    "a": {
        "main": ["弧月", "旋空", "アステロイド", "レイガスト"],
        "sub": ["シールド", "バッグワーム", "グラスホッパー", "エスクード"],
    },
    "b": {
        "main": ["アステロイド", "ハウンド", "メテオラ", "バイパー"],
        "sub": ["シールド", "バッグワーム", "エスクード", "スコーピオン"],
    },
}
"""Two legal example builds (4 + 4, options beside their trigger)."""

TAGS = ("move", "shooting", "close")

MISTAKES = {
    "play-after-defeat": "WT-END-001",
    "use-underpaid": "WT-USE-003",
    "use-twice": "WT-USE-004",
    "wrong-first": "WT-ORDER-001",
}
"""The mistakes the generator can make and the rule each breaks: a turn played on after a player's trion
reached 0, a use recorded without its trion cost (the table never took the chips), the same effect used
twice in one tactics phase, the player with more trion made first."""


@dataclass
class Agent:
    id: str
    trion: int = 100
    main: str | None = None
    sub: str | None = None
    up: set[str] = field(default_factory=set)
    tags: list[str] = field(default_factory=list)
    sheet: list[str] = field(default_factory=list)


@dataclass
class Sim(MakesMistakes):
    """One match being generated."""

    MISTAKES = MISTAKES

    rng: random.Random
    cat: cards.Catalogue
    agents: dict[str, Agent]
    events: list[dict[str, Any]] = field(default_factory=list)
    distance: int = 1
    over: bool = False
    first1: str = "a"
    """Turn 1's first player, drawn before ■2 so the initial-distance uses can follow it."""
    mistake: Mistake | None = None
    lost: str | None = None
    """The player whose trion reached 0 while the table played on (the mistake "play-after-defeat")."""

    def emit(self, type_: str, by: str | None = None, **fields: Any) -> int:
        """Record an event; return the seq it will get (match.start is seq 1)."""
        ev = {"type": type_, **({"by": by} if by else {}), **fields}
        self.events.append(ev)
        return len(self.events) + 1

    def foe(self, pid: str) -> Agent:
        return next(a for a in self.agents.values() if a.id != pid)


def start(match_id: str = "wt-sim") -> dict[str, Any]:
    """The match.start of a generated match."""
    return {
        "game": "worldtrigger",
        "match": match_id,
        "players": [{"id": "a", "name": "三雲"}, {"id": "b", "name": "空閑"}],
    }


TURNS = 10
"""Turns of a typical simulated match."""


def simulate(seed: int, turns: int | None = None, mistake: Mistake | None = None) -> list[dict[str, Any]]:
    """Every event body of a legal match ``wt-<seed>`` (``match`` of ``turns`` turns, ``TURNS`` when None),
    ``match.start`` first: every game's one signature (kifu/games/mistakes.py)."""
    start, events = match(seed, TURNS if turns is None else turns, f"wt-{seed}", mistake)
    return [{"type": "match.start", "format": "kifu/1", **start}, *events]


def match(
    seed: int, max_turns: int = 10, match_id: str = "wt-sim", mistake: Mistake | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A legal match from ``seed``: (match.start fields, the following events); with ``mistake``, one mistake
    of that kind where the match gives its ``nth`` chance."""
    sim = Sim(random.Random(seed), cards.load(), {p: Agent(p) for p in BUILDS}, mistake=mistake)
    setup(sim)
    turn = 0
    while not sim.over and (turn < max_turns or sim.mistake is not None and sim.mistake.seq == sim.seq + 1):
        turn += 1  # (a mistake made at the very end plays one more turn: the mistake is to play on)
        play_turn(sim, turn)
    if sim.lost is not None and not sim.over:  # the table played on; the match still went to the winner
        sim.emit("match.end", by="judge", winner=sim.foe(sim.lost).id, reason="trion")
        sim.over = True
    if not sim.over:
        loser = min(sim.agents.values(), key=lambda a: (a.trion, a.id))
        sim.emit("wt.bailout", by=loser.id, player=loser.id)
        sim.emit("match.end", by="judge", winner=sim.foe(loser.id).id, reason="bailout")
    return start(match_id), sim.events


def setup(sim: Sim) -> None:
    """■1 and ■2: builds, sheets, trion, initial distance."""
    for pid, build in BUILDS.items():
        sim.emit("wt.build", by=pid, player=pid, main=build["main"], sub=build["sub"])
        sheet = [sim.rng.choice(TAGS) for _ in range(6)]
        sim.agents[pid].sheet = sheet
        sim.emit("wt.sheet", by=pid, player=pid, faces=sheet)
        sim.emit("wt.deal", by="judge", player=pid, trion=100)
    roll = sim.rng.randint(1, 6)
    sim.emit("wt.init.roll", by="a", value=roll)
    first = sim.rng.choice(sorted(sim.agents))
    total = roll
    for pid in (first, sim.foe(first).id):
        if sim.rng.random() < 0.5:
            delta = sim.rng.randint(0, 2)
            sim.agents[pid].trion -= 2
            sim.emit("wt.init.use", by=pid, player=pid, trigger="バッグワーム", effect="潜伏", delta=delta, trion=2)
            total += delta
    sim.distance = max(1, min(6, total))
    sim.emit("wt.init.set", by="judge", distance=sim.distance)
    sim.first1 = first


def order(sim: Sim, turn: int) -> str:
    """■3: fewer trion first; a tie is broken at random (turn 1 keeps the first player chosen in ■2)."""
    a, b = sim.agents["a"], sim.agents["b"]
    if a.trion != b.trion:
        first = "a" if a.trion < b.trion else "b"
        if turn > 1 and now(sim.mistake, "wrong-first"):
            first = "b" if first == "a" else "a"
            sim.emit("wt.order", by="judge", turn=turn, first=first)
            sim.mistook("wrong-first")
            return first
        sim.emit("wt.order", by="judge", turn=turn, first=first)
        return first
    first = sim.first1 if turn == 1 else sim.rng.choice(["a", "b"])
    sim.emit("wt.order", by="judge", turn=turn, first=first, tie_break="janken")
    return first


def set_triggers(sim: Sim, agent: Agent) -> None:
    """■4: one main, one sub; a face-up trigger may stay."""
    build = BUILDS[agent.id]
    mains = [t for t in build["main"] if sim.cat.triggers[t].option_of is None]
    main, sub = sim.rng.choice(mains), sim.rng.choice(build["sub"])
    kept = [
        slot
        for slot, new, old in (("main", main, agent.main), ("sub", sub, agent.sub))
        if new == old and old in agent.up
    ]
    agent.up = {t for slot, t in (("main", main), ("sub", sub)) if slot in kept}
    agent.main, agent.sub = main, sub
    sim.emit("wt.set", by=agent.id, player=agent.id, main=main, sub=sub, **({"kept": kept} if kept else {}))


def play_turn(sim: Sim, turn: int) -> None:
    first = order(sim, turn)
    for agent in sim.agents.values():
        agent.tags = []
    for pid in (first, sim.foe(first).id):
        set_triggers(sim, sim.agents[pid])
    for pid in (first, sim.foe(first).id):
        if sim.over:
            return
        tactics_phase(sim, sim.agents[pid])


def tags_of(sheet: list[str], attack: list[int], defence: list[int]) -> list[str]:
    """■5: each of the attacker's dice whose face none of the defender's dice shows gives the tag its
    face has on the plot sheet (written here from the rules, not taken from the projection)."""
    shown = set(defence)
    return [sheet[face - 1] for face in attack if face not in shown and face <= len(sheet)]


def tactics_phase(sim: Sim, me: Agent) -> None:
    """■5: plot, tags, then uses and moves while they can be paid."""
    attack = [sim.rng.randint(1, 6) for _ in range(2)]
    defence = [sim.rng.randint(1, 6) for _ in range(2)]
    sim.emit("wt.plot", by=me.id, attacker=me.id, attack=attack, defence=defence)
    tags = tags_of(me.sheet, attack, defence)
    me.tags += tags
    sim.emit("wt.tags", by=me.id, player=me.id, tags=tags)
    used: set[tuple[str, str, str]] = set()
    for _ in range(4):
        if sim.over or not act(sim, me, used):
            break


def _usable(
    sim: Sim,
    me: Agent,
    trigger: str,
    effect: str,
    used: set[tuple[str, str, str]],
    timing: str,
    against: str | None = None,
) -> bool:
    eff = sim.cat.effect(trigger, effect)
    if eff is None or eff.timing != timing or (me.id, trigger, effect) in used:
        return False
    if eff.requires is not None and eff.requires not in BUILDS[me.id]["main"] + BUILDS[me.id]["sub"]:
        return False
    if eff.distance is not None and not eff.distance[0] <= sim.distance <= eff.distance[1]:
        return False
    if against is not None and against not in eff.against:
        return False
    reveal = 0 if trigger in me.up else sim.cat.triggers[trigger].reveal
    hand = list(me.tags)
    for t in eff.tags:
        if t not in hand:
            return False
        hand.remove(t)
    return me.trion > eff.trion + reveal  # never pay down to 0: that would lose on the spot


def _options(sim: Sim, me: Agent, used: set[tuple[str, str, str]], timing: str, against: str | None = None):
    for trigger in (me.main, me.sub):
        if trigger is None:
            continue
        for effect in sim.cat.triggers[trigger].effects:
            if _usable(sim, me, trigger, effect, used, timing, against):
                yield trigger, effect


def act(sim: Sim, me: Agent, used: set[tuple[str, str, str]]) -> bool:
    """One use or move of the turn player; False when nothing more is done."""
    again = [
        (t, e)
        for t, e in _options(sim, me, used - {(me.id, t, e) for _, t, e in used}, "tactics")
        if (me.id, t, e) in used
    ]
    if again and now(sim.mistake, "use-twice"):
        trigger, effect = sim.rng.choice(again)
        use(sim, me, trigger, effect, used, None, mistake="use-twice")
        return True
    choices: list[Any] = list(_options(sim, me, used, "tactics"))
    if "move" in me.tags:
        choices += [("move", to) for to in (sim.distance - 1, sim.distance + 1) if 1 <= to <= 6]
    if not choices:
        return False
    pick = sim.rng.choice(choices)
    if pick[0] == "move":
        me.tags.remove("move")
        decl = sim.emit("wt.move", by=me.id, player=me.id, to=pick[1])
        chain(sim, me, decl, "move", None, used, pick[1])
    else:
        use(sim, me, pick[0], pick[1], used, None)
    return True


def reveal(sim: Sim, me: Agent, trigger: str) -> None:
    if trigger not in me.up:
        cost = sim.cat.triggers[trigger].reveal
        me.trion -= cost
        me.up.add(trigger)
        sim.emit("wt.reveal", by=me.id, player=me.id, trigger=trigger, trion=cost)


def use(
    sim: Sim,
    me: Agent,
    trigger: str,
    effect: str,
    used: set[tuple[str, str, str]],
    counter: int | None,
    mistake: str | None = None,
) -> int:
    """Reveal (if face down), pay and declare one effect; ``mistake`` names a mistake this use makes."""
    reveal(sim, me, trigger)
    eff = sim.cat.effect(trigger, effect)
    assert eff is not None
    unpaid = eff.trion > 0 and mistake is None and counter is None and now(sim.mistake, "use-underpaid")
    me.trion -= 0 if unpaid else eff.trion
    for t in eff.tags:
        me.tags.remove(t)
    used.add((me.id, trigger, effect))
    fields: dict[str, Any] = {"player": me.id, "trigger": trigger, "effect": effect}
    if eff.trion and not unpaid:
        fields["trion"] = eff.trion
    if eff.tags:
        fields["tags"] = list(eff.tags)
    if counter is not None:
        fields["counter"] = counter
        return sim.emit("wt.use", by=me.id, **fields)
    to = None
    if eff.moves:
        to = next(d for d in (sim.distance - 1, sim.distance + 1) if 1 <= d <= 6)
        fields["to"] = to
    decl = sim.emit("wt.use", by=me.id, **fields)
    if unpaid or mistake:
        sim.mistook("use-underpaid" if unpaid else mistake)  # type: ignore[arg-type]  # a mistake is a kind named in MISTAKES when set
    chain(sim, me, decl, eff.kind, eff.damage, used, to)
    return decl


def chain(
    sim: Sim, me: Agent, decl: int, kind: str, damage: int | None, used: set[tuple[str, str, str]], to: int | None
) -> None:
    """■5 step 3: ask the declarer, then the opponent; resolve last declared first."""
    foe = sim.foe(me.id)
    sim.emit("wt.pass", by=me.id, player=me.id)
    counters = list(_options(sim, foe, used, "counter", kind))
    if counters and sim.rng.random() < 0.6:
        trigger, effect = sim.rng.choice(counters)
        ctr = use(sim, foe, trigger, effect, used, decl)
        sim.emit("wt.pass", by=foe.id, player=foe.id)
        sim.emit("wt.pass", by=me.id, player=me.id)
        sim.emit("wt.resolve", by="judge", of=ctr)
        sim.emit("wt.resolve", by="judge", of=decl, cancelled=True)
        return
    sim.emit("wt.pass", by=foe.id, player=foe.id)
    sim.emit("wt.resolve", by="judge", of=decl)
    if to is not None:
        sim.distance = to
    if damage:
        hurt(sim, foe, damage, decl)


def hurt(sim: Sim, foe: Agent, damage: int, source: int) -> None:
    delta = -min(damage, foe.trion)
    foe.trion += delta
    sim.emit("wt.trion", by="judge", player=foe.id, delta=delta, source=source)
    if foe.trion <= 0 and sim.lost is None:
        if now(sim.mistake, "play-after-defeat"):
            sim.lost = foe.id  # the table does not notice: the next event written is the mistake
            sim.mistook("play-after-defeat", sim.seq + 1)
            return
        sim.over = True
        sim.emit("match.end", by="judge", winner=sim.foe(foe.id).id, reason="trion")
