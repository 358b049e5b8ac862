"""Weiss Schwarz losing and the end of the game: level 4, an empty deck and waiting room, the winner.

Source: WSターンの流れ チェックタイミング 1 (ルール処理: losing is the first rule action of a check);
the losing conditions are CR 1.2.2–1.2.3 as reference B2 gives them; reference B6 #18.
"""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import REST, Flag, Severity, Step, Text, rule
from kifu.events.i18n import Msg
from kifu.events.base import MatchEnded

from .. import events as ev
from .common import UNKNOWN_BOARD, UNKNOWN_HAND, tag, undecided
from .rule_actions import overdue


def _loss_overdue(s: Step, kind: str) -> list[Flag]:
    # Two rules ask this of every event: a list, and nothing built unless something is due.
    e = s.event
    if isinstance(e, ev.GameLost) or not s.before.game.due:
        return []  # the loss itself; whether it has its cause is WS-GAME-003's
    # play recorded after a loss was due: the match was decided, so this is one finding and every later one
    # (the same rule at the next event, any other rule) its consequence
    return [
        Flag(e.seq, {"player": player, "seq_due": seq, "type": tag(e)}, (seq,), about=REST)
        for player, seq in overdue(s, kind)
    ]


@rule(
    code="WS-GAME-001",
    name="level-four-loses",
    severity=Severity.ERROR,
    on=None,
)
def level_four_loses(s: Step) -> list[Flag]:
    return _loss_overdue(s, "lose-level")


@rule(
    code="WS-GAME-002",
    name="empty-deck-and-waiting-room-loses",
    severity=Severity.ERROR,
    on=None,
)
def empty_deck_and_waiting_loses(s: Step) -> list[Flag]:
    return _loss_overdue(s, "lose-deck")


@rule(
    code="WS-GAME-003",
    name="a-loss-has-its-cause",
    severity=Severity.ERROR,
    on=(ev.GameLost,),
)
def a_loss_has_its_cause(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, ev.GameLost)
    before = s.before.game
    side = before.side(e.player)
    if e.reason in ("level", "deck") and not (before.known and (e.reason == "level" or side.hand_known)):
        yield undecided(e.seq, UNKNOWN_BOARD if e.reason == "level" else UNKNOWN_HAND)
    elif e.reason == "level" and len(side.level) < 4:
        yield Flag(
            e.seq,
            {
                "player": e.player,
                "reason": Msg(f"word.ws.loss.{e.reason}"),
                "detail": Text(ja=f"レベル置場は {len(side.level)} 枚です", en=f"has {len(side.level)} level cards"),
            },
        )
    elif e.reason == "deck" and side.deck + side.waiting > 0:
        yield Flag(
            e.seq,
            {
                "player": e.player,
                "reason": Msg(f"word.ws.loss.{e.reason}"),
                "detail": Text(
                    ja=f"山札が {side.deck} 枚、控室が {side.waiting} 枚あります",
                    en=f"has {side.deck} deck and {side.waiting} waiting-room cards",
                ),
            },
        )


@rule(
    code="WS-GAME-004",
    name="a-loser-does-not-win",
    severity=Severity.ERROR,
    on=(MatchEnded,),
)
def a_loser_does_not_win(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, MatchEnded)
    before = s.before.game
    losers = set(before.lost) | {key.rsplit(":", 1)[1] for key in before.due if key.startswith("lose-")}
    if e.winner is not None and e.winner in losers:
        both = len(losers & set(before.players)) > 1
        yield Flag(
            e.seq,
            {
                "winner": e.winner,
                "detail": Text(ja="両プレイヤーとも敗北しているので引き分けです", en="both players lost: it is a draw")
                if both
                else Msg("text.ws.winner_lost", winner=e.winner),
            },
        )


RULES = (
    level_four_loses,
    empty_deck_and_waiting_loses,
    a_loss_has_its_cause,
    a_loser_does_not_win,
)
