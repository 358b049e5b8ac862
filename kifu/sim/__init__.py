"""Seeded generators of legal match logs, for property tests, fixtures and benchmarks."""
