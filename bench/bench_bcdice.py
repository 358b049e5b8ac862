"""BCDice's own test cases through `kifu import`: are the recorded dice the dice BCDice rolled?

Issue 12, item 2. Usage (from the repository root):

    python bench/bench_bcdice.py CORPUS_DIR                   # every system, every carrier
    python bench/bench_bcdice.py CORPUS_DIR --carrier udonarium --systems Cthulhu7th,Satasupe
    python bench/bench_bcdice.py CORPUS_DIR --all-systems     # a line for each of the 346 systems
    python bench/bench_bcdice.py CORPUS_DIR --show wrong,silent --limit 20   # the cases behind a figure

CORPUS_DIR holds BCDice's ``test/data/*.toml`` (../shared/corpus/bcdice/data). For each
case the TOML gives the system, the command typed (``input``), BCDice's exact answer
(``output``), ``secret`` and ``rands``: the dice BCDice rolled, sides and value, in order.

Definitions (also in docs/importers.md, "BCDice results"):

* A **case** is one TOML test whose ``output`` is not empty. Each is wrapped the way a
  client records it and imported through the importer's real path (``read_source`` +
  ``build``), one file per system and carrier:
  - ``udonarium``: a chat.xml ``<chat>`` with the command (``tag`` = the system id) and
    the ``System-BCDice`` answer (``tag="system dicebot[ secret]"``, ``name="<system> :
    <speaker>[ (Secret)]"``, repeats rewritten to ``#1 …`` as Udonarium's dice-bot.ts does);
  - ``ccfolia``: a classic HTML ``<p>`` whose body is the command, a space and the answer
    (``<br>`` between lines), no system recorded, secret only from the typed ``S``;
  - ``ccfolia-json``: a JSON message with ``text`` = the command and ``extend.roll`` =
    ``{result, secret}``.
* The **recorded dice** of a case are the (sides, value) of every value of every
  ``random`` event made from the answer's message, in event order (a choice's value is
  the pick's index among the options left, as BCDice draws it).
* **read right**: the recorded dice equal ``rands``. Where the report lists the message
  under ``unordered`` (BCDice printed the faces sorted: keep/drop dice, a sorting system,
  D66 digits), each event's values are compared as a multiset with the same stretch of
  ``rands`` (faces right, rolling order not in the text); these are counted apart too.
  A case where BCDice rolled nothing (``c(1+2)``, an error text) is right when nothing
  is recorded and nothing reported. ``rands`` from BCDice's tests sometimes feed a d10
  the value 0 where a real die shows 10 (both read as 0 for a d100's digit): such a 0
  counts as 10.
* **wrong faces**: some dice recorded, and they are not the dice BCDice rolled.
* **unread, reported**: no dice recorded, and the report has an ``unreadable`` entry for
  the message (kifu says what it could not read).
* **unread, silent**: BCDice rolled dice, kifu recorded none and reported nothing.
* **secret errors**: an event of the answer whose ``secret`` differs from the case's, or
  a "hidden roll" made of a case whose answer is shown.
* ``(uno)`` counts the read-right cases compared as a multiset; ``(tot)`` the reported
  cases where BCDice showed only the total of several dice (a 2D6 table: no reader can
  know the faces) and the report says so correctly (n dice of s sides adding up to the
  total, checked against ``rands``). They stay "reported"; a second figure adds them
  to the right ones, for information.

Targets (issue 12): 0 wrong and 0 silent over the whole corpus; >= 95 % read right over
the common systems (COMMON below). The figure for all systems is reported, not judged.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
import tempfile
import time
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kifu.events import (
    games,
    importers,  # noqa: E402
)

COMMON = ("None", "dummyBot", "AddDice", "UpperDice", "D66Dice", "Repeat", "choice", "calc", "tally_sort",
          "tally_ty", "tally_tz", "randomizer", "Cthulhu", "Cthulhu7th", "Arianrhod", "SwordWorld2_5",
          "DoubleCross", "ShinobiGami", "Emoklore", "Kamigakari", "Insane", "Satasupe", "LogHorizon")
"""The issue's common systems, by file (None and dummyBot are BCDice's DiceBot basics)."""
TARGET_RIGHT = 0.95
CARRIERS = ("udonarium", "ccfolia", "ccfolia-json")
KINDS = ("right", "wrong", "reported", "silent")


@dataclass
class Case:
    file: str
    index: int
    system: str
    input: str
    output: str
    secret: bool
    rands: list[tuple[int, int]]


@dataclass
class Tally:
    """Counts for one system and carrier (or a sum of them)."""

    n: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    unordered: int = 0
    secret: int = 0
    total_only: int = 0
    """Reported cases where BCDice showed only a total of several dice (checked against ``rands``)."""

    def add(self, other: "Tally") -> None:
        self.n += other.n
        self.kinds.update(other.kinds)
        self.unordered += other.unordered
        self.secret += other.secret
        self.total_only += other.total_only

    def rate(self) -> float:
        return self.kinds["right"] / self.n if self.n else 1.0


def load(path: Path) -> list[Case]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = []
    for i, t in enumerate(data.get("test", []), 1):
        if not t.get("output"):
            continue
        rands = [(int(r["sides"]), int(r["value"])) for r in t.get("rands", [])]
        out.append(Case(path.stem, i, t["game_system"], t["input"], t["output"], bool(t.get("secret")), rands))
    return out


# --- carriers ------------------------------------------------------------------------


def udonarium(cases: list[Case]) -> bytes:
    """A chat.xml: each case as the player's command and the System-BCDice answer."""
    rows = []
    for i, c in enumerate(cases):
        at = 1_740_000_000_000 + 10 * i
        text = re.sub(r"\n?(#\d+)\n", r"\1 ", c.output)  # dice-bot.ts shortens repeats this way
        tag = "system dicebot" + (" secret" if c.secret else "")
        name = f"{c.system} : PL" + (" (Secret)" if c.secret else "")
        rows.append(f'    <chat from="peerPL" name="PL" timestamp="{at}" tag={quoteattr(c.system)}>{escape(c.input)}</chat>')
        rows.append(f'    <chat originFrom="peerPL" from="System-BCDice" timestamp="{at + 1}" tag="{tag}" '
                    f'name={quoteattr(name)}>{escape(text)}</chat>')
    body = "\n".join(rows)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<chat-tab-list>\n  <chat-tab name="メイン">\n{body}\n  </chat-tab>\n</chat-tab-list>\n'.encode()


def ccfolia(cases: list[Case]) -> bytes:
    """A classic CCFOLIA page: each case as one <p> whose body is the command and the answer."""
    head = ('<!DOCTYPE html>\n<html lang="ja">\n  <head>\n    <meta charset="UTF-8" />\n'
            '    <title>ccfolia - logs</title>\n  </head>\n  <body>\n')
    rows = [f'<p style="color:#888888;">\n  <span> [main]</span>\n  <span>PL</span> :\n  <span>\n'
            f'    {html.escape(c.input)} {html.escape(c.output).replace(chr(10), "<br>")}\n  </span>\n</p>\n'
            for c in cases]
    return (head + "".join(rows) + "  </body>\n</html>\n").encode()


def ccfolia_json(cases: list[Case]) -> bytes:
    msgs = [{"name": "PL", "text": c.input, "type": "text", "channel": "main", "createdAt": 1_740_000_000_000 + i,
             "extend": {"roll": {"result": c.output, "secret": c.secret}}} for i, c in enumerate(cases)]
    return json.dumps({"messages": msgs}, ensure_ascii=False).encode()


WRITERS = {"udonarium": (udonarium, "xml", 2), "ccfolia": (ccfolia, "html", 1), "ccfolia-json": (ccfolia_json, "json", 1)}


# --- judging -----------------------------------------------------------------------


def real_die(sides: int, value: int) -> tuple[int, int]:
    """BCDice's tests feed a d10 a 0 where a real die shows 10 (a d100 digit reads both as 0)."""
    return (sides, 10) if sides == 10 and value == 0 else (sides, value)


_TOTAL_ONLY = re.compile(r"\((\d+)D(\d+)\): only the total (-?\d+) is shown")


def total_only(case: Case, reasons: list[str]) -> bool:
    """The report says BCDice showed only the total of nDs, and ``rands`` agree (n dice of s sides, that sum)."""
    for why in reasons:
        m = _TOTAL_ONLY.search(why)
        if m:
            n, s, total = (int(g) for g in m.groups())
            return len(case.rands) == n and all(sides == s for sides, _ in case.rands) and \
                sum(v for _, v in case.rands) == total
    return False


def judge(case: Case, events: list[dict[str, Any]], unreadable: bool, unordered: bool) -> str:
    rands = [real_die(s, v) for s, v in case.rands]
    dice_events = [[(e["sides"], v) for v in e["values"]] for e in events if e["type"] == "random"]
    recorded = [d for ev in dice_events for d in ev]
    if not recorded:
        if unreadable:
            return "reported"
        return "right" if not rands else "silent"
    if recorded == rands:
        return "right"
    if unordered and len(recorded) == len(rands):
        pos = 0
        for ev in dice_events:
            if sorted(ev) != sorted(rands[pos: pos + len(ev)]):
                return "wrong"
            pos += len(ev)
        return "right-unordered"
    return "wrong"


def secret_error(case: Case, events: list[dict[str, Any]]) -> bool:
    hidden = any(e["type"] == "random" and not e["values"] for e in events)
    return hidden or any(bool(e.get("secret")) != case.secret for e in events)


def run(path: Path, carrier: str, codec: Any, tmp: Path) -> tuple[Tally, list[tuple[str, Case, str]]]:
    cases = load(path)
    tally, notes = Tally(), []
    if not cases:
        return tally, notes
    write, ext, per_case = WRITERS[carrier]
    src_path = tmp / f"{path.stem}.{carrier}.{ext}"
    src_path.write_bytes(write(cases))
    fmt = "ccfolia" if carrier.startswith("ccfolia") else carrier
    src, data = importers.read_source(src_path, fmt)
    imported = importers.build(src, data, codec)
    if len(src.messages) != per_case * len(cases):
        raise SystemExit(f"{src_path.name}: {len(src.messages)} messages for {len(cases)} cases")
    by_loc: dict[str, list[dict[str, Any]]] = {}
    for e in imported.events:
        by_loc.setdefault(e["src"]["loc"], []).append(e)
    unreadable = {u.loc for u in imported.report.unreadable}
    unordered = {u.loc for u in imported.report.unordered}
    for i, case in enumerate(cases):
        loc = src.messages[per_case * i + per_case - 1].loc  # the answer's message
        events = by_loc.get(loc, [])
        kind = judge(case, events, loc in unreadable, loc in unordered)
        tally.n += 1
        if kind == "right-unordered":
            tally.unordered += 1
            kind = "right"
        tally.kinds[kind] += 1
        if kind == "reported" and total_only(case, [u.what for u in imported.report.unreadable if u.loc == loc]):
            tally.total_only += 1
        if secret_error(case, events):
            tally.secret += 1
            notes.append(("secret", case, _describe(events, imported.report, loc)))
        if kind != "right":
            notes.append((kind, case, _describe(events, imported.report, loc)))
    return tally, notes


def _describe(events: list[dict[str, Any]], report: Any, loc: str) -> str:
    dice = [(e["sides"], e["values"], e.get("secret")) for e in events if e["type"] == "random"]
    why = [u.what for u in report.unreadable if u.loc == loc]
    return f"recorded {dice} secret={[e.get('secret', False) for e in events]} report {why}"


# --- printing ------------------------------------------------------------------------


def line(label: str, t: Tally) -> str:
    k = t.kinds
    return (f"{label:32s} {t.n:6d} {k['right']:6d} {t.unordered:6d} {k['wrong']:6d} {k['reported']:6d} "
            f"{t.total_only:6d} {k['silent']:6d} {t.secret:6d} {100 * t.rate():7.1f}%")


def header() -> str:
    return (f"{'system':32s} {'cases':>6s} {'right':>6s} {'(uno)':>6s} {'wrong':>6s} {'report':>6s} {'(tot)':>6s} "
            f"{'silent':>6s} {'secret':>6s} {'right%':>8s}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", type=Path, help="folder of BCDice's test TOMLs")
    ap.add_argument("--carrier", default="all", choices=("all", *CARRIERS))
    ap.add_argument("--systems", default="", help="comma-separated file stems (default: all)")
    ap.add_argument("--all-systems", action="store_true", help="print a line for every system, not only the common ones")
    ap.add_argument("--show", default="", help="print cases of these kinds: wrong,silent,reported,secret")
    ap.add_argument("--limit", type=int, default=10, help="cases shown per kind and carrier")
    args = ap.parse_args(argv)
    files = sorted(args.corpus.glob("*.toml"))
    if args.systems:
        wanted = set(args.systems.split(","))
        files = [f for f in files if f.stem in wanted]
    if not files:
        raise SystemExit(f"{args.corpus}: no *.toml")
    codec = games.codec("generic")
    carriers = CARRIERS if args.carrier == "all" else (args.carrier,)
    show = set(filter(None, args.show.split(",")))
    ok = True
    with tempfile.TemporaryDirectory() as td:
        for carrier in carriers:
            start = time.perf_counter()
            common, every = Tally(), Tally()
            rows, shown = [], Counter[str]()
            for f in files:
                t, notes = run(f, carrier, codec, Path(td))
                every.add(t)
                if f.stem in COMMON:
                    common.add(t)
                if f.stem in COMMON or args.all_systems:
                    rows.append(line(f.stem, t))
                for kind, case, desc in notes:
                    if kind in show and shown[kind] < args.limit:
                        shown[kind] += 1
                        print(f"[{carrier} {kind}] {case.file}#{case.index} {case.system} {case.input!r}\n"
                              f"    output {case.output[:300]!r}\n    rands {case.rands[:20]}\n    {desc[:400]}")
            print(f"\n== carrier: {carrier} ({time.perf_counter() - start:.1f} s)")
            print(header())
            print("\n".join(rows))
            print(line("common systems", common))
            print(line(f"all {len({f.stem for f in files})} systems", every))
            checks = [("wrong faces, all systems", every.kinds["wrong"], "= 0", every.kinds["wrong"] == 0),
                      ("silent misses, all systems", every.kinds["silent"], "= 0", every.kinds["silent"] == 0),
                      ("read right, common systems", f"{100 * common.rate():.1f}%", f">= {100 * TARGET_RIGHT:.0f}%",
                       common.rate() >= TARGET_RIGHT),
                      ("secret errors, all systems", every.secret, "(reported)", None),
                      ("right or only a total shown, common", f"{100 * (common.kinds['right'] + common.total_only) / max(common.n, 1):.1f}%",
                       "(info)", None)]
            for label, value, target, passed in checks:
                verdict = "" if passed is None else "PASS" if passed else "MISS"
                ok = ok and passed is not False
                print(f"{label:32s} {value!s:>10s}  {target:8s} {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
