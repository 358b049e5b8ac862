"""Seeded generators of legal matches, one module per game, for property tests and fixture scripts.

They may use randomness (always from a caller-given seed); the projector and the
auditor never do.
"""
