"""Weiss Schwarz interrupting rule actions: level-up, refresh and the refresh point.

Source: seed 003 チェックタイミング 1 (WSの基礎ルールの処理、ルール処理が終わらない限り次へ進まない);
the rule actions themselves are CR 9.1–9.3 as reference B2 gives them; reference B3, B6 #13, #14.
"""

from __future__ import annotations

from typing import Iterable

from kifu.auditor.base import Doc, Hit, Severity, Step, Text, rule

from .. import events as ev
from ..projection import NEUTRAL
from .common import UNKNOWN_BOARD, UNKNOWN_HAND, game, if_known, is_game_event, tag


def overdue(s: Step, kind: str) -> Iterable[tuple[str, int]]:
    """(player, seq) of rule actions of ``kind`` made due since the last game action and still not done.

    Rule actions may follow one another in any order (a damage can fill the
    clock and empty the deck at once); the first other game event after them is
    where an undone one is reported, once.
    """
    before = game(s.before)
    if isinstance(s.event, NEUTRAL + (ev.AbilityResolved,)) or not is_game_event(s.event):
        return  # notes and rulings are no game action; an ability resolved first is WS-CHK-001's finding
    for key, seq in before.due.items():
        k, player = key.rsplit(":", 1)
        if k == kind and seq >= before.last_action_seq:
            yield player, seq


def _came_before(s: Step, kind: str, late: Text) -> Iterable[Hit]:
    """A hit at this event for each rule action of ``kind`` it came before; ``late`` names ``{seq}`` and ``{type}``."""
    for player, seq in overdue(s, kind):
        fill = {"seq": seq, "type": tag(s.event)}
        yield Hit(s.event.seq, {"player": player, "detail": Text(ja=late.ja.format(**fill), en=late.en.format(**fill))},
                  (seq,))


@rule(
    code="WS-RULE-001",
    name="level-up-at-seven-clock-at-once",
    severity=Severity.ERROR,
    citation="CR 9.3 and 9.1.2.1 per reference B2; reference B6 #13",
    title=Text(ja="クロック7枚で直ちにレベルアップ", en="seven clock cards level up at once"),
    message=Text(ja="{player}: {detail}", en="{player}: {detail}"),
    on=None,
    doc=Doc(
        checks=Text(
            ja="`ws.levelup` にはクロック 7 枚が必要。クロックが 7 枚になったら、"
               "次のゲームのイベントがそのレベルアップであること。",
            en="A `ws.levelup` needs 7 clock cards; when the clock reaches 7, the next game event is that level-up.",
        ),
        why=Text(
            ja="レベルアップは割り込み型のルール処理: 他の処理の途中でも直ちに行う。",
            en="Level-up is an interrupting rule action: it happens at once, even in the middle of another process.",
        ),
        bad=Text(
            ja="ws.damage (クロック 6 → 8); ws.step damage… (レベルアップがない)",
            en="ws.damage (clock 6 → 8); ws.step damage… (no level-up)",
        ),
        good=Text(
            ja="ws.damage (クロック 6 → 8); ws.levelup",
            en="ws.damage (clock 6 → 8); ws.levelup",
        ),
    ),
)
def level_up_at_seven(s: Step) -> Iterable[Hit]:
    e = s.event
    if isinstance(e, ev.LeveledUp):
        n = len(game(s.before).side(e.player).clock)
        if n < 7:
            yield if_known(Hit(e.seq, {"player": e.player, "detail": Text(
                ja=f"クロック {n} 枚でレベルアップしました (7 枚必要)", en=f"levelled up with {n} clock cards (7 needed)",
            )}), game(s.before).known, UNKNOWN_BOARD)
        return
    yield from _came_before(s, "level-up", Text(
        ja="seq {seq} でクロックが 7 枚になりましたが、レベルアップの前に {type} が来ました",
        en="the clock reached 7 at seq {seq} but {type} came before the level-up",
    ))


@rule(
    code="WS-RULE-002",
    name="refresh-when-the-deck-empties",
    severity=Severity.ERROR,
    citation="CR 9.2 and 9.1.2.1 per reference B2; reference B6 #14",
    title=Text(ja="山札が0枚になったら直ちにリフレッシュ", en="an empty deck refreshes at once"),
    message=Text(ja="{player}: {detail}", en="{player}: {detail}"),
    on=None,
    doc=Doc(
        checks=Text(
            ja="`ws.refresh` には空の山札が必要。山札がなくなったら (控室にカードがあれば)、"
               "次のゲームのイベントがリフレッシュであること。",
            en="A `ws.refresh` needs an empty deck; when the deck empties (and the waiting room has cards), the next "
               "game event is the refresh.",
        ),
        why=Text(
            ja="リフレッシュは割り込み型のルール処理 (CR 9.2): 控室が直ちに新しい山札になる。",
            en="Refresh is an interrupting rule action (CR 9.2): the waiting room becomes the new deck at once.",
        ),
        bad=Text(
            ja="ws.draw (山札 1 → 0); ws.phase.end draw",
            en="ws.draw (deck 1 → 0); ws.phase.end draw",
        ),
        good=Text(
            ja="ws.draw (山札 1 → 0); ws.refresh; ws.phase.end draw",
            en="ws.draw (deck 1 → 0); ws.refresh; ws.phase.end draw",
        ),
    ),
)
def refresh_when_deck_empties(s: Step) -> Iterable[Hit]:
    e = s.event
    if isinstance(e, ev.Refreshed):
        n = game(s.before).side(e.player).deck
        if n > 0:
            yield if_known(Hit(e.seq, {"player": e.player, "detail": Text(
                ja=f"山札に {n} 枚残っているのにリフレッシュしました", en=f"refreshed with {n} cards still in the deck",
            )}), game(s.before).side(e.player).hand_known, UNKNOWN_HAND)
        return
    yield from _came_before(s, "refresh", Text(
        ja="seq {seq} で山札が 0 枚になりましたが、リフレッシュの前に {type} が来ました",
        en="the deck emptied at seq {seq} but {type} came before the refresh",
    ))


@rule(
    code="WS-RULE-003",
    name="refresh-point-follows-the-refresh",
    severity=Severity.ERROR,
    citation="CR 9.2 per reference B2 (refresh point after the interrupted process); reference B3, B6 #14",
    title=Text(ja="リフレッシュの後にリフレッシュポイント", en="a refresh is followed by its refresh point"),
    message=Text(ja="{player}: {detail}", en="{player}: {detail}"),
    on=(ev.RefreshPointPaid, ev.TurnStarted),
    doc=Doc(
        checks=Text(
            ja="各 `ws.refresh` の後、次のターンまでに、そのプレイヤーの `ws.refresh.point` が 1 回あること。"
               "リフレッシュなしのリフレッシュポイントはない。",
            en="Each `ws.refresh` is followed, before the next turn, by one `ws.refresh.point` of that player, and "
               "no refresh point comes without a refresh.",
        ),
        why=Text(
            ja="リフレッシュの後、割り込まれた処理が終わったら、新しい山札の上のカードをクロックに置く (reference B2 "
               "による CR 9.2。2022 年の変更後の正確なタイミングは [要確認] なので、"
               "「次のターンより前」だけを検査する)。",
            en="After a refresh the top card of the new deck goes to the clock once the interrupted process ends (CR "
               "9.2 per reference B2; the exact timing after the 2022 change is [to verify], so only 'before the "
               "next turn' is checked).",
        ),
        bad="ws.refresh; … ws.turn",
        good="ws.refresh; ws.refresh.point; … ws.turn",
    ),
)
def refresh_point_follows_refresh(s: Step) -> Iterable[Hit]:
    before, e = game(s.before), s.event
    if isinstance(e, ev.RefreshPointPaid):
        if e.player not in before.refresh_owed:
            yield Hit(e.seq, {"player": e.player, "detail": Text(
                ja="リフレッシュしていないのにリフレッシュポイントが置かれました",
                en="a refresh point without a refresh",
            )})
        return
    for player, seq in sorted(before.refresh_owed.items()):
        yield Hit(e.seq, {"player": player, "detail": Text(
            ja=f"seq {seq} のリフレッシュのリフレッシュポイントが、次のターンまでに置かれていません",
            en=f"the refresh at seq {seq} got no refresh point before the next turn",
        )}, (seq,))


RULES = (
    level_up_at_seven,
    refresh_when_deck_empties,
    refresh_point_follows_refresh,
)
