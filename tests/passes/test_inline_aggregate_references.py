"""inline-aggregate-references: a local holding a reference to a place of an aggregate is gone,
each use of it the place (or the reference to it, passed on); a reference made to refer
elsewhere, or to what is no place, stays; the program prints what it printed, and native code
prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.inline_aggregate_references import inline_aggregate_references
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "inline_aggregate_references"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", inline_aggregate_references)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", inline_aggregate_references)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_program_without_references_to_aggregates_comes_out_as_it_went_in():
    ran = run_front("struct P { x: i32 }\nfn main() { let r = &5; print(*r); "
                    "print(P { x: 1 }); }\n", inline_aggregate_references)
    assert ran.after is ran.before


def test_a_reference_held_is_the_place_it_names():
    ran = run_front(CASES / "held_references.vx", inline_aggregate_references)
    fns = {i.name: to_text(i) for i in ran.after.items if i._prod == "Fn"}
    assert "a.y = 0;" in fns["main"] and "@shift(&mut a, 2);" in fns["main"]
    assert "s.from = Point { x: s.from.y, y: 7 };" in fns["main"]  # `*f = ..`, f = &mut s.from
    assert "s.to.x + s.from.y + k" in fns["main"]  # the closure reads through w = v = &s
    # `let q = s; let end = &mut q.to;`, s a `&mut Segment` parameter: `end` names s.to.
    assert "@shift(&mut s.to, 1);" in fns["flip"] and "let" not in fns["flip"]


def test_a_reference_made_to_refer_elsewhere_or_to_no_place_stays():
    for case, kept in [("reference_made_to_refer_elsewhere", "let mut r"),
                       ("chosen_references", "let r")]:
        ran = run_front(CASES / f"{case}.vx", inline_aggregate_references)
        assert ran.after is ran.before and kept in to_text(ran.after)


# Hand-written Lmatched: a reference a `let` holds that is itself lent (`&r`), and one to a
# reference variable (`rr = &r`): neither names one place of the aggregate, so both stay;
# the reference `q`, held from the parameter p, is inlined, in r's value too.
LENT = """
    // IL: Lmatched
    struct Point {
        x: i32,
        y: i32,
    }

    fn norm(p: &Point) -> i32 {
        let q: &Point = p;
        let r: &Point = &(*q);
        let rr: &&Point = &r;
        q.x + (*rr).y
    }

    fn main() {
        let a: Point = Point { x: 1, y: 2 };
        @print(@norm(&a));
    }
"""


def test_handwritten_a_reference_lent_stays(run_pass):
    ran = run_pass("inline-aggregate-references", LENT)
    assert ran.codes == []
    norm = to_text(ran.tree.items[1])
    assert "let q" not in norm and "let r: &Point = &(*p);" in norm
    assert "let rr: &&Point = &r;" in norm and "p.x + (*rr).y" in norm
    assert _printed(ran.before) == _printed(ran.tree) == "3\n"
