"""hoist-sizing-lets: each `let r = f(..)` of a function returning a tensor made by
`::uninit()` whose `?` extents `let`s of arithmetic on its parameters compute, first thing,
computes those `let`s itself, from its arguments named first, and calls a copy of f taking
their values, so that copy-tracked-functions finds the extents f's parameters; a stop in
one comes where f's came."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.hoist_sizing_lets import hoist_sizing_lets
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "hoist_sizing_lets"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", hoist_sizing_lets)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", hoist_sizing_lets)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_stops_where_the_interpreter_stops(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_arguments_are_named_first_then_the_lets_computed_of_them():
    text = to_text(run_front(CASES / "e9001_stopping_where_the_function_did.vx",
                             hoist_sizing_lets).after)
    assert "let argument: ~_ = @arg(3);\n    let argument#1: ~_ = @arg(2);\n" \
           "    let m: i32 = argument * 2;\n    let k: i32 = m / argument#1 - 1;\n" \
           "    let a: Tensor<i32, [?], Memory::CPU_DRAM> = " \
           "@make$sized(argument, argument#1, m, k);" in text
    assert "fn make$sized(n: i32, d: i32, m: i32, k: i32)" in text
    assert "fn make(" not in text  # called no more


@pytest.mark.parametrize("items", [
    # a call computes the extent; a print comes first; the extent is a parameter already
    "fn twice(n: i32) -> i32 {\n  n * 2\n}\nfn make(n: i32) -> Tensor<i32, [?]> {\n"
    "  let m = twice(n);\n  let mut t = Tensor<i32, [?]>::uninit([m]);\n  t\n}\n",
    "fn make(n: i32) -> Tensor<i32, [?]> {\n  print(n);\n  let m = n * 2;\n"
    "  let mut t = Tensor<i32, [?]>::uninit([m]);\n  t\n}\n",
    "fn make(n: i32) -> Tensor<i32, [?]> {\n  let m = n * 2;\n"
    "  let mut t = Tensor<i32, [?]>::uninit([n]);\n  t[0] = m;\n  t\n}\n",
])
def test_any_other_function_is_left_as_it_is(items):
    ran = run_front(f"{items}fn main() {{\n  let a = make(2);\n  print(a.extent(0));\n}}\n",
                    hoist_sizing_lets)
    assert ran.after is ran.before


def test_a_call_other_than_by_a_let_calls_the_function_as_it_is():
    text = to_text(run_front(
        "fn make(n: i32) -> Tensor<i32, [?]> {\n  let m = n + 1;\n"
        "  let mut t = Tensor<i32, [?]>::uninit([m]);\n  t[0] = n;\n  t\n}\n"
        "fn add(x: i32, y: i32) -> i32 { x + y }\n"
        "fn main() {\n  let a = make(2);\n  let more = |k: i32| k + 1;\n"
        "  print(add(more(a[0]), make(3)[0]));\n}\n",
        hoist_sizing_lets).after)
    # (one computed first, after an operator's left operand, after arguments that call
    # nothing or call functions declared to return a scalar, is a `let`'s,
    # name-sizing-calls', by then; one given after a closure's call is not)
    assert "@make$sized(2, m)" in text and "@print(@add(more(a[0]), @make(3)[0]));" in text
    assert "fn make(n: i32)" in text


# Hand-written Lsplit: a function making a tensor of a `?` extent a `let` of arithmetic on
# its parameter computes, called by a `let` with an argument computing something.
SIZED = """
    // IL: Lsplit
    fn make(n: i32) -> Tensor<i32, [?], Memory::CPU_DRAM> {
        let m: i32 = n + 1;
        let mut t: Tensor<i32, [?], Memory::CPU_DRAM> = Tensor<i32, [?]>::uninit([m]);
        t[0] = m;
        t
    }

    fn main() {
        let k: i32 = 2;
        let r: Tensor<i32, [?], Memory::CPU_DRAM> = @make(k * 3);
        @print(r[0]);
    }
"""


def test_handwritten_the_caller_computes_the_lets_and_calls_the_copy(run_pass, snapshot_txt):
    ran = run_pass("hoist-sizing-lets", SIZED)
    assert ran.codes == []
    assert "let argument: ~_ = k * 3;\n    let m: i32 = argument + 1;\n" \
           "    let r: Tensor<i32, [?], Memory::CPU_DRAM> = @make$sized(argument, m);" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "7\n"
    assert ran.dump == snapshot_txt
