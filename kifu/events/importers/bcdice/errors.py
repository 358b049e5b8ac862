"""Answers in which BCDice rolled nothing: the error texts it prints before any die is rolled.

Source: bcdice/BCDice at commit 98145305, each text at the line that returns it, before
its command rolls anything: ``common_command/repeat.rb`` (``validate``, and every
repetition answering nothing), ``common_command/choice.rb`` (more than 100 items),
``game_system/Cthulhu7th.rb`` and ``cthulhu7th/full_auto.rb`` (with their Korean and
Traditional Chinese versions), ``game_system/SwordWorld.rb`` (``infinite_critical``,
``i18n/SwordWorld/*.yml``) and ``game_system/LogHorizon.rb`` (``need_cr``,
``i18n/LogHorizon/ja_jp.yml``).

A whole answer that is one of these texts is a result with no dice: nothing is
recorded and nothing is reported. A text that only looks like one is not taken.
"""

from __future__ import annotations

import re

_ANY = (
    r"繰り返し回数は1以上、\d+以下としてください",
    r"Repeatコマンドの重複はできません",
    r"繰り返し対象のコマンドが実行できませんでした \(.*\)",
    r"項目数は100以下としてください",
)
_BY_FAMILY = {
    "Cthulhu7th": (
        r"ボーナス・ペナルティダイスの値は-100以上、100以下としてください",
        r"エラー。ボーナス・ペナルティダイスの値は-?\d+～-?\d+です。",
        r"弾薬は正の数です。",
        r"目標値は正の数です。",
        r"ボレーの弾丸の数は正の数です。",
        r"請將獎勵・懲罰骰的數量設置在-100以上及100以下",
        r"錯誤。獎勵・懲罰骰的值必須在-?\d+～-?\d+之間。",
        r"彈藥數量必須為正數。",
        r"目標值必須為正數。",
        r"連射的彈藥數量必須為正數。",
        r"에러\. 목표치는 1 이상입니다\.",
        r"에러\. 보너스, 패널티 주사위의 수치는 -?\d+~-?\d+입니다\.",
        r"탄약은 1 이상입니다\.",
        r"목표치는 1 이상입니다\.",
    ),
    "SwordWorld": (r"C値を\d+以上にしてください", r"请输入\d+以上的C值"),
    "LogHorizon": (
        r"[CMIHG]TRS\d*(?:[+-]\d+)*\$? ＞ CRを指定してください",
        r"[CMIO]TRSE\d*(?:[+-]\d+)*\$? ＞ CRを指定してください",
    ),
}
_MARKERS = re.compile("ください|できません|です。|正數。|之間。|입니다\\.|的C值|100以下")
"""A piece of every text above: a line with none of them is no error text (checked first, cheaply)."""
_COMMON = re.compile("|".join(_ANY))
_FAMILY = {fam: re.compile("|".join(texts)) for fam, texts in _BY_FAMILY.items()}
_ALL = re.compile("|".join((*_ANY, *(t for texts in _BY_FAMILY.values() for t in texts))))
_WORDS = 4
"""At most this many words of a typed command before the text (CCFOLIA's classic page: ``rep0 1D6 繰り返し…``)."""


def nothing_rolled(text: str, family: str | None) -> str | None:
    """The text before the error when the answer ends in an error text BCDice prints before
    rolling (of the recorded system's family, or of any system when none is recorded) and
    only a command of a few words stands before it; None otherwise."""
    if len(text) > 400 or not _MARKERS.search(text):
        return None  # the common case, decided by a few substring tests
    t = text.strip()
    if "\n" in t:
        return None
    if family is None:
        pattern: re.Pattern[str] | None = _ALL
    else:
        pattern = _FAMILY.get("SwordWorld" if family.startswith("SwordWorld") else family)
    words = t.split()
    for k in range(min(_WORDS, len(words) - 1) + 1):
        rest = " ".join(words[k:])
        if _COMMON.fullmatch(rest) or (pattern is not None and pattern.fullmatch(rest)):
            return " ".join(words[:k])
    return None
