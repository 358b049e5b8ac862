"""The warehouse: every verified, audited match in an embedded DuckDB, for SQL and statistics.

The layer above the auditor: ``ingest`` (verify, audit and load logs), ``store`` (the
DuckDB file, its tables, read-only queries, exports), ``views`` (each game's views
and random-outcome feeds), ``people`` (seats resolved to people) and ``stats``
(statistics over the views). docs/sql.md
documents every table, view and column.
"""

from . import people
from .dataset import export_parquet
from .ingest import Checked, Summary, check_bytes, check_match, ingest, log_paths
from .people import Identity, identity_path, load_identity
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
    match_lines,
    open_read,
    query,
    refresh_feeds,
)

__all__ = [
    "DEFAULT_DB",
    "DEFAULT_WAIT",
    "ENV_DB",
    "ENV_WAIT",
    "EXPORTS",
    "SCHEMA",
    "Checked",
    "Identity",
    "Summary",
    "check_bytes",
    "check_match",
    "check_read_only",
    "close",
    "connect",
    "create_schema",
    "db_path",
    "export_parquet",
    "identity_path",
    "ingest",
    "load_identity",
    "log_paths",
    "match_lines",
    "open_read",
    "people",
    "query",
    "refresh_feeds",
]
