"""delay-assigning-closures: the `let` of a closure assigning a variable copied by a `let`
after it goes down its block, past the copies, to the first statement naming it, so that the
assignment sees every copy; native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.delay_assigning_closures import delay_assigning_closures
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "delay_assigning_closures"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", delay_assigning_closures)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", delay_assigning_closures)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_closure_naming_an_assigning_closure_goes_down_first():
    text = to_text(run_front(CASES / "named_by_a_closure_named_after_the_copy.vx",
                             delay_assigning_closures).after)
    assert text.index("let d: ~_ = c;") < text.index("let mut reset: ~_") < \
        text.index("let mut twice: ~_") < text.index("twice(3);")


# Hand-written Lsplit: a closure assigning `c` bound before a copy of `c` (it goes down to its
# first call), one assigning `k` named before a copy of `k` (it stays), and one assigning
# nothing copied (it stays).
HANDWRITTEN = """
    // IL: Lsplit
    fn main() {
        let mut c: ~i32 = 1;
        let mut k: ~i32 = 2;
        let mut set: ~_ = |s: i32| {
            c = s;
        };
        let mut early: ~_ = |s#1: i32| {
            k = s#1;
        };
        let show: ~_ = |x: i32| {
            @print(x + k);
        };
        early(5);
        let d: ~i32 = c;
        let j: ~i32 = k;
        show(d);
        set(9);
        @print(c + d + j);
    }
"""


def test_handwritten_each_assigning_closure_goes_past_the_copies(run_pass, snapshot_txt):
    ran = run_pass("delay-assigning-closures", HANDWRITTEN)
    assert ran.codes == []
    assert "    show(d);\n    let mut set: ~_ = |s: i32| {\n        c = s;\n    };\n    set(9);" \
        in ran.dump
    assert ran.dump.index("let mut early") < ran.dump.index("let show") < \
        ran.dump.index("early(5);")
    assert _printed(ran.before) == _printed(ran.tree) == "6\n15\n"
    assert ran.dump == snapshot_txt
