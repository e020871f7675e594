"""The work model (docs/spatial.md, "The period"): what a choreographed program makes a target do,
counted from the program itself, op by op. Nothing here is a rate or a time: `roofs` holds
the rates, `cost` turns one op's work into cycles, and `Work` totals a whole run.

One op's work (`OpWork`):

- `read` moves its tile from DRAM into its site's SRAM; `write` the buffer's front token from
  SRAM to DRAM (bytes: the token's shape times its element size);
- `send b k` carries k tokens from the engine's site to the buffer's site over the mesh and
  `multicast g k` k tokens to every receiver's site, once along each link of the tree the
  routes to the receivers make; a route is dimension-ordered, along the source's row to the
  destination's column, then along that column (the mesh has no wrap-around links);
- `fire` performs element operations: a matmul one multiply-accumulate per (row, inner,
  column) of each pair of tiles, add and mul one per output element, scale and exp one per
  element, sum and max one per input element, a scalar body one per operation of its body
  per output element; it reads its input tokens from SRAM and writes its output tokens; a
  matmul or a float reduction the site's matrix unit takes (`matrix.py`, when the target is
  given) is that unit's cycles instead of element operations of the vector unit;
- `signal` on a semaphore of another site crosses the hops between them;
- the other ops (reserve, push, wait_front, pop, wait, barrier) move no data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from math import prod

from .matrix import on_matrix, stage_cycles
from .program import Program, ins, outs
from .shapes import token_bytes, token_shapes

Site = tuple[int, int]
Link = tuple[Site, Site]


@dataclass(frozen=True)
class OpWork:
    """What one execution of one op does. `links` are the directed mesh links its bytes cross
    (each once); `hops` the distance to its farthest destination; `sram` the bytes it reads or
    writes in each site's SRAM; `ops` its element operations, of `kind` in `dtype`."""

    dram_read: int = 0
    dram_write: int = 0
    net_bytes: int = 0
    links: tuple[Link, ...] = ()
    hops: int = 0
    sram: tuple[tuple[Site, int], ...] = ()
    ops: int = 0
    kind: str | None = None
    dtype: str | None = None
    matrix: object = 0  # cycles on the site's matrix unit (a Fraction), when it runs there


def route(a: Site, b: Site) -> tuple[Link, ...]:
    """The links from site a to site b: along a's row to b's column, then along that column."""
    links, here = [], a
    while here[1] != b[1]:
        step = (here[0], here[1] + (1 if b[1] > here[1] else -1))
        links.append((here, step))
        here = step
    while here[0] != b[0]:
        step = (here[0] + (1 if b[0] > here[0] else -1), here[1])
        links.append((here, step))
        here = step
    return tuple(links)


def tree(source: Site, sinks) -> tuple[Link, ...]:
    """The links of the routes from `source` to every sink, each once, in route order."""
    return tuple(dict.fromkeys(link for s in sinks for link in route(source, s)))


class OpWorks:
    """`of(site, op)`: the work of one op of a program's schedules, with the program's token
    sizes worked out once."""

    def __init__(self, graph, target=None):
        self.p = Program(graph)
        self.target = target  # whose matrix unit a matmul may run on
        self.shapes = token_shapes(self.p)
        self.sem_site = {s.name: s.site for s in self.p.table("semaphores")}

    def token(self, stream: str) -> int:
        return token_bytes(self.p, self.shapes, stream)

    def elements(self, stream: str) -> int:
        return prod(self.shapes.get(stream, ()))

    def of(self, site: Site, op) -> OpWork:
        p, kind = self.p, op._prod
        if kind == "Read":
            stage = p.stages[op.stage]
            n = self.token(outs(stage)[0].stream)
            return OpWork(dram_read=n, sram=((site, n),))
        if kind == "Write":
            n = self.token(op.buffer)
            return OpWork(dram_write=n, sram=((site, n),))
        if kind == "Send":
            n = op.count * self.token(op.buffer)
            to = p.buffers[op.buffer].site
            path = route(site, to)
            return OpWork(net_bytes=n, links=path, hops=len(path), sram=((site, n), (to, n)))
        if kind == "Multicast":
            streams = p.groups[op.group].streams
            n = op.count * self.token(streams[0])
            sinks = tuple(dict.fromkeys(p.buffers[s].site for s in streams))
            hops = max((len(route(site, s)) for s in sinks), default=0)
            return OpWork(net_bytes=n, links=tree(site, sinks), hops=hops,
                          sram=((site, n), *((s, n) for s in sinks)))
        if kind == "Signal":
            return OpWork(hops=len(route(site, self.sem_site[op.sem])))
        if kind == "Fire":
            return self._fire(site, p.stages[op.stage])
        return OpWork()

    def _fire(self, site: Site, stage) -> OpWork:
        p = self.p
        taken = sum(port.rate * self.token(port.stream) for port in ins(stage))
        made = sum(port.rate * self.token(port.stream) for port in outs(stage))
        matrix = 0
        if self.target is not None and on_matrix(self.target, p, stage):
            shapes = [self.shapes[port.stream] for port in stage.ins]
            matrix = stage_cycles(self.target, p, stage, shapes, stage.ins[0].rate)
        return OpWork(sram=((site, taken + made),), ops=self.element_ops(stage),
                      kind=getattr(stage, "op", "scalar"), dtype=p.stage_dtype(stage),
                      matrix=matrix)

    def element_ops(self, stage) -> int:
        """Element operations of one firing (module docstring)."""
        inputs, out = ins(stage), outs(stage)
        rate = inputs[0].rate if inputs else 1
        made = self.elements(out[0].stream) * rate if out else 0
        if stage._prod == "Scalar":
            return made * _operations(stage.body)
        if stage.op == "matmul_acc":
            m, k = self.shapes[inputs[0].stream]
            return rate * m * k * self.shapes[inputs[1].stream][1]
        if stage.op in ("sum", "max"):
            return rate * self.elements(inputs[0].stream)
        return made


def _operations(e) -> int:
    """The operations of a scalar body: every unary and binary node."""
    kind = e._prod
    if kind == "Bin":
        return 1 + _operations(e.a) + _operations(e.b)
    if kind == "Un":
        return 1 + _operations(e.a)
    return 0


def executions(ops, times: int = 1):
    """Each op of a schedule with how many times one run executes it."""
    for op in ops:
        if op._prod == "Repeat":
            yield from executions(op.body, times * op.count)
        else:
            yield op, times


@dataclass
class Work:
    """A whole run's work: DRAM bytes per load and store stage, bytes over each mesh link,
    bytes each buffer receives over the mesh with their hops, bytes each multicast group
    carries with the links of its tree, element operations per site per (op kind, element
    type) on its vector unit and cycles on its matrix unit, SRAM bytes per site, and per engine its DRAM bytes (what the cost model shares
    the DRAM bandwidth by)."""

    dram_read: dict[str, int] = field(default_factory=dict)
    dram_write: dict[str, int] = field(default_factory=dict)
    links: dict[Link, int] = field(default_factory=dict)
    sent: dict[str, tuple[int, int]] = field(default_factory=dict)
    multicast: dict[str, tuple[int, int]] = field(default_factory=dict)
    ops: dict[tuple[Site, str, str], int] = field(default_factory=dict)
    sram: dict[Site, int] = field(default_factory=dict)
    matrix: dict[Site, object] = field(default_factory=dict)  # matrix-unit cycles per site
    engine_dram: dict[tuple[Site, str], int] = field(default_factory=dict)

    @cached_property
    def dram_bytes(self) -> int:
        return sum(self.dram_read.values()) + sum(self.dram_write.values())

    def site_ops(self) -> dict[Site, dict[str, int]]:
        """Per site, element operations per element type."""
        out: dict[Site, dict[str, int]] = {}
        for (site, _, dtype), n in self.ops.items():
            out.setdefault(site, {})
            out[site][dtype] = out[site].get(dtype, 0) + n
        return out


def _add(table: dict, key, n: int) -> None:
    table[key] = table.get(key, 0) + n


def work(graph, works: OpWorks | None = None) -> Work:
    """The work of one run of a choreographed program (every op times its executions)."""
    works = works or OpWorks(graph)
    total = Work()
    for sched in works.p.table("schedules"):
        engine = (sched.site, sched.engine)
        total.engine_dram.setdefault(engine, 0)
        for op, times in executions(sched.ops):
            w = works.of(sched.site, op)
            if w.dram_read:
                _add(total.dram_read, op.stage, times * w.dram_read)
            if w.dram_write:
                _add(total.dram_write, op.stage, times * w.dram_write)
            _add(total.engine_dram, engine, times * (w.dram_read + w.dram_write))
            for link in w.links:
                _add(total.links, link, times * w.net_bytes)
            if op._prod == "Send":
                bytes_, hops = total.sent.get(op.buffer, (0, w.hops))
                total.sent[op.buffer] = (bytes_ + times * w.net_bytes, hops)
            elif op._prod == "Multicast":
                bytes_, links = total.multicast.get(op.group, (0, len(w.links)))
                total.multicast[op.group] = (bytes_ + times * w.net_bytes, links)
            for site, n in w.sram:
                _add(total.sram, site, times * n)
            if w.matrix:
                _add(total.matrix, sched.site, times * w.matrix)
            elif w.ops:  # a relay's copy (relay-tokens) moves SRAM bytes and computes nothing
                _add(total.ops, (sched.site, w.kind, w.dtype), times * w.ops)
    return total
