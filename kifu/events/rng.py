"""Coin tosses and die rolls that both players can verify: commit, nonce, reveal (issue 18).

The roller commits to a secret, the opponent answers with a nonce, the roller
reveals the secret; every outcome is HMAC-SHA256 of the secret over the
commitment id, the nonce and the outcome's index, turned into a face by
rejection sampling. ``docs/randomness.md`` specifies every byte and publishes
test vectors; this module is that specification in code.

Pure: no files, clock, environment or printing. The only randomness is
``new_secret``; the secret store that keeps secrets until they are revealed is
``rng_store``.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import secrets
import unicodedata
from typing import ClassVar, TypeVar
from collections.abc import Callable, Iterator, Sequence

import msgspec

from .base import KifuError
from .i18n import Msg

VERSION = "kifu-rng-v1"
"""Domain-separation label of this construction; a change to any byte below gets a new one."""
SECRET_BYTES = 32
"""Length of a secret in bytes."""
ID_LENGTH = 8
"""Characters in a commitment id (40 bits)."""
CHECK_LENGTH = 6
"""Hex digits of a token's check (24 bits)."""
NONCE_MIN, NONCE_MAX = 4, 64
"""Bounds on a nonce's length in characters."""
GENERATED_NONCE_LENGTH = 20
"""Characters in a nonce that ``new_nonce`` makes (100 bits)."""
WORD_BITS = 32
"""Width of the words that rejection sampling draws from."""
MAX_SIDES = 1 << WORD_BITS
"""The most faces a die may have."""
HEADS, TAILS = 1, 2
"""A coin is a 2-sided die: face 1 is heads (表), face 2 is tails (裏), as in kifu's ``random`` event."""

ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
"""Crockford's base32 in lower case: no i, l, o or u, so an id read aloud or retyped is not misread."""
_ID_CHARS = frozenset(ALPHABET)
_HEX = frozenset("0123456789abcdef")
_NONCE_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyz")

PREFIX = "kifu:"
"""Every token starts with this (after folding, see ``scan``)."""
_COMMIT_LABEL = f"{VERSION}:commit:".encode("ascii")
_LONGEST_TOKEN = len("kifu:r1:") + ID_LENGTH + 1 + 2 * SECRET_BYTES + 1 + CHECK_LENGTH + 1 + NONCE_MAX


class RngError(KifuError):
    """A secret, nonce, token or outcome request that cannot be used; ``field`` names the part."""


# --- the construction ----------------------------------------------------------------------------


def new_secret() -> bytes:
    """32 fresh bytes from the operating system's CSPRNG: the only randomness of this module."""
    return secrets.token_bytes(SECRET_BYTES)


def commitment_digest(secret: bytes) -> str:
    """SHA-256 of ``kifu-rng-v1:commit:`` followed by the 32 secret bytes, in lower-case hex."""
    _check_secret(secret)
    return hashlib.sha256(_COMMIT_LABEL + secret).hexdigest()


def commitment_id(digest: str) -> str:
    """The id of a commitment: its digest's first 40 bits in base32 (8 characters of ``ALPHABET``).

    Derived rather than drawn, so that anyone can check that an id belongs to its
    commitment, a mangled commit token fails that check, and the test vectors
    need nothing but a secret.
    """
    return _base32(bytes.fromhex(digest), ID_LENGTH)


def _base32(data: bytes, length: int) -> str:
    """The first ``length`` base32 characters of ``data``: 5 bits each, most significant first."""
    bits = 8 * len(data)
    n = int.from_bytes(data, "big")
    return "".join(ALPHABET[(n >> (bits - 5 * (i + 1))) & 31] for i in range(length))


def accept_limit(sides: int, bits: int = WORD_BITS) -> int:
    """The largest multiple of ``sides`` that is at most 2**bits: words below it are kept."""
    return (1 << bits) - (1 << bits) % sides


def face(word: int, sides: int, bits: int = WORD_BITS) -> int | None:
    """The face (1 … sides) a word gives, or None when the word is rejected.

    A kept word is uniform on [0, accept_limit), a whole number of runs of
    ``sides``, so ``word % sides`` hits every face equally often. ``bits`` is a
    parameter so that tests can count that exhaustively on small words.
    """
    return word % sides + 1 if word < accept_limit(sides, bits) else None


def _words(secret: bytes, id: str, nonce: str, index: int) -> Iterator[int]:
    """The words of outcome ``index``: blocks 0, 1, 2 … each split into eight big-endian 32-bit words."""
    for block in itertools.count():
        message = f"{VERSION}:outcome:{id}:{nonce}:{index}:{block}".encode("ascii")
        digest = hmac.digest(secret, message, "sha256")
        for at in range(0, 32, 4):
            yield int.from_bytes(digest[at : at + 4], "big")


def outcome(secret: bytes, nonce: str, index: int, sides: int) -> int:
    """Outcome ``index`` (0, 1, 2 …) of the stream that ``secret`` and ``nonce`` fix: a face 1 … sides.

    Each index has its own words, so an outcome depends on its own index and
    sides only: an event names (commitment, index) and is checked on its own.
    The loop ends with probability 1; even for the worst die (2**31 + 1 sides)
    each word is kept with probability above 1/2.
    """
    _check_nonce(nonce)
    _check_sides(sides)
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise RngError(Msg("rng.bad_index", index=repr(index)), field="index")
    id = commitment_id(commitment_digest(secret))
    for word in _words(secret, id, nonce, index):
        kept = face(word, sides)
        if kept is not None:
            return kept
    raise AssertionError("unreachable: _words never ends")


def stream(secret: bytes, nonce: str) -> Callable[[int, int], int]:
    """``outcome(secret, nonce, index, sides)`` as a function of (index, sides), with the id worked out once."""
    _check_nonce(nonce)
    id = commitment_id(commitment_digest(secret))

    def outcome_at(index: int, sides: int) -> int:
        _check_sides(sides)
        for word in _words(secret, id, nonce, index):
            kept = face(word, sides)
            if kept is not None:
                return kept
        raise AssertionError("unreachable: _words never ends")

    return outcome_at


def outcomes(secret: bytes, nonce: str, sides: Sequence[int], start: int = 0) -> list[int]:
    """Outcomes ``start``, ``start + 1`` … of a mixed stream: the i-th has ``sides[i]`` faces."""
    return [outcome(secret, nonce, start + i, s) for i, s in enumerate(sides)]


def faces(secret: bytes, nonce: str, sides: int, start: int = 0) -> Iterator[int]:
    """Outcomes ``start``, ``start + 1`` … all with ``sides`` faces, without end (toss until …)."""
    return (outcome(secret, nonce, i, sides) for i in itertools.count(start))


def _check_secret(secret: bytes) -> None:
    if not isinstance(secret, bytes) or len(secret) != SECRET_BYTES:
        raise RngError(Msg("rng.bad_secret", bytes=SECRET_BYTES), field="secret")


def _check_sides(sides: int) -> None:
    if isinstance(sides, bool) or not isinstance(sides, int) or not 2 <= sides <= MAX_SIDES:
        raise RngError(Msg("rng.bad_sides", sides=repr(sides)), field="sides")


def _check_nonce(nonce: str) -> None:
    if not isinstance(nonce, str) or not NONCE_MIN <= len(nonce) <= NONCE_MAX:
        n = len(nonce) if isinstance(nonce, str) else 0
        raise RngError(Msg("rng.nonce_length", least=NONCE_MIN, most=NONCE_MAX, found=n), field="nonce")
    if not set(nonce) <= _NONCE_CHARS:
        raise RngError(Msg("rng.nonce_chars"), field="nonce")


def _check_id(id: str) -> None:
    if not isinstance(id, str) or len(id) != ID_LENGTH or not set(id) <= _ID_CHARS:
        raise RngError(Msg("rng.bad_id", length=ID_LENGTH), field="id")


def _check_hex(value: str, field: str) -> None:
    if not isinstance(value, str) or len(value) != 2 * SECRET_BYTES or not set(value) <= _HEX:
        raise RngError(Msg("rng.bad_hex", field=field, digits=2 * SECRET_BYTES), field=field)


def check_digits(body: str) -> str:
    """The check of a token: the first 6 hex digits of SHA-256 of the token without its check."""
    return hashlib.sha256(body.encode("ascii")).hexdigest()[:CHECK_LENGTH]


# --- the three messages ----------------------------------------------------------------------------

T = TypeVar("T", bound="_Token")


class _Token(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What the three tokens share: a kind tag and the id of the commitment they belong to."""

    kind: ClassVar[str]
    """The token's tag after ``kifu:``: ``c1``, ``n1`` or ``r1`` (kind letter, protocol version)."""

    id: str
    """The commitment's id: 8 characters of ``ALPHABET``, derived from the commitment (``commitment_id``)."""

    @classmethod
    def parse(cls: type[T], text: str) -> T:
        """The one token of this kind in ``text`` (a chat message, a pasted line); RngError if none or several."""
        found = scan(text)
        mine = list(dict.fromkeys(t for t in found if isinstance(t, cls)))
        if len(mine) == 1:
            return mine[0]
        if mine:
            raise RngError(Msg("rng.many_tokens", count=len(mine), kind=cls.kind), field="token")
        refused = [r for r in found if isinstance(r, Refused) and r.kind == cls.kind]
        if refused:
            raise RngError(Msg("rng.token_refused", kind=cls.kind, reason=refused[0].reason), field="token")
        raise RngError(Msg("rng.no_token", kind=cls.kind), field="token")


class Commitment(_Token, frozen=True, kw_only=True):
    """The roller's first message: the SHA-256 of a secret the roller will reveal after the nonce."""

    kind: ClassVar[str] = "c1"
    digest: str
    """``commitment_digest(secret)``: 64 lower-case hex digits."""

    def __post_init__(self) -> None:
        _check_id(self.id)
        _check_hex(self.digest, "digest")
        if commitment_id(self.digest) != self.id:
            raise RngError(Msg("rng.id_not_commitment", id=self.id), field="id")

    def format(self) -> str:
        """``kifu:c1:<id>:<digest>:<check>``."""
        body = f"{PREFIX}c1:{self.id}:{self.digest}"
        return f"{body}:{check_digits(body)}"


class Nonce(_Token, frozen=True, kw_only=True):
    """The opponent's answer: text of their choosing that the roller could not know when committing."""

    kind: ClassVar[str] = "n1"
    text: str
    """The nonce: 4 to 64 characters a-z and 0-9 (typed in any case or width, normalised by ``normalise_nonce``)."""

    def __post_init__(self) -> None:
        _check_id(self.id)
        _check_nonce(self.text)

    def format(self) -> str:
        """``kifu:n1:<id>:<nonce>``: no check, so an opponent without kifu can type it by hand."""
        return f"{PREFIX}n1:{self.id}:{self.text}"


class Reveal(_Token, frozen=True, kw_only=True):
    """The roller's last message: the secret and the nonce it was combined with, hence every outcome."""

    kind: ClassVar[str] = "r1"
    secret: str
    """The 32-byte secret in lower-case hex (64 digits)."""
    nonce: str
    """The nonce the outcomes were derived with, echoed so that the opponent sees theirs was used."""

    def __post_init__(self) -> None:
        _check_id(self.id)
        _check_hex(self.secret, "secret")
        _check_nonce(self.nonce)
        if commitment_id(commitment_digest(self.secret_bytes)) != self.id:
            raise RngError(Msg("rng.id_not_secret", id=self.id), field="id")

    @property
    def secret_bytes(self) -> bytes:
        """The secret as the 32 bytes the construction takes."""
        return parse_secret(self.secret)

    def commitment(self) -> Commitment:
        """The commitment this secret answers."""
        digest = commitment_digest(self.secret_bytes)
        return Commitment(id=self.id, digest=digest)

    def outcome(self, index: int, sides: int) -> int:
        """Outcome ``index`` with ``sides`` faces (see the module function ``outcome``)."""
        return outcome(self.secret_bytes, self.nonce, index, sides)

    def outcomes(self, sides: Sequence[int], start: int = 0) -> list[int]:
        """Outcomes ``start`` … of a mixed stream (see the module function ``outcomes``)."""
        return outcomes(self.secret_bytes, self.nonce, sides, start)

    def faces(self, sides: int, start: int = 0) -> Iterator[int]:
        """Outcomes ``start`` … all with ``sides`` faces, without end."""
        return faces(self.secret_bytes, self.nonce, sides, start)

    def format(self) -> str:
        """``kifu:r1:<id>:<secret>:<check>:<nonce>``: the nonce last, like in a nonce token."""
        check = check_digits(f"{PREFIX}r1:{self.id}:{self.secret}:{self.nonce}")
        return f"{PREFIX}r1:{self.id}:{self.secret}:{check}:{self.nonce}"


Token = Commitment | Nonce | Reveal
"""Any of the three messages."""


def parse_secret(text: str) -> bytes:
    """A secret written as 64 lower-case hex digits (a reveal, the secret store) as its 32 bytes."""
    _check_hex(text, "secret")
    return bytes.fromhex(text)


def commit(secret: bytes) -> Commitment:
    """The commitment to ``secret``."""
    digest = commitment_digest(secret)
    return Commitment(id=commitment_id(digest), digest=digest)


def reveal(secret: bytes, nonce: Nonce) -> Reveal:
    """The reveal of ``secret`` for the answer ``nonce``."""
    return Reveal(id=nonce.id, secret=secret.hex(), nonce=nonce.text)


def new_nonce(id: str) -> Nonce:
    """A fresh nonce for commitment ``id``: 20 base32 characters (100 bits) from ``new_secret``."""
    return Nonce(id=id, text=_base32(new_secret(), GENERATED_NONCE_LENGTH))


def normalise_nonce(text: str) -> str:
    """A nonce as typed (``ＮＥＫＯ１２３``, `` neko123 ``) in its canonical form (``neko123``), or RngError."""
    folded, gaps = _fold(text)
    if any(gaps[1:]):
        # In a token whitespace ends a nonce; a bare nonce with a space inside is a mistake to show, not guess.
        raise RngError(Msg("rng.nonce_space"), field="nonce")
    _check_nonce(folded)
    return folded


def normalise_id(text: str) -> str:
    """An id as typed: folded like a token, and Crockford's look-alikes read as digits (i, l → 1; o → 0)."""
    folded, _ = _fold(text)
    folded = folded.translate(str.maketrans("ilo", "110"))
    _check_id(folded)
    return folded


# --- verification ---------------------------------------------------------------------------------


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    """Why a commit, a nonce and a reveal do not make one verified toss."""

    code: str
    """Kebab-case reason: ``nonce-names-another-commitment``, ``reveal-names-another-commitment``,
    ``secret-does-not-match-commitment`` or ``reveal-uses-another-nonce``."""
    message: Msg
    """One line naming the values compared (rendered in the reader's language)."""


def verify_reveal(commit: Commitment, reveal: Reveal) -> bool:
    """True when ``reveal`` opens ``commit``: the same id and a secret that hashes to the digest."""
    return reveal.id == commit.id and commitment_digest(reveal.secret_bytes) == commit.digest


def problem(commit: Commitment, nonce: Nonce, reveal: Reveal) -> Problem | None:
    """The first reason the three messages are not one toss, or None when the reveal's outcomes stand."""
    if nonce.id != commit.id:
        return Problem(
            code="nonce-names-another-commitment", message=Msg("rng.problem_nonce_id", nonce=nonce.id, commit=commit.id)
        )
    if reveal.id != commit.id:
        return Problem(
            code="reveal-names-another-commitment",
            message=Msg("rng.problem_reveal_id", reveal=reveal.id, commit=commit.id),
        )
    if not verify_reveal(commit, reveal):
        return Problem(
            code="secret-does-not-match-commitment",
            message=Msg("rng.problem_secret", digest=commitment_digest(reveal.secret_bytes), committed=commit.digest),
        )
    if reveal.nonce != nonce.text:
        return Problem(
            code="reveal-uses-another-nonce", message=Msg("rng.problem_nonce", used=reveal.nonce, sent=nonce.text)
        )
    return None


def settle(commit: Commitment, nonce: Nonce, reveal: Reveal) -> Reveal:
    """The reveal, once checked against its commit and nonce: its ``outcome``/``outcomes``/``faces``
    are then the verified stream. RngError naming the problem otherwise."""
    found = problem(commit, nonce, reveal)
    if found is not None:
        raise RngError(found.message, field=found.code)
    return reveal


# --- finding tokens in chat text ----------------------------------------------------------------------


class Refused(msgspec.Struct, frozen=True, kw_only=True):
    """Text that starts like a token but is not a valid one: mangled on the way, or mistyped."""

    kind: str
    """The tag it started with: ``c1``, ``n1``, ``r1``, or another version (``c2``) this kifu does not read."""
    reason: str
    """What is wrong, in one line of English."""
    text: str
    """The folded text from ``kifu:`` on, as long as the longest token at most and up to the next ``kifu:``."""


class _Stop(Exception):
    """Reading a token stopped: ``reason`` says why (becomes a Refused)."""


def _fold(text: str) -> tuple[str, list[bool]]:
    """``text`` as tokens are read: NFKC, format characters (zero-width, bidi marks) dropped,
    A-Z lowered, whitespace removed. ``gaps[i]`` is True when whitespace stood before character i."""
    return _fold_normalised(unicodedata.normalize("NFKC", text))


def _fold_normalised(text: str) -> tuple[str, list[bool]]:
    chars: list[str] = []
    gaps: list[bool] = []
    gap = False
    for ch in text:
        if ch.isspace():
            gap = True
        elif unicodedata.category(ch) != "Cf":
            chars.append(ch.lower() if "A" <= ch <= "Z" else ch)
            gaps.append(gap)
            gap = False
    return "".join(chars), gaps


class _Reader:
    """A cursor over folded text, reading one token's fields; raises _Stop on the first fault."""

    def __init__(self, text: str, gaps: list[bool], at: int) -> None:
        self.text, self.gaps, self.at = text, gaps, at
        self.got: dict[str, str] = {}
        """Each field read in full so far, by name: what a refused token said (see ``Found.fields``)."""

    def fixed(self, n: int, allowed: frozenset[str], what: str) -> str:
        """The next ``n`` characters, all from ``allowed`` (whitespace between them was already dropped)."""
        value = self.text[self.at : self.at + n]
        if len(value) != n or not set(value) <= allowed:
            raise _Stop(f"{what}: expected {n} {'hex digits' if allowed is _HEX else 'characters of ' + ALPHABET}")
        self.at += n
        self.got[what] = value
        return value

    def field(self, n: int, allowed: frozenset[str], what: str) -> str:
        """A fixed-length field and the colon after it."""
        value = self.fixed(n, allowed, what)
        if self.text[self.at : self.at + 1] != ":":
            raise _Stop(f"expected ':' after the {what}")
        self.at += 1
        return value

    def _joined(self) -> bool:
        """True when the next character continues a word: a letter or digit with no whitespace before it."""
        return self.at < len(self.text) and self.text[self.at] in _NONCE_CHARS and not self.gaps[self.at]

    def nonce(self) -> str:
        """A nonce: letters and digits up to whitespace or any other character (a nonce ends its token)."""
        begin = self.at
        if self.at < len(self.text) and self.text[self.at] in _NONCE_CHARS:
            self.at += 1
            while self._joined() and self.at - begin <= NONCE_MAX:
                self.at += 1
        value = self.text[begin : self.at]
        if len(value) > NONCE_MAX:
            raise _Stop(f"nonce: longer than {NONCE_MAX} letters or digits")
        if len(value) < NONCE_MIN:
            raise _Stop(f"nonce: expected {NONCE_MIN} to {NONCE_MAX} letters a-z or digits 0-9, found {len(value)}")
        self.got["nonce"] = value
        return value

    def end(self) -> None:
        if self._joined():
            raise _Stop("the token runs on after its check digits")


def _read(text: str, gaps: list[bool], start: int) -> tuple[Token | Refused, _Reader] | None:
    """The token whose ``kifu:`` begins at ``start`` and the reader left after it; None when what
    follows is no token tag."""
    tag = text[start + len(PREFIX) : start + len(PREFIX) + 3]
    if len(tag) != 3 or tag[0] not in "cnr" or tag[1] not in "0123456789" or tag[2] != ":":
        return None
    kind = tag[:2]
    reader = _Reader(text, gaps, start + len(PREFIX) + 3)
    try:
        if kind[1] != "1":
            raise _Stop(f"protocol version {kind} is not one this kifu reads ({kind[0]}1)")
        return _FIELDS[kind[0]](reader), reader
    except (_Stop, RngError) as stop:
        reason = str(stop.message) if isinstance(stop, RngError) else str(stop)  # a Refused says why in English (data)
        shown = text[start : start + _LONGEST_TOKEN]
        after = shown.find(PREFIX, 1)
        return Refused(kind=kind, reason=reason, text=shown if after == -1 else shown[:after]), reader


def _read_commit(r: _Reader) -> Commitment:
    id = r.field(ID_LENGTH, _ID_CHARS, "id")
    digest = r.field(2 * SECRET_BYTES, _HEX, "digest")
    check = r.fixed(CHECK_LENGTH, _HEX, "check")
    r.end()
    _expect_check(check, f"{PREFIX}c1:{id}:{digest}")
    return Commitment(id=id, digest=digest)


def _read_nonce(r: _Reader) -> Nonce:
    id = r.field(ID_LENGTH, _ID_CHARS, "id")
    return Nonce(id=id, text=r.nonce())


def _read_reveal(r: _Reader) -> Reveal:
    id = r.field(ID_LENGTH, _ID_CHARS, "id")
    secret = r.field(2 * SECRET_BYTES, _HEX, "secret")
    check = r.field(CHECK_LENGTH, _HEX, "check")
    nonce = r.nonce()
    _expect_check(check, f"{PREFIX}r1:{id}:{secret}:{nonce}")
    return Reveal(id=id, secret=secret, nonce=nonce)


def _expect_check(check: str, body: str) -> None:
    if check != check_digits(body):
        raise _Stop("check digits do not match: the token was changed on the way")


_FIELDS = {"c": _read_commit, "n": _read_nonce, "r": _read_reveal}


def scan(text: str) -> list[Token | Refused]:
    """Every token in a chat message, in order, and every text that starts like one but is refused.

    Reads through what chats do to a line: full-width forms (NFKC), zero-width
    and bidi characters, upper case, whitespace or line breaks inserted anywhere
    (except inside a nonce, which whitespace ends), mentions, quotes, markdown
    and other text around the token. Never raises; linear in the text's length
    (each ``kifu:`` reads at most one token's length).
    """
    return [found.token for found in read_chat(text)]


class Found(msgspec.Struct, frozen=True, kw_only=True):
    """One token of a chat message as an importer needs it (``read_chat``)."""

    token: Token | Refused
    """The token, or why it was refused."""
    fields: dict[str, str]
    """Each field as the message wrote it (folded), read in full before any check: ``id``, ``digest``,
    ``secret``, ``check``, ``nonce``. For a refused token, what it said as far as it could be read."""
    claims: tuple[tuple[int, int], ...] = ()
    """After a reveal token, the outcomes posted with it (``→ 裏``, ``→ d6=4``): (sides, face) from outcome 0."""


def read_chat(text: str) -> list[Found]:
    """``scan``, with each token's fields as written and the outcomes a reveal posts after an arrow.

    Claims follow a reveal token in the same message (docs/randomness.md, "Posting
    the outcomes"): an arrow (``→``, ``->``, ``=>``, ``⇒``), then coins (``表``, ``裏``,
    ``heads``, ``tails``) and dice (``d6=4``, ``d6=4,2``) in outcome order, read on the
    folded text like the token. Reading stops at the first thing that is neither.
    Never raises; linear in the text's length.
    """
    normalised = unicodedata.normalize("NFKC", text)
    if not _may_hold_token(normalised):
        return []  # most chat messages skip the per-character fold
    folded, gaps = _fold_normalised(normalised)
    found: list[Found] = []
    start = folded.find(PREFIX)
    while start != -1:
        item = _read(folded, gaps, start)
        if item is not None:
            token, reader = item
            claims = _claims(folded, reader.at) if token.kind == "r1" else ()
            found.append(Found(token=token, fields=reader.got, claims=claims))
        start = folded.find(PREFIX, start + 1)
    return found


def _may_hold_token(normalised: str) -> bool:
    """False when an NFKC text cannot hold ``kifu:``: folding only drops characters and lowers A-Z."""
    low = normalised.lower()
    return ":" in low and "k" in low and "f" in low and "u" in low


ARROWS = ("→", "->", "=>", "⇒")
"""What introduces the outcomes posted after a reveal token."""
COIN_WORDS = {"表": HEADS, "裏": TAILS, "heads": HEADS, "tails": TAILS}
"""Coin faces as a reveal posts them; any case and width (the text is folded first)."""
_CLAIM_SEPARATORS = ",、;/"
_MAX_FACE_DIGITS = 10
"""Digits of a posted face or die size (2**32 has 10): more is no claim, and reading stays linear."""
_MAX_CLAIMS = 1000
"""Outcomes read after one reveal: more than any game step draws from one commitment."""


def _claims(text: str, at: int) -> tuple[tuple[int, int], ...]:
    """The outcomes posted after a reveal that ends at ``at`` (folded text, whitespace already removed)."""
    arrow = next((a for a in ARROWS if text.startswith(a, at)), None)
    if arrow is None:
        return ()
    at += len(arrow)
    out: list[tuple[int, int]] = []
    while at < len(text) and len(out) < _MAX_CLAIMS:
        word = next((w for w in COIN_WORDS if text.startswith(w, at)), None)
        if word is not None:
            out.append((2, COIN_WORDS[word]))
            at += len(word)
        elif text.startswith("d", at):
            sides, after = _number(text, at + 1)
            if sides is None or not 2 <= sides <= MAX_SIDES or not text.startswith("=", after):
                break
            face, at = _number(text, after + 1)
            if face is None:
                break
            out.append((sides, face))
            # More faces of the same die: d6=4,2 (a comma then a number, not a new claim).
            while len(out) < _MAX_CLAIMS and at < len(text) and text[at] in _CLAIM_SEPARATORS:
                more, after = _number(text, at + 1)
                if more is None:
                    break
                out.append((sides, more))
                at = after
        else:
            break
        if at < len(text) and text[at] in _CLAIM_SEPARATORS:
            at += 1
    return tuple(out)


def draw(
    reveal: Reveal, sides: Sequence[int], until: int | None = None, limit: int = _MAX_CLAIMS
) -> list[tuple[int, int]]:
    """Outcomes 0, 1 … of ``reveal`` as (sides, face): one per entry of ``sides``; with ``until``, one die
    (``sides[0]``) rolled again and again up to and including the first ``until`` face (at most ``limit``)."""
    if until is None:
        return list(zip(sides, reveal.outcomes(sides)))
    if len(sides) != 1 or not 1 <= until <= sides[0]:
        raise RngError(Msg("rng.bad_until", sides=list(sides), until=until), field="until")
    out = []
    for face in itertools.islice(reveal.faces(sides[0]), limit):
        out.append((sides[0], face))
        if face == until:
            break
    return out


def format_claims(outcomes: Sequence[tuple[int, int]], lang: str = "ja") -> str:
    """The outcomes as a reveal posts them after its token: ``→ 裏 表`` (coins), ``→ d6=4 d20=13``."""
    words = {HEADS: "表", TAILS: "裏"} if lang == "ja" else {HEADS: "heads", TAILS: "tails"}
    return "→ " + " ".join(
        words[face] if sides == 2 and face in words else f"d{sides}={face}" for sides, face in outcomes
    )


def _number(text: str, at: int) -> tuple[int | None, int]:
    """The decimal number at ``at`` (at most 10 digits) and where it ends; None when there is none."""
    end = at
    while end < len(text) and end - at <= _MAX_FACE_DIGITS and "0" <= text[end] <= "9":
        end += 1
    if end == at or end - at > _MAX_FACE_DIGITS:
        return None, at
    return int(text[at:end]), end


def find_tokens(text: str) -> list[Token]:
    """Every valid token in a chat message, in order (see ``scan``)."""
    return [t for t in scan(text) if not isinstance(t, Refused)]
