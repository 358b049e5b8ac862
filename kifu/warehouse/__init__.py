"""The warehouse: every verified, audited match in an embedded DuckDB, for SQL and statistics.

The layer above the auditor: ``ingest`` (verify, audit and load logs), ``store`` (the
DuckDB file, its tables, read-only queries, exports), ``views`` (each game's views
and random-outcome feeds) and ``stats`` (statistics over the views). docs/sql.md
documents every table, view and column.
"""

from .ingest import Checked, Summary, check_bytes, check_match, ingest, log_paths
from .store import (
    DEFAULT_DB,
    DEFAULT_WAIT,
    ENV_DB,
    ENV_WAIT,
    EXPORTS,
    SCHEMA,
    check_read_only,
    close,
    connect,
    create_schema,
    db_path,
    export_parquet,
    match_lines,
    query,
    refresh_feeds,
)

__all__ = [
    "DEFAULT_DB", "DEFAULT_WAIT", "ENV_DB", "ENV_WAIT", "EXPORTS", "SCHEMA", "Checked",
    "Summary", "check_bytes", "check_match", "check_read_only", "close", "connect", "create_schema", "db_path", "export_parquet", "ingest", "log_paths",
    "match_lines", "query", "refresh_feeds",
]
