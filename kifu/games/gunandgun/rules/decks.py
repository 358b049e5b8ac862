"""ガンナガン: each player plays from the two decks their guns bring (base game).

Sources: reference gunandgun.md §1.1 (each gun has its own 20-card deck; a player plays
with the two decks of their two guns), §2.2 (which cards each deck holds, and how many),
§1.11 with option ``deck_out`` (when an empty deck loses); §1.4-1.5 (a face-up bullet is
fired from the gun it was loaded in), §1.3 (a function acts while it is in play).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

from kifu.auditor.base import Hit, Severity, Step, rule

from .. import events as ev
from .. import projection as proj
from .facts import cat, game, player_gun

DECKS = "reference gunandgun.md §1.1 (機銃デッキ: each gun brings its own 20-card deck), §2.2 (the decks' cards)"


@lru_cache(maxsize=256)
def _decks(ckey: str, guns: tuple[str, ...]) -> tuple[tuple[str, str | None, frozenset[str], bool], ...]:
    """(gun as named at setup, gun id or None, card ids of its deck, deck complete) per gun of a player."""
    c = proj.catalogue(ckey)
    out = []
    for name in guns:
        g = proj.find_gun(c, name)
        if g is None:
            out.append((name, None, frozenset(), False))
        else:
            out.append((name, g.id, frozenset(c.deck(g.id)), c.deck_complete(g.id)))
    return tuple(out)


def deck_verdict(st: proj.State, pid: str, card: str, deck: str | None = None) -> tuple[str, str] | None:
    """Whether ``card`` can come from ``pid``'s decks (or from the one deck named ``deck``).

    None: it can (or the log never set the player up); ("missing", decks) when it cannot;
    ("unknown", reason) when the catalogue cannot tell (an unknown card, or a deck not fully listed).
    """
    p = st.players.get(pid)
    if p is None or not p.guns:
        return None
    decks = _decks(st.ckey, tuple(p.guns))
    if deck is not None:
        g = player_gun(st, pid, deck)
        decks = tuple(d for d in decks if g is not None and d[0] == g.name) or decks
    facts = proj.find_card(cat(st), card)
    if facts is not None and any(gid in facts.copies for _, gid, _, _ in decks):
        return None
    names = ", ".join(d[0] for d in decks)
    if facts is None:
        return "unknown", f"{card} is not in the card catalogue"
    if any(gid is None for _, gid, _, _ in decks):
        return "unknown", f"a gun of {names} is not in the card catalogue, so its deck is unknown"
    return "missing", names  # a known card lists every deck it is in: an unlisted remainder holds none of it


def _named(e: Any) -> Iterable[tuple[str, str | None]]:
    """(card, the deck it must come from or None) for each card the event names as the player's own."""
    if isinstance(e, ev.CardPlayed):
        yield e.card, None
    elif isinstance(e, ev.CardsDrawn):
        for c in e.cards:
            yield c, e.deck
    elif isinstance(e, ev.Loaded) and e.card:
        yield e.card, e.deck if e.zone == "deck" else None
    elif isinstance(e, (ev.CardsDiscarded, ev.CardsMoved)) and e.card:
        yield e.card, e.gun if e.zone == "deck" else None


@rule(
    code="GG-DECK-001", name="cards-come-from-own-decks", severity=Severity.ERROR, citation=DECKS,
    on=(ev.CardPlayed, ev.CardsDrawn, ev.Loaded, ev.CardsDiscarded, ev.CardsMoved),
)
def cards_come_from_own_decks(s: Step) -> Iterable[Hit]:
    e = s.event
    st = game(s.before)
    for card, deck in _named(e):
        verdict = deck_verdict(st, e.player, card, deck)
        if verdict is None:
            continue
        if verdict[0] == "unknown":
            yield Hit(e.seq, {"reason": verdict[1]}, undecided=True)
        else:
            where = deck if deck is not None else verdict[1]
            yield Hit(e.seq, {"player": e.player, "card": card, "decks": where})


def _zone_problem(st: proj.State, e: Any) -> tuple[str, str] | None:
    p = st.players.get(e.player)
    if p is None or not p.drawn:
        return None  # a log written from the middle of a match does not know what is in play
    if isinstance(e, ev.BulletFired):
        shot = st.shots.get(e.shot)
        if shot is None or shot.player != e.player:
            return None
        card = proj.canon(st, e.card) or e.card
        loaded = shot.up.count(card)
        if loaded > shot.fired.count(card) or "?" in shot.up:
            return None
        gun = shot.gun
        if not loaded:
            return (f"{card} was not loaded face up in {gun} when the shot was declared",
                    f"{card} は射撃宣言の時点で {gun} に表向きで装填されていません")
        return (f"{card} was loaded face up in {gun} only {loaded}×", f"{card} は {gun} に表向きで {loaded} 枚しか装填されていません")
    if isinstance(e, ev.TossGroupOpened) and e.kind == "function" and e.card:
        card = proj.canon(st, e.card) or e.card
        if card not in p.functions:
            return f"{card} is not in play for {e.player}", f"{e.player} の場に {card} はありません"
    return None


@rule(
    code="GG-DECK-002", name="card-used-from-its-zone", severity=Severity.ERROR,
    citation="reference gunandgun.md §1.4-1.5 ([N-shoot] 特殊弾: the face-up bullets loaded in the firing gun), "
             "§1.3 (【機能】 act while in play)",
    on=(ev.BulletFired, ev.TossGroupOpened),
)
def card_used_from_its_zone(s: Step) -> Iterable[Hit]:
    why = _zone_problem(game(s.before), s.event)
    if why is not None:
        yield Hit(s.event.seq, {"player": s.event.player, "card": s.event.card, "why": why[0], "why_ja": why[1]})


CONSEQUENCE = {
    "both-empty": ("{player} loses only when both decks are empty; {other} still holds {k}",
                   "両方のデッキが空になるまで {player} は敗北しません。{other} にはまだ {k} 枚あります"),
    "both-empty-out": ("both of {player}'s decks are now empty: {player} loses by deck-out",
                       "{player} のデッキは両方とも空です。デッキ切れで {player} の敗北です"),
    "either-empty": ("{deck} ran out: {player} lost by deck-out when it did",
                     "{deck} が尽きた時点で {player} はデッキ切れで敗北しています"),
    "load": ("a load takes only the cards the deck holds", "装填できるのはデッキにあるカードだけです"),
}


def _consequence(st: proj.State, e: Any, gun: proj.Gun, option: str) -> tuple[str, str]:
    p = st.players[e.player]
    if isinstance(e, ev.Loaded):
        key = "load"
    elif option == "either-empty":
        key = "either-empty"
    else:
        others = [g for g in p.guns.values() if g.name != gun.name]
        k = sum(g.deck for g in others)
        key = "both-empty" if k else "both-empty-out"
        values = {"player": e.player, "other": ", ".join(g.name for g in others), "k": k, "deck": gun.name}
        return tuple(t.format(**values) for t in CONSEQUENCE[key])  # type: ignore[return-value]
    values = {"player": e.player, "deck": gun.name}
    return tuple(t.format(**values) for t in CONSEQUENCE[key])  # type: ignore[return-value]


@rule(
    code="GG-DECK-003", name="no-draw-or-load-past-an-empty-deck", severity=Severity.ERROR,
    citation="reference gunandgun.md §1.1 (each gun deck holds its cards), §1.11 (deck-out)", options=("deck_out",),
    on=(ev.CardsDrawn, ev.Loaded),
)
def no_draw_or_load_past_an_empty_deck(s: Step) -> Iterable[Hit]:
    e = s.event
    if isinstance(e, ev.Loaded):
        if e.zone != "deck" or not e.deck:
            return
        deck = e.deck
    else:
        deck = e.deck
    st = game(s.before)
    g = player_gun(st, e.player, deck)
    if g is None or e.n <= g.deck:
        return
    option = s.options.get("deck_out", "both-empty")
    if isinstance(e, ev.CardsDrawn) and option == "failed-draw":
        return  # the draw that cannot be made is the deck-out itself; play after it is GG-END-002's
    en, ja = _consequence(st, e, g, option)
    yield Hit(e.seq, {"player": e.player, "n": e.n, "deck": deck, "left": g.deck, "option": option,
                      "consequence": en, "consequence_ja": ja})


RULES = (cards_come_from_own_decks, card_used_from_its_zone, no_draw_or_load_past_an_empty_deck)
