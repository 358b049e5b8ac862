"""ガンナガン with the coin-toss variant: the table after an event, drawn for the match page and
``kifu state -f svg``.

Per player, in seat order: the gunner, the skill (face down until used), life, voltage, hand,
discard and burn; each gun with its loads as cells up to its 最大装填数 (face-down bullets dark,
face-up special bullets named, the room left empty, loads a card effect tried to put past the
maximum drawn beyond it and marked ignored, as the variant's FAQ rules), the HIT its loads would
deal and the cards left in its deck. Between the players, the activation in progress: its card,
the tosses so far (facing the tosser or the opponent), N, whether its cost was paid, and its
resolution; or the shot in progress. Pure (kifu/auditor/board.py).
"""

from __future__ import annotations

from typing import Any

from kifu.auditor import board as b
from kifu.events import i18n
from kifu.events.base import Event
from kifu.projector.base import Frame

from . import events as ev
from .projection import Activation, Gun, Player, Shot, State, card_facts, gun_facts, gun_of, skill_facts

W = 420
PANEL = 150
"""Height of one player's panel."""
MIDDLE = 76
"""Height of the activation (or shot) panel between the players."""
CELL = 22
"""Width of one load cell."""
DOWN, UP, EMPTY = "#475569", "#f59e0b", "#ffffff"


def draw(frame: Frame[State], lang: str, around: b.Around = b.NOTHING) -> b.Picture:
    """The table after ``frame``'s event: both players' zones and guns, and the play in progress."""
    state = frame.game
    targets = b.targets(around, lambda e, evidence: _subjects(state, e, evidence))
    y = b.CAPTION
    parts = _table(frame, around, lang, y, targets)
    y += 24
    seats = list(state.order) or list(state.players)
    for i, pid in enumerate(seats):
        p = state.players.get(pid) or Player(id=pid)
        parts += _player(frame, around, lang, p, y, targets)
        y += PANEL
        if i == 0:
            parts += _middle(frame, around, lang, y, targets)
            y += MIDDLE
    label = i18n.text("board.gg.label", lang, seq=frame.seq)
    return b.picture(frame, around, lang, W, y, parts, label, targets)


# --- what is outlined -----------------------------------------------------------------------------


def _subjects(state: State, e: Event | None, evidence: Any) -> list[tuple[Any, ...]]:
    """What a finding (its evidence, and the event it is on) or the event alone is about, most specific first."""
    keys: list[tuple[Any, ...]] = []
    player = evidence.get("player") or getattr(e, "player", None)
    act = evidence.get("act") or getattr(e, "act", None)
    if act:
        keys.append(("act", act))
    shot = evidence.get("shot") or getattr(e, "shot", None)
    if shot and shot in state.shots:
        s = state.shots[shot]
        keys += [("shot", shot), ("gun", s.player, s.gun)]
    for gun in (evidence.get("gun"), getattr(e, "gun", None), getattr(e, "deck", None)):
        keys += _gun_key(state, player, gun)
    if isinstance(e, ev.LifeChanged) and not evidence:
        keys.append(("stat", e.player, "life"))
    elif isinstance(e, ev.BurnChanged) and not evidence:
        keys.append(("stat", e.player, "burn"))
    elif isinstance(e, ev.SkillUsed):
        keys.append(("skill", e.player))
    if not keys and player in state.players:
        keys.append(("player", player))
    if not keys and isinstance(e, (ev.TurnStarted, ev.TurnEnded, ev.FirstPlayerChosen)):
        keys.append(("table",))
    return keys


def _gun_key(state: State, player: str | None, gun: Any) -> list[tuple[Any, ...]]:
    if not isinstance(gun, str):
        return []
    owners = [player] if player in state.players else list(state.players)
    for pid in owners:
        g = gun_of(state, state.players[pid], gun)  # the evidence may name it by its catalogue name
        if g is not None:
            return [("gun", pid, g.name)]
    return []


# --- the table line -----------------------------------------------------------------------------


def _table(frame: Frame[State], around: b.Around, lang: str, y: float, t: b.Targets) -> list[str]:
    s = frame.game
    if s.turn:
        phase = i18n.text(f"word.gg.phase.{s.phase}", lang)
        words = i18n.text("board.gg.turn", lang, turn=s.turn, who=b.name(around, s.active), phase=phase)
    else:
        words = i18n.text("board.gg.setup", lang)
    first = i18n.text("board.gg.first", lang, who=b.name(around, s.first)) if s.first else ""
    t.ring(2, y, W - 4, 20, ("table",), rx=4)
    return [
        b.text(6, y + 14, words, size=12.5, width=W - 150),
        b.text(W - 6, y + 14, first, size=11.5, fill=b.MUTE, anchor="end", width=140),
    ]


# --- one player -----------------------------------------------------------------------------------
# Each figure is a part of its own (kifu/auditor/board.py): an event changes one or two of them, and the
# page keeps only those as new.


def _player(frame: Frame[State], around: b.Around, lang: str, p: Player, y: float, t: b.Targets) -> list[str]:
    before = _before(around, p.id)
    t.ring(4, y + 4, W - 8, PANEL - 12, ("player", p.id))
    parts = [
        b.group(
            b.rect(1, y + 2, W - 2, PANEL - 8, fill="#fbfbfd", stroke=b.LINE, rx=8),
            b.rect(1, y + 2, 6, PANEL - 8, fill=b.colour(frame, p.id), rx=3),
        ),
        b.text(14, y + 20, b.name(around, p.id), size=14, weight="700", width=120),
        b.text(140, y + 20, p.gunner or "", size=12, fill=b.MUTE, width=90),
        *_skills(lang, p, y, t),
        *_stats(lang, p, before, y + 28, t),
    ]
    for i, name in enumerate(p.guns):
        parts += _gun(frame.game, lang, p, p.guns[name], _before_gun(before, name), y + 78 + i * 32, t)
    return parts


def _before(around: b.Around, pid: str) -> Player | None:
    prior = around.before
    return prior.game.players.get(pid) if prior is not None and isinstance(prior.game, State) else None


def _before_gun(before: Player | None, name: str) -> Gun | None:
    return before.guns.get(name) if before is not None else None


def _skills(lang: str, p: Player, y: float, t: b.Targets) -> list[str]:
    """The skill cards, right-aligned on the name line: face down (dashed) until used."""
    parts = []
    x: float = W - 8
    for skill in reversed(p.skills or ((p.skill,) if p.skill else ())):
        if not skill:
            continue
        up = skill in p.skills_up
        label = b.fit(skill, 96, 11)
        w = b.text_width(label, 11) + 14
        x -= w
        state = i18n.text("board.gg.skill_up", lang) if up else i18n.text("board.gg.skill_down", lang)
        box = b.rect(
            x, y + 8, w, 17, fill="#fef3c7" if up else "#ffffff", stroke=b.MUTE, rx=3, dash=None if up else "3 2"
        )
        parts.append(
            b.group(box, b.text(x + 7, y + 20, label, size=11, fill=b.INK if up else b.MUTE), title=f"{skill}: {state}")
        )
        x -= 6
    if parts:
        t.ring(x + 4, y + 8, W - 8 - x - 4, 17, ("skill", p.id), rx=3)
    return parts


STATS = ("life", "voltage", "hand", "discard", "burn")


def _stats(lang: str, p: Player, before: Player | None, y: float, t: b.Targets) -> list[str]:
    """Life large, then voltage, hand, discard and burn counters; a change at this event as ``(−3)``."""
    parts = []
    x = 14.0
    for key in STATS:
        value = getattr(p, key)
        if key == "burn" and not value and not (before and before.burn):
            continue
        old = getattr(before, key) if before is not None else value
        size = 24 if key == "life" else 18
        label = i18n.text(f"word.gg.stat.{key}", lang)
        parts.append(
            b.group(
                b.text(x, y + 10, label, size=10.5, fill=b.MUTE),
                b.text(x, y + 12 + size, value, size=size, weight="700"),
            )
        )
        w = max(b.text_width(str(value), size) + 4, b.text_width(label, 10.5))
        if value != old:
            delta = f"({value - old:+d})".replace("-", "−")
            parts.append(
                b.text(x + b.text_width(str(value), size) + 3, y + 12 + size, delta, size=11, fill=_delta(value - old))
            )
            w = max(w, b.text_width(str(value), size) + b.text_width(delta, 11) + 6)
        t.ring(x - 4, y - 1, w + 8, size + 16, ("stat", p.id, key), rx=4)
        x += w + 16
    parts.append(_in_play(lang, p, x, y))
    return parts


def _delta(d: int) -> str:
    return "#15803d" if d > 0 else "#b91c1c"


def _in_play(lang: str, p: Player, x: float, y: float) -> str:
    """Functions in play and responses set face down, after the counts."""
    items = []
    if p.functions:
        label = i18n.text("board.gg.functions", lang)
        items += [
            b.text(x, y + 10, label, size=10.5, fill=b.MUTE),
            b.text(x, y + 28, " ".join(p.functions), size=11.5, width=W - x - 8),
        ]
    if p.set:
        label = i18n.text("board.gg.set", lang, n=len(p.set))
        yy = y + (36 if p.functions else 10)
        items.append(b.text(x, yy, label, size=10.5, fill=b.MUTE))
        for i in range(min(len(p.set), 6)):
            items.append(b.rect(x + i * 12, yy + 4, 10, 14, fill=DOWN, rx=2))
    return b.group(*items) if items else ""


def _gun(state: State, lang: str, p: Player, g: Gun, before: Gun | None, y: float, t: b.Targets) -> list[str]:
    """One gun: its name, its loads as cells up to the maximum, the ignored ones past it, HIT, deck."""
    facts = gun_facts(state, g.name)
    x0 = 110
    cells = max(g.max or 0, g.loads)
    up_from = g.loads - len(g.up)  # face-up bullets sit on top of the face-down ones
    tip = i18n.text("board.gg.gun_tip", lang, gun=g.name, loads=g.loads, max=_max(g), deck=g.deck)
    parts = [
        b.text(14, y + 15, g.name, size=12.5, weight="600", width=92),
        b.group(*(_cell(x0 + i * CELL, y + 2, i, g, up_from) for i in range(cells)), title=tip),
    ]
    new_from = before.loads if before is not None else g.loads
    for i in range(new_from, g.loads):  # the cells this event loaded
        parts.append(b.rect(x0 + i * CELL - 1, y + 1, CELL - 2, 20, stroke=b.TOUCHED, sw=2, rx=4))
    x = x0 + cells * CELL
    if g.max is not None:
        parts.append(b.line(x + 1, y - 1, x + 1, y + 23, stroke=b.INK, sw=2.5))
    ignored = g.ignored - (before.ignored if before is not None else g.ignored)
    if ignored > 0:  # the load tried to put these past 最大装填数: ignored (the variant's FAQ)
        items = []
        for i in range(min(ignored, 4)):
            cx = x + 5 + i * CELL
            items += [
                b.rect(cx, y + 2, CELL - 4, 18, fill="none", stroke="#b91c1c", rx=3, dash="3 2"),
                b.text(cx + (CELL - 4) / 2, y + 15, "×", size=12, fill="#b91c1c", anchor="middle"),
            ]
        x += 5 + min(ignored, 4) * CELL
        words = i18n.text("board.gg.ignored", lang, n=ignored)  # the cells show the loads; HIT and deck: next event
        items.append(b.text(x + 2, y + 15, words, size=10.5, fill="#b91c1c", width=W - x - 8))
        parts.append(b.group(*items))
    else:
        parts.append(_gun_figures(lang, g, facts, x + 8, y))
    t.ring(8, y - 2, W - 16, 26, ("gun", p.id, g.name), rx=5)
    return parts


def _max(g: Gun) -> str:
    return "?" if g.max is None else str(g.max)


def _cell(x: float, y: float, i: int, g: Gun, up_from: int) -> str:
    if i >= g.loads:
        return b.rect(x, y, CELL - 4, 18, fill=EMPTY, stroke=b.LINE, rx=3)
    up = i >= up_from
    cell = b.rect(x, y, CELL - 4, 18, fill=UP if up else DOWN, rx=3)
    if up:
        name = g.up[i - up_from] if 0 <= i - up_from < len(g.up) else "?"
        cell += b.text(x + (CELL - 4) / 2, y + 13, name[:1], size=11, fill=b.INK, anchor="middle")
    return cell


def _gun_figures(lang: str, g: Gun, facts: Any, x: float, y: float) -> str:
    """``3/3 · HIT 5 · deck 15`` after the cells."""
    words = [f"{g.loads}/{_max(g)}"]
    row = facts.hit_at(g.loads) if facts is not None and g.loads else None
    if row is not None:
        words.append(i18n.text("board.gg.hit", lang, hit=row.hit))
    words.append(i18n.text("board.gg.deck", lang, n=g.deck))
    return b.text(x, y + 15, " · ".join(words), size=11, fill=b.MUTE, width=W - x - 6)


# --- between the players: the activation or the shot in progress ---------------------------------------


def _middle(frame: Frame[State], around: b.Around, lang: str, y: float, t: b.Targets) -> list[str]:
    state = frame.game
    e = around.event
    shot = state.shots.get(getattr(e, "shot", None) or "") if e is not None else None
    act = _activation(state, e)
    box = b.rect(20, y + 4, W - 40, MIDDLE - 12, fill="#f8fafc", stroke=b.LINE, rx=8, dash="4 3")
    if shot is not None and not isinstance(e, (ev.BulletFired, ev.ResponseDeclared)):
        return [box, *_shot(frame, around, lang, shot, y, t)]
    if act is None:
        words = i18n.text("board.gg.no_act", lang)
        return [box, b.text(W / 2, y + MIDDLE / 2 + 4, words, size=11.5, fill=b.MUTE, anchor="middle")]
    return [box, *_act(frame, around, lang, act, y, t)]


def _activation(state: State, e: Event | None) -> Activation | None:
    """The activation the event names, else the latest one of this turn not yet resolved."""
    named = state.acts.get(getattr(e, "act", None) or "") if e is not None else None
    if named is not None:
        return named
    open_ = [a for a in state.acts.values() if a.turn == state.turn and a.resolved is None and state.turn]
    return max(open_, key=lambda a: a.seq) if open_ else None


def _act(frame: Frame[State], around: b.Around, lang: str, a: Activation, y: float, t: b.Targets) -> list[str]:
    p = frame.game.players.get(a.player)
    kind = i18n.text(f"word.gg.{a.kind}", lang) if a.kind in KINDS else a.kind
    title = f"{a.card or a.id} {kind} · {b.name(around, a.player)} ({a.id})"
    items = [
        b.rect(20, y + 4, 5, MIDDLE - 12, fill=b.colour(frame, a.player), rx=2),
        b.text(34, y + 21, title, size=12.5, weight="600", width=W - 150),
        b.text(W - 30, y + 21, f"N = {a.n}", size=15, weight="700", anchor="end"),
    ]
    x = 34.0
    for i, facing in enumerate(a.tosses):  # each toss a part: the next toss adds one
        word = i18n.text(f"word.gg.facing.{facing}", lang)
        w = b.text_width(word, 10.5) + 12
        colour = "#15803d" if facing == "self" else "#b91c1c"
        counted = facing == "self" and "opponent" not in a.tosses[:i]
        items.append(
            b.group(
                b.rect(x, y + 28, w, 17, fill=colour if counted else "#ffffff", stroke=colour, rx=8.5),
                b.text(x + w / 2, y + 40, word, size=10.5, fill="#ffffff" if counted else colour, anchor="middle"),
                title=f"seq {a.toss_seqs[i]}" if i < len(a.toss_seqs) else None,
            )
        )
        x += w + 4
    if not a.tosses:
        items.append(b.text(34, y + 41, i18n.text("board.gg.no_toss", lang), size=11, fill=b.MUTE))
    items.append(_cost(frame.game, lang, a, y))
    uses = p.plays.get(a.card or "", 0) if p is not None and a.kind == "action" else 0
    if uses > 1:
        items.append(
            b.text(W - 30, y + 41, i18n.text("board.gg.uses", lang, n=uses), size=11, fill=b.INK, anchor="end")
        )
    items.append(t.ring(20, y + 4, W - 40, MIDDLE - 12, ("act", a.id), rx=8))
    return items


KINDS = ("action", "function", "response", "bullet", "skill", "gunner", "gun", "group-function", "group-continuous")


def _cost(state: State, lang: str, a: Activation, y: float) -> str:
    """Whether the cost was paid (and when), and the resolution once recorded."""
    words = _cost_words(state, lang, a)
    if a.resolved is not None:
        values = "" if a.values is None else " [" + ", ".join(map(str, a.values)) + "]"
        words += ("  ·  " if words else "") + i18n.text(
            "board.gg.resolved", lang, seq=a.resolved, n=a.rn, values=values
        )
    return b.text(34, y + 61, words, size=11, fill=b.MUTE, width=W - 70)


def _cost_words(state: State, lang: str, a: Activation) -> str:
    if a.cost_seq is not None:
        paid = " ".join(f"{i18n.text(f'word.gg.{k}', lang)} {n}" for k, n in a.costs.items() if k in COSTS)
        return i18n.text("board.gg.cost_paid", lang, seq=a.cost_seq, what=paid)
    facts = (
        card_facts(state, a.card) if a.kind in CARD_KINDS else skill_facts(state, a.card) if a.kind == "skill" else None
    )
    cost = getattr(facts, "cost", None)
    if cost is None:  # a gunner's or gun's ability, an unknown card, a skill's X: nothing to say
        return ""
    if cost == 0:
        return i18n.text("board.gg.no_cost", lang)
    return i18n.text("board.gg.cost_unpaid", lang, n=cost)


CARD_KINDS = ("action", "function", "response", "bullet")
COSTS = ("hand", "voltage", "additional")


def _shot(frame: Frame[State], around: b.Around, lang: str, s: Shot, y: float, t: b.Targets) -> list[str]:
    title = i18n.text("board.gg.shot", lang, who=b.name(around, s.player), gun=s.gun, n=s.loads, shot=s.id)
    mods = " ".join(f"{d:+d}" if to is None else f"→{to}" for _, d, to in s.mods)
    facts = gun_facts(frame.game, s.gun)
    row = facts.hit_at(s.loads) if facts is not None and s.loads else None
    words = []
    if row is not None:
        words.append(i18n.text("board.gg.hit", lang, hit=row.hit))
    if mods:
        words.append(i18n.text("board.gg.mods", lang, mods=mods))
    if s.damage is not None:
        words.append(i18n.text("board.gg.damage", lang, n=s.damage))
    if s.fired:
        words.append(" ".join(s.fired))
    return [
        b.rect(20, y + 4, 5, MIDDLE - 12, fill=b.colour(frame, s.player), rx=2),
        b.text(34, y + 21, title, size=12.5, weight="600", width=W - 70),
        b.text(34, y + 44, " · ".join(words), size=12, width=W - 70),
        t.ring(20, y + 4, W - 40, MIDDLE - 12, ("shot", s.id), rx=8),
    ]
