"""erase-struct-arguments: a generic struct's arguments are erased (`Pair<f32, 4>` is `Pair`,
`Pair::<f32, 4> { .. }` builds a `Pair`); the declaration keeps its parameters for
monomorphize to drop; the program prints what it printed."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.languages import Lerased
from nano_vx.nanopass import descendants
from nano_vx.resume.read import read_dump
from nano_vx.passes.erase_struct_arguments import erase_struct_arguments
from nano_vx.passes.monomorphize import monomorphize
from front import _printed, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "erase_struct_arguments"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", erase_struct_arguments)
    assert not ran.diagnostics.items
    # Only a generic function's parameter keeps a struct applied (to its own parameters).
    kept = {id(n) for f in ran.after.items if f._prod == "Fn" and f.generics
            for p in f.params if p.type is not None
            for n in descendants(p.type) if n._prod == "AppliedType"}
    assert all(id(n) in kept for n in ran.nodes("AppliedType"))
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


def test_a_generic_functions_parameter_keeps_the_arguments_naming_its_parameters():
    text = ("struct Point { x: f32, y: f32 }\n\nstruct Pair<A, B> { a: A, b: B }\n\n"
            "fn f<T>(p: Pair<T, i32>, q: Pair<f32, i32>, r: &Pair<Pair<T, f32>, i32>) -> "
            "Pair<T, i32> {\n  p\n}\n\n"
            "fn g(p: Pair<f32, i32>) -> i32 { p.b }\n\n"
            "fn main() {\n  let p = Pair { a: Point { x: 1.0, y: 2.0 }, b: 1 };\n"
            "  print(g(Pair { a: 1.5, b: 2 }));\n}\n")
    ran = run_front(text, erase_struct_arguments)
    assert "fn f<T>(p: Pair<T, i32>, q: Pair, r: &Pair<Pair<T, f32>, i32>) -> Pair {" \
        in to_text(ran.after)
    assert "fn g(p: Pair) -> i32 {" in to_text(ran.after)
    # What it keeps reads back from the dump.
    dumped = to_text(ran.after, Lerased)
    assert to_text(read_dump(dumped)[1], Lerased) == dumped


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
