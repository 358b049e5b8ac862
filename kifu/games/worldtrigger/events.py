"""Events of the fan-made World Trigger 1v1 dice game (ボーダー隊員ソロランク戦ゲーム（仮）).

Rule source: the fan rules, ボーダー隊員ソロランク戦ゲーム（仮）. One event per
fact a table writes down: the build, the plot sheet, trion dealt, the initial
distance (die, trigger uses, result), each turn's order, the triggers set, the
plots and tags, the tactics phase (reveal, use, counter-use, pass, move,
resolution), trion changes and bailout. The winner is the shared ``match.end``.

Payments are part of the event that makes them: the trion in ``wt.reveal``,
``wt.use`` and ``wt.init.use`` and the tags in ``wt.use`` and ``wt.move`` are
taken by the projection; ``wt.trion`` records every other change (damage).
"""

# Annotations not postponed, as in kifu/events/base.py: msgspec would compile each string when it builds the decoder.

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from kifu.events.base import Event, MatchStarted, RngRef

from . import cards

Die = Annotated[int, Meta(ge=1, le=6)]
"""A six-sided die face."""
Distance = Annotated[int, Meta(ge=-20, le=20)]
"""A distance as the table recorded it. The game's scale is 1–6, but a table can
get it wrong (an unclamped initial distance of 8, a move to 7), and that is for
the rules to report, so the decoder only rejects absurd values."""
Trion = Annotated[int, Meta(ge=0)]
"""An amount of trion chips."""
Tag = Literal["move", "shooting", "close"]
"""An action tag: 移動 (move), 射撃戦 (shooting), 近距離戦 (close combat)."""
Slot = Literal["main", "sub"]
"""The main-hand or sub-hand side of a trigger set."""
TwoDice = Annotated[list[Die], Meta(min_length=2, max_length=2)]
"""Exactly two plot dice."""


class BuildChosen(Event, tag="wt.build", kw_only=True):
    """A player's trigger set (the fan rules ■1 トリガーセットの決定)."""

    player: str
    """The player whose agent this is."""
    main: list[str]
    """Main-side slots: trigger names, dedicated options included (they take a slot on their trigger's side)."""
    sub: list[str]
    """Sub-side slots, as for ``main``."""


class SheetMade(Event, tag="wt.sheet", kw_only=True):
    """A player's plot sheet (the fan rules ■1 プロットシートの作成)."""

    player: str
    """The player whose sheet this is."""
    faces: list[Tag]
    """The tag of face 1, 2, … 6 in that order; a sheet must assign all six faces."""


class TrionDealt(Event, tag="wt.deal", kw_only=True):
    """Trion chips handed out at the start (the fan rules ■1 初期トリオン量)."""

    player: str
    """Who received them."""
    trion: Trion
    """How many chips."""


class DistanceRolled(Event, tag="wt.init.roll", kw_only=True):
    """The initial-distance die (the fan rules ■2 ダイスロール)."""

    random = True
    outcomes_each = 1
    value: Die
    """The face rolled: the initial distance before modifications."""
    rng: RngRef | None = None
    """The verifiable roll this is (docs/randomness.md): a 6-sided outcome, its face the value."""

    def outcomes(self) -> tuple[tuple[int, int], ...]:
        return ((6, self.value),)


class InitialTriggerUsed(Event, tag="wt.init.use", kw_only=True):
    """A trigger effect with timing 初期距離決定時 used on the initial distance."""

    player: str
    """Who used it."""
    trigger: str
    """The trigger (one of the player's eight)."""
    effect: str
    """The effect's name in the catalogue."""
    delta: Annotated[int, Meta(ge=-5, le=5)]
    """How much it moved the initial distance (negative: closer)."""
    trion: Trion = 0
    """Trion paid for it."""


class DistanceFixed(Event, tag="wt.init.set", kw_only=True):
    """The initial distance after all modifications and clamping (the fan rules ■2 初期距離の決定)."""

    distance: Distance
    """The distance the battle starts at, as recorded (WT-INIT-001 checks the clamping)."""


class OrderDecided(Event, tag="wt.order", kw_only=True):
    """Who goes first this turn (the fan rules ■3); it starts a new turn."""

    turn: Annotated[int, Meta(ge=1)]
    """Turn number, 1-based."""
    first: str
    """The first (先攻) player; the other player is second."""
    tie_break: Literal["janken", "coin", "die", "other"] | None = None
    """The fair random method used when both had the same trion; null when trion decided it."""


class TriggersSet(Event, tag="wt.set", kw_only=True):
    """The two triggers a player submits for this turn (the fan rules ■4)."""

    player: str
    """Who set them."""
    main: str
    """The main-side trigger."""
    sub: str
    """The sub-side trigger."""
    kept: list[Slot] = []
    """Slots whose face-up trigger from last turn stays on the table face up; all others are set face down."""


class Plotted(Event, tag="wt.plot", kw_only=True):
    """Both players' plot dice for the attacker's turn (the fan rules ■5 プロット)."""

    attacker: str
    """The player whose turn (手番) it is."""
    attack: TwoDice
    """The attacker's two plot dice."""
    defence: TwoDice
    """The defender's two plot dice."""


class TagsGained(Event, tag="wt.tags", kw_only=True):
    """The action tags the attacker took from the plot (the fan rules ■5 行動タグを入手)."""

    player: str
    """The attacker."""
    tags: list[Tag]
    """Every tag gained, one entry per tag (two ``close`` for an unblocked 5,5 on a close/close sheet)."""


class TriggerRevealed(Event, tag="wt.reveal", kw_only=True):
    """A face-down set trigger turned face up, with its reveal cost (the fan rules ■5 手順1)."""

    player: str
    """Whose trigger."""
    trigger: str
    """Which set trigger."""
    trion: Trion = 0
    """Trion paid to turn it face up."""


class EffectUsed(Event, tag="wt.use", kw_only=True):
    """A trigger effect declared with its costs paid (the fan rules ■5 手順2–3).

    With ``counter`` it is a counter-use (対抗使用) against the declaration at
    that seq; otherwise it is a use in the player's own tactics phase.
    """

    player: str
    """Who used it."""
    trigger: str
    """The set trigger whose effect it is."""
    effect: str
    """The effect's name in the catalogue."""
    trion: Trion = 0
    """Trion paid as the effect's cost."""
    tags: list[Tag] = []
    """Action tags paid as the effect's cost."""
    counter: int | None = None
    """Seq of the ``wt.use`` or ``wt.move`` this counters; null for a use in one's own tactics phase."""
    to: Distance | None = None
    """For an effect that moves: the distance after it resolves."""


class Moved(Event, tag="wt.move", kw_only=True):
    """A move declared in the tactics phase (the fan rules ■5 移動を行う場合)."""

    player: str
    """Who moves."""
    to: Distance
    """The distance after the move resolves."""
    tags: list[Tag] = msgspec.field(default_factory=lambda: ["move"])
    """Tags paid: one ``move`` tag."""


class CounterPassed(Event, tag="wt.pass", kw_only=True):
    """A player asked for a counter-use declined (the fan rules ■5 手順3 対抗使用の確認)."""

    player: str
    """Who declined."""


class EffectResolved(Event, tag="wt.resolve", kw_only=True):
    """A declared effect or move applied (the fan rules ■5 手順3: last declared first)."""

    of: int
    """Seq of the ``wt.use`` or ``wt.move`` being applied."""
    cancelled: bool = False
    """True when a counter-use stopped it: it resolves with no effect."""


class TrionChanged(Event, tag="wt.trion", kw_only=True):
    """A change of trion not paid inside another event: damage, mostly."""

    player: str
    """Whose trion."""
    delta: int
    """The change (negative for damage)."""
    source: int | None = None
    """Seq of the effect that caused it, if any."""


class BailedOut(Event, tag="wt.bailout", kw_only=True):
    """A player declared 緊急脱出 (bailout): the opponent wins (the fan rules ■7)."""

    player: str
    """Who bailed out."""


EVENTS: tuple[type[Event], ...] = (
    BuildChosen,
    SheetMade,
    TrionDealt,
    DistanceRolled,
    InitialTriggerUsed,
    DistanceFixed,
    OrderDecided,
    TriggersSet,
    Plotted,
    TagsGained,
    TriggerRevealed,
    EffectUsed,
    Moved,
    CounterPassed,
    EffectResolved,
    TrionChanged,
    BailedOut,
)
"""Every World Trigger event type."""

DECLARATIONS = (EffectUsed, Moved)
"""Events that open or extend a counter-use chain."""


def catalogue(start: MatchStarted) -> Any:
    """The triggers a match played with: the example catalogue plus the log's own."""
    return cards.merged(start.catalogue)


def names(cat: Any) -> list[str]:
    """The trigger and effect names a table types: for completion."""
    return list(cat.triggers) + list(dict.fromkeys(e for t in cat.triggers.values() for e in t.effects))
