"""split-pure-aggregate-results: a function returning a struct or tuple literal holding two
tensors of `?` extents, which writes and prints nothing, is a function per part, and each call
the literal of their calls; the program prints what it printed (and stops where it stopped),
and native code runs it as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.split_pure_aggregate_results import split_pure_aggregate_results
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "split_pure_aggregate_results"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
SCALARIZE = Path(__file__).parent / "cases" / "scalarize_aggregates"


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", split_pure_aggregate_results)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", split_pure_aggregate_results)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_field_has_a_function_and_the_call_is_their_literal():
    ran = run_front(SCALARIZE / "two_tensors_of_unknown_extents_returned.vx",
                    split_pure_aggregate_results)
    text = to_text(ran.after)
    assert "fn make$a(n: i32) -> Tensor<i32, [?], Memory::CPU_DRAM> {\n" \
           "    Tensor<i32, [?]>::fill([n], n)\n}\n" in text
    assert "fn make$b(n: i32) -> Tensor<i32, [?], Memory::CPU_DRAM> {\n" in text
    assert "    let p: Pair = Pair { a: @make$a(2), b: @make$b(2) };\n" in text
    assert "fn make(" not in text


PROGRAM = """struct Pair {{ a: Tensor<i32, [?]>, b: Tensor<i32, [?]> }}
fn make(n: i32, t: &mut Tensor<i32, [2]>) -> Pair {{ {body} }}
fn main() {{
  let mut t = Tensor<i32, [2]>::fill(0);
  let k = 2;
  {call}
  print(p);
  print(t);
}}
"""
LITERAL = "Pair { a: Tensor<i32, [?]>::fill([n], 1), b: Tensor<i32, [?]>::fill([n], 2) }"


# A function that prints, writes through a parameter, returns early, or whose value is no
# literal; a call whose argument computes: left as it is.
@pytest.mark.parametrize("body, call", [
    (f"print(n); {LITERAL}", "let p = make(k, &mut t);"),
    (f"t[0] = n; {LITERAL}", "let p = make(k, &mut t);"),
    (f"if n > 5 {{ return {LITERAL}; }} {LITERAL}", "let p = make(k, &mut t);"),
    (f"let q = {LITERAL}; q", "let p = make(k, &mut t);"),
    (LITERAL, "let p = make(k + 1, &mut t);"),
])
def test_a_function_that_cannot_be_computed_per_part_is_left_as_it_is(body, call):
    ran = run_front(PROGRAM.format(body=body, call=call), split_pure_aggregate_results)
    assert ran.after is ran.before


# Hand-written Lmatched: a tuple of three parts, one a scalar, the function's `$1` name taken.
HANDWRITTEN = """
// IL: Lmatched
fn three$1(n: i32) -> i32 {
    n
}

fn three(n: i32) -> (Tensor<i32, [?], Memory::CPU_DRAM>, i32, Tensor<i32, [?], Memory::CPU_DRAM>) {
    let m: i32 = n + 1;
    (Tensor<i32, [?], Memory::CPU_DRAM>::fill([n], m), m, Tensor<i32, [?], Memory::CPU_DRAM>::fill([m], n))
}

fn main() {
    let k: i32 = 2;
    let q: (Tensor<i32, [?], Memory::CPU_DRAM>, i32, Tensor<i32, [?], Memory::CPU_DRAM>) = @three(k);
    @print(q.0);
    @print(q.1);
    @print(q.2);
}
"""


def test_handwritten_a_tuple_of_three_parts(run_pass, snapshot_txt):
    ran = run_pass("split-pure-aggregate-results", HANDWRITTEN)
    assert ran.codes == []
    assert "= (@three$0(k), @three$1_1(k), @three$2(k));\n" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "[3, 3]\n3\n[2, 2, 2]\n"
    assert ran.dump == snapshot_txt
