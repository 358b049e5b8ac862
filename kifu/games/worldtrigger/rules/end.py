"""World Trigger rules of the end of the match (ボーダー隊員ソロランク戦ゲーム（仮） ■7 勝利条件)."""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import REST, Flag, Severity, Step, rule
from kifu.events.i18n import Msg
from kifu.events.base import MatchEnded, event_type


@rule(
    code="WT-END-001",
    name="nothing-played-after-zero-trion-or-bailout",
    severity=Severity.ERROR,
)
def nothing_after_defeat(s: Step) -> Iterable[Flag]:
    g = s.before.game
    tag = event_type(type(s.event))
    if g.defeated is not None and g.played_on_seq is None and tag.startswith("wt."):
        how, how_ja = (
            ("reached 0 trion", "トリオン0になった") if g.defeat_reason == "trion" else ("bailed out", "緊急脱出した")
        )
        yield Flag(
            s.event.seq,
            {"loser": g.defeated, "at": g.defeated_seq, "how": how, "how_ja": how_ja, "type": tag},
            seqs=(g.defeated_seq or s.event.seq,),
            about=REST,
        )


@rule(
    code="WT-END-002",
    name="winner-is-the-opponent-of-the-loser",
    severity=Severity.ERROR,
    on=(MatchEnded,),
)
def winner_is_opponent(s: Step) -> Iterable[Flag]:
    e = s.event
    assert isinstance(e, MatchEnded)
    g = s.before.game
    if s.before.log.ended is not None:
        return  # KIFU-LOG-006 reports a second end
    if g.defeated is None:
        if e.winner is not None:
            yield Flag(
                e.seq,
                {
                    "winner": e.winner,
                    "why": "no player reached 0 trion or bailed out",
                    "why_ja": "トリオン0にも緊急脱出にもなったプレイヤーがいません",
                },
            )
        return
    expected = g.winner
    if e.winner != expected:
        yield Flag(
            e.seq,
            {
                "winner": e.winner,
                "why": Msg("text.wt.lost_so_wins", loser=g.defeated, at=g.defeated_seq, winner=expected),
            },
            seqs=(g.defeated_seq or e.seq,),
        )


RULES = (nothing_after_defeat, winner_is_opponent)
