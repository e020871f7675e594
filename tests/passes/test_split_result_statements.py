"""split-result-statements: the statements of a function returning a literal holding two
tensors of `?` extents, which print or call, are a function of their own called just before
each call; the program prints what it printed, and native code runs it as the interpreter
does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.split_result_statements import split_result_statements
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "split_result_statements"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
SCALARIZE = Path(__file__).parent / "cases" / "scalarize_aggregates"


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", split_result_statements)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", split_result_statements)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_statements_run_just_before_each_call():
    text = to_text(run_front(CASES / "printing_calling_and_stopping_before_the_literal.vx",
                             split_result_statements).after)
    assert "fn make$first(n: i32, m: i32) {\n    let s: i32 = @note(n) + m;\n" in text
    assert "fn make(n: i32, m: i32) -> Pair {\n    Pair { a: " in text
    assert "        @make$first(i, d);\n        let p: Pair = @make(i, d);\n" in text
    assert "        @pair$first(i);\n        let t: " in text


def test_the_locals_the_literal_reads_are_returned_and_given():
    text = to_text(run_front(CASES / "printing_two_locals_the_literal_reads.vx",
                             split_result_statements).after)
    assert "    k = k * 2;\n    (k, m)\n}\n" in text
    assert "fn pair(n: i32, k: i32, m: i64) -> " in text
    assert "        let first: ~(i32, i64) = @pair$first(i);\n" \
           "        let k: i32 = first.0;\n        let m: i64 = first.1;\n" in text
    assert "= @pair(i, k, m);\n" in text
    one = to_text(run_front(SCALARIZE / "two_tensors_of_unknown_extents_returned_by_a_function_"
                                        "printing_a_local_they_read.vx",
                            split_result_statements).after)
    assert "    @print(k);\n    k\n}\n" in one
    assert "    let first: i32 = @make$first(2);\n    let p: Pair = @make(2, first);\n" in one


# A literal reading a tensor a local the statements bind holds, or a call given an operator's
# value: left as it is.
@pytest.mark.parametrize("case", [
    SCALARIZE / "e5010_two_tensors_of_unknown_extents_returned_by_a_function_printing_a_"
    "tensor_they_hold.vx",
])
def test_a_function_whose_statements_cannot_run_apart_is_left_as_it_is(case):
    ran = run_front(case, split_result_statements)
    assert ran.after is ran.before


def test_a_call_given_an_operators_value_is_left_as_it_is():
    text = (CASES / "literal_stopping_after_a_print.vx").read_text()
    ran = run_front(text.replace("let p = make(i);", "let p = make(i + 0);"),
                    split_result_statements)
    assert ran.after is ran.before


# Hand-written Lmatched: a tuple, and the function's name with `$first` taken by another
# item (resolve-names never makes one, a dump edited by hand may).
HANDWRITTEN = """
// IL: Lmatched
fn two$first() {
}

fn two(n: i32) -> (Tensor<i32, [?], Memory::CPU_DRAM>, Tensor<i32, [?], Memory::CPU_DRAM>) {
    @print(n);
    (Tensor<i32, [?]>::fill([n], 1), Tensor<i32, [?]>::fill([1], n))
}

fn main() {
    let t: (Tensor<i32, [?], Memory::CPU_DRAM>, Tensor<i32, [?], Memory::CPU_DRAM>) = @two(2);
    @print(t.0);
    @print(t.1);
}
"""


def test_handwritten_the_statements_function_takes_a_name_of_its_own(run_pass, snapshot_txt):
    ran = run_pass("split-result-statements", HANDWRITTEN)
    assert ran.codes == []
    assert "fn two$first_1(n: i32) {\n    @print(n);\n}\n" in ran.dump
    assert "    @two$first_1(2);\n    let t: " in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "2\n[1, 1]\n[2]\n"
    assert ran.dump == snapshot_txt
