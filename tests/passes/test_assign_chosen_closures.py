"""assign-chosen-closures: a `let` of a closure an `if` chooses, given to a kernel, is a `let
mut` of the first arm's closure that the `if` gives the others, so that the kernel makes the
closure it holds; native code runs the launch as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.assign_chosen_closures import assign_chosen_closures
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "assign_chosen_closures"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", assign_chosen_closures)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", assign_chosen_closures)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_an_else_if_is_an_if_in_the_else():
    text = to_text(run_front(CASES / "chosen_by_an_else_if.vx", assign_chosen_closures).after)
    assert "    let mut g: ~_ = |x: f32| {\n        x + t[0]\n    };\n" \
        "    if k > 5 {} else if k > 2 {\n        g = |x#1: f32| {\n" in text


# Hand-written Lpinned: a closure an `if` chooses given to a kernel, one whose arm has a
# statement, and one no launch gives: only the first is assigned.
HANDWRITTEN = """
    // IL: Lpinned
    fn main() {
        let k: ~i32 = 2;
        let f: ~_ = if k > 1 {
            |x: i32| {
                x + k
            }
        } else {
            |x#1: i32| {
                x#1 * k
            }
        };
        let g: ~_ = if k > 1 {
            let m: ~i32 = 4;
            |x#2: i32| {
                x#2 + m
            }
        } else {
            |x#3: i32| {
                x#3
            }
        };
        let h: ~_ = if k > 1 {
            |x#4: i32| {
                x#4
            }
        } else {
            |x#5: i32| {
                x#5 - 1
            }
        };
        let r: ~i32 = launch main$kernel0 on(Topology::CPU)(f, g);
        @print(r + h(1));
    }

    fn main$kernel0(f: _, g: _) on Topology::CPU {
        f(1) + g(2)
    }
"""


def test_handwritten_only_a_closure_of_closure_arms_given_to_a_kernel_is_assigned(
        run_pass, snapshot_txt):
    ran = run_pass("assign-chosen-closures", HANDWRITTEN)
    assert ran.codes == []
    assert "    let mut f: ~_ = |x: i32| {\n        x + k\n    };\n    if k > 1 {} else {\n" \
        "        f = |x#1: i32| {\n" in ran.dump
    assert "    let g: ~_ = if k > 1 {\n" in ran.dump and "    let h: ~_ = if k > 1 {\n" in \
        ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "10\n"
    assert ran.dump == snapshot_txt
