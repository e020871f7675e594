"""type-generic-field-literals: the unsuffixed literals a generic struct's scalar argument
reaches in its fields are cast to that type (`let c: Cell<f32> = Cell { v: 0.1 + 0.2 };` sums
two f32s), as the interpreter types them from the arguments; one the type cannot hold is E3008;
the program prints what it printed."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.monomorphize import monomorphize
from nano_vx.passes.type_generic_field_literals import type_generic_field_literals
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same, run_cli,
                   run_front)

CASES = Path(__file__).parent / "cases" / "type_generic_field_literals"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", type_generic_field_literals)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"type-generic-field-literals: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", type_generic_field_literals)


def test_handwritten_the_argument_a_match_arm_and_a_tuple_hand_on(run_pass, snapshot_txt):
    # The `let`'s `(Cell<u8>, i8)` reaches the literal in the tuple's first element, through
    # the arm of the `if`; the i8 element is no field's and stays as written.
    ran = run_pass("type-generic-field-literals", """
        // IL: Lresolved
        struct Cell<T> {
            v: T,
        }

        fn main() {
            let t: (Cell<u8>, i8) = (if true { Cell { v: 250 + 10 } } else { Cell { v: 1 } }, 5);
            @print(t.0.v);
            let u = Cell::<f32> { v: 0.1 + 0.2 };
            @print(u.v);
        }
    """)
    assert ran.codes == []
    assert "Cell { v: 250 as u8 + 10 as u8 }" in ran.text
    assert "Cell { v: 1 as u8 }" in ran.text
    assert ", 5);" in ran.text
    assert "Cell::<f32> { v: 0.1 as f32 + 0.2 as f32 }" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "4\n0.3\n"
    assert ran.dump == snapshot_txt


WIDE = """struct P<T, U> { v: T, w: U }

fn main() {
  let p = P::<i64, f32> { v: 3000000000, w: 1.5 };
  print(p.v + 1);
  let q: P<u64, i8> = P { v: 18446744073709551615, w: -128 };
  print(q.v);
  print(q.w);
}
"""


def test_a_literal_given_to_a_field_of_type_t_takes_the_type_the_arguments_give_t(tmp_path):
    ran = run_front(WIDE, type_generic_field_literals)
    assert not ran.diagnostics.items
    casts = [to_text(n).strip() for n in ran.nodes("Cast")]
    assert casts == ["3000000000 as i64", "1.5 as f32", "18446744073709551615 as u64",
                     "-128 as i8"]
    case = tmp_path / "wide.vx"
    case.write_text(WIDE)
    assert run_cli(case, "--action", "interpret") == (0, "3000000001\n"
                                                          "18446744073709551615\n-128\n", "")
    assert_native_as_interpreted(case)


def test_a_literal_the_argument_type_cannot_hold_is_refused_and_the_repair_admitted():
    text = "struct P<T> { v: T }\nfn main() {\n  let p = P::<u8> { v: 300 };\n  print(p.v);\n}\n"
    [d] = run_front(text, type_generic_field_literals).diagnostics.items
    assert (d.code, d.message) == ("E3008", "literal out of range for `u8`: `300` does not fit "
                                            "into `u8`, whose range is 0..=255")
    assert not run_front(text.replace("u8", "u16"), type_generic_field_literals).diagnostics.items


SCALARS = """struct Cell<T> { v: T }

fn bump(c: Cell<u8>) -> u8 { c.v + 10 }

fn main() {
  let c: Cell<f32> = Cell { v: 0.1 + 0.2 };
  print(c.v);
  print(bump(Cell { v: 250 }));
  let e = Cell::<i64> { v: -(1000000 * 10000) };
  print(e.v);
}
"""


def test_the_literals_a_scalar_argument_reaches_take_its_type_as_under_a_typed_let(tmp_path):
    # `0.1 + 0.2` is summed in f32, as `let x: f32 = 0.1 + 0.2;` is, and the parameter's u8
    # makes 250 one that wraps: native code then lowers `bump`, its field a u8.
    ran = run_front(SCALARS, type_generic_field_literals)
    assert not ran.diagnostics.items
    assert [to_text(n).strip() for n in ran.nodes("StructLit")] == \
        ["Cell { v: 0.1 as f32 + 0.2 as f32 }", "Cell { v: 250 as u8 }",
         "Cell::<i64> { v: -(1000000 as i64 * 10000 as i64) }"]
    case = tmp_path / "scalars.vx"
    case.write_text(SCALARS)
    assert run_cli(case, "--action", "interpret") == (0, "0.3\n4\n-10000000000\n", "")
    assert_native_as_interpreted(case)


@pytest.mark.parametrize("given", ["bump(Cell { v: 300 })", "bump(Cell { v: 200 + 300 })",
                                   "bump(Cell { v: -1 })"])
def test_an_integer_a_parameters_argument_cannot_hold_is_refused(given):
    text = f"struct Cell<T> {{ v: T }}\nfn bump(c: Cell<u8>) -> u8 {{ c.v }}\n" \
           f"fn main() {{\n  print({given});\n}}\n"
    [d] = run_front(text, type_generic_field_literals).diagnostics.items
    assert d.code == "E3008" and "`u8`" in d.message


def test_a_closures_return_is_not_its_functions():
    # The closure returns a `Cell` of an f64 sum: only `make`'s last value is a Cell<f32>.
    text = ("struct Cell<T> { v: T }\n\nfn make() -> Cell<f32> {\n"
            "  let g = |x: f64| {\n    return Cell { v: x + 0.1 };\n  };\n"
            "  print(g(0.5).v);\n  Cell { v: 0.1 + 0.2 }\n}\n\n"
            "fn main() {\n  print(make().v);\n}\n")
    ran = run_front(text, type_generic_field_literals)
    assert [to_text(n).strip() for n in ran.nodes("StructLit")] == \
        ["Cell { v: x + 0.1 }", "Cell { v: 0.1 as f32 + 0.2 as f32 }"]
    assert ran.prints() == ("0.6\n0.3\n", "0.6\n0.3\n")


def test_a_literal_passed_takes_the_generic_arguments_the_call_writes():
    # `px<i64>(P { .. })` of `fn px<T>(p: P<T>)` passes a P<i64>: 3000000000 an i64 (an i32
    # wraps to -1294967296), 250 + 10 u8s that wrap, 0.1 + 0.2 an f32 sum; the interpreter
    # hints them so before the pass and after monomorphize, and native code agrees.
    case = CASES / "written_generic_arguments.vx"
    ran = run_front(case, type_generic_field_literals)
    assert [to_text(n).strip() for n in ran.nodes("StructLit")] == \
        ["P { x: 3000000000 as i64, y: 3 as i64 }", "P { x: 250 as u8, y: 10 as u8 }",
         "P { x: 0.1 as f32 + 0.2 as f32, y: 1.0 as f32 }"]
    assert ran.prints() == ("3000000000\n4\n0.3\n",) * 2
    assert_prints_the_same(case, monomorphize)
    assert run_cli(case, "--action", "interpret") == (0, "3000000000\n4\n0.3\n", "")
    assert_native_as_interpreted(case)


def test_a_call_inside_a_generic_leaves_a_literal_its_own_parameter_types_erased():
    # `px<T>(..)` in `fn twice<T>`: T is the caller's, not known here, so the literal keeps
    # its fields as written; the instance for i64 gets the i64 `twice` was given.
    text = ("struct P<T> { x: T, y: T }\n\nfn px<T>(p: P<T>) -> T { p.x }\n\n"
            "fn twice<T>(v: T) -> T { px<T>(P { x: v, y: 1 }) + v }\n\n"
            "fn main() {\n  print(twice<i64>(3000000000));\n}\n")
    ran = run_front(text, type_generic_field_literals)
    assert not ran.diagnostics.items
    assert [to_text(n).strip() for n in ran.nodes("StructLit")] == ["P { x: v, y: 1 }"]
    assert ran.prints() == ("6000000000\n",) * 2


def test_a_tensor_literal_given_to_a_field_of_type_tensor_of_t_takes_its_elements_type(tmp_path):
    # E3012 before: `[1.0, 2.0]` made T an f64, and `k: 0.5` (an f32) then disagreed; the
    # i64 elements are past what an i32 holds.
    text = "struct Buf<T> { data: Tensor<T, [2]>, k: T }\nfn main() {\n" \
           "  let d: Buf<f32> = Buf { data: [1.0, 2.0], k: 0.5 };\n  print(d.data[1] + d.k);\n" \
           "  let e: Buf<i64> = Buf { data: [3000000000, -1], k: 2 };\n" \
           "  print(e.data[0] * e.k + e.data[1]);\n}\n"
    ran = run_front(text, type_generic_field_literals)
    assert not ran.diagnostics.items
    assert [to_text(n).strip() for n in ran.nodes("StructLit")] == \
        ["Buf { data: [1.0 as f32, 2.0 as f32], k: 0.5 as f32 }",
         "Buf { data: [3000000000 as i64, -1 as i64], k: 2 as i64 }"]
    case = tmp_path / "tensor_field.vx"
    case.write_text(text)
    assert run_cli(case, "--action", "interpret") == (0, "2.5\n5999999999\n", "")
    assert_native_as_interpreted(case)
