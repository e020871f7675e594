"""copy-closures-into-kernels: a kernel given a closure bound by a `let` is given what it reads
and makes it again; native code runs the launch as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.copy_closures_into_kernels import copy_closures_into_kernels
from front import assert_native_as_interpreted, assert_prints_the_same, run_cli, run_front

CASES = Path(__file__).parent / "cases" / "copy_closures_into_kernels"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", copy_closures_into_kernels)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", copy_closures_into_kernels)


@pytest.mark.parametrize("case", NAMES)
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_kernel_is_given_each_variable_once_and_no_closure():
    text = to_text(run_front(CASES / "called.vx", copy_closures_into_kernels).after)
    assert "launch main$kernel0 on(Topology::CPU)(t, k);" in text
    assert "launch main$kernel1 on(Topology::CPU)(k);" in text


def test_a_closure_assigning_what_it_reads_stays_passed_and_runs_in_the_interpreter():
    native = run_cli(CASES / "e5010_counter.vx")
    assert native[:2] == (0, "2\n2\n")
    assert "W5001" in native[2] and "a closure passed to a function" in native[2]


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
