"""The ``generic`` game has no events of its own: only the shared ones (kifu/events/base.py)."""

from __future__ import annotations

from kifu.events.base import Event

EVENTS: tuple[type[Event], ...] = ()
