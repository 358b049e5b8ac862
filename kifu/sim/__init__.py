"""Seeded generators of legal match logs, for property tests and benchmarks."""
