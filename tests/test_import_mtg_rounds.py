"""Coins from a client's button (Cockatrice's coin, a BCDice 1D2) go to the round the card says.

Issue 28, item 4: a Mana Clash flipped with the client's own coin button over two rounds imported
as one round with a re-flip (a false MTG-THUMB-001). The logs here are invented, in the shape of a
Cockatrice game log and of a Udonarium chat with BCDice answers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import game_map

from kifu.auditor import registry
from kifu.events import importers, logfile
from kifu.events import table as game_table
from kifu.events.notation import Table
from kifu.games.mtg.importing import coins_per_flip
from kifu.games.mtg.rules.common import expected_coins

PLAYERS = (("a", "Aoi"), ("b", "Ren"))


def _coin(name: str, heads: bool) -> str:
    return f"{name} flipped a coin. It landed as {'Heads (1)' if heads else 'Tails (2)'}."


def _import(tmp_path: Path, lines: list[str], rules: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    src = tmp_path / "game.log"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "m.jsonl"
    importers.import_file(
        src,
        out,
        fmt="cockatrice",
        game="mtg",
        map_text=game_map("mtg").read_text(encoding="utf-8"),
        players=PLAYERS,
        rules=rules,
    )
    return [msgspec_dict(e) for e in logfile.load(out).events]


def msgspec_dict(e: Any) -> dict[str, Any]:
    import msgspec

    return msgspec.to_builtins(e)  # type: ignore[no-any-return]


def _codes(tmp_path: Path) -> set[str]:
    return {f.code for f in registry.audit(logfile.load(tmp_path / "m.jsonl").events)}


def _rounds(events: list[dict[str, Any]]) -> list[tuple[str, int, str]]:
    return [(e["player"], e.get("group", 1), e["result"]) for e in events if e["type"] == "mtg.coin"]


def test_two_rounds_of_mana_clash_from_the_coin_button_are_two_rounds(tmp_path: Path) -> None:
    events = _import(
        tmp_path,
        [
            "Aoi: !flip 魔力激突",
            _coin("Aoi", True),
            _coin("Ren", False),  # round 1: Ren takes 1 damage; not both heads, so again
            _coin("Ren", True),  # Ren's coin comes first this time
            _coin("Aoi", True),  # round 2: both heads, the clash ends
        ],
    )
    assert _rounds(events) == [("a", 1, "heads"), ("b", 1, "tails"), ("b", 2, "heads"), ("a", 2, "heads")]
    codes = _codes(tmp_path)
    assert "MTG-THUMB-001" not in codes and "MTG-SEQ-007" not in codes, codes


def test_a_coin_flipped_again_before_the_opponents_is_a_re_flip(tmp_path: Path) -> None:
    events = _import(
        tmp_path,
        ["Aoi: !flip 魔力激突", _coin("Aoi", False), _coin("Aoi", True), _coin("Ren", True)],
    )
    assert _rounds(events) == [("a", 1, "tails"), ("a", 1, "heads"), ("b", 1, "heads")]
    assert "MTG-THUMB-001" in _codes(tmp_path)  # the card says one coin each a round: Aoi's second is a re-flip


def test_under_a_thumb_a_round_waits_for_both_of_its_coins(tmp_path: Path) -> None:
    events = _import(
        tmp_path,
        [
            "Aoi: !enters thumb クラークの親指",
            "Aoi: !flip 魔力激突",
            _coin("Aoi", False),
            _coin("Ren", False),
            _coin("Aoi", True),  # Aoi's second coin of round 1 (the Thumb's), not round 2
            "Aoi: !keep 2",
            _coin("Ren", True),
            _coin("Aoi", True),
            _coin("Aoi", True),
            "Aoi: !keep 1",
        ],
    )
    assert _rounds(events) == [
        ("a", 1, "tails"),
        ("b", 1, "tails"),
        ("a", 1, "heads"),
        ("b", 2, "heads"),
        ("a", 2, "heads"),
        ("a", 2, "heads"),
    ]
    assert [e.get("group", 1) for e in events if e["type"] == "mtg.keep"] == [1, 2]
    assert "MTG-THUMB-001" not in _codes(tmp_path)


def test_thumbs_counted_the_table_s_way(tmp_path: Path) -> None:
    lines = ["Aoi: !enters t1 クラークの親指", "Aoi: !enters t2 クラークの親指", "Aoi: !flip 魔力激突"]
    lines += [_coin("Aoi", False)] * 3 + [_coin("Ren", False), _coin("Aoi", True)]
    added = _import(tmp_path, lines, rules={"thumbs_stack": "add"})  # two Thumbs add: three coins a flip
    assert [g for _, g, _ in _rounds(added)] == [1, 1, 1, 1, 2]
    (tmp_path / "m.jsonl").unlink()
    multiplied = _import(tmp_path, lines)  # two Thumbs multiply: four coins a flip
    assert [g for _, g, _ in _rounds(multiplied)] == [1, 1, 1, 1, 1]


def test_a_group_typed_in_the_chat_is_kept(tmp_path: Path) -> None:
    events = _import(tmp_path, ["Aoi: !flip 魔力激突", "Aoi: !coin 表 1", "Ren: !coin 裏 1", "Ren: !coin 表 2"])
    assert _rounds(events) == [("a", 1, "heads"), ("b", 1, "tails"), ("b", 2, "heads")]


def test_other_cards_keep_their_coins_in_one_group(tmp_path: Path) -> None:
    events = _import(tmp_path, ['Aoi: !flip "Two-Headed Giant" 2', _coin("Aoi", True), _coin("Aoi", True)])
    assert [g for _, g, _ in _rounds(events)] == [1, 1]


def test_kifu_record_places_the_rounds_the_same_way_and_undoes_them() -> None:
    codec = game_table.codec("mtg")
    start = codec.convert(
        {
            "type": "match.start",
            "seq": 1,
            "prev": "",
            "format": "kifu/1",
            "game": "mtg",
            "match": "m",
            "players": [{"id": "a", "name": "Aoi"}, {"id": "b", "name": "Ren"}],
        }
    )
    from kifu.events.importers.mapping import load

    table = Table(start, codec, load(game_map("mtg").read_text(encoding="utf-8"), "mtg", codec))
    seq, groups = 2, []
    for line in (
        "a: !flip 魔力激突",
        "a: !coin 表",
        "b: !coin 裏",
        "b: !coin 表",
        "a: !coin 表",
        "!undo",
        "b: !coin 表",
    ):
        table.read(line, seq)  # a dry run changes nothing
        reading = table.read(line, seq)
        seqs = list(range(seq, seq + len(reading.events)))
        table.commit(reading, seqs)
        groups += [e.get("group") for e in reading.events if e.get("type") == "mtg.coin"]
        seq += len(seqs)
    # the undo took back Aoi's round-2 coin and what it taught: Ren's next coin is a re-flip of round 2
    assert groups == [1, 1, 2, 2, 2]


def test_the_importer_counts_coins_as_the_auditor_does() -> None:
    for k in range(4):
        for stacking in ("multiply", "add"):
            assert coins_per_flip(k, stacking) == expected_coins(k, stacking)
