"""World Trigger's example trigger catalogue as ``kifu cards`` shows it (and docs/games/worldtrigger-cards.md).

Every number the auditor uses: the trion to reveal a trigger, each effect's timing,
trion and tag costs, the distances it may be used at, what a counter answers, moves,
shifts and damage. The bundled numbers are an EXAMPLE (the fan rules give none); a table
puts its own in ``match.start.catalogue``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from kifu.events import i18n
from kifu.events.cardview import Entry, Section

from . import cards


def _t(key: str, lang: str) -> str:
    return i18n.text(f"cardview.wt.{key}", lang)


def _range(r: list[int] | None, lang: str) -> str:
    return _t("any", lang) if r is None else f"{r[0]}–{r[1]}"


def _tags(tags: list[str], lang: str) -> str:
    return " + ".join(_t("tag." + x, lang) for x in tags) or "—"


def _kinds(kinds: list[str], lang: str) -> str:
    return ", ".join(_t("kind." + k, lang) for k in kinds) or "—"


def listing(lang: str) -> list[Section]:
    """Triggers, every effect with its costs and range, and which counter answers which declaration."""
    cat = cards.load()
    triggers = Section(
        title=_t("triggers", lang),
        columns=[_t(k, lang) for k in ("name", "side", "reveal", "options", "effects")],
        rows=[
            [
                name,
                _t("side." + t.side, lang),
                t.reveal,
                ", ".join(t.options) or (f"{_t('option_of', lang)} {t.option_of}" if t.option_of else "—"),
                ", ".join(t.effects) or "—",
            ]
            for name, t in cat.triggers.items()
        ],
    )
    effects = Section(
        title=_t("effects", lang),
        columns=[
            _t(k, lang) for k in ("trigger", "effect", "timing", "kind", "trion", "tags", "distance", "damage", "moves")
        ],
        rows=[
            [
                name,
                en,
                _t("timing." + e.timing, lang),
                _t("kind." + e.kind, lang),
                e.trion,
                _tags(e.tags, lang),
                _range(e.distance, lang),
                "—" if e.damage is None else e.damage,
                _movement(e),
            ]
            for name, t in cat.triggers.items()
            for en, e in t.effects.items()
        ],
    )
    counters = Section(
        title=_t("counters", lang),
        columns=[_t(k, lang) for k in ("trigger", "effect", "answers", "trion", "moves")],
        rows=[
            [name, en, _kinds(e.against, lang), e.trion, _movement(e)]
            for name, t in cat.triggers.items()
            for en, e in t.effects.items()
            if e.timing == "counter"
        ],
    )
    return [triggers, effects, counters]


def _movement(e: cards.Effect) -> str:
    if e.shift is not None:
        return f"{e.shift[0]}..{e.shift[1]}"
    return str(e.moves) if e.moves else "—"


def forms() -> list[str]:
    """Trigger and option names, written exactly as in the catalogue."""
    return list(cards.load().triggers)


def describe(name: str, lang: str) -> Entry | None:
    """One trigger (or dedicated option) in full; None when no trigger has that name."""
    cat = cards.load()
    t = cat.trigger(name) or cat.trigger(name.strip())
    if t is None:
        return None
    lines = [
        (_t("side", lang), _t("side." + t.side, lang)),
        (_t("reveal", lang), str(t.reveal)),
        (_t("options", lang), ", ".join(t.options) or "—"),
    ]
    if t.option_of:
        lines.append((_t("option_of", lang), t.option_of))
    lines += [(_t("example", lang), _t("example_note", lang)), (_t("accepted_names", lang), name)]
    rows = [
        [
            en,
            _t("timing." + e.timing, lang),
            _t("kind." + e.kind, lang),
            e.trion,
            _tags(e.tags, lang),
            _range(e.distance, lang),
            _kinds(e.against, lang),
            e.requires or "—",
            _movement(e),
            "—" if e.damage is None else e.damage,
        ]
        for en, e in t.effects.items()
    ]
    table = Section(
        title=_t("effects", lang),
        columns=[
            _t(k, lang)
            for k in ("effect", "timing", "kind", "trion", "tags", "distance", "answers", "requires", "moves", "damage")
        ],
        rows=rows,
    )
    data: dict[str, Any] = {"triggers": {name: msgspec.to_builtins(t)}, "accepted_names": [name]}
    return Entry(name=name, kind=_t("trigger", lang), lines=lines, tables=[table] if rows else [], data=data)
