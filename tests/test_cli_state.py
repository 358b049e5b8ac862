"""`kifu state`: time travel, one part of the state (--path), and grep-able lines (--flat)."""

from __future__ import annotations

import json

from conftest import FIXTURES

DISPUTE = FIXTURES / "gunandgun" / "dispute.jsonl"


def test_state_at_a_seq_is_that_frame(kifu):
    r = kifu("state", DISPUTE, "--at", 20)
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["seq"] == 20 and doc["log"]["seq"] == 20


def test_path_selects_a_part_and_agrees_with_the_whole(kifu):
    whole = json.loads(kifu("state", DISPUTE, "--at", 20).out)
    part = kifu("state", DISPUTE, "--at", 20, "--path", "game.players.p1")
    assert part.code == 0, part.err
    assert json.loads(part.out) == whole["game"]["players"]["p1"]
    assert json.loads(kifu("state", DISPUTE, "--path", "log.players.1").out) == "p2"


def test_unknown_path_is_one_line_naming_what_is_there(kifu):
    r = kifu("state", DISPUTE, "--path", "game.players.p3")
    assert r.code == 2 and r.err.count("\n") == 1 and "p1, p2" in r.err


def test_flat_lines_hold_every_leaf(kifu):
    whole = json.loads(kifu("state", DISPUTE, "--at", 30).out)
    lines = kifu("state", DISPUTE, "--at", 30, "--flat").out.splitlines()
    flat = dict(line.split(" = ", 1) for line in lines)
    assert json.loads(flat["log.players.0"]) == whole["log"]["players"][0]
    assert json.loads(flat["seq"]) == 30
    for key, value in flat.items():  # every line walks back to its value in the JSON
        node = whole
        for part in key.split("."):
            node = node[int(part)] if isinstance(node, list) else node[part]
        assert json.loads(value) == node


def test_a_bad_table_catalogue_fails_verify_and_new(kifu, tmp_path):
    """A log's own catalogue is checked when the log is read, not only when it is audited."""
    cat = tmp_path / "cat.json"
    cat.write_text('{"triggers": [{"bad": 1}]}', encoding="utf-8")
    log = tmp_path / "m.jsonl"
    r = kifu("new", log, "-g", "worldtrigger", "-m", "x", "-p", "a=A", "-p", "b=B", "--catalogue", cat)
    assert r.code == 2 and "catalogue" in r.err and not log.exists()
    ok = tmp_path / "ok.jsonl"
    assert kifu("new", ok, "-g", "worldtrigger", "-m", "x", "-p", "a=A", "-p", "b=B").code == 0
    first = json.loads(ok.read_text(encoding="utf-8"))
    first["catalogue"] = {"triggers": [{"bad": 1}]}
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(first, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    for cmd in ("verify", "audit", "state"):
        r = kifu(cmd, bad)
        assert r.code == 2 and f"{bad}:1" in r.err and "catalogue" in r.err, (cmd, r.err)
