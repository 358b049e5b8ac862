"""kifu.events.rng_store: secrets wait in one private, append-only file until their reveal (issue 18)."""

from __future__ import annotations

import os
import stat
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from kifu.events import rng, rng_store

NOW = datetime(2026, 11, 1, 10, 0, 5, 123456, tzinfo=timezone(timedelta(hours=9)))


@pytest.fixture
def store(tmp_path) -> Path:
    return tmp_path / "kifu" / "secrets.jsonl"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_store_is_created_private(store):
    c = rng_store.new_commitment(store, now=NOW)
    assert _mode(store) == 0o600
    assert _mode(store.parent) == 0o700
    [entry] = rng_store.stored(store)
    assert entry.id == c.id and entry.created == "2026-11-01T01:00:05Z"
    assert rng.commit(bytes.fromhex(entry.secret)) == c


def test_a_secret_comes_back_by_its_id_and_reveals(store):
    made = [rng_store.new_commitment(store) for _ in range(3)]
    assert len({c.id for c in made}) == 3
    for c in made:
        secret = rng_store.secret_for(c.id, store)
        assert rng.commit(secret) == c
        nonce = rng.new_nonce(c.id)
        reveal = rng_store.reveal_for(nonce, store)
        assert rng.settle(c, nonce, reveal) == reveal


def test_appends_never_change_earlier_lines(store):
    rng_store.new_commitment(store)
    before = store.read_bytes()
    rng_store.new_commitment(store)
    after = store.read_bytes()
    assert after.startswith(before) and after.count(b"\n") == 2


def test_the_secret_is_written_to_the_store_only(store, tmp_path):
    c = rng_store.new_commitment(store)
    secret = rng_store.secret_for(c.id, store).hex()
    assert secret not in c.format()
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert files == [store]


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660, 0o606])
def test_a_store_others_may_read_or_write_is_refused(store, mode):
    rng_store.new_commitment(store)
    os.chmod(store, mode)
    for use in (lambda: rng_store.stored(store), lambda: rng_store.new_commitment(store)):
        with pytest.raises(rng.RngError) as err:
            use()
        assert err.value.where == str(store)
        assert f"mode {mode:o}" in str(err.value) and "chmod 600" in str(err.value)
    assert store.read_bytes().count(b"\n") == 1  # nothing was appended


def test_a_symbolic_link_is_refused(store, tmp_path):
    target = tmp_path / "elsewhere.jsonl"
    target.touch(mode=0o600)
    store.parent.mkdir()
    store.symlink_to(target)
    with pytest.raises(rng.RngError, match="symbolic link"):
        rng_store.new_commitment(store)
    assert target.read_bytes() == b""


def test_a_directory_is_refused(store):
    store.mkdir(parents=True, mode=0o700)
    with pytest.raises(rng.RngError):
        rng_store.stored(store)


def test_no_store_yet_holds_no_secret(store):
    assert rng_store.stored(store) == []
    with pytest.raises(rng.RngError) as err:
        rng_store.secret_for("rq2ja63j", store)
    assert err.value.field == "id" and "another device" in str(err.value)
    assert not store.exists()


def test_an_unknown_id_is_named(store):
    rng_store.new_commitment(store)
    with pytest.raises(rng.RngError, match="no secret for commitment rq2ja63j"):
        rng_store.secret_for("rq2ja63j", store)


def test_a_torn_last_line_is_skipped_and_then_cut(store):
    c = rng_store.new_commitment(store)
    with open(store, "ab") as f:
        f.write(b'{"id":"abcdefgh","secr')
    assert [e.id for e in rng_store.stored(store)] == [c.id]
    d = rng_store.new_commitment(store)
    assert [e.id for e in rng_store.stored(store)] == [c.id, d.id]
    assert b"abcdefgh" not in store.read_bytes() and store.read_bytes().count(b"\n") == 2


def test_a_damaged_line_is_reported_by_file_line_and_field_and_skipped(store):
    c = rng_store.new_commitment(store)
    with open(store, "ab") as f:
        f.write(b'{"id":"rq2ja63j","secret":"' + b"00" * 32 + b'","created":"x"}\n')
        f.write(b"{oops\n")
    told: list[rng.RngError] = []
    assert [e.id for e in rng_store.stored(store, warn=told.append)] == [c.id]
    assert [(e.where, e.line, e.field) for e in told] == [(str(store), 2, "id"), (str(store), 3, None)]
    d = rng_store.new_commitment(store, warn=told.append)  # a new commitment is still made, after them
    assert [e.id for e in rng_store.stored(store)] == [c.id, d.id]
    assert rng.commit(rng_store.secret_for(d.id, store)) == d
    assert store.read_bytes().count(b"\n") == 4


def test_an_unknown_field_is_reported_and_skipped(store):
    store.parent.mkdir(mode=0o700)
    fd = os.open(store, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, b'{"id":"rq2ja63j","secret":"' + bytes(range(32)).hex().encode() + b'","created":"x","note":1}\n')
    os.close(fd)
    told: list[rng.RngError] = []
    assert rng_store.stored(store, warn=told.append) == []
    assert [(e.line, e.field) for e in told] == [(1, "note")]


def test_a_v2_secret_keeps_what_it_is_bound_to(store):
    binding = rng.Binding(match="r1-t3", purpose="first-player", roll="coin.d20")
    c = rng_store.new_commitment(store, binding)
    assert c.version == 2 and c.binding == binding
    (entry,) = rng_store.stored(store)
    assert (entry.version, entry.match, entry.purpose, entry.roll) == (2, "r1-t3", "first-player", "coin.d20")
    nonces = [rng.new_nonce(c.id, 2) for _ in range(2)]
    reveal = rng_store.reveal_for(nonces, store)
    assert reveal.version == 2 and rng.problem(c, nonces, reveal) is None
    v1 = rng_store.new_commitment(store)
    assert b'"version"' not in store.read_bytes().splitlines()[-1] and v1.version == 1


def test_where_the_store_is():
    home = Path.home()
    assert rng_store.default_path({"KIFU_HOME": "/srv/k"}) == Path("/srv/k/secrets.jsonl")
    assert rng_store.default_path({"KIFU_HOME": "/srv/k", "XDG_DATA_HOME": "/x"}) == Path("/srv/k/secrets.jsonl")
    assert rng_store.default_path({"XDG_DATA_HOME": "/x"}) == Path("/x/kifu/secrets.jsonl")
    assert rng_store.default_path({"XDG_DATA_HOME": "relative"}) == home / ".local/share/kifu/secrets.jsonl"
    assert rng_store.default_path({}) == home / ".local/share/kifu/secrets.jsonl"


def test_the_default_store_follows_kifu_home(tmp_path, monkeypatch):
    monkeypatch.setenv("KIFU_HOME", str(tmp_path / "home"))
    c = rng_store.new_commitment()
    assert (tmp_path / "home" / "secrets.jsonl").exists()
    assert rng.commit(rng_store.secret_for(c.id)) == c


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can give a file away")
def test_a_store_of_another_user_is_refused(store):
    rng_store.new_commitment(store)
    os.chown(store, 54321, -1)
    with pytest.raises(rng.RngError, match="belongs to another user"):
        rng_store.stored(store)
