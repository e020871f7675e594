"""The tiling planner of the spatial lane: the tile grid a dataflow graph is cut by, chosen by
the cost model, and what it means for each stage (the loop nest it takes tiles in, the tiles
of each input it takes per firing). The `tile` pass asks it for a plan and writes the plan
into the program.

Every axis of every token is a dimension; an op says which axes are one dimension (a matmul's
inner extents, an elementwise op's aligned axes, a transpose's input rows and output columns)
and which it reduces (a matmul's inner one,
the axis of a sum or max). A dimension can be cut into tiles when the tiles of every stream
that carries it can flow in one order: a reduced dimension is reduced by one stage and no op
broadcasts over it, and no op broadcasts a computed stream over a cut dimension (a load can
repeat a tile, and so can a transpose of a load's tiles; another computed stream cannot). Dimensions are ordered output dimensions first and
reduced ones last, so each stage fires once per tile of its output, taking the tiles of the
dimensions it reduces innermost (a reduction takes K/tk tiles of each input per firing; a
matmul takes one of each and accumulates `over` its K/tk firings, so its buffers hold
K-blocks, not panels).

Among the grids that divide every extent, the planner picks the one with the fewest cycles by
the cost model: the largest of compute (ops over the rate of the sites `place` will fill),
DRAM (bytes moved, re-reads included, a tile `fuse-readers` will multicast to a row or
column of the cut counted once, over the DRAM bandwidth) and the busiest reader engine
(tiles over its link, a multicast sender's twice, a relay's copy), plus the fill (every site's
first tile of each load, over the DRAM bandwidth), one network hop per firing of the busiest
site and half a DRAM latency per read (a double buffer keeps two in flight). A grid is allowed
only when every stream's tiles fit one site's SRAM, double-buffered or as many as its consumer
takes per firing, and a block float's tiles keep its blocks of 16 whole. A graph with rates other than 1, or one whose dimensions cannot be ordered,
keeps whole-tensor tiles, one per firing. Nothing fits: E7010, naming the largest tile.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from math import gcd, prod

from .cost import compute_cycles, divisors, dram_cycles, split_counts
from ..values.block_floats import BLOCK
from .elements import ELEMENTS
from .matrix import on_matrix, stage_cycles
from .program import Program, ins, outs
from .reject import SpatialReject
from .shapes import token_shapes


@dataclass
class Dims:
    """Union-find over the axes of streams and tensors."""

    parent: dict = field(default_factory=dict)
    extent: dict = field(default_factory=dict)

    def add(self, key, n: int) -> None:
        self.parent.setdefault(key, key)
        self.extent[key] = n

    def find(self, key):
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def union(self, a, b) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra


@dataclass
class Plan:
    grid: dict  # dimension -> tiles along it (1: not cut)
    order: list  # every dimension, output ones first, reduced ones last
    stream_dims: dict  # stream -> the dimension of each axis (None: an axis of extent 1)
    reduces: dict  # stage -> dimensions it reduces
    names: dict  # dimension -> loop variable
    shapes: dict  # stream -> its whole-tensor token shape
    whole: bool = False  # keep whole-tensor tiles

    def with_grid(self, grid: dict) -> "Plan":
        return Plan({**self.grid, **grid}, self.order, self.stream_dims, self.reduces,
                    self.names, self.shapes)

    def tile_shape(self, stream: str) -> tuple:
        return tuple(n // self.grid.get(d, 1) if d is not None else n
                     for n, d in zip(self.shapes[stream], self.stream_dims[stream]))


# -- the dimensions of a graph ---------------------------------------------------------------

def _dims(p: Program, shapes) -> tuple[Dims, dict, list]:
    """Union the axes an op makes one dimension; return what each stage reduces and every
    broadcast (stage, dimension, stream broadcast, whether a load makes that stream)."""
    dims = Dims()
    for s, shape in shapes.items():
        for a, n in enumerate(shape):
            dims.add((s, a), n)
    reduces: dict[str, list] = {}
    broadcasts: list = []
    for st in p.stages.values():
        kind = st._prod
        out = outs(st)
        first = out[0].stream if out else None
        for port in out[1:]:
            for a in range(len(shapes[first])):
                dims.union((first, a), (port.stream, a))
        if kind in ("Load", "Store"):
            continue
        inputs = [port.stream for port in st.ins]
        op = getattr(st, "op", "scalar")
        if op == "matmul_acc":
            a, b = inputs
            dims.union((a, 0), (first, 0))
            dims.union((b, 1), (first, 1))
            dims.union((a, 1), (b, 0))
            reduces.setdefault(st.name, []).append((a, 1))
        elif op in ("sum", "max"):
            for ax in range(len(shapes[first])):
                if ax != st.axis:
                    dims.union((inputs[0], ax), (first, ax))
            reduces.setdefault(st.name, []).append((inputs[0], st.axis))
        elif op == "transpose":
            dims.union((inputs[0], 0), (first, 1))
            dims.union((inputs[0], 1), (first, 0))
        else:
            rank = len(shapes[first])
            for s in inputs:
                shift = rank - len(shapes[s])
                for ax in range(rank):
                    n_out = shapes[first][ax]
                    n_in = shapes[s][ax - shift] if ax >= shift else 1
                    if n_in == n_out:
                        if ax >= shift:
                            dims.union((s, ax - shift), (first, ax))
                    elif n_out > 1:
                        from_load = repeats(p, p.stages[p.producer(s).stage])
                        broadcasts.append((st.name, (first, ax), s, from_load))
    return dims, reduces, broadcasts


def _analyse(p: Program):
    """The plan with nothing cut, the dimensions that may be cut, and their extents; None
    when the graph keeps whole tiles."""
    if any(port.rate != 1 for st in p.stages.values() for port in (*ins(st), *outs(st))):
        return None
    shapes = token_shapes(p)
    dims, reduces_axes, broadcasts = _dims(p, shapes)
    root = dims.find
    stream_dims = {s: tuple(root((s, a)) if n > 1 else None for a, n in enumerate(shape))
                   for s, shape in shapes.items()}
    reduces = {st: [root(k) for k in keys if dims.extent[k] > 1]
               for st, keys in reduces_axes.items()}
    reduced_by: dict = {}
    for st, ds in reduces.items():
        for d in ds:
            reduced_by.setdefault(d, set()).add(st)
    blocked = {root(k) for _, k, _, from_load in broadcasts if not from_load}
    blocked |= {root(k) for _, k, _, _ in broadcasts if root(k) in reduced_by}
    blocked |= {d for d, sts in reduced_by.items() if len(sts) > 1}
    # One stream carrying a dimension on two axes (X @ X from one load) would need tile
    # (t, u) with t != u, which the one loop of that dimension cannot name.
    blocked |= {d for ds in stream_dims.values() for d in ds
                if d is not None and ds.count(d) > 1}
    order = _order(p, stream_dims, reduced_by)
    cuttable = [d for d in order if d not in blocked]
    names = dict(zip(order, _loop_names(len(order))))
    plan = Plan({d: 1 for d in order}, order, stream_dims, reduces, names, shapes)
    return plan, cuttable, dims


def _order(p: Program, stream_dims, reduced_by) -> list:
    seen: dict = {}  # insertion-ordered set: a stream may carry one dimension twice
    stores = [st for st in p.stages.values() if st._prod == "Store"]
    for ds in [stream_dims[st.input.stream] for st in stores] + list(stream_dims.values()):
        seen.update((d, None) for d in ds if d is not None)
    kept = [d for d in seen if d not in reduced_by]
    return kept + [d for d in seen if d in reduced_by]


def _loop_names(n: int) -> list[str]:
    base = "ijklmnpqrstuvw"
    return [base[i] if i < len(base) else f"d{i}" for i in range(n)]


def repeats(p: Program, st) -> bool:
    """Whether a stage fires again for every tile its consumer takes, walking its consumer's
    nest: a load, which reads a tile again, and a transpose of a stream such a stage makes,
    which transposes it again (so the keys of an attention head, transposed, follow the
    blocks of rows of its queries instead of keeping them whole)."""
    if st._prod == "Load":
        return True
    return (st._prod == "Compute" and st.op == "transpose" and len(st.outs) == 1
            and repeats(p, p.stages[p.producer(st.ins[0].stream).stage]))


def firing_dims(p: Program, plan: Plan, stage: str) -> list:
    """The cut dimensions a stage fires once per tile of: those of its output (a store: of
    its input), in the plan's order."""
    st = p.stages[stage]
    stream = st.input.stream if st._prod == "Store" else st.outs[0].stream
    have = set(plan.stream_dims[stream])
    return [d for d in plan.order if d in have and plan.grid[d] > 1]


def nest(p: Program, plan: Plan, stage: str) -> list:
    """The order a stage takes tiles in: its firing dimensions, then those it reduces; a
    stage that repeats takes them in its consumer's order."""
    st = p.stages[stage]
    if st._prod != "Load" and repeats(p, st):
        return nest(p, plan, p.consumer(st.outs[0].stream).stage)
    inner = [d for d in plan.order if d in plan.reduces.get(stage, ()) and plan.grid[d] > 1]
    return firing_dims(p, plan, stage) + inner


def rate(p: Program, plan: Plan, stage: str, stream: str) -> int:
    """The tiles of `stream` a stage takes per firing: one per tile of each cut dimension it
    reduces, but one for a matmul, which accumulates over its K-blocks instead (`over`)."""
    if over(p, plan, stage) is not None:
        return 1
    have = set(plan.stream_dims[stream])
    return prod(plan.grid[d] for d in plan.reduces.get(stage, ()) if d in have)


def over(p: Program, plan: Plan, stage: str) -> int | None:
    """The firings a matmul sums its products over: the tiles of its cut inner dimension,
    one K-block a firing, so its input buffers hold blocks rather than panels (None: its
    inner dimension is whole, one firing a product)."""
    if getattr(p.stages[stage], "op", None) != "matmul_acc":
        return None
    n = prod(plan.grid[d] for d in plan.reduces.get(stage, ()))
    return n if n > 1 else None


def _consistent(p: Program, plan: Plan) -> bool:
    """Every stream's tiles come out of its producer in the order its consumer takes them:
    a computed stream in its producer's firing order; a load repeats to follow its consumer,
    and every consumer of one load takes the same order."""
    for st in p.stages.values():
        if st._prod == "Load":
            nests = {tuple(nest(p, plan, p.consumer(port.stream).stage)) for port in st.outs}
            if len(nests) > 1:
                return False
            continue
        if st._prod == "Store" and repeats(p, p.stages[p.producer(st.input.stream).stage]):
            continue
        for port in ins(st):
            producer = p.stages[p.producer(port.stream).stage]
            if repeats(p, producer):
                continue
            if nest(p, plan, st.name) != firing_dims(p, plan, producer.name):
                return False
    return True


# -- choosing the grid -----------------------------------------------------------------------

def plan_tiles(p: Program, target) -> Plan:
    """The plan of `p` with the fewest cycles on `target` among those that fit a site's SRAM;
    SpatialReject E7010 when none fits."""
    found = _analyse(p)
    if found is None:
        return _whole(p, target)
    plan, cuttable, dims = found
    best, smallest = None, None
    for grid in _candidates(cuttable, dims):
        trial = plan.with_grid(grid)
        if not _consistent(p, trial) or not _whole_blocks(p, trial, target):
            continue
        need = _working_set(p, trial, target)
        smallest = need if smallest is None else min(smallest, need)
        if need > target.sram_bytes:
            continue
        cost = (_cycles(p, trial, target), -prod(grid.values()))
        if best is None or cost < best[0]:
            best = (cost, trial)
    if best is None:
        biggest = max(p.streams, key=lambda s: prod(plan.shapes[s]))
        raise SpatialReject(
            "E7010", "tile",
            f"no tiling of '{p.name}' fits one site of {target.name}: the smallest of them, "
            f"every stream's tiles at least double-buffered, needs {smallest:,} bytes and a "
            f"site has "
            f"{target.sram_bytes:,} (the largest stream is '{biggest}', "
            f"{list(plan.shapes[biggest])} {p.token_dtype(biggest)})",
            stage=p.producer(biggest).stage, buffer=biggest)
    return best[1]


def _whole_blocks(p: Program, plan: Plan, target) -> bool:
    """A block float's tile cuts no block: its last extent is the stream's or a multiple of
    the block, so a tile's blocks are the tensor's and a stage rounds them as the whole
    tensor's would be rounded. On a target with a matrix unit, whose block floats live in
    its tiles (tt-metal's tile layout), each of its last two extents is also the stream's or
    a multiple of that tile."""
    for s in p.streams:
        if ELEMENTS[p.token_dtype(s)].block is None:
            continue
        unit = target.matrix.tile if target.matrix is not None else BLOCK
        for axis, (cut, whole) in enumerate(zip(plan.tile_shape(s)[::-1][:2],
                                                plan.shapes[s][::-1][:2])):
            step = unit if target.matrix is not None else BLOCK if axis == 0 else 1
            if cut != whole and cut % step:
                return False
    return True


def _candidates(cuttable, dims: Dims):
    choices = []
    for d in cuttable:
        n = dims.extent[d]
        options = divisors(n)
        if len(options) > 12:  # keep the search small: powers of two and the extremes
            options = sorted({1, n, *(x for x in options if x & (x - 1) == 0)})
        choices.append(options)
    for combo in itertools.product(*choices):
        yield dict(zip(cuttable, combo))


def _tile_bytes(p: Program, plan: Plan, stream: str) -> int:
    return _bytes(p, stream, plan.tile_shape(stream))


def _bytes(p: Program, stream: str, shape) -> int:
    return ELEMENTS[p.token_dtype(stream)].nbytes(shape)


def _working_set(p: Program, plan: Plan, target) -> int:
    """SRAM one copy of the pipeline needs: every stream's tiles at the smallest depth that
    does not deadlock (a consumer taking r tiles per firing needs r), at least two (double
    buffering); twice over for a load multicast to an engine the target keeps off
    semaphores, which `relay-tokens` gives a relay buffer as deep beside its own."""
    cut = _cut(p, plan, target)
    total = 0
    for s in p.streams:
        made, taken = 1, rate(p, plan, p.consumer(s).stage, s)
        depth = max(2, made + taken - gcd(made, taken))
        copies = 2 if _relayed(p, plan, s, cut, target) else 1
        total += copies * depth * target.granule * target.granules(_tile_bytes(p, plan, s))
    return total


def _relayed(p: Program, plan: Plan, stream: str, cut: dict, target) -> bool:
    producer = p.stages[p.producer(stream).stage]
    consumer = p.stages[p.consumer(stream).stage]
    return (producer._prod == "Load" and consumer._prod in ("Compute", "Scalar")
            and "compute" not in target.semaphore_engines
            and _readers(p, plan, producer, cut, target) > 1)


def _cut(p: Program, plan: Plan, target) -> dict:
    """The cut dimensions `place` splits the graph along, and into how many blocks each."""
    splittable = _splittable(p, plan)
    return dict(zip(splittable, split_counts([plan.grid[d] for d in splittable],
                                             target.rows * target.cols)))


def _cycles(p: Program, plan: Plan, target) -> float:
    firings = {}
    for name, st in p.stages.items():
        dims = (nest(p, plan, p.consumer(st.outs[0].stream).stage) if repeats(p, st)
                else nest(p, plan, name) if over(p, plan, name) else firing_dims(p, plan, name))
        firings[name] = prod(plan.grid[d] for d in dims)
    cut = _cut(p, plan, target)
    sites = prod(cut.values())
    readers = {n: _readers(p, plan, st, cut, target)
               for n, st in p.stages.items() if st._prod == "Load"}
    moved = sum(firings[n] * _tile_bytes(p, plan, (st.outs[0] if st._prod == "Load"
                                                    else st.input).stream) / readers.get(n, 1)
                for n, st in p.stages.items() if st._prod in ("Load", "Store"))
    work = sum(firings[n] * _firing_cycles(p, plan, st, target)
               for n, st in p.stages.items() if st._prod not in ("Load", "Store"))
    loads = [n for n, st in p.stages.items() if st._prod == "Load"]
    busiest = -(-sum(firings.values()) // sites)
    busiest_reads = -(-sum(firings[n] for n in loads) // sites)
    # Before the first firing every site waits for its first tile of each load, so large
    # tiles fill the pipeline slowly; small ones pay a hop per firing, and a DRAM latency per
    # read with the two reads a double buffer keeps in flight.
    fill = dram_cycles(target, sites * sum(_tile_bytes(p, plan, p.stages[n].outs[0].stream)
                                           / readers[n] for n in loads))
    per_firing = busiest * target.hop_cycles + busiest_reads * target.dram_latency_cycles / 2
    # A multicast tile waits for the credit of its farthest receiver, hops away along a
    # row or column of the cut (`cost.multicast_cycles`), and back.
    barriers = sum(firings[n] * 2 * (readers[n] - 1) * target.hop_cycles
                   for n in loads) / sites
    reading = sum(firings[n] * _reader_cycles(p, plan, p.stages[n], readers[n], cut, target)
                  for n in loads) / sites
    return (max(work / sites, dram_cycles(target, moved), reading) + fill + per_firing
            + barriers)


def _reader_cycles(p: Program, plan: Plan, load, readers: int, cut: dict, target) -> float:
    """A reader engine's time for one tile of a load: the tile over the link into its site;
    a multicast sender (the first site of a row or column of the cut sends for all of it,
    the first site of all for both) also over a link out, and a relaying receiver copies
    it within its SRAM."""
    stream = load.outs[0].stream
    nbytes = _tile_bytes(p, plan, stream)
    cycles = nbytes / target.link_bytes_per_cycle * (2 if readers > 1 else 1)
    if _relayed(p, plan, stream, cut, target):
        cycles += 2 * nbytes / target.sram_bytes_per_cycle
    return cycles


def _readers(p: Program, plan: Plan, load, cut: dict, target) -> int:
    """The sites that read each tile of a load once `place` has cut the cut dimensions
    into `cut` blocks: the blocks along every cut dimension its tiles do not have (the
    copies of A's loads along a GEMM's output columns read one row panel). On a target that
    multicasts and `place` lays the blocks out as a grid of the mesh (so the copies that
    share a tile fill a row or a column of it, a rectangle), `fuse-readers` reads such a
    tile once for all of them and DRAM serves it once; elsewhere every site reads its own
    copy."""
    counts = list(cut.values())
    grid = len(counts) == 2 and counts[0] <= target.rows and counts[1] <= target.cols
    if not target.multicast or not grid:
        return 1
    have = set(plan.stream_dims[load.outs[0].stream])
    return prod(n for d, n in cut.items() if d not in have)


def _firing_cycles(p: Program, plan: Plan, st, target):
    """One firing's compute: on the site's matrix unit when it takes the stage, else its
    element operations at the vector unit's rate."""
    if on_matrix(target, p, st):
        shapes = [plan.tile_shape(port.stream) for port in st.ins]
        return stage_cycles(target, p, st, shapes, rate(p, plan, st.name, st.ins[0].stream))
    return compute_cycles(target, p.stage_dtype(st), _ops(p, plan, st))


def _ops(p: Program, plan: Plan, st) -> int:
    """Element operations of one firing: 2mkn per pair of tiles a matmul takes, else one per
    element of every input tile taken."""
    if getattr(st, "op", None) == "matmul_acc":
        m, k = plan.tile_shape(st.ins[0].stream)
        n = plan.tile_shape(st.ins[1].stream)[1]
        return 2 * m * k * n * rate(p, plan, st.name, st.ins[0].stream)
    return sum(prod(plan.tile_shape(port.stream)) * rate(p, plan, st.name, port.stream)
               for port in st.ins)


def _splittable(p: Program, plan: Plan) -> list:
    """The cut output dimensions every load and store walks: those `place` cuts the graph
    along."""
    common = None
    for name, st in p.stages.items():
        if st._prod == "Load":
            dims = set(nest(p, plan, p.consumer(st.outs[0].stream).stage))
        elif st._prod == "Store":
            dims = set(firing_dims(p, plan, name))
        else:
            continue
        common = dims if common is None else common & dims
    return [d for d in plan.order if common and d in common and not _is_reduced(plan, d)]


def _is_reduced(plan: Plan, d) -> bool:
    return any(d in ds for ds in plan.reduces.values())


def _whole(p: Program, target) -> Plan:
    shapes = token_shapes(p)
    need = 0
    for s in p.streams:
        made, taken = p.producer(s).rate, p.consumer(s).rate
        depth = max(2, made + taken - gcd(made, taken))
        need += depth * target.granule * target.granules(_bytes(p, s, shapes[s]))
    if need > target.sram_bytes:
        biggest = max(p.streams, key=lambda s: prod(shapes[s]))
        raise SpatialReject(
            "E7010", "tile",
            f"'{p.name}' keeps whole-tensor tiles (its rates are not all 1) and its streams, "
            f"each at least double-buffered or as deep as its rates ask, need {need:,} bytes "
            f"on one site; {target.name} has {target.sram_bytes:,} (the largest is "
            f"'{biggest}', {list(shapes[biggest])} {p.token_dtype(biggest)})",
            stage=p.producer(biggest).stage, buffer=biggest)
    return Plan({}, [], {}, {}, {}, shapes, whole=True)
