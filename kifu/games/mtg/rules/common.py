"""Magic coin flips (CR 705, seed 001): citations, options and helpers shared by the rule areas."""

from __future__ import annotations

from typing import Any

from kifu.auditor.base import Option, Text

from ..cards import Card
from ..projection import Group, Instruction, State, card_of, groups_in_order

CR_705_1 = "CR 705.1; seed 001 §引用：総合ルール 705.1"
CR_705_2 = "CR 705.2; seed 001 §ルール, §引用：総合ルール 705.2"
CR_705_3 = "CR 705.3 (2025, Edgar, King of Figaro); reference A1"
THUMB = "Saturday School #56 (2003-12-13), Krark's Thumb; CR 614.1a"
CARD = "card text (reference A2, Forge card script) with CR 705.2"

STACKING = Option(
    name="thumbs_stack",
    default="multiply",
    choices=("multiply", "add"),
    doc=Text(
        ja="クラークの親指が複数あるとき: multiply は親指 k 枚で 2^k 枚 (置換が前の置換の結果にも適用される。XMage と同じ)、"
           "add は 1+k 枚 (旧 Forge の数え方)。",
        en="Several Krark's Thumbs: multiply gives 2^k coins for k Thumbs (each replacement applies to the coins "
           "the previous one made, as XMage does); add gives 1+k coins (older Forge).",
    ),
    citation="Saturday School #56; reference A1 (multiplication marked to verify against the Scryfall ruling)",
)

STATED = Option(
    name="stated_results",
    default=True,
    choices=(True, False),
    doc=Text(
        ja="CR 705.3 (2025 年追加): 効果が結果や勝者を明示するとき (エドガー) 実際の結果の代わりにそれを使う。"
           "false にすると 705.3 以前の総合ルール (seed 001 の 20231117.0 版) で判定する。",
        en="CR 705.3 (added 2025): when an effect states a flip's result or winner (Edgar) it is used instead of "
           "the real one. false audits under the CR before 705.3 (seed 001 quotes 20231117.0).",
    ),
    citation=CR_705_3,
)

RECORDED = Option(
    name="recorded_coins",
    default="all",
    choices=("all", "kept"),
    doc=Text(
        ja="all: クラークの親指で無視したコインも記録されている。kept: 残したコインだけを記録するクライアント "
           "(Forge など) のログで、枚数と選択の時機は判定不能 (情報) とする。",
        en="all: ignored Krark's Thumb coins are recorded too. kept: the log comes from a client that records only "
           "the kept coin (Forge); coin counts and when the coin was chosen are then undecidable (info).",
    ),
    citation="reference A3 (Forge logs only the kept coin), A4 item 10",
)

CALLS = Option(
    name="call_counts",
    default="last-before-result",
    choices=("last-before-result", "first"),
    doc=Text(
        ja="コインを投げるプレイヤーが宣言を言い直したとき: last-before-result は結果が出る前の最後の宣言を採用 "
           "(seed 001 は「宣言→投げる」の順も認めており、投げる前の言い直しは結果を知らずに行われる)。first は最初の宣言に拘束する。"
           "結果の後の宣言は、どちらでも MTG-CALL-004 の違反。",
        en="When the flipper changes the call: last-before-result takes the last call made before the flipper's first "
           "coin landed (seed 001 accepts calling before the toss, and a call changed before the result is made "
           "blind); first holds the flipper to the first call. A call after the result breaks MTG-CALL-004 either way.",
    ),
    citation="CR 705.2 (the flipper calls); seed 001 §ルール (宣言→投げる の順序も可); the seed is silent on changing a call",
)

UNRECORDED = Option(
    name="unrecorded_payoffs",
    default="undecided",
    choices=("undecided", "error"),
    doc=Text(
        ja="カード自身の効果 (mtg.payoff) が一つも記録されていないコイン投げ: undecided は「判定不能」(情報) とする "
           "(コインだけを記録する卓のログ)。error は記録漏れを MTG-PAY-002 の違反とする (効果まで全部記録するクライアント)。"
           "一部でも記録されていれば、不足も超過も常に判定する。",
        en="A flip whose card's own effect has no `mtg.payoff` at all: undecided reports it as info (a table that "
           "records only the coins); error reports the missing payoff under MTG-PAY-002 (a client that records every "
           "effect). Once any own payoff of the flip is recorded, shortfall and excess are always judged.",
    ),
    citation="CR 705 says nothing of recording effects; docs/games/mtg.md (mtg.payoff is optional)",
)

OPTIONS = (STACKING, STATED, RECORDED, CALLS, UNRECORDED)


def expected_coins(thumbs: int, stacking: str) -> int:
    """Coins one replaced flip makes under ``thumbs`` Krark's Thumbs."""
    return 1 + thumbs if stacking == "add" else 2 ** thumbs


def flip_of(state: State, flip: str) -> Instruction | None:
    return state.flips.get(flip)


def card(state: State, ins: Instruction) -> Card | None:
    return card_of(state, ins.card)


def new_group(before: Instruction | None, n: int) -> bool:
    """True when group ``n`` had no coin before this event."""
    return before is None or n not in before.groups or not before.groups[n].coins


def last_coin_seq(ins: Instruction) -> int:
    seqs = [c.seq for g in groups_in_order(ins) for c in g.coins]
    return seqs[-1] if seqs else ins.seq


def players_flipping(g: Group) -> list[str]:
    return list(dict.fromkeys(c.player for c in g.coins))


def evidence(ins: Instruction, **more: Any) -> dict[str, Any]:
    return {"flip": ins.flip, "card": ins.card, "flipper": ins.flipper, **more}

