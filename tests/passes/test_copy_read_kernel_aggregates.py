"""copy-read-kernel-aggregates: a kernel's shared reference to the whole struct or tuple
its launch lends it is a reference to a copy made of its fields before the statement, or,
where the statement changes it (or is no statement), made where a call's argument lends it,
so that split-kernel-aggregates gives the kernel the fields; one lent otherwise, or named
by a closure of the kernel, is left, which scalarize-aggregates refuses."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.copy_read_kernel_aggregates import copy_read_kernel_aggregates
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

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
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
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


def test_an_aggregate_changed_where_it_is_lent_is_copied_where_the_argument_lends_it():
    ran = run_front(CASES / "changed_in_the_lending_statement.vx", copy_read_kernel_aggregates)
    assert "    @print(@bump(&mut (*p).x) + @norm(&P { x: (*p).x, y: (*p).y }));\n" in \
        to_text(ran.after)
    text = to_text(run_front(CASES / "changed_before_the_kernel_value.vx",
                             copy_read_kernel_aggregates).after)
    assert "    @bump(&mut (*pair).1) + @sum(&((*pair).0, (*pair).1))\n" in text


# Hand-written Lmatched: a kernel lending its struct whole in a statement that changes it
# (through a part, then through the reference itself), and one whose closure reads it.
KERNELS = """
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

    fn set(q: &mut P) -> i32 {
        (*q).y = 7;
        (*q).y
    }

    fn main() {
        let mut p: P = P { x: 1, y: 2 };
        launch main$kernel0 on(Topology::CPU)(&mut p);
        launch main$kernel1 on(Topology::CPU)(&mut p);
        @print(p.x);
    }

    fn main$kernel0(p: &mut P) on Topology::CPU {
        @print(@sum(&(*p)) + @grow(&mut (*p).x));
        @print(@set(p) + @sum(&(*p)));
    }

    fn main$kernel1(p: &mut P) on Topology::CPU {
        let f: ~_ = || { (*p).y };
        @print(@sum(&(*p)) + f());
    }
"""


def test_handwritten_a_whole_lent_where_it_changes_is_copied_there(run_pass):
    ran = run_pass("copy-read-kernel-aggregates", KERNELS)
    assert not ran.codes
    text = to_text(ran.tree)
    assert "    @print(@sum(&P { x: (*p).x, y: (*p).y }) + @grow(&mut (*p).x));\n" \
        "    @print(@set(p) + @sum(&P { x: (*p).x, y: (*p).y }));\n" in text
    # The closure could change it in a call of the statement: left.
    assert "        (*p).y\n    };\n    @print(@sum(&(*p)) + f());" in text
    assert _printed(ran.tree) == _printed(ran.before) == "5\n16\n16\n2\n"


def test_handwritten_a_whole_lent_shared_is_copied(run_pass):
    ran = run_pass("copy-read-kernel-aggregates", KERNELS.replace(
        "        @print(@sum(&(*p)) + @grow(&mut (*p).x));\n",
        "        (*p).x = 4;\n        @print(@sum(&(*p)));\n"))
    text = to_text(ran.tree)
    assert "    (*p).x = 4;\n    let p_copy: P = P { x: (*p).x, y: (*p).y };\n" \
        "    @print(@sum(&p_copy));\n" in text
    assert _printed(ran.tree) == _printed(ran.before)
