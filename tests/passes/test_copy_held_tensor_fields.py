"""copy-held-tensor-fields: a `let` of the tensor of a field of a `&mut` struct parameter,
which the function assigns whole, read only by elements, is a new tensor the field's elements
are copied into; the program prints what it printed, and native code runs it as the
interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.copy_held_tensor_fields import copy_held_tensor_fields
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "copy_held_tensor_fields"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
SCALARIZE = Path(__file__).parent / "cases" / "scalarize_aggregates"


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", copy_held_tensor_fields)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", copy_held_tensor_fields)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_let_holding_a_field_is_a_copy_of_its_elements():
    ran = run_front(SCALARIZE / "two_tensor_parts_assigned_and_both_read_whole.vx",
                    copy_held_tensor_fields)
    reset = to_text(next(i for i in ran.after.items if i.name == "reset"))
    assert reset.startswith(
        "fn reset(g: &mut Grid) {\n"
        "    let old: Tensor<i32, [2], Memory::CPU_DRAM> = "
        "Tensor<i32, [2], Memory::CPU_DRAM>::new();\n"
        "    for copied in 0..2 {\n        old[copied] = g.cells[copied];\n    }\n"
        "    let was: Tensor<i32, [2], Memory::CPU_DRAM> = ")
    assert "        was[copied#1] = g.more[copied#1];\n" in reset


PROGRAM = """struct Grid {{ cells: Tensor<i32, [2]>, more: Tensor<i32, [2]>, width: i32 }}
fn sum(t: &Tensor<i32, [2]>) -> i32 {{ t[0] + t[1] }}
fn peek(g: &Grid) -> i32 {{ g.width }}
fn reset(g: &mut Grid) {{ {body} }}
fn main() {{
  let mut g = Grid {{ cells: Tensor<i32, [2]>::fill(1), more: Tensor<i32, [2]>::fill(2), width: 0 }};
  reset(&mut g);
  print(g);
}}
"""


# The local written by an element before the field is assigned anew, or after it is only on
# one path, lent `&mut` through a `let`, moved on; the field read besides the `let`, or not
# assigned whole; the parameter used whole: left as it is.
@pytest.mark.parametrize("body", [
    "let mut was = g.more; was[0] = 3; g.more = Tensor<i32, [2]>::fill(8); print(was);",
    "let mut was = g.more; if g.width > 0 { g.more = Tensor<i32, [2]>::fill(8); }"
    " was[0] = 3; print(was);",
    "let mut was = g.more; g.more = Tensor<i32, [2]>::fill(8); print(sum(&was));"
    " g.more = was; was[0] = 3;",
    "let mut was = g.more; g.more = Tensor<i32, [2]>::fill(8); let r = &mut was; r[0] = 1;"
    " print(was);",
    "let was = g.more; g.more = Tensor<i32, [2]>::fill(8); let w = was; print(w);",
    "let was = g.more; print(g.more[0]); g.more = Tensor<i32, [2]>::fill(8); print(was);",
    "let was = g.more; g.more[0] = 8; print(was);",
    "let was = g.more; g.more = Tensor<i32, [2]>::fill(8); print(peek(g)); print(was);",
])
def test_a_let_that_is_the_fields_tensor_otherwise_is_left_as_it_is(body):
    ran = run_front(PROGRAM.format(body=body), copy_held_tensor_fields)
    assert ran.after is ran.before


# Hand-written Lmatched: the field of rank 2 held inside a loop, the struct's other field a
# scalar.
HANDWRITTEN = """
// IL: Lmatched
struct Grid {
    cells: Tensor<i32, [2, 2], Memory::CPU_DRAM>,
    width: i32,
}

fn turn(g: &mut Grid) {
    let mut k: i32 = 0;
    while k < 2 {
        let old: ~_ = g.cells;
        g.cells = Tensor<i32, [2, 2], Memory::CPU_DRAM>::fill(k);
        @print(old[1][0]);
        k = k + 1;
    }
}

fn main() {
    let mut g: Grid = Grid { cells: Tensor<i32, [2, 2], Memory::CPU_DRAM>::fill(5), width: 0 };
    @turn(&mut g);
    @print(g.cells);
}
"""


def test_handwritten_a_field_held_on_each_turn(run_pass, snapshot_txt):
    ran = run_pass("copy-held-tensor-fields", HANDWRITTEN)
    assert ran.codes == []
    assert "        for copied in 0..2 {\n            for copied#1 in 0..2 {\n" \
           "                old[copied][copied#1] = g.cells[copied][copied#1];\n" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "5\n0\n[[1, 1], [1, 1]]\n"
    assert ran.dump == snapshot_txt


def test_a_let_lent_to_a_function_reading_it_is_a_copy_too():
    ran = run_front(CASES / "held_and_lent_to_functions_reading_them.vx", copy_held_tensor_fields)
    reset = to_text(next(i for i in ran.after.items if i.name == "reset"))
    assert "        was[copied#1] = g.more[copied#1];\n" in reset
    assert "@sum(&old) + @sum(&was)" in reset


# Written by an element and lent `&mut` only after the statement assigning the field anew: the
# field holds another tensor there on every path, so the write is the copy's.
def test_a_let_written_once_the_field_is_assigned_anew_is_a_copy():
    body = ("let old = g.cells; let mut was = g.more; g.cells = Tensor<i32, [2]>::fill(7);"
            " g.more = Tensor<i32, [2]>::fill(8); was[0] = 3; print(bump(&mut was)); print(old);"
            " print(was);")
    program = PROGRAM.format(body=body).replace(
        "fn reset", "fn bump(t: &mut Tensor<i32, [2]>) -> i32 { t[1] = 4; t[0] + t[1] }\n"
        "fn reset", 1)
    ran = run_front(program, copy_held_tensor_fields)
    reset = to_text(next(i for i in ran.after.items if i.name == "reset"))
    assert "        was[copied#1] = g.more[copied#1];\n" in reset
    assert _printed(ran.before) == _printed(ran.after) == \
        "7\n[1, 1]\n[3, 4]\nGrid { cells: [7, 7], more: [8, 8], width: 0 }\n"
