"""Weiss Schwarz losing and the end of the game: level 4, an empty deck and waiting room, the winner.

Source: seed 003 チェックタイミング 1 (ルール処理: losing is the first rule action of a check);
the losing conditions are CR 1.2.2–1.2.3 as reference B2 gives them; reference B6 #18.
"""

from __future__ import annotations

from typing import Iterable

from kifu.auditor.base import Doc, Hit, Severity, Step, Text, rule
from kifu.events.base import MatchEnded

from .. import events as ev
from .common import UNKNOWN_BOARD, UNKNOWN_HAND, game, tag, undecided
from .rule_actions import overdue


def _loss_overdue(s: Step, kind: str) -> Iterable[Hit]:
    e = s.event
    if isinstance(e, ev.GameLost):
        return  # the loss itself; whether it has its cause is WS-GAME-003's
    for player, seq in overdue(s, kind):
        yield Hit(e.seq, {"player": player, "seq_due": seq, "type": tag(e)}, (seq,))


@rule(
    code="WS-GAME-001",
    name="level-four-loses",
    severity=Severity.ERROR,
    citation="CR 1.2.2.1 per reference B2; reference B6 #18",
    title=Text(ja="レベル4で敗北", en="level 4 loses the game"),
    message=Text(
        ja="{player} は seq {seq_due} でレベル4になりましたが、敗北の前に {type} が記録されています",
        en="{player} reached level 4 at seq {seq_due}, but {type} is recorded instead of the loss",
    ),
    on=None,
    doc=Doc(
        checks=Text(
            ja="プレイヤーのレベル置場が 4 枚になったら、次のゲームのイベントがそのプレイヤーの `ws.lose` (または "
               "`match.end`) であること。",
            en="When a player has 4 level cards, the next game event is their `ws.lose` (or `match.end`).",
        ),
        why=Text(
            ja="レベル置場のカードが 4 枚になると敗北する (CR 1.2.2.1)。次のチェックで最初に行うルール処理。",
            en="Four cards in the level zone lose the game (CR 1.2.2.1), a rule action done first at the next check.",
        ),
        bad=Text(
            ja="ws.levelup (4 枚目のレベル); ws.step battle",
            en="ws.levelup (4th level card); ws.step battle",
        ),
        good=Text(
            ja="ws.levelup (4 枚目のレベル); ws.lose reason=level; match.end",
            en="ws.levelup (4th level card); ws.lose reason=level; match.end",
        ),
    ),
)
def level_four_loses(s: Step) -> Iterable[Hit]:
    yield from _loss_overdue(s, "lose-level")


@rule(
    code="WS-GAME-002",
    name="empty-deck-and-waiting-room-loses",
    severity=Severity.ERROR,
    citation="CR 1.2.2.2 per reference B2; reference B6 #18",
    title=Text(ja="山札と控室が0枚で敗北", en="an empty deck and waiting room lose the game"),
    message=Text(
        ja="{player} は seq {seq_due} で山札も控室も0枚になりましたが、敗北の前に {type} が記録されています",
        en="{player}'s deck and waiting room were both empty at seq {seq_due}, but {type} is recorded instead "
           "of the loss",
    ),
    on=None,
    doc=Doc(
        checks=Text(
            ja="プレイヤーの山札と控室がどちらも空になったら、次のゲームのイベントがそのプレイヤーの `ws.lose` "
               "であること。",
            en="When a player's deck and waiting room are both empty, the next game event is their `ws.lose`.",
        ),
        why=Text(
            ja="リフレッシュするカードがなければ、そのプレイヤーは敗北する (CR 1.2.2.2)。",
            en="With nothing to refresh from, the player loses (CR 1.2.2.2).",
        ),
        bad=Text(
            ja="ws.draw (山札 1 → 0、控室 0 枚); ws.phase.end draw",
            en="ws.draw (deck 1 → 0, waiting room 0); ws.phase.end draw",
        ),
        good=Text(
            ja="ws.draw (山札 1 → 0、控室 0 枚); ws.lose reason=deck; match.end",
            en="ws.draw (deck 1 → 0, waiting room 0); ws.lose reason=deck; match.end",
        ),
    ),
)
def empty_deck_and_waiting_loses(s: Step) -> Iterable[Hit]:
    yield from _loss_overdue(s, "lose-deck")


@rule(
    code="WS-GAME-003",
    name="a-loss-has-its-cause",
    severity=Severity.ERROR,
    citation="CR 1.2.2 per reference B2; reference B6 #18",
    title=Text(ja="敗北理由が状態と合わない", en="a recorded loss matches the state"),
    message=Text(ja="{player} の敗北 ({reason}): {detail}", en="{player} lost ({reason}), but {detail}"),
    on=(ev.GameLost,),
    doc=Doc(
        checks=Text(
            ja="`level` による敗北にはレベル 4 枚が、`deck` による敗北には山札と控室が空であることが必要。",
            en="A loss for `level` needs 4 level cards; a loss for `deck` needs an empty deck and waiting room.",
        ),
        why=Text(
            ja="ゲームを終わらせるのは CR 1.2.2 の敗北条件 (または投了か効果) だけ。",
            en="Only the losing conditions of CR 1.2.2 (or a concession or an effect) end the game.",
        ),
        bad=Text(
            ja="レベル 3; ws.lose reason=level",
            en="level 3; ws.lose reason=level",
        ),
        good=Text(
            ja="レベル 4; ws.lose reason=level",
            en="level 4; ws.lose reason=level",
        ),
    ),
)
def a_loss_has_its_cause(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, ev.GameLost)
    before = game(s.before)
    side = before.side(e.player)
    if e.reason in ("level", "deck") and not (before.known and (e.reason == "level" or side.hand_known)):
        yield undecided(e.seq, UNKNOWN_BOARD if e.reason == "level" else UNKNOWN_HAND)
    elif e.reason == "level" and len(side.level) < 4:
        yield Hit(e.seq, {"player": e.player, "reason": e.reason, "detail": Text(
            ja=f"レベル置場は {len(side.level)} 枚です", en=f"has {len(side.level)} level cards")})
    elif e.reason == "deck" and side.deck + side.waiting > 0:
        yield Hit(e.seq, {"player": e.player, "reason": e.reason, "detail": Text(
            ja=f"山札が {side.deck} 枚、控室が {side.waiting} 枚あります",
            en=f"has {side.deck} deck and {side.waiting} waiting-room cards",
        )})


@rule(
    code="WS-GAME-004",
    name="a-loser-does-not-win",
    severity=Severity.ERROR,
    citation="CR 1.2.2–1.2.3 per reference B2; reference B6 #18",
    title=Text(ja="敗北したプレイヤーは勝者にならない", en="a player who lost is not the winner"),
    message=Text(ja="match.end の勝者 {winner}: {detail}", en="match.end names {winner} the winner, but {detail}"),
    on=(MatchEnded,),
    doc=Doc(
        checks=Text(
            ja="`match.end` が、敗北したプレイヤー (`ws.lose`、レベル 4 枚、または山札と控室が空) "
               "を勝者にしていないこと。両者が同時に敗北したら引き分け (勝者なし)。",
            en="`match.end` does not name as winner a player who lost (`ws.lose`, 4 level cards, or deck and waiting "
               "room empty); when both lost at once the match is a draw (no winner).",
        ),
        why=Text(
            ja="敗北条件を満たしたプレイヤーはゲームに負ける (CR 1.2.2)。同時に敗北したら引き分け (1.2.3)。",
            en="Losing conditions end the game for that player (CR 1.2.2); simultaneous losses are a draw (1.2.3).",
        ),
        bad="ws.lose p1 reason=level; match.end winner=p1",
        good="ws.lose p1 reason=level; match.end winner=p2",
    ),
)
def a_loser_does_not_win(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, MatchEnded)
    before = game(s.before)
    losers = set(before.lost) | {key.rsplit(":", 1)[1] for key in before.due if key.startswith("lose-")}
    if e.winner is not None and e.winner in losers:
        both = len(losers & set(before.players)) > 1
        yield Hit(e.seq, {"winner": e.winner, "detail": Text(
            ja="両プレイヤーとも敗北しているので引き分けです", en="both players lost: it is a draw") if both
            else Text(ja=f"{e.winner} は敗北しています", en=f"{e.winner} lost")})


RULES = (
    level_four_loses,
    empty_deck_and_waiting_loses,
    a_loss_has_its_cause,
    a_loser_does_not_win,
)
