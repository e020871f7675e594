"""check-locations: a placement or a `spawn on` that names no declared location (E6025)."""

from pathlib import Path

import pytest

from nano_vx.cli import main as cli_main
from nano_vx.passes.check_locations import check_locations
from front import assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "check_locations"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", check_locations)
    assert ran.after is ran.before
    assert ran.diagnostics.render() == snapshot_txt


def test_each_undeclared_location_is_named_once():
    ran = run_front(CASES / "undeclared.vx", check_locations)
    assert [(d.code, d.data["location"]) for d in ran.diagnostics.items] == [
        ("E6025", "Scratchpad"), ("E6025", "Tpu"), ("E6025", "Fpga")]
    assert ran.diagnostics.items[1].notes == ["the topologies are AMX, ANE, AccCore, CPU, CpuAvx512, CpuNeon, GPU, NPU, Slice"]


def test_declared_they_are_admitted_and_run():
    assert not run_front(CASES / "undeclared_repaired.vx", check_locations).diagnostics.items
    assert_prints_the_same(CASES / "undeclared_repaired.vx", check_locations)


def test_a_generic_topology_parameter_is_its_instances_topology():
    program = """
fn run_on<A: Topology>(n: i32) -> i32 {
    spawn on(Topology::A) { print(n); };
    return n;
}
fn main() {
    print(run_on<Topology::GPU>(3));
}
"""
    assert not run_front(program, check_locations).diagnostics.items


def test_refused_from_the_command_line(capsys):
    assert cli_main([str(CASES / "undeclared.vx"), "--action", "check"]) == 1
    assert "error[E6025]" in capsys.readouterr().err
    assert cli_main([str(CASES / "undeclared_repaired.vx"), "--action", "check"]) == 0


# Hand-written Lmono: a topology whose memory no declaration names, which
# check-memory-declarations refuses before this pass runs. The model built from the text
# leaves that topology and its memory out, so both placements naming them are refused.
MEMORY_NOBODY_DECLARES = """
    // IL: Lmono
    Topology Tile { memory: Memory::Nowhere }

    fn main() {
        let a = Tensor<i32, [2], Memory::Nowhere>::new();
        let b = Tensor<i32, [2], Topology::Tile>::new();
        @print(a);
    }
"""


def test_handwritten_a_topology_over_an_undeclared_memory_is_not_a_location(run_pass,
                                                                            snapshot_txt):
    ran = run_pass("check-locations", MEMORY_NOBODY_DECLARES)
    assert ran.codes == ["E6025", "E6025"]
    assert [d.data["location"] for d in ran.diagnostics.items] == ["Nowhere", "Tile"]
    assert ran.dump == snapshot_txt
