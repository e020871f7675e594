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
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
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


# Hand-written Lpinned: `go` called in a `let` before the `let` of `n`, which the closure `g`
# is given reads, and in the body's value after it (bound again there); `both`, naming
# `late` in a closure it makes and names as a value, called likewise (neither is bound
# again: that closure may be called later, holding `late`'s kernel); `one` launches a kernel
# given no `let mut` closure (left).
HANDWRITTEN = """
    // IL: Lpinned
    fn work(k: i32) -> i32 {
        let mut g: ~_ = |a: i32| {
            a - k
        };
        let go: ~_ = |b: i32| {
            launch work$kernel0 on(Topology::CPU)(g, b)
        };
        let late: ~_ = |b#1: i32| {
            launch work$kernel0 on(Topology::CPU)(g, b#1)
        };
        let both: ~_ = |c: i32| {
            let h: ~_ = || {
                late(c)
            };
            let named: ~_ = h;
            named() * late(c)
        };
        let one: ~_ = |c#1: i32| {
            launch work$kernel1 on(Topology::CPU)(k, c#1)
        };
        let first: i32 = go(1) + both(1) + one(1);
        let n: ~i32 = first;
        g = |a#1: i32| {
            a#1 * n
        };
        go(2) - both(2) - one(2)
    }

    fn work$kernel0(g: _, b: i32) on Topology::CPU {
        g(b)
    }

    fn work$kernel1(k: i32, c: i32) on Topology::CPU {
        k * c
    }

    fn main() {
        @print(work(3));
    }
"""


def test_handwritten_only_a_closure_called_by_name_is_bound_again(run_pass, snapshot_txt):
    ran = run_pass("bind-launching-closures-again", HANDWRITTEN)
    assert ran.codes == []
    assert "    let go#1: ~_ = |b#2: i32| {\n        launch work$kernel0_1 on(Topology::CPU)" \
        "(g, b#2)\n    };\n    go#1(2) - both(2) - one(2)\n}" in ran.dump
    assert ran.dump.count("let ") == HANDWRITTEN.count("let ") + 1
    # made in `both` and called only there, `h` would run only while `both` runs
    called = run_pass("bind-launching-closures-again", HANDWRITTEN.replace(
        "            let named: ~_ = h;\n            named() * late(c)\n",
        "            h() * late(c)\n"))
    assert "let both#1: ~_ = |c#2: i32| {" in called.dump
    assert _printed(ran.before) == _printed(ran.tree) == "-96\n"
    assert ran.dump == snapshot_txt


def test_a_closure_calling_one_bound_again_is_bound_again_after_it(run_pass):
    ran = run_pass("bind-launching-closures-again", HANDWRITTEN.replace(
        "            let h: ~_ = || {\n                late(c)\n            };\n"
        "            let named: ~_ = h;\n            named() * late(c)\n",
        "            late(c) * late(c)\n"))
    assert ran.codes == []
    assert "    let late#1: ~_ = |b#2: i32| {\n        launch work$kernel0_1 on(Topology::CPU)" \
        "(g, b#2)\n    };\n    let both#1: ~_ = |c#2: i32| {\n        late#1(c#2) * " \
        "late#1(c#2)\n    };\n" in ran.dump
    assert "    go#1(2) - both#1(2) - one(2)\n}" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "-96\n"
