"""Weiss Schwarz: shared option declarations and small helpers for the rulebook.

Source: WSターンの流れ; the options are the reference's Part B items
marked [to verify], each with the default the seed or the reference suggests.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping, Sequence

from kifu.auditor.base import Flag, Option, Step, Text
from kifu.events.i18n import Msg
from kifu.events.base import Event, event_type

from .. import events as ev
from ..projection import UNKNOWN, Attack, Pending, Slot, State


HAND_LIMIT = Option(
    docs="ws",
    name="hand_limit",
    default=7,
)
BATTLE_TIE = Option(
    docs="ws",
    name="battle_tie",
    default="both",
    choices=("both", "neither"),
)
ENCORE_SAME_SLOT = Option(
    docs="ws",
    name="encore_rested_same_slot",
    default=True,
    choices=(True, False),
)
END_ORDER = Option(
    docs="ws",
    name="end_phase_order",
    default="flow",
    choices=("flow", "any"),
)
COUNTER_BY = Option(
    docs="ws",
    name="counter_by",
    default="defender",
    choices=("defender", "turn-player", "either"),
)
SIDE_ATTACK_LEVEL = Option(
    docs="ws",
    name="side_attack_level",
    default="defender",
    choices=("defender", "attacker"),
)
DECK_SIZE = Option(
    docs="ws",
    name="deck_size",
    default=50,
)

OPTIONS: tuple[Option, ...] = (
    HAND_LIMIT,
    BATTLE_TIE,
    ENCORE_SAME_SLOT,
    END_ORDER,
    COUNTER_BY,
    SIDE_ATTACK_LEVEL,
    DECK_SIZE,
)


def option(options: Mapping[str, Any], declared: Option) -> Any:
    """The match's value of a declared option; its documented default when a caller passes no value."""
    return options.get(declared.name, declared.default)


def tag(event: Event) -> str:
    return event_type(type(event))


_GAME_EVENTS = frozenset(ev.EVENTS)


def is_game_event(event: Event) -> bool:
    """A ``ws.*`` event (not a note, ruling or match event)."""
    return type(event) in _GAME_EVENTS


CLOSERS = (ev.PhaseEnded, ev.PhaseStarted, ev.TurnStarted)
"""Events that can end the phase in progress: its ``ws.phase.end``, or (when that is left out) the next
phase or turn."""


def closed_phase(s: Step) -> str | None:
    """The phase this event ends, or None (a ``ws.phase.end`` of another phase is WS-FLOW-001's finding)."""
    before = s.before.game
    if not before.phase_open:
        return None
    if isinstance(s.event, ev.PhaseEnded):
        return before.phase if s.event.phase == before.phase else None
    if isinstance(s.event, (ev.PhaseStarted, ev.TurnStarted)):
        return before.phase
    return None


UNKNOWN_BOARD = Text(
    ja="ログが ws.board なしで試合の途中から始まっているので、この置場の中身がわかりません",
    en="the log starts mid-match without ws.board, so this zone is not known",
)
UNKNOWN_HAND = Text(
    ja="最初の手札 (ws.draw reason=setup) も ws.board も記録されていないので、手札と山札の枚数がわかりません",
    en="no opening hand (ws.draw reason=setup) or ws.board was recorded, so the hand and deck are not known",
)

PHASE_JA = {
    "stand": "スタンドフェイズ",
    "draw": "ドローフェイズ",
    "clock": "クロックフェイズ",
    "main": "メインフェイズ",
    "climax": "クライマックスフェイズ",
    "attack": "アタックフェイズ",
    "end": "エンドフェイズ",
}
STEP_JA = {
    "declare": "アタック宣言ステップ",
    "trigger": "トリガーステップ",
    "counter": "カウンターステップ",
    "damage": "ダメージステップ",
    "battle": "バトルステップ",
    "encore": "アンコールステップ",
}
"""Seed 003's own names for the phases and steps, so a Japanese message names them as the seed does."""
KIND_JA = {"front": "フロント", "side": "サイド", "direct": "ダイレクト"}


def rule_action_words(due: Any) -> list[Msg]:
    """Rule actions due (``level-up:p1``, ``lose-deck:p2``) as phrases naming the player."""
    out = []
    for key in sorted(due):
        kind, player = key.rsplit(":", 1)
        out.append(Msg("text.ws.rule_action", action=Msg(f"word.ws.action.{kind}"), player=player))
    return out


STATE_JA = {"stand": "スタンド", "rest": "レスト", "reverse": "リバース"}
ROLE_JA = {"attacker": "攻撃側", "defender": "防御側"}


def facing(state: State) -> tuple[Slot, Slot] | None:
    """The attacking character and the one facing it in its column, while both are on the stage; else None."""
    a = state.attack
    if a is None:
        return None
    attacker = state.side(a.player).stage.get(a.slot)
    defender = state.side(a.defender).stage.get(a.slot)
    return None if attacker is None or defender is None else (attacker, defender)


def phase_ja(phase: str | None) -> str:
    return PHASE_JA.get(phase or "", "フェイズの外" if phase is None else f"フェイズ {phase}")


def step_ja(step: str | None) -> str:
    return STEP_JA.get(step or "", "ステップの外" if step is None else f"ステップ {step}")


def ability_named(player: str, ability: str, pending: Sequence[Pending] = ()) -> Msg:
    """An ability as a judge reads it: its controller, the card it is on (where its ``ws.auto`` named one) and
    its id: ``P1 (p1)'s ability of Card (a1)``."""
    card = next((p.card for p in pending if p.ability == ability and p.card), None)
    if card is None:
        return Msg("text.ws.ability", player=player, ability=ability)
    return Msg("text.ws.ability_of", player=player, card=card, ability=ability)


def pending_hit(seq: int, pending: Sequence[Pending], key: str, **evidence: Any) -> Flag:
    """A hit that names waiting abilities under ``key`` (each by controller, card and id) and cites the seqs
    that triggered them."""
    named = [ability_named(p.player, p.ability, (p,)) for p in pending]
    return Flag(seq, {**evidence, key: named}, tuple(p.seq for p in pending))


def undecided(seq: int, reason: Text, seqs: tuple[int, ...] = ()) -> Flag:
    """An info finding: the rule cannot judge this event from what the log records."""
    return Flag(seq, {"reason": reason}, seqs, undecided=True)


def if_known(hit: Flag, known: bool, reason: Text) -> Flag:
    """The hit when the log shows the zone it judged; else the info finding that the rule cannot decide.

    A log that starts mid-match (or without the opening hand) counts a zone from an
    unknown start, so what looks like a violation may only be the missing start.
    """
    return hit if known else undecided(hit.seq, reason)


def attack_named(state: State, a: Attack) -> Msg:
    """An attack as a judge names it: its player, kind, character (where the log named it), slot and seq."""
    slot = state.side(a.player).stage.get(a.slot)
    card = slot.card if slot is not None and slot.card != UNKNOWN else None
    key = "text.ws.attack_of_card" if card else "text.ws.attack_of"
    return Msg(key, player=a.player, kind=Msg(f"word.ws.attack.{a.kind}"), slot=a.slot, card=card, seq=a.seq)
