"""Projection of the World Trigger 1v1 dice game (ボーダー隊員ソロランク戦ゲーム（仮）): trion, distance, sets, tags, chains.

Total: every well-formed event changes the state as recorded, legal or not;
the auditor (``kifu/games/worldtrigger/rules/``) judges. Payments written in an
event (reveal trion, effect trion and tags, the move tag) are taken here; a
tag that is not in hand is simply not removed.

A declaration (``wt.use`` without ``counter``, or ``wt.move``) opens a chain;
counter-uses join it; ``wt.resolve`` applies its members. Any other game event
closes the chain and applies what is still unresolved, last declared first,
so a log that does not record resolutions still tracks the distance.
Passes since the latest declaration are kept for the counter-order rules.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping

import msgspec
from msgspec.structs import replace

from kifu.events.base import Event, MatchEnded, MatchStarted
from kifu.projector.base import Dispatch

from .events import (
    BailedOut,
    BuildChosen,
    CounterPassed,
    DistanceFixed,
    DistanceRolled,
    EffectResolved,
    EffectUsed,
    InitialTriggerUsed,
    Moved,
    OrderDecided,
    Plotted,
    SheetMade,
    TagsGained,
    TriggerRevealed,
    TriggersSet,
    TrionChanged,
    TrionDealt,
)


class Agent(msgspec.Struct, frozen=True, kw_only=True):
    """One player's border agent."""

    trion: int = 0
    """Trion chips left."""
    dealt_seq: int | None = None
    """Seq of the player's wt.deal; None before trion was dealt (then trion checks cannot decide)."""
    build_main: tuple[str, ...] = ()
    """The four main-side triggers of the build (■1), dedicated options included."""
    build_sub: tuple[str, ...] = ()
    """The four sub-side triggers of the build (■1)."""
    sheet: tuple[str, ...] = ()
    """Tag of each plot face, face 1 first."""
    set_main: str | None = None
    """The main-side trigger set on the table (■4)."""
    set_sub: str | None = None
    """The sub-side trigger set on the table (■4)."""
    main_face_up: bool = False
    """True when the main-side trigger on the table is face up (revealed, or kept face up)."""
    sub_face_up: bool = False
    """True when the sub-side trigger on the table is face up (revealed, or kept face up)."""
    set_turn: int = 0
    """Turn of the latest wt.set."""
    sets_this_turn: int = 0
    """How many wt.set this player recorded this turn."""
    tags: tuple[str, ...] = ()
    """Action tags in hand, not yet paid."""


class Decl(msgspec.Struct, frozen=True, kw_only=True):
    """A declaration in the current chain."""

    seq: int
    """Seq of its ``wt.use`` or ``wt.move``."""
    player: str
    """Who declared it."""
    trigger: str | None
    """The trigger used; None for a move."""
    effect: str | None
    """The effect used; None for a move."""
    counter: int | None
    """Seq of the declaration it answers; None for the chain's opener."""
    to: int | None
    """The distance after it, when it moves; None when it does not move (or has no effect)."""
    resolved: bool = False
    """True once its ``wt.resolve`` is recorded."""


class PhaseUse(msgspec.Struct, frozen=True, kw_only=True):
    """An effect used in the current tactics phase (ボーダー隊員ソロランク戦ゲーム（仮） ■5: once per set card)."""

    player: str
    trigger: str
    effect: str
    seq: int
    """Seq of its ``wt.use``."""


class UseRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A ``wt.use`` of this turn as it was paid, to judge what it may cause later."""

    player: str
    trigger: str
    effect: str
    trion: int
    """Trion paid."""
    tags: tuple[str, ...]
    """Tags paid."""
    void: str | None = None
    """Why it has no effect by the seed: ``face-down`` (its reveal could not be paid), ``trion``, ``tags``
    (its cost could not be paid), ``cancelled``; None otherwise. A use of a trigger that is not set, or
    face down with no reveal recorded, is a recording the rules report (WT-USE-002, WT-USE-001): it
    happens as recorded, so one slip gives one finding instead of a cascade."""


class InitUse(msgspec.Struct, frozen=True, kw_only=True):
    """A ``wt.init.use`` as recorded and paid (ボーダー隊員ソロランク戦ゲーム（仮） ■2), for the initial-distance rules."""

    player: str
    trigger: str
    effect: str
    delta: int
    """The shift as recorded."""
    trion: int
    """Trion paid."""
    seq: int
    in_build: bool
    """True when the trigger is one of the player's eight."""
    short: bool
    """True when the player had less trion than was paid: it could not be paid (■2, ■5 手順2)."""


class State(msgspec.Struct, frozen=True, kw_only=True):
    """The match after an event."""

    agents: dict[str, Agent] = {}
    """Each player's agent, by id."""
    initial_roll: int | None = None
    """The initial-distance die (■2), before shifts and clamping."""
    init_uses: tuple[InitUse, ...] = ()
    """Initial-distance uses in the order recorded."""
    distance: int | None = None
    """Current distance (after wt.init.set)."""
    turn: int = 0
    """Current turn number (0 before the first wt.order)."""
    first: str | None = None
    """First player this turn."""
    second: str | None = None
    """Second player this turn."""
    turn1_first: str | None = None
    """First player of turn 1 (the initial-distance order uses it)."""
    plots: tuple[str, ...] = ()
    """Attackers who plotted this turn, in order."""
    active: str | None = None
    """Attacker of the latest plot: whose tactics phase it is."""
    in_tactics_phase: bool = False
    """True once the active player has plotted: ボーダー隊員ソロランク戦ゲーム（仮） ■5 プロットが終わると…戦術フェイズ. The phase does
    not wait for the ``wt.tags`` line, which only records what the plot gave."""
    expected_tags: tuple[str, ...] | None = None
    """Tags the latest plot should give, until its wt.tags is recorded."""
    attack: tuple[int, ...] = ()
    """The latest plot's attacker dice."""
    defence: tuple[int, ...] = ()
    """The latest plot's defender dice."""
    used_this_phase: tuple[PhaseUse, ...] = ()
    """Every effect used in the current tactics phase, counters included (the once-per-phase limit)."""
    chain: tuple[Decl, ...] = ()
    """The open counter-use chain."""
    uses_this_turn: dict[int, UseRecord] = {}
    """Every wt.use of this turn, by its seq, as paid and whether it had an effect."""
    passes: tuple[str, ...] = ()
    """Players who passed since the latest declaration."""
    unpaid_reveals: tuple[tuple[str, str], ...] = ()
    """(player, trigger) of this turn's reveals that could not be paid: that trigger stayed face down
    (ボーダー隊員ソロランク戦ゲーム（仮） ■5 手順1) and its effect does not happen."""
    defeated: str | None = None
    """The player who reached 0 trion or bailed out first."""
    defeated_seq: int | None = None
    """When."""
    defeat_reason: str | None = None
    """How the defeated player lost: ``trion`` (reached 0) or ``bailout``."""
    winner: str | None = None
    """The defeated player's opponent (ボーダー隊員ソロランク戦ゲーム（仮） ■7), once someone is defeated."""
    played_on_seq: int | None = None
    """Seq of the first game event recorded after the defeat: play that should not have happened."""
    tags_expire: str = "turn"
    """Option: tags last for the ``turn`` or the owner's tactics ``phase``."""


def initial(start: MatchStarted, options: Mapping[str, Any]) -> State:
    return State(agents={p.id: Agent() for p in start.players}, tags_expire=options.get("tags_expire", "turn"))


def gained(sheet: tuple[str, ...] | list[str], attack: list[int], defence: list[int]) -> list[str]:
    """Tags from a plot: each attacker die whose face no defender die shows (ボーダー隊員ソロランク戦ゲーム（仮） ■5).

    Blocking is by face value: one defender 5 blocks both attacker 5s (the seed's
    5,5 vs 5,6 example gives nothing). A face the sheet does not assign gives no tag.
    """
    blocked = set(defence)
    return [sheet[d - 1] for d in attack if d not in blocked and d - 1 < len(sheet)]


def other(state: State, player: str) -> str | None:
    """The opponent of ``player``."""
    for p in state.agents:
        if p != player:
            return p
    return None


_NOBODY = Agent()
"""The agent of a player the log never dealt in (one shared value: states are frozen)."""


def agent(state: State, player: str) -> Agent:
    return state.agents.get(player, _NOBODY)


def _put(state: State, player: str, **changes: Any) -> State:
    return replace(state, agents={**state.agents, player: replace(agent(state, player), **changes)})


def _pay(state: State, player: str, trion: int, seq: int, tags: list[str] = ()) -> State:  # type: ignore[assignment]  # an empty tuple as the read-only default; the list is only read
    a = agent(state, player)
    hand = list(a.tags)
    for t in tags:
        if t in hand:
            hand.remove(t)
    return _defeat_check(_put(state, player, trion=a.trion - trion, tags=tuple(hand)), player, seq)


def _defeat_check(state: State, player: str, seq: int) -> State:
    a = agent(state, player)
    if state.defeated is None and a.dealt_seq is not None and a.trion <= 0:
        return replace(state, defeated=player, defeated_seq=seq, defeat_reason="trion", winner=other(state, player))
    return state


def on_scale(distance: int) -> int:
    """A recorded distance kept on the game's 1–6 scale (the rules report the recording)."""
    return max(1, min(6, distance))


def _apply_decl(state: State, d: Decl, cancelled: bool = False) -> State:
    if d.to is not None and not cancelled:
        return replace(state, distance=on_scale(d.to))
    return state


def close_chain(state: State) -> State:
    """Apply unresolved declarations, last declared first, and clear the chain."""
    for d in reversed(state.chain):
        if not d.resolved:
            state = _apply_decl(state, d)
    return replace(state, chain=(), passes=())


def _played_on(before: State, after: State, event: Event) -> State:
    """After every handler: note the first game event played once the match was decided (■7)."""
    if before.defeated is not None and before.played_on_seq is None and type(event).__module__ == GAME_EVENTS:
        return replace(after, played_on_seq=event.seq)
    return after


GAME_EVENTS = BailedOut.__module__
apply: Dispatch[State] = Dispatch(after=_played_on)


@apply.on(BuildChosen)
def _build(state: State, e: BuildChosen) -> State:
    return _put(state, e.player, build_main=tuple(e.main), build_sub=tuple(e.sub))


@apply.on(SheetMade)
def _sheet(state: State, e: SheetMade) -> State:
    return _put(state, e.player, sheet=tuple(e.faces))


@apply.on(TrionDealt)
def _deal(state: State, e: TrionDealt) -> State:
    return _defeat_check(_put(state, e.player, trion=e.trion, dealt_seq=e.seq), e.player, e.seq)


@apply.on(DistanceRolled)
def _roll(state: State, e: DistanceRolled) -> State:
    return replace(state, initial_roll=e.value)


@apply.on(InitialTriggerUsed)
def _init_use(state: State, e: InitialTriggerUsed) -> State:
    a = agent(state, e.player)
    use = InitUse(
        player=e.player,
        trigger=e.trigger,
        effect=e.effect,
        delta=e.delta,
        trion=e.trion,
        seq=e.seq,
        in_build=e.trigger in a.build_main + a.build_sub,
        short=a.dealt_seq is not None and a.trion < e.trion,
    )
    state = replace(state, init_uses=state.init_uses + (use,))
    return _pay(state, e.player, 0 if use.short else e.trion, e.seq)


@apply.on(DistanceFixed)
def _fixed(state: State, e: DistanceFixed) -> State:
    return replace(state, distance=on_scale(e.distance))


@apply.on(OrderDecided)
def _order(state: State, e: OrderDecided) -> State:
    state = close_chain(state)
    agents = {p: replace(a, sets_this_turn=0, tags=()) for p, a in state.agents.items()}
    return replace(
        state,
        agents=agents,
        turn=e.turn,
        first=e.first,
        second=other(state, e.first),
        plots=(),
        active=None,
        in_tactics_phase=False,
        uses_this_turn={},
        unpaid_reveals=(),
        used_this_phase=(),
        turn1_first=state.turn1_first if state.turn1_first is not None else e.first,
    )


@apply.on(TriggersSet)
def _set(state: State, e: TriggersSet) -> State:
    a = agent(state, e.player)
    up_main = "main" in e.kept and a.main_face_up and a.set_main == e.main
    up_sub = "sub" in e.kept and a.sub_face_up and a.set_sub == e.sub
    return _put(
        state,
        e.player,
        set_main=e.main,
        set_sub=e.sub,
        main_face_up=up_main,
        sub_face_up=up_sub,
        set_turn=state.turn,
        sets_this_turn=a.sets_this_turn + 1,
    )


@apply.on(Plotted)
def _plot(state: State, e: Plotted) -> State:
    state = close_chain(state)
    expected = tuple(gained(agent(state, e.attacker).sheet, e.attack, e.defence))
    if state.tags_expire == "phase":
        state = replace(state, agents={p: replace(a, tags=()) for p, a in state.agents.items()})
    return replace(
        state,
        plots=state.plots + (e.attacker,),
        active=e.attacker,
        in_tactics_phase=True,
        expected_tags=expected,
        attack=tuple(e.attack),
        defence=tuple(e.defence),
        used_this_phase=(),
    )


@apply.on(TagsGained)
def _tags(state: State, e: TagsGained) -> State:
    state = close_chain(state)
    state = _put(state, e.player, tags=agent(state, e.player).tags + tuple(e.tags))
    return replace(state, in_tactics_phase=state.in_tactics_phase or e.player == state.active, expected_tags=None)


@apply.on(TriggerRevealed)
def _reveal(state: State, e: TriggerRevealed) -> State:
    a = agent(state, e.player)
    if a.trion < e.trion:  # ボーダー隊員ソロランク戦ゲーム（仮） ■5 手順1: cannot pay, so it stays face down
        return replace(state, unpaid_reveals=state.unpaid_reveals + ((e.player, e.trigger),))
    state = _pay(state, e.player, e.trion, e.seq)
    if e.trigger == a.set_main and not a.main_face_up:
        return _put(state, e.player, main_face_up=True)
    if e.trigger == a.set_sub and not a.sub_face_up:
        return _put(state, e.player, sub_face_up=True)
    return state


def _declare(state: State, d: Decl) -> State:
    if d.counter is None:
        state = close_chain(state)
    return replace(state, chain=state.chain + (d,), passes=())


def void_reason(state: State, a: Agent, e: EffectUsed) -> str | None:
    """Why a use has no effect by the seed (■5 手順1–2), from what the log shows; catalogue costs aside."""
    held = [up for t, up in ((a.set_main, a.main_face_up), (a.set_sub, a.sub_face_up)) if t == e.trigger]
    if held and not any(held) and (e.player, e.trigger) in state.unpaid_reveals:
        return "face-down"
    hand = list(a.tags)
    short_tags = False
    for t in e.tags:
        short_tags = short_tags or t not in hand
        if t in hand:
            hand.remove(t)
    if a.dealt_seq is not None and a.trion < e.trion:
        return "trion"
    return "tags" if short_tags else None


@apply.on(EffectUsed)
def _use(state: State, e: EffectUsed) -> State:
    void = void_reason(state, agent(state, e.player), e)
    state = _declare(
        state,
        Decl(
            seq=e.seq,
            player=e.player,
            trigger=e.trigger,
            effect=e.effect,
            counter=e.counter,
            to=e.to if void is None else None,
        ),
    )
    record = UseRecord(
        player=e.player, trigger=e.trigger, effect=e.effect, trion=e.trion, tags=tuple(e.tags), void=void
    )
    done = PhaseUse(player=e.player, trigger=e.trigger, effect=e.effect, seq=e.seq)
    state = replace(
        state, used_this_phase=state.used_this_phase + (done,), uses_this_turn={**state.uses_this_turn, e.seq: record}
    )
    return _pay(state, e.player, 0 if void == "trion" else e.trion, e.seq, e.tags)


@apply.on(Moved)
def _move(state: State, e: Moved) -> State:
    state = _declare(state, Decl(seq=e.seq, player=e.player, trigger=None, effect=None, counter=None, to=e.to))
    return _pay(state, e.player, 0, e.seq, e.tags)


@apply.on(CounterPassed)
def _pass(state: State, e: CounterPassed) -> State:
    return replace(state, passes=state.passes + (e.player,))


@apply.on(EffectResolved)
def _resolve(state: State, e: EffectResolved) -> State:
    chain = tuple(replace(d, resolved=True) if d.seq == e.of else d for d in state.chain)
    target = next((d for d in state.chain if d.seq == e.of and not d.resolved), None)
    if target is not None:
        state = _apply_decl(state, target, e.cancelled)
    rec = state.uses_this_turn.get(e.of)
    if e.cancelled and rec is not None and rec.void is None:
        state = replace(state, uses_this_turn={**state.uses_this_turn, e.of: replace(rec, void="cancelled")})
    if all(d.resolved for d in chain):
        return replace(state, chain=(), passes=())
    return replace(state, chain=chain)


@apply.on(TrionChanged)
def _trion(state: State, e: TrionChanged) -> State:
    a = agent(state, e.player)
    return _defeat_check(_put(state, e.player, trion=a.trion + e.delta), e.player, e.seq)


@apply.on(BailedOut)
def _bailout(state: State, e: BailedOut) -> State:
    if state.defeated is not None:
        return state
    return replace(state, defeated=e.player, defeated_seq=e.seq, defeat_reason="bailout", winner=other(state, e.player))


@apply.on(MatchEnded)
def _end(state: State, e: MatchEnded) -> State:
    return close_chain(state)
