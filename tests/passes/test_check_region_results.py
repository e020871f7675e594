"""check-region-results: a `spawn on` region that hands out a tensor it made is E6030; one
made before it and transferred in is admitted. Where a value comes from is followed through
lets, assignments (round a loop too), branches and the program's functions."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.passes.check_region_results import check_region_results
from front import (assert_judged, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "check_region_results"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "made_inside": ("E6030", "this `spawn on(Topology::GPU)` region hands out a tensor it "
                             "made: `Tensor<f32, [4]>::new()` at line 5"),
    "made_by_a_call": ("E6030", "this `spawn on(Topology::GPU)` region hands out a tensor it "
                                "made: `scaled(kept, 3.0)` at line 23"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    assert_judged(CASES / f"{case}.vx", check_region_results, REFUSED, snapshot_txt)
    ran = run_front(CASES / f"{case}.vx", check_region_results)
    assert to_dot(ran.after, title=f"check-region-results: {case}") == snapshot_dot


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_region_results, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


def test_the_repaired_region_runs():
    ran = run_front(CASES / "made_inside_repaired.vx", check_region_results)
    assert ran.prints() == ("[3, 3, 3, 3]\n", "[3, 3, 3, 3]\n")


def test_the_diagnostic_names_where_the_tensor_is_made():
    [d] = run_front(CASES / "made_inside.vx", check_region_results).diagnostics.items
    assert (d.span.line, d.labels[0].span.line) == (9, 5)
    assert d.data == {"topology": "GPU", "made": "Tensor<f32, [4]>::new()"}


DEV = "let dev = transfer(Tensor<f32, [2]>::fill(1.0), Memory::GPU_HBM);\n"
KEEP = "fn keep(t: Tensor<f32, [2]>, n: i32) -> Tensor<f32, [2]> {\n" \
       "    if n == 0 { t } else { keep(t, n - 1) }\n}\n"
MAKE = "fn make(n: i32) -> Tensor<f32, [2]> {\n" \
       "    if n == 0 { Tensor<f32, [2]>::new() } else { make(n - 1) }\n}\n"


@pytest.mark.parametrize("prelude, region, code", [
    # A number is no memory to own.
    ("", "spawn on(Topology::GPU) { 3 }", None),
    # A tensor captured from before the region, moved through a `let`.
    (DEV, "spawn on(Topology::GPU) { let mut d = dev; d[0] = 2.0; d }", None),
    # A transfer run inside the region makes its copy there.
    ("", "spawn on(Topology::GPU) { transfer(Tensor<f32, [2]>::fill(1.0), "
         "Memory::GPU_HBM) }", "E6030"),
    # One branch is enough.
    (DEV, "spawn on(Topology::GPU) { if dev[0] > 0.0 { dev } else "
          "{ Tensor<f32, [2]>::new() } }", "E6030"),
    # A loop carries a made tensor round into `a` on its second turn.
    (DEV, "spawn on(Topology::GPU) { let mut a = dev; let mut b = Tensor<f32, [2]>::new(); "
          "for i in 0..2 { a = b; b = Tensor<f32, [2]>::new(); } a }", "E6030"),
    # Recursive functions: one passes its parameter on, one makes its result.
    (DEV + KEEP, "spawn on(Topology::GPU) { keep(dev, 3) }", None),
    (MAKE, "spawn on(Topology::GPU) { make(3) }", "E6030"),
    # A number read out of a tensor the region made is no tensor; a row of one is.
    (DEV, "spawn on(Topology::GPU) { let t = Tensor<f32, [2]>::fill(2.0); (dev, t[0]) }",
     None),
    (DEV, "spawn on(Topology::GPU) { let g = Tensor<f32, [2, 2]>::fill(2.0); g[1] }", "E6030"),
    # A `return` in the region gives its value too.
    (DEV, "spawn on(Topology::GPU) { if dev[0] > 0.0 { return Tensor<f32, [2]>::new(); } "
          "dev }", "E6030"),
    (DEV, "spawn on(Topology::GPU) { if dev[0] > 0.0 { return dev; } dev }", None),
    # A tensor an inner region made, handed out through the outer one: both hand it out.
    ("", "spawn on(Topology::GPU) { let t = spawn on(Topology::GPU) "
         "{ Tensor<f32, [2]>::new() }; t }", "E6030"),
])
def test_where_a_regions_value_comes_from(prelude, region, code):
    text = prelude.replace(DEV, "") + "fn main() {\n" + (DEV if DEV in prelude else "") + \
        f"let r = {region};\n}}\n"
    codes = run_front(text, check_region_results).diagnostics.codes()
    assert set(codes) == ({code} if code else set()), codes


def test_a_region_unroll_across_copies_is_refused_once():
    text = ("fn main() {\n  unroll across(Topology::NPU[0..3]) { |i|\n    let t = spawn on("
            "Topology::NPU[0]) { Tensor<i32, [2]>::fill(i) };\n  }\n}\n")
    [d] = run_front(text, check_region_results).diagnostics.items
    assert d.code == "E6030" and "each of the 3 copies" in d.notes[-1]


# Hand-written Lrouted: a region on a topology the model lacks (check-locations refuses it,
# E6025, before this pass), whose value a `while` may replace by a tensor it makes. Where
# the region runs is not known, and the value is a tensor all the same: refused, once.
UNKNOWN_TOPOLOGY = """
    // IL: Lrouted
    fn main() {
        let room: Tensor<f32, [2], Memory::GPU_HBM> = transfer[sync, CPU_DRAM -> GPU_HBM (50), cost 50](Tensor<f32, [2]>::new(), Memory::GPU_HBM);
        let r: ~Pinned<Tensor<f32, [2], Memory::GPU_HBM>, Topology::Phantom> = spawn on(Topology::Phantom) {
            let mut out: Tensor<f32, [2], Memory::GPU_HBM> = room;
            while out[0] < 1.0 {
                out = Tensor<f32, [2]>::fill(2.0);
            }
            out
        };
    }
"""


def test_handwritten_a_region_on_an_unknown_topology_is_judged(run_pass, snapshot_txt):
    ran = run_pass("check-region-results", UNKNOWN_TOPOLOGY)
    assert [(d.code, d.data["made"]) for d in ran.diagnostics.items] == [
        ("E6030", "Tensor<f32, [2]>::fill(2.0)")]
    assert ran.dump == snapshot_txt
