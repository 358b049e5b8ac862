"""The verifiable-toss use cases as a Python API (``kifu.toss_commit``, ``toss_nonce``, ``toss_reveal``,
``toss_check``): the same protocol as ``kifu toss`` (docs/randomness.md), with typed values, and the command
line printing exactly what they return."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, run_cli

import kifu
from kifu.events import rng


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "home" / "secrets.jsonl"


def _toss(store: Path, roll: rng.Roll | None = None) -> tuple[str, str, kifu.app.tosses.Revealed]:
    c = kifu.toss_commit("R1-T3", "first-player", roll, store=store)
    answer = kifu.toss_nonce(c.format())
    assert answer.commitment is not None and answer.commitment.id == c.id
    done = kifu.toss_reveal([answer.nonce.format()], store=store)
    return c.format(), answer.nonce.format(), done


def test_a_whole_toss_through_the_api_verifies(store: Path) -> None:
    c, n, done = _toss(store, rng.Roll.of([2, 6], None))
    assert [s for s, _ in done.outcomes] == [2, 6] and done.weak == []
    assert done.line("en").startswith(done.reveal.format() + " → ")
    checked = kifu.toss_check([f"Aoi: {c}", f"Ren: @Aoi {n}", f"Aoi: {done.line('ja')}"], match="R1-T3")
    (toss,) = checked.tosses
    assert checked.ok and toss.verdict is kifu.app.tosses.Verdict.verified
    assert (toss.match, toss.purpose, toss.outcomes) == ("r1-t3", "first-player", done.outcomes)
    assert checked.players == ["Aoi", "Ren"] and checked.speakers_known and not checked.named


def test_a_changed_outcome_does_not_verify_and_says_where(store: Path) -> None:
    c, n, done = _toss(store)
    face = done.outcomes[0][1]
    lie = done.reveal.format() + (" → tails" if face == 1 else " → heads")
    (toss,) = kifu.toss_check(f"Aoi: {c}\nRen: {n}\nAoi: {lie}\n").tosses
    assert toss.verdict is kifu.app.tosses.Verdict.bad
    (problem,) = toss.problems
    assert problem.severity == "error" and "line 3" in problem.messages["en"] and "line 3" in problem.messages["ja"]


def test_an_unanswered_toss_is_open() -> None:
    c = rng.Commitment.parse(
        "kifu:c2:5521jj1r:r1-t3:first-player:coin:2944194838efdcffca2f304a347f0510278ab3152a0ed13f077890f1f6e603f0:e05196"
    )
    (toss,) = kifu.toss_check(f"ミナト: {c.format()}").tosses
    assert toss.verdict is kifu.app.tosses.Verdict.open and not toss.answered and not toss.revealed


def test_what_makes_no_toss_is_refused(store: Path) -> None:
    with pytest.raises(kifu.app.tosses.NoToss):
        kifu.toss_check("Aoi: good game")
    with pytest.raises(rng.RngError):
        kifu.toss_commit("R1-T3", None, store=store)
    c = kifu.toss_commit("R1-T3", "first-player", rng.Roll.of([6], None), store=store)
    n = kifu.toss_nonce(c.format()).nonce.format()
    with pytest.raises(kifu.app.tosses.RollBound):
        kifu.toss_reveal([n], roll=rng.Roll.of([2], None), store=store)


def test_the_command_line_prints_what_the_api_finds() -> None:
    export = FIXTURES / "imports" / "rng" / "ccfolia-v2-spectator-nonce.html"
    checked = kifu.toss_check(export, ["ミナト", "ユキ"], "ccfolia-v2-spectator-nonce")
    run = run_cli(
        "toss", "check", export, "-p", "ミナト", "-p", "ユキ", "-m", "ccfolia-v2-spectator-nonce", "-f", "json"
    )
    assert run.code == 0, run.err
    rows = json.loads(run.out)
    assert [r["id"] for r in rows] == [t.id for t in checked.tosses]
    assert [r["verdict"] for r in rows] == [t.verdict.value for t in checked.tosses] == ["verified", "verified"]
    spectator = [p for t in checked.tosses for p in t.problems]
    assert [p.code for p in spectator] == ["KIFU-RNG-003"] and "ハル" in spectator[0].messages["ja"]


def test_a_chat_copied_from_ccfolia_and_saved_as_text_keeps_its_speakers(store: Path, tmp_path: Path) -> None:
    """``[main] name : text`` lines saved to a file: the channel in brackets is no Discord time, so each line
    keeps its speaker; the spectator's nonce, posted first, is ignored and the toss verifies."""
    c = kifu.toss_commit("R2-T1", "first-player", store=store).format()
    n = kifu.toss_nonce(c).nonce.format()
    spoiler = kifu.toss_nonce(c).nonce.format()
    line = kifu.toss_reveal([n], store=store).line("ja")
    chat = tmp_path / "chat.txt"
    fullwidth = "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in n)
    chat.write_text(
        f"[main] ミナト : コインで先攻を決めます\n[main] ミナト : {c}\n[main] ハル : {spoiler}\n"
        f"[main] ユキ : {fullwidth}\n[main] ミナト : {line}\n",
        encoding="utf-8",
    )
    run = run_cli("toss", "check", chat, "-p", "ミナト", "-p", "ユキ", "-m", "R2-T1", "-f", "json")
    assert run.code == 0, run.out + run.err
    (row,) = json.loads(run.out)
    assert row["verdict"] == "verified" and "ハル" in row["detail"] and "KIFU-RNG-003" in row["detail"]
