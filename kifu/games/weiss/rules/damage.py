"""Weiss Schwarz attack damage: soul, the direct and side adjustments, soul ≤ 0, and the climax cancel.

Source: seed 003 §アタックフェイズ A.3 and D.3; reference B1 #6, B3, B6 #8 and #11.
"""

from __future__ import annotations

from typing import Any, Iterable

from kifu.auditor.base import Doc, Hit, Severity, Step, Text, rule

from .. import events as ev
from ..projection import State
from .common import SIDE_ATTACK_LEVEL, UNKNOWN_BOARD, game, option, undecided

ATK = "seed 003 §アタックフェイズ"
SIDE_LEVEL = "side_attack_level"
DMG = f"{ATK} D.3"


def expected_damage(state: State, side_level: str = "defender") -> dict[str, Any] | None:
    """What the attack's damage should be by seed 003, and how it is made up; None without an attack.

    ``side_level`` is the option ``side_attack_level``: whose level a side attack subtracts.
    """
    attack = state.attack
    if attack is None:
        return None
    slot = state.side(attack.player).stage.get(attack.slot)
    if slot is None:
        return {"present": False, "soul": 0, "base": 0, "direct": 0, "side": 0, "expected": 0}
    direct = 1 if attack.kind == "direct" else 0
    side = (slot.level_now if side_level == "attacker" else attack.defender_level) if attack.kind == "side" else 0
    base = slot.soul_now + attack.trigger_soul
    soul = base + direct - side
    return {"present": True, "soul": soul, "base": base, "direct": direct, "side": side, "expected": max(0, soul)}


def _attack_damage(s: Step) -> tuple[ev.DamageDealt, dict[str, Any]] | None:
    e = s.event
    if not isinstance(e, ev.DamageDealt) or e.source != "attack":
        return None
    if e.cancelled and e.amount == 0:
        return None  # a cancelled damage may be written as the 0 that stuck; the reveal is WS-DMG-005's
    calc = expected_damage(game(s.before), str(option(s.options, SIDE_ATTACK_LEVEL)))
    if calc is None or e.amount == calc["expected"] or not _damage_knowable(game(s.before)):
        return None
    return e, calc


def _damage_knowable(state: State) -> bool:
    """Whether the log shows the attacker (and, for a side attack, the defender) it started without."""
    a = state.attack
    if a is None or state.known:
        return True
    return a.slot in state.side(a.player).stage and (a.kind != "side" or a.defender_present)


def _diagnosis(e: ev.DamageDealt, calc: dict[str, Any]) -> str:
    """Which statement of seed 003 the recorded amount breaks (one finding per wrong damage)."""
    if not calc["present"]:
        return "absent"
    # The unsubtracted soul is the side penalty forgotten, even when the right soul is 0 or less.
    if calc["side"] and e.amount == max(0, calc["base"] + calc["direct"]):
        return "side"
    if calc["soul"] <= 0 < e.amount:
        return "floor"
    if calc["direct"] and e.amount == calc["expected"] - 1:
        return "direct"
    return "other"


def _damage_hit(s: Step, kinds: tuple[str, ...]) -> Iterable[Hit]:
    found = _attack_damage(s)
    if found is None:
        return
    e, calc = found
    if _diagnosis(e, calc) in kinds:
        yield Hit(e.seq, {"amount": e.amount, **calc}, (game(s.before).attack.seq,))  # type: ignore[union-attr]


DAMAGE_DOC_GOOD = "soul 1 direct: ws.damage amount=2"


@rule(
    code="WS-DMG-001",
    name="attack-damage-equals-soul",
    severity=Severity.ERROR,
    citation=f"{DMG} (攻撃キャラが存在する場合、相手にソウル分のダメージ); reference B6 #8",
    title=Text(ja="ダメージはソウル分", en="attack damage equals the attacker's soul"),
    message=Text(
        ja="ダメージ {amount} が記録されましたが、ソウルは {expected} です (キャラ {base}, ダイレクト +{direct}, サイド −{side})",
        en="damage {amount} recorded, but the soul is {expected} (character and triggers {base}, direct +{direct}, "
           "side −{side})",
    ),
    options=(SIDE_LEVEL,),
    on=(ev.DamageDealt,),
    doc=Doc(
        checks=Text(
            ja="アタックのダメージが、その時点のアタックしているキャラのソウル (印刷されたソウル、効果、"
               "ソウルのトリガーアイコン) にダイレクト/サイドの補正を加えたものと等しいこと。"
               "アタックしているキャラが舞台を離れていればダメージはない。+1 や −レベル の付け忘れ、0 "
               "未満のダメージで説明できる誤りは WS-DMG-002/003/004 が指摘する。"
               "キャンセルされたダメージはソウルの値でも 0 (残った量) でも書いてよい。",
            en="The attack's damage equals the attacker's soul now (printed, effects, soul trigger icons), with the "
               "direct and side adjustments; no damage when the attacker has left the stage. Wrong amounts explained "
               "by a missing +1 or −level, or by damage below 0, are reported by WS-DMG-002/003/004. A cancelled "
               "damage may be written with the soul or with 0 (what stuck).",
        ),
        why=Text(
            ja="seed 003 D.3: 攻撃キャラが存在する場合、相手にソウル分のダメージを与える。",
            en="Seed 003 D.3: if the attacking character is there, it deals damage equal to its soul.",
        ),
        bad=Text(
            ja="ソウル 2 のフロントアタック、ソウルトリガー: ws.damage amount=2",
            en="soul 2 front, soul trigger: ws.damage amount=2",
        ),
        good=Text(
            ja="ソウル 2 のフロントアタック、ソウルトリガー: ws.damage amount=3",
            en="soul 2 front, soul trigger: ws.damage amount=3",
        ),
    ),
)
def attack_damage_equals_soul(s: Step) -> Iterable[Hit]:
    before = game(s.before)
    if isinstance(s.event, ev.DamageDealt) and s.event.source == "attack" and not _damage_knowable(before):
        yield undecided(s.event.seq, UNKNOWN_BOARD)
    yield from _damage_hit(s, ("other", "absent"))


@rule(
    code="WS-DMG-002",
    name="direct-attack-adds-one-soul",
    severity=Severity.ERROR,
    citation=f"{ATK} A.3 (ダイレクトアタック: アタックキャラのソウル+1); reference B1 #6",
    title=Text(ja="ダイレクトアタックはソウル+1", en="a direct attack adds one soul"),
    message=Text(
        ja="ダイレクトアタックのダメージ {amount} はソウル+1 を数えていません (正しくは {expected})",
        en="the direct attack's damage {amount} leaves out the +1 soul (it should be {expected})",
    ),
    options=(SIDE_LEVEL,),
    on=(ev.DamageDealt,),
    doc=Doc(
        checks=Text(
            ja="ダイレクトアタックのダメージにソウル +1 が含まれていること。",
            en="A direct attack's damage includes the +1 soul.",
        ),
        why=Text(
            ja="seed 003 A.3: ダイレクトアタックではアタックキャラのソウル +1 (自動)。",
            en="Seed 003 A.3: on a direct attack the attacker gets soul +1 (automatic).",
        ),
        bad=Text(
            ja="ソウル 1 のダイレクトアタック: ws.damage amount=1",
            en="soul 1 direct: ws.damage amount=1",
        ),
        good=Text(
            ja="ソウル 1 のダイレクトアタック: ws.damage amount=2",
            en=DAMAGE_DOC_GOOD,
        ),
    ),
)
def direct_attack_adds_one_soul(s: Step) -> Iterable[Hit]:
    yield from _damage_hit(s, ("direct",))


@rule(
    code="WS-DMG-003",
    name="side-attack-subtracts-the-opposing-level",
    severity=Severity.ERROR,
    citation=f"{ATK} A.3 (サイドアタック: ソウル数を…レベル分だけ引く); reference B1 #6, B6 #8",
    title=Text(ja="サイドアタックは相手キャラのレベル分ソウル−", en="a side attack subtracts the opposing character's level"),
    message=Text(
        ja="サイドアタックのダメージ {amount} は相手キャラのレベル {side} を引いていません (正しくは {expected})",
        en="the side attack's damage {amount} does not subtract the opposing level {side} (it should be {expected})",
    ),
    options=(SIDE_LEVEL,),
    on=(ev.DamageDealt,),
    doc=Doc(
        checks=Text(
            ja="サイドアタックのダメージが、ソウルから宣言時の正面の相手キャラのレベルを引いたものであること "
               "(オプション side_attack_level=attacker: seed A.3 を文字どおりに読み、"
               "アタックするキャラ自身のレベルを引く)。記録された量が引く前のソウルのままなら、正しいソウルが 0 "
               "以下でもここで指摘する。",
            en="A side attack's damage is the soul minus the opposing character's level at declaration (option "
               "side_attack_level=attacker: minus the attacker's own level, seed A.3 read literally). Reported here "
               "when the recorded amount is the soul left unsubtracted, even if the right soul is 0 or less.",
        ),
        why=Text(
            ja="seed 003 A.3: サイドアタックでは、アタックするキャラのソウルから正面のキャラのレベル分を引く。"
               "そのキャラがいなくなってもこの減少は残る (reference B1 #6)。",
            en="Seed 003 A.3: a side attack subtracts the level of the character in front from the attacker's soul; "
               "the penalty stays if that character leaves (reference B1 #6).",
        ),
        bad=Text(
            ja="ソウル 2 のサイドアタック、相手はレベル 1: ws.damage amount=2",
            en="soul 2 side vs level 1: ws.damage amount=2",
        ),
        good=Text(
            ja="ソウル 2 のサイドアタック、相手はレベル 1: ws.damage amount=1",
            en="soul 2 side vs level 1: ws.damage amount=1",
        ),
    ),
)
def side_attack_subtracts_level(s: Step) -> Iterable[Hit]:
    yield from _damage_hit(s, ("side",))


@rule(
    code="WS-DMG-004",
    name="no-damage-when-soul-is-zero-or-less",
    severity=Severity.ERROR,
    citation=f"{DMG} (ソウルが0かそれ以下の場合、与えるダメージは0)",
    title=Text(ja="ソウル0以下ならダメージ0", en="soul of zero or less deals no damage"),
    message=Text(
        ja="ソウルは {soul} (0以下) なのにダメージ {amount} が記録されています",
        en="the soul is {soul} (zero or less), yet damage {amount} is recorded",
    ),
    options=(SIDE_LEVEL,),
    on=(ev.DamageDealt,),
    doc=Doc(
        checks=Text(
            ja="補正後のアタックしているキャラのソウルが 0 以下なら、ダメージが 0 であること。",
            en="When the attacker's soul after adjustments is 0 or less, the damage is 0.",
        ),
        why=Text(
            ja="seed 003 D.3: ソウルが 0 かそれ以下の場合、与えるダメージは 0 (マイナスにも切り上げにもならない)。",
            en="Seed 003 D.3: with soul 0 or less the damage dealt is 0 (it is never negative nor rounded up).",
        ),
        bad=Text(
            ja="ソウル 2 のサイドアタック、相手はレベル 3: ws.damage amount=1",
            en="soul 2 side vs level 3: ws.damage amount=1",
        ),
        good=Text(
            ja="ソウル 2 のサイドアタック、相手はレベル 3: ws.damage amount=0",
            en="soul 2 side vs level 3: ws.damage amount=0",
        ),
    ),
)
def no_damage_when_soul_not_positive(s: Step) -> Iterable[Hit]:
    yield from _damage_hit(s, ("floor",))


def _reveal_problem(e: ev.DamageDealt) -> Text | None:
    if not e.cards:
        return None  # the log did not record the reveal; only the amount can be judged
    climaxes = [i for i, c in enumerate(e.cards) if c.climax]
    if climaxes and climaxes[0] < len(e.cards) - 1:
        after = len(e.cards) - climaxes[0] - 1
        return Text(ja=f"クライマックスの後に {after} 枚公開されています",
                    en=f"{after} card(s) revealed after the climax")
    if climaxes and not e.cancelled:
        return Text(ja="クライマックスが公開されたのに、ダメージがキャンセルと記録されていません",
                    en="a climax was revealed but the damage is not marked cancelled")
    if e.cancelled and not climaxes:
        return Text(ja="ダメージがキャンセルと記録されていますが、クライマックスは公開されていません",
                    en="the damage is marked cancelled but no climax was revealed")
    if not climaxes and len(e.cards) != e.amount:
        return Text(ja=f"クライマックスなしで、ダメージ {e.amount} に {len(e.cards)} 枚公開されています",
                    en=f"{len(e.cards)} card(s) revealed for {e.amount} damage without a climax")
    return None


@rule(
    code="WS-DMG-005",
    name="a-revealed-climax-cancels-and-stops-the-reveal",
    severity=Severity.ERROR,
    citation="CR damage cancel per reference B3 (wikia Q&A No.4); reference B6 #11",
    title=Text(ja="クライマックスが出たらダメージキャンセル、公開はそこまで",
               en="a revealed climax cancels the damage and stops the reveal"),
    message=Text(ja="ダメージの公開: {detail}", en="damage reveal: {detail}"),
    on=(ev.DamageDealt,),
    doc=Doc(
        checks=Text(
            ja="ダメージは 1 点につきカードを 1 枚公開し、クライマックスが出たら公開はそこで終わり、"
               "ダメージはキャンセルされる (公開したカードはすべて控室へ)。クライマックスが出なければちょうど "
               "`amount` 枚を公開する (クロックへ)。`cards` のない `ws.damage` は公開を記録していないので、"
               "ここでは判定しない。",
            en="Damage reveals one card per point; a climax ends the reveal and cancels the damage (all revealed "
               "cards to the waiting room); without a climax exactly `amount` cards are revealed (to the clock). A "
               "`ws.damage` without `cards` records no reveal and is not judged here.",
        ),
        why=Text(
            ja="reference B3: クライマックスが公開されたら、そのダメージ全体がキャンセルされ、それ以上は公開しない。",
            en="Reference B3: if a climax is revealed the whole damage instance is cancelled and nothing more is "
               "revealed.",
        ),
        bad="ws.damage amount=3 cards=[x, CX, y] cancelled",
        good="ws.damage amount=3 cards=[x, CX] cancelled",
    ),
)
def climax_cancels_damage(s: Step) -> Iterable[Hit]:
    assert isinstance(s.event, ev.DamageDealt)
    problem = _reveal_problem(s.event)
    if problem:
        yield Hit(s.event.seq, {"detail": problem})


@rule(
    code="WS-DMG-006",
    name="shot-damage-only-after-a-cancel",
    severity=Severity.ERROR,
    citation="reference B4 (Shot), B6 #11",
    title=Text(ja="ショットのダメージはキャンセルされたときだけ", en="shot damage only after the attack's damage was cancelled"),
    message=Text(ja="ショットのダメージ: {detail}", en="shot damage: {detail}"),
    on=(ev.DamageDealt,),
    doc=Doc(
        checks=Text(
            ja="`ws.damage source=shot` が、トリガーでショットアイコンが出て、"
               "かつダメージがキャンセルされたアタックのものであること。",
            en="A `ws.damage source=shot` belongs to an attack whose trigger revealed a shot icon and whose damage "
               "was cancelled.",
        ),
        why=Text(
            ja="ショットアイコンは、このアタックのダメージがキャンセルされたときにだけ 1 点のダメージを与える "
               "(reference B4、B6 #11)。",
            en="The shot icon deals 1 damage only if this attack's damage is cancelled (reference B4, B6 #11).",
        ),
        bad=Text(
            ja="ws.reveal icons=[shot]; ws.damage (キャンセルされていない); ws.damage source=shot",
            en="ws.reveal icons=[shot]; ws.damage (not cancelled); ws.damage source=shot",
        ),
        good="ws.reveal icons=[shot]; ws.damage cancelled; ws.damage amount=1 source=shot",
    ),
)
def shot_only_after_cancel(s: Step) -> Iterable[Hit]:
    e = s.event
    assert isinstance(e, ev.DamageDealt)
    if e.source != "shot":
        return
    a = game(s.before).attack
    if a is None or a.shots == 0:
        yield Hit(e.seq, {"detail": Text(ja="このアタックでショットアイコンは公開されていません",
                                         en="no shot icon was revealed in this attack")})
    elif not a.cancelled:
        yield Hit(e.seq, {"detail": Text(ja="アタックのダメージはキャンセルされていません",
                                         en="the attack's damage was not cancelled")}, (a.damage_seq or a.seq,))


RULES = (
    attack_damage_equals_soul,
    direct_attack_adds_one_soul,
    side_attack_subtracts_level,
    no_damage_when_soul_not_positive,
    climax_cancels_damage,
    shot_only_after_cancel,
)
