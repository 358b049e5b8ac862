"""World Trigger schema, catalogue, purity and CLI (seed 002)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import FIXTURES

from kifu.auditor import registry
from kifu.events import table
from kifu.events.base import KifuError, MalformedEvent
from kifu.games.worldtrigger import cards

CODEC = table.codec("worldtrigger")
REQUIRED = [
    "弧月",
    "旋空",
    "スコーピオン",
    "レイガスト",
    "アステロイド",
    "ハウンド",
    "メテオラ",
    "バイパー",
    "シールド",
    "エスクード",
    "バッグワーム",
    "グラスホッパー",
]


@pytest.mark.parametrize(
    "line,field",
    [
        (b'{"type":"wt.plot","seq":2,"prev":"x","attacker":"a","attack":[1,7],"defence":[1,2]}', "attack[1]"),
        (b'{"type":"wt.plot","seq":2,"prev":"x","attacker":"a","attack":[1,2,3],"defence":[1,2]}', "attack"),
        (b'{"type":"wt.init.roll","seq":2,"prev":"x","value":0}', "value"),
        (b'{"type":"wt.move","seq":2,"prev":"x","player":"a","to":99}', "to"),
        (b'{"type":"wt.tags","seq":2,"prev":"x","player":"a","tags":["jump"]}', "tags[0]"),
        (b'{"type":"wt.set","seq":2,"prev":"x","player":"a","main":"x","sub":"y","colour":1}', "colour"),
    ],
)
def test_decoder_rejects_impossible_values_naming_the_field(line: bytes, field: str) -> None:
    with pytest.raises(MalformedEvent) as err:
        CODEC.decode(line)
    assert err.value.field == field


def test_example_catalogue_is_marked_and_complete() -> None:
    c = cards.load()
    assert c.example and "EXAMPLE" in c.note
    assert set(REQUIRED) <= set(c.triggers)
    assert c.trigger("旋空").option_of == "弧月" and "旋空" in c.trigger("弧月").options
    timings = {e.timing for t in c.triggers.values() for e in t.effects.values()}
    assert timings == {"initial", "tactics", "counter"}
    assert "shooting" in c.effect("シールド", "防御").against


def test_a_logs_catalogue_is_laid_over_the_example() -> None:
    own = {"triggers": {"アステロイド": {"side": "main", "reveal": 9}, "新型": {"side": "sub"}}}
    c = cards.merged(own)
    assert c.trigger("アステロイド").reveal == 9 and c.trigger("新型") is not None
    assert c.trigger("シールド") == cards.load().trigger("シールド")
    assert cards.merged(None) is cards.load()
    with pytest.raises(KifuError) as err:
        cards.merged({"triggers": {"x": {"side": "left"}}})
    assert err.value.field == "catalogue"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_cli_audit_cites_the_rule_and_exits_1(kifu) -> None:
    r = kifu("audit", FIXTURES / "worldtrigger/rules/WT-MOVE-002/bad.jsonl", "--lang", "en")
    assert r.code == 1
    assert (
        "WT-MOVE-002" in r.out
        and "ボーダー隊員ソロランク戦ゲーム（仮） rules ■5" in r.out
        and "from distance 3 to 5" in r.out
    )


def test_cli_clean_match_and_rule_listing(kifu) -> None:
    r = kifu("audit", FIXTURES / "worldtrigger/match-clean.jsonl", "--lang", "en")
    assert r.code == 0 and "no findings" in r.out, r.out
    listing = kifu("rules", "-g", "worldtrigger", "-f", "csv")
    codes = {line.split(",")[0] for line in listing.out.splitlines()[1:]}
    assert {r.code for r in registry.game("worldtrigger").rules} <= codes
    state = kifu("state", FIXTURES / "worldtrigger/match-clean.jsonl", "--at", "12")
    assert state.code == 0 and '"distance"' in state.out


def test_every_option_is_documented_and_used_by_a_rule() -> None:
    g = registry.game("worldtrigger")
    used = {name for r in g.rules for name in r.options}
    for opt in g.options:
        assert opt.doc.ja and opt.doc.en and opt.citation.ja.startswith("「ボーダー隊員ソロランク戦ゲーム（仮）」 ■"), (
            opt.name
        )
        assert opt.name in used, f"{opt.name} is declared but no rule lists it"
        assert opt.choices is None or opt.default in opt.choices
    assert used <= {o.name for o in g.options}


def test_every_rule_cites_the_fan_rules_and_is_documented() -> None:
    for r in registry.game("worldtrigger").rules:
        assert r.citation.en.startswith("ボーダー隊員ソロランク戦ゲーム（仮） rules ■"), r.code
        assert r.doc.checks and r.doc.why and r.doc.bad and r.doc.good, r.code
        assert r.title.ja and r.message.ja and r.message.en, r.code
