"""A large CCFOLIA export keeps an unambiguous location for every message.

libxml2's HTML parser stops counting lines at 65,535; past it a message is
located by its position (``p[i]``), so no two events share a ``src.loc``.
"""

from __future__ import annotations

from kifu.events import logfile

HEAD = """<!DOCTYPE html>
<html lang="ja">
  <head>
    <meta charset="UTF-8" />
    <title>ccfolia - logs</title>
  </head>
  <body>
"""
MESSAGE = """
<p style="color:#e91e63;">
  <span> [main]</span>
  <span>ミナト</span> :
  <span>
    {i} 手目の雑談
  </span>
</p>
"""


def test_every_message_of_a_long_export_has_its_own_location(kifu, tmp_path):
    n = 9000  # about 72,000 lines
    src = tmp_path / "big.html"
    src.write_text(HEAD + "".join(MESSAGE.format(i=i) for i in range(n)) + "</body></html>\n", encoding="utf-8")
    out = tmp_path / "big.jsonl"
    r = kifu("import", src, "-o", out)
    assert r.code == 0, r.err
    locs = [e.src.loc for e in logfile.load(out).events[1:]]
    assert len(locs) == n and len(set(locs)) == n
    assert locs[0].startswith("line ") and locs[-1] == f"p[{n}]"
