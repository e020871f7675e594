"""return-assigned-references: a closure a `let` binds and only calls in statements, that
assigns a reference variable it captures, takes the variable's value and gives back what it
ends with, each call's statement assigning it; native code runs each case as the interpreter
does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.return_assigned_references import return_assigned_references
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "return_assigned_references"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", return_assigned_references)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_no_closure_assigns_a_reference_it_captures(case):
    ran = run_front(CASES / f"{case}.vx", return_assigned_references)
    references = {n.name for n in ran.nodes("Let") if n.type._prod == "BorrowType"}
    for closure in ran.nodes("Closure"):
        own = {n.name for n in descendants(closure) if n._prod in ("Let", "Param")}
        assert not [n.target.name for n in descendants(closure.body) if n._prod == "Assign"
                    and n.target._prod == "Local" and n.target.name not in own
                    and n.target.name in references]


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", return_assigned_references)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


# Hand-written Lassumed: a closure assigning a reference it captures, called in a statement
# (it gives the reference back), one whose value is used and one assigning two references
# (both stay).
HANDWRITTEN = """
    // IL: Lassumed
    fn main() {
        let x: i32 = 5;
        let y: i32 = 9;
        let mut r: &i32 = &x;
        let mut s: &i32 = &x;
        let point: _ = |k: i32| {
            @print(*r + k);
            r = &y;
        };
        let valued: _ = || {
            s = &y;
            3
        };
        let both: _ = || {
            r = &x;
            s = &x;
        };
        point(1);
        @print(*r + valued());
        both();
        @print(*r + *s);
    }
"""


def test_handwritten_a_closure_assigning_a_reference_gives_it_back(run_pass, snapshot_txt):
    ran = run_pass("return-assigned-references", HANDWRITTEN)
    assert ran.codes == []
    assert "let point: _ = |k: i32, r#1: &i32| {\n        let mut r#2: &i32 = r#1;\n" \
        "        @print(*r#2 + k);\n        r#2 = &y;\n        r#2\n    };" in ran.dump
    assert "r = point(1, r);" in ran.dump
    assert "    let valued: _ = || {\n        s = &y;" in ran.dump and "    both();" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "6\n12\n10\n"
    assert ran.dump == snapshot_txt
