"""rebind-assigned-uninit-tensors: a `let mut` of a tensor made by `::uninit()` that
copy-into-assigned-uninit-tensors leaves assigned whole, only by statements of its own
block (or of the arms of an `if` ending it), is a `let mut` per tensor it is given, so that
each buffer's written-flags stay with the names holding it. The program prints what it
printed (and stops where it stopped), and native code runs it as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.rebind_assigned_uninit_tensors import rebind_assigned_uninit_tensors
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "rebind_assigned_uninit_tensors"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
TRACKED = Path(__file__).parent / "cases" / "track_uninit_elements"


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", rebind_assigned_uninit_tensors)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", rebind_assigned_uninit_tensors)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_an_assignment_after_another_name_took_the_buffer_is_a_let_of_its_own():
    text = to_text(run_front(TRACKED / "assigned_whole_where_another_name_holds_its_buffer.vx",
                             rebind_assigned_uninit_tensors).after)
    assert "    let u: Tensor<i32, [3], Memory::CPU_DRAM> = a;\n" \
        "    let mut a#1: Tensor<i32, [3], Memory::CPU_DRAM> = Tensor<i32, [3]>::fill(7);\n" \
        "    @print(a#1[1]);\n" in text


def test_one_assigned_in_a_loop_stays():
    case = TRACKED / "e5010_assigned_whole_in_a_loop_where_another_name_holds_its_buffer.vx"
    ran = run_front(case, rebind_assigned_uninit_tensors)
    assert "        a = Tensor<i32, [3]>::fill(i);\n" in to_text(ran.after)


# Hand-written Lallset: `a`, given another name, then assigned whole twice by statements of
# its block, is a `let mut` per tensor; `b`, assigned in a loop, and `c`, borrowed after its
# `let`, stay.
KINDS = """
    // IL: Lallset
    fn show(t: &Tensor<i32, [2], Memory::CPU_DRAM>) {
        @print(t[0]);
    }

    fn main() {
        let mut a: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::uninit();
        a[0] = 1;
        let u: Tensor<i32, [2], Memory::CPU_DRAM> = a;
        a = Tensor<i32, [2]>::fill(5);
        @print(a[1]);
        a = Tensor<i32, [2]>::fill(6);
        @print(a[0]);
        @print(u[0]);
        let mut b: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::uninit();
        b[1] = 2;
        let w: Tensor<i32, [2], Memory::CPU_DRAM> = b;
        let mut i: i32 = 0;
        while i < 2 {
            b = Tensor<i32, [2]>::fill(i);
            @print(b[0]);
            i = i + 1;
        }
        @print(w[1]);
        let mut c: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::uninit();
        c[0] = 3;
        let x: Tensor<i32, [2], Memory::CPU_DRAM> = c;
        c = Tensor<i32, [2]>::fill(8);
        @show(&c);
        @print(x[0]);
    }
"""


def test_handwritten_a_local_assigned_in_turn_is_a_let_per_tensor(run_pass, snapshot_txt):
    ran = run_pass("rebind-assigned-uninit-tensors", KINDS)
    assert ran.codes == []
    assert "    let mut a#1: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(5);\n" \
        "    @print(a#1[1]);\n" \
        "    let mut a#2: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(6);\n" \
        "    @print(a#2[0]);\n" in ran.dump
    assert "        b = Tensor<i32, [2]>::fill(i);\n" in ran.dump
    assert "    c = Tensor<i32, [2]>::fill(8);\n" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "5\n6\n1\n0\n1\n2\n8\n3\n"
    assert ran.dump == snapshot_txt
