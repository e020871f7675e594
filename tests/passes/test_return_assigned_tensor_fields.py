"""return-assigned-tensor-fields: a function assigning whole a tensor field of the struct a
`&mut` parameter refers to takes the tensor and returns it (beside its result), each call
assigning the field; one called where its result is passed on, assigning two, or passing its
parameter whole to a function not rewritten stays; the program prints what it printed, and
native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.return_assigned_tensor_fields import return_assigned_tensor_fields
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "return_assigned_tensor_fields"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


def _functions(case: str) -> dict:
    """Each function of the case after the pass, by name, as text."""
    ran = run_front(CASES / f"{case}.vx", return_assigned_tensor_fields)
    return {i.name: to_text(i) for i in ran.after.items if i._prod == "Fn"}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", return_assigned_tensor_fields)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", return_assigned_tensor_fields)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_function_returns_the_tensor_at_each_return_and_the_call_assigns_it():
    fns = _functions("returned_field")
    assert "fn reset(g: &mut Grid, k: i32, cells: Tensor<i32, [3]" in fns["reset"]
    assert "return cells#1;" in fns["reset"] and "g.cells" not in fns["reset"]
    assert "g.cells = @reset(&mut g, i, g.cells);" in fns["main"]


def test_a_caller_passing_its_parameter_on_is_rewritten_too():
    fns = _functions("handed_through_callers")
    assert "cells#1 = @reset(g, cells#1);" in fns["outer"]
    assert "a.cells = @outer(&mut a, a.cells);" in fns["main"]


def test_of_two_fields_assigned_the_one_a_let_holds_is_returned():
    ran = run_front(CASES / "two_tensor_fields_assigned_and_one_held_by_a_let.vx",
                    return_assigned_tensor_fields)
    out = to_text(ran.after)
    assert "g.cells = @reset(&mut g, g.cells);" in out
    assert "    g.more = Tensor<i32, [2]>::fill(8);\n" in out


def test_a_call_passed_on_two_fields_or_a_parameter_passed_whole_stays():
    ran = run_front(CASES / "kept.vx", return_assigned_tensor_fields)
    assert ran.after is ran.before


# Hand-written Lmatched: fill assigns g.cells whole after `old` took the buffer; the call
# gives it the field and assigns what it returns, so `old` keeps the buffer it held.
HANDWRITTEN = """
    // IL: Lmatched
    struct Grid {
        cells: Tensor<i32, [2]>,
        width: i32,
    }

    fn fill(g: &mut Grid, k: i32) {
        let old: Tensor<i32, [2]> = g.cells;
        g.cells = Tensor<i32, [2]>::fill(k);
        g.width = k;
        @print(old);
    }

    fn main() {
        let mut a: Grid = Grid { cells: Tensor<i32, [2]>::fill(1), width: 1 };
        @fill(&mut a, 5);
        @print(Grid { cells: a.cells, width: a.width });
    }
"""


def test_handwritten_the_call_assigns_the_field_what_the_function_returns(
        run_pass, snapshot_txt):
    ran = run_pass("return-assigned-tensor-fields", HANDWRITTEN)
    assert ran.codes == []
    assert "a.cells = @fill(&mut a, 5, a.cells);" in ran.dump
    assert "let mut cells#1: Tensor<i32, [2]> = cells;" in ran.dump and "g.width = k;" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == \
        "[1, 1]\nGrid { cells: [5, 5], width: 5 }\n"
    assert ran.dump == snapshot_txt


def test_a_function_with_a_result_returns_it_beside_the_tensor_and_the_let_takes_them_apart():
    fns = _functions("with_a_result")
    assert "-> (Point, Tensor<f32, [3]" in fns["step"]
    assert "return (Point { x: k, y: 0 }, cells#1);" in fns["step"]
    assert "let returned: ~_ = @step(&mut g, 3, g.cells);\n    g.cells = returned.1;\n" \
           "    let p: Point = returned.0;" in fns["main"]
