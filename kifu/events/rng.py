"""Coin tosses and die rolls that both players can verify: commit, nonce, reveal (issues 18 and 25).

The roller commits to a secret, the opponent answers with a nonce, the roller
reveals the secret; every outcome is HMAC-SHA256 of the secret over the
commitment id, the nonce and the outcome's index, turned into a face by
rejection sampling. ``docs/randomness.md`` specifies every byte and publishes
test vectors; this module is that specification in code.

Two versions. ``kifu-rng-v1`` commits to the secret alone. ``kifu-rng-v2`` also
binds the commitment to the match, to what the toss decides (its purpose) and to
the dice it rolls (its roll: the number of sides of every outcome, which also
enters each outcome's input), and combines the nonces of several opponents.
Both are read and verified; kifu makes v2.

Pure: no files, clock, environment or printing. The only randomness is
``new_secret``; the secret store that keeps secrets until they are revealed is
``rng_store``.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import re
import unicodedata
from typing import ClassVar, NamedTuple, TypeVar
from collections.abc import Callable, Iterator, Sequence

import msgspec

from .base import KifuError
from .i18n import Msg

VERSION = "kifu-rng-v1"
"""Domain-separation label of the first construction; a change to any byte below gets a new one."""
VERSION2 = "kifu-rng-v2"
"""Domain-separation label of the second construction: commitments bound to match, purpose and roll."""
LABELS = {1: VERSION, 2: VERSION2}
"""Protocol version -> its label."""
SECRET_BYTES = 32
"""Length of a secret in bytes."""
ID_LENGTH = 8
"""Characters in a commitment id (40 bits)."""
CHECK_LENGTH = 6
"""Hex digits of a token's check (24 bits)."""
NONCE_MIN, NONCE_MAX = 4, 64
"""Bounds on a nonce's length in characters."""
STRONG_LENGTH, STRONG_DISTINCT = 16, 8
"""A v2 nonce is strong with at least 16 characters of which at least 8 differ; a weaker one is
accepted, with a warning (a roller who guesses it can grind secrets against it)."""
GENERATED_NONCE_LENGTH = 20
"""Characters in a nonce that ``new_nonce`` makes (100 bits)."""
MAX_NONCES = 16
"""Most opponents' nonces one v2 reveal combines."""
FIELD_MAX = 40
"""Most characters of a v2 commitment's match and purpose."""
ROLL_MAX = 64
"""Most characters of a v2 commitment's roll."""
MAX_OUTCOMES = 1000
"""Most outcomes one commitment's roll draws (and one reveal posts)."""
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
_FIELD_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyz.-")
_FIELD = re.compile(rf"[a-z0-9][a-z0-9.-]{{0,{FIELD_MAX - 1}}}")
"""A plain match or a purpose in a v2 commitment: 1 to 40 of a-z, 0-9, '.' and '-', starting with a letter or digit."""
_HASHED_MATCH = re.compile(rf"-[{ALPHABET}]{{16}}")
"""A match id that is not plain, as a v2 commitment names it: '-' and 16 base32 characters of its SHA-256."""

PREFIX = "kifu:"
"""Every token starts with this (after folding, see ``scan``)."""
_LONGEST_TOKEN = (
    len("kifu:r2:") + ID_LENGTH + 1 + 2 * SECRET_BYTES + 1 + CHECK_LENGTH + 1 + MAX_NONCES * (NONCE_MAX + 1)
)


class RngError(KifuError):
    """A secret, nonce, token or outcome request that cannot be used; ``field`` names the part."""


# --- the construction ----------------------------------------------------------------------------


def new_secret() -> bytes:
    """32 fresh bytes from the operating system's CSPRNG: the only randomness of this module."""
    import secrets  # here: an audit checks commitments and never draws one, and this import costs its cold start

    return secrets.token_bytes(SECRET_BYTES)


class Binding(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What a v2 commitment is bound to: the match, what the toss decides, and the dice it rolls."""

    match: str
    """The match id as a token carries it (``match_field``): plain, or '-' and 16 base32 characters."""
    purpose: str
    """What the toss decides (``first-player``, ``act-a3``): 1 to 40 of a-z, 0-9, '.', '-'."""
    roll: str
    """The dice, in order (``coin``, ``2d6``, ``coin.d20``, ``coin-until-2``): see ``Roll``."""

    def __post_init__(self) -> None:
        if not (_FIELD.fullmatch(self.match) or _HASHED_MATCH.fullmatch(self.match)):
            raise RngError(Msg("rng.bad_match", most=FIELD_MAX), field="match")
        if not _FIELD.fullmatch(self.purpose):
            raise RngError(Msg("rng.bad_purpose", most=FIELD_MAX), field="purpose")
        Roll.parse(self.roll)

    @property
    def dice(self) -> Roll:
        """The roll read as dice."""
        return Roll.parse(self.roll)

    def label(self) -> bytes:
        """``match:purpose:roll:``, the bytes between the v2 label and the secret in the commitment."""
        return f"{self.match}:{self.purpose}:{self.roll}:".encode("ascii")


def commitment_digest(secret: bytes, binding: Binding | None = None) -> str:
    """v1: SHA-256 of ``kifu-rng-v1:commit:`` and the 32 secret bytes. v2 (with a binding): SHA-256 of
    ``kifu-rng-v2:commit:``, ``match:purpose:roll:`` and the secret bytes. Lower-case hex."""
    _check_secret(secret)
    if binding is None:
        return hashlib.sha256(f"{VERSION}:commit:".encode("ascii") + secret).hexdigest()
    return hashlib.sha256(f"{VERSION2}:commit:".encode("ascii") + binding.label() + secret).hexdigest()


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


def match_field(match: str) -> str:
    """The match id as a v2 commitment names it: folded (NFKC, A-Z lowered); kept when it is 1 to 40 of
    a-z, 0-9, '.', '-' (starting with a letter or digit), else '-' and 16 base32 characters of the SHA-256
    of its folded UTF-8 (a match id with spaces, '_' or Japanese still binds, in a form chats keep)."""
    folded = _lower_ascii(unicodedata.normalize("NFKC", match))
    if _FIELD.fullmatch(folded):
        return folded
    return "-" + _base32(hashlib.sha256(folded.encode("utf-8")).digest(), 16)


def normalise_purpose(text: str) -> str:
    """A purpose as typed (``First-Player``, ``ｆｉｒｓｔ``) in its token form, or RngError."""
    folded = fold_purpose(text)
    if not _FIELD.fullmatch(folded):
        raise RngError(Msg("rng.bad_purpose", most=FIELD_MAX), field="purpose")
    return folded


def fold_purpose(text: str) -> str:
    """A purpose as a log may write it (``First-Player``), folded as a token would carry it: NFKC, A-Z lowered,
    spaces at its ends dropped. Compared with a v2 commitment's purpose; never raises."""
    return _lower_ascii(unicodedata.normalize("NFKC", text).strip())


def _lower_ascii(text: str) -> str:
    return "".join(ch.lower() if "A" <= ch <= "Z" else ch for ch in text)


class Roll(NamedTuple):
    """The dice one v2 commitment draws, in order (docs/randomness.md, "The roll").

    ``coin``, ``3coins``, ``d6``, ``2d6`` and groups joined by '.' (``coin.d20``):
    a fixed number of outcomes. ``coin-until-2``, ``d6-until-6``: one die drawn
    again and again up to and including the first time it shows that face.
    """

    groups: tuple[tuple[int, int], ...]
    """(count, sides) of each group, in order."""
    until: int | None = None
    """For ``-until-``: the face that ends the draws (the one group is then one die)."""

    @classmethod
    def parse(cls, text: str) -> Roll:
        """The roll a token writes; RngError if it is not one."""
        if not isinstance(text, str) or not 1 <= len(text) <= ROLL_MAX:
            raise RngError(Msg("rng.bad_roll", roll=repr(text)), field="roll")
        body, _, until = text.partition("-until-")
        if until and not re.fullmatch(r"[1-9][0-9]{0,9}", until):
            raise RngError(Msg("rng.bad_roll", roll=repr(text)), field="roll")
        groups = []
        for part in body.split("."):
            m = _GROUP.fullmatch(part)
            if m is None:
                raise RngError(Msg("rng.bad_roll", roll=repr(text)), field="roll")
            count = int(m.group(1) or 1)
            sides = 2 if m.group(2).startswith("coin") else int(m.group(3))
            groups.append((count, sides))
        roll = cls(tuple(groups), int(until) if until else None)
        total = sum(c for c, _ in groups)
        if (
            not all(1 <= c <= MAX_OUTCOMES and 2 <= s <= MAX_SIDES for c, s in groups)
            or total > MAX_OUTCOMES
            or (until and (total != 1 or not 1 <= int(until) <= groups[0][1]))
        ):
            raise RngError(Msg("rng.bad_roll", roll=repr(text)), field="roll")
        return roll

    @classmethod
    def of(cls, sides: Sequence[int], until: int | None = None) -> Roll:
        """The roll of ``sides`` (one entry per outcome; consecutive equal dice grouped) or of one die until a face."""
        if until is not None:
            if len(sides) != 1 or not 1 <= until <= sides[0]:
                raise RngError(Msg("rng.bad_until", sides=list(sides), until=until), field="until")
            return cls(((1, sides[0]),), until)
        if not sides or len(sides) > MAX_OUTCOMES:
            raise RngError(Msg("rng.bad_roll", roll=repr(list(sides))), field="roll")
        groups: list[tuple[int, int]] = []
        for s in sides:
            _check_sides(s)
            if groups and groups[-1][1] == s:
                groups[-1] = (groups[-1][0] + 1, s)
            else:
                groups.append((1, s))
        return cls(tuple(groups))

    def text(self) -> str:
        """The roll as a token writes it: ``coin``, ``3coins``, ``2d6``, ``coin.d20``, ``coin-until-2``."""

        def group(count: int, sides: int) -> str:
            die = ("coins" if count > 1 else "coin") if sides == 2 else f"d{sides}"
            return die if count == 1 else f"{count}{die}"

        body = ".".join(group(c, s) for c, s in self.groups)
        return body if self.until is None else f"{body}-until-{self.until}"

    def sides(self) -> list[int]:
        """The sides of each outcome of a fixed roll; of an until roll, its one die."""
        return [s for c, s in self.groups for _ in range(c)]

    def sides_at(self, index: int) -> int | None:
        """The sides of outcome ``index``, or None beyond the roll (an until roll has up to 1000 outcomes)."""
        if self.until is not None:
            return self.groups[0][1] if 0 <= index < MAX_OUTCOMES else None
        for count, sides in self.groups:
            if index < count:
                return sides if index >= 0 else None
            index -= count
        return None

    def draw(self, outcome_at: Callable[[int, int], int]) -> list[tuple[int, int]]:
        """Every outcome of the roll as (sides, face), given ``outcome_at(index, sides)``: a fixed roll's
        outcomes; an until roll's up to and including the first ``until`` face (at most 1000)."""
        if self.until is None:
            return [(s, outcome_at(i, s)) for i, s in enumerate(self.sides())]
        sides = self.groups[0][1]
        out = []
        for i in range(MAX_OUTCOMES):
            out.append((sides, outcome_at(i, sides)))
            if out[-1][1] == self.until:
                break
        return out


_GROUP = re.compile(r"([1-9][0-9]{0,3})?(coins?|d([1-9][0-9]{0,9}))")


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


def _words(secret: bytes, prefix: str) -> Iterator[int]:
    """The words of one outcome: blocks 0, 1, 2 … (HMAC of ``prefix`` and the block number), each split
    into eight big-endian 32-bit words."""
    for block in itertools.count():
        digest = hmac.digest(secret, f"{prefix}{block}".encode("ascii"), "sha256")
        for at in range(0, 32, 4):
            yield int.from_bytes(digest[at : at + 4], "big")


def _first_face(secret: bytes, prefix: str, sides: int) -> int:
    for word in _words(secret, prefix):
        kept = face(word, sides)
        if kept is not None:
            return kept
    raise AssertionError("unreachable: _words never ends")


def outcome(secret: bytes, nonce: str, index: int, sides: int) -> int:
    """Outcome ``index`` (0, 1, 2 …) of the v1 stream that ``secret`` and ``nonce`` fix: a face 1 … sides.

    Each index has its own words, so an outcome depends on its own index and
    sides only: an event names (commitment, index) and is checked on its own.
    The loop ends with probability 1; even for the worst die (2**31 + 1 sides)
    each word is kept with probability above 1/2.
    """
    return stream(secret, nonce)(index, sides)


def stream(secret: bytes, nonce: str) -> Callable[[int, int], int]:
    """v1 ``outcome(secret, nonce, index, sides)`` as a function of (index, sides), with the id worked out once."""
    _check_nonce(nonce)
    id = commitment_id(commitment_digest(secret))

    def outcome_at(index: int, sides: int) -> int:
        _check_index(index)
        _check_sides(sides)
        return _first_face(secret, f"{VERSION}:outcome:{id}:{nonce}:{index}:", sides)

    return outcome_at


def stream2(secret: bytes, id: str, nonces: str) -> Callable[[int, int], int]:
    """The v2 stream of a commitment ``id`` opened by ``secret``, with the opponents' ``nonces`` ('.'-joined):
    outcome (index, sides) is derived from HMAC of ``kifu-rng-v2:outcome:id:nonces:index:sides:block``."""
    _check_secret(secret)
    _check_id(id)
    _check_nonces(nonces)

    def outcome_at(index: int, sides: int) -> int:
        _check_index(index)
        _check_sides(sides)
        return _first_face(secret, f"{VERSION2}:outcome:{id}:{nonces}:{index}:{sides}:", sides)

    return outcome_at


def outcomes(secret: bytes, nonce: str, sides: Sequence[int], start: int = 0) -> list[int]:
    """v1 outcomes ``start``, ``start + 1`` … of a mixed stream: the i-th has ``sides[i]`` faces."""
    at = stream(secret, nonce)
    return [at(start + i, s) for i, s in enumerate(sides)]


def faces(secret: bytes, nonce: str, sides: int, start: int = 0) -> Iterator[int]:
    """v1 outcomes ``start``, ``start + 1`` … all with ``sides`` faces, without end (toss until …)."""
    at = stream(secret, nonce)
    return (at(i, sides) for i in itertools.count(start))


def _check_secret(secret: bytes) -> None:
    if not isinstance(secret, bytes) or len(secret) != SECRET_BYTES:
        raise RngError(Msg("rng.bad_secret", bytes=SECRET_BYTES), field="secret")


def _check_index(index: int) -> None:
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise RngError(Msg("rng.bad_index", index=repr(index)), field="index")


def _check_sides(sides: int) -> None:
    if isinstance(sides, bool) or not isinstance(sides, int) or not 2 <= sides <= MAX_SIDES:
        raise RngError(Msg("rng.bad_sides", sides=repr(sides)), field="sides")


def _check_nonce(nonce: str) -> None:
    if not isinstance(nonce, str) or not NONCE_MIN <= len(nonce) <= NONCE_MAX:
        n = len(nonce) if isinstance(nonce, str) else 0
        raise RngError(Msg("rng.nonce_length", least=NONCE_MIN, most=NONCE_MAX, found=n), field="nonce")
    if not set(nonce) <= _NONCE_CHARS:
        raise RngError(Msg("rng.nonce_chars"), field="nonce")


def _check_nonces(nonces: str) -> None:
    """A v2 reveal's nonces: 1 to 16 nonces joined by '.'."""
    parts = nonces.split(".") if isinstance(nonces, str) else []
    if not 1 <= len(parts) <= MAX_NONCES:
        raise RngError(Msg("rng.too_many_nonces", most=MAX_NONCES), field="nonce")
    for part in parts:
        _check_nonce(part)


def _check_id(id: str) -> None:
    if not isinstance(id, str) or len(id) != ID_LENGTH or not set(id) <= _ID_CHARS:
        raise RngError(Msg("rng.bad_id", length=ID_LENGTH), field="id")


def _check_hex(value: str, field: str) -> None:
    if not isinstance(value, str) or len(value) != 2 * SECRET_BYTES or not set(value) <= _HEX:
        raise RngError(Msg("rng.bad_hex", field=field, digits=2 * SECRET_BYTES), field=field)


def check_digits(body: str) -> str:
    """The check of a token: the first 6 hex digits of SHA-256 of the token, in its canonical form (lower
    case, no whitespace, as ``format`` writes it), without its check field and the colon before it."""
    return hashlib.sha256(body.encode("ascii")).hexdigest()[:CHECK_LENGTH]


def is_strong(nonce: str) -> bool:
    """True when a nonce is at least as hard to guess as v2 asks: 16 characters or more, 8 or more of them
    different. kifu's own nonces always are; ``neko1234`` is not."""
    return len(nonce) >= STRONG_LENGTH and len(set(nonce)) >= STRONG_DISTINCT


def join_nonces(nonces: Sequence[str]) -> str:
    """The opponents' nonces as a v2 reveal repeats them and its outcomes use them: in ASCII order, '.'-joined."""
    return ".".join(sorted(nonces))


# --- the three messages ----------------------------------------------------------------------------

T = TypeVar("T", bound="_Token")


class _Token(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What the three tokens share: a kind letter, a protocol version, and the id of the commitment."""

    letter: ClassVar[str]
    """The token's kind letter after ``kifu:``: ``c``, ``n`` or ``r``."""

    id: str
    """The commitment's id: 8 characters of ``ALPHABET``, derived from the commitment (``commitment_id``)."""
    version: int = 1
    """The protocol version: 1 (``kifu:c1:``) or 2 (``kifu:c2:``)."""

    @property
    def kind(self) -> str:
        """The token's tag after ``kifu:``: ``c1``, ``n2`` …"""
        return f"{self.letter}{self.version}"

    @classmethod
    def parse(cls: type[T], text: str) -> T:
        """The one token of this kind in ``text`` (a chat message, a pasted line); RngError if none or several."""
        found = scan(text)
        mine = list(dict.fromkeys(t for t in found if isinstance(t, cls)))
        if len(mine) == 1:
            return mine[0]
        if mine:
            raise RngError(Msg("rng.many_tokens", count=len(mine), kind=cls.letter), field="token")
        refused = [r for r in found if isinstance(r, Refused) and r.kind[0] == cls.letter]
        if refused:
            raise RngError(Msg("rng.token_refused", kind=refused[0].kind, reason=refused[0].why), field="token")
        raise RngError(Msg("rng.no_token", kind=cls.letter), field="token")


def _check_version(version: int) -> None:
    if version not in LABELS:
        raise RngError(Msg("rng.bad_version", version=repr(version)), field="version")


class Commitment(_Token, frozen=True, kw_only=True):
    """The roller's first message: the SHA-256 of a secret the roller will reveal after the nonce."""

    letter: ClassVar[str] = "c"
    digest: str
    """``commitment_digest(secret, binding)``: 64 lower-case hex digits."""
    binding: Binding | None = None
    """v2: the match, purpose and roll the commitment is bound to (None in v1)."""

    def __post_init__(self) -> None:
        _check_version(self.version)
        _check_id(self.id)
        _check_hex(self.digest, "digest")
        if (self.binding is None) != (self.version == 1):
            raise RngError(Msg("rng.binding_version", version=self.version), field="binding")
        if commitment_id(self.digest) != self.id:
            raise RngError(Msg("rng.id_not_commitment", id=self.id), field="id")

    def body(self) -> str:
        """The token without its check: ``kifu:c1:<id>:<digest>``, ``kifu:c2:<id>:<match>:<purpose>:<roll>:<digest>``."""
        if self.binding is None:
            return f"{PREFIX}c1:{self.id}:{self.digest}"
        b = self.binding
        return f"{PREFIX}c2:{self.id}:{b.match}:{b.purpose}:{b.roll}:{self.digest}"

    def format(self) -> str:
        """The token to post: its body and check digits."""
        body = self.body()
        return f"{body}:{check_digits(body)}"

    def opened_by(self, secret: bytes) -> bool:
        """True when ``secret`` hashes to this commitment (under its binding, in v2)."""
        return commitment_digest(secret, self.binding) == self.digest


class Nonce(_Token, frozen=True, kw_only=True):
    """The opponent's answer: text of their choosing that the roller could not know when committing."""

    letter: ClassVar[str] = "n"
    text: str
    """The nonce: 4 to 64 characters a-z and 0-9 (typed in any case or width, normalised by ``normalise_nonce``)."""

    def __post_init__(self) -> None:
        _check_version(self.version)
        _check_id(self.id)
        _check_nonce(self.text)

    def format(self) -> str:
        """``kifu:n1:<id>:<nonce>`` (``n2`` in v2): no check, so an opponent without kifu can type it by hand."""
        return f"{PREFIX}n{self.version}:{self.id}:{self.text}"


class Reveal(_Token, frozen=True, kw_only=True):
    """The roller's last message: the secret and the nonce(s) it was combined with, hence every outcome."""

    letter: ClassVar[str] = "r"
    secret: str
    """The 32-byte secret in lower-case hex (64 digits)."""
    nonce: str
    """The nonce the outcomes were derived with, echoed so that the opponent sees theirs was used; in v2 the
    nonces of every opponent, in ASCII order, joined by '.'."""

    def __post_init__(self) -> None:
        _check_version(self.version)
        _check_id(self.id)
        _check_hex(self.secret, "secret")
        if self.version == 1:
            _check_nonce(self.nonce)
            # A v1 id follows from the secret alone; a v2 id also from the binding, which only the commit shows.
            if commitment_id(commitment_digest(self.secret_bytes)) != self.id:
                raise RngError(Msg("rng.id_not_secret", id=self.id), field="id")
        else:
            _check_nonces(self.nonce)

    @property
    def secret_bytes(self) -> bytes:
        """The secret as the 32 bytes the construction takes."""
        return parse_secret(self.secret)

    @property
    def nonces(self) -> list[str]:
        """Each nonce the reveal combines (one in v1)."""
        return self.nonce.split(".") if self.version == 2 else [self.nonce]

    def commitment(self, binding: Binding | None = None) -> Commitment:
        """The commitment this secret answers (v2: under ``binding``)."""
        digest = commitment_digest(self.secret_bytes, binding)
        return Commitment(id=commitment_id(digest), digest=digest, version=2 if binding else 1, binding=binding)

    def stream(self) -> Callable[[int, int], int]:
        """Outcome (index, sides) of this reveal's stream."""
        if self.version == 1:
            return stream(self.secret_bytes, self.nonce)
        return stream2(self.secret_bytes, self.id, self.nonce)

    def outcome(self, index: int, sides: int) -> int:
        """Outcome ``index`` with ``sides`` faces."""
        return self.stream()(index, sides)

    def outcomes(self, sides: Sequence[int], start: int = 0) -> list[int]:
        """Outcomes ``start`` … of a mixed stream: the i-th has ``sides[i]`` faces."""
        at = self.stream()
        return [at(start + i, s) for i, s in enumerate(sides)]

    def faces(self, sides: int, start: int = 0) -> Iterator[int]:
        """Outcomes ``start`` … all with ``sides`` faces, without end."""
        at = self.stream()
        return (at(i, sides) for i in itertools.count(start))

    def body(self) -> str:
        """What the check digits cover: ``kifu:r1:<id>:<secret>:<nonce>`` (``r2`` and the nonces in v2)."""
        return f"{PREFIX}r{self.version}:{self.id}:{self.secret}:{self.nonce}"

    def format(self) -> str:
        """``kifu:r1:<id>:<secret>:<check>:<nonce>``: the nonce last, like in a nonce token."""
        check = check_digits(self.body())
        return f"{PREFIX}r{self.version}:{self.id}:{self.secret}:{check}:{self.nonce}"


Token = Commitment | Nonce | Reveal
"""Any of the three messages."""


def parse_secret(text: str) -> bytes:
    """A secret written as 64 lower-case hex digits (a reveal, the secret store) as its 32 bytes."""
    _check_hex(text, "secret")
    return bytes.fromhex(text)


def commit(secret: bytes, binding: Binding | None = None) -> Commitment:
    """The commitment to ``secret``: v1, or v2 bound to ``binding``."""
    digest = commitment_digest(secret, binding)
    return Commitment(id=commitment_id(digest), digest=digest, version=2 if binding else 1, binding=binding)


def reveal(secret: bytes, nonce: Nonce | Sequence[Nonce], version: int = 1) -> Reveal:
    """The reveal of ``secret`` for the answer ``nonce`` (v1), or for every opponent's answer (v2)."""
    answers = [nonce] if isinstance(nonce, Nonce) else list(nonce)
    if version == 1:
        if len(answers) != 1:
            raise RngError(Msg("rng.v1_one_nonce"), field="nonce")
        return Reveal(id=answers[0].id, secret=secret.hex(), nonce=answers[0].text)
    ids = {n.id for n in answers}
    if len(ids) != 1:
        raise RngError(Msg("rng.nonces_ids", ids=", ".join(sorted(ids))), field="nonce")
    return Reveal(id=ids.pop(), secret=secret.hex(), nonce=join_nonces([n.text for n in answers]), version=2)


def new_nonce(id: str, version: int = 1) -> Nonce:
    """A fresh nonce for commitment ``id``: 20 base32 characters (100 bits) from ``new_secret``, always strong."""
    while True:
        text = _base32(new_secret(), GENERATED_NONCE_LENGTH)
        if is_strong(text):  # 20 characters with fewer than 8 different: about one draw in 10**10
            return Nonce(id=id, text=text, version=version)


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
    """Why a commit, its nonce(s) and a reveal do not make one verified toss."""

    code: str
    """Kebab-case reason: ``nonce-names-another-commitment``, ``reveal-names-another-commitment``,
    ``secret-does-not-match-commitment`` or ``reveal-uses-another-nonce``."""
    message: Msg
    """One line naming the values compared (rendered in the reader's language)."""


def verify_reveal(commit: Commitment, reveal: Reveal) -> bool:
    """True when ``reveal`` opens ``commit``: same id and version, and a secret that hashes to the digest."""
    return reveal.id == commit.id and reveal.version == commit.version and commit.opened_by(reveal.secret_bytes)


def problem(commit: Commitment, nonce: Nonce | Sequence[Nonce], reveal: Reveal) -> Problem | None:
    """The first reason the messages are not one toss, or None when the reveal's outcomes stand. In v2
    ``nonce`` is every opponent's answer."""
    answers = [nonce] if isinstance(nonce, Nonce) else list(nonce)
    for n in answers:
        if n.id != commit.id:
            return Problem(
                code="nonce-names-another-commitment", message=Msg("rng.problem_nonce_id", nonce=n.id, commit=commit.id)
            )
    if reveal.id != commit.id:
        return Problem(
            code="reveal-names-another-commitment",
            message=Msg("rng.problem_reveal_id", reveal=reveal.id, commit=commit.id),
        )
    if not verify_reveal(commit, reveal):
        return Problem(
            code="secret-does-not-match-commitment",
            message=Msg(
                "rng.problem_secret",
                digest=commitment_digest(reveal.secret_bytes, commit.binding),
                committed=commit.digest,
            ),
        )
    sent = answers[0].text if commit.version == 1 and len(answers) == 1 else join_nonces([n.text for n in answers])
    if reveal.nonce != sent:
        return Problem(code="reveal-uses-another-nonce", message=Msg("rng.problem_nonce", used=reveal.nonce, sent=sent))
    return None


def settle(commit: Commitment, nonce: Nonce | Sequence[Nonce], reveal: Reveal) -> Reveal:
    """The reveal, once checked against its commit and nonce(s): its ``outcome``/``outcomes``/``faces``
    are then the verified stream. RngError naming the problem otherwise."""
    found = problem(commit, nonce, reveal)
    if found is not None:
        raise RngError(found.message, field=found.code)
    return reveal


# --- finding tokens in chat text ----------------------------------------------------------------------


class Refused(msgspec.Struct, frozen=True, kw_only=True):
    """Text that starts like a token but is not a valid one: mangled on the way, or mistyped."""

    kind: str
    """The tag it started with: ``c1``, ``n1``, ``r1``, ``c2`` … or another version this kifu does not read."""
    reason: str
    """What is wrong, in one line of English (data: a report's JSON keeps it)."""
    text: str
    """The folded text from ``kifu:`` on, as long as the longest token at most and up to the next ``kifu:``."""
    key: str = ""
    """The catalogue id ``reason`` was written from (empty: none), so that a person reads it in their language."""
    args: tuple[tuple[str, object], ...] = ()
    """The values filled into ``key``'s message."""

    @property
    def why(self) -> Msg | str:
        """What is wrong, as a message to render in the reader's language (``reason`` where there is none)."""
        return Msg(self.key, **dict(self.args)) if self.key else self.reason


class _Stop(Exception):
    """Reading a token stopped: ``message`` says why (becomes a Refused)."""

    def __init__(self, message: Msg) -> None:
        super().__init__(str(message))
        self.message = message


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
            if allowed is _HEX:
                raise _Stop(Msg("rng.stop.hex", field=what, n=n))
            raise _Stop(Msg("rng.stop.chars", field=what, n=n, alphabet=ALPHABET))
        self.at += n
        self.got[what] = value
        return value

    def field(self, n: int, allowed: frozenset[str], what: str) -> str:
        """A fixed-length field and the colon after it."""
        value = self.fixed(n, allowed, what)
        self.colon(what)
        return value

    def colon(self, what: str) -> None:
        if self.text[self.at : self.at + 1] != ":":
            raise _Stop(Msg("rng.stop.colon", field=what))
        self.at += 1

    def word(self, most: int, what: str) -> str:
        """A v2 field of a-z, 0-9, '.' and '-' up to its colon (at most ``most`` characters)."""
        begin = self.at
        while self.at < len(self.text) and self.text[self.at] in _FIELD_CHARS and self.at - begin <= most:
            self.at += 1
        value = self.text[begin : self.at]
        if not 1 <= len(value) <= most:
            raise _Stop(Msg("rng.stop.word", field=what, most=most))
        self.colon(what)
        self.got[what] = value
        return value

    def _joined(self) -> bool:
        """True when the next character continues a word: an ASCII letter or digit with no whitespace before it."""
        return self.at < len(self.text) and self.text[self.at] in _NONCE_CHARS and not self.gaps[self.at]

    def nonce(self) -> str:
        """A nonce: ASCII letters and digits up to whitespace or any other character (a nonce ends its token)."""
        begin = self.at
        if self.at < len(self.text) and self.text[self.at] in _NONCE_CHARS:
            self.at += 1
            while self._joined() and self.at - begin <= NONCE_MAX:
                self.at += 1
        value = self.text[begin : self.at]
        if len(value) > NONCE_MAX:
            raise _Stop(Msg("rng.stop.nonce_long", most=NONCE_MAX))
        if len(value) < NONCE_MIN:
            raise _Stop(Msg("rng.stop.nonce_length", least=NONCE_MIN, most=NONCE_MAX, found=len(value)))
        self.got["nonce"] = value
        return value

    def nonces(self) -> str:
        """A v2 reveal's nonces: a nonce, then '.' and another, as long as the '.' and the letter or digit after
        it follow with no whitespace between (``neko1234.`` ends a sentence: one nonce)."""
        found = [self.nonce()]
        while (
            self.text[self.at : self.at + 1] == "."
            and not self.gaps[self.at]
            and self.at + 1 < len(self.text)
            and self.text[self.at + 1] in _NONCE_CHARS
            and not self.gaps[self.at + 1]
        ):
            if len(found) == MAX_NONCES:
                raise _Stop(Msg("rng.stop.nonces", most=MAX_NONCES))
            self.at += 1
            found.append(self.nonce())
        value = ".".join(found)
        self.got["nonce"] = value
        return value

    def end(self) -> None:
        if self._joined():
            raise _Stop(Msg("rng.stop.runs_on"))


def _read(text: str, gaps: list[bool], start: int) -> tuple[Token | Refused, _Reader] | None:
    """The token whose ``kifu:`` begins at ``start`` and the reader left after it; None when what
    follows is no token tag."""
    tag = text[start + len(PREFIX) : start + len(PREFIX) + 3]
    if len(tag) != 3 or tag[0] not in "cnr" or tag[1] not in "0123456789" or tag[2] != ":":
        return None
    kind = tag[:2]
    reader = _Reader(text, gaps, start + len(PREFIX) + 3)
    try:
        if kind not in _FIELDS:
            raise _Stop(Msg("rng.stop.version", kind=kind, known=f"{kind[0]}1, {kind[0]}2"))
        return _FIELDS[kind](reader), reader
    except (_Stop, RngError) as stop:
        why = stop.message
        shown = text[start : start + _LONGEST_TOKEN]
        after = shown.find(PREFIX, 1)
        key, args = (why.key, tuple(why.params.items())) if isinstance(why, Msg) else ("", ())
        shown = shown if after == -1 else shown[:after]
        return Refused(kind=kind, reason=str(why), text=shown, key=key, args=args), reader


def _read_commit(r: _Reader) -> Commitment:
    id = r.field(ID_LENGTH, _ID_CHARS, "id")
    digest = r.field(2 * SECRET_BYTES, _HEX, "digest")
    check = r.fixed(CHECK_LENGTH, _HEX, "check")
    r.end()
    _expect_check(check, f"{PREFIX}c1:{id}:{digest}")
    return Commitment(id=id, digest=digest)


def _read_commit2(r: _Reader) -> Commitment:
    id = r.field(ID_LENGTH, _ID_CHARS, "id")
    match = r.word(FIELD_MAX + 1, "match")
    purpose = r.word(FIELD_MAX, "purpose")
    roll = r.word(ROLL_MAX, "roll")
    digest = r.field(2 * SECRET_BYTES, _HEX, "digest")
    check = r.fixed(CHECK_LENGTH, _HEX, "check")
    r.end()
    _expect_check(check, f"{PREFIX}c2:{id}:{match}:{purpose}:{roll}:{digest}")
    return Commitment(id=id, digest=digest, version=2, binding=Binding(match=match, purpose=purpose, roll=roll))


def _read_nonce(version: int) -> Callable[[_Reader], Nonce]:
    def read(r: _Reader) -> Nonce:
        id = r.field(ID_LENGTH, _ID_CHARS, "id")
        return Nonce(id=id, text=r.nonce(), version=version)

    return read


def _read_reveal(version: int) -> Callable[[_Reader], Reveal]:
    def read(r: _Reader) -> Reveal:
        id = r.field(ID_LENGTH, _ID_CHARS, "id")
        secret = r.field(2 * SECRET_BYTES, _HEX, "secret")
        check = r.field(CHECK_LENGTH, _HEX, "check")
        nonce = r.nonce() if version == 1 else r.nonces()
        _expect_check(check, f"{PREFIX}r{version}:{id}:{secret}:{nonce}")
        return Reveal(id=id, secret=secret, nonce=nonce, version=version)

    return read


def _expect_check(check: str, body: str) -> None:
    if check != check_digits(body):
        raise _Stop(Msg("rng.stop.check_digits"))


_FIELDS: dict[str, Callable[[_Reader], Token]] = {
    "c1": _read_commit,
    "n1": _read_nonce(1),
    "r1": _read_reveal(1),
    "c2": _read_commit2,
    "n2": _read_nonce(2),
    "r2": _read_reveal(2),
}


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
    """Each field as the message wrote it (folded), read in full before any check: ``id``, ``match``,
    ``purpose``, ``roll``, ``digest``, ``secret``, ``check``, ``nonce``. For a refused token, what it said as
    far as it could be read."""
    claims: tuple[tuple[int, int], ...] = ()
    """After a reveal token, the outcomes posted with it (``→ 裏``, ``→ d6=4``): (sides, face) from outcome 0."""
    arrow: bool = False
    """True when an arrow followed the reveal token (``claims`` may still be empty: ``→ ?``)."""


def read_chat(text: str) -> list[Found]:
    """``scan``, with each token's fields as written and the outcomes a reveal posts after an arrow.

    Claims follow a reveal token in the same message (docs/randomness.md, "Posting
    the outcomes"): the first arrow (``→``, ``->``, ``=>``, ``⇒``) after the token and
    before any further token, then coins (``表``, ``裏``, ``heads``, ``tails``) and dice
    (``d6=4``, ``d6=4,2``) in outcome order, read on the folded text like the token.
    Reading stops at the first thing that is neither. Never raises; linear in the
    text's length.
    """
    normalised = unicodedata.normalize("NFKC", text)
    if not _may_hold_token(normalised):
        return []  # most chat messages skip the per-character fold
    folded, gaps = _fold_normalised(normalised)
    found: list[Found] = []
    start = folded.find(PREFIX)
    while start != -1:
        item = _read(folded, gaps, start)
        following = folded.find(PREFIX, start + 1)
        if item is not None:
            token, reader = item
            arrow, claims = False, ()  # type: tuple[bool, tuple[tuple[int, int], ...]]
            if token.kind[0] == "r":
                arrow, claims = _claims(folded, reader.at, len(folded) if following == -1 else following)
            found.append(Found(token=token, fields=reader.got, claims=claims, arrow=arrow))
        start = following
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


def _claims(text: str, at: int, stop: int) -> tuple[bool, tuple[tuple[int, int], ...]]:
    """Whether an arrow follows a reveal that ends at ``at`` before ``stop`` (the next token), and the outcomes
    posted after the first one (folded text, whitespace already removed)."""
    where = [(i, a) for a in ARROWS if (i := text.find(a, at, stop)) != -1]
    if not where:
        return False, ()
    first, arrow = min(where)
    at = first + len(arrow)
    out: list[tuple[int, int]] = []
    while at < stop and len(out) < MAX_OUTCOMES:
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
            while len(out) < MAX_OUTCOMES and at < stop and text[at] in _CLAIM_SEPARATORS:
                more, after = _number(text, at + 1)
                if more is None:
                    break
                out.append((sides, more))
                at = after
        else:
            break
        if at < stop and text[at] in _CLAIM_SEPARATORS:
            at += 1
    return True, tuple(out)


def draw(
    reveal: Reveal, sides: Sequence[int], until: int | None = None, limit: int = MAX_OUTCOMES
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
