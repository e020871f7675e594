"""resolve-type-paths: `A::b(..)` is a call of the function `A::b` when an impl block
declares one, else the variant `A::b` with what it carries; the program prints what it
printed."""

from pathlib import Path

import pytest

from nano_vx.cli import main as cli_main
from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.resolve_type_paths import resolve_type_paths
from front import _printed, assert_prints_the_same, assert_refused_then_repaired, run_front

CASES = Path(__file__).parent / "cases" / "resolve_type_paths"


def test_output(snapshot_txt, snapshot_dot):
    ran = run_front(CASES / "paths.vx", resolve_type_paths)
    assert not ran.diagnostics.items
    assert not list(ran.nodes("PathCall"))
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title="resolve-type-paths: paths") == snapshot_dot


def test_the_output_prints_what_the_input_printed():
    assert_prints_the_same(CASES / "paths.vx", resolve_type_paths)


def test_calls_and_variants_are_told_apart_by_the_program_not_the_syntax():
    ran = run_front(CASES / "paths.vx", resolve_type_paths)
    calls = {n.callee.name: len(n.targs) for n in ran.nodes("Call") if "::" in n.callee.name}
    assert calls == {"Pair::new": 1, "Shape::square": 0}
    variants = sorted((n.variant, len(n.args)) for n in ran.nodes("EnumValue"))
    assert variants == [("Circle", 1), ("Dot", 0), ("Dot", 0), ("Rect", 2)]


def test_generic_arguments_on_a_variant_are_refused_then_repaired():
    assert_refused_then_repaired(
        CASES / "variant_with_arguments.vx", resolve_type_paths, "E3047",
        "'Shape' takes no generic arguments here: no impl block of it declares a function "
        "'Circle'")


@pytest.mark.parametrize("program, note", [
    ("struct P { x: i32 }\nimpl P { fn o() -> P { P { x: 0 } } }\n"
     "fn main() {\n  let f = P::o;\n}\n",
     "`P::o` is a function of `impl P`, and nano-vx has no function values"),
    ("struct P { x: i32 }\nfn main() {\n  let f = P::o();\n}\n",
     "'P' is not an enum, and no impl block of it declares a function 'o'"),
    ("fn f<H>(h: H) -> i32 {\n  let g = H::width;\n  0\n}\nfn main() {\n  print(f(1));\n}\n",
     "'H' is a generic parameter: `H::width` is a function of what it is in each call, "
     "not a value"),
])
def test_a_path_that_names_no_variant_says_what_it_names(tmp_path, capsys, program, note):
    path = tmp_path / "path.vx"
    path.write_text(program)
    assert cli_main([str(path), "--action", "check"]) == 1
    err = capsys.readouterr().err
    assert "error[E2003]" in err and note in err


def test_a_functions_own_arguments_come_after_its_types():
    program = ("struct W<T> { a: T }\nimpl<T> W<T> {\n"
               "  fn pick<const N: i32>(w: Self) -> T { w.a }\n}\n"
               "fn main() {\n  print(W<i32>::pick<2>(W { a: 1 }));\n}\n")
    ran = run_front(program, resolve_type_paths)
    [call] = [n for n in ran.nodes("Call") if n.callee.name == "W::pick"]
    assert to_text(call) == "<W>::pick<i32, 2>(W { a: 1 })\n"
    alone = run_front(program.replace("W<i32>::pick<2>", "W::pick<2>"), resolve_type_paths)
    [diag] = alone.diagnostics.items
    assert diag.code == "E3047" and "not those of 'W', which come first" in diag.message


def test_handwritten_function_named_through_no_type(run_pass, snapshot_txt):
    # `fn S::f` with no struct S: only flatten-impl-blocks makes such a name, from an impl of
    # a declared type (E2001 otherwise). The function exists, so `S::f()` is its call.
    ran = run_pass("resolve-type-paths", """
        // IL: Lflat
        fn S::f() -> i32 {
            7
        }
        fn main() {
            print(S::f());
        }
    """)
    assert ran.codes == []
    assert _printed(ran.tree) == "7\n"
    assert ran.dump == snapshot_txt


def test_a_path_through_a_type_parameter_is_a_call_of_its_function():
    program = ("struct S { v: i32 }\nimpl S {\n  fn get(s: Self) -> i32 { s.v }\n}\n"
               "fn read<T>(x: T) -> i32 { T::get(x) }\n"
               "fn main() {\n  print(read(S { v: 4 }));\n}\n")
    ran = run_front(program, resolve_type_paths)
    assert not ran.diagnostics.items
    [call] = [n for n in ran.nodes("Call") if n.callee.name == "T::get"]
    assert not list(ran.nodes("EnumValue"))
