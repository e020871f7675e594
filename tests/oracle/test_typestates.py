"""`try_pin` and `match` on its result: the occupancy of each topology decides the arm."""

import io

import pytest

from nano_vx.cli import main

from nano_vx.context import Compilation
from nano_vx.deep import run_deep
from nano_vx.diagnostics import Diagnostics
from nano_vx.nanopass import descendants
from nano_vx.oracle import run_program
from nano_vx.parser import parse
from nano_vx.pipeline import PIPELINE
from nano_vx.source import Source
from oracle_run import output, stops

# Pins `x` on `topo`, and inside the arm that holds the pin tries the same topology again.
NESTED = """
Memory Pool {{ capacity: 1 MiB }}
Topology Pair {{ memory: Memory::Pool{replicas} }}

fn main() {{
    let x = Tensor<f32, [4]>::fill(1.5);
    match x.try_pin(Topology::Pair) {{
        Available(p) => {{
            print(1);
            match x.try_pin(Topology::Pair) {{
                Available(q) => {{ print(2); }}
                Saturated(v) => {{ print(3); }}
            }}
        }}
        Saturated(v) => {{ print(4); }}
    }}
}}
"""


def test_a_second_pin_of_a_topology_with_one_unit_is_saturated():
    assert output(NESTED.format(replicas="")) == "1\n3\n"
    assert output(NESTED.format(replicas=", replicas: 1")) == "1\n3\n"


def test_a_topology_with_two_replicas_admits_two_pins_and_not_three():
    assert output(NESTED.format(replicas=", replicas: 2")) == "1\n2\n"
    assert output("""
Memory Pool { capacity: 1 MiB }
Topology Pair { memory: Memory::Pool, replicas: 2 }
fn main() {
    let x = 5;
    match x.try_pin(Topology::Pair) {
        Available(a) => {
            match x.try_pin(Topology::Pair) {
                Available(b) => {
                    match x.try_pin(Topology::Pair) {
                        Available(c) => { print(3); }
                        Saturated(v) => { print(a + b); }
                    }
                }
                Saturated(v) => { print(-2); }
            }
        }
        Saturated(v) => { print(-1); }
    }
}
""") == "10\n"


def test_the_pin_ends_with_its_arm_and_the_built_in_topologies_have_one_unit():
    assert output("""
fn main() {
    let x = Tensor<i32, [2]>::fill(7);
    for i in 0..3 {
        match x.try_pin(Topology::NPU[i]) {
            Available(p) => {
                match x.try_pin(Topology::NPU[0]) {   // NPU[i] and NPU[0] share NPU's one unit
                    Available(q) => { print(-1); }
                    Saturated(v) => { print(p[i % 2] + i); }
                }
            }
            Saturated(v) => { print(-2); }
        }
    }
}
""") == "7\n8\n9\n"


def test_the_pin_ends_when_the_arm_returns_or_breaks():
    assert output("""
fn first(x: i32) -> i32 {
    match x.try_pin(Topology::GPU) {
        Available(p) => { return p + 1; }
        Saturated(v) => { return 0; }
    }
}
fn main() {
    print(first(1));
    print(first(2));                 // free again after the return
    let mut n = 0;
    while n < 3 {
        n += 1;
        match n.try_pin(Topology::GPU) {
            Available(p) => {
                if n == 2 { break; }
                continue;
            }
            Saturated(v) => { print(-1); }
        }
    }
    match n.try_pin(Topology::GPU) {  // free again after the break
        Available(p) => { print(p * 10); }
        Saturated(v) => { print(-1); }
    }
}
""") == "2\n3\n20\n"


def test_available_holds_the_value_pinned_and_saturated_the_value_as_it_was():
    assert output("""
fn main() {
    let x = Tensor<i32, [2]>::fill(4);
    match x.try_pin(Topology::NPU[1]) {
        Available(p) => {
            assert(p.topology() == Some(Topology::NPU[1]));
            print(p[0]);
            match x.try_pin(Topology::NPU[1]) {
                Available(q) => { print(0); }
                Saturated(v) => {
                    assert(v.topology() == Some(Topology::CPU));
                    print(v[1] + 1);
                }
            }
        }
        Saturated(v) => { print(0); }
    }
}
""") == "4\n5\n"


def test_a_match_is_an_expression_and_its_arms_may_come_in_either_order():
    assert output("""
fn main() {
    let x = 3;
    let got = match x.try_pin(Topology::GPU) {
        HardwareState::Saturated(v) => { v }
        HardwareState::Available(p) => {
            let again = match x.try_pin(Topology::GPU) { Saturated(v) => { v * 100 }, Available(q) => { 0 }, };
            again + p
        }
    };
    print(got);
}
""") == "303\n"


def test_a_match_on_anything_else_stops_the_program():
    stop = stops("""
fn main() {
    match 3 { Available(p) => { print(p); } Saturated(v) => { print(v); } }
}
""", "E9006")
    assert "`match` takes the result of `try_pin`, found i32" in stop.message
    stop = stops("fn main() { let h = 1.try_pin(Memory::GPU_HBM); }", "E9006")
    assert "try_pin takes one topology" in stop.message


def test_a_missing_arm_stops_the_program_and_frees_the_pin():
    # check-match-arms refuses this program (E3020); the interpreter runs every IL, the
    # source included, and stops rather than run no arm.
    stop = stops("""
fn main() {
    match 1.try_pin(Topology::GPU) { Saturated(v) => { print(v); } }
}
""", "E9006")
    assert "no arm for `Available(..)`" in stop.message


def _every_il(text: str) -> list[str]:
    """What the program prints in the source and after each pass of the whole pipeline (as
    tests/test_game.py plays the examples), every node keeping its source span."""
    ctx = Compilation(Source("typestates.vx", text), Diagnostics())
    tree = run_deep(parse, ctx.source, ctx.diagnostics)
    printed = []
    for p in [None, *PIPELINE.passes[1:]]:
        if p is not None:
            tree = run_deep(p, tree, ctx)
        assert not ctx.diagnostics.has_errors, ctx.diagnostics.render()
        assert all(node.span is not None for node in descendants(tree)), p.name
        out = io.StringIO()
        run_deep(run_program, tree, out=out)
        printed.append(out.getvalue())
    return printed


# Both arms taken, tensors pinned and moved home, a pin ended by `return`.
MOVES = """
fn attempt(x: Tensor<f32, [4]>) -> f32 {
    match x.try_pin(Topology::GPU) {
        Available(p) => {
            let inner = match x.try_pin(Topology::GPU) {
                Available(q) => { 20.0 }
                Saturated(v) => {
                    let back = transfer(v, Memory::CPU_DRAM);
                    back[1] * 10.0
                }
            };
            let home = transfer(p, Memory::CPU_DRAM);
            return home[0] + inner;
        }
        Saturated(v) => { 0.0 }
    }
}

fn main() {
    let x = Tensor<f32, [4]>::fill(1.5);
    let y = Tensor<f32, [4]>::fill(1.5);
    print(attempt(x));
    print(attempt(y));  // x moved into the first call
}
"""


@pytest.mark.parametrize("program, printed", [
    (NESTED.format(replicas=""), "1\n3\n"),
    (NESTED.format(replicas=", replicas: 2"), "1\n2\n"),
    (MOVES, "16.5\n16.5\n"),
])
def test_every_il_of_the_pipeline_takes_the_same_arms(program, printed):
    assert set(_every_il(program)) == {printed}


# Hand-written Lheld (hold-states-by-reference's output): a state bound from the parts its
# `let`s compute is Available iff its `took`, and gives its pin back through the `&mut` its
# `held` holds, which `state_part 2` of it and of the state it shares name alike.
BOUND_FROM_PARTS = """\
// IL: Lheld
Topology Pool { memory: Memory::CPU_DRAM, replicas: 2 }

fn holds(s: HardwareState<i32, Topology::Pool>) {
    match s {
        Available(p: Pinned<i32, Topology::Pool>) => {
            @print(p);
        }
        Saturated(v: Verified<i32>) => {
            @print(v + 100);
        }
    };
}

fn main() {
    let x: i32 = 1;
    let t: HardwareState<i32, Topology::Pool> = x.try_pin(Topology::Pool);
    let_state u: i32 on Topology::Pool, took u_took, held u_held = state_part 0 of t;
    let u_took: bool = state_part 1 of t;
    let mut u_held: &mut bool = state_part 2 of t;
    // w copies u, and u shares t's `held`: matching w gives t's pin back, once.
    let w: HardwareState<i32, Topology::Pool> = u;
    @print(*(state_part 2 of u));
    @holds(w);
    @print(*(state_part 2 of t));
    @print(*(state_part 2 of u));
    @holds(t);
    @holds(u);
    // One pin of two held, not minus one: c finds both taken.
    let a: HardwareState<i32, Topology::Pool> = (2).try_pin(Topology::Pool);
    let b: HardwareState<i32, Topology::Pool> = (3).try_pin(Topology::Pool);
    let c: HardwareState<i32, Topology::Pool> = (4).try_pin(Topology::Pool);
    @holds(c);
    // A state bound from a cell of its own, then given a's three parts: matching it gives
    // a's pin back, and d and e each find one free.
    let_state mut m: i32 on Topology::Pool, took m_took, held m_held = 5;
    let mut m_took: bool = false;
    let mut m_own: bool = false;
    let mut m_held: &mut bool = &mut m_own;
    @holds(m);
    m = state_part 0 of a;
    m_took = state_part 1 of a;
    m_held = state_part 2 of a;
    @holds(m);
    @print(*(state_part 2 of a));
    let d: HardwareState<i32, Topology::Pool> = (6).try_pin(Topology::Pool);
    @holds(d);
    let e: HardwareState<i32, Topology::Pool> = (7).try_pin(Topology::Pool);
    @holds(e);
}
"""


def test_a_state_bound_from_its_parts_shares_the_held_of_the_state_it_names(tmp_path):
    path = tmp_path / "held.txt"
    path.write_text(BOUND_FROM_PARTS)
    out, err = io.StringIO(), io.StringIO()
    assert main([str(path), "--action", "interpret"], out, err) == 0, err.getvalue()
    assert out.getvalue() == "true\n1\nfalse\nfalse\n1\n1\n104\n105\n2\nfalse\n6\n7\n"


def test_state_part_of_anything_but_a_state_stops_the_program(tmp_path):
    path = tmp_path / "part.txt"
    path.write_text("// IL: Lheld\nfn main() {\n    let x: i32 = 1;\n"
                    "    @print(state_part 1 of x);\n}\n")
    out, err = io.StringIO(), io.StringIO()
    assert main([str(path), "--action", "interpret"], out, err) == 1
    assert "`state_part` takes a hardware state, found i32" in err.getvalue()
