"""`kifu cards` and docs/games/*-cards.md: one catalogue view, printed and written from the same data."""

from __future__ import annotations

import importlib.util
import json

import pytest
from conftest import ROOT

import kifu.games
from kifu.events import table

WITH_CARDS = [g for g in kifu.games.GAMES if table.has_part(g, "listing")]


def _make_cards():
    spec = importlib.util.spec_from_file_location("make_cards", ROOT / "docs" / "make_cards.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_games_with_a_catalogue_have_a_listing() -> None:
    assert WITH_CARDS == ["gunandgun", "mtg", "worldtrigger"]


@pytest.mark.parametrize("game", WITH_CARDS)
def test_the_cards_page_is_what_the_generator_writes(game: str) -> None:
    committed = (ROOT / "docs" / "games" / f"{game}-cards.md").read_text(encoding="utf-8")
    assert committed == _make_cards().page(game), f"run PYTHONPATH=. python docs/make_cards.py ({game})"


@pytest.mark.parametrize("game", WITH_CARDS)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_card_is_described_in_both_languages_by_every_accepted_name(game: str, lang: str) -> None:
    view = table.part(game, "listing")
    text = json.dumps(
        [s.title for s in view.listing(lang)] + [c for s in view.listing(lang) for c in s.columns], ensure_ascii=False
    )
    for form in view.forms():
        entry = view.describe(form, lang)
        assert entry is not None, form
        assert form in entry.data["accepted_names"] or form.lower() in entry.data["accepted_names"], form
        text += json.dumps([entry.kind, entry.lines, [t.columns for t in entry.tables]], ensure_ascii=False)
    assert "cardview." not in text  # every label is in the message catalogue


def test_cards_lists_the_catalogue_as_a_table_or_json(kifu, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # a wide terminal: each name on one line
    r = kifu("cards", "-g", "gunandgun")
    assert r.code == 0 and "計略" in r.out and "ノイズジェネレーター" in r.out
    r = kifu("cards", "-g", "gunandgun", "-f", "json")
    sections = json.loads(r.out)
    assert [len(s["rows"]) for s in sections] == [9, 6, 18, 54]


def test_one_card_shows_every_number_the_auditor_uses(kifu) -> None:
    r = kifu("cards", "-g", "gunandgun", "徹甲榴弾", "-f", "md")
    assert r.code == 0
    for fact in ("GD-014", "ヌエ ×2", "[threshold=N, HIT±=N]", "at the shot declaration", "load count"):
        assert fact in r.out, fact
    r = kifu("cards", "-g", "gunandgun", "ダタラ", "--lang", "ja", "-f", "md")
    assert "ヘッドショット" in r.out and "20/20" in r.out and "RETRIEVAL" in r.out


def test_the_json_of_one_card_is_the_catalogue_entry(kifu) -> None:
    data = json.loads(kifu("cards", "-g", "mtg", "RAL ZAREK", "-f", "json").out)
    assert data["name"] == "Ral Zarek" and data["ability"] == "-7"


def test_a_name_that_matches_nothing_suggests_the_closest(kifu) -> None:
    r = kifu("cards", "-g", "mtg", "Ral Zarek -7")
    assert r.code == 2 and "Ral Zarek" in r.err and r.err.count("\n") == 1
    r = kifu("cards", "-g", "gunandgun", "Keiryak", "--lang", "ja")
    assert r.code == 2 and "keiryaku" in r.err and "近い名前" in r.err


def test_a_game_without_a_catalogue_says_so(kifu) -> None:
    r = kifu("cards", "-g", "weiss")
    assert r.code == 2 and "weiss" in r.err


def test_world_trigger_lists_which_counter_answers_which_declaration(kifu) -> None:
    r = kifu("cards", "-g", "worldtrigger", "-f", "csv")
    assert "シールドモード" in r.out and "close" in r.out
