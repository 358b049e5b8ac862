"""Magic coin flips (CR 705): the table after an event, drawn for the match page and ``kifu state -f svg``.

Each player: their flips won and lost as the rules decide them (705.2), the Krark's Thumbs they
control, and what flips paid them (cards, counters, Treasures, life); the watchers and modifiers in
play; and the flip in progress: its card and flipper, called or heads/tails only, how it goes on,
and for each flip the call that counts, every coin as it landed (under Krark's Thumb the kept one
ringed and the ignored ones faded), the kept side and won or lost; Edgar's stated result (705.3);
the payoffs recorded. Pure (kifu/auditor/board.py).
"""

from __future__ import annotations

from typing import Any

from kifu.auditor import board as b
from kifu.events import i18n
from kifu.events.base import Event
from kifu.projector.base import Frame

from .projection import Group, Instruction, State, card_of, controls, groups_in_order, kept_coin

W = 420
ROWS = 6
"""Flips of the instruction shown at most (the latest ones); the panel has room for at least ``FEW``."""
FEW = 3
PAID = 3
"""Payoff lines shown (the latest ones)."""
HEADS, TAILS = "#facc15", "#94a3b8"
LIFE = ("life-gain", "life-loss", "damage")


def draw(frame: Frame[State], lang: str, around: b.Around = b.NOTHING) -> b.Picture:
    """The table after ``frame``'s event: the players' tallies, what is in play, the flip in progress."""
    state = frame.game
    t = b.targets(around, lambda e, evidence: _subjects(state, e, evidence), touched=1)
    y = b.CAPTION
    parts = [_table(state, around, lang, y, t)]
    y += 24
    players = list(state.players) or list(frame.log.players)
    half = (W - 8) / max(1, len(players))
    for i, pid in enumerate(players):
        parts += _player(frame, around, lang, pid, 4 + i * half, y, half - 6, t)
    y += 84
    parts += _in_play(frame, around, lang, y, t)
    y += 50
    rows = _rows(state, around.event)
    parts += _flip(frame, around, lang, y, rows, t)
    y += 58 + rows * 24 + PAID * 16 + 10
    return b.picture(frame, around, lang, W, y, parts, i18n.text("board.mtg.label", lang, seq=frame.seq), t)


# --- what is outlined -----------------------------------------------------------------------------------


def _subjects(state: State, e: Event | None, evidence: Any) -> list[tuple[Any, ...]]:
    keys: list[tuple[Any, ...]] = []
    flip = evidence.get("flip") or getattr(e, "flip", None)
    group = getattr(e, "group", None)
    tname = type(e).__name__
    if flip and tname == "CoinLanded":
        keys.append(("coin", e.seq))  # type: ignore[union-attr]
    elif flip and tname in ("CoinCalled",) and group:
        keys.append(("call", flip, group))
    elif flip and tname == "PayoffApplied":
        keys.append(("payoff", e.seq))  # type: ignore[union-attr]
    elif flip and group:
        keys.append(("group", flip, group))
    if flip:
        keys.append(("flip", flip))
    permanent = evidence.get("permanent") or getattr(e, "permanent", None)
    if permanent:
        keys.append(("permanent", permanent))
    if not keys:
        player = evidence.get("player") or evidence.get("flipper") or getattr(e, "player", None)
        keys.append(("player", player) if player else ("table",))
    return keys


# --- the table and the players ---------------------------------------------------------------------------


def _table(state: State, around: b.Around, lang: str, y: float, t: b.Targets) -> str:
    if state.turn:
        words = i18n.text("board.mtg.turn", lang, turn=state.turn, who=b.name(around, state.active))
    else:
        words = i18n.text("board.mtg.before", lang)
    return b.group(b.text(6, y + 14, words, size=12.5, width=W - 12), t.ring(2, y, W - 4, 20, ("table",), rx=4))


def _player(
    frame: Frame[State], around: b.Around, lang: str, pid: str, x: float, y: float, w: float, t: b.Targets
) -> list[str]:
    state = frame.game
    won, lost = state.wins.get(pid, 0), state.losses.get(pid, 0)
    thumbs = controls(state, pid, "thumb")
    paid = state.paid.get(pid, {})
    items = [
        b.rect(x, y, w, 78, fill="#fbfbfd", stroke=b.LINE, rx=8),
        b.rect(x, y, 5, 78, fill=b.colour(frame, pid), rx=2),
        b.text(x + 12, y + 18, b.name(around, pid), size=13.5, weight="700", width=w - 20),
        b.text(x + 12, y + 38, i18n.text("board.mtg.tally", lang, won=won, lost=lost), size=12.5, width=w - 20),
    ]
    if thumbs:
        items.append(
            b.text(x + w - 8, y + 18, i18n.text("board.mtg.thumbs", lang, n=thumbs), size=11, fill=b.MUTE, anchor="end")
        )
    lines = b.wrap(_paid_words(lang, paid), w - 20, 11)
    for i, line in enumerate(lines):
        items.append(b.text(x + 12, y + 56 + i * 14, line, size=11, fill=b.MUTE))
    t.ring(x, y, w, 78, ("player", pid), rx=8)
    return items


def _paid_words(lang: str, paid: dict[str, int]) -> str:
    life = paid.get("life-gain", 0) - paid.get("life-loss", 0) - paid.get("damage", 0)
    words = [f"{i18n.text(f'word.mtg.{k}', lang)} {n}" for k, n in paid.items() if k not in LIFE]
    if any(k in paid for k in LIFE):
        words.insert(0, i18n.text("board.mtg.life", lang, n=f"{life:+d}".replace("-", "−")))
    return " · ".join(words) or i18n.text("board.mtg.nothing_paid", lang)


# --- what is in play ---------------------------------------------------------------------------------------


def _in_play(frame: Frame[State], around: b.Around, lang: str, y: float, t: b.Targets) -> list[str]:
    state = frame.game
    items = [b.text(6, y + 12, i18n.text("board.mtg.in_play", lang), size=10.5, fill=b.MUTE)]
    x, row = 6.0, 0
    for p in state.permanents.values():
        label = b.fit(f"{_card_name(state, p.card, lang)}", 150, 11)
        w = b.text_width(label, 11) + 18
        if x + w > W - 6:
            x, row = 6.0, row + 1
        if row > 1:
            break
        cy = y + 18 + row * 22
        tip = f"{p.card} · {b.name(around, p.controller)} ({p.permanent})"
        items.append(
            b.group(
                b.rect(x, cy, w, 18, fill="#ffffff", stroke=b.colour(frame, p.controller), sw=1.5, rx=4),
                b.text(x + 9, cy + 13, label, size=11),
                title=tip,
            )
        )
        t.ring(x, cy, w, 18, ("permanent", p.permanent), rx=4)
        x += w + 6
    if not state.permanents:
        items.append(b.text(6, y + 31, i18n.text("board.mtg.nothing_in_play", lang), size=11, fill=b.MUTE))
    return items


def _card_name(state: State, name: str, lang: str) -> str:
    card = card_of(state, name)
    return card.ja if lang == "ja" and card is not None and card.ja else name


# --- the flip in progress -------------------------------------------------------------------------------------


def _rows(state: State, e: Event | None) -> int:
    """Rows of flips the panel makes room for: the instruction's flips, at least ``FEW``, at most ``ROWS``."""
    ins = _instruction(state, e)
    return min(ROWS, max(FEW, len(ins.groups) if ins is not None else 0))


def _flip(frame: Frame[State], around: b.Around, lang: str, y: float, rows: int, t: b.Targets) -> list[str]:
    state = frame.game
    ins = _instruction(state, around.event)
    h = 50 + rows * 24 + PAID * 16
    box = b.rect(2, y, W - 4, h, fill="#f8fafc", stroke=b.LINE, rx=8)
    if ins is None:
        return [
            box,
            b.text(W / 2, y + h / 2, i18n.text("board.mtg.no_flip", lang), size=11.5, fill=b.MUTE, anchor="middle"),
        ]
    title = i18n.text(
        "board.mtg.flip", lang, card=_card_name(state, ins.card, lang), who=b.name(around, ins.flipper), flip=ins.flip
    )
    how = [i18n.text(f"word.mtg.call.{ins.kind}", lang) if ins.kind else i18n.text("word.mtg.call.unknown", lang)]
    if ins.sequence:
        how.append(i18n.text(f"word.mtg.sequence.{ins.sequence}", lang))
    if ins.chosen is not None:
        how.append(i18n.text("board.mtg.chosen", lang, n=ins.chosen))
    if ins.stated:
        how.append(i18n.text("board.mtg.stated", lang))
    items = [
        box,
        b.rect(2, y, 5, h, fill=b.colour(frame, ins.flipper), rx=2),
        b.text(14, y + 18, title, size=12.5, weight="600", width=W - 28),
        b.text(14, y + 36, " · ".join(how), size=11, fill=b.MUTE, width=W - 28),
    ]
    groups = groups_in_order(ins)
    hidden = max(0, len(groups) - rows)
    if hidden:
        items.append(
            b.text(W - 12, y + 36, i18n.text("board.mtg.earlier", lang, n=hidden), size=10.5, fill=b.MUTE, anchor="end")
        )
    for i, g in enumerate(groups[hidden:]):
        items += _group(frame, around, lang, ins, g, y + 46 + i * 24, t, hidden + i < ins.made)
    if not groups:
        items.append(b.text(14, y + 62, i18n.text("board.mtg.no_coin", lang), size=11, fill=b.MUTE))
    items += _payoffs(state, around, lang, ins, y + 50 + rows * 24, t)
    t.ring(2, y, W - 4, h, ("flip", ins.flip), rx=8)  # after its coins: see Targets
    return items


def _instruction(state: State, e: Event | None) -> Instruction | None:
    """The instruction the event names, else the one with the latest event."""
    named = state.flips.get(getattr(e, "flip", None) or "") if e is not None else None
    if named is not None:
        return named
    return max(state.flips.values(), key=lambda f: f.last_seq, default=None)


def _group(
    frame: Frame[State], around: b.Around, lang: str, ins: Instruction, g: Group, y: float, t: b.Targets, made: bool
) -> list[str]:
    """One flip: its number, the call that counts, its coins, the kept side and the outcome (``made``: a flip
    the effect made; one recorded after the effect was over counts nothing). Each coin is a part of its own:
    the next coin adds one."""
    items = [b.text(14, y + 15, f"#{g.group}", size=11, fill=b.MUTE, mono=True)]
    if g.call:
        call = i18n.text("board.mtg.call", lang, side=i18n.text(f"word.mtg.{g.call}", lang))
        items.append(b.text(44, y + 15, call, size=11, width=78))
    items.append(t.ring(42, y + 2, 80, 18, ("call", ins.flip, g.group), rx=3))
    x = 128.0
    flippers = list(dict.fromkeys(c.player for c in g.coins))
    for who in flippers:
        kept = kept_coin(g, who)
        if len(flippers) > 1:
            items.append(b.rect(x, y + 3, 4, 16, fill=b.colour(frame, who), rx=1))
            x += 7
        for c in [c for c in g.coins if c.player == who][:8]:
            items.append(
                _coin(
                    lang,
                    x + 9,
                    y + 11,
                    c.result,
                    c.seq,
                    kept is None or kept.seq == c.seq,
                    kept is not None and kept.seq == c.seq and len([k for k in g.coins if k.player == who]) > 1,
                    t,
                )
            )
            x += 22
        x += 6
    items.append(_verdict(lang, ins, g, y, made))
    return items


def _coin(lang: str, cx: float, cy: float, result: str, seq: int, counts: bool, kept: bool, t: b.Targets) -> str:
    side = i18n.text(f"word.mtg.side.{result}", lang)
    fill = HEADS if result == "heads" else TAILS
    t.ring(cx - 10, cy - 10, 20, 20, ("coin", seq), rx=10)
    return b.group(
        b.circle(
            cx, cy, 9, fill=fill if counts else "#ffffff", stroke=b.INK if kept else fill, sw=2.2 if kept else 1.2
        ),
        b.text(cx, cy + 4, side, size=10, fill=b.INK if counts else b.MUTE, anchor="middle", weight="700"),
        title=f"seq {seq}: {i18n.text(f'word.mtg.{result}', lang)}",
    )


def _verdict(lang: str, ins: Instruction, g: Group, y: float, made: bool) -> str:
    """Won / lost as the rules decide it (or the kept side of a heads/tails-only flip), any outcome the table
    recorded otherwise, the choice made after it; for a flip after the effect was over, that it counts nothing."""
    if not made:
        return b.text(
            W - 12, y + 15, i18n.text("board.mtg.not_made", lang), size=11, fill=b.MUTE, anchor="end", width=190
        )
    colour = b.INK
    if g.outcome:
        word = i18n.text(f"word.mtg.{g.outcome}", lang)
        colour = "#15803d" if g.outcome == "won" else "#b91c1c"
    elif len({c.player for c in g.coins}) == 1 and g.kept.get(ins.flipper):
        word = i18n.text(f"word.mtg.{g.kept[ins.flipper]}", lang)
    else:
        word = ""
    recorded = [o.value for o in g.outcomes if o.player == ins.flipper]
    if recorded and g.outcome and recorded[0] != g.outcome:  # the table wrote otherwise: show both
        word += " " + i18n.text("board.mtg.recorded", lang, outcome=i18n.text(f"word.mtg.{recorded[0]}", lang))
    choice = next((c.value for c in reversed(g.choices)), None)
    if choice:
        word += " · " + i18n.text(f"word.mtg.choice.{choice}", lang)
    return b.text(W - 12, y + 15, word, size=11.5, weight="700", fill=colour, anchor="end", width=150)


def _payoffs(state: State, around: b.Around, lang: str, ins: Instruction, y: float, t: b.Targets) -> list[str]:
    items = []
    for i, p in enumerate(ins.payoffs[-PAID:]):
        who = f" → {b.name(around, p.player)}" if p.player else ""
        by = (
            f" ({_card_name(state, state.permanents[p.permanent].card, lang)})"
            if p.permanent in state.permanents
            else ""
        )
        words = f"{i18n.text(f'word.mtg.{p.kind}', lang)} {p.amount}{who}{by}"
        items.append(b.text(14, y + 12 + i * 16, words, size=11, width=W - 28))
        t.ring(10, y + i * 16, W - 20, 15, ("payoff", p.seq), rx=3)
    return items
