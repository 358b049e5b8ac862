"""Magic coin flips (CR 705, MTG Wiki «コイン投げ»): the state of a match's flips after any event.

Per flip instruction the state keeps its coins grouped by replaced flip (or by
round, for Mana Clash), the calls, the kept coin under Krark's Thumb, the
recorded outcomes, the stop/continue choices and the payoffs, plus the
watchers and modifiers in play. The fold is total: whatever the log records is
kept, legal or not; the helpers at the end derive what the rules compare
(kept coin, true outcome, counted wins). No I/O.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from collections.abc import Mapping

import msgspec
from msgspec.structs import replace

from kifu.events.base import MatchStarted
from kifu.projector.base import Dispatch

from .cards import Card, builtin, for_match

# The values the fold makes at every event (a coin, a mark, a flip's group, an instruction, the state) are
# built from values made before them and never changed, so they can take part in no reference cycle: they are
# kept out of the garbage collector's lists (``gc=False``), which would otherwise walk them again and again.
from .events import (
    ChoiceMade,
    CoinCalled,
    CoinKept,
    CoinLanded,
    FlipDecided,
    FlipInstructed,
    HeadsNamed,
    PayoffApplied,
    PermanentEntered,
    PermanentLeft,
    RandomiserAgreed,
    TurnBegan,
)


class Permanent(msgspec.Struct, frozen=True, kw_only=True):
    """A watcher or modifier on the battlefield."""

    permanent: str
    card: str
    controller: str
    seq: int
    """Seq of its ``mtg.enters``."""


class Randomiser(msgspec.Struct, frozen=True, kw_only=True):
    """The coin or substitute in use (705.1)."""

    randomiser: str
    kind: str = "coin"
    sides: int = 2
    clear: bool = True
    heads: str | None = None
    agreed: tuple[str, ...] = ()
    seq: int = 0
    """Seq of its ``mtg.randomiser``; 0 for the implicit ordinary coin."""


class Coin(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One coin (die roll, card pick) as it landed."""

    seq: int
    """Seq of its ``mtg.coin``."""
    player: str
    """Who flipped it."""
    result: str
    """``heads`` or ``tails`` (for a die, the side its face reads as)."""
    face: int | None = None
    """The die face, or which of two face-down cards was picked, when recorded."""
    randomiser: str = "coin"
    """The coin or substitute it was flipped with (``mtg.randomiser``)."""


class Mark(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A call, keep, outcome or choice: who, what, when."""

    seq: int
    """Seq of the event."""
    player: str
    """Who called, kept, won or lost, or chose."""
    value: Any
    """A call's side (``heads``/``tails``); a keep's coin (1-based among that player's coins of the flip);
    an outcome (``won``/``lost``); a choice (``continue``/``stop``)."""


class Group(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One flip the card asks for (``group`` in the log): its coins (two or more under Krark's Thumb), or
    one Mana Clash round."""

    group: int
    """The flip's number within the instruction (1, 2, 3 …), as the log's ``group``."""
    coins: tuple[Coin, ...] = ()
    """Every coin of this flip, ignored Thumb coins included, in log order."""
    calls: tuple[Mark, ...] = ()
    """Every call recorded, by anyone (only the flipper's counts: see ``call``)."""
    keeps: tuple[Mark, ...] = ()
    """Krark's Thumb keeps; value: the 1-based index of the kept coin among that player's coins."""
    outcomes: tuple[Mark, ...] = ()
    """Won/lost as the table recorded them (compare ``outcome``, the rules' verdict)."""
    choices: tuple[Mark, ...] = ()
    """Stop/continue decisions made after this flip."""
    thumbs: dict[str, int] = {}
    """Krark's Thumbs each flipping player controlled when their first coin landed."""
    kept: dict[str, str] = {}
    """Each flipping player's kept side, once it is decided (the only coin, or the kept one)."""
    first_seq: int = 0
    """Seq of the first event about this group."""
    call: str | None = None
    """The flipper's call that counts (option ``call_counts``); None before it is made."""
    outcome: str | None = None
    """The flipper's ``won``/``lost`` as the rules decide it: the call against the kept coin (705.2), or
    ``won`` under a stated result (705.3); the recorded outcome only when that cannot be decided. None for a
    heads/tails-only flip, which nobody wins or loses."""


class Payoff(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One recorded ``mtg.payoff``."""

    seq: int
    """Seq of the event."""
    kind: str
    """What it paid (``damage``, ``draw``, ``luck-counter`` …)."""
    amount: int
    """How much."""
    player: str | None = None
    """Who it went to, when recorded."""
    permanent: str | None = None
    """The watcher whose trigger it is; None for the card's own effect."""
    group: int | None = None
    """The flip it pays for, when recorded (Game of Chaos, Mana Clash rounds)."""


class Instruction(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One ``mtg.flip`` and everything recorded about it since."""

    flip: str
    """The instruction's id, as the log's ``flip``."""
    seq: int
    """Seq of its ``mtg.flip``."""
    card: str
    """The source card."""
    controller: str
    """Controller of the source."""
    flipper: str
    """The player the effect tells to flip: the only one who calls, wins or loses (705.2)."""
    coins: int = 1
    """Flips asked for when the card does not fix the number (``mtg.flip.coins``; Rakdos)."""
    chosen: int | None = None
    """The number chosen (Yusri, Squee's Revenge)."""
    kind: str | None = None
    """``called`` or ``heads-tails``; None when neither the catalogue nor the log says."""
    sequence: str | None = None
    """How the flips go on: ``fixed``, ``until-lose``, ``until-lose-or-stop``, ``capped``, ``chosen``,
    ``repeat``, ``until-both-heads``."""
    flippers: str = "flipper"
    """``flipper``, or ``each-player`` when every player flips each round (Mana Clash)."""
    known: bool = False
    """True when the card is in the catalogue."""
    turn: int = 0
    """The turn it began in."""
    call_counts: str = "last-before-result"
    """Option ``call_counts`` as resolved for the match: which of the flipper's calls is the call."""
    stated: bool = False
    """True when Edgar's stated result (705.3) applies to this instruction (see ``stated_group``)."""
    watchers: tuple[Permanent, ...] = ()
    """Watchers in play when the instruction began."""
    groups: dict[int, Group] = {}
    """The flips of this instruction by number (the log's ``group``)."""
    payoffs: tuple[Payoff, ...] = ()
    """Every payoff recorded for it, the card's own and its watchers' triggers."""
    wins: int = 0
    """Flips the flipper won, as the rules decide (``Group.outcome``), among the flips the effect made."""
    losses: int = 0
    """Flips the flipper lost, likewise."""
    made: int = 0
    """Flips the effect made: recorded flips up to the end of the effect (the first kept loss of an until-lose
    card, a stop, the number chosen, Mana Clash's all-heads round); any later flip wins nothing."""
    last_seq: int = 0
    """Seq of the latest event about this instruction."""
    reused_at: int | None = None
    """Seq of the ``mtg.flip`` that reused this instruction's id (it is then kept as ``<id>@<seq>``)."""


class State(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Every flip of the match so far, and what is in play."""

    turn: int = 0
    """The current turn (``mtg.turn``), 0 before the first."""
    active: str | None = None
    """The active player of that turn."""
    players: tuple[str, ...] = ()
    """Player ids in seat order."""
    permanents: dict[str, Permanent] = {}
    """Watchers and modifiers in play, by the log's permanent id."""
    randomisers: dict[str, Randomiser] = {}
    """The ordinary coin (``coin``) and every substitute declared (705.1)."""
    flips: dict[str, Instruction] = {}
    """Every flip instruction so far, by id; an instruction whose id was reused later is kept as
    ``<id>@<seq of its mtg.flip>``."""
    edgar_used: tuple[tuple[int, str], ...] = ()
    """(turn, player) pairs whose first flip of the turn already used Edgar."""
    wins: dict[str, int] = {}
    """Won flips per player as the rules decide them (call against kept coin, 705.2), whether or not the table
    wrote an ``mtg.outcome``; flips made after an effect was over are not counted."""
    losses: dict[str, int] = {}
    """Lost flips per player, likewise."""
    orphans: tuple[int, ...] = ()
    """Seqs of events naming a flip id that no ``mtg.flip`` introduced."""
    stated_results: bool = True
    """Option ``stated_results`` (705.3, Edgar) as resolved for this match."""
    call_counts: str = "last-before-result"
    """Option ``call_counts``: the flipper's last call before the result, or the first call made."""
    custom: dict[str, Card] = {}
    """Cards the match's own catalogue adds (match.start.catalogue)."""
    paid: dict[str, dict[str, int]] = {}
    """What the recorded payoffs gave each player so far, by kind (``damage``: taken), as the board shows it."""


def initial(start: MatchStarted, options: Mapping[str, Any]) -> State:
    try:
        custom = {} if not start.catalogue else dict(for_match(start.catalogue).cards)
    except msgspec.ValidationError:
        custom = {}  # the projection stays total; the audit reports the catalogue as malformed
    return State(
        players=tuple(p.id for p in start.players),
        stated_results=bool(options.get("stated_results", True)),
        call_counts=str(options.get("call_counts", "last-before-result")),
        randomisers={"coin": Randomiser(randomiser="coin")},
        custom={k: v for k, v in custom.items() if k not in builtin().cards or builtin().cards[k] != v},
    )


def card_of(state: State, name: str) -> Card | None:
    """The catalogue facts of a card (the match's own cards first)."""
    if state.custom:
        found = state.custom.get(name.strip().lower())
        if found is not None:
            return found
    return _builtin_card(name)


@lru_cache(maxsize=4096)
def _builtin_card(name: str) -> Card | None:
    # The fold asks for the cards in play at every coin; the names are the few a log uses.
    return builtin().get(name)


apply: Dispatch[State] = Dispatch()


@apply.on(TurnBegan)
def _turn(state: State, e: TurnBegan) -> State:
    return replace(state, turn=e.turn, active=e.player)


@apply.on(PermanentEntered)
def _enters(state: State, e: PermanentEntered) -> State:
    p = Permanent(permanent=e.permanent, card=e.card, controller=e.controller, seq=e.seq)
    return replace(state, permanents={**state.permanents, e.permanent: p})


@apply.on(PermanentLeft)
def _leaves(state: State, e: PermanentLeft) -> State:
    return replace(state, permanents={k: v for k, v in state.permanents.items() if k != e.permanent})


@apply.on(RandomiserAgreed)
def _randomiser(state: State, e: RandomiserAgreed) -> State:
    r = Randomiser(
        randomiser=e.randomiser,
        kind=e.kind,
        sides=e.sides,
        clear=e.clear,
        heads=e.heads,
        agreed=tuple(e.agreed),
        seq=e.seq,
    )
    return replace(state, randomisers={**state.randomisers, e.randomiser: r})


@apply.on(HeadsNamed)
def _heads(state: State, e: HeadsNamed) -> State:
    old = state.randomisers.get(e.randomiser) or Randomiser(randomiser=e.randomiser)
    new = replace(old, heads=e.heads, agreed=tuple(dict.fromkeys(old.agreed + tuple(e.agreed))))
    return replace(state, randomisers={**state.randomisers, e.randomiser: new})


def controls(state: State, player: str, modifier: str) -> int:
    """How many permanents with this modifier (``thumb``, ``edgar``) the player controls."""
    memo = _CONTROLS
    if memo[0] is not state.permanents or memo[1] is not state.custom:
        memo[:] = (state.permanents, state.custom, {})
    counts = memo[2]
    n = counts.get((player, modifier))
    if n is None:
        n = counts[(player, modifier)] = sum(
            p.controller == player and (card := card_of(state, p.card)) is not None and card.modifier == modifier
            for p in state.permanents.values()
        )
    return n


# Asked at the first coin of every flip; the permanents change far less often. The answers are kept for the
# latest permanents (held here, so the identity cannot be reused while it is compared).
_CONTROLS: list[Any] = [None, None, {}]


def _watchers(state: State) -> tuple[Permanent, ...]:
    """The permanents in play that count flips: the catalogue's watchers, and every permanent whose card the
    catalogue does not know (it may be one: the rules then cannot decide its payoffs, rather than call them
    wrong)."""
    out = []
    for p in state.permanents.values():
        card = card_of(state, p.card)
        if card is None or card.watch is not None:
            out.append(p)
    return tuple(out)


def _edgar_applies(state: State, flipper: str) -> bool:
    return (
        state.stated_results and controls(state, flipper, "edgar") > 0 and (state.turn, flipper) not in state.edgar_used
    )


@apply.on(FlipInstructed)
def _flip(state: State, e: FlipInstructed) -> State:
    if e.flip in state.flips:
        state = _retire(state, e.flip, e.seq)
    card = card_of(state, e.card)
    stated = _edgar_applies(state, e.flipper)
    ins = Instruction(
        flip=e.flip,
        seq=e.seq,
        card=e.card,
        controller=e.controller or e.flipper,
        flipper=e.flipper,
        coins=e.coins,
        chosen=e.chosen,
        turn=state.turn,
        stated=stated,
        call_counts=state.call_counts,
        watchers=_watchers(state),
        kind=card.call if card and card.call else e.kind,
        sequence=card.sequence if card and card.sequence else e.sequence,
        flippers=card.flippers if card else "flipper",
        known=card is not None,
        last_seq=e.seq,
    )
    used = state.edgar_used + (((state.turn, e.flipper),) if stated else ())
    return replace(state, flips={**state.flips, e.flip: ins}, edgar_used=used)


def _retire(state: State, flip: str, seq: int) -> State:
    """A reused id (MTG-FLIP-002) starts a new instruction: later events name the newest one, and the earlier
    one is kept, whole, as ``<id>@<its seq>``, so one reused id is one finding, not a cascade of re-flips."""
    old = state.flips[flip]
    key = f"{flip}@{old.seq}"
    flips = {k: v for k, v in state.flips.items() if k != flip}
    return replace(state, flips={**flips, key: replace(old, flip=key, reused_at=seq)})


def _put(state: State, ins: Instruction) -> State:
    """``ins`` (scored) stored; the players' tallies moved by what its score changed."""
    old = state.flips.get(ins.flip)
    if old is not None and old.wins == ins.wins and old.losses == ins.losses:
        return replace(state, flips={**state.flips, ins.flip: ins})
    wins, losses = dict(state.wins), dict(state.losses)
    for tally, before, after in (
        (wins, old.wins if old else 0, ins.wins),
        (losses, old.losses if old else 0, ins.losses),
    ):
        n = tally.get(ins.flipper, 0) - before + after
        if n:
            tally[ins.flipper] = n
        else:
            tally.pop(ins.flipper, None)
    return replace(state, flips={**state.flips, ins.flip: ins}, wins=wins, losses=losses)


def _scored(ins: Instruction) -> Instruction:
    made = effective_groups(ins)
    return replace(
        ins, made=len(made), wins=sum(g.outcome == "won" for g in made), losses=sum(g.outcome == "lost" for g in made)
    )


def _orphan(state: State, seq: int) -> State:
    return replace(state, orphans=state.orphans + (seq,))


def _with_group(state: State, flip: str, n: int, seq: int, field: str, mark: Mark) -> State:
    ins = state.flips.get(flip)
    if ins is None:
        return _orphan(state, seq)
    return _put_group(state, ins, _changed(ins, n, seq, field, mark), seq)


def _put_group(state: State, ins: Instruction, g: Group, seq: int) -> State:
    """``ins`` with group ``g`` stored. Its score (made, wins, losses) reads only each group's outcome, kept
    sides and choices, and Mana Clash's flippers (``_last_flip_made``): when an event left those of an
    existing group as they were (an outcome or a call the verdict already had), the score stands. The
    instruction is rebuilt once, its groups and score together."""
    old = ins.groups.get(g.group)
    groups = {**ins.groups, g.group: g}
    if (
        old is not None
        and old.outcome == g.outcome
        and old.kept == g.kept
        and old.choices == g.choices
        and (ins.sequence != "until-both-heads" or old.coins == g.coins)
    ):
        return replace(state, flips={**state.flips, ins.flip: replace(ins, groups=groups, last_seq=seq)})
    return _put(state, _rescored(ins, groups, old, g, seq))


def _rescored(before: Instruction, groups: dict[int, Group], old: Group | None, g: Group, seq: int) -> Instruction:
    """``before`` (scored) with ``groups`` (group ``g`` changed from ``old`` or added) and ``seq`` its latest
    event, scored.

    A flip's verdict and place never depend on the flips after it, so when ``g`` is the last flip the others
    keep theirs: ``g`` counts when the effect was still going after them, and only its own verdict moves the
    score. An event costs the same however many flips the instruction made. A flip recorded before an
    earlier one (out of order) is scored from the start.
    """
    if max(groups) != g.group:
        return _scored(replace(before, groups=groups, last_seq=seq))
    rest = len(groups) - 1
    made, wins, losses = before.made, before.wins, before.losses
    if old is not None:
        if made <= rest:
            return replace(before, groups=groups, last_seq=seq)  # the effect was over before ``g``: it counts nothing
        made, wins, losses = made - 1, wins - (old.outcome == "won"), losses - (old.outcome == "lost")
    elif made < rest or (rest and _last_flip_made(before, before.groups[max(before.groups)], made)):
        return replace(before, groups=groups, last_seq=seq)  # the effect was over before this new flip
    return replace(
        before,
        groups=groups,
        last_seq=seq,
        made=made + 1,
        wins=wins + (g.outcome == "won"),
        losses=losses + (g.outcome == "lost"),
    )


def _changed(
    ins: Instruction, n: int, seq: int, field: str, mark: Mark | Coin, thumbs: dict[str, int] | None = None
) -> Group:
    """Group ``n`` with one event's mark or coin added to ``field`` (a first coin's player's ``thumbs`` set
    with it), and its derived facts brought up to date, in one new group.

    Only this group's facts are recomputed, and of them only those the field is read for: the kept sides
    read the coins and the keeps, and only the side of the player whose coin or keep it is can move; the
    call reads the calls (and, where the flipper called more than once, the coins: the flipper's first coin
    lands after the call that counts); the outcome all of these and the recorded outcomes; a choice changes
    none of an existing group's. The other groups' stay as stored, so an event costs the same however many
    flips came before it.
    """
    old = ins.groups.get(n)
    if old is None:
        old = Group(group=n, first_seq=seq)
    elif field == "choices":
        return replace(old, choices=old.choices + (mark,))
    kept, call = old.kept, old.call
    if field == "coins":
        coins = old.coins + (mark,)
        kept = _kept_sides(kept, coins, old.keeps, mark.player)
        if len(old.calls) > 1:  # with one call the call is that call whenever the coins land (``the_call``)
            call = _call_value(ins, old.calls, coins)
        outcome = _judged_outcome(ins, n, old.outcomes, kept, call)
        if thumbs is None:
            return replace(old, coins=coins, kept=kept, call=call, outcome=outcome)
        return replace(old, coins=coins, kept=kept, call=call, outcome=outcome, thumbs=thumbs)
    if field == "calls":
        calls = old.calls + (mark,)
        call = _call_value(ins, calls, old.coins)
        return replace(old, calls=calls, call=call, outcome=_judged_outcome(ins, n, old.outcomes, kept, call))
    if field == "keeps":
        keeps = old.keeps + (mark,)
        kept = _kept_sides(kept, old.coins, keeps, mark.player)
        return replace(old, keeps=keeps, kept=kept, outcome=_judged_outcome(ins, n, old.outcomes, kept, call))
    if field == "outcomes":
        outcomes = old.outcomes + (mark,)
        return replace(old, outcomes=outcomes, outcome=_judged_outcome(ins, n, outcomes, kept, call))
    return replace(old, choices=(mark,), outcome=_judged_outcome(ins, n, old.outcomes, kept, call))  # a new group


def _call_value(ins: Instruction, calls: tuple[Mark, ...], coins: tuple[Coin, ...]) -> str | None:
    call = _call_of(ins, calls, coins)
    return None if call is None else call.value


def _judged_outcome(
    ins: Instruction, n: int, outcomes: tuple[Mark, ...], kept: Mapping[str, str], call: str | None
) -> str | None:
    """``true_outcome`` of flip ``n`` from the kept sides and the call just worked out (the same verdict, not
    recomputed)."""
    if ins.stated and stated_group(ins, n):
        return "won"
    if ins.kind != "called":
        return None
    side = kept.get(ins.flipper)
    if side is not None and call is not None:
        return "won" if call == side else "lost"
    for o in outcomes:
        if o.player == ins.flipper:
            return o.value
    return None


def _kept_sides(kept: dict[str, str], coins: tuple[Coin, ...], keeps: tuple[Mark, ...], who: str) -> dict[str, str]:
    """Each flipping player's kept side (``kept_coin``), in the order of their first coins: ``kept`` (the
    sides before) with ``who``'s coin or keep added to ``coins`` or ``keeps``. Only ``who``'s side can move;
    the others are worked out again only when ``who`` becomes decided or undecided (their order)."""
    if len(coins) == 1 and not keeps:  # most flips: one coin, nothing to choose
        return {coins[0].player: coins[0].result}
    coin = _kept_of(coins, keeps, who)
    if coin is None and who not in kept:
        return kept
    if coin is not None and who in kept:
        return kept if kept[who] == coin.result else {**kept, who: coin.result}
    out = {}
    for player in dict.fromkeys([c.player for c in coins]):
        coin = _kept_of(coins, keeps, player)
        if coin is not None:
            out[player] = coin.result
    return out


@apply.on(CoinCalled)
def _call(state: State, e: CoinCalled) -> State:
    return _with_group(state, e.flip, e.group, e.seq, "calls", Mark(seq=e.seq, player=e.player, value=e.side))


@apply.on(CoinLanded)
def _coin(state: State, e: CoinLanded) -> State:
    ins = state.flips.get(e.flip)
    if ins is None:
        return _orphan(state, e.seq)
    who = e.player or ins.flipper
    coin = Coin(seq=e.seq, player=who, result=e.result, face=e.face, randomiser=e.randomiser)
    old = ins.groups.get(e.group)
    if old is not None and who in old.thumbs:
        g = _changed(ins, e.group, e.seq, "coins", coin)
    else:  # the Thumbs a player controls when their first coin of the flip lands
        thumbs = {**(old.thumbs if old is not None else {}), who: controls(state, who, "thumb")}
        g = _changed(ins, e.group, e.seq, "coins", coin, thumbs)
    return _put_group(state, ins, g, e.seq)


@apply.on(CoinKept)
def _keep(state: State, e: CoinKept) -> State:
    return _with_group(state, e.flip, e.group, e.seq, "keeps", Mark(seq=e.seq, player=e.player, value=e.coin))


@apply.on(FlipDecided)
def _outcome(state: State, e: FlipDecided) -> State:
    return _with_group(state, e.flip, e.group, e.seq, "outcomes", Mark(seq=e.seq, player=e.player, value=e.outcome))


@apply.on(ChoiceMade)
def _choice(state: State, e: ChoiceMade) -> State:
    return _with_group(state, e.flip, e.group, e.seq, "choices", Mark(seq=e.seq, player=e.player, value=e.choice))


@apply.on(PayoffApplied)
def _payoff(state: State, e: PayoffApplied) -> State:
    ins = state.flips.get(e.flip)
    if ins is None:
        return _orphan(state, e.seq)
    p = Payoff(seq=e.seq, kind=e.kind, amount=e.amount, player=e.player, permanent=e.permanent, group=e.group)
    # a payoff changes no flip: the instruction's score stands
    state = replace(state, flips={**state.flips, e.flip: replace(ins, payoffs=ins.payoffs + (p,), last_seq=e.seq)})
    if e.player is None:
        return state
    mine = state.paid.get(e.player, {})
    return replace(state, paid={**state.paid, e.player: {**mine, e.kind: mine.get(e.kind, 0) + e.amount}})


# --- derived values the rules compare ------------------------------------------------


def groups_in_order(ins: Instruction) -> list[Group]:
    return [ins.groups[n] for n in sorted(ins.groups)]


def coins_of(g: Group, player: str) -> tuple[Coin, ...]:
    return tuple([c for c in g.coins if c.player == player])


def kept_coin(g: Group, player: str) -> Coin | None:
    """The coin that counts: the kept one, or the only one (or the first of coins that all agree, where
    the choice cannot change anything); None if undecided."""
    return _kept_of(g.coins, g.keeps, player)


def _kept_of(coins: tuple[Coin, ...], keeps: tuple[Mark, ...], player: str) -> Coin | None:
    """``kept_coin`` of ``player`` among ``coins`` and ``keeps``."""
    mine = [c for c in coins if c.player == player]
    if keeps:
        named = [mine[k.value - 1] if 1 <= k.value <= len(mine) else None for k in keeps if k.player == player]
        if named:
            # keep lines naming coins that differ leave the kept coin undecided whichever line came first
            # (MTG-THUMB-002 reports them); lines naming the same result agree
            return named[0] if len({c.result if c else None for c in named}) == 1 else None
    if len(mine) == 1:
        return mine[0]
    return mine[0] if mine and len({c.result for c in mine}) == 1 else None


def ignored_coins(g: Group, player: str) -> tuple[Coin, ...]:
    kept = kept_coin(g, player)
    return tuple(c for c in coins_of(g, player) if kept is not None and c.seq != kept.seq)


def the_call(ins: Instruction, g: Group) -> Mark | None:
    """The flipper's call that counts for flip ``g`` (705.2: only the flipper calls). A call may be changed
    until the coin lands (MTG Wiki «コイン投げ» allows calling before the toss), so by default the last call before the
    flipper's first coin counts; a call made only after the result is still the call (MTG-CALL-004 judges
    its timing). Option ``call_counts: first`` holds the flipper to the first call."""
    return _call_of(ins, g.calls, g.coins)


def _call_of(ins: Instruction, calls: tuple[Mark, ...], coins: tuple[Coin, ...]) -> Mark | None:
    """``the_call`` among ``calls``, the flipper's first of ``coins`` landed after the one that counts."""
    if not calls:
        return None
    mine = [c for c in calls if c.player == ins.flipper]
    if len(mine) < 2:
        return mine[0] if mine else None  # one call is the call, before the coin or after it
    landed = [c for c in coins if c.player == ins.flipper]
    before = [c for c in mine if not landed or c.seq < landed[0].seq]
    if ins.call_counts == "first" or not before:
        return mine[0]
    return before[-1]


ONE_AT_A_TIME = ("until-lose", "until-lose-or-stop", "capped", "repeat", "until-both-heads")


def stated_group(ins: Instruction, n: int) -> bool:
    """Whether Edgar's stated result covers flip ``n``: every coin flipped at once, but of a one-at-a-time
    sequence only the first flip (the later ones are not the first time that turn)."""
    return ins.stated and (n == 1 or ins.sequence not in ONE_AT_A_TIME)


def true_outcome(ins: Instruction, g: Group) -> str | None:
    """Won or lost as the rules decide it: 705.3 stated win, else call vs kept coin, else as recorded."""
    if stated_group(ins, g.group):
        return "won"
    if ins.kind != "called":
        return None
    kept, call = kept_coin(g, ins.flipper), the_call(ins, g)
    if kept is not None and call is not None:
        return "won" if call.value == kept.result else "lost"
    mine = [o for o in g.outcomes if o.player == ins.flipper]
    return mine[0].value if mine else None


UNTIL_A_LOSS = ("until-lose", "until-lose-or-stop", "capped")


def _last_flip_made(ins: Instruction, g: Group, made: int) -> bool:
    """Whether the effect makes no flip after ``g`` (the ``made``-th): a kept loss of an until-lose card, a
    stop, the chosen number reached, or Mana Clash's all-heads round. Reads the group's stored verdicts
    (``outcome``, ``kept``), which the fold keeps equal to ``true_outcome`` and ``kept_coin``."""
    if ins.sequence in UNTIL_A_LOSS and g.outcome == "lost":
        return True
    if ins.sequence in ("until-lose-or-stop", "repeat") and any(c.value == "stop" for c in g.choices):
        return True
    if ins.sequence in ("capped", "chosen") and ins.chosen is not None and made >= ins.chosen:
        return True
    if ins.sequence == "until-both-heads":
        flippers = dict.fromkeys(c.player for c in g.coins)
        return len(flippers) > 1 and all(g.kept.get(who) == "heads" for who in flippers)
    return False


def effective_groups(ins: Instruction) -> list[Group]:
    """The flips the effect actually made, in order. A flip recorded after the effect was over (after the
    first kept loss of an until-lose card, after a stop, past the number chosen, after Mana Clash's
    all-heads round) is a violation of its own (MTG-SEQ-001/003/004/007), not a result: it wins, loses and
    pays nothing, so one extra coin gives one finding rather than a cascade of payoff findings."""
    out: list[Group] = []
    for g in groups_in_order(ins):
        out.append(g)
        if _last_flip_made(ins, g, len(out)):
            break
    return out


def made_groups(ins: Instruction) -> list[Group]:
    """``effective_groups`` as the fold keeps it: the first ``made`` groups (what the rules read)."""
    return groups_in_order(ins)[: ins.made]


def counted(ins: Instruction) -> list[tuple[Group, str | None]]:
    """Each flip the effect made (see ``effective_groups``) with its true outcome, in order: the first
    ``made`` groups, as the fold scored them."""
    return [(g, g.outcome) for g in made_groups(ins)]


def kept_wins(ins: Instruction) -> int:
    return ins.wins


def kept_losses(ins: Instruction) -> int:
    return ins.losses


def kept_sides(ins: Instruction, side: str) -> int:
    """Kept coins showing ``side``, over every flipping player (heads/tails-only cards): the kept sides the fold
    keeps on each group (``kept_coin``)."""
    n = 0
    for g in made_groups(ins):
        stated = stated_group(ins, g.group)
        for who, result in g.kept.items():
            n += ("heads" if stated and who == ins.flipper else result) == side
    return n
