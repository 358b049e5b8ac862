"""Every fixture log with expected findings beside it, and every rule with its fixtures.

Layout (docs/hacking.md):

    fixtures/<game>/rules/<CODE>/     one rule: bad*.jsonl and good*.jsonl + expected.json
    fixtures/<game>/<anything>/       worked rulings, FAQ answers, full matches: *.jsonl + expected.json

``expected.json`` maps each log file name to the findings a full audit must
give: a list of {"code", "seq"} for every error and warning (exactly, as a
multiset; one per mistake, ``fold``), and optionally {"info": [...]} entries that
must be present. An entry may name the seqs of the findings folded into it as its
``consequences``. A file with ``[]`` must audit without errors or warnings.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from conftest import FIXTURES

from kifu.auditor import registry
from kifu.auditor.engine import Engine
from kifu.events import logfile


def _expected_dirs() -> list[Path]:
    return sorted(
        p.parent for p in FIXTURES.glob("*/**/expected.json") if "imports" not in p.relative_to(FIXTURES).parts
    )


def _cases() -> list[tuple[Path, str]]:
    out = []
    for d in _expected_dirs():
        spec = json.loads((d / "expected.json").read_text(encoding="utf-8"))
        for name in spec:
            out.append((d, name))
    return out


def _load(path: Path):
    return logfile.load(path)


def _split(spec):
    if isinstance(spec, dict):
        return spec.get("findings", []), spec.get("info", [])
    return spec, []


@pytest.mark.parametrize("d,name", _cases(), ids=lambda v: v if isinstance(v, str) else str(v.relative_to(FIXTURES)))
def test_fixture_gives_expected_findings(d: Path, name: str) -> None:
    spec = json.loads((d / "expected.json").read_text(encoding="utf-8"))[name]
    want, want_info = _split(spec)
    log = _load(d / name)
    findings = registry.audit(log.events, strict=True)
    got = Counter((f.code, f.seq) for f in findings if f.severity != "info")
    assert got == Counter((w["code"], w["seq"]) for w in want), [(f.code, f.seq, f.message.en) for f in findings]
    folded = {(f.code, f.seq): f.consequences for f in findings}
    for w in want:
        assert "consequences" not in w or folded[(w["code"], w["seq"])] == w["consequences"], (w, folded)
    infos = {(f.code, f.seq) for f in findings if f.severity == "info"}
    for w in want_info:
        assert (w["code"], w["seq"]) in infos, sorted(infos)


def _rule_dirs() -> list[Path]:
    return sorted(p for p in FIXTURES.glob("*/rules/*") if p.is_dir())


@pytest.mark.parametrize("d", _rule_dirs(), ids=lambda p: p.name)
def test_rule_alone_on_its_fixtures(d: Path) -> None:
    """The rule named by the folder, run on its own, finds what the full audit's checks find of it (it needs no
    other rule) and every finding expected.json says of it; where its finding is a consequence of another
    rule's, the full audit folds it (expected.json lists it under that finding's ``consequences``)."""
    rule = registry.find_rule(d.name)
    spec = json.loads((d / "expected.json").read_text(encoding="utf-8"))
    bad = [n for n in spec if n.startswith("bad")]
    good = [n for n in spec if n.startswith("good")]
    assert bad and good, f"{d.name} needs a bad*.jsonl and a good*.jsonl"
    for name in bad + good:
        log = _load(d / name)
        g = registry.game(log.start.game)
        alone = Engine(g.projection, (rule,)).run(
            log.events,
            registry.options(g, log.start),
            g.catalogue(log.start) if g.catalogue else None,
            strict=True,
            merged=False,
        )
        every = registry.audit(log.events, strict=True, merged=False)
        got = Counter((f.code, f.seq) for f in alone if f.severity != "info")
        assert got == Counter((f.code, f.seq) for f in every if f.code == rule.code and f.severity != "info"), name
        want, want_info = _split(spec[name])
        assert Counter((w["code"], w["seq"]) for w in want if w["code"] == rule.code) <= got, (name, got)
        if name.startswith("bad"):
            assert any(f.code == rule.code for f in alone), f"{name} does not trigger {rule.code}"


def test_every_rule_has_fixtures_and_every_fixture_names_a_rule() -> None:
    codes = {r.code for r in registry.all_rules()}
    folders = {p.name for p in _rule_dirs()}
    assert folders <= codes, f"fixture folders naming no rule: {sorted(folders - codes)}"
    exempt = {"KIFU-ENG-001"}
    missing = sorted(c for c in codes - folders - exempt)
    assert not missing, f"rules without fixtures/<game>/rules/<CODE>/: {missing}"
    for d in _rule_dirs():
        assert (d / "expected.json").is_file(), d
        spec = json.loads((d / "expected.json").read_text(encoding="utf-8"))
        for name in spec:
            assert (d / name).is_file(), f"{d / name} listed in expected.json but missing"
        for log in d.glob("*.jsonl"):
            assert log.name in spec, f"{log} has no entry in expected.json"
