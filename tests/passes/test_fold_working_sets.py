"""fold-working-sets: working sets added up along the call graph (E6027, E6028, W1028)."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nano_vx.context import Compilation
from nano_vx.parser import parse_text
from nano_vx.passes.fold_working_sets import fold_working_sets
from nano_vx.source import Source
from front import (FRONT, assert_refused_from_the_command_line, assert_refused_then_repaired,
                   run_front)

CASES = Path(__file__).parent / "cases" / "fold_working_sets"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
CODES = {"held_across": ["E6027"], "deep_path": ["E6027"], "recursion": ["E6028"],
         "overcommit": ["W1028"], "given_to_call": ["E6027"]}
REFUSED = {
    "held_across": ("E6027", "along the call path main -> stage in memory space 'W' peaks "
                             "at 6291456 bytes, over its 4194304 byte capacity"),
    "deep_path": ("E6027", "main -> a -> b -> c"),
    "recursion": ("E6028", "the recursion walk -> walk places tiles in memory space 'W'"),
    # A tile transferred straight into the call is the caller's while the callee runs.
    "given_to_call": ("E6027", "along the call path main -> step in memory space 'W' peaks "
                               "at 120 bytes, over its 100 byte capacity"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", fold_working_sets)
    assert ran.after is ran.before
    assert ran.diagnostics.codes() == CODES.get(case, [])
    assert ran.diagnostics.render() == snapshot_txt


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", fold_working_sets, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


def test_the_json_form_carries_the_path_and_what_each_function_holds():
    [d] = run_front(CASES / "deep_path.vx", fold_working_sets).diagnostics.items
    assert d.data == {
        "space": "W", "path": ["main", "a", "b", "c"], "required": 5242880,
        "available": 4194304, "margin": -1048576,
        "functions": [{"function": "main", "bytes": 1048576},
                      {"function": "a", "bytes": 1048576},
                      {"function": "b", "bytes": 1048576},
                      {"function": "c", "bytes": 2097152}]}


def test_mutual_recursion_placing_tiles_names_the_cycle():
    text = (CASES / "recursion.vx").read_text().replace("walk(n - 1);", "other(n - 1);")
    text += "fn other(n: i32) {\n    walk(n);\n}\n"
    [d] = _verdict(text)
    assert d.code == "E6028" and d.data["cycle"] == ["walk", "other", "walk"]
    assert d.data["bytes_per_activation"] == {"walk": 1024}


def test_a_function_calling_into_a_recursion_is_judged_by_what_it_holds_itself():
    # The recursion places nothing in W, so the caller's tile and the callee's add up to
    # nothing more: admitted.
    assert _verdict((CASES / "recursion_repaired.vx").read_text()) == []


def test_sequential_calls_compose_by_max():
    assert not run_front(CASES / "sequential.vx", fold_working_sets).diagnostics.items


# -- properties ----------------------------------------------------------------------------

# A random acyclic call tree: function i calls only functions after it. A body is a list of
# events: ("place", size), ("call", j), ("drop", k) (the k-th tile placed leaves the space).
KB = 1024


@st.composite
def programs(draw):
    n = draw(st.integers(1, 4))
    bodies = []
    for i in range(n):
        events, placed = [], 0
        for _ in range(draw(st.integers(0, 5))):
            choices = ["place"] + (["call"] if i + 1 < n else []) + (["drop"] if placed else [])
            kind = draw(st.sampled_from(choices))
            if kind == "place":
                events.append(("place", draw(st.integers(1, 8)) * KB))
                placed += 1
            elif kind == "call":
                events.append(("call", draw(st.integers(i + 1, n - 1))))
            else:
                events.append(("drop", draw(st.integers(0, placed - 1))))
        bodies.append(events)
    return bodies


def _source(bodies, capacity: int) -> str:
    out = [f"Memory W {{ within: Memory::NPU_HBM, capacity: {capacity} B }}"]
    for i, events in enumerate(bodies):
        lines, tiles, dropped = [], 0, set()
        for kind, arg in events:
            if kind == "place":
                lines.append(f"let t{tiles} = transfer(Tensor<u8, [{arg}]>::fill(1), "
                             f"Memory::W);")
                tiles += 1
            elif kind == "call":
                lines.append(f"f{arg}();")
            elif arg not in dropped:
                lines.append(f"let o{arg} = transfer(t{arg}, Memory::NPU_HBM);")
                dropped.add(arg)
        out.append(f"fn f{i}() {{\n" + "\n".join(lines) + "\n}")
    out.append("fn main() {\nf0();\n}")
    return "\n".join(out) + "\n"


def _simulate(bodies, f: int = 0, resident: int = 0) -> int:
    """The peak bytes in W while f runs, by running it: a tile stays from its placement to
    its drop (its last use), and one never dropped is resident at its placement only."""
    events = bodies[f]
    sizes, last = [], {}
    for at, (kind, arg) in enumerate(events):
        if kind == "place":
            last[len(sizes)] = at
            sizes.append(arg)
        elif kind == "drop" and last.get(arg) is not None and events[last[arg]][0] == "place":
            last[arg] = at
    starts = [at for at, (kind, _) in enumerate(events) if kind == "place"]
    peak = resident
    for at, (kind, arg) in enumerate(events):
        live = sum(size for k, size in enumerate(sizes) if starts[k] <= at <= last[k])
        if kind == "call":
            held = sum(size for k, size in enumerate(sizes) if starts[k] < at <= last[k])
            peak = max(peak, _simulate(bodies, arg, resident + held))
        else:
            peak = max(peak, resident + live)
    return peak


def _verdict(text):
    """The diagnostics of the whole front end on `text`, up to the first pass reporting."""
    tree, diagnostics = parse_text(text, "calls.vx")
    ctx = Compilation(Source("calls.vx", text), diagnostics)
    for p in FRONT:
        tree = p(tree, ctx)
        if diagnostics.has_errors:
            break
    return diagnostics.items


@settings(max_examples=40, deadline=None)
@given(programs())
def test_the_fold_agrees_with_running_the_calls(bodies):
    # Every function is checked, called or not, so the peak is the largest over all of them.
    peak = max(_simulate(bodies, f) for f in range(len(bodies)))
    if peak == 0:
        return
    assert _verdict(_source(bodies, peak)) == []
    refused = _verdict(_source(bodies, peak - 1))
    # One function alone at the peak is check-capacity's (for each tile or set over the
    # capacity); a path's is the fold's.
    assert {d.code for d in refused} <= {"E6027", "E6010", "E6009"}
    assert max(d.data["required"] for d in refused) == peak


# Hand-written Lrouted: a call of a function the program lacks, which resolve-names refuses
# (E2001) before this pass. It adds nothing to its caller's total; the path through the
# function that is there still overflows.
CALL_OF_NO_FUNCTION = """
    // IL: Lrouted
    Memory Smem {
        within: Memory::NPU_HBM, capacity: 4 KiB, bandwidth: 128 B/cyc, managed: explicit
    }

    fn fill() {
        let t: Tensor<u8, [3000], Memory::Smem> =
            transfer[sync, NPU_HBM -> Smem (10), cost 10](Tensor<u8, [3000]>::fill(1),
                                                          Memory::Smem);
        @print(t[0]);
    }

    fn main() {
        let b: Tensor<u8, [2000], Memory::Smem> =
            transfer[sync, NPU_HBM -> Smem (10), cost 10](Tensor<u8, [2000]>::fill(1),
                                                          Memory::Smem);
        @ghost();
        @fill();
        @print(b[0]);
    }
"""


def test_handwritten_a_call_of_no_function_adds_nothing(run_pass, snapshot_txt):
    ran = run_pass("fold-working-sets", CALL_OF_NO_FUNCTION)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E6027", "the working set along the call path main -> fill in memory space 'Smem' "
                  "peaks at 5000 bytes, over its 4096 byte capacity")]
    assert ran.dump == snapshot_txt
