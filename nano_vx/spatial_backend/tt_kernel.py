"""One kernel of the `tenstorrent` backend: a schedule's ops as tt-metal calls
(docs/spatial.md, "Lowering"). Its runtime arguments (semaphore ids, NoC coordinates, DRAM
and L1 addresses) are gathered as the ops name them and returned for the host to pass; its
private counters are those of the cuda backend (put_B, got_B, staged_B, taken_S, gput_G,
gstaged_G, cursors).

A circular buffer's page is a tile (tt_layout.py), so an op on k tokens of a buffer is a
`cb_*` call on k x T pages, T the tiles of its token. A compute kernel fires its stages
through the compute API (tt_compute.py) and counts its calls by name for the census; a
data-movement kernel lays each token it reads from DRAM out in tiles, 16-element face rows
at a time, and fires only relays, which copy whole tokens."""

from __future__ import annotations

from collections import Counter

from ..spatial.program import ins, outs
from . import LowerError
from .schedule_writer import ScheduleWriter
from .tt_api import API, API_ROOT
from .tt_compute import FireWriter
from .tt_dram import dram_lines
from .tt_layout import Layout, dram_page, page_bytes, rectangle, tiles


class KernelWriter(ScheduleWriter):
    counter = "uint32_t"
    OPS = ScheduleWriter.ops_table("the tenstorrent backend's schedule ops")

    def __init__(self, plan, layout: Layout, sched):
        super().__init__(plan)
        self.layout, self.s = layout, sched
        self.args: dict[str, str] = {}  # kernel variable -> what the host passes
        self.cbs: dict[str, None] = {}
        self.sems: dict[str, None] = {}
        self.tables: dict[str, None] = {}
        self.calls: Counter = Counter()  # compute-API function -> its calls in the text
        self.startup: tuple | None = None  # the circular buffers of the first fire
        self.uses_scaler = False

    def text(self) -> tuple[str, list]:
        s = self.s
        body: list[str] = []
        self.ops(s.ops, body, "    ")
        compute = s.engine == "compute"
        head = [f"// Schedule {s.site} {s.engine} of {self.p.name}, as a tt-metal "
                f"{'compute' if compute else 'data-movement'} kernel",
                "// (nano-vx spatial --lower tenstorrent).", "#include <cstdint>"]
        if compute:
            first = self._compute_start()
            head += [f'#include "{API_ROOT.split("/", 2)[2]}{h}"'
                     for h in sorted({"common.h"} | {API[n].header for n in self.calls})]
        else:
            first = []
            head.append('#include "dataflow_api.h"')
        head.append("")
        for stage in self.tables:
            tiles_ = self.plan.tiles(stage)
            rows = ", ".join("{" + ", ".join(f"{x}u" for x in o) + "}" for o in tiles_)
            head.append(f"constexpr uint32_t tiles_{stage}[{len(tiles_)}][{len(tiles_[0])}] = "
                        f"{{{rows}}};")
        head += (["namespace NAMESPACE {", "void MAIN {"] if compute
                 else ["void kernel_main() {"])
        head += [f"    const uint32_t {v} = get_arg_val<uint32_t>({i});"
                 for i, v in enumerate(self.args)]
        for t in self.p.graph.tensors:
            if f"dram_{t.name}" in self.args:
                head.append(f"    const InterleavedAddrGen<true> pages_{t.name} = "
                            f"{{.bank_base_address = dram_{t.name}, .page_size = "
                            f"{dram_page(t)}}};")
        if self.uses_scaler:
            head.append(f"    constexpr uint32_t scaler_cb = {self.layout.scaler[s.site]};")
        for b in self.cbs:
            head.append(f"    constexpr uint32_t cb_{b} = {self.layout.cb[b]};")
            if not compute:  # a data-movement kernel addresses its slots itself
                head.append(f"    const uint32_t base_{b} = get_write_ptr(cb_{b});")
        for sem in self.sems:
            head.append(f"    volatile tt_l1_ptr uint32_t* sem_{sem} = reinterpret_cast<"
                        f"volatile tt_l1_ptr uint32_t*>(get_semaphore(sem_id_{sem}));")
        if self.vars:
            head.append("    uint32_t " + ", ".join(f"{v} = 0" for v in self.vars) + ";")
        # A data-movement kernel lets its semaphore increments land before it ends; a
        # compute kernel has no NoC calls.
        tail = ["}", "}"] if compute else ["    noc_async_atomic_barrier();", "}"]
        return "\n".join(head + first + body + tail) + "\n", list(self.args.items())

    def _compute_start(self) -> list[str]:
        """The hardware set up for the first fire's buffers, and the core's scaler tile
        (written by the host) published to the unpacker once."""
        lines = []
        if self.startup is not None:
            lines.append(self.call("compute_kernel_hw_startup", *self.startup) + ";")
        if self.uses_scaler:
            lines += [self.call(name, "scaler_cb", 1) + ";"
                      for name in ("cb_reserve_back", "cb_push_back", "cb_wait_front")]
        return ["    " + x for x in lines]

    def call(self, name: str, *args, template=()) -> str:
        """A call of the compute API, counted."""
        self.calls[name] += 1
        t = f"<{', '.join(template)}>" if template else ""
        return f"{name}{t}({', '.join(map(str, args))})"

    def scaler(self) -> str:
        """The core's tile of ones that `reduce_tile` scales by."""
        self.uses_scaler = True
        return "scaler_cb"

    def _cb_op(self, name: str, b: str, k: int) -> list[str]:
        n = k * tiles(self.plan.shapes[self._token_stream(b)])
        if self.s.engine == "compute":
            return [self.call(name, self.cb(b), n) + ";"]
        return [f"{name}({self.cb(b)}, {n});"]

    def _token_stream(self, b: str) -> str:
        return self.p.groups[b].streams[0] if b in self.p.groups else b

    # -- names the kernel asks for ---------------------------------------------------------

    def arg(self, name: str, host: str) -> str:
        self.args[name] = host
        return name

    def cb(self, b: str) -> str:
        site = self.plan.buffer(b).site if b in self.p.buffers else self.plan.group_site(b)
        if site != self.s.site:
            raise LowerError("E7041", f"{self.s.engine} of site {self.s.site} uses the "
                                      f"circular buffer of '{b}' on core {site}; a kernel "
                                      f"reaches only its own core's circular buffers")
        self.cbs[b] = None
        return f"cb_{b}"

    def sem(self, name: str) -> str:
        self.arg(f"sem_id_{name}", f"sem_{name}")
        return name

    def core(self, site) -> tuple[str, str]:
        r, c = site
        return (self.arg(f"noc_x_r{r}c{c}", f"noc_r{r}c{c}.x"),
                self.arg(f"noc_y_r{r}c{c}", f"noc_r{r}c{c}.y"))

    def cursor(self, stage: str, target: str) -> str:
        self.tables[stage] = None  # its tile addresses are a table the host passes
        return super().cursor(stage, target)

    # -- ops -------------------------------------------------------------------------------

    def _page(self, b: str) -> int:
        return page_bytes(self.plan, self._token_stream(b))

    def _slot(self, b: str, index: str) -> str:
        """The L1 address of the slot holding token number `index` of a buffer of this
        core."""
        self.cb(b)
        return f"base_{b} + (({index}) % {self.plan.buffer(b).depth}u) * {self._page(b)}u"

    def _dram(self, op, addr: str, read: bool) -> list[str]:
        """Move the tile of a load or store between DRAM and the slot at `addr`."""
        st = self.p.stages[op.stage]
        tensor = self.p.tensors[st.tensor]
        self.arg(f"dram_{tensor.name}", f"dram_{tensor.name}->address()")
        cur = self.cursor(op.stage, op.buffer)
        return dram_lines(self.plan, op, tensor, cur, addr, read, self._page(op.buffer))

    @OPS.on("Read")
    def _read(self, op) -> list[str]:
        target = op.buffer
        if target in self.p.groups:
            self.cb(target)
            put, staged = self.var(f"gput_{target}"), self.var(f"gstaged_{target}")
            cap = max(1, self.plan.group_peak.get(target, 1))
            page = self._page(target)
            addr = f"base_{target} + (({put} + {staged}) % {cap}u) * {page}u"
        else:
            put, staged = self.var(f"put_{target}"), self.var(f"staged_{target}")
            addr = self._slot(target, f"{put} + {staged}")
        return self._dram(op, addr, True)[:-1] + [f"    {staged} += 1;", "}"]

    @OPS.on("Write")
    def _write(self, op) -> list[str]:
        got = self.var(f"got_{op.buffer}")
        return self._dram(op, self._slot(op.buffer, got), False)

    @OPS.on("Reserve")
    def _reserve(self, op) -> list[str]:
        return self._cb_op("cb_reserve_back", op.buffer, op.count)

    @OPS.on("Push")
    def _push(self, op) -> list[str]:
        b, k = op.buffer, op.count
        staged = self.var(f"staged_{b}")
        if self.s.engine == "compute":  # it packs at the staged count alone
            return self._cb_op("cb_push_back", b, k) + [f"{staged} -= {k}u;"]
        put = self.var(f"put_{b}")
        return self._cb_op("cb_push_back", b, k) + [f"{put} += {k}u; {staged} -= {k}u;"]

    @OPS.on("Send")
    def _send(self, op):
        raise LowerError("E7041", f"{self.s.engine} of site {self.s.site} sends to buffer "
                                  f"'{op.buffer}' on another core: tt-metal writes a token "
                                  f"to another core from a circular buffer of its own, which "
                                  f"the program does not have (only multicast groups stage "
                                  f"tokens apart)")

    @OPS.on("Multicast")
    def _multicast(self, op) -> list[str]:
        plan, g, k = self.plan, op.group, op.count
        self.cb(g)
        receivers = self.p.groups[g].streams
        gput, gstaged = self.var(f"gput_{g}"), self.var(f"gstaged_{g}")
        cap = max(1, plan.group_peak.get(g, 1))
        page = self._page(g)
        lines = [f"for (uint32_t j = 0; j < {k}u; ++j) {{",
                 f"    const uint32_t src = base_{g} + (({gput} + j) % {cap}u) * {page}u;"]
        rect = rectangle(plan, g)
        if rect is not None:
            (r0, c0), (r1, c1) = rect
            first = receivers[0]
            put = self.var(f"put_{first}")
            x0, y0 = self.core((r0, c0))
            x1, y1 = self.core((r1, c1))
            ring = self.arg(f"ring_{g}", f"l1_{g}->address()")
            depth = plan.buffer(first).depth
            mine = self.s.site in [plan.buffer(r).site for r in receivers]
            call = ("noc_async_write_multicast_loopback_src" if mine
                    else "noc_async_write_multicast")
            lines.append(f"    {call}(src, get_noc_multicast_addr({x0}, {y0}, {x1}, {y1}, "
                         f"{ring} + (({put} + j) % {depth}u) * {self._page(first)}u), "
                         f"{page}u, {len(receivers)});")
        else:
            for r in receivers:
                put = self.var(f"put_{r}")
                x, y = self.core(plan.buffer(r).site)
                ring = self.arg(f"ring_{r}", f"l1_{r}->address()")
                lines.append(f"    noc_async_write(src, get_noc_addr({x}, {y}, {ring} + "
                             f"(({put} + j) % {plan.buffer(r).depth}u) * {self._page(r)}u), "
                             f"{page}u);")
        lines += ["}", "noc_async_write_barrier();"]
        lines += [f"{self.var(f'put_{r}')} += {k}u;" for r in receivers]
        return lines + [f"{gput} += {k}u; {gstaged} -= {k}u;"]

    @OPS.on("WaitFront")
    def _waitfront(self, op) -> list[str]:
        return self._cb_op("cb_wait_front", op.buffer, op.count)

    @OPS.on("Pop")
    def _pop(self, op) -> list[str]:
        pop = self._cb_op("cb_pop_front", op.buffer, op.count)
        if self.s.engine == "compute":  # it reads relative to the front
            return pop
        return pop + [f"{self.var(f'got_{op.buffer}')} += {op.count}u;"]

    @OPS.on("Wait")
    def _wait(self, op) -> list[str]:
        return self._take(op.sem, op.count)

    def _take(self, sem: str, k: int) -> list[str]:
        site = self.p.semaphores[sem].site
        if site != self.s.site:
            raise LowerError("E7041", f"{self.s.engine} of site {self.s.site} waits on "
                                      f"semaphore '{sem}' of core {site}; a kernel waits only "
                                      f"on its own core's semaphores")
        self.sems[self.sem(sem)] = None
        taken = self.var(f"taken_{sem}")
        return [f"noc_semaphore_wait_min(sem_{sem}, {taken} + {k}u);", f"{taken} += {k}u;"]

    @OPS.on("Signal")
    def _signal(self, op) -> list[str]:
        x, y = self.core(self.p.semaphores[op.sem].site)
        sem_id = self.arg(f"sem_id_{op.sem}", f"sem_{op.sem}")
        return [f"noc_semaphore_inc(get_noc_addr({x}, {y}, get_semaphore({sem_id})), "
                f"{op.count});"]

    @OPS.on("Barrier")
    def _barrier(self, op) -> list[str]:
        lines = []
        for r in self.p.groups[op.group].streams:
            lines += self._take(self.p.handshakes[r].credit, 1)
        return lines

    @OPS.on("Fire")
    def _fire(self, op) -> list[str]:
        st = self.p.stages[op.stage]
        made = self.plan.made(st)
        if self.s.engine == "compute":
            first = [port.stream for port in ins(st)]
            self.startup = self.startup or (self.cb(first[0]), self.cb(first[-1]),
                                            self.cb(outs(st)[0].stream))
            lines = FireWriter(self, st).lines()
        else:
            lines = self._copy(st, made)
        staged = [f"{self.var(f'staged_{port.stream}')} += {made}u;" for port in outs(st)]
        return ["{"] + ["    " + x for x in lines + staged] + ["}"]

    def _copy(self, st, made: int) -> list[str]:
        """A relay on a data-movement core: its input tokens' words into its outputs' slots
        (a token and its copy have one format and one shape)."""
        if not (st._prod == "Scalar" and st.body._prod == "Arg"):
            raise LowerError("E7041", f"stage '{st.name}' computes on the {self.s.engine} of "
                                      f"site {self.s.site}; a data-movement core only copies "
                                      f"tokens (relays)")
        src = ins(st)[0].stream
        got, words = self.var(f"got_{src}"), self._page(src) // 4
        lines = [f"for (uint32_t j = 0; j < {made}u; ++j) {{",
                 f"    volatile uint32_t* from = reinterpret_cast<volatile uint32_t*>("
                 f"{self._slot(src, f'{got} + j')});"]
        for port in outs(st):
            b = port.stream
            put, staged = self.var(f"put_{b}"), self.var(f"staged_{b}")
            lines += [f"    volatile uint32_t* to_{b} = reinterpret_cast<volatile uint32_t*>("
                      f"{self._slot(b, f'{put} + {staged} + j')});",
                      f"    for (uint32_t w = 0; w < {words}u; ++w) to_{b}[w] = from[w];"]
        return lines + ["}"]
