"""Helpers for the ガンナガン tests: payload lists → chained events → findings."""

from __future__ import annotations

from typing import Any

from kifu.auditor import registry
from kifu.events.base import Event
from kifu.events.codec import encode, line_hash

CODEC = registry.codec_for("gunandgun")


def chain(payloads: list[dict[str, Any]]) -> list[Event]:
    """Give payloads seq and prev (a valid hash chain) and decode them."""
    events: list[Event] = []
    prev = None
    for i, p in enumerate(payloads, 1):
        e = CODEC.convert({**p, "seq": i, "prev": prev})
        prev = line_hash(encode(e))
        events.append(e)
    return events


def findings(payloads: list[dict[str, Any]]) -> list[Any]:
    return registry.audit(chain(payloads), strict=True)


def errors(payloads: list[dict[str, Any]]) -> set[tuple[str, int]]:
    return {(f.code, f.seq) for f in findings(payloads) if f.severity == "error"}
