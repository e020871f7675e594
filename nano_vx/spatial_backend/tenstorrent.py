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

A compute kernel fires its stages through tt-metal's compute API (tt_compute.py), and every
buffer holds its tokens as the API's tiles; what the API cannot compute is refused (E7041)
too. The census counts each compute kernel's calls by unit (tt_api.py: the matrix unit, the
vector unit, moves, synchronisation, configuration), checked against the text; a core that
reduces gets a scaler circular buffer, the image of its site.
"""

from __future__ import annotations

from . import Lowered
from .census import Census
from .tt_api import API
from .tt_host import host_program
from .tt_kernel import KernelWriter
from .tt_layout import Layout

PATTERNS = {
    "buffer": r"^\s+CBHandle cb_(\w+) = CreateCircularBuffer\(",
    "semaphore": r"^\s+uint32_t sem_(\w+) = CreateSemaphore\(",
    "kernel": r"^\s+KernelHandle kernel_(\w+) = CreateKernel\(",
    "group": r"^\s+CBHandle stage_(\w+) = CreateCircularBuffer\(",
    "source": r"CreateKernel\(program, \"kernels/\w+/(\w+\.cpp)\"",
    "scaler": r"^\s+CBHandle scaler_(\w+) = CreateCircularBuffer\(",
}


def emit(plan, target) -> Lowered:
    layout = Layout(plan, target)
    census = Census()
    files = {}
    for s in plan.schedules:
        name = f"r{s.site[0]}c{s.site[1]}_{s.engine}"
        writer = KernelWriter(plan, layout, s)
        files[f"{name}.cpp"], args = writer.text()
        layout.args[name] = args
        if s.engine == "compute":
            census.count_calls(f"{name}.cpp", writer.calls, API)
    files["host.cpp"] = host_program(plan, layout, target, census)
    return Lowered("tenstorrent", files, census, PATTERNS,
                   {"scaler": [f"r{r}c{c}" for r, c in layout.scaler]})
