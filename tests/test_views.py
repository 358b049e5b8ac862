"""The games' warehouse views and feeds (issue 7) against the events of generated matches.

Each game's seeded generator (kifu/games/<id>/sim.py) writes legal matches; the corpus is
ingested once, and every row of every view is compared with what the events
say, derived here in plain Python (and, for Weiss soul, from the projection).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import msgspec
import pytest

from kifu import warehouse as wh
from kifu.events import logfile
from kifu.games.gunandgun import sim as gg_sim
from kifu.games.mtg import sim as mtg_sim
from kifu.games.weiss import projection as ws_projection
from kifu.games.weiss import sim as ws_sim
from kifu.games.weiss.rules.damage import expected_damage
from kifu.games.worldtrigger import sim as wt_sim
from kifu.projector.base import frames

GG_SEEDS, MTG_SEEDS, WT_SEEDS, WS_SEEDS = range(12), range(8), range(6), range(6)


def _write(path: Path, bodies: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    start = {k: v for k, v in bodies[0].items() if k not in ("type", "seq", "prev")}
    logfile.create(path, start)
    with logfile.Writer(path, durable=False) as w:
        for b in bodies[1:]:
            w.append({k: v for k, v in b.items() if k not in ("seq", "prev")})


def build_corpus(root: Path) -> Path:
    """Legal matches of all four games from their seeded generators, one log each."""
    for s in GG_SEEDS:
        _write(root / "gg" / f"{s}.jsonl", gg_sim.simulate(s))
    for s in MTG_SEEDS:
        _write(root / "mtg" / f"{s}.jsonl", mtg_sim.legal_match(s))
    for s in WT_SEEDS:
        start, events = wt_sim.match(s, match_id=f"wt-{s}")
        _write(root / "wt" / f"{s}.jsonl", [{"type": "match.start", "format": "kifu/1", **start}] + events)
    for s in WS_SEEDS:
        _write(root / "ws" / f"{s}.jsonl", [msgspec.to_builtins(e) for e in ws_sim.play_match(s, 8, f"ws-{s}")])
    return root


def ingested(tmp: Path) -> Path:
    corpus = build_corpus(tmp / "logs")
    db = tmp / "w.duckdb"
    con = wh.connect(db)
    summary = wh.ingest(con, [corpus], jobs=1)
    con.close()
    assert not summary.refused, summary.refused
    return db


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    return ingested(tmp_path_factory.mktemp("views"))


@pytest.fixture(scope="module")
def events(db: Path) -> dict[str, list[Any]]:
    """Every stored match's events, decoded again from the log files."""
    out = {}
    for path in sorted((db.parent / "logs").rglob("*.jsonl")):
        log = logfile.load(path)
        out[log.start.match] = log.events
    return out


def rows(db: Path, sql: str) -> list[tuple]:
    con = wh.connect(db, read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def of_type(events: dict[str, list[Any]], tag: str) -> list[tuple[str, Any]]:
    return [(m, e) for m, es in events.items() for e in es if type(e).__struct_config__.tag == tag]


# --- ガンナガン ------------------------------------------------------------------------


def test_gg_tosses_one_row_per_toss(db: Path, events) -> None:
    want = sorted((m, e.seq, e.act, e.player, e.facing) for m, e in of_type(events, "gg.toss"))
    assert want and rows(db, "SELECT match, seq, act, player, facing FROM gg_tosses ORDER BY ALL") == want


def _runs(events) -> dict[tuple[str, str], dict[str, Any]]:
    """N per activation from the tosses: self-facing tosses before the first opponent-facing one."""
    acts: dict[tuple[str, str], dict[str, Any]] = {}
    for m, e in of_type(events, "gg.toss"):
        a = acts.setdefault((m, e.act), {"seq": e.seq, "player": e.player, "n": 0, "tosses": 0, "finished": False})
        a["tosses"] += 1
        if not a["finished"]:
            a["n"] += e.facing == "self"
            a["finished"] = e.facing == "opponent"
    return acts


def test_gg_activations_count_n_card_kind_and_turn(db: Path, events) -> None:
    runs = _runs(events)
    got = {
        (m, act): (n, tosses, fin)
        for m, act, n, tosses, fin in rows(
            db, "SELECT match, act, n, tosses, finished FROM gg_activations WHERE tosses > 0"
        )
    }
    assert got == {k: (r["n"], r["tosses"], r["finished"]) for k, r in runs.items()}
    # Card, kind and the turn counter at the activation's first toss.
    opened = {(m, e.act): (e.card, e.kind) for m, e in of_type(events, "gg.play")}
    opened |= {(m, e.act): (e.card, "bullet") for m, e in of_type(events, "gg.bullet")}
    opened |= {(m, e.act): (e.card, e.kind) for m, e in of_type(events, "gg.group")}
    turn_at: dict[tuple[str, str], int] = {}
    for m, es in events.items():
        turn = None
        for e in es:
            if type(e).__struct_config__.tag == "gg.turn":
                turn = e.turn
            elif type(e).__struct_config__.tag == "gg.toss":
                turn_at.setdefault((m, e.act), turn)
    for m, act, card, kind, turn in rows(db, "SELECT match, act, card, kind, turn FROM gg_activations"):
        if (m, act) in opened:
            assert (card, kind) == opened[m, act]
        if (m, act) in turn_at:
            assert turn == turn_at[m, act]
    assert {k for k, _ in opened.items()} <= {(m, a) for m, a in rows(db, "SELECT match, act FROM gg_activations")}


def test_gg_resolve_n_agrees_with_the_tosses_in_legal_matches(db: Path) -> None:
    assert rows(db, "SELECT count(*) FROM gg_activations WHERE n_recorded IS NOT NULL") != [(0,)]
    assert rows(db, "SELECT match, act, n, n_recorded FROM gg_activations WHERE n_recorded <> n") == []


def test_gg_feeds_randomness_and_runs(db: Path, events) -> None:
    tosses = sorted(
        [(m, e.seq, e.player, 1 if e.facing == "self" else 2, e.act) for m, e in of_type(events, "gg.toss")]
        + [
            (m, e.seq, e.by, v, e.purpose)
            for m, e in of_type(events, "random")  # a first player by coin
            if e.kind == "coin" and e.sides == 2
            for v in e.values
        ]
    )
    assert (
        rows(
            db,
            "SELECT match, seq, player, value, purpose FROM randomness WHERE game = 'gunandgun' "
            "AND kind = 'coin' AND sides = 2 ORDER BY ALL",
        )
        == tosses
    )
    finished = sorted((m, r["seq"], r["player"], r["n"]) for (m, _), r in _runs(events).items() if r["finished"])
    assert (
        finished
        and rows(db, "SELECT match, seq, player, n FROM runs WHERE game = 'gunandgun' ORDER BY ALL") == finished
    )


def test_gg_setups_and_shots(db: Path, events) -> None:
    want = sorted((m, e.player, e.gunner, "+".join(sorted(e.guns))) for m, e in of_type(events, "gg.setup"))
    assert rows(db, "SELECT match, player, gunner, gun_pair FROM gg_setups ORDER BY ALL") == want
    shots = sorted((m, e.shot, e.player, e.gun) for m, e in of_type(events, "gg.shoot"))
    assert shots and rows(db, "SELECT match, shot, player, gun FROM gg_shots ORDER BY ALL") == shots


# --- MTG ---------------------------------------------------------------------------------


def _mtg_coins(events) -> list[tuple]:
    """Per coin: (match, seq, card, player, called, result, fate, won) from the events."""
    out = []
    for m, es in events.items():
        flips = {e.flip: e for e in es if type(e).__struct_config__.tag == "mtg.flip"}
        calls, keeps, coins = {}, {}, defaultdict(list)
        for e in es:
            tag = type(e).__struct_config__.tag
            if tag == "mtg.call" and not coins.get((e.flip, e.group, e.player)):
                calls[(e.flip, e.group, e.player)] = e.side  # the last call before the first coin
            elif tag == "mtg.keep":
                keeps[(e.flip, e.group, e.player)] = e.coin
            elif tag == "mtg.coin":
                coins[(e.flip, e.group, e.player or flips[e.flip].flipper)].append(e)
        for key, cs in coins.items():
            for i, c in enumerate(cs, 1):
                kept = keeps.get(key)
                fate = "kept" if (kept is None and len(cs) == 1) or kept == i else (None if kept is None else "ignored")
                called = calls.get(key)
                won = ("won" if c.result == called else "lost") if fate == "kept" and called else None
                out.append((m, c.seq, flips[c.flip].card, key[2], called, c.result, fate, won))
    return sorted(out, key=lambda r: (r[0], r[1]))


def test_mtg_flips_one_row_per_coin(db: Path, events) -> None:
    want = _mtg_coins(events)
    got = rows(db, "SELECT match, seq, card, player, called, result, fate, won FROM mtg_flips ORDER BY match, seq")
    assert got == want
    fates = {r[6] for r in want}
    assert {"kept", "ignored"} <= fates, "the corpus should hold Krark's Thumb flips"


def test_mtg_recorded_outcome_agrees_with_the_call_in_legal_matches(db: Path) -> None:
    assert rows(db, "SELECT count(*) FROM mtg_flips WHERE won IS NOT NULL AND outcome_recorded IS NOT NULL") != [(0,)]
    assert rows(db, "SELECT match, seq FROM mtg_flips WHERE won <> outcome_recorded") == []


def test_mtg_feeds_randomness_heads_as_face_one(db: Path, events) -> None:
    want = sorted(
        (m, c[1], c[3], 1 if c[5] == "heads" else 2, c[2]) for m in events for c in _mtg_coins(events) if c[0] == m
    )
    assert rows(db, "SELECT match, seq, player, value, purpose FROM randomness WHERE game = 'mtg' ORDER BY ALL") == want


# --- World Trigger -------------------------------------------------------------------------


def test_wt_plots_dice_and_tags(db: Path, events) -> None:
    want = []
    for m, es in events.items():
        plots = [e for e in es if type(e).__struct_config__.tag == "wt.plot"]
        for i, p in enumerate(plots):
            end = plots[i + 1].seq if i + 1 < len(plots) else 10**9
            tags = next(
                (
                    e.tags
                    for e in es
                    if type(e).__struct_config__.tag == "wt.tags" and p.seq < e.seq < end and e.player == p.attacker
                ),
                [],
            )
            other = next(x.id for x in es[0].players if x.id != p.attacker)
            want.append((m, p.seq, p.attacker, other, *p.attack, *p.defence, tags, len(tags)))
    got = rows(
        db,
        "SELECT match, seq, attacker, defender, attack_1, attack_2, defence_1, defence_2, tags, tags_gained "
        "FROM wt_plots ORDER BY match, seq",
    )
    assert want and got == sorted(want, key=lambda r: (r[0], r[1]))


def test_wt_initial_die_is_the_only_random_outcome(db: Path, events) -> None:
    want = sorted((m, e.seq, e.by, e.value) for m, e in of_type(events, "wt.init.roll"))
    assert (
        want
        and rows(
            db,
            "SELECT match, seq, player, value FROM randomness WHERE game = 'worldtrigger' "
            "AND kind = 'die' AND sides = 6 AND purpose = 'initial-distance' ORDER BY ALL",
        )
        == want
    )
    assert rows(db, "SELECT count(*) FROM randomness WHERE game = 'worldtrigger'") == [(len(want),)]


def test_wt_builds_trigger_set_ignores_slot_order(db: Path, events) -> None:
    want = sorted(
        (m, e.player, ",".join(sorted(e.main)) + " / " + ",".join(sorted(e.sub)))
        for m, e in of_type(events, "wt.build")
    )
    assert rows(db, "SELECT match, player, trigger_set FROM wt_builds ORDER BY ALL") == want


# --- Weiss Schwarz -------------------------------------------------------------------------


def _ws_attacks(es: list[Any]) -> list[tuple]:
    """Per attack: (seq, player, slot, kind, base soul from the projection, trigger soul, damage, cancelled, battle)."""
    out: list[list[Any]] = []
    options = {"side_attack_level": "defender"}
    before = None
    for e, frame in zip(es, frames(ws_projection, es, options)):
        tag = type(e).__struct_config__.tag
        if tag == "ws.attack":
            out.append([e.seq, e.player, e.slot, e.kind, None, 0, None, None, None])
        elif tag in ("ws.phase.end", "ws.turn"):
            before = frame
            continue
        elif out and tag == "ws.reveal" and out[-1][6] is None:
            out[-1][5] += e.icons.count("soul")
        elif out and tag == "ws.damage" and e.source == "attack" and out[-1][6] is None:
            calc = expected_damage(before.game)
            out[-1][4] = calc["base"] if calc else None
            out[-1][6:8] = [e.amount, e.cancelled]
        elif out and tag == "ws.battle" and out[-1][8] is None:
            r = e.reversed
            out[-1][8] = "both-reversed" if len(r) == 2 else "none-reversed" if not r else f"{r[0]}-reversed"
        before = frame
    return [tuple(r) for r in out]


def test_ws_attacks_against_the_projection(db: Path, events) -> None:
    got = {
        (m, seq): r
        for m, seq, *r in rows(
            db, "SELECT match, seq, player, slot, kind, soul, trigger_soul, damage, cancelled, battle FROM ws_attacks"
        )
    }
    checked = souls = 0
    for m, es in events.items():
        if es[0].game != "weiss":
            continue
        for seq, player, slot, kind, soul, trig, damage, cancelled, battle in _ws_attacks(es):
            g = got.pop((m, seq))
            assert (g[0], g[1], g[2], g[4], g[5], g[6], g[7]) == (player, slot, kind, trig, damage, cancelled, battle)
            if g[3] is not None and soul is not None:
                assert g[3] == soul, (m, seq)
                souls += 1
            checked += 1
    assert not got and checked > 10 and souls > checked // 2
    # Attack damage is the soul plus one for a direct attack in these matches (no side penalties at level 0).
    assert rows(
        db, "SELECT count(*) FROM ws_attacks WHERE kind = 'direct' AND soul IS NOT NULL AND damage <> soul + 1"
    ) == [(0,)]


def test_ws_records_no_randomness_of_its_own(db: Path) -> None:
    assert rows(db, "SELECT count(*) FROM randomness WHERE game = 'weiss'") == [(0,)]


def test_first_players_per_game(db: Path, events) -> None:
    firsts = {"gg.first": "player", "wt.order": "first", "ws.turn": "player", "mtg.turn": "player"}
    want = set()
    for m, es in events.items():
        e = next((e for e in es if type(e).__struct_config__.tag in firsts), None)
        if e is not None:
            want.add((m, getattr(e, firsts[type(e).__struct_config__.tag])))
    assert rows(db, "SELECT count(DISTINCT game) FROM first_players") == [(4,)]
    assert set(rows(db, "SELECT match, player FROM first_players")) == want


def test_every_view_is_documented() -> None:
    from conftest import ROOT

    from kifu.warehouse.views import modules

    text = (ROOT / "docs" / "sql.md").read_text(encoding="utf-8")
    names = [name for m in modules() for name in getattr(m, "VIEWS", {})] + ["first_players"]
    assert [n for n in names if f"`{n}`" not in text] == []
