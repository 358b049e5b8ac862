"""kifu's stance on each judge ruling: does the audit find the same outcome on the events the ruling is about?

A ``judge.ruling`` names events (``about``), may name the rule it applies (``code``) and says its outcome
in ``decision``. The words a decision may use are fixed (docs/format.md § Rulings): each says whether a
rule was broken there (``warning``, ``game-loss`` …) or not (``legal``, ``overturned`` …). Against the
findings on those events (and on the events they fold in), kifu's stance is one of:

* ``agree``: both find a rule broken there, or neither does;
* ``stricter``: kifu finds an error or a warning where the ruling finds no rule broken;
* ``lenient``: the ruling finds a rule broken where kifu only warns;
* ``undecided``: kifu cannot decide there (what it lacks is in its info finding);
* ``none``: kifu finds no rule broken where the ruling does;
* ``unknown``: the decision is not one of the words, so there is nothing to compare; kifu's findings are shown.

A penalty (``warning``, ``game-loss``) is the judge's to give; kifu compares only whether a rule was broken.
Pure: rulings and findings in, stances out.
"""

from __future__ import annotations

from typing import NamedTuple
from collections.abc import Iterable, Sequence

from ..events import i18n
from ..events.base import JudgeRuling
from .base import Finding, Text

PENALTIES = ("caution", "warning", "game-loss", "match-loss", "disqualification")
"""Decisions that give a penalty: a rule was broken, and the judge chose how much it costs."""
BROKEN = ("upheld", "infraction", "rewind", "fix") + PENALTIES
"""Decisions that say a rule was broken (``upheld`` only with a ``code``: the call under that rule stands)."""
LEGAL = ("legal", "no-infraction", "overturned")
"""Decisions that say no rule was broken (``upheld`` without a ``code``: the play stands as recorded)."""
DECISIONS = BROKEN + LEGAL
"""Every decision word kifu compares, in the order docs/format.md lists them."""
SHORT = 160
"""How many characters of a ruling's text a stance row shows; a longer text is cut at a word and says so (the
whole text is at the ruling's seq, and in ``-f json``)."""


def judged_broken(ruling: JudgeRuling) -> bool | None:
    """Whether the ruling finds a rule broken: True, False, or None for a decision kifu does not compare."""
    word = (ruling.decision or "").strip().lower()
    if word == "upheld":
        return ruling.code is not None
    if word in BROKEN:
        return True
    if word in LEGAL:
        return False
    return None


class Stance(NamedTuple):
    """kifu's stance on one ruling."""

    ruling: JudgeRuling
    findings: list[Finding]
    """kifu's findings on the events the ruling is about (its rule's first, when it names one)."""
    kind: str
    """``agree``, ``stricter``, ``lenient``, ``undecided``, ``none`` or ``unknown``."""

    @property
    def judge_broken(self) -> bool | None:
        return judged_broken(self.ruling)

    @property
    def kifu_level(self) -> str:
        """The worst severity among ``findings`` (``error``, ``warning``, ``info``), or ``none``."""
        sev = {f.severity for f in self.findings}
        return next((s for s in ("error", "warning", "info") if s in sev), "none")

    def words(self) -> Text:
        """The stance in a sentence, in both languages."""
        key = f"stance.{self.kind}"
        if self.kind == "agree":
            key += ".broken" if self.judge_broken else ".legal"
        elif self.kind == "unknown":
            if not (self.ruling.decision or "").strip():  # a ruling with no decision word: say so, not «»
                key = "stance.no_decision"
            key += ".found" if self.findings else ".nothing"
        word = (self.ruling.decision or "").strip().lower()
        penalty = self.kind == "agree" and word in PENALTIES
        return Text(
            **{
                lang: i18n.text(key, lang, codes=_codes(self.findings, lang), decision=self.ruling.decision or "")
                + (i18n.text("stance.penalty", lang, decision=decision_word(word, lang)) if penalty else "")
                for lang in ("ja", "en")
            }
        )

    def ruled(self, lang: str) -> str:
        """What the judge decided, never ambiguous: ``penalty upheld (GG-TOSS-001)``, ``upheld: the play stands``,
        ``warning (GG-TOSS-001)``; empty for a ruling with no decision and no rule."""
        r = self.ruling
        word = (r.decision or "").strip().lower()
        if word == "upheld":
            key = "stance.ruled.upheld_code" if r.code else "stance.ruled.upheld_play"
        elif word in LEGAL:
            key = "stance.ruled.stands_code" if r.code else "stance.ruled.stands"
        elif word:
            key = "stance.ruled.code" if r.code else "stance.ruled.word"
        else:
            return r.code or ""
        return i18n.text(key, lang, decision=decision_word(word, lang), code=r.code or "")

    def quoted(self, lang: str) -> str:
        """The ruling's text as a stance row shows it, in quotes: whole, or cut at a word with a visible note that
        says where the whole text is."""
        text = " ".join(self.ruling.text.split())
        if not text:
            return ""
        if len(text) > SHORT:
            cut = text[:SHORT].rsplit(" ", 1)[0] if " " in text[:SHORT] else text[:SHORT]
            text = cut.rstrip(" ,.;:、。") + "…" + i18n.text("stance.shortened", lang, seq=self.ruling.seq)
        return i18n.text("stance.quote", lang, text=text)

    def to_json(self, lang: str) -> dict[str, object]:
        r = self.ruling
        return {
            "seq": r.seq,
            "about": list(r.about),
            "code": r.code,
            "decision": r.decision,
            "text": r.text,
            "ruled": self.ruled(lang),
            "judge_finds_rule_broken": self.judge_broken,
            "kifu": self.kifu_level,
            "stance": self.kind,
            "findings": [{"code": f.code, "seq": f.seq, "severity": f.severity} for f in self.findings],
            "says": self.words().get(lang),
        }


def _codes(findings: Sequence[Finding], lang: str) -> str:
    """``GG-TOSS-001 (error, seq 14)`` for each finding, joined."""
    sep = "、" if lang == "ja" else ", "
    return sep.join(
        dict.fromkeys(
            i18n.text("stance.finding", lang, code=f.code, seq=f.seq, severity=i18n.text(f"report.{f.severity}", lang))
            for f in findings
        )
    )


def on_events(ruling: JudgeRuling, findings: Iterable[Finding]) -> list[Finding]:
    """The findings on the events a ruling is about: those whose events, or consequences, it names; of the rule
    the ruling applies first (when it names one and kifu finds that rule there)."""
    about = set(ruling.about)
    there = [f for f in findings if about & (set(f.seqs) | set(f.consequences))]
    same = [f for f in there if f.code == ruling.code]
    return same + [f for f in there if f.code != ruling.code]


def stance(ruling: JudgeRuling, findings: Iterable[Finding]) -> Stance:
    """kifu's stance on ``ruling`` given the audit's ``findings``."""
    there = on_events(ruling, findings)
    broken = judged_broken(ruling)
    level = {f.severity for f in there}
    if broken is None:
        kind = "unknown"
    elif broken:
        kind = (
            "agree"
            if "error" in level
            else "lenient"
            if "warning" in level
            else "undecided"
            if "info" in level
            else "none"
        )
    else:
        kind = "stricter" if level & {"error", "warning"} else "agree"
    return Stance(ruling, there, kind)


def stances(rulings: Iterable[JudgeRuling], findings: Sequence[Finding]) -> list[Stance]:
    """kifu's stance on every ruling, in the order of the log."""
    return [stance(r, findings) for r in rulings]


def decision_word(decision: str | None, lang: str) -> str:
    """A decision in the reader's language (``warning`` -> ``警告``); a word kifu does not know as it is."""
    if not decision:
        return ""
    key = f"decision.{decision.strip().lower()}"
    return i18n.text(key, lang) if i18n.has(key, "en") else decision
