"""The ガンナガン (Gun and Gun) card catalogue: typed schema and loader.

Facts only, in our own words: the 9 guns, 6 gunners, 18 skills and 54 deck cards of
``shared/reference/gunandgun.md`` (§1.4–1.11, §2.1–2.3), with every number on a card
tagged with its role and whether the coin-toss variant of the coin-toss variant
(`the coin-toss variant`) replaces it with N. Where the coin-toss variant states
a card fact differently from the reference, the coin-toss variant wins and the card says so in
``variant_note``. The page ``docs/games/gunandgun-cards.md`` documents the schema.

The data is ``gunandgun.json`` (package data). ``load()`` decodes it once with the
structs below, so a malformed catalogue fails loudly, naming the field; ``merged()``
lays a log's own ``match.start.catalogue`` over it by id.
"""

from __future__ import annotations

import weakref
from functools import lru_cache
from importlib import resources
from typing import Annotated, Any, Literal, TypeVar

import msgspec
from msgspec import Meta

from kifu.events.base import KifuError, MatchStarted
from kifu.events.codec import field_error
from kifu.events.i18n import Msg

__all__ = [
    "AdditionalCost",
    "Card",
    "Catalogue",
    "CatalogueError",
    "Gun",
    "Gunner",
    "HitRow",
    "Limit",
    "Number",
    "Role",
    "Skill",
    "check",
    "convert",
    "decode",
    "for_match",
    "load",
    "merged",
]

Role = Literal[
    "draw",
    "hit",
    "hit_mod",
    "threshold",
    "load",
    "mill",
    "heal",
    "volt",
    "counter",
    "burn",
    "discard",
    "additional_cost",
    "limit_imposed",
    "turns",
    "other",
]
"""What a number on a card counts (see the doc page for each role)."""

Slug = Annotated[str, Meta(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]
NonNeg = Annotated[int, Meta(ge=0)]
Positive = Annotated[int, Meta(ge=1)]
Text = Annotated[str, Meta(min_length=1)]

_STRUCT = dict(frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True)


class CatalogueError(KifuError):
    """A catalogue (built-in or a log's own) that cannot be trusted; names the field."""


class Number(msgspec.Struct, **_STRUCT):
    """One number printed in an effect, tagged for the coin-toss variant."""

    value: int
    """The number as printed (a replacement value such as 迎撃's 0 included)."""
    role: Role
    """What it counts: cards drawn, HIT dealt, a threshold, a limit imposed on the opponent …"""
    replaceable: bool
    """True when the variant replaces it with N (the coin-toss variant §基本ルール 2, §追加コストについて)."""
    note: str = ""
    """Why, where the policy needs a word: structural numbers, timing, seed rulings."""


class Limit(msgspec.Struct, **_STRUCT):
    """A usage limit the card puts on its own owner; never replaced by N (the coin-toss variant §ルール適用の例外)."""

    scope: Literal["turn", "game"]
    """The period the limit counts over."""
    per: Literal["name", "effect", "loading"]
    """What is counted: uses of any card of this name, uses of this effect, loadings of this card."""
    n: Positive = 1
    """How many are allowed in the period."""
    note: str = ""
    """Anything the three fields cannot say."""


class AdditionalCost(msgspec.Struct, **_STRUCT):
    """An additional cost: discard ``n`` cards loaded in one of your own guns."""

    gun: Slug
    """Id of the gun whose loads are discarded."""
    n: NonNeg
    """How many loads, as printed; the variant replaces it with N (the coin-toss variant §追加コストについて)."""


class Card(msgspec.Struct, **_STRUCT):
    """One deck card (action, function, response or bullet)."""

    id: Slug
    """Romaji slug, stable across versions (``keiryaku``)."""
    name: Text
    """The Japanese name as printed (``計略``)."""
    no: Text
    """Card number(s) as printed; two numbers when the card is in two decks."""
    kind: Literal["action", "function", "response", "bullet"]
    """【行動】, 【機能】, 【対応】 or 【銃弾】."""
    cost: NonNeg
    """COST as printed; never replaced by N."""
    copies: dict[Slug, Positive]
    """Gun id -> copies of this card in that gun's 20-card deck."""
    additional_cost: AdditionalCost | None = None
    """The 追加コスト, if the card has one."""
    limits: list[Limit] = []
    """The card's own usage limits (unchanged by the variant)."""
    numbers: list[Number] = []
    """Every number of the effect, in the order it appears."""
    timing: Literal["activation", "shot", "turn_start", "turn_end", "response", "continuous", "other"] | None = None
    """When the effect happens (functions: turn_start / turn_end / continuous; responses: response)."""
    condition: str = ""
    """For response and conditional cards: the condition, in our words."""
    overclock: bool = False
    """True for 【オーバークロック】 cards (none in this set; kept for expansions)."""
    no_responses: bool = False
    """True for a bullet whose shot the opponent may not answer with 【対応】 (ステルスバレット)."""
    not_first_turn: bool = False
    """True when the card may not be used on its owner's own first turn (オーバーヒート); a usage limit, never tossed."""
    summary: Text
    """Our own short English paraphrase of the effect, never the card text."""
    variant_note: str = ""
    """Where the coin-toss variant states the card differently from the reference (the coin-toss variant wins)."""

    @property
    def replaceable_numbers(self) -> list[Number]:
        """The numbers the variant replaces with N, in printed order (all take the same N)."""
        return [n for n in self.numbers if n.replaceable]

    def numbers_with(self, role: str) -> list[Number]:
        """The card's numbers of one role, in printed order."""
        return [n for n in self.numbers if n.role == role]


class HitRow(msgspec.Struct, **_STRUCT):
    """One row of a gun's HIT table: with at least ``load`` cards loaded, a shot deals ``hit``."""

    load: Positive
    """Load count threshold of the row (the row applies up to the next one)."""
    hit: NonNeg
    """HIT the shot deals (never replaced: a gun effect)."""
    extra: str = ""
    """Keyword effect of the row (``RECOIL2``, ``BURN1``, ``RETRIEVAL`` …)."""


class Gun(msgspec.Struct, **_STRUCT):
    """One gun (機銃): its stats, its HIT table and its load restrictions."""

    id: Slug
    """Romaji slug of the gun's short name (``kiyohime``)."""
    name: Text
    """Full Japanese name as printed (``不消焔器 キヨヒメ``)."""
    no: Text
    """Card number (``OH-G-02``)."""
    type: Literal["light", "heavy", "special"]
    """Frame type (reference §2.1, after the norosi-wolf tool)."""
    max_load: Positive
    """最大装填数: the most cards it can hold, by any method."""
    load_limit: NonNeg
    """装填上限: cards the basic load action may put in per turn."""
    weight: NonNeg
    """重量: the first-player tie-break uses the lower total of two guns."""
    hit_table: list[HitRow]
    """Rows in ascending load order."""
    deck_size: Positive = 20
    """Cards in the gun's own deck as the rules build it (20 for every gun of the base set and OVERHEAT;
    reference §1.1). The deck is *complete* when its cards' ``copies`` add up to this."""
    face_up_bullets: bool = True
    """False when 【銃弾】 cards may not be loaded face up (ドドメ)."""
    face_down_loads: bool = True
    """False when face-down loads are forbidden (ダイダラ, an expansion gun)."""
    basic_load: bool = True
    """False when the basic load action cannot load it (カシャ, an expansion gun)."""
    no_responses: bool = False
    """True when the opponent may not answer its shots with 【対応】 (ダタラ's own effect, never tossed)."""
    summary: Text
    """Our paraphrase of the inherent effect (never replaced by N)."""

    @property
    def short_name(self) -> str:
        """The name after the type prefix (``キヨヒメ``), as additional costs write it."""
        return self.name.rsplit(" ", 1)[-1]

    def min_load(self) -> int | None:
        """The fewest loads it needs to shoot (lowest HIT-table row), None for an empty table."""
        return self.hit_table[0].load if self.hit_table else None

    def hit_at(self, load: int) -> HitRow | None:
        """The row a shot with ``load`` cards uses: highest threshold <= load, capped at max_load."""
        row = None
        for r in self.hit_table:
            if r.load <= min(load, self.max_load):
                row = r
        return row


class Gunner(msgspec.Struct, **_STRUCT):
    """One gunner (銃士); its effect is never replaced by N (the coin-toss variant §ルール適用の例外)."""

    id: Slug
    """Romaji slug (``hibana``)."""
    name: Text
    """Japanese name as printed."""
    no: Text
    """Card number (``01``, ``OH-02``)."""
    speed: NonNeg
    """速: the higher speed goes first."""
    hand: Positive
    """札: the hand is refilled to this size in the down phase."""
    life: Positive = 30
    """Starting life: a rule constant of 30 (マカ starts at 40 by her text)."""
    skills: list[Slug]
    """Ids of the three skills the gunner chooses from."""
    summary: Text
    """Our paraphrase of the gunner effect."""


class Skill(msgspec.Struct, **_STRUCT):
    """One skill (技能). Its voltage cost is never replaced; its effect numbers are."""

    id: Slug
    """Romaji slug (``oboro-bashiri``)."""
    name: Text
    """Japanese name as printed."""
    gunner: Slug | None
    """Id of the gunner it belongs to, None for a skill outside any gunner."""
    cost: NonNeg | None
    """Voltage cost; None means X (chosen when used) or not known (the summary says which)."""
    kind: Literal["normal", "continuous", "response"]
    """Plain, 【継続】 (tossed once at each owner's turn start) or 【対応】 (used at response timing)."""
    flip_back: bool = False
    """True when it turns face down again after use, so it can be reused."""
    per_turn: Positive | None = None
    """Uses allowed per turn for flip-back skills; a plain skill is once per game."""
    numbers: list[Number] = []
    """Effect numbers in printed order (BURST numbers included)."""
    summary: Text
    """Our paraphrase, with what the reference does not give."""


class Catalogue(msgspec.Struct, weakref=True, **_STRUCT):
    """The whole catalogue. Immutable: lookups use an index built once per instance (weakref: see _index)."""

    version: Text
    """Data version; bumped when a fact changes."""
    source: Text
    """Where the facts come from."""
    guns: list[Gun] = []
    """All guns."""
    gunners: list[Gunner] = []
    """All gunners."""
    skills: list[Skill] = []
    """All skills."""
    cards: list[Card] = []
    """All deck cards."""

    def card(self, key: str) -> Card | None:
        """A deck card by id or exact Japanese name; None if unknown."""
        return _index(self).cards.get(key)

    def gun(self, key: str) -> Gun | None:
        """A gun by id, full Japanese name or short name (``キヨヒメ``); None if unknown."""
        return _index(self).guns.get(key)

    def gunner(self, key: str) -> Gunner | None:
        """A gunner by id or Japanese name; None if unknown."""
        return _index(self).gunners.get(key)

    def skill(self, key: str) -> Skill | None:
        """A skill by id or Japanese name; None if unknown."""
        return _index(self).skills.get(key)

    def deck(self, gun: str) -> dict[str, int]:
        """Card id -> copies in one gun's deck (empty for an unknown gun)."""
        return _index(self).decks.get(gun) or {}

    def deck_complete(self, gun: str) -> bool:
        """True when every card of the gun's deck is known (the copies add up to its ``deck_size``)."""
        g = self.gun(gun)
        return g is not None and sum(self.deck(g.id).values()) >= g.deck_size


class _Index(msgspec.Struct, frozen=True):
    cards: dict[str, Card]
    guns: dict[str, Gun]
    gunners: dict[str, Gunner]
    skills: dict[str, Skill]
    decks: dict[str, dict[str, int]]


# id() alone could be reused by a later object, so each entry dies with its catalogue.
_INDEXES: dict[int, _Index] = {}


def index(cat: Catalogue) -> _Index:
    """``cat``'s look-up tables (cards, guns, gunners, skills by id and by name), built once: for a caller
    that looks cards up on every event (the projection's ``card_facts`` and its kin)."""
    return _index(cat)


def _index(cat: Catalogue) -> _Index:
    found = _INDEXES.get(id(cat))
    if found is None:
        found = _build_index(cat)
        _INDEXES[id(cat)] = found
        weakref.finalize(cat, _INDEXES.pop, id(cat), None)
    return found


def _by_key(items: list[Any], *extra: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        out[item.id] = item
        out.setdefault(item.name, item)
        for attr in extra:
            out.setdefault(getattr(item, attr), item)
    return out


def _build_index(cat: Catalogue) -> _Index:
    guns = _by_key(cat.guns, "short_name")
    decks = {key: {c.id: c.copies[g.id] for c in cat.cards if g.id in c.copies} for key, g in guns.items()}
    return _Index(
        cards=_by_key(cat.cards), guns=guns, gunners=_by_key(cat.gunners), skills=_by_key(cat.skills), decks=decks
    )


def _error(exc: Exception, where: str) -> CatalogueError:
    msg, field = field_error(exc)
    return CatalogueError(Msg("cards.bad", detail=msg), where=where, field=field)


def decode(raw: bytes | str, where: str = "gunandgun.json") -> Catalogue:
    """Decode and check a whole catalogue; CatalogueError names the field on any problem."""
    try:
        cat = msgspec.json.decode(raw, type=Catalogue)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise _error(exc, where) from None
    return check(cat, where)


def convert(obj: dict[str, Any], where: str = "match.start.catalogue") -> Catalogue:
    """Like ``decode`` for an already-parsed object."""
    try:
        cat = msgspec.convert(obj, type=Catalogue)
    except msgspec.ValidationError as exc:
        raise _error(exc, where) from None
    return check(cat, where)


@lru_cache(maxsize=1)
def load() -> Catalogue:
    """The built-in catalogue, decoded once from package data."""
    raw = resources.files(__package__).joinpath("cards.json").read_bytes()
    return decode(raw)


class _Patch(msgspec.Struct, **_STRUCT):
    version: str | None = None
    source: str | None = None
    guns: list[Gun] = []
    gunners: list[Gunner] = []
    skills: list[Skill] = []
    cards: list[Card] = []


T = TypeVar("T")


def _overlay(base: list[T], extra: list[T]) -> list[T]:
    # Overrides keep the built-in position so listings stay in printed order.
    out = {item.id: item for item in base}  # type: ignore[attr-defined]  # every card kind T has an id
    out.update({item.id: item for item in extra})  # type: ignore[attr-defined]  # every card kind T has an id
    return list(out.values())


def merged(extra: dict[str, Any] | None) -> Catalogue:
    """The built-in catalogue extended and overridden by id with a log's own catalogue.

    ``extra`` is ``match.start.catalogue``: the JSON shape of gunandgun.json with any
    subset of the lists (``version`` and ``source`` optional).
    """
    if not extra:
        return load()
    try:
        key = msgspec.json.encode(extra, order="deterministic")
    except (TypeError, msgspec.EncodeError) as exc:
        raise CatalogueError(Msg("cards.bad", detail=str(exc)), where="match.start.catalogue") from None
    return _merged(key)


def for_match(start: MatchStarted) -> Catalogue:
    """The catalogue one match plays with: ``Game(catalogue=for_match)`` in the rulebook."""
    return merged(start.catalogue)


# Keyed by the canonical bytes, so replaying one log reuses one catalogue (and one index).
@lru_cache(maxsize=32)
def _merged(raw: bytes) -> Catalogue:
    base = load()
    where = "match.start.catalogue"
    try:
        patch = msgspec.json.decode(raw, type=_Patch)
    except msgspec.ValidationError as exc:
        raise _error(exc, where) from None
    cat = Catalogue(
        version=patch.version or f"{base.version}+log",
        source=patch.source or f"{base.source}; extended by the log's match.start.catalogue",
        guns=_overlay(base.guns, patch.guns),
        gunners=_overlay(base.gunners, patch.gunners),
        skills=_overlay(base.skills, patch.skills),
        cards=_overlay(base.cards, patch.cards),
    )
    # Only the log's entries can be wrong (the built-in ones were checked), and the
    # error should point into match.start.catalogue, not into the merged lists.
    _check_entries(patch, cat, where)
    return cat


def _fail(where: str, field: str, msg: Msg) -> CatalogueError:
    return CatalogueError(msg, where=where, field=field)


def _unique(items: list[Any], name: str, where: str) -> None:
    seen: set[str] = set()
    for i, item in enumerate(items):
        if item.id in seen:
            raise _fail(where, f"{name}[{i}].id", Msg("cards.duplicate_id", id=repr(item.id)))
        seen.add(item.id)


KEYS = {"guns": ("name", "short_name"), "gunners": ("name",), "skills": ("name",), "cards": ("name",)}
"""What a table types to name an entry of each list besides its id (``_by_key`` looks them up)."""


def _one_meaning(entries: list[Any], known: list[Any], name: str, where: str) -> None:
    """Every name (and id) of ``entries`` names one entry of ``known``: a name given to two entries would be
    looked up as whichever the index met first, so the order of a list would decide what a card does."""
    owners: dict[str, set[str]] = {}
    for item in known:
        for key in (item.id, *(getattr(item, attr) for attr in KEYS[name])):
            owners.setdefault(key, set()).add(item.id)
    given = {item.id: i for i, item in enumerate(entries)}
    for i, item in enumerate(entries):
        for attr in (*KEYS[name], "id"):
            # Said at the later of two entries of the list (the first is not yet wrong), or at the list's
            # entry when the other is one it extends.
            others = sorted(o for o in owners.get(getattr(item, attr), set()) if given.get(o, -1) < i and o != item.id)
            if others:
                raise _fail(
                    where,
                    f"{name}[{i}].{attr}",
                    Msg(
                        "cards.duplicate_name", name=repr(getattr(item, attr)), id=repr(item.id), other=repr(others[0])
                    ),
                )


def check(cat: Catalogue, where: str) -> Catalogue:
    """Cross-references the decoder cannot see: unique ids, known guns, gunners and skills."""
    _check_entries(cat, cat, where)
    return cat


def _check_entries(entries: Catalogue | _Patch, known: Catalogue, where: str) -> None:
    # ``entries`` is what the source gave (field paths index into it), ``known`` the
    # catalogue its references must resolve in.
    for name in ("guns", "gunners", "skills", "cards"):
        _unique(getattr(entries, name), name, where)
        _one_meaning(getattr(entries, name), getattr(known, name), name, where)
    guns = {g.id for g in known.guns}
    gunners = {g.id for g in known.gunners}
    skills = {s.id for s in known.skills}
    for i, c in enumerate(entries.cards):
        _check_card(i, c, guns, where)
    for i, g in enumerate(entries.guns):
        _check_gun(i, g, where)
    for i, gunner in enumerate(entries.gunners):
        for s in gunner.skills:
            if s not in skills:
                raise _fail(where, f"gunners[{i}].skills", Msg("cards.unknown_skill", name=repr(s)))
    for i, skill in enumerate(entries.skills):
        if skill.gunner is not None and skill.gunner not in gunners:
            raise _fail(where, f"skills[{i}].gunner", Msg("cards.unknown_gunner", name=repr(skill.gunner)))


def _check_card(i: int, c: Card, guns: set[str], where: str) -> None:
    for g in c.copies:
        if g not in guns:
            raise _fail(where, f"cards[{i}].copies", Msg("cards.unknown_gun", name=repr(g)))
    if c.additional_cost is not None and c.additional_cost.gun not in guns:
        raise _fail(
            where, f"cards[{i}].additional_cost.gun", Msg("cards.unknown_gun", name=repr(c.additional_cost.gun))
        )
    if c.additional_cost is not None and not c.numbers_with("additional_cost"):
        raise _fail(where, f"cards[{i}].numbers", Msg("cards.additional_cost_number"))


def _check_gun(i: int, g: Gun, where: str) -> None:
    loads = [r.load for r in g.hit_table]
    if loads != sorted(set(loads)):
        raise _fail(where, f"guns[{i}].hit_table", Msg("cards.hit_rows_order"))
    if loads and loads[-1] > g.max_load:
        raise _fail(where, f"guns[{i}].hit_table", Msg("cards.hit_row_over_max"))
    if g.load_limit > g.max_load:
        raise _fail(where, f"guns[{i}].load_limit", Msg("cards.limit_over_max"))
