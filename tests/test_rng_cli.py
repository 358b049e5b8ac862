"""`kifu toss` and `kifu append --toss`: the lines players post, checked as docs/randomness.md says (issue 18)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from kifu.auditor import registry
from kifu.events import logfile, rng


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "home" / "secrets.jsonl"


def _toss(store: Path, *roll: str, lang: str = "en") -> tuple[str, str, list[str]]:
    """A commit, a nonce and `kifu toss reveal`'s output lines."""
    commit = run_cli("toss", "commit", "--store", store, "--lang", lang)
    assert commit.code == 0, commit.err
    c = commit.out.splitlines()[0]
    nonce = run_cli("toss", "nonce", c)
    assert nonce.code == 0, nonce.err
    n = nonce.out.splitlines()[0]
    args = [a for r in roll for a in ("--roll", r)]
    reveal = run_cli("toss", "reveal", c, "--nonce", n, "--store", store, "--lang", lang, *args)
    assert reveal.code == 0, reveal.err
    return c, n, reveal.out.splitlines()


def test_the_three_lines_are_tokens_and_the_reveal_posts_its_outcomes(store: Path) -> None:
    c, n, lines = _toss(store, "coin", "2d6")
    commitment, nonce = rng.Commitment.parse(c), rng.Nonce.parse(n)
    assert nonce.id == commitment.id and len(nonce.text) == rng.GENERATED_NONCE_LENGTH
    (found,) = rng.read_chat(lines[0])
    reveal = found.token
    assert rng.problem(commitment, nonce, reveal) is None
    assert list(found.claims) == list(zip([2, 6, 6], reveal.outcomes([2, 6, 6])))
    assert len(lines) == 4 and lines[1].startswith("outcome 0 (coin): ")


def test_reveal_until_stops_at_the_first_face_asked_for(store: Path) -> None:
    commit = run_cli("toss", "commit", "--store", store).out.splitlines()[0]
    c = rng.Commitment.parse(commit)
    reveal = run_cli(
        "toss", "reveal", c.id, "-n", "neko1234", "--roll", "coin", "--until", "2", "--store", store, "-f", "json"
    )
    assert reveal.code == 0, reveal.err
    faces = [o["face"] for o in json.loads(reveal.out)["outcomes"]]
    assert faces[-1] == 2 and 2 not in faces[:-1]
    secret = bytes.fromhex(rng.Reveal.parse(json.loads(reveal.out)["token"]).secret)
    assert faces == rng.outcomes(secret, "neko1234", [2] * len(faces))


def test_japanese_coins_read_back_as_the_same_faces(store: Path) -> None:
    _, _, lines = _toss(store, "3coins", lang="ja")
    assert "→ " in lines[0] and set(lines[0].split("→ ")[1].split()) <= {"表", "裏"}
    assert lines[1].startswith("結果 0 (コイン): ")


def test_check_verifies_a_pasted_chat_and_names_a_changed_outcome(store: Path) -> None:
    c, n, lines = _toss(store, "d20")
    chat = f"Aoi: {c}\nRen: @Aoi {n}\nAoi: {lines[0]}\n"
    good = run_cli("toss", "check", "-", "-f", "json", stdin=chat)
    assert good.code == 0, good.err
    assert json.loads(good.out)[0]["verdict"] == "verified"
    face = int(lines[0].rsplit("=", 1)[1])
    changed = chat.replace(f"d20={face}", f"d20={face % 20 + 1}")
    bad = run_cli("toss", "check", "-", "-f", "json", stdin=changed)
    assert bad.code == 1
    assert "the reveal gives" in json.loads(bad.out)[0]["detail"]
    assert run_cli("toss", "check", "no tokens here").code == 2


def test_reveal_needs_the_secret_of_this_store(store: Path, tmp_path: Path) -> None:
    c = run_cli("toss", "commit", "--store", store).out.splitlines()[0]
    other = tmp_path / "elsewhere" / "secrets.jsonl"
    run = run_cli("toss", "reveal", c, "-n", "neko1234", "--store", other)
    assert run.code == 2 and run.err.startswith("kifu: error: ") and len(run.err.splitlines()) == 1


@pytest.mark.parametrize("args", [("--roll", "d1"), ("--roll", "three"), ("--until", "2")])
def test_a_bad_roll_is_one_line_and_exit_2(store: Path, args: tuple[str, ...]) -> None:
    c = run_cli("toss", "commit", "--store", store).out.splitlines()[0]
    run = run_cli("toss", "reveal", c, "-n", "neko1234", "--store", store, *args)
    assert run.code == 2 and len(run.err.strip().splitlines()) == 1, run.err


def test_every_toss_command_has_an_example() -> None:
    for command in ("commit", "nonce", "reveal", "check"):
        run = run_cli("toss", command, "--help")
        assert run.code == 0 and "kifu toss " + command in run.out


def _match(tmp_path: Path) -> Path:
    log = tmp_path / "m.jsonl"
    assert run_cli("new", log, "-g", "generic", "-m", "t1", "-p", "a=Aoi", "-p", "b=Ren").code == 0
    return log


def test_append_toss_writes_a_clean_verifiable_toss(tmp_path: Path, store: Path) -> None:
    log = _match(tmp_path)
    run = run_cli(
        "append",
        log,
        "--toss",
        "a",
        "--nonce",
        "Neko1234",
        "--roll",
        "coin",
        "--purpose",
        "first-player",
        "--store",
        store,
    )
    assert run.code == 0, run.err
    events = logfile.load(log).events
    assert [type(e).__struct_config__.tag for e in events] == [
        "match.start",
        "rng.commit",
        "rng.nonce",
        "rng.reveal",
        "random",
    ]
    assert [e.by for e in events[1:]] == ["a", "b", "a", "a"]
    assert events[2].nonce == "neko1234" and events[4].purpose == "first-player"
    assert registry.audit(events) == []
    verify = run_cli("verify", log)
    assert "1 random outcomes, 1 of them verifiable" in verify.out


def test_append_toss_asks_the_opponent_after_showing_the_commitment(tmp_path: Path, store: Path) -> None:
    log = _match(tmp_path)
    run = run_cli("append", log, "--toss", "b", "--roll", "d6", "--store", store, stdin="sakura2026\n")
    assert run.code == 0, run.err
    assert run.out.splitlines()[0].startswith("kifu:c1:") and "a, type a nonce" in run.err
    events = logfile.load(log).events
    assert events[2].by == "a" and events[2].nonce == "sakura2026"
    assert registry.audit(events) == []


@pytest.mark.parametrize("args", [("--toss", "c"), ("--toss", "a", "--opponent", "a"), ("--toss", "a", "type=note")])
def test_append_toss_refuses_what_makes_no_toss(tmp_path: Path, store: Path, args: tuple[str, ...]) -> None:
    log = _match(tmp_path)
    run = run_cli("append", log, *args, "--nonce", "neko1234", "--store", store)
    assert run.code == 2 and run.err.startswith("kifu: error: ")
    assert logfile.verify(log).seq == 1
