"""Log-level rules (``KIFU-…``) that hold for every game's match log.

Source: DESIGN.md contracts 1 and 4, and issue 2 of the tracker.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..events.base import JudgeRuling, MatchEnded, MatchStarted, Note
from ..projector.base import parse_time
from .base import Doc, Hit, Option, Rule, Severity, Step, Text, rule

CITE = "kifu DESIGN.md, contract 1 (log format)"
JUDGE_OR_SYSTEM = ("judge", "system")


@rule(
    code="KIFU-LOG-001",
    name="nothing-after-match-end",
    severity=Severity.ERROR,
    citation=CITE,
    title=Text(ja="試合終了後のイベント", en="event after match.end"),
    message=Text(
        ja="seq {ended} の match.end の後に {type} が記録されています",
        en="{type} is recorded after the match ended at seq {ended}",
    ),
    doc=Doc(
        checks=Text(
            ja="`match.end` の後にゲームのイベントがないこと。メモ (note) とジャッジの裁定 (judge.ruling) "
               "は後にあってよい。",
            en="No game event follows `match.end`; notes and judge rulings may.",
        ),
        why=Text(
            ja="試合が終わったら、その試合では何も起こらない。後からのプレイは記録の誤りか、書き換えである。",
            en="Once the match has ended nothing can happen in it; a later play is a recording error or an edit.",
        ),
        bad=Text(
            ja='{"seq":9,"type":"match.end",...} の後に {"seq":10,"type":"gg.toss",...}',
            en='{"seq":9,"type":"match.end",...} then {"seq":10,"type":"gg.toss",...}',
        ),
        good=Text(
            ja='{"seq":9,"type":"match.end",...} の後に {"seq":10,"type":"judge.ruling",...}',
            en='{"seq":9,"type":"match.end",...} then {"seq":10,"type":"judge.ruling",...}',
        ),
    ),
)
def nothing_after_match_end(s: Step) -> tuple[Hit, ...] | None:
    # Watches every event, so a plain return instead of a generator (the engine takes None).
    ended = s.before.log.ended
    if ended is not None and not isinstance(s.event, (Note, JudgeRuling, MatchEnded)):
        return (Hit(s.event.seq, {"type": type(s.event).__struct_config__.tag, "ended": ended}, (ended,)),)
    return None


@rule(
    code="KIFU-LOG-002",
    name="by-names-a-player",
    severity=Severity.ERROR,
    citation=CITE,
    title=Text(ja="by が参加者ではない", en="`by` names nobody in the match"),
    message=Text(
        ja="by={by} は match.start の参加者 ({players}) でも judge/system でもありません",
        en="by={by} is neither a player of match.start ({players}) nor judge/system",
    ),
    doc=Doc(
        checks=Text(
            ja="`by` があるなら、`match.start` の参加者 id、`judge`、`system` のいずれかであること。",
            en="`by`, when present, is a player id from `match.start`, `judge` or `system`.",
        ),
        why=Text(
            ja="どの行動も、試合の誰が行ったのかが分からなければならない。",
            en="Every action must be attributable to someone in the match.",
        ),
        bad=Text(
            ja='参加者 [a, b]; {"type":"note","by":"c",...}',
            en='players [a, b]; {"type":"note","by":"c",...}',
        ),
        good=Text(
            ja='参加者 [a, b]; {"type":"note","by":"a",...}',
            en='players [a, b]; {"type":"note","by":"a",...}',
        ),
    ),
)
def by_names_a_player(s: Step) -> tuple[Hit, ...] | None:
    by = s.event.by
    if by is not None and by not in JUDGE_OR_SYSTEM and by not in s.after.log.players:
        return (Hit(s.event.seq, {"by": by, "players": ", ".join(s.after.log.players)}),)
    return None


@rule(
    code="KIFU-LOG-003",
    name="time-goes-forward",
    severity=Severity.WARNING,
    citation=CITE,
    title=Text(ja="時刻が逆行している", en="time goes backwards"),
    message=Text(
        ja="at={at} は seq {last_seq} の {last_at} より前です",
        en="at={at} is earlier than {last_at} at seq {last_seq}",
    ),
    doc=Doc(
        checks=Text(
            ja="各 `at` が、それより前の最も遅い `at` より前の時刻でないこと。",
            en="Each `at` is not earlier than the latest `at` before it.",
        ),
        why=Text(
            ja="イベントは起きた順に追記される。時刻が戻るのは、順序の入れ替えか時計の誤り。",
            en="Events are appended in the order they happened; a time going back means reordering or a wrong clock.",
        ),
        bad=Text(
            ja='{"seq":3,"at":"2026-01-01T10:05:00Z"} の後に {"seq":4,"at":"2026-01-01T10:01:00Z"}',
            en='{"seq":3,"at":"2026-01-01T10:05:00Z"} then {"seq":4,"at":"2026-01-01T10:01:00Z"}',
        ),
        good=Text(
            ja='{"seq":3,"at":"2026-01-01T10:05:00Z"} の後に {"seq":4,"at":"2026-01-01T10:06:00Z"}',
            en='{"seq":3,"at":"2026-01-01T10:05:00Z"} then {"seq":4,"at":"2026-01-01T10:06:00Z"}',
        ),
    ),
)
def time_goes_forward(s: Step) -> tuple[Hit, ...] | None:
    seq = s.event.seq
    if s.event.at is None or (s.after.log.last_at_seq == seq and s.before.log.last_at_seq != seq):  # became last
        return None
    t, last = parse_time(s.event.at), parse_time(s.before.log.last_at)
    if t is not None and last is not None and t < last:
        return (Hit(s.event.seq, {"at": s.event.at, "last_at": s.before.log.last_at,
                                  "last_seq": s.before.log.last_at_seq}, (s.before.log.last_at_seq or s.event.seq,)),)
    return None


# Both time rules first ask whether the projection took this event's ``at`` as the latest
# time ("became last"): then it is readable and not earlier than any before it, and they
# need not parse it again. The second test keeps a log with a repeated seq on the slow
# (parsing) path. They run on every event, so the test is written out in each (a call
# per event was measurable).


@rule(
    code="KIFU-LOG-004",
    name="at-is-rfc3339",
    severity=Severity.ERROR,
    citation=CITE,
    title=Text(ja="at が RFC 3339 の時刻ではない", en="`at` is not an RFC 3339 time"),
    message=Text(ja="at={at} は時差つきの RFC 3339 時刻ではありません", en="at={at} is not an RFC 3339 time with an offset"),
    doc=Doc(
        checks=Text(
            ja="`at` があるなら、UTC からの時差 (`Z` や `+09:00`) つきの RFC 3339 日時であること。",
            en="`at`, when present, is an RFC 3339 date-time with a UTC offset (`Z` or `+09:00`).",
        ),
        why=Text(
            ja="出どころの違う時刻は、時差が書かれていて初めて比べられる。",
            en="Times from different sources can only be compared when they carry their offset.",
        ),
        bad='"at":"yesterday"',
        good='"at":"2026-11-29T18:00:00+09:00"',
    ),
)
def at_is_rfc3339(s: Step) -> tuple[Hit, ...] | None:
    seq = s.event.seq
    if s.event.at is None or (s.after.log.last_at_seq == seq and s.before.log.last_at_seq != seq):  # became last
        return None
    if parse_time(s.event.at) is None:
        return (Hit(s.event.seq, {"at": s.event.at}),)
    return None


@rule(
    code="KIFU-LOG-005",
    name="ruling-names-earlier-events",
    severity=Severity.ERROR,
    citation=CITE,
    title=Text(ja="裁定が存在しない seq を指している", en="a ruling points at a seq that does not exist"),
    message=Text(
        ja="judge.ruling が seq {missing} を参照していますが、その時点で存在する seq は 1–{last} です",
        en="judge.ruling refers to seq {missing}, but only seqs 1–{last} exist at that point",
    ),
    on=(JudgeRuling,),
    doc=Doc(
        checks=Text(
            ja="`judge.ruling` の `about` の seq がすべて、その裁定より前のイベントを指していること。",
            en="Every seq in a `judge.ruling`'s `about` names an event before the ruling.",
        ),
        why=Text(
            ja="裁定は起きたことを判断するもの。ログにないイベントについての裁定はありえない。",
            en="A ruling judges what happened; it cannot be about an event that is not in the log.",
        ),
        bad='{"seq":12,"type":"judge.ruling","about":[40],...}',
        good='{"seq":12,"type":"judge.ruling","about":[7],...}',
    ),
)
def ruling_names_earlier_events(s: Step) -> Iterable[Hit]:
    assert isinstance(s.event, JudgeRuling)
    for ref in s.event.about:
        if not 1 <= ref < s.event.seq:
            yield Hit(s.event.seq, {"missing": ref, "last": s.event.seq - 1})


@rule(
    code="KIFU-LOG-006",
    name="match-ends-once",
    severity=Severity.ERROR,
    citation=CITE,
    title=Text(ja="match.end が二度ある", en="match.end recorded twice"),
    message=Text(ja="試合は seq {ended} で既に終了しています", en="the match already ended at seq {ended}"),
    on=(MatchEnded,),
    doc=Doc(
        checks=Text(
            ja="ログの `match.end` は 1 つまでであること。",
            en="A log has at most one `match.end`.",
        ),
        why=Text(
            ja="試合が終わるのは 1 回だけ。別の勝者で 2 回目の終了があれば矛盾であり、ジャッジが見なければならない。",
            en="A match ends once; a second end with another winner is a contradiction a judge must see.",
        ),
        bad='{"seq":9,"type":"match.end","winner":"a"} … {"seq":11,"type":"match.end","winner":"b"}',
        good='{"seq":9,"type":"match.end","winner":"a"}',
    ),
)
def match_ends_once(s: Step) -> Iterable[Hit]:
    if s.before.log.ended is not None:
        yield Hit(s.event.seq, {"ended": s.before.log.ended}, (s.before.log.ended,))


@rule(
    code="KIFU-LOG-007",
    name="player-ids-unique",
    severity=Severity.ERROR,
    citation=CITE,
    title=Text(ja="参加者 id が重複している", en="player ids are not unique"),
    message=Text(ja="参加者 id {id} が二度あります", en="player id {id} appears twice"),
    on=(MatchStarted,),
    doc=Doc(
        checks=Text(
            ja="`match.start` の参加者 id が互いに異なり、`judge` でも `system` でもないこと。",
            en="Player ids in `match.start` are distinct and are not `judge` or `system`.",
        ),
        why=Text(
            ja="`by` やプレイヤーを表すすべての項目は id でプレイヤーを指す。重複すると誰のことか分からなくなる。",
            en="`by` and every player field name players by id; a duplicate makes them ambiguous.",
        ),
        bad='"players":[{"id":"a","name":"A"},{"id":"a","name":"B"}]',
        good='"players":[{"id":"a","name":"A"},{"id":"b","name":"B"}]',
    ),
)
def player_ids_unique(s: Step) -> Iterable[Hit]:
    seen: set[str] = set(JUDGE_OR_SYSTEM)
    assert isinstance(s.event, MatchStarted)
    for p in s.event.players:
        if p.id in seen:
            yield Hit(1, {"id": p.id})
        seen.add(p.id)


def options_rule(declared: Sequence[Option]) -> Rule:
    """KIFU-LOG-008 for one game's declared options."""
    known = {o.name: o for o in declared}

    def check(s: Step) -> Iterable[Hit]:
        for key, value in s.start.rules.items():
            opt = known.get(key)
            if opt is None:
                yield Hit(1, {"option": key, "value": value, "choices": ", ".join(sorted(known)) or "-"})
            elif opt.choices is not None and value not in opt.choices:
                yield Hit(1, {"option": key, "value": value, "choices": ", ".join(map(str, opt.choices))})

    return Rule(
        check=check,
        code="KIFU-LOG-008",
        name="rule-options-are-known",
        severity=Severity.WARNING,
        citation="kifu DESIGN.md, contract 1 (`rules`: variant and house-ruling options)",
        title=Text(ja="不明なルールオプション", en="unknown rule option"),
        message=Text(
            ja="rules.{option}={value} はこのゲームのオプションではないか、許されない値です (選択肢: {choices})",
            en="rules.{option}={value} is not an option of this game, or not one of its values ({choices})",
        ),
        doc=Doc(
            checks=Text(
                ja="`match.start.rules` のすべてのキーが、そのゲームが文書化しているオプションで、"
                   "許された値であること。",
                en="Every key of `match.start.rules` is an option the game documents, with an allowed value.",
            ),
            why=Text(
                ja="綴りを誤ったオプションは黙って既定値に戻り、判定が変わってしまう。",
                en="A misspelt option silently falls back to its default and changes the verdicts.",
            ),
            bad='"rules":{"hand_limt":8}',
            good='"rules":{"hand_limit":8}',
        ),
        on=(MatchStarted,),
    )


RULES: tuple[Rule, ...] = (
    nothing_after_match_end,
    by_names_a_player,
    time_goes_forward,
    at_is_rfc3339,
    ruling_names_earlier_events,
    match_ends_once,
    player_ids_unique,
)
