"""Write ``shapes.json``: which result forms BCDice's own tests vouch for, per system and command shape.

    python -m kifu.events.importers.bcdice.make_shapes PATH/TO/BCDice/test/data     # rewrites shapes.json
    python -m kifu.events.importers.bcdice.make_shapes DATA --half --out /tmp/half.json  # from half the tests

For every test of every system (the command, BCDice's exact answer, the dice it rolled), the
answer is cut into result blocks as kifu cuts a chat message, and each block's **shape** (its
command without numbers and operators, ``shapes.shape``) is noted. For each system and shape,
every form (``shapes.SOURCES`` × ``shapes.RELATIONS``, with the sides, count and order the
tests show) is tried on every test of that shape, exactly as the importer will read it; a form
is kept when it reads no test wrong (dice that are not the dice rolled, or dice where none were
rolled) and at least one right; of several, the one reading most tests right. A shape no form
reads without a mistake is listed as unvouched: kifu reports such results instead of reading
them. A shape whose every test rolled nothing (an error text, a fixed value) is kept as
``nothing``.

Nothing of BCDice's code or data is kept: only, per system, shapes and how many dice of what
sides stand where. ``--half`` builds from every other test only, so that the bench, run on
every test, measures how far the vouching holds for commands it did not see
(bench/bench_bcdice.py ``--shapes``).

The summary printed groups the systems by the forms they print: the grammar grows by forms.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from . import shapes
from .text import Block, blocks

Rands = list[tuple[int, int]]


def real(rands: Rands) -> Rands:
    """BCDice's tests feed a d10 a 0 where a real die shows 10 (a d100 digit reads both as 0)."""
    return [(s, 10) if s == 10 and v == 0 else (s, v) for s, v in rands]


def cases(path: Path, half: bool) -> list[tuple[str, list[Block], Rands]]:
    """(system, result blocks of the answer, dice rolled) of every test with an answer."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = []
    for i, t in enumerate(data.get("test", [])):
        if not t.get("output") or (half and i % 2):
            continue
        _, found = blocks(t["output"])
        rands = real([(int(r["sides"]), int(r["value"])) for r in t.get("rands", [])])
        out.append((t["game_system"], found, rands))
    return out


def candidates(block: Block, rands: Rands) -> list[dict[str, Any]]:
    """Every form that may read this block (alone in its answer) as these dice; ``verdict`` decides."""
    out: list[dict[str, Any]] = []
    if not rands:
        return [{"rel": "nothing"}]
    sides = {s for s, _ in rands}
    one = sides.pop() if len(sides) == 1 else None
    for src in shapes.SOURCES:
        values = shapes.numbers(block, src)
        if values is None:
            continue
        kinds: list[Any] = ["form"] if src in ("step-dice", "step-sided") else ["echo"] + ([one] if one else [])
        for ordered in (True, False):
            out.extend({"src": src, "rel": "faces", "sides": k, "ordered": ordered} for k in kinds)
            if one == 6 and len(rands) == 2 * len(values):
                out.append({"src": src, "rel": "d66", "sides": 6, "ordered": ordered})
            if one == 10 and len(rands) == 2 * len(values):
                out.append({"src": src, "rel": "tens-ones", "sides": 10, "ordered": ordered})
        if one and len(values) == 1 and len(rands) > 1:
            out.append({"src": src, "rel": "sum", "sides": one, "count": len(rands), "ordered": True})
    return out


def verdict(spec: dict[str, Any], found: list[Block], rands: Rands) -> str:
    """``right``, ``wrong`` or ``unread`` (kifu would report it): the spec on every block of one answer."""
    if spec["rel"] == "nothing":
        return "right" if not rands else "wrong"
    got: Rands = []
    sums: list[tuple[int, int, int]] = []
    for b in found:
        values = shapes.numbers(b, spec["src"])
        dice = shapes.dice_of(values, spec, b) if values is not None else None
        if dice is None:
            return "unread"
        if dice.totals:
            sums.extend((c, s, v) for _, c, s, v in dice.totals)
        got.extend(dice.dice)
    if sums:
        want = [sum(v for _, v in rands)] if not got else []
        same = len(sums) == 1 and [sums[0][2]] == want and sums[0][0] == len(rands)
        return "right" if same and all(s == sums[0][1] for s, _ in rands) else "wrong"
    if got == rands or (not spec["ordered"] and sorted(got) == sorted(rands)):
        return "right"
    return "wrong"


def vouch(tests: list[tuple[list[Block], Rands]]) -> dict[str, Any] | None:
    """The form reading most of these tests right and none wrong; None when there is none."""
    seen: list[dict[str, Any]] = []
    for found, rands in tests:
        if len(found) == 1:
            for c in candidates(found[0], rands):
                if c not in seen:
                    seen.append(c)
    best, best_right = None, 0
    for spec in seen:
        tally = Counter(verdict(spec, found, rands) for found, rands in tests)
        if tally["wrong"] == 0 and tally["right"] > best_right:
            best, best_right = spec, tally["right"]
    if best is not None and best["rel"] == "faces":
        counts = {len(r) for f, r in tests if verdict(best, f, r) == "right"}
        best = {**best, "count": counts.pop() if len(counts) == 1 and len(tests) > 1 else None}
        if any(verdict(best, f, r) == "wrong" for f, r in tests):
            best = {**best, "count": None}
    return best


def build(folder: Path, half: bool = False) -> dict[str, Any]:
    by_shape: dict[str, dict[str, list[tuple[list[Block], Rands]]]] = defaultdict(lambda: defaultdict(list))
    for path in sorted(folder.glob("*.toml")):
        for system, found, rands in cases(path, half):
            keys = {shapes.shape(b) for b in found}
            if len(keys) == 1:
                by_shape[system][keys.pop()].append((found, rands))
            else:
                for k in keys:  # blocks of several shapes in one answer: which dice are whose is unknown
                    by_shape[system][k].append(([], [(0, 0)]))
    systems: dict[str, dict[str, Any]] = {}
    unvouched: set[str] = set()
    holders: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for system, keys in sorted(by_shape.items()):
        for key, tests in sorted(keys.items()):
            spec = vouch(tests)
            if spec is None:
                unvouched.add(key)
                continue
            systems.setdefault(system, {})[key] = spec
            holders[key].append(spec)
    agreed = {
        k: specs[0] for k, specs in sorted(holders.items()) if k not in unvouched and all(s == specs[0] for s in specs)
    }
    unvouched |= {k for k, specs in holders.items() if k not in agreed}
    return {"systems": systems, "agreed": agreed, "unvouched": sorted(unvouched)}


def summary(data: dict[str, Any]) -> str:
    """The systems grouped by the forms they print."""
    forms: dict[str, set[str]] = defaultdict(set)
    count: Counter[str] = Counter()
    for system, keys in data["systems"].items():
        for spec in keys.values():
            name = spec["rel"] if spec["rel"] == "nothing" else f"{spec['src']} {spec['rel']}"
            forms[name].add(system)
            count[name] += 1
    lines = [f"{'form':28s} {'systems':>7s} {'shapes':>7s}"]
    lines += [f"{name:28s} {len(forms[name]):7d} {count[name]:7d}" for name, _ in count.most_common()]
    lines.append(f"unvouched shapes: {len(data['unvouched'])}, read without a system: {len(data['agreed'])}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path, help="BCDice's test/data folder (*.toml)")
    ap.add_argument("--half", action="store_true", help="build from every other test only")
    ap.add_argument("--out", type=Path, default=shapes.DATA)
    args = ap.parse_args(argv)
    data = build(args.data, args.half)
    args.out.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True, indent=0) + "\n", encoding="utf-8")
    print(summary(data), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
