"""Magic's built-in coin-flip cards as ``kifu cards`` shows them (and docs/games/mtg-cards.md).

For each card: the name to write in ``mtg.flip card`` (English, any case) and, for a
card with several abilities, the ``ability``; whether its flips are called or
heads/tails-only (CR 705.2), how the flips go on, its payoffs, and for a watcher whose
flips it counts.
"""

from __future__ import annotations

from typing import Any

import msgspec

from kifu.events import i18n
from kifu.events.cardview import Entry, Section, yes_no

from . import cards


def _t(key: str, lang: str) -> str:
    return i18n.text(f"cardview.mtg.{key}", lang)


def _pay(d: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in d.items())


def _payoffs(c: cards.Card, lang: str) -> str:
    parts = [
        (_t("per_win", lang), _pay(c.per_win)),
        (_t("per_loss", lang), _pay(c.per_loss)),
        (_t("per_heads", lang), _pay(c.per_heads)),
        (_t("per_tails", lang), _pay(c.per_tails)),
        (_t("all_won_per_flip", lang), _pay(c.all_won_per_flip)),
    ]
    out = [f"{label}: {v}" for label, v in parts if v]
    out += [
        f"{_t('tier', lang)} {t.wins}+: {t.kind} {t.amount}"
        + (f" ({_t('each_opponent', lang)})" if t.each_opponent else "")
        for t in c.tiers
    ]
    if c.all_won_at:
        out.append(f"{_t('all_won_at', lang)} {c.all_won_at.flips}: {c.all_won_at.kind} {c.all_won_at.amount}")
    if c.stakes:
        out.append(_t("stakes_double", lang))
    return "; ".join(out) or "—"


def _watch(c: cards.Card, lang: str) -> str:
    w = c.watch
    if w is None:
        return "—"
    return f"{_t('scope.' + w.scope, lang)}: {w.kind} {w.per_win} / {_t('per.' + w.per, lang)}"


def _flips(c: cards.Card) -> str:
    if c.coins is not None:
        return str(c.coins)
    if c.choose is not None:
        return f"{c.choose[0]}–{'' if c.choose[1] is None else c.choose[1]}"
    return "—"


def listing(lang: str) -> list[Section]:
    """Every flip card, watcher and modifier, in catalogue order."""
    cat = cards.builtin()
    return [
        Section(
            title=_t("cards", lang),
            columns=[
                _t(k, lang) for k in ("name", "ja", "ability", "roles", "call", "sequence", "coins", "payoffs", "watch")
            ],
            rows=[
                [
                    c.name,
                    c.ja or "—",
                    c.ability or "—",
                    ", ".join(_t("role." + r, lang) for r in c.roles),
                    _t("call." + c.call, lang) if c.call else "—",
                    c.sequence or "—",
                    _flips(c),
                    _payoffs(c, lang),
                    _watch(c, lang),
                ]
                for c in cat.cards.values()
            ],
        )
    ]


def forms() -> list[str]:
    """English names as the catalogue spells them (the rules accept any case)."""
    return [c.name for c in cards.builtin().cards.values()]


def describe(name: str, lang: str) -> Entry | None:
    """One card in full; None when no English name matches (case-insensitive)."""
    c = cards.builtin().get(name)
    if c is None:
        return None
    write = f'"card": "{c.name}"' + (f', "ability": "{c.ability}"' if c.ability else "")
    lines = [
        (_t("write", lang), write),
        (_t("ja", lang), c.ja or "—"),
        (_t("roles", lang), ", ".join(_t("role." + r, lang) for r in c.roles)),
        (_t("call", lang), _t("call." + c.call, lang) if c.call else "—"),
        (_t("sequence", lang), _t("sequence." + c.sequence, lang) if c.sequence else "—"),
        (_t("flippers", lang), _t("flippers." + c.flippers, lang)),
        (_t("coins", lang), _flips(c)),
        (_t("payoffs", lang), _payoffs(c, lang)),
        (_t("loss_voids", lang), yes_no(c.loss_voids, lang)),
        (_t("watch", lang), _watch(c, lang)),
        (_t("modifier", lang), c.modifier or "—"),
        (_t("verified", lang), yes_no(c.verified, lang)),
        (_t("note", lang), c.note or "—"),
        (_t("accepted_names", lang), f"{c.name} ({_t('any_case', lang)})"),
    ]
    data: dict[str, Any] = {**msgspec.to_builtins(c), "accepted_names": [c.name, c.name.lower()]}
    return Entry(name=c.name, kind=_t("card", lang), lines=lines, data=data)
