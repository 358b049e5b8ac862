"""The warehouse as trustworthy as the audit: the same answers from the warehouse file and from its Parquet
dataset, identity files that are never silently missing, kifu's stance on each ruling in SQL.

Every statistic, every `kifu people` listing and every table and view is asked of both (``--db`` and
``--parquet``) and must answer alike; the warehouse here has an identity file beside it, which the
export must carry (the dataset folder holds none of its own).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, run_cli

from kifu import warehouse as wh
from kifu.events import logfile
from kifu.warehouse import dataset

IDENTITY = '["Aoi"]\nnames = ["Ren"]\n'
"""Gathers two people of the fixtures under one: answers about people differ without it."""


def _dispute_with_rulings(logs: Path) -> Path:
    """The bundled ガンナガン dispute as a match of its own (``R3-T7-ruled``) with three more rulings: kifu
    agrees with one, is stricter than one (the judge calls legal what kifu finds an error) and cannot
    compare one (no decision word)."""
    log = logs / "dispute-ruled.jsonl"
    lines = (FIXTURES / "gunandgun" / "dispute.jsonl").read_text(encoding="utf-8").splitlines()
    bodies = [{k: v for k, v in json.loads(line).items() if k not in ("seq", "prev")} for line in lines]
    bodies[0]["match"] = "R3-T7-ruled"
    logfile.create(log, bodies[0])
    for body in bodies[1:]:
        logfile.append(log, body)
    for about, decision, code in (([14], "warning", "GG-TOSS-001"), ([27], "legal", None), ([5], "as we said", None)):
        ruling = {"type": "judge.ruling", "by": "judge", "about": about, "text": "ruled at the table"}
        logfile.append(log, ruling | {"decision": decision} | ({"code": code} if code else {}))
    return log


@pytest.fixture(scope="module")
def both(tmp_path_factory) -> tuple[Path, Path]:
    """(the warehouse file, with people.toml beside it; its Parquet dataset, exported elsewhere)."""
    d = tmp_path_factory.mktemp("trust")
    logs = d / "logs"
    logs.mkdir()
    _dispute_with_rulings(logs)
    wdir = d / "wh"
    wdir.mkdir()
    db = wdir / "w.duckdb"
    (wdir / "people.toml").write_text(IDENTITY, encoding="utf-8")
    r = run_cli("ingest", FIXTURES, logs, "--db", db)
    assert r.code == 1 and r.err.count("refused: ") == 3, r.err  # KIFU-LOG-004's and -007's bad fixtures
    out = d / "out"
    r = run_cli("export", "--parquet", out, "--db", db)
    assert r.code == 0, r.err
    return db, out


def _stats_commands() -> list[list[str]]:
    """Every `kifu stats` command (the games' own too), each build key of `builds`, both ways of counting."""
    from kifu.cli.warehouse import BuildKey, stats_app

    out: list[list[str]] = []
    for command in stats_app.registered_commands:
        name = command.name or command.callback.__name__  # type: ignore[union-attr]
        if name == "builds":
            out += [["builds", "--by", k.value] for k in BuildKey]
        elif name in ("fairness", "winrate"):
            out += [[name], [name, "--by", "seat"]]
        else:
            out.append([name])
    return out


STATS = _stats_commands()


def test_every_statistic_is_a_command_here() -> None:
    names = {c[0] for c in STATS}
    assert {"fairness", "winrate", "seats", "rules", "builds", "first"} <= names and len(names) > 6


@pytest.mark.parametrize("command", STATS, ids=" ".join)
def test_every_statistic_answers_alike_on_the_warehouse_and_its_dataset(both, command: list[str]) -> None:
    db, out = both
    a = run_cli("stats", *command, "--db", db, "-f", "json")
    b = run_cli("stats", *command, "--parquet", out, "-f", "json")
    assert a.code == b.code == 0, (a.err, b.err)
    assert json.loads(a.out) == json.loads(b.out)
    assert a.err == b.err  # the voided outcomes' note too


@pytest.mark.parametrize("args", [[], ["--merge"], ["aoi"]], ids=repr)
def test_people_answer_alike_and_the_export_carries_the_identity_file(both, args: list[str]) -> None:
    db, out = both
    a = json.loads(run_cli("people", *args, "--db", db, "-f", "json").out)
    b = json.loads(run_cli("people", *args, "--parquet", out, "-f", "json").out)
    assert a == b and a
    # The identity file beside the warehouse was read, and carried: Ren is one of Aoi's names.
    assert any(r["person"] == "Aoi" and "Ren" in (r.get("names") or r.get("name") or "") for r in a)
    assert dataset.read_manifest(out).people == IDENTITY


def _relations(db: Path) -> list[str]:
    r = run_cli(
        "sql",
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY 1",
        "--db",
        db,
        "-f",
        "json",
    )
    assert r.code == 0, r.err
    return [row["table_name"] for row in json.loads(r.out)]


INTERNAL = {"feed_versions"}
"""The warehouse's own bookkeeping (which feeds and identity file its tables were computed with)."""


def test_every_table_and_view_is_in_the_dataset_and_answers_alike(both) -> None:
    db, out = both
    names = _relations(db)
    assert {"match_randomness", "ruling_stances", "rulings", "people", "randomness", "findings"} <= set(names)
    for name in sorted(set(names) - INTERNAL):
        sql = f"SELECT * FROM {name} ORDER BY ALL"
        a = run_cli("sql", sql, "--db", db, "-f", "json")
        b = run_cli("sql", sql, "--parquet", out, "-f", "json")
        assert a.code == b.code == 0, (name, a.err, b.err)
        assert json.loads(a.out) == json.loads(b.out), name


def test_a_dataset_without_the_tables_and_identity_file_is_refused(both, tmp_path: Path) -> None:
    _, out = both
    old = tmp_path / "old"
    shutil.copytree(out, old)
    text = (old / dataset.MANIFEST).read_text(encoding="utf-8")
    (old / dataset.MANIFEST).write_text(text.replace(dataset.FORMAT, "kifu-dataset/1"), encoding="utf-8")
    for args in (["stats", "winrate"], ["people"], ["sql", "SELECT 1"]):
        r = run_cli(*args, "--parquet", old)
        assert r.code == 2 and r.out == "" and len(r.err.strip().splitlines()) == 1, r.err
        assert "kifu-dataset/1" in r.err and "kifu export --parquet" in r.err


def test_an_identity_file_given_to_the_dataset_wins_over_the_one_it_carries(both, tmp_path: Path) -> None:
    _, out = both
    other = tmp_path / "other.toml"
    other.write_text('["Ren"]\nnames = []\n', encoding="utf-8")
    people = {r["person"] for r in json.loads(run_cli("people", "--parquet", out, "--people", other, "-f", "json").out)}
    assert {"Aoi", "Ren"} <= people


# --- an identity file named but missing ------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["people"],
        ["stats", "winrate"],
        ["stats", "fairness"],
        ["sql", "SELECT 1"],
        ["export", "--parquet", "OUT"],
        ["ingest", str(FIXTURES / "gunandgun" / "dispute.jsonl")],
    ],
    ids=" ".join,
)
@pytest.mark.parametrize("how", ["option", "environment"])
def test_a_missing_identity_file_is_an_error(both, tmp_path: Path, monkeypatch, args: list[str], how: str) -> None:
    db, _ = both
    copy = tmp_path / "w.duckdb"
    shutil.copyfile(db, copy)
    missing = tmp_path / "nobody.toml"
    args = [str(tmp_path / "out") if a == "OUT" else a for a in args]
    if how == "option":
        r = run_cli(*args, "--db", copy, "--people", missing)
        named = "--people"
    else:
        monkeypatch.setenv("KIFU_PEOPLE", str(missing))
        r = run_cli(*args, "--db", copy)
        named = "KIFU_PEOPLE"
    assert r.code == 2 and r.out == "", (r.out, r.err)
    assert r.err.strip().splitlines() == [
        f"kifu: error: {missing}: no such identity file (named by {named}): give an existing file, "
        "or none to use people.toml beside the warehouse"
    ]
    assert not (tmp_path / "out").exists()


def test_a_missing_identity_file_is_an_error_for_a_dataset_too(both, tmp_path: Path) -> None:
    _, out = both
    r = run_cli("stats", "winrate", "--parquet", out, "--people", tmp_path / "nobody.toml", "--lang", "ja")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "同定ファイルがありません" in r.err


# --- --parquet beats KIFU_DB --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [["stats", "winrate"], ["stats", "seats"], ["people"], ["sql", "SELECT count(*) AS n FROM matches"]],
    ids=" ".join,
)
def test_parquet_wins_over_kifu_db(both, tmp_path: Path, monkeypatch, args: list[str]) -> None:
    db, out = both
    monkeypatch.setenv("KIFU_DB", str(tmp_path / "elsewhere.duckdb"))  # not even there: never opened
    r = run_cli(*args, "--parquet", out, "-f", "json")
    assert r.code == 0, r.err
    monkeypatch.delenv("KIFU_DB")
    assert json.loads(r.out) == json.loads(run_cli(*args, "--db", db, "-f", "json").out)
    assert not (tmp_path / "elsewhere.duckdb").exists()


def test_parquet_and_a_typed_db_are_still_refused(both) -> None:
    db, out = both
    r = run_cli("stats", "winrate", "--parquet", out, "--db", db)
    assert r.code == 2 and "not both" in r.err


def test_the_stats_group_parquet_wins_over_kifu_db(both, monkeypatch, tmp_path: Path) -> None:
    _, out = both
    monkeypatch.setenv("KIFU_DB", str(tmp_path / "elsewhere.duckdb"))
    assert run_cli("stats", "--parquet", out, "first", "-f", "json").code == 0


# --- kifu's stance on each ruling -------------------------------------------------------------------


def test_rulings_carry_kifus_stance_as_the_audit_gives_it(both) -> None:
    import kifu

    db, _ = both
    sql = (
        "SELECT seq, decision, code, stance, judge_broken, kifu, finding_codes, says_en FROM rulings "
        "WHERE match = 'R3-T7-ruled' ORDER BY seq"
    )
    rows = json.loads(run_cli("sql", sql, "--db", db, "-f", "json").out)
    logs = [p for p in Path(db).parent.parent.joinpath("logs").iterdir()]
    done = kifu.audit(logs[0])
    assert [(r["seq"], r["stance"], r["kifu"], r["says_en"]) for r in rows] == [
        (s.ruling.seq, s.kind, s.kifu_level, s.words().en) for s in done.stances
    ]
    assert [r["stance"] for r in rows][-3:] == ["agree", "stricter", "unknown"]


def test_rulings_kifu_disagrees_with_are_one_query(both) -> None:
    """The query docs/sql.md shows, as it is there."""
    db, out = both
    doc = (Path(__file__).parent.parent / "docs" / "sql.md").read_text(encoding="utf-8")
    sql = doc.split("-- rulings kifu disagrees with\n", 1)[1].split(";", 1)[0]
    for where in (["--db", db], ["--parquet", out]):
        rows = json.loads(run_cli("sql", sql, *where, "-f", "json").out)
        assert [(r["match"], r["stance"]) for r in rows] == [("R3-T7-ruled", "stricter")]


def test_a_warehouse_from_before_stances_gets_them_at_its_next_ingest(both, tmp_path: Path) -> None:
    import duckdb

    db, _ = both
    copy = tmp_path / "w.duckdb"
    shutil.copyfile(db, copy)
    before = run_cli("sql", "SELECT * FROM ruling_stances ORDER BY ALL", "--db", copy, "-f", "json").out
    con = duckdb.connect(str(copy))
    con.execute("DROP VIEW rulings")
    con.execute("DROP TABLE ruling_stances")
    con.execute("DELETE FROM feed_versions WHERE feed = 'rulings'")
    con.close()
    r = run_cli("ingest", FIXTURES / "gunandgun" / "dispute.jsonl", "--db", copy)
    assert r.code == 0, r.err
    assert run_cli("sql", "SELECT * FROM ruling_stances ORDER BY ALL", "--db", copy, "-f", "json").out == before


def test_the_export_writes_every_table_the_dataset_lists(both) -> None:
    _, out = both
    manifest = dataset.read_manifest(out)
    assert manifest.format == dataset.FORMAT
    assert {p.table for p in manifest.parts} == set(dataset.tables())
    assert set(dataset.tables()) >= set(wh.EXPORTS)
