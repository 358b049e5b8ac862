"""Write ``tables.json`` (which dice each BCDice table rolls), ``vetted.json`` (the tables BCDice's
own test data shows printing the whole roll), ``names.json`` (table names only one system's
source holds) and ``game_systems.json`` (every game system id BCDice knows), read from a
BCDice checkout.

    python -m kifu.events.importers.bcdice.make_tables PATH/TO/BCDice   # rewrites the four

A table result shows only its value (``シーン表(7) ＞ …``); which dice gave it (1D6? 2D6?
D66?) is in the table's definition: ``DiceTable::Table.new("感情表", "1D6", …)``,
``D66Table.new("…", D66SortType::ASC, …)``, ``D66GridTable.new("…", …)`` (the first die
picks the row: tens digit as rolled), ``RangeTable.new("…", "1D100", …)`` in
``lib/bcdice/game_system/*.rb``, or ``name:`` with ``type:``/``d66_sort_type:`` in
``i18n/<System>/*.yml``. Only those explicit definitions are taken; a table built any
other way is absent, and its results stay unread (reported). The output maps
``system family → table name → dice`` (``1D6``, ``2D6``, ``D66`` sorted or not);
the family is the file's system (``Insane`` for ``Insane:Korean`` too, names differ by language).
Nothing of BCDice's code is kept: only each table's name and dice. A name a system defines
twice with different dice (Warhammer4's ``神々の天罰表``: 1D100 and 1D200) is left out.

``vetted.json`` lists, per system, the tables whose every appearance in BCDice's test data
(``test/data/<System>.toml``: the answer and the dice rolled) is exactly the table's dice: a
test whose answer names tables (``name(value)``) passes when the dice rolled are those values
read as each table's dice (1Dn: the face; nDm: n dice of m sides adding up to it; D66: its two
digits, sorted where the table sorts), nothing more and nothing less. A table that appears in
no test, or in one that rolled dice its answer does not show (a system's own code rolling
more around the table), is not listed, and kifu reports its results instead of reading them.

``names.json`` maps each table name (of ``tables.json`` or of kifu's own readers) to the system
families whose files (``lib/bcdice/game_system/<System>*``, ``i18n/<System>/``) hold that text,
``""`` for BCDice's shared code: a name only one system's source holds tells the system of a
result whose export records none (CCFOLIA); a name two systems share says nothing.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path

OUT = Path(__file__).with_name("tables.json")
IDS = Path(__file__).with_name("game_systems.json")
VETTED = Path(__file__).with_name("vetted.json")
NAMES = Path(__file__).with_name("names.json")
_ID = re.compile(r"""^\s*ID = ["']([^"'\n]+)["']""", re.M)
_Q = r"""["']([^"'\n]+)["']"""
_RUBY = [
    # Only these classes: a ChainTable or a custom table rolls more than its value shows.
    re.compile(r"(?:DiceTable::|(?<![\w:]))(?:Table|RangeTable)\.new\(\s*" + _Q + r",\s*" + r"""["'](\d+D\d+)["']"""),
    re.compile(
        r"(?:DiceTable::|(?<![\w:]))D66(?:Grid|HalfGrid|LeftRange|OneThird|Parity|Range)?Table\.new\(\s*"
        + _Q
        + r",\s*(?:BCDice::)?D66SortType::(\w+)"
    ),
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
                    kind = (
                        km.group(2).upper()
                        if km.group(1) == "type"
                        else "D66" + ("" if km.group(2) == "NO_SORT" else "S")
                    )
                    break
                j += step
            if kind:
                break
        if kind and re.fullmatch(r"\d+D\d+|D66S?", kind):
            out.append((name, kind))
    return out


def main(root: Path) -> None:
    kinds: dict[str, dict[str, set[str]]] = {}
    for rb in sorted((root / "lib/bcdice/game_system").rglob("*.rb")):
        sysname = rb.parent.name if rb.parent.name != "game_system" else rb.stem
        for name, kind in ruby_tables(rb.read_text(encoding="utf-8")):
            kinds.setdefault(_family(sysname), {}).setdefault(name, set()).add(kind)
    for yml in sorted((root / "i18n").rglob("*.yml")):
        if yml.parent.name == "i18n":
            continue
        for name, kind in yaml_tables(yml.read_text(encoding="utf-8")):
            kinds.setdefault(_family(yml.parent.name), {}).setdefault(name, set()).add(kind)
    found = {fam: {name: next(iter(k)) for name, k in tables.items() if len(k) == 1} for fam, tables in kinds.items()}
    OUT.write_text(json.dumps(found, ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{OUT}: {sum(map(len, found.values()))} tables of {len(found)} systems")
    vetted = vet(found, root / "test" / "data")
    VETTED.write_text(json.dumps(vetted, ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{VETTED}: {sum(map(len, vetted.values()))} tables of {len(vetted)} systems shown whole by BCDice's tests")
    found_in = owners({n for tables in found.values() for n in tables} | own_names(), sources(root))
    NAMES.write_text(json.dumps(found_in, ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(
        f"{NAMES}: {sum(len(o) == 1 for o in found_in.values())} of {len(found_in)} names in one system's source only"
    )
    # lib/bcdice/game_system/<System>.rb: each defines its id (``ID = 'SwordWorld2.5'``)
    ids = sorted(
        {
            m.group(1)
            for rb in (root / "lib/bcdice/game_system").glob("*.rb")
            for m in _ID.finditer(rb.read_text(encoding="utf-8"))
        }
    )
    IDS.write_text(json.dumps(ids, indent=0) + "\n", encoding="utf-8")
    print(f"{IDS}: {len(ids)} game system ids")


def sources(root: Path) -> dict[str, str]:
    """Every system family's source text (its ``.rb`` files and ``i18n`` files); ``""`` holds BCDice's
    shared code and messages, which any system may print."""
    out: dict[str, list[str]] = {}
    game = root / "lib/bcdice/game_system"
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".rb", ".yml") or not path.is_file():
            continue
        rel = path.relative_to(root).parts
        if rel[0] == "test":
            continue
        if path.parent == game:
            fam = _family(path.stem)
        elif game in path.parents:
            fam = _family(path.relative_to(game).parts[0])
        elif rel[0] == "i18n" and len(rel) > 2:
            fam = _family(rel[1])
        else:
            fam = ""
        out.setdefault(fam, []).append(path.read_text(encoding="utf-8"))
    return {fam: "\n".join(texts) for fam, texts in out.items()}


def owners(names: set[str], texts: dict[str, str]) -> dict[str, list[str]]:
    """Each name with the system families whose source holds its text (``""``: BCDice's shared code),
    not counting where it is part of a longer name (``都市シーン表`` in ``魔法都市シーン表``)."""
    out = {}
    for name in sorted(names):
        longer = [other for other in names if name in other and other != name]
        out[name] = sorted(
            fam
            for fam, text in texts.items()
            if name in text and text.count(name) > sum(text.count(o) * o.count(name) for o in longer)
        )
    return out


def own_names() -> set[str]:
    """The names kifu's own readers know (tables a system rolls in its own code, skill table heads)."""
    from . import forms, log_horizon, skills, tables

    return log_horizon.NAMES | {n for own in tables.OWN_TABLES.values() for n in own} | forms.OWN_NAMES | skills.NAMES


def vet(found: dict[str, dict[str, str]], tests: Path) -> dict[str, list[str]]:
    """Per system, the tables every test of which rolled exactly the dice their values show."""
    seen: dict[str, dict[str, bool]] = {}
    for path in sorted(tests.glob("*.toml")):
        fam = _family(path.stem)
        tables = found.get(fam)
        if not tables:
            continue
        for case in tomllib.loads(path.read_text(encoding="utf-8")).get("test", []):
            named = _named(case.get("output", ""), tables)
            if not named:
                continue
            ok = _whole(named, tables, [(int(r["sides"]), int(r["value"])) for r in case.get("rands", [])])
            for _, name, _ in named:
                seen.setdefault(fam, {})[name] = seen.get(fam, {}).get(name, True) and ok
    return {fam: sorted(n for n, ok in names.items() if ok) for fam, names in seen.items() if any(names.values())}


def _named(output: str, tables: dict[str, str]) -> list[tuple[int, str, int]]:
    """(position, table, value) of each ``name(value)`` in an answer, the longest name where names nest."""
    hits: dict[int, tuple[int, str, int]] = {}
    for name in tables:
        for m in re.finditer(re.escape(name) + r"\((\d+)\)", output):
            end = m.end()
            if end not in hits or len(name) > len(hits[end][1]):
                hits[end] = (m.start(), name, int(m.group(1)))
    return sorted(hits.values())


def _whole(named: list[tuple[int, str, int]], tables: dict[str, str], rands: list[tuple[int, int]]) -> bool:
    pos = 0
    for _, name, value in named:
        kind = tables[name]
        m = re.fullmatch(r"(\d+)D(\d+)", kind)
        if m:
            count, sides = int(m.group(1)), int(m.group(2))
            part = rands[pos : pos + count]
            if len(part) != count or any(s != sides for s, _ in part) or sum(v for _, v in part) != value:
                return False
            pos += count
            continue
        part = rands[pos : pos + 2]
        tens, ones = divmod(value, 10)
        want = [(6, tens), (6, ones)]
        if part != want and not (kind == "D66S" and sorted(part) == want):
            return False
        pos += 2
    return pos == len(rands)


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
