"""The interpreter computes at the types type-scalars decided (Lscalars on): a typed literal
is a value of its type, an operator computes at its operand type, a cast reads its source
type, a loop variable has the loop's type; a value of another type stops the run."""

import io

import pytest

from nano_vx.languages.lscalars import Lscalars as L
from nano_vx.oracle import run_program
from nano_vx.values.stops import RuntimeStop


def scalar(t):
    return L["Scalar"](t)


def show(expr):
    return L["ExprStmt"](L["Call"](L["Global"]("print"), [expr]))


def main(*stmts, value=None, ret="void"):
    return L["Program"]([L["Fn"]("main", [], None, scalar(ret), [],
                                 L["Block"](list(stmts), value))])


def run(program):
    out = io.StringIO()
    result = run_program(program, out=out)
    return out.getvalue(), result


def test_a_typed_literal_is_a_value_of_its_type():
    # Unannotated, 200 + 100 would be an i32 400; typed u8, it wraps to 44.
    add = L["Binary"]("+", "u8", L["Int"](200, "u8"), L["Int"](100, "u8"))
    assert run(main(show(add))) == ("44\n", 0)


def test_an_operator_computes_at_its_operand_type():
    x = L["Let"]("x", False, scalar("i64"), L["Int"](3_000_000_000, "i64"))
    big = L["Binary"]("*", "i64", L["Local"]("x"), L["Int"](4, "i64"))
    assert run(main(x, show(big))) == ("12000000000\n", 0)


def test_a_comparison_types_its_operands():
    # 200 read as an i8 is -56: less than 100 (untyped, it would not be).
    less = L["Binary"]("<", "i8", L["Int"](200, "i8"), L["Int"](100, "i8"))
    assert run(main(show(less))) == ("true\n", 0)


def test_a_float_literal_of_f32_rounds():
    third = L["Binary"]("/", "f32", L["Float"](1.0, "f32"), L["Float"](3.0, "f32"))
    assert run(main(show(third))) == ("0.33333334\n", 0)


def test_a_negated_literal_of_i8():
    neg = L["Unary"]("-", "i8", L["Int"](128, "i8"))
    assert run(main(show(neg))) == ("-128\n", 0)


def test_a_cast_reads_its_source_type():
    cast = L["Cast"](L["Int"](-1, "i8"), "i8", scalar("u32"))
    assert run(main(show(cast))) == ("4294967295\n", 0)


def test_a_loop_variable_takes_the_loop_type():
    # i * 1_000_000_000 at i64: i32 would wrap at i = 3.
    body = L["Block"]([show(L["Binary"]("*", "i64", L["Local"]("i"),
                                        L["Int"](1_000_000_000, "i64")))], None)
    loop = L["For"]("i", "i64", L["Int"](2, "i64"), L["Int"](4, "i64"), body)
    assert run(main(loop)) == ("2000000000\n3000000000\n", 0)


def test_void_result_converts_nothing():
    assert run(main(show(L["Str"]("ok")), ret="void")) == ("ok\n", 0)


def test_a_function_result_converts_to_its_type():
    assert run(main(value=L["Int"](7, "i64"), ret="i64")) == ("", 7)


def test_an_operand_of_another_type_than_decided_stops():
    x = L["Let"]("x", False, scalar("u8"), L["Int"](3, "u8"))
    wrong = L["Binary"]("+", "i64", L["Local"]("x"), L["Int"](1, "i64"))
    with pytest.raises(RuntimeStop) as info:
        run(main(x, show(wrong)))
    assert (info.value.code, info.value.message) == (
        "E9006", "expected a value of type i64, found u8")


def test_a_literal_typed_apart_from_its_operator_stops():
    wrong = L["Binary"]("+", "i64", L["Int"](1, "u8"), L["Int"](1, "i64"))
    with pytest.raises(RuntimeStop) as info:
        run(main(show(wrong)))
    assert info.value.message == "expected a value of type i64, found u8"
