from conftest import FIXTURES


def test_core_fixture_audits_clean(kifu):
    r = kifu("audit", FIXTURES / "core" / "table.jsonl")
    assert r.code == 0, r.err
    assert "no findings" in r.out


def test_new_append_verify(kifu, tmp_path):
    log = tmp_path / "m.jsonl"
    assert kifu("new", log, "-g", "generic", "-m", "x", "-p", "a=A", "-p", "b=B").code == 0
    assert kifu("append", log, "type=note", "by=a", "text=hi").code == 0
    r = kifu("verify", log)
    assert r.code == 0 and "2 events" in r.out
