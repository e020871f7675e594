"""The host program of the `tenstorrent` backend: DRAM tensors (one page a row), then per
core its circular buffers (depth x page bytes, from the IR), its semaphores (their initial
values) and its kernels with their runtime arguments; inputs in, the program run, outputs
out. Each circular buffer, semaphore, kernel and group staging buffer is recorded in the
census as its line is written."""

from __future__ import annotations

from .compute import elems
from .tt_layout import FORMATS, rectangle

PROCESSORS = {"reader": "DataMovementProcessor::RISCV_1, .noc = NOC::RISCV_1_default",
              "writer": "DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default"}


def host_program(plan, layout, target, census) -> str:
    p = plan.p
    file = "host.cpp"
    lines: list[str] = []
    w = lines.append
    w(f"// {p.name} on {target.name}: the tt-metal host program (nano-vx spatial --lower "
      f"tenstorrent).")
    w("// Core (row r, column c) of the mesh is logical core {c, r}.")
    w("#include <cstdint>")
    w("#include <memory>")
    w("#include <vector>")
    w("#include <tt-metalium/host_api.hpp>")
    w("#include <tt-metalium/device.hpp>")
    w("")
    w("using namespace tt;")
    w("using namespace tt::tt_metal;")
    w("")
    w("int main() {")
    w("    IDevice* device = CreateDevice(0);")
    w("    CommandQueue& cq = device->command_queue();")
    w("    Program program = CreateProgram();")
    w("")
    w("    // DRAM tensors, row-major, one page per row of the last dimension.")
    for t in p.graph.tensors:
        row = t.shape[-1] * 4
        w(f"    std::shared_ptr<Buffer> dram_{t.name} = CreateBuffer(InterleavedBufferConfig{{"
          f".device = device, .size = {elems(t.shape) * 4}, .page_size = {row}, "
          f".buffer_type = BufferType::DRAM}});")
    sites = sorted({b.site for b in p.graph.buffers} | set(plan.sites)
                   | {s.site for s in p.graph.semaphores})
    w("")
    for r, c in sites:
        w(f"    const CoreCoord core_r{r}c{c}{{{c}, {r}}};")
        w(f"    const CoreCoord noc_r{r}c{c} = device->worker_core_from_logical_core("
          f"core_r{r}c{c});")
    w("")
    w("    // L1 behind the circular buffers the NoC fills: the producer writes at its address.")
    backed = {}
    for g in p.graph.groups:
        rect = rectangle(plan, g.name)
        if rect is not None:
            (r0, c0), (r1, c1) = rect
            first = plan.buffer(g.streams[0])
            w(f"    std::shared_ptr<Buffer> l1_{g.name} = CreateBuffer(ShardedBufferConfig{{"
              f".device = device, .size = {first.bytes * len(g.streams)}, .page_size = "
              f"{first.bytes // first.depth}, .buffer_type = BufferType::L1, "
              f".buffer_layout = TensorMemoryLayout::HEIGHT_SHARDED, .shard_parameters = "
              f"ShardSpecBuffer(CoreRangeSet(CoreRange(core_r{r0}c{c0}, core_r{r1}c{c1})), "
              f"{{{first.depth}, 1}}, ShardOrientation::ROW_MAJOR, {{1, 1}}, "
              f"{{{first.depth * len(g.streams)}, 1}})}});")
            backed.update({r: f"l1_{g.name}" for r in g.streams})
            continue
        for r in g.streams:
            b = plan.buffer(r)
            rr, cc = b.site
            w(f"    std::shared_ptr<Buffer> l1_{r} = CreateBuffer(ShardedBufferConfig{{"
              f".device = device, .size = {b.bytes}, .page_size = {b.bytes // b.depth}, "
              f".buffer_type = BufferType::L1, .buffer_layout = "
              f"TensorMemoryLayout::HEIGHT_SHARDED, .shard_parameters = ShardSpecBuffer("
              f"CoreRangeSet(CoreRange(core_r{rr}c{cc})), {{{b.depth}, 1}}, "
              f"ShardOrientation::ROW_MAJOR, {{1, 1}}, {{{b.depth}, 1}})}});")
            backed[r] = f"l1_{r}"
    w("")
    w("    // Circular buffers: one per buffer of the program, on its consumer's core.")
    for b in p.graph.buffers:
        r, c = b.site
        i, page = layout.cb[b.stream], b.bytes // b.depth
        fmt = FORMATS[p.token_dtype(b.stream)]
        tail = (f".set_globally_allocated_address(*{backed[b.stream]})"
                if b.stream in backed else "")
        w(f"    CBHandle cb_{b.stream} = CreateCircularBuffer(program, core_r{r}c{c}, "
          f"CircularBufferConfig({b.bytes}, {{{{{i}, {fmt}}}}}).set_page_size({i}, {page})"
          f"{tail});  // buffer {b.stream}: depth {b.depth} x {page} bytes")
        census.record("buffer", b.stream, b.stream, file)
    for g in p.graph.groups:
        r, c = plan.group_site(g.name)
        i = layout.cb[g.name]
        page = plan.group_elems(g.name) * 4
        cap = max(1, plan.group_peak.get(g.name, 1))
        fmt = FORMATS[plan.group_dtype(g.name)]
        w(f"    CBHandle stage_{g.name} = CreateCircularBuffer(program, core_r{r}c{c}, "
          f"CircularBufferConfig({cap * page}, {{{{{i}, {fmt}}}}}).set_page_size({i}, "
          f"{page}));  // group {g.name}: its staged tokens")
        census.record("group", g.name, g.name, file)
    w("")
    w("    // Semaphores, with their initial values.")
    for s in p.graph.semaphores:
        r, c = s.site
        w(f"    uint32_t sem_{s.name} = CreateSemaphore(program, core_r{r}c{c}, {s.initial});")
        census.record("semaphore", s.name, s.name, file)
    w("")
    w("    // Kernels: the schedule of each engine of each core.")
    for s in plan.schedules:
        r, c = s.site
        name = f"r{r}c{c}_{s.engine}"
        config = ("ComputeConfig{}" if s.engine == "compute"
                  else f"DataMovementConfig{{.processor = {PROCESSORS[s.engine]}}}")
        w(f"    KernelHandle kernel_{name} = CreateKernel(program, \"kernels/{p.name}/"
          f"{name}.cpp\", core_r{r}c{c}, {config});")
        census.record("kernel", name, (s.site, s.engine), file)
        args = ", ".join(host for _, host in layout.args[name])
        w(f"    SetRuntimeArgs(program, kernel_{name}, core_r{r}c{c}, {{{args}}});")
    w("")
    w("    // Inputs from the host (here zeros: fill them with the real tensors).")
    for t in p.graph.tensors:
        if t.role == "input":
            w(f"    std::vector<uint32_t> host_{t.name}({elems(t.shape)}, 0);")
            w(f"    EnqueueWriteBuffer(cq, dram_{t.name}, host_{t.name}, false);")
    w("    EnqueueProgram(cq, program, false);")
    w("    Finish(cq);")
    for t in p.graph.tensors:
        if t.role == "output":
            w(f"    std::vector<uint32_t> host_{t.name};")
            w(f"    EnqueueReadBuffer(cq, dram_{t.name}, host_{t.name}, true);")
    w("    CloseDevice(device);")
    w("    return 0;")
    w("}")
    return "\n".join(lines) + "\n"
