"""ガンナガン (トスで決まる枚数ルール): house-ruling options where the sources are silent.

Each is set in ``match.start.rules``; unnamed options take the default. The open
questions they answer are listed in ../shared/reference/gunandgun.md §5.
"""

from __future__ import annotations

from kifu.auditor.base import Option


COST_PAYMENT = Option(
    docs="gg",
    name="cost_payment",
    default="hand",
    choices=("hand", "voltage"),
)
BURN = Option(
    docs="gg",
    name="burn",
    default="flat",
    choices=("flat", "per-counter"),
)
BURN_COUNTERS = Option(
    docs="gg",
    name="burn_counters",
    default="keep",
    choices=("keep", "remove"),
)
DECK_OUT = Option(
    docs="gg",
    name="deck_out",
    default="both-empty",
    choices=("both-empty", "either-empty", "failed-draw"),
)
TURN_END_ORDER = Option(
    docs="gg",
    name="turn_end_order",
    default="any",
    choices=("any", "before-refill", "after-refill"),
)
FUNCTION_FIRST_TOSS = Option(
    docs="gg",
    name="function_first_toss",
    default="next-turn-start",
    choices=("next-turn-start", "on-play"),
)
SHOTS_PER_GUN = Option(
    docs="gg",
    name="shots_per_gun",
    default=1,
    choices=(1, 2, 3, 99),
)
LOAD_TOSS_END = Option(
    docs="gg",
    name="load_toss_end",
    default="cap-or-opponent",
    choices=("cap-or-opponent", "cap", "opponent"),
)

SKILLS_PER_PLAYER = Option(
    docs="gg",
    name="skills_per_player",
    default=1,
    choices=(1, 2, 3),
)

OPTIONS: tuple[Option, ...] = (
    COST_PAYMENT,
    BURN,
    BURN_COUNTERS,
    DECK_OUT,
    TURN_END_ORDER,
    FUNCTION_FIRST_TOSS,
    SHOTS_PER_GUN,
    LOAD_TOSS_END,
    SKILLS_PER_PLAYER,
)
