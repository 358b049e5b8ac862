"""Weiss Schwarz (ヴァイスシュヴァルツ) events: one per step of the turn flow, WSターンの流れ.

Source: WSターンの流れ (the turn flow) and Weiss Schwarz's Comprehensive Rules. The turn player is 甲, the other 乙.

Stage slots are named by the table's columns, the same for both players, so a
character always faces the opponent's character in the same column:
``C1``, ``C2``, ``C3`` (center stage, front row) and ``B1``, ``B2`` (back stage).
Zones are ``deck``, ``hand``, ``clock``, ``level``, ``stock``, ``waiting`` (控室),
``stage``, ``climax``, ``resolution`` (解決領域) and ``memory``.
"""

# Unlike the other games' events (kifu/events/base.py), these annotations stay postponed. msgspec leaves out a
# field equal to its default only when it holds the default object itself: evaluated here, the hyphenated
# strings of a Literal (``"draw-phase"``) would be the defaults' very objects, and a line that writes a default
# out would be re-encoded, and shown on the match page, without it.
from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from kifu.events.base import Event

Phase = Literal["stand", "draw", "clock", "main", "climax", "attack", "end"]
Step = Literal["declare", "trigger", "counter", "damage", "battle", "encore"]
SlotName = Literal["C1", "C2", "C3", "B1", "B2"]
Zone = Literal["deck", "hand", "clock", "level", "stock", "waiting", "stage", "climax", "resolution", "memory"]
Icon = Literal["soul", "draw", "shot", "bounce", "choice", "pool", "treasure", "gate", "standby", "stock"]
AttackKind = Literal["direct", "front", "side"]
Count = Annotated[int, Meta(ge=0)]
Positive = Annotated[int, Meta(ge=1)]

PHASES: tuple[str, ...] = ("stand", "draw", "clock", "main", "climax", "attack", "end")
"""The phase order of every turn (WSターンの流れ; the Comprehensive Rules)."""
SLOTS: tuple[str, ...] = ("C1", "C2", "C3", "B1", "B2")
CENTER: tuple[str, ...] = ("C1", "C2", "C3")


class TurnStarted(Event, tag="ws.turn", kw_only=True):
    """A new turn begins; ``player`` is the turn player (甲) from now on."""

    player: str
    """Player id of the turn player."""
    number: Positive
    """Turn number in the match, counting both players' turns: 1, 2, 3 …"""


class PhaseStarted(Event, tag="ws.phase", kw_only=True):
    """フェイズ開始: a phase of the turn player's turn begins."""

    phase: Phase
    """Which phase."""


class PhaseEnded(Event, tag="ws.phase.end", kw_only=True):
    """フェイズ終了: the phase ends (the end phase ends only when nothing is left to do)."""

    phase: Phase
    """Which phase."""


class StepStarted(Event, tag="ws.step", kw_only=True):
    """A step of the attack phase begins (A. アタック宣言 … F. アンコール)."""

    step: Step
    """``declare``, ``trigger``, ``counter``, ``damage``, ``battle`` or ``encore``."""


class CheckTimingStarted(Event, tag="ws.check", kw_only=True):
    """チェックタイミング: rule actions, then pending abilities one at a time."""


class CheckTimingEnded(Event, tag="ws.check.end", kw_only=True):
    """The check timing ends (WSターンの流れ check timing item 4)."""


class AbilityTriggered(Event, tag="ws.auto", kw_only=True):
    """An automatic ability triggered and now waits to be played (処理待機)."""

    player: str
    """Controller of the ability."""
    ability: str
    """Id of this pending instance, unique in the match (``a12``)."""
    card: str | None = None
    """Card the ability is on, if named."""
    text: str | None = None
    """What the ability does, in words."""


class AbilityResolved(Event, tag="ws.resolve", kw_only=True):
    """One pending ability was chosen and resolved (WSターンの流れ check timing items 2 and 3)."""

    player: str
    """Controller of the ability."""
    ability: str
    """Id given in its ``ws.auto``."""


class Stood(Event, tag="ws.stand", kw_only=True):
    """スタンドフェイズ 3: the turn player's characters stand."""

    player: str
    """Whose characters."""
    slots: list[SlotName] = []
    """Slots stood; empty means all of them."""
    held: list[SlotName] = []
    """Slots an effect keeps rested this stand phase (「次のスタンドフェイズにスタンドしない」, the Comprehensive Rules:
    unless an effect says otherwise); they are not stood, and WS-STAND-001 accepts them."""


class Drew(Event, tag="ws.draw", kw_only=True):
    """Cards drawn from the deck to the hand."""

    player: str
    """Who draws."""
    count: Positive = 1
    """How many cards."""
    reason: Literal["draw-phase", "clock", "effect", "setup", "trigger"] = "draw-phase"
    """Why: the draw phase, the clock phase's two draws, a card effect, the opening hand, a draw icon."""


class Clocked(Event, tag="ws.clock", kw_only=True):
    """クロックフェイズ 3: a card from hand put into the clock."""

    player: str
    """Who clocks."""
    card: str | None = None
    """The card, if named."""


class CharacterPlayed(Event, tag="ws.play.chara", kw_only=True):
    """A character from hand put onto a stage slot (メインフェイズ 3)."""

    player: str
    """Who plays it."""
    card: str
    """Card name or id."""
    slot: SlotName
    """Stage slot it is put on; a character already there goes to the waiting room."""
    level: Count = 0
    """Printed level."""
    power: Count = 0
    """Printed power."""
    soul: Count = 1
    """Printed soul."""
    cost: Count = 0
    """Stock paid (stock to waiting room)."""


class EventPlayed(Event, tag="ws.play.event", kw_only=True):
    """An event card from hand put into the resolution zone and played."""

    player: str
    """Who plays it."""
    card: str
    """Card name or id."""
    cost: Count = 0
    """Stock paid."""


class ActPlayed(Event, tag="ws.act", kw_only=True):
    """An ACT (起動) ability of a character on stage was played."""

    player: str
    """Who plays it."""
    slot: SlotName
    """Slot of the character whose ability it is."""
    ability: str | None = None
    """The ability, in words."""
    cost: Count = 0
    """Stock paid."""
    rest: bool = False
    """True when the cost rested the character."""


class SlotsSwapped(Event, tag="ws.swap", kw_only=True):
    """Two stage slots exchanged (with their markers), by a move in the main phase or by an ability."""

    player: str
    """Whose stage."""
    a: SlotName
    """One slot."""
    b: SlotName
    """The other slot (may be empty)."""
    effect: bool = False
    """True when an ability moved the character (「前列の空いている枠に動かす」), which may happen in any phase
    and on either player's stage; false for the main phase's 舞台の枠と枠の入替 (WSターンの流れ §メインフェイズ 3)."""


class ClimaxPlayed(Event, tag="ws.climax", kw_only=True):
    """クライマックスフェイズ 3: a climax from hand put into the climax zone."""

    player: str
    """Who plays it."""
    card: str
    """Card name or id."""


class ClimaxLeft(Event, tag="ws.climax.leave", kw_only=True):
    """エンドフェイズ 4: the climax in the climax zone goes to the waiting room."""

    player: str
    """Whose climax."""


class AttackDeclared(Event, tag="ws.attack", kw_only=True):
    """アタック宣言ステップ 3: a character attacks; it is rested on declaration."""

    player: str
    """The attacking player."""
    slot: SlotName
    """Slot of the attacker (only center slots may attack: WS-ATK-001); the defender is the opponent's
    character in the same column."""
    kind: AttackKind
    """``direct`` (no opposing character), ``front`` or ``side``."""


class TriggerRevealed(Event, tag="ws.reveal", kw_only=True):
    """トリガーステップ 3–4: the deck's top card put into the resolution zone; its icons apply."""

    player: str
    """The attacking player."""
    card: str | None = None
    """The revealed card, if named."""
    icons: list[Icon] = []
    """Its trigger icons; each ``soul`` gives the attacker +1 soul for this attack."""
    climax: bool = False
    """True when the revealed card is a climax."""
    to: Literal["stock", "hand", "waiting"] = "stock"
    """Where it goes afterwards (トリガーステップ 5: stock; hand for treasure or choice)."""


class Countered(Event, tag="ws.counter", kw_only=True):
    """カウンターステップ: a counter (backup, counter event) played by the defender."""

    player: str
    """Who plays it."""
    card: str | None = None
    """The counter card, if named."""
    power: int = 0
    """Power the defending character gains."""
    cost: Count = 0
    """Stock paid."""


class DamageCard(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """One card revealed for damage."""

    card: str | None = None
    """Card name, if named."""
    climax: bool = False
    """True for a climax: it cancels the damage."""


class DamageDealt(Event, tag="ws.damage", kw_only=True):
    """Damage: cards revealed one by one from the damaged player's deck (ダメージステップ 3)."""

    player: str
    """The damaged player."""
    amount: Count
    """Damage dealt (the attacker's soul for attack damage)."""
    cards: list[DamageCard] = []
    """Cards revealed, in order."""
    cancelled: bool = False
    """True when a revealed climax cancelled it (all revealed cards go to the waiting room)."""
    source: Literal["attack", "effect", "shot"] = "attack"
    """What dealt it: the attack (ソウル分のダメージ), a card effect, a shot trigger."""


class BattleResolved(Event, tag="ws.battle", kw_only=True):
    """バトルステップ 3–4: the powers compared and the lower reversed."""

    attacker_power: int
    """Attacker's power at the comparison."""
    defender_power: int
    """Defender's power at the comparison."""
    reversed: list[Literal["attacker", "defender"]] = []
    """Which characters were reversed."""


class Modified(Event, tag="ws.modify", kw_only=True):
    """An effect changed a character's power, soul or level until the end of the turn."""

    player: str
    """Whose character."""
    slot: SlotName
    """Its slot."""
    power: int = 0
    """Power change."""
    soul: int = 0
    """Soul change."""
    level: int = 0
    """Level change."""


class CharacterReversed(Event, tag="ws.reverse", kw_only=True):
    """A character is reversed by an effect, not by the battle comparison (相打ち, 「リバースする」 effects).

    The encore step then sends it to the waiting room like a character the battle reversed (WSターンの流れ §アタックフェイズ F.3).
    """

    player: str
    """Whose character."""
    slot: SlotName
    """Its slot."""


class CharacterRetired(Event, tag="ws.retire", kw_only=True):
    """A character left the stage for the waiting room (アンコールステップ: a reversed card)."""

    player: str
    """Whose character."""
    slot: SlotName
    """Its slot."""


class Encored(Event, tag="ws.encore", kw_only=True):
    """A character returned from the waiting room to the stage by an encore."""

    player: str
    """Whose character."""
    slot: SlotName
    """The slot it returns to."""
    card: str | None = None
    """The card, if named (default: the one that left that slot)."""
    via: Literal["rule", "ability"] = "rule"
    """``rule``: the encore every character has (3 stock); ``ability``: a card's own encore."""
    stock: Count = 3
    """Stock paid."""
    rested: bool = True
    """True when it returns rested."""


class Discarded(Event, tag="ws.discard", kw_only=True):
    """Cards put from hand into the waiting room."""

    player: str
    """Whose hand."""
    count: Positive = 1
    """How many cards."""
    cards: list[str] = []
    """The cards, if named."""
    reason: Literal["hand-limit", "effect", "cost", "mulligan"] = "hand-limit"
    """Why: the end phase's hand limit (エンドフェイズ 3), an effect, a cost, the mulligan."""


class Moved(Event, tag="ws.move", kw_only=True):
    """Cards moved between zones by an effect or a cost (anything no other event names)."""

    player: str
    """Whose cards."""
    from_: Zone = msgspec.field(name="from")
    """From which zone (written ``from``: ``src`` is the envelope's provenance member)."""
    to: Zone
    """To which zone."""
    count: Positive = 1
    """How many cards."""
    slot: SlotName | None = None
    """The stage slot, when ``from`` or ``to`` is ``stage``."""
    card: str | None = None
    """The card, if named."""


class LeveledUp(Event, tag="ws.levelup", kw_only=True):
    """レベルアップ (rule action, CR 9.3): 1 of 7 clock cards to level, 6 to waiting."""

    player: str
    """Who levels up."""
    card: str | None = None
    """The card put into the level zone, if named."""


class Refreshed(Event, tag="ws.refresh", kw_only=True):
    """リフレッシュ (rule action, CR 9.2): the waiting room becomes the deck."""

    player: str
    """Whose deck."""


class RefreshPointPaid(Event, tag="ws.refresh.point", kw_only=True):
    """The refresh point: the new deck's top card to the clock (not damage)."""

    player: str
    """Whose deck."""
    card: str | None = None
    """The card, if named."""


class SlotRecord(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A character on stage as ``ws.board`` records it."""

    card: str = "?"
    """Card name or id."""
    level: Count = 0
    """Printed level."""
    power: Count = 0
    """Printed power."""
    soul: Count = 1
    """Printed soul."""
    state: Literal["stand", "rest", "reverse"] = "stand"
    """スタンド, レスト or リバース."""


class SideRecord(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """One player's zones as ``ws.board`` records them."""

    player: str
    """Whose zones."""
    deck: Count = 50
    """Cards in the deck."""
    hand: Count = 0
    """Cards in hand."""
    stock: Count = 0
    """Cards in stock."""
    waiting: Count = 0
    """Cards in the waiting room."""
    memory: Count = 0
    """Cards in memory."""
    clock: Count | list[str] = 0
    """The clock: a count, or the cards oldest first (``?`` for an unnamed card)."""
    level: Count | list[str] = 0
    """The level zone: a count, or the cards."""
    climax: str | None = None
    """The card in the climax zone."""
    stage: dict[SlotName, SlotRecord] = {}
    """Occupied stage slots."""


class BoardRecorded(Event, tag="ws.board", kw_only=True):
    """The position when a log starts mid-match (an excerpt for a dispute): zones, turn and phase.

    Put it right after ``match.start``; the events after it continue from this position.
    """

    sides: list[SideRecord]
    """Each player's zones (players left out keep the starting position)."""
    turn: Count = 0
    """The turn number in the match (1 is the first player's first turn); 0 before any turn."""
    turn_player: str | None = None
    """The turn player, if a turn is in progress."""
    first_player: str | None = None
    """Who took turn 1, if known."""
    phase: Phase | None = None
    """The phase in progress (it has begun; earlier phases of this turn are done)."""


class GameLost(Event, tag="ws.lose", kw_only=True):
    """A player lost (CR 1.2.2); ``match.end`` follows."""

    player: str
    """The losing player."""
    reason: Literal["level", "deck", "concede", "effect"]
    """``level``: 4 level cards; ``deck``: deck and waiting room empty; or conceded, or an effect."""


EVENTS: tuple[type[Event], ...] = (
    TurnStarted,
    PhaseStarted,
    PhaseEnded,
    StepStarted,
    CheckTimingStarted,
    CheckTimingEnded,
    AbilityTriggered,
    AbilityResolved,
    Stood,
    Drew,
    Clocked,
    CharacterPlayed,
    EventPlayed,
    ActPlayed,
    SlotsSwapped,
    ClimaxPlayed,
    ClimaxLeft,
    AttackDeclared,
    TriggerRevealed,
    Countered,
    DamageDealt,
    BattleResolved,
    Modified,
    CharacterRetired,
    Encored,
    Discarded,
    Moved,
    LeveledUp,
    Refreshed,
    RefreshPointPaid,
    GameLost,
    BoardRecorded,
    CharacterReversed,
)
