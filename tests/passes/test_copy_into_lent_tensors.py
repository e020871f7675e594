"""copy-into-lent-tensors: a tensor assigned whole through a `&mut` to a tensor (a parameter,
or a local a `let` binds) is the copy of its elements into the buffer the reference refers
to, where no other name may hold that buffer; elsewhere, and for `?` extents, E5010 and the
default action runs the program in the interpreter."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.copy_into_lent_tensors import copy_into_lent_tensors
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   assert_refused_then_repaired, run_cli, run_front)

CASES = Path(__file__).parent / "cases" / "copy_into_lent_tensors"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {"e5010_local_reference_to_a_row": "a tensor assigned whole through a `&mut`, "
                                            "whose buffer another name may hold",
           "e5010_of_unknown_extents": "a tensor of `?` extents assigned whole through a "
                                       "`&mut`",
           "e5010_whose_buffer_a_let_holds": "a tensor assigned whole through a `&mut`, "
                                             "whose buffer another name may hold"}
COPIED = [n for n in NAMES if n not in REFUSED]


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", copy_into_lent_tensors)
    assert to_text(ran.after) + ran.diagnostics.render() == snapshot_txt


@pytest.mark.parametrize("case", COPIED)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", copy_into_lent_tensors)


@pytest.mark.parametrize("case", COPIED)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_copy_the_interpreter_would_not_see_is_refused_and_its_repair_copied(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", copy_into_lent_tensors, "E5010",
                                 REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_default_action_then_runs_the_interpreter(case):
    status, printed, err = run_cli(CASES / f"{case}.vx")
    assert "warning[W5001]" in err and REFUSED[case] in err
    assert (status, printed) == run_cli(CASES / f"{case}.vx", "--action", "interpret")[:2]


def test_the_copy_is_made_where_the_assignment_was():
    text = to_text(run_front(CASES / "parameter.vx", copy_into_lent_tensors).after)
    assert "fn reset(t: &mut Tensor<f32, [4], Memory::CPU_DRAM>, k: f32) {\n" \
        "    let filled: Tensor<f32, [4], Memory::CPU_DRAM> = Tensor<f32, [4]>::fill(k);\n" \
        "    for copied in 0..4 {\n        (*t)[copied] = filled[copied];\n    }\n}" in text


# Hand-written Lsplit: a `&mut` parameter and a local `&mut` assigned whole, copied; one a
# closure assigns, left; a `+=` of a whole tensor, left.
KINDS = """
    // IL: Lsplit
    fn put(t: &mut Tensor<i32, [2]>, k: i32) {
        *t = Tensor<i32, [2]>::fill(k);
    }
    fn main() {
        let mut a: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(1);
        @put(&mut a, 3);
        @print(a);
        let r: &mut Tensor<i32, [2]> = &mut a;
        *r = Tensor<i32, [2]>::fill(4);
        @print(a[1]);
        let mut b: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(5);
        let set: ~_ = |u: &mut Tensor<i32, [2]>| {
            *u = Tensor<i32, [2]>::fill(6);
        };
        set(&mut b);
        @print(b);
    }
"""

# A row of the variable held by a `let` and printed after the copy: the row is a view of
# the buffer, which the copy would change (E5010).
ROW = """
    // IL: Lsplit
    fn main() {
        let mut m: Tensor<i32, [2, 2]> = Tensor<i32, [2, 2]>::fill(1);
        let row: Tensor<i32, [2]> = m[0];
        let r: &mut Tensor<i32, [2, 2]> = &mut m;
        *r = Tensor<i32, [2, 2]>::fill(7);
        @print(row);
        @print(m[1][1]);
    }
"""


def test_handwritten_a_whole_tensor_through_a_mut_is_copied_but_in_a_closure(run_pass):
    ran = run_pass("copy-into-lent-tensors", KINDS)
    assert ran.codes == []
    assert "(*t)[copied] = filled[copied];" in ran.dump
    assert "(*r)[copied] = filled[copied];" in ran.dump
    assert "*t = " not in ran.dump and "*r = " not in ran.dump
    assert "*u = Tensor<i32, [2]>::fill(6);" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "[3, 3]\n4\n[6, 6]\n"


def test_handwritten_a_row_held_is_refused(run_pass):
    ran = run_pass("copy-into-lent-tensors", ROW)
    assert ran.codes == ["E5010"]
