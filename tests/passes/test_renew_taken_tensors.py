"""renew-taken-tensors: a variable an out-parameter takes a tensor into, which may hold the
buffer of another, is given a new tensor just before the call; the program prints what it
printed, and native code runs it as the interpreter does (copy-out-tensors no longer writes
the elements of the tensor it held)."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.renew_taken_tensors import renew_taken_tensors
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "renew_taken_tensors"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", renew_taken_tensors)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", renew_taken_tensors)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_variable_holding_the_lent_tensor_is_given_a_new_one_before_the_call():
    main = to_text(run_front(CASES / "taken_after_holding_a_lent_tensor.vx",
                             renew_taken_tensors).after.items[-1])
    assert "    p_b = t;\n" in main
    assert "    p_b = Tensor<i32, [2], Memory::CPU_DRAM>::new();\n" \
           "    p_a = @fresh(3, &mut p_b);\n" in main


def test_a_variable_only_given_new_tensors_keeps_its_buffer():
    ran = run_front(CASES / "taken_only_new_tensors.vx", renew_taken_tensors)
    assert ran.after is ran.before


# Hand-written Lparted: the out-parameter taken by a `let`'s call and by a statement, the
# variable holding another's tensor by a `let` of it.
HANDWRITTEN = """
// IL: Lparted
fn give(k: i32, ret: &mut Tensor<i32, [2], Memory::CPU_DRAM>) -> i32 {
    let b: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2], Memory::CPU_DRAM>::fill(k);
    give_back ret = b;
    k
}

fn main() {
    let mut t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2], Memory::CPU_DRAM>::fill(5);
    let mut q: Tensor<i32, [2], Memory::CPU_DRAM> = t;
    let n: i32 = @give(3, &mut q);
    @print(t);
    @give(4, &mut q);
    @print(q);
    @print(n);
}
"""


def test_handwritten_a_variable_a_let_gave_anothers_tensor(run_pass, snapshot_txt):
    ran = run_pass("renew-taken-tensors", HANDWRITTEN)
    assert ran.codes == []
    assert ran.dump.count("    q = Tensor<i32, [2], Memory::CPU_DRAM>::new();\n") == 2
    assert _printed(ran.before) == _printed(ran.tree) == "[5, 5]\n[4, 4]\n3\n"
    assert ran.dump == snapshot_txt
