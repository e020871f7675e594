"""bind-assigning-closures-again: a closure only called that assigns a variable copied after
it, named before and after the copy, is bound again after the copy, the statements after it
calling the new one; native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.bind_assigning_closures_again import bind_assigning_closures_again
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "bind_assigning_closures_again"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", bind_assigning_closures_again)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", bind_assigning_closures_again)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_closure_called_only_before_the_copy_is_bound_once():
    ran = run_front(CASES / "called_only_before_the_copy.vx", bind_assigning_closures_again)
    assert to_text(ran.after).count("let mut reset") == 1


def test_the_closure_is_bound_again_in_the_block_of_the_copy():
    main = to_text(run_front(CASES / "bound_in_a_loop_body.vx",
                             bind_assigning_closures_again).after)
    assert "let d: ~_ = c;\n        let mut reset#1: ~_ = |s#1: i32| {" in main
    assert "reset#1(100);" in main and "reset(i * 10);" in main


def test_a_closure_calling_the_assigning_one_is_bound_again_with_it_calling_the_new_one():
    main = to_text(run_front(CASES / "called_through_another_closure_before_and_after_the_"
                             "copy.vx", bind_assigning_closures_again).after)
    after = main[main.index("let d: ~_ = c;"):]
    assert after.index("let reset#1") < after.index("let twice#1") < after.index("twice#1(10)")
    assert "reset#1(s#3);" in after and "let show#" not in after


# Hand-written Lsplit: a closure assigning `c` named before and after a copy of `c`, and by a
# closure bound after the copy (which calls the new one); one assigning nothing copied stays
# as it is.
HANDWRITTEN = """
    // IL: Lsplit
    fn main() {
        let mut c: ~i32 = 1;
        let mut set: ~_ = |s: i32| {
            c = s;
        };
        let show: ~_ = |x: i32| {
            @print(x);
        };
        set(4);
        let d: ~i32 = c;
        let twice: ~_ = |t: i32| {
            set(t);
            set(t + 1);
        };
        show(d);
        twice(9);
        @print(c + d);
    }
"""


def test_handwritten_the_closure_is_bound_again_after_the_copy(run_pass, snapshot_txt):
    ran = run_pass("bind-assigning-closures-again", HANDWRITTEN)
    assert ran.codes == []
    assert "    let d: ~i32 = c;\n    let mut set#1: ~_ = |s#1: i32| {\n        c = s#1;\n" \
        in ran.dump
    assert "set(4);" in ran.dump and "set#1(t);" in ran.dump and "set#1(t + 1);" in ran.dump
    assert ran.dump.count("let show") == 1
    assert _printed(ran.before) == _printed(ran.tree) == "4\n14\n"
    assert ran.dump == snapshot_txt
