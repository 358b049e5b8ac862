"""Warehouse views of Weiss Schwarz (WSターンの流れ): one row per attack.

An attack is a ``ws.attack`` and everything up to the next attack, the end of a
phase or a new turn: its trigger reveal (soul icons), counters, the attack's
damage (``ws.damage`` with source ``attack``) and the battle. Weiss records no
dice or coins of its own (a rolled die or flipped coin at a Weiss table is the
shared ``random`` event, which the generic feed covers), so this module feeds
nothing into ``randomness``. Columns: docs/sql.md.
"""

from __future__ import annotations

_PARTS = "'ws.attack', 'ws.reveal', 'ws.counter', 'ws.damage', 'ws.battle', 'ws.phase.end', 'ws.turn'"
_BOUNDARIES = "'ws.attack', 'ws.phase.end', 'ws.turn'"
_MOVED = "'ws.swap', 'ws.move', 'ws.retire', 'ws.encore'"
"""Events after which a slot may hold another character (or lose this turn's modifiers)."""

VIEWS: dict[str, str] = {
    "ws_turns": """
        SELECT match, seq, json_extract_string(line, '$.player') AS player,
               json_extract(line, '$.number')::INTEGER AS turn
        FROM events WHERE type = 'ws.turn'""",
    # soul: the attacking character's soul (its ws.play.chara soul plus the ws.modify soul it got
    # this turn since it last came to the stage) plus the trigger's soul icons. An encore of the
    # same card keeps the character; after a swap, a move or an encore of another card the view
    # cannot tell which character attacks (it does not follow cards), so soul is NULL.
    "ws_attacks": f"""
        WITH e AS (
            -- the attack an event belongs to: the last boundary before it (when that is an attack)
            SELECT match, seq, type, line,
                   max(CASE WHEN type IN ({_BOUNDARIES}) THEN seq END)
                       OVER (PARTITION BY match ORDER BY seq ROWS UNBOUNDED PRECEDING) AS boundary
            FROM events WHERE type IN ({_PARTS})),
        a AS (
            SELECT match, seq, json_extract_string(line, '$.player') AS player,
                   json_extract_string(line, '$.slot') AS slot, json_extract_string(line, '$.kind') AS kind
            FROM e WHERE type = 'ws.attack'),
        parts AS (
            SELECT match, boundary AS attack_seq,
                   sum(len(list_filter(coalesce(json_extract(line, '$.icons')::VARCHAR[], []), lambda i: i = 'soul')))
                       FILTER (WHERE type = 'ws.reveal') AS trigger_soul,
                   count(*) FILTER (WHERE type = 'ws.counter') AS counters,
                   arg_min(json_extract(line, '$.amount')::INTEGER, seq)
                       FILTER (WHERE type = 'ws.damage' AND coalesce(json_extract_string(line, '$.source'), 'attack') = 'attack')
                       AS damage,
                   arg_min(coalesce(json_extract(line, '$.cancelled')::BOOLEAN, false), seq)
                       FILTER (WHERE type = 'ws.damage' AND coalesce(json_extract_string(line, '$.source'), 'attack') = 'attack')
                       AS cancelled,
                   arg_min(json_extract(line, '$.attacker_power')::INTEGER, seq) FILTER (WHERE type = 'ws.battle')
                       AS attacker_power,
                   arg_min(json_extract(line, '$.defender_power')::INTEGER, seq) FILTER (WHERE type = 'ws.battle')
                       AS defender_power,
                   arg_min(coalesce(json_extract(line, '$.reversed')::VARCHAR[], []), seq) FILTER (WHERE type = 'ws.battle')
                       AS reversed
            FROM e WHERE type IN ('ws.reveal', 'ws.counter', 'ws.damage', 'ws.battle')
            GROUP BY match, boundary),
        plays AS (
            SELECT match, seq, json_extract_string(line, '$.player') AS player,
                   json_extract_string(line, '$.slot') AS slot, json_extract_string(line, '$.card') AS card,
                   coalesce(json_extract(line, '$.soul')::INTEGER, 1) AS soul
            FROM events WHERE type = 'ws.play.chara'),
        changes AS (
            SELECT match, seq, type, json_extract_string(line, '$.player') AS player,
                   [json_extract_string(line, '$.slot'), json_extract_string(line, '$.a'),
                    json_extract_string(line, '$.b')] AS slots,
                   json_extract_string(line, '$.card') AS card,
                   coalesce(json_extract(line, '$.soul')::INTEGER, 0) AS soul
            FROM events WHERE type IN ('ws.modify', {_MOVED})),
        resets AS (
            SELECT match, seq, player, slots[1] AS slot FROM changes WHERE type IN ('ws.retire', 'ws.encore')),
        placed AS (
            SELECT a.*, t.turn, greatest(t.seq, r.seq) AS since_seq, p.seq AS play_seq, p.card, p.soul AS printed_soul
            FROM a
            ASOF LEFT JOIN ws_turns t ON t.match = a.match AND a.seq > t.seq
            ASOF LEFT JOIN plays p ON p.match = a.match AND p.player = a.player AND p.slot = a.slot AND a.seq > p.seq
            ASOF LEFT JOIN resets r ON r.match = a.match AND r.player = a.player AND r.slot = a.slot AND a.seq > r.seq),
        adjusted AS (
            SELECT x.match, x.seq,
                   coalesce(sum(c.soul) FILTER (WHERE c.type = 'ws.modify' AND c.seq > x.since_seq), 0) AS modified,
                   count(*) FILTER (WHERE c.type IN ('ws.swap', 'ws.move')
                                       OR c.type = 'ws.encore' AND c.card <> x.card)
                       AS moved
            FROM placed x LEFT JOIN changes c
              ON c.match = x.match AND c.player = x.player AND list_contains(c.slots, x.slot)
             AND c.seq > x.play_seq AND c.seq < x.seq
            GROUP BY x.match, x.seq)
        SELECT x.match, x.seq, x.turn, x.player, x.slot, x.kind, x.card,
               CASE WHEN x.play_seq IS NOT NULL AND d.moved = 0
                    THEN x.printed_soul + d.modified + coalesce(p.trigger_soul, 0) END AS soul,
               coalesce(p.trigger_soul, 0) AS trigger_soul, coalesce(p.counters, 0) AS counters,
               p.damage, p.cancelled,
               CASE WHEN p.cancelled THEN 0 ELSE p.damage END AS damage_taken,
               p.attacker_power, p.defender_power,
               CASE WHEN p.reversed IS NULL THEN NULL
                    WHEN len(p.reversed) = 2 THEN 'both-reversed'
                    WHEN len(p.reversed) = 0 THEN 'none-reversed'
                    ELSE p.reversed[1] || '-reversed' END AS battle
        FROM placed x
        LEFT JOIN adjusted d USING (match, seq)
        LEFT JOIN parts p ON p.match = x.match AND p.attack_seq = x.seq""",
}

FIRST_PLAYER = """
    SELECT 'weiss' AS game, match, arg_min(json_extract_string(line, '$.player'), seq) AS player
    FROM events WHERE type = 'ws.turn' GROUP BY match"""
