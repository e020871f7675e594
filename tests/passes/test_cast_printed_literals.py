"""cast-printed-literals: each unsuffixed number the literal a `print` is given puts in a field
or a variant's value of another scalar type is cast to that type; the program prints what it
printed, and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.cast_printed_literals import cast_printed_literals
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "cast_printed_literals"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", cast_printed_literals)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", cast_printed_literals)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_only_a_literal_of_another_type_than_its_own_is_cast():
    text = to_text(run_front(CASES / "fields_and_payloads.vx", cast_printed_literals).after)
    assert "Wide { small: 200 as u8, big: 3000000000 as i64, plain: 7, single: 16777217.0 " \
        "as f32, double: 0.5 }" in text
    assert "@print((1, 2.5, Wide { small: 1 as u8," in text  # the tuple's own are as written


def test_a_program_printing_no_literal_comes_out_as_it_went_in():
    ran = run_front("struct P { x: u8 }\nfn main() { let p = P { x: 3 }; print(p.x); }\n",
                    cast_printed_literals)
    assert ran.after is ran.before


# Hand-written Lmatched: a literal `print` is given directly, not one expand-aggregate-prints
# wrote of a local, with a literal already cast and a variant chosen by an `if` on a local
# that no declaration types (the choice's condition is left as it is).
CHOSEN = """
    // IL: Lmatched
    enum Level {
        Low(u8),
        High(i64),
    }

    fn main() {
        let k: ~i32 = 3;
        @print(if k > 2 {
            Level::High(5000000000)
        } else {
            Level::Low(7 as u8)
        });
    }
"""


def test_handwritten_a_variant_chosen_by_an_if_is_cast_in_each_arm(run_pass):
    ran = run_pass("cast-printed-literals", CHOSEN)
    assert ran.codes == []
    assert "Level::High(5000000000 as i64)" in ran.text
    assert "Level::Low(7 as u8)" in ran.text and "as u8 as u8" not in ran.text
    assert "if k > 2 {" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "Level::High(5000000000)\n"
