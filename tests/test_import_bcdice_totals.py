"""Rolls BCDice shows only as a sum (`random` kind `total`), and `kifu import --system` for exports
that record no game system: what the log keeps, what the warehouse counts, what the CLI says."""

from __future__ import annotations

import html
from pathlib import Path

import msgspec
from conftest import run_cli

import kifu
from kifu import warehouse as wh
from kifu.events import logfile, table
from kifu.games.generic import views as generic
from kifu.warehouse import stats

LINES = [
    ("ST シーン表(7) ＞ 森の中。木々の間を抜けて", "ソラ"),  # a 2D6 table: the sum only
    ("ST シーン表(12) ＞ 夜明け", "ソラ"),  # 12 on 2D6: both dice were 6
    ("2d6 (2D6) ＞ 8[3,5] ＞ 8", "ユキ"),  # faces shown
    ("RTT ランダム指定特技表(2,7) ＞ 『体術』歩法", "ユキ"),  # a d6 shown, then a 2D6 sum
]


def _page(path: Path) -> Path:
    rows = "".join(
        f'<p style="color:#888888;"><span> [main]</span><span>{who}</span> :<span>{html.escape(text)}</span></p>\n'
        for text, who in LINES
    )
    path.write_text(
        '<!DOCTYPE html>\n<html lang="ja"><head><meta charset="UTF-8" /><title>ccfolia - logs</title></head>'
        f"<body>\n{rows}</body></html>\n",
        encoding="utf-8",
    )
    return path


def _randoms(log: Path) -> list[tuple]:
    return [
        (e.kind, e.sides, e.dice, e.values, e.expr)
        for e in logfile.load(log).events
        if type(e).__name__ == "RandomRolled"
    ]


def test_without_the_system_a_name_several_systems_print_is_reported(tmp_path: Path) -> None:
    """シーン表 is a table of many systems (some roll it otherwise, some are not vouched for): without
    the system it is reported; the skill table's head only systems sharing one form print, so it is read."""
    out = tmp_path / "m.jsonl"
    run = run_cli("import", _page(tmp_path / "room.html"), "-o", out, "--lang", "en")
    assert run.code == 0, run.err
    assert _randoms(out) == [("die", 6, None, [3, 5], "2d6"), ("die", 6, None, [2], "RTT"), ("total", 6, 2, [7], "RTT")]
    assert run.err.count("could not read (kept as a note)") == 2


def test_with_the_system_sums_and_faces(tmp_path: Path) -> None:
    out, rep = tmp_path / "m.jsonl", tmp_path / "report.json"
    run = run_cli("import", _page(tmp_path / "room.html"), "-o", out, "--system", "ShinobiGami", "--report", rep)
    assert run.code == 0, run.err
    assert _randoms(out) == [
        ("total", 6, 2, [7], "ST"),
        ("die", 6, None, [6, 6], "ST"),
        ("die", 6, None, [3, 5], "2d6"),
        ("die", 6, None, [2], "RTT"),
        ("total", 6, 2, [7], "RTT"),
    ]
    report = msgspec.json.decode(rep.read_bytes())
    assert report["unreadable"] == [] and [t["loc"] for t in report["totals"]] == ["line 3", "line 6"]
    assert [f.code for f in kifu.audit(out).findings if f.severity == "error"] == []


def test_the_system_is_spelled_as_bcdice_spells_it(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    assert run_cli("import", _page(tmp_path / "room.html"), "-o", out, "--system", "shinobigami").code == 0
    run = run_cli(
        "import", _page(tmp_path / "room2.html"), "-o", tmp_path / "n.jsonl", "--system", "ShinobiGam", "--lang", "en"
    )
    assert run.code == 2 and run.err.startswith(
        "kifu: error: --system: 'ShinobiGam' is no BCDice game system id (closest: ShinobiGami"
    )
    assert run.err.count("\n") == 1 and not (tmp_path / "n.jsonl").exists()


def test_a_total_is_no_face_in_the_fairness_tests(tmp_path: Path) -> None:
    """A sum of 2D6 is not uniform on 1–6: it is kept in `randomness` (kind total) and left out of the d6 test."""
    log = tmp_path / "t.jsonl"
    logfile.create(log, {"game": "generic", "match": "t1", "players": [{"id": "p1", "name": "P1"}]})
    with logfile.Writer(log, durable=False) as w:
        for face in range(1, 7):
            w.append({"type": "random", "by": "p1", "kind": "die", "sides": 6, "values": [face] * 5})
        for _ in range(30):
            w.append({"type": "random", "by": "p1", "kind": "total", "sides": 6, "dice": 2, "values": [7]})
    assert table.codec("generic").decode(log.read_bytes().splitlines()[-1]).dice == 2
    con = wh.connect(tmp_path / "w.duckdb")
    wh.ingest(con, [log], jobs=1, views=(generic,))
    kinds = con.execute("SELECT kind, count(*), sum(value) FROM randomness GROUP BY kind ORDER BY kind").fetchall()
    rows = stats.fairness(con, alpha=0.01)
    con.close()
    assert kinds == [("die", 30, 105), ("total", 30, 210)]
    (d6,) = [r for r in rows if r.test == "d6"]
    assert (d6.n, d6.flag) == (30, False)


def test_a_table_result_with_nothing_typed(tmp_path: Path) -> None:
    """A CCFOLIA JSON result whose text is empty: the table is read, its expr is the table itself."""
    src = tmp_path / "room.json"
    src.write_text(
        msgspec.json.encode(
            {
                "messages": [
                    {
                        "name": "PL",
                        "text": "",
                        "type": "text",
                        "channel": "main",
                        "createdAt": 1_740_000_000_000,
                        "extend": {"roll": {"result": "シーン表(7) ＞ 森の中", "secret": False}},
                    }
                ]
            }
        ).decode(),
        encoding="utf-8",
    )
    out = tmp_path / "m.jsonl"
    run = run_cli("import", src, "-o", out, "--system", "ShinobiGami")
    assert run.code == 0, run.err
    assert _randoms(out) == [("total", 6, 2, [7], "シーン表(7)")]
