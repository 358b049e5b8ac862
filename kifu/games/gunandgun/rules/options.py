"""ガンナガン (seed 000 coin-toss variant): house-ruling options where the sources are silent.

Each is set in ``match.start.rules``; unnamed options take the default. The open
questions they answer are listed in ../shared/reference/gunandgun.md §5.
"""

from __future__ import annotations

from kifu.auditor.base import Option

REF = "reference gunandgun.md"

COST_PAYMENT = Option(
    name="cost_payment", default="hand", choices=("hand", "voltage"),
    citation=f"{REF} §1.7, §5 Q1 [APP] Card.cs",
)
BURN = Option(
    name="burn", default="flat", choices=("flat", "per-counter"),
    citation=f"{REF} §1.10, §5 Q2 [APP] ResolveBurnCounters",
)
BURN_COUNTERS = Option(
    name="burn_counters", default="keep", choices=("keep", "remove"),
    citation=f"{REF} §1.10, §5 Q2",
)
DECK_OUT = Option(
    name="deck_out", default="both-empty", choices=("both-empty", "either-empty", "failed-draw"),
    citation=f"{REF} §1.11, §5 Q3 [APP] LoseWhenBothDecksAreDepleted",
)
TURN_END_ORDER = Option(
    name="turn_end_order", default="any", choices=("any", "before-refill", "after-refill"),
    citation=f"{REF} §1.3, §5 Q6",
)
FUNCTION_FIRST_TOSS = Option(
    name="function_first_toss", default="next-turn-start", choices=("next-turn-start", "on-play"),
    citation="seed 000 §カード処理ごとのトス実行タイミング (【機能】)",
)
SHOTS_PER_GUN = Option(
    name="shots_per_gun", default=1, choices=(1, 2, 3, 99),
    citation=f"{REF} §1.5, §5 Q4",
)
LOAD_TOSS_END = Option(
    name="load_toss_end", default="cap-or-opponent", choices=("cap-or-opponent", "cap", "opponent"),
    citation="seed 000 §ルール適用の例外 (原則として相手側が出るまでトスを続けるが、…残りの装填可能枚数が多い方を基準に"
             "処理する。各機銃が装填上限に達した場合はそこで止まる) / FAQ (トスで8になった場合は5で止まります)",
)

SKILLS_PER_PLAYER = Option(
    name="skills_per_player", default=1, choices=(1, 2, 3),
    citation=f"{REF} §1.1 (one skill, chosen from the gunner's three) / seed 000 §継続技能等 "
             "(複数の継続技能がある場合でも、ターン開始時の1回のトスで全て処理する)",
)

OPTIONS: tuple[Option, ...] = (
    COST_PAYMENT, BURN, BURN_COUNTERS, DECK_OUT, TURN_END_ORDER, FUNCTION_FIRST_TOSS, SHOTS_PER_GUN, LOAD_TOSS_END,
    SKILLS_PER_PLAYER,
)
