"""JSON Schema of a game's log line, with each field's docstring as its description.

msgspec generates the schema from the structs; it takes class docstrings but not
the attribute docstrings this project writes under every field, so they are
read from the source and added here.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from functools import cache
from typing import Any

import msgspec

from .codec import Codec


@cache
def field_docs(cls: type) -> dict[str, str]:
    """Attribute docstrings of a class and its bases: {field name: text}."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        except (OSError, TypeError, SyntaxError):
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for node, nxt in zip(body, body[1:]):
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and isinstance(nxt, ast.Expr)
                and isinstance(nxt.value, ast.Constant)
                and isinstance(nxt.value.value, str)
            ):
                docs[node.target.id] = " ".join(nxt.value.value.split())
    return docs


def _struct_classes(codec: Codec) -> dict[str, type]:
    found: dict[str, type] = {}

    def walk(t: Any) -> None:
        if isinstance(t, type) and issubclass(t, msgspec.Struct) and t.__name__ not in found:
            found[t.__name__] = t
            for f in msgspec.structs.fields(t):
                for arg in _type_args(f.type):
                    walk(arg)

    for t in codec.types:
        walk(t)
    return found


def _type_args(t: Any) -> list[Any]:
    args = list(getattr(t, "__args__", ()) or ())
    out = [t]
    for a in args:
        out.extend(_type_args(a))
    return out


def schema(codec: Codec) -> dict[str, Any]:
    """The codec's JSON Schema with field descriptions filled in."""
    doc = codec.schema()
    classes = _struct_classes(codec)
    for name, definition in doc.get("$defs", {}).items():
        cls = classes.get(name)
        if cls is None:
            continue
        docs = field_docs(cls)
        for field, prop in definition.get("properties", {}).items():
            if field in docs and "description" not in prop:
                prop["description"] = docs[field]
    return doc
