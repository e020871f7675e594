"""What both backends need to know about a choreographed program before writing a line: who
produces and consumes each buffer and from which site, the element shape of every token, the
tiles each load and store walks, which semaphore counts which buffer's credits, and, from a
walk of every schedule, the staging each engine needs.

Both backends stage a token in place: `read` and `fire` write it straight into the slot the
producer will put it in, so the slot must be held (by `reserve`, a credit `wait` or a
`barrier`) before the token is staged. `staging_faults` finds the ops that stage without one;
a group's tokens are staged apart, in the group's own staging area, whose depth is the most
tokens the walk ever finds staged there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..spatial.ops import access_slices, accumulating
from ..spatial.program import Program, ins, outs
from ..spatial.shapes import token_shapes
from .compute import elems


@dataclass
class Walk:
    held: dict = field(default_factory=dict)
    staged: dict = field(default_factory=dict)
    group_staged: dict = field(default_factory=dict)
    group_peak: dict = field(default_factory=dict)
    faults: list = field(default_factory=list)
    summed: dict = field(default_factory=dict)  # an accumulating stage's firings since it put

    def key(self) -> tuple:
        return tuple(tuple(sorted((k, v) for k, v in d.items() if v))
                     for d in (self.held, self.staged, self.group_staged, self.summed))


class Plan:
    def __init__(self, graph):
        p = self.p = Program(graph)
        self.graph = graph
        self.shapes = token_shapes(p)
        self.schedules = list(p.table("schedules"))
        self.sites = sorted({s.site for s in self.schedules})
        self.credit_of = {h.credit: b for b, h in p.handshakes.items() if h.credit}
        self.data_of = {h.data: b for b, h in p.handshakes.items() if h.data}
        self.group_peak: dict[str, int] = {}
        self.faults: list[str] = []
        for s in self.schedules:
            walk = Walk()
            self._walk(s.ops, walk, s)
            self.group_peak.update(walk.group_peak)
            self.faults += walk.faults

    # -- buffers ---------------------------------------------------------------------------

    def buffer(self, name: str):
        return self.p.buffers[name]

    def producer_site(self, stream: str) -> tuple:
        return self.p.places[self.p.producer(stream).stage][0]

    def remote(self, stream: str) -> bool:
        """Whether the buffer's producer is on another site than its slots."""
        return self.producer_site(stream) != self.p.buffers[stream].site

    def elems(self, stream: str) -> int:
        return elems(self.shapes[stream])

    def dtype(self, stream: str) -> str:
        return self.p.token_dtype(stream)

    def group_dtype(self, group: str) -> str:
        return self.dtype(self.p.groups[group].streams[0])

    def group_elems(self, group: str) -> int:
        return self.elems(self.p.groups[group].streams[0])

    def group_site(self, group: str) -> tuple:
        return self.p.places[self.p.groups[group].stage][0]

    def site_schedules(self, site) -> list:
        return [s for s in self.schedules if s.site == site]

    # -- accesses --------------------------------------------------------------------------

    def tiles(self, stage_name: str) -> list[tuple[int, ...]]:
        """The origin (first element per dimension) of each tile a load or store walks, in
        firing order."""
        st = self.p.stages[stage_name]
        shape = self.p.tensors[st.tensor].shape
        return [tuple(s.start for s in sl) for sl in access_slices(st, shape)]

    def tile_shape(self, stage_name: str) -> tuple[int, ...]:
        st = self.p.stages[stage_name]
        return tuple(getattr(st, "tile", self.p.tensors[st.tensor].shape))

    def made(self, stage) -> int:
        """Tokens one firing puts on each output port (ops.fire; an accumulating stage's
        firing that puts)."""
        if stage._prod == "Compute" and stage.op in ("matmul_acc", "sum", "max"):
            return 1
        return min(port.rate for port in ins(stage))

    # -- the walk --------------------------------------------------------------------------

    def _walk(self, ops, w: Walk, sched) -> None:
        for op in ops:
            if op._prod == "Repeat":
                for _ in range(op.count):
                    before = w.key()
                    self._walk(op.body, w, sched)
                    if w.key() == before:  # the body leaves the counts as it found them
                        break
            else:
                self._step(op, w, sched)

    def _step(self, op, w: Walk, sched) -> None:
        kind = op._prod
        p = self.p
        if kind == "Reserve":
            w.held[op.buffer] = w.held.get(op.buffer, 0) + op.count
        elif kind == "Wait" and op.sem in self.credit_of:
            b = self.credit_of[op.sem]
            w.held[b] = w.held.get(b, 0) + op.count
        elif kind == "Barrier":
            for r in p.groups[op.group].streams:
                w.held[r] = w.held.get(r, 0) + 1
        elif kind == "Read":
            if op.buffer in p.groups:
                n = w.group_staged.get(op.buffer, 0) + 1
                w.group_staged[op.buffer] = n
                w.group_peak[op.buffer] = max(n, w.group_peak.get(op.buffer, 0))
            else:
                self._stage(w, op.buffer, 1, f"read {op.stage}", sched)
        elif kind == "Fire":
            st = p.stages[op.stage]
            if accumulating(st):
                w.summed[st.name] = (w.summed.get(st.name, 0) + 1) % st.over
                if w.summed[st.name]:  # it only adds to its sum
                    return
            for port in outs(st):
                self._stage(w, port.stream, self.made(st), f"fire {op.stage}", sched)
        elif kind in ("Push", "Send"):
            w.staged[op.buffer] = w.staged.get(op.buffer, 0) - op.count
            w.held[op.buffer] = w.held.get(op.buffer, 0) - op.count
        elif kind == "Multicast":
            w.group_staged[op.group] = w.group_staged.get(op.group, 0) - op.count
            for r in p.groups[op.group].streams:
                w.held[r] = w.held.get(r, 0) - op.count

    def _stage(self, w: Walk, b: str, n: int, what: str, sched) -> None:
        w.staged[b] = w.staged.get(b, 0) + n
        fault = (f"{sched.engine} of site {sched.site}: `{what}` stages a token into "
                 f"buffer '{b}' before it holds a slot for it")
        if w.staged[b] > w.held.get(b, 0) and fault not in w.faults:
            w.faults.append(fault)
