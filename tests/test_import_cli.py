"""`kifu import`: options, the report, refusals, and nothing written but the log."""

from __future__ import annotations

import shutil
from pathlib import Path

import msgspec
from conftest import FIXTURES, run_cli

from kifu.auditor import registry
from kifu.events import logfile

CLASSIC = FIXTURES / "imports" / "ccfolia" / "classic.html"


def test_refuses_to_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    out.write_text("precious\n", encoding="utf-8")
    run = run_cli("import", CLASSIC, "-o", out, "--lang", "en")
    assert run.code == 2 and run.err == f"kifu: error: {out} already exists; a log is never overwritten\n"
    assert out.read_text(encoding="utf-8") == "precious\n"


def test_writes_nothing_but_the_log(tmp_path: Path) -> None:
    src = tmp_path / "in" / "room.zip"
    src.parent.mkdir()
    shutil.copy(FIXTURES / "imports" / "udonarium" / "ルームデータ_2025-03-01_1102.zip", src)
    out = tmp_path / "out" / "m.jsonl"
    out.parent.mkdir()
    run = run_cli("import", src, "-o", out)
    assert run.code == 0, run.err
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == [
        "in",
        "in/room.zip",
        "out",
        "out/m.jsonl",
    ]


def test_players_match_and_report(tmp_path: Path) -> None:
    out, rep = tmp_path / "m.jsonl", tmp_path / "report.json"
    run = run_cli(
        "import",
        CLASSIC,
        "-o",
        out,
        "--match",
        "R1-T3",
        "-p",
        "a=ミナト",
        "-p",
        "b=ユキ",
        "--report",
        rep,
        "--lang",
        "ja",
    )
    assert run.code == 0, run.err
    log = logfile.load(out)
    assert log.start.match == "R1-T3"
    assert [(p.id, p.name) for p in log.start.players] == [("a", "ミナト"), ("b", "ユキ")]
    kp = [e for e in log.events if e.src and e.src.text and e.src.text.startswith("複数行")]
    assert kp[0].by is None and kp[0].speaker == "KP" and kp[0].text == "複数行の\nメッセージです"
    report = msgspec.json.decode(rep.read_bytes())
    assert report["unattributed"] == {"KP": 1} and report["head"] == log.head.hash
    assert "参加者でない発言者: KP (1)" in run.err
    assert [f.code for f in registry.audit(log.events) if f.severity == "error"] == []


def test_match_id_is_derived_from_the_source(tmp_path: Path) -> None:
    a = run_cli("import", CLASSIC, "-o", tmp_path / "a.jsonl")
    copy = tmp_path / "other-name.html"
    shutil.copy(CLASSIC, copy)
    b = run_cli("import", copy, "-o", tmp_path / "b.jsonl")
    assert a.code == b.code == 0
    ids = [logfile.load(tmp_path / n).start.match for n in ("a.jsonl", "b.jsonl")]
    assert ids[0] == ids[1] and ids[0].startswith("ccfolia-")


def test_wrong_format_or_missing_file_fails_cleanly(tmp_path: Path) -> None:
    run = run_cli("import", CLASSIC, "-o", tmp_path / "m.jsonl", "--from", "arena")
    assert (
        run.code == 2
        and run.err.startswith("kifu: error: classic.html: this file is a ccfolia export, not arena")
        and "\n" == run.err[-1]
    )
    run = run_cli("import", tmp_path / "nope.html", "-o", tmp_path / "m.jsonl")
    assert run.code == 2 and "cannot read" in run.err
    run = run_cli("import", CLASSIC, "-o", tmp_path / "m.jsonl", "--game", "chess")
    assert run.code == 2 and "chess" in run.err
    run = run_cli("import", CLASSIC, "-o", tmp_path / "m.jsonl", "-p", "noname")
    assert run.code == 2 and "noname" in run.err
    assert not (tmp_path / "m.jsonl").exists()


def test_imported_log_audits_and_verifies(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    assert run_cli("import", FIXTURES / "imports" / "discord" / "export.json", "-o", out).code == 0
    assert run_cli("verify", out).code == 0
    assert run_cli("audit", out).code == 0


def test_the_report_speaks_japanese_with_lang_ja(tmp_path: Path) -> None:
    """Every line of the report, the reasons and remarks included, comes from the catalogue in the reader's
    language; the JSON report keeps the English text beside the catalogue id."""
    src = tmp_path / "room.html"
    src.write_text(
        CLASSIC.read_text(encoding="utf-8").replace("</html>", "")  # a page cut short: a remark
        + '<p style="color:#888888;">\n  <span> [main]</span>\n  <span>ミナト</span> :\n  <span>\n'
        "    ZZT 幽霊表(5) ＞ 誰もいない部屋\n  </span>\n</p>\n",
        encoding="utf-8",
    )
    run = run_cli("import", src, "-o", tmp_path / "m.jsonl", "--lang", "ja", "--report", tmp_path / "r.json")
    assert run.code == 0, run.err
    assert "ファイルが </html> で終わっていません" in run.err
    reasons = [line for line in run.err.splitlines() if line.startswith("読めなかった箇所")]
    assert reasons and all("kifu cannot" not in r and "does not know" not in r for r in reasons), reasons
    report = msgspec.json.decode((tmp_path / "r.json").read_bytes())
    assert any(r["key"] == "import.note_html_truncated" and "</html>" in r["what"] for r in report["remarks"])
    assert all(u.get("key") for u in report["unreadable"]), report["unreadable"]
