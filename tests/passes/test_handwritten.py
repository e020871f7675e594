"""Every pass of the Vx lane is tested alone on hand-written IL at least once: a test named
`test_handwritten_...` that gives it to `run_pass` (parse, which reads program text, is given
text through `parse_pass`)."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from nano_vx.pipeline import NATIVE

TESTS = Path(__file__).resolve().parent.parent


@cache
def _handwritten_runs() -> set[str]:
    """The passes some `test_handwritten_...` function runs (read once, when a test asks,
    not while every worker collects the suite)."""
    ran = set()
    for path in TESTS.rglob("test_*.py"):
        text = path.read_text()
        if "def test_handwritten" not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_handwritten"):
                for call in ast.walk(node):
                    if not isinstance(call, ast.Call):
                        continue
                    name = getattr(call.func, "id", getattr(call.func, "attr", None))
                    first = call.args[0] if call.args else None
                    if name == "run_pass" and isinstance(first, ast.Constant):
                        ran.add(first.value)
                    elif name == "parse_pass":
                        ran.add("parse")
    return ran


@pytest.mark.parametrize("name", NATIVE.names())
def test_the_pass_is_tested_on_handwritten_il(name):
    assert name in _handwritten_runs(), f"no test_handwritten_... runs {name} with run_pass"
