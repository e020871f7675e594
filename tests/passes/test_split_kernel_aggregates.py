"""split-kernel-aggregates: a kernel takes each struct or tuple its body names only by fields
as those fields, a `&mut` of each field's place for one the launch lends; one used whole
stays, which scalarize-aggregates refuses; native code runs the launch as the interpreter
does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.split_kernel_aggregates import split_kernel_aggregates
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "split_kernel_aggregates"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", split_kernel_aggregates)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", split_kernel_aggregates)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_kernel_is_given_the_places_of_the_fields_it_names():
    text = to_text(run_front(CASES / "fields.vx", split_kernel_aggregates).after)
    assert "launch main$kernel1 on(Topology::CPU)(&mut p.x, &mut p.y, c.x, c.y, &mut q.a.x, " \
        "&mut q.t, &mut q.n, &mut tp.2.1, &mut tp.0, &mut tp.1);" in text
    # The spawn inside is given on the fields it names, of those the outer kernel is given.
    assert "launch main$kernel0 on(Topology::CPU)(&mut (*p_y), &mut (*p_x), &mut (*q_n), " \
        "&mut (*tp_1));" in text
    assert "    *q_a_x = *q_a_x + c_x;\n" in text
    # A print of the struct reads its fields where it prints, no copy of the whole first.
    assert "    @print(P { x: *p_x, y: *p_y });\n" in text and "printed" not in text


def test_a_field_written_through_a_reference_is_given_through_it():
    text = to_text(run_front(CASES / "through_a_reference.vx", split_kernel_aggregates).after)
    assert "launch f$kernel0 on(Topology::CPU)(t, &mut (*p).x);" in text
    assert "    *p_x = 4;\n" in text


def test_an_aggregate_a_kernel_lends_whole_is_given_by_the_fields_its_copy_reads():
    text = to_text(run_front(CASES / "used_whole.vx", split_kernel_aggregates).after)
    assert "launch main$kernel0 on(Topology::CPU)(&mut p.x, &mut p.y);" in text
    assert "    let p_copy: P = P { x: *p_x, y: *p_y };\n    @print(@norm(&p_copy));\n" in text


# Hand-written Lmatched: a kernel launched twice, once with a field of a struct computed by a
# call (which a field each would compute twice), and one whose struct is generic, its field
# of a type the struct does not write: neither is split.
LEFT = """
    // IL: Lmatched
    struct P {
        x: i32,
    }

    struct G {
        v: T,
    }

    fn make() -> P {
        P { x: 3 }
    }

    fn main() {
        let mut p: P = P { x: 1 };
        let g: G = G { v: 2 };
        launch main$kernel0 on(Topology::CPU)(&mut p);
        launch main$kernel0 on(Topology::CPU)(&mut @make());
        launch main$kernel1 on(Topology::CPU)(g);
        @print(p.x);
    }

    fn main$kernel0(p: &mut P) on Topology::CPU {
        (*p).x = 7;
    }

    fn main$kernel1(g: G) on Topology::CPU {
        @print(g.v);
    }
"""


def test_handwritten_a_launch_computing_its_struct_and_a_generic_field_are_left(run_pass):
    ran = run_pass("split-kernel-aggregates", LEFT)
    assert not ran.codes
    assert ran.tree == ran.before
    assert _printed(ran.tree) == "2\n7\n"


def test_handwritten_a_struct_given_once_is_split(run_pass):
    ran = run_pass("split-kernel-aggregates", LEFT.replace(
        "        launch main$kernel0 on(Topology::CPU)(&mut @make());\n", ""))
    text = to_text(ran.tree)
    assert "launch main$kernel0 on(Topology::CPU)(&mut p.x);" in text
    assert "fn main$kernel0(p_x: &mut i32) on Topology::CPU {\n    *p_x = 7;" in text
    assert "launch main$kernel1 on(Topology::CPU)(g);" in text
    assert _printed(ran.tree) == "2\n7\n"
