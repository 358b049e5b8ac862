"""Weiss Schwarz projection: each player's zones, the turn, phase, step and attack in progress.

Source: WSターンの流れ and reference Part B. The fold is total: an event
that breaks a rule still moves the cards it says it moved (counts never go below 0),
so the auditor can compare what happened with what the seed requires.
"""

from __future__ import annotations

from typing import Any, Literal
from collections.abc import Mapping

import msgspec
from msgspec.structs import replace

from kifu.events.base import Event, MatchStarted
from kifu.projector.base import Dispatch

from . import events as ev

COUNTED = ("deck", "hand", "stock", "waiting", "memory")
"""Zones kept as counts (their cards are hidden or not named by a log)."""
LISTED = ("clock", "level", "resolution")
"""Zones kept as card lists (``?`` for a card the log did not name)."""
UNKNOWN = "?"


class Slot(msgspec.Struct, frozen=True, kw_only=True):
    """A character on a stage slot."""

    card: str = UNKNOWN
    """Card name or id."""
    level: int = 0
    """Printed level."""
    power: int = 0
    """Printed power."""
    soul: int = 1
    """Printed soul."""
    state: Literal["stand", "rest", "reverse"] = "stand"
    """スタンド, レスト or リバース."""
    power_mod: int = 0
    """Power change until end of turn (effects, counters)."""
    soul_mod: int = 0
    """Soul change until end of turn."""
    level_mod: int = 0
    """Level change until end of turn."""

    @property
    def soul_now(self) -> int:
        return self.soul + self.soul_mod

    @property
    def level_now(self) -> int:
        return self.level + self.level_mod

    @property
    def power_now(self) -> int:
        return self.power + self.power_mod


class Side(msgspec.Struct, frozen=True, kw_only=True):
    """One player's zones."""

    deck: int = 50
    """Cards in the deck."""
    hand: int = 0
    """Cards in hand."""
    stock: int = 0
    """Cards in stock."""
    waiting: int = 0
    """Cards in the waiting room (控室)."""
    memory: int = 0
    """Cards in memory."""
    clock: tuple[str, ...] = ()
    """Clock, oldest first."""
    level: tuple[str, ...] = ()
    """Level zone."""
    resolution: tuple[str, ...] = ()
    """Resolution zone (解決領域)."""
    climax: str | None = None
    """The card in the climax zone."""
    stage: dict[str, Slot] = {}
    """Occupied stage slots (C1–C3 center, B1–B2 back)."""
    retired: dict[str, Slot] = {}
    """The character that last went from each slot to the waiting room (what an encore brings back)."""
    deck_short: int = 0
    """Cards a draw, reveal or damage took after the deck ran out: the refresh interrupted it (CR 9.2 per
    reference B2), so the next ``ws.refresh`` takes them from the new deck."""
    hand_known: bool = False
    """The opening hand (``ws.draw reason=setup``) or a ``ws.board`` was recorded, so hand and deck are exact."""


class Attack(msgspec.Struct, frozen=True, kw_only=True):
    """The attack in progress."""

    seq: int
    """Seq of its declaration."""
    player: str
    """Attacking player."""
    defender: str
    """Defending player."""
    slot: str
    """Attacker's center slot; the defender stands in the same column."""
    kind: str
    """direct, front or side."""
    defender_present: bool
    """An opposing character stood in the column at declaration."""
    defender_level: int = 0
    """The opposing character's level at declaration (a side attack subtracts it)."""
    trigger_soul: int = 0
    """Soul icons revealed in this attack's trigger step."""
    shots: int = 0
    """Shot icons revealed in this attack's trigger step."""
    cancelled: bool = False
    """The attack's damage was cancelled by a climax."""
    reveals: int = 0
    """Trigger cards revealed."""
    counters: int = 0
    """Counters played against it."""
    damage_seq: int | None = None
    """Seq of its attack damage."""
    battle_seq: int | None = None
    """Seq of its battle comparison."""


class Damage(msgspec.Struct, frozen=True, kw_only=True):
    """A damage and the cards its reveal showed (ダメージステップ 3), kept until the next step, phase or turn."""

    seq: int
    """Seq of its ``ws.damage``."""
    player: str
    """The damaged player."""
    amount: int
    """Damage dealt."""
    cards: tuple[str, ...] = ()
    """The cards revealed, in order (``?`` for a card the log did not name)."""
    climaxes: tuple[int, ...] = ()
    """Positions (0-based) in ``cards`` of the climaxes revealed."""
    cancelled: bool = False
    """A climax cancelled it: the revealed cards went to the waiting room, not the clock."""
    source: str = "attack"
    """What dealt it: ``attack``, ``effect`` or ``shot``."""


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """An automatic ability waiting to be played (処理待機)."""

    ability: str
    """Id from its ``ws.auto``."""
    player: str
    """Controller."""
    seq: int
    """Seq at which it triggered."""
    card: str | None = None
    """The card the ability is on, where its ``ws.auto`` names it (a finding names it)."""


class State(msgspec.Struct, frozen=True, kw_only=True):
    """The Weiss Schwarz part of the state after an event."""

    players: tuple[str, ...] = ()
    """Player ids in seat order."""
    sides: dict[str, Side] = {}
    """Each player's zones."""
    turn: int = 0
    """Turn number (0 before the first turn)."""
    turn_player: str | None = None
    """甲: whose turn it is."""
    first_player: str | None = None
    """Who took turn 1."""
    phase: str | None = None
    """The current (or last) phase of the turn."""
    phase_open: bool = False
    """True between a phase's start and its end."""
    phases_done: tuple[str, ...] = ()
    """Phases started this turn, in order (the end phase once per pass)."""
    step: str | None = None
    """Current attack-phase step."""
    attack: Attack | None = None
    """The attack in progress."""
    attacks: int = 0
    """Attacks declared this turn."""
    attackers: tuple[str, ...] = ()
    """Slots that attacked this turn."""
    climaxes: int = 0
    """Climaxes played this turn."""
    stand_held: tuple[str, ...] = ()
    """Slots this turn's ``ws.stand`` says an effect kept rested (its ``held``)."""
    clocked: int = 0
    """Cards clocked in this clock phase."""
    clock_draws: int = 0
    """Cards drawn for the clock in this clock phase."""
    phase_draws: int = 0
    """Cards drawn in this draw phase."""
    check: int | None = None
    """Seq of the open check timing, if any."""
    pending: tuple[Pending, ...] = ()
    """Pending automatic abilities, oldest first."""
    climax_left: bool = False
    """The climax left in this end-phase pass."""
    end_closed_seq: int | None = None
    """Seq of the ``ws.phase.end end`` that closed the latest end-phase pass (None while a pass is open)."""
    lost: tuple[str, ...] = ()
    """Players recorded as having lost."""
    refresh_owed: dict[str, int] = {}
    """Players who refreshed and have not yet put the refresh point into the clock -> seq of the refresh."""
    partial_turn: bool = False
    """The log starts inside this turn (a later ``ws.turn`` with no board): its first phase may be any."""
    known: bool = True
    """The log follows the match from its start (or from a ``ws.board``), so clock, level, stock, waiting
    room and stage are fully known; False when it starts at a later ``ws.turn`` with no board."""
    last_game_seq: int = 0
    """Seq of the latest ``ws.*`` event."""
    last_action_seq: int = 0
    """Seq of the latest ``ws.*`` event that is not itself a rule action (level-up, refresh, loss)."""
    due: dict[str, int] = {}
    """Rule actions now due, ``<kind>:<player>`` -> seq that made them due (level-up, refresh, loss)."""
    damage: Damage | None = None
    """The latest damage and its reveal, until the next step, phase or turn starts (what a judge looks at)."""

    def opponent(self, player: str | None) -> str | None:
        others = [p for p in self.players if p != player]
        return others[0] if others else None

    def side(self, player: str | None) -> Side:
        return self.sides.get(player or "", Side())


def initial(start: MatchStarted, options: Mapping[str, Any]) -> State:
    deck = int(options.get("deck_size", 50))
    players = tuple(p.id for p in start.players)
    return State(players=players, sides={p: Side(deck=deck) for p in players})


RULE_ACTIONS = (ev.LeveledUp, ev.Refreshed, ev.RefreshPointPaid, ev.GameLost)
"""Events that are rule actions: several may follow the event that made them due."""
NEUTRAL = RULE_ACTIONS + (ev.CheckTimingStarted, ev.AbilityTriggered)
"""Events that do not move the game on past a due rule action: a check timing opens to do them, and an
ability that triggered together with the rule action is only written down (it resolves later)."""


def _rule_actions_due(state: State, after: State, event: Event) -> State:
    """After every handler of a ``ws.`` event: the rule actions the event made due."""
    if type(event) not in _GAME_EVENTS:
        return after
    acted = state.last_action_seq if isinstance(event, NEUTRAL) else event.seq
    actions = _actions_of(after)
    due = {k: state.due.get(k, event.seq) for k in actions} if actions else _NOTHING_DUE
    return replace(after, last_game_seq=event.seq, last_action_seq=acted, due=due)


_GAME_EVENTS = frozenset(ev.EVENTS)
_NOTHING_DUE: dict[str, int] = {}
"""Shared by every state with no rule action due (states are frozen: nobody changes it)."""


apply: Dispatch[State] = Dispatch(after=_rule_actions_due)
"""The state after an event: its handler, then the rule actions it made due."""


def rule_actions(state: State) -> dict[str, str]:
    """Rule actions the state calls for, ``<kind>:<player>`` -> player (CR 9 per reference B2)."""
    out: dict[str, str] = {}
    for p, side in state.sides.items():
        if p in state.lost:
            continue
        if len(side.clock) >= 7:
            out[f"level-up:{p}"] = p
        if side.deck == 0 and side.waiting > 0:
            out[f"refresh:{p}"] = p
        if len(side.level) >= 4:
            out[f"lose-level:{p}"] = p
        if side.deck == 0 and side.waiting == 0:
            out[f"lose-deck:{p}"] = p
    return out


class _LastActions:
    """``rule_actions`` of the last zones seen: most events leave every zone as it was (a phase, a step, a
    check timing), so the fold asks again only when the ``sides`` or ``lost`` it is given are new objects."""

    sides: Any = None
    lost: Any = None
    actions: dict[str, str] = {}


def _actions_of(state: State) -> dict[str, str]:
    last = _LastActions
    if state.sides is not last.sides or state.lost is not last.lost:
        last.sides, last.lost, last.actions = state.sides, state.lost, rule_actions(state)
    return last.actions


# --- zone helpers ------------------------------------------------------------


def _add(side: Side, zone: str, n: int = 1, card: str | None = None) -> Side:
    if zone in COUNTED:
        return replace(side, **{zone: getattr(side, zone) + n})
    if zone in LISTED:
        return replace(side, **{zone: getattr(side, zone) + (card or UNKNOWN,) * n})
    if zone == "climax":
        return replace(side, climax=card or UNKNOWN)
    return side


def _remove(side: Side, zone: str, n: int = 1, card: str | None = None) -> Side:
    if zone == "deck" and n > side.deck:
        # one event may record a whole draw or damage that a refresh interrupted; the rest comes after it
        return replace(side, deck=0, deck_short=side.deck_short + n - side.deck)
    if zone in COUNTED:
        return replace(side, **{zone: max(0, getattr(side, zone) - n)})
    if zone in LISTED:
        cards = list(getattr(side, zone))
        for _ in range(n):
            if card in cards:
                cards.remove(card)
            elif cards:
                cards.pop()
        return replace(side, **{zone: tuple(cards)})
    if zone == "climax":
        return replace(side, climax=None)
    return side


def _move(side: Side, src: str, dst: str, n: int = 1, card: str | None = None) -> Side:
    return _add(_remove(side, src, n, card), dst, n, card)


def _pay(side: Side, cost: int) -> Side:
    return _add(_remove(side, "stock", cost), "waiting", min(cost, side.stock))


def _set_slot(side: Side, slot: str, value: Slot | None) -> Side:
    stage = {k: v for k, v in side.stage.items() if k != slot}
    if value is not None:
        stage[slot] = value
    # table order (C1 C2 C3 B1 B2), so `kifu state` lists a stage the way it lies on the table
    order = {name: i for i, name in enumerate(ev.SLOTS)}
    return replace(side, stage=dict(sorted(stage.items(), key=lambda kv: order.get(kv[0], len(order)))))


def _retire(side: Side, slot: str) -> Side:
    old = side.stage.get(slot)
    if old is None:
        return side
    side = _set_slot(side, slot, None)
    return replace(_add(side, "waiting"), retired={**side.retired, slot: old})


def _with(state: State, player: str, side: Side) -> State:
    return replace(state, sides={**state.sides, player: side})


def _slot_update(st: State, player: str, slot: str, **changes: Any) -> State:
    side = st.side(player)
    cur = side.stage.get(slot)
    if cur is None:
        return st
    return _with(st, player, _set_slot(side, slot, replace(cur, **changes)))


# --- turn, phase, step, check timing ----------------------------------------


def _unmodified(side: Side) -> Side:
    stage = {k: replace(v, power_mod=0, soul_mod=0, level_mod=0) for k, v in side.stage.items()}
    return replace(side, stage=stage)


@apply.on(ev.TurnStarted)
def _turn(state: State, e: ev.TurnStarted) -> State:
    sides = {p: _unmodified(s) for p, s in state.sides.items()}
    return replace(
        state,
        sides=sides,
        turn=e.number,
        turn_player=e.player,
        first_player=state.first_player or e.player,
        phase=None,
        phase_open=False,
        phases_done=(),
        step=None,
        attack=None,
        attacks=0,
        attackers=(),
        climaxes=0,
        stand_held=(),
        damage=None,
        known=state.known and not (state.turn == 0 and e.number > 1),
        partial_turn=state.turn == 0 and e.number > 1,
    )


@apply.on(ev.PhaseStarted)
def _phase(state: State, e: ev.PhaseStarted) -> State:
    return replace(
        state,
        phase=e.phase,
        phase_open=True,
        phases_done=state.phases_done + (e.phase,),
        step=None,
        clocked=0,
        clock_draws=0,
        phase_draws=0,
        climax_left=False,
        end_closed_seq=None,
        damage=None,
    )


@apply.on(ev.PhaseEnded)
def _phase_end(state: State, e: ev.PhaseEnded) -> State:
    closed = e.seq if e.phase == "end" else state.end_closed_seq
    return replace(state, phase_open=False, step=None if e.phase == "attack" else state.step, end_closed_seq=closed)


@apply.on(ev.StepStarted)
def _step(state: State, e: ev.StepStarted) -> State:
    keep = state.attack if e.step not in ("declare", "encore") else None
    return replace(state, step=e.step, attack=keep, damage=None)


@apply.on(ev.CheckTimingStarted)
def _check(state: State, e: ev.CheckTimingStarted) -> State:
    return replace(state, check=e.seq)


@apply.on(ev.CheckTimingEnded)
def _check_end(state: State, e: ev.CheckTimingEnded) -> State:
    return replace(state, check=None)


@apply.on(ev.AbilityTriggered)
def _auto(state: State, e: ev.AbilityTriggered) -> State:
    return replace(
        state, pending=state.pending + (Pending(ability=e.ability, player=e.player, seq=e.seq, card=e.card),)
    )


@apply.on(ev.AbilityResolved)
def _resolve(state: State, e: ev.AbilityResolved) -> State:
    return replace(state, pending=tuple(p for p in state.pending if p.ability != e.ability))


# --- stand, draw, clock, main, climax ----------------------------------------


@apply.on(ev.Stood)
def _stood(state: State, e: ev.Stood) -> State:
    side = state.side(e.player)
    chosen = set(e.slots or ev.SLOTS) - set(e.held)
    stage = {k: replace(v, state="stand") if k in chosen else v for k, v in side.stage.items()}
    return replace(_with(state, e.player, replace(side, stage=stage)), stand_held=tuple(e.held))


@apply.on(ev.Drew)
def _drew(state: State, e: ev.Drew) -> State:
    side = _move(state.side(e.player), "deck", "hand", e.count)
    if e.reason == "setup":
        side = replace(side, hand_known=True)
    state = _with(state, e.player, side)
    if e.reason == "clock":
        return replace(state, clock_draws=state.clock_draws + e.count)
    if e.reason == "draw-phase":
        return replace(state, phase_draws=state.phase_draws + e.count)
    return state


@apply.on(ev.Clocked)
def _clocked(state: State, e: ev.Clocked) -> State:
    state = _with(state, e.player, _move(state.side(e.player), "hand", "clock", 1, e.card))
    return replace(state, clocked=state.clocked + 1)


@apply.on(ev.CharacterPlayed)
def _chara(state: State, e: ev.CharacterPlayed) -> State:
    side = _retire(_pay(_remove(state.side(e.player), "hand"), e.cost), e.slot)
    new = Slot(card=e.card, level=e.level, power=e.power, soul=e.soul)
    return _with(state, e.player, _set_slot(side, e.slot, new))


@apply.on(ev.EventPlayed)
def _event(state: State, e: ev.EventPlayed) -> State:
    side = _add(_pay(_remove(state.side(e.player), "hand"), e.cost), "resolution", 1, e.card)
    return _with(state, e.player, side)


@apply.on(ev.ActPlayed)
def _act(state: State, e: ev.ActPlayed) -> State:
    state = _with(state, e.player, _pay(state.side(e.player), e.cost))
    return _slot_update(state, e.player, e.slot, state="rest") if e.rest else state


@apply.on(ev.SlotsSwapped)
def _swap(state: State, e: ev.SlotsSwapped) -> State:
    side = state.side(e.player)
    a, b = side.stage.get(e.a), side.stage.get(e.b)
    return _with(state, e.player, _set_slot(_set_slot(side, e.a, b), e.b, a))


@apply.on(ev.ClimaxPlayed)
def _climax(state: State, e: ev.ClimaxPlayed) -> State:
    side = _remove(state.side(e.player), "hand")
    if side.climax is not None:
        side = _add(side, "waiting")
    state = _with(state, e.player, replace(side, climax=e.card))
    return replace(state, climaxes=state.climaxes + 1)


@apply.on(ev.ClimaxLeft)
def _climax_left(state: State, e: ev.ClimaxLeft) -> State:
    side = state.side(e.player)
    if side.climax is not None:
        side = _move(side, "climax", "waiting")
    return replace(_with(state, e.player, side), climax_left=True)


# --- attack ------------------------------------------------------------------


@apply.on(ev.AttackDeclared)
def _attack(state: State, e: ev.AttackDeclared) -> State:
    defender = state.opponent(e.player) or e.player
    opposing = state.side(defender).stage.get(e.slot)
    attack = Attack(
        seq=e.seq,
        player=e.player,
        defender=defender,
        slot=e.slot,
        kind=e.kind,
        defender_present=opposing is not None,
        defender_level=opposing.level_now if opposing else 0,
    )
    state = _slot_update(state, e.player, e.slot, state="rest")
    return replace(state, attack=attack, attacks=state.attacks + 1, attackers=state.attackers + (e.slot,))


@apply.on(ev.TriggerRevealed)
def _reveal(state: State, e: ev.TriggerRevealed) -> State:
    state = _with(state, e.player, _move(state.side(e.player), "deck", e.to, 1, e.card))
    if state.attack is None:
        return state
    attack = replace(
        state.attack,
        trigger_soul=state.attack.trigger_soul + e.icons.count("soul"),
        shots=state.attack.shots + e.icons.count("shot"),
        reveals=state.attack.reveals + 1,
    )
    return replace(state, attack=attack)


@apply.on(ev.Countered)
def _counter(state: State, e: ev.Countered) -> State:
    side = _add(_pay(_remove(state.side(e.player), "hand"), e.cost), "waiting")
    state = _with(state, e.player, side)
    if state.attack is None:
        return state
    slot = state.side(e.player).stage.get(state.attack.slot)
    if slot is not None:
        state = _slot_update(state, e.player, state.attack.slot, power_mod=slot.power_mod + e.power)
    return replace(state, attack=replace(state.attack, counters=state.attack.counters + 1))


@apply.on(ev.DamageDealt)
def _damage(state: State, e: ev.DamageDealt) -> State:
    cards = e.cards or [ev.DamageCard() for _ in range(e.amount)]  # reveal not recorded: amount cards
    side = _remove(state.side(e.player), "deck", len(cards))
    for c in cards:
        side = _add(side, "waiting") if e.cancelled else _add(side, "clock", 1, c.card)
    state = _with(state, e.player, side)
    shown = Damage(
        seq=e.seq,
        player=e.player,
        amount=e.amount,
        cards=tuple(c.card or UNKNOWN for c in cards),
        climaxes=tuple(i for i, c in enumerate(cards) if c.climax),
        cancelled=e.cancelled,
        source=e.source,
    )
    state = replace(state, damage=shown)
    if state.attack is not None and e.source == "attack":
        state = replace(state, attack=replace(state.attack, damage_seq=e.seq, cancelled=e.cancelled))
    return state


@apply.on(ev.BattleResolved)
def _battle(state: State, e: ev.BattleResolved) -> State:
    attack = state.attack
    if attack is None:
        return state
    owners = {"attacker": attack.player, "defender": attack.defender}
    for who in e.reversed:
        state = _slot_update(state, owners[who], attack.slot, state="reverse")
    return replace(state, attack=replace(attack, battle_seq=e.seq))


@apply.on(ev.Modified)
def _modified(state: State, e: ev.Modified) -> State:
    cur = state.side(e.player).stage.get(e.slot)
    if cur is None:
        return state
    return _slot_update(
        state,
        e.player,
        e.slot,
        power_mod=cur.power_mod + e.power,
        soul_mod=cur.soul_mod + e.soul,
        level_mod=cur.level_mod + e.level,
    )


@apply.on(ev.CharacterReversed)
def _reversed(state: State, e: ev.CharacterReversed) -> State:
    return _slot_update(state, e.player, e.slot, state="reverse")


@apply.on(ev.CharacterRetired)
def _retired(state: State, e: ev.CharacterRetired) -> State:
    return _with(state, e.player, _retire(state.side(e.player), e.slot))


@apply.on(ev.Encored)
def _encored(state: State, e: ev.Encored) -> State:
    side = _pay(_remove(state.side(e.player), "waiting"), e.stock)
    old = side.retired.get(e.slot, Slot(card=e.card or UNKNOWN))
    back = replace(old, state="rest" if e.rested else "stand", power_mod=0, soul_mod=0, level_mod=0)
    return _with(state, e.player, _set_slot(_retire(side, e.slot), e.slot, back))


# --- end phase, moves, rule actions --------------------------------------------


@apply.on(ev.Discarded)
def _discarded(state: State, e: ev.Discarded) -> State:
    return _with(state, e.player, _move(state.side(e.player), "hand", "waiting", e.count))


@apply.on(ev.Moved)
def _moved(state: State, e: ev.Moved) -> State:
    side = state.side(e.player)
    if e.from_ == "stage" and e.to == "waiting" and e.slot in side.stage:
        # stage to waiting room by any cause: the rule encore (reference B1 #7) may bring it back
        side = _retire(side, e.slot)
    elif e.from_ == "stage" and e.slot is not None:
        cur = side.stage.get(e.slot)
        side = _add(_set_slot(side, e.slot, None), e.to, 1, e.card or (cur.card if cur else None))
    elif e.to == "stage" and e.slot is not None:
        side = _set_slot(_retire(_remove(side, e.from_, 1, e.card), e.slot), e.slot, Slot(card=e.card or UNKNOWN))
    else:
        side = _move(side, e.from_, e.to, e.count, e.card)
    return _with(state, e.player, side)


@apply.on(ev.LeveledUp)
def _levelup(state: State, e: ev.LeveledUp) -> State:
    side = state.side(e.player)
    seven = side.clock[:7]
    chosen = e.card if e.card in seven else (seven[0] if seven else e.card or UNKNOWN)
    side = replace(
        side, clock=side.clock[7:], level=side.level + (chosen,), waiting=side.waiting + max(0, len(seven) - 1)
    )
    return _with(state, e.player, side)


@apply.on(ev.Refreshed)
def _refreshed(state: State, e: ev.Refreshed) -> State:
    side = state.side(e.player)
    deck = side.deck + side.waiting
    state = _with(state, e.player, replace(side, deck=max(0, deck - side.deck_short), waiting=0, deck_short=0))
    return replace(state, refresh_owed={**state.refresh_owed, e.player: e.seq})


@apply.on(ev.RefreshPointPaid)
def _refresh_point(state: State, e: ev.RefreshPointPaid) -> State:
    state = _with(state, e.player, _move(state.side(e.player), "deck", "clock", 1, e.card))
    return replace(state, refresh_owed={k: v for k, v in state.refresh_owed.items() if k != e.player})


def _cards(value: int | list[str]) -> tuple[str, ...]:
    return (UNKNOWN,) * value if isinstance(value, int) else tuple(value)


def _side_of(r: ev.SideRecord) -> Side:
    stage = {
        k: Slot(card=v.card, level=v.level, power=v.power, soul=v.soul, state=v.state)
        for k, v in sorted(r.stage.items(), key=lambda kv: ev.SLOTS.index(kv[0]))
    }
    return Side(
        deck=r.deck,
        hand=r.hand,
        stock=r.stock,
        waiting=r.waiting,
        memory=r.memory,
        clock=_cards(r.clock),
        level=_cards(r.level),
        climax=r.climax,
        stage=stage,
        hand_known=True,
    )


@apply.on(ev.BoardRecorded)
def _board(state: State, e: ev.BoardRecorded) -> State:
    sides = {**state.sides, **{r.player: _side_of(r) for r in e.sides}}
    done = ev.PHASES[: ev.PHASES.index(e.phase) + 1] if e.phase else ()
    return replace(
        state,
        sides=sides,
        turn=e.turn,
        known=True,
        turn_player=e.turn_player,
        first_player=e.first_player or state.first_player,
        phase=e.phase,
        phase_open=e.phase is not None,
        phases_done=done,
        step=None,
        attack=None,
    )


@apply.on(ev.GameLost)
def _lost(state: State, e: ev.GameLost) -> State:
    return replace(state, lost=state.lost + (e.player,))
