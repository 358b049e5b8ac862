"""Seeded generators of legal matches, for property tests and fixtures."""
