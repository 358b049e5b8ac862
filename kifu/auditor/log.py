"""Log-level rules (``KIFU-…``) that hold for every game's match log.

Source: DESIGN.md contracts 1 and 4, and issue 2 of the tracker.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..events.base import JudgeRuling, LogVoided, MatchEnded, MatchStarted, Note, RandomRolled
from ..projector.base import RECORDER_OR_JUDGE, parse_time, void_verdicts
from ..events.i18n import Msg
from .base import REST, End, Flag, Option, Rule, Severity, Step, end_rule, rule

ROLES = ("judge", "system", "recorder")
"""`by` values that name a role at the table rather than a player."""


@rule(
    code="KIFU-LOG-001",
    name="nothing-after-match-end",
    severity=Severity.ERROR,
)
def nothing_after_match_end(s: Step) -> tuple[Flag, ...] | None:
    # Watches every event, so a plain return instead of a generator (the engine takes None).
    ended = s.before.log.ended
    if ended is not None and not isinstance(s.event, (Note, JudgeRuling, MatchEnded, LogVoided)):
        # play after the end: one finding, at the first such event, every later one its consequence
        return (Flag(s.event.seq, {"type": type(s.event).__struct_config__.tag, "ended": ended}, (ended,), about=REST),)
    return None


@rule(
    code="KIFU-LOG-002",
    name="by-names-a-player",
    severity=Severity.ERROR,
)
def by_names_a_player(s: Step) -> tuple[Flag, ...] | None:
    by = s.event.by
    if by is not None and by not in s.after.log.players and by not in ROLES:  # mostly a player: asked first
        return (Flag(s.event.seq, {"by": by, "players": list(s.after.log.players)}),)
    return None


@rule(
    code="KIFU-LOG-003",
    name="time-goes-forward",
    severity=Severity.WARNING,
)
def time_goes_forward(s: Step) -> tuple[Flag, ...] | None:
    seq = s.event.seq
    if s.event.at is None or (s.after.log.last_at_seq == seq and s.before.log.last_at_seq != seq):  # became last
        return None
    t, last = parse_time(s.event.at), parse_time(s.before.log.last_at)
    if t is not None and last is not None and t < last:
        return (
            Flag(
                s.event.seq,
                {"at": s.event.at, "last_at": s.before.log.last_at, "last_seq": s.before.log.last_at_seq},
                (s.before.log.last_at_seq or s.event.seq,),
            ),
        )
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
)
def at_is_rfc3339(s: Step) -> tuple[Flag, ...] | None:
    seq = s.event.seq
    if s.event.at is None or (s.after.log.last_at_seq == seq and s.before.log.last_at_seq != seq):  # became last
        return None
    if parse_time(s.event.at) is None:
        return (Flag(s.event.seq, {"at": s.event.at}),)
    return None


EVERY_EVENT = ("KIFU-LOG-001", "KIFU-LOG-002", "KIFU-LOG-003", "KIFU-LOG-004")
"""The log rules that watch every event: the engine runs them only on a step ``passes_every_event`` cannot
vouch for."""


def passes_every_event(s: Step) -> bool:
    """True when none of the ``EVERY_EVENT`` rules can flag this step: the match has not ended, ``by`` names
    a player or a role (or nobody), and ``at`` is absent or became the latest time (so it is readable and
    not earlier than any before it). One test where the four rules would make four calls on every event of
    every log; a step it cannot vouch for (False) is shown to each of them as before."""
    e = s.event
    if s.before.log.ended is not None:
        return False
    by = e.by
    if by is not None and by not in s.after.log.players and by not in ROLES:
        return False
    seq = e.seq
    return e.at is None or (s.after.log.last_at_seq == seq and s.before.log.last_at_seq != seq)


@rule(
    code="KIFU-LOG-005",
    name="ruling-names-earlier-events",
    severity=Severity.ERROR,
    on=(JudgeRuling,),
)
def ruling_names_earlier_events(s: Step) -> Iterable[Flag]:
    assert isinstance(s.event, JudgeRuling)
    for ref in s.event.about:
        if not 1 <= ref < s.event.seq:
            yield Flag(s.event.seq, {"missing": ref, "last": s.event.seq - 1})


@rule(
    code="KIFU-LOG-006",
    name="match-ends-once",
    severity=Severity.ERROR,
    on=(MatchEnded,),
)
def match_ends_once(s: Step) -> Iterable[Flag]:
    if s.before.log.ended is not None:
        yield Flag(s.event.seq, {"ended": s.before.log.ended}, (s.before.log.ended,), about=REST)


@rule(
    code="KIFU-LOG-007",
    name="player-ids-unique",
    severity=Severity.ERROR,
    on=(MatchStarted,),
)
def player_ids_unique(s: Step) -> Iterable[Flag]:
    seen: set[str] = set(ROLES)
    assert isinstance(s.event, MatchStarted)
    for p in s.event.players:
        if p.id in seen:
            yield Flag(1, {"id": p.id})
        seen.add(p.id)


def options_rule(declared: Sequence[Option]) -> Rule:
    """KIFU-LOG-008 for one game's declared options."""
    known = {o.name: o for o in declared}

    def check(s: Step) -> Iterable[Flag]:
        for key, value in s.start.rules.items():
            opt = known.get(key)
            if opt is None:
                yield Flag(1, {"option": key, "value": value, "choices": sorted(known)})
            elif opt.choices is not None and value not in opt.choices:
                yield Flag(1, {"option": key, "value": value, "choices": [str(c) for c in opt.choices]})

    return Rule(
        check=check,
        code="KIFU-LOG-008",
        name="rule-options-are-known",
        severity=Severity.WARNING,
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
    on=(LogVoided,),
)
def void_by_recorder_or_judge(s: Step) -> Iterable[Flag]:
    if s.event.by not in RECORDER_OR_JUDGE:
        seqs = _refused(s, "by")
        yield Flag(
            s.event.seq,
            {"by": Msg("text.log.by", by=s.event.by) if s.event.by else Msg("text.log.no_by"), "seqs": seqs},
            tuple(x for x in seqs if 1 <= x < s.event.seq),
        )


@rule(
    code="KIFU-LOG-010",
    name="void-names-earlier-events",
    severity=Severity.ERROR,
    on=(LogVoided,),
)
def void_names_earlier_events(s: Step) -> Iterable[Flag]:
    for seq in _refused(s, "not-earlier"):
        yield Flag(s.event.seq, {"missing": seq, "last": s.event.seq - 1})


@rule(
    code="KIFU-LOG-011",
    name="match-start-is-never-voided",
    severity=Severity.ERROR,
    on=(LogVoided,),
)
def match_start_is_never_voided(s: Step) -> Iterable[Flag]:
    for _ in _refused(s, "match-start"):
        yield Flag(s.event.seq, {}, (1,))


@rule(
    code="KIFU-LOG-012",
    name="void-is-never-voided",
    severity=Severity.ERROR,
    on=(LogVoided,),
)
def void_is_never_voided(s: Step) -> Iterable[Flag]:
    for seq in _refused(s, "void"):
        yield Flag(s.event.seq, {"target": seq}, (seq,))


@rule(
    code="KIFU-LOG-013",
    name="ruled-event-is-never-voided",
    severity=Severity.ERROR,
    on=(LogVoided,),
)
def ruled_event_is_never_voided(s: Step) -> Iterable[Flag]:
    assert isinstance(s.event, LogVoided)
    for v in void_verdicts(s.event, s.before.log):
        if v.problem == "ruled":
            yield Flag(s.event.seq, {"target": v.seq, "ruling": v.ruling}, (v.seq, v.ruling or v.seq))


def face_range(e: RandomRolled) -> tuple[int, int] | None:
    """The least and greatest value a ``random`` event may record, or None when its shape is wrong
    (a coin that is not 2-sided, a total without its number of dice or with more than one value)."""
    if e.sides < 1 or (e.kind == "coin" and e.sides != 2):
        return None
    if e.kind == "total":
        if e.dice is None or e.dice < 1 or len(e.values) != 1:
            return None
        return e.dice, e.dice * e.sides
    return 1, e.sides


@rule(
    code="KIFU-LOG-014",
    name="random-values-within-their-sides",
    severity=Severity.ERROR,
    on=(RandomRolled,),
)
def random_values_within_their_sides(s: Step) -> Iterable[Flag]:
    # A face no die has is a recording error; left in, it would reach the fairness statistics as data.
    e = s.event
    assert isinstance(e, RandomRolled)
    if e.secret and not e.values:
        return  # a secret roll whose result the source hides (sides 0, no values): nothing was recorded to check
    bounds = face_range(e)
    if bounds is None:
        if e.kind == "coin" and e.sides >= 1:
            what = Msg("text.kifu.random_coin_sides", sides=e.sides)
        elif e.kind == "total" and e.sides >= 1 and (e.dice is None or e.dice < 1):
            what = Msg("text.kifu.random_total_dice")
        elif e.kind == "total" and e.sides >= 1:
            what = Msg("text.kifu.random_total_values", count=len(e.values))
        else:
            what = Msg("text.kifu.random_no_sides", sides=e.sides)
        yield Flag(e.seq, {"kind": Msg(f"word.random.{e.kind}"), "what": what})
        return
    low, high = bounds
    wrong = [v for v in e.values if not low <= v <= high]
    if wrong:
        yield Flag(
            e.seq,
            {
                "kind": Msg(f"word.random.{e.kind}"),
                "what": Msg("text.kifu.random_range", values=wrong, low=low, high=high),
            },
        )


@end_rule(
    code="KIFU-LOG-015",
    name="every-result-of-the-source-is-read",
    severity=Severity.INFO,
)
def every_result_of_the_source_is_read(end: End) -> Iterable[Flag]:
    # One finding for the whole log: the judge learns how many results an import left as notes, and where.
    unread = end.final.log.unread
    if unread:
        shown = ", ".join(map(str, unread[:20])) + (" …" if len(unread) > 20 else "")
        yield Flag(unread[0], {"count": len(unread), "seqs": shown}, tuple(unread))


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
    random_values_within_their_sides,
    every_result_of_the_source_is_read,
)
