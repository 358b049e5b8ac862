"""Typed trigger catalogue of the World Trigger 1v1 dice game (the fan rules).

The fan rules name timings (初期距離決定時, 戦術フェイズ, 対抗使用), reveal costs and
effect costs in trion and tags, but no numbers for any trigger. The bundled
``worldtrigger.json`` is therefore an EXAMPLE; a log may carry its own catalogue
in ``match.start.catalogue`` (same shape), which ``merged`` lays over it trigger
by trigger.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal
from collections.abc import Mapping

import msgspec
from msgspec import Meta

from kifu.events.base import KifuError
from kifu.events.codec import field_error
from kifu.events.i18n import Msg

Tag = Literal["move", "shooting", "close"]
Kind = Literal["shooting", "close", "move", "defence", "stealth", "other"]
Range = Annotated[list[int], Meta(min_length=2, max_length=2)]


class Effect(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """One effect of a trigger, with its timing and costs."""

    timing: Literal["initial", "tactics", "counter"]
    """初期距離決定時, 戦術フェイズ, or a counter-use (対抗使用) against another declaration."""
    kind: Kind = "other"
    """What the effect is, as counters see it (``shooting`` for アステロイド …)."""
    trion: int = 0
    """Trion paid as its cost."""
    tags: list[Tag] = []
    """Action tags paid as its cost, one entry per tag."""
    distance: Range | None = None
    """Inclusive [min, max] distance at which it may be used; null: any distance."""
    against: list[Kind] = []
    """For a counter: the kinds of declaration it may answer (``move`` answers a move too)."""
    requires: str | None = None
    """A dedicated option that must be in the build for this effect (旋空 for 弧月's 旋空)."""
    shift: Range | None = None
    """For an initial-distance effect: inclusive [min, max] change it may make."""
    moves: int = 0
    """For an effect that moves: the largest distance change it makes."""
    damage: int | None = None
    """Trion damage it deals when it hits (information for the table; damage is recorded by wt.trion)."""


class Trigger(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A trigger or a dedicated option."""

    side: Literal["main", "sub", "any"] = "any"
    """Which side of a trigger set it may take."""
    reveal: int = 0
    """Trion paid to turn it face up."""
    options: list[str] = []
    """Names of its dedicated options."""
    option_of: str | None = None
    """For a dedicated option: the trigger it belongs to (it takes a slot on that trigger's side)."""
    effects: dict[str, Effect] = {}
    """Its effects by name."""


class Catalogue(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A set of triggers; ``example`` marks illustrative numbers."""

    triggers: dict[str, Trigger] = {}
    """Triggers and options by name."""
    example: bool = False
    """True when the numbers are an illustration, not a published rule."""
    note: str = ""
    """Where the numbers come from."""

    def trigger(self, name: str) -> Trigger | None:
        return self.triggers.get(name)

    def effect(self, trigger: str, effect: str) -> Effect | None:
        t = self.triggers.get(trigger)
        return None if t is None else t.effects.get(effect)


@lru_cache(maxsize=1)
def load() -> Catalogue:
    """The bundled example catalogue."""
    raw = (Path(__file__).parent / "cards.json").read_bytes()  # beside the module: no importlib.resources at start-up
    return msgspec.json.decode(raw, type=Catalogue)


def parse(extra: Mapping[str, Any]) -> Catalogue:
    """A log's own catalogue; KifuError naming the field if it has the wrong shape."""
    try:
        return msgspec.convert(extra, Catalogue)
    except msgspec.ValidationError as exc:
        raise KifuError(
            Msg("cards.bad_catalogue", detail=field_error(exc)[0]), line=1, seq=1, field="catalogue"
        ) from None


def merged(extra: Mapping[str, Any] | None) -> Catalogue:
    """The bundled catalogue with a log's own triggers laid over it, trigger by trigger."""
    base = load()
    if not extra:
        return base
    own = parse(extra)
    return Catalogue(triggers={**base.triggers, **own.triggers}, example=own.example, note=own.note)
