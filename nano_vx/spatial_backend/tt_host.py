"""The host program of the `tenstorrent` backend: DRAM tensors (one page a row), then per
core its circular buffers (the IR's depth in tokens, each token its tiles, a page a tile, in
the buffer's data format), its scaler tile of ones if it reduces, its semaphores (their
initial values) and its kernels with their runtime arguments, a compute kernel with the
compute config (the target's math fidelity, 32-bit accumulation, and unpacking straight to
the destination register for the 32-bit buffers the vector unit reads); inputs in, the
program run, outputs out. Each circular buffer, semaphore, kernel, group staging buffer and
scaler is recorded in the census as its line is written."""

from __future__ import annotations

from .tt_layout import (FORMATS, TILE_BYTES, cb_bytes, dram_bytes, dram_page, group_bytes,
                        page_bytes, rectangle)

FIDELITIES = {"lofi": "LoFi", "hifi2": "HiFi2", "hifi3": "HiFi3", "hifi4": "HiFi4"}
# tt-metal's reduce scaler: the value in the first row of each 16 x 16 face of a bf16 tile
# (512 words, a face 128); 0x3f80 is bf16 1.0.
SCALER_WORDS, FACE_WORDS, ONES = 512, 128, "0x3f803f80u"

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
    w("    // DRAM tensors, row-major, one page per row of the last dimension (a block float in")
    w("    // tile layout, a page a tile).")
    for t in p.graph.tensors:
        w(f"    std::shared_ptr<Buffer> dram_{t.name} = CreateBuffer(InterleavedBufferConfig{{"
          f".device = device, .size = {dram_bytes(t)}, .page_size = {dram_page(t)}, "
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
              f".device = device, .size = {cb_bytes(plan, first.stream) * len(g.streams)}, "
              f".page_size = {page_bytes(plan, first.stream)}, .buffer_type = BufferType::L1, "
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
              f".device = device, .size = {cb_bytes(plan, r)}, .page_size = "
              f"{page_bytes(plan, r)}, "
              f".buffer_type = BufferType::L1, .buffer_layout = "
              f"TensorMemoryLayout::HEIGHT_SHARDED, .shard_parameters = ShardSpecBuffer("
              f"CoreRangeSet(CoreRange(core_r{rr}c{cc})), {{{b.depth}, 1}}, "
              f"ShardOrientation::ROW_MAJOR, {{1, 1}}, {{{b.depth}, 1}})}});")
            backed[r] = f"l1_{r}"
    w("")
    w("    // Circular buffers: one per buffer of the program, on its consumer's core; a page")
    w("    // is a tile.")
    lines += _circular_buffers(plan, layout, backed, census, file)
    lines += _scalers(layout, census, file)
    w("")
    w("    // Semaphores, with their initial values.")
    for s in p.graph.semaphores:
        r, c = s.site
        w(f"    uint32_t sem_{s.name} = CreateSemaphore(program, core_r{r}c{c}, {s.initial});")
        census.record("semaphore", s.name, s.name, file)
    w("")
    w("    // Kernels: the schedule of each engine of each core.")
    lines += _kernels(plan, layout, target, census, file)
    w("")
    w("    // Inputs from the host (here zeros: fill them with the real tensors).")
    for t in p.graph.tensors:
        if t.role == "input":
            words = -(-dram_bytes(t) // 4)
            w(f"    std::vector<uint32_t> host_{t.name}({words}, 0);")
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


def _circular_buffers(plan, layout, backed: dict, census, file: str) -> list[str]:
    p, lines = plan.p, []
    for b in p.graph.buffers:
        r, c = b.site
        i, dtype = layout.cb[b.stream], p.token_dtype(b.stream)
        tail = (f".set_globally_allocated_address(*{backed[b.stream]})"
                if b.stream in backed else "")
        lines.append(
            f"    CBHandle cb_{b.stream} = CreateCircularBuffer(program, core_r{r}c{c}, "
            f"CircularBufferConfig({cb_bytes(plan, b.stream)}, {{{{{i}, {FORMATS[dtype]}}}}})"
            f".set_page_size({i}, {TILE_BYTES[dtype]}){tail});  // buffer {b.stream}: depth "
            f"{b.depth} x {page_bytes(plan, b.stream)} bytes")
        census.record("buffer", b.stream, b.stream, file)
    for g in p.graph.groups:
        r, c = plan.group_site(g.name)
        i, dtype = layout.cb[g.name], plan.group_dtype(g.name)
        lines.append(
            f"    CBHandle stage_{g.name} = CreateCircularBuffer(program, core_r{r}c{c}, "
            f"CircularBufferConfig({group_bytes(plan, g.name)}, {{{{{i}, {FORMATS[dtype]}}}}})"
            f".set_page_size({i}, {TILE_BYTES[dtype]}));  // group {g.name}: its staged "
            f"tokens")
        census.record("group", g.name, g.name, file)
    return lines


def _scalers(layout, census, file: str) -> list[str]:
    """Per core that reduces, the tile of ones reduce_tile scales by: an L1 buffer the host
    writes, behind a circular buffer the compute kernel publishes to itself."""
    lines = []
    for (r, c), i in layout.scaler.items():
        core, name = f"core_r{r}c{c}", f"r{r}c{c}"
        lines += [
            f"    std::shared_ptr<Buffer> l1_scaler_{name} = CreateBuffer(ShardedBufferConfig{{"
            f".device = device, .size = {TILE_BYTES['bf16']}, .page_size = "
            f"{TILE_BYTES['bf16']}, .buffer_type = BufferType::L1, .buffer_layout = "
            f"TensorMemoryLayout::HEIGHT_SHARDED, .shard_parameters = ShardSpecBuffer("
            f"CoreRangeSet(CoreRange({core})), {{1, 1}}, ShardOrientation::ROW_MAJOR, "
            f"{{1, 1}}, {{1, 1}})}});",
            f"    std::vector<uint32_t> ones_{name}({SCALER_WORDS}, 0);",
            "    for (uint32_t face = 0; face < 4; ++face)",
            f"        for (uint32_t w = 0; w < 8; ++w) ones_{name}[face * {FACE_WORDS} + w] = "
            f"{ONES};",
            f"    EnqueueWriteBuffer(cq, l1_scaler_{name}, ones_{name}, false);",
            f"    CBHandle scaler_{name} = CreateCircularBuffer(program, {core}, "
            f"CircularBufferConfig({TILE_BYTES['bf16']}, {{{{{i}, "
            f"{FORMATS['bf16']}}}}}).set_page_size({i}, {TILE_BYTES['bf16']})"
            f".set_globally_allocated_address(*l1_scaler_{name}));  // reduce scaler: ones"]
        census.record("scaler", name, name, file)
    return lines


def _kernels(plan, layout, target, census, file: str) -> list[str]:
    p, lines = plan.p, []
    fidelity = FIDELITIES[target.matrix.fidelity] if target.matrix else "HiFi4"
    for s in plan.schedules:
        r, c = s.site
        name = f"r{r}c{c}_{s.engine}"
        if s.engine == "compute":
            lines += _unpack_modes(plan, layout, s.site, name)
            config = (f"ComputeConfig{{.math_fidelity = MathFidelity::{fidelity}, "
                      f".fp32_dest_acc_en = true, .unpack_to_dest_mode = unpack_{name}}}")
        else:
            config = f"DataMovementConfig{{.processor = {PROCESSORS[s.engine]}}}"
        lines.append(f"    KernelHandle kernel_{name} = CreateKernel(program, \"kernels/"
                     f"{p.name}/{name}.cpp\", core_r{r}c{c}, {config});")
        census.record("kernel", name, (s.site, s.engine), file)
        args = ", ".join(host for _, host in layout.args[name])
        lines.append(f"    SetRuntimeArgs(program, kernel_{name}, core_r{r}c{c}, {{{args}}});")
    return lines


def _unpack_modes(plan, layout, site, name: str) -> list[str]:
    """The 32-bit buffers of the core that the vector unit reads are unpacked straight into
    the destination register, which keeps their 32 bits (the source registers hold 19)."""
    p = plan.p
    lines = [f"    std::vector<UnpackToDestMode> unpack_{name}(NUM_CIRCULAR_BUFFERS, "
             f"UnpackToDestMode::Default);"]
    for b in p.graph.buffers:
        reader = p.stages[p.consumer(b.stream).stage]
        on_fpu = reader._prod == "Compute" and reader.op in ("matmul_acc", "sum", "max")
        if (b.site == site and p.token_dtype(b.stream) in ("f32", "i32") and not on_fpu
                and p.places[reader.name][1] == "compute"):
            lines.append(f"    unpack_{name}[{layout.cb[b.stream]}] = "
                         f"UnpackToDestMode::UnpackToDestFp32;")
    return lines
