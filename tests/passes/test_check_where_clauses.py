"""check-where-clauses: `where Reachable<A, B>` discharged at every call (E6040)."""

from pathlib import Path

import pytest

from nano_vx.passes.check_where_clauses import check_where_clauses
from front import (assert_judged, assert_prints_the_same, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "check_where_clauses"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "unreachable": ("E6040", "unsatisfied `where Reachable<B, C>` in call to 'pipeline': no "
                             "transfer path from CPU to Island"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    assert_judged(CASES / f"{case}.vx", check_where_clauses, REFUSED, snapshot_txt)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_where_clauses, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


def test_sub_spaces_are_reached_through_their_ancestors():
    assert_prints_the_same(CASES / "through_ancestors.vx", check_where_clauses)


def test_the_json_form_names_the_clause_the_topologies_and_their_spaces():
    [d] = run_front(CASES / "unreachable.vx", check_where_clauses).diagnostics.items
    assert d.data == {"callee": "pipeline$GPU$CPU$Island", "clause": "Reachable<B, C>",
                      "src": "CPU", "dst": "Island", "src_space": "CPU_DRAM",
                      "dst_space": "Island"}


def test_every_call_is_checked_for_the_topologies_it_binds():
    text = (CASES / "unreachable.vx").read_text().replace(
        "    print(pipeline(a, b, c));",
        "    let d = spawn on(Topology::NPU[0]) { 4 };\n"
        "    print(pipeline(a, b, d));\n    print(pipeline(a, b, c));\n"
        "    print(pipeline(a, c, b));")
    ran = run_front(text, check_where_clauses)
    found = [(d.data["callee"], d.data["clause"], d.data["src"], d.data["dst"])
             for d in ran.diagnostics.items]
    # GPU -> CPU -> NPU holds; into Island fails; Island reaches nothing, CPU is not reached
    # from it: each failing clause once per call, the holding ones never.
    assert found == [("pipeline$GPU$CPU$Island", "Reachable<B, C>", "CPU", "Island"),
                     ("pipeline$GPU$Island$CPU", "Reachable<A, B>", "GPU", "Island"),
                     ("pipeline$GPU$Island$CPU", "Reachable<B, C>", "Island", "CPU")]


def test_a_clause_naming_no_declared_topology_is_refused():
    ran = run_front("fn f() -> i32 where Reachable<CPU, Atlantis> { 1 }\n"
                    "fn main() { print(f()); }", check_where_clauses)
    [d] = ran.diagnostics.items
    assert d.code == "E6040" and "no topology named Atlantis is declared" in d.message


# Hand-written Lmono: a space `within:` a space nobody declares, which check-memory-declarations
# refuses before this pass runs. The model built from it holds the space but no route into it,
# so the clause is refused as unreachable, not as naming an undeclared topology.
WITHIN_NOTHING = """
    // IL: Lmono
    Memory Scratch { within: Memory::Atlantis, capacity: 1 MiB }

    Topology Tile { memory: Memory::Scratch }

    fn feed() -> i32 where Reachable<Topology::CPU, Topology::Tile> /* Reachable<CPU, Tile> */ {
        1
    }

    fn main() {
        @print(@feed());
    }
"""


def test_handwritten_a_space_within_an_undeclared_space_is_unreachable(run_pass, snapshot_txt):
    ran = run_pass("check-where-clauses", WITHIN_NOTHING)
    assert ran.codes == ["E6040"]
    assert ran.diagnostics.items[0].data["dst_space"] == "Scratch"
    assert ran.dump == snapshot_txt
