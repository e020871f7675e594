"""return-chosen-rows: a function's result an `if` chooses between rows is that `if` returning
each arm's row; native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.return_chosen_rows import return_chosen_rows
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "return_chosen_rows"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", return_chosen_rows)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", return_chosen_rows)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_row_is_returned_by_a_return_of_its_own_and_other_ifs_stay():
    ran = run_front(CASES / "chosen_rows.vx", return_chosen_rows)
    fns = {f.name: f for f in ran.after.items if f._prod == "Fn"}
    for name, returns in (("pick", 3), ("pick_mut", 2), ("by_value", 2), ("checked", 2)):
        body = fns[name].body
        assert body.value is None and body.stmts[-1]._prod == "If"
        assert to_text(fns[name]).count("return ") == returns, name
    kept = run_front(CASES / "kept_ifs.vx", return_chosen_rows)
    assert kept.after == kept.before


# Hand-written Lsplit: a function returning a row whose body holds a closure: the closure's
# `return` of an `if` value is the closure's, and stays; the function's is written out.
HANDWRITTEN = """
    // IL: Lsplit
    fn row(m: &Tensor<i32, [2, 2], Memory::CPU_DRAM>, c: bool) -> &Tensor<i32, [2], Memory::CPU_DRAM> {
        let f: ~_ = |k: i32| {
            return if c {
                k
            } else {
                0
            };
        };
        return if c {
            &m[f(1)]
        } else {
            &m[0]
        };
    }
"""


def test_handwritten_a_closure_keeps_its_return_and_the_function_returns_in_each_arm(
        run_pass, snapshot_txt):
    ran = run_pass("return-chosen-rows", HANDWRITTEN)
    assert ran.codes == []
    assert ran.dump.count("return if c {") == 1 and ran.dump.count("return &m[") == 2
    assert ran.dump == snapshot_txt
