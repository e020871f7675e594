"""resolve-sub-space-ancestors: every Transfer gets its cheapest route; sub-spaces through
their `within:` ancestors; E6002 (no path), E6014 (a move to, from or through host memory no
`--host` declares), E2001 (an undeclared destination), each with its repair."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.resolve_sub_space_ancestors import resolve_sub_space_ancestors
from front import run_front

ROOT = Path(__file__).parents[2]
CASES = Path(__file__).parent / "cases" / "resolve_sub_space_ancestors"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
H100 = str(ROOT / "machines" / "h100-sxm.vx")
TWO_CARDS = str(CASES / "machines" / "two_cards.vx")
OPTIONS = {
    "e6014_no_host": {"machine": H100, "host": None},
    "e6014_repaired": {"machine": H100, "host": "default"},
    "e6014_staged": {"machine": TWO_CARDS, "host": None},
    "e6014_staged_repaired": {"machine": TWO_CARDS, "host": "default"},
}
REFUSED = {"e6002_no_path": ["E6002"], "e6014_no_host": ["E6014"], "e6014_staged": ["E6014"],
           "e2001_unknown": ["E2001"]}


def route(case: str):
    """(tree before the pass, after it, diagnostics), every pass before it clean."""
    ran = run_front(CASES / f"{case}.vx", resolve_sub_space_ancestors, **OPTIONS.get(case, {}))
    return ran.before, ran.after, ran.diagnostics


def transfers(tree):
    """The routed transfers of main's `let`s, by name."""
    main = next(i for i in tree.items if i._prod == "Fn" and i.name == "main")
    return {s.name: s.value for s in main.body.stmts
            if s._prod == "Let" and s.value._prod == "Transfer"}


def path(transfer):
    return [transfer.src.name] + [h.dst for h in transfer.route.hops]


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    _, after, diagnostics = route(case)
    assert diagnostics.codes() == REFUSED.get(case, [])
    assert to_text(after) == snapshot_txt
    assert to_dot(after, title=f"resolve-sub-space-ancestors: {case}") == snapshot_dot


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_diagnostics(case, snapshot_txt):
    assert route(case)[2].render() == snapshot_txt


def test_correlation_1_costs_50():
    _, after, _ = route("correlation_1")
    stage = after.items[0]
    moved = stage.body.stmts[-1].value
    assert moved.route.cost == "50" and path(moved) == ["CPU_DRAM", "GPU_HBM"]


def test_sub_spaces_are_reached_through_their_ancestors():
    moves = transfers(route("sub_spaces")[1])
    assert path(moves["sx"]) == ["CPU_DRAM", "NPU_HBM", "W"]
    assert [h.via for h in moves["sx"].route.hops] == ["edge", "within"]
    assert path(moves["back"]) == ["W", "NPU_HBM", "CPU_DRAM"]  # starts where it is
    assert path(moves["s"]) == ["TMEM", "GPU_HBM", "SMEM"]      # both legs, paid
    assert moves["s"].route.cost == "50"                       # SMEM's 31.5 GB/s leg
    assert moves["same"].route.hops == () and moves["same"].route.cost == "0"


def test_the_host_link_of_a_machine_prices_the_move():
    moved = transfers(route("e6014_repaired")[1])["_staged"]
    assert path(moved) == ["CPU_DRAM", "HBM"] and moved.route.cost == "25"


def test_e6002_names_both_spaces():
    (d,) = route("e6002_no_path")[2].items
    assert (d.data["src"], d.data["dest"]) == ("CPU_DRAM", "Island")
    assert "CPU_DRAM" in d.message and "Island" in d.message


def test_e6014_notes_the_host_flag():
    (d,) = route("e6014_no_host")[2].items
    assert d.message.endswith("`--host` (a file, or `default`) declares it")
    assert d.help == ["add the host with `--host default` or `--host FILE`"]


def test_a_move_between_cards_that_stages_through_an_undeclared_host_is_e6014():
    (d,) = route("e6014_staged")[2].items
    assert d.message.startswith("the route from CardA_HBM to CardB_HBM stages through host "
                                "memory (CardA_HBM -> CPU_DRAM -> CardB_HBM)")
    assert (d.data["src"], d.data["dest"]) == ("CardA_HBM", "CardB_HBM")


def test_with_a_host_the_move_between_cards_stages_through_it():
    after = route("e6014_staged_repaired")[1]
    spawn = next(i for i in after.items if i._prod == "Fn").body.stmts[0].value
    moved = next(s.value for s in spawn.body.stmts if s._prod == "Let" and s.name == "there")
    assert path(moved) == ["CardA_HBM", "CPU_DRAM", "CardB_HBM"]


def test_without_host_links_a_missing_path_stays_e6002():
    (d,) = route("e6002_no_path")[2].items
    assert d.code == "E6002"


# Hand-written Lfolded: two spaces each `within:` the other, a cycle check-memory-declarations
# refuses, and a transfer whose source space nobody declares, which infer-placement never
# records (check-locations refuses the placement first). The cycle gives no route and no
# endless walk up the ancestors (E6002); the unknown source is named (E2001).
CYCLE_AND_UNKNOWN_SOURCE = """
    // IL: Lfolded
    Memory A { within: Memory::B, capacity: 4 MiB }

    Memory B { within: Memory::A, capacity: 4 MiB }

    fn main() -> i32 {
        let x: Tensor<f32, [16], Memory::CPU_DRAM> = Tensor<f32, [16]>::new();
        let a: Tensor<f32, [16], Memory::A> = transfer[sync, from CPU_DRAM](x, Memory::A);
        let g: Tensor<f32, [16], Memory::CPU_DRAM> = transfer[sync, from Ghost](x, Memory::CPU_DRAM);
        return 0;
    }
"""


def test_handwritten_a_within_cycle_and_an_unknown_source(run_pass, snapshot_txt):
    ran = run_pass("resolve-sub-space-ancestors", CYCLE_AND_UNKNOWN_SOURCE)
    assert ran.codes == ["E6002", "E2001"]
    assert ran.text.count(", no route]") == 2
    assert ran.dump == snapshot_txt
