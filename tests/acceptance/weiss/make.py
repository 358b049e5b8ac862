"""Write the Weiss Schwarz acceptance logs (seed 003): ``PYTHONPATH=. python tests/acceptance/weiss/make.py``.

These are dispute cases written the way a table's client would write them,
from seed 003 (``shared/seeds/003_6ef41692d6c94716.txt``) and the public docs
(``docs/format.md``, ``docs/games/weiss.md``) only, not from kifu's own
simulator: each event is a plain dict, chained by ``kifu.events.logfile``.
Every log breaks exactly one statement of the seed at a known seq, or none.
``cases.json`` says, for each log, the statement it exercises and the error and
warning findings (code, seq) the seed's ruling implies; it is written from the
seq of the event each case writes on purpose, never from an audit.

A line the decoder refuses is still written (chained by hand as docs/format.md
shows), so the acceptance test reports the refusal instead of this script
hiding it.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any
from collections.abc import Callable

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from kifu.events import logfile  # noqa: E402
from kifu.events.base import KifuError  # noqa: E402

HERE = Path(__file__).resolve().parent
P1, P2 = "p1", "p2"
PLAYERS = [{"id": P1, "name": "Aoi"}, {"id": P2, "name": "Ren"}]


class Log:
    """One case being written: events in order, the findings it is built to provoke."""

    def __init__(self, name: str, statement: str, rules: dict[str, Any] | None = None) -> None:
        self.name, self.statement = name, statement
        start: dict[str, Any] = {"game": "weiss", "match": f"qa-{name}", "players": PLAYERS}
        if rules:
            start["rules"] = rules
        self.events: list[dict[str, Any]] = [start]
        self.expect: list[dict[str, Any]] = []

    @property
    def next_seq(self) -> int:
        return len(self.events) + 1

    def ev(self, type_: str, **fields: Any) -> int:
        """Record one event; return its seq."""
        self.events.append({"type": type_, **fields})
        return len(self.events)

    def bad(self, code: str, type_: str, **fields: Any) -> int:
        """Record the event that breaks the seed and the finding it must get."""
        seq = self.ev(type_, **fields)
        self.expect.append({"code": code, "seq": seq})
        return seq

    def expect_at(self, code: str, seq: int) -> None:
        self.expect.append({"code": code, "seq": seq})


# --- writing -----------------------------------------------------------------------------


def _raw_append(path: Path, event: dict[str, Any]) -> None:
    """Chain a line exactly as docs/format.md tells a client to, for a line kifu refused."""
    lines = path.read_bytes().split(b"\n")[:-1]
    obj = {"type": event["type"], "seq": len(lines) + 1, "prev": hashlib.sha256(lines[-1]).hexdigest()}
    obj.update({k: v for k, v in event.items() if k != "type"})
    with path.open("ab") as fh:
        fh.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")


def write(log: Log) -> list[str]:
    """Write one case; return the refusals (line, message) kifu gave while appending."""
    path = HERE / f"{log.name}.jsonl"
    path.unlink(missing_ok=True)
    logfile.create(path, log.events[0])
    refused = []
    for i, event in enumerate(log.events[1:], start=2):
        try:
            logfile.append(path, event)
        except KifuError as exc:
            refused.append(f"{log.name}: line {i}: {exc}")
            _raw_append(path, event)
    return refused


# --- building blocks (a table's client writes these) -----------------------------------


def chara(card: str, level: int, power: int, soul: int = 1, state: str = "stand") -> dict[str, Any]:
    d: dict[str, Any] = {"card": card, "level": level, "power": power, "soul": soul}
    if state != "stand":
        d["state"] = state
    return d


def side(player: str, stage: dict[str, Any], **zones: Any) -> dict[str, Any]:
    base = {"player": player, "deck": 28, "hand": 5, "stock": 5, "waiting": 6, "clock": 3, "level": 1}
    base.update(zones)
    base["stage"] = stage
    return base


P1_STAGE = {
    "C1": chara("Mikoto", 1, 6000, 1),
    "C2": chara("Kuroko", 1, 5500, 2),
    "C3": chara("Saten", 0, 3000, 1),
    "B1": chara("Uiharu", 0, 2500, 1),
}
P2_STAGE = {
    "C1": chara("Shana", 1, 7000, 1),
    "C2": chara("Yuji", 2, 8000, 2),
    "B2": chara("Wilhelmina", 1, 4000, 1),
}


def excerpt(
    name: str,
    statement: str,
    phase: str = "attack",
    rules: dict[str, Any] | None = None,
    p1: dict[str, Any] | None = None,
    p2: dict[str, Any] | None = None,
    climax: str | None = None,
) -> Log:
    """A dispute excerpt: turn 5, p1's turn, starting at ``phase`` from a ``ws.board``."""
    log = Log(name, statement, rules)
    s1 = p1 or side(P1, dict(P1_STAGE))
    if climax:
        s1["climax"] = climax
    log.ev("ws.board", turn=5, turn_player=P1, first_player=P1, phase=phase, sides=[s1, p2 or side(P2, dict(P2_STAGE))])
    return log


def opening(log: Log) -> None:
    """Opening hands: five each; p2 mulligans two."""
    log.ev("ws.draw", by=P1, player=P1, count=5, reason="setup")
    log.ev("ws.draw", by=P2, player=P2, count=5, reason="setup")
    log.ev("ws.discard", by=P2, player=P2, count=2, reason="mulligan")
    log.ev("ws.draw", by=P2, player=P2, count=2, reason="setup")


def early_phases(log: Log, p: str, number: int, clock: bool = True) -> None:
    log.ev("ws.turn", player=p, number=number)
    log.ev("ws.phase", phase="stand")
    log.ev("ws.stand", player=p)
    log.ev("ws.phase", phase="draw")
    log.ev("ws.draw", by=p, player=p, count=1, reason="draw-phase")
    log.ev("ws.phase", phase="clock")
    if clock:
        log.ev("ws.clock", by=p, player=p, card="Index")
        log.ev("ws.draw", by=p, player=p, count=2, reason="clock")


def attack(
    log: Log,
    slot: str,
    kind: str,
    damage: int | None,
    icons: tuple[str, ...] = (),
    player: str = P1,
    defender: str = P2,
) -> None:
    """One whole attack with no counter: declare, trigger, (counter), damage; battle left to the caller."""
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", by=player, player=player, slot=slot, kind=kind)
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=player, icons=list(icons), to="stock")
    if kind == "front":
        log.ev("ws.step", step="counter")
    log.ev("ws.step", step="damage")
    if damage is not None:
        log.ev("ws.damage", player=defender, amount=damage)


def end_turn(log: Log, p: str = P1, reversed_: tuple[tuple[str, str], ...] = ()) -> None:
    """No more attacks, the encore step (retire each reversed card), the end phase."""
    log.ev("ws.step", step="declare")
    log.ev("ws.step", step="encore")
    for who, slot in reversed_:
        log.ev("ws.retire", by=who, player=who, slot=slot)
    log.ev("ws.phase", phase="end")
    log.ev("ws.phase.end", phase="end")


# --- clean logs: tricky but legal play that must not be flagged -------------------------


def c01_opening() -> Log:
    log = Log("c01-clean-opening", "whole seed: two turns from the opening hands, front attack with a counter")
    opening(log)
    early_phases(log, P1, 1)
    log.ev("ws.phase", phase="main")
    log.ev("ws.play.chara", by=P1, player=P1, card="Saten", slot="C2", level=0, power=3000, soul=1)
    log.ev("ws.phase", phase="climax")
    log.ev("ws.phase", phase="attack")
    attack(log, "C2", "direct", None)
    log.ev("ws.damage", player=P2, amount=2, cards=[{"card": "Hecate"}, {"card": "Marianne"}])
    end_turn(log)
    early_phases(log, P2, 2, clock=False)
    log.ev("ws.phase", phase="main")
    log.ev("ws.play.chara", by=P2, player=P2, card="Shana", slot="C2", level=0, power=4000, soul=1)
    log.ev("ws.phase", phase="climax")
    log.ev("ws.phase", phase="attack")
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", by=P2, player=P2, slot="C2", kind="front")
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=P2, card="Yoshida", icons=[], to="stock")
    log.ev("ws.step", step="counter")
    log.ev("ws.counter", by=P1, player=P1, card="Backup Kuroko", power=500, cost=1)
    log.ev("ws.step", step="damage")
    log.ev("ws.damage", player=P1, amount=1, cards=[{"card": "Misaka Clone"}])
    log.ev("ws.step", step="battle")
    log.ev("ws.battle", attacker_power=4000, defender_power=3500, reversed=["defender"])
    end_turn(log, P2, ((P1, "C2"),))
    return log


def c02_side_soul_zero() -> Log:
    log = excerpt(
        "c02-clean-side-soul-zero", "D.3 ソウルが0かそれ以下の場合、与えるダメージは0 (side: soul 1 − level 2)"
    )
    attack(log, "C1", "side", 0)
    end_turn(log)
    return log


def c03_defender_left() -> Log:
    log = excerpt(
        "c03-clean-front-defender-left",
        "E.4 何かしらの理由でキャラがいなくなった場合は比較は行わずリバース行動もしません",
    )
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", by=P1, player=P1, slot="C2", kind="front")
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=P1, card="Judgment", icons=["bounce", "soul"], climax=True, to="stock")
    log.ev("ws.move", by=P1, player=P2, **{"from": "stage"}, to="hand", slot="C2", card="Yuji")
    log.ev("ws.step", step="counter")
    log.ev("ws.step", step="damage")
    log.ev("ws.damage", player=P2, amount=3)
    log.ev("ws.step", step="battle")
    end_turn(log)
    return log


def c04_end_again() -> Log:
    log = excerpt(
        "c04-clean-end-phase-again",
        "エンドフェイズ 6: hand over the limit again, so the end phase is done again",
        phase="climax",
        p1=side(P1, dict(P1_STAGE), hand=7),
    )
    log.ev("ws.phase", phase="attack")
    end_turn_start(log)
    log.ev("ws.auto", player=P1, ability="a1", card="Accelerator", text="ターンの終わりに、2枚引く")
    log.ev("ws.check")
    log.ev("ws.resolve", player=P1, ability="a1")
    log.ev("ws.draw", player=P1, count=2, reason="effect")
    log.ev("ws.check.end")
    log.ev("ws.phase", phase="end")
    log.ev("ws.discard", by=P1, player=P1, count=2, reason="hand-limit")
    log.ev("ws.phase.end", phase="end")
    return log


def end_turn_start(log: Log) -> None:
    log.ev("ws.step", step="declare")
    log.ev("ws.step", step="encore")
    log.ev("ws.phase", phase="end")


def c05_hand_limit() -> Log:
    log = excerpt(
        "c05-clean-hand-limit",
        "エンドフェイズ 3–4: discard down to the limit, then the climax leaves",
        phase="end",
        p1=side(P1, dict(P1_STAGE), hand=9),
        climax="Railgun",
    )
    log.ev("ws.discard", by=P1, player=P1, count=2, reason="hand-limit", cards=["Index", "Touma"])
    log.ev("ws.climax.leave", player=P1)
    log.ev("ws.phase.end", phase="end")
    return log


def c06_check_timing() -> Log:
    log = excerpt(
        "c06-clean-check-timing",
        "チェックタイミング 1–3: level-up first, then 甲's ability, then 乙's",
        p2=side(P2, dict(P2_STAGE), clock=6),
    )
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", by=P1, player=P1, slot="C2", kind="side")
    log.ev("ws.auto", player=P1, ability="a1", card="Kuroko", text="アタックした時、1枚引く")
    log.ev("ws.auto", player=P2, ability="a2", card="Yuji", text="相手のキャラがアタックした時、ストック+1")
    log.ev("ws.check")
    log.ev("ws.resolve", player=P1, ability="a1")
    log.ev("ws.draw", player=P1, count=1, reason="effect")
    log.ev("ws.resolve", player=P2, ability="a2")
    log.ev("ws.move", player=P2, **{"from": "deck"}, to="stock")
    log.ev("ws.check.end")
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=P1, icons=["soul"], to="stock")
    log.ev("ws.step", step="damage")
    log.ev("ws.damage", player=P2, amount=1, cards=[{"card": "x1"}])
    log.ev("ws.levelup", player=P2, card="x1")
    log.ev("ws.auto", player=P1, ability="a3", card="Mikoto", text="相手がレベルアップした時、パワー+1000")
    log.ev("ws.check")
    log.ev("ws.resolve", player=P1, ability="a3")
    log.ev("ws.modify", player=P1, slot="C1", power=1000)
    log.ev("ws.check.end")
    end_turn(log)
    return log


def c07_cancel() -> Log:
    log = excerpt("c07-clean-damage-cancelled", "D.3 damage cancelled by a revealed climax (reference B3)")
    attack(log, "C2", "side", None)
    log.ev(
        "ws.damage",
        player=P2,
        amount=0,
        cancelled=True,
        cards=[{"card": "Hecate"}, {"card": "Gift of Flame", "climax": True}],
    )
    end_turn(log)
    return log


def c08_direct_trigger() -> Log:
    p2 = side(P2, {"C1": chara("Shana", 1, 7000), "C3": chara("Margery", 1, 6000)}, clock=1)
    log = excerpt("c08-clean-direct-soul-trigger", "A.3 direct: soul+1, plus a soul icon (2 + 1 + 1 = 4)", p2=p2)
    attack(log, "C2", "direct", 4, icons=("soul",))
    end_turn(log)
    return log


def c09_swap() -> Log:
    stage = dict(P1_STAGE, C2=chara("Kuroko", 1, 5500, 2, state="rest"))
    log = excerpt(
        "c09-clean-swap-then-attack",
        "メイン 舞台の枠と枠の入替: a standing back-row character moved to center attacks",
        phase="main",
        p1=side(P1, stage),
    )
    log.ev("ws.swap", by=P1, player=P1, a="C2", b="B1")
    log.ev("ws.phase", phase="climax")
    log.ev("ws.phase", phase="attack")
    attack(log, "C2", "front", 1)
    log.ev("ws.step", step="battle")
    log.ev("ws.battle", attacker_power=2500, defender_power=8000, reversed=["attacker"])
    end_turn(log, P1, ((P1, "C2"),))
    return log


def c10_tie_encore() -> Log:
    p2 = side(P2, dict(P2_STAGE, C3=chara("Margery", 0, 3000, 1)))
    log = excerpt(
        "c10-clean-tie-both-encore", "E.4 tie (option battle_tie=both) and F.3–4: 甲's encore first, then 乙's", p2=p2
    )
    attack(log, "C3", "front", 1)
    log.ev("ws.step", step="battle")
    log.ev("ws.battle", attacker_power=3000, defender_power=3000, reversed=["attacker", "defender"])
    log.ev("ws.step", step="declare")
    log.ev("ws.step", step="encore")
    log.ev("ws.retire", by=P1, player=P1, slot="C3")
    log.ev("ws.encore", by=P1, player=P1, slot="C3", via="rule", stock=3, rested=True)
    log.ev("ws.retire", by=P2, player=P2, slot="C3")
    log.ev("ws.phase", phase="end")
    log.ev("ws.phase.end", phase="end")
    return log


def c11_no_attack() -> Log:
    log = excerpt(
        "c11-clean-nothing-done",
        "クロック 置かないなら次へ, climax not played, no attack: アタックを終了しアンコールステップに移行",
        phase="stand",
    )
    log.ev("ws.stand", player=P1)
    log.ev("ws.phase", phase="draw")
    log.ev("ws.draw", player=P1, count=1, reason="draw-phase")
    log.ev("ws.phase", phase="clock")
    log.ev("ws.phase", phase="main")
    log.ev("ws.phase", phase="climax")
    log.ev("ws.phase", phase="attack")
    end_turn(log)
    return log


def c12_act_event() -> Log:
    log = excerpt(
        "c12-clean-act-and-event",
        "メイン: 起動能力 (rest cost) and an event card through the resolution zone",
        phase="main",
    )
    log.ev(
        "ws.act", by=P1, player=P1, slot="B1", ability="【起】［(1) このカードをレスト］ パワー+1000", cost=1, rest=True
    )
    log.ev("ws.modify", player=P1, slot="C1", power=1000)
    log.ev("ws.play.event", by=P1, player=P1, card="Level 5 Judge", cost=1)
    log.ev("ws.draw", player=P1, count=1, reason="effect")
    log.ev("ws.move", player=P1, **{"from": "resolution"}, to="waiting", card="Level 5 Judge")
    log.ev("ws.phase", phase="climax")
    log.ev("ws.climax", by=P1, player=P1, card="Railgun")
    log.ev("ws.phase", phase="attack")
    attack(log, "C1", "front", 1)
    log.ev("ws.step", step="battle")
    log.ev("ws.battle", attacker_power=7000, defender_power=7000, reversed=["attacker", "defender"])
    log.ev("ws.step", step="declare")
    log.ev("ws.step", step="encore")
    log.ev("ws.retire", by=P1, player=P1, slot="C1")
    log.ev("ws.retire", by=P2, player=P2, slot="C1")
    log.ev("ws.phase", phase="end")
    log.ev("ws.climax.leave", player=P1)
    log.ev("ws.phase.end", phase="end")
    return log


def c13_counter_wins() -> Log:
    log = excerpt(
        "c13-clean-counter-reverses-attacker", "C.3 counter (backup) by the defender; E.4 the attacker is now lower"
    )
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", by=P1, player=P1, slot="C1", kind="front")
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=P1, icons=[], to="stock")
    log.ev("ws.step", step="counter")
    log.ev("ws.counter", by=P2, player=P2, card="Backup Hecate", power=2500, cost=1)
    log.ev("ws.step", step="damage")
    log.ev("ws.damage", player=P2, amount=1)
    log.ev("ws.step", step="battle")
    log.ev("ws.battle", attacker_power=6000, defender_power=9500, reversed=["attacker"])
    end_turn(log, P1, ((P1, "C1"),))
    return log


def c14_side_soul_trigger() -> Log:
    log = excerpt("c14-clean-side-with-soul-icon", "A.3 side: soul 2 + icon 1 − opposing level 2 = 1")
    attack(log, "C2", "side", 1, icons=("soul",))
    end_turn(log)
    return log


def c15_import_src() -> Log:
    log = excerpt(
        "c15-clean-imported-move-with-provenance",
        "docs/format.md: an imported event carries its provenance in the envelope member `src`",
        phase="main",
    )
    log.ev(
        "ws.move",
        player=P1,
        src={"file": "table.txt", "loc": "12", "text": "イベントを控室へ"},
        **{"from": "resolution"},
        to="waiting",
    )
    log.ev("ws.phase", phase="climax")
    return log


def c16_counter_by_option() -> Log:
    log = excerpt(
        "c16-clean-counter-by-turn-player-option",
        "C.3 甲がいずれかの行動を選択 read literally (option counter_by=turn-player)",
        rules={"counter_by": "turn-player"},
    )
    attack_with_counter(log, P1)
    log.ev("ws.phase", phase="end")
    return log


def c17_turn_start_ability() -> Log:
    log = excerpt(
        "c17-clean-turn-start-ability-explicit-ends",
        "スタンド 1–4: a turn-start ability resolves before the stand; every phase end and check timing written",
        phase="end",
        p1=side(P1, dict(P1_STAGE)),
        p2=side(P2, dict(P2_STAGE, C1=chara("Shana", 1, 7000, state="rest"))),
    )
    log.ev("ws.phase.end", phase="end")
    log.ev("ws.turn", player=P2, number=6)
    log.ev("ws.phase", phase="stand")
    log.ev("ws.auto", player=P2, ability="b1", card="Shana", text="あなたのターンの始めに、ストック+1")
    log.ev("ws.check")
    log.ev("ws.resolve", player=P2, ability="b1")
    log.ev("ws.move", player=P2, **{"from": "deck"}, to="stock")
    log.ev("ws.check.end")
    log.ev("ws.stand", player=P2)
    log.ev("ws.check")
    log.ev("ws.check.end")
    log.ev("ws.phase.end", phase="stand")
    log.ev("ws.phase", phase="draw")
    log.ev("ws.draw", player=P2, count=1, reason="draw-phase")
    log.ev("ws.phase.end", phase="draw")
    log.ev("ws.phase", phase="clock")
    log.ev("ws.phase.end", phase="clock")
    log.ev("ws.phase", phase="main")
    log.ev("ws.phase.end", phase="main")
    log.ev("ws.phase", phase="climax")
    log.ev("ws.phase.end", phase="climax")
    log.ev("ws.phase", phase="attack")
    log.ev("ws.step", step="declare")
    log.ev("ws.auto", player=P2, ability="b2", card="Wilhelmina", text="アタックフェイズの始めに、パワー+500")
    log.ev("ws.check")
    log.ev("ws.resolve", player=P2, ability="b2")
    log.ev("ws.modify", player=P2, slot="C1", power=500)
    log.ev("ws.check.end")
    log.ev("ws.attack", player=P2, slot="C1", kind="front")
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=P2, icons=[], to="stock")
    log.ev("ws.step", step="counter")
    log.ev("ws.step", step="damage")
    log.ev("ws.damage", player=P1, amount=1)
    log.ev("ws.step", step="battle")
    log.ev("ws.battle", attacker_power=7500, defender_power=6000, reversed=["defender"])
    log.ev("ws.step", step="declare")
    log.ev("ws.step", step="encore")
    log.ev("ws.retire", player=P1, slot="C1")
    log.ev("ws.phase.end", phase="attack")
    log.ev("ws.phase", phase="end")
    log.ev("ws.phase.end", phase="end")
    return log


def c18_clock_level_up() -> Log:
    log = excerpt(
        "c18-clean-clock-into-level-up",
        "クロック 3 + rule action: the 7th clock card levels up before the two draws",
        phase="clock",
        p1=side(P1, dict(P1_STAGE), clock=6),
    )
    log.ev("ws.clock", player=P1, card="Index")
    log.ev("ws.levelup", player=P1, card="Touma")
    log.ev("ws.draw", player=P1, count=2, reason="clock")
    log.ev("ws.phase", phase="main")
    return log


def c19_refresh_in_draw() -> Log:
    log = excerpt(
        "c19-clean-refresh-in-draw-phase",
        "ドロー 3 with the last card of the deck: refresh, then its refresh point",
        phase="draw",
        p1=side(P1, dict(P1_STAGE), deck=1, waiting=12),
    )
    log.ev("ws.draw", player=P1, count=1, reason="draw-phase")
    log.ev("ws.refresh", player=P1)
    log.ev("ws.refresh.point", player=P1, card="Index")
    log.ev("ws.phase", phase="clock")
    log.ev("ws.phase", phase="main")
    return log


def c20_hand_exactly_limit() -> Log:
    log = excerpt(
        "c20-clean-hand-at-limit",
        "エンド 3: a hand of exactly the limit (7) discards nothing",
        phase="end",
        p1=side(P1, dict(P1_STAGE), hand=7),
    )
    log.ev("ws.phase.end", phase="end")
    return log


def c21_shot() -> Log:
    log = excerpt("c21-clean-shot-after-cancel", "D.3 cancelled damage, then a shot trigger's 1 damage (reference B4)")
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", player=P1, slot="C2", kind="side")
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=P1, card="Level 6 Shift", icons=["shot"], climax=True, to="stock")
    log.ev("ws.step", step="damage")
    log.ev("ws.damage", player=P2, amount=0, cancelled=True, cards=[{"card": "Gift", "climax": True}])
    log.ev("ws.damage", player=P2, amount=1, source="shot", cards=[{"card": "Hecate"}])
    end_turn(log)
    return log


def c22_cancel_front() -> Log:
    log = excerpt(
        "c22-clean-front-damage-cancelled", "D.3 2 damage (soul 2) cancelled by the second card revealed, a climax"
    )
    attack(log, "C2", "front", None)
    log.ev(
        "ws.damage", player=P2, amount=2, cancelled=True, cards=[{"card": "Hecate"}, {"card": "Gift", "climax": True}]
    )
    log.ev("ws.step", step="battle")
    log.ev("ws.battle", attacker_power=5500, defender_power=8000, reversed=["attacker"])
    log.ev("ws.step", step="declare")
    log.ev("ws.step", step="encore")
    log.ev("ws.retire", player=P1, slot="C2")
    log.ev("ws.encore", player=P1, slot="C2", via="ability", stock=0, card="Kuroko")
    log.ev("ws.phase", phase="end")
    log.ev("ws.phase.end", phase="end")
    return log


def c23_two_attacks() -> Log:
    log = excerpt(
        "c23-clean-two-attacks-treasure", "A–E twice in one turn; a treasure trigger goes to hand (reference B4)"
    )
    attack(log, "C2", "side", 0)
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", player=P1, slot="C3", kind="direct")
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=P1, card="Railgun", icons=["treasure"], climax=True, to="hand")
    log.ev("ws.step", step="damage")
    log.ev("ws.damage", player=P2, amount=2)
    end_turn(log)
    return log


def c24_hand_limit_option() -> Log:
    log = excerpt(
        "c24-clean-hand-limit-option",
        "エンド 3 規定枚数 as a table option (hand_limit=8): 8 cards stay",
        phase="end",
        rules={"hand_limit": 8},
        p1=side(P1, dict(P1_STAGE), hand=8),
    )
    log.ev("ws.phase.end", phase="end")
    return log


def c25_attacker_left() -> Log:
    log = excerpt("c25-clean-attacker-left", "D.3 攻撃キャラが存在する場合 (gone: no damage), E.3 no comparison")
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", player=P1, slot="C2", kind="front")
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=P1, icons=[], to="stock")
    log.ev("ws.step", step="counter")
    log.ev("ws.counter", player=P2, card="Wilhelmina (counter: return the attacker)", cost=2)
    log.ev("ws.move", player=P1, **{"from": "stage"}, to="hand", slot="C2", card="Kuroko")
    log.ev("ws.step", step="damage")
    log.ev("ws.step", step="battle")
    end_turn(log)
    return log


def c26_board_lists() -> Log:
    p1 = side(P1, dict(P1_STAGE), clock=["Index", "Touma", "?"], level=["Accelerator"])
    log = excerpt("c26-clean-board-with-card-lists", "ws.board with clock and level as card lists", p1=p1)
    attack(log, "C1", "side", 0)
    end_turn(log)
    return log


def v_turn_twice() -> Log:
    log = excerpt("v37-same-player-twice", "turns alternate (甲 and 乙 swap after the end phase)", phase="end")
    log.ev("ws.phase.end", phase="end")
    log.bad("WS-FLOW-004", "ws.turn", player=P1, number=6)
    return log


def v_discard_after_climax() -> Log:
    log = excerpt(
        "v38-discard-after-climax-leaves",
        "エンド 3 (discard) before 4 (climax to the waiting room)",
        phase="end",
        p1=side(P1, dict(P1_STAGE), hand=8),
        climax="Railgun",
    )
    log.ev("ws.climax.leave", player=P1)
    log.bad("WS-END-004", "ws.discard", player=P1, count=1, reason="hand-limit")
    log.ev("ws.phase.end", phase="end")
    return log


def v_damage_after_attacker_left() -> Log:
    log = excerpt("v39-damage-after-attacker-left", "D.3 攻撃キャラが存在する場合 only")
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", player=P1, slot="C2", kind="front")
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=P1, icons=[], to="stock")
    log.ev("ws.step", step="counter")
    log.ev("ws.counter", player=P2, card="Wilhelmina (counter: return the attacker)", cost=2)
    log.ev("ws.move", player=P1, **{"from": "stage"}, to="hand", slot="C2", card="Kuroko")
    log.ev("ws.step", step="damage")
    log.bad("WS-DMG-001", "ws.damage", player=P2, amount=2)
    return log


def c27_side_attacker_level() -> Log:
    stage = dict(P1_STAGE, C3=chara("Saten", 0, 3000, 2))
    log = excerpt(
        "c27-clean-side-attacker-level-option",
        "A.3 read literally: ソウル数を攻撃するキャラのレベル分だけ引く (option side_attack_level=attacker)",
        rules={"side_attack_level": "attacker"},
        p1=side(P1, stage),
        p2=side(P2, dict(P2_STAGE, C3=chara("Margery", 2, 9000, 1))),
    )
    attack(log, "C3", "side", 2)
    end_turn(log)
    return log


def v_side_attacker_level() -> Log:
    stage = dict(P1_STAGE, C3=chara("Saten", 0, 3000, 2))
    log = excerpt(
        "v40-side-attacker-level-default",
        "A.3 side: the opposing level (default side_attack_level=defender): soul 2 − 2 = 0, not 2",
        p1=side(P1, stage),
        p2=side(P2, dict(P2_STAGE, C3=chara("Margery", 2, 9000, 1))),
    )
    attack(log, "C3", "side", None)
    log.bad("WS-DMG-003", "ws.damage", player=P2, amount=2)
    return log


def c28_cancel_written_zero() -> Log:
    log = excerpt(
        "c28-clean-cancelled-written-as-zero", "D.3 + B3: a cancelled 2 damage written as amount 0 (what stuck)"
    )
    attack(log, "C2", "front", None)
    log.ev(
        "ws.damage", player=P2, amount=0, cancelled=True, cards=[{"card": "Hecate"}, {"card": "Gift", "climax": True}]
    )
    log.ev("ws.step", step="battle")
    log.ev("ws.battle", attacker_power=5500, defender_power=8000, reversed=["attacker"])
    end_turn(log, P1, ((P1, "C2"),))
    return log


def c29_play_over_occupied() -> Log:
    log = excerpt(
        "c29-clean-play-over-a-character",
        "メイン 3 手札からキャラを舞台に出す onto an occupied slot",
        phase="main",
        p2=side(P2, dict(P2_STAGE, C3=chara("Margery", 1, 7000, 1))),
    )
    log.ev("ws.play.chara", player=P1, card="Accelerator", slot="C3", level=1, power=7500, soul=1, cost=1)
    log.ev("ws.phase", phase="climax")
    log.ev("ws.phase", phase="attack")
    attack(log, "C3", "front", 1)
    log.ev("ws.step", step="battle")
    log.ev("ws.battle", attacker_power=7500, defender_power=7000, reversed=["defender"])
    end_turn(log, P1, ((P2, "C3"),))
    return log


def c30_only_opponent_ability() -> Log:
    log = excerpt(
        "c30-clean-only-opponent-ability",
        "チェックタイミング 3: 乙 resolves when 甲 has nothing pending",
        p2=side(P2, dict(P2_STAGE, C3=chara("Margery", 1, 4000, 1))),
    )
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", player=P1, slot="C2", kind="side")
    log.ev("ws.auto", player=P2, ability="z1", card="Yuji", text="アタックされた時、パワー+1000")
    log.ev("ws.check")
    log.ev("ws.resolve", player=P2, ability="z1")
    log.ev("ws.modify", player=P2, slot="C2", power=1000)
    log.ev("ws.check.end")
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=P1, icons=[], to="stock")
    log.ev("ws.step", step="damage")
    log.ev("ws.damage", player=P2, amount=0)
    end_turn(log)
    return log


def c31_phase_end_left_out() -> Log:
    log = excerpt(
        "c31-clean-end-left-out-next-turn", "ws.phase.end left out: the next ws.turn ends the end phase", phase="end"
    )
    log.ev("ws.turn", player=P2, number=6)
    log.ev("ws.phase", phase="stand")
    log.ev("ws.stand", player=P2)
    log.ev("ws.phase", phase="draw")
    log.ev("ws.draw", player=P2, count=1, reason="draw-phase")
    return log


def v_front_into_empty() -> Log:
    p2 = side(P2, {"C1": chara("Shana", 1, 7000)})
    log = excerpt(
        "v41-front-into-empty-column", "A.3 フロント/サイド need a character in front (ダイレクト when none)", p2=p2
    )
    log.ev("ws.step", step="declare")
    log.bad("WS-ATK-003", "ws.attack", player=P1, slot="C2", kind="front")
    return log


def c32_auto_between_retires() -> Log:
    log = excerpt(
        "c32-clean-ability-between-retires", "F.3.2 チェックタイミング after each card put into the waiting room"
    )
    attack(log, "C1", "front", 1)
    log.ev("ws.step", step="battle")
    log.ev("ws.battle", attacker_power=7000, defender_power=7000, reversed=["attacker", "defender"])
    log.ev("ws.step", step="declare")
    log.ev("ws.step", step="encore")
    log.ev("ws.retire", player=P1, slot="C1")
    log.ev("ws.auto", player=P1, ability="e1", card="Mikoto", text="このカードが舞台から控室に置かれた時、1枚引く")
    log.ev("ws.check")
    log.ev("ws.resolve", player=P1, ability="e1")
    log.ev("ws.draw", player=P1, count=1, reason="effect")
    log.ev("ws.check.end")
    log.ev("ws.retire", player=P2, slot="C1")
    log.ev("ws.phase", phase="end")
    log.ev("ws.phase.end", phase="end")
    return log


def c33_climax_leave_ability() -> Log:
    log = excerpt(
        "c33-clean-ability-on-climax-leaving",
        "エンド 4–5: the climax leaves, an ability it triggers resolves at 5",
        phase="end",
        climax="Railgun",
    )
    log.ev("ws.climax.leave", player=P1)
    log.ev("ws.auto", player=P1, ability="x1", card="Mikoto", text="クライマックスが控室に置かれた時、ストック+1")
    log.ev("ws.check")
    log.ev("ws.resolve", player=P1, ability="x1")
    log.ev("ws.move", player=P1, **{"from": "deck"}, to="stock")
    log.ev("ws.check.end")
    log.ev("ws.phase.end", phase="end")
    return log


def c34_level_four_loses() -> Log:
    log = excerpt(
        "c34-clean-level-four-loses",
        "D.3 damage to clock 8 at level 3: level up (rule action), level 4 loses",
        p2=side(P2, dict(P2_STAGE), clock=6, level=3),
    )
    attack(log, "C2", "front", 2)
    log.ev("ws.levelup", player=P2, card="x")
    log.ev("ws.lose", player=P2, reason="level")
    log.ev("match.end", winner=P1, reason="level")
    return log


def c35_draw_icon() -> Log:
    log = excerpt("c35-clean-draw-icon", "B.4 トリガーの効果を実行する: a draw icon's draw in the trigger step")
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", player=P1, slot="C2", kind="side")
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=P1, card="Level 5 Book", icons=["draw"], climax=True)
    log.ev("ws.draw", player=P1, reason="trigger")
    log.ev("ws.step", step="damage")
    log.ev("ws.damage", player=P2, amount=0)
    end_turn(log)
    return log


def v_check_ends_pending() -> Log:
    log = excerpt("v42-check-timing-ends-pending", "チェックタイミング 4: ends only when nothing is pending")
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", player=P1, slot="C2", kind="side")
    log.ev("ws.auto", player=P1, ability="a1", card="Kuroko")
    log.ev("ws.check")
    log.bad("WS-CHK-004", "ws.check.end")
    return log


def v_no_refresh() -> Log:
    log = excerpt(
        "v43-deck-empty-no-refresh",
        "rule action: an empty deck refreshes at once (reference B2)",
        phase="draw",
        p1=side(P1, dict(P1_STAGE), deck=1, waiting=12),
    )
    log.ev("ws.draw", player=P1, count=1, reason="draw-phase")
    log.bad("WS-RULE-002", "ws.phase", phase="clock")
    return log


def v_encore_standing() -> Log:
    log = excerpt(
        "v44-encore-returns-standing", "reference B1 #7: the encored character returns rested (option default)"
    )
    attack(log, "C1", "front", 1)
    log.ev("ws.step", step="battle")
    log.ev("ws.battle", attacker_power=6000, defender_power=7000, reversed=["attacker"])
    log.ev("ws.step", step="declare")
    log.ev("ws.step", step="encore")
    log.ev("ws.retire", player=P1, slot="C1")
    log.bad("WS-ENC-004", "ws.encore", player=P1, slot="C1", via="rule", stock=3, rested=False)
    return log


def v_shot_without_cancel() -> Log:
    log = excerpt("v45-shot-without-cancel", "reference B4: a shot deals 1 only when the attack's damage was cancelled")
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", player=P1, slot="C1", kind="side")
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=P1, icons=["shot"], climax=True)
    log.ev("ws.step", step="damage")
    log.ev("ws.damage", player=P2, amount=0)
    log.bad("WS-DMG-006", "ws.damage", player=P2, amount=1, source="shot")
    return log


def attack_with_counter(log: Log, by: str) -> int:
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", by=P1, player=P1, slot="C2", kind="front")
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=P1, icons=[], to="stock")
    log.ev("ws.step", step="counter")
    seq = log.ev("ws.counter", by=by, player=by, card="Backup", power=1000, cost=1)
    log.ev("ws.step", step="damage")
    log.ev("ws.damage", player=P2, amount=2)
    log.ev("ws.step", step="battle")
    log.ev("ws.battle", attacker_power=5500, defender_power=9000, reversed=["attacker"])
    log.ev("ws.step", step="declare")
    log.ev("ws.step", step="encore")
    log.ev("ws.retire", player=P1, slot="C2")
    return seq


# --- violations: one statement of the seed broken at a known seq ------------------------


def v_stand_partial() -> Log:
    stage = dict(P1_STAGE, C1=chara("Mikoto", 1, 6000, state="rest"), C2=chara("Kuroko", 1, 5500, 2, state="rest"))
    log = excerpt("v01-stand-not-all", "スタンド 3 甲の全てのキャラをスタンドする", phase="stand", p1=side(P1, stage))
    log.ev("ws.stand", player=P1, slots=["C1"])
    log.bad("WS-STAND-001", "ws.phase", phase="draw")
    return log


def v_draw_two() -> Log:
    log = excerpt("v02-draw-phase-two", "ドロー 3 甲は山札からカードを1枚引く", phase="draw")
    log.bad("WS-DRAW-001", "ws.draw", player=P1, count=2, reason="draw-phase")
    log.ev("ws.phase", phase="clock")
    return log


def v_clock_one_draw() -> Log:
    log = excerpt("v03-clock-then-one-draw", "クロック 置いたら 甲は山札からカードを2枚引く", phase="clock")
    log.ev("ws.clock", player=P1, card="Index")
    log.ev("ws.draw", player=P1, count=1, reason="clock")
    log.bad("WS-CLK-001", "ws.phase", phase="main")
    return log


def v_draw_without_clock() -> Log:
    log = excerpt("v04-clock-draw-without-clock", "クロック 置かないなら 次へ進む (no draw)", phase="clock")
    log.bad("WS-CLK-001", "ws.draw", player=P1, count=2, reason="clock")
    log.ev("ws.phase", phase="main")
    return log


def v_clock_two() -> Log:
    log = excerpt("v05-clock-two-cards", "クロック 3 1枚選びクロック置き場に置いてよい", phase="clock")
    log.ev("ws.clock", player=P1, card="Index")
    log.bad("WS-CLK-002", "ws.clock", player=P1, card="Touma")
    log.ev("ws.draw", player=P1, count=2, reason="clock")
    log.ev("ws.phase", phase="main")
    return log


def v_play_in_climax_phase() -> Log:
    log = excerpt("v06-chara-in-climax-phase", "メイン 3: characters are played in the main phase", phase="climax")
    log.bad("WS-FLOW-003", "ws.play.chara", player=P1, card="Saten", slot="C3", level=0, power=3000)
    log.ev("ws.phase", phase="attack")
    return log


def v_two_climaxes() -> Log:
    log = excerpt("v07-two-climaxes", "クライマックス 3 クライマックスカードを選び… (one)", phase="climax")
    log.ev("ws.climax", player=P1, card="Railgun")
    log.bad("WS-CX-001", "ws.climax", player=P1, card="Level 6 Shift")
    log.ev("ws.phase", phase="attack")
    return log


def v_attack_rested() -> Log:
    stage = dict(P1_STAGE, C1=chara("Mikoto", 1, 6000, state="rest"))
    log = excerpt(
        "v08-attack-with-rested", "A.3 攻撃できるかどうかは基本的にスタンドされているかで決まります", p1=side(P1, stage)
    )
    log.ev("ws.step", step="declare")
    log.bad("WS-ATK-001", "ws.attack", player=P1, slot="C1", kind="front")
    return log


def v_attack_back_row() -> Log:
    log = excerpt("v09-attack-from-back-stage", "A.3 攻撃可能なキャラ (center stage)")
    log.ev("ws.step", step="declare")
    log.bad("WS-ATK-001", "ws.attack", player=P1, slot="B1", kind="direct")
    return log


def v_attack_twice() -> Log:
    log = excerpt("v10-same-character-twice", "A.3 キャラをレスト状態にする: a rested attacker cannot attack again")
    attack(log, "C2", "side", 0)
    log.ev("ws.step", step="declare")
    log.bad("WS-ATK-001", "ws.attack", player=P1, slot="C2", kind="side")
    return log


def v_direct_into_character() -> Log:
    log = excerpt("v11-direct-into-character", "A.3 ダイレクトアタック（正面に相手キャラがいない場合のみ）")
    log.ev("ws.step", step="declare")
    log.bad("WS-ATK-003", "ws.attack", player=P1, slot="C1", kind="direct")
    return log


def v_direct_no_plus_one() -> Log:
    p2 = side(P2, {"C1": chara("Shana", 1, 7000)})
    log = excerpt("v12-direct-without-plus-one", "A.3 ダイレクトアタック: アタックキャラのソウル+1", p2=p2)
    attack(log, "C2", "direct", None)
    log.bad("WS-DMG-002", "ws.damage", player=P2, amount=2)
    end_turn(log)
    return log


def v_side_no_minus() -> Log:
    log = excerpt("v13-side-without-level", "A.3 サイドアタック: ソウル数をレベル分だけ引く (soul 2 − level 2 = 0)")
    attack(log, "C2", "side", None)
    log.bad("WS-DMG-003", "ws.damage", player=P2, amount=2)
    end_turn(log)
    return log


def v_soul_zero_damage() -> Log:
    log = excerpt("v14-soul-zero-deals-damage", "D.3 ソウルが0かそれ以下の場合、与えるダメージは0", phase="main")
    log.ev("ws.modify", player=P1, slot="C1", soul=-1)
    log.ev("ws.phase", phase="climax")
    log.ev("ws.phase", phase="attack")
    attack(log, "C1", "front", None)
    log.bad("WS-DMG-004", "ws.damage", player=P2, amount=1)
    return log


def v_front_wrong_damage() -> Log:
    log = excerpt("v15-front-wrong-damage", "D.3 相手にソウル分のダメージを与える (soul 2, dealt 3)")
    attack(log, "C2", "front", None)
    log.bad("WS-DMG-001", "ws.damage", player=P2, amount=3)
    return log


def v_front_skips_counter() -> Log:
    log = excerpt("v16-front-skips-counter-step", "B.7 フロントアタック → カウンターステップへ")
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", player=P1, slot="C2", kind="front")
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=P1, icons=[], to="stock")
    log.bad("WS-FLOW-002", "ws.step", step="damage")
    return log


def v_side_to_counter() -> Log:
    log = excerpt("v17-side-goes-to-counter-step", "B.7 ダイレクトアタック と サイドアタック → ダメージステップへ")
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", player=P1, slot="C2", kind="side")
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=P1, icons=[], to="stock")
    log.bad("WS-ATK-005", "ws.step", step="counter")
    return log


def v_side_to_battle() -> Log:
    log = excerpt("v18-side-goes-to-battle", "D.5 それ以外の場合 … アタック宣言ステップに戻る (no battle)")
    attack(log, "C2", "side", 0)
    log.bad("WS-FLOW-002", "ws.step", step="battle")
    return log


def v_counter_by_turn_player() -> Log:
    log = excerpt("v19-counter-by-attacker", "C.3 counter by the defender (issue 6; option counter_by default)")
    seq = attack_with_counter(log, P1)
    log.expect_at("WS-ATK-005", seq)
    return log


def v_no_reveal() -> Log:
    log = excerpt("v20-trigger-step-no-reveal", "B.3 甲は山札トップを解決領域に置く")
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", player=P1, slot="C2", kind="side")
    log.ev("ws.step", step="trigger")
    log.bad("WS-ATK-004", "ws.step", step="damage")
    return log


def v_trigger_to_waiting() -> Log:
    log = excerpt("v21-trigger-card-to-waiting", "B.5 トリガーに使ったカードをストックに置く")
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", player=P1, slot="C2", kind="side")
    log.ev("ws.step", step="trigger")
    log.bad("WS-ATK-006", "ws.reveal", player=P1, icons=["soul"], to="waiting")
    return log


def v_battle_wrong_side() -> Log:
    log = excerpt("v22-battle-reverses-higher", "E.4 比較し低いほうをリバースする")
    attack(log, "C1", "front", 1)
    log.ev("ws.step", step="battle")
    log.bad("WS-BTL-001", "ws.battle", attacker_power=6000, defender_power=7000, reversed=["defender"])
    return log


def v_battle_after_leave() -> Log:
    log = excerpt("v23-battle-after-defender-left", "E.4 キャラがいなくなった場合は比較は行わずリバース行動もしません")
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", player=P1, slot="C1", kind="front")
    log.ev("ws.step", step="trigger")
    log.ev("ws.reveal", player=P1, icons=["bounce"], climax=True, to="stock")
    log.ev("ws.move", player=P2, **{"from": "stage"}, to="hand", slot="C1", card="Shana")
    log.ev("ws.step", step="counter")
    log.ev("ws.step", step="damage")
    log.ev("ws.damage", player=P2, amount=1)
    log.ev("ws.step", step="battle")
    log.bad("WS-BTL-002", "ws.battle", attacker_power=6000, defender_power=0, reversed=["defender"])
    return log


def v_encore_order() -> Log:
    log = excerpt("v24-encore-opponent-first", "F.3–4 甲のリバースカード first, then 乙's")
    attack(log, "C1", "front", 1)
    log.ev("ws.step", step="battle")
    log.ev("ws.battle", attacker_power=7000, defender_power=7000, reversed=["attacker", "defender"])
    log.ev("ws.step", step="declare")
    log.ev("ws.step", step="encore")
    log.bad("WS-ENC-001", "ws.retire", player=P2, slot="C1")
    log.ev("ws.retire", player=P1, slot="C1")
    log.ev("ws.phase", phase="end")
    return log


def v_encore_left_reversed() -> Log:
    log = excerpt("v25-encore-leaves-reversed", "F.6 リバースカードが残っている → アンコールステップの3.に戻る")
    attack(log, "C1", "front", 1)
    log.ev("ws.step", step="battle")
    log.ev("ws.battle", attacker_power=6000, defender_power=7000, reversed=["attacker"])
    log.ev("ws.step", step="declare")
    log.ev("ws.step", step="encore")
    log.bad("WS-ENC-002", "ws.phase", phase="end")
    return log


def v_hand_over_limit() -> Log:
    log = excerpt(
        "v26-end-hand-over-limit",
        "エンド 3 超えている分だけ…控室に置く (9 in hand, one discarded)",
        phase="end",
        p1=side(P1, dict(P1_STAGE), hand=9),
    )
    log.ev("ws.discard", player=P1, count=1, reason="hand-limit")
    log.bad("WS-END-001", "ws.phase.end", phase="end")
    return log


def v_climax_stays() -> Log:
    log = excerpt(
        "v27-end-climax-stays",
        "エンド 4 甲はクライマックスに置かれているCXカードを控室に置く",
        phase="end",
        climax="Railgun",
    )
    log.bad("WS-END-002", "ws.phase.end", phase="end")
    return log


def v_end_with_pending() -> Log:
    log = excerpt("v28-end-with-pending-ability", "エンド 6 待機発動能力がない場合フェイズ終了", phase="end")
    log.ev("ws.auto", player=P1, ability="a1", card="Accelerator", text="ターンの終わりに…")
    log.bad("WS-END-003", "ws.phase.end", phase="end")
    return log


def v_nonturn_first() -> Log:
    log = excerpt("v29-check-nonturn-first", "チェックタイミング 2–3 甲 before 乙")
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", player=P1, slot="C2", kind="side")
    log.ev("ws.auto", player=P1, ability="a1", card="Kuroko")
    log.ev("ws.auto", player=P2, ability="a2", card="Yuji")
    log.ev("ws.check")
    log.bad("WS-CHK-002", "ws.resolve", player=P2, ability="a2")
    log.ev("ws.resolve", player=P1, ability="a1")
    log.ev("ws.check.end")
    return log


def v_ability_before_levelup() -> Log:
    log = excerpt(
        "v30-ability-before-level-up",
        "チェックタイミング 1 ルール処理 first (level up at 7 clock)",
        p2=side(P2, dict(P2_STAGE), clock=6),
    )
    attack(log, "C2", "side", 1, icons=("soul",))
    log.ev("ws.auto", player=P1, ability="a1", card="Kuroko", text="アタックの終わりに…")
    log.ev("ws.check")
    log.bad("WS-CHK-001", "ws.resolve", player=P1, ability="a1")
    log.ev("ws.levelup", player=P2)
    log.ev("ws.check.end")
    return log


def v_phase_order() -> Log:
    log = excerpt("v31-main-after-climax", "phase order メイン → クライマックス", phase="main")
    log.ev("ws.phase", phase="climax")
    log.bad("WS-FLOW-001", "ws.phase", phase="main")
    return log


def v_first_turn_two_attacks() -> Log:
    log = Log("v32-first-turn-two-attacks", "reference B1 #6: the first player's first turn has one attack")
    opening(log)
    early_phases(log, P1, 1, clock=False)
    log.ev("ws.phase", phase="main")
    log.ev("ws.play.chara", player=P1, card="Saten", slot="C1", level=0, power=3000)
    log.ev("ws.play.chara", player=P1, card="Uiharu", slot="C2", level=0, power=2500)
    log.ev("ws.phase", phase="climax")
    log.ev("ws.phase", phase="attack")
    attack(log, "C1", "direct", 2)
    log.ev("ws.step", step="declare")
    log.bad("WS-ATK-002", "ws.attack", player=P1, slot="C2", kind="direct")
    return log


def v_opponent_plays_in_main() -> Log:
    log = excerpt("v33-opponent-plays-in-main", "メイン 3 甲の以下のプレイ (乙 does not play)", phase="main")
    log.bad("WS-FLOW-003", "ws.play.chara", by=P2, player=P2, card="Yoshida", slot="C3", level=0, power=2000)
    return log


def v_resolve_outside_check() -> Log:
    log = excerpt(
        "v34-resolve-outside-check", "チェックタイミング 2 処理待機中の効果を一つ選び実行 (inside a check timing)"
    )
    log.ev("ws.step", step="declare")
    log.ev("ws.attack", player=P1, slot="C2", kind="side")
    log.ev("ws.auto", player=P1, ability="a1", card="Kuroko")
    log.bad("WS-CHK-003", "ws.resolve", player=P1, ability="a1")
    return log


def v_reveal_after_cancel() -> Log:
    log = excerpt("v35-reveal-after-cancel", "reference B3: a revealed climax cancels and stops the reveal")
    attack(log, "C2", "side", None)
    log.bad(
        "WS-DMG-005",
        "ws.damage",
        player=P2,
        amount=0,
        cancelled=True,
        cards=[{"card": "Gift of Flame", "climax": True}, {"card": "Hecate"}],
    )
    return log


def v_encore_two_stock() -> Log:
    log = excerpt("v36-rule-encore-two-stock", "reference B1 #7: the rule encore costs 3 stock")
    attack(log, "C1", "front", 1)
    log.ev("ws.step", step="battle")
    log.ev("ws.battle", attacker_power=6000, defender_power=7000, reversed=["attacker"])
    log.ev("ws.step", step="declare")
    log.ev("ws.step", step="encore")
    log.ev("ws.retire", player=P1, slot="C1")
    log.bad("WS-ENC-003", "ws.encore", player=P1, slot="C1", via="rule", stock=2)
    return log


CASES: list[Callable[[], Log]] = [
    c01_opening,
    c02_side_soul_zero,
    c03_defender_left,
    c04_end_again,
    c05_hand_limit,
    c06_check_timing,
    c07_cancel,
    c08_direct_trigger,
    c09_swap,
    c10_tie_encore,
    c11_no_attack,
    c12_act_event,
    c13_counter_wins,
    c14_side_soul_trigger,
    c15_import_src,
    c16_counter_by_option,
    c17_turn_start_ability,
    c18_clock_level_up,
    c19_refresh_in_draw,
    c20_hand_exactly_limit,
    c21_shot,
    c22_cancel_front,
    c23_two_attacks,
    c24_hand_limit_option,
    c25_attacker_left,
    c26_board_lists,
    c27_side_attacker_level,
    c28_cancel_written_zero,
    c29_play_over_occupied,
    c30_only_opponent_ability,
    c31_phase_end_left_out,
    c32_auto_between_retires,
    c33_climax_leave_ability,
    c34_level_four_loses,
    c35_draw_icon,
    v_check_ends_pending,
    v_no_refresh,
    v_encore_standing,
    v_shot_without_cancel,
    v_turn_twice,
    v_discard_after_climax,
    v_damage_after_attacker_left,
    v_side_attacker_level,
    v_front_into_empty,
    v_stand_partial,
    v_draw_two,
    v_clock_one_draw,
    v_draw_without_clock,
    v_clock_two,
    v_play_in_climax_phase,
    v_two_climaxes,
    v_attack_rested,
    v_attack_back_row,
    v_attack_twice,
    v_direct_into_character,
    v_direct_no_plus_one,
    v_side_no_minus,
    v_soul_zero_damage,
    v_front_wrong_damage,
    v_front_skips_counter,
    v_side_to_counter,
    v_side_to_battle,
    v_counter_by_turn_player,
    v_no_reveal,
    v_trigger_to_waiting,
    v_battle_wrong_side,
    v_battle_after_leave,
    v_encore_order,
    v_encore_left_reversed,
    v_hand_over_limit,
    v_climax_stays,
    v_end_with_pending,
    v_nonturn_first,
    v_ability_before_levelup,
    v_phase_order,
    v_first_turn_two_attacks,
    v_opponent_plays_in_main,
    v_resolve_outside_check,
    v_reveal_after_cancel,
    v_encore_two_stock,
]


def main() -> None:
    for old in HERE.glob("*.jsonl"):
        old.unlink()
    cases, refused = {}, []
    for make in CASES:
        log = make()
        refused += write(log)
        cases[f"{log.name}.jsonl"] = {"statement": log.statement, "findings": log.expect}
    (HERE / "cases.json").write_text(json.dumps(cases, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for r in refused:
        print("refused:", r)
    print(f"{len(cases)} cases written")


if __name__ == "__main__":
    main()
