"""Warehouse views of Magic: The Gathering coin flips (MTG Wiki «コイン投げ», Comprehensive Rules 705).

One row per coin that landed (``mtg.coin``), with its instruction's card and
flipper, the flipper's call for that flip (705.2), whether Krark's Thumb kept or
ignored it (Saturday School #56: the player flips two and ignores one), and the
outcome, both as the table recorded it and as the call and the coin give it.
Columns: docs/sql.md.
"""

from __future__ import annotations

VIEWS: dict[str, str] = {
    # `coin` numbers a player's coins within one group in log order, the way mtg.keep.coin counts them.
    "mtg_flips": """
        WITH flips AS (
            SELECT match, seq AS flip_seq, j[1] AS flip, j[2] AS card, j[3] AS flipper
            FROM (SELECT match, seq, json_extract_string(line, ['$.flip', '$.card', '$.flipper']) AS j
                  FROM events WHERE type = 'mtg.flip')),
        coins AS (
            SELECT c.match, c.seq, c.flip, c.grp, coalesce(c.player, f.flipper) AS player, c.result, c.face,
                   c.randomiser, f.card, f.flipper
            FROM (SELECT match, seq, j[1] AS flip, coalesce(TRY_CAST(j[2] AS INTEGER), 1) AS grp, j[3] AS player,
                         j[4] AS result, TRY_CAST(j[5] AS INTEGER) AS face, coalesce(j[6], 'coin') AS randomiser
                  FROM (SELECT match, seq, json_extract_string(line, ['$.flip', '$.group', '$.player', '$.result',
                                                                      '$.face', '$.randomiser']) AS j
                        FROM events WHERE type = 'mtg.coin')) c
            LEFT JOIN flips f ON f.match = c.match AND f.flip = c.flip),
        numbered AS (
            SELECT *, row_number() OVER (PARTITION BY match, flip, grp, player ORDER BY seq) AS coin,
                   count(*) OVER (PARTITION BY match, flip, grp, player) AS coins
            FROM coins),
        -- The call that counts follows the match's option call_counts (MTG-CALL rules): by default
        -- the last call before the player's first coin of the flip landed (a call changed blind).
        calls_raw AS (
            SELECT match, seq, j[1] AS flip, coalesce(TRY_CAST(j[2] AS INTEGER), 1) AS grp, j[3] AS player,
                   j[4] AS side
            FROM (SELECT match, seq, json_extract_string(line, ['$.flip', '$.group', '$.player', '$.side']) AS j
                  FROM events WHERE type = 'mtg.call')),
        first_coin AS (SELECT match, flip, grp, player, min(seq) AS coin_seq FROM coins GROUP BY ALL),
        calls AS (
            SELECT c.match, c.flip, c.grp, c.player,
                   CASE WHEN json_extract_string(any_value(m.rules), '$.call_counts') = 'first'
                        THEN arg_min(c.side, c.seq)
                        ELSE coalesce(arg_max(c.side, c.seq) FILTER (WHERE c.seq < f.coin_seq), arg_min(c.side, c.seq))
                   END AS called
            FROM calls_raw c LEFT JOIN first_coin f USING (match, flip, grp, player)
            LEFT JOIN matches m ON m.match = c.match
            GROUP BY c.match, c.flip, c.grp, c.player),
        keeps AS (
            SELECT match, j[1] AS flip, coalesce(TRY_CAST(j[2] AS INTEGER), 1) AS grp, j[3] AS player,
                   arg_max(TRY_CAST(j[4] AS INTEGER), seq) AS kept_coin
            FROM (SELECT match, seq, json_extract_string(line, ['$.flip', '$.group', '$.player', '$.coin']) AS j
                  FROM events WHERE type = 'mtg.keep') GROUP BY ALL),
        outcomes AS (
            SELECT match, j[1] AS flip, coalesce(TRY_CAST(j[2] AS INTEGER), 1) AS grp, j[3] AS player,
                   arg_max(j[4], seq) AS outcome
            FROM (SELECT match, seq, json_extract_string(line, ['$.flip', '$.group', '$.player', '$.outcome']) AS j
                  FROM events WHERE type = 'mtg.outcome') GROUP BY ALL),
        judged AS (
            SELECT n.*, c.called, k.kept_coin, o.outcome,
                   CASE WHEN n.coins = 1 AND k.kept_coin IS NULL THEN 'kept'
                        WHEN k.kept_coin IS NULL THEN NULL
                        WHEN k.kept_coin = n.coin THEN 'kept' ELSE 'ignored' END AS fate
            FROM numbered n
            LEFT JOIN calls c ON c.match = n.match AND c.flip = n.flip AND c.grp = n.grp AND c.player = n.player
            LEFT JOIN keeps k ON k.match = n.match AND k.flip = n.flip AND k.grp = n.grp AND k.player = n.player
            LEFT JOIN outcomes o ON o.match = n.match AND o.flip = n.flip AND o.grp = n.grp AND o.player = n.player)
        SELECT match, seq, flip, grp AS "group", card, flipper, player, coin, coins, called, result, face,
               randomiser, fate,
               CASE WHEN fate = 'kept' AND called IS NOT NULL
                    THEN CASE WHEN result = called THEN 'won' ELSE 'lost' END END AS won,
               outcome AS outcome_recorded
        FROM judged""",
}

# Heads is face 1 (docs/sql.md: face 1 is the side the game names first); every coin
# counts, Thumb-ignored ones too, since each is a physical flip of the same coin.
RANDOMNESS = """
    SELECT 'mtg' AS game, c.match, c.seq, 1 AS idx, coalesce(c.j[2], f.flipper) AS player, 'coin' AS kind,
           2 AS sides, CASE c.j[3] WHEN 'heads' THEN 1 ELSE 2 END AS value, f.card AS purpose, false AS secret,
           true AS uniform
    FROM (SELECT match, seq, json_extract_string(line, ['$.flip', '$.player', '$.result']) AS j
          FROM {events} WHERE type = 'mtg.coin') c
    LEFT JOIN (SELECT match, json_extract_string(line, '$.flip') AS flip,
                      any_value(json_extract_string(line, '$.flipper')) AS flipper,
                      any_value(json_extract_string(line, '$.card')) AS card
               FROM {events} WHERE type = 'mtg.flip' GROUP BY ALL) f
      ON f.match = c.match AND f.flip = c.j[1]"""

# The active player of the match's first turn (mtg.turn is optional: no row without it).
FIRST_PLAYER = """
    SELECT 'mtg' AS game, match, arg_min(json_extract_string(line, '$.player'), seq) AS player
    FROM events WHERE type = 'mtg.turn' AND json_extract(line, '$.turn')::INTEGER = 1 GROUP BY match"""
