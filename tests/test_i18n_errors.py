"""Error lines follow --lang: the log layer's and msgspec's messages have Japanese versions."""

from __future__ import annotations

import re

import pytest

from kifu.events.i18n import _TABLE, translate

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _log(tmp_path, kifu, n=4):
    log = tmp_path / "m.jsonl"
    assert kifu("new", log, "-g", "generic", "-m", "x", "-p", "a=A", "-p", "b=B").code == 0
    for i in range(n):
        assert kifu("append", log, "type=note", "by=a", f"text=n{i}").code == 0
    return log


def _edit(log, fn):
    lines = log.read_bytes().split(b"\n")[:-1]
    log.write_bytes(fn(lines))


CASES = {
    "edited": lambda ls: b"\n".join(ls[:2] + [ls[2].replace(b"n1", b"N1")] + ls[3:]) + b"\n",
    "deleted": lambda ls: b"\n".join(ls[:2] + ls[3:]) + b"\n",
    "swapped": lambda ls: b"\n".join(ls[:2] + [ls[3], ls[2]] + ls[4:]) + b"\n",
    "torn": lambda ls: b"\n".join(ls) + b"\n" + ls[-1][:20],
    "not-json": lambda ls: b"\n".join(ls[:2] + [b"{oops"] + ls[3:]) + b"\n",
    "wrong-type": lambda ls: b"\n".join(ls[:2] + [ls[2].replace(b'"seq":3', b'"seq":"3"')] + ls[3:]) + b"\n",
    "unknown-field": lambda ls: b"\n".join(ls[:2] + [ls[2].replace(b'"text"', b'"zz":1,"text"')] + ls[3:]) + b"\n",
    "empty": lambda ls: b"",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_error_line_is_japanese_with_lang_ja(case, tmp_path, kifu):
    log = _log(tmp_path, kifu)
    _edit(log, CASES[case])
    ja = kifu("verify", log, "--lang", "ja")
    en = kifu("verify", log, "--lang", "en")
    assert ja.code == en.code == 2
    assert len(ja.err.strip().splitlines()) == 1 and "Traceback" not in ja.err
    assert JAPANESE.search(ja.err), ja.err
    assert not JAPANESE.search(en.err), en.err


def test_untranslated_message_stays_english():
    assert translate("something new went wrong", "ja") == "something new went wrong"


@pytest.mark.parametrize("pattern,template", _TABLE)
def test_every_template_uses_only_its_pattern_groups(pattern, template):
    groups = set(re.compile(pattern).groupindex)
    used = set(re.findall(r"{(\w+)}", template))
    assert used <= groups, (pattern, used - groups)
