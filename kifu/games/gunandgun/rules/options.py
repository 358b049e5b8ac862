"""ガンナガン (seed 000 coin-toss variant): house-ruling options where the sources are silent.

Each is set in ``match.start.rules``; unnamed options take the default. The open
questions they answer are listed in ../shared/reference/gunandgun.md §5.
"""

from __future__ import annotations

from kifu.auditor.base import Option, Text

REF = "reference gunandgun.md"

COST_PAYMENT = Option(
    name="cost_payment", default="hand", choices=("hand", "voltage"),
    doc=Text(ja="デッキカードの COST の支払い方: hand = 他の手札を捨てる (アプリの実装), voltage = ボルテージから",
             en="how a deck card's COST is paid: hand = discard that many other hand cards (the app's reading), "
                "voltage = from the voltage area"),
    citation=f"{REF} §1.7, §5 Q1 [APP] Card.cs",
)
BURN = Option(
    name="burn", default="flat", choices=("flat", "per-counter"),
    doc=Text(ja="バーン: flat = カウンターが1個以上なら3点失う (アプリの実装), per-counter = カウンター1個につき3点",
             en="burn at the burned player's turn start: flat = lose 3 with one or more counters (the app's code), "
                "per-counter = lose 3 per counter (the app's comment)"),
    citation=f"{REF} §1.10, §5 Q2 [APP] ResolveBurnCounters",
)
BURN_COUNTERS = Option(
    name="burn_counters", default="keep", choices=("keep", "remove"),
    doc=Text(ja="バーン処理の後のカウンター: keep = 残る, remove = すべて取り除く",
             en="burn counters after the turn-start burn: keep them, or remove them all"),
    citation=f"{REF} §1.10, §5 Q2",
)
DECK_OUT = Option(
    name="deck_out", default="both-empty", choices=("both-empty", "either-empty", "failed-draw"),
    doc=Text(ja="デッキ切れ敗北: both-empty = 両方のデッキが0枚 (アプリ), either-empty = どちらかが0枚, failed-draw = 引けなかった時",
             en="deck-out loss: both-empty = both gun decks at 0 (the app), either-empty = one deck at 0, "
                "failed-draw = a draw that cannot be made"),
    citation=f"{REF} §1.11, §5 Q3 [APP] LoseWhenBothDecksAreDepleted",
)
TURN_END_ORDER = Option(
    name="turn_end_order", default="any", choices=("any", "before-refill", "after-refill"),
    doc=Text(ja="ターン終了時の効果と手札補充の順序", en="whether turn-end effects resolve before or after the down phase's refill"),
    citation=f"{REF} §1.3, §5 Q6",
)
FUNCTION_FIRST_TOSS = Option(
    name="function_first_toss", default="next-turn-start", choices=("next-turn-start", "on-play"),
    doc=Text(ja="発動したターンの【機能】のトス: next-turn-start = 次の自分のターン開始時まで N が無い (seed の文言どおり), "
                "on-play = 発動時に一度トスしてよい",
             en="a function played this turn: next-turn-start = it has no N until the owner's next turn start (the seed's "
                "words), on-play = it may toss once when played"),
    citation="seed 000 §カード処理ごとのトス実行タイミング (【機能】)",
)
SHOTS_PER_GUN = Option(
    name="shots_per_gun", default=1, choices=(1, 2, 3, 99),
    doc=Text(ja="1ターンに1丁の機銃が射撃できる回数", en="shots each gun may make per turn"),
    citation=f"{REF} §1.5, §5 Q4",
)
LOAD_TOSS_END = Option(
    name="load_toss_end", default="cap-or-opponent", choices=("cap-or-opponent", "cap", "opponent"),
    doc=Text(ja="装填効果のトス列の終わり: cap-or-opponent = 最も空きの多い機銃の残り枚数に N が達した所で止めても、"
                "相手側が出るまで続けてもよい, cap = そこで止める (以後のトスは誤り), opponent = 必ず相手側が出るまで続ける",
             en="when a load effect's toss sequence ends: cap-or-opponent = the table may stop once N reaches the room "
                "of the gun with the most room, or toss on until the coin faces the opponent; cap = it stops there (a "
                "further toss is an error); opponent = it always goes on until the coin faces the opponent"),
    citation="seed 000 §ルール適用の例外 (原則として相手側が出るまでトスを続けるが、…残りの装填可能枚数が多い方を基準に"
             "処理する。各機銃が装填上限に達した場合はそこで止まる) / FAQ (トスで8になった場合は5で止まります)",
)

OPTIONS: tuple[Option, ...] = (
    COST_PAYMENT, BURN, BURN_COUNTERS, DECK_OUT, TURN_END_ORDER, FUNCTION_FIRST_TOSS, SHOTS_PER_GUN, LOAD_TOSS_END,
)
