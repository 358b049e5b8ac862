"""Progress bars on long work (verify, audit, report, import, ingest) and `verify --format json`.

A bar is drawn on stderr only when stderr is a terminal and the work is large;
then the command must still print the same stdout and exit with the same code.
A fake terminal here is a StringIO whose isatty() says yes; the thresholds are
lowered with monkeypatch where a fixture is smaller than real long work, and
one log is built past the real threshold to check it as shipped.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from conftest import FIXTURES, Run, game_map, run_cli

from kifu import cli
from kifu.auditor import tally as rng_tally
from kifu.cli import progress
from kifu.events import logfile

TABLE = FIXTURES / "core" / "table.jsonl"
DISPUTE = FIXTURES / "gunandgun" / "dispute.jsonl"  # has error findings: audit and report exit 1
EXPORT = FIXTURES / "imports" / "games" / "gunandgun" / "卓A_コイントス版.html"
GG_MAP = game_map("gunandgun")
BAR = "━"  # rich draws its bar with this glyph


class Tty(io.StringIO):
    """A captured stream that claims to be a terminal."""

    def isatty(self) -> bool:
        return True


def run_tty(*args: object, stdout_tty: bool = False) -> tuple[Run, str]:
    """Run `kifu ARGS` in-process with stderr on a fake terminal; returns the run and, when
    stdout is a terminal too, both streams as one screen would show them."""
    screen = Tty()
    out = screen if stdout_tty else io.StringIO()
    with redirect_stdout(out), redirect_stderr(screen):
        try:
            code = cli.main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 0
    text = screen.getvalue()
    return Run(code, "" if stdout_tty else out.getvalue(), text), text


@pytest.fixture
def every_log_is_long(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the fixtures count as long work, so the bar shows for them."""
    monkeypatch.setattr(progress, "BIG_LOGS", 0)
    monkeypatch.setattr(progress, "BIG_SOURCE", 0)
    monkeypatch.setattr(progress, "MANY", 1)


@pytest.fixture(scope="module")
def big_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A log past the real threshold (4 MiB), written with the library so the chain is valid."""
    path = tmp_path_factory.mktemp("big") / "big.jsonl"
    logfile.create(path, {"game": "generic", "match": "big", "players": [{"id": "a", "name": "A"}]})
    note = {"type": "note", "by": "a", "text": "手札を引いた / drew a card " * 6}
    with logfile.Writer(path, durable=False) as w:
        while w.size < progress.BIG_LOGS + (256 << 10):
            w.append(note)
    return path


# --- no terminal, or small work: nothing on stderr ---------------------------------


@pytest.mark.usefixtures("every_log_is_long")
@pytest.mark.parametrize(
    "args",
    [("verify", TABLE, DISPUTE), ("audit", TABLE, DISPUTE), ("report", TABLE), ("verify", TABLE, "-f", "json")],
    ids=["verify", "audit", "report", "verify-json"],
)
def test_no_bar_when_stderr_is_not_a_terminal(args: tuple[object, ...]) -> None:
    run = run_cli(*args)
    assert run.code in (0, 1), run.err
    assert run.err == "" and BAR not in run.out


def test_no_bar_for_small_work_even_on_a_terminal() -> None:
    run, _ = run_tty("verify", TABLE, DISPUTE)
    assert run.code == 0 and run.err == ""
    with redirect_stderr(Tty()), progress.progress(10, "x", small=11) as bar:
        assert not bar.live


def test_no_bar_when_the_terminal_says_no(big_log: Path) -> None:
    run = run_cli("verify", big_log)
    assert run.code == 0 and run.err == "", run.err


# --- on a terminal: a bar, and the same stdout and exit code -----------------------


def test_a_big_log_shows_a_bar_at_the_real_threshold(big_log: Path) -> None:
    plain = run_cli("verify", big_log, "--lang", "en")
    run, _ = run_tty("verify", big_log, "--lang", "en")
    assert run.code == plain.code == 0
    assert run.out == plain.out and "ok —" in run.out
    assert BAR in run.err and "verifying" in run.err and "100%" in run.err


@pytest.mark.usefixtures("every_log_is_long")
@pytest.mark.parametrize(
    "args,label,code",
    [
        (("verify", TABLE, DISPUTE, "--lang", "en"), "verifying", 0),
        (("verify", TABLE, DISPUTE, "--lang", "ja"), "検証", 0),
        (("audit", TABLE, DISPUTE, "--lang", "en"), "auditing", 1),
        (("audit", DISPUTE, "-f", "json", "--lang", "ja"), "監査", 1),
        (("report", DISPUTE, "--lang", "en"), "writing the page", 1),
        (("report", DISPUTE, "--lang", "ja"), "ページを作成", 1),
    ],
    ids=lambda v: " ".join(map(str, v)) if isinstance(v, tuple) else None,
)
def test_a_bar_on_a_terminal_leaves_stdout_and_exit_code_alone(args: tuple[object, ...], label: str, code: int) -> None:
    plain = run_cli(*args)
    run, _ = run_tty(*args)
    assert plain.code == run.code == code, run.err
    assert run.out == plain.out and run.out
    assert BAR in run.err and label in run.err
    assert plain.err == ""


@pytest.mark.usefixtures("every_log_is_long")
def test_a_broken_log_among_many_is_reported_above_the_bar(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    lines = TABLE.read_bytes().splitlines(keepends=True)
    broken.write_bytes(b"".join(lines[:3] + lines[4:]))  # seq 4 deleted
    plain = run_cli("audit", TABLE, broken, DISPUTE, "--lang", "en")
    run, _ = run_tty("audit", TABLE, broken, DISPUTE, "--lang", "en")
    assert plain.code == run.code == 2
    assert run.out == plain.out
    assert plain.err.strip() in run.err and BAR in run.err


@pytest.mark.usefixtures("every_log_is_long")
def test_stdout_on_the_same_terminal_waits_for_the_bar() -> None:
    """Both streams on one screen: the lines come after the bar's last frame, whole."""
    plain = run_cli("verify", TABLE, DISPUTE, "--lang", "en")
    run, screen = run_tty("verify", TABLE, DISPUTE, "--lang", "en", stdout_tty=True)
    assert run.code == 0
    assert screen.rfind(BAR) < screen.index(plain.out.splitlines()[0])
    assert screen.endswith(plain.out)


@pytest.mark.usefixtures("every_log_is_long")
def test_text_verify_stops_at_a_broken_log_after_the_bar(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(TABLE.read_bytes().replace(b'"seq":3', b'"seq":9', 1))
    plain = run_cli("verify", TABLE, broken, DISPUTE, "--lang", "en")
    run, _ = run_tty("verify", TABLE, broken, DISPUTE, "--lang", "en")
    assert plain.code == run.code == 2
    assert run.out == plain.out and run.out.count("ok —") == 1
    assert run.err.endswith(plain.err) and "seq" in plain.err


@pytest.mark.usefixtures("every_log_is_long")
@pytest.mark.parametrize("lang,label", [("en", "writing events"), ("ja", "イベントを書き込み")])
def test_import_with_a_bar_writes_the_same_log(tmp_path: Path, lang: str, label: str) -> None:
    args = ("--game", "gunandgun", "--map", GG_MAP, "--lang", lang)
    plain = run_cli("import", EXPORT, "-o", tmp_path / "plain.jsonl", *args)
    run, _ = run_tty("import", EXPORT, "-o", tmp_path / "bar.jsonl", *args)
    assert plain.code == run.code == 0, run.err
    assert (tmp_path / "bar.jsonl").read_bytes() == (tmp_path / "plain.jsonl").read_bytes()
    assert run.out == plain.out
    assert BAR in run.err and label in run.err
    assert run.err.endswith(plain.err.replace("plain.jsonl", "bar.jsonl"))


@pytest.mark.usefixtures("every_log_is_long")
def test_import_with_a_bar_refuses_a_map_of_another_game(tmp_path: Path) -> None:
    mtg = tmp_path / "mtg.toml"
    mtg.write_text('game = "mtg"\n', encoding="utf-8")
    plain = run_cli("import", EXPORT, "-o", tmp_path / "a.jsonl", "--game", "gunandgun", "--map", mtg)
    run, _ = run_tty("import", EXPORT, "-o", tmp_path / "b.jsonl", "--game", "gunandgun", "--map", mtg)
    assert plain.code == run.code == 2
    assert "written for game 'mtg'" in plain.err and run.err.endswith(plain.err)
    assert not (tmp_path / "a.jsonl").exists() and not (tmp_path / "b.jsonl").exists()


@pytest.mark.usefixtures("every_log_is_long")
def test_ingest_shares_the_bar(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    run, _ = run_tty("ingest", TABLE, DISPUTE, "--db", db, "-j", "1", "--lang", "en")
    assert run.code == 0, run.err
    assert "ingested 2 new matches" in run.out
    assert BAR in run.err and "ingesting" in run.err and "2/2 logs" in run.err


def test_counted_list_reports_each_block_and_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "BLOCK", 4)
    ticks: list[int] = []
    items = progress._Counted(range(10), ticks.append)
    assert list(items) == list(range(10)) and items[3] == 3 and len(items) == 10
    assert ticks == [0, 4, 8, 10]


# --- verify -f json ----------------------------------------------------------------


def test_verify_json_is_one_object_per_log() -> None:
    run = run_cli("verify", TABLE, DISPUTE, "-f", "json")
    assert run.code == 0 and run.err == ""
    rows = json.loads(run.out)
    assert [r["path"] for r in rows] == [str(TABLE), str(DISPUTE)]
    for row, path in zip(rows, (TABLE, DISPUTE), strict=True):
        head = logfile.verify(path)
        tally = rng_tally.tally(logfile.load(path).events)
        assert row == {
            "path": str(path),
            "seq": head.seq,
            "head": head.hash,
            "ok": True,
            "error": None,
            "random": tally.outcomes,
            "verifiable": tally.verifiable,
            "voided": tally.voided,
            "voids": [],
        }


@pytest.mark.parametrize("lang,words", [("en", ("expected seq 4",)), ("ja", ("seq 4",))])
def test_verify_json_names_each_broken_log_and_goes_on(tmp_path: Path, lang: str, words: tuple[str, ...]) -> None:
    lines = TABLE.read_bytes().splitlines(keepends=True)
    gap = tmp_path / "gap.jsonl"
    gap.write_bytes(b"".join(lines[:3] + lines[4:]))
    missing = tmp_path / "missing.jsonl"
    run = run_cli("verify", gap, TABLE, missing, "-f", "json", "--lang", lang)
    assert run.code == 2
    rows = {r["path"]: r for r in json.loads(run.out)}
    assert rows[str(TABLE)]["ok"] is True and rows[str(TABLE)]["seq"] == 7
    for path in (gap, missing):
        row = rows[str(path)]
        assert row["ok"] is False and row["seq"] is None and row["head"] is None
        assert row["error"].startswith(str(path))
        assert f"kifu: error: {row['error']}" in run.err.splitlines()
    assert all(w in rows[str(gap)]["error"] for w in words)


def test_verify_json_checks_the_expected_head() -> None:
    head = logfile.verify(TABLE)
    good = json.loads(run_cli("verify", TABLE, "-f", "json", "--expect-head", head.hash[:12]).out)
    assert good[0]["ok"] is True
    run = run_cli("verify", TABLE, "-f", "json", "--expect-head", "0" * 12, "--lang", "en")
    assert run.code == 2 and "not the expected" in json.loads(run.out)[0]["error"]


@pytest.mark.usefixtures("every_log_is_long")
def test_verify_with_a_bar_checks_the_expected_head_the_same_way() -> None:
    head = logfile.verify(TABLE)
    for slip, code in ((head.hash[:12], 0), ("0" * 12, 2), (head.hash[:6], 2), ("xyz", 2)):
        plain = run_cli("verify", TABLE, "--expect-head", slip, "--lang", "en")
        run, _ = run_tty("verify", TABLE, "--expect-head", slip, "--lang", "en")
        assert plain.code == run.code == code, (slip, run.err)
        assert run.out == plain.out and run.err.endswith(plain.err)
