"""What kifu prints and stores stays byte for byte the same unless a change means it to.

For the disputes of every game (tests/test_api.py's sample: rulings, voids, mistakes), the
digest of ``kifu audit -f json`` (English, Japanese, ``--all``), of the match page (English,
Japanese), of ``kifu state`` and of every warehouse table and view after ``kifu ingest`` is
kept in ``tests/data/output_digests.json``. A change that means to change one of them writes the file
again and commits it with the change, saying why:

    python tests/test_output_digests.py
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

if __name__ == "__main__":
    sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from conftest import FIXTURES, ROOT, run_cli

GOLDEN = ROOT / "tests" / "data" / "output_digests.json"
SAMPLE = sorted(FIXTURES.glob("*/dispute.jsonl")) + sorted((ROOT / "tests" / "acceptance" / "disputes").glob("*.jsonl"))
COMMANDS = {
    "audit-json-en": ("audit", "-f", "json", "--lang", "en"),
    "audit-json-ja": ("audit", "-f", "json", "--lang", "ja"),
    "audit-all": ("audit", "-f", "json", "--all", "--lang", "en"),
    "report-en": ("report", "--lang", "en"),
    "report-ja": ("report", "--lang", "ja"),
    "state": ("state",),
}


INTERNAL = ("feed_versions",)
"""Warehouse tables of its own bookkeeping (a digest of the feeds' SQL): not an output."""


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def outputs(tmp: Path) -> dict[str, dict[str, str]]:
    """Each log's (by its path in the repository) digest of each output, and each warehouse object's."""
    out: dict[str, dict[str, str]] = {}
    for log in SAMPLE:
        name = log.relative_to(ROOT).as_posix()
        runs = {kind: run_cli(args[0], log, *args[1:]) for kind, args in COMMANDS.items()}
        # a log's path shows in what it prints: written as in the repository, wherever the clone is
        out[name] = {kind: _digest(f"{r.code}\n{r.out.replace(str(log), name)}") for kind, r in runs.items()}
    out["warehouse"] = _warehouse(tmp / "w.duckdb")
    return out


def _warehouse(db: Path) -> dict[str, str]:
    import duckdb

    assert run_cli("ingest", *SAMPLE, "--db", db, "--jobs", "1").code in (0, 1)
    con = duckdb.connect(str(db), read_only=True)
    try:
        names = con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY 1"
        ).fetchall()
        found = {}
        for (name,) in names:
            if name in INTERNAL:
                continue
            columns = [c for (c,) in con.execute(f'SELECT column_name FROM (DESCRIBE "{name}")').fetchall()]
            kept = ", ".join(f'"{c}"' for c in columns if c != "source")  # an absolute path: the clone's
            rows = con.execute(f'SELECT {kept} FROM "{name}" ORDER BY ALL').fetchall()
            found[name] = _digest(repr(rows))
        return found
    finally:
        con.close()


def test_outputs_are_what_they_were(tmp_path: Path) -> None:
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    got = outputs(tmp_path)
    changed = {
        f"{log} {kind}"
        for log, kinds in want.items()
        for kind, digest in kinds.items()
        if got.get(log, {}).get(kind) != digest
    }
    assert not changed, f"changed (python tests/test_output_digests.py writes them again): {sorted(changed)}"


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        GOLDEN.write_text(json.dumps(outputs(Path(tmp)), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
