"""cast-returned-generic-fields: a field of a generic struct holding an f64 or an i32 that a
function returns as another float or integer type is cast to it; the program prints what it
printed, and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.cast_returned_generic_fields import cast_returned_generic_fields
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "cast_returned_generic_fields"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", cast_returned_generic_fields)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", cast_returned_generic_fields)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_return_of_another_type_is_cast_and_one_of_its_own_is_not():
    ran = run_front(CASES / "returned_as_another_type.vx", cast_returned_generic_fields)
    fns = {i.name: to_text(i) for i in ran.after.items if i._prod == "Fn"}
    assert "c.v as f32\n" in fns["third"]
    assert "return c.v as i64;" in fns["wide"]
    assert "p.inner.1 as i64\n" in fns["second"]
    assert "return c.v as f32;" in fns["first"]
    assert " as " not in fns["same"]


def test_a_program_returning_no_generic_field_comes_out_as_it_went_in():
    ran = run_front("struct P { x: i64 }\nfn get(p: P) -> i64 { p.x }\n"
                    "fn main() { print(get(P { x: 3 })); }\n", cast_returned_generic_fields)
    assert ran.after is ran.before


# Hand-written Lmatched: a closure in a function returning an f32 returns a generic field
# holding an f64 itself; its `return` is its own (the closure's result is an f64), and only
# the function's is cast.
CLOSURE = """
    // IL: Lmatched
    struct Cell {
        v: T,
    }

    fn third(c: Cell) -> f32 {
        let g: ~_ = |d: f64| {
            return c.v + d;
        };
        @print(g(0.5));
        return c.v;
    }

    fn main() {
        @print(@third(Cell { v: 0.25 }));
    }
"""


def test_handwritten_a_closures_return_is_its_own(run_pass):
    ran = run_pass("cast-returned-generic-fields", CLOSURE)
    assert ran.codes == []
    assert "return c.v + d;" in ran.text and "return c.v as f32;" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "0.75\n0.25\n"
