"""ガンナガン's built-in catalogue as ``kifu cards`` shows it (and docs/games/gunandgun-cards.md).

Every number the auditor uses is shown: COST, each effect number with its role and
whether N replaces it (their order is the order ``gg.resolve values`` takes), usage
limits, additional costs, timing, the decks that hold a card, a gun's stats, HIT table
and deck list, a gunner's speed and hand, a skill's voltage cost and numbers.
"""

from __future__ import annotations

from typing import Any

import msgspec

from kifu.events import i18n
from kifu.events.cardview import Entry, Section, yes_no

from . import cards


def _t(key: str, lang: str) -> str:
    return i18n.text(f"cardview.gg.{key}", lang)


def _cat() -> cards.Catalogue:
    return cards.load()


def _short(cat: cards.Catalogue, gun_id: str) -> str:
    g = cat.gun(gun_id)
    return g.short_name if g else gun_id


def _decks(cat: cards.Catalogue, c: cards.Card) -> str:
    return ", ".join(f"{_short(cat, g)} ×{n}" for g, n in c.copies.items())


def _number(x: cards.Number, lang: str) -> str:
    n = "N" if x.replaceable else str(x.value)
    return f"{x.value} {_t('role.' + x.role, lang)} → {n}"


def _values(nums: list[cards.Number], lang: str) -> str:
    if not nums:
        return _t("no_numbers", lang)
    return (
        "["
        + ", ".join(f"{_t('role.' + x.role, lang)}" + ("=N" if x.replaceable else f"={x.value}") for x in nums)
        + "]"
    )


def _limits(c: cards.Card, lang: str) -> str:
    out = [f"{lim.n}/{_t('scope.' + lim.scope, lang)} ({_t('per.' + lim.per, lang)})" for lim in c.limits]
    if c.not_first_turn:
        out.append(_t("not_first_turn", lang))
    return "; ".join(out) or "—"


def _hit_table(g: cards.Gun) -> str:
    return ", ".join(f"{r.load}→{r.hit}" + (f" {r.extra}" if r.extra else "") for r in g.hit_table) or "—"


def listing(lang: str) -> list[Section]:
    """Guns, gunners, skills and deck cards, each in catalogue order."""
    cat = _cat()
    guns = Section(
        title=_t("guns", lang),
        columns=[_t(k, lang) for k in ("name", "id", "no", "max_load", "load_limit", "weight", "hit_table", "deck")],
        rows=[
            [
                g.name,
                g.id,
                g.no,
                g.max_load,
                g.load_limit,
                g.weight,
                _hit_table(g),
                f"{sum(cat.deck(g.id).values())}/{g.deck_size}",
            ]
            for g in cat.guns
        ],
    )
    gunners = Section(
        title=_t("gunners", lang),
        columns=[_t(k, lang) for k in ("name", "id", "no", "speed", "hand", "life", "skills")],
        rows=[
            [u.name, u.id, u.no, u.speed, u.hand, u.life, ", ".join(getattr(cat.skill(s), "name", s) for s in u.skills)]
            for u in cat.gunners
        ],
    )
    skills = Section(
        title=_t("skills", lang),
        columns=[_t(k, lang) for k in ("name", "id", "gunner", "cost", "skill_kind", "values")],
        rows=[
            [
                s.name,
                s.id,
                getattr(cat.gunner(s.gunner or ""), "name", "—"),
                "X" if s.cost is None else s.cost,
                _t("skill." + s.kind, lang),
                _values(s.numbers, lang),
            ]
            for s in cat.skills
        ],
    )
    deck_cards = Section(
        title=_t("cards", lang),
        columns=[_t(k, lang) for k in ("name", "id", "no", "kind", "cost", "decks", "values", "limits")],
        rows=[
            [
                c.name,
                c.id,
                c.no,
                _t("kind." + c.kind, lang),
                c.cost,
                _decks(cat, c),
                _values(c.numbers, lang),
                _limits(c, lang),
            ]
            for c in cat.cards
        ],
    )
    return [guns, gunners, skills, deck_cards]


def forms() -> list[str]:
    """Every name the rules accept: ids and Japanese names, and each gun's short name."""
    cat = _cat()
    out: list[str] = []
    for g in cat.guns:
        out += [g.name, g.short_name, g.id]
    for item in (*cat.gunners, *cat.skills, *cat.cards):
        out += [item.name, item.id]
    return out


def describe(name: str, lang: str) -> Entry | None:
    """One gun, gunner, skill or deck card in full; None when no accepted name matches."""
    cat = _cat()
    for found, fn in (
        (cat.card(name), _card),
        (cat.gun(name), _gun),
        (cat.gunner(name), _gunner),
        (cat.skill(name), _skill),
    ):
        if found is not None:
            return fn(cat, found, lang)
    return None


def _data(item: Any, names: list[str]) -> dict[str, Any]:
    return {**msgspec.to_builtins(item), "accepted_names": names}


def _numbers_table(nums: list[cards.Number], lang: str) -> list[Section]:
    if not nums:
        return []
    return [
        Section(
            title=_t("numbers", lang),
            columns=[_t(k, lang) for k in ("position", "printed", "role", "replaced", "note")],
            rows=[
                [i, x.value, _t("role." + x.role, lang), yes_no(x.replaceable, lang), x.note]
                for i, x in enumerate(nums, 1)
            ],
        )
    ]


def _card(cat: cards.Catalogue, c: cards.Card, lang: str) -> Entry:
    names = [c.name, c.id]
    lines = [
        (_t("id", lang), c.id),
        (_t("no", lang), c.no),
        (_t("kind", lang), _t("kind." + c.kind, lang)),
        (_t("cost", lang), f"{c.cost} ({_t('cost_note', lang)})"),
        (_t("decks", lang), _decks(cat, c)),
        (_t("timing", lang), _t("timing." + (c.timing or "other"), lang)),
        (_t("values", lang), _values(c.numbers, lang)),
        (_t("limits", lang), _limits(c, lang)),
    ]
    if c.additional_cost is not None:
        lines.append(
            (
                _t("additional_cost", lang),
                f"{_short(cat, c.additional_cost.gun)} {c.additional_cost.n} → N ({_t('additional_cost_note', lang)})",
            )
        )
    if c.condition:
        lines.append((_t("condition", lang), c.condition))
    if c.no_responses:
        lines.append((_t("no_responses", lang), yes_no(True, lang)))
    lines += [(_t("summary", lang), c.summary)]
    if c.variant_note:
        lines.append((_t("variant_note", lang), c.variant_note))
    lines.append((_t("accepted_names", lang), ", ".join(names)))
    return Entry(
        name=c.name,
        kind=_t("kind." + c.kind, lang),
        lines=lines,
        tables=_numbers_table(c.numbers, lang),
        data=_data(c, names),
    )


def _gun(cat: cards.Catalogue, g: cards.Gun, lang: str) -> Entry:
    names = [g.name, g.short_name, g.id]
    deck = cat.deck(g.id)
    complete = cat.deck_complete(g.id)
    restrictions = [
        _t(k, lang)
        for k, on in (
            ("no_face_up_bullets", not g.face_up_bullets),
            ("no_face_down_loads", not g.face_down_loads),
            ("no_basic_load", not g.basic_load),
            ("no_responses_to_shots", g.no_responses),
        )
        if on
    ]
    lines = [
        (_t("id", lang), g.id),
        (_t("no", lang), g.no),
        (_t("gun_type", lang), g.type),
        (_t("max_load", lang), str(g.max_load)),
        (_t("load_limit", lang), str(g.load_limit)),
        (_t("weight", lang), str(g.weight)),
        (_t("min_load", lang), str(g.min_load()) if g.min_load() is not None else "—"),
        (_t("restrictions", lang), "; ".join(restrictions) or "—"),
        (_t("deck", lang), f"{sum(deck.values())}/{g.deck_size} " + _t("complete" if complete else "partial", lang)),
        (_t("summary", lang), g.summary + " " + _t("gun_not_tossed", lang)),
        (_t("accepted_names", lang), ", ".join(names)),
    ]
    tables = [
        Section(
            title=_t("hit_table", lang),
            columns=[_t(k, lang) for k in ("loads", "hit", "extra")],
            rows=[[r.load, r.hit, r.extra] for r in g.hit_table],
        ),
        Section(
            title=_t("deck", lang),
            columns=[_t(k, lang) for k in ("name", "kind", "copies", "cost")],
            rows=[
                [cat.card(cid).name, _t("kind." + cat.card(cid).kind, lang), n, cat.card(cid).cost]
                for cid, n in deck.items()
            ],
        ),
    ]
    return Entry(
        name=g.name,
        kind=_t("gun", lang),
        lines=lines,
        tables=tables,
        data={**_data(g, names), "deck": deck, "deck_complete": complete},
    )


def _gunner(cat: cards.Catalogue, u: cards.Gunner, lang: str) -> Entry:
    names = [u.name, u.id]
    lines = [
        (_t("id", lang), u.id),
        (_t("no", lang), u.no),
        (_t("speed", lang), str(u.speed)),
        (_t("hand", lang), str(u.hand)),
        (_t("life", lang), str(u.life)),
        (_t("skills", lang), ", ".join(getattr(cat.skill(s), "name", s) for s in u.skills)),
        (_t("summary", lang), u.summary + " " + _t("gunner_not_tossed", lang)),
        (_t("accepted_names", lang), ", ".join(names)),
    ]
    return Entry(name=u.name, kind=_t("gunner", lang), lines=lines, data=_data(u, names))


def _skill(cat: cards.Catalogue, s: cards.Skill, lang: str) -> Entry:
    names = [s.name, s.id]
    lines = [
        (_t("id", lang), s.id),
        (_t("gunner", lang), getattr(cat.gunner(s.gunner or ""), "name", "—")),
        (_t("cost", lang), ("X" if s.cost is None else str(s.cost)) + f" ({_t('voltage_note', lang)})"),
        (_t("skill_kind", lang), _t("skill." + s.kind, lang)),
        (
            _t("flip_back", lang),
            yes_no(s.flip_back, lang) + (f" ({s.per_turn}/{_t('scope.turn', lang)})" if s.per_turn else ""),
        ),
        (_t("values", lang), _values(s.numbers, lang)),
        (_t("summary", lang), s.summary),
        (_t("accepted_names", lang), ", ".join(names)),
    ]
    return Entry(
        name=s.name, kind=_t("skill", lang), lines=lines, tables=_numbers_table(s.numbers, lang), data=_data(s, names)
    )
