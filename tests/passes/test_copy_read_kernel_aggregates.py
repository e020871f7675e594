"""copy-read-kernel-aggregates: a kernel's shared reference to the whole struct or tuple
its launch lends it is a reference to a copy made of its fields before the statement, so
that split-kernel-aggregates gives the kernel the fields; one changed in the statement that
lends it is left, which scalarize-aggregates refuses."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.copy_read_kernel_aggregates import copy_read_kernel_aggregates
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same, run_cli,
                   run_front)

CASES = Path(__file__).parent / "cases" / "copy_read_kernel_aggregates"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", copy_read_kernel_aggregates)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", copy_read_kernel_aggregates)


@pytest.mark.parametrize("case", NAMES)
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_statement_lending_the_whole_reads_a_copy_of_its_fields():
    text = to_text(run_front(CASES / "lent_whole.vx", copy_read_kernel_aggregates).after)
    copy = ": P = P { x: (*p).x, q: Q { a: (*p).q.a, b: ((*p).q.b.0, (*p).q.b.1) }, " \
        "t: (*p).t };\n"
    assert text.count(copy) == 4
    # One copy of each aggregate a statement lends, read by each reference it takes.
    assert "    let pair_copy: (_, bool) = ((*pair).0, (*pair).1);\n" in text
    assert "@print(@both(&p_copy#3, &pair_copy#2) + @norm(&p_copy#3));" in text


def test_an_aggregate_changed_where_it_is_lent_is_left_and_refused_then_repaired():
    case = CASES / "e5010_changed_in_the_lending_statement.vx"
    ran = run_front(case, copy_read_kernel_aggregates)
    assert ran.after is ran.before
    status, printed, err = run_cli(case)
    assert "a launch passing an aggregate" in err and "warning[W5001]" in err
    assert (status, printed) == run_cli(case, "--action", "interpret")[:2]
    assert_native_as_interpreted(case.with_name(
        "e5010_changed_in_the_lending_statement_repaired.vx"))


# Hand-written Lmatched: a kernel lending its struct whole in a statement that changes it,
# and one whose closure reads it: both are left as they are.
LEFT = """
    // IL: Lmatched
    struct P {
        x: i32,
        y: i32,
    }

    fn sum(q: &P) -> i32 {
        q.x + q.y
    }

    fn grow(x: &mut i32) -> i32 {
        *x = *x + 1;
        *x
    }

    fn main() {
        let mut p: P = P { x: 1, y: 2 };
        launch main$kernel0 on(Topology::CPU)(&mut p);
        launch main$kernel1 on(Topology::CPU)(&mut p);
        @print(p.x);
    }

    fn main$kernel0(p: &mut P) on Topology::CPU {
        @print(@sum(&(*p)) + @grow(&mut (*p).x));
    }

    fn main$kernel1(p: &mut P) on Topology::CPU {
        let f: ~_ = || { (*p).y };
        @print(@sum(&(*p)) + f());
    }
"""


def test_handwritten_a_whole_lent_mut_or_read_by_a_closure_is_left(run_pass):
    ran = run_pass("copy-read-kernel-aggregates", LEFT)
    assert not ran.codes
    assert ran.tree == ran.before
    assert _printed(ran.tree) == "5\n6\n2\n"


def test_handwritten_a_whole_lent_shared_is_copied(run_pass):
    ran = run_pass("copy-read-kernel-aggregates", LEFT.replace(
        "        @print(@sum(&(*p)) + @grow(&mut (*p).x));\n",
        "        (*p).x = 4;\n        @print(@sum(&(*p)));\n"))
    text = to_text(ran.tree)
    assert "    (*p).x = 4;\n    let p_copy: P = P { x: (*p).x, y: (*p).y };\n" \
        "    @print(@sum(&p_copy));\n" in text
    assert "        (*p).y\n    };\n    @print(@sum(&(*p)) + f());" in text
    assert _printed(ran.tree) == "6\n8\n4\n"
