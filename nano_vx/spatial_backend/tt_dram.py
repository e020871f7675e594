"""How the data-movement kernels of the `tenstorrent` backend move a load's or a store's tile
between DRAM and a circular buffer's slot, where a token lies in 32 x 32 tiles of 16 x 16
faces (tt_layout.py): a row-major tensor a face row at a time, a block float (in tile layout
in DRAM) a whole tile, a page, at a time."""

from __future__ import annotations

from .compute import elems
from .tt_layout import BLOCK_FLOATS, FACE, TILE, TILE_BYTES, elem_size, fills_tiles, grid


def dram_lines(plan, op, tensor, cur: str, addr: str, read: bool,
               slot_bytes: int) -> list[str]:
    """Move the tile of a load or store between its DRAM rows and the slot at `addr` (of
    `slot_bytes`), where it lies in tiles: each row in pieces of at most a face row (16
    elements), each to its place in its face. A read into a token that does not fill its
    tiles zeroes the slot first, so the padding is zeros. `cur` counts the tiles moved."""
    tile, shape = plan.tile_shape(op.stage), tensor.shape
    if tensor.dtype in BLOCK_FLOATS:
        return _whole_tiles(plan, op, tensor, tile, cur, addr, read)
    size = elem_size(tensor.dtype)
    rows, cols = elems(tile[:-1]), tile[-1]
    wt = grid(tile)[1]
    dram_row = row_page(tile, shape)
    piece = "16u" if cols % FACE == 0 else f"({cols}u - col < 16u ? {cols}u - col : 16u)"
    at = (f"addr + (((row / {TILE}u) * {wt}u + col / {TILE}u) * 1024u + ((row % {TILE}u) "
          f"/ 16u) * 512u + ((col % {TILE}u) / 16u) * 256u + (row % 16u) * 16u + col % "
          f"16u) * {size}u")
    noc = (f"get_noc_addr({dram_row}, pages_{tensor.name}, (org[{len(shape) - 1}] + col) * "
           f"{size}u)")
    move = (f"noc_async_read({noc}, {at}, {piece} * {size}u);" if read
            else f"noc_async_write({at}, {noc}, {piece} * {size}u);")
    zero = ([f"for (uint32_t w = 0; w < {slot_bytes // 4}u; ++w) "
             f"reinterpret_cast<volatile uint32_t*>(addr)[w] = 0;"]
            if read and not fills_tiles(tile) else [])
    return _framed(plan, op, cur, addr, read, zero + [
        f"for (uint32_t row = 0; row < {rows}u; ++row)",
        f"    for (uint32_t col = 0; col < {cols}u; col += 16u) {move}"])


def _whole_tiles(plan, op, tensor, tile, cur: str, addr: str, read: bool) -> list[str]:
    """A block float's tile: its whole tiles, each a page of the tensor's tile layout."""
    ht, wt = grid(tile)
    per_row, size = grid(tensor.shape)[1], TILE_BYTES[tensor.dtype]
    page = (f"(org[0] / {TILE}u + t / {wt}u) * {per_row}u + org[1] / {TILE}u + t % {wt}u")
    noc = f"get_noc_addr({page}, pages_{tensor.name})"
    at = f"addr + t * {size}u"
    move = (f"noc_async_read({noc}, {at}, {size}u);" if read
            else f"noc_async_write({at}, {noc}, {size}u);")
    return _framed(plan, op, cur, addr, read,
                   [f"for (uint32_t t = 0; t < {ht * wt}u; ++t) {move}"])


def _framed(plan, op, cur: str, addr: str, read: bool, moves: list[str]) -> list[str]:
    """The moves of one tile: its origin from the stage's table, then the NoC's barrier."""
    return (["{", f"    const uint32_t* org = tiles_{op.stage}[{cur} % "
                  f"{len(plan.tiles(op.stage))}u];", f"    const uint32_t addr = {addr};"]
            + ["    " + x for x in moves]
            + [f"    noc_async_{'read' if read else 'write'}_barrier();", f"    {cur} += 1;",
               "}"])


def row_page(tile, shape) -> str:
    """The DRAM page (a row of the tensor: its last dimension) of row `row` of the tile at
    origin `org`, the tile's leading dimensions flattened."""
    terms = []
    for d in range(len(shape) - 1):
        inner = elems(tile[d + 1:-1])
        stride = elems(shape[d + 1:-1])
        local = f"(row / {inner}u) % {tile[d]}u" if inner != 1 else f"row % {tile[d]}u"
        term = f"(org[{d}] + {local})"
        terms.append(f"{term} * {stride}u" if stride != 1 else term)
    return " + ".join(terms) or "0u"
