"""The World Trigger 1v1 dice game (fan-made): the table after an event, drawn for the match page and
``kifu state -f svg``.

The distance track (1–6, the game's one scale) with each agent's place on it, the first seat at its
start and the other at the distance, and a move declared but not yet resolved drawn where it would
go; per agent: trion (of the 100 dealt), the two triggers set (main and sub, face down until
revealed), the action tags in hand and the plot sheet; the turn's latest plot once revealed: the
attacker's and defender's dice, the faces blocked and the tags the sheet gives; and the open
counter-use chain. Pure (kifu/auditor/board.py).
"""

from __future__ import annotations

from typing import Any

from kifu.auditor import board as b
from kifu.events import i18n
from kifu.events.base import Event
from kifu.projector.base import Frame

from . import events as ev
from .projection import Agent, State, agent, gained

W = 420
TRACK = 66
AGENT = 172
TRION = 100
"""Trion chips dealt to each agent (seed ■1): the length of the trion bar."""
TAG_COLOUR = {"move": "#0891b2", "shooting": "#ea580c", "close": "#9333ea"}


def draw(frame: Frame[State], lang: str, around: b.Around = b.NOTHING) -> b.Picture:
    """The table after ``frame``'s event: the distance, both agents, the plot and the chain."""
    state = frame.game
    t = b.targets(around, lambda e, evidence: _subjects(state, e, evidence))
    players = list(frame.log.players) or list(state.agents)
    y = b.CAPTION
    parts = [_table(state, around, lang, y, t)]
    y += 24
    parts += _track(frame, around, lang, players, y, t)
    y += TRACK + 6
    half = (W - 8) / max(1, len(players))
    for i, pid in enumerate(players):
        parts += _agent(frame, around, lang, pid, 4 + i * half, y, half - 6, t)
    y += AGENT + 8
    parts += _plot(frame, around, lang, y, t)
    y += 66
    parts += _chain(frame, around, lang, y, t)
    y += 74
    return b.picture(frame, around, lang, W, y, parts, i18n.text("board.wt.label", lang, seq=frame.seq), t)


# --- what is outlined ----------------------------------------------------------------------------------


def _subjects(state: State, e: Event | None, evidence: Any) -> list[tuple[Any, ...]]:
    keys: list[tuple[Any, ...]] = []
    player = evidence.get("player") or getattr(e, "player", None) or getattr(e, "attacker", None)
    trigger = evidence.get("trigger") or getattr(e, "trigger", None)
    if isinstance(e, (ev.EffectUsed, ev.Moved)):
        keys.append(("decl", e.seq))
    elif isinstance(e, ev.EffectResolved):
        keys.append(("decl", e.of))
    if trigger and player:
        keys.append(("trigger", player, trigger))
    if isinstance(e, ev.TriggersSet):
        keys += [("trigger", e.player, e.main), ("trigger", e.player, e.sub)]
    if isinstance(e, (ev.Plotted, ev.TagsGained)) or "expected" in evidence:
        keys.append(("plot",))
    if isinstance(e, ev.TagsGained) or "tags" in evidence:
        keys.append(("tags", player))
    if isinstance(e, (ev.TrionChanged, ev.TrionDealt)) or "trion" in evidence:
        keys.append(("trion", player))
    if isinstance(e, (ev.Moved, ev.DistanceFixed, ev.DistanceRolled)) or "distance" in evidence:
        keys.append(("distance",))
    if isinstance(e, ev.SheetMade):
        keys.append(("sheet", e.player))
    if not keys and player in state.agents:
        keys.append(("player", player))
    if not keys and isinstance(e, (ev.OrderDecided, ev.InitialTriggerUsed)):
        keys.append(("table",))
    return keys


# --- the table line and the distance track -----------------------------------------------------------------


def _table(state: State, around: b.Around, lang: str, y: float, t: b.Targets) -> str:
    if state.defeated is not None:
        how = i18n.text(f"word.wt.defeat.{state.defeat_reason or 'trion'}", lang)
        words = i18n.text("board.wt.defeated", lang, who=b.name(around, state.defeated), how=how)
    elif state.turn:
        words = i18n.text("board.wt.turn", lang, turn=state.turn, who=b.name(around, state.first))
        if state.active and state.in_tactics_phase:
            words += " · " + i18n.text("board.wt.tactics", lang, who=b.name(around, state.active))
    else:
        words = i18n.text("board.wt.before", lang)
    t.ring(2, y, W - 4, 20, ("table",), rx=4)
    return b.text(6, y + 14, words, size=12.5, width=W - 12)


def _x(d: float) -> float:
    """Where a distance lies on the track."""
    return 40 + d * (W - 80) / 6


def _track(frame: Frame[State], around: b.Around, lang: str, players: list[str], y: float, t: b.Targets) -> list[str]:
    state = frame.game
    d = state.distance
    ticks = [b.rect(2, y, W - 4, TRACK, fill="#fbfbfd", stroke=b.LINE, rx=8)]
    ticks.append(b.line(_x(0), y + 34, _x(6), y + 34, stroke="#94a3b8", sw=3))
    for i in range(7):
        ticks.append(b.line(_x(i), y + 29, _x(i), y + 39, stroke="#94a3b8", sw=1.5))
        ticks.append(b.text(_x(i), y + 56, i, size=10.5, fill=b.MUTE, anchor="middle"))
    items = [b.group(*ticks)]
    if d is None:
        words = _initial(state, lang)
        items.append(b.text(W / 2, y + 20, words, size=11.5, fill=b.MUTE, anchor="middle", width=W - 24))
    else:
        items.append(
            b.text(W - 12, y + 18, i18n.text("board.wt.distance", lang, d=d), size=12.5, weight="700", anchor="end")
        )
        for to in _pending(state):
            items.append(b.circle(_x(to), y + 34, 9, fill="#ffffff", stroke="#64748b", sw=1.5))
            items.append(
                b.text(
                    _x(to), y + 20, i18n.text("board.wt.pending", lang, d=to), size=10, fill="#64748b", anchor="middle"
                )
            )
        for pid, at in zip(players[:2], (0, d), strict=False):
            mark = b.text(
                _x(at), y + 38, b.name(around, pid)[:1], size=10, fill="#ffffff", anchor="middle", weight="700"
            )
            items.append(
                b.group(
                    b.circle(_x(at), y + 34, 10, fill=b.colour(frame, pid), stroke="#ffffff", sw=2),
                    mark,
                    title=b.name(around, pid),
                )
            )
    t.ring(2, y, W - 4, TRACK, ("distance",), rx=8)
    return items


def _initial(state: State, lang: str) -> str:
    """Before the initial distance is set: the die and the shifts so far."""
    if state.initial_roll is None:
        return i18n.text("board.wt.no_distance", lang)
    shifts = " ".join(f"{u.delta:+d}" for u in state.init_uses)
    return i18n.text("board.wt.initial", lang, roll=state.initial_roll, shifts=shifts or "-")


def _pending(state: State) -> list[int]:
    """Distances that declarations of the open chain would move to, not yet resolved."""
    return [min(6, max(1, d.to)) for d in state.chain if d.to is not None and not d.resolved and d.to != state.distance]


# --- one agent ---------------------------------------------------------------------------------------------


def _agent(
    frame: Frame[State], around: b.Around, lang: str, pid: str, x: float, y: float, w: float, t: b.Targets
) -> list[str]:
    state = frame.game
    a = agent(state, pid)
    before = (
        agent(around.before.game, pid) if around.before is not None and isinstance(around.before.game, State) else a
    )
    items = [
        b.rect(x, y, w, AGENT, fill="#fbfbfd", stroke=b.LINE, rx=8),
        b.rect(x, y, 5, AGENT, fill=b.colour(frame, pid), rx=2),
        b.text(x + 12, y + 18, b.name(around, pid), size=13.5, weight="700", width=w - 20),
        t.ring(x, y, w, AGENT, ("player", pid), rx=8),
    ]
    items += _trion(lang, pid, a, before, x + 12, y + 26, w - 24, t)
    items += _set(lang, pid, a, x + 12, y + 64, w - 24, t)
    items += _tags(lang, pid, a, x + 12, y + 132, w - 24, t)
    items += _sheet(lang, pid, a, x + 12, y + 154, w - 24, t)
    return items


def _trion(lang: str, pid: str, a: Agent, before: Agent, x: float, y: float, w: float, t: b.Targets) -> list[str]:
    if a.dealt_seq is None:
        return [b.text(x, y + 16, i18n.text("board.wt.no_trion", lang), size=11, fill=b.MUTE)]
    share = max(0.0, min(1.0, a.trion / TRION))
    words = i18n.text("board.wt.trion", lang, n=a.trion)
    if a.trion != before.trion and before.dealt_seq is not None:
        words += f" ({a.trion - before.trion:+d})".replace("-", "−")
    return [
        b.text(x, y + 10, words, size=11.5, weight="600"),
        b.rect(x, y + 16, w, 10, fill="#e5e7eb", rx=3),
        b.rect(x, y + 16, w * share, 10, fill="#0ea5e9" if a.trion > 20 else "#dc2626", rx=3),
        t.ring(x - 2, y, w + 4, 28, ("trion", pid), rx=4),
    ]


def _set(lang: str, pid: str, a: Agent, x: float, y: float, w: float, t: b.Targets) -> list[str]:
    """The two triggers set on the table: face up (revealed) solid, face down dashed."""
    items = [b.text(x, y + 8, i18n.text("board.wt.set", lang), size=10.5, fill=b.MUTE)]
    for i, (side, name, up) in enumerate((("main", a.set_main, a.main_face_up), ("sub", a.set_sub, a.sub_face_up))):
        cy = y + 13 + i * 21
        label = i18n.text(f"word.wt.side.{side}", lang)
        items.append(b.text(x, cy + 13, label, size=10, fill=b.MUTE, width=30))
        if name is None:
            items.append(b.rect(x + 34, cy, w - 34, 18, fill="none", stroke=b.LINE, rx=3, dash="2 2"))
            continue
        state_word = i18n.text("board.wt.face_up", lang) if up else i18n.text("board.wt.face_down", lang)
        items += [
            b.rect(
                x + 34,
                cy,
                w - 34,
                18,
                fill="#ffffff" if up else "#eef2f7",
                stroke=b.INK if up else "#94a3b8",
                rx=3,
                dash=None if up else "4 2",
            ),
            b.text(
                x + 40, cy + 13, name, size=11, fill=b.INK if up else b.MUTE, width=w - 46 - b.text_width(state_word, 9)
            ),
            b.text(x + w - 4, cy + 13, state_word, size=9, fill=b.MUTE, anchor="end"),
            t.ring(x + 34, cy, w - 34, 18, ("trigger", pid, name), rx=3),
        ]
    return items


def _tags(lang: str, pid: str, a: Agent, x: float, y: float, w: float, t: b.Targets) -> list[str]:
    items = [b.text(x, y + 8, i18n.text("board.wt.tags", lang), size=10.5, fill=b.MUTE)]
    cx = x + b.text_width(i18n.text("board.wt.tags", lang), 10.5) + 6
    for tag in a.tags[:6]:
        label = _tag(lang, tag)
        tw = b.text_width(label, 10) + 8
        if cx + tw > x + w:
            break
        items += [
            b.rect(cx, y - 3, tw, 15, fill=TAG_COLOUR.get(tag, b.MUTE), rx=7),
            b.text(cx + 4, y + 8, label, size=10, fill="#ffffff"),
        ]
        cx += tw + 3
    if not a.tags:
        items.append(b.text(cx, y + 8, "—", size=10.5, fill=b.MUTE))
    items.append(t.ring(x - 2, y - 5, w + 4, 19, ("tags", pid), rx=4))
    return items


def _sheet(lang: str, pid: str, a: Agent, x: float, y: float, w: float, t: b.Targets) -> list[str]:
    """The plot sheet: the tag of each face 1–6."""
    if not a.sheet:
        return []
    items = [b.text(x, y + 8, i18n.text("board.wt.sheet", lang), size=10.5, fill=b.MUTE)]
    cx = x + b.text_width(i18n.text("board.wt.sheet", lang), 10.5) + 6
    cw = min(22.0, (x + w - cx) / 6)
    for i, tag in enumerate(a.sheet[:6]):
        items += [
            b.rect(
                cx + i * cw,
                y - 3,
                cw - 2,
                15,
                fill=TAG_COLOUR.get(tag, b.MUTE),
                rx=2,
                title=f"{i + 1}: {_tag(lang, tag)}",
            ),
            b.text(cx + i * cw + (cw - 2) / 2, y + 8, i + 1, size=9.5, fill="#ffffff", anchor="middle"),
        ]
    items.append(t.ring(x - 2, y - 5, w + 4, 19, ("sheet", pid), rx=4))
    return items


# --- the plot and the chain ---------------------------------------------------------------------------------------


def _plot(frame: Frame[State], around: b.Around, lang: str, y: float, t: b.Targets) -> list[str]:
    state = frame.game
    items = [b.rect(2, y, W - 4, 60, fill="#f8fafc", stroke=b.LINE, rx=8, dash="4 3")]
    if not state.plots or not state.attack:
        items.append(
            b.text(W / 2, y + 34, i18n.text("board.wt.no_plot", lang), size=11.5, fill=b.MUTE, anchor="middle")
        )
        return items
    attacker = state.active or state.plots[-1]
    blocked = set(state.defence)
    items.append(
        b.text(12, y + 17, i18n.text("board.wt.plot", lang, who=b.name(around, attacker)), size=11.5, weight="600")
    )
    x = 12.0
    for d in state.attack:
        items.append(_die(x, y + 24, d, d in blocked, b.colour(frame, attacker)))
        x += 30
    x += 10
    items.append(b.text(x, y + 42, i18n.text("board.wt.blocks", lang), size=10.5, fill=b.MUTE))
    x += b.text_width(i18n.text("board.wt.blocks", lang), 10.5) + 6
    for d in state.defence:
        items.append(_die(x, y + 24, d, False, "#475569"))
        x += 30
    sheet = agent(state, attacker).sheet
    tags = [_tag(lang, g) for g in gained(sheet, list(state.attack), list(state.defence))]
    words = i18n.text("board.wt.gives", lang, tags=" ".join(tags) or "—")
    items.append(b.text(W - 12, y + 42, words, size=11, anchor="end", width=W - x - 20))
    t.ring(2, y, W - 4, 60, ("plot",), rx=8)
    return items


def _die(x: float, y: float, face: int, blocked: bool, colour: str) -> str:
    out = [
        b.rect(x, y, 24, 24, fill="#ffffff", stroke=colour, sw=2, rx=4),
        b.text(x + 12, y + 17, face, size=14, weight="700", fill=colour, anchor="middle"),
    ]
    if blocked:  # the defender plotted the same face: no tag from it
        out.append(b.line(x + 2, y + 2, x + 22, y + 22, stroke="#dc2626", sw=2))
    return b.group(*out)


def _chain(frame: Frame[State], around: b.Around, lang: str, y: float, t: b.Targets) -> list[str]:
    state = frame.game
    items = [b.text(6, y + 12, i18n.text("board.wt.chain", lang), size=10.5, fill=b.MUTE)]
    if not state.chain:
        items.append(b.text(6, y + 30, i18n.text("board.wt.no_chain", lang), size=11, fill=b.MUTE))
    for i, d in enumerate(state.chain[-3:]):
        cy = y + 18 + i * 19
        what = f"{d.trigger} {d.effect}" if d.trigger else i18n.text("board.wt.move", lang, d=d.to)
        words = f"seq {d.seq} · {b.name(around, d.player)}: {what}"
        if d.counter is not None:
            words += " " + i18n.text("board.wt.counter", lang, seq=d.counter)
        if d.resolved:
            words += " · " + i18n.text("board.wt.resolved", lang)
        items += [
            b.rect(6 + (8 if d.counter is not None else 0), cy, 4, 15, fill=b.colour(frame, d.player), rx=1),
            b.text(
                16 + (8 if d.counter is not None else 0),
                cy + 12,
                words,
                size=11,
                fill=b.MUTE if d.resolved else b.INK,
                width=W - 30,
            ),
            t.ring(4, cy - 1, W - 8, 17, ("decl", d.seq), rx=3),
        ]
    if state.passes:
        passed = ", ".join(b.name(around, p) for p in state.passes)
        items.append(
            b.text(
                W - 6,
                y + 12,
                i18n.text("board.wt.passed", lang, who=passed),
                size=10.5,
                fill=b.MUTE,
                anchor="end",
                width=W / 2,
            )
        )
    return items


def _tag(lang: str, tag: str) -> str:
    """An action tag's word (a tag the game does not know as written)."""
    return i18n.text(f"word.wt.chip.{tag}", lang) if tag in TAG_COLOUR else tag
