"""return-kernel-pointers: a kernel whose value a `let` binds to a raw pointer is given the
pointer's type as its result type; native code holds the pointer as the tensor it points
into, which the kernel returns, and runs the program as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.return_kernel_pointers import return_kernel_pointers
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "return_kernel_pointers"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", return_kernel_pointers)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", return_kernel_pointers)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_kernel_returns_the_pointer_type_and_the_let_keeps_its_pin():
    text = to_text(run_front(CASES / "read_only.vx", return_kernel_pointers).after)
    assert "on Topology::CPU -> *const f32 in Memory::CPU_DRAM {" in text
    assert "let p: ~Pinned<*const f32 in Memory::CPU_DRAM, Topology::CPU> = launch" in text


HANDWRITTEN = """
    // IL: Lparted
    fn main() {
        let mut u: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(3);
        let p: ~Pinned<*mut i32 in Memory::CPU_DRAM, Topology::CPU> = launch k on(Topology::CPU)(u);
        launch k on(Topology::CPU)(u);
        unsafe {
            p[1] = 4;
        };
        @print(u);
    }

    fn k(u: Tensor<i32, [2], Memory::CPU_DRAM>) on Topology::CPU {
        u.as_mut_ptr()
    }
"""


def test_handwritten_a_kernel_whose_pointer_a_let_binds(run_pass, snapshot_txt):
    ran = run_pass("return-kernel-pointers", HANDWRITTEN)
    assert ran.codes == []
    assert "fn k(u: Tensor<i32, [2], Memory::CPU_DRAM>) on Topology::CPU -> *mut i32 in " \
        "Memory::CPU_DRAM {" in ran.text
    assert ran.dump == snapshot_txt
