"""cast-plain-values: a value the interpreter holds as a plain i32 or f64 (a local bound to
literals, a tuple literal's element) is cast where it meets another type, in a function the
inference refuses otherwise or would type such a local otherwise where that shows; the
program prints what it printed, natively too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.cast_plain_values import cast_plain_values
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "cast_plain_values"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", cast_plain_values)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", cast_plain_values)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _written(case: str, cases: Path = CASES) -> str:
    """The text of the program `case` after the pass."""
    return to_text(run_front(cases / f"{case}.vx", cast_plain_values).after)


def test_each_use_meeting_another_type_is_cast_and_the_others_stay():
    text = _written("locals_meeting_other_types")
    assert "let z: u8 = k as u8;" in text and "let g: f32 = f as f32;" in text
    assert "let m: i64 = n as i64;" in text
    # the uses meeting the local's own type keep their form
    assert "@print(k * 1000000000);" in text and "let agg: i32 = k;" in text
    element = _written("tuple_literal_element_used_as_another_type")
    assert "let x: i64 = (1000000 * 10000) as i32 as i64;" in element
    assigned = _written("assigned_beside_plain_values")
    assert "acc += k;" in assigned and "acc = acc + 1;" in assigned
    assert "w += k as i64;" in assigned


def test_plain_values_computed_together_are_cast_as_a_whole_where_they_meet_another_type():
    # the interpreter computes `k * j` as i32s, then converts the product: a cast of each
    # operand would compute it in the i64; and so does a closure's body on what it is given
    cases = Path(__file__).parent / "cases" / "type_scalars"
    written = {"plain_values_multiplied_then_given_an_i64": ["let y: i64 = (k * j) as i64;"],
               "plain_local_multiplied_then_given_an_i64": [
                   "let y: i64 = (k * j) as i64;", "let z: i64 = k as i64 * 1000000000;"],
               "plain_local_shifted_then_given_an_i64": [
                   "let y: i64 = k as i64;", "let big: i64 = (k << 30) as i64;"],
               "plain_local_given_to_a_closure_then_an_i64": ["let y: i64 = h(k) as i64;"],
               "plain_value_given_to_a_closure_then_an_i64": ["let q: i64 = h(k) as i64;"]}
    for name, lines in written.items():
        text = _written(name, cases)
        assert all(line in text for line in lines), (name, text)
    # a literal takes the type of its context where the interpreter gives it one (a `let`'s,
    # a result's), none beside a comparison or in an assignment's value of a variable
    compared = _written("plain_product_compared_with_an_i64")
    assert "@print((k * 1000000000) as i64 == y);" in compared
    assigned = _written("plain_products_assigned_to_i64_places")
    assert "w = (k * 1000000000) as i64;" in assigned and "t[2] = (k * 2) as i64;" in assigned
    given = _written("plain_products_given_an_i64")
    assert "let w: i64 = 2 * k as i64 * j as i64;" in given
    assert "let z: i64 = (k * j) as i64 * 2;" in given and "@print(k * j);" in given


def test_a_closure_call_on_a_plain_value_is_cast_as_a_whole():
    # given a plain i32 and, in a copy of its own (copy-closures-per-argument-type), an i64;
    # binding a local to arithmetic on what it is given, a plain local of its body
    for name, line in (("closure_given_a_plain_value_and_an_i64", "let y: i64 = h(k) as i64;"),
                       ("closure_binding_its_plain_parameter_then_an_i64",
                        "let w: i64 = g(k) as i64;")):
        case = Path(__file__).parent / "cases" / "type_scalars" / f"{name}.vx"
        assert line in to_text(run_front(case, cast_plain_values).after)


def test_a_program_the_inference_types_keeps_its_form():
    ran = run_front(Path(__file__).parent / "cases" / "type_scalars" / "units_compared.vx",
                    cast_plain_values)
    assert ran.after is ran.before
    # a loop's counter between literals typed i64 by a closure's i64 parameter it is passed
    # to, never computed with: no use tells the i64 from the interpreter's i32
    ran = run_front(Path(__file__).parent / "cases" / "type_scalars" /
                    "closure_values_indexing_untyped_parameters.vx", cast_plain_values)
    assert ran.after is ran.before


# Hand-written Lsplit: a local bound to a literal given to an i64 and to an i32's place, and
# one only given to an i32's: the first is cast where it meets the i64.
HANDWRITTEN = """
    // IL: Lsplit
    fn main() {
        let k: ~i32 = 7;
        let j: ~i32 = 5;
        let mut a: i32 = 0;
        a = k;
        let y: i64 = k;
        @print(a + j);
        @print(y * 1000000000);
    }
"""


def test_handwritten_a_local_meeting_an_i64_is_cast_there(run_pass, snapshot_txt):
    ran = run_pass("cast-plain-values", HANDWRITTEN)
    assert ran.codes == []
    assert "let y: i64 = k as i64;" in ran.dump and "a = k;" in ran.dump
    assert "@print(a + j);" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "12\n7000000000\n"
    assert ran.dump == snapshot_txt


# Hand-written Lsplit: two plain locals multiplied for an i64, a literal beside one for
# another, and a product compared with an i64: the products the interpreter computes in
# i32 are cast whole, and the one its `let` types the literal of is cast operand by operand.
HANDWRITTEN_UNITS = """
    // IL: Lsplit
    fn main() {
        let k: ~i32 = 9;
        let j: ~i32 = 1000000000;
        let y: i64 = k * j;
        let z: i64 = k * 1000000000;
        let w: i64 = 5000000000;
        @print(y);
        @print(z);
        @print(k * 1000000000 < w);
    }
"""


def test_handwritten_plain_products_are_cast_whole_where_the_interpreter_converts_them(
        run_pass, snapshot_txt):
    ran = run_pass("cast-plain-values", HANDWRITTEN_UNITS)
    assert ran.codes == []
    assert "let y: i64 = (k * j) as i64;" in ran.dump
    assert "let z: i64 = k as i64 * 1000000000;" in ran.dump
    assert "@print((k * 1000000000) as i64 < w);" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "410065408\n9000000000\ntrue\n"
    assert ran.dump == snapshot_txt
