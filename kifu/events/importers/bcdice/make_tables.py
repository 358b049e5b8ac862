"""Write ``tables.json``: which dice each BCDice table rolls, read from a BCDice checkout.

    python -m kifu.events.importers.bcdice.make_tables PATH/TO/BCDice   # rewrites tables.json

A table result shows only its value (``シーン表(7) ＞ …``); which dice gave it (1D6? 2D6?
D66?) is in the table's definition: ``DiceTable::Table.new("感情表", "1D6", …)``,
``D66Table.new("…", D66SortType::ASC, …)``, ``D66GridTable.new("…", …)`` (the first die
picks the row: tens digit as rolled), ``RangeTable.new("…", "1D100", …)`` in
``lib/bcdice/game_system/*.rb``, or ``name:`` with ``type:``/``d66_sort_type:`` in
``i18n/<System>/*.yml``. Only those explicit definitions are taken; a table built any
other way is absent, and its results stay unread (reported). The output maps
``system family → table name → dice`` (``1D6``, ``2D6``, ``D66`` sorted or not);
the family is the file's system (``Insane`` for ``Insane:Korean`` too, names differ by language).
Nothing of BCDice's code is kept: only each table's name and dice.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

OUT = Path(__file__).with_name("tables.json")
_Q = r"""["']([^"'\n]+)["']"""
_RUBY = [
    # Only these classes: a ChainTable or a custom table rolls more than its value shows.
    re.compile(r"(?:DiceTable::|(?<![\w:]))(?:Table|RangeTable)\.new\(\s*" + _Q + r",\s*" + r"""["'](\d+D\d+)["']"""),
    re.compile(r"(?:DiceTable::|(?<![\w:]))D66(?:Grid|HalfGrid|LeftRange|OneThird|Parity|Range)?Table\.new\(\s*" + _Q
               + r",\s*(?:BCDice::)?D66SortType::(\w+)"),
]


_GRID = re.compile(r"(?:DiceTable::|(?<![\w:]))D66GridTable\.new\(\s*" + _Q)  # rows by the first die: never sorted


def ruby_tables(text: str) -> list[tuple[str, str]]:
    out = [(m.group(1), "D66") for m in _GRID.finditer(text)]
    for m in _RUBY[0].finditer(text):
        out.append((m.group(1), m.group(2).upper()))
    for m in _RUBY[1].finditer(text):
        out.append((m.group(1), "D66" + ("" if m.group(2) == "NO_SORT" else "S")))
    return out


def yaml_tables(text: str) -> list[tuple[str, str]]:
    """``name:`` with a sibling ``type:`` or ``d66_sort_type:`` (same indentation) in an i18n file."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        m = re.match(r"(\s*)name:\s*(.+?)\s*$", line)
        if not m:
            continue
        indent, name = m.group(1), m.group(2).strip("\"'")
        # the mapping's keys: the lines at this indentation, up and down, until the mapping ends
        kind = None
        for step in (-1, 1):
            j = i + step
            while 0 <= j < len(lines):
                other = lines[j]
                if other.strip() and len(other) - len(other.lstrip()) < len(indent):
                    break
                km = re.match(re.escape(indent) + r"(type|d66_sort_type):\s*[\"']?(\w+)", other)
                if km:
                    kind = km.group(2).upper() if km.group(1) == "type" else \
                        "D66" + ("" if km.group(2) == "NO_SORT" else "S")
                    break
                j += step
            if kind:
                break
        if kind and re.fullmatch(r"\d+D\d+|D66S?", kind):
            out.append((name, kind))
    return out


def main(root: Path) -> None:
    found: dict[str, dict[str, str]] = {}
    for rb in sorted((root / "lib/bcdice/game_system").rglob("*.rb")):
        sysname = rb.parent.name if rb.parent.name != "game_system" else rb.stem
        for name, kind in ruby_tables(rb.read_text(encoding="utf-8")):
            found.setdefault(_family(sysname), {})[name] = kind
    for yml in sorted((root / "i18n").rglob("*.yml")):
        if yml.parent.name == "i18n":
            continue
        for name, kind in yaml_tables(yml.read_text(encoding="utf-8")):
            found.setdefault(_family(yml.parent.name), {})[name] = kind
    OUT.write_text(json.dumps(found, ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{OUT}: {sum(map(len, found.values()))} tables of {len(found)} systems")


_LANGUAGES = ("_Korean", "_ChineseTraditional", "_SimplifiedChinese", "_English")


def _family(name: str) -> str:
    """``Cthulhu7th_Korean`` / ``cthulhu7th`` / ``filled_with`` → ``Cthulhu7th`` / ``FilledWith``."""
    for lang in _LANGUAGES:
        name = name.removesuffix(lang)
    if name.islower():  # a helper folder: lib/bcdice/game_system/filled_with/
        name = "".join(w[:1].upper() + w[1:] for w in name.split("_"))
    return name


if __name__ == "__main__":
    main(Path(sys.argv[1]))
