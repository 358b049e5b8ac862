"""Write ``shapes.json``: which result forms BCDice's own tests vouch for, per system and command shape.

    python -m kifu.events.importers.bcdice.make_shapes PATH/TO/BCDice/test/data     # rewrites shapes.json
    python -m kifu.events.importers.bcdice.make_shapes DATA --half --out /tmp/half.json  # from half the tests

For every test of every system (the command, BCDice's exact answer, the dice it rolled), the
answer is cut into result blocks as kifu cuts a chat message, and each block's **key** (its shape,
the typed command's shape and the answer's skeleton, ``shapes.key``) is noted. For each system and
key, every form (``shapes.SOURCES`` × ``shapes.RELATIONS``, with the sides and order the tests
show) is tried on every test of that key, exactly as the importer will read it; a form is kept
when it reads no test wrong (dice that are not the dice rolled, or dice where none were rolled)
and at least ``MIN_RIGHT`` right (one where the answer writes its dice out, ``MIN_FREE`` where
nothing fixes how many dice it shows, ``MIN_HIDING`` for a table of a system one of whose tables
rolls dice it does not show); the order of the dice only where the tests prove it; of several,
the one reading most tests right. A key no form reads so is listed as unvouched: kifu reports
such results instead of reading them. A key whose every test rolled nothing (an error text, a
value the command fixed) is kept as ``nothing``. A key with fewer tests than that, but none read
wrong, is read in the form its system's other keys of the same typed shape and skeleton are
vouched for (its *siblings*; never in a system whose tables hide dice, never without the system).

Nothing of BCDice's code or data is kept: only, per system, shapes and how many dice of what
sides stand where. ``--half`` (``--fold 0/2``) builds from every other test only, ``--fold 1/2``
from the others, so that the bench, run on every test, measures how far the vouching holds for
commands it did not see (bench/bench_bcdice.py ``--shapes``): it must read none of them wrong.

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

from . import shapes, tables
from .text import Block, ascii_steps, blocks, typed_command

Rands = list[tuple[int, int]]
Test = tuple[list[Block], Rands, str]
"""One test as the importer meets it: the answer's result blocks, the dice rolled, the command typed."""

MIN_RIGHT = 2
"""Tests a key needs, each read right, before its results are read: one test may fit a form by chance."""
MIN_FREE = 3
"""Tests a form needs when neither it nor the command fixes how many dice it shows."""
MIN_HIDING = 3
"""Tests a table needs in a system one of whose tables rolls dice it does not show (``hides``)."""


def real(rands: Rands) -> Rands:
    """BCDice's tests feed a d10 a 0 where a real die shows 10 (a d100 digit reads both as 0)."""
    return [(s, 10) if s == 10 and v == 0 else (s, v) for s, v in rands]


def cases(path: Path, fold: tuple[int, int] | None = None) -> list[tuple[str, list[Block], Rands, str]]:
    """(system, result blocks of the answer, dice rolled, command typed) of every test with an answer;
    with ``fold`` (i, n), only the tests whose index is i modulo n."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = []
    for i, t in enumerate(data.get("test", [])):
        if not t.get("output") or (fold and i % fold[1] != fold[0]):
            continue
        _, found = blocks(ascii_steps(t["output"]))  # as the importer reads a bot's answer
        rands = real([(int(r["sides"]), int(r["value"])) for r in t.get("rands", [])])
        out.append((t["game_system"], found, rands, typed_command(t["input"])))
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
        kinds: list[Any] = (
            ["form"] if src in ("step-dice", "step-sided", "arrow") else ["echo"] + ([one] if one else [])
        )
        for ordered in (True, False):
            out.extend({"src": src, "rel": "faces", "sides": k, "ordered": ordered} for k in kinds)
            if one == 6 and len(rands) == 2 * len(values):
                out.append({"src": src, "rel": "d66", "sides": 6, "ordered": ordered})
            if one == 10 and len(rands) == 2 * len(values):
                out.append({"src": src, "rel": "tens-ones", "sides": 10, "ordered": ordered})
        if one and len(values) == 1 and len(rands) > 1:
            out.extend(
                {"src": src, "rel": rel, "sides": one, "count": len(rands), "ordered": True} for rel in ("sum", "sum0")
            )
    return out


def verdict(spec: dict[str, Any], found: list[Block], rands: Rands, typed: str) -> str:
    """``right``, ``wrong`` or ``unread`` (kifu would report it): the spec on every block of one answer,
    read exactly as the importer reads it (``shapes.read_dice``)."""
    got: Rands = []
    sums: list[tuple[int, int, int]] = []
    for b in found:
        dice = shapes.read_dice(b, spec, typed)
        if dice is None:
            return "unread"
        sums.extend((c, s, v) for _, c, s, v in dice.totals)
        got.extend(dice.dice)
    if not found:
        return "wrong"  # an answer of blocks of several keys: which dice are whose is unknown
    if spec["rel"] == "nothing":
        return "right" if not rands else "wrong"
    if sums:
        want = [sum(v for _, v in rands)] if not got else []
        same = len(sums) == 1 and [sums[0][2]] == want and sums[0][0] == len(rands)
        return "right" if same and all(s == sums[0][1] for s, _ in rands) else "wrong"
    if got == rands or (not spec["ordered"] and sorted(got) == sorted(rands)):
        return "right"
    return "wrong"


def _count(spec: dict[str, Any], right: list[Test]) -> int | str | None:
    """How many values a form shows, as its right tests show it: always the same number, the number
    the command states (``stated``), or None (free: neither fixes it)."""
    if spec["rel"] in ("sum", "sum0"):
        return spec["count"]
    per_block = [(b, shapes.numbers(b, spec["src"]) or []) for found, _, _ in right for b in found]
    counts = {len(v) for _, v in per_block}
    if len(counts) == 1:
        return counts.pop()
    if all(shapes.stated_count(b) == len(v) for b, v in per_block):
        return "stated"
    return None


def _monotone(seq: list[int], up: bool) -> bool:
    return all(a <= b if up else a >= b for a, b in zip(seq, seq[1:]))


def _order_proved(spec: dict[str, Any], right: list[Test]) -> bool:
    """The tests show the dice in the order rolled, not sorted: some read right in an order that is
    not ascending, and some in one that is not descending (a D66 table that sorts shows 35 for a 5
    and a 3; tests that all rolled the smaller die first cannot tell; SamsaraBallad shows a d100 rolled 7
    then 5 as 57). One die at a time needs no proof."""
    runs: list[list[int]] = []
    for found, _, typed in right:
        for b in found:
            dice = shapes.read_dice(b, spec, typed)
            faces = [v for _, v in dice.dice] if dice is not None else []
            pairs = spec["rel"] in ("d66", "tens-ones")
            runs.extend([faces[i : i + 2] for i in range(0, len(faces), 2)] if pairs else [faces])
    if all(len(r) < 2 for r in runs):
        return True
    return any(not _monotone(r, True) for r in runs) and any(not _monotone(r, False) for r in runs)


def refine(spec: dict[str, Any], tests: list[Test]) -> dict[str, Any] | None:
    """The spec with the count of dice its right tests fix, and None when they read it in an order they
    do not prove (its unordered twin is tried too) or read nothing right."""
    right = [t for t in tests if verdict(spec, *t) == "right"]
    if not right:
        return None
    if spec["rel"] == "nothing":
        return spec
    # a sum is kept as a sum (2 and 12 as their one pair of faces): it has no order to prove, and what
    # the proof would say, a test of the system's 2D6 table says nothing of another system's D66 table
    # of that name (Amadeus's 休憩表(11) is no 2D6 of MeikyuDays'): the system's own, read only where known
    own = spec["rel"] in ("sum", "sum0")
    if spec["ordered"] and not own and not _order_proved(spec, right):
        return None
    refined = {**spec, "count": _count(spec, right), "pinned": _pinned(right)}
    return {**refined, "own": True} if own else refined


def _pinned(right: list[Test]) -> list[int | None] | None:
    """The command's significant numbers (``shapes.significant``) as the tests show them: a value
    where every test has the same one, None where they vary; None at all where the tests write
    different counts of them (the key's shape then says no more than its letters)."""
    seen = [shapes.significant(b) for found, _, _ in right for b in found]
    if not seen or len({len(v) for v in seen}) != 1:
        return None
    return [col[0] if len(set(col)) == 1 else None for col in zip(*seen)]


SHOWN = ("step-brackets", "step-list", "step-dice", "all-brackets", "steps-lists", "step-all", "arrow")
"""Sources that read a list of faces as the answer prints it (not one number that may be a sum)."""


def stated(spec: dict[str, Any], right: list[Test]) -> bool:
    """Every right test's dice are the dice its result writes out (``(5D12) ＞ 52[10,12,11,10,9]``): the
    text itself proves the count and the sides, so one test is enough to vouch for the form."""
    if spec["rel"] != "faces" or spec["src"] not in SHOWN:
        return False
    return all(shapes.stated_dice(b) for found, _, _ in right for b in found)


def defined(spec: dict[str, Any], kind: str | None) -> bool:
    """The form reads a table's value as the dice BCDice's definition of that table says it rolls
    (``tables.json``: ``2D6`` a sum of two d6, ``1D10`` one face, ``D66`` two digits in the order
    rolled, ``D66S`` sorted): the definition, not the tests, fixes the count, sides and order."""
    if kind is None or spec.get("src") != "head":
        return False
    if kind.startswith("D66"):
        return spec["rel"] == "d66" and spec.get("count") == 1 and not (kind == "D66S" and spec["ordered"])
    count, _, sides = kind.partition("D")
    if not (count.isdigit() and sides.isdigit()):
        return False
    if count == "1":
        return spec["rel"] == "faces" and spec["sides"] == int(sides) and spec.get("count") == 1
    return spec["rel"] == "sum" and spec["sides"] == int(sides) and spec.get("count") == int(count)


def vouch(tests: list[Test], least: int = MIN_RIGHT, kind: str | None = None) -> dict[str, Any] | None:
    """The form reading most of these tests right and none wrong, with enough of them read right
    (``least``, ``MIN_FREE``; one where the result writes its dice out, or where it reads a table's
    value as the table's definition, ``kind``, says); None when there is none."""
    seen: list[dict[str, Any]] = []
    for found, rands, _ in tests:
        if len(found) == 1:
            for c in candidates(found[0], rands):
                if c not in seen:
                    seen.append(c)
    best, best_right = None, 0
    for raw in seen:
        spec = refine(raw, tests)
        if spec is None:
            continue
        tally = Counter(verdict(spec, *t) for t in tests)
        right = [t for t in tests if verdict(spec, *t) == "right"]
        free = spec["rel"] != "nothing" and spec.get("count") is None
        need = 1 if stated(spec, right) and least == MIN_RIGHT else MIN_FREE if free else least
        by_definition = tally["right"] < need and least == MIN_RIGHT and defined(spec, kind)
        if tally["wrong"] == 0 and (tally["right"] >= need or by_definition) and tally["right"] > best_right:
            # a form only the table's definition vouches for is the system's own: it says nothing of another
            # system's table of that name, so it is never read where the system is not known
            best, best_right = ({**spec, "defined": True} if by_definition else spec), tally["right"]
    return best


def hides(found: list[Block], rands: Rands, typed: str) -> bool:
    """A table's answer that some form reads right as the first dice rolled, though BCDice rolled more:
    the table rolled dice its text does not show (MagicaLogia's 時の流れ表 rolls a random skill)."""
    if len(found) != 1 or not found[0].name or len(rands) < 2:
        return False
    for k in range(1, len(rands)):
        if any(verdict(c, found, rands[:k], typed) == "right" for c in candidates(found[0], rands[:k])):
            return True
    return False


Answer = tuple[str, list[Block], Rands, str]
"""One test whose answer holds blocks of several keys: (system, blocks, dice rolled, command typed)."""
ROUNDS = 4
"""Rounds of reading answers of several keys with the forms found so far (each may vouch for more)."""


def _count_read(dice: Any) -> int:
    """How many dice a block read takes: its faces and the dice behind each sum."""
    return len(dice.dice) + sum(count for _, count, _, _ in dice.totals)


def _part_right(block: Block, spec: dict[str, Any], rands: Rands, typed: str) -> bool:
    return verdict(spec, [block], rands, typed) == "right"


def attribute(answer: Answer, specs: dict[str, Any]) -> tuple[str, tuple[str, Test] | None]:
    """An answer of blocks of several keys read block by block with ``specs`` (key → form), the dice
    laid over the dice rolled in the order the blocks stand: ``right`` (every block read, exactly the
    dice rolled), ``wrong`` (a block read with dice that are not its share, or blocks left unread), or
    ``learn`` with the one unread block and its share of the dice (the blocks before it take theirs
    from the front, those after from the end): a test of that block's key, as if it stood alone."""
    system, found, rands, typed = answer
    keys = [shapes.key(b, typed) for b in found]
    read = [shapes.read_dice(b, specs[k], typed) if k in specs else None for b, k in zip(found, keys)]
    unread = [i for i, d in enumerate(read) if d is None]
    if len(unread) > 1:
        return "wrong", None
    cut = unread[0] if unread else len(found)
    front, back = 0, len(rands)
    for i in range(cut):
        n = _count_read(read[i])
        if not _part_right(found[i], specs[keys[i]], rands[front : front + n], typed):
            return "wrong", None
        front += n
    for i in range(len(found) - 1, cut, -1):
        n = _count_read(read[i])
        if n > back - front or not _part_right(found[i], specs[keys[i]], rands[back - n : back], typed):
            return "wrong", None
        back -= n
    if not unread:
        return ("right" if front == len(rands) else "wrong"), None
    return "learn", (keys[cut], ([found[cut]], rands[front:back], typed))


def _vouch_all(
    by_key: dict[str, dict[str, list[Test]]],
    learned: dict[int, tuple[str, str, Test]],
    poisoned: set[tuple[str, str]],
    named: set[str],
    hiding: set[str],
    names: dict[tuple[str, str], str],
) -> dict[str, dict[str, Any]]:
    """Every system's forms from its answers of one key, the shares of answers of several keys learned
    so far, and no form for a key a badly read answer of several keys poisoned."""
    tests: dict[str, dict[str, list[Test]]] = defaultdict(lambda: defaultdict(list))
    for system, of_system in by_key.items():
        for key, found in of_system.items():
            tests[system][key].extend(found)
    for system, key, test in learned.values():
        tests[system][key].append(test)
    systems: dict[str, dict[str, Any]] = {}
    for system, of_system in sorted(tests.items()):
        for key, found in sorted(of_system.items()):
            if (system, key) in poisoned:
                continue
            # a system one of whose tables rolls dice it does not show: its tables need more tests (a row
            # no test reached may roll more)
            distrusted = key in named and (tables.family(system) or system) in hiding
            kind = tables.defined_dice(system, names[(system, key)]) if (system, key) in names else None
            spec = vouch(found, MIN_HIDING if distrusted else MIN_RIGHT, kind)
            if spec is not None:
                systems.setdefault(system, {})[key] = spec
    for system, of_system in sorted(tests.items()):
        if (tables.family(system) or system) not in hiding:
            _vouch_siblings(system, of_system, systems.setdefault(system, {}), named, poisoned)
    return systems


def _own(spec: dict[str, Any]) -> bool:
    """A form vouched for by its system alone (a definition, siblings, a sum without the order proof):
    never read where the system is not known, nor evidence for a sibling."""
    return bool(spec.get("defined") or spec.get("siblings") or spec.get("own"))


def _pool(key: str) -> str:
    """What a key says beside its shape: the command as typed (or ``=``, echoed) and the answer's skeleton."""
    return key.split("|", 1)[1]


def _form(spec: dict[str, Any]) -> tuple[Any, ...]:
    """A form as dice are read in it, whatever the key."""
    return tuple(spec.get(f) for f in ("src", "rel", "sides", "ordered", "count"))


def _vouch_siblings(
    system: str,
    of_system: dict[str, list[Test]],
    have: dict[str, dict[str, Any]],
    named: set[str],
    poisoned: set[tuple[str, str]],
) -> None:
    """Keys with fewer tests than a form needs, read in the form the system's other keys of the same
    command shape and the same kind of answer are vouched for (a table typed ``ST=7`` like the
    system's other ``=n`` tables; ``(KRS(1,1)) ＞ 4`` like its ``(KR(1)) ＞ 4``): the siblings' tests
    vouch for the form, the key's own tests (one is enough) for its dice, none of them read wrong.
    Never in a system one of whose tables hides dice, never from a form only a definition or
    another sibling vouches for; such a form is the system's own, never read where the system is
    not known."""
    pools: dict[str, set[tuple[Any, ...]]] = defaultdict(set)
    for key, spec in have.items():
        if not _own(spec):
            pools[_pool(key)].add(_form(spec))
    for key, found in sorted(of_system.items()):
        if key in have or (system, key) in poisoned or not pools.get(_pool(key)):
            continue
        own = vouch(found, 1)
        if own is not None and _form(own) in pools[_pool(key)]:
            have[key] = {**own, "siblings": True}


def build(folder: Path, fold: tuple[int, int] | None = None) -> dict[str, Any]:
    """The forms of every system (``systems``), those every system holding a key agrees on (``agreed``),
    the keys no form reads (``unvouched``) and the systems with a table hiding dice (``hiding``).

    An answer of blocks of several keys (a table and the die its entry rolled on the next line) says
    whose dice are whose only once the other blocks are read: the forms are found from answers of one
    key, then each such answer is read with them; one block left unread learns its share of the dice;
    an answer read wrong, or with two blocks unread (kifu would record part of its dice), takes the
    form away from every key in it, until every such answer reads right or not at all."""
    by_key: dict[str, dict[str, list[Test]]] = defaultdict(lambda: defaultdict(list))
    several: list[Answer] = []
    names: dict[tuple[str, str], str] = {}
    hiding: set[str] = set()
    named: set[str] = set()
    for path in sorted(folder.glob("*.toml")):
        for system, found, rands, typed in cases(path, fold):
            if hides(found, rands, typed):
                hiding.add(tables.family(system) or system)
            named |= {shapes.key(b, typed) for b in found if b.name}
            for b in found:
                if b.name:
                    names.setdefault((system, shapes.key(b, typed)), b.name)
            keys = {shapes.key(b, typed) for b in found}
            if len(keys) == 1:
                by_key[system][keys.pop()].append((found, rands, typed))
            elif keys:
                several.append((system, found, rands, typed))
    learned: dict[int, tuple[str, str, Test]] = {}
    poisoned: set[tuple[str, str]] = set()
    systems = _vouch_all(by_key, learned, poisoned, named, hiding, names)
    for _ in range(ROUNDS):
        grown = False
        for i, answer in enumerate(several):
            if i in learned:
                continue
            outcome, share = attribute(answer, systems.get(answer[0], {}))
            if outcome == "learn" and share is not None:
                learned[i] = (answer[0], *share)
                grown = True
        if not grown:
            break
        systems = _vouch_all(by_key, learned, poisoned, named, hiding, names)
    while True:  # every answer of several keys must now read right or leave its keys unread
        fresh = set()
        for answer in several:
            system, found, _, typed = answer
            of_system = systems.get(system, {})
            if attribute(answer, of_system)[0] != "right":
                fresh |= {(system, k) for b in found if (k := shapes.key(b, typed)) in of_system}
        if not fresh - poisoned:
            break
        poisoned |= fresh
        systems = _vouch_all(by_key, learned, poisoned, named, hiding, names)
    # a key some system's tests do not vouch for is read only where the system is known
    unvouched = {k for system, of_system in by_key.items() for k in of_system if k not in systems.get(system, {})}
    unvouched |= {k for a in several for b in a[1] if (k := shapes.key(b, a[3])) not in systems.get(a[0], {})}
    holders: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for of_system in systems.values():
        for key, spec in of_system.items():
            holders[key].append(spec)
    unvouched |= {k for k, specs in holders.items() if any(_own(s) for s in specs)}
    agreed = {
        k: specs[0] for k, specs in sorted(holders.items()) if k not in unvouched and all(s == specs[0] for s in specs)
    }
    unvouched |= {k for k, specs in holders.items() if k not in agreed}
    return {"systems": systems, "agreed": agreed, "unvouched": sorted(unvouched), "hiding": sorted(hiding)}


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
    ap.add_argument("--half", action="store_true", help="build from every other test only (--fold 0/2)")
    ap.add_argument("--fold", default=None, help="I/N: build from the tests whose index is I modulo N")
    ap.add_argument("--out", type=Path, default=shapes.DATA)
    args = ap.parse_args(argv)
    fold = tuple(int(x) for x in args.fold.split("/")) if args.fold else (0, 2) if args.half else None
    data = build(args.data, fold)  # type: ignore[arg-type]
    args.out.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True, indent=0) + "\n", encoding="utf-8")
    print(summary(data), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
