"""The `tenstorrent` backend: tt-metal kernels (tt_kernel.py) and a host program
(tt_host.py).

A site is a Tensix core; its `reader` and `writer` schedules become data-movement kernels
(`kernel_main`, on RISCV_1 and RISCV_0) and its `compute` schedule a compute kernel
(`MAIN`). Every buffer is a circular buffer on its consumer's core, at the same index in
every kernel of that core; a buffer filled over the NoC (a multicast receiver) is backed by an
L1 buffer the host allocates, whose address the producer gets as a runtime argument. A
multicast group's tokens are staged in a circular buffer of the reader's core and written
into each receiver's slot, with one NoC multicast when the receivers fill a rectangle of
cores and share their layout, else one write per receiver. A semaphore is a tt-metal
semaphore; its one waiter keeps what it has taken and waits with `noc_semaphore_wait_min`
for the count to exceed that, so nothing ever subtracts.

What tt-metal cannot say is refused (E7041): a `send` (a token for a circular buffer of
another core needs a staging buffer on the producer's core that the IR does not have, so
semaphore pairs and valid/ready links are out), 64-bit element types, an engine other than
reader, compute and writer, more circular buffers or semaphores than a core has, and a compute
schedule that touches a semaphore or the NoC (tt-metal gives those calls to data-movement
kernels only; on a target that says so in `semaphore_engines`, relay-tokens keeps them off
compute).
"""

from __future__ import annotations

from ..spatial.program import flat_ops
from . import Lowered, LowerError
from .census import Census

PATTERNS = {
    "buffer": r"^\s+CBHandle cb_(\w+) = CreateCircularBuffer\(",
    "semaphore": r"^\s+uint32_t sem_(\w+) = CreateSemaphore\(",
    "kernel": r"^\s+KernelHandle kernel_(\w+) = CreateKernel\(",
    "group": r"^\s+CBHandle stage_(\w+) = CreateCircularBuffer\(",
    "source": r"CreateKernel\(program, \"kernels/\w+/(\w+\.cpp)\"",
}
ENGINES = ("reader", "compute", "writer")
# tt-metal on Wormhole: NUM_CIRCULAR_BUFFERS and NUM_SEMAPHORES per core.
MAX_CBS, MAX_SEMAPHORES = 32, 16
FORMATS = {"i32": "tt::DataFormat::Int32", "f32": "tt::DataFormat::Float32"}


def emit(plan, target) -> Lowered:
    from .tt_host import host_program
    from .tt_kernel import KernelWriter

    layout = Layout(plan)
    census = Census()
    files = {}
    for s in plan.schedules:
        name = f"r{s.site[0]}c{s.site[1]}_{s.engine}"
        files[f"{name}.cpp"], args = KernelWriter(plan, layout, s).text()
        layout.args[name] = args
    files["host.cpp"] = host_program(plan, layout, target, census)
    return Lowered("tenstorrent", files, census, PATTERNS)


class Layout:
    """The circular-buffer index of every buffer and group staging buffer on its core (the
    same in every kernel of the core), once the program is known to fit a core; and the
    runtime arguments each kernel asks the host for, filled in as the kernels are written."""

    def __init__(self, plan):
        p = plan.p
        self.cb: dict[str, int] = {}
        per_core: dict[tuple, int] = {}
        for b in p.graph.buffers:
            self.cb[b.stream] = per_core.get(b.site, 0)
            per_core[b.site] = self.cb[b.stream] + 1
        for g in p.graph.groups:
            site = plan.group_site(g.name)
            self.cb[g.name] = per_core.get(site, 0)
            per_core[site] = self.cb[g.name] + 1
        for site, n in per_core.items():
            if n > MAX_CBS:
                raise LowerError("E7041", f"core {site} needs {n} circular buffers; a Tensix "
                                          f"core has {MAX_CBS}")
        sems: dict[tuple, int] = {}
        for s in p.graph.semaphores:
            sems[s.site] = sems.get(s.site, 0) + 1
            if sems[s.site] > MAX_SEMAPHORES:
                raise LowerError("E7041", f"core {s.site} needs more than {MAX_SEMAPHORES} "
                                          f"semaphores")
        for h in p.graph.handshakes:
            if h.kind in ("valid_ready", "semaphore_pair"):
                raise LowerError("E7041", f"buffer '{h.buffer}' has a {h.kind} handshake "
                                          f"between cores: tt-metal sends a token to another "
                                          f"core from a circular buffer of the producer's, "
                                          f"which the program does not have (only a multicast "
                                          f"group stages its tokens apart)")
        for s in plan.schedules:
            if s.engine not in ENGINES:
                raise LowerError("E7041", f"site {s.site} has an engine '{s.engine}'; a "
                                          f"Tensix core runs reader, compute and writer")
            if s.engine == "compute":
                _no_semaphores(s)
        for b in p.graph.buffers:
            if p.token_dtype(b.stream) not in FORMATS:
                raise LowerError("E7041", f"buffer '{b.stream}' holds "
                                          f"{p.token_dtype(b.stream)}; Wormhole has no "
                                          f"64-bit element types")
        self.args: dict[str, list[tuple[str, str]]] = {}


def _no_semaphores(s) -> None:
    """A compute kernel has no semaphore calls: tt-metal gives them (dataflow_api.h) to
    data-movement kernels only."""
    for op in flat_ops(s.ops):
        if op._prod in ("Wait", "Signal", "Barrier", "Send", "Multicast"):
            what = getattr(op, "sem", None) or getattr(op, "group", None) or op.buffer
            raise LowerError("E7041", f"the compute schedule of site {s.site} has "
                                      f"'{op._prod.lower()} {what}'; a tt-metal compute "
                                      f"kernel has no semaphore or NoC calls (a target whose "
                                      f"semaphore_engines leave out compute has relay-tokens "
                                      f"relay such tokens through the reader and writer)")


def rectangle(plan, group: str):
    """((r0, c0), (r1, c1)) when the group's receivers are one per core of a rectangle of two
    or more cores, with one depth and page size (so one multicast lands in the same slot of
    each), else None."""
    receivers = plan.p.groups[group].streams
    sites = [plan.buffer(r).site for r in receivers]
    if len(sites) < 2 or len(set(sites)) != len(sites):
        return None
    shapes = {(plan.buffer(r).depth, plan.buffer(r).bytes) for r in receivers}
    rows = sorted({s[0] for s in sites})
    cols = sorted({s[1] for s in sites})
    full = len(sites) == len(rows) * len(cols) == (rows[-1] - rows[0] + 1) * (
        cols[-1] - cols[0] + 1)
    return ((rows[0], cols[0]), (rows[-1], cols[-1])) if full and len(shapes) == 1 else None


def elem_size(dtype: str) -> int:
    return 8 if dtype.endswith("64") else 4


def row_bytes(shape, dtype: str) -> int:
    return shape[-1] * elem_size(dtype)
