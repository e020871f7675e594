"""drop-uncalled-closures: a closure nothing names, indexing or dereferencing a parameter of
no written type, goes, so that no call is missing to type it; native code runs each case as
the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.drop_uncalled_closures import drop_uncalled_closures
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "drop_uncalled_closures"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", drop_uncalled_closures)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", drop_uncalled_closures)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_only_the_closures_nothing_calls_that_no_written_type_says_go():
    ran = run_front(CASES / "closures_nothing_calls.vx", drop_uncalled_closures)
    closures = {n.name for n in ran.nodes("Let") if n.value._prod == "Closure"}
    assert closures == {"typed", "get"}
    assert ran.after is not ran.before


def test_copies_nothing_names_go_with_the_closure_they_copy():
    ran = run_front(CASES / "closure_copies_nothing_calls.vx", drop_uncalled_closures)
    assert {n.name for n in ran.nodes("Let")} == {"a", "k", "at", "copy", "read"}


def test_a_copy_only_assigned_goes_with_its_assignments_and_the_closures():
    for path in (CASES.parent / "type_scalars" /
                 "closure_value_indexing_an_untyped_parameter_assigned_never_called.vx",
                 CASES / "closure_copy_assigned_in_an_if_never_called.vx",
                 CASES / "closure_copy_assigned_then_copied_never_called.vx"):
        ran = run_front(path, drop_uncalled_closures)
        assert {n.name for n in ran.nodes("Let")} == {"a"}
        assert not list(ran.nodes("Assign"))


def test_a_copy_assigned_what_computes_something_stays():
    ran = run_front("fn pick() -> i32 { 1 }\nfn main() {\n    let g = |q| unsafe { q[0] };\n"
                    "    let mut f = g;\n    f = if pick() > 0 { g } else { g };\n"
                    "    print(2);\n}\n", drop_uncalled_closures)
    assert ran.after is ran.before


def test_a_program_without_such_closures_is_left_as_it_is():
    ran = run_front("fn main() {\n    let f = |x| x + 1;\n    let g = |q: i32| q;\n"
                    "    print(f(1));\n}\n", drop_uncalled_closures)
    assert ran.after is ran.before


HANDWRITTEN = """
    // IL: Lsplit
    fn main() {
        let t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(3);
        let at: ~_ = |q, i: i32| {
            q[i]
        };
        let second: ~_ = |r| {
            at(r, 1)
        };
        @print(t[0]);
    }
"""


def test_handwritten_a_closure_only_a_dropped_closure_names_goes_too(run_pass, snapshot_txt):
    ran = run_pass("drop-uncalled-closures", HANDWRITTEN)
    assert ran.codes == []
    assert "let at" not in ran.dump and "let second" not in ran.dump
    assert ran.dump == snapshot_txt
