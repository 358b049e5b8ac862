"""The kifu/1 envelope, the events every game shares, and the one root error class.

Contract 1 of DESIGN.md: every line of a match log is one event with ``seq``,
``type`` and ``prev``, optionally ``at``, ``by`` and ``src`` (provenance), and the
event's own fields. Events are frozen msgspec Structs; each game puts its own
events and the shared ones below into one tagged union (``type`` is the tag).
"""

# The annotations of event structs are not postponed (no ``from __future__ import annotations`` here nor in a
# game's ``events`` module): msgspec compiles every annotation written as a string when it builds a game's
# decoder, most of the decoder's cost in each command's cold start. A forward reference is quoted.

from typing import Annotated, Any, ClassVar, Literal

import msgspec
from msgspec import Meta

from . import i18n
from .i18n import Msg

FORMAT = "kifu/1"


class KifuError(Exception):
    """A log or an input that cannot be trusted. The CLI prints it as one line, exit 2.

    ``message`` is a catalogue message (``Msg("log.torn_tail", bytes=12)``, rendered
    in the reader's language) or, for words that come from outside kifu (the operating
    system, a library), plain text. ``where`` names the file, ``line`` the 1-based
    line, ``seq`` and ``field`` the event and field when they are known, ``offset`` a
    byte offset.
    """

    def __init__(
        self,
        message: str | Msg,
        *,
        where: str | None = None,
        line: int | None = None,
        seq: int | None = None,
        field: str | None = None,
        offset: int | None = None,
    ) -> None:
        super().__init__(str(message))
        self.message = message
        self.where = where
        self.line = line
        self.seq = seq
        self.field = field
        self.offset = offset

    def located(self, where: str) -> "KifuError":
        """The same error, naming ``where`` if it named no file yet."""
        if self.where is None:
            self.where = where
        return self

    def render(self, lang: str = "en") -> str:
        """One line: file:line, byte offset, seq, field, then the message, in ``lang``."""
        parts = []
        if self.where is not None:
            parts.append(self.where if self.line is None else f"{self.where}:{self.line}")
        elif self.line is not None:
            parts.append(i18n.text("where.line", lang, line=self.line))
        if self.offset is not None:
            parts.append(i18n.text("where.byte", lang, offset=self.offset))
        if self.seq is not None:
            parts.append(f"seq {self.seq}")
        if self.field is not None:
            parts.append(i18n.text("where.field", lang, field=self.field))
        head = ": ".join(parts)
        text = i18n.render(self.message, lang)
        return f"{head}: {text}" if head else text

    def __str__(self) -> str:
        return self.render("en")


class MalformedEvent(KifuError):
    """A line that is not JSON, names an unknown type, or has a wrong or unknown field."""


class ChainBroken(KifuError):
    """The hash chain or the seq numbering does not hold: the log was edited."""


class TornTail(KifuError):
    """The last line has no terminator: a write was cut off (see ``kifu repair``)."""


class StaleAppend(KifuError):
    """An append named a seq that is no longer the next one (someone appended first)."""


class HeadMismatch(KifuError):
    """The log's head is not the one the caller expected (truncated or changed)."""


class Source(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Where an imported event came from, so a judge can check it against the export."""

    file: str
    """The source file name (no directory), as given to the importer."""
    loc: str
    """Line number, element path or message id inside the file."""
    text: str | None = None
    """The original text of the message, unchanged."""
    edited: bool = False
    """True when the source marks the message as edited after it was first sent."""


class Event(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    omit_defaults=True,
    tag_field="type",
):
    """The kifu/1 envelope. Every event type subclasses this with ``tag="ns.name"``."""

    seq: int
    """Position in the log: 1, 2, 3 … with no gaps."""
    prev: str | None
    """Lowercase hex SHA-256 of the exact bytes of the previous line; null for seq 1."""
    at: str | None = None
    """RFC 3339 time from the source, if it has one."""
    by: str | None = None
    """The acting player id, ``judge``, ``recorder`` or ``system``."""
    src: Source | None = None
    """Provenance of an imported event."""

    random: ClassVar[bool] = False
    """True for events whose payload is a random outcome (see the warehouse view)."""
    outcomes_each: ClassVar[int | None] = None
    """How many outcomes ``outcomes()`` gives for every event of the class, when that never varies: a count
    of outcomes (``kifu verify``'s) then counts the events instead of calling it on each."""

    def outcomes(self) -> tuple[tuple[int, int], ...]:
        """The random outcomes this event records, in order, as (sides, face): face 1 … sides.

        Empty for most events. An event that can name a verifiable commitment (its
        ``rng`` field) says here which faces it recorded, so that the audit can compare
        them with the faces the commitment derives (docs/randomness.md).
        """
        return ()


class Player(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A participant named in ``match.start``."""

    id: str
    """Short stable id used in ``by`` and in event fields."""
    name: str
    """Display name."""
    key: str | None = None
    """A stable key of the person across matches, when one is known: ``namespace:id`` such as
    ``discord:81234567890123456`` (a Discord user id), ``arena:<user id>``, ``udonarium:<peer id>``
    or an organiser's membership or tournament id (``jcg:12345``). Importers fill it where the
    source has one; the warehouse resolves seats to people by it (docs/sql.md, "People").
    Omitted when unknown, so logs without keys stay byte-identical."""


class MatchStarted(Event, tag="match.start", kw_only=True):
    """Event 1 of every log: which game, which match, who plays, under which options."""

    format: Literal["kifu/1"]
    """Always ``kifu/1``."""
    game: str
    """Game id: ``gunandgun``, ``mtg``, ``worldtrigger``, ``weiss`` or ``generic``."""
    match: str
    """Match id, unique within an event or a warehouse."""
    players: list[Player]
    """Players in seat order."""
    rules: dict[str, Any] = {}
    """Variant and house-ruling options; unnamed options take their documented default."""
    catalogue: dict[str, Any] | None = None
    """A card or trigger catalogue the table played with, in the game's catalogue shape."""
    title: str | None = None
    """Free text: tournament, round, table."""


class MatchEnded(Event, tag="match.end", kw_only=True):
    """The end of the match as recorded. Nothing may follow it but notes and rulings."""

    winner: str | None = None
    """Player id of the winner; null for a draw or an unfinished match."""
    reason: str = ""
    """Why it ended (``life``, ``deck-out``, ``concede``, ``bailout``, ``time``, …)."""


class Note(Event, tag="note", kw_only=True):
    """Free text: table talk, an imported chat line, a judge's remark."""

    text: str
    """The text, unchanged."""
    channel: str | None = None
    """Chat channel or tab of an imported message."""
    speaker: str | None = None
    """Display name of an imported message's speaker, when it names no player."""
    secret: bool = False
    """True when the source marked the message as hidden from other players."""
    unread: str | None = None
    """Set by ``kifu import`` when the message holds a dice result it could not read: why (``a CoC 7th
    result with a label kifu does not know``). The dice are not in the log; ``kifu show`` flags the note
    and ``kifu audit`` lists every such note (KIFU-LOG-015)."""


class JudgeRuling(Event, tag="judge.ruling", kw_only=True):
    """A judge's ruling about earlier events. It never edits them; it is testimony too."""

    about: list[int]
    """The seqs the ruling is about."""
    text: str
    """The ruling in words."""
    code: str | None = None
    """The rule code it applies, if any."""
    decision: str | None = None
    """Short outcome: ``upheld``, ``warning``, ``game-loss``, ``rewind`` …"""


CommitmentId = Annotated[str, Meta(pattern=r"^[0-9a-hjkmnp-tv-z]{8}$")]
"""A commitment's id: 8 characters of ``0123456789abcdefghjkmnpqrstvwxyz`` (docs/randomness.md)."""
Hex256 = Annotated[str, Meta(pattern=r"^[0-9a-f]{64}$")]
"""32 bytes as 64 lower-case hex digits: a commitment's digest or its secret."""
NonceText = Annotated[str, Meta(pattern=r"^[0-9a-z]{4,64}$")]
"""A nonce: 4 to 64 characters a-z and 0-9 (normalised as docs/randomness.md says)."""
NonceList = Annotated[str, Meta(pattern=r"^[0-9a-z]{4,64}(\.[0-9a-z]{4,64}){0,15}$")]
"""The nonce a reveal repeats: one nonce, or (v2) up to 16 opponents' nonces joined by '.'."""
TokenField = Annotated[str, Meta(pattern=r"^(-[0-9a-hjkmnp-tv-z]{16}|[a-z0-9][a-z0-9.-]{0,39})$")]
"""A v2 commitment's match or purpose as its token carries it: 1 to 40 of a-z, 0-9, '.', '-' (a match id that
is not such is '-' and 16 base32 characters of its SHA-256)."""
RollText = Annotated[str, Meta(pattern=r"^[a-z0-9.-]{1,64}$")]
"""A v2 commitment's roll as its token carries it (``coin``, ``2d6``, ``coin.d20``, ``coin-until-2``)."""


class RngRef(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Which verifiable outcomes an event records: outcomes ``index``, ``index`` + 1 … of one commitment."""

    commit: CommitmentId
    """The id of the commitment (``rng.commit``) whose reveal fixes the outcomes."""
    index: Annotated[int, Meta(ge=0)] = 0
    """The index of the event's first outcome in that commitment's stream; the event's further outcomes
    (a ``random`` event's later values) take the indices after it."""


class RngCommitted(Event, tag="rng.commit", kw_only=True):
    """A roller's commitment to a secret for verifiable tosses (docs/randomness.md): ``by`` is the roller."""

    id: CommitmentId
    """The commitment's id, derived from the digest."""
    digest: Hex256
    """SHA-256 of ``kifu-rng-v1:commit:`` and the secret (v1), or of ``kifu-rng-v2:commit:``, the match, the
    purpose, the roll and the secret (v2), as the commit token showed it."""
    speaker: str | None = None
    """Display name of an imported message's speaker, when it names no player."""
    version: Literal[1, 2] = 1
    """The protocol version of the commit token (``kifu:c1:``, ``kifu:c2:``)."""
    match: TokenField | None = None
    """v2: the match the commitment is bound to, as its token names it (the log's match id, folded)."""
    purpose: TokenField | None = None
    """v2: what the toss decides (``first-player``), as its token names it."""
    roll: RollText | None = None
    """v2: the dice it rolls, in order (``coin``, ``2d6``, ``coin-until-2``)."""
    opponents: list[str] | None = None
    """The players whose nonces the toss waits for, when the recorder named them (``kifu append --toss
    --opponent``); otherwise every player of the match but the roller."""


class RngNonced(Event, tag="rng.nonce", kw_only=True):
    """The opponent's answer to a commitment: text the roller could not know. ``by`` is the opponent."""

    id: CommitmentId
    """The commitment it answers."""
    nonce: NonceText
    """The nonce, normalised (lower case, ASCII)."""
    speaker: str | None = None
    """Display name of an imported message's speaker, when it names no player."""


class RngRevealed(Event, tag="rng.reveal", kw_only=True):
    """The roller reveals the secret: with the nonce it fixes every outcome of the commitment. ``by`` is the roller."""

    id: CommitmentId
    """The commitment it opens."""
    secret: Hex256
    """The secret, as the reveal token showed it (the audit checks that it hashes to the commitment)."""
    nonce: NonceList
    """The nonce the outcomes were derived with, as the reveal token repeated it; in v2 the opponents'
    nonces in ASCII order joined by '.'."""
    speaker: str | None = None
    """Display name of an imported message's speaker, when it names no player."""
    version: Literal[1, 2] = 1
    """The protocol version of the reveal token (``kifu:r1:``, ``kifu:r2:``)."""


RNG_EVENTS: tuple[type[Event], ...] = (RngCommitted, RngNonced, RngRevealed)
"""The three events of a verifiable toss, in protocol order."""


class RandomRolled(Event, tag="random", kw_only=True):
    """A random outcome no game event explains: an imported die roll, a coin, a choice."""

    random: ClassVar[bool] = True
    kind: Literal["coin", "die", "choice", "total"]
    """``coin`` (2 sides), ``die``, ``choice`` (one of named options), or ``total``: the sum of
    several dice whose faces the source does not show (a BCDice 2D6 table's ``シーン表(8)``)."""
    sides: int
    """Faces of each die or coin; the number of options of a choice."""
    values: list[int]
    """Each die's face, 1-based; for a choice the 1-based index of the pick; for a ``total`` one
    value, the sum."""
    dice: int | None = None
    """``total`` only: how many dice of ``sides`` faces were added up (2 for a 2D6 table)."""
    expr: str | None = None
    """The command as typed (``1D2``, ``CHOICE[表,裏]``)."""
    result: str | None = None
    """The result text as the source printed it."""
    secret: bool = False
    """True for a secret (hidden) roll."""
    purpose: str | None = None
    """What the roll decided, if the source says (``first-player``)."""
    speaker: str | None = None
    """Display name of an imported roll's roller, when it names no player."""
    rng: RngRef | None = None
    """The verifiable outcomes these are: ``values[i]`` is outcome ``rng.index + i`` of commitment
    ``rng.commit`` with ``sides`` sides (docs/randomness.md); absent for a roll taken on trust."""

    def outcomes(self) -> tuple[tuple[int, int], ...]:
        return tuple((self.sides, v) for v in self.values)


class LogVoided(Event, tag="log.void", kw_only=True):
    """Earlier events taken back as a recording mistake (a typo at the table): never an edit.

    The voided lines stay in the log, hash-chained as written; projections and the
    auditor treat them as never having happened, and every report shows them struck
    through with the reason. Only a recorder or the judge voids (``by``); a void of
    ``match.start``, of another void, or of an event a standing judge ruling is about
    takes nothing back and is a finding (KIFU-LOG-009 to 013).
    """

    about: Annotated[list[int], msgspec.Meta(min_length=1)]
    """The seqs taken back, each earlier than the void."""
    reason: Annotated[str, msgspec.Meta(min_length=1)]
    """Why, in words (``typed a1 for a2``, ``undo``)."""


SHARED_EVENTS: tuple[type[Event], ...] = (
    MatchStarted,
    MatchEnded,
    Note,
    JudgeRuling,
    RandomRolled,
    LogVoided,
    RngCommitted,
    RngNonced,
    RngRevealed,
)
"""Event types every game's union includes."""


def event_type(cls: type[Event]) -> str:
    """The ``type`` tag of an event class."""
    return cls.__struct_config__.tag  # type: ignore[return-value]  # msgspec types a tag as str | int | None; every event's is a str
