"""Where a program's buffers go on Tensix cores, for the tt-metal kernels and the host program
alike: the circular-buffer index of each buffer on its core, the runtime arguments each kernel
asks for, multicast rectangles, element sizes and the tiles a token takes; and the limits of a
core, whose breach is E7041.

A token lives in its circular buffer as tt-metal's compute API takes it: a grid of 32 x 32
tiles, each four 16 x 16 faces (row-major faces, row-major within a face), in the buffer's
data format; a token that does not fill its tiles is padded (with zeros, by the reader that
fills it from DRAM). The circular buffer's page is one tile, so a token is `tiles` pages."""

from __future__ import annotations

from math import prod

from ..spatial.program import flat_ops
from . import LowerError

ENGINES = ("reader", "compute", "writer")
# tt-metal on Wormhole: NUM_CIRCULAR_BUFFERS and NUM_SEMAPHORES per core.
MAX_CBS, MAX_SEMAPHORES = 32, 16
FORMATS = {"i32": "tt::DataFormat::Int32", "f32": "tt::DataFormat::Float32",
           "bf16": "tt::DataFormat::Float16_b", "f16": "tt::DataFormat::Float16",
           "bfp8": "tt::DataFormat::Bfp8_b", "bfp4": "tt::DataFormat::Bfp4_b"}
TILE, FACE = 32, 16
# Bytes of one 32 x 32 tile: 1,024 elements, or for a block float 64 blocks of 16 values,
# each a byte of shared exponent and 16 sign-magnitudes of 7 or 3 bits (tt-metal's tile
# sizes of BFLOAT8_B and BFLOAT4_B, docs/spatial.md "Element types").
TILE_BYTES = {"i32": 4096, "f32": 4096, "bf16": 2048, "f16": 2048, "bfp8": 1088, "bfp4": 576}
BLOCK_FLOATS = ("bfp8", "bfp4")


class Layout:
    """The circular-buffer index of every buffer and group staging buffer on its core (the
    same in every kernel of the core), once the program is known to fit a core; and the
    runtime arguments each kernel asks the host for, filled in as the kernels are written."""

    def __init__(self, plan, target):
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
        # A core that reduces keeps a tile of ones for reduce_tile to scale by.
        self.scaler: dict[tuple, int] = {}
        for st in p.graph.stages:
            if st._prod == "Compute" and st.op in ("sum", "max"):
                site = p.places[st.name][0]
                if site not in self.scaler:
                    self.scaler[site] = per_core.get(site, 0)
                    per_core[site] = self.scaler[site] + 1
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
            if len(plan.shapes[b.stream]) > 2:
                raise LowerError("E7041", f"buffer '{b.stream}' holds tokens of "
                                          f"{len(plan.shapes[b.stream])} dimensions; the "
                                          f"compute API's tiles are of two")
            if p.token_dtype(b.stream) not in FORMATS:
                raise LowerError("E7041", f"buffer '{b.stream}' holds "
                                          f"{p.token_dtype(b.stream)}; Wormhole has no "
                                          f"64-bit element types")
        for st in p.graph.stages:
            if st._prod in ("Load", "Store") and p.tensors[st.tensor].dtype in BLOCK_FLOATS:
                _whole_tiles(p.tensors[st.tensor], plan.tile_shape(st.name))
        _fits(plan, target, self)
        self.args: dict[str, list[tuple[str, str]]] = {}


def cb_bytes(plan, stream: str) -> int:
    """Bytes of the circular buffer of a buffer: its depth in padded tokens."""
    return plan.buffer(stream).depth * page_bytes(plan, stream)


def group_bytes(plan, group: str) -> int:
    """Bytes of a group's staging circular buffer: the most tokens staged at once."""
    return max(1, plan.group_peak.get(group, 1)) * page_bytes(plan, plan.p.groups[group].streams[0])


def _fits(plan, target, layout) -> None:
    """Tokens padded to whole tiles take more L1 than the IR's buffers, which the lane fit;
    refuse a core they no longer fit."""
    used: dict[tuple, int] = {}
    for b in plan.p.graph.buffers:
        used[b.site] = used.get(b.site, 0) + cb_bytes(plan, b.stream)
    for g in plan.p.graph.groups:
        site = plan.group_site(g.name)
        used[site] = used.get(site, 0) + group_bytes(plan, g.name)
    for site in layout.scaler:
        used[site] = used.get(site, 0) + TILE_BYTES["bf16"]
    for site, n in sorted(used.items()):
        if n > target.sram_bytes:
            raise LowerError("E7041", f"core {site} needs {n:,} bytes of L1 for its circular "
                                      f"buffers, their tokens padded to whole tiles; it has "
                                      f"{target.sram_bytes:,}")


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
    """Bytes of an element in a row-major DRAM page (block floats have no such page)."""
    return {"bf16": 2, "f16": 2}.get(dtype, 8 if dtype.endswith("64") else 4)


def grid(shape) -> tuple[int, int]:
    """(rows, columns) of tiles a token of `shape` takes: its last two extents, each rounded
    up to whole tiles (a token of one dimension is one row)."""
    rows, cols = (1, shape[0]) if len(shape) == 1 else shape[-2:]
    return -(-rows // TILE), -(-cols // TILE)


def tiles(shape) -> int:
    ht, wt = grid(shape)
    return ht * wt


def page_bytes(plan, stream: str) -> int:
    """Bytes of a token of `stream` in its circular buffer: its tiles."""
    return tiles(plan.shapes[stream]) * TILE_BYTES[plan.dtype(stream)]


def fills_tiles(shape) -> bool:
    rows, cols = (1, shape[0]) if len(shape) == 1 else shape[-2:]
    return rows % TILE == 0 and cols % TILE == 0


def row_bytes(shape, dtype: str) -> int:
    return shape[-1] * elem_size(dtype)


def dram_page(tensor) -> int:
    """A DRAM page: a row of the tensor; of a block float, one tile (tt-metal's tile layout:
    a block float has no row-major form)."""
    if tensor.dtype in BLOCK_FLOATS:
        return TILE_BYTES[tensor.dtype]
    return row_bytes(tensor.shape, tensor.dtype)


def dram_bytes(tensor) -> int:
    if tensor.dtype in BLOCK_FLOATS:
        return tiles(tensor.shape) * TILE_BYTES[tensor.dtype]
    return prod(tensor.shape) * elem_size(tensor.dtype)


def _whole_tiles(tensor, tile) -> None:
    """A block-float tensor's loads and stores move whole tiles of its tile layout."""
    if len(tensor.shape) != 2 or not (fills_tiles(tensor.shape) and fills_tiles(tile)):
        raise LowerError("E7041", f"tensor '{tensor.name}' is {tensor.dtype}, which lives in "
                                  f"DRAM in tt-metal's tile layout: it and the tiles its "
                                  f"loads and stores move must be whole {TILE} x {TILE} tiles "
                                  f"of two dimensions, not {list(tensor.shape)} in "
                                  f"{list(tile)}")
