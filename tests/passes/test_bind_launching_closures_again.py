"""bind-launching-closures-again: a closure launching a kernel given a `let mut` closure is
bound again, launching a copy of the kernel, before each call after the `let` of a variable a
closure the variable is given reads; native code runs the launches as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.bind_launching_closures_again import bind_launching_closures_again
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "bind_launching_closures_again"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", bind_launching_closures_again)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", bind_launching_closures_again)


@pytest.mark.parametrize("case", NAMES)
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_let_a_closure_reads_starts_a_copy_at_the_next_call():
    text = to_text(run_front(CASES / "called_between_closures_bound.vx",
                             bind_launching_closures_again).after)
    assert text.index("@print(run(1));") < text.index("let m: ~i32 = 5;") < \
        text.index("let run#1: ~_ = |y#1: i32| {\n        launch main$kernel0_1") < \
        text.index("@print(run#1(2));") < text.index("@print(run#1(3));") < \
        text.index("let n: ~i32 = 7;") < text.index("let run#2: ~_") < \
        text.index("@print(run#2(4));")
    assert "fn main$kernel0_1(f: _, y: i32) on Topology::CPU {" in text
    assert "fn main$kernel0_2(f: _, y: i32) on Topology::CPU {" in text


# Hand-written Lpinned: `go` called before and after the `let` of `m`, which the closure
# `f` is given reads (bound again); `twice`, naming `early`, called likewise (neither is
# bound again: `twice` launches nothing, and `early` is named inside it); `plain` launches
# a kernel given no `let mut` closure (left).
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
        let twice: ~_ = |y: i32| {
            early(y) + early(y)
        };
        let plain: ~_ = |y: i32| {
            launch main$kernel1 on(Topology::CPU)(k, y)
        };
        @print(go(1) + twice(1) + plain(1));
        let m: ~i32 = 5;
        f = |x#1: i32| {
            x#1 * m
        };
        @print(go(5) + twice(5) + plain(5));
    }

    fn main$kernel0(f: _, y: i32) on Topology::CPU {
        f(y)
    }

    fn main$kernel1(k: i32, y: i32) on Topology::CPU {
        k + y
    }
"""


def test_handwritten_only_a_closure_called_by_name_is_bound_again(run_pass, snapshot_txt):
    ran = run_pass("bind-launching-closures-again", HANDWRITTEN)
    assert ran.codes == []
    assert "    let go#1: ~_ = |y#1: i32| {\n        launch main$kernel0_1 on(Topology::CPU)" \
        "(f, y#1)\n    };\n    @print(go#1(5) + twice(5) + plain(5));\n" in ran.dump
    assert ran.dump.count("let ") == HANDWRITTEN.count("let ") + 1
    assert _printed(ran.before) == _printed(ran.tree) == "12\n82\n"
    assert ran.dump == snapshot_txt
