"""ガンナガン: each player plays from the two decks their guns bring (base game).

Sources: ガンナガン非公式wiki「ルール」 §1.1 (each gun has its own 20-card deck; a player plays
with the two decks of their two guns), §2.2 (which cards each deck holds, and how many),
§1.11 with option ``deck_out`` (when an empty deck loses); §1.4-1.5 (a face-up bullet is
fired from the gun it was loaded in), §1.3 (a function acts while it is in play).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from collections.abc import Iterable

from kifu.auditor.base import DECIDED, Flag, Severity, Step, rule
from kifu.events.i18n import Msg

from .. import events as ev
from .. import projection as proj
from .facts import player_gun


@lru_cache(maxsize=256)
def _decks(ckey: str, guns: tuple[str, ...]) -> tuple[tuple[str, str | None, frozenset[str], bool], ...]:
    """(gun as named at setup, gun id or None, card ids of its deck, deck complete) per gun of a player."""
    c = proj.catalogue(ckey)
    out = []
    for name in guns:
        g = None if c is None else c.gun(name)
        if g is None:
            out.append((name, None, frozenset(), False))
        else:
            out.append((name, g.id, frozenset(c.deck(g.id)), c.deck_complete(g.id)))
    return tuple(out)


def deck_verdict(st: proj.State, pid: str, card: str, deck: str | None = None) -> tuple[str, Any] | None:
    """Whether ``card`` can come from ``pid``'s decks (or from the one deck named ``deck``).

    None: it can (or the log never set the player up); ("missing", decks) when it cannot;
    ("unknown", reason) when the catalogue cannot tell (an unknown card, or a deck not fully listed: a ``Msg``).
    """
    p = st.players.get(pid)
    if p is None or not p.guns:
        return None
    g = player_gun(st, pid, deck) if deck is not None else None
    return _verdict(st.ckey, tuple(p.guns), card, g.name if g is not None else None)


@lru_cache(maxsize=4096)
def _verdict(ckey: str, guns: tuple[str, ...], card: str, gun: str | None) -> tuple[str, Any] | None:
    """``deck_verdict`` for a player with ``guns`` (as named at setup), of the one deck of ``gun`` when it is
    one of them: a fact of the catalogue alone, asked for every card drawn, so worked out once."""
    decks = _decks(ckey, guns)
    decks = tuple(d for d in decks if d[0] == gun) or decks
    facts = proj.tables(ckey).cards.get(card)
    if facts is not None and any(gid in facts.copies for _, gid, _, _ in decks):
        return None
    names = ", ".join(d[0] for d in decks)
    if facts is None:
        return "unknown", Msg("reason.gg.card_unknown", card=card)
    if any(gid is None for _, gid, _, _ in decks):
        return "unknown", Msg("reason.gg.deck_unknown", guns=names)
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
    code="GG-DECK-001",
    name="cards-come-from-own-decks",
    severity=Severity.ERROR,
    on=(ev.CardPlayed, ev.CardsDrawn, ev.Loaded, ev.CardsDiscarded, ev.CardsMoved),
)
def cards_come_from_own_decks(s: Step) -> Iterable[Flag]:
    e = s.event
    st = s.before.game
    for card, deck in _named(e):
        verdict = deck_verdict(st, e.player, card, deck)
        if verdict is None:
            continue
        if verdict[0] == "unknown":
            yield Flag(e.seq, {"reason": verdict[1]}, undecided=True)
        else:
            where = deck if deck is not None else verdict[1]
            yield Flag(e.seq, {"player": e.player, "card": card, "decks": where})


def _zone_problem(st: proj.State, e: Any) -> Msg | None:
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
            return Msg("text.gg.bullet_not_loaded", card=card, gun=gun)
        return Msg("text.gg.bullet_loaded_only", card=card, gun=gun, n=loaded)
    if isinstance(e, ev.TossGroupOpened) and e.kind == "function" and e.card:
        card = proj.canon(st, e.card) or e.card
        if card not in p.functions:
            return Msg("text.gg.function_not_in_play", card=card)
    return None


@rule(
    code="GG-DECK-002",
    name="card-used-from-its-zone",
    severity=Severity.ERROR,
    on=(ev.BulletFired, ev.TossGroupOpened),
)
def card_used_from_its_zone(s: Step) -> Iterable[Flag]:
    why = _zone_problem(s.before.game, s.event)
    if why is not None:
        yield Flag(s.event.seq, {"player": s.event.player, "card": s.event.card, "why": why})


def _consequence(st: proj.State, e: Any, gun: proj.Gun, option: str) -> Msg:
    """What the deck running out means under option ``deck_out``."""
    if isinstance(e, ev.Loaded):
        return Msg("text.gg.deck_load")
    if option == "either-empty":
        return Msg("text.gg.deck_either_empty", player=e.player, deck=gun.name)
    others = [g for g in st.players[e.player].guns.values() if g.name != gun.name]
    k = sum(g.deck for g in others)
    if k:
        return Msg("text.gg.deck_both_empty", player=e.player, other=[g.name for g in others], k=k)
    return Msg("text.gg.deck_both_empty_out", player=e.player)


LOSSES = ("text.gg.deck_either_empty", "text.gg.deck_both_empty_out")
"""The consequences of a deck running out that lose the match there (``_consequence``)."""


@rule(
    code="GG-DECK-003",
    name="no-draw-or-load-past-an-empty-deck",
    severity=Severity.ERROR,
    options=("deck_out",),
    on=(ev.CardsDrawn, ev.Loaded),
)
def no_draw_or_load_past_an_empty_deck(s: Step) -> Iterable[Flag]:
    e = s.event
    deck = e.deck
    if type(e) is ev.Loaded and (e.zone != "deck" or not deck):
        return ()
    st = s.before.game
    g = player_gun(st, e.player, deck)
    if g is None or e.n <= g.deck:
        return ()
    option = s.options.get("deck_out", "both-empty")
    if isinstance(e, ev.CardsDrawn) and option == "failed-draw":
        return ()  # the draw that cannot be made is the deck-out itself; play after it is GG-END-002's
    consequence = _consequence(st, e, g, option)
    return (
        Flag(
            e.seq,
            {
                "player": e.player,
                "n": e.n,
                "deck": deck,
                "left": g.deck,
                "option": option,
                "consequence": consequence,
            },
            # where the player lost here, what is recorded after it (a turn started) follows from this loss
            about=DECIDED if consequence.key in LOSSES else None,
        ),
    )


RULES = (cards_come_from_own_decks, card_used_from_its_zone, no_draw_or_load_past_an_empty_deck)
