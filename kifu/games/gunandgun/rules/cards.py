"""ガンナガン: each card is used as the kind it is (base game).

Sources: ガンナガン非公式wiki「ルール」 §1.3 ① (card use: activate an action or a function, set a
response), §1.8 (card kinds); トスで決まる枚数ルール §カード処理ごとのトス実行タイミング (each kind tosses at its
own timing, so a card recorded as the wrong kind would toss at the wrong time).
"""

from __future__ import annotations

from collections.abc import Iterable

from kifu.auditor.base import Flag, Severity, Step, rule
from kifu.events.i18n import Msg

from .. import events as ev
from .. import projection as proj

KIND_JA = {"action": "【行動】", "function": "【機能】", "response": "【対応】", "bullet": "【銃弾】"}


def _claimed(e: object) -> tuple[str | None, str | None]:
    if isinstance(e, ev.CardPlayed):
        return e.card, e.kind
    if isinstance(e, ev.BulletFired):
        return e.card, "bullet"
    if isinstance(e, ev.TossGroupOpened) and e.kind == "function":
        return e.card, "function"
    return None, None


@rule(
    code="GG-CARD-001",
    name="card-used-as-its-kind",
    severity=Severity.ERROR,
    on=(ev.CardPlayed, ev.BulletFired, ev.TossGroupOpened),
)
def card_used_as_its_kind(s: Step) -> Iterable[Flag]:
    card, used = _claimed(s.event)
    if card is None:
        return
    f = proj.card_facts(s.before.game, card)
    if f is None:
        yield Flag(s.event.seq, {"reason": Msg("reason.gg.card_unknown", card=card)}, undecided=True)
    elif f.kind != used:
        yield Flag(
            s.event.seq,
            {
                "player": getattr(s.event, "player", None) or s.event.by,
                "card": card,
                "kind": Msg(f"word.gg.{f.kind}"),
                "used": Msg(f"word.gg.{used}"),
                "kind_ja": KIND_JA[f.kind],
                "used_ja": KIND_JA.get(used or "", used),
            },
        )


RULES = (card_used_as_its_kind,)
