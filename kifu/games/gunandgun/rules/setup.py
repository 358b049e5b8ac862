"""ガンナガン: setup, turn flow and the end of the game (base game).

Sources: ガンナガン非公式wiki「ルール」 §1.1-1.3 ([W56] setup, first player, turn structure),
§1.10 (burn), §1.11 (win/loss), with the options of options.py where they are open.
"""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import REST, Flag, Severity, Step, rule
from kifu.events.i18n import Msg
from kifu.events.base import MatchEnded

from .. import events as ev
from .. import projection as proj

MAIN = (ev.CardPlayed, ev.Loaded, ev.ShotDeclared, ev.SkillUsed, ev.TossGroupOpened)


def _first_by_rule(st: proj.State) -> tuple[set[str], str] | None:
    """(players who may go first, reason) from speed then total gun weight; None if unknown."""
    keys = []
    for pid in st.order:
        p = st.players[pid]
        gunner = proj.gunner_facts(st, p.gunner)
        guns = [proj.gun_facts(st, g) for g in p.guns]
        if gunner is None or not guns or any(g is None for g in guns):
            return None
        keys.append((pid, gunner.speed, sum(g.weight for g in guns)))
    if len(keys) != 2:
        return None
    (a, sa, wa), (b, sb, wb) = keys
    if sa != sb:
        return {a if sa > sb else b}, "speed"
    if wa != wb:
        return {a if wa < wb else b}, "weight"
    return {a, b}, "random"


@rule(
    code="GG-SETUP-001",
    name="first-player-by-speed-then-weight",
    severity=Severity.ERROR,
    on=(ev.FirstPlayerChosen,),
)
def first_player_by_speed_then_weight(s: Step) -> Iterable[Flag]:
    e = s.event
    found = _first_by_rule(s.before.game)
    if found is None:
        yield Flag(e.seq, {"reason": Msg("reason.gg.setups_first")}, undecided=True)
        return
    who, reason = found
    if e.player not in who or e.reason != reason:
        yield Flag(
            e.seq,
            {
                "want": sorted(who),
                "reason": Msg(f"word.gg.first.{reason}"),
                "got": e.player,
                "got_reason": Msg(f"word.gg.first.{e.reason}"),
            },
        )


@rule(
    code="GG-SETUP-002",
    name="skill-belongs-to-gunner",
    severity=Severity.ERROR,
    on=(ev.SetupChosen,),
)
def skill_belongs_to_gunner(s: Step) -> Iterable[Flag]:
    e = s.event
    st = s.before.game
    gunner = proj.gunner_facts(st, e.gunner)
    for name in (e.skill, *e.extra_skills):
        skill = proj.skill_facts(st, name)
        if gunner is None or skill is None:
            yield Flag(
                e.seq,
                {"reason": Msg("reason.gg.card_unknown", card=e.gunner if gunner is None else name)},
                undecided=True,
            )
        elif skill.id not in gunner.skills:
            yield Flag(e.seq, {"skill": name, "gunner": e.gunner})


@rule(
    code="GG-SETUP-004",
    name="skills-per-player-as-allowed",
    severity=Severity.ERROR,
    on=(ev.SetupChosen,),
    options=("skills_per_player",),
)
def skills_per_player_as_allowed(s: Step) -> Iterable[Flag]:
    e = s.event
    if not e.extra_skills:
        return
    allowed = s.options.get("skills_per_player", 1)
    st = s.before.game
    ids = [getattr(proj.skill_facts(st, x), "id", x) for x in (e.skill, *e.extra_skills)]
    if len(ids) > allowed or len(set(ids)) < len(ids):
        yield Flag(e.seq, {"player": e.player, "count": len(ids), "distinct": len(set(ids)), "allowed": allowed})


@rule(
    code="GG-SETUP-003",
    name="starting-life-from-gunner",
    severity=Severity.ERROR,
    on=(ev.SetupChosen,),
)
def starting_life_from_gunner(s: Step) -> Iterable[Flag]:
    e = s.event
    gunner = proj.gunner_facts(s.before.game, e.gunner)
    if e.life is not None and gunner is not None and e.life != gunner.life:
        yield Flag(e.seq, {"gunner": e.gunner, "want": gunner.life, "got": e.life})


def _turn_order(s: Step) -> Msg | None:
    e, st = s.event, s.before.game
    if e.turn != st.turn + 1:
        return Msg("text.gg.turn_follows", turn=e.turn, last=st.turn)
    if e.turn == 1 and st.first is not None and e.player != st.first:
        return Msg("text.gg.turn_one_first", first=st.first)
    owed = st.players[e.player].extra if e.player in st.players else 0
    if e.turn > 1 and e.player == st.active and owed <= 0:
        return Msg("text.gg.turn_twice", player=e.player)
    return None


@rule(
    code="GG-TURN-001",
    name="only-active-player-acts",
    severity=Severity.ERROR,
    on=tuple(t for t in MAIN if t is not ev.TossGroupOpened) + (ev.TurnStarted,),  # group timing: GG-TOSS-005
)
def only_active_player_acts(s: Step) -> Iterable[Flag]:
    # Watches most actions, nearly all by the active player: a plain function that returns at once for them.
    e, st = s.event, s.before.game
    if isinstance(e, ev.TurnStarted):
        why = _turn_order(s)
    elif st.active is None or e.player == st.active:
        return ()  # (no gg.turn events: the log says nothing about whose turn it is)
    elif isinstance(e, ev.Loaded) and e.how != "basic":
        return ()
    elif isinstance(e, ev.SkillUsed) and getattr(proj.skill_facts(st, e.skill), "kind", "") == "response":
        return ()
    else:
        why = Msg("text.gg.acts_in_turn", player=e.player, active=st.active)
    return (Flag(e.seq, {"seq": e.seq, "why": why}),) if why else ()


@rule(
    code="GG-TURN-002",
    name="hand-refilled-to-hand-size",
    severity=Severity.ERROR,
    on=(ev.TurnEnded,),
    options=("deck_out",),
)
def hand_refilled_to_hand_size(s: Step) -> Iterable[Flag]:
    e, st = s.event, s.before.game
    p = st.players.get(e.player)
    gunner = proj.gunner_facts(st, p.gunner) if p else None
    if p is None or gunner is None or not p.drawn:
        return
    if s.options.get("deck_out") == "failed-draw" and p.failed_draw is not None:
        return  # the refill that could not be made is the deck-out (GG-END-002), not a short refill
    size, decks = gunner.hand, sum(g.deck for g in p.guns.values())
    short = p.hand < size and decks > 0
    long = p.refill is not None and p.hand > max(size, p.refill)
    if short or long:
        yield Flag(
            e.seq,
            {"player": e.player, "hand": p.hand, "size": size, "before": p.refill if p.refill is not None else p.hand},
        )


def _burn_due(option: str, counters: int) -> int:
    return 0 if counters <= 0 else 3 if option == "flat" else 3 * counters


@rule(
    code="GG-TURN-003",
    name="burn-at-turn-start",
    severity=Severity.ERROR,
    options=("burn", "burn_counters"),
    on=(ev.LifeChanged,) + MAIN + (ev.TurnEnded,),
)
def burn_at_turn_start(s: Step) -> Iterable[Flag]:
    # Watches every main-phase action, which matters only at a turn's start: asked first, in a plain function.
    e, st = s.event, s.before.game
    if type(e) is ev.LifeChanged:
        return _burn_applied(s) if e.why == "burn" else ()
    if st.phase != "start":
        return ()
    return _burn_missed(s)


def _burn_applied(s: Step) -> Iterable[Flag]:
    """GG-TURN-003 at a burn: once, at the start of the burned player's turn, by what the counters say."""
    e, st = s.event, s.before.game
    p = st.players.get(e.player)
    due = _burn_due(s.options.get("burn", "flat"), p.burn if p else 0)
    if st.phase != "start" or st.active != e.player or p is None or p.burned:
        yield Flag(e.seq, {"player": e.player, "why": Msg("text.gg.burn_once")})
    elif -e.delta != due:
        yield Flag(e.seq, {"player": e.player, "why": Msg("text.gg.burn_amount", got=-e.delta, due=due)})


def _burn_missed(s: Step) -> Iterable[Flag]:
    """GG-TURN-003 at a main-phase action in the turn-start window: the burn came first, and as the option says."""
    e, st = s.event, s.before.game
    pid = getattr(e, "player", None)
    p = st.players.get(pid or "")
    if p is None or pid != st.active or isinstance(e, ev.TossGroupOpened):
        return  # turn-start effects may come in any order; the main phase may not begin before the burn
    if p.burn > 0 and not p.burned:
        yield Flag(e.seq, {"player": pid, "why": Msg("text.gg.burn_skipped", n=p.burn)})
    elif p.burned and p.burn > 0 and s.options.get("burn_counters") == "remove":
        yield Flag(e.seq, {"player": pid, "why": Msg("text.gg.burn_kept")})


@rule(
    code="GG-TURN-004",
    name="turn-end-effects-order",
    severity=Severity.ERROR,
    options=("turn_end_order",),
    on=(ev.EffectResolved,),
)
def turn_end_effects_order(s: Step) -> Iterable[Flag]:
    order = s.options.get("turn_end_order", "any")
    st = s.before.game
    a = st.acts.get(s.event.act)
    if order == "any" or a is None or a.kind != "group-function" or a.player != st.active:
        return
    f = proj.card_facts(st, s.event.card or a.card)
    if getattr(f, "timing", None) != "turn_end":
        return
    refilled = st.players[a.player].refill is not None
    if refilled == (order == "before-refill"):
        yield Flag(
            s.event.seq,
            {"card": f.name, "when": Msg("word.gg.after" if refilled else "word.gg.before"), "order": order},
        )


def _dead(st: proj.State) -> list[str]:
    return [pid for pid, p in st.players.items() if p.gunner is not None and p.life <= 0]


def _decked(st: proj.State, option: str) -> list[str]:
    out = []
    for pid, p in st.players.items():
        decks = [g.deck for g in p.guns.values()]
        if not decks:
            continue
        if (
            (option == "both-empty" and not any(decks))
            or (option == "either-empty" and 0 in decks)
            or (option == "failed-draw" and p.failed_draw is not None)
        ):
            out.append(pid)
    return out


@rule(
    code="GG-END-001",
    name="match-ends-when-life-reaches-zero",
    severity=Severity.ERROR,
    on=(ev.TurnStarted, ev.TurnEnded, MatchEnded),
)
def match_ends_when_life_reaches_zero(s: Step) -> Iterable[Flag]:
    dead = _dead(s.before.game)
    if not dead:
        return
    if isinstance(s.event, MatchEnded):
        if s.event.winner in dead:
            yield Flag(s.event.seq, {"why": Msg("text.gg.winner_dead", winner=s.event.winner)})
    else:
        # the match was over: what is recorded after it is play on after a defeat (one finding)
        yield Flag(s.event.seq, {"why": Msg("text.gg.should_have_ended", players=dead)}, about=REST)


@rule(
    code="GG-END-002",
    name="match-ends-on-deck-out",
    severity=Severity.ERROR,
    options=("deck_out",),
    on=(ev.TurnStarted,),
)
def match_ends_on_deck_out(s: Step) -> Iterable[Flag]:
    option = s.options.get("deck_out", "both-empty")
    for pid in _decked(s.before.game, option):
        yield Flag(s.event.seq, {"player": pid, "option": option}, about=REST)


RULES = (
    first_player_by_speed_then_weight,
    skill_belongs_to_gunner,
    skills_per_player_as_allowed,
    starting_life_from_gunner,
    only_active_player_acts,
    hand_refilled_to_hand_size,
    burn_at_turn_start,
    turn_end_effects_order,
    match_ends_when_life_reaches_zero,
    match_ends_on_deck_out,
)
