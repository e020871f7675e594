"""flatten-impl-blocks: each function of an impl block becomes the top-level function
`Type::f`, the impl's generic parameters first and `Self` written out; the program prints what
it printed."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.flatten_impl_blocks import flatten_impl_blocks
from front import assert_prints_the_same, assert_refused_then_repaired, run_front

CASES = Path(__file__).parent / "cases" / "flatten_impl_blocks"
SHAPES = ["whole_example", "nested", "const_generic"]
REFUSED = [
    ("unknown_type", "E2001", "there is no struct or enum named 'Pont' to implement"),
    ("scalar_type", "E2001", "an impl block names a struct or an enum of the program"),
    ("reordered_parameters", "E3047",
     "the impl's type must name its generic parameters in order: `Two<A, B>`"),
    ("declared_twice", "E2008", "the function 'P::make' is declared twice"),
    ("several_impls", "E3035", "the function 'P::make' is defined by two impl blocks of 'P'"),
    ("two_traits", "E3035", "the function 'Dial::reset' is defined by two impl blocks of "
                            "'Dial'"),
]


@pytest.mark.parametrize("case", SHAPES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", flatten_impl_blocks)
    assert not ran.diagnostics.items
    assert not list(ran.nodes("Impl"))
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"flatten-impl-blocks: {case}") == snapshot_dot


@pytest.mark.parametrize("case", SHAPES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", flatten_impl_blocks)


@pytest.mark.parametrize("case, code, says", REFUSED)
def test_refused_then_repaired(case, code, says):
    assert_refused_then_repaired(CASES / f"{case}.vx", flatten_impl_blocks, code, says)


def test_the_impls_parameters_come_before_the_functions_own():
    ran = run_front("struct W<T> { a: T }\n"
                    "impl<T> W<T> {\n  fn pick<const N: i32>(w: Self) -> T { w.a }\n}\n"
                    "fn main() {\n  print(W<i32>::pick<2>(W { a: 1 }));\n}\n",
                    flatten_impl_blocks)
    [fn] = [i for i in ran.after.items if i._prod == "Fn" and i.name == "W::pick"]
    assert [g.name for g in fn.generics] == ["T", "N"]
    assert to_text(fn.params[0].type) == "W<T>\n"


def test_self_outside_an_impl_block_is_left_for_the_type_checks():
    ran = run_front("fn f(x: Self) -> i32 { 0 }\nfn main() {\n  print(1);\n}\n",
                    flatten_impl_blocks)
    [fn] = [i for i in ran.after.items if i.name == "f"]
    assert fn.params[0].type._prod == "NamedType" and fn.params[0].type.name == "Self"


def test_handwritten_const_in_an_impl(run_pass, snapshot_txt):
    # An impl block holding a const: Ltraitless's Impl holds any item, the parser reads only
    # functions there (E1001). The const is refused as the parser refuses it, and dropped.
    ran = run_pass("flatten-impl-blocks", """
        // IL: Ltraitless
        struct S {}
        impl S {
            const N: i32 = 3;
            fn f() -> i32 {
                1
            }
        }
        fn main() {
            print(S::f());
        }
    """)
    assert ran.codes == ["E1001"]
    assert ran.dump == snapshot_txt
