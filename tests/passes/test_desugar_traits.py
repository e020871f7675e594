"""desugar-traits: an impl of a trait becomes an impl of its type with the trait's defaults,
a struct says whether it is Copy, and the traits go; the program prints what it printed."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.desugar_traits import desugar_traits
from front import assert_prints_the_same, assert_refused_then_repaired, run_front

CASES = Path(__file__).parent / "cases" / "desugar_traits"
SHAPES = ["shapes", "generic", "through_a_parameter"]
REFUSED = [
    ("unknown_trait", "E2001", "there is no trait named 'Copy' to implement"),
    ("missing_method", "E3037", "the impl of 'Area' for 'Square' lacks the method 'perimeter'"),
    ("not_a_method", "E3037", "'side' is not a method of the trait 'Area'"),
    ("copy_tensor", "E3031",
     "the struct 'Tile' is Copy, but its field 'data' holds a tensor, which moves"),
    ("copy_enum_tensor", "E3031",
     "the enum 'Slot' is Copy, but its variant 'Full' carries a tensor, which moves"),
    ("copy_of_a_moving_struct", "E3031",
     "its field 'inner' holds the struct 'Inner', not Copy, which moves"),
]


@pytest.mark.parametrize("case", SHAPES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", desugar_traits)
    assert not ran.diagnostics.items
    assert not list(ran.nodes("Trait")) and not list(ran.nodes("ImplFor"))
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"desugar-traits: {case}") == snapshot_dot


@pytest.mark.parametrize("case", SHAPES + [c for c, _, _ in REFUSED])
def test_the_output_prints_what_the_input_printed(case):
    name = case if case in SHAPES else f"{case}_repaired"
    assert_prints_the_same(CASES / f"{name}.vx", desugar_traits)


@pytest.mark.parametrize("case, code, says", REFUSED)
def test_refused_then_repaired(case, code, says):
    assert_refused_then_repaired(CASES / f"{case}.vx", desugar_traits, code, says)


def test_an_impl_holds_its_own_methods_then_the_defaults_it_leaves():
    ran = run_front(CASES / "shapes.vx", desugar_traits)
    impls = {(i.type.name, tuple(f.name for f in i.fns)) for i in ran.nodes("Impl")}
    assert impls == {("Square", ("area", "twice")), ("Rect", ("area", "twice"))}
    [rect] = [i for i in ran.nodes("Impl") if i.type.name == "Rect"]
    assert "r.w * r.h + r.w * r.h" in to_text(rect.fns[1])  # its own, not the default


def test_only_the_structs_that_implement_copy_are_marked():
    ran = run_front(CASES / "shapes.vx", desugar_traits)
    assert {s.name: s.copy for s in ran.nodes("StructDecl")} == {"Square": True,
                                                                 "Rect": False}


def test_a_marker_impl_leaves_no_impl_block():
    ran = run_front(CASES / "unknown_trait_repaired.vx", desugar_traits)
    assert not list(ran.nodes("Impl"))


def test_handwritten_default_method_of_an_enum(run_pass):
    ran = run_pass("desugar-traits", """
        // IL: Lhoisted
        trait Named {
            fn code(x: Self) -> i32;
            fn twice(x: Self) -> i32 {
                2 * Self::code(x)
            }
        }
        enum Dir {
            Up,
            Down,
        }
        impl Named for Dir {
            fn code(x: Self) -> i32 {
                1
            }
        }
        fn main() {
            print(Dir::twice(Dir::Up));
        }
    """)
    assert ran.codes == []
    assert "trait Named" not in ran.dump and "impl Dir {" in ran.dump and "fn twice" in ran.dump
