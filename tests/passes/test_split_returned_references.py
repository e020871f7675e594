"""split-returned-references: a function returning a `&mut` to a struct or tuple, choosing
among places of its `&mut` parameters, is a function per scalar part, each returning the
`&mut` to that part, and each part of what a call returns read or written calls the part's
function; the program prints what it printed, and native code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.split_returned_references import split_returned_references
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "split_returned_references"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", split_returned_references)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", split_returned_references)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_program_returning_no_reference_to_an_aggregate_comes_out_as_it_went_in():
    ran = run_front("fn f(a: &mut i32) -> &mut i32 { a }\nfn main() { let mut x = 1; "
                    "*f(&mut x) = 2; print(x); }\n", split_returned_references)
    assert ran.after is ran.before


def test_each_part_is_a_function_of_its_own():
    ran = run_front(CASES / "references_returned.vx", split_returned_references)
    fns = {i.name: to_text(i) for i in ran.after.items if i._prod == "Fn"}
    assert "-> &mut i32" in fns["pick$x"] and "&mut p.a.x" in fns["pick$x"]
    assert "&mut p.b.y" in fns["pick$y"]
    assert "pick" not in fns


def test_a_part_no_call_reads_or_writes_has_no_function():
    ran = run_front(CASES / "mut_reference_returned.vx", split_returned_references)
    fns = {i.name: to_text(i) for i in ran.after.items if i._prod == "Fn"}
    assert sorted(fns) == ["main", "pick$x"]
    assert "*@pick$x(&mut q, false) = 5;" in fns["main"] and "let r" not in fns["main"]


def test_a_reference_returned_used_whole_or_by_arguments_that_change_stays():
    for source in ["let mut f = false;\n  let r = pick(&mut q, f);\n  f = true;\n  r.x = 5;",
                   "let r = pick(&mut q, true);\n  shift(r, 1);",
                   "let r = pick(&mut q, true);\n  *r = Point { x: 1, y: 2 };",
                   "let r = pick(&mut q, true);\n  shift(&mut *r, 1);"]:
        ran = run_front(f"""struct Point {{ x: i32, y: i32 }}
struct Pair {{ a: Point, b: Point }}
fn pick(p: &mut Pair, first: bool) -> &mut Point {{ if first {{ &mut p.a }} else {{ &mut p.b }} }}
fn shift(p: &mut Point, d: i32) {{ p.x += d; }}
fn main() {{
  let mut q = Pair {{ a: Point {{ x: 1, y: 2 }}, b: Point {{ x: 3, y: 4 }} }};
  {source}
  print(q);
}}
""", split_returned_references)
        assert ran.after is ran.before, source


# Hand-written Lmatched: functions returning a `&mut` to an aggregate that are no choice
# among places of their parameters alone: one printing first, one choosing by what its
# reference parameter holds (a write through the result would change the choice made again).
NO_CHOICE = """
    // IL: Lmatched
    struct Point {
        x: i32,
        y: i32,
    }

    struct Pair {
        a: Point,
        b: Point,
    }

    fn loud(p: &mut Pair) -> &mut Point {
        @print(1);
        &mut p.a
    }

    fn bigger(p: &mut Pair) -> &mut Point {
        if p.a.x > p.b.x {
            &mut p.a
        } else {
            &mut p.b
        }
    }

    fn main() {
        let mut q: Pair = Pair { a: Point { x: 1, y: 2 }, b: Point { x: 3, y: 4 } };
        (*@loud(&mut q)).y = 5;
        (*@bigger(&mut q)).x = 0;
        @print(q.a.y + q.b.x);
    }
"""


def test_handwritten_a_function_not_only_choosing_a_place_stays(run_pass):
    ran = run_pass("split-returned-references", NO_CHOICE)
    assert ran.codes == [] and ran.tree is ran.before
    assert _printed(ran.before) == "1\n5\n"
