"""The evaluator and the interpreter agree: a folded block is the literal of what the same
expression prints at run time, for random arithmetic; and the budgets stop any loop or
recursion within seconds."""

from __future__ import annotations

import io
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nano_vx.context import Compilation
from nano_vx.oracle import run_program
from nano_vx.parser import parse_text
from nano_vx.pipeline import PIPELINE
from nano_vx.source import Source
from nano_vx.values.stops import RuntimeStop


def fold(text: str):
    """The program after desugar-comptime, and what it reported."""
    tree, diagnostics = parse_text(text, "prop.vx")
    ctx = Compilation(Source("prop.vx", text), diagnostics)
    for p in PIPELINE.passes[1:]:
        tree = p(tree, ctx)
        if p.name == "desugar-comptime":
            return tree, diagnostics
    raise AssertionError("no desugar-comptime in the pipeline")


def printed(tree) -> str:
    out = io.StringIO()
    try:
        run_program(tree, out=out)
    except RuntimeStop as stop:
        return f"stopped {stop.code}"
    return out.getvalue()


INT_TYPES = ["i32", "i64", "i8", "u8", "u32"]
leaf = st.integers(-300, 300).map(str) | st.sampled_from(["2147483647", "-2147483647",
                                                          "255", "0", "1", "-1"])


def _exprs():
    def binary(children):
        return st.tuples(children, st.sampled_from("+ - * / % == < >=".split()), children) \
            .map(lambda t: f"({t[0]} {t[1]} {t[2]})")

    def cast(children):
        return st.tuples(children, st.sampled_from(INT_TYPES + ["f32", "f64"])) \
            .map(lambda t: f"({t[0]} as {t[1]})")
    return st.recursive(leaf, lambda c: binary(c) | cast(c), max_leaves=8)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_exprs())
def test_a_folded_block_prints_what_the_expression_prints(expr):
    run_time = printed(fold(f"fn main() {{ print({expr}); }}")[0])
    tree, diagnostics = fold(f"fn main() {{ let v = comptime {{ {expr} }}; print(v); }}")
    if diagnostics.has_errors:
        # Refused only when the run-time program stops or a result leaves its type.
        assert diagnostics.codes() == ["E3033"], diagnostics.render()
        message = diagnostics.items[0].message
        assert "outside" in message or run_time.startswith("stopped"), (message, run_time)
        return
    assert printed(tree) == run_time


LOOPS = [
    "let mut i = 0; while true {{ i += {k}; }} i",
    "let mut s = 0; for i in 0..{n} {{ for j in 0..{n} {{ s = (s + j) % 7; }} }} s",
    "let mut i = 0; while i >= 0 {{ i = (i + {k}) % 1000; }} i",
]


@settings(max_examples=2, deadline=None)
@given(st.sampled_from(LOOPS), st.integers(1, 5), st.integers(1001, 5000))
def test_any_loop_stops_at_the_iteration_budget_within_seconds(shape, k, n):
    start = time.monotonic()
    _, diagnostics = fold("fn main() { let v = comptime { " + shape.format(k=k, n=n) +
                          " }; }")
    assert diagnostics.codes() == ["E8005"]
    assert time.monotonic() - start < 20


@settings(max_examples=10, deadline=None)
@given(st.integers(257, 100_000), st.sampled_from(["n - 1", "n + 1", "n"]))
def test_any_recursion_stops_at_the_depth_budget(depth, step):
    text = (f"fn r(n: i32) -> i32 {{ if n == 0 {{ return 0; }} return 1 + r({step}); }}\n"
            f"fn main() {{ let v = comptime {{ r({depth}) }}; }}")
    start = time.monotonic()
    _, diagnostics = fold(text)
    assert diagnostics.codes() == ["E8004"]
    assert time.monotonic() - start < 5
