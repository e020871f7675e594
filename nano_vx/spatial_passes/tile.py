"""tile: Sdataflow -> Stiled."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.sdataflow import Sdataflow
from ..languages.stiled import Stiled
from ..nanopass import Pass
from ..spatial.balance import repetitions
from ..spatial.program import Program
from ..spatial.tiling import Plan, firing_dims, nest, over, plan_tiles, rate


@dataclass
class State:
    plan: Plan | None = None  # asked of the planner by the Graph handler, before the stages
    program: Program | None = None


tile = Pass("tile", Sdataflow, Stiled, """
Give every load and store a tile shape and a loop nest, chosen by the cost model (E7010 when no
tiling fits a site).

The tiling planner (`nano_vx/spatial/tiling.py`) chooses the grid: the dimensions a graph can
be cut along, ordered output dimensions first and reduced ones last, and among the grids that
divide every extent and fit one site's SRAM the one with the fewest cycles by the cost model.
This pass writes its plan into the program: each load and store takes its stream's tile
shape, the loop nest of the stage that fires with it (a load the nest of its consumer, a store
its input's firing dimensions) and an index naming each cut axis by its loop; a stage that
reduces a cut dimension takes as many tiles of each input per firing as that dimension has,
but a matmul takes one tile of each a firing and accumulates `over` the tiles of its cut
inner dimension (its K-blocks), putting the sum once they are all in. A
graph with rates other than 1, or one whose dimensions cannot be ordered, keeps whole-tensor
tiles, one per firing. Nothing fits: E7010, naming the largest tile.
""", requires=("target",), state=State)


@tile.on("Graph")
def _graph(run, g):
    p = Program(g)
    run.state.plan = plan_tiles(p, run.ctx.target)
    run.state.program = p
    return run.rebuild(g)


@tile.on("Load")
def _load(run, st):
    p, plan = run.state.program, run.state.plan
    if plan.whole:  # a whole plan has no dimensions to take a nest from
        return _whole_access(Stiled["Load"], st, p, st.outs)
    consumer = p.consumer(st.outs[0].stream).stage
    return _access(Stiled["Load"], st, plan, nest(p, plan, consumer), st.outs)


@tile.on("Store")
def _store(run, st):
    p, plan = run.state.program, run.state.plan
    if plan.whole:
        return _whole_access(Stiled["Store"], st, p, st.input)
    return _access(Stiled["Store"], st, plan, firing_dims(p, plan, st.name), st.input)


@tile.on("Compute")
def _compute(run, st):
    plan, p = run.state.plan, run.state.program
    ports, n = st.ins, None
    if not plan.whole and plan.reduces.get(st.name):
        ports = tuple(port.replace(rate=rate(p, plan, st.name, port.stream)) for port in st.ins)
        n = over(p, plan, st.name)
    return Stiled["Compute"](st.name, st.op, st.axis, st.factor, ports, st.outs, st.via, n,
                             span=st.span)


@tile.on("Scalar")
def _scalar(run, st):
    plan = run.state.plan
    if plan.whole or not plan.reduces.get(st.name):
        return st
    p = run.state.program
    rates = [rate(p, plan, st.name, port.stream) for port in st.ins]
    return st.replace(ins=tuple(port.replace(rate=r) for port, r in zip(st.ins, rates)))


def _whole_access(cls, st, p: Program, ports):
    """The whole tensor at every firing, the firings counted by a loop `r`."""
    shape = p.tensors[st.tensor].shape
    reps = repetitions(p)[st.name]
    loops = (Stiled["Loop"]("r", 0, reps, 1),) if reps > 1 else ()
    return cls(st.name, st.tensor, shape, loops, ("0",) * len(shape), ports, span=st.span)


def _access(cls, st, plan: Plan, nest_dims, ports):
    stream = ports[0].stream if isinstance(ports, tuple) else ports.stream
    dims = plan.stream_dims[stream]
    index = tuple(plan.names[d] if d is not None and plan.grid[d] > 1 else "0" for d in dims)
    loops = tuple(Stiled["Loop"](plan.names[d], 0, plan.grid[d], 1) for d in nest_dims)
    return cls(st.name, st.tensor, plan.tile_shape(stream), loops, index, ports, span=st.span)
