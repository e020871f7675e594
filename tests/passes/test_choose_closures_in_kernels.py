"""choose-closures-in-kernels: a kernel given a closure a `let mut` binds is given the closures
the variable may hold and the number of the one it holds, and makes the variable again;
native code runs the launch as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.choose_closures_in_kernels import choose_closures_in_kernels
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "choose_closures_in_kernels"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", choose_closures_in_kernels)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", choose_closures_in_kernels)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_kernel_is_given_the_number_and_the_closures():
    text = to_text(run_front(CASES / "chosen_by_an_if.vx", choose_closures_in_kernels).after)
    assert "let mut f: ~_ = f_0;\n    let mut f_which: ~i32 = 0;" in text
    assert "f = f_1;\n        f_which = 1;" in text
    assert "launch main$kernel0 on(Topology::CPU)(f_which, f_0, f_1);" in text
    assert "let mut f: ~_ = f_0;\n    if f_which == 1 {\n        f = f_1;\n    }\n    f(5)" in text


def test_a_closure_reading_a_later_variable_is_bound_after_it():
    text = to_text(run_front(CASES / "reading_a_later_variable.vx",
                             choose_closures_in_kernels).after)
    assert "let m: ~i32 = 5;\n    let f_1: ~_ = |x#1: i32| {" in text
    text = to_text(run_front(CASES / "launched_before_a_closure_is_bound.vx",
                             choose_closures_in_kernels).after)
    assert "launch main$kernel0 on(Topology::CPU)(f_which, f_0);" in text
    assert "launch main$kernel1 on(Topology::CPU)(f_which, f_0, f_1);" in text


def test_a_launch_in_a_closure_bound_before_a_closure_it_is_given_is_given_it():
    """delay-launching-closures moved the closure launching the kernel after `m`'s `let`."""
    text = to_text(run_front(CASES / "launched_by_a_closure_before_another_is_bound.vx",
                             choose_closures_in_kernels).after)
    assert "launch main$kernel0 on(Topology::CPU)(f_which, y, f_0, f_1)" in text


def test_a_launch_in_a_closure_called_before_a_closure_is_bound_is_given_those_before():
    """The closure launching the kernel is called before `m`'s `let`, and bound again after
    it (bind-launching-closures-again): the first kernel, run while `f` holds the first
    closure, is given that one; the copy, bound after the second, is given both."""
    text = to_text(run_front(CASES / "launched_by_a_closure_called_before_another_is_bound.vx",
                             choose_closures_in_kernels).after)
    assert "launch main$kernel0 on(Topology::CPU)(f_which, y, f_0)" in text
    assert "launch main$kernel0_1 on(Topology::CPU)(f_which, y#1, f_0, f_1)" in text


def test_a_launch_in_a_closure_another_names_before_a_closure_is_bound_is_given_those_before():
    """The closure launching the kernel is named by `twice`, called before `m`'s `let` and
    after it: both are bound again after it (bind-launching-closures-again), the first
    kernel given the closure bound before, the copy both."""
    text = to_text(run_front(
        CASES / "launched_by_a_closure_named_by_another_called_before_another_is_bound.vx",
        choose_closures_in_kernels).after)
    assert "launch main$kernel0 on(Topology::CPU)(f_which, y, f_0)" in text
    assert "launch main$kernel0_1 on(Topology::CPU)(f_which, y#3, f_0, f_1)" in text
    assert "@print(twice#1(5));" in text


def test_a_launch_in_a_closure_only_the_closure_around_it_calls_is_chosen():
    """The closure made inside `twice` runs only while `twice` runs: `twice` is bound again
    after the `let` of `m`, its copy's inner closure calling `run`'s copy."""
    text = to_text(run_front(CASES / "launched_by_a_closure_named_in_a_closure_inside_another.vx",
                             choose_closures_in_kernels).after)
    assert "launch main$kernel0_1 on(Topology::CPU)(f_which, y#2, f_0, f_1)" in text
    assert "run#1(y#3)" in text and "@print(twice#1(5));" in text


def test_a_variable_a_kernel_assigns_is_left_as_it_is():
    """The first kernel is given `f` as `&mut` and gives it another closure, which no number
    says: the second kernel is given the closure value (refused, so the interpreter runs
    the program, and its second kernel calls the first kernel's closure)."""
    text = ("fn main() {\n    let mut f = |x: i32| x;\n"
            "    let a = spawn on(Topology::CPU) { f = |x: i32| x + 1; 0 };\n    print(a);\n"
            "    let r = spawn on(Topology::CPU) { f(2) };\n    print(r);\n}\n")
    ran = run_front(text, choose_closures_in_kernels)
    assert not ran.diagnostics.items and ran.after == ran.before


# Hand-written Lpinned: two kernels given one `let mut` closure, one of them by a launch in a
# closure, and a closure value assigned in a loop.
TWO_KERNELS = """
    // IL: Lpinned
    fn main() {
        let k: ~i32 = 3;
        let mut f: ~_ = |x: i32| {
            x + k
        };
        let mut i: ~i32 = 0;
        while i < 2 {
            f = |y: i32| {
                y * k
            };
            i += 1;
        }
        let go: ~_ = || {
            launch main$kernel0 on(Topology::CPU)(f)
        };
        @print(go());
        let r: ~Pinned<_, Topology::CPU> = launch main$kernel1 on(Topology::CPU)(k, f);
        @print(r);
    }

    fn main$kernel0(f: _) on Topology::CPU {
        f(1)
    }

    fn main$kernel1(k: i32, f: _) on Topology::CPU {
        f(k)
    }
"""


def test_handwritten_two_kernels_given_one_variable(run_pass, snapshot_txt):
    ran = run_pass("choose-closures-in-kernels", TWO_KERNELS)
    assert ran.codes == []
    assert "launch main$kernel0 on(Topology::CPU)(f_which, f_0, f_1)" in ran.dump
    assert "launch main$kernel1 on(Topology::CPU)(k, f_which, f_0, f_1);" in ran.dump
    assert "fn main$kernel1(k: i32, f_which: i32, f_0: _, f_1: _) on Topology::CPU {" in ran.dump
    assert ran.dump == snapshot_txt
