"""kifu (棋譜): an event-sourced match log and ruling auditor for tabletop card games."""

__version__ = "0.1.0"
