"""`kifu toss` and `kifu append --toss`: the lines players post, checked as docs/randomness.md says (issues 18, 25).

Two commands a party: the roller runs ``commit`` and ``reveal``, the opponent
``nonce`` and ``check``; three chat posts in all. Each command's first line is the
line to post, whole.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, run_cli

from kifu.auditor import registry
from kifu.events import logfile, rng


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "home" / "secrets.jsonl"


def _toss(store: Path, *roll: str, lang: str = "en", until: str | None = None) -> tuple[str, str, list[str]]:
    """The roller's commit, the opponent's nonce, and `kifu toss reveal`'s output lines (v2)."""
    args = [a for r in roll for a in ("--roll", r)] + (["--until", until] if until else [])
    commit = run_cli("toss", "commit", "-m", "R1-T3", "--for", "first-player", *args, "--store", store, "--lang", lang)
    assert commit.code == 0, commit.err
    c = commit.out.splitlines()[0]
    nonce = run_cli("toss", "nonce", c)
    assert nonce.code == 0, nonce.err
    n = nonce.out.splitlines()[0]
    reveal = run_cli("toss", "reveal", n, "--store", store, "--lang", lang)
    assert reveal.code == 0, reveal.err
    return c, n, reveal.out.splitlines()


def test_the_three_lines_are_tokens_and_the_reveal_posts_the_bound_roll(store: Path) -> None:
    c, n, lines = _toss(store, "coin", "2d6")
    commitment, nonce = rng.Commitment.parse(c), rng.Nonce.parse(n)
    assert commitment.version == 2 and commitment.binding == rng.Binding(
        match="r1-t3", purpose="first-player", roll="coin.2d6"
    )
    assert nonce.id == commitment.id and len(nonce.text) == rng.GENERATED_NONCE_LENGTH
    (found,) = rng.read_chat(lines[0])
    reveal = found.token
    assert rng.problem(commitment, [nonce], reveal) is None
    assert list(found.claims) == list(zip([2, 6, 6], reveal.outcomes([2, 6, 6])))
    assert len(lines) == 4 and lines[1].startswith("outcome 0 (coin): ")


def test_commit_says_public_id_never_secret(store: Path) -> None:
    for lang, word, never in (("en", "public id", "secret "), ("ja", "公開 id", "秘密 ")):
        run = run_cli("toss", "commit", "-m", "m1", "--for", "first-player", "--store", store, "--lang", lang)
        assert run.code == 0, run.err
        c = rng.Commitment.parse(run.out.splitlines()[0])
        meaning = run.out.splitlines()[1]
        assert f"{word} {c.id}" in meaning and f"{never}{c.id}" not in meaning


def test_nonce_shows_what_the_toss_is_for(store: Path) -> None:
    c = run_cli("toss", "commit", "-m", "R1-T3", "--for", "act-a3", "-r", "coin", "--until", "2", "--store", store)
    run = run_cli("toss", "nonce", c.out.splitlines()[0])
    assert "coin-until-2 for act-a3 in match r1-t3" in run.out.splitlines()[1]


def test_a_commitment_needs_its_match_and_purpose(store: Path) -> None:
    run = run_cli("toss", "commit", "--store", store)
    assert run.code == 2 and "--match" in run.err and len(run.err.strip().splitlines()) == 1


def test_reveal_until_stops_at_the_first_face_asked_for(store: Path) -> None:
    c, n, lines = _toss(store, "coin", until="2")
    out = run_cli("toss", "reveal", n, "--store", store, "-f", "json")
    faces = [o["face"] for o in json.loads(out.out)["outcomes"]]
    assert faces[-1] == 2 and 2 not in faces[:-1]
    assert lines[0].count("tails") == 1


def test_japanese_coins_read_back_as_the_same_faces(store: Path) -> None:
    _, _, lines = _toss(store, "3coins", lang="ja")
    assert "→ " in lines[0] and set(lines[0].split("→ ")[1].split()) <= {"表", "裏"}
    assert lines[1].startswith("結果 0 (コイン): ")


def test_v1_still_works_for_an_opponent_on_an_older_kifu(store: Path) -> None:
    commit = run_cli("toss", "commit", "--v1", "--store", store).out.splitlines()[0]
    assert commit.startswith("kifu:c1:")
    c = rng.Commitment.parse(commit)
    reveal = run_cli("toss", "reveal", c.id, "-n", "neko1234", "--roll", "coin", "--until", "2", "--store", store)
    assert reveal.code == 0, reveal.err
    r = rng.Reveal.parse(reveal.out.splitlines()[0])
    assert r.version == 1 and rng.problem(c, rng.Nonce(id=c.id, text="neko1234"), r) is None


def test_check_verifies_a_pasted_chat_and_names_a_changed_outcome(store: Path) -> None:
    c, n, lines = _toss(store, "d20")
    chat = f"Aoi: {c}\nRen: @Aoi {n}\nAoi: {lines[0]}\n"
    good = run_cli("toss", "check", "-", "-f", "json", "--match", "R1-T3", stdin=chat)
    assert good.code == 0, good.err
    (row,) = json.loads(good.out)
    assert row["verdict"] == "verified" and row["purpose"] == "first-player"
    face = int(lines[0].rsplit("=", 1)[1])
    assert row["outcomes"] == f"d20={face}"
    changed = chat.replace(f"d20={face}", f"d20={face % 20 + 1}")
    bad = run_cli("toss", "check", "-", "-f", "json", stdin=changed)
    assert bad.code == 1
    assert "the reveal gives" in json.loads(bad.out)[0]["detail"]
    assert run_cli("toss", "check", "no tokens here").code == 2


def test_check_shows_the_outcome_of_a_reveal_that_posts_none(store: Path) -> None:
    c, n, lines = _toss(store, "coin")
    token = lines[0].split(" → ")[0]
    run = run_cli("toss", "check", "-", "-f", "json", stdin=f"Aoi: {c}\nRen: {n}\nAoi: {token}\n")
    assert run.code == 0, run.err
    assert json.loads(run.out)[0]["outcomes"] == lines[0].split(" → ")[1]


def test_check_ignores_a_spectators_nonce_when_the_players_are_named(store: Path) -> None:
    c, n, lines = _toss(store, "coin")
    spoiler = rng.Nonce(id=rng.Commitment.parse(c).id, text="abcdabcdabcdabcdabcd", version=2).format()
    chat = f"Aoi: {c}\nKai: {spoiler}\nRen: {n}\nAoi: {lines[0]}\n"
    named = run_cli("toss", "check", "-", "-p", "Aoi", "-p", "Ren", "-f", "json", stdin=chat)
    assert named.code == 0, named.out
    assert "KIFU-RNG-003" in json.loads(named.out)[0]["detail"]
    every = run_cli("toss", "check", "-", "-f", "json", stdin=chat)
    assert every.code == 1 and "--player" in every.err  # Kai taken for a player: the note says what to do


def test_check_refuses_a_toss_the_roller_answered_themself(store: Path) -> None:
    c, n, lines = _toss(store, "coin")
    chat = f"Aoi: {c}\nAoi: {n}\nAoi: {lines[0]}\nRen: ok\n"
    run = run_cli("toss", "check", "-", "-f", "json", stdin=chat)
    assert run.code == 1
    (row,) = json.loads(run.out)
    assert row["verdict"] == "DOES NOT VERIFY" and "KIFU-RNG-007" in row["detail"]


def test_check_finds_nonce_reuse_across_a_chat(store: Path) -> None:
    c1, n1, l1 = _toss(store, "coin")
    c2 = run_cli("toss", "commit", "-m", "R1-T3", "--for", "act-a3", "--store", store).out.splitlines()[0]
    again = rng.Nonce(id=rng.Commitment.parse(c2).id, text=rng.Nonce.parse(n1).text, version=2).format()
    r2 = run_cli("toss", "reveal", again, "--store", store).out.splitlines()[0]
    chat = f"Aoi: {c1}\nRen: {n1}\nAoi: {l1[0]}\nAoi: {c2}\nRen: {again}\nAoi: {r2}\n"
    run = run_cli("toss", "check", "-", "-f", "json", stdin=chat)
    assert run.code == 1
    assert "KIFU-RNG-004" in json.loads(run.out)[1]["detail"]


def test_check_reads_a_chat_export_with_its_speakers() -> None:
    export = FIXTURES / "imports" / "rng" / "ccfolia-v2-spectator-nonce.html"
    run = run_cli(
        "toss", "check", export, "-p", "ミナト", "-p", "ユキ", "--match", "ccfolia-v2-spectator-nonce", "-f", "json"
    )
    assert run.code == 0, run.out + run.err
    assert [r["verdict"] for r in json.loads(run.out)] == ["verified", "verified"]


def test_check_with_bare_token_lines_assumes_the_roles(store: Path) -> None:
    c, n, lines = _toss(store, "coin")
    run = run_cli("toss", "check", c, n, lines[0])
    assert run.code == 0 and "not known" in run.err


def test_reveal_needs_the_secret_of_this_store(store: Path, tmp_path: Path) -> None:
    c = run_cli("toss", "commit", "-m", "m", "--for", "x", "--store", store).out.splitlines()[0]
    n = run_cli("toss", "nonce", c).out.splitlines()[0]
    other = tmp_path / "elsewhere" / "secrets.jsonl"
    run = run_cli("toss", "reveal", n, "--store", other)
    assert run.code == 2 and run.err.startswith("kifu: error: ") and len(run.err.splitlines()) == 1


def test_a_damaged_store_line_is_named_and_skipped(store: Path) -> None:
    first = run_cli("toss", "commit", "-m", "m", "--for", "x", "--store", store).out.splitlines()[0]
    with open(store, "ab") as f:
        f.write(b"{oops\n")
    run = run_cli("toss", "commit", "-m", "m", "--for", "y", "--store", store)
    assert run.code == 0, run.err
    assert f"kifu: warning: {store}:2" in run.err
    n = run_cli("toss", "nonce", first).out.splitlines()[0]
    reveal = run_cli("toss", "reveal", n, "--store", store)
    assert reveal.code == 0 and f"{store}:2" in reveal.err


@pytest.mark.parametrize("args", [("--roll", "d1"), ("--roll", "three"), ("--until", "2")])
def test_a_bad_roll_is_one_line_and_exit_2(store: Path, args: tuple[str, ...]) -> None:
    run = run_cli("toss", "commit", "-m", "m", "--for", "x", "--store", store, *args)
    assert run.code == 2 and len(run.err.strip().splitlines()) == 1, run.err


def test_a_weak_typed_nonce_is_accepted_with_a_warning(store: Path) -> None:
    c = run_cli("toss", "commit", "-m", "m", "--for", "x", "--store", store).out.splitlines()[0]
    hand = f"kifu:n2:{rng.Commitment.parse(c).id}:neko1234"
    run = run_cli("toss", "reveal", hand, "--store", store)
    assert run.code == 0 and "guessable" in run.err and "KIFU-RNG-017" in run.err


def test_every_toss_command_has_an_example() -> None:
    for command in ("commit", "nonce", "reveal", "check"):
        run = run_cli("toss", command, "--help")
        assert run.code == 0 and "kifu toss " + command in run.out


def _match(tmp_path: Path, *more: str) -> Path:
    log = tmp_path / "m.jsonl"
    assert run_cli("new", log, "-g", "generic", "-m", "t1", "-p", "a=Aoi", "-p", "b=Ren", *more).code == 0
    return log


def test_append_toss_writes_a_clean_verifiable_toss(tmp_path: Path, store: Path) -> None:
    log = _match(tmp_path)
    args = ("--toss", "a", "--nonce", "Sakura2026Neko7Hana", "--roll", "coin", "--purpose", "first-player")
    run = run_cli("append", log, *args, "--store", store)
    assert run.code == 0, run.err
    events = logfile.load(log).events
    tags = [type(e).__struct_config__.tag for e in events]
    assert tags == ["match.start", "rng.commit", "rng.nonce", "rng.reveal", "random"]
    assert [e.by for e in events[1:]] == ["a", "b", "a", "a"]
    assert events[1].version == 2 and (events[1].match, events[1].purpose, events[1].roll) == (
        "t1",
        "first-player",
        "coin",
    )
    assert events[2].nonce == "sakura2026neko7hana" and events[4].purpose == "first-player"
    assert registry.audit(events) == []
    verify = run_cli("verify", log)
    assert "1 random outcomes, 1 of them verifiable" in verify.out


def test_append_toss_asks_the_opponent_after_showing_the_commitment(tmp_path: Path, store: Path) -> None:
    log = _match(tmp_path)
    run = run_cli("append", log, "--toss", "b", "--roll", "d6", "--store", store, stdin="\n")
    assert run.code == 0, run.err
    assert run.out.splitlines()[0].startswith("kifu:c2:") and "Aoi (a), type a nonce" in run.err
    events = logfile.load(log).events
    assert events[2].by == "a" and rng.is_strong(events[2].nonce)  # Enter drew one
    assert registry.audit(events) == []


def test_append_toss_given_up_at_the_prompt_leaves_nothing(tmp_path: Path, store: Path) -> None:
    log = _match(tmp_path)
    run = run_cli("append", log, "--toss", "a", "--store", store, stdin="")
    assert run.code == 1 and "nothing appended" in run.err
    assert logfile.verify(log).seq == 1


def test_append_toss_with_several_opponents_asks_each(tmp_path: Path, store: Path) -> None:
    log = tmp_path / "m3.jsonl"
    run_cli("new", log, "-g", "generic", "-m", "t3", "-p", "a=Aoi", "-p", "b=Ren", "-p", "c=Kai")
    run = run_cli("append", log, "--toss", "a", "--store", store, stdin="\n\n")
    assert run.code == 0, run.err
    events = logfile.load(log).events
    assert [e.by for e in events[2:4]] == ["b", "c"] and "." in events[4].nonce
    assert registry.audit(events) == []


@pytest.mark.parametrize("args", [("--toss", "c"), ("--toss", "a", "--opponent", "a"), ("--toss", "a", "type=note")])
def test_append_toss_refuses_what_makes_no_toss(tmp_path: Path, store: Path, args: tuple[str, ...]) -> None:
    log = _match(tmp_path)
    run = run_cli("append", log, *args, "--nonce", "neko1234", "--store", store)
    assert run.code == 2 and run.err.startswith("kifu: error: ")
    assert logfile.verify(log).seq == 1


def test_append_toss_given_up_with_ctrl_c_in_a_terminal_leaves_nothing(tmp_path: Path, store: Path) -> None:
    """In a real pseudo-terminal: the commitment is shown, the prompt waits, Ctrl-C; the log is as it was."""
    import shutil
    import sys

    pexpect = pytest.importorskip("pexpect")
    log = _match(tmp_path)
    kifu = shutil.which("kifu", path=str(Path(sys.executable).parent))
    assert kifu is not None
    child = pexpect.spawn(
        kifu,
        ["append", str(log), "--toss", "a", "--store", str(store)],
        encoding="utf-8",
        timeout=600,  # a hang guard: expect waits for the prompt itself
    )
    child.expect("kifu:c2:")
    child.expect("type a nonce")  # the opponent is asked only after the commitment is on screen
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1 and "nothing appended" in child.before
    assert logfile.verify(log).seq == 1
