"""What ``kifu cards`` shows of a game's built-in catalogue: the shapes each game fills in.

A game with cards declares, in its own ``cards.py``, ``listing(lang)`` (the catalogue as
tables), ``describe(name, lang)`` (one card in full, or None) and ``forms()`` (every
name its rules accept). The command line prints them and ``docs/make_cards.py`` writes
them into ``docs/games/<id>-cards.md``, so the page and the command never disagree.
"""

from __future__ import annotations

import difflib
from typing import Any
from collections.abc import Iterable

import msgspec


class Section(msgspec.Struct, frozen=True, kw_only=True):
    """One table of a catalogue listing."""

    title: str
    """What the rows are (guns, deck cards, triggers …), in the reader's language."""
    columns: list[str]
    """Column headings, in the reader's language."""
    rows: list[list[Any]]
    """One row per card, in catalogue order."""


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    """One card in full: every fact the auditor uses, as labelled lines and as data."""

    name: str
    """The card's name as the catalogue spells it."""
    kind: str
    """What it is (a gun, a deck card, a trigger, a flip card …), in the reader's language."""
    lines: list[tuple[str, str]]
    """(label, value) in the order a reader needs them; labels in the reader's language."""
    tables: list[Section] = []
    """Tables the lines cannot hold (a HIT table, a deck list, a trigger's effects)."""
    data: dict[str, Any] = {}
    """The catalogue entry as stored (the shape ``match.start.catalogue`` takes), with ``accepted_names``."""


def closest(name: str, forms: Iterable[str], n: int = 5) -> list[str]:
    """The accepted names nearest to ``name`` (case-insensitive), best first."""
    forms = list(dict.fromkeys(forms))
    lower = {f.lower(): f for f in forms}
    hits = difflib.get_close_matches(name.lower(), list(lower), n=n, cutoff=0.4)
    prefix = [f for f in forms if name and (f.lower().startswith(name.lower()) or name.lower().startswith(f.lower()))]
    return list(dict.fromkeys(prefix + [lower[h] for h in hits]))[:n]


def yes_no(value: bool, lang: str) -> str:
    return ("はい" if value else "いいえ") if lang == "ja" else ("yes" if value else "no")
