"""Write the second-round Weiss Schwarz acceptance matches: ``PYTHONPATH=. python tests/acceptance/weiss2/make.py``.

Full matches written the way a table's client records them, from seed 003
(``shared/seeds/003_6ef41692d6c94716.txt``) and the public docs
(``docs/format.md``, ``docs/games/weiss.md``) only: ``table.py`` keeps its own
zone counts and does the seed's arithmetic; ``matches.py`` plays three matches.
Each clean match must audit with no error or warning; each dispute is one of
those matches with exactly one violation deep inside it, and ``cases.json``
names the finding (code, seq) the seed's ruling gives, taken from the seq of
the event written on purpose, never from an audit. Fixed times, no randomness:
re-running reproduces every file byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any
from collections.abc import Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path[:0] = [str(ROOT), str(HERE)]

from matches import match_a, match_b, match_c  # noqa: E402
from table import JudgeCalled, Table  # noqa: E402

from kifu.events import logfile  # noqa: E402
from kifu.events.base import KifuError  # noqa: E402

Match = Callable[[Table], None]

CLEAN: list[tuple[str, Match, str, dict[str, Any]]] = [
    ("a-clean", match_a, "match A, 9 turns from the opening hands to a concession", {}),
    ("a-clean-terse", match_a, "match A by a terse client: damage amounts only, no card names", {"listed": False}),
    ("a-clean-verbose", match_a, "match A by a client that writes every フェイズ終了", {"explicit_ends": True}),
    (
        "b-clean",
        match_b,
        "match B, turns 14–15 from a board: a refresh inside a damage, an encore after an effect, level 4 loses",
        {},
    ),
    (
        "c-clean",
        match_c,
        (
            "match C, turns 8–9 from a board: pool, shot, choice, gate, standby, encore by "
            "ability, 相打ち, AUTOs at the turn's and the attack phase's start, a burn"
        ),
        {},
    ),
    (
        "c-clean-bare",
        match_c,
        "match C by a client that writes no `by`, no `at`, every フェイズ終了 and no damage cards",
        {"anonymous": True, "explicit_ends": True, "listed": False},
    ),
    ("b-clean-bare", match_b, "match B by the same bare client", {"anonymous": True, "explicit_ends": True}),
    (
        "a-clean-tie-neither",
        match_a,
        "match A at a table that rules a tie reverses neither (option battle_tie)",
        {"rules": {"battle_tie": "neither"}},
    ),
    (
        "c-clean-house-rules",
        match_c,
        "match C at a table that rules hand limit 8, ties reverse neither, either player may counter",
        {"rules": {"hand_limit": 8, "battle_tie": "neither", "counter_by": "either"}},
    ),
]

DISPUTES: list[tuple[str, Match, str]] = [
    ("t1-second-attack", match_a, "first player's first turn declares a second attack (reference B1 #6)"),
    ("tie-reverses-both-at-a-neither-table", match_a, "E.4 tie at a battle_tie=neither table: both reversed"),
    ("direct-into-occupied", match_a, "A.3 ダイレクトアタック（正面に相手キャラがいない場合のみ） broken on turn 2"),
    ("encore-order", match_a, "F.3–4 乙's reversed card sent to the waiting room before 甲's"),
    ("stand-phase-partial", match_a, "スタンド 3 甲の全てのキャラをスタンドする: one rested character left rested"),
    ("damage-short", match_a, "D.3 ソウル分のダメージ: one damage short on a front attack, turn 3"),
    ("encore-two-stock", match_a, "rule encore (3) paid with 2 stock (reference B1 #7)"),
    ("play-in-climax-phase", match_a, "メイン 3: a character played in the climax phase"),
    ("second-climax", match_a, "クライマックス 3: a second climax in one turn"),
    ("climax-stays", match_a, "エンド 4: the climax is not put into the waiting room"),
    ("draw-without-clock", match_a, "クロック 3 置かないなら次へ: drew 2 without clocking"),
    ("resolve-outside-check", match_a, "チェックタイミング: an AUTO resolved with no check timing"),
    ("battle-after-bounce", match_a, "E.4 いなくなった場合は比較は行わず: battle recorded after a bounce"),
    ("battle-ignores-counter", match_b, "E.3–4 パワーの比較: the battle left out the defender's backup (+1500)"),
    ("clock-twice", match_a, "クロック 3 1枚選び: a second card clocked"),
    ("back-to-main", match_a, "phase order: back to the main phase after the climax phase"),
    ("non-turn-player-first", match_a, "チェックタイミング 2–3: 乙's AUTO resolved before 甲's"),
    ("counter-on-side", match_a, "B.7 サイドアタック → ダメージステップ: a backup played on a side attack"),
    ("draw-two", match_a, "ドロー 3 カードを1枚引く: drew 2 in the draw phase, turn 7"),
    ("attack-twice", match_a, "A.3 キャラをレスト状態にする: the same character attacks twice"),
    ("wrong-battle", match_a, "E.4 比較し低いほうをリバース: the higher-power attacker reversed"),
    ("hand-limit-kept", match_c, "エンド 3 規定枚数を超えていたら控室に: ended the turn over the limit"),
    ("end-not-repeated", match_c, "エンド 6 もう一回: an end-of-turn draw left the hand over the limit"),
    ("battle-step-skipped", match_a, "D.5 フロントアタックの場合バトルステップへ: went back to declaration"),
    ("no-trigger-reveal", match_a, "B.3 甲は山札トップを解決領域に置く: no trigger card revealed"),
    ("check-ends-with-pending", match_a, "チェックタイミング 3–4: ended with 乙's AUTO still waiting"),
    ("same-player-twice", match_a, "エンド 6 フェイズ終了 → the other player's turn: aoi took two turns running"),
    ("reversed-left-on-stage", match_a, "F.6 リバースカードが残っている → 3. に戻る: a reversed card left on stage"),
    ("encore-standing", match_a, "rule encore: the character returns rested (reference B1 #7, option default)"),
    ("climax-before-discard", match_c, "エンド 3 → 4: the climax left before the hand-limit discard (warning)"),
    ("no-refresh-point", match_b, "refresh point (CR 9.2 per B2): the refresh's clock card never put"),
    ("no-refresh", match_a, "refresh when the deck empties (CR 9.2 per reference B2): the table played on without it"),
    ("direct-no-plus-one", match_b, "A.3 ダイレクトアタック → ソウル+1 forgotten"),
    ("reveal-past-climax", match_b, "damage reveal goes on after a climax (reference B3)"),
    ("damage-at-zero-soul", match_b, "D.3 ソウルが0かそれ以下の場合、与えるダメージは0: side 2 − level 2 dealt 1"),
    ("level-four-played-on", match_b, "CR 1.2.2.1 per B2: level 4 loses; the table played on"),
    ("loss-without-cause", match_b, "CR 1.2.2.1 per B2: a level loss recorded at level 3"),
    ("loser-wins", match_b, "CR 1.2.2 per B2: match.end names the player who lost at level 4 as winner"),
    ("no-level-up", match_b, "level-up at 7 clock at once (CR 9.3 per B2): not done"),
    ("burn-climax-not-cancelled", match_c, "an effect's damage revealing a climax is cancelled too (reference B3)"),
    ("end-with-pending", match_c, "エンド 6 待機発動能力がない場合フェイズ終了: ended with an AUTO pending"),
    ("trigger-to-waiting", match_c, "B.5 トリガーに使ったカードをストックに置く: put into the waiting room"),
    ("side-no-penalty", match_c, "A.3 サイドアタック → レベル分だけ引く: not subtracted"),
    ("shot-without-cancel", match_c, "shot damage without a cancelled damage (reference B4)"),
    ("ability-before-level-up", match_c, "チェックタイミング 1: an AUTO resolved before the due level-up"),
]


HOUSE_RULES = {"tie-reverses-both-at-a-neither-table": {"battle_tie": "neither"}}
"""Disputes played at a table whose match.start sets an option."""


def _raw_append(path: Path, event: dict[str, Any]) -> None:
    """Chain a line exactly as docs/format.md tells a client to, for a line kifu refused."""
    lines = path.read_bytes().split(b"\n")[:-1]
    obj = {"type": event["type"], "seq": len(lines) + 1, "prev": hashlib.sha256(lines[-1]).hexdigest()}
    obj.update({k: v for k, v in event.items() if k != "type"})
    with path.open("ab") as fh:
        fh.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")


def write(t: Table) -> list[str]:
    """Write one log; return the refusals kifu gave while appending (the test reports them)."""
    path = HERE / f"{t.name}.jsonl"
    path.unlink(missing_ok=True)
    start = {k: v for k, v in t.events[0].items() if k != "type"}
    logfile.create(path, {"type": "match.start", **start})
    refused = []
    for i, event in enumerate(t.events[1:], start=2):
        try:
            logfile.append(path, event)
        except KifuError as exc:
            refused.append(f"{t.name}: line {i}: {exc}")
            _raw_append(path, event)
    return refused


def build() -> tuple[dict[str, Any], list[str]]:
    cases: dict[str, Any] = {}
    refused: list[str] = []
    for name, match, statement, style in CLEAN:
        t = Table(name, statement, **style)
        match(t)
        cases[f"{name}.jsonl"] = {"statement": statement, "events": len(t.events), "findings": []}
        refused += write(t)
    for name, match, statement in DISPUTES:
        t = Table(name, statement, bug=name, rules=HOUSE_RULES.get(name))
        try:
            match(t)
        except JudgeCalled:
            t.judge_call = None
            if t.events[-1]["type"] != "note":
                t.ev("note", by="judge", text="ジャッジコール: ここで卓が止まった")
        assert len(t.expect) == 1, (name, t.expect)
        cases[f"{name}.jsonl"] = {"statement": statement, "events": len(t.events), "findings": t.expect}
        refused += write(t)
    return cases, refused


def main() -> None:
    for old in HERE.glob("*.jsonl"):
        old.unlink()
    cases, refused = build()
    (HERE / "cases.json").write_text(json.dumps(cases, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for line in refused:
        print("refused:", line)
    print(f"{len(cases)} logs")


if __name__ == "__main__":
    main()
