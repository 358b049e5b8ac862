"""World Trigger rules of the end of the match (seed 002 ■7 勝利条件)."""

from __future__ import annotations

from typing import Iterable

from kifu.auditor.base import Doc, Hit, Severity, Step, Text, rule
from kifu.events.base import MatchEnded, event_type

from .common import cite

WIN = "■7 勝利条件 (相手の残トリオンが０になる / 相手が緊急脱出を宣言する)"


@rule(
    code="WT-END-001",
    name="nothing-played-after-zero-trion-or-bailout",
    severity=Severity.ERROR,
    citation=cite(WIN),
    title=Text(ja="トリオン0または緊急脱出で試合終了", en="the match ends at 0 trion or on bailout"),
    message=Text(
        ja="{loser} は seq {at} で{how_ja}ため試合は終わっていますが、その後に {type} が記録されています",
        en="{loser} {how} at seq {at}, which ended the match, yet {type} is recorded after it",
    ),
    doc=Doc(
        checks=Text(
            ja="プレイヤーの残トリオンが 0 以下になった最初のイベント、または `wt.bailout` (緊急脱出) の後に `wt.*` "
               "のイベントがないこと。その後に来てよいのは `match.end`、メモ、裁定だけ。続けて行われたプレイは、その最初の "
               "イベントで 1 回だけ報告する。",
            en="No `wt.*` event follows the first event that leaves a player at 0 trion or less, or a `wt.bailout`; "
               "only `match.end`, notes and rulings may. Play that went on is reported once, at its first event.",
        ),
        why=Text(
            ja="seed 002 ■7: どちらかが勝利条件を満たすまで 3〜6 を繰り返す。残トリオンが 0 "
               "になるか緊急脱出を宣言すれば、その時点で勝敗が決まる。",
            en="Seed 002 ■7: the game repeats steps 3–6 until a win condition holds; reaching 0 trion or declaring "
               "bailout decides the match at once.",
        ),
        bad=Text(
            ja='{"type":"wt.trion","player":"b","delta":-15} (b のトリオン 15 → 0) の後に {"type":"wt.order",…}',
            en='{"type":"wt.trion","player":"b","delta":-15} (b: 15 → 0), then {"type":"wt.order",…}',
        ),
        good=Text(
            ja='{"type":"wt.trion","player":"b","delta":-15} (b のトリオン 15 → 0) の後に {"type":"match.end",'
               '"winner":"a"}',
            en='{"type":"wt.trion","player":"b","delta":-15} (b: 15 → 0), then {"type":"match.end","winner":"a"}',
        ),
    ),
)
def nothing_after_defeat(s: Step) -> Iterable[Hit]:
    g = s.before.game
    tag = event_type(type(s.event))
    if g.defeated is not None and g.played_on_seq is None and tag.startswith("wt."):
        how, how_ja = ("reached 0 trion", "トリオン0になった") if g.defeat_reason == "trion" else ("bailed out", "緊急脱出した")
        yield Hit(s.event.seq, {"loser": g.defeated, "at": g.defeated_seq, "how": how, "how_ja": how_ja, "type": tag},
                  seqs=(g.defeated_seq or s.event.seq,))


@rule(
    code="WT-END-002",
    name="winner-is-the-opponent-of-the-loser",
    severity=Severity.ERROR,
    citation=cite(WIN),
    title=Text(ja="勝者はトリオン0/緊急脱出した側の相手", en="the winner is the loser's opponent"),
    message=Text(
        ja="match.end の勝者は {winner} ですが、{why_ja}",
        en="match.end names {winner} as the winner, but {why}",
    ),
    on=(MatchEnded,),
    doc=Doc(
        checks=Text(
            ja="`match.end` の勝者が、最初に残トリオン 0 になったか緊急脱出したプレイヤーの相手であること。"
               "どちらも記録されていないのに勝者がいる場合も指摘する。",
            en="`match.end` names as winner the opponent of the first player to reach 0 trion or bail out; a winner "
               "with neither recorded is reported too.",
        ),
        why=Text(
            ja="seed 002 ■7: 相手の残トリオンが 0 になるか、相手が緊急脱出 (ベイルアウト) を宣言すれば勝ち。",
            en="Seed 002 ■7: a player wins when the opponent's trion reaches 0 or the opponent declares bailout.",
        ),
        bad='{"type":"wt.bailout","player":"a"}, {"type":"match.end","winner":"a"}',
        good='{"type":"wt.bailout","player":"a"}, {"type":"match.end","winner":"b","reason":"bailout"}',
    ),
)
def winner_is_opponent(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, MatchEnded)
    g = s.before.game
    if s.before.log.ended is not None:
        return  # KIFU-LOG-006 reports a second end
    if g.defeated is None:
        if e.winner is not None:
            yield Hit(e.seq, {"winner": e.winner, "why": "no player reached 0 trion or bailed out", "why_ja": "トリオン0にも緊急脱出にもなったプレイヤーがいません"})
        return
    expected = g.winner
    if e.winner != expected:
        yield Hit(e.seq, {"winner": e.winner, "why": f"{g.defeated} lost at seq {g.defeated_seq}, so {expected} wins",
                          "why_ja": f"{g.defeated} が seq {g.defeated_seq} で敗北したので勝者は {expected} です"},
                  seqs=(g.defeated_seq or e.seq,))


RULES = (nothing_after_defeat, winner_is_opponent)
