"""Weiss Schwarz: the table after an event, drawn for the match page and ``kifu state -f svg``.

Per player: the stage (center C1–C3 in front, back B1–B2 behind, each character with its power and
soul now and its state: standing, rested or reversed), the climax zone, the clock (of 7) and the
level zone, the stock, the waiting room (控室), the deck, the hand and memory; the first seat on top
with its front row towards the middle, as the two sides face each other. Between them, the turn,
phase and step, the attack in progress (its attacker, kind, soul, the trigger's icons, counters)
and the damage reveal in progress: each card revealed, a climax that cancels, where they went.
Pure (kifu/auditor/board.py).
"""

from __future__ import annotations

from typing import Any

from kifu.auditor import board as b
from kifu.events import i18n
from kifu.events.base import Event
from kifu.projector.base import Frame

from . import events as ev
from .projection import Side, Slot, State

W = 420
SIDE = 202
"""Height of one player's side."""
MIDDLE = 84
CARD_W, CARD_H = 74, 46
COLUMNS = {"C1": 0, "C2": 1, "C3": 2, "B1": 0.5, "B2": 1.5}
"""Where each slot stands across its row (the back row sits between the center slots)."""
FILL = {"stand": "#ffffff", "rest": "#e2e8f0", "reverse": "#fee2e2"}


def draw(frame: Frame[State], lang: str, around: b.Around = b.NOTHING) -> b.Picture:
    """The table after ``frame``'s event: both sides, the turn and the attack and damage in progress."""
    state = frame.game
    t = b.targets(around, lambda e, evidence: _subjects(state, e, evidence))
    players = list(state.players) or list(frame.log.players)
    y = b.CAPTION
    parts = [_table(state, around, lang, y, t)]
    y += 24
    for i, pid in enumerate(players[:2]):
        parts += _side(frame, around, lang, pid, y, top=i == 0, t=t)
        y += SIDE
        if i == 0:
            parts += _middle(frame, around, lang, y, t)
            y += MIDDLE
    return b.picture(frame, around, lang, W, y, parts, i18n.text("board.ws.label", lang, seq=frame.seq), t)


# --- what is outlined --------------------------------------------------------------------------------------


ZONE_EVENTS = {
    ev.Clocked: "clock",
    ev.LeveledUp: "level",
    ev.Refreshed: "deck",
    ev.RefreshPointPaid: "clock",
    ev.Drew: "hand",
    ev.Discarded: "hand",
    ev.ClimaxPlayed: "climax",
    ev.ClimaxLeft: "climax",
}


def _subjects(state: State, e: Event | None, evidence: Any) -> list[tuple[Any, ...]]:
    keys: list[tuple[Any, ...]] = []
    player = evidence.get("player") or getattr(e, "player", None)
    slot = evidence.get("slot") or getattr(e, "slot", None)
    if isinstance(e, (ev.DamageDealt,)) or "amount" in evidence:
        keys.append(("damage",))
    if isinstance(e, (ev.AttackDeclared, ev.TriggerRevealed, ev.Countered, ev.BattleResolved)) or "attack" in evidence:
        keys.append(("attack",))
    if isinstance(slot, str) and slot in COLUMNS:
        keys.append(("slot", player or state.turn_player, slot))
    zone = ZONE_EVENTS.get(type(e)) if e is not None else None
    if zone and player:
        keys.append(("zone", player, zone))
    if isinstance(e, ev.BattleResolved) and state.attack is not None:
        a = state.attack
        keys += [("slot", a.player, a.slot), ("slot", a.defender, a.slot)]
    if not keys and player in state.sides:
        keys.append(("player", player))
    if not keys and isinstance(e, (ev.TurnStarted, ev.PhaseStarted, ev.PhaseEnded, ev.StepStarted)):
        keys.append(("table",))
    return keys


# --- the turn line --------------------------------------------------------------------------------------------


def _table(state: State, around: b.Around, lang: str, y: float, t: b.Targets) -> str:
    if state.turn:
        where = [i18n.text(f"word.ws.phase.{state.phase}", lang)] if state.phase else []
        if state.step:
            where.append(i18n.text(f"word.ws.step.{state.step}", lang))
        words = i18n.text("board.ws.turn", lang, turn=state.turn, who=b.name(around, state.turn_player))
        words += " · " + " / ".join(where) if where else ""
    else:
        words = i18n.text("board.ws.before", lang)
    t.ring(2, y, W - 4, 20, ("table",), rx=4)
    return b.text(6, y + 14, words, size=12.5, width=W - 12)


# --- one side ------------------------------------------------------------------------------------------------


def _side(frame: Frame[State], around: b.Around, lang: str, pid: str, y: float, top: bool, t: b.Targets) -> list[str]:
    """One player's side, a part per figure and per card (an event changes a few: kifu/auditor/board.py)."""
    state = frame.game
    s = state.side(pid)
    before = around.before.game.side(pid) if around.before is not None and isinstance(around.before.game, State) else s
    lost = pid in state.lost
    t.ring(1, y + 2, W - 2, SIDE - 6, ("player", pid), rx=8)
    items = [
        b.group(
            b.rect(1, y + 2, W - 2, SIDE - 6, fill="#fff1f2" if lost else "#fbfbfd", stroke=b.LINE, rx=8),
            b.rect(1, y + 2, 5, SIDE - 6, fill=b.colour(frame, pid), rx=2),
        ),
        b.text(12, y + 19, b.name(around, pid), size=13.5, weight="700", width=110),
    ]
    if lost:
        items.append(
            b.text(
                W - 10, y + 19, i18n.text("board.ws.lost", lang), size=12, weight="700", fill="#b91c1c", anchor="end"
            )
        )
    items += _counts(lang, pid, s, before, 12, y + 36, t)
    # the first seat faces down the table: its front row is nearer the middle
    front_y, back_y = (y + 100, y + 46) if top else (y + 46, y + 100)
    items += _stage(state, lang, pid, s, front_y, back_y, t)
    items += _zones(lang, pid, s, y + 158, t)
    return items


def _counts(lang: str, pid: str, s: Side, before: Side, x: float, y: float, t: b.Targets) -> list[str]:
    """Deck, hand, stock, waiting room and memory, each with its change at this event."""
    items = []
    for zone in ("deck", "hand", "stock", "waiting", "memory"):
        n, was = getattr(s, zone), getattr(before, zone)
        if zone == "memory" and not n and not was:
            continue
        word = f"{i18n.text(f'word.ws.zone.{zone}', lang)} {n}"
        if n != was:
            word += f"({n - was:+d})".replace("-", "−")
        w = b.text_width(word, 11) + 4
        items.append(
            b.text(x, y, word, size=11, fill=b.INK if n == was else "#0369a1", weight="600" if n != was else None)
        )
        t.ring(x - 2, y - 12, w + 2, 16, ("zone", pid, zone), rx=3)
        x += w + 8
    return items


def _stage(state: State, lang: str, pid: str, s: Side, front_y: float, back_y: float, t: b.Targets) -> list[str]:
    items = []
    for slot, col in COLUMNS.items():
        row_y = front_y if slot.startswith("C") else back_y
        x = 12 + col * (CARD_W + 8)
        items.append(_card(state, lang, pid, slot, s.stage.get(slot), x, row_y, t))
    items.append(_climax(lang, pid, s, 12 + 3 * (CARD_W + 8) + 6, front_y, t))
    return items


def _card(state: State, lang: str, pid: str, slot: str, c: Slot | None, x: float, y: float, t: b.Targets) -> str:
    t.ring(x, y, CARD_W, CARD_H, ("slot", pid, slot), rx=4)
    attacking = (
        state.attack is not None and state.attack.slot == slot and pid in (state.attack.player, state.attack.defender)
    )
    if c is None:
        return b.group(
            b.rect(x, y, CARD_W, CARD_H, fill="none", stroke="#cbd5e1", rx=4, dash="3 3"),
            b.text(x + CARD_W / 2, y + 28, slot, size=10, fill="#94a3b8", anchor="middle"),
        )
    power = f"{c.power_now}" + (f" ({c.power_mod:+d})" if c.power_mod else "")
    items = [
        b.rect(
            x,
            y,
            CARD_W,
            CARD_H,
            fill=FILL.get(c.state, "#ffffff"),
            stroke="#b91c1c" if attacking else "#64748b",
            sw=2 if attacking else 1,
            rx=4,
        ),
        b.text(x + 4, y + 13, c.card, size=10, weight="600", width=CARD_W - 8),
        b.text(x + 4, y + 27, f"P {power}", size=10, width=CARD_W - 8),
        b.text(x + 4, y + 40, f"S{c.soul_now} L{c.level_now}", size=10, fill=b.MUTE),
    ]
    if c.state == "stand":
        items.append(b.text(x + CARD_W - 3, y + 40, slot, size=9, fill="#94a3b8", anchor="end"))
    else:  # rested or reversed says so where the slot's name stands (the tooltip still names the slot)
        word = i18n.text(f"word.ws.state.{c.state}", lang)
        colour = "#b91c1c" if c.state == "reverse" else "#475569"
        items.append(b.text(x + CARD_W - 3, y + 40, word, size=9, fill=colour, anchor="end", weight="700"))
    tip = f"{slot}: {c.card} · {i18n.text(f'word.ws.state.{c.state}', lang)} · P {c.power_now} S {c.soul_now} L {c.level_now}"
    return b.group(*items, title=tip)


def _climax(lang: str, pid: str, s: Side, x: float, y: float, t: b.Targets) -> str:
    w = W - x - 10
    label = i18n.text("word.ws.zone.climax", lang)
    items = [
        b.rect(
            x,
            y,
            w,
            CARD_H,
            fill="#fef9c3" if s.climax else "none",
            stroke="#ca8a04" if s.climax else "#cbd5e1",
            rx=4,
            dash=None if s.climax else "3 3",
        )
    ]
    items.append(b.text(x + 4, y + 13, label, size=9.5, fill=b.MUTE))
    if s.climax:
        items.append(b.text(x + 4, y + 30, s.climax, size=10.5, weight="600", width=w - 8))
    t.ring(x, y, w, CARD_H, ("zone", pid, "climax"), rx=4)
    return b.group(*items)


def _zones(lang: str, pid: str, s: Side, y: float, t: b.Targets) -> list[str]:
    """The clock (7 spaces) and the level zone, each card named in its tooltip."""
    items = [b.text(12, y + 13, i18n.text("word.ws.zone.clock", lang), size=10.5, fill=b.MUTE)]
    x0 = 12 + max(b.text_width(i18n.text("word.ws.zone.clock", lang), 10.5), 30) + 6
    for i in range(7):
        filled = i < len(s.clock)
        items.append(
            b.rect(
                x0 + i * 19,
                y + 2,
                16,
                16,
                fill="#f97316" if filled else "#ffffff",
                stroke="#c2410c" if filled else "#cbd5e1",
                rx=2,
                title=s.clock[i] if filled else None,
            )
        )
    extra = len(s.clock) - 7
    if extra > 0:  # the moment before a level-up: more than 7
        items.append(b.text(x0 + 7 * 19 + 2, y + 14, f"+{extra}", size=11, weight="700", fill="#c2410c"))
    t.ring(x0 - 3, y - 1, 7 * 19 + (24 if extra > 0 else 2), 22, ("zone", pid, "clock"), rx=3)
    clock = b.group(*items)
    lx = x0 + 7 * 19 + 34
    level = i18n.text("board.ws.level", lang, n=len(s.level))
    lw = b.text_width(level, 11) + 6
    cards = [b.rect(lx + lw + i * 19, y + 2, 16, 16, fill="#6366f1", rx=2, title=c) for i, c in enumerate(s.level[:4])]
    t.ring(lx - 3, y - 1, lw + 4 * 19 + 4, 22, ("zone", pid, "level"), rx=3)
    return [clock, b.group(b.text(lx, y + 13, level, size=11, weight="600"), *cards)]


# --- the attack and the damage in progress ---------------------------------------------------------------------------


def _middle(frame: Frame[State], around: b.Around, lang: str, y: float, t: b.Targets) -> list[str]:
    state = frame.game
    a = state.attack
    items = [b.rect(16, y + 4, W - 32, MIDDLE - 8, fill="#f8fafc", stroke=b.LINE, rx=8, dash="4 3")]
    if a is None and state.damage is None:
        items.append(
            b.text(
                W / 2,
                y + MIDDLE / 2 + 4,
                i18n.text("board.ws.no_attack", lang),
                size=11.5,
                fill=b.MUTE,
                anchor="middle",
            )
        )
        return items
    if a is not None:
        side = state.side(a.player).stage.get(a.slot)
        soul = (side.soul_now if side else 0) + a.trigger_soul - (a.defender_level if a.kind == "side" else 0)
        kind = i18n.text(f"word.ws.attack.{a.kind}", lang)
        words = i18n.text(
            "board.ws.attack", lang, who=b.name(around, a.player), slot=a.slot, kind=kind, soul=max(0, soul)
        )
        items.append(b.rect(16, y + 4, 5, MIDDLE - 8, fill=b.colour(frame, a.player), rx=2))
        items.append(b.text(28, y + 21, words, size=12, weight="600", width=W - 56))
        extra = []
        if a.reveals:
            extra.append(i18n.text("board.ws.trigger", lang, n=a.trigger_soul, shots=a.shots))
        if a.counters:
            extra.append(i18n.text("board.ws.counters", lang, n=a.counters))
        if extra:
            items.append(b.text(28, y + 38, " · ".join(extra), size=11, fill=b.MUTE, width=W - 56))
        t.ring(16, y + 4, W - 32, MIDDLE - 8, ("attack",), rx=8)
    if state.damage is not None:
        items.append(_damage(frame, around, lang, y + 52, t))
    return items


def _damage(frame: Frame[State], around: b.Around, lang: str, y: float, t: b.Targets) -> str:
    """The damage reveal: each card, a climax among them marked, and whether it was cancelled."""
    d = frame.game.damage
    assert d is not None
    head = i18n.text("board.ws.damage", lang, who=b.name(around, d.player), n=d.amount)
    items = [b.text(28, y + 12, head, size=11.5, weight="600")]
    x = 28 + b.text_width(head, 11.5) + 8
    for i, card in enumerate(d.cards[:10]):
        cx = i in d.climaxes
        items += [
            b.rect(
                x,
                y + 1,
                14,
                16,
                fill="#fde047" if cx else ("#e2e8f0" if d.cancelled else "#f97316"),
                stroke="#a16207" if cx else "none",
                rx=2,
                title=card,
            ),
        ]
        if cx:
            items.append(b.text(x + 7, y + 13, "CX", size=7, anchor="middle", weight="700"))
        x += 17
    result = i18n.text("board.ws.cancelled", lang) if d.cancelled else i18n.text("board.ws.to_clock", lang)
    items.append(
        b.text(
            x + 4,
            y + 13,
            result,
            size=10.5,
            weight="700",
            fill="#15803d" if d.cancelled else "#c2410c",
            width=W - x - 34,
        )
    )
    t.ring(24, y - 2, W - 48, 22, ("damage",), rx=4)
    return b.group(*items)
