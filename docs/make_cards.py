"""Write docs/games/<game>-cards.md for every game with a card catalogue, from the data ``kifu cards`` shows.

Run from the repository root:  PYTHONPATH=. python docs/make_cards.py
Each page is: how to look a card up, the catalogue's fields one by one (from the
structs' own field documentation), how a log brings its own cards, an example from
fixtures/catalogues/ that the auditor then uses, the game's notes (docs/cards/<game>.md,
written by hand), and the whole built-in catalogue, every card in full.
tests/test_cards.py checks that the committed pages are what this writes.
"""

from __future__ import annotations

import json
import sys
import types
import typing
from pathlib import Path
from typing import Any

import msgspec

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kifu.events import table  # noqa: E402
from kifu.events.cardview import Entry, Section  # noqa: E402
from kifu.events.schema import field_docs  # noqa: E402

GAMES = {
    "gunandgun": {
        "title": "ガンナガン card catalogue",
        "intro": "The facts about ガンナガン's 9 guns, 6 gunners, 18 skills and 54 deck cards that the auditor uses for "
        "the coin-toss variant (the coin-toss variant): every number of an effect with its role and whether N replaces it, "
        "COST, usage limits, additional costs, timing, the decks that hold each card, and each gun's stats, "
        "HIT table and deck. Facts only, in our own words (`kifu/games/gunandgun/cards.json`).",
        "look": [
            "kifu cards -g gunandgun",
            "kifu cards -g gunandgun 計略 --lang ja",
            "kifu cards -g gunandgun ダタラ",
            "kifu cards -g gunandgun keiryaku -f json",
        ],
        "structs": ("Catalogue", "Gun", "HitRow", "Gunner", "Skill", "Card", "Number", "Limit", "AdditionalCost"),
        "merge": "`match.start.catalogue` has the shape of the built-in catalogue with any subset of the lists "
        "(`guns`, `gunners`, `skills`, `cards`; `version` and `source` optional). It is laid over the "
        "built-in one by `id`: an entry with a known id replaces that entry whole (give every field, not a "
        "patch), a new id is added. The result is checked like the built-in catalogue, so a card naming an "
        "unknown gun fails with the field, indexed into the log's own lists "
        "(`match.start.catalogue: field cards[0].copies: …`). A house gun's deck is the cards whose "
        "`copies` name it; it is complete (so an unknown card cannot be in it) when they add up to its "
        "`deck_size`.",
        "example": "A house gun ミカヅチ with its own HIT table and a 20-card deck of two house cards. The auditor "
        "takes the shot's damage from ミカヅチ's table (2 loads: 5 HIT) and knows that 速射 is in "
        "ミカヅチ's deck only, so the player without that gun cannot play it.",
    },
    "mtg": {
        "title": "Magic coin-flip card catalogue",
        "intro": "The coin-flip cards the Magic auditor (Comprehensive Rules 705) knows: whether a card's flips are "
        "called or heads/tails-only, how its flips go on, what it pays off, and for a watcher whose flips "
        "it counts. Facts only, in our own words (`kifu/games/mtg/cards.json`). `mtg.flip card` and "
        "`mtg.enters card` take the English name as spelled here, in any case; a card with several "
        'abilities takes the ability apart, in `ability` (`"card": "Ral Zarek", "ability": "-7"`).',
        "look": ["kifu cards -g mtg", 'kifu cards -g mtg "ral zarek"', 'kifu cards -g mtg "Chance Encounter" -f json'],
        "structs": ("Card", "Watch", "Tier", "AllWonAt"),
        "merge": '`match.start.catalogue` is `{"cards": [ … ]}`, each card in the shape below. A card is keyed by '
        "its English name (case-insensitive): one with a built-in card's name replaces it, a new name is "
        "added. A card the merged catalogue lacks can still be flipped (`mtg.flip` may give `kind` and "
        "`sequence` itself), but the rules that need its facts cannot decide (info).",
        "example": "A watcher the catalogue lacks, Karplusan Minotaur (it pays when its controller wins a flip), "
        "described in the log. The auditor counts only its controller's wins (`scope: you`): a payoff for "
        "the opponent's won flip is a finding.",
    },
    "worldtrigger": {
        "title": "World Trigger trigger catalogue",
        "intro": "The triggers and dedicated options the World Trigger auditor knows, with the trion to "
        "reveal each, and for each effect its timing, trion and tag costs, the distances it may be used "
        "at, what it answers as a counter, moves and damage. The fan rules give no numbers for any trigger: "
        "the bundled numbers (`kifu/games/worldtrigger/cards.json`) are an EXAMPLE; a table writes its own "
        "in `match.start.catalogue`.",
        "look": [
            "kifu cards -g worldtrigger",
            "kifu cards -g worldtrigger シールド --lang ja",
            "kifu cards -g worldtrigger 弧月 -f json",
        ],
        "structs": ("Catalogue", "Trigger", "Effect"),
        "merge": '`match.start.catalogue` is `{"triggers": {name: trigger}}` (with `example` and `note` '
        "optional). It is laid over the example trigger by trigger: a trigger with a known name replaces "
        "it whole, a new name is added. A log whose catalogue does not fit the shape cannot be audited "
        "(exit 2, naming `catalogue`).",
        "example": "A sniper trigger イーグレット the example lacks, with a range of 4–6. The auditor holds its use to "
        "that range: fired at distance 3 it is a finding, fired after moving to 4 it is not.",
    },
}


def _type(t: Any) -> str:
    if t is type(None):
        return "null"
    origin = typing.get_origin(t)
    if origin is typing.Annotated:
        return _type(typing.get_args(t)[0])
    if origin is typing.Literal:
        return " \\| ".join(json.dumps(a, ensure_ascii=False) for a in typing.get_args(t))
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type(a) for a in typing.get_args(t))
    if origin in (list, tuple):
        args = [a for a in typing.get_args(t) if a is not Ellipsis]
        return f"list of {_type(args[0])}" if args else "list"
    if origin is dict:
        k, v = typing.get_args(t)
        return f"{{{_type(k)}: {_type(v)}}}"
    return {str: "string", int: "integer", bool: "boolean"}.get(t, getattr(t, "__name__", str(t)))


def _default(f: Any) -> str:
    if f.required:
        return "**required**"
    value = f.default if f.default is not msgspec.NODEFAULT else f.default_factory()
    return f"`{json.dumps(msgspec.to_builtins(value), ensure_ascii=False)}`"


def fields(cls: type) -> list[str]:
    docs = field_docs(cls)
    rows = [
        f"| `{f.encode_name}` | {_type(f.type)} | {_default(f)} | {docs.get(f.name, '')} |"
        for f in msgspec.structs.fields(cls)
    ]
    head = (cls.__doc__ or "").strip().splitlines()[0]
    return [
        f"### `{cls.__name__}`",
        "",
        head,
        "",
        "| field | type | default | meaning |",
        "|---|---|---|---|",
        *rows,
        "",
    ]


def _md_table(s: Section) -> list[str]:
    esc = lambda v: "" if v is None else str(v).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    return [
        "| " + " | ".join(s.columns) + " |",
        "|" + "---|" * len(s.columns),
        *("| " + " | ".join(esc(v) for v in r) + " |" for r in s.rows),
        "",
    ]


def _entry(e: Entry) -> list[str]:
    out = [f"### {e.name}", "", f"*{e.kind}*", "", "| | |", "|---|---|"]
    out += [f"| {k} | {str(v).replace('|', chr(92) + '|')} |" for k, v in e.lines] + [""]
    for t in e.tables:
        out += [f"{t.title}:", "", *_md_table(t)]
    return out


def _example(game: str) -> list[str]:
    folder = ROOT / "fixtures" / "catalogues" / game
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    out = []
    for name in ("bad.jsonl", "good.jsonl"):
        lines = (folder / name).read_text(encoding="utf-8").splitlines()
        shown = []
        for line in lines:
            obj = json.loads(line)
            obj.pop("prev", None)
            shown.append(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
        found = ", ".join(f"{m['code']} at seq {m['seq']}" for m in expected[name]) or "no finding"
        out += [
            f"`fixtures/catalogues/{game}/{name}` (`kifu audit` gives {found}; `prev` left out here):",
            "",
            "```jsonl",
            *shown,
            "```",
            "",
        ]
    return out


def page(game: str) -> str:
    info = GAMES[game]
    view = table.part(game, "listing")
    module = table.part(game, "cards")
    out = [
        f"# {info['title']}",
        "",
        "<!-- Generated by docs/make_cards.py from the catalogue; edit docs/cards/"
        f"{game}.md or the generator, not this page. -->",
        "",
        info["intro"],
        "",
        "## Look a card up",
        "",
        "```sh",
        *info["look"],
        "```",
        "",
        "`kifu cards -g GAME` lists the catalogue (`--format table|csv|json|md`, `--lang ja|en`); with a name it "
        "shows that card in full, every number the auditor uses. A name that matches nothing names the closest "
        "accepted ones (exit 2).",
        "",
        "## A table's own cards: `match.start.catalogue`",
        "",
        info["merge"],
        "",
        "Field by field:",
        "",
    ]
    for name in info["structs"]:
        out += fields(getattr(module, name))
    out += ["## Example: a card the catalogue lacks", "", info["example"], "", *_example(game)]
    notes = ROOT / "docs" / "cards" / f"{game}.md"
    if notes.exists():
        out += [notes.read_text(encoding="utf-8").rstrip(), ""]
    out += ["## The built-in catalogue", ""]
    for s in view.listing("en"):
        out += [f"### {s.title}", "", *_md_table(s)]
    out += ["## Every card in full", ""]
    for name in dict.fromkeys(_primary_names(game)):
        entry = view.describe(name, "en")
        if entry is not None:
            out += _entry(entry)
    return "\n".join(out).rstrip() + "\n"


def _primary_names(game: str) -> list[str]:
    """One name per catalogue entry, in catalogue order (``forms`` lists several per entry)."""
    view = table.part(game, "listing")
    seen: set[str] = set()
    out = []
    for form in view.forms():
        e = view.describe(form, "en")
        key = json.dumps(e.data, sort_keys=True, ensure_ascii=False) if e else form
        if key not in seen:
            seen.add(key)
            out.append(form)
    return out


def main() -> None:
    for game in GAMES:
        (ROOT / "docs" / "games" / f"{game}-cards.md").write_text(page(game), encoding="utf-8")


if __name__ == "__main__":
    main()
