"""erase-struct-arguments: a generic struct's arguments are erased (`Pair<f32, 4>` is `Pair`,
`Pair::<f32, 4> { .. }` builds a `Pair`); the declaration keeps its parameters for
monomorphize to drop; the program prints what it printed."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.erase_struct_arguments import erase_struct_arguments
from nano_vx.passes.monomorphize import monomorphize
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same, run_cli,
                   run_front)

CASES = Path(__file__).parent / "cases" / "erase_struct_arguments"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", erase_struct_arguments)
    assert not ran.diagnostics.items
    assert not list(ran.nodes("AppliedType"))
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"erase-struct-arguments: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", erase_struct_arguments)


def test_a_generic_struct_written_in_a_signature_or_a_let_is_the_struct_erased():
    text = ("struct Pair<T, const N: i32> { a: T, b: Tensor<f32, [N]> }\n\n"
            "fn first(p: Pair<f32, 2>) -> f32 { p.a }\n\n"
            "fn make() -> Pair<f32, 2> { Pair { a: 2.5, b: Tensor<f32, [2]>::new() } }\n\n"
            "fn main() {\n  let q: Pair<f32, 2> = make();\n  print(first(q));\n}\n")
    ran = run_front(text, erase_struct_arguments)
    # The field `a: T` keeps its parameter's name: erased, it takes any value.
    assert [to_text(n).strip() for n in ran.nodes("NamedType")] == ["T", "Pair", "Pair", "Pair"]
    assert [g.name for g in ran.after.items[0].generics] == ["T", "N"]
    assert ran.prints() == ("2.5\n", "2.5\n")


def test_calls_with_a_struct_written_or_returned_ask_for_one_instance():
    ran = run_front(CASES / "pair.vx", monomorphize)
    assert [i.name for i in ran.after.items if i._prod == "Fn"] == ["first", "make", "same$Pair",
                                                                    "main"]
    assert ran.after.items[0].name == "Pair" and not hasattr(ran.after.items[0], "generics")


def test_handwritten_a_struct_applied_to_itself_inside_a_tuple(run_pass, snapshot_txt):
    # An application nested in another's arguments, in a tuple type and in literals: the
    # outer one erased whole, the inner literal erased on its own.
    ran = run_pass("erase-struct-arguments", """
        // IL: Lresolved
        struct Cell<T> {
            v: T,
        }

        fn get(c: (Cell<Cell<i32>>, i32)) -> i32 {
            c.0.v.v + c.1
        }

        fn main() {
            let c = Cell::<Cell<i32>> { v: Cell::<i32> { v: 41 } };
            @print(@get((c, 1)));
        }
    """)
    assert ran.codes == []
    assert "fn get(c: (Cell, i32)) -> i32 {" in ran.text
    # T of the inner is i32, which an unsuffixed integer is already: no cast.
    assert "let c = Cell { v: Cell { v: 41 } };" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "42\n"
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
    ran = run_front(WIDE, erase_struct_arguments)
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
    [d] = run_front(text, erase_struct_arguments).diagnostics.items
    assert (d.code, d.message) == ("E3008", "literal out of range for `u8`: `300` does not fit "
                                            "into `u8`, whose range is 0..=255")
    assert not run_front(text.replace("u8", "u16"), erase_struct_arguments).diagnostics.items


def test_a_struct_applied_to_aggregates_is_an_instance_and_its_literals_take_it():
    ran = run_front(CASES / "instances.vx", erase_struct_arguments)
    structs = [i.name for i in ran.after.items if i._prod == "StructDecl"]
    assert structs == ["Point", "Cell", "Cell$Point", "Two",
                       "Two$Tensor<i32,[2]>$(i32,Point)"]
    # The literal's own field, the local its field reads and the parameter each say Point.
    assert [n.name for n in ran.nodes("StructLit")] == \
        ["Cell$Point", "Point", "Point", "Cell$Point", "Two$Tensor<i32,[2]>$(i32,Point)",
         "Point", "Cell"]
    assert ran.prints() == ("3\n7\n18\nCell { v: 8 }\n",) * 2


def test_handwritten_an_instance_holding_an_instance(run_pass, snapshot_txt):
    # An instance made while another's fields are walked comes before it, after its generic;
    # an argument that is a generic struct erased (`Cell<Cell<i32>>`'s) leaves it erased.
    ran = run_pass("erase-struct-arguments", """
        // IL: Lresolved
        struct Point {
            x: i32,
            y: i32,
        }

        struct Cell<T> {
            v: T,
        }

        struct Pair<T> {
            a: Cell<T>,
            b: T,
        }

        fn get(p: Pair<Point>) -> i32 {
            p.a.v.x + p.b.y
        }

        fn main() {
            let c: Cell<Cell<i32>> = Cell { v: Cell { v: 1 } };
            @print(@get(Pair { a: Cell { v: Point { x: 1, y: 2 } }, b: Point { x: 3, y: 4 } }));
        }
    """)
    assert ran.codes == []
    assert [i.name for i in ran.tree.items if i._prod == "StructDecl"] == \
        ["Point", "Cell", "Cell$Point", "Pair", "Pair$Point"]
    # The inner literal takes `Cell<i32>`'s argument from the `let`: its 1 is an i32's, as
    # an unsuffixed integer is.
    assert "let c: Cell = Cell { v: Cell { v: 1 } };" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "5\n"
    assert ran.dump == snapshot_txt


def test_a_literal_whose_field_a_call_gives_takes_the_struct_it_returns():
    text = ("struct Point { x: i32, y: i32 }\nstruct Cell<T> { v: T }\n\n"
            "fn make() -> Point { Point { x: 1, y: 2 } }\n\n"
            "fn main() {\n  let c = Cell { v: make() };\n  let n = Cell { v: 3 };\n"
            "  print(c.v.y + n.v);\n}\n")
    ran = run_front(text, erase_struct_arguments)
    assert [n.name for n in ran.nodes("StructLit")] == ["Point", "Cell$Point", "Cell"]
    assert ran.prints() == ("5\n", "5\n")


def test_an_instance_keeping_an_argument_erased_fits_a_written_one_and_reads_back(run_pass):
    # `Two { a: 1.5, b: Point { .. } }` gives B alone: `Two$_$Point`, its field `a: A` of any
    # type, which `sum`'s `Two$f64$Point` takes; its dump reads back as the pass wrote it.
    case = CASES / "../scalarize_aggregates/scalar_beside_aggregate.vx"
    ran = run_front(case, erase_struct_arguments)
    structs = {i.name: i for i in ran.after.items if i._prod == "StructDecl"}
    assert [(f.name, to_text(f.type).strip()) for f in structs["Two$_$Point"].fields] == \
        [("a", "A"), ("b", "Point")]
    assert not structs["Two$_$Point"].generics
    again = run_pass("monomorphize", "// IL: Lerased\n" + to_text(ran.after))
    assert again.codes == []
    assert _printed(again.tree) == ran.prints()[0]


@pytest.mark.parametrize("case", NAMES)
def test_the_output_reads_back(case, run_pass):
    # Instance names hold their arguments: `Two$Tensor<i32,[2]>$(i32,Point)`, `Buf$Point$_`.
    ran = run_front(CASES / f"{case}.vx", erase_struct_arguments)
    again = run_pass("monomorphize", "// IL: Lerased\n" + to_text(ran.after))
    assert again.codes == []
    assert _printed(again.tree) == ran.prints()[0]


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
    ran = run_front(SCALARS, erase_struct_arguments)
    assert not ran.diagnostics.items
    assert [to_text(n).strip() for n in ran.nodes("StructLit")] == \
        ["Cell { v: 0.1 as f32 + 0.2 as f32 }", "Cell { v: 250 as u8 }",
         "Cell { v: -(1000000 as i64 * 10000 as i64) }"]
    case = tmp_path / "scalars.vx"
    case.write_text(SCALARS)
    assert run_cli(case, "--action", "interpret") == (0, "0.3\n4\n-10000000000\n", "")
    assert_native_as_interpreted(case)


@pytest.mark.parametrize("given", ["bump(Cell { v: 300 })", "bump(Cell { v: 200 + 300 })",
                                   "bump(Cell { v: -1 })"])
def test_an_integer_a_parameters_argument_cannot_hold_is_refused(given):
    text = f"struct Cell<T> {{ v: T }}\nfn bump(c: Cell<u8>) -> u8 {{ c.v }}\n" \
           f"fn main() {{\n  print({given});\n}}\n"
    [d] = run_front(text, erase_struct_arguments).diagnostics.items
    assert d.code == "E3008" and "`u8`" in d.message


def test_a_closures_return_is_not_its_functions():
    # The closure returns a `Cell` of an f64 sum: only `make`'s last value is a Cell<f32>.
    text = ("struct Cell<T> { v: T }\n\nfn make() -> Cell<f32> {\n"
            "  let g = |x: f64| {\n    return Cell { v: x + 0.1 };\n  };\n"
            "  print(g(0.5).v);\n  Cell { v: 0.1 + 0.2 }\n}\n\n"
            "fn main() {\n  print(make().v);\n}\n")
    ran = run_front(text, erase_struct_arguments)
    assert [to_text(n).strip() for n in ran.nodes("StructLit")] == \
        ["Cell { v: x + 0.1 }", "Cell { v: 0.1 as f32 + 0.2 as f32 }"]
    assert ran.prints() == ("0.6\n0.3\n", "0.6\n0.3\n")


def test_a_literal_passed_takes_the_generic_arguments_the_call_writes():
    # `px<i64>(P { .. })` of `fn px<T>(p: P<T>)` passes a P<i64>: 3000000000 an i64 (an i32
    # wraps to -1294967296), 250 + 10 u8s that wrap, 0.1 + 0.2 an f32 sum; the interpreter
    # hints them so before the pass and after monomorphize, and native code agrees.
    case = CASES / "written_generic_arguments.vx"
    ran = run_front(case, erase_struct_arguments)
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
    ran = run_front(text, erase_struct_arguments)
    assert not ran.diagnostics.items
    assert [to_text(n).strip() for n in ran.nodes("StructLit")] == ["P { x: v, y: 1 }"]
    assert ran.prints() == ("6000000000\n",) * 2
