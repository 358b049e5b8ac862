"""Views over the events every game shares (kifu/events/base.py): notes, rulings, players, random.

The ``random`` event (RandomRolled) is shared by all games, so this module's
randomness feed covers imported dice and coins of every game; a game module only
adds the outcomes its own events record (``gg.toss``, ``mtg.flip`` …).
"""

from __future__ import annotations

VIEWS: dict[str, str] = {
    "notes": """
        SELECT match, seq, actor, time,
               json_extract_string(line, '$.text') AS text,
               json_extract_string(line, '$.channel') AS channel,
               json_extract_string(line, '$.speaker') AS speaker,
               coalesce(json_extract(line, '$.secret')::BOOLEAN, false) AS secret
        FROM events WHERE type = 'note'""",
    "rulings": """
        SELECT match, seq, actor, time,
               json_extract(line, '$.about')::BIGINT[] AS about,
               json_extract_string(line, '$.text') AS text,
               json_extract_string(line, '$.code') AS code,
               json_extract_string(line, '$.decision') AS decision
        FROM events WHERE type = 'judge.ruling'""",
    "players": """
        SELECT m.game, m.match, p.seat, p.player.id AS player, p.player.name AS name,
               m.winner IS NOT NULL AS decided, m.winner IS NOT DISTINCT FROM p.player.id AS won
        FROM matches m,
             (SELECT unnest(m.players) AS player, generate_subscripts(m.players, 1) AS seat) p""",
}

RANDOMNESS = """
    SELECT m.game, r.match, r.seq, r.idx, r.actor AS player, r.kind, r.sides, r.value, r.purpose, r.secret
    FROM (
        SELECT match, seq, actor,
               json_extract_string(line, '$.kind') AS kind,
               json_extract(line, '$.sides')::INTEGER AS sides,
               json_extract_string(line, '$.purpose') AS purpose,
               coalesce(json_extract(line, '$.secret')::BOOLEAN, false) AS secret,
               unnest(json_extract(line, '$.values')::INTEGER[]) AS value,
               generate_subscripts(json_extract(line, '$.values')::INTEGER[], 1) AS idx
        FROM events WHERE type = 'random'
    ) r JOIN matches m USING (match)"""
