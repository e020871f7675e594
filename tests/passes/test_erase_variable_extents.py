"""erase-variable-extents: an extent that names a variable becomes `?`, its constructor given
the extent the interpreter computes when it runs, so that native code makes the tensor."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.erase_variable_extents import erase_variable_extents
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "erase_variable_extents"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", erase_variable_extents)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"erase-variable-extents: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", erase_variable_extents)


@pytest.mark.parametrize("case", [n for n in NAMES if not n.startswith("e5010_")])
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_runs_it_as_the_interpreter_does(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def _fns(case: str) -> dict[str, str]:
    ran = run_front(CASES / f"{case}.vx", erase_variable_extents)
    return {i.name: to_text(i) for i in ran.after.items if i._prod == "Fn"}


def test_each_constructor_is_given_the_variable_and_its_type_says_question_mark():
    make = _fns("parameter")["make"]
    assert "let t: Tensor<i32, [?], Memory::CPU_DRAM> = Tensor<i32, [?]>::fill([n], 2);" in make
    assert "Tensor<f32, [?]>::new([n])" in make and "Tensor<i32, [?]>::uninit([n])" in make
    assert "[n" not in make.replace("([n]", "")


def test_arithmetic_is_computed_in_the_narrower_type_no_step_of_it_leaves():
    make = _fns("arithmetic")["make"]
    assert "Tensor<i32, [?]>::fill([n as i64 * 2], 1)" in make
    assert "Tensor<i32, [?]>::fill([n as i64 + 1 - 2], 2)" in make
    assert "Tensor<i32, [?]>::fill([n / 2], 3)" in make
    two = _fns("rank_two")["make"]
    assert "Tensor<i32, [?, 3]>::fill([n, 3], 1)" in two
    assert "Tensor<i32, [?, 3]>::new([n / 2, 3])" in two
    assert "Tensor<i8, [?, 2]>::fill([b as i32 * 4, 2], 3)" in two


def test_a_number_the_names_type_does_not_hold_is_given_in_a_type_that_does():
    assert "Tensor<u8, [?, 3000000000]>::new([n as i64, 3000000000 as i64])" in \
        _fns("static_extent_past_i32_beside_a_variable")["main"]
    wider = _fns("static_extent_wider_than_a_u8_beside_it")["main"]
    assert "Tensor<u8, [?, 256]>::new([n as i32, 256])" in wider


def test_a_generic_structs_field_keeps_its_const_parameter():
    ran = run_front(CASES / "beside_a_generic_struct.vx", erase_variable_extents)
    decl = next(i for i in ran.after.items if i._prod == "StructDecl")
    assert "data: Tensor<i32, [N]" in to_text(decl)
    assert decl is next(i for i in ran.before.items if i._prod == "StructDecl")


def test_a_divisor_not_known_is_compared_with_0_first_and_stops_as_the_interpreter():
    make = _fns("divided_by_a_variable")["make"]
    assert "Tensor<i32, [?]>::fill([n as i64 / (if m as i64 == 0 {\n        halt_with(" \
           "\"E9006\", \"extent arithmetic {a} / 0 divides by zero\", n as i64)\n    } else {\n" \
           "        m as i64\n    })], 1)" in make


def test_a_literal_is_of_the_extent_its_elements_give_its_first_element_checking_it():
    make = _fns("literal")["make"]
    assert "let t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>([if n < 0 {" in make
    assert 'halt_with("E9006", "this list has 2 element(s), but the tensor has {a}", n) as i32' \
        in make
    small = _fns("literal")["small"]
    assert "b as i32 + 1 < 0" not in small  # a u8 plus 1 is never negative
    after = _fns("literal_of_two_variable_extents_after_a_call")["main"]
    assert "let argument: ~_ = @shown(5);\n    let extent: ~i64 = n as i64;" in after


def test_a_let_of_a_literal_of_two_such_extents_checks_them_then_writes_each_element():
    make = _fns("literal_of_two_variable_extents")["make"]
    checks = ["let extent: ~i64 = n as i64;", "let extent#1: ~i64 = m as i64;", "extent < 0",
              "extent#1 < 0", "extent * extent#1 != 6",
              "= Tensor<i32, [?, ?]>::new([extent, extent#1]);",
              "t[0 / extent#1][0 % extent#1] = 1;", "t[5 / extent#1][5 % extent#1] = 6;"]
    assert [make.index(c) for c in checks] == sorted(make.index(c) for c in checks)
    grid = _fns("literal_of_two_variable_extents")["grid"]
    assert "Tensor<f32, [?, 2, ?]>::new([extent, 2, extent#1])" in grid
    assert "t[7 / (2 * extent#1)][7 / extent#1 % 2][7 % extent#1] = 8.0;" in grid


def test_a_dividend_that_may_stop_is_computed_before_the_divisor_is_compared_with_0():
    make = _fns("divided_on_both_sides")["make"]
    quotient = make.index("a as i64 / (if b as i64 == 0")
    assert quotient < make.index("m as i64 / (if k as i64 == 0") < make.index(") == 0 {")


# Hand-written Lsplit: a local extent assigned after the tensor is made, a loop variable's
# extent (no bound: only read, not computed with), and a tensor of a `?` extent beside one of
# a name, whose list already gives every extent.
MIXED = """
    // IL: Lsplit
    fn main() {
        let mut n: i32 = 2;
        let t: Tensor<i32, [n]> = Tensor<i32, [n]>::fill(7);
        n = 5;
        for k in 0..3 {
            let u: Tensor<i32, [k]> = Tensor<i32, [k]>::new();
            @print(u);
        }
        let w: Tensor<i32, [?, n]> = Tensor<i32, [?, n]>::new([1, 2]);
        @print(t);
        @print(w);
        @print(n);
    }
"""


def test_handwritten_an_extent_read_once_a_loop_variable_and_a_list_given(run_pass,
                                                                        snapshot_txt):
    ran = run_pass("erase-variable-extents", MIXED)
    assert ran.codes == []
    assert "let t: Tensor<i32, [?]> = Tensor<i32, [?]>::fill([n], 7);" in ran.dump
    assert "Tensor<i32, [?]>::new([k])" in ran.dump
    assert "let w: Tensor<i32, [?, ?]> = Tensor<i32, [?, ?]>::new([1, 2]);" in ran.dump
    printed = "[]\n[0]\n[0, 0]\n[7, 7]\n[[0, 0]]\n5\n"
    assert _printed(ran.before) == _printed(ran.tree) == printed
    assert ran.dump == snapshot_txt


def test_a_loop_variable_from_a_number_is_at_least_it():
    assert "Tensor<i32, [?]>::new([2 * j as u64])" in _fns("loop_variable_of_i64")["doubled"]
    halves = _fns("loop_variable_of_i64_near_the_top")["halves"]
    assert "Tensor<f32, [?, ?]>::new([j / 2, j - 3])" in halves  # at least 3: i64 holds it


def test_a_loop_variable_below_a_number_is_at_most_it_less_1():
    main = _fns("loop_variable_of_i64_from_a_negative_start")["main"]
    assert "Tensor<i32, [?]>::new([2 * j as i32 + 6])" in main  # j in -3..=1 of `last`
    assert "::fill([j#1 as i32 + 3], 4)" in main  # `2i64`
    assert "::fill([j#2 * 2 - 6000000000 as i64], 1)" in main  # an i64 past i32


def test_a_name_of_an_inferred_type_is_computed_as_native_code_settles_it():
    main = _fns("inferred_u8_and_default")["main"]
    assert "Tensor<i8, [?]>::fill([n as i32 * 2], 1)" in main  # assigned a u8, a u8
    assert "Tensor<i8, [?]>::fill([d as i64 * 2], 1)" in main  # nothing fixes it: an i32
    loop = _fns("loop_variable")["main"]
    assert "::fill([i + 1], i)" in loop and "::new([2 * j as i32, j as i32 - 1])" in loop


def test_an_extent_naming_a_const_not_folded_reads_the_const():
    main = _fns("const_extents")["main"]
    assert "Tensor<i32, [?, 4]>::fill([@Z, 4], 1)" in main
    assert "Tensor<i32, [?, 2]>::new([@E * 5, 2])" in main
    assert "Tensor<i32, [?]>::fill([@Z + 3], 9)" in main
    assert "Tensor<i32, [?, 2]>::new([@N as i32 * 3, 2])" in _fns("negative_const_in_arithmetic")["main"]
