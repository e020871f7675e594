"""write-out-kernel-values: a kernel with a scalar value that is lent a tensor writes its
value through a `&mut` of a variable its launcher binds, so that return-kernel-tensors can
make it return the tensor; native code runs the launch as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.write_out_kernel_values import write_out_kernel_values
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "write_out_kernel_values"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", write_out_kernel_values)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", write_out_kernel_values)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_launcher_binds_what_the_kernel_writes():
    text = to_text(run_front(CASES / "values.vx", write_out_kernel_values).after)
    assert "    let mut x_value: f32 = 0.0;\n" \
        "    launch main$kernel0 on(Topology::CPU)(&mut t, &mut x_value);\n" \
        "    let x: ~Pinned<f32, Topology::CPU> = x_value;\n" in text
    assert "fn main$kernel1(t: &mut Tensor<f32, [2], Memory::CPU_DRAM>, value: &mut bool) " \
        "on Topology::CPU {\n" in text and "    *value = (*t)[0] > 3.0;\n}" in text
    # The value a spawn inside gives is written; that kernel, lent no tensor, keeps its own.
    assert "    *value = launch main$kernel2 on(Topology::CPU)(*t);\n}" in text
    assert "fn main$kernel2(t: Tensor<f32, [2], Memory::CPU_DRAM>) on Topology::CPU {\n" \
        "    t[0] as i64 + 1\n}" in text



def test_a_value_of_a_type_left_to_inference_is_written_as_inference_settles_it():
    text = to_text(run_front(CASES / "values_left_to_inference.vx",
                             write_out_kernel_values).after)
    assert "    let mut x_value: f64 = 0.0;\n" \
        "    launch main$kernel0 on(Topology::CPU)(&mut t, &mut x_value);\n" \
        "    let x: ~Pinned<_, Topology::CPU> = x_value;\n" in text
    assert "    let mut n_value: i32 = 0;\n" in text
    assert "fn main$kernel1(t: &mut Tensor<f64, [2], Memory::CPU_DRAM>, value: &mut i32) " \
        "on Topology::CPU {\n" in text and "    *value = count(4);\n}" in text

# Hand-written Lparted: a kernel lent a tensor whose value a `print` takes (no `let` to
# bind it), one launched twice, and one whose value is a tensor: all are left.
LEFT = """
    // IL: Lparted
    fn main() {
        let mut t: Tensor<i32, [2]> = Tensor<i32, [2]>::fill(1);
        @print(launch main$kernel0 on(Topology::CPU)(&mut t));
        let a: i32 = launch main$kernel1 on(Topology::CPU)(&mut t);
        let b: i32 = launch main$kernel1 on(Topology::CPU)(&mut t);
        let u: Tensor<i32, [2]> = launch main$kernel2 on(Topology::CPU)(&mut t);
        @print(a + b);
        @print(u);
    }

    fn main$kernel0(t: &mut Tensor<i32, [2]>) on Topology::CPU {
        *t = Tensor<i32, [2]>::fill(2);
        (*t)[0]
    }

    fn main$kernel1(t: &mut Tensor<i32, [2]>) on Topology::CPU {
        *t = Tensor<i32, [2]>::fill((*t)[0] + 1);
        (*t)[1]
    }

    fn main$kernel2(t: &mut Tensor<i32, [2]>) on Topology::CPU {
        *t = Tensor<i32, [2]>::fill(5);
        Tensor<i32, [2]>::fill(6)
    }
"""


def test_handwritten_a_value_printed_launched_twice_or_a_tensor_is_left(run_pass):
    ran = run_pass("write-out-kernel-values", LEFT)
    assert not ran.codes
    assert ran.tree == ran.before
    assert _printed(ran.tree) == "2\n7\n[6, 6]\n"


def test_handwritten_a_value_let_binds_is_written(run_pass):
    ran = run_pass("write-out-kernel-values", LEFT.replace(
        "        let b: i32 = launch main$kernel1 on(Topology::CPU)(&mut t);\n", "").replace(
        "@print(a + b);", "@print(a);"))
    text = to_text(ran.tree)
    assert "    let mut a_value: i32 = 0;\n" \
        "    launch main$kernel1 on(Topology::CPU)(&mut t, &mut a_value);\n" \
        "    let a: i32 = a_value;\n" in text
    assert "@print(launch main$kernel0 on(Topology::CPU)(&mut t));" in text
    assert _printed(ran.tree) == "2\n3\n[6, 6]\n"


def test_handwritten_a_value_left_to_inference_that_is_a_tensor_is_left(run_pass):
    ran = run_pass("write-out-kernel-values", LEFT.replace(
        "        let u: Tensor<i32, [2]> = launch", "        let u: ~_ = launch").replace(
        "        Tensor<i32, [2]>::fill(6)\n",
        "        let f: ~_ = || { Tensor<i32, [2]>::fill(6) };\n        f()\n"))
    assert "let u: ~_ = launch main$kernel2 on(Topology::CPU)(&mut t);" in to_text(ran.tree)
    assert ran.tree == ran.before
    assert _printed(ran.tree) == "2\n7\n[6, 6]\n"
