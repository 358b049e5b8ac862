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
from hypothesis import given
from hypothesis import strategies as st

from kifu.events import rng

DOC = ROOT / "docs" / "randomness.md"


def _script():
    spec = importlib.util.spec_from_file_location("make_rng_vectors", ROOT / "docs" / "make_rng_vectors.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _published() -> dict:
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"```json\n(\{\n  \"version\".*?)\n```", text, re.S)
    assert block, "docs/randomness.md has no vectors block"
    return json.loads(block.group(1))


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
    """Every token of the protocol section (its CCFOLIA and Discord examples) reads, and their faces are right."""
    text = DOC.read_text(encoding="utf-8").split("## The protocol")[1].split("## What it protects")[0]
    found = rng.find_tokens(text)
    # the steps, the CCFOLIA room (a nonce also in full width), Discord (Ren quotes the reveal)
    assert len(found) == 3 + 4 + 4
    reveals = {t.id: t for t in found if isinstance(t, rng.Reveal)}
    assert reveals["rq2ja63j"].outcome(0, 2) == rng.TAILS  # "→ 裏"
    assert reveals["dn4yqjwc"].outcomes([2, 2]) == [rng.TAILS, rng.TAILS]  # "tails, tails"
    assert not [r for r in rng.scan(text) if isinstance(r, rng.Refused)]
    posted = {f.token.id: f.claims for f in rng.read_chat(text) if isinstance(f.token, rng.Reveal)}
    assert posted == {"rq2ja63j": ((2, rng.TAILS),), "dn4yqjwc": ((2, rng.TAILS), (2, rng.TAILS))}


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
