"""copy-closures-into-kernels: a kernel given a closure bound by a `let` is given what it reads
and makes it again; native code runs the launch as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.copy_closures_into_kernels import copy_closures_into_kernels
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "copy_closures_into_kernels"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))
# The kernel reaches the variable its copy moves by `&mut`.
BY_REFERENCE = {"moving_what_the_kernel_changes", "moving_what_the_kernel_lends"}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", copy_closures_into_kernels)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", copy_closures_into_kernels)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_kernel_is_given_each_variable_once_and_no_closure():
    text = to_text(run_front(CASES / "called.vx", copy_closures_into_kernels).after)
    assert "launch main$kernel0 on(Topology::CPU)(t, k);" in text
    assert "launch main$kernel1 on(Topology::CPU)(k);" in text


def test_a_variable_a_copy_or_the_body_changes_is_the_launchers_lent_once():
    """The spawn's body and the closures it calls changed the launcher's `n` (and the body
    its `k`, which a closure reads): the kernel is given one `&mut` of each, which its body
    and its copies of the closures read and write through."""
    text = to_text(run_front(CASES / "counter.vx", copy_closures_into_kernels).after)
    assert "launch main$kernel0 on(Topology::CPU)(&mut n);" in text
    assert "fn main$kernel0(n: &mut i32) on Topology::CPU {" in text
    assert "*n += d;\n        *n\n" in text
    assert "a * 100 + b * 10 + *n\n" in text
    assert "launch main$kernel1 on(Topology::CPU)(&mut n, &mut k);" in text
    assert "fn main$kernel1(n: &mut i32, k: &mut i32) on Topology::CPU {" in text
    assert "x * *k" in text and "    *k += 1;\n" in text


def test_a_kernel_makes_the_closures_a_copy_reads_first():
    text = to_text(run_front(CASES / "reading_a_closure.vx", copy_closures_into_kernels).after)
    kernel = text[text.index("fn main$kernel0"):text.index("fn main$kernel1")]
    assert kernel.startswith("fn main$kernel0(k: i32, n#1: &mut i32) on Topology::CPU {\n")
    lets = [line.split(":")[0].strip() for line in kernel.splitlines()
            if line.startswith("    let ")]
    assert lets == ["let f", "let count", "let g", "let h"]
    assert "launch main$kernel0 on(Topology::CPU)(k, &mut n);" in text
    assert "launch main$kernel1 on(Topology::CPU)(k);" in text


@pytest.mark.parametrize("case, given", [("moving", "(t)"),
                                         ("moving_and_counting", "(&mut n, t)")])
def test_a_closure_moving_what_it_captures_is_made_again_given_the_variable(case, given):
    """The kernel is given `t` as it is given a variable its copies read: its copy's
    `transfer` moves the kernel's `t`, which moves the launcher's, as the interpreter's
    closure did (native code's kernel is lent the launcher's moved-flag of `t`)."""
    text = to_text(run_front(CASES / f"{case}.vx", copy_closures_into_kernels).after)
    assert f"launch main$kernel0 on(Topology::CPU){given};" in text
    kernel = text[text.index("fn main$kernel0"):]
    assert "transfer" in kernel and "let send" in kernel


@pytest.mark.parametrize("case", sorted(BY_REFERENCE))
def test_a_closure_moving_what_the_kernel_reaches_by_reference_moves_through_it(case):
    """The body assigns or lends `t`, so the kernel reaches the launcher's `t` by `&mut`: the
    copy's `transfer` of `*t` moves the launcher's `t` (the interpreter's `transfer` through
    the `&mut` a launch lends), and the call after the launch stops where the source stops."""
    text = to_text(run_front(CASES / f"{case}.vx", copy_closures_into_kernels).after)
    assert "launch main$kernel0 on(Topology::CPU)(&mut t);" in text
    assert "fn main$kernel0(t: &mut Tensor<i32, [2], Memory::CPU_DRAM>) on Topology::CPU {" in text
    assert "](*t, Memory::NPU_HBM)" in text


HANDWRITTEN = """
    // IL: Lpinned
    fn main() {
        let k: ~i32 = 2;
        let f: ~_ = |x: i32| {
            x + k
        };
        let r: ~Pinned<_, Topology::CPU> = launch main$kernel0 on(Topology::CPU)(f);
        @print(r);
    }

    fn main$kernel0(f: _) on Topology::CPU {
        f(2)
    }
"""


def test_handwritten_a_kernel_makes_the_closure_it_was_given(run_pass, snapshot_txt):
    ran = run_pass("copy-closures-into-kernels", HANDWRITTEN)
    assert ran.codes == []
    assert "launch main$kernel0 on(Topology::CPU)(k);" in ran.dump
    assert "fn main$kernel0(k: i32) on Topology::CPU {" in ran.dump
    assert ran.dump == snapshot_txt


def test_the_names_a_copied_closure_binds_in_its_patterns_are_not_given_to_the_kernel():
    text = to_text(run_front(CASES / "matching_closure.vx", copy_closures_into_kernels).after)
    assert "launch main$kernel0 on(Topology::CPU)(out, k);" in text
