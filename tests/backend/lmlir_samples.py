"""Lmlir programs written by hand for the back end's tests, through a small builder that
names values, numbers sites, and widens what it prints the way docs/backend.md says
select-instructions does."""

from __future__ import annotations

from nano_vx.languages.lmlir import Lmlir as L

RUNTIME = (
    L["Declare"]("vx_print", ("i32", "i64"), ()),
    L["Declare"]("vx_stop", ("i32", "i64", "i64"), ()),
    L["Declare"]("vx_check_alloc", ("i32", "i64"), ()),
)
# The place a reference names: a memref of rank 0 at an offset.
I32_PLACE, F32_PLACE = "memref<i32, strided<[], offset: ?>>", "memref<f32, strided<[], offset: ?>>"
_SIGNED = frozenset({"i8", "i16", "i32", "i64"})


class Builder:
    """One function's blocks, being written, and the program's sites."""

    def __init__(self, sites=None):
        self.sites = [] if sites is None else sites
        self.blocks = []
        self.label, self.args, self.ops = "bb0", (), []
        self.count = 0

    def fresh(self) -> str:
        self.count += 1
        return f"v{self.count}"

    def emit(self, node):
        self.ops.append(node)
        return node

    def const(self, value, mtype: str) -> str:
        return self.emit(L["Constant"](self.fresh(), value, mtype)).result

    def arith(self, op: str, lhs: str, rhs: str, mtype: str) -> str:
        return self.emit(L["Arith"](self.fresh(), op, lhs, rhs, mtype)).result

    def compare(self, op: str, predicate: str, lhs: str, rhs: str, mtype: str) -> str:
        return self.emit(L["Compare"](self.fresh(), op, predicate, lhs, rhs, mtype)).result

    def convert(self, op: str, value: str, source: str, mtype: str) -> str:
        return self.emit(L["Convert"](self.fresh(), op, value, source, mtype)).result

    def alloc(self, mtype: str, op: str = "Alloc", sizes=()) -> str:
        """A memref.alloc (of `sizes`, index values, for its `?` extents) or alloca."""
        if op == "Alloca":
            return self.emit(L[op](self.fresh(), mtype)).result
        return self.emit(L[op](self.fresh(), tuple(sizes), mtype)).result

    def load(self, ref: str, indices, mtype: str) -> str:
        return self.emit(L["Load"](self.fresh(), ref, indices, mtype)).result

    def store(self, value: str, ref: str, indices, mtype: str) -> None:
        self.emit(L["Store"](value, ref, indices, mtype))

    def opaque(self, value, mtype: str) -> str:
        """A constant stored in a cell and loaded back: a value -O0 cannot fold (a bool's
        cell holds its byte, as Lmlir stores bools)."""
        stored = "i8" if mtype == "i1" else mtype
        cell = self.alloc(f"memref<{stored}>", "Alloca")
        self.store(self.const(value, stored), cell, (), f"memref<{stored}>")
        loaded = self.load(cell, (), f"memref<{stored}>")
        return self.convert("arith.trunci", loaded, "i8", "i1") if mtype == "i1" else loaded

    def index(self, i: int) -> str:
        return self.const(i, "index")

    def call(self, callee: str, args, result_types=(), launch=None) -> tuple[str, ...]:
        results = tuple(L["Arg"](self.fresh(), t) for t in result_types)
        self.emit(L["Call"](results, callee, args, launch))
        return tuple(a.name for a in results)

    def site(self, prod: str, *fields, span=None) -> str:
        """A new site, and its id as an i32 value."""
        site_id = len(self.sites)
        self.sites.append(L[prod](site_id, *fields, span=span))
        return self.const(site_id, "i32")

    def print_scalar(self, value: str, mtype: str, vx: str) -> None:
        """vx_print of an int, bool or float `value` of MLIR type `mtype`, read as `vx`."""
        if vx in ("f16", "bf16", "f32", "f64"):
            kind = "float"
            wide = value if mtype == "f64" else self.convert("arith.extf", value, mtype, "f64")
            payload = self.convert("arith.bitcast", wide, "f64", "i64")
        else:
            kind = "bool" if vx == "bool" else "int"
            extend = "arith.extsi" if vx in _SIGNED else "arith.extui"
            payload = value if mtype == "i64" else self.convert(extend, value, mtype, "i64")
        site = self.site("PrintSite", kind, vx, None, ())
        self.call("vx_print", (site, payload))

    def print_str(self, text: str) -> None:
        site = self.site("PrintSite", "str", None, text, ())
        self.call("vx_print", (site, self.const(0, "i64")))

    def print_tensor(self, ref: str, mtype: str, vx: str, dims) -> None:
        pointer = self.emit(L["Pointer"](self.fresh(), ref, mtype)).result
        payload = self.convert("arith.index_cast", pointer, "index", "i64")
        site = self.site("PrintSite", "tensor", vx, None, tuple(dims))
        self.call("vx_print", (site, payload))

    def stop(self, code: str, message: str, operand, a: str, b: str, span=None) -> None:
        """vx_stop at a new StopSite, and the unreachable after it, ending the block."""
        site = self.site("StopSite", code, message, operand, span=span)
        self.call("vx_stop", (site, a, b))
        self.end(L["Unreachable"]())

    def end(self, term, label: str | None = None, args=()) -> None:
        """End the current block with `term`; start block `label` (with `args`) if given."""
        self.blocks.append(L["Block"](self.label, self.args, tuple(self.ops), term))
        self.label, self.args, self.ops = label, tuple(L["Arg"](n, t) for n, t in args), []

    def func(self, name: str, args=(), results=(), topology=None):
        return L["Func"](name, tuple(L["Arg"](n, t) for n, t in args), tuple(results),
                         topology, tuple(self.blocks))


def program(*funcs, sites=()):
    return L["Module"](tuple(sites) + RUNTIME + tuple(funcs))


def main_program(b: Builder, result=None, extra=()):
    """main ending the current block with `return result` (an i32 constant), or `return`."""
    if result is None:
        b.end(L["Ret"](()))
        return program(b.func("main"), *extra, sites=b.sites)
    b.end(L["Ret"]((b.const(result, "i32"),)))
    return program(b.func("main", results=("i32",)), *extra, sites=b.sites)


def every_op():
    """A program with every operation and terminator of Lmlir. It prints
    2, 0.2, [[0, 9.5, 2], [3, 4, 5]], [[0, 1, 2], [3, 4, 5]], 0.2, 2147483647, done, 9
    and returns 2."""
    sites = []
    twice = Builder(sites)
    twice.end(L["Ret"]((twice.arith("addi", "x", "x", "i32"),)))
    kernel = Builder(sites)
    kernel.store(kernel.const(9.5, "f32"), "buf", (kernel.index(1),), "memref<6xf32>")
    kernel.end(L["Ret"](()))

    b = Builder(sites)
    cell = b.alloc("memref<i32>", "Alloca")
    b.store(b.const(7, "i32"), cell, (), "memref<i32>")
    seven = b.load(cell, (), "memref<i32>")
    place = b.emit(L["Cast"](b.fresh(), cell, "memref<i32>", I32_PLACE)).result
    b.store(seven, place, (), I32_PLACE)  # through the reference: the 7 it holds
    (fourteen,) = b.call("twice", (seven,), ("i32",))
    zero = b.compare("cmpi", "eq", fourteen, b.const(0, "i32"), "i32")
    b.end(L["CondBr"](zero, "bb3", (), "bb1", (fourteen,)), "bb1", (("d", "i32"),))

    two = b.arith("divsi", "d", seven, "i32")
    b.print_scalar(two, "i32", "i32")
    tenth = b.const(0.1, "f32")
    fifth = b.arith("mulf", b.convert("arith.sitofp", two, "i32", "f32"), tenth, "f32")
    b.print_scalar(fifth, "f32", "f32")
    b.emit(L["Assume"](b.compare("cmpf", "olt", tenth, fifth, "f32")))
    buf = b.alloc("memref<2x3xf32>")
    flat = b.emit(L["Collapse"](b.fresh(), buf, "memref<2x3xf32>", "memref<6xf32>")).result
    b.end(L["Br"]("bb2", (b.index(0),)), "bb2", (("i", "index"),))

    more = b.compare("cmpi", "ult", "i", b.index(6), "index")
    b.end(L["CondBr"](more, "bb4", (), "bb5", ()), "bb4")

    wide = b.convert("arith.index_cast", "i", "index", "i64")
    b.store(b.convert("arith.sitofp", wide, "i64", "f32"), flat, ("i",), "memref<6xf32>")
    b.end(L["Br"]("bb2", (b.arith("addi", "i", b.index(1), "index"),)), "bb5")

    element = b.emit(L["Subview"](b.fresh(), buf, (b.index(1), b.index(2)), "memref<2x3xf32>",
                                  F32_PLACE)).result
    b.store(b.load(element, (), F32_PLACE), element, (), F32_PLACE)  # the 5 it holds
    moved = b.emit(L["Transfer"](b.fresh(), buf, "memref<2x3xf32>", "CPU_DRAM", "GPU_HBM",
                                 "CPU_DRAM -> GPU_HBM", "slot0")).result
    moved_flat = b.emit(L["Collapse"](b.fresh(), moved, "memref<2x3xf32>",
                                      "memref<6xf32>")).result
    b.call("main$kernel0", (moved_flat,), launch="GPU")
    b.print_tensor(moved, "memref<2x3xf32>", "f32", (2, 3))
    b.print_tensor(buf, "memref<2x3xf32>", "f32", (2, 3))
    b.print_scalar(b.convert("arith.truncf", fifth, "f32", "bf16"), "bf16", "bf16")
    big = b.const(3.0e9, "f32")
    b.print_scalar(b.convert("llvm.intr.fptosi.sat", big, "f32", "i32"), "i32", "i32")
    b.print_str("done")
    lanes = b.emit(L["FromElements"](b.fresh(), (two, seven), "vector<2xi32>")).result
    twos = b.emit(L["Broadcast"](b.fresh(), two, "i32", "vector<2xi32>")).result
    vector_cell = b.alloc("memref<vector<2xi32>>", "Alloca")
    b.store(b.arith("addi", lanes, twos, "vector<2xi32>"), vector_cell, (),
            "memref<vector<2xi32>>")
    summed, one = b.load(vector_cell, (), "memref<vector<2xi32>>"), b.index(1)
    lane = b.emit(L["Extract"](b.fresh(), summed, one, "vector<2xi32>", "i32")).result
    b.print_scalar(lane, "i32", "i32")  # 7 + 2
    row, first = b.alloc("memref<?xi32>", sizes=(b.index(3),)), b.index(0)
    extent = b.emit(L["Dim"](b.fresh(), row, first, "memref<?xi32>")).result
    last = b.arith("subi", extent, one, "index")
    b.store(seven, row, (last,), "memref<?xi32>")
    b.emit(L["Dealloc"](row, "memref<?xi32>"))
    kept = b.emit(L["Transfer"](b.fresh(), two, "i32", None, "CPU_DRAM", None, None)).result
    b.end(L["Ret"]((kept,)), "bb3")

    b.stop("E9001", "attempt to divide {a} by {b} (i32)", "i32",
           b.convert("arith.extsi", seven, "i32", "i64"), b.const(0, "i64"))
    return program(twice.func("twice", (("x", "i32"),), ("i32",)),
                   kernel.func("main$kernel0", (("buf", "memref<6xf32>"),), topology="GPU"),
                   b.func("main", results=("i32",)), sites=sites)
