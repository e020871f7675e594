"""Routing: the cheapest path (checked against brute force), sub-spaces through `within:`,
siblings through their nearest common ancestor, the built-in costs."""

import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nano_vx.model import build_model, bandwidth_cost
from nano_vx.model.routing import Leg, cheapest
from nano_vx.parser import parse_text


def model_of(text: str):
    program, diagnostics = parse_text(text)
    assert not diagnostics.has_errors, diagnostics.render()
    model = build_model(program.items, diagnostics)
    assert not diagnostics.items, diagnostics.render()
    return model


def test_builtin_host_to_gpu_costs_50():
    route = model_of("fn main() {}").route("CPU_DRAM", "GPU_HBM")
    assert route.path == ("CPU_DRAM", "GPU_HBM") and route.cost == 50


def test_builtin_one_way_edge_has_no_way_back():
    model = model_of("fn main() {}")
    assert model.route("CPU_DRAM", "Remote_HBM").cost == 300
    assert model.route("Remote_HBM", "CPU_DRAM") is None


def test_builtin_chain_takes_the_sum():
    route = model_of("fn main() {}").route("CPU_DRAM", "Local_SRAM")
    assert route.path == ("CPU_DRAM", "NPU_HBM", "Local_SRAM") and route.cost == 60


def test_a_space_routes_to_itself_for_free():
    route = model_of("fn main() {}").route("GPU_HBM", "GPU_HBM")
    assert route.path == ("GPU_HBM",) and route.cost == 0 and route.legs == ()


def test_unknown_spaces_have_no_route():
    assert model_of("fn main() {}").route("CPU_DRAM", "Nowhere") is None


SUBSPACES = """
Memory SMEM { within: Memory::GPU_HBM, capacity: 228 KiB, bandwidth: 31.5 GB/s }
Memory TMEM { within: Memory::GPU_HBM, capacity: 256 KiB }
Memory REG { within: Memory::SMEM }
"""


def test_a_sub_space_is_reached_through_its_ancestors():
    route = model_of(SUBSPACES).route("CPU_DRAM", "REG")
    assert route.path == ("CPU_DRAM", "GPU_HBM", "SMEM", "REG")
    # 50 for the host edge, 50 for SMEM's own 31.5 GB/s, nothing declared for REG.
    assert route.cost == 100
    assert [leg.via for leg in route.legs] == ["edge", "within", "within"]


def test_siblings_meet_at_their_nearest_common_ancestor_and_pay_both_legs():
    route = model_of(SUBSPACES).route("TMEM", "SMEM")
    assert route.path == ("TMEM", "GPU_HBM", "SMEM") and route.cost == 50


def test_a_value_already_in_a_sub_space_starts_there():
    route = model_of(SUBSPACES).route("REG", "CPU_DRAM")
    assert route.path == ("REG", "SMEM", "GPU_HBM", "CPU_DRAM")


def test_a_declared_edge_beats_the_way_through_the_tree():
    model = model_of(SUBSPACES + "Topology G { memory: Memory::GPU_HBM, "
                                 "transfer Memory::CPU_DRAM -> Memory::TMEM : 5 }")
    assert model.route("CPU_DRAM", "TMEM").path == ("CPU_DRAM", "TMEM")
    # TMEM has an edge of its own now, so it is no longer reached through GPU_HBM.
    assert model.route("GPU_HBM", "TMEM").path == ("GPU_HBM", "CPU_DRAM", "TMEM")


def test_bandwidth_and_relative_costs_share_one_scale():
    assert bandwidth_cost(Fraction(31_500_000_000)) == 50
    assert bandwidth_cost(Fraction(63_000_000_000)) == 25
    model = model_of("Topology T { memory: Memory::GPU_HBM, "
                     "transfer Memory::GPU_HBM -> Memory::NPU_HBM : 3.35 TB/s }")
    assert model.route("GPU_HBM", "NPU_HBM").cost == Fraction(1575, 3350)


def test_the_cheaper_of_two_parallel_edges_counts():
    model = model_of("Topology A { memory: Memory::GPU_HBM, transfer Memory::GPU_HBM -> "
                     "Memory::NPU_HBM : 9 }\nTopology B { memory: Memory::NPU_HBM, "
                     "transfer Memory::GPU_HBM -> Memory::NPU_HBM : 7 }")
    assert model.route("GPU_HBM", "NPU_HBM").cost == 7


# -- the cheapest path, against brute force over simple paths -----------------------------

NODES = "abcdef"
edge = st.tuples(st.sampled_from(NODES), st.sampled_from(NODES),
                 st.fractions(min_value=0, max_value=20, max_denominator=4))


def brute_force(graph, src, dst):
    """Of the cheapest simple paths, the lexicographically smallest: (cost, path), or None."""
    found = []

    def walk(path, cost):
        if path[-1] == dst:
            found.append((cost, path))
            return
        for leg in graph.get(path[-1], ()):
            if leg.dst not in path:
                walk(path + (leg.dst,), cost + leg.cost)

    walk((src,), Fraction(0))
    return min(found, default=None)


# Random graphs (the whole suite; the tests above route each rule in the inner loop).
@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(edge, max_size=14), st.sampled_from(NODES), st.sampled_from(NODES))
def test_routing_is_the_cheapest_simple_path_and_the_smallest_of_equal_ones(edges, src, dst):
    graph = {}
    for a, b, cost in edges:
        if a != b:
            graph.setdefault(a, []).append(Leg(a, b, cost, "edge"))
    route = cheapest(graph, src, dst)
    expected = brute_force(graph, src, dst)
    if expected is None:
        assert route is None
        return
    assert (route.cost, route.path) == expected
    assert route.path[0] == src and route.path[-1] == dst
    assert sum((leg.cost for leg in route.legs), Fraction(0)) == route.cost
    assert [leg.src for leg in route.legs] == list(route.path[:-1])


def _chain(n: int):
    """A host edge to the root of a `within:` chain of n free legs, and a rival of the same
    cost beside it, so that equal-cost paths are compared all along the chain."""
    graph = {"H": [Leg("H", "C0", Fraction(50), "edge"), Leg("H", "R", Fraction(50), "edge")]}
    for i in range(n):
        graph.setdefault(f"C{i}", []).append(Leg(f"C{i}", f"C{i + 1}", Fraction(0), "within"))
        graph[f"C{i + 1}"] = [Leg(f"C{i + 1}", f"C{i}", Fraction(0), "within")]
    return graph


def test_routing_down_a_long_chain_takes_time_in_proportion():
    # Each step of the search extends the path so far without copying it, and compares two
    # paths where they part: ten times the chain, about ten times the time (a wide margin
    # for a shared machine; copying the path made it a hundred).
    def seconds(n):
        graph = _chain(n)
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            route = cheapest(graph, "H", f"C{n}")
            best = min(best, time.process_time() - start)
        assert route.path == ("H", *(f"C{i}" for i in range(n + 1))) and route.cost == 50
        return best

    assert seconds(20_000) < 30 * seconds(2_000)
