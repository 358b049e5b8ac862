"""Warehouse views of the fan-made World Trigger 1v1 dice game (ボーダー隊員ソロランク戦ゲーム（仮）): builds, plots, turn order.

Seed 002 ■2: the initial distance is one die roll, the game's only random outcome
a log records; it feeds ``randomness``. Plot dice (■5 プロット) are faces the
players *choose* and set face down, not rolls, so they are left out of
``randomness`` (a fairness test on chosen faces would measure strategy, not luck);
they are in ``wt_plots``. A tie in turn order is broken by a fair method
(``wt.order.tie_break``), but its outcome is not recorded beyond who went first.
Columns: docs/sql.md.
"""

from __future__ import annotations

VIEWS: dict[str, str] = {
    # trigger_set: a build's identity regardless of slot order (main triggers, then sub, each sorted).
    "wt_builds": """
        SELECT match, seq, player, main, sub,
               array_to_string(list_sort(main), ',') || ' / ' || array_to_string(list_sort(sub), ',') AS trigger_set
        FROM (SELECT match, seq, json_extract_string(line, '$.player') AS player,
                     json_extract(line, '$.main')::VARCHAR[] AS main,
                     json_extract(line, '$.sub')::VARCHAR[] AS sub
              FROM events WHERE type = 'wt.build')""",
    "wt_turns": """
        SELECT match, seq, json_extract(line, '$.turn')::INTEGER AS turn,
               json_extract_string(line, '$.first') AS first, json_extract_string(line, '$.tie_break') AS tie_break
        FROM events WHERE type = 'wt.order'""",
    # The tags are those the attacker's wt.tags records right after the plot (before the next plot).
    "wt_plots": """
        WITH p AS (
            SELECT match, seq, json_extract_string(line, '$.attacker') AS attacker,
                   json_extract(line, '$.attack')::INTEGER[] AS attack,
                   json_extract(line, '$.defence')::INTEGER[] AS defence,
                   lead(seq) OVER (PARTITION BY match ORDER BY seq) AS next_plot
            FROM events WHERE type = 'wt.plot'),
        g AS (
            SELECT match, seq, json_extract_string(line, '$.player') AS player,
                   json_extract(line, '$.tags')::VARCHAR[] AS tags
            FROM events WHERE type = 'wt.tags'),
        tagged AS (
            SELECT p.match, p.seq, arg_min(g.tags, g.seq) AS tags
            FROM p JOIN g ON g.match = p.match AND g.player = p.attacker AND g.seq > p.seq
                          AND (p.next_plot IS NULL OR g.seq < p.next_plot)
            GROUP BY p.match, p.seq)
        SELECT p.match, p.seq, t.turn, p.attacker,
               list_filter(list_transform(m.players, lambda q: q.id), lambda i: i <> p.attacker)[1] AS defender,
               p.attack[1] AS attack_1, p.attack[2] AS attack_2, p.defence[1] AS defence_1,
               p.defence[2] AS defence_2, coalesce(tg.tags, []) AS tags, len(coalesce(tg.tags, [])) AS tags_gained
        FROM p
        LEFT JOIN tagged tg USING (match, seq)
        LEFT JOIN matches m ON m.match = p.match
        ASOF LEFT JOIN wt_turns t ON t.match = p.match AND p.seq >= t.seq""",
}

RANDOMNESS = """
    SELECT 'worldtrigger' AS game, match, seq, 1 AS idx, actor AS player, 'die' AS kind, 6 AS sides,
           json_extract(line, '$.value')::INTEGER AS value, 'initial-distance' AS purpose, false AS secret,
           true AS uniform
    FROM {events} WHERE type = 'wt.init.roll'"""

# Seed 002 ■3 decides the order every turn; "first player" is the first player of turn 1.
FIRST_PLAYER = """
    SELECT 'worldtrigger' AS game, match, arg_min(json_extract_string(line, '$.first'), seq) AS player
    FROM events WHERE type = 'wt.order' AND json_extract(line, '$.turn')::INTEGER = 1 GROUP BY match"""
