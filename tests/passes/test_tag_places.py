"""tag-places: a variable bound to a topology, a memory space, `Some(..)` or `None` is a small
integer tag, its comparisons and prints decided while compiling, or by the tag as the program
runs when an `if` or an assignment chooses it; the program prints what it printed, and native
code prints it too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.tag_places import tag_places
from front import assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "tag_places"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010_"))
PLACES = {"TopoRef", "MemRef", "SomeTopo", "NoneTopo"}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", tag_places)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert not PLACES & {n._prod for n in ran.nodes()}
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", tag_places)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_place_held_in_a_tuple_is_its_tag_read_as_a_variable_holding_it():
    ran = run_front(CASES / "in_tuples.vx", tag_places)
    text = to_text(ran.after)
    assert "let p: ~_ = (0, 1);" in text and '@print("Topology::GPU");' in text
    # chosen as the program runs: printed by a chain on the element's tag
    assert "let place: ~_ = q.1;" in text
    assert not [n for n in ran.nodes() if n._prod in ("TopoRef", "MemRef")]


def test_a_let_mut_tuple_holds_its_places_tags_and_is_assigned_tuples_of_tags():
    text = to_text(run_front(CASES / "tuple_reassigned.vx", tag_places).after)
    assert "let mut p: ~_ = (0, 1, 1);" in text and "p = (2, 2, 3);" in text
    # printed by a chain on the element's tag, compared by it
    assert "let place: ~_ = p.0;\n    if place == 0 {" in text and "@print(p.0 == 0);" in text


# A `let mut` tuple holding a place assigned other than a tuple literal (another tuple's
# value, an `if` choosing one) is refused and left as it was.
@pytest.mark.parametrize("assigned", ["q", "if t == Topology::GPU { (t, 2) } else { q }"])
def test_a_let_mut_tuple_assigned_otherwise_is_refused_and_left_as_it_was(assigned):
    ran = run_front("fn main() {\n    let t = Topology::GPU;\n    let q = (t, 3);\n"
                    f"    let mut p = (Topology::CPU, 1);\n    p = {assigned};\n"
                    "    print(p.1);\n}\n", tag_places)
    assert [d.code for d in ran.diagnostics.items] == ["E5010"]
    assert ran.after == ran.before


def test_a_tuple_holding_a_place_used_whole_is_refused():
    text = ("fn main() {\n    let p = (Topology::GPU, 1);\n    let f = |q| q.1;\n"
            "    print(f(p));\n}\n")
    ran = run_front(text, tag_places)
    assert [d.message for d in ran.diagnostics.items] == [
        "native code does not lower a tuple holding a topology or memory space used other "
        "than by its elements (in 'main')"]


def test_a_place_chosen_as_the_program_runs_is_printed_by_a_chain_on_its_tag():
    ran = run_front(CASES / "chosen.vx", tag_places)
    text = to_text(ran.after)
    assert "let pick: ~_ = if 1 > 0 {" in text and "} else if u == " in text


def test_a_topology_indexed_by_a_variable_is_left_for_the_gate():
    text = "let k = 1;\n    let t = Topology::NPU[k];\n    print(t);"
    ran = run_front(f"fn main() {{\n    {text}\n}}\n", tag_places)
    assert not ran.diagnostics.items and ran.after == ran.before


@pytest.mark.parametrize("value", ["Memory::GPU_HBM",
                                   "if 1 > 0 { Memory::GPU_HBM } else { Memory::CPU_DRAM }"])
def test_a_print_of_a_memory_space_is_the_stop_the_interpreter_makes_there(value):
    text = f"fn main() {{\n    let m = {value};\n    print(m);\n}}\n"
    ran = run_front(text, tag_places)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after).splitlines()[-2] == \
        '    halt "E9006", "cannot print a value of type memory space";'


# Hand-written Lpinned: two variables of one topology share its tag, and a topology with an
# index is another value.
TWO_NAMES = """
    // IL: Lpinned
    fn main() {
        let a: _ = Topology::NPU;
        let b: _ = a;
        let c: _ = Topology::NPU[0];
        @print(a == b);
        @print(b != c);
        @print(c);
    }
"""


def test_handwritten_one_value_one_tag(run_pass, snapshot_txt):
    ran = run_pass("tag-places", TWO_NAMES)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    lets = {s.name: s.value.value for s in ran.tree.items[0].body.stmts if s._prod == "Let"}
    assert lets == {"a": 0, "b": 0, "c": 1}
    assert ran.dump == snapshot_txt
