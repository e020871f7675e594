"""return-kernel-tensors: a kernel assigning a whole tensor through the `&mut` its launch
gives it takes the tensor and returns it, and its launch assigns it to the launcher's
variable; one it cannot return stays, which type-scalars refuses; native code runs the
launch as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.return_kernel_tensors import return_kernel_tensors
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "return_kernel_tensors"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", return_kernel_tensors)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", return_kernel_tensors)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_launcher_is_given_the_tensor_the_kernel_ends_with():
    text = to_text(run_front(CASES / "assigned.vx", return_kernel_tensors).after)
    assert "    t = launch main$kernel0 on(Topology::CPU)(t);\n" in text
    assert "fn main$kernel0(t: Tensor<i32, [2], Memory::CPU_DRAM>) on Topology::CPU -> " \
        "Tensor<i32, [2], Memory::CPU_DRAM> {\n    t[0] = 6;\n" in text
    # A spawn inside assigns the tensor given on: the kernel around it assigns it in turn.
    assert "    t = launch main$kernel1 on(Topology::CPU)(t);\n    t[0] = 4;\n    t\n" in text


def test_a_kernel_with_a_value_returns_the_tensor_and_writes_the_value():
    text = to_text(run_front(CASES / "with_a_value.vx", return_kernel_tensors).after)
    assert "    t = launch main$kernel0 on(Topology::CPU)(t, &mut x_value);\n" in text
    assert "    *value = t[0] + 1;\n    t\n}" in text


def test_a_body_ending_in_an_unsafe_block_makes_it_a_statement():
    text = to_text(run_front(CASES / "ending_unsafe.vx", return_kernel_tensors).after)
    assert "    t = launch main$kernel0 on(Topology::CPU)(t, p);\n" in text
    assert "        p[1] = t[0] + 1;\n    };\n    t\n}" in text


def test_a_raw_pointer_the_kernel_reassigns_is_returned_to_the_launcher():
    text = to_text(run_front(CASES / "pointer_reassigned.vx", return_kernel_tensors).after)
    assert "    p = launch main$kernel0 on(Topology::CPU)(p, u);\n" in text
    assert "    p\n}" in text



def test_closures_the_kernel_makes_read_the_tensor_it_returns():
    text = to_text(run_front(CASES / "read_by_a_closure_of_the_kernel.vx",
                             return_kernel_tensors).after)
    assert "    t = launch main$kernel0 on(Topology::CPU)(t);\n" in text
    kernel = text[text.index("fn main$kernel0"):]
    assert "    let peek: ~_ = || {\n        t[0] + 1\n    };\n" in kernel
    assert "        t[1] = t[1] + 10;\n" in kernel and kernel.endswith("    t\n}\n")


def test_a_closure_an_if_chose_is_made_by_the_kernel_which_returns_the_tensor():
    text = to_text(run_front(CASES / "given_a_closure.vx", return_kernel_tensors).after)
    assert "    t = launch main$kernel0 on(Topology::CPU)(t, &mut r, f_which);\n" in text
    kernel = text[text.index("fn main$kernel0"):]
    assert "    let f_0: ~_ = || {\n        t[0]\n    };\n" in kernel
    assert kernel.endswith("    t\n}\n")


# Hand-written Lparted: a kernel assigning two tensors whole, which it could not return both
# of, and one given a closure (which may read the launcher's variable where it is called):
# both are left as they are.
LEFT = """
    // IL: Lparted
    fn main() {
        let mut t: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(1);
        let mut u: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(2);
        let f: ~_ = || { 1 };
        launch main$kernel0 on(Topology::CPU)(&mut t, &mut u);
        launch main$kernel1 on(Topology::CPU)(&mut t, f);
        @print(t);
        @print(u);
    }

    fn main$kernel0(t: &mut Tensor<i32, [2]>, u: &mut Tensor<i32, [2]>) on Topology::CPU {
        *t = Tensor<i32, [2]>::fill(3);
        *u = Tensor<i32, [2]>::fill(4);
    }

    fn main$kernel1(t: &mut Tensor<i32, [2]>, f: _) on Topology::CPU {
        let g: ~_ = || { f() };
        *t = Tensor<i32, [2]>::fill(g());
    }
"""


def test_handwritten_two_tensors_and_a_closure_are_left(run_pass):
    ran = run_pass("return-kernel-tensors", LEFT)
    assert not ran.codes
    assert ran.tree == ran.before
    assert _printed(ran.tree) == "[1, 1]\n[4, 4]\n"


def test_handwritten_one_tensor_is_returned(run_pass):
    ran = run_pass("return-kernel-tensors", LEFT.replace(
        "        *u = Tensor<i32, [2]>::fill(4);\n", ""))
    text = to_text(ran.tree)
    assert "    t = launch main$kernel0 on(Topology::CPU)(t, &mut u);\n" in text
    assert "    t = Tensor<i32, [2]>::fill(3);\n    t\n}" in text
    assert "launch main$kernel1 on(Topology::CPU)(&mut t, f);" in text
    assert _printed(ran.tree) == "[1, 1]\n[2, 2]\n"


def test_handwritten_a_closure_the_kernel_makes_reads_its_tensor(run_pass):
    ran = run_pass("return-kernel-tensors", LEFT.replace(", f);", ");").replace(
        ", f: _", "").replace("f() }", "(*t)[0] + 4 }"))
    text = to_text(ran.tree)
    assert "    t = launch main$kernel1 on(Topology::CPU)(t);\n" in text
    assert "    let g: ~_ = || {\n        t[0] + 4\n    };\n" in text
    assert _printed(ran.tree) == _printed(ran.before) == "[7, 7]\n[4, 4]\n"
