"""bind-chosen-row-arguments: an `if` choosing rows given to a function, or to a closure a
`let` binds, is bound by a `let` of the parameter's type before its statement, where the statement reads before it nothing
the `if` can change; the program prints what it printed, and native code runs it as the
interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.bind_chosen_row_arguments import bind_chosen_row_arguments
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "bind_chosen_row_arguments"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", bind_chosen_row_arguments)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", bind_chosen_row_arguments)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


# A variable a call may change read before the `if` (n, which the `if`'s condition lends
# `&mut`), the argument of a closure a `let mut` binds or of one no type is written for
# where an arm's row is of no variable, after `&&`, one the `if` assigns: left where they are.
@pytest.mark.parametrize("statement", [
    "let y = n + total(if bump(&mut n) { a[1] } else { b[0] });",
    "let mut f = |r: Tensor<i32, [3]>| r[0];\n  let y = f(if c { a[1] } else { b[0] });",
    "let f = |r| r[0];\n  let y = f(if c { a[1] } else { Tensor<i32, [2, 3]>::fill(3)[0] });",
    "let y = c && total(if c { a[1] } else { b[0] }) > 0;",
    "let mut k = 1;\n  let y = k + total(if c { k = 5; a[1] } else { b[0] });",
])
def test_an_if_after_what_it_could_change_or_given_to_no_typed_parameter_is_left(statement):
    ran = run_front("fn total(r: Tensor<i32, [3]>) -> i32 { r[0] + r[1] + r[2] }\n"
                    "fn bump(x: &mut i32) -> bool { *x = *x + 1; true }\nfn main() {\n"
                    "  let a = Tensor<i32, [2, 3]>::fill(1);\n"
                    "  let b = Tensor<i32, [2, 3]>::fill(2);\n  let mut n = 1;\n"
                    f"  let c = bump(&mut n);\n  {statement}\n  print(y);\n}}\n",
                    bind_chosen_row_arguments)
    assert ran.after is ran.before


# Hand-written Lsplit: a block's value, the `if` its call's second argument after a
# literal, is bound at the end of the block's statements.
VALUED = """
// IL: Lsplit
fn total(k: i32, r: Tensor<i32, [3], Memory::CPU_DRAM>) -> i32 {
    r[0] + r[1] + k
}

fn pick(c: bool, a: Tensor<i32, [2, 3], Memory::CPU_DRAM>, b: Tensor<i32, [2, 3], Memory::CPU_DRAM>) -> i32 {
    @total(10, if c {
        a[1]
    } else {
        b[0]
    })
}

fn main() {
    let a: Tensor<i32, [2, 3], Memory::CPU_DRAM> = Tensor<i32, [2, 3]>::fill(1);
    let b: Tensor<i32, [2, 3], Memory::CPU_DRAM> = Tensor<i32, [2, 3]>::fill(2);
    @print(@pick(false, a, b));
}
"""


def test_handwritten_a_block_value_has_its_if_bound_before_it(run_pass, snapshot_txt):
    ran = run_pass("bind-chosen-row-arguments", VALUED)
    assert ran.codes == []
    assert "    let row: Tensor<i32, [3], Memory::CPU_DRAM> = if c {\n" in ran.dump
    assert "    @total(10, row)\n" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "14\n"
    assert ran.dump == snapshot_txt
