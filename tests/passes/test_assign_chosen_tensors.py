"""assign-chosen-tensors: a `let` of a tensor of static extents an `if` chooses is a `let mut`
of a new tensor each arm assigns; native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.assign_chosen_tensors import assign_chosen_tensors
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "assign_chosen_tensors"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", assign_chosen_tensors)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", assign_chosen_tensors)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_no_tensor_is_left_an_if_value_and_each_arm_assigns():
    ran = run_front(CASES / "chosen.vx", assign_chosen_tensors)
    assert not [n for n in ran.nodes() if n._prod == "IfExpr"]
    assigned = [n.target.name for n in ran.nodes() if n._prod == "Assign"
                and n.target._prod == "Local"]
    assert len(assigned) == 5 and len(set(assigned)) == 2


# Hand-written Lsplit: a tensor of a `?` extent, which no arm has given before the `if`,
# starts empty (`::new([0])`) and each arm assigns it; the scalar `if` value beside it is
# explicate-control's to lower, and stays.
HANDWRITTEN = """
    // IL: Lsplit
    fn main() {
        let c: ~bool = true;
        let n: ~i64 = 2;
        let t: Tensor<i32, [?], Memory::CPU_DRAM> = if c {
            Tensor<i32, [?]>::fill([n], 1)
        } else {
            Tensor<i32, [?]>::new([n])
        };
        let k: ~i32 = if c {
            1
        } else {
            2
        };
        @print(t);
        @print(k);
    }
"""


def test_handwritten_a_tensor_of_a_dynamic_extent_starts_empty_and_a_scalar_stays(
        run_pass, snapshot_txt):
    ran = run_pass("assign-chosen-tensors", HANDWRITTEN)
    assert ran.codes == []
    assert ran.dump.count("= if c {") == 1 and "::new([0]);" in ran.dump
    assert ran.dump == snapshot_txt


@pytest.mark.parametrize("case", ["chosen_pointers", "chosen_references", "references_in_a_loop"])
def test_a_reference_or_pointer_starts_at_a_place_an_arm_names_and_makes_no_tensor(case):
    ran = run_front(CASES / f"{case}.vx", assign_chosen_tensors)
    assert not [n for n in ran.nodes() if n._prod == "IfExpr"]
    assert [n for n in ran.nodes() if n._prod == "TensorNew"] == \
        [n for n in descendants(ran.before) if n._prod == "TensorNew"]
    starts = [s.value for s in ran.nodes() if s._prod == "Let" and s.mutable
              and s.type._prod in ("BorrowType", "PtrType")]
    assert starts and all(e._prod in ("Borrow", "AsPtr", "Local") for e in starts)


# Hand-written Lsplit: a reference to a tensor whose arms are calls borrowing only variables
# the function assigns has no place to start at that computes nothing, and stays an `if`
# value (check-native-subset refuses it), one borrowing a variable nothing assigns starts at
# it; one whose only place is a variable bound in its arm starts at the other arm's.
REFERENCES = """
    // IL: Lsplit
    fn first(p: &mut Tensor<i32, [2], Memory::CPU_DRAM>) -> &mut Tensor<i32, [2], Memory::CPU_DRAM> {
        p
    }

    fn main() {
        let c: ~bool = true;
        let mut a: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(1);
        let mut b: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(2);
        let r: ~&mut Tensor<i32, [2], Memory::CPU_DRAM> = if c {
            @first(&mut a)
        } else {
            @first(&mut b)
        };
        let q: ~&mut Tensor<i32, [2], Memory::CPU_DRAM> = if c {
            let mut d: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(3);
            &mut d
        } else {
            &mut b
        };
        @print(r);
        @print(q);
        let e: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(4);
        let s: ~&mut Tensor<i32, [2], Memory::CPU_DRAM> = if c {
            @first(&mut a)
        } else {
            @first(&mut e)
        };
        @print(s);
        a = Tensor<i32, [2]>::fill(5);
        b = Tensor<i32, [2]>::fill(6);
    }
"""


def test_handwritten_a_reference_starts_only_at_a_place_bound_before_its_if(run_pass,
                                                                             snapshot_txt):
    ran = run_pass("assign-chosen-tensors", REFERENCES)
    assert ran.codes == []
    assert ran.dump.count("= if c {") == 1
    assert "let mut q: ~&mut Tensor<i32, [2], Memory::CPU_DRAM> = &mut b;" in ran.dump
    assert "let mut s: ~&mut Tensor<i32, [2], Memory::CPU_DRAM> = &mut e;" in ran.dump
    assert ran.dump == snapshot_txt


def test_a_reference_chosen_between_calls_starts_at_a_variable_an_arm_borrows():
    main = to_text(run_front(CASES / "reference_to_a_tensor_chosen_between_calls.vx",
                             assign_chosen_tensors).after)
    assert "let mut r: &mut Tensor<i32, [3], Memory::CPU_DRAM> = &mut a;" in main
    given = to_text(run_front(CASES / "reference_chosen_between_calls_given_parameters.vx",
                              assign_chosen_tensors).after)
    assert "let mut r: &mut Tensor<i32, [3], Memory::CPU_DRAM> = p;" in given
