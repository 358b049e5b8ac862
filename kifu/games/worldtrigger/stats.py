"""World Trigger's statistics over the warehouse, as data (``kifu stats builds --by triggers``).

``BUILDS``: a build key -> the SELECT of each player's key in each match (``kifu stats builds``).
"""

from __future__ import annotations

# A player's build is the last one recorded in the match (a correction is a later event).
BUILDS = {
    "triggers": """SELECT match, player, trigger_set AS key FROM wt_builds
                   QUALIFY row_number() OVER (PARTITION BY match, player ORDER BY seq DESC) = 1""",
}
