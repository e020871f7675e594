"""The evaluator and the interpreter agree: a folded block is the literal of what the same
expression prints at run time, for random arithmetic; and the budgets stop any loop or
recursion within seconds."""

from __future__ import annotations

import io

import pytest
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


def outcome(text: str):
    """What compiling (up to desugar-comptime) and running the program gives: the codes
    reported, else what it prints (or the code it stops with)."""
    tree, diagnostics = fold(text)
    return diagnostics.codes() if diagnostics.has_errors else printed(tree)


def refused_before_folding(run_time, got) -> bool:
    """Whether the run-time form was refused before any block ran (a literal out of its
    type's range): then the comptime form is refused the same way (and may say more about
    its block)."""
    if type(run_time) is not list:
        return False
    assert type(got) is list and set(run_time) <= set(got), (got, run_time)
    return True


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


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_exprs())
def test_a_folded_block_prints_what_the_expression_prints(expr):
    run_time = outcome(f"fn main() {{ print({expr}); }}")
    text = f"fn main() {{ let v = comptime {{ {expr} }}; print(v); }}"
    if refused_before_folding(run_time, outcome(text)):
        return
    tree, diagnostics = fold(text)
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
def test_any_loop_stops_at_the_iteration_budget(shape, k, n):
    _, diagnostics = fold("fn main() { let v = comptime { " + shape.format(k=k, n=n) +
                          " }; }")
    assert diagnostics.codes() == ["E8005"]


@settings(max_examples=10, deadline=None)
@given(st.integers(257, 100_000), st.sampled_from(["n - 1", "n + 1", "n"]))
def test_any_recursion_stops_at_the_depth_budget(depth, step):
    text = (f"fn r(n: i32) -> i32 {{ if n == 0 {{ return 0; }} return 1 + r({step}); }}\n"
            f"fn main() {{ let v = comptime {{ r({depth}) }}; }}")
    _, diagnostics = fold(text)
    assert diagnostics.codes() == ["E8004"]


@pytest.mark.slow
def test_a_doubly_recursive_call_stops_at_the_step_budget():
    """40 calls deep, far below 256, but 10^8 calls: each call is a step of the budget."""
    fn = "fn f(n: i32) -> i32 { if n < 2 { return n; } return f(n - 1) + f(n - 2); }\n"
    _, diagnostics = fold(fn + "fn main() { let v = comptime { f(40) }; }")
    assert diagnostics.codes() == ["E8005"]
    assert "steps: loop iterations and calls" in diagnostics.items[0].message
    tree, diagnostics = fold(fn + "fn main() { let v = comptime { f(12) }; print(v); }")
    assert not diagnostics.has_errors, diagnostics.render()
    assert printed(tree) == "144\n"


NEGATED = ["i8", "i16", "i32", "i64", "u8", "u32", "u64"]
# Magnitudes at and around the bounds of every width: -N for N near 2^7, 2^8, ... 2^64
# (the parser takes literals up to 2^64 - 1: E1006 above).
magnitude = st.tuples(st.sampled_from([0, 1 << 7, 1 << 8, 1 << 15, 1 << 16, 1 << 31,
                                       1 << 32, 1 << 63, 1 << 64]),
                      st.integers(-2, 2)).map(lambda t: min(max(0, sum(t)), (1 << 64) - 1))


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NEGATED), magnitude)
def test_a_negated_literal_folds_to_what_it_is_at_run_time(t, n):
    typed = f"let v: {t} = -{n};"
    pairs = [(typed, f"let v = comptime {{ let w: {t} = -{n}; w }};"),
             (f"let v = -{n} as {t};", f"let v = comptime {{ -{n} as {t} }};")]
    if t.startswith("i"):
        # The block's value is an untyped literal its context then types, so this form
        # says what the literal outside says only where negating is allowed at all
        # (`let v: u8 = comptime { -0 };` is 0, where negating a u8 stops the program).
        pairs.append((typed, f"let v: {t} = comptime {{ -{n} }};"))
    for run, block in pairs:
        run_time = outcome(f"fn main() {{ {run} print(v); }}")
        got = outcome(f"fn main() {{ {block} print(v); }}")
        if refused_before_folding(run_time, got):
            continue
        if got == ["E3033"]:  # refused only where the run-time program stops, or where
            # `as` changes the value (it wraps): no value the compiler takes as known
            assert run_time.startswith("stopped") or " as " in block \
                and run_time.strip() != f"-{n}", (block, run_time)
        else:
            assert got == run_time, block


@pytest.mark.parametrize("block, prints", [
    ("let v: i64 = comptime { -5000000000 };", "-5000000000"),
    ("let v: i64 = comptime { -9223372036854775808 };", "-9223372036854775808"),
    ("let v = comptime { let w: i8 = -128; w };", "-128"),
    ("let v = comptime { let w: i32 = -2147483648; w };", "-2147483648"),
])
def test_negated_literals_at_the_bounds_fold(block, prints):
    text = f"fn main() {{ {block} print(v); }}"
    tree, diagnostics = fold(text)
    assert not diagnostics.has_errors, diagnostics.render()
    assert printed(tree) == prints + "\n"
    assert printed(parse_text(text, "prop.vx")[0]) == prints + "\n"  # unfolded, the same


def test_calling_a_value_that_is_not_a_function_is_e3033_not_an_internal_error():
    # Found by the fuzz campaign: `1(2)` inside a comptime block.
    _, diagnostics = fold("fn main() { let a = comptime { 1(2) }; print(a); }\n")
    [d] = diagnostics.items
    assert d.code == "E3033" and "a value of type i32 is not a function" in d.message
