"""Warehouse views of ガンナガン with the coin-toss variant (トスで決まる枚数ルール): setups, turns, tosses, N per activation.

Seed 000 §基本ルール: N is the number of tosses facing the tosser before the first
toss facing the opponent. The projection counts it (``Activation.n``) and the
warehouse stores its count (``FACTS``: ``gg_activation_facts``), which the views
read (``n``) beside the table's own count from ``gg.resolve`` (``n_recorded``), so a
query can find where the two disagree. Columns: docs/sql.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def activation_facts(state: Any) -> Iterator[tuple[Any, ...]]:
    """(act, tosses, n, finished) of every activation of a match, from its final state: N as the projection
    counted it (NULL before any toss), and whether an opponent-facing toss ended its sequence."""
    for a in state.acts.values():
        yield a.id, len(a.tosses), a.n if a.tosses else None, a.ended


FACTS = {
    "gg_activation_facts": (
        {"act": "VARCHAR", "tosses": "INTEGER", "n": "INTEGER", "finished": "BOOLEAN"},
        activation_facts,
    )
}
"""What the projection worked out, per activation (kifu.warehouse.views.Facts)."""

VIEWS: dict[str, str] = {
    "gg_setups": """
        SELECT match, seq, j[1] AS player, j[2] AS gunner,
               json_extract(line, '$.guns')::VARCHAR[] AS guns,
               array_to_string(list_sort(json_extract(line, '$.guns')::VARCHAR[]), '+') AS gun_pair,
               j[3] AS skill
        FROM (SELECT match, seq, line, json_extract_string(line, ['$.player', '$.gunner', '$.skill']) AS j
              FROM events WHERE type = 'gg.setup')""",
    "gg_turns": """
        SELECT match, seq, json_extract_string(line, '$.player') AS player,
               json_extract(line, '$.turn')::INTEGER AS turn
        FROM events WHERE type = 'gg.turn'""",
    # `turn` is the match's turn counter at the toss (gg.turn.turn), NULL before the first turn.
    "gg_tosses": """
        SELECT t.match, t.seq, t.act, t.player, t.facing,
               row_number() OVER (PARTITION BY t.match, t.act ORDER BY t.seq) AS toss, u.turn
        FROM (SELECT match, seq, j[1] AS act, j[2] AS player, j[3] AS facing
              FROM (SELECT match, seq, json_extract_string(line, ['$.act', '$.player', '$.facing']) AS j
                    FROM events WHERE type = 'gg.toss')) t
        ASOF LEFT JOIN gg_turns u ON t.match = u.match AND t.seq >= u.seq""",
    # One row per activation that was opened or tossed; `tosses`, `n` and `finished` as the projection
    # counted them (`n` counts only tosses before the first facing the opponent: a toss recorded after
    # it, GG-TOSS-003, does not raise N).
    "gg_activations": """
        WITH opened AS (
            SELECT match, seq, type, json_extract_string(line, ['$.act', '$.player', '$.card', '$.kind',
                                                                '$.skill', '$.shot']) AS j
            FROM events WHERE type IN ('gg.play', 'gg.bullet', 'gg.skill', 'gg.group')),
        o AS (
            SELECT match, j[1] AS act, seq AS opened_seq, j[2] AS player,
                   CASE type WHEN 'gg.skill' THEN j[5] ELSE j[3] END AS card,
                   CASE type WHEN 'gg.bullet' THEN 'bullet' WHEN 'gg.skill' THEN 'skill' ELSE j[4] END AS kind,
                   CASE WHEN type = 'gg.bullet' THEN j[6] END AS shot
            FROM opened),
        against AS (
            SELECT match, json_extract_string(line, '$.act') AS act,
                   any_value(json_extract_string(line, '$.against')) AS shot
            FROM events WHERE type = 'gg.respond' GROUP BY ALL),
        tossed AS (
            SELECT match, act, any_value(player) AS tosser, min(seq) AS first_toss_seq, min(turn) AS turn
            FROM gg_tosses GROUP BY ALL),
        resolved AS (
            SELECT match, json_extract_string(line, '$.act') AS act,
                   arg_min(json_extract(line, '$.n')::INTEGER, seq) AS n_recorded
            FROM events WHERE type = 'gg.resolve' GROUP BY ALL),
        joined AS (
            SELECT coalesce(o.match, t.match) AS match, coalesce(o.act, t.act) AS act,
                   coalesce(o.opened_seq, t.first_toss_seq) AS seq, coalesce(o.player, t.tosser) AS player,
                   o.card, o.kind, coalesce(o.shot, a.shot) AS shot,
                   coalesce(f.tosses, 0) AS tosses, f.n, coalesce(f.finished, false) AS finished, r.n_recorded,
                   t.turn AS toss_turn
            FROM o FULL JOIN tossed t ON o.match = t.match AND o.act = t.act
            LEFT JOIN gg_activation_facts f ON f.match = coalesce(o.match, t.match) AND f.act = coalesce(o.act, t.act)
            LEFT JOIN against a ON a.match = coalesce(o.match, t.match) AND a.act = coalesce(o.act, t.act)
            LEFT JOIN resolved r ON r.match = coalesce(o.match, t.match) AND r.act = coalesce(o.act, t.act))
        SELECT j.match, j.act, j.seq, j.player, j.card, j.kind, j.shot,
               coalesce(j.toss_turn, u.turn) AS turn, j.tosses, j.n, j.finished, j.n_recorded
        FROM joined j ASOF LEFT JOIN gg_turns u ON j.match = u.match AND j.seq >= u.seq""",
    "gg_shots": """
        SELECT match, seq, j[1] AS shot, j[2] AS player, j[3] AS gun
        FROM (SELECT match, seq, json_extract_string(line, ['$.shot', '$.player', '$.gun']) AS j
              FROM events WHERE type = 'gg.shoot')""",
}

# A toss is a coin whose face 1 is "facing the tosser" (docs/sql.md); purpose is the activation.
RANDOMNESS = """
    SELECT 'gunandgun' AS game, match, seq, 1 AS idx, j[1] AS player, 'coin' AS kind, 2 AS sides,
           CASE j[2] WHEN 'self' THEN 1 ELSE 2 END AS value, j[3] AS purpose, false AS secret,
           true AS uniform
    FROM (SELECT match, seq, json_extract_string(line, ['$.player', '$.facing', '$.act']) AS j
          FROM {events} WHERE type = 'gg.toss')"""

# Only finished runs (one toss facing the opponent): a run cut short at a load cap
# (トスで決まる枚数ルール §装填効果) is censored, not a draw from Geometric(1/2). N is the projection's
# (tosses after the first opponent-facing one are not part of the run).
RUNS = """
    WITH t AS (SELECT match, seq, j[1] AS player, j[2] AS act
               FROM (SELECT match, seq, json_extract_string(line, ['$.player', '$.act']) AS j
                     FROM {events} WHERE type = 'gg.toss'))
    SELECT 'gunandgun' AS game, t.match, min(t.seq) AS seq, any_value(t.player) AS player, any_value(f.n) AS n
    FROM t JOIN gg_activation_facts f USING (match, act)
    WHERE f.finished
    GROUP BY t.match, t.act"""

FIRST_PLAYER = """
    SELECT 'gunandgun' AS game, match, arg_min(json_extract_string(line, '$.player'), seq) AS player
    FROM events WHERE type = 'gg.first' GROUP BY match"""
