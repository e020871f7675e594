"""copy-out-tensors: each tensor a function gives back through an out-parameter is copied into
the caller's, element by element, when the function made it and nothing else holds it; any
other is E5010; the program prints what it printed, natively too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.languages.lsplit import Lsplit
from nano_vx.nanopass import verify
from nano_vx.passes.copy_out_tensors import copy_out_tensors
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same, run_cli,
                   run_front)

CASES = Path(__file__).parent / "cases" / "copy_out_tensors"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010"))
SHARED = "a tensor returned beside another that more than the aggregate may hold"


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", copy_out_tensors)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert "GiveBack" not in {n._prod for n in ran.nodes()}
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", copy_out_tensors)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_program_giving_nothing_back_comes_out_as_it_went_in():
    ran = run_front(CASES / "../scalarize_aggregates/structs.vx", copy_out_tensors)
    assert ran.after is ran.before


def test_the_tensor_given_back_is_copied_element_by_element():
    ran = run_front(CASES / "two_tensors.vx", copy_out_tensors)
    both = next(i for i in ran.after.items if i.name == "both")
    assert "for copied in 0..2 {\n        (*ret_b)[copied] = agg#1[copied];" in to_text(both)
    grid = next(i for i in ran.after.items if i.name == "grid")
    assert "(*ret_cols)[copied" in to_text(grid) and "(*ret_sum)[copied#" in to_text(grid)


def test_a_tensor_the_result_on_one_path_is_copied_on_another():
    ran = run_front(CASES / "swapped.vx", copy_out_tensors)
    pair = to_text(next(i for i in ran.after.items if i.name == "pair"))
    assert "(*ret_b)[copied] = x[copied];" in pair and "= y[copied#" in pair


def test_a_tensor_a_call_gave_is_the_result_and_the_one_made_is_copied():
    # `b: pick(x)` may be the caller's `t`: handed on as the result, it stays that buffer.
    ran = run_front(CASES / "shared_tensor.vx", copy_out_tensors)
    wrap = next(i for i in ran.after.items if i.name == "wrap")
    assert [p.name for p in wrap.params][-1] == "ret_a"
    assert wrap.body.value.name == "ret_b"
    assert "(*ret_a)[copied] = agg[copied];" in to_text(wrap)


def test_a_second_tensor_another_may_hold_is_refused_then_repaired():
    # What `maybe` returns on its other path a call made, held by a `let mut` it may assign
    # whole: no flag tells it apart.
    ran = run_front(CASES / "e5010_maybe_lent_or_made_by_a_call_assigning_it.vx",
                    copy_out_tensors)
    assert [(d.code, d.message.split(" (in")[0]) for d in ran.diagnostics.items] == [
        ("E5010", f"native code does not lower {SHARED} (its copy would not be the same "
                  "tensor)")]
    verify(ran.after, Lsplit)  # given back as the interpreter runs it: `*ret_b = ..`
    assert _printed(ran.before) == _printed(ran.after) == "[2, 2]\n[7, 5]\n"
    status, printed, err = run_cli(CASES / "e5010_maybe_lent_or_made_by_a_call_assigning_it.vx")
    assert (status, printed) == (0, "[2, 2]\n[7, 5]\n") and "warning[W5001]" in err
    repaired = CASES / "e5010_maybe_lent_or_made_by_a_call_assigning_it_repaired.vx"
    assert not run_front(repaired, copy_out_tensors).diagnostics.items
    assert_native_as_interpreted(repaired)


# Hand-written Lparted: a tensor given back of extents not known, and one given back through
# a parameter that is no `&mut` tensor; scalarize-aggregates writes neither.
UNKNOWN = """
    // IL: Lparted
    fn give(n: i32, ret_b: &mut Tensor<f32, [?]>) {
        let b: ~_ = Tensor<f32, [?], Memory::CPU_DRAM>::fill([n], 1.0);
        give_back ret_b = b;
    }

    fn main() {
        let mut t: ~_ = Tensor<f32, [?], Memory::CPU_DRAM>::fill([2], 0.0);
        @give(2, &mut t);
        @print(t);
    }
"""


def test_handwritten_extents_not_known_are_refused(run_pass):
    ran = run_pass("copy-out-tensors", UNKNOWN)
    assert ran.codes == ["E5010"]
    assert "a second tensor of extents not known" in ran.diagnostics.items[0].message
    assert _printed(ran.before) == _printed(ran.tree) == "[1, 1]\n"


def test_handwritten_given_back_through_a_scalar_is_refused(run_pass):
    ran = run_pass("copy-out-tensors", UNKNOWN.replace("ret_b: &mut Tensor<f32, [?]>",
                                                       "ret_b: i32"))
    assert ran.codes == ["E5010"]
    assert "no `&mut` tensor parameter" in ran.diagnostics.items[0].message
