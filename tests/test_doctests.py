"""The Python examples the documentation shows run, and show what they say.

Two kinds: a docstring's ``>>>`` example in any module of ``kifu`` (what
``--doctest-modules`` would collect, without importing every module in every test
worker to find them), and a ``>>>`` example in a fenced block of README.md or a page
under docs/ (``python``, ``pycon`` or no language). A page's examples run in order in
one namespace, as a reader types them into one interpreter, in a fresh folder that holds
a copy of ``fixtures/`` (what a clone has), so an example may read a bundled log or
write a file of its own.
"""

from __future__ import annotations

import doctest
import importlib
import re
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT

FLAGS = doctest.ELLIPSIS
"""``...`` in an expected output matches anything (a path, a hash)."""

FENCE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>```+|~~~+)[ \t]*(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$",
    re.M | re.S,
)
"""A fenced code block of a Markdown page."""


def _modules_with_examples() -> list[str]:
    """Modules of ``kifu`` whose source holds a ``>>>`` line (found by reading, not importing)."""
    found = []
    for path in sorted((ROOT / "kifu").rglob("*.py")):
        if re.search(r"^\s*>>> ", path.read_text(encoding="utf-8"), re.M):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def _pages() -> list[Path]:
    """README.md (its example is the one a new user meets first), and every page under docs/ with a ``>>>``."""
    docs = [p for p in sorted((ROOT / "docs").rglob("*.md")) if ">>> " in p.read_text(encoding="utf-8")]
    return [ROOT / "README.md", *docs]


def markdown_examples(text: str, name: str) -> list[doctest.DocTest]:
    """One doctest per fenced block of ``text`` that holds a ``>>>`` line, in page order."""
    parser, tests, globs = doctest.DocTestParser(), [], {"__name__": "__main__"}
    for block in FENCE.finditer(text):
        if block["lang"] not in ("", "python", "py", "pycon") or not re.search(r"^\s*>>> ", block["body"], re.M):
            continue
        line = text.count("\n", 0, block.start("body"))
        body = re.sub(rf"^{re.escape(block['indent'])}", "", block["body"], flags=re.M)
        tests.append(parser.get_doctest(body, globs, f"{name}:{line + 1}", name, line))
    return tests


def _run(tests: list[doctest.DocTest], *, shared: bool = False) -> list[str]:
    """The report of each failing example (empty when all pass); ``shared``: each test starts with the
    names the one before left (a page's blocks, typed into one interpreter)."""
    failures: list[str] = []
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    names: dict[str, object] = {}
    for test in tests:
        if shared:
            test.globs.update(names)
        result = runner.run(test, out=failures.append, clear_globs=False)
        assert result.attempted, test.name
        names = test.globs
    return failures


@pytest.mark.parametrize("module", _modules_with_examples())
def test_docstring_examples_run(module: str) -> None:
    tests = [t for t in doctest.DocTestFinder().find(importlib.import_module(module)) if t.examples]
    assert tests, f"{module} has a '>>>' line but no example doctest finds"
    failures = _run(tests)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("page", _pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_python_examples_of_the_docs_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tests = markdown_examples(page.read_text(encoding="utf-8"), str(page.relative_to(ROOT)))
    if not tests:
        pytest.skip("no >>> example on this page")
    shutil.copytree(FIXTURES, tmp_path / "fixtures")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KIFU_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("KIFU_DB", raising=False)
    failures = _run(tests, shared=True)
    assert not failures, "\n".join(failures)


PAGE = """# A page

Some words, then an example:

```python
>>> x = 1 + 1
>>> x
2
```

A shell block is not Python:

```sh
>>> this would fail
```

  ```pycon
  >>> x * 10
  20
  ```
"""


def test_the_examples_of_a_page_are_found_in_order_and_share_names() -> None:
    tests = markdown_examples(PAGE, "page.md")
    assert [t.name for t in tests] == ["page.md:6", "page.md:18"]
    assert [len(t.examples) for t in tests] == [2, 1]
    assert not _run(tests, shared=True)


def test_a_wrong_output_on_a_page_is_reported_with_its_line() -> None:
    failures = _run(markdown_examples(PAGE.replace("20", "21"), "page.md"), shared=True)
    text = "".join(failures)
    assert 'File "page.md", line 18' in text and "Expected:\n    21\nGot:\n    20" in text
