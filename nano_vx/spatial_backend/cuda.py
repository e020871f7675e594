"""The `cuda` backend: one persistent kernel, a thread block per site and a warp per engine.

- A buffer whose producer is on its own site is a ring in the block's dynamic shared memory;
  one filled from another site is a ring in global memory (a block cannot reach another's
  shared memory). Each ring has two counters, tokens popped (head) and tokens put (tail):
  only the consumer adds to the first, only the producer to the second.
- A semaphore is an unsigned counter in global memory, set to its initial value by the host.
  Only its one waiter ever subtracts, so the waiter keeps what it has taken privately and
  waits until the counter exceeds that by k: no atomic subtraction, and the counter only grows.
- A multicast group's tokens are staged in the reader's shared memory and copied into every
  receiver's ring.
- Waits spin on lane 0 with volatile loads; a put, pop or signal fences the warp's stores
  (`__threadfence`) before it adds to a counter, and a consumer reads global rings with
  `__ldcg`, past the non-coherent L1.

The kernel needs every block resident at once (blocks wait on each other), so the host
launches it cooperatively, which fails rather than hangs when the grid does not fit.
"""

from __future__ import annotations

from . import Lowered, LowerError
from ..spatial.ops import accumulating
from .census import Census
from .compute import C_TYPES, HELPERS, elems
from .cuda_engine import EngineWriter

PATTERNS = {
    "buffer": r"^(?:__device__ [\w ]+ |\s+[\w ]+\* const )ring_(\w+)(?:\[| = )",
    "semaphore": r"^__device__ unsigned sem_(\w+);",
    "kernel": r"^\s+auto kernel_(\w+) = \[&\]\(\) \{",
    "group": r"^\s+[\w ]+\* const stage_(\w+) = ",
}
# The most dynamic shared memory one block may opt in to (compute capability 9.0).
MAX_SHARED = 232448
WARP = 32

PRELUDE = """\
#include <cstdint>
#include <cmath>
#include <cuda_runtime.h>

#define NVX_FN __device__ __forceinline__
{helpers}
NVX_FN unsigned nvx_lane() {{ return threadIdx.x & 31u; }}
NVX_FN unsigned nvx_peek(const unsigned* p) {{ return *(const volatile unsigned*)p; }}
// Add k to a counter once the warp's stores are visible to every block.
NVX_FN void nvx_publish(unsigned* counter, unsigned k) {{
    __syncwarp();
    if (nvx_lane() == 0) {{ __threadfence(); atomicAdd(counter, k); }}
    __syncwarp();
}}
// Block the warp until the counter exceeds `base` by k (counters only grow).
NVX_FN void nvx_wait_for(const unsigned* counter, unsigned base, unsigned k) {{
    if (nvx_lane() == 0) {{ while (nvx_peek(counter) - base < k) {{ }} }}
    __syncwarp();
    __threadfence();
}}
// Block the warp until the consumer has popped enough that `need` slots are in use at most
// `depth`: need = tokens put + slots held + slots asked for.
NVX_FN void nvx_reserve(const unsigned* head, unsigned need, unsigned depth) {{
    if (nvx_lane() == 0) {{ while (need - nvx_peek(head) > depth) {{ }} }}
    __syncwarp();
}}
"""


def emit(plan, target) -> Lowered:
    return _Cuda(plan, target).run()


class _Cuda:
    def __init__(self, plan, target):
        self.plan = plan
        self.p = plan.p
        self.target = target
        self.name = plan.graph.name
        self.file = f"{self.name}.cu"
        self.census = Census()
        self.lines: list[str] = []

    def record(self, kind: str, name: str, image) -> None:
        self.census.record(kind, name, image, self.file)

    def run(self) -> Lowered:
        plan, p, w = self.plan, self.p, self.lines.append
        width = max(len(plan.site_schedules(s)) for s in plan.sites) if plan.sites else 1
        if width > WARP:
            raise LowerError("E7041", f"a site has {width} engines; a CUDA block has at most "
                                      f"{WARP} warps")
        types = {t.dtype for t in p.graph.tensors} | {s.dtype for s in p.graph.streams}
        narrow = sorted(types - set(C_TYPES))
        if narrow:
            raise LowerError("E7041", f"the program holds {', '.join(narrow)}; the cuda "
                                      f"lowering writes i32, i64, f32 and f64 only")
        self.block = WARP * width
        w(f"// {self.name}: one persistent kernel, a thread block per site, a warp per engine")
        w(f"// (nano-vx spatial --lower cuda, target {self.target.name}).")
        w(PRELUDE.format(helpers=HELPERS))
        w("struct Tensors {")
        for t in p.graph.tensors:
            const = "const " if t.role == "input" else ""
            w(f"    {const}{C_TYPES[t.dtype]}* dram_{t.name};  // {t.dtype}{list(t.shape)} "
              f"{t.role}")
        w("};")
        w("")
        w("// Semaphores: counters in global memory, set by the host before the launch.")
        for s in p.graph.semaphores:
            w(f"__device__ unsigned sem_{s.name};  // site {s.site}, initial {s.initial}")
            self.record("semaphore", s.name, s.name)
        w("")
        w("// Rings filled from another site: in global memory; count = {popped, put}.")
        for b in p.graph.buffers:
            if plan.remote(b.stream):
                t = C_TYPES[plan.dtype(b.stream)]
                w(f"__device__ {t} ring_{b.stream}[{b.depth * plan.elems(b.stream)}];  "
                  f"// buffer {b.stream} on site {b.site}: depth {b.depth}")
                w(f"__device__ unsigned count_{b.stream}[2];")
                self.record("buffer", b.stream, b.stream)
        w("")
        w("// The running sum of each stage accumulating over its firings, one per element.")
        for st in p.graph.stages:
            if accumulating(st):
                acc = C_TYPES[p.stage_dtype(st)] if p.stage_dtype(st).startswith("f") \
                    else "unsigned long long"
                w(f"__device__ {acc} sum_{st.name}[{plan.elems(st.outs[0].stream)}];  "
                  f"// over {st.over} firings")
        w("")
        self._tile_tables()
        self.shared = {}
        for site in plan.sites:
            self._site(site)
        self._kernel()
        self._host()
        return Lowered("cuda", {self.file: "\n".join(self.lines) + "\n"}, self.census,
                       PATTERNS)

    def _tile_tables(self) -> None:
        w = self.lines.append
        w("// The origin of each tile a load or store walks, in firing order.")
        for st in self.p.graph.stages:
            if st._prod in ("Load", "Store"):
                tiles = self.plan.tiles(st.name)
                body = ", ".join("{" + ", ".join(f"{x}u" for x in o) + "}" for o in tiles)
                w(f"__device__ const unsigned tiles_{st.name}[{len(tiles)}][{len(tiles[0])}] "
                  f"= {{{body}}};")
        w("")

    # -- one site: its shared memory and its engines ---------------------------------------

    def _site(self, site) -> None:
        plan, w = self.plan, self.lines.append
        r, c = site
        w(f"static __device__ void site_r{r}c{c}(const Tensors& t, unsigned char* smem) {{")
        offset, counters = 0, []
        for b in self.p.graph.buffers:
            if b.site != site or plan.remote(b.stream):
                continue
            t = C_TYPES[plan.dtype(b.stream)]
            size = b.depth * plan.elems(b.stream)
            w(f"    {t}* const ring_{b.stream} = reinterpret_cast<{t}*>(smem + {offset});  "
              f"// buffer {b.stream}: depth {b.depth}")
            self.record("buffer", b.stream, b.stream)
            offset = _align(offset + size * _size(t))
            w(f"    unsigned* const count_{b.stream} = reinterpret_cast<unsigned*>(smem + "
              f"{offset});")
            counters.append(b.stream)
            offset += 16
        for g in self.p.graph.groups:
            if plan.group_site(g.name) != site:
                continue
            t = C_TYPES[plan.group_dtype(g.name)]
            cap = max(1, plan.group_peak.get(g.name, 1))
            w(f"    {t}* const stage_{g.name} = reinterpret_cast<{t}*>(smem + {offset});  "
              f"// group {g.name}: room for {cap} staged token{'s' if cap != 1 else ''}")
            self.record("group", g.name, g.name)
            offset = _align(offset + cap * plan.group_elems(g.name) * _size(t))
        if offset > MAX_SHARED:
            raise LowerError("E7041", f"site {site} needs {offset} bytes of shared memory; a "
                                      f"CUDA block has at most {MAX_SHARED}")
        self.shared[site] = offset
        if counters:
            w("    if (threadIdx.x == 0) {")
            for b in counters:
                w(f"        count_{b}[0] = 0; count_{b}[1] = 0;")
            w("    }")
        w("    __syncthreads();")
        schedules = plan.site_schedules(site)
        for s in schedules:
            self._engine(s)
        w("    switch (threadIdx.x / 32u) {")
        for i, s in enumerate(schedules):
            w(f"    case {i}: kernel_r{r}c{c}_{s.engine}(); break;")
        w("    default: break;")
        w("    }")
        w("}")
        w("")

    def _engine(self, s) -> None:
        r, c = s.site
        name = f"r{r}c{c}_{s.engine}"
        engine = EngineWriter(self.plan)
        body: list[str] = []
        engine.ops(s.ops, body, "        ")
        w = self.lines.append
        w(f"    auto kernel_{name} = [&]() {{  // schedule {s.site} {s.engine}")
        w("        const unsigned lane = nvx_lane();")
        if engine.vars:
            w("        unsigned " + ", ".join(f"{v} = 0" for v in engine.vars) + ";")
        self.lines += body
        w("        (void)lane;")
        w("    };")
        self.record("kernel", name, (s.site, s.engine))

    # -- the kernel and the host -----------------------------------------------------------

    def _kernel(self) -> None:
        w = self.lines.append
        w(f"extern \"C\" __global__ void __launch_bounds__({self.block}) "
          f"{self.name}_kernel(Tensors t) {{")
        w("    extern __shared__ __align__(16) unsigned char smem[];")
        w("    switch (blockIdx.x) {")
        for i, (r, c) in enumerate(self.plan.sites):
            w(f"    case {i}: site_r{r}c{c}(t, smem); break;")
        w("    default: break;")
        w("    }")
        w("}")
        w("")

    def _host(self) -> None:
        p, plan, w = self.p, self.plan, self.lines.append
        tensors = p.graph.tensors
        params = ", ".join(f"{'const ' if t.role == 'input' else ''}{C_TYPES[t.dtype]}* "
                           f"host_{t.name}" for t in tensors)
        shared = max(self.shared.values(), default=0)
        w("#define NVX_TRY(call) do { cudaError_t err_ = (call); "
          "if (err_ != cudaSuccess) return err_; } while (0)")
        w("")
        w(f"// Runs {self.name} on the host arrays (row-major): copies the inputs in, sets the")
        w("// semaphores and ring counters, launches every site at once, copies the outputs back.")
        w(f"extern \"C\" cudaError_t {self.name}_run({params}) {{")
        w("    Tensors t;")
        for x in tensors:
            n = elems(x.shape) * _size(C_TYPES[x.dtype])
            w(f"    {C_TYPES[x.dtype]}* dev_{x.name} = nullptr;")
            w(f"    NVX_TRY(cudaMalloc(&dev_{x.name}, {n}));")
            if x.role == "input":
                w(f"    NVX_TRY(cudaMemcpy(dev_{x.name}, host_{x.name}, {n}, "
                  f"cudaMemcpyHostToDevice));")
            w(f"    t.dram_{x.name} = dev_{x.name};")
        for s in p.graph.semaphores:
            w(f"    {{ const unsigned v = {s.initial}u; "
              f"NVX_TRY(cudaMemcpyToSymbol(sem_{s.name}, &v, sizeof v)); }}")
        remote = [b.stream for b in p.graph.buffers if plan.remote(b.stream)]
        if remote:
            w("    const unsigned zero[2] = {0u, 0u};")
        for b in remote:
            w(f"    NVX_TRY(cudaMemcpyToSymbol(count_{b}, zero, sizeof zero));")
        w(f"    NVX_TRY(cudaFuncSetAttribute({self.name}_kernel, "
          f"cudaFuncAttributeMaxDynamicSharedMemorySize, {shared}));")
        w("    void* args[] = {&t};")
        w(f"    NVX_TRY(cudaLaunchCooperativeKernel((void*){self.name}_kernel, "
          f"dim3({len(plan.sites)}), dim3({self.block}), args, {shared}, 0));")
        w("    NVX_TRY(cudaDeviceSynchronize());")
        for x in tensors:
            if x.role == "output":
                n = elems(x.shape) * _size(C_TYPES[x.dtype])
                w(f"    NVX_TRY(cudaMemcpy(host_{x.name}, dev_{x.name}, {n}, "
                  f"cudaMemcpyDeviceToHost));")
        for x in tensors:
            w(f"    NVX_TRY(cudaFree(dev_{x.name}));")
        w("    return cudaSuccess;")
        w("}")


def _size(ctype: str) -> int:
    return {"int32_t": 4, "float": 4, "long long": 8, "int64_t": 8, "double": 8}[ctype]


def _align(n: int) -> int:
    return -(-n // 16) * 16
