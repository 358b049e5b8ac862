"""ガンナガン (Gun and Gun) played with the coin-toss variant: the ``gg.*`` events.

Rule sources: the coin-toss variant, トスで決まる枚数ルール (N = tosses facing the tosser
before the first toss facing the opponent), and the base game's rules. An *activation* (``act``, e.g. ``"a12"``) ties together everything one use of
a card, skill or effect records: the costs paid, the coin tosses and the
resolution. Function cards and continuous skills toss once at the owner's turn
start for a *turn toss group* (``gg.group``), whose id is used as ``act`` too.
"""

# Annotations not postponed, as in kifu/events/base.py: msgspec would compile each string when it builds the decoder.

from typing import Annotated, Any, ClassVar, Literal

from msgspec import Meta

from kifu.events.base import Event, MatchStarted, RngRef

from . import cards

Count = Annotated[int, Meta(ge=0)]
Turn = Annotated[int, Meta(ge=1)]
ActId = Annotated[str, Meta(min_length=1, max_length=40)]
Kind = Literal["action", "function", "response", "bullet"]


class SetupChosen(Event, tag="gg.setup", kw_only=True):
    """One player's setup: gunner, two guns and the hidden skill."""

    player: str
    """The player id."""
    gunner: str
    """The gunner (id or Japanese name in the card catalogue)."""
    guns: Annotated[list[str], Meta(min_length=2, max_length=2)]
    """The two guns, left then right; later events name a gun (and its deck) by this string."""
    skill: str
    """The skill chosen face down (recorded for the judge; hidden from the opponent)."""
    life: Annotated[int, Meta(ge=1)] | None = None
    """Starting life as played; null means the gunner's life from the catalogue (30)."""
    deck: Annotated[int, Meta(ge=0)] | None = None
    """Cards in each gun deck at the start; null means each gun's own deck as the rules build it (its
    catalogue ``deck_size``, 20)."""
    extra_skills: list[str] = []
    """Further skills of the same gunner, where option ``skills_per_player`` allows several (the coin-toss variant
    §継続技能等: several continuous skills share one turn-start toss)."""


class FirstPlayerChosen(Event, tag="gg.first", kw_only=True):
    """Who goes first, and why."""

    player: str
    """The first player."""
    reason: Literal["speed", "weight", "random"]
    """Higher gunner speed; on a tie lower total gun weight; on a tie again at random."""


class TurnStarted(Event, tag="gg.turn", kw_only=True):
    """A player's turn begins (turn-start effects follow, then the main phase)."""

    player: str
    """The active player."""
    turn: Turn
    """Turn number of the match, 1 for the first turn."""


class TurnEnded(Event, tag="gg.turn.end", kw_only=True):
    """A player's turn ends (after the down phase's refill)."""

    player: str
    """The active player."""
    turn: Turn
    """Turn number of the match."""


class CardsDrawn(Event, tag="gg.draw", kw_only=True):
    """Cards drawn from one gun deck into the hand."""

    player: str
    """Who draws."""
    deck: str
    """The gun whose deck is drawn from."""
    n: Count
    """How many cards."""
    why: Literal["opening", "refill", "effect"]
    """Opening hand, the down phase's refill, or a card/skill effect."""
    act: ActId | None = None
    """The activation whose effect draws (``why: effect``)."""
    cards: list[str] = []
    """The cards drawn, by name, where the table saw them; each must be in that deck (GG-DECK-001)."""


class CardPlayed(Event, tag="gg.play", kw_only=True):
    """A card used from the hand: an action or function activated, or a response set face down."""

    act: ActId
    """New activation id."""
    player: str
    """Who uses the card."""
    card: str
    """The card (id or Japanese name)."""
    kind: Literal["action", "function", "response"]
    """Action and function: activated now; response: set face down (declared later)."""


class ResponseDeclared(Event, tag="gg.respond", kw_only=True):
    """A set response revealed at response timing; its toss follows."""

    act: ActId
    """The activation opened when the response was set."""
    player: str
    """The response's owner."""
    against: str | None = None
    """The shot id or skill activation it answers."""


class BulletFired(Event, tag="gg.bullet", kw_only=True):
    """A face-up special bullet's on-shot effect, opened at the shot declaration."""

    act: ActId
    """New activation id."""
    player: str
    """The shooter."""
    shot: str
    """The shot id."""
    card: str
    """The bullet card."""


class SkillUsed(Event, tag="gg.skill", kw_only=True):
    """A skill declared (it turns face up); its voltage cost follows."""

    act: ActId
    """New activation id."""
    player: str
    """Who uses it."""
    skill: str
    """The skill (id or Japanese name)."""


class AbilityUsed(Event, tag="gg.ability", kw_only=True):
    """A gunner effect or a gun's own effect: never tossed (the coin-toss variant §ルール適用の例外)."""

    act: ActId
    """New activation id."""
    player: str
    """Whose gunner or gun."""
    source: Literal["gunner", "gun"]
    """A gunner effect or a gun's inherent effect."""
    name: str
    """The gunner or gun."""


class TossGroupOpened(Event, tag="gg.group", kw_only=True):
    """A turn toss group at the owner's turn start: one per kind of function card, one for all continuous skills."""

    act: ActId
    """New id of the group (used as ``act`` by its tosses and resolutions)."""
    player: str
    """The owner."""
    kind: Literal["function", "continuous"]
    """Function cards of one name, or every continuous skill together."""
    card: str | None = None
    """The function card's name (null for continuous skills)."""
    copies: Annotated[int, Meta(ge=1)] = 1
    """Copies of that function in play; the one N applies to each."""


class CostPaid(Event, tag="gg.cost", kw_only=True):
    """A cost paid for an activation."""

    act: ActId
    """The activation."""
    player: str
    """Who pays."""
    kind: Literal["hand", "voltage", "additional"]
    """Hand cards discarded, voltage cards spent, or an additional cost (a gun's loads discarded)."""
    n: Count
    """How many cards."""
    gun: str | None = None
    """The gun whose loads pay an additional cost."""


class CostRefunded(Event, tag="gg.refund", kw_only=True):
    """Cards given back for a cost already paid (the variant never refunds)."""

    act: ActId
    """The activation."""
    player: str
    """Who got them back."""
    kind: Literal["hand", "voltage", "additional"]
    """Which cost."""
    n: Count
    """How many cards."""


class CoinTossed(Event, tag="gg.toss", kw_only=True):
    """One coin toss of the coin-toss variant."""

    random: ClassVar[bool] = True
    outcomes_each = 1
    act: ActId
    """The activation or turn toss group this toss decides."""
    player: str
    """The tosser."""
    facing: Literal["self", "opponent"]
    """Which way the coin faced: the tosser or the opponent."""
    rng: RngRef | None = None
    """The verifiable toss this is (docs/randomness.md): a coin whose face 1 faces the tosser, 2 the opponent."""

    def outcomes(self) -> tuple[tuple[int, int], ...]:
        return ((2, 1 if self.facing == "self" else 2),)


class EffectResolved(Event, tag="gg.resolve", kw_only=True):
    """An activation resolves with N replacing its card's numbers."""

    act: ActId
    """The activation or turn toss group."""
    player: str
    """The owner."""
    n: Count
    """N as the table counted it."""
    values: list[int] | None = None
    """Each number of the card's effect as applied, in catalogue order."""
    card: str | None = None
    """For a continuous group: which skill resolves; otherwise the activation's card."""
    outcome: Literal["applied", "fizzled"] = "applied"
    """``fizzled``: a response whose condition failed goes to the discard with no effect."""
    measured: int | None = None
    """The quantity the card's threshold compares (incoming HIT, load count, life)."""
    holds: bool | None = None
    """Whether the table judged the threshold condition to hold."""
    cmp: Literal["ge", "le"] = "ge"
    """How the threshold compares: measured ≥ it (most cards) or ≤ it (life conditions)."""


class Loaded(Event, tag="gg.load", kw_only=True):
    """Cards put into one of the player's guns."""

    player: str
    """The gun's owner."""
    gun: str
    """The gun."""
    n: Count = 1
    """Cards loaded; a face-up load is one card (n stays 1), and a face-up ダブルバレット then counts as
    2 loads by itself."""
    face: Literal["up", "down"] = "down"
    """Face up (a 【銃弾】 as a special bullet) or face down (a normal bullet)."""
    zone: Literal["hand", "deck", "discard", "voltage"] = "hand"
    """Where the cards came from (``src`` is the envelope's provenance)."""
    how: Literal["basic", "effect"] = "basic"
    """The basic action (counts against 装填上限) or a card effect."""
    card: str | None = None
    """The card loaded face up (or named)."""
    deck: str | None = None
    """The deck drawn from, when ``zone`` is ``deck``."""
    act: ActId | None = None
    """The activation whose effect loads."""


class ShotDeclared(Event, tag="gg.shoot", kw_only=True):
    """A shot declared with one gun; its loads move to voltage."""

    shot: ActId
    """New shot id."""
    player: str
    """The shooter."""
    gun: str
    """The gun."""


class HitModified(Event, tag="gg.hit", kw_only=True):
    """A HIT modifier applied to a shot, in the order applied."""

    shot: str
    """The shot."""
    player: str
    """Whose effect modifies it."""
    stage: Literal["effect", "bullet", "response", "replace"]
    """Effect modifiers, then special bullets, then responses, then replacements."""
    delta: int = 0
    """Change to the HIT (stages effect, bullet, response)."""
    to: Annotated[int, Meta(ge=0)] | None = None
    """New HIT (stage replace)."""
    act: ActId | None = None
    """The activation that modifies it."""


class LifeChanged(Event, tag="gg.life", kw_only=True):
    """A player's life goes up or down."""

    player: str
    """Whose life."""
    delta: int
    """Change: negative for HIT, loss and burn; positive for healing."""
    why: Literal["hit", "loss", "heal", "burn"]
    """HIT dealt, life lost, life healed, or burn at turn start."""
    shot: str | None = None
    """The shot that dealt it."""
    act: ActId | None = None
    """The activation that caused it."""


class BurnChanged(Event, tag="gg.burn", kw_only=True):
    """Burn counters given to or removed from a gunner."""

    player: str
    """Whose gunner."""
    delta: int
    """Counters added (negative: removed)."""
    act: ActId | None = None
    """The activation (or gun effect) that gave them."""


class CardsDiscarded(Event, tag="gg.discard", kw_only=True):
    """Cards moved to the discard by an effect or a rule (costs use gg.cost)."""

    player: str
    """Whose cards."""
    zone: Literal["hand", "voltage", "load", "set", "function", "deck"]
    """The zone they leave."""
    n: Count = 1
    """How many."""
    gun: str | None = None
    """The gun (loads) or deck (mill)."""
    card: str | None = None
    """The card, when one is named."""
    act: ActId | None = None
    """The activation that discards them."""


class CardsMoved(Event, tag="gg.move", kw_only=True):
    """Cards moved by an effect between zones other than a draw, a load, a cost or a discard.

    Examples: ヒバナ's cards into voltage, クールダウン (voltage to hand), RETRIEVAL and
    ジャストアイディア (discard to hand), リサイクル and グッドメディスン (discard to a deck),
    多重力光球 (itself to a deck bottom).
    """

    player: str
    """Whose cards."""
    zone: Literal["hand", "deck", "discard", "voltage", "load", "set", "function"]
    """The zone they leave."""
    to: Literal["hand", "deck", "voltage"]
    """The zone they enter (the discard is ``gg.discard``, a gun ``gg.load``)."""
    n: Count = 1
    """How many cards."""
    gun: str | None = None
    """The gun whose deck they leave or enter (``zone`` or ``to`` is ``deck``), or whose loads they leave."""
    card: str | None = None
    """The card, when one is named."""
    act: ActId | None = None
    """The activation (or gunner / gun effect) that moves them."""


EVENTS: tuple[type[Event], ...] = (
    SetupChosen,
    FirstPlayerChosen,
    TurnStarted,
    TurnEnded,
    CardsDrawn,
    CardPlayed,
    ResponseDeclared,
    BulletFired,
    SkillUsed,
    AbilityUsed,
    TossGroupOpened,
    CostPaid,
    CostRefunded,
    CoinTossed,
    EffectResolved,
    Loaded,
    ShotDeclared,
    HitModified,
    LifeChanged,
    BurnChanged,
    CardsDiscarded,
    CardsMoved,
)
"""Every gg.* event type, in the order a turn usually shows them."""


def catalogue(start: MatchStarted) -> Any:
    """The card catalogue a match plays with: the built-in cards, overlaid by the log's own.

    A catalogue that does not fit the schema raises a KifuError naming the field, so a log
    that brings a bad one fails ``kifu verify`` like any other malformed line.
    """
    return cards.for_match(start)


def names(cat: Any) -> list[str]:
    """The names a table types (cards, guns by full and short name, gunners, skills): for completion."""
    return (
        [c.name for c in cat.cards]
        + [g.name for g in cat.guns]
        + [g.short_name for g in cat.guns]
        + [g.name for g in cat.gunners]
        + [s.name for s in cat.skills]
    )
