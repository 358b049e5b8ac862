"""ガンナガン's statistics over the warehouse, as data (``kifu stats builds --by gunner|guns``, ``kifu stats zero-n``).

``BUILDS``: a build key -> the SELECT of each player's key in each match (``kifu stats builds``).
``STATS``: a statistic's command name -> what ``kifu stats <name>`` runs (``kifu.warehouse.stats.Rate``):
its SQL, the proportion it gives with a Wilson interval, the columns rounded, its title and help.
"""

from __future__ import annotations

# A player's build is the last one recorded in the match (a correction is a later event).
BUILDS = {
    "gunner": """SELECT match, player, gunner AS key FROM gg_setups
                 QUALIFY row_number() OVER (PARTITION BY match, player ORDER BY seq DESC) = 1""",
    "guns": """SELECT match, player, gun_pair AS key FROM gg_setups
               QUALIFY row_number() OVER (PARTITION BY match, player ORDER BY seq DESC) = 1""",
}

# docs/sql.md ("How often N = 0 decided a shot"): per shot, the finished toss sequences of the
# special bullets fired on it and of the responses declared against it; a fair coin gives
# each N = 0 with probability 1/2, so a shot with k of them expects 1 - 2^-k.
ZERO_N_SQL = """
WITH a AS (SELECT match, shot, kind, n FROM gg_activations
           WHERE shot IS NOT NULL AND kind IN ('bullet', 'response') AND finished),
per AS (SELECT s.match, s.shot, k.kind, count(a.n) AS tossed, coalesce(bool_or(a.n = 0), false) AS zero
        FROM gg_shots s CROSS JOIN (VALUES ('bullet'), ('response'), ('any')) k(kind)
        LEFT JOIN a ON a.match = s.match AND a.shot = s.shot AND (k.kind = 'any' OR a.kind = k.kind)
        GROUP BY ALL)
SELECT kind AS effect, count(*) AS shots, count(*) FILTER (WHERE tossed > 0) AS tossed,
       count(*) FILTER (WHERE zero) AS zero, avg(1 - 0.5 ** tossed) FILTER (WHERE tossed > 0) AS expected,
       count(*) FILTER (WHERE zero) / nullif(count(*), 0) AS of_all_shots
FROM per GROUP BY kind ORDER BY CASE kind WHEN 'bullet' THEN 1 WHEN 'response' THEN 2 ELSE 3 END"""

STATS = {
    "zero-n": {
        "sql": ZERO_N_SQL,
        "rate": ("zero", "tossed"),
        "rounded": ("expected", "of_all_shots"),
        "title": "title_zero_n",
        "help": """ガンナガン: how often N = 0 decided a shot (a special bullet's or a response's N was 0).

    Example: kifu stats zero-n -f json
    """,
    }
}
