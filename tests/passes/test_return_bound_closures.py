"""return-bound-closures: a block whose value is the local its last `let` binds to a closure
gives that closure as its value; native code runs each case as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.return_bound_closures import return_bound_closures
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "return_bound_closures"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", return_bound_closures)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", return_bound_closures)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_closure_bound_last_and_given_back_is_the_value():
    ran = run_front(CASES / "closures_bound_then_given_back.vx", return_bound_closures)
    assert {n.name for n in ran.nodes("Let") if n.value._prod == "Closure"} == {"run", "mk",
                                                                               "plus"}
    makers = [n.value for n in ran.nodes("Let") if n.name in ("mk", "plus")]
    assert [m.body.value._prod for m in makers] == ["Closure", "Closure"]


# Hand-written Lsplit: a `let mut` given back and a closure not bound last stay; the one
# bound last and given back is the value.
HANDWRITTEN = """
    // IL: Lsplit
    fn main() {
        let mk: ~_ = |y: i32| {
            let h: ~_ = || {
                y + 1
            };
            h
        };
        let keep: ~_ = |y: i32| {
            let mut g: ~_ = || {
                y + 2
            };
            g
        };
        let early: ~_ = |y: i32| {
            let e: ~_ = || {
                y + 3
            };
            let n: i32 = y;
            e
        };
        let a: ~_ = mk(1);
        @print(a());
        let b: ~_ = keep(1);
        @print(b());
        let c: ~_ = early(1);
        @print(c());
    }
"""


def test_handwritten_only_a_closure_bound_last_and_given_back_is_the_value(run_pass,
                                                                          snapshot_txt):
    ran = run_pass("return-bound-closures", HANDWRITTEN)
    assert ran.codes == []
    assert "let h" not in ran.dump
    assert "let mut g" in ran.dump and "let e" in ran.dump
    assert ran.dump == snapshot_txt
