"""rebind-chosen-references: a `let mut` reference or raw pointer an `if` chooses between
places of two storages, assigned only by statements of its own block, is a `let` per value
it is given, so that split-chosen-storages splits each; the program prints what it printed,
and native code runs it as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.rebind_chosen_references import rebind_chosen_references
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "rebind_chosen_references"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
# The programs of other passes' cases it lifts.
ELSEWHERE = [Path(__file__).parent / "cases" / "type_scalars" / f"{name}.vx" for name in (
    "mutable_reference_chosen_between_two_storages",)]


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", rebind_chosen_references)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", rebind_chosen_references)


@pytest.mark.parametrize("path", [CASES / f"{c}.vx" for c in NAMES] + ELSEWHERE,
                         ids=lambda p: p.stem)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(path):
    assert_native_as_interpreted(path)


def test_no_reference_chosen_between_two_storages_is_left_assigned():
    for case in NAMES:
        ran = run_front(CASES / f"{case}.vx", rebind_chosen_references)
        assigned = {n.target.name for n in descendants(ran.after)
                    if n._prod == "Assign" and n.target._prod == "Local"}
        chosen = {n.name for n in descendants(ran.after)
                  if n._prod == "Let" and n.value._prod == "IfExpr"}
        assert chosen and not chosen & assigned, case


# Hand-written Lsplit: `r` is assigned in an arm of an `if` statement that is not the last
# of its block, so which place it names after the `if` depends on the way taken, and it
# stays (type-scalars refuses it); `q`, assigned in an arm of the last (as
# copy-rest-into-assigning-arms writes it), is a `let` in that arm; `s`, assigned by
# statements of its block, one reading it, is a `let` per value, the block's value reading
# the last.
HANDWRITTEN = """
    // IL: Lsplit
    fn main() {
        let mut t: Tensor<f8e4m3, [2], Memory::CPU_DRAM> = Tensor<f8e4m3, [2]>::fill(1.0);
        let mut x: f32 = 0.0;
        let c: ~bool = x < 1.0;
        {
            let mut r: ~&mut f32 = if c {
                &mut t[0]
            } else {
                &mut x
            };
            if c {
                r = &mut x;
            }
            *r = 2.0;
        }
        {
            let mut q: ~&mut f32 = if c {
                &mut t[0]
            } else {
                &mut x
            };
            if c {
                q = &mut x;
                *q = 5.0;
            } else {
                *q = 6.0;
            }
        }
        let v: ~f32 = unsafe {
            let mut s: ~&mut f32 = if c {
                &mut t[1]
            } else {
                &mut x
            };
            *s = 3.0;
            s = &mut x;
            *s = *s + 1.0;
            s = if c {
                &mut x
            } else {
                &mut t[1]
            };
            *s
        };
        @print(t);
        @print(v);
    }
"""


def test_handwritten_only_a_reference_assigned_by_statements_of_its_block_is_rebound(
        run_pass, snapshot_txt):
    ran = run_pass("rebind-chosen-references", HANDWRITTEN)
    assert ran.codes == []
    assert "let mut r: ~&mut f32 = if c {" in ran.dump and "let mut s" not in ran.dump
    assert "let s#2: ~&mut f32 = &mut x;\n" in ran.dump and "*s#3\n" in ran.dump
    assert "let q: ~&mut f32 = if c {" in ran.dump and \
        "let q#1: ~&mut f32 = &mut x;\n            *q#1 = 5.0;\n" in ran.dump
    assert ran.dump == snapshot_txt


# A constant's value holding an `if`: its blocks are walked outside any function.
IN_A_CONSTANT = """
    // IL: Lsplit
    const T: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(4);

    const X: &i32 = if true {
        &@T[0]
    } else {
        &@T[1]
    };

    fn main() {
        @print(*@X);
    }
"""


def test_handwritten_a_constant_holding_an_if_is_left_as_it_is(run_pass):
    ran = run_pass("rebind-chosen-references", IN_A_CONSTANT)
    assert ran.codes == []
    assert ran.tree is ran.before
