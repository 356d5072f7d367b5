"""Cell-as-tool as source: the exported function is the one the kernel compiles from the same cell."""

from __future__ import annotations

import ast
import inspect
from typing import Any

import pytest

from jupyter_mcp.kernel.cellfunc import build_function
from jupyter_mcp.syntax.cellfunc import SignatureError, function_source, parse_header, pick_function, split_signature


def defined(source: str, name: str) -> Any:
    namespace: dict[str, Any] = {}
    exec(compile(source, "<export>", "exec"), namespace)
    return namespace[name]


CASES = [
    ("word_count(text: str) -> int", '"""Count words."""\nwords = text.split()\nlen(words)', {"text": "a b c"}),
    ("only_doc()", '"""Returns None: a docstring alone is no result."""', {}),
    ("empty()", "", {}),
    ("last_assign(x: int)", "y = x * 2", {"x": 3}),
    ("semi(x: int)", "y = x + 1; y", {"x": 1}),
    ("sql(limit: int) -> str", 'query = """\nselect *\n  from t\n"""\nquery + str(limit)', {"limit": 5}),
    (
        "documented(a: int) -> int",
        '"""Doubles.\n\nArgs:\n    a: the number.\n"""\nif a > 0:\n    a * 2\nelse:\n    a\n(a\n * 2)',
        {"a": 4},
    ),
]


@pytest.mark.parametrize(("signature", "body", "arguments"), CASES)
def test_exported_source_behaves_like_the_compiled_cell(signature: str, body: str, arguments: dict[str, Any]) -> None:
    name = parse_header(signature).name
    source = function_source(signature, body)
    ast.parse(source)
    exported = defined(source, name)
    compiled = build_function(signature, body, {}, "<cell>")
    assert exported(**arguments) == compiled(**arguments)
    assert inspect.getdoc(exported) == inspect.getdoc(compiled)
    assert str(inspect.signature(exported)) == str(inspect.signature(compiled))


def test_exported_source_reads_like_a_function() -> None:
    body = '"""Count words.\n\nArgs:\n    text: what to count.\n"""\nwords = text.split()\nlen(words)'
    assert function_source("word_count(text: str) -> int", body) == (
        "def word_count(text: str) -> int:\n"
        '    """Count words.\n'
        "\n"
        "    Args:\n"
        "        text: what to count.\n"
        '    """\n'
        "    words = text.split()\n"
        "    return len(words)"
    )
    assert (
        function_source("async fetch(n: int)", "await thing(n)")
        == "async def fetch(n: int):\n    return await thing(n)"
    )
    assert function_source("nothing()", "") == "def nothing():\n    pass"


def test_a_multiline_string_keeps_its_text() -> None:
    source = function_source("sql() -> str", 'q = """\nselect *\n  from t\n"""\nq')
    assert 'q = """\nselect *\n  from t\n"""' in source
    assert defined(source, "sql")() == "\nselect *\n  from t\n"


def test_signature_and_picking_rules() -> None:
    assert split_signature("add(a: int, b: int) -> int --read-only") == ("add(a: int, b: int) -> int", "--read-only")
    assert split_signature("--read-only NAME") == (None, "--read-only NAME")
    with pytest.raises(SignatureError, match="not closed"):
        split_signature("f(a: int")
    with pytest.raises(SignatureError, match="cannot parse the signature"):
        parse_header("f(a: = 1)")
    assert pick_function(["_helper", "tool"], None) == "tool"
    with pytest.raises(ValueError, match=r"defines 2 public functions \(a, b\); name one"):
        pick_function(["a", "b"], None)
    with pytest.raises(ValueError, match="'c' is not a function defined by this cell"):
        pick_function(["a", "b"], "c")
