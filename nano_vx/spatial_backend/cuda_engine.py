"""The body of one engine's warp in the `cuda` backend: each schedule op as CUDA statements
(docs/spatial.md, "Lowering"). The engine's private counters, declared by the caller, are:
put_B / got_B (tokens it has put into / popped from buffer B), held_B and staged_B (slots it
holds and tokens it has staged in them), taken_S (what it has subtracted from semaphore S),
gput_G / gstaged_G for a group's staging, summed_S the firings an accumulating stage S has
added to its sum since it put one, and one cursor per load or store it runs."""

from __future__ import annotations

from ..spatial.ops import accumulating
from ..spatial.program import ins, outs
from .compute import C_TYPES, elems, fire_lines
from .schedule_writer import ScheduleWriter


class EngineWriter(ScheduleWriter):
    OPS = ScheduleWriter.ops_table("the cuda backend's schedule ops")

    def _slot(self, b: str, index: str) -> str:
        """Element 0 of the slot that holds token number `index` of buffer b."""
        d, e = self.plan.buffer(b).depth, self.plan.elems(b)
        return f"ring_{b} + (({index}) % {d}u) * {e}u"

    def _load(self, b: str, ptr: str) -> str:
        return f"__ldcg({ptr})" if self.plan.remote(b) else f"*({ptr})"

    @OPS.on("Read")
    def _read(self, op) -> list[str]:
        plan = self.plan
        st = self.p.stages[op.stage]
        tensor = self.p.tensors[st.tensor]
        cur = self.cursor(op.stage, op.buffer)
        if op.buffer in self.p.groups:
            g = op.buffer
            put, staged = self.var(f"gput_{g}"), self.var(f"gstaged_{g}")
            cap = max(1, plan.group_peak.get(g, 1))
            dst = f"stage_{g} + (({put} + {staged}) % {cap}u) * {plan.group_elems(g)}u"
            t = C_TYPES[plan.group_dtype(g)]
        else:
            put, staged = self.var(f"put_{op.buffer}"), self.var(f"staged_{op.buffer}")
            dst = self._slot(op.buffer, f"{put} + {staged}")
            t = C_TYPES[plan.dtype(op.buffer)]
        n = len(plan.tiles(op.stage))
        tile = plan.tile_shape(op.stage)
        return ["{",
                f"    const unsigned* org = tiles_{op.stage}[{cur} % {n}u];",
                f"    {t}* dst = {dst};",
                f"    for (unsigned e = lane; e < {elems(tile)}u; e += 32u) "
                f"dst[e] = ({t})(t.dram_{tensor.name}[{_offset(tile, tensor.shape)}]);",
                f"    {cur} += 1; {staged} += 1;",
                "    __syncwarp();",
                "}"]

    @OPS.on("Write")
    def _write(self, op) -> list[str]:
        plan = self.plan
        st = self.p.stages[op.stage]
        tensor = self.p.tensors[st.tensor]
        cur = self.cursor(op.stage, op.buffer)
        got = self.var(f"got_{op.buffer}")
        n = len(plan.tiles(op.stage))
        tile = plan.tile_shape(op.stage)
        t = C_TYPES[plan.dtype(op.buffer)]
        return ["{",
                f"    const unsigned* org = tiles_{op.stage}[{cur} % {n}u];",
                f"    const {t}* src = {self._slot(op.buffer, got)};",
                f"    for (unsigned e = lane; e < {elems(tile)}u; e += 32u) "
                f"t.dram_{tensor.name}[{_offset(tile, tensor.shape)}] = "
                f"({C_TYPES[tensor.dtype]})({self._load(op.buffer, 'src + e')});",
                f"    {cur} += 1;",
                "}"]

    @OPS.on("Reserve")
    def _reserve(self, op) -> list[str]:
        b, k = op.buffer, op.count
        put, held = self.var(f"put_{b}"), self.var(f"held_{b}")
        return [f"nvx_reserve(&count_{b}[0], {put} + {held} + {k}u, "
                f"{self.plan.buffer(b).depth}u);", f"{held} += {k}u;"]

    @OPS.on("Push", "Send")  # another site's ring is in the same global memory: a send is a push
    def _push(self, op) -> list[str]:
        b, k = op.buffer, op.count
        put, held, staged = (self.var(f"put_{b}"), self.var(f"held_{b}"),
                             self.var(f"staged_{b}"))
        return [f"nvx_publish(&count_{b}[1], {k}u);",
                f"{put} += {k}u; {held} -= {k}u; {staged} -= {k}u;"]

    @OPS.on("Multicast")
    def _multicast(self, op) -> list[str]:
        plan, g, k = self.plan, op.group, op.count
        receivers = self.p.groups[g].streams
        gput, gstaged = self.var(f"gput_{g}"), self.var(f"gstaged_{g}")
        cap, e = max(1, plan.group_peak.get(g, 1)), plan.group_elems(g)
        lines = [f"for (unsigned j = 0; j < {k}u; ++j) {{",
                 f"    const auto* src = stage_{g} + (({gput} + j) % {cap}u) * {e}u;"]
        for r in receivers:
            put = self.var(f"put_{r}")
            lines.append(f"    {{ auto* dst = {self._slot(r, f'{put} + j')}; "
                         f"for (unsigned e = lane; e < {e}u; e += 32u) dst[e] = src[e]; }}")
        lines.append("}")
        for r in receivers:
            put, held = self.var(f"put_{r}"), self.var(f"held_{r}")
            lines += [f"nvx_publish(&count_{r}[1], {k}u);", f"{put} += {k}u; {held} -= {k}u;"]
        return lines + [f"{gput} += {k}u; {gstaged} -= {k}u;"]

    @OPS.on("WaitFront")
    def _waitfront(self, op) -> list[str]:
        got = self.var(f"got_{op.buffer}")
        return [f"nvx_wait_for(&count_{op.buffer}[1], {got}, {op.count}u);"]

    @OPS.on("Pop")
    def _pop(self, op) -> list[str]:
        got = self.var(f"got_{op.buffer}")
        return [f"nvx_publish(&count_{op.buffer}[0], {op.count}u);", f"{got} += {op.count}u;"]

    @OPS.on("Wait")
    def _wait(self, op) -> list[str]:
        return self._take(op.sem, op.count)

    def _take(self, sem: str, k: int) -> list[str]:
        taken = self.var(f"taken_{sem}")
        lines = [f"nvx_wait_for(&sem_{sem}, {taken}, {k}u);", f"{taken} += {k}u;"]
        b = self.plan.credit_of.get(sem)
        if b is not None:  # a credit: the slots are the producer's now
            lines.append(f"{self.var(f'held_{b}')} += {k}u;")
        return lines

    @OPS.on("Signal")
    def _signal(self, op) -> list[str]:
        return [f"nvx_publish(&sem_{op.sem}, {op.count}u);"]

    @OPS.on("Barrier")
    def _barrier(self, op) -> list[str]:
        lines = []
        for r in self.p.groups[op.group].streams:
            lines += self._take(self.p.handshakes[r].credit, 1)
        return lines

    @OPS.on("Fire")
    def _fire(self, op) -> list[str]:
        plan = self.plan
        st = self.p.stages[op.stage]
        readers = []
        for port in ins(st):
            b = port.stream
            got = self.var(f"got_{b}")
            readers.append(lambda j, e, b=b, got=got:
                           self._load(b, f"{self._slot(b, f'{got} + {j}')} + {e}"))
        writers = []
        for port in outs(st):
            b = port.stream
            put, staged = self.var(f"put_{b}"), self.var(f"staged_{b}")
            writers.append(lambda j, e, b=b, put=put, staged=staged:
                           f"({self._slot(b, f'{put} + {staged} + {j}')})[{e}]")
        held = (f"sum_{st.name}", self.var(f"summed_{st.name}")) if accumulating(st) else None
        lines = ["{"] + ["    " + x for x in fire_lines(plan.p, st, plan.shapes, readers,
                                                        writers, "lane", "32u", held)]
        made = plan.made(st)
        puts = [f"staged_{port.stream} += {made}u;" for port in outs(st)]
        if held is None:
            lines += ["    " + x for x in puts]
        else:  # only the firing that completes the sum puts it
            count = held[1]
            lines += [f"    if (++{count} == {st.over}u) {{", f"        {count} = 0;",
                      *("        " + x for x in puts), "    }"]
        return lines + ["    __syncwarp();", "}"]


def _offset(tile, shape) -> str:
    """The index in the row-major tensor of element e of the tile at origin `org`."""
    terms = []
    for d in range(len(shape)):
        inner = elems(tile[d + 1:])
        stride = elems(shape[d + 1:])
        local = f"(e / {inner}u) % {tile[d]}u" if inner != 1 else f"e % {tile[d]}u"
        term = f"(org[{d}] + {local})"
        terms.append(f"{term} * {stride}u" if stride != 1 else term)
    return " + ".join(terms)
