"""name-sizing-calls: a call of a function whose `?` extents the `let`s opening its body
compute, that its statement computes first with no `let` naming it (or after an operator's
left operand or an earlier argument, held by a `let` first), is bound by a `let` just
before the statement; native
code runs each case as the interpreter does, stops included."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.name_sizing_calls import name_sizing_calls
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "name_sizing_calls"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
AFTER_A_CALL = Path(__file__).parent / "cases" / "copy_tracked_functions" / \
    "e5010_returned_of_extents_a_call_computes_given_after_a_closure_call.vx"


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", name_sizing_calls)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", name_sizing_calls)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_call_computed_first_is_named_and_one_after_a_call_stays():
    text = to_text(run_front(CASES / "calls_computed_first.vx", name_sizing_calls).after)
    assert "let sized: Tensor<i32, [?], Memory::CPU_DRAM> = @make(k + 4);\n" \
        "        sized[1] + k" in text
    assert "let sized#1: Tensor<i32, [?], Memory::CPU_DRAM> = @make(3);\n" \
        "    if sized#1[3] > 2 {" in text
    # a `let` of the call itself is split-sizing-calls' already
    assert "let a: Tensor<i32, [?], Memory::CPU_DRAM> = @make(4);" in text
    kept = run_front(AFTER_A_CALL, name_sizing_calls)
    assert "    @print(@add(half(8), @make(1)[0]));" in to_text(kept.after)


@pytest.mark.parametrize("case, read", [
    ("returned_of_extents_a_call_computes_read_after_an_operand", "operand + sized#1[0]"),
    ("returned_of_extents_a_call_computes_given_after_an_argument",
     "@add(operand, sized#1[0])")])
def test_an_operand_or_argument_computed_before_a_call_is_held_first(case, read):
    text = to_text(run_front(CASES / f"{case}.vx", name_sizing_calls).after)
    assert "let sized: Tensor<i32, [?], Memory::CPU_DRAM> = @make(2);\n" \
        "    let operand: ~_ = sized[3];\n" \
        "    let sized#1: Tensor<i32, [?], Memory::CPU_DRAM> = @make(1);\n" \
        f"    @print({read});" in text


def test_a_call_of_a_function_returning_a_scalar_given_before_is_held_first():
    text = to_text(run_front(Path(__file__).parent / "cases" / "copy_tracked_functions" /
                             "returned_of_extents_a_call_computes_given_after_a_call.vx",
                             name_sizing_calls).after)
    assert "    let operand: ~_ = @twice(3);\n" \
        "    let sized: Tensor<i32, [?], Memory::CPU_DRAM> = @make(1);\n" \
        "    @print(@add(operand, sized[0]));" in text


# Hand-written Lsplit: a `return` of such a call, a block's value that is the call, and a
# statement that is the call alone (its tensor read by nothing: it stays).
HANDWRITTEN = """
    // IL: Lsplit
    fn more(k: i32) -> i32 {
        k + 3
    }

    fn make(n: i32) -> Tensor<i8, [?], Memory::CPU_DRAM> {
        let m: i32 = @more(n);
        let mut t: Tensor<i8, [?], Memory::CPU_DRAM> = Tensor<i8, [?]>::uninit([m]);
        t[m - 1] = 2;
        t
    }

    fn handed(n: i32) -> Tensor<i8, [?], Memory::CPU_DRAM> {
        @make(n);
        if n > 2 {
            return @make(n);
        }
        @make(n + 1)
    }
"""


def test_handwritten_a_returned_call_and_a_body_value_are_named(run_pass, snapshot_txt):
    ran = run_pass("name-sizing-calls", HANDWRITTEN)
    assert ran.codes == []
    assert "    @make(n);\n" in ran.dump
    assert "let sized: Tensor<i8, [?], Memory::CPU_DRAM> = @make(n);\n" \
        "        return sized;" in ran.dump
    assert "let sized#1: Tensor<i8, [?], Memory::CPU_DRAM> = @make(n + 1);\n    sized#1\n" \
        in ran.dump
    assert ran.dump == snapshot_txt
