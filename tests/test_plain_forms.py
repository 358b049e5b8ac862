"""The plain forms of ``kifu verify`` and ``kifu audit`` run without typer, and say what typer's reading says.

``kifu.cli.plain`` reads the documented forms of the two commands itself (a cold start no longer
imports typer and click); every form below is run both ways, in processes of their own writing to
files (no terminal, as a pipe), and the two must agree byte for byte: stdout, stderr, exit code and
the report an ``-o`` writes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT

from kifu.cli import plain

_DRIVER = r"""
import io, json, os, sys
from pathlib import Path

how, forms, out_dir, report = sys.argv[1], json.loads(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])
if how == "plain":
    from kifu.cli import main
    from kifu.cli.plain import parse
    run = main
else:
    from kifu.cli.root import run
results = []
for i, args in enumerate(forms):
    if how == "plain":
        assert parse(args) is not None, args
    args = [a.replace("{report}", str(report)) for a in args]
    streams = []
    for name in ("stdout", "stderr"):
        streams.append(open(out_dir / f"{i}.{name}", "w", encoding="utf-8"))
    sys.stdout, sys.stderr = streams
    try:
        try:
            code = run(args)
        except SystemExit as exc:
            code = exc.code
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        for s in streams:
            s.close()
    written = report.read_text(encoding="utf-8") if report.exists() else None
    if report.exists():
        report.unlink()
    results.append({
        "code": code,
        "out": (out_dir / f"{i}.stdout").read_text(encoding="utf-8"),
        "err": (out_dir / f"{i}.stderr").read_text(encoding="utf-8"),
        "report": written,
    })
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("typer", "click", "rich", "duckdb"))
print(json.dumps({"results": results, "loaded": loaded}))
"""


def _logs(tmp: Path) -> dict[str, str]:
    """A clean log, one with findings (and random outcomes), one whose chain is broken, one missing."""
    dispute = FIXTURES / "gunandgun" / "dispute.jsonl"
    broken = tmp / "broken.jsonl"
    lines = dispute.read_bytes().splitlines(keepends=True)
    lines[9] = lines[9].replace(b'"by":"p1"', b'"by":"p2"', 1) if b'"by":"p1"' in lines[9] else lines[9][:-2] + b" \n"
    broken.write_bytes(b"".join(lines))
    return {
        "clean": str(FIXTURES / "mtg" / "match-clean.jsonl"),
        "dispute": str(dispute),
        "broken": str(broken),
        "missing": str(tmp / "no-such-log.jsonl"),
    }


def _forms(logs: dict[str, str]) -> list[list[str]]:
    clean, dispute, broken, missing = logs["clean"], logs["dispute"], logs["broken"], logs["missing"]
    head = "b4a6be3f414a"
    forms: list[list[str]] = []
    for files in ([clean], [dispute], [broken], [missing], [clean, dispute], [clean, broken, dispute]):
        forms += [
            ["verify", *files],
            ["verify", *files, "-f", "json"],
            ["verify", *files, "-fjsonl"],
            ["verify", "--format=text", *files],
            ["verify", *files, "--format", "jsonl", "--lang", "ja"],
            ["verify", "--lang=ja", *files],
            ["audit", *files],
            ["audit", *files, "--lang", "ja"],
            ["audit", "-f", "json", *files],
            ["audit", *files, "--format=jsonl"],
            ["audit", *files, "-fmd", "--all"],
            ["audit", "--all", *files, "-f", "html"],
            ["audit", *files, "-f", "json", "-o", "{report}"],
            ["audit", *files, "--output={report}", "--lang=ja"],
            ["audit", *files, "-o{report}", "-f", "md"],
        ]
    forms += [
        ["verify", dispute, "--expect-head", head],
        ["verify", dispute, "--expect-head=0000000000000000"],
        ["verify", dispute, "--expect-head", "00"],
        ["verify", "--expect-head", head, "-f", "json", dispute, clean],
        ["verify", "--", dispute],
        ["audit", "--lang", "en", "--", dispute, clean],
        ["audit", clean, broken, dispute, "-j", "2", "-f", "jsonl"],
        ["audit", "--jobs=1", dispute, clean],
        ["audit", "-j3", dispute],
    ]
    return forms


def _run(how: str, forms: list[list[str]], tmp: Path) -> dict[str, object]:
    out_dir = tmp / how
    out_dir.mkdir()
    env_code = [sys.executable, "-c", _DRIVER, how, json.dumps(forms), str(out_dir), str(tmp / "report.out")]
    done = subprocess.run(env_code, capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def test_every_documented_form_says_what_typer_says(tmp_path: Path) -> None:
    forms = _forms(_logs(tmp_path))
    typed, fast = _run("typer", forms, tmp_path), _run("plain", forms, tmp_path)
    for args, a, b in zip(forms, typed["results"], fast["results"], strict=True):  # type: ignore[call-overload]
        assert a == b, args
    codes = {r["code"] for r in fast["results"]}  # type: ignore[union-attr]
    assert {0, 1, 2} <= codes  # clean, findings and untrusted logs were all among them
    assert fast["loaded"] == [], fast["loaded"]  # neither typer nor click (nor rich, nor duckdb) was imported


def test_a_plain_form_imports_neither_typer_nor_click_nor_the_warehouse() -> None:
    code = (
        "import sys\nfrom kifu.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click', 'rich', 'duckdb', 'textual')"
        " or m.startswith(('kifu.warehouse', 'kifu.cli.root', 'kifu.cli.common', 'kifu.cli.log', 'kifu.cli.audit'))))"
    )
    for command in ("verify", "audit"):
        args = [command, str(FIXTURES / "gunandgun" / "dispute.jsonl")]
        done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, check=True)
        assert done.stdout.splitlines()[-1] == "[]", (command, done.stdout)


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["verify"],
        ["audit"],
        ["verify", "--help"],
        ["audit", "m.jsonl", "--help"],
        ["audit", "m.jsonl", "-f", "pdf"],
        ["audit", "m.jsonl", "-f"],
        ["audit", "m.jsonl", "-f", "json", "-f", "md"],
        ["audit", "m.jsonl", "--all=yes"],
        ["audit", "m.jsonl", "-j", "0"],
        ["audit", "m.jsonl", "--jobs=two"],
        ["audit", "m.jsonl", "-j", "-1"],
        ["verify", "m.jsonl", "--lang", "fr"],
        ["verify", "m.jsonl", "-o", "x"],
        ["verify", "-"],
        ["verify", ""],
        ["audit", "m.jsonl", "-o", "--lang"],
        ["report", "m.jsonl"],
        ["--version"],
    ],
)
def test_anything_else_is_left_to_typer(args: list[str]) -> None:
    assert plain.parse(args) is None


def test_a_usage_error_is_typers_own_line(kifu) -> None:
    r = kifu("audit", str(FIXTURES / "gunandgun" / "dispute.jsonl"), "-f", "pdf")
    assert r.code == 2 and r.err.startswith("kifu: error:") and "pdf" in r.err
