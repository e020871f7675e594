"""desugar-tuple-lets: `let (a, b) = e;` is one `let` of e and one per element; the program
prints what it printed."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.desugar_tuple_lets import desugar_tuple_lets
from front import _printed, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "desugar_tuple_lets"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", desugar_tuple_lets)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"desugar-tuple-lets: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", desugar_tuple_lets)


def test_the_tuple_gets_a_name_the_function_does_not_use():
    ran = run_front(CASES / "unpack.vx", desugar_tuple_lets)
    assert not list(ran.nodes("LetTuple"))
    main = next(i for i in ran.after.items if i.name == "main")
    names = [s.name for s in main.body.stmts if s._prod == "Let"]
    # `tuple` is the program's own variable: the second unpacking takes the next name.
    assert names[:3] == ["tuple_1", "q", "r"] and "tuple_2" in names and "tuple" in names


def test_each_element_is_read_from_the_tuple_in_order():
    ran = run_front("fn main() {\n  let (a, b, c) = (1, 2, 3);\n  print(a + b * c);\n}\n",
                    desugar_tuple_lets)
    lets = ran.after.items[0].body.stmts[:4]
    assert [(s.name, getattr(s.value, "index", None)) for s in lets] == \
        [("tuple", None), ("a", 0), ("b", 1), ("c", 2)]


def test_handwritten_no_names(run_pass, snapshot_txt):
    # `let () = e;`, a LetTuple binding no name: the parser wants one (E1001). e is still
    # evaluated once, into `tuple`, and nothing else is bound.
    ran = run_pass("desugar-tuple-lets", """
        // IL: Lwhile
        fn main() {
            let () = (1, 2);
            print(3);
        }
    """)
    assert ran.codes == []
    assert _printed(ran.tree) == "3\n"
    assert ran.dump == snapshot_txt
