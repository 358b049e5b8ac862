"""ガンナガン with the coin-toss variant (トスで決まる枚数ルール): the state after any event.

Base-game zones and counts follow ../shared/reference/gunandgun.md §1; per
activation the state keeps its costs, its toss sequence and N (トスで決まる枚数ルール §概要:
N = tosses facing the tosser before the first toss facing the opponent). Total:
an event that breaks a rule still updates the state as recorded, clamped where a
count cannot go below zero or a gun above its 最大装填数 (FAQ: loads above the
cap are ignored).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from types import SimpleNamespace
from typing import Any, Literal
from collections.abc import Mapping

import msgspec
from msgspec.structs import replace

from kifu.events.base import MatchStarted
from kifu.projector.base import Dispatch

from . import events as ev

Phase = Literal["setup", "start", "main", "down", "over"]


class Gun(msgspec.Struct, frozen=True, kw_only=True):
    """One gun of a player and its deck."""

    name: str
    """The gun as named at setup."""
    loads: int = 0
    """Cards loaded now."""
    up: tuple[str, ...] = msgspec.field(default=(), name="face_up_bullets")
    """Face-up special bullets among the loads."""
    basic: int = msgspec.field(default=0, name="basic_loads_this_turn")
    """Cards loaded by the basic action this turn (against 装填上限)."""
    shots: int = msgspec.field(default=0, name="shots_this_turn")
    """Shots this turn."""
    deck: int = msgspec.field(default=20, name="deck_left")
    """Cards left in this gun's deck."""
    max: int | None = msgspec.field(default=None, name="max_load")
    """最大装填数 from the catalogue (null: unknown gun)."""
    limit: int | None = msgspec.field(default=None, name="load_limit")
    """装填上限 from the catalogue."""
    ignored: int = msgspec.field(default=0, name="loads_ignored_over_max")
    """Cards a load tried to put above 最大装填数 (ignored, FAQ)."""


class Player(msgspec.Struct, frozen=True, kw_only=True):
    """One player's zones and counters."""

    id: str
    gunner: str | None = None
    """The gunner."""
    guns: dict[str, Gun] = {}
    """The two guns by name."""
    skill: str | None = None
    """The chosen skill (the first, where several are allowed)."""
    skills: tuple[str, ...] = ()
    """Every chosen skill: ``skill`` and the setup's ``extra_skills``."""
    skills_up: tuple[str, ...] = msgspec.field(default=(), name="skills_face_up")
    """Skills used (face up), by catalogue name; a flip-back skill turns face down again."""
    life: int = 30
    hand: int = 0
    discard: int = 0
    voltage: int = 0
    burn: int = msgspec.field(default=0, name="burn_counters")
    """Burn counters on the gunner."""
    set: tuple[str, ...] = msgspec.field(default=(), name="set_responses")
    """Activation ids of responses set face down."""
    functions: tuple[str, ...] = msgspec.field(default=(), name="functions_in_play")
    """Function cards in play (one entry per copy)."""
    plays: dict[str, int] = msgspec.field(default={}, name="uses_this_turn")
    """Uses of each card/skill by name this turn (N = 0 counts)."""
    plays_game: dict[str, int] = msgspec.field(default={}, name="uses_this_game")
    """Uses of each card/skill by name this game."""
    resolves: dict[str, int] = msgspec.field(default={}, name="resolutions_this_turn")
    """Resolutions of each card's effect this turn."""
    up_loads: dict[str, int] = msgspec.field(default={}, name="face_up_loads_this_turn")
    """Face-up loads of each card this turn."""
    actions: int = msgspec.field(default=0, name="actions_this_turn")
    """Action cards activated this turn."""
    groups: tuple[str, ...] = msgspec.field(default=(), name="toss_groups_this_turn")
    """Function card names that opened a turn toss group this turn ("*" for continuous skills)."""
    group_of: dict[str, str] = msgspec.field(default={}, name="latest_toss_group")
    """Latest turn toss group id of each function card name ("*": continuous skills)."""
    refill: int | None = msgspec.field(default=None, name="hand_before_refill")
    """Hand before this turn's refill (null: no refill yet)."""
    burned: bool = msgspec.field(default=False, name="burned_this_turn")
    """Burn applied at this turn's start."""
    drawn: bool = msgspec.field(default=False, name="opening_draw_recorded")
    """The log records this player's draws from the start (an opening draw): hand counts can be judged."""
    failed_draw: int | None = msgspec.field(default=None, name="failed_draw_seq")
    """Seq of the first draw asking for more cards than the deck held."""
    turns: int = msgspec.field(default=0, name="own_turns_started")
    """Turns this player has started (オーバーヒート: not on your own first turn)."""
    extra: int = msgspec.field(default=0, name="extra_turns_owed")
    """Extra turns owed right after this one (ブリッツ: N extra turns under the variant)."""


class Activation(msgspec.Struct, frozen=True, kw_only=True):
    """One use of a card, skill, ability or a turn toss group."""

    id: str
    player: str
    kind: str
    """action, function, response, bullet, skill, gunner, gun, group-function, group-continuous."""
    card: str | None
    seq: int = msgspec.field(name="opened_seq")
    """Where it was opened."""
    turn: int
    cost_seq: int | None = msgspec.field(default=None, name="cost_paid_seq")
    """First COST/voltage payment."""
    costs: dict[str, int] = {}
    """Paid by kind (hand, voltage, additional)."""
    add_gun: str | None = msgspec.field(default=None, name="additional_cost_gun")
    """The gun an additional cost came from."""
    add_seq: int | None = msgspec.field(default=None, name="additional_cost_seq")
    tosses: tuple[str, ...] = ()
    """Facings in order: "self" or "opponent"."""
    toss_seqs: tuple[int, ...] = msgspec.field(default=(), name="toss_seq")
    ended: bool = msgspec.field(default=False, name="ended_by_opponent_toss")
    """An opponent-facing toss ended the sequence."""
    n: int = 0
    """Tosses facing the tosser before the first facing the opponent."""
    declared: int | None = msgspec.field(default=None, name="declared_seq")
    """Seq of a response's declaration."""
    resolved: int | None = msgspec.field(default=None, name="resolved_seq")
    outcome: str | None = None
    values: tuple[int, ...] | None = None
    rn: int | None = msgspec.field(default=None, name="n_recorded")
    """N as the resolution recorded it."""
    measured: int | None = None
    """The quantity its threshold compared, as recorded."""
    holds: bool | None = None
    """The table's verdict on its threshold."""
    cmp: str = msgspec.field(default="ge", name="compare")
    effects: dict[str, int] = msgspec.field(default={}, name="effect_totals")
    """Totals of the effects recorded after it (draw, load, burn, heal, hit, hit_mod, discard)."""
    shot: str | None = None
    copies: int = 1
    phase: str = msgspec.field(default="", name="opened_in_phase")
    """The turn phase when it was opened (turn toss groups belong to "start")."""
    room: int | None = msgspec.field(default=None, name="load_cap_room")
    """Room left in the owner's gun with the most room, at the first toss (a load effect's cap)."""


class Shot(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    player: str
    gun: str
    seq: int = msgspec.field(name="declared_seq")
    loads: int = msgspec.field(name="loads_fired")
    """Cards loaded when declared (they then move to voltage)."""
    up: tuple[str, ...] = msgspec.field(default=(), name="face_up_bullets")
    fired: tuple[str, ...] = msgspec.field(default=(), name="bullets_fired")
    """Face-up bullets whose on-shot effect was opened (``gg.bullet``), by catalogue name."""
    mods: tuple[tuple[str, int, int | None], ...] = msgspec.field(default=(), name="hit_modifiers")
    """HIT modifiers in order: (stage, delta, to)."""
    damage: int | None = msgspec.field(default=None, name="damage_dealt")
    """HIT dealt to the opponent, once recorded (the shooter's RECOIL is not counted)."""


class State(msgspec.Struct, frozen=True, kw_only=True):
    """The whole match."""

    ckey: str = msgspec.field(default="", name="catalogue_key")
    """Key of the match's card catalogue in the loader's cache."""
    order: tuple[str, ...] = ()
    players: dict[str, Player] = {}
    first: str | None = msgspec.field(default=None, name="first_player")
    first_seq: int | None = msgspec.field(default=None, name="first_player_seq")
    turn: int = msgspec.field(default=0, name="turn_number")
    active: str | None = msgspec.field(default=None, name="active_player")
    phase: Phase = "setup"
    acts: dict[str, Activation] = msgspec.field(default={}, name="activations")
    shots: dict[str, Shot] = {}
    last_shot: str | None = None


def initial(start: MatchStarted, options: Mapping[str, Any]) -> State:
    ids = tuple(p.id for p in start.players)
    return State(ckey=register(start), order=ids, players={i: Player(id=i) for i in ids})


# --- the card catalogue -------------------------------------------------------
# Card facts come from the events layer's loader, merged with the log's own
# match.start.catalogue. The state keeps only a key into this cache so that it
# stays a plain value (and `kifu state` does not print the whole catalogue).

_CATALOGUES: dict[str, Any] = {}


def _loader() -> Any:
    try:
        from . import cards
    except ImportError:  # the catalogue branch is not merged: every card is unknown
        return None
    return cards


def register(start: MatchStarted) -> str:
    """Build (once) the catalogue a match uses and return its cache key."""
    extra = start.catalogue
    key = hashlib.sha256(msgspec.json.encode(extra, order="deterministic")).hexdigest()[:16]
    if key not in _CATALOGUES:
        cards = _loader()
        cat = _CATALOGUES[key] = None if cards is None else cards.merged(extra) if extra else cards.load()
        _TABLES[key] = _NO_TABLES if cat is None else cards.index(cat)
    return key


def catalogue(key: str) -> Any:
    """The catalogue registered under ``key`` (None when there is none)."""
    return _CATALOGUES.get(key)


# The rules look a card up on most events: each finder below is one call and two dict look-ups into the
# tables of the match's catalogue (by id and by name), registered with it.
_TABLES: dict[str, Any] = {}
_NO_TABLES = SimpleNamespace(cards={}, guns={}, gunners={}, skills={})


def tables(key: str) -> Any:
    """The look-up tables of the catalogue registered under ``key`` (``cards``, ``guns``, ``gunners``, ``skills``:
    each by id and by name); empty ones when there is none."""
    return _TABLES.get(key, _NO_TABLES)


def card_facts(state: State, name: str | None) -> Any:
    """The deck card ``name`` (id or Japanese name) in the match's catalogue; None if unknown."""
    return _TABLES.get(state.ckey, _NO_TABLES).cards.get(name)


def gun_facts(state: State, name: str | None) -> Any:
    """The gun ``name`` (id, full or short name) in the match's catalogue; None if unknown."""
    return _TABLES.get(state.ckey, _NO_TABLES).guns.get(name)


def gunner_facts(state: State, name: str | None) -> Any:
    """The gunner ``name`` (id or Japanese name) in the match's catalogue; None if unknown."""
    return _TABLES.get(state.ckey, _NO_TABLES).gunners.get(name)


def skill_facts(state: State, name: str | None) -> Any:
    """The skill ``name`` (id or Japanese name) in the match's catalogue; None if unknown."""
    return _TABLES.get(state.ckey, _NO_TABLES).skills.get(name)


def canon(state: State, name: str | None) -> str | None:
    """A card's or skill's Japanese name when the catalogue knows it, so ids and names count together."""
    if name is None:
        return None
    key = (state.ckey, name)
    found = _CANON.get(key)
    if found is None:
        card = card_facts(state, name) or skill_facts(state, name)
        found = _CANON[key] = card.name if card is not None else name
    return found


# canon() runs in handlers and rules on most events. A registered catalogue never changes, so
# its answers are kept; the keys are names that occur in logs, a few hundred per catalogue.
_CANON: dict[tuple[str, str], str] = {}


# --- what an activation's fields imply for the rules ----------------------------

CARD_KINDS = ("action", "function", "response", "bullet", "group-function")
"""Kinds of activation whose facts are a deck card's."""
SKILL_KINDS = ("skill", "group-continuous")
"""Kinds of activation whose facts are a skill's."""


class Derived(msgspec.Struct, frozen=True, gc=False):
    """What one activation's fields imply for the rules, worked out once per version of it (``derived``).

    The fold keeps the activation's own facts as its fields: N (``n``: tosses facing the tosser before the
    first facing the opponent), whether an opponent-facing toss ended the sequence (``ended``), the costs
    paid (``costs``, ``cost_seq``), the room for a load (``room``). What follows from them and the card is
    kept here, beside the state rather than in it (``kifu state`` prints an activation as the log made
    it): every rule watching a toss, a cost or a resolution reads it instead of working it out again.
    """

    facts: Any
    """The card or skill it uses, from the match's catalogue (a continuous group: its owner's continuous
    skill in use); None when unknown, and for a gunner's or a gun's ability. Read through ``facts_of``
    (``rules/facts.py``) by GG-TOSS-001/004, GG-NUM-001…004 and GG-COST-001/002."""
    cap: int | None
    """A load effect's cap, the room of the owner's gun with the most room (``Activation.room``); None for
    any other effect (トスで決まる枚数ルール §ルール適用の例外). Read through ``load_cap`` and ``sequence_over`` by
    GG-TOSS-002/003/004 and GG-NUM-002/003/004."""
    n: int
    """N as the variant applies it: ``Activation.n`` stopped at ``cap``. Read through ``effective_n`` and
    ``n_choices`` by GG-TOSS-003/004 and GG-NUM-004."""
    ended_at: int | None
    """Seq of the opponent-facing toss that ended the sequence; None while none has. Read by GG-TOSS-002
    and GG-COST-002."""


def derived(state: State, a: Activation) -> Derived:
    """The ``Derived`` facts of activation ``a`` of ``state``: worked out at the first ask, then read.

    An activation is a new value whenever an event changes it, so its facts are kept for the value (by
    identity, the value held so that it cannot be reused); a continuous group that names no skill also
    reads its owner's skills, so for it the owner's value is compared too.
    """
    owner = state.players.get(a.player) if a.card is None and a.kind == "group-continuous" else None
    kept = _DERIVED.get(id(a))
    if kept is not None and kept[0] is a and kept[1] is owner and kept[2] == state.ckey:
        return kept[3]
    found = _derive(state, a, owner)
    if len(_DERIVED) >= 8:  # the rules of one event ask about its activation before and after; a few are enough
        _DERIVED.clear()
    _DERIVED[id(a)] = (a, owner, state.ckey, found)
    return found


_DERIVED: dict[int, tuple[Activation, Player | None, str, Derived]] = {}
"""The latest few activations' facts. Kept small: every value held here is one more the garbage collector
walks (thousands cost more than working the facts out again)."""


def _derive(state: State, a: Activation, owner: Player | None) -> Derived:
    facts, loads = _used(state.ckey, a.kind, a.card if owner is None else _continuous_skill(state, owner))
    cap = a.room if loads else None
    ended_at = a.toss_seqs[a.tosses.index("opponent")] if a.ended else None
    return Derived(facts=facts, cap=cap, n=a.n if cap is None else min(a.n, cap), ended_at=ended_at)


@lru_cache(maxsize=4096)
def _used(ckey: str, kind: str, name: str | None) -> tuple[Any, bool]:
    """(facts, whether a load effect) of the card or skill ``name`` used as ``kind``: a fact of the catalogue,
    the same for every version of every activation of it."""
    t = tables(ckey)
    facts = t.cards.get(name) if kind in CARD_KINDS else t.skills.get(name) if kind in SKILL_KINDS else None
    return facts, pure_load(facts)


def _continuous_skill(state: State, p: Player) -> str | None:
    """The skill a continuous group resolves when the resolution does not name one: the player's
    continuous skill in use (the first chosen one where several are)."""
    for name in p.skills_up + p.skills:
        if getattr(skill_facts(state, name), "kind", None) == "continuous":
            return name
    return p.skill


def pure_load(facts: Any) -> bool:
    """A load effect: every replaceable number counts cards loaded (トスで決まる枚数ルール multi-gun clause)."""
    rep = [x for x in getattr(facts, "numbers", None) or () if x.replaceable]
    return bool(rep) and all(x.role == "load" for x in rep)


apply: Dispatch[State] = Dispatch()


# --- helpers ------------------------------------------------------------------


def _player(state: State, pid: str) -> Player:
    return state.players.get(pid) or Player(id=pid)


def _put(state: State, p: Player, **changes: Any) -> State:
    return _with_player(state, replace(p, **changes) if changes else p)


# The handlers of the events most logs are made of rebuild a player or an activation with its fields named
# (``replace(p, hand=…)``) and store it with these: a rebuild from a dict of changes (``_put``) costs twice as much.
def _with_player(state: State, p: Player) -> State:
    """``state`` with player ``p`` stored (a new value of one of its players)."""
    return replace(state, players={**state.players, p.id: p})


def _with_act(state: State, a: Activation) -> State:
    """``state`` with activation ``a`` stored (a new value of one of its activations, or a new one)."""
    return replace(state, acts={**state.acts, a.id: a})


def gun_of(state: State, p: Player, name: str | None) -> Gun | None:
    """The player's gun named ``name`` as at setup, or by any other catalogue name of the same gun."""
    if name is None:
        return None
    g = p.guns.get(name)
    if g is not None:
        return g
    want = gun_facts(state, name)
    if want is None:
        return None
    return next((g for key, g in p.guns.items() if getattr(gun_facts(state, key), "id", None) == want.id), None)


def _gun(state: State, p: Player, name: str) -> Gun:
    return gun_of(state, p, name) or Gun(name=name)


def _put_gun(state: State, p: Player, g: Gun, **changes: Any) -> State:
    return _put(state, p, guns={**p.guns, g.name: replace(g, **changes)})


def _act(state: State, aid: str) -> Activation | None:
    return state.acts.get(aid)


def _put_act(state: State, a: Activation, **changes: Any) -> State:
    return _with_act(state, replace(a, **changes))


def _bump(d: Mapping[str, int], key: str, by: int = 1) -> dict[str, int]:
    return {**d, key: d.get(key, 0) + by}


def _open(state: State, e: Any, kind: str, card: str | None, shot: str | None = None, copies: int = 1) -> State:
    a = Activation(
        id=e.act,
        player=e.player,
        kind=kind,
        card=card,
        seq=e.seq,
        turn=state.turn,
        room=room_of(state, e.player),
        phase=state.phase,
        shot=shot,
        copies=copies,
    )
    return replace(state, acts={**state.acts, e.act: a})


def _act_or_open(state: State, e: Any, kind: str) -> tuple[State, Activation]:
    """The activation ``e`` names; one opened at ``e`` as ``kind`` when the log never opened it (a total fold)."""
    a = _act(state, e.act)
    if a is None:
        state = _open(state, e, kind, None)
        a = state.acts[e.act]
    return state, a


def _to_main(state: State, pid: str) -> State:
    """A main-phase action by the active player ends the turn-start window."""
    if pid == state.active and state.phase == "start":
        return replace(state, phase="main")
    return state


def _effect(state: State, aid: str | None, role: str, amount: int, also: str | None = None) -> State:
    """The effect totals of activation ``aid`` (if any) with ``amount`` added to ``role`` (and to ``also``)."""
    a = _act(state, aid) if aid else None
    if a is None:
        return state
    effects = _bump(a.effects, role, amount)
    return _with_act(state, replace(a, effects=effects if also is None else _bump(effects, also, amount)))


# --- setup and turns ----------------------------------------------------------


@apply.on(ev.SetupChosen)
def _setup(state: State, e: ev.SetupChosen) -> State:
    guns = {}
    for name in e.guns:
        facts = gun_facts(state, name)
        deck = e.deck if e.deck is not None else getattr(facts, "deck_size", 20)
        guns[name] = Gun(
            name=name, deck=deck, max=getattr(facts, "max_load", None), limit=getattr(facts, "load_limit", None)
        )
    gunner = gunner_facts(state, e.gunner)
    life = e.life or getattr(gunner, "life", None) or 30
    p = _player(state, e.player)
    return _put(state, p, gunner=e.gunner, guns=guns, skill=e.skill, skills=(e.skill, *e.extra_skills), life=life)


@apply.on(ev.FirstPlayerChosen)
def _first(state: State, e: ev.FirstPlayerChosen) -> State:
    return replace(state, first=e.player, first_seq=e.seq)


@apply.on(ev.TurnStarted)
def _turn(state: State, e: ev.TurnStarted) -> State:
    players = {pid: _turn_started(state, p, e) for pid, p in state.players.items()}
    if e.player not in players:
        players[e.player] = Player(id=e.player, turns=1)
    return replace(state, players=players, turn=e.turn, active=e.player, phase="start")


def _turn_started(state: State, p: Player, e: ev.TurnStarted) -> Player:
    """A player at a turn's start: this turn's counts cleared; the own-turn count, and extra turns (one is used
    by taking the turn again, the rest lapse otherwise)."""
    turns, extra = p.turns, p.extra
    if p.id == e.player:
        turns += 1
        if p.id == state.active and p.extra > 0:
            extra -= 1
    elif p.id == state.active:
        extra = 0
    return replace(
        p,
        plays={},
        resolves={},
        up_loads={},
        actions=0,
        groups=(),
        refill=None,
        burned=False,
        guns={n: replace(g, basic=0, shots=0) if g.basic or g.shots else g for n, g in p.guns.items()},
        turns=turns,
        extra=extra,
    )


@apply.on(ev.TurnEnded)
def _turn_end(state: State, e: ev.TurnEnded) -> State:
    return replace(state, phase="setup" if state.turn == 0 else "down")


@apply.on(ev.CardsDrawn)
def _drawn(state: State, e: ev.CardsDrawn) -> State:
    p = _player(state, e.player)
    g = _gun(state, p, e.deck)
    n = min(e.n, g.deck)
    p = replace(
        p,
        hand=p.hand + n,
        guns={**p.guns, g.name: replace(g, deck=g.deck - n)},
        failed_draw=e.seq if n < e.n and p.failed_draw is None else p.failed_draw,
        refill=p.hand if e.why == "refill" and p.refill is None else p.refill,
        drawn=True if e.why == "opening" else p.drawn,
    )
    state = _with_player(state, p)
    if e.why == "refill" and e.player == state.active:
        state = replace(state, phase="down")
    return _effect(state, e.act, "draw", e.n)


# --- activations --------------------------------------------------------------


@apply.on(ev.CardPlayed)
def _played(state: State, e: ev.CardPlayed) -> State:
    state = _to_main(state, e.player)
    p = _player(state, e.player)
    card = canon(state, e.card) or e.card
    actions, functions, set_ = p.actions, p.functions, p.set
    if e.kind == "action":
        actions += 1
    elif e.kind == "function":
        functions += (card,)
    else:
        set_ += (e.act,)
    p = replace(
        p,
        hand=max(0, p.hand - 1),
        plays=_bump(p.plays, card),
        plays_game=_bump(p.plays_game, card),
        actions=actions,
        functions=functions,
        set=set_,
    )
    return _open(_with_player(state, p), e, e.kind, card)


@apply.on(ev.ResponseDeclared)
def _declared(state: State, e: ev.ResponseDeclared) -> State:
    state, a = _act_or_open(state, e, "response")
    return _put_act(state, a, declared=e.seq, shot=e.against)


@apply.on(ev.BulletFired)
def _bullet(state: State, e: ev.BulletFired) -> State:
    p = _player(state, e.player)
    card = canon(state, e.card) or e.card
    state = _with_player(state, replace(p, plays=_bump(p.plays, card), plays_game=_bump(p.plays_game, card)))
    s = state.shots.get(e.shot)
    if s is not None:
        state = replace(state, shots={**state.shots, s.id: replace(s, fired=s.fired + (card,))})
    return _open(state, e, "bullet", card, shot=e.shot)


@apply.on(ev.SkillUsed)
def _skill(state: State, e: ev.SkillUsed) -> State:
    state = _to_main(state, e.player)
    p = _player(state, e.player)
    skill = canon(state, e.skill) or e.skill
    up = p.skills_up if skill in p.skills_up else p.skills_up + (skill,)
    state = _put(state, p, skills_up=up, plays=_bump(p.plays, skill), plays_game=_bump(p.plays_game, skill))
    return _open(state, e, "skill", skill)


@apply.on(ev.AbilityUsed)
def _ability(state: State, e: ev.AbilityUsed) -> State:
    return _open(state, e, e.source, e.name)


@apply.on(ev.TossGroupOpened)
def _group(state: State, e: ev.TossGroupOpened) -> State:
    p = _player(state, e.player)
    card = canon(state, e.card)
    key = card if e.kind == "function" and card else "*"
    state = _with_player(state, replace(p, groups=p.groups + (key,), group_of={**p.group_of, key: e.act}))
    # the copies actually in play share the one N, whatever the log's count says
    copies = p.functions.count(card) if card in p.functions else e.copies
    return _open(state, e, "group-" + e.kind, card, copies=copies)


@apply.on(ev.CostPaid)
def _cost(state: State, e: ev.CostPaid) -> State:
    p = _player(state, e.player)
    if e.kind == "hand":
        n = min(e.n, p.hand)
        state = _with_player(state, replace(p, hand=p.hand - n, discard=p.discard + n))
    elif e.kind == "voltage":
        n = min(e.n, p.voltage)
        state = _with_player(state, replace(p, voltage=p.voltage - n, discard=p.discard + n))
    else:
        g = _gun(state, p, e.gun or "")
        n = min(e.n, g.loads)
        state = _put(
            state,
            p,
            discard=p.discard + n,
            guns={**p.guns, g.name: replace(g, loads=g.loads - n, up=g.up[: max(0, g.loads - n)])},
        )
    a = _act(state, e.act)
    if a is None:
        return state
    costs = _bump(a.costs, e.kind, e.n)
    if e.kind == "additional":
        return _with_act(state, replace(a, costs=costs, add_gun=e.gun, add_seq=a.add_seq or e.seq))
    return _with_act(state, replace(a, costs=costs, cost_seq=e.seq if a.cost_seq is None else a.cost_seq))


@apply.on(ev.CostRefunded)
def _refund(state: State, e: ev.CostRefunded) -> State:
    p = _player(state, e.player)
    if e.kind == "voltage":
        return _put(state, p, voltage=p.voltage + e.n, discard=max(0, p.discard - e.n))
    return _put(state, p, hand=p.hand + e.n, discard=max(0, p.discard - e.n))


@apply.on(ev.CoinTossed)
def _tossed(state: State, e: ev.CoinTossed) -> State:
    state, a = _act_or_open(state, e, "unknown")
    ended = a.ended or e.facing == "opponent"
    n = a.n + (1 if e.facing == "self" and not a.ended else 0)
    room = a.room if a.tosses else room_of(state, a.player)
    a = replace(a, tosses=a.tosses + (e.facing,), toss_seqs=a.toss_seqs + (e.seq,), ended=ended, n=n, room=room)
    return _with_act(state, a)


def room_of(state: State, pid: str) -> int | None:
    p = state.players.get(pid)
    rooms = [g.max - g.loads for g in (p.guns.values() if p else ()) if g.max is not None]
    return max(rooms) if rooms else None


@apply.on(ev.EffectResolved)
def _resolved(state: State, e: ev.EffectResolved) -> State:
    a = _act(state, e.act)
    if a is None:
        return state
    p = _player(state, e.player)
    card = canon(state, e.card) or a.card
    # the resolver's changes, made at once (the player is stored only when one is made)
    resolves, discard, set_, up = p.resolves, p.discard, p.set, p.skills_up
    if card is not None:
        resolves = _bump(p.resolves, card)
    if a.kind == "action" and a.resolved is None:
        discard += 1
    elif a.kind == "response" and a.resolved is None and a.id in p.set:
        set_, discard = tuple(x for x in p.set if x != a.id), discard + 1
    if a.kind == "skill" and getattr(skill_facts(state, a.card), "flip_back", False):
        up = tuple(x for x in p.skills_up if x != a.card)
    if resolves is not p.resolves or discard != p.discard or set_ is not p.set or up is not p.skills_up:
        state = _with_player(state, replace(p, resolves=resolves, discard=discard, set=set_, skills_up=up))
    if a.resolved is None and e.outcome == "applied":
        state = _extra_turns(state, a, e)
    a = state.acts[a.id]
    a = replace(
        a,
        resolved=a.resolved or e.seq,
        outcome=e.outcome,
        values=tuple(e.values) if e.values is not None else a.values,
        rn=e.n,
        measured=e.measured,
        holds=e.holds,
        cmp=e.cmp,
    )
    return _with_act(state, a)


def _extra_turns(state: State, a: Activation, e: ev.EffectResolved) -> State:
    """ブリッツ: its "1 extra turn" is an effect number, so the player is owed N extra turns."""
    facts = card_facts(state, a.card) if a.kind == "action" else None
    if not any(x.role == "turns" and x.replaceable for x in getattr(facts, "numbers", ())):
        return state
    p = state.players.get(a.player)
    if p is None:
        return state
    return _put(state, p, extra=p.extra + (a.n if a.tosses else e.n))


# --- loads, shots, life -------------------------------------------------------


@apply.on(ev.Loaded)
def _loaded(state: State, e: ev.Loaded) -> State:
    if e.how == "basic":
        state = _to_main(state, e.player)
    p = _player(state, e.player)
    g = _gun(state, p, e.gun)
    size = e.n * counts_as(state, e)
    room = size if g.max is None else max(0, g.max - g.loads)
    n = min(size, room)
    loaded = replace(
        g,
        loads=g.loads + n,
        ignored=g.ignored + size - n,
        up=g.up + (e.card or "?",) if e.face == "up" and n else g.up,
        basic=g.basic + e.n if e.how == "basic" else g.basic,
    )
    guns = {**p.guns, g.name: loaded}
    hand, discard, voltage = p.hand, p.discard, p.voltage
    if e.zone == "hand":
        hand = max(0, p.hand - (1 if e.face == "up" else e.n))
    elif e.zone == "discard":
        discard = max(0, p.discard - e.n)
    elif e.zone == "voltage":
        voltage = max(0, p.voltage - e.n)
    elif e.zone == "deck" and e.deck:
        d = _gun(state, p, e.deck)
        if d.name == g.name:
            guns[g.name] = replace(loaded, deck=max(0, d.deck - e.n))
        else:
            guns[d.name] = replace(d, deck=max(0, d.deck - e.n))
    up_loads = _bump(p.up_loads, canon(state, e.card) or e.card) if e.face == "up" and e.card else p.up_loads
    p = replace(p, guns=guns, hand=hand, discard=discard, voltage=voltage, up_loads=up_loads)
    return _effect(_with_player(state, p), e.act, "load", e.n, "load:" + g.name)


def counts_as(state: State, e: ev.Loaded) -> int:
    """How many loads one card of this load counts as: ダブルバレット face up counts as 2 (reference #1).

    The catalogue marks it as a bullet's structural (never tossed) load number.
    """
    if e.face != "up" or not e.card:
        return 1
    facts = card_facts(state, e.card)
    if getattr(facts, "kind", None) != "bullet":
        return 1
    fixed = [x.value for x in getattr(facts, "numbers", ()) if x.role == "load" and not x.replaceable]
    return fixed[0] if fixed else 1


@apply.on(ev.ShotDeclared)
def _shot(state: State, e: ev.ShotDeclared) -> State:
    state = _to_main(state, e.player)
    p = _player(state, e.player)
    g = _gun(state, p, e.gun)
    shot = Shot(id=e.shot, player=e.player, gun=g.name, seq=e.seq, loads=g.loads, up=g.up)
    fired = replace(g, loads=0, up=(), shots=g.shots + 1)
    state = _with_player(state, replace(p, voltage=p.voltage + g.loads, guns={**p.guns, g.name: fired}))
    return replace(state, shots={**state.shots, e.shot: shot}, last_shot=e.shot)


@apply.on(ev.HitModified)
def _hit(state: State, e: ev.HitModified) -> State:
    s = state.shots.get(e.shot)
    if s is not None:
        state = replace(state, shots={**state.shots, s.id: replace(s, mods=s.mods + ((e.stage, e.delta, e.to),))})
    return _effect(state, e.act, "hit_mod", abs(e.delta) if e.to is None else e.to)


@apply.on(ev.LifeChanged)
def _life(state: State, e: ev.LifeChanged) -> State:
    p = _player(state, e.player)
    state = _with_player(state, replace(p, life=p.life + e.delta, burned=p.burned or e.why == "burn"))
    s = state.shots.get(e.shot) if e.shot else None
    # a shot's damage is what its target takes; the shooter's own RECOIL written on the shot is not
    if s is not None and e.why == "hit" and e.player != s.player:
        state = replace(state, shots={**state.shots, s.id: replace(s, damage=(s.damage or 0) - e.delta)})
    return _effect(state, e.act, LIFE_ROLES[e.why], abs(e.delta))


LIFE_ROLES = {"hit": "hit", "loss": "hit", "heal": "heal", "burn": "burn-loss"}
"""The effect total a life change adds to, by its ``why``."""


@apply.on(ev.BurnChanged)
def _burn(state: State, e: ev.BurnChanged) -> State:
    p = _player(state, e.player)
    return _effect(_put(state, p, burn=max(0, p.burn + e.delta)), e.act, "burn", max(0, e.delta))


@apply.on(ev.CardsDiscarded)
def _discarded(state: State, e: ev.CardsDiscarded) -> State:
    p = _player(state, e.player)
    ch: dict[str, Any] = {"discard": p.discard + e.n}
    if e.zone == "hand":
        ch["hand"] = max(0, p.hand - e.n)
    elif e.zone == "voltage":
        ch["voltage"] = max(0, p.voltage - e.n)
    elif e.zone in ("load", "deck") and e.gun:
        g = _gun(state, p, e.gun)
        field = "loads" if e.zone == "load" else "deck"
        ch["guns"] = {**p.guns, g.name: replace(g, **{field: max(0, getattr(g, field) - e.n)})}
    elif e.zone in ("function", "set"):
        left = _out_of_play(state, p, e.zone, e.card)
        ch.update(left)
        if e.zone == "set" and left["set"] == p.set:  # already moved to the discard when it resolved
            ch["discard"] = p.discard
    return _effect(_put(state, p, **ch), e.act, "discard", e.n)


def _out_of_play(state: State, p: Player, zone: str, card: str | None) -> dict[str, Any]:
    """One copy of a function, or one set response, leaving play: the changes to the player."""
    name = canon(state, card)
    if zone == "function":
        if name not in p.functions:
            return {}
        fs = list(p.functions)
        fs.remove(name)
        return {"functions": tuple(fs)}
    gone = next((x for x in p.set if (a := _act(state, x)) is not None and a.card == name), None)
    return {"set": tuple(x for x in p.set if x != gone)}


@apply.on(ev.CardsMoved)
def _moved(state: State, e: ev.CardsMoved) -> State:
    p = _player(state, e.player)
    n = e.n
    ch: dict[str, Any] = {}
    guns = dict(p.guns)
    if e.zone in ("hand", "discard", "voltage"):
        ch[e.zone] = max(0, getattr(p, e.zone) - n)
    elif e.zone in ("deck", "load") and e.gun:
        g = gun_of(state, p, e.gun) or Gun(name=e.gun)
        if e.zone == "deck":
            guns[g.name] = replace(g, deck=max(0, g.deck - n))
        else:
            guns[g.name] = replace(g, loads=max(0, g.loads - n), up=g.up[: max(0, g.loads - n)])
    elif e.zone in ("function", "set"):
        ch.update(_out_of_play(state, p, e.zone, e.card))
    if e.to == "deck" and e.gun:
        g = gun_of(state, p, e.gun)
        if g is not None:
            guns[g.name] = replace(guns[g.name], deck=guns[g.name].deck + n)
    elif e.to in ("hand", "voltage"):
        ch[e.to] = ch.get(e.to, getattr(p, e.to)) + n
    if guns != p.guns:
        ch["guns"] = guns
    return _effect(_put(state, p, **ch), e.act, "move:" + e.to, n)
