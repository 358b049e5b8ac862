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

# One JSON parse per event (json_transform), not one per field.
RANDOMNESS = """
    SELECT m.game, r.match, r.seq, r.idx, r.actor AS player, r.kind, r.sides, r.value, r.purpose, r.secret
    FROM (
        SELECT match, seq, actor, j.kind, j.sides, j.purpose, coalesce(j.secret, false) AS secret,
               unnest(j."values") AS value, generate_subscripts(j."values", 1) AS idx
        FROM (SELECT match, seq, actor,
                     json_transform(line, '{"kind": "VARCHAR", "sides": "INTEGER", "values": ["INTEGER"], "purpose": "VARCHAR", "secret": "BOOLEAN"}') AS j
              FROM {events} WHERE type = 'random')
    ) r JOIN matches m USING (match)"""
