"""Weiss Schwarz interrupting rule actions: level-up, refresh and the refresh point.

Source: WSターンの流れ チェックタイミング 1 (WSの基礎ルールの処理、ルール処理が終わらない限り次へ進まない);
the rule actions themselves are CR 9.1–9.3 as reference B2 gives them; reference B3, B6 #13, #14.
"""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, Text, rule

from .. import events as ev
from ..projection import NEUTRAL
from .common import UNKNOWN_BOARD, UNKNOWN_HAND, if_known, is_game_event, tag

_NOT_ACTIONS = frozenset(NEUTRAL + (ev.AbilityResolved,))


def overdue(s: Step, kind: str) -> list[tuple[str, int]]:
    """(player, seq) of rule actions of ``kind`` made due since the last game action and still not done.

    Rule actions may follow one another in any order (a damage can fill the
    clock and empty the deck at once); the first other game event after them is
    where an undone one is reported, once. Four rules ask this of every event, and
    almost always nothing is due: that is answered first, and the answer is a list,
    not a generator.
    """
    before = s.before.game
    if not before.due or type(s.event) in _NOT_ACTIONS or not is_game_event(s.event):
        return []  # notes and rulings are no game action; an ability resolved first is WS-CHK-001's finding
    out = []
    for key, seq in before.due.items():
        k, player = key.rsplit(":", 1)
        if k == kind and seq >= before.last_action_seq:
            out.append((player, seq))
    return out


def _came_before(s: Step, kind: str, late: Text) -> list[Flag]:
    """A hit at this event for each rule action of ``kind`` it came before; ``late`` names ``{seq}`` and ``{type}``."""
    out = []
    for player, seq in overdue(s, kind):
        fill = {"seq": seq, "type": tag(s.event)}
        out.append(
            Flag(
                s.event.seq,
                {"player": player, "detail": Text(ja=late.ja.format(**fill), en=late.en.format(**fill))},
                (seq,),
            )
        )
    return out


@rule(
    code="WS-RULE-001",
    name="level-up-at-seven-clock-at-once",
    severity=Severity.ERROR,
    on=None,
)
def level_up_at_seven(s: Step) -> list[Flag]:
    # Watches every event: a plain function that returns at once when nothing is due.
    e = s.event
    if isinstance(e, ev.LeveledUp):
        n = len(s.before.game.side(e.player).clock)
        if n < 7:
            return [
                if_known(
                    Flag(
                        e.seq,
                        {
                            "player": e.player,
                            "detail": Text(
                                ja=f"クロック {n} 枚でレベルアップしました (7 枚必要)",
                                en=f"levelled up with {n} clock cards (7 needed)",
                            ),
                        },
                    ),
                    s.before.game.known,
                    UNKNOWN_BOARD,
                )
            ]
        return []
    if not s.before.game.due:
        return []
    return _came_before(s, "level-up", LEVEL_UP_LATE)


LEVEL_UP_LATE = Text(
    ja="seq {seq} でクロックが 7 枚になりましたが、レベルアップの前に {type} が来ました",
    en="the clock reached 7 at seq {seq} but {type} came before the level-up",
)


@rule(
    code="WS-RULE-002",
    name="refresh-when-the-deck-empties",
    severity=Severity.ERROR,
    on=None,
)
def refresh_when_deck_empties(s: Step) -> list[Flag]:
    e = s.event
    if isinstance(e, ev.Refreshed):
        n = s.before.game.side(e.player).deck
        if n > 0:
            return [
                if_known(
                    Flag(
                        e.seq,
                        {
                            "player": e.player,
                            "detail": Text(
                                ja=f"山札に {n} 枚残っているのにリフレッシュしました",
                                en=f"refreshed with {n} cards still in the deck",
                            ),
                        },
                    ),
                    s.before.game.side(e.player).hand_known,
                    UNKNOWN_HAND,
                )
            ]
        return []
    if not s.before.game.due:
        return []
    return _came_before(s, "refresh", REFRESH_LATE)


REFRESH_LATE = Text(
    ja="seq {seq} で山札が 0 枚になりましたが、リフレッシュの前に {type} が来ました",
    en="the deck emptied at seq {seq} but {type} came before the refresh",
)


@rule(
    code="WS-RULE-003",
    name="refresh-point-follows-the-refresh",
    severity=Severity.ERROR,
    on=(ev.RefreshPointPaid, ev.TurnStarted),
)
def refresh_point_follows_refresh(s: Step) -> Iterable[Flag]:
    before, e = s.before.game, s.event
    if isinstance(e, ev.RefreshPointPaid):
        if e.player not in before.refresh_owed:
            yield Flag(
                e.seq,
                {
                    "player": e.player,
                    "detail": Text(
                        ja="リフレッシュしていないのにリフレッシュポイントが置かれました",
                        en="a refresh point without a refresh",
                    ),
                },
            )
        return
    for player, seq in sorted(before.refresh_owed.items()):
        yield Flag(
            e.seq,
            {
                "player": player,
                "detail": Text(
                    ja=f"seq {seq} のリフレッシュのリフレッシュポイントが、次のターンまでに置かれていません",
                    en=f"the refresh at seq {seq} got no refresh point before the next turn",
                ),
            },
            (seq,),
        )


RULES = (
    level_up_at_seven,
    refresh_when_deck_empties,
    refresh_point_follows_refresh,
)
