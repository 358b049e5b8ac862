"""One catalogue, one definition per name (issue 32, defect 11).

The reproducer: a log's catalogue defined one card name twice; the log verified and
the audit used the last definition, so the order of the list decided the verdict.
A name given twice (within the log's own list, or a log's new card under the name
of a built-in one, or a gun's short name that is another gun's name) is now a format
error that names the field, whatever the order; a log's card that takes a built-in
card's own id (or, in Magic, its name) still replaces it, as documented.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kifu.events import table

MTG_CARD = {"name": "Zap Coin", "roles": ["flip"], "call": "called", "sequence": "fixed", "coins": 1}
GG_CARD = {"id": "zz-1", "name": "テスト弾", "no": "ZZ-1", "kind": "bullet", "cost": 0, "copies": {"enra": 1}}
GG_CARD["timing"], GG_CARD["summary"] = "shot", "a card of the test"


def _start(game: str, catalogue: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "match.start",
        "seq": 1,
        "prev": None,
        "format": "kifu/1",
        "game": game,
        "match": "dup",
        "players": [{"id": "a", "name": "Aoi"}, {"id": "b", "name": "Ren"}],
        "catalogue": catalogue,
    }


def _log(path: Path, game: str, catalogue: dict[str, Any]) -> Path:
    """A log of one match.start, written line by line as another tool would (no check of the catalogue)."""
    codec = table.codec(game)
    path.write_bytes(codec.line(codec.convert(_start(game, catalogue))) + b"\n")
    return path


def _refused(kifu, log: Path, field: str, *words: str) -> None:
    r = kifu("verify", log)
    assert r.code == 2, (r.code, r.out, r.err)
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and field in lines[0], r.err
    for w in words:
        assert w.lower() in lines[0].lower(), (w, lines[0])


MTG_TWICE = [
    [{**MTG_CARD, "per_win": {"cards": 1}}, {**MTG_CARD, "name": "zap coin ", "per_loss": {"damage": 5}}],
    [{**MTG_CARD, "name": "zap coin ", "per_loss": {"damage": 5}}, {**MTG_CARD, "per_win": {"cards": 1}}],
]


@pytest.mark.parametrize("cards", MTG_TWICE, ids=["wins first", "losses first"])
def test_a_magic_card_named_twice_is_refused_whatever_the_order(tmp_path: Path, kifu, cards) -> None:
    _refused(kifu, _log(tmp_path / "m.jsonl", "mtg", {"cards": cards}), "catalogue.cards[1].name", "Zap Coin")


def test_a_magic_card_may_still_replace_a_built_in_one(tmp_path: Path, kifu) -> None:
    log = _log(tmp_path / "m.jsonl", "mtg", {"cards": [{**MTG_CARD, "name": "Mana Crypt"}]})
    assert kifu("verify", log).code == 0


@pytest.mark.parametrize(
    "cards",
    [
        [GG_CARD, {**GG_CARD, "id": "zz-2", "no": "ZZ-2"}],
        [{**GG_CARD, "name": "ダブルバレット"}],  # a built-in card's name under a new id
    ],
    ids=["twice in the log", "a built-in name"],
)
def test_a_gunandgun_card_named_twice_is_refused(tmp_path: Path, kifu, cards) -> None:
    field = "cards[1].name" if len(cards) == 2 else "cards[0].name"
    _refused(kifu, _log(tmp_path / "m.jsonl", "gunandgun", {"cards": cards}), field)


def test_a_gunandgun_card_may_still_replace_a_built_in_one_by_id(tmp_path: Path, kifu) -> None:
    log = _log(tmp_path / "m.jsonl", "gunandgun", {"cards": [{**GG_CARD, "id": "daburu-baretto", "no": "GD-001"}]})
    assert kifu("verify", log).code == 0, kifu("verify", log).err


def test_kifu_new_refuses_a_catalogue_file_naming_a_card_twice(tmp_path: Path, kifu) -> None:
    import json

    (tmp_path / "cards.json").write_text(
        json.dumps({"cards": [GG_CARD, {**GG_CARD, "id": "zz-2", "no": "ZZ-2"}]}, ensure_ascii=False), encoding="utf-8"
    )
    r = kifu("new", tmp_path / "n.jsonl", "-g", "gunandgun", "-m", "x", "-p", "a=A", "-p", "b=B")
    assert r.code == 0
    r = kifu(
        "new", tmp_path / "n2.jsonl", "-g", "gunandgun", "-m", "x", "-p", "a=A", "--catalogue", tmp_path / "cards.json"
    )
    assert r.code == 2 and "cards[1].name" in r.err and len(r.err.strip().splitlines()) == 1, r.err
    assert not (tmp_path / "n2.jsonl").exists()


@pytest.mark.parametrize("game", ["gunandgun", "mtg", "worldtrigger"])
def test_every_built_in_catalogue_has_one_definition_per_name(game: str) -> None:
    """The check holds the shipped cards to the same rule (a built-in name twice would be our own bug)."""

    events = table.part(game, "events")
    start = table.codec(game).convert(_start(game, {}) | {"catalogue": None})
    assert events.catalogue(start) is not None
