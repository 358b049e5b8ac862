"""kifu.events.rng: fair faces, tokens that survive chats, and the checks that tie a toss together (issue 18)."""

from __future__ import annotations

import ast
import collections
import random
import unicodedata
from collections.abc import Callable
from functools import partial

import msgspec
import pytest
from conftest import ROOT
from growth import growth
from hypothesis import given
from hypothesis import strategies as st
from test_core_purity import violations

from kifu.events import rng

SECRET = bytes(range(32))
COMMIT = rng.commit(SECRET)
NONCE = rng.Nonce(id=COMMIT.id, text="neko1234")
REVEAL = rng.reveal(SECRET, NONCE)

SECRETS = st.binary(min_size=32, max_size=32)
NONCES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=4, max_size=64)


# --- fairness -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("bits", range(1, 10))
def test_every_face_is_exactly_equally_likely_on_every_small_word_size(bits):
    """All 2**bits words, every die that fits: each face has the same count, and fewer than `sides` are rejected."""
    words = 1 << bits
    for sides in range(2, words + 1):
        counts = collections.Counter(rng.face(w, sides, bits) for w in range(words))
        rejected = counts.pop(None, 0)
        assert sorted(counts) == list(range(1, sides + 1))
        assert len(set(counts.values())) == 1, (bits, sides)
        assert rejected == words % sides < sides


@given(sides=st.one_of(st.integers(2, 10_000), st.integers(2, 2**32)))
def test_the_32_bit_limit_is_the_largest_whole_number_of_runs(sides):
    """The counting argument at full width: [0, limit) is limit/sides whole runs of 0 … sides-1, and it is maximal."""
    limit = rng.accept_limit(sides)
    assert limit % sides == 0
    assert 0 <= 2**32 - limit < sides
    assert rng.face(limit - 1, sides) == sides and rng.face(limit - sides, sides) == 1
    assert rng.face(limit, sides) is None if limit < 2**32 else True


def test_a_long_stream_looks_uniform():
    """A sanity check on top of the proof: 6,000 d6 from one reveal land near 1,000 each."""
    counts = collections.Counter(REVEAL.outcomes([6] * 6000))
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    assert all(880 < n < 1120 for n in counts.values()), counts


@given(secret=SECRETS, nonce=NONCES, index=st.integers(0, 10**12), sides=st.integers(2, 2**32))
def test_outcomes_are_in_range(secret, nonce, index, sides):
    assert 1 <= rng.outcome(secret, nonce, index, sides) <= sides


def test_outcomes_depend_on_their_own_index_and_sides_only():
    mixed = REVEAL.outcomes([2, 6, 20, 2**31 + 1, 100])
    assert mixed == [REVEAL.outcome(i, s) for i, s in enumerate([2, 6, 20, 2**31 + 1, 100])]
    assert REVEAL.outcomes([100], start=4) == mixed[4:]
    faces = REVEAL.faces(2)
    assert [next(faces) for _ in range(10)] == REVEAL.outcomes([2] * 10)


def test_the_nonce_and_the_secret_both_matter():
    other_nonce = rng.reveal(SECRET, rng.Nonce(id=COMMIT.id, text="neko1235"))
    other_secret = rng.reveal(bytes(32), rng.Nonce(id=rng.commit(bytes(32)).id, text="neko1234"))
    stream = REVEAL.outcomes([100] * 20)
    assert other_nonce.outcomes([100] * 20) != stream
    assert other_secret.outcomes([100] * 20) != stream


@pytest.mark.parametrize("sides", [1, 0, -6, 2**32 + 1, True, 6.0, "6"])
def test_a_die_with_impossible_sides_is_refused(sides):
    with pytest.raises(rng.RngError) as err:
        rng.outcome(SECRET, "neko1234", 0, sides)
    assert err.value.field == "sides"


@pytest.mark.parametrize("index", [-1, True, 1.0])
def test_an_impossible_index_is_refused(index):
    with pytest.raises(rng.RngError) as err:
        rng.outcome(SECRET, "neko1234", index, 6)
    assert err.value.field == "index"


@pytest.mark.parametrize("nonce", ["", "abc", "a" * 65, "Neko1234", "neko 1234", "ねこねこ"])
def test_a_nonce_outside_the_grammar_is_refused(nonce):
    with pytest.raises(rng.RngError) as err:
        rng.outcome(SECRET, nonce, 0, 6)
    assert err.value.field == "nonce"


def test_a_secret_is_32_bytes():
    assert len(rng.new_secret()) == 32 and rng.new_secret() != rng.new_secret()
    with pytest.raises(rng.RngError):
        rng.commit(bytes(31))
    with pytest.raises(rng.RngError):
        rng.parse_secret("00" * 31)


def test_a_coin_is_a_two_sided_die_heads_first():
    assert (rng.HEADS, rng.TAILS) == (1, 2)


# --- the messages -------------------------------------------------------------------------------------


def test_the_three_structs_reject_what_no_token_could_say():
    with pytest.raises(rng.RngError) as err:
        rng.Commitment(id="00000000", digest=COMMIT.digest)
    assert err.value.field == "id"
    with pytest.raises(rng.RngError):
        rng.Commitment(id=COMMIT.id, digest=COMMIT.digest.upper())
    with pytest.raises(rng.RngError):
        rng.Nonce(id="rq2ja63", text="neko1234")
    with pytest.raises(rng.RngError):
        rng.Nonce(id="rq2ja63i", text="neko1234")  # i is not in the id alphabet
    with pytest.raises(rng.RngError) as err:
        rng.Reveal(id="00000000", secret=SECRET.hex(), nonce="neko1234")
    assert err.value.field == "id"


def test_the_structs_round_trip_through_json():
    for token in (COMMIT, NONCE, REVEAL):
        raw = msgspec.json.encode(token)
        assert msgspec.json.decode(raw, type=type(token)) == token
    with pytest.raises(rng.RngError):
        msgspec.json.decode(msgspec.json.encode({"id": "00000000", "digest": COMMIT.digest}), type=rng.Commitment)


def test_a_new_nonce_is_20_fresh_characters():
    a, b = rng.new_nonce(COMMIT.id), rng.new_nonce(COMMIT.id)
    assert a != b and len(a.text) == rng.GENERATED_NONCE_LENGTH
    assert rng.find_tokens(a.format()) == [a]


def test_a_reveal_knows_its_commitment():
    assert REVEAL.commitment() == COMMIT
    assert rng.verify_reveal(COMMIT, REVEAL)
    other = rng.commit(bytes(32))
    assert not rng.verify_reveal(other, REVEAL)


def test_settle_returns_the_checked_reveal():
    assert rng.problem(COMMIT, NONCE, REVEAL) is None
    assert rng.settle(COMMIT, NONCE, REVEAL).outcomes([2, 2, 2]) == [2, 1, 1]


def _problem(commit, nonce, reveal):
    found = rng.problem(commit, nonce, reveal)
    assert found is not None
    with pytest.raises(rng.RngError) as err:
        rng.settle(commit, nonce, reveal)
    assert err.value.field == found.code and err.value.message == found.message
    return found


def test_each_way_a_toss_can_fail_to_verify_has_its_own_reason():
    other_secret = bytes(32)
    other = rng.commit(other_secret)
    assert _problem(COMMIT, rng.Nonce(id=other.id, text="neko1234"), REVEAL).code == "nonce-names-another-commitment"
    other_reveal = rng.reveal(other_secret, rng.Nonce(id=other.id, text="neko1234"))
    assert _problem(COMMIT, NONCE, other_reveal).code == "reveal-names-another-commitment"
    moved = rng.reveal(SECRET, rng.Nonce(id=COMMIT.id, text="neko9999"))
    found = _problem(COMMIT, NONCE, moved)
    assert (
        found.code == "reveal-uses-another-nonce"
        and "neko9999" in str(found.message)
        and "neko1234" in str(found.message)
    )


def test_a_secret_that_does_not_open_the_commitment_is_named():
    # Only a 40-bit id collision gets this far; forge one by building the struct around the checks.
    forged = msgspec.structs.replace(COMMIT)
    msgspec.structs.force_setattr(forged, "digest", rng.commit(bytes(32)).digest)
    found = _problem(forged, NONCE, REVEAL)
    assert found.code == "secret-does-not-match-commitment"
    assert COMMIT.digest in str(found.message)


def test_normalising_what_people_type():
    assert rng.normalise_nonce(" ＮＥＫＯ１２３４ ") == "neko1234"
    assert rng.normalise_nonce("Neko\u200b1234") == "neko1234"
    for bad in ("neko 1234", "ねこねこ", "abc", ""):
        with pytest.raises(rng.RngError):
            rng.normalise_nonce(bad)
    assert rng.normalise_id(" RQ2JA63J ") == "rq2ja63j"
    assert rng.normalise_id("dn4yqjwc".upper()) == "dn4yqjwc"
    assert rng.normalise_id("nb7744oI") == "nb774401"  # O and I read as 0 and 1 (Crockford)
    with pytest.raises(rng.RngError):
        rng.normalise_id("rq2ja63")


# --- tokens in chats -------------------------------------------------------------------------------------


def test_parse_takes_the_one_token_of_its_kind():
    message = f"@ユキ {COMMIT.format()} (again: {COMMIT.format()}) and {NONCE.format()}"
    assert rng.Commitment.parse(message) == COMMIT
    assert rng.Nonce.parse(message) == NONCE
    with pytest.raises(rng.RngError, match="no kifu:r1 or kifu:r2 token"):
        rng.Reveal.parse(message)
    two = f"{COMMIT.format()} {rng.commit(bytes(32)).format()}"
    with pytest.raises(rng.RngError, match="2 different kifu:c1/c2 tokens"):
        rng.Commitment.parse(two)
    with pytest.raises(rng.RngError, match="refused: check digits do not match"):
        rng.Commitment.parse(COMMIT.format()[:-1] + "0")


def _full_width(text: str, picks: list[bool]) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if p and "!" <= c <= "~" else c for c, p in zip(text, picks))


def _case(text: str, picks: list[bool]) -> str:
    return "".join(c.upper() if p else c for c, p in zip(text, picks))


def _insert(text: str, places: list[int], what: list[str], lo: int, hi: int) -> str:
    """``text`` with ``what[i]`` inserted before position lo + places[i] % (hi - lo)."""
    at = sorted(lo + p % (hi - lo) for p in places)
    out, last = [], 0
    for a, w in zip(at, what):
        out += [text[last:a], w]
        last = a
    return "".join(out + [text[last:]])


PREFIXES = [
    "",
    "<@123456789012345678> ",
    "@ユキ ",
    "> ",
    ">>> ",
    "`",
    "```\n",
    "**",
    "||",
    "「",
    "先攻を決めます ",
    "abc",
]
SUFFIXES = ["", " ", "\n", "`", "\n```", "**", "||", "」", "。", "!", ", ok?", " よろしく", ")"]
SPACES = st.sampled_from([" ", "\n", "\r\n", "\t", "\u3000", "\u00a0", "  "])
INVISIBLE = st.sampled_from(["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200e"])


@st.composite
def chat_forms(draw, token: str, keep: int):
    """``token`` as a chat might carry it; whitespace only before position ``keep`` (a nonce's start)."""
    n = len(token)
    text = _full_width(token, draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    text = _case(text, draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    gaps = draw(st.lists(SPACES, max_size=4))
    text = _insert(text, draw(st.lists(st.integers(0, 10**6), min_size=len(gaps), max_size=len(gaps))), gaps, 1, keep)
    marks = draw(st.lists(INVISIBLE, max_size=3))
    text = _insert(
        text, draw(st.lists(st.integers(0, 10**6), min_size=len(marks), max_size=len(marks))), marks, 1, len(text)
    )
    return draw(st.sampled_from(PREFIXES)) + text + draw(st.sampled_from(SUFFIXES))


def _nonce_start(token: str) -> int:
    return token.rindex(":") + 1


@given(data=st.data(), secret=SECRETS, nonce=NONCES)
def test_every_token_survives_the_chat(data, secret, nonce):
    """Full width, case, wrapping or spaces (outside the nonce), zero-width characters, mentions, quotes, markdown."""
    c = rng.commit(secret)
    n = rng.Nonce(id=c.id, text=nonce)
    r = rng.reveal(secret, n)
    for token, keep in ((c, len(c.format())), (n, _nonce_start(n.format())), (r, _nonce_start(r.format()))):
        form = data.draw(chat_forms(token.format(), keep))
        assert rng.find_tokens(form) == [token], form


@given(data=st.data(), secret=SECRETS, nonce=NONCES)
def test_tokens_pasted_together_are_all_found(data, secret, nonce):
    c = rng.commit(secret)
    n = rng.Nonce(id=c.id, text=nonce)
    r = rng.reveal(secret, n)
    joins = data.draw(st.lists(st.sampled_from([" ", "\n", "。", " / ", "` `"]), min_size=2, max_size=2))
    text = c.format() + joins[0] + n.format() + joins[1] + r.format()
    assert rng.find_tokens(text) == [c, n, r]


@given(secret=SECRETS, nonce=NONCES, where=st.integers(0, 10**6), to=st.sampled_from("0123456789abcdefxyz:-"))
def test_a_changed_character_is_refused_never_misread(secret, nonce, where, to):
    """Anywhere in a commit or a reveal, the nonce included: the check (or the id) no longer holds."""
    n = rng.Nonce(id=rng.commit(secret).id, text=nonce)
    for token in (rng.commit(secret), rng.reveal(secret, n)):
        text = token.format()
        at = where % len(text)
        changed = text[:at] + to + text[at + 1 :]
        assert rng.find_tokens(changed) == ([token] if changed == text else []), changed


@given(secret=SECRETS, nonce=NONCES, cut=st.integers(1, 10**6))
def test_a_cut_token_is_refused(secret, nonce, cut):
    n = rng.Nonce(id=rng.commit(secret).id, text=nonce)
    for token in (rng.commit(secret), rng.reveal(secret, n)):
        text = token.format()
        assert rng.find_tokens(text[: cut % len(text)]) == []


def test_whitespace_inside_a_nonce_ends_it():
    """In a nonce token the nonce is what comes before the space; in a reveal the check then refuses the token."""
    assert rng.find_tokens(f"kifu:n1:{COMMIT.id}:neko 1234") == [rng.Nonce(id=COMMIT.id, text="neko")]
    wrapped = REVEAL.format()[:-4] + "\n" + REVEAL.format()[-4:]
    assert rng.find_tokens(wrapped) == []
    assert [r.reason for r in rng.scan(wrapped)] == ["check digits do not match: the token was changed on the way"]


def test_refusals_say_why():
    cases = {
        f"kifu:n1:{COMMIT.id}:ねこ": "nonce: expected 4 to 64 letters a-z or digits 0-9, found 0",
        f"kifu:n1:{COMMIT.id}:" + "a" * 65: "nonce: longer than 64 letters or digits",
        f"kifu:c3:{COMMIT.id}": "protocol version c3 is not one this kifu reads (c1, c2)",
        "kifu:c1:rq2ja63": "id: expected 8 characters of 0123456789abcdefghjkmnpqrstvwxyz",
        f"kifu:c1:{COMMIT.id}{COMMIT.digest}": "expected ':' after the id",
        COMMIT.format() + "0": "the token runs on after its check digits",
        COMMIT.format()[:-6] + "ea4dbz": "check: expected 6 hex digits",
    }
    for text, reason in cases.items():
        assert [r.reason for r in rng.scan(text)] == [reason], text
    body = f"kifu:c1:00000000:{COMMIT.digest}"
    forged = f"{body}:{rng.check_digits(body)}"  # the check holds, the id does not belong to the digest
    assert [r.reason for r in rng.scan(forged)] == ["id 00000000 is not the id of this commitment"]


def test_a_refusal_shows_the_text_up_to_the_next_token():
    scanned = rng.scan(f"kifu:n1:{COMMIT.id}:ab {NONCE.format()}")
    refused = scanned[0]
    assert isinstance(refused, rng.Refused) and (refused.kind, refused.text) == ("n1", f"kifu:n1:{COMMIT.id}:ab")
    assert refused.reason == "nonce: expected 4 to 64 letters a-z or digits 0-9, found 2"
    assert refused.why.render("ja") == "nonce: 英小文字 a-z か数字 0-9 を 4〜64 字で書いてください (2 字でした)"
    assert scanned[1] == NONCE


def test_text_that_only_mentions_kifu_is_no_token():
    for text in ("kifu: great tool", "kifu:", "kifu:x1:abc", "kifu:c:", "棋譜 kifu:cc:", "https://kifu:c1@example"):
        assert rng.scan(text) == [] or all(isinstance(r, rng.Refused) for r in rng.scan(text))
    assert rng.scan("kifu: great tool") == []


@given(st.text())
def test_find_tokens_never_raises_on_any_text(text):
    assert isinstance(rng.scan(text), list)


@given(
    st.lists(
        st.sampled_from(
            [
                "kifu:",
                "c1:",
                "n1:",
                "r1:",
                "c9:",
                ":",
                COMMIT.id,
                COMMIT.digest[:31],
                COMMIT.digest,
                SECRET.hex(),
                "ea4db6",
                "823052",
                "neko1234",
                " ",
                "\n",
                "\u200b",
                "ｋｉｆｕ：",
                "Ａ",
                "ß",
                "ﬁ",
                "\u0301",
                "①",
                "٣",
                "\ud800",
                "\x00",
            ]
        ),
        max_size=40,
    )
)
def test_find_tokens_never_raises_on_token_debris(parts):
    for item in rng.scan("".join(parts)):
        assert isinstance(item, (rng.Commitment, rng.Nonce, rng.Reveal, rng.Refused))


def _junk(size: int, seed: int) -> str:
    rand = random.Random(seed)
    pieces = ["kifu:", "kifu:c1:", "kifu:n1:", "kifu:r1:", COMMIT.id, ":", " ", "\n", "a" * 70, "0" * 64, "\u200b"]
    out, n = [], 0
    while n < size:
        piece = rand.choice(pieces) if rand.random() < 0.5 else chr(rand.randrange(0x20, 0x3100))
        out.append(piece)
        n += len(piece)
    return "".join(out)[:size]


_HOSTILE: dict[str, Callable[[int], str]] = {
    "junk": lambda n: _junk(n, 1),
    "commit heads": lambda n: ("kifu:c1:" * (n // 8 + 1))[:n],
    "a long nonce": lambda n: "kifu:n1:" + COMMIT.id + ":" + "a" * n,
    "spaces after a reveal head": lambda n: "kifu:r1:" + " " * n,
    "reveals of spaces": lambda n: (("kifu:r1:" + COMMIT.id + ":" + " " * 50) * (n // 100 + 1))[:n],
    "every character": lambda n: "".join(chr(c) for c in range(0x20, 0x20 + n) if not 0xD800 <= c < 0xE000),
}
"""Texts of any length aimed at the scanner's patterns."""


@pytest.mark.parametrize("text", sorted(_HOSTILE))
def test_100_kb_of_junk_is_read_in_linear_time(text: str) -> None:
    """10 KB, then 100 KB and 200 KB: the work grows with the text, never with its square (CPU time in a
    process of its own, tests/growth.py)."""
    make = _HOSTILE[text]
    assert all(isinstance(t, (rng.Commitment, rng.Nonce, rng.Reveal, rng.Refused)) for t in rng.scan(make(100_000)))
    found = growth(lambda n: partial(rng.scan, make(n)), (10_000, 100_000, 200_000), slack=4, floor=1e-3)
    assert found.linear, f"{text}: {found}"


def test_a_token_in_the_middle_of_100_kb_is_found():
    text = _junk(50_000, 3) + " " + REVEAL.format() + " " + _junk(50_000, 4)
    assert REVEAL in rng.find_tokens(text)


# --- purity ---------------------------------------------------------------------------------------------


def test_rng_is_pure_and_draws_randomness_in_one_place():
    """No files, clock or printing; ``secrets`` is imported, and used inside ``new_secret`` only."""
    path = ROOT / "kifu" / "events" / "rng.py"
    source = path.read_text(encoding="utf-8")
    found = violations(source, ROOT / "kifu" / "projector" / "rng.py")  # judged as if it were a pure module
    assert [v.split(": ", 1)[1] for v in found] == ["imports secrets"]
    tree = ast.parse(source)
    users = [
        fn.name
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef)
        for node in ast.walk(fn)
        if isinstance(node, ast.Name) and node.id == "secrets"
    ]
    assert users == ["new_secret"]


def test_tokens_are_ascii_and_one_line():
    for token in (COMMIT, NONCE, REVEAL, rng.new_nonce(COMMIT.id)):
        text = token.format()
        assert text.isascii() and text.isprintable() and " " not in text
        assert unicodedata.normalize("NFKC", text) == text
        assert not set(text) & set("_*~`@|<>[]()#")
