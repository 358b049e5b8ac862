"""kifu's use cases, between the auditor and its callers."""
