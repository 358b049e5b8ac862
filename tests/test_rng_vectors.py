"""docs/randomness.md's test vectors: the page matches the code, and a second implementation agrees.

The second implementation below is written from the page alone, on purpose
without kifu and in another style (bit strings, ``hmac.new``, a plain loop): if
the page leaves out or misstates a byte, it disagrees with ``kifu.events.rng``
on the vectors or on the inputs hypothesis draws.
"""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import json
import re

from conftest import ROOT
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.events import rng

DOC = ROOT / "docs" / "randomness.md"


def _script():
    spec = importlib.util.spec_from_file_location("make_rng_vectors", ROOT / "docs" / "make_rng_vectors.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _published(version: str = "kifu-rng-v1") -> dict:
    text = DOC.read_text(encoding="utf-8")
    blocks = [json.loads(b) for b in re.findall(r"```json\n(\{\n  \"version\".*?)\n```", text, re.S)]
    found = [b for b in blocks if b["version"] == version]
    assert len(found) == 1, f"docs/randomness.md has no {version} vectors block"
    return found[0]


# --- the second implementation, from docs/randomness.md -----------------------------------------------

CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"


def page_commitment(secret_hex: str) -> str:
    return hashlib.sha256(b"kifu-rng-v1:commit:" + bytes.fromhex(secret_hex)).hexdigest()


def page_id(commitment_hex: str) -> str:
    bits = "".join(format(b, "08b") for b in bytes.fromhex(commitment_hex)[:5])
    return "".join(CROCKFORD[int(bits[i : i + 5], 2)] for i in range(0, 40, 5))


def page_check(text: str) -> str:
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:6]


def page_tokens(secret_hex: str, nonce: str) -> tuple[str, str, str]:
    commitment = page_commitment(secret_hex)
    id = page_id(commitment)
    commit = f"kifu:c1:{id}:{commitment}"
    reveal_check = page_check(f"kifu:r1:{id}:{secret_hex}:{nonce}")
    return (
        f"{commit}:{page_check(commit)}",
        f"kifu:n1:{id}:{nonce}",
        f"kifu:r1:{id}:{secret_hex}:{reveal_check}:{nonce}",
    )


def page_outcome(secret_hex: str, nonce: str, i: int, s: int) -> int:
    key = bytes.fromhex(secret_hex)
    id = page_id(page_commitment(secret_hex))
    limit = 2**32 - 2**32 % s
    k = 0
    while True:
        block = hmac.new(key, f"kifu-rng-v1:outcome:{id}:{nonce}:{i}:{k}".encode("ascii"), hashlib.sha256).digest()
        for j in range(8):
            w = int.from_bytes(block[4 * j : 4 * j + 4], "big")
            if w < limit:
                return w % s + 1
        k += 1


# --- the page against the code -------------------------------------------------------------------------


def test_the_page_holds_the_scripts_output():
    """Run ``python docs/make_rng_vectors.py --write`` after changing the construction or the cases."""
    script = _script()
    text = DOC.read_text(encoding="utf-8")
    assert script.section() in text


def test_the_published_vectors_reproduce_with_the_second_implementation():
    data = _published()
    assert data["version"] == rng.VERSION
    assert len(data["vectors"]) >= 3
    for v in data["vectors"]:
        secret, nonce = v["secret"], v["nonce"]
        assert page_commitment(secret) == v["commitment"]
        assert page_id(v["commitment"]) == v["id"]
        assert page_tokens(secret, nonce) == (v["commit_token"], v["nonce_token"], v["reveal_token"])
        key = bytes.fromhex(secret)
        assert hmac.new(key, v["block_message"].encode(), hashlib.sha256).hexdigest() == v["block"]
        for sides, faces in v["outcomes"].items():
            assert [page_outcome(secret, nonce, i, int(sides)) for i in range(len(faces))] == faces
        assert [page_outcome(secret, nonce, i, s) for i, s in enumerate(v["mixed_sides"])] == v["mixed"]


def test_the_published_vectors_cover_every_die_the_issue_names_and_a_rejection():
    data = _published()
    for v in data["vectors"]:
        assert set(v["outcomes"]) == {"2", "6", "10", "20", "100"}
        assert all(len(faces) == 20 for faces in v["outcomes"].values())
    # The worked example shows a rejected word: an implementation without rejection sampling fails the vectors.
    assert "rejected, w" in DOC.read_text(encoding="utf-8")


def test_the_published_chat_cases_read_as_published():
    for case in _published()["chat"]:
        assert [t.format() for t in rng.find_tokens(case["text"])] == case["tokens"], case["text"]


def test_the_worked_example_commands_are_the_vectors():
    """The shell lines of the worked example name vector 1's secret, commit body and first message."""
    v = _published()["vectors"][0]
    text = DOC.read_text(encoding="utf-8")
    assert f"S={v['secret']}" in text
    assert f"printf '%s' '{v['block_message']}' | openssl dgst -sha256 -mac HMAC -macopt hexkey:$S" in text
    assert f"printf '%s' '{v['commit_token'].rsplit(':', 1)[0]}' | sha256sum | cut -c1-6" in text


def test_the_example_chats_use_real_tokens():
    """Every token of the protocol section (its steps, CCFOLIA and Discord examples, several opponents) reads, and
    the faces the examples post are the ones their reveals give."""
    text = DOC.read_text(encoding="utf-8").split("## The protocol")[1].split("## At one table")[0]
    found = rng.find_tokens(text)
    # the steps (commit; commit given to nonce, nonce; nonce given to reveal, reveal), the CCFOLIA room (the nonce
    # also in full width), Discord (Ren quotes the reveal), several opponents (two nonce messages)
    assert len(found) == 1 + 2 + 2 + 4 + 4 + 2
    assert not [r for r in rng.scan(text) if isinstance(r, rng.Refused)]
    commits = {t.id: t for t in found if isinstance(t, rng.Commitment)}
    reveals = {t.id: t for t in found if isinstance(t, rng.Reveal)}
    for id, r in reveals.items():
        assert rng.verify_reveal(commits[id], r)
    assert reveals["5521jj1r"].outcome(0, 2) == rng.HEADS  # "→ heads", "→ 表"
    assert commits["f0q29dbk"].binding.roll == "2coins"
    assert reveals["f0q29dbk"].outcomes([2, 2]) == [rng.TAILS, rng.HEADS]  # "tails heads"
    posted = {f.token.id: f.claims for f in rng.read_chat(text) if isinstance(f.token, rng.Reveal)}
    assert posted == {"5521jj1r": ((2, rng.HEADS),), "f0q29dbk": ((2, rng.TAILS), (2, rng.HEADS))}


# --- the code against the second implementation, on inputs hypothesis draws ---------------------------

SECRETS = st.binary(min_size=32, max_size=32)
NONCES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=4, max_size=64)
SIDES = st.one_of(
    st.integers(2, 120),
    st.integers(2, 2**32),
    st.sampled_from([2**31 + 1, 2**31 + 3, 3_000_000_000, 2**32 - 1, 2**32]),
)


@given(secret=SECRETS, nonce=NONCES)
def test_tokens_agree_with_the_page(secret, nonce):
    c = rng.commit(secret)
    n = rng.Nonce(id=c.id, text=nonce)
    assert (c.format(), n.format(), rng.reveal(secret, n).format()) == page_tokens(secret.hex(), nonce)


@given(secret=SECRETS, nonce=NONCES, index=st.integers(0, 10**9), sides=SIDES)
def test_outcomes_agree_with_the_page(secret, nonce, index, sides):
    assert rng.outcome(secret, nonce, index, sides) == page_outcome(secret.hex(), nonce, index, sides)


@given(secret=SECRETS, nonce=NONCES, sides=st.lists(SIDES, min_size=1, max_size=12), start=st.integers(0, 50))
def test_mixed_streams_agree_with_the_page(secret, nonce, sides, start):
    expected = [page_outcome(secret.hex(), nonce, start + i, s) for i, s in enumerate(sides)]
    assert rng.outcomes(secret, nonce, sides, start) == expected


# --- version 2: a second implementation from the page alone -------------------------------------------------
#
# Written from the page's words ("The construction", "Tokens"): the match field, the roll grammar, the
# combined nonces and the v2 messages, without kifu.


def page2_fold(text: str) -> str:
    import unicodedata

    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in unicodedata.normalize("NFKC", text))


def page2_base32(data: bytes, n: int) -> str:
    bits = "".join(format(b, "08b") for b in data)
    return "".join(CROCKFORD[int(bits[5 * i : 5 * i + 5], 2)] for i in range(n))


def page2_match(match_id: str) -> str:
    folded = page2_fold(match_id)
    if re.fullmatch(r"[a-z0-9][a-z0-9.-]{0,39}", folded):
        return folded
    return "-" + page2_base32(hashlib.sha256(folded.encode("utf-8")).digest(), 16)


def page2_roll(roll: str) -> tuple[list[int], int | None] | None:
    """(the sides of a fixed roll's outcomes or of an until roll's die, the face it stops at), None if no roll."""
    if not 1 <= len(roll) <= 64:
        return None
    number = r"[1-9][0-9]*"
    die = rf"(?:coins?|d{number})"
    m = re.fullmatch(rf"({die})-until-({number})", roll)
    if m:
        sides = 2 if m.group(1).startswith("coin") else int(m.group(1)[1:])
        face = int(m.group(2))
        return ([sides], face) if 2 <= sides <= 2**32 and 1 <= face <= sides else None
    out: list[int] = []
    for group in roll.split("."):
        g = re.fullmatch(rf"({number})?({die})", group)
        if g is None:
            return None
        count = int(g.group(1) or 1)
        sides = 2 if g.group(2).startswith("coin") else int(g.group(2)[1:])
        if not (1 <= count <= 1000 and 2 <= sides <= 2**32):
            return None
        out += [sides] * count
    return (out, None) if len(out) <= 1000 else None


def page2_commitment(secret_hex: str, match: str, purpose: str, roll: str) -> str:
    prefix = f"kifu-rng-v2:commit:{match}:{purpose}:{roll}:".encode("ascii")
    return hashlib.sha256(prefix + bytes.fromhex(secret_hex)).hexdigest()


def page2_outcome(secret_hex: str, id: str, nonces: str, i: int, s: int) -> int:
    key = bytes.fromhex(secret_hex)
    limit = 2**32 - 2**32 % s
    k = 0
    while True:
        message = f"kifu-rng-v2:outcome:{id}:{nonces}:{i}:{s}:{k}".encode("ascii")
        block = hmac.new(key, message, hashlib.sha256).digest()
        for j in range(8):
            w = int.from_bytes(block[4 * j : 4 * j + 4], "big")
            if w < limit:
                return w % s + 1
        k += 1


def page2_draw(secret_hex: str, id: str, nonces: str, roll: str) -> list[list[int]]:
    parsed = page2_roll(roll)
    assert parsed is not None
    sides, until = parsed
    if until is None:
        return [[s, page2_outcome(secret_hex, id, nonces, i, s)] for i, s in enumerate(sides)]
    out: list[list[int]] = []
    for i in range(1000):
        out.append([sides[0], page2_outcome(secret_hex, id, nonces, i, sides[0])])
        if out[-1][1] == until:
            break
    return out


def page2_tokens(secret_hex: str, match_id: str, purpose: str, roll: str, posted: list[str]):
    match = page2_match(match_id)
    commitment = page2_commitment(secret_hex, match, purpose, roll)
    id = page_id(commitment)
    body = f"kifu:c2:{id}:{match}:{purpose}:{roll}:{commitment}"
    nonces = ".".join(sorted(posted))
    reveal_check = page_check(f"kifu:r2:{id}:{secret_hex}:{nonces}")
    return (
        f"{body}:{page_check(body)}",
        [f"kifu:n2:{id}:{n}" for n in posted],
        f"kifu:r2:{id}:{secret_hex}:{reveal_check}:{nonces}",
    )


def test_the_v2_vectors_reproduce_with_the_second_implementation():
    data = _published("kifu-rng-v2")
    assert data["version"] == rng.VERSION2 and len(data["vectors"]) >= 3
    for v in data["vectors"]:
        secret = v["secret"]
        assert page2_match(v["match_id"]) == v["match"]
        commitment = page2_commitment(secret, v["match"], v["purpose"], v["roll"])
        assert commitment == v["commitment"] and page_id(commitment) == v["id"]
        posted = [t.rsplit(":", 1)[1] for t in v["nonce_tokens"]]
        commit, nonces, reveal = page2_tokens(secret, v["match_id"], v["purpose"], v["roll"], posted)
        assert (commit, nonces, reveal) == (v["commit_token"], v["nonce_tokens"], v["reveal_token"])
        assert ".".join(sorted(posted)) == v["nonces"]
        key = bytes.fromhex(secret)
        assert hmac.new(key, v["block_message"].encode(), hashlib.sha256).hexdigest() == v["block"]
        assert page2_draw(secret, v["id"], v["nonces"], v["roll"]) == v["outcomes"]
        for sides, faces in v["stream"].items():
            assert [page2_outcome(secret, v["id"], v["nonces"], i, int(sides)) for i in range(len(faces))] == faces
        mixed = [page2_outcome(secret, v["id"], v["nonces"], i, s) for i, s in enumerate(v["mixed_sides"])]
        assert mixed == v["mixed"]


def test_the_v2_match_fields_and_rolls_read_as_published():
    data = _published("kifu-rng-v2")
    for m in data["matches"]:
        assert page2_match(m["match_id"]) == m["field"] == rng.match_field(m["match_id"])
    for r in data["rolls"]:
        parsed = page2_roll(r["roll"])
        if r.get("valid", True):
            assert parsed == (r["sides"], r["until"]), r
        else:
            assert parsed is None, r
            with pytest.raises(rng.RngError):
                rng.Roll.parse(r["roll"])


def test_the_v2_chat_cases_read_as_published():
    for case in _published("kifu-rng-v2")["chat"]:
        found = rng.read_chat(case["text"])
        assert [f.token.format() for f in found if not isinstance(f.token, rng.Refused)] == case["tokens"]
        if "claims" in case:
            assert [list(c) for f in found for c in f.claims] == case["claims"], case["text"]


def test_the_v2_worked_example_commands_are_the_vectors():
    v = _published("kifu-rng-v2")["vectors"][0]
    text = DOC.read_text(encoding="utf-8")
    assert f"{{ printf '{v['commit_prefix']}'; printf '%s' $S | xxd -r -p; }} | sha256sum" in text
    assert f"printf '%s' '{v['block_message']}' | openssl dgst -sha256 -mac HMAC -macopt hexkey:$S" in text


MATCH_IDS = st.one_of(
    st.text(min_size=1, max_size=50), st.from_regex(r"[A-Za-z0-9][A-Za-z0-9.-]{0,45}", fullmatch=True)
)
PURPOSES = st.from_regex(r"[a-z0-9][a-z0-9.-]{0,39}", fullmatch=True)
ROLL_TEXTS = st.sampled_from(["coin", "3coins", "d6", "2d6", "coin.d20", "coin-until-2", "d6-until-6", "d3000000000"])


@settings(max_examples=60)
@given(
    secret=SECRETS,
    match_id=MATCH_IDS,
    purpose=PURPOSES,
    roll=ROLL_TEXTS,
    posted=st.lists(NONCES, min_size=1, max_size=4),
)
def test_v2_tokens_and_outcomes_agree_with_the_page(secret, match_id, purpose, roll, posted):
    binding = rng.Binding(match=rng.match_field(match_id), purpose=purpose, roll=roll)
    c = rng.commit(secret, binding)
    nonces = [rng.Nonce(id=c.id, text=t, version=2) for t in posted]
    r = rng.reveal(secret, nonces, 2)
    commit, tokens, reveal = page2_tokens(secret.hex(), match_id, purpose, roll, posted)
    assert (c.format(), [n.format() for n in nonces], r.format()) == (commit, tokens, reveal)
    drawn = [list(o) for o in binding.dice.draw(r.stream())]
    assert drawn == page2_draw(secret.hex(), c.id, r.nonce, roll)
