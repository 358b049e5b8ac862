"""Views over the events every game shares (kifu/events/base.py): notes, rulings, commitments, players, random.

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
    # kifu's stance on each ruling is the audit's (ruling_stances, stored at ingest), never worked out in SQL.
    "rulings": """
        SELECT e.match, e.seq, e.actor, e.time,
               json_extract(e.line, '$.about')::BIGINT[] AS about,
               json_extract_string(e.line, '$.text') AS text,
               json_extract_string(e.line, '$.code') AS code,
               json_extract_string(e.line, '$.decision') AS decision,
               s.stance, s.judge_broken, s.kifu, s.finding_codes, s.finding_seqs, s.says_en, s.says_ja
        FROM events e LEFT JOIN ruling_stances s ON s.match = e.match AND s.seq = e.seq
        WHERE e.type = 'judge.ruling'""",
    # Every verifiable-toss commitment, with the other matches whose logs commit to the same digest: a toss
    # copied whole from another match (docs/randomness.md, "Threat model"). A v2 commitment names its match
    # and the audit refuses it elsewhere (KIFU-RNG-015); a v1 commitment is bound to nothing, so only a look
    # across matches finds its replay. Two honest commitments never share a digest (32 random secret bytes).
    "commitments": """
        WITH c AS (
            SELECT match, seq, actor AS player, j.id, j.digest, coalesce(j.version, 1) AS version,
                   j.match AS bound, j.purpose, j.roll
            FROM (SELECT match, seq, actor,
                         json_transform(line, '{"id": "VARCHAR", "digest": "VARCHAR", "version": "INTEGER",
                                                "match": "VARCHAR", "purpose": "VARCHAR", "roll": "VARCHAR"}') AS j
                  FROM events WHERE type = 'rng.commit'))
        SELECT c.*, coalesce(list_sort(list_distinct(o.also_in)), []::VARCHAR[]) AS also_in
        FROM c LEFT JOIN (
            SELECT a.match, a.seq, list(b.match) AS also_in
            FROM c a JOIN c b ON a.digest = b.digest AND a.match <> b.match
            GROUP BY a.match, a.seq) o ON o.match = c.match AND o.seq = c.seq""",
    "players": """
        SELECT m.game, m.match, p.seat, p.player.id AS player, p.player.name AS name, p.player."key" AS "key",
               m.winner IS NOT NULL AS decided, m.winner IS NOT DISTINCT FROM p.player.id AS won
        FROM matches m,
             (SELECT unnest(m.players) AS player, generate_subscripts(m.players, 1) AS seat) p""",
}

# One JSON parse per event (json_transform), not one per field.
# `uniform` (docs/sql.md, "What the fairness tests read"): a coin, a die or a choice whose command,
# if the source kept one, is plain dice arithmetic (NdS, NBS, sums, comparisons), a choice, or
# nothing; a secret-roll S and a repeat prefix (x3, rep3) do not count. Anything else (exploding
# U dice, rerolls R, keep-highest KH, system checks such as CCB) may record derived values:
# kept, not tested. A D66 (plain or N, not the sorted D66S) is two d6: its value 35 becomes the
# faces 3 and 5, so it is tested as d6 faces, never as 66 equal sides.
RANDOMNESS = """
    WITH r AS (
        SELECT match, seq, actor, j.kind, j.sides, j.purpose, coalesce(j.secret, false) AS secret, j."values" AS vals,
               regexp_replace(upper(coalesce(j.expr, '')), '\\s', '', 'g') AS expr
        FROM (SELECT match, seq, actor,
                     json_transform(line, '{"kind": "VARCHAR", "sides": "INTEGER", "values": ["INTEGER"], "purpose": "VARCHAR", "secret": "BOOLEAN", "expr": "VARCHAR"}') AS j
              FROM {events} WHERE type = 'random')),
    c AS (
        SELECT *, regexp_replace(expr, '^S?((X|REP)[0-9]+)?', '') AS bare FROM r),
    d AS (
        SELECT *, sides = 66 AND regexp_full_match(bare, '([0-9]*D66N?)?')
                  AND len(list_filter(vals, lambda v: v // 10 NOT BETWEEN 1 AND 6 OR v % 10 NOT BETWEEN 1 AND 6)) = 0 AS d66,
               kind IN ('coin', 'die', 'choice')
                  AND (bare = '' OR starts_with(bare, 'CHOICE') OR regexp_full_match(bare, '[-+*/()0-9DB<>=,.]*'))
                  AS plain
        FROM c),
    f AS (
        SELECT match, seq, actor, kind, purpose, secret, plain, d66,
               CASE WHEN d66 THEN 6 ELSE sides END AS sides,
               CASE WHEN d66 THEN flatten(list_transform(vals, lambda v: [v // 10, v % 10])) ELSE vals END AS faces
        FROM d)
    SELECT m.game, f.match, f.seq, f.idx, f.actor AS player, f.kind, f.sides, f.value, f.purpose, f.secret,
           (f.plain AND (f.d66 OR f.sides <> 66) AND f.value BETWEEN 1 AND f.sides) AS uniform
    FROM (SELECT match, seq, actor, kind, purpose, secret, plain, d66, sides,
                 unnest(faces) AS value, generate_subscripts(faces, 1) AS idx FROM f) f
    JOIN matches m USING (match)"""
