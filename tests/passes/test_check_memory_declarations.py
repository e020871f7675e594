"""check-memory-declarations: the model is built and stored; E6006, E6007, E6008, E6011,
E6013, E6015, E6016 and E2001 for declarations that do not make sense and W1029 for a target it does
not know, each with its repair; edge costs derived from `within:` and edge flags."""

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nano_vx.context import Compilation
from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.model.describe import describe_model
from nano_vx.parser import parse_text
from nano_vx.passes.check_memory_declarations import check_memory_declarations
from nano_vx.pipeline import PIPELINE
from nano_vx.source import Source
from front import run_front

CASES = Path(__file__).parent / "cases" / "check_memory_declarations"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "e6006_cycle": ["E6006"],
    "e6007_larger": ["E6007"],
    "e6008_zero": ["E6008"] * 4,
    "e6011_scope": ["E6011"],
    "e6015_granule": ["E6015"],
    "e6013_derivable": ["E6013"] * 2,
    "e6016_malformed": ["E6016"] * 9,
    "e6016_edges": ["E6016"] * 4,
    "e2001_unknown_space": ["E2001"] * 2,
    "w1029_unknown_arch": ["W1029"],
}


def run(case, front):
    return front(CASES / f"{case}.vx", check_memory_declarations)


@pytest.mark.parametrize("case", NAMES)
def test_output(case, front, snapshot_txt, snapshot_dot):
    ran = run(case, front)
    assert ran.after is ran.before  # a check: the tree passes through unchanged
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"check-memory-declarations: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_diagnostics(case, front, snapshot_txt):
    ran = run(case, front)
    assert sorted(ran.diagnostics.codes()) == sorted(REFUSED.get(case, []))
    assert ran.diagnostics.render() == snapshot_txt


def test_a_cycle_names_its_space_and_the_loop(front):
    (d,) = run("e6006_cycle", front).diagnostics.items
    assert d.data["space"] == "A" and d.data["cycle"] == ["A", "B", "A"]


def test_a_larger_child_gives_both_sizes(front):
    (d,) = run("e6007_larger", front).diagnostics.items
    assert "67108864 bytes" in d.message and "41943040 bytes" in d.message
    assert (d.data["capacity"], d.data["parent_capacity"]) == (67108864, 41943040)


def test_a_wider_scope_gives_both_scopes(front):
    (d,) = run("e6011_scope", front).diagnostics.items
    assert (d.data["scope"], d.data["parent_scope"]) == ("sm", "cta")


def test_a_granule_larger_than_the_capacity_is_refused_at_the_declaration(front):
    (d,) = run("e6015_granule", front).diagnostics.items
    assert d.message == ("memory space 'W' has granule 128 bytes, larger than its capacity "
                         "of 100 bytes: every tile takes at least one granule, so none fits")
    assert (d.data["granule"], d.data["capacity"]) == (128, 100)
    assert not run("e6015_repaired", front).diagnostics.items


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 1 << 20), st.integers(1, 1 << 20))
def test_e6015_exactly_when_the_granule_exceeds_the_capacity(granule, capacity):
    text = (f"Memory W {{ within: Memory::NPU_HBM, capacity: {capacity} B, "
            f"granule: {granule} B }}\nfn main() {{}}\n")
    codes = run_front(text, check_memory_declarations).diagnostics.codes()
    assert codes == (["E6015"] if granule > capacity else [])


def test_the_model_is_stored_for_later_passes():
    text = (CASES / "correlation_2.vx").read_text()
    tree, diagnostics = parse_text(text)
    ctx = Compilation(Source("correlation_2.vx", text), diagnostics)
    for p in PIPELINE.passes[1:PIPELINE.names().index("check-memory-declarations") + 1]:
        tree = p(tree, ctx)
    assert not diagnostics.items
    model = ctx.model
    assert model.builtin and not model.has_machine
    assert model.spaces["W"].capacity == 4 * 2**20 and model.ancestors("W") == ("NPU_HBM",)
    assert model.route("CPU_DRAM", "W").cost == 50


def within_chain(n: int) -> str:
    """n spaces, each `within:` the one before; every third declares a capacity and every
    fifth a scope, so each one's size and scope are compared with an ancestor's."""
    lines = ["Memory S0 { within: Memory::GPU_HBM, capacity: 1 GiB, scope: sm }"]
    for i in range(1, n):
        fields = [f"within: Memory::S{i - 1}"]
        if i % 3 == 0:
            fields.append("capacity: 1 MiB")
        if i % 5 == 0:
            fields.append("scope: cta")
        lines.append(f"Memory S{i} {{ {', '.join(fields)} }}")
    return "\n".join(lines) + "\nfn main() { print(1); }\n"


class CountingSpaces(dict):
    """The model's spaces, counting every look-up: the work the check does."""

    lookups = 0

    def get(self, key, default=None):
        CountingSpaces.lookups += 1
        return super().get(key, default)

    def __getitem__(self, key):
        CountingSpaces.lookups += 1
        return super().__getitem__(key)


def _lookups(front, monkeypatch, n: int) -> int:
    import nano_vx.passes.check_memory_declarations as pass_module

    build = pass_module.build_model

    def counted(items, diagnostics):
        model = build(items, diagnostics)
        model.spaces = CountingSpaces(model.spaces)
        return model

    monkeypatch.setattr(pass_module, "build_model", counted)
    CountingSpaces.lookups = 0
    ran = front(within_chain(n), check_memory_declarations)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    return CountingSpaces.lookups


def test_a_long_within_chain_is_checked_in_linear_work(front, monkeypatch):
    # Each space's nearest sized ancestor and inherited scope are found once, not by a walk
    # up the whole chain per space: ten times the chain is about ten times the look-ups.
    small, large = _lookups(front, monkeypatch, 100), _lookups(front, monkeypatch, 1000)
    assert large <= 12 * small, (small, large)


def test_a_long_cycle_is_named_by_its_ends(front):
    text = within_chain(1000).replace("within: Memory::GPU_HBM", "within: Memory::S999")
    ran = front(text, check_memory_declarations)
    (d,) = ran.diagnostics.items
    assert d.message == ("memory space 'S0' is within itself: S0 -> S999 -> S998 -> S997 -> "
                         "(993 more) -> S3 -> S2 -> S1 -> S0")
    assert len(d.data["cycle"]) == 1001  # the JSON form keeps every space


def test_e6013_names_the_edge_the_written_cost_and_the_derived_one(front):
    first, second = run("e6013_derivable", front).diagnostics.items
    assert first.message == (
        "`transfer Memory::Big -> Memory::Mid` in topology 'T' gives the cost 20, but its cost "
        "is derived from the bandwidths along `within:`: 3.15 (the 500 GB/s of Mid, the "
        "narrowest on Big -> Mid)")
    assert (first.data["edge"], first.data["cost"], first.data["derived"]) == (
        "Big -> Mid", "20", 3.15)
    assert second.data["cost"] == "400 GB/s" and "Mid -> Big -> Low" in second.message



def test_derived_costs_are_priced_at_the_bottleneck_bandwidth(front):
    model = run("e6013_repaired", front).ctx.model
    big_mid, mid_low = [e for e in model.edges if e.topology == "T"]
    # 500 GB/s, the narrower of Big's 2 TB/s and Mid's, is 3.15 units of 1575 GB/s; Mid -> Low
    # goes up to Big and down again, and Low declares no bandwidth to bound it.
    assert (big_mid.cost, big_mid.bandwidth_bps, big_mid.derived) == (
        Fraction(63, 20), 500 * 10**9, True)
    assert (mid_low.cost, mid_low.derived, mid_low.copy_engine) == (Fraction(63, 20), True, True)
    assert model.route("Big", "Low").path == ("Big", "Mid", "Low")
    assert model.route("Big", "Low").cost == Fraction(63, 10)


def test_edge_flags_and_derived_costs_are_described(front):
    model = run("e6016_edges_repaired", front).ctx.model
    edges = describe_model(model).split("edge CPU_DRAM -> NPU_HBM", 1)[1]
    assert "edge Near -> Far: cost 50, copy_engine\n" in edges
    assert "edge Far -> Near: cost 20, relaxed\n" in edges
    assert "edge CPU_DRAM -> Near: cost 50\n" in edges
    # Tile: 64 B/cyc at 1.5 GHz is 96 GB/s
    assert "edge Near -> Tile: cost 16.41, derived from 96 GB/s along within:, sync\n" in edges
    assert [e.ordering for e in model.edges if e.topology == "T"] == [None, "relaxed", None,
                                                                       "sync"]


def test_an_edge_with_no_derivable_cost_says_why(front):
    flag, both, trees, no_rate = run("e6016_edges", front).diagnostics.items
    assert flag.message == "`speedy` is not a flag of `transfer Memory::Near -> Memory::Far` " \
                           "in topology 'T'"
    assert both.message.endswith("is both `relaxed` and `sync`; an edge is one or the other")
    assert trees.message.endswith("none can be derived: CPU_DRAM and Near are not in one "
                                  "`within:` tree")
    assert no_rate.message.endswith("none can be derived: no space on Near -> Tile declares a "
                                    "bandwidth in bytes per second")
    assert no_rate.notes == ["the bandwidth of Tile is per cycle, and it declares no `clock:` "
                             "to make it bytes per second"]


def test_an_unknown_arch_is_kept_with_a_warning(front):
    ran = run("w1029_unknown_arch", front)
    (d,) = ran.diagnostics.items
    assert (d.severity, d.data["arch"]) == ("warning", "riscv")
    assert ran.ctx.model.topologies["T"].arch == "riscv"
    assert run("w1029_repaired", front).ctx.model.topologies["V"].arch == "applegpu"


def test_handwritten_a_space_declared_twice(run_pass, snapshot_txt):
    # Two declarations of one space: hoist-nested-items refuses that first (E2008). The
    # later one is the model's, so its `within:` itself is the one cycle reported.
    ran = run_pass("check-memory-declarations", """
        // IL: Lresolved
        Memory Scratch { within: Memory::GPU_HBM, capacity: 64 KiB, managed: explicit }
        Memory Scratch { within: Memory::Scratch, capacity: 1 KiB, managed: explicit }
        fn main() {}
    """)
    assert ran.codes == ["E6006"]
    assert ran.dump == snapshot_txt
