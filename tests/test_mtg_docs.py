"""docs/games/mtg.md (Magic coin flips, CR 705) stays true: every example line decodes, every rule and option
of the game is documented, and the quick-start commands give a log that audits as the page says."""

from __future__ import annotations

import json
import re
from pathlib import Path

from kifu.auditor import registry
from kifu.cli import main
from kifu.events import table

DOC = Path(__file__).resolve().parents[1] / "docs" / "games" / "mtg.md"
TEXT = DOC.read_text(encoding="utf-8")


def _example_lines() -> list[dict]:
    blocks = re.findall(r"```json\n(.*?)```", TEXT, flags=re.S)
    return [json.loads(line) for block in blocks for line in block.splitlines() if line.strip()]


def test_every_event_type_has_an_example_that_decodes() -> None:
    codec = table.codec("mtg")
    seen = set()
    for i, obj in enumerate(_example_lines(), start=2):
        codec.convert({**obj, "seq": i, "prev": "0" * 64}, where=str(DOC), line=i)
        seen.add(obj["type"])
    tags = {cls.__struct_config__.tag for cls in registry.game("mtg").events}
    assert tags <= seen, sorted(tags - seen)


def test_every_rule_and_option_is_documented() -> None:
    g = registry.game("mtg")
    missing = [r.code for r in g.rules if f"| {r.code} | {r.name}" not in TEXT]
    missing += [o.name for o in g.options if f"| `{o.name}` | `{str(o.default).lower()}` |" not in TEXT]
    assert not missing


def test_quick_start_commands(tmp_path: Path, monkeypatch, capsys) -> None:
    block = re.search(r"```\n(kifu new .*?)```", TEXT, flags=re.S).group(1)
    monkeypatch.chdir(tmp_path)
    codes = []
    for line in block.splitlines():
        argv = line.split("#")[0].split()[1:]
        argv = [a.replace('"', "") for a in _rejoin(argv)]
        try:
            codes.append(main(argv))
        except SystemExit as exc:
            codes.append(exc.code)
    assert codes == [0] * len(codes), (codes, capsys.readouterr())


def _rejoin(words: list[str]) -> list[str]:
    """Undo the shell's quoting of card="Mana Crypt" for this one page."""
    out: list[str] = []
    for w in words:
        if out and out[-1].count('"') == 1:
            out[-1] += " " + w
        else:
            out.append(w)
    return out


def test_payoff_tables_match_the_catalogue() -> None:
    """The "Payoffs the auditor compares" tables name every kind the auditor totals, card by card."""
    from kifu.games.mtg.cards import builtin

    table = TEXT.split("## Payoffs the auditor compares", 1)[1].split("\n## ", 1)[0]
    rows = {line.split("|")[1].strip(): line for line in table.splitlines() if line.startswith("| ")}
    for card in builtin().cards.values():
        name = card.name + (f" ({card.ability.replace('-', '−')})" if card.ability else "")
        kinds = card.own_kinds | ({card.watch.kind} if card.watch else set())
        kinds |= {"life-gain", "life-loss"} if card.stakes == "double" else set()  # MTG-SEQ-006
        if not kinds:
            assert name not in rows, name
            continue
        assert name in rows, name
        assert all(f"`{k}`" in rows[name] for k in kinds), (name, sorted(kinds))
