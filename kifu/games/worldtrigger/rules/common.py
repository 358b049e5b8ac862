"""Shared helpers of the World Trigger rulebook (seed 002): citations, options, catalogue access, the distance."""

from __future__ import annotations

from typing import Any

from kifu.auditor.base import Option, Text

from .. import cards
from ..projection import Agent, State, agent

SEED = "seed 002"
STEP1 = "■5 戦術フェイズ 手順1"
STEP2 = "■5 戦術フェイズ 手順2"
STEP3 = "■5 戦術フェイズ 手順3"


def cite(section: str) -> str:
    """A citation of seed 002 (``■5 プロット`` …)."""
    return f"{SEED} {section}"


OPTIONS: tuple[Option, ...] = (
    Option(
        name="starting_trion",
        default=100,
        doc=Text(ja="初期トリオン量 (種に調整案の記載あり)", en="starting trion (the seed mentions adjusting it)"),
        citation=cite("■1 初期トリオン量 ※調整案"),
    ),
    Option(
        name="initial_order",
        default="turn1",
        choices=("turn1", "seat"),
        doc=Text(
            ja="初期距離の効果を使う順の「先攻」: turn1=1ターン目の先攻 (既定), seat=席順の先頭",
            en="the 'first player' who uses initial-distance effects first: turn1 = turn 1's first player "
               "(default; ■3 decides it after ■2), seat = the first seat of match.start",
        ),
        citation=cite("■2 初期距離を操作する効果 (先攻プレイヤーから順に)"),
    ),
    Option(
        name="use_limit",
        default="effect",
        choices=("effect", "trigger"),
        doc=Text(
            ja="1回の戦術フェイズの使用制限: effect=セットしたトリガー1枚の同じ効果は1回 (既定), trigger=1枚につき効果1回",
            en="once-per-tactics-phase limit: effect = each effect of a set trigger once (default, 同じトリガー効果), "
               "trigger = one effect of each set trigger",
        ),
        citation=cite("■5 同じトリガー効果の使用は…トリガー１枚につき１回まで"),
    ),
    Option(
        name="counter_first",
        default="latest",
        choices=("latest", "initiator"),
        doc=Text(
            ja="対抗使用の確認を最初に受けるプレイヤー: latest=直前に宣言したプレイヤー (既定), initiator=連鎖の最初の宣言者",
            en="who is asked first for a counter-use: latest = whoever made the latest declaration (default), "
               "initiator = whoever opened the chain",
        ),
        citation=cite("■5 手順3 (今トリガーの効果を宣言したプレイヤーから順に)"),
    ),
    Option(
        name="tags_expire",
        default="turn",
        choices=("turn", "phase"),
        doc=Text(
            ja="行動タグの有効期間: turn=そのターンの終わりまで (既定), phase=次のプロットまで",
            en="how long action tags last: turn = until the next turn order (default), phase = until the next plot",
        ),
        citation=cite("■5 行動タグは毎ターン行うプロットによって取得"),
    ),
)


def cat(s: Any) -> cards.Catalogue:
    """The catalogue of a Step or End; the bundled example when the engine was given none."""
    return s.catalogue if s.catalogue is not None else cards.load()


def who(s: Any) -> Agent:
    """The acting player's agent before the event."""
    return agent(s.before.game, s.event.player)


def slots(a: Agent, trigger: str) -> list[str]:
    """The slots (``main``, ``sub``) where ``a`` has ``trigger`` on the table (both if set twice)."""
    return [slot for slot, t in (("main", a.set_main), ("sub", a.set_sub)) if t == trigger]


def set_slot(a: Agent, trigger: str, face_down_first: bool = False) -> str | None:
    """A slot holding ``trigger``; with ``face_down_first`` a face-down one if there is one."""
    found = slots(a, trigger)
    if face_down_first:
        found.sort(key=lambda slot: face_up(a, slot))
    return found[0] if found else None


def face_up(a: Agent, slot: str) -> bool:
    return a.main_face_up if slot == "main" else a.sub_face_up


def unknown(name: str, effect: str | None = None) -> dict[str, Any]:
    """Evidence of an undecided finding: a trigger or effect the catalogue lacks."""
    what = name if effect is None else f"{name} / {effect}"
    return {"reason": f"{what} is not in the catalogue (add it to match.start.catalogue)", "trigger": name}


def distance_now(g: State) -> int | None:
    """The distance a new declaration starts from: pending moves of a closing chain count."""
    d = g.distance
    for decl in reversed(g.chain):
        if not decl.resolved and decl.to is not None:
            d = decl.to
    return d
