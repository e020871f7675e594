"""Running an Lmlir program: MLIR operations in SSA form, with the meaning docs/backend.md
gives them, so that the last IL of the chain runs and prints as the source does.

Each function is compiled on its first call: every SSA value gets a slot of the frame (a
Python list), each block becomes a tuple of op closures and a terminator closure that gives
the next block (its arguments written) or the returned values.

Values: an integer is a Python int, two's complement of its width read as signed (an i1 is
0 or 1); the op says when its operands are read as unsigned. A float is a Python float
already rounded to its type. A vector is a tuple of its lanes, and an operation on vectors
computes each lane as on a scalar of the lanes' type. A memref is a Memref over a flat list
of cells: memref.alloc's start at zero, as the runtime's buffers do; memref.alloca's at
None, never written (reading one is a compiler bug). A cell of a `memref<memref<..>>` holds
a Memref. The runtime functions print and stop through backend/sites.py, which the native
runtime shares.
"""

from __future__ import annotations

import operator
import re
import struct
import weakref
from bisect import bisect_right

from ..values.sites import allocation_limit, printed, site_table, stopped
from ..languages.lmlir import PREDICATES, Lmlir
from ..values.numbers import (
    FLOAT_TYPES, IntType, _float_op, float_to_int, int_to_float, truncating,
)
from ..values.math import float_fn
from ..values.narrow import MLIR_FLOATS, narrow_float_bits, narrow_float_value
from ..values.stops import stop, too_deep, wrong_kind

RUNTIME = ("vx_print", "vx_stop", "vx_check_alloc")
DENSE_LIMIT = 1 << 22  # cells of a buffer held in a list; a larger one holds those written

_MEMREF = re.compile(r"memref<((?:(?:[0-9]+|\?)x)*)(.+)>\Z")  # the element may be a memref
_VECTOR = re.compile(r"vector<([0-9]+)x([a-z0-9]+)>\Z")
_PLACE_LAYOUT = ", strided<[], offset: ?>"  # a reference's place: its offset is the view's
_STORAGE = {1: "B", 8: "b", 16: "h", 32: "i", 64: "q"}  # an integer cell's bytes
_FLOAT_STORAGE = {"f16": "e", "f32": "f", "f64": "d"}


def is_lmlir(program) -> bool:
    """Whether a tree is an Lmlir program: a Module, where a Vx program is a Program."""
    return type(program) is Lmlir["Module"]


def run_ssa(program, out, entry: str, max_depth: int) -> int:
    machine = _Machine(program, out, max_depth)
    fn = machine.functions.get(entry)
    if fn is None:
        stop("E9006", None, f"the program has no function '{entry}' to run")
    try:
        results = fn.call([], fn.node.span)
    except RecursionError:  # the Python stack ran out before the depth bound did
        stop("E9006", fn.node.span, f"call depth exceeded what the interpreter can hold "
                                    f"({machine.depth} nested calls)")
    return results[0] if results else 0


def internal(span, message: str):
    """An Lmlir program no correct select-instructions makes: a diagnostic, no traceback."""
    wrong_kind(span, f"internal error: {message}")


# -- types -----------------------------------------------------------------------------------


class Int:
    """An integer type of MLIR (i1 .. i64, index): how its values wrap and read."""

    __slots__ = ("bits", "mask", "lo", "hi")

    def __init__(self, bits: int):
        self.bits, self.mask = bits, (1 << bits) - 1
        self.lo, self.hi = (0, 1) if bits == 1 else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)

    def wrap(self, v: int) -> int:
        v &= self.mask
        return v - (1 << self.bits) if v > self.hi else v

    def signed(self, v: int) -> int:
        return -v if self.bits == 1 else v

    def saturating(self, signed: bool) -> IntType:
        return IntType(("i" if signed else "u") + str(self.bits), self.bits, signed)


class Float:
    __slots__ = ("name", "round", "bits")

    def __init__(self, name: str):
        self.name = name
        self.round = FLOAT_TYPES[name].round if name in FLOAT_TYPES else None
        self.bits = 64 if name == "f64" else 32 if name == "f32" else 16
        narrow = MLIR_FLOATS.get(name)
        if narrow is not None:  # an element of a narrow tensor, on its way from or to f32
            self.bits = narrow.bits
            self.round = lambda v: narrow_float_value(narrow_float_bits(v, narrow), narrow)


class VectorType:
    """`vector<NxT>`: `lanes` values of the scalar type `elem` (its text `elem_text`)."""

    __slots__ = ("lanes", "elem", "elem_text")

    def __init__(self, lanes: int, elem_text: str):
        self.lanes, self.elem_text, self.elem = lanes, elem_text, mtype(elem_text)


class MemrefType:
    """A memref's type; one with a `?` extent (None in `shape`) has no strides or size: a
    buffer of it has a type of its own, of the extents memref.alloc was given."""

    __slots__ = ("shape", "strides", "elem", "size", "zero", "dynamic")

    def __init__(self, shape: tuple, elem):
        self.shape, self.elem = shape, elem
        # What memref.alloc's cells hold before a store: zero (a cell holding a memref has
        # no zero: select-instructions stores one before any load).
        self.zero = 0 if type(elem) is Int else 0.0 if type(elem) is Float else None
        self.dynamic = None in shape
        strides, n = [], 1
        for d in reversed(shape):
            strides.append(n)
            n *= d or 0
        self.strides, self.size = tuple(reversed(strides)), n

    def sized(self, extents) -> "MemrefType":
        """This type with its `?` extents, in order, the numbers `extents`."""
        given = iter(extents)
        return MemrefType(tuple(next(given) if d is None else d for d in self.shape),
                          self.elem)


_TYPES: dict = {}


def mtype(text: str):
    """The type an mtype's text names: Int, Float, VectorType or MemrefType."""
    t = _TYPES.get(text)
    if t is None:
        m = _MEMREF.match(text.replace(_PLACE_LAYOUT, ""))
        if m is not None:
            shape = tuple(None if d == "?" else int(d) for d in m.group(1).split("x") if d)
            t = MemrefType(shape, mtype(m.group(2)))
        elif _VECTOR.match(text):
            lanes, elem = _VECTOR.match(text).groups()
            t = VectorType(int(lanes), elem)
        elif text == "index":
            t = Int(64)
        elif text.startswith("i"):
            t = Int(int(text[1:]))
        else:
            t = Float(text)
        _TYPES[text] = t
    return t


# -- memory ----------------------------------------------------------------------------------


class _Sparse(dict):
    """The cells of a large buffer: those written; any other reads as `zero`, as the
    runtime backs a buffer with memory only where it is written."""

    def __init__(self, zero, written=()):
        super().__init__(written)
        self.zero = zero

    def __missing__(self, key):
        return self.zero


class Memref:
    """A buffer, or a view of one (`root` is the buffer: its address is the views')."""

    __slots__ = ("cells", "type", "root", "address", "__weakref__")

    def __init__(self, cells, type_: MemrefType, root=None):
        self.cells, self.type, self.root, self.address = cells, type_, root or self, None


def _new_cells(n: int, zero):
    return [zero] * n if n <= DENSE_LIMIT else _Sparse(zero)


def _copy_cells(cells):
    return list(cells) if type(cells) is list else _Sparse(cells.zero, cells)


def _element_bytes(elem, cells, first: int, count: int, span) -> bytes:
    """`count` cells of a buffer from cell `first`, as the native code stores them
    (docs/backend.md)."""
    values = [cells[i] for i in range(first, first + count)]
    if None in values:
        internal(span, "print of a buffer with a cell never written")
    if type(elem) is Int:
        return struct.pack(f"={count}{_STORAGE[elem.bits]}", *values)
    if elem.name == "bf16":  # the high half of the f32
        bits = struct.unpack(f"={count}I", struct.pack(f"={count}f", *values))
        return struct.pack(f"={count}H", *(b >> 16 for b in bits))
    return struct.pack(f"={count}{_FLOAT_STORAGE[elem.name]}", *values)


# -- the running program ---------------------------------------------------------------------


class _Machine:
    def __init__(self, program, out, max_depth: int):
        self.out, self.depth, self.max_depth = out, 0, max_depth
        self.sites = site_table(program)
        self.functions: dict[str, _Function] = {}
        self.declared: set[str] = set()
        self.globals: dict[str, Memref] = {}
        for item in program.items:
            if item._prod == "Func":
                self.functions[item.name] = _Function(self, item)
            elif item._prod == "Declare":
                self.declared.add(item.name)
            elif item._prod == "Global":
                t = _memref_type(item, item.type)
                self.globals[item.name] = Memref([item.value], t)
        self.buffers = weakref.WeakValueDictionary()  # address -> root Memref
        # The addresses given out, ascending: a print of a row (`print(c[1])`) passes an
        # address inside its buffer, found by bisection.
        self.starts: list[int] = []
        self.next_address = 1 << 16

    def address(self, m: Memref) -> int:
        root = m.root
        if root.address is None:
            root.address = self.next_address
            self.buffers[root.address] = root
            if len(self.starts) > 2 * len(self.buffers) + 64:  # most of them freed since
                self.starts = sorted(self.buffers.keys())
            self.starts.append(root.address)
            nbytes = root.type.size * _cell_size(root.type.elem)
            self.next_address += (nbytes + 63) // 64 * 64 + 64
        return root.address

    def read(self, span):
        def read(address: int, nbytes: int) -> bytes:
            i = bisect_right(self.starts, address) - 1
            m = self.buffers.get(self.starts[i]) if i >= 0 else None
            if m is None:
                internal(span, f"print of a tensor at {address:#x}, which is in no buffer")
            size = _cell_size(m.type.elem)
            first, misaligned = divmod(address - self.starts[i], size)
            count = nbytes // size
            if misaligned or first + count > m.type.size:
                internal(span, f"print of {count} elements from byte {address - self.starts[i]}"
                               f" of a buffer of {m.type.size}")
            return _element_bytes(m.type.elem, m.cells, first, count, span)
        return read

    def site(self, id_: int, kind: str, span):
        site = self.sites.get(id_)
        if site is None or site._prod != kind:
            internal(span, f"no {kind} {id_}")
        return site

    # The runtime functions (docs/backend.md): each takes the call's argument values.

    def vx_print(self, args, span):
        site = self.site(args[0], "PrintSite", span)
        self.out.write(printed(site, args[1], self.read(span)) + "\n")
        return ()

    def vx_stop(self, args, span):
        raise stopped(self.site(args[0], "StopSite", span), args[1], args[2], self.read(span))

    def vx_check_alloc(self, args, span):
        site = self.site(args[0], "StopSite", span)
        if args[1] & ((1 << 64) - 1) > allocation_limit():
            raise stopped(site, args[1], 0)
        return ()


def _cell_size(elem) -> int:
    """The bytes of a buffer's element (an i1 takes a byte; a memref, its pointer's; a
    vector, its lanes')."""
    if type(elem) is VectorType:
        return elem.lanes * _cell_size(elem.elem)
    return 8 if type(elem) is MemrefType else max(1, elem.bits // 8)


class _Function:
    __slots__ = ("machine", "node", "code")

    def __init__(self, machine, node):
        self.machine, self.node, self.code = machine, node, None

    def call(self, args, span):
        m = self.machine
        if self.code is None:
            self.code = _compile(m, self.node)
        nslots, params, entry = self.code
        if len(args) != len(params):
            internal(span, f"'{self.node.name}' takes {len(params)} argument(s), "
                           f"{len(args)} were given")
        m.depth += 1
        if m.depth > m.max_depth:
            stop("E9006", span, too_deep(m.max_depth, self.node.name))
        f = [None] * nslots
        for slots, v in zip(params, args):
            for s in slots:
                f[s] = v
        cell = entry
        while True:
            for op in cell[0]:
                op(f)
            cell = cell[1](f)
            if type(cell) is tuple:
                m.depth -= 1
                return cell


# -- compiling a function --------------------------------------------------------------------


def _defined(block):
    """The SSA names a block defines: its arguments, then its ops' results."""
    for a in block.args:
        yield a.name
    for op in block.ops:
        if op._prod == "Call":
            yield from (r.name for r in op.results)
        elif "result" in op._fields:
            yield op.result


def _compile(machine, fn):
    """(frame size, each parameter's slots, the entry block's cell) of a Func."""
    slots: dict[str, int] = {}
    for name in [a.name for a in fn.args] + [n for b in fn.blocks for n in _defined(b)]:
        if name in slots:
            internal(fn.span, f"%{name} is defined twice in '{fn.name}'")
        slots[name] = len(slots)

    def slot(name, span):
        if name not in slots:
            internal(span, f"%{name} is not defined in '{fn.name}'")
        return slots[name]

    if not fn.blocks:
        internal(fn.span, f"'{fn.name}' has no blocks")
    cells = {b.label: [None, None, b] for b in fn.blocks}
    for b in fn.blocks:
        cell = cells[b.label]
        cell[0] = tuple(_op(machine, op, slot) for op in b.ops)
        cell[1] = _term(b.term, slot, cells)
    entry = fn.blocks[0]
    params = [[slots[a.name]] for a in fn.args]
    if entry.args:  # the entry block's arguments are the function's, when it names them
        if len(entry.args) != len(params):
            internal(fn.span, f"the entry block of '{fn.name}' takes {len(entry.args)} "
                              f"arguments, the function {len(params)}")
        for ps, a in zip(params, entry.args):
            ps.append(slots[a.name])
    return len(slots), params, cells[entry.label]


def _term(node, slot, cells):
    kind, span = node._prod, node.span

    def target(label, args):
        if label not in cells:
            internal(span, f"a branch to ^{label}, which is no block of the function")
        cell = cells[label]
        params = [slot(a.name, span) for a in cell[2].args]
        if len(params) != len(args):
            internal(span, f"^{label} takes {len(params)} arguments, {len(args)} were given")
        return cell, _mover([slot(a, span) for a in args], params)

    if kind == "Br":
        cell, move = target(node.dest, node.args)

        def br(f):
            move(f)
            return cell
        return br
    if kind == "CondBr":
        cond = slot(node.cond, span)
        then, move_then = target(node.then, node.then_args)
        orelse, move_else = target(node.orelse, node.orelse_args)

        def cond_br(f):
            if f[cond]:
                move_then(f)
                return then
            move_else(f)
            return orelse
        return cond_br
    if kind == "Ret":
        values = [slot(v, span) for v in node.values]
        return lambda f: tuple(f[v] for v in values)

    def unreachable(f):
        internal(span, "llvm.unreachable was reached")
    return unreachable


def _mover(sources, dests):
    """A closure writing a branch's operands into the target block's arguments, all read
    before any is written (a loop may pass its arguments on rotated)."""
    if not sources:
        return lambda f: None
    if len(sources) == 1:
        s, d = sources[0], dests[0]

        def move1(f):
            f[d] = f[s]
        return move1
    pairs = list(zip(dests, sources))

    def move(f):
        values = [f[s] for _, s in pairs]
        for (d, _), v in zip(pairs, values):
            f[d] = v
    return move


def _op(machine, node, slot):
    make = _OPS.get(node._prod)
    if make is None:
        internal(node.span, f"the operation {node._prod} in a block")
    at = lambda name: slot(name, node.span)  # noqa: E731
    if node._prod in _LANEWISE and type(mtype(node.type)) is VectorType:
        return _lanewise(machine, node, at, make)
    return make(machine, node, at)


# The operations computed lane by lane on vectors, and their operand fields.
_LANEWISE = {"Arith": ("lhs", "rhs"), "Math": ("value",), "Compare": ("lhs", "rhs"),
             "Convert": ("value",)}


def _lanewise(machine, node, slot, make):
    """An op on vectors: the op on their lanes' types, run on each lane in turn in a frame
    of its own (slot 0 the result, then the operands)."""
    t, operands = mtype(node.type), _LANEWISE[node._prod]
    lanes_of = {k: mtype(getattr(node, k)) for k in ("type", "source") if k in node._fields}
    if any(type(v) is not VectorType or v.lanes != t.lanes for v in lanes_of.values()):
        internal(node.span, f"{node._prod} of vectors of other lane counts")
    lane = node.replace(result="r", **{k: v.elem_text for k, v in lanes_of.items()},
                        **{k: f"x{k}" for k in operands})
    mine = {"r": 0, **{f"x{k}": i + 1 for i, k in enumerate(operands)}}
    inner = make(machine, lane, mine.__getitem__)
    r, sources, n, span = slot(node.result), [slot(getattr(node, k)) for k in operands], \
        t.lanes, node.span

    def lanes(f):
        values = [f[s] for s in sources]
        if any(type(v) is not tuple or len(v) != n for v in values):
            internal(span, f"{node._prod} of {node.type} given what is no such vector")
        frame, out = [None] * (len(values) + 1), []
        for k in range(n):
            frame[1:] = [v[k] for v in values]
            inner(frame)
            out.append(frame[0])
        f[r] = tuple(out)
    return lanes


def _vector_type(node, text) -> VectorType:
    t = mtype(text)
    if type(t) is not VectorType:
        internal(node.span, f"{node._prod} of {text}, which is no vector")
    return t


def _from_elements(machine, node, slot):
    r, elements = slot(node.result), [slot(e) for e in node.elements]
    if len(elements) != _vector_type(node, node.type).lanes:
        internal(node.span, f"vector.from_elements of {len(elements)} values into {node.type}")

    def from_elements(f):
        f[r] = tuple(f[e] for e in elements)
    return from_elements


def _broadcast(machine, node, slot):
    r, v, n = slot(node.result), slot(node.value), _vector_type(node, node.type).lanes

    def broadcast(f):
        f[r] = (f[v],) * n
    return broadcast


def _extract(machine, node, slot):
    r, v, i, span = slot(node.result), slot(node.vector), slot(node.index), node.span
    n = _vector_type(node, node.source).lanes

    def extract(f):
        k = f[i]
        if not 0 <= k < n:
            internal(span, f"lane {k} of {node.source}: select-instructions checks the lane")
        f[r] = f[v][k]
    return extract


# -- operations ------------------------------------------------------------------------------


def _constant(machine, node, slot):
    r, t = slot(node.result), mtype(node.type)
    if type(t) is Int:
        v = t.wrap(int(node.value))
    elif type(t) is Float:
        v = float(node.value)
        v = t.round(v) if t.round is not None else v
    else:
        internal(node.span, f"a constant of type {node.type}")

    def constant(f):
        f[r] = v
    return constant


_INT_ARITH = {"addi": operator.add, "subi": operator.sub, "muli": operator.mul,
              "andi": operator.and_, "ori": operator.or_, "xori": operator.xor,
              "shli": operator.lshift, "shrsi": operator.rshift}
_FLOAT_ARITH = {"addf": "+", "subf": "-", "mulf": "*", "divf": "/", "remf": "%"}
_FLOAT_FAST = {"addf": operator.add, "subf": operator.sub, "mulf": operator.mul}


def _arith(machine, node, slot):
    r, a, b, t, op, span = (slot(node.result), slot(node.lhs), slot(node.rhs),
                            mtype(node.type), node.op, node.span)
    if op[:3] in ("max", "min"):
        return _extremum(node, r, a, b, t)
    if op in _FLOAT_ARITH:
        if type(t) is not Float:
            internal(span, f"arith.{op} on {node.type}")
        sym, rnd, fast = _FLOAT_ARITH[op], t.round, _FLOAT_FAST.get(op)
        if rnd is None and fast is not None:
            def f64(f):
                f[r] = fast(f[a], f[b])
            return f64
        if rnd is None:
            def f64_div(f):
                f[r] = _float_op(sym, f[a], f[b])
            return f64_div

        def rounded(f):
            f[r] = rnd(_float_op(sym, f[a], f[b]))
        return rounded
    if type(t) is not Int:
        internal(span, f"arith.{op} on {node.type}")
    lo, hi, wrap = t.lo, t.hi, t.wrap
    if op == "shrui":  # the value read unsigned; the amount is below the width already
        mask = t.mask

        def logical_shift(f):
            f[r] = wrap((f[a] & mask) >> f[b])
        return logical_shift
    if op in _INT_ARITH:
        fn = _INT_ARITH[op]

        def integer(f):
            v = fn(f[a], f[b])
            f[r] = v if lo <= v <= hi else wrap(v)
        return integer
    unsigned, which = op.endswith("ui"), "/" if op.startswith("div") else "%"
    read = (lambda v: v & t.mask) if unsigned else t.signed

    def divide(f):
        x, y = read(f[a]), read(f[b])
        if y == 0:
            internal(span, f"arith.{op} by zero: select-instructions checks the divisor")
        f[r] = wrap(truncating(which, x, y))
    return divide


def _extremum(node, r, a, b, t):
    """arith's maxsi/minsi and maxui/minui (the operands read signed or unsigned, the one
    picked kept as it was)."""
    name, how = node.op[:3], node.op[3:]
    read = t.signed if how == "si" else (lambda v: v & t.mask)
    better = operator.gt if name == "max" else operator.lt

    def integer(f):
        x, y = f[a], f[b]
        f[r] = x if better(read(x), read(y)) or read(x) == read(y) else y
    return integer


def _math(machine, node, slot):
    r, v, t = slot(node.result), slot(node.value), mtype(node.type)
    if node.op == "absi":
        def absolute(f):
            f[r] = t.wrap(abs(t.signed(f[v])))
        return absolute
    fn, rnd = float_fn("abs" if node.op == "absf" else node.op), t.round
    if rnd is None:
        def f64(f):
            f[r] = fn(f[v])
        return f64

    def rounded(f):
        f[r] = rnd(fn(f[v]))
    return rounded


_ORDER = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
          "gt": operator.gt, "ge": operator.ge}
_FLOAT_ORDER = {"oeq": operator.eq, "une": operator.ne, "olt": operator.lt,
                "ole": operator.le, "ogt": operator.gt, "oge": operator.ge}


def _compare(machine, node, slot):
    r, a, b, t, p, span = (slot(node.result), slot(node.lhs), slot(node.rhs),
                           mtype(node.type), node.predicate, node.span)
    if node.op == "cmpf":
        if type(t) is not Float or p not in _FLOAT_ORDER:
            internal(span, f"arith.cmpf {p} on {node.type}")
        fn = _FLOAT_ORDER[p]  # Python's comparisons are IEEE's: false with a NaN but `!=`

        def cmpf(f):
            f[r] = 1 if fn(f[a], f[b]) else 0
        return cmpf
    if type(t) is not Int or p not in PREDICATES["cmpi"]:
        internal(span, f"arith.cmpi {p} on {node.type}")
    if p in ("eq", "ne"):
        fn = _ORDER[p]

        def cmpi(f):
            f[r] = 1 if fn(f[a], f[b]) else 0
        return cmpi
    fn, mask = _ORDER[p[1:]], t.mask
    if p[0] == "u":
        def cmpi_unsigned(f):
            f[r] = 1 if fn(f[a] & mask, f[b] & mask) else 0
        return cmpi_unsigned
    if t.bits == 1:
        def cmpi_i1(f):
            f[r] = 1 if fn(-f[a], -f[b]) else 0
        return cmpi_i1

    def cmpi_signed(f):
        f[r] = 1 if fn(f[a], f[b]) else 0
    return cmpi_signed


def _bits_format(t) -> str:
    if type(t) is Int:
        return {16: "=h", 32: "=i", 64: "=q"}.get(t.bits, "")
    return {"f16": "=e", "f32": "=f", "f64": "=d"}.get(t.name, "")


def _bitcast(src, dst, span):
    """A function reinterpreting the bits of a value of type src as type dst."""
    if src.bits != dst.bits or type(src) is type(dst):
        internal(span, "arith.bitcast between types of different widths or kinds")
    if type(src) is Float and src.name == "bf16":
        return lambda v: dst.wrap(struct.unpack("=I", struct.pack("=f", v))[0] >> 16)
    if type(dst) is Float and dst.name == "bf16":
        return lambda v: struct.unpack("=f", struct.pack("=I", (v & 0xFFFF) << 16))[0]
    if type(src) is Float and src.name in MLIR_FLOATS:
        narrow = MLIR_FLOATS[src.name]
        return lambda v: dst.wrap(narrow_float_bits(v, narrow))
    if type(dst) is Float and dst.name in MLIR_FLOATS:
        narrow = MLIR_FLOATS[dst.name]
        return lambda v: narrow_float_value(v, narrow)
    pack, unpack = _bits_format(src), _bits_format(dst)
    if not pack or not unpack:
        internal(span, "arith.bitcast of an unsupported width")
    return lambda v: struct.unpack(unpack, struct.pack(pack, v))[0]


def _conversion(op: str, source: str, dest: str, span):
    """The function computing conversion `op` of a value of type `source` to `dest`."""
    src, dst = mtype(source), mtype(dest)
    ints = type(src) is Int, type(dst) is Int
    if type(src) is MemrefType or type(dst) is MemrefType:
        internal(span, f"{op} from {source} to {dest}")
    if op == "arith.bitcast":
        return _bitcast(src, dst, span)
    if ints == (True, True):
        if op in ("arith.extsi", "arith.trunci", "arith.index_cast"):
            return lambda v: dst.wrap(src.signed(v))
        if op in ("arith.extui", "arith.index_castui"):
            mask = src.mask
            return lambda v: dst.wrap(v & mask)
    elif ints == (True, False):
        ft = FLOAT_TYPES.get(dst.name)
        if op == "arith.sitofp":
            return lambda v: int_to_float(src.signed(v), ft)
        if op == "arith.uitofp":
            mask = src.mask
            return lambda v: int_to_float(v & mask, ft)
    elif ints == (False, True):
        if op in ("llvm.intr.fptosi.sat", "llvm.intr.fptoui.sat"):
            sat = dst.saturating(op == "llvm.intr.fptosi.sat")
            return lambda v: dst.wrap(float_to_int(v, sat))
    elif op == "arith.extf" or op == "arith.truncf":
        rnd = dst.round
        return (lambda v: v) if rnd is None else rnd
    internal(span, f"{op} from {source} to {dest}")


def _convert(machine, node, slot):
    r, a = slot(node.result), slot(node.value)
    fn = _conversion(node.op, node.source, node.type, node.span)

    def convert(f):
        f[r] = fn(f[a])
    return convert


def _memref_type(node, text):
    t = mtype(text)
    if type(t) is not MemrefType:
        internal(node.span, f"{node._prod} of {text}, which is no memref")
    return t


def _get_global(machine, node, slot):
    r, cell = slot(node.result), machine.globals.get(node.name)
    if cell is None:
        internal(node.span, f"memref.get_global of '{node.name}', which the module lacks")

    def get_global(f):
        f[r] = cell
    return get_global


def _alloc(machine, node, slot):
    r, t = slot(node.result), _memref_type(node, node.type)
    zero = t.zero if node._prod == "Alloc" else None
    if t.dynamic:
        sizes = [slot(x) for x in node.sizes]

        def alloc_sized(f):
            sized = t.sized(f[x] for x in sizes)
            f[r] = Memref(_new_cells(sized.size, zero), sized)
        return alloc_sized

    def alloc(f):
        f[r] = Memref(_new_cells(t.size, zero), t)
    return alloc


def _dim(machine, node, slot):
    r, ref, index = slot(node.result), slot(node.ref), slot(node.index)

    def dim(f):
        f[r] = f[ref].type.shape[f[index]]
    return dim


def _dealloc(machine, node, slot):
    """The buffer stays: a read after memref.dealloc is select-instructions' bug, which
    native code shows (the runtime unmaps the pages)."""
    return lambda f: None


def _offset(machine, node, slot, t, ref=None):
    """A closure computing the flat offset of a Load's or Store's indices into the memref
    in slot `ref`, of type t (its buffer's own type when t has a `?` extent)."""
    idx, shape, strides, span = [slot(i) for i in node.indices], t.shape, t.strides, node.span
    if len(idx) != len(shape):
        internal(span, f"{len(idx)} indices into {node.type}")
    if t.dynamic:
        def offset_sized(f):
            sized, off = f[ref].type, 0
            for k, (s, n, stride) in enumerate(zip(idx, sized.shape, sized.strides)):
                i = f[s]
                if not 0 <= i < n:
                    internal(span, f"index {i} of dimension {k} of a buffer of {n}: "
                                   f"select-instructions checks the bounds")
                off += i * stride
            return off
        return offset_sized

    def out_of_bounds(k, i):
        internal(span, f"index {i} of dimension {k} of {node.type}: select-instructions "
                       f"checks the bounds")
    if not idx:
        return lambda f: 0
    if len(idx) == 1:
        i0, n0 = idx[0], shape[0]

        def offset1(f):
            i = f[i0]
            if 0 <= i < n0:
                return i
            out_of_bounds(0, i)
        return offset1
    dims = list(zip(idx, shape, strides))

    def offset(f):
        off = 0
        for k, (s, n, stride) in enumerate(dims):
            i = f[s]
            if not 0 <= i < n:
                out_of_bounds(k, i)
            off += i * stride
        return off
    return offset


def _load(machine, node, slot):
    r, ref, t, span = slot(node.result), slot(node.ref), _memref_type(node, node.type), node.span
    offset = _offset(machine, node, slot, t, ref)

    def load(f):
        v = f[ref].cells[offset(f)]
        if v is None:
            internal(span, f"a load from %{node.ref} of a cell never written")
        f[r] = v
    return load


def _store(machine, node, slot):
    v, ref, t = slot(node.value), slot(node.ref), _memref_type(node, node.type)
    offset = _offset(machine, node, slot, t, ref)

    def store(f):
        f[ref].cells[offset(f)] = f[v]
    return store


def _collapse(machine, node, slot):
    r, ref = slot(node.result), slot(node.ref)
    src, t = _memref_type(node, node.source), _memref_type(node, node.type)
    if len(t.shape) != 1 or t.dynamic != src.dynamic or t.size != src.size:
        internal(node.span, f"memref.collapse_shape of {node.source} to {node.type}")

    def collapse(f):
        m = f[ref]
        f[r] = Memref(m.cells, t.sized((m.type.size,)) if t.dynamic else t, m.root)
    return collapse


class _Element:
    """The cells of a view of one element of a buffer: cell 0 is the buffer's `at`."""

    __slots__ = ("cells", "at")

    def __init__(self, cells, at: int):
        self.cells, self.at = cells, at

    def __getitem__(self, k):
        return self.cells[self.at + k]

    def __setitem__(self, k, v):
        self.cells[self.at + k] = v


def _cast(machine, node, slot):
    r, ref = slot(node.result), slot(node.ref)
    src, t = _memref_type(node, node.source), _memref_type(node, node.type)
    # A cell as a place, or a buffer's static extent as `?` (its own type keeps the number).
    if src.size != t.size and not (t.dynamic and len(t.shape) == len(src.shape)):
        internal(node.span, f"memref.cast of {node.source} to {node.type}")

    def cast(f):
        f[r] = f[ref]
    return cast


def _subview(machine, node, slot):
    """The place of one element: its offset computed (and checked) as a load's."""
    r, ref, src = slot(node.result), slot(node.ref), _memref_type(node, node.source)
    offset = _offset(machine, node, slot, src, ref)
    t = _memref_type(node, node.type)

    def subview(f):
        m = f[ref]
        f[r] = Memref(_Element(m.cells, offset(f)), t, m.root)
    return subview


def _pointer(machine, node, slot):
    r, ref, address = slot(node.result), slot(node.ref), machine.address

    def pointer(f):
        f[r] = address(f[ref])
    return pointer


def _transfer(machine, node, slot):
    r, v = slot(node.result), slot(node.value)
    t = mtype(node.type)
    if type(t) is not MemrefType:
        def move(f):
            f[r] = f[v]
        return move

    def copy(f):  # a buffer of the destination space, as the runtime's copy makes
        m = f[v]
        f[r] = Memref(_copy_cells(m.cells), m.type if t.dynamic else t)
    return copy


def _call(machine, node, slot):
    args, results, span = [slot(a) for a in node.args], [slot(x.name) for x in node.results], \
        node.span
    callee = node.callee
    if callee in machine.functions:
        target = machine.functions[callee].call
    elif callee in machine.declared and callee in RUNTIME:
        target = getattr(machine, callee)
    else:
        internal(span, f"a call of @{callee}, which is neither a function nor a runtime "
                       f"function declared")

    def call(f):
        values = target([f[a] for a in args], span)
        if len(values) != len(results):
            internal(span, f"@{callee} returned {len(values)} values for {len(results)}")
        for s, x in zip(results, values):
            f[s] = x
    return call


def _assume(machine, node, slot):
    cond, span = slot(node.cond), node.span
    shown = span.source.text[span.start:span.end] if span is not None else "the assumption"

    def assume(f):
        if not f[cond]:
            stop("E9002", span, f"assumption failed in a kernel: {shown}")
    return assume


_OPS = {"Constant": _constant, "Arith": _arith, "Math": _math, "Compare": _compare, "Convert": _convert,
        "Alloca": _alloc, "Alloc": _alloc, "Dim": _dim, "Dealloc": _dealloc, "GetGlobal": _get_global, "Load": _load, "Store": _store,
        "Collapse": _collapse, "Cast": _cast, "Subview": _subview, "Pointer": _pointer,
        "Transfer": _transfer, "Call": _call,
        "Assume": _assume, "FromElements": _from_elements, "Broadcast": _broadcast,
        "Extract": _extract}
