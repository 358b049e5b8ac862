"""The single-pass engine: a rule that raises is reported (KIFU-ENG-001) and the others' findings stay."""

from __future__ import annotations

import pytest
from conftest import FIXTURES

from kifu.auditor import registry
from kifu.auditor.base import Flag, Rule, Severity
from kifu.auditor.engine import Engine
from kifu.events import logfile
from kifu.events.base import Note


def _rule(code: str, check) -> Rule:
    """A probe rule; it has no words in the catalogue (its message renders as its id)."""
    return Rule(code=code, name="probe", severity=Severity.ERROR, check=check, on=(Note,))


def _flag(s):
    yield Flag(s.event.seq, {"seq": s.event.seq})


def _boom(s):
    raise ZeroDivisionError("probe")


def test_a_raising_rule_is_reported_and_the_others_keep_their_findings():
    log = logfile.load(FIXTURES / "core" / "table.jsonl")
    g = registry.game("generic")
    engine = Engine(g.projection, (_rule("KIFU-LOG-901", _flag), _rule("KIFU-LOG-902", _boom)))
    findings = engine.run(log.events, {})
    notes = [e.seq for e in log.events if isinstance(e, Note)]
    assert [(f.code, f.seq) for f in findings if f.code == "KIFU-LOG-901"] == [("KIFU-LOG-901", n) for n in notes]
    crashes = [f for f in findings if f.code == "KIFU-ENG-001"]
    assert [f.seq for f in crashes] == notes and "ZeroDivisionError" in crashes[0].message.en
    with pytest.raises(ZeroDivisionError):
        engine.run(log.events, {}, strict=True)
