"""Hypothesis properties of the ガンナガン coin-toss variant (seed 000): legal matches are clean,
N is counted right for any toss sequence, and each mutation is named by its rule."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from kifu import app
from kifu.auditor import registry
from kifu.games.gunandgun import projection as proj
from kifu.games.gunandgun.sim import play
from kifu.projector.base import Replay


def chain(payloads: list[dict[str, Any]]) -> list[Any]:
    """A simulated match's payloads as a chained log (``kifu.chain``)."""
    return app.chain("gunandgun", payloads)


def findings(payloads):
    return registry.audit(chain(payloads), strict=True)


def errors(payloads):
    return {(f.code, f.seq) for f in findings(payloads) if f.severity == "error"}


seeds = st.integers(min_value=0, max_value=10_000)


def _match(seed: int, turns: int = 10) -> list[dict[str, Any]]:
    return play(random.Random(seed), f"h{seed}", turns)


@given(seeds, st.integers(min_value=1, max_value=14))
def test_generated_legal_matches_have_no_error_findings(seed: int, turns: int) -> None:
    found = [(f.code, f.seq, f.message.en) for f in findings(_match(seed, turns)) if f.severity != "info"]
    assert found == []


@given(seeds)
def test_replay_from_snapshots_equals_replay_from_start(seed: int) -> None:
    events = chain(_match(seed, 6))
    r = Replay(proj, events, {}, every=16)
    for seq in (1, len(events) // 2, len(events)):
        assert r.state_at(seq) == r.replay_from_start(seq)


def _keiryaku_with(tosses: list[str], n: int) -> list[dict[str, Any]]:
    base = _match(0, 0)
    act = "x1"
    base.append({"type": "gg.turn", "player": _first(base), "turn": 1})
    pid = _first(base)
    base.append({"type": "gg.play", "act": act, "player": pid, "card": "計略", "kind": "action"})
    base.append({"type": "gg.cost", "act": act, "player": pid, "kind": "hand", "n": 1})
    base += [{"type": "gg.toss", "act": act, "player": pid, "facing": f} for f in tosses]
    base.append({"type": "gg.resolve", "act": act, "player": pid, "n": n, "values": [n]})
    return base


def _first(payloads: list[dict[str, Any]]) -> str:
    return next(p["player"] for p in payloads if p["type"] == "gg.first")


@given(st.lists(st.sampled_from(["self", "opponent"]), min_size=1, max_size=12))
def test_any_toss_sequence_gives_the_right_n(tosses: list[str]) -> None:
    want = tosses.index("opponent") if "opponent" in tosses else len(tosses)
    payloads = _keiryaku_with(tosses, want)
    events = chain(payloads)
    state = Replay(proj, events, {}).state_at(len(events) - 1).game
    assert state.acts["x1"].n == want
    found = [f for f in findings(payloads) if f.severity == "error"]
    codes = [f.code for f in found]
    assert "GG-TOSS-003" not in codes
    extra = len(tosses) - want - 1 if "opponent" in tosses else 0
    # tosses after the sequence ended are one mistake: one finding naming every extra toss
    assert codes.count("GG-TOSS-002") == min(extra, 1)
    if extra:
        seqs = next(f.seqs for f in found if f.code == "GG-TOSS-002")
        last_toss = len(payloads) - 1  # the resolution is the last payload, seq len(payloads)
        assert seqs == list(range(last_toss - extra, last_toss + 1))  # the toss that ended it, the extra ones
    assert ("GG-TOSS-004" in codes) == ("opponent" not in tosses)
    wrong = _keiryaku_with(tosses, want + 1)
    if extra:  # the N counted past the end follows from tossing on: folded into that finding
        assert any(f.code == "GG-TOSS-002" and f.consequences == [len(wrong)] for f in findings(wrong))
    else:
        assert ("GG-TOSS-003", len(wrong)) in errors(wrong)


def _toss_before_cost(p: list[dict[str, Any]], rng: random.Random) -> tuple[str, int] | None:
    costs = [
        i
        for i, e in enumerate(p)
        if e["type"] == "gg.cost"
        and e["kind"] != "additional"
        and i + 1 < len(p)
        and p[i + 1]["type"] == "gg.toss"
        and p[i + 1]["act"] == e["act"]
    ]
    if not costs:
        return None
    i = rng.choice(costs)
    p[i], p[i + 1] = p[i + 1], p[i]
    return "GG-TOSS-001", i + 1


def _second_use(p: list[dict[str, Any]], rng: random.Random) -> tuple[str, int] | None:
    plays = [i for i, e in enumerate(p) if e["type"] == "gg.play" and e["card"] in ("叩き付け", "オーバーブースト")]
    if not plays:
        return None
    i = rng.choice(plays)
    act = p[i]["act"]
    block = [copy.deepcopy(e) for e in p[i:] if e.get("act") == act]
    for e in block:
        e["act"] = act + "b"
    end = max(j for j, e in enumerate(p) if e.get("act") == act) + 1
    p[end:end] = block
    return "GG-LIM-001", end + 1


def _load_past_max(p: list[dict[str, Any]], rng: random.Random) -> tuple[str, int] | None:
    loads = [i for i, e in enumerate(p) if e["type"] == "gg.load" and e.get("how", "basic") == "basic"]
    if not loads:
        return None
    i = rng.choice(loads)
    state = Replay(proj, chain(p[: i + 1]), {}).state_at(i + 1).game
    e = p[i]
    g = state.players[e["player"]].guns[e["gun"]]
    # a basic load: an effect's N past the room is ignored by seed 000's FAQ, the player's own load is not
    p.insert(i + 1, {"type": "gg.load", "player": e["player"], "gun": e["gun"], "n": g.max - g.loads + 1})
    return "GG-LOAD-002", i + 2


MUTATIONS = {"toss-before-cost": _toss_before_cost, "second-use": _second_use, "load-past-max": _load_past_max}


@given(seeds, st.sampled_from(sorted(MUTATIONS)))
def test_a_mutated_legal_match_is_named_by_its_rule(seed: int, mutation: str) -> None:
    payloads = _match(seed, 12)
    rng = random.Random(seed)
    want = MUTATIONS[mutation](payloads, rng)
    assume(want is not None)  # this match never did what the mutation changes
    assert want in errors(payloads)


@given(seeds, st.lists(st.integers(min_value=1, max_value=10_000), min_size=1, max_size=8))
def test_the_audit_never_raises_on_a_damaged_but_well_formed_log(seed: int, cuts: list[int]) -> None:
    """Events dropped at random still replay and audit (the projection is total; rules never crash)."""
    payloads = _match(seed, 6)
    for c in cuts:
        if len(payloads) > 2:
            del payloads[1 + c % (len(payloads) - 1)]
    fs = findings(payloads)  # strict: a crashing rule raises here
    assert all(f.code != "KIFU-ENG-001" for f in fs)
