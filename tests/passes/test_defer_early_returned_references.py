"""defer-early-returned-references: a function returning a `&mut` to a struct or tuple early,
from an `if` statement, returns it at its end from an `if` value on the same condition, after
the statements; the program prints what it printed, and native code runs it as the
interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.defer_early_returned_references import defer_early_returned_references
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "defer_early_returned_references"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", defer_early_returned_references)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", defer_early_returned_references)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_no_function_returning_a_reference_returns_early_any_more():
    for case in NAMES:
        after = run_front(CASES / f"{case}.vx", defer_early_returned_references).after
        assert not [n for n in descendants(after) if n._prod == "Return"], case


def test_what_followed_the_if_goes_into_its_else():
    early = to_text(run_front(CASES / "returning_early_beside_an_else.vx",
                              defer_early_returned_references).after.items[3])
    assert early.endswith("    if first {\n        @print(1);\n    } else {\n        @print(2);\n"
                          "        @print(3);\n    }\n    if first {\n        &mut p.a\n"
                          "    } else {\n        &mut p.b\n    }\n}\n")


# A condition the statements may change (one after a `let` its arm reads, which
# give-early-return-conditions leaves), a second `return`, or a returned value reading a
# local its arm binds: the function is left as it is.
@pytest.mark.parametrize("body", [
    "let d = 0; if p.a.x / 2 > 0 { p.a.x = d; return &mut p.a; } &mut p.b",
    "if first { return &mut p.a; } if !first { return &mut p.b; } &mut p.a",
    "if first { let q = p; return &mut q.a; } &mut p.b",
])
def test_a_function_whose_return_cannot_wait_is_left_as_it_is(body):
    ran = run_front("struct Point { x: i32, y: i32 }\nstruct Pair { a: Point, b: Point }\n"
                    f"fn early(p: &mut Pair, first: bool) -> &mut Point {{ {body} }}\n"
                    "fn main() {\n  let mut q = Pair { a: Point { x: 1, y: 2 }, "
                    "b: Point { x: 3, y: 4 } };\n  {\n    let r = early(&mut q, true);\n"
                    "    r.x = 5;\n  }\n  print(q);\n}\n", defer_early_returned_references)
    assert ran.after is ran.before


# Hand-written Lmatched: a tuple, the `return` alone in its arm and nothing after the `if`:
# no statement is left, only the choice.
HANDWRITTEN = """
// IL: Lmatched
fn pick(t: &mut (i32, i32), second: bool) -> &mut i32 {
    if second {
        return &mut t.1;
    }
    &mut t.0
}

fn main() {
    let mut t: (i32, i32) = (1, 2);
    let r: &mut i32 = @pick(&mut t, true);
    *r = 7;
    @print(t);
}
"""


def test_handwritten_a_return_alone_leaves_only_the_choice(run_pass, snapshot_txt):
    ran = run_pass("defer-early-returned-references", HANDWRITTEN)
    assert ran.codes == []
    assert "fn pick(t: &mut (i32, i32), second: bool) -> &mut i32 {\n    if second {\n" \
           "        &mut t.1\n    } else {\n        &mut t.0\n    }\n}" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "(1, 7)\n"
    assert ran.dump == snapshot_txt
