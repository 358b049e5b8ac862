"""Rulebook of the fan-made World Trigger 1v1 dice game (ボーダー隊員ソロランク戦ゲーム（仮）).

Rule source: ボーダー隊員ソロランク戦ゲーム（仮） (``shared/seeds/002_8caa01d942fb408e.txt``), one rule per
statement: the build and the initial distance (``setup``), each turn's order,
set, plot and tags (``turn``), the tactics phase of ■5 (what a use needs before
its effect happens in ``reveal``, when and where effects are used in ``use``,
the counter chain and resolution in ``chain``, and ``moves``) and the end
(``end``). Trigger facts come from the log's own catalogue laid over the bundled
example (``kifu/games/worldtrigger/cards.json``).
"""

from __future__ import annotations

from kifu.auditor.base import Rule

from . import chain, end, moves, reveal, setup, turn, use

RULES: tuple[Rule, ...] = setup.RULES + turn.RULES + reveal.RULES + use.RULES + chain.RULES + moves.RULES + end.RULES
