"""Seeded generators of legal matches, one module per game (used by tests, fixtures, benchmarks)."""
