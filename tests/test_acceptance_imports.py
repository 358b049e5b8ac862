"""Acceptance of `kifu import` (issue 8), checked the way the user checks it.

The exports under tests/acceptance/imports/ were written from the format
descriptions alone (../shared/reference/online-logs.md, docs/importers.md),
not from kifu's importers or fixtures; `make.py` there writes the binary ones
(zips, Shift_JIS, garbage). `cases.json` says, per export, the command line
and what must hold: the exit code, every source message found in the log,
the number of game/random/note events, and chosen events at given seqs; a
hostile export must exit 2 with one error line and leave nothing behind.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest
from conftest import ROOT, game_map, run_cli

from kifu.events import logfile
from kifu.events.base import event_type

HERE = ROOT / "tests" / "acceptance" / "imports"
CASES: dict[str, dict[str, Any]] = json.loads((HERE / "cases.json").read_text(encoding="utf-8"))
SHARED = {"match.start", "random", "note"}


def _squash(text: str) -> str:
    # Exports re-wrap text (HTML indentation, <br>, CRLF): compare words, not layout.
    return re.sub(r"\s+", " ", text).strip()


def _args(case: dict[str, Any]) -> list[str]:
    # The cases name the maps as "{maps}/<game>.toml": each game's own mapping file.
    return [re.sub(r"\{maps\}/(\w+)\.toml", lambda m: str(game_map(m[1])), a) for a in case.get("args", [])]


def _tree(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))


def _import(tmp: Path, name: str, case: dict[str, Any], out_name: str) -> tuple[Any, Path]:
    src = tmp / "in" / name
    if not src.exists():
        src.parent.mkdir(exist_ok=True)
        shutil.copy(HERE / name, src)
    out = tmp / "out" / out_name
    out.parent.mkdir(exist_ok=True)
    return run_cli("import", src, "-o", out, "--lang", "en", *_args(case)), out


def _plain(value: Any) -> Any:
    # Every field, defaults included: the canonical line leaves defaults out (group 1, secret false).
    if isinstance(value, msgspec.Struct):
        return {f: _plain(getattr(value, f)) for f in value.__struct_fields__}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _events(path: Path) -> list[dict[str, Any]]:
    return [{**_plain(e), "type": event_type(type(e))} for e in logfile.load(path).events]


def _kind(event: dict[str, Any]) -> str:
    return event["type"] if event["type"] in SHARED else "game"


def _subset(want: Any, got: Any) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and _subset(v, got[k]) for k, v in want.items())
    if isinstance(want, str) and want.endswith("*"):
        # A time is checked to the second: the sub-second and zone spelling are the writer's.
        return isinstance(got, str) and got.startswith(want[:-1])
    return want == got


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c["exit"] != 2])
def test_export_imports(tmp_path: Path, name: str) -> None:
    case = CASES[name]
    cwd_before = sorted(p.name for p in Path.cwd().iterdir())
    run, out = _import(tmp_path, name, case, "m.jsonl")
    assert run.code == case["exit"], run.err
    assert _tree(tmp_path) == ["in", f"in/{name}", "out", "out/m.jsonl"], "written outside -o"
    assert sorted(p.name for p in Path.cwd().iterdir()) == cwd_before
    verified = run_cli("verify", out)
    assert verified.code == 0, verified.err
    again, out2 = _import(tmp_path, name, case, "m2.jsonl")
    assert again.code == case["exit"] and out2.read_bytes() == out.read_bytes(), "import is not reproducible"
    events = _events(out)
    _check_messages(events, case["messages"])
    counts = {k: sum(1 for e in events if _kind(e) == k) for k in ("game", "random", "note")}
    assert counts == case["counts"], run.err
    if not any(w["seq"] == 1 and "match" in w for w in case.get("events", [])):
        # docs/importers.md: without --match the id is the format name and 16 hex digits of the source's SHA-256.
        digest = hashlib.sha256((HERE / name).read_bytes()).hexdigest()[:16]
        assert re.fullmatch(rf"[a-z]+-{digest}", events[0]["match"]), events[0]["match"]
    for want in case.get("events", []):
        got = events[want["seq"] - 1]
        assert _subset(want, got), f"seq {want['seq']}: want {want}, got {got}"
    for text in case.get("report", []):
        assert text in run.err, run.err
    for text in case.get("report_absent", []):
        assert text not in run.err, run.err
    assert "\r" not in out.read_text(encoding="utf-8"), "a CR of the export's line ends leaked into the log"


def _check_messages(events: list[dict[str, Any]], messages: list[str]) -> None:
    kept = [_squash((e.get("src") or {}).get("text") or "") for e in events]
    missing = [m for m in messages if not any(_squash(m) in k for k in kept)]
    assert not missing, f"source messages not in the log: {missing}"


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c["exit"] == 2])
def test_hostile_export_fails_cleanly(tmp_path: Path, name: str) -> None:
    case = CASES[name]
    run, _ = _import(tmp_path, name, case, "m.jsonl")
    assert run.code == 2, (run.out, run.err)
    assert run.err.count("\n") == 1 and run.err.startswith("kifu: error: "), run.err
    assert case["error"] in run.err, run.err
    assert "Traceback" not in run.err
    assert _tree(tmp_path) == ["in", f"in/{name}", "out"], "a failed import left files behind"


@pytest.mark.parametrize(
    ("name", "wrong"),
    [
        ("Player.log", "discord"),
        ("ccf_log_ms.json", "discord"),
        ("discord_export.json", "ccfolia"),
        ("udon_chat.xml", "ccfolia"),
        ("ccf_classic_gg.html", "cockatrice"),
        ("ccf_classic_gg.html", "udonarium"),
        ("ルームデータ_2025-03-01_2011.zip", "arena"),
    ],
)
def test_a_wrong_from_is_refused_not_read_as_chatter(tmp_path: Path, name: str, wrong: str) -> None:
    run, _ = _import(tmp_path, name, {"args": ["--from", wrong]}, "m.jsonl")
    assert run.code == 2 and run.err.count("\n") == 1, run.err
    assert f"not {wrong}: pass --from" in run.err
    assert _tree(tmp_path) == ["in", f"in/{name}", "out"]


def test_an_output_in_a_missing_folder_fails_cleanly(tmp_path: Path) -> None:
    run = run_cli("import", HERE / "ccf_classic_gg.html", "-o", tmp_path / "no" / "m.jsonl")
    assert run.code == 2 and run.err.count("\n") == 1 and "m.jsonl" in run.err
    assert list(tmp_path.iterdir()) == []


def test_a_pretty_printed_arena_payload_with_braces_in_strings(tmp_path: Path) -> None:
    # Multi-line payloads are gathered until their braces balance (strings and escapes skipped), then decoded once.
    flip = {
        "id": 9,
        "affectorId": 1,
        "type": ["AnnotationType_CoinFlip"],
        "details": [{"key": 'odd "}{" key\\', "valueInt32": [2]}],
    }
    gre = {
        "greToClientEvent": {
            "greToClientMessages": [
                {
                    "type": "GREMessageType_GameStateMessage",
                    "gameStateMessage": {"gameStateId": 5, "annotations": [flip]},
                }
            ]
        }
    }
    src = tmp_path / "Player.log"
    src.write_text(
        "[UnityCrossThreadLogger]greToClientEvent\n" + json.dumps(gre, indent=2) + " trailing\n", encoding="utf-8"
    )
    run = run_cli("import", src, "-o", tmp_path / "m.jsonl", "--game", "mtg")
    assert run.code == 0, run.err
    coins = [e for e in _events(tmp_path / "m.jsonl") if e["type"] == "random"]
    assert [(c["kind"], c["by"], json.loads(c["src"]["text"])) for c in coins] == [("coin", "p1", flip)]
