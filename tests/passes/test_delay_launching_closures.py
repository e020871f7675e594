"""delay-launching-closures: the `let` of a closure launching a kernel given a `let mut`
closure goes down its block to the first statement naming it, so that the kernel is given
the closures bound by then; native code runs the launch as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.delay_launching_closures import delay_launching_closures
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "delay_launching_closures"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", delay_launching_closures)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", delay_launching_closures)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_closure_naming_a_launching_closure_goes_down_too():
    text = to_text(run_front(CASES / "named_by_a_closure.vx", delay_launching_closures).after)
    assert text.index("let m: ~i32 = 5;") < text.index("let run: ~_") < \
        text.index("let twice: ~_") < text.index("@print(twice(7));")
    assert text.index("let s: ~i32 = 3;") < text.index("let m: ~i32 = 5;")


def test_two_launching_closures_each_go_to_the_statement_naming_them():
    text = to_text(run_front(CASES / "two_launching_closures.vx",
                             delay_launching_closures).after)
    assert text.index("let p: ~i32 = 3;") < text.index("let both: ~_") < \
        text.index("let one: ~_") < text.index("@print(one(p) + both(p));")


# Hand-written Lpinned: a closure launching a kernel given `f` before the closure `f` is
# given that reads `m`, one named before `m`'s `let` (it stays), and one launching a kernel
# given no such variable (it stays).
HANDWRITTEN = """
    // IL: Lpinned
    fn main() {
        let k: ~i32 = 2;
        let mut f: ~_ = |x: i32| {
            x + k
        };
        let go: ~_ = |y: i32| {
            launch main$kernel0 on(Topology::CPU)(f, y)
        };
        let early: ~_ = |y: i32| {
            launch main$kernel0 on(Topology::CPU)(f, y)
        };
        let plain: ~_ = |y: i32| {
            launch main$kernel1 on(Topology::CPU)(k, y)
        };
        @print(early(1));
        let m: ~i32 = 5;
        f = |x#1: i32| {
            x#1 * m
        };
        @print(go(5) + plain(1));
    }

    fn main$kernel0(f: _, y: i32) on Topology::CPU {
        f(y)
    }

    fn main$kernel1(k: i32, y: i32) on Topology::CPU {
        k + y
    }
"""


def test_handwritten_each_launching_closure_goes_to_its_first_use(run_pass, snapshot_txt):
    ran = run_pass("delay-launching-closures", HANDWRITTEN)
    assert ran.codes == []
    assert "    let early: ~_ = |y: i32| {\n        launch main$kernel0 on(Topology::CPU)(f, y)" \
        "\n    };\n    @print(early(1));\n" in ran.dump
    assert "    };\n    let go: ~_ = |y: i32| {\n        launch main$kernel0 on(Topology::CPU)" \
        "(f, y)\n    };\n    @print(go(5) + plain(1));\n" in ran.dump
    assert ran.dump.index("let plain") < ran.dump.index("@print(early(1))")
    assert _printed(ran.before) == _printed(ran.tree) == "3\n28\n"
    assert ran.dump == snapshot_txt
