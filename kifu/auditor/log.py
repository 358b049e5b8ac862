"""Log-level rules (``KIFU-…``) that hold for every game's match log.

Source: DESIGN.md contracts 1 and 4, and issue 2 of the tracker.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..events.base import JudgeRuling, LogVoided, MatchEnded, MatchStarted, Note
from ..projector.base import RECORDER_OR_JUDGE, parse_time, void_verdicts
from .base import Doc, Hit, Option, Rule, Severity, Step, Text, rule

CITE = "kifu DESIGN.md, contract 1 (log format)"
VOID_CITE = "kifu docs/format.md, Voids (log.void)"
ROLES = ("judge", "system", "recorder")
"""`by` values that name a role at the table rather than a player."""


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
            ja="`match.end` の後にゲームのイベントがないこと。メモ (note)、ジャッジの裁定 (judge.ruling)、"
               "記録の取り消し (log.void) は後にあってよい。",
            en="No game event follows `match.end`; notes, judge rulings and voids (log.void) may.",
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
    if ended is not None and not isinstance(s.event, (Note, JudgeRuling, MatchEnded, LogVoided)):
        return (Hit(s.event.seq, {"type": type(s.event).__struct_config__.tag, "ended": ended}, (ended,)),)
    return None


@rule(
    code="KIFU-LOG-002",
    name="by-names-a-player",
    severity=Severity.ERROR,
    citation=CITE,
    title=Text(ja="by が参加者ではない", en="`by` names nobody in the match"),
    message=Text(
        ja="by={by} は match.start の参加者 ({players}) でも judge/system/recorder でもありません",
        en="by={by} is neither a player of match.start ({players}) nor judge/system/recorder",
    ),
    doc=Doc(
        checks=Text(
            ja="`by` があるなら、`match.start` の参加者 id、`judge`、`system`、`recorder` (記録係) のいずれかであること。",
            en="`by`, when present, is a player id from `match.start`, `judge`, `system` or `recorder`.",
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
    if by is not None and by not in ROLES and by not in s.after.log.players:
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
            ja="`match.start` の参加者 id が互いに異なり、`judge`、`system`、`recorder` のいずれでもないこと。",
            en="Player ids in `match.start` are distinct and are not `judge`, `system` or `recorder`.",
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
    seen: set[str] = set(ROLES)
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


# --- voids (log.void): what a void may take back is decided once, by the projector's
# ``void_verdicts``; each rule below reports one reason a seq was not taken back.


def _refused(s: Step, problem: str) -> list[int]:
    assert isinstance(s.event, LogVoided)
    return [v.seq for v in void_verdicts(s.event, s.before.log) if v.problem == problem]


@rule(
    code="KIFU-LOG-009",
    name="void-by-recorder-or-judge",
    severity=Severity.ERROR,
    citation=VOID_CITE,
    title=Text(ja="記録係でもジャッジでもない者の取り消し", en="a void by someone other than a recorder or the judge"),
    message=Text(
        ja="log.void の by={by} は recorder でも judge でもありません: seq {seqs} は取り消されず、記録どおり残ります",
        en="log.void by={by} is by neither a recorder nor the judge: seq {seqs} stay as recorded",
    ),
    on=(LogVoided,),
    doc=Doc(
        checks=Text(
            ja="`log.void` の `by` が `recorder` (記録係) か `judge` であること。ほかの者の取り消しは何も取り消さない。",
            en="A `log.void` is `by` a `recorder` or the `judge`; anyone else's takes nothing back.",
        ),
        why=Text(
            ja="取り消しは記録の誤りを直すためのもの。プレイヤーが自分のプレイを取り消せば、それは記録の修正ではなくプレイのやり直しになる。",
            en="A void mends a recording mistake; a player taking back their own play would be replaying it, not mending the record.",
        ),
        bad='{"seq":12,"type":"log.void","by":"a","about":[11],"reason":"mistake"}',
        good='{"seq":12,"type":"log.void","by":"recorder","about":[11],"reason":"typed a1 for a2"}',
    ),
)
def void_by_recorder_or_judge(s: Step) -> Iterable[Hit]:
    if s.event.by not in RECORDER_OR_JUDGE:
        seqs = _refused(s, "by")
        yield Hit(s.event.seq, {"by": s.event.by or "-", "seqs": ", ".join(map(str, seqs))},
                  tuple(x for x in seqs if 1 <= x < s.event.seq))


@rule(
    code="KIFU-LOG-010",
    name="void-names-earlier-events",
    severity=Severity.ERROR,
    citation=VOID_CITE,
    title=Text(ja="取り消しが存在しない seq を指している", en="a void names a seq that does not exist"),
    message=Text(
        ja="log.void が seq {missing} を指していますが、その時点で存在する seq は 1–{last} です",
        en="log.void names seq {missing}, but only seqs 1–{last} exist at that point",
    ),
    on=(LogVoided,),
    doc=Doc(
        checks=Text(
            ja="`log.void` の `about` の seq がすべて、その取り消しより前のイベントを指していること。",
            en="Every seq in a `log.void`'s `about` names an event before the void.",
        ),
        why=Text(
            ja="取り消せるのは記録済みのイベントだけ。まだない seq の取り消しは、打ち間違いか、後で書かれる行を前もって消す試みである。",
            en="Only recorded events can be taken back; a void of a seq yet to come is a typo, or an attempt to cancel a line before it is written.",
        ),
        bad='{"seq":12,"type":"log.void","by":"recorder","about":[12],"reason":"undo"}',
        good='{"seq":12,"type":"log.void","by":"recorder","about":[11],"reason":"undo"}',
    ),
)
def void_names_earlier_events(s: Step) -> Iterable[Hit]:
    for seq in _refused(s, "not-earlier"):
        yield Hit(s.event.seq, {"missing": seq, "last": s.event.seq - 1})


@rule(
    code="KIFU-LOG-011",
    name="match-start-is-never-voided",
    severity=Severity.ERROR,
    citation=VOID_CITE,
    title=Text(ja="match.start の取り消し", en="a void of match.start"),
    message=Text(
        ja="log.void が match.start (seq 1) を取り消そうとしています: 試合の始まりは取り消せません",
        en="log.void names match.start (seq 1): the start of the match cannot be taken back",
    ),
    on=(LogVoided,),
    doc=Doc(
        checks=Text(ja="`log.void` が seq 1 (`match.start`) を指さないこと。",
                    en="A `log.void` does not name seq 1 (`match.start`)."),
        why=Text(
            ja="試合、ゲーム、参加者を決めるのは match.start であり、ログはそれなしに成り立たない。"
               "誤った match.start は新しいログで記録し直す。",
            en="match.start names the match, the game and the players; a log means nothing without it. "
               "A wrong match.start is mended by recording a new log.",
        ),
        bad='{"seq":3,"type":"log.void","by":"recorder","about":[1],"reason":"wrong players"}',
        good='{"seq":3,"type":"log.void","by":"recorder","about":[2],"reason":"typo"}',
    ),
)
def match_start_is_never_voided(s: Step) -> Iterable[Hit]:
    for _ in _refused(s, "match-start"):
        yield Hit(s.event.seq, {}, (1,))


@rule(
    code="KIFU-LOG-012",
    name="void-is-never-voided",
    severity=Severity.ERROR,
    citation=VOID_CITE,
    title=Text(ja="取り消しの取り消し", en="a void of a void"),
    message=Text(
        ja="seq {target} は取り消し (log.void) そのものです: 取り消しは取り消せません。誤って取り消した行は記録し直します",
        en="seq {target} is itself a void (log.void) and cannot be voided: record the events it took back again",
    ),
    on=(LogVoided,),
    doc=Doc(
        checks=Text(ja="`log.void` が別の `log.void` を指さないこと。",
                    en="A `log.void` does not name another `log.void`."),
        why=Text(
            ja="取り消しの取り消しを認めると、あるイベントが起きたかどうかが取り消しの連鎖を数えないと分からなくなる。"
               "誤って取り消した行は、もう一度記録すればよい。",
            en="If voids could be voided, whether an event happened would depend on counting a chain of voids. "
               "A line voided by mistake is simply recorded again.",
        ),
        bad='{"seq":13,"type":"log.void","by":"recorder","about":[12],"reason":"undo the undo"}',
        good=Text(
            ja='{"seq":13,"type":"gg.toss",...}   (seq 12 で取り消した行を記録し直す)',
            en='{"seq":13,"type":"gg.toss",...}   (the line voided at seq 12, recorded again)',
        ),
    ),
)
def void_is_never_voided(s: Step) -> Iterable[Hit]:
    for seq in _refused(s, "void"):
        yield Hit(s.event.seq, {"target": seq}, (seq,))


@rule(
    code="KIFU-LOG-013",
    name="ruled-event-is-never-voided",
    severity=Severity.ERROR,
    citation=VOID_CITE,
    title=Text(ja="裁定のあったイベントの取り消し", en="a void of an event a judge has ruled on"),
    message=Text(
        ja="seq {target} については seq {ruling} でジャッジが裁定しています: 裁定の後では取り消せません",
        en="the judge ruled on seq {target} at seq {ruling}: it cannot be voided after the ruling",
    ),
    on=(LogVoided,),
    doc=Doc(
        checks=Text(
            ja="`log.void` が、それより前の (取り消されていない) `judge.ruling` の `about` にある seq を指さないこと。",
            en="A `log.void` does not name a seq in the `about` of an earlier `judge.ruling` that stands (was not itself voided).",
        ),
        why=Text(
            ja="裁定は記録されたとおりの出来事について下される。その後で出来事を取り消すと、裁定が宙に浮き、"
               "争いのあった記録が消えてしまう。裁定の誤りはジャッジが裁定を取り消すか、新しい裁定で直す。",
            en="A ruling judges the events as recorded; voiding them afterwards would leave the ruling hanging and "
               "erase the disputed record. A wrong ruling is voided by the judge, or superseded by a new ruling.",
        ),
        bad=Text(
            ja='{"seq":9,"type":"judge.ruling","about":[7],...} の後に {"seq":10,"type":"log.void","about":[7],...}',
            en='{"seq":9,"type":"judge.ruling","about":[7],...} then {"seq":10,"type":"log.void","about":[7],...}',
        ),
        good=Text(
            ja='{"seq":8,"type":"log.void","about":[7],...} の後に {"seq":9,"type":"judge.ruling","about":[8],...}',
            en='{"seq":8,"type":"log.void","about":[7],...} then {"seq":9,"type":"judge.ruling","about":[8],...}',
        ),
    ),
)
def ruled_event_is_never_voided(s: Step) -> Iterable[Hit]:
    assert isinstance(s.event, LogVoided)
    for v in void_verdicts(s.event, s.before.log):
        if v.problem == "ruled":
            yield Hit(s.event.seq, {"target": v.seq, "ruling": v.ruling}, (v.seq, v.ruling or v.seq))


RULES: tuple[Rule, ...] = (
    nothing_after_match_end,
    by_names_a_player,
    time_goes_forward,
    at_is_rfc3339,
    ruling_names_earlier_events,
    match_ends_once,
    player_ids_unique,
    void_by_recorder_or_judge,
    void_names_earlier_events,
    match_start_is_never_voided,
    void_is_never_voided,
    ruled_event_is_never_voided,
)
