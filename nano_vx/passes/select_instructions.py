"""select-instructions: Lblocks -> Lmlir."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.l0_source import assertion_message
from ..languages.l14_blocks import Lblocks
from ..languages.l15_mlir import Lmlir
from ..nanopass import Pass
from ..nanopass.verify import child_nodes
from ..values.literals import TYPE_WRAPPERS
from ..values.math import MATH
from ..values.numbers import FLOAT_TYPES, INT_TYPES
from ..values.stops import MAX_CALL_DEPTH, too_deep
from ..values.tensors import PRINT_LIMIT

M = Lmlir

select_instructions = Pass("select-instructions", Lblocks, Lmlir, """
Choose the MLIR operation for every statement, expression and jump: the program in SSA form.

A Vx scalar becomes its machine type (bool i1, u32 i32, ...; the operation says signed or
unsigned: divsi or divui, cmpi slt or ult, extsi or extui), a tensor a memref of its shape. A
variable that is assigned after its `let`, or borrowed, lives in a memref.alloca cell (made in
the entry block, so LLVM's mem2reg makes it a register again); every other one is the SSA value
of its `let`. A reference to a variable is its cell, a memref of rank 0: `*p` loads from it and
`*p = v` stores to it. What the interpreter checks as it runs is made explicit, each check a branch to a block
that calls the runtime's vx_stop with a stop site and never returns: a zero divisor and the
minimum divided by -1 (E9001), an index outside its extent (E9003, after every index of the
access is computed), a false `assert` (E9002). `&&` and `||` branch when their right side
could stop or has effects, else they are arith.andi/ori. A tensor is memref.alloc,
whose buffer the runtime gives zeroed and backs with memory only where it is written (so
`new()` and `uninit()` cost nothing until used, as in the interpreter); `fill(v)` first asks
vx_check_alloc whether the machine can hold it, then stores v in a loop; `transfer` is
vx.transfer, with the route and slot as attributes; a launch is a
func.call with the topology as an attribute; `assume` is llvm.intr.assume; `print` calls
vx_print with a print site saying how to read the value. A `const` is computed where it is
used.
""", run=lambda tree, ctx: _Program(tree, ctx).lower())

# -- types -------------------------------------------------------------------------------

_MACHINE = {"bool": "i1", "i8": "i8", "u8": "i8", "i16": "i16", "i32": "i32", "u32": "i32",
            "i64": "i64", "u64": "i64", "f16": "f16", "bf16": "bf16", "f32": "f32",
            "f64": "f64"}
# In memory a bool is a byte, 0 or 1 (the runtime's layout; MLIR's memref lowering does not
# store i1): memrefs of bools hold i8, and loads and stores convert.
_STORED = {**_MACHINE, "bool": "i8"}
_BITS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "index": 64,
         "f16": 16, "bf16": 16, "f32": 32, "f64": 64}
_FLOATS = frozenset(FLOAT_TYPES) | {"f64"}


@dataclass(frozen=True)
class Tensor:
    elem: str  # a Vx scalar
    dims: tuple

    @property
    def mtype(self) -> str:
        return "memref<" + "".join(f"{d}x" for d in self.dims) + _STORED[self.elem] + ">"

    @property
    def size(self) -> int:
        n = 1
        for d in self.dims:
            n *= d
        return n

    def bytes(self) -> int:
        return self.size * max(1, _BITS[_MACHINE[self.elem]] // 8)


@dataclass(frozen=True)
class Ref:
    """A reference to a scalar variable: the address of its cell (a memref of rank 0)."""

    target: str  # a Vx scalar

    @property
    def mtype(self) -> str:
        return f"memref<{_STORED[self.target]}>"


def vx_type(ty):
    """A Type node as a Vx scalar's name, a Tensor, a Ref, or "void"."""
    while ty._prod in TYPE_WRAPPERS:
        ty = ty.inner
    if ty._prod == "TensorType":
        return Tensor(vx_type(ty.elem), tuple(d.value for d in ty.dims))
    if ty._prod == "BorrowType":  # type-scalars left only references to scalars
        return Ref(vx_type(ty.inner))
    return ty.name


def mtype(t) -> str:
    return t.mtype if isinstance(t, (Tensor, Ref)) else _MACHINE[t]


def cell_type(t) -> str:
    """The memref.alloca of a variable of type t."""
    return f"memref<{t.mtype if isinstance(t, (Tensor, Ref)) else _STORED[t]}>"


def _signed(t: str) -> bool:
    return t not in INT_TYPES or INT_TYPES[t].signed


def _wrap(value: int, t: str) -> int:
    """A constant as the signed value of its bits, which is how MLIR reads one."""
    bits = _BITS[_MACHINE[t]] if t in _MACHINE else _BITS[t]
    value &= (1 << bits) - 1
    return value - (1 << bits) if bits > 1 and value >> (bits - 1) else value


_ARITH = {("+", "int"): "addi", ("-", "int"): "subi", ("*", "int"): "muli",
          ("+", "float"): "addf", ("-", "float"): "subf", ("*", "float"): "mulf",
          ("/", "float"): "divf", ("%", "float"): "remf"}
_BITWISE_OPS = {"&": "andi", "|": "ori", "^": "xori"}
_PREDICATE = {"==": ("eq", "eq", "oeq"), "!=": ("ne", "ne", "une"), "<": ("slt", "ult", "olt"),
              "<=": ("sle", "ule", "ole"), ">": ("sgt", "ugt", "ogt"),
              ">=": ("sge", "uge", "oge")}


def _kind(t: str) -> str:
    return "float" if t in _FLOATS else "int"


# -- the program -------------------------------------------------------------------------


class _Program:
    def __init__(self, tree, ctx):
        self.tree, self.ctx = tree, ctx
        self.fns = {i.name: i for i in tree.items if i._prod == "Fn"}
        self.consts = {i.name: i for i in tree.items if i._prod == "ConstItem"}
        self.sites: list = []
        self.runtime: dict = {}  # runtime function -> its Declare

    def lower(self):
        funcs = [_Function(self, fn).lower() for fn in self.fns.values()]
        # `main` runs at depth 1, as in the interpreter; each call goes one deeper.
        depth = M["Global"](DEPTH, "memref<i64>", 1, span=self.tree.span)
        items = [depth] + list(self.runtime.values()) + funcs + self.sites
        return M["Module"](tuple(items), span=self.tree.span)

    def declare(self, name: str, args: tuple):
        if name not in self.runtime:
            self.runtime[name] = M["Declare"](name, args, (), span=self.tree.span)
        return name

    def site(self, prod: str, span, *fields):
        site_id = len(self.sites)
        self.sites.append(M[prod](site_id, *fields, span=span))
        return site_id


DEPTH = "vx_depth"  # the memref.global counting nested calls
_RUNTIME = {"vx_print": ("i32", "i64"), "vx_stop": ("i32", "i64", "i64"),
            "vx_check_alloc": ("i32", "i64")}


@dataclass
class _Block:
    label: str
    args: tuple = ()
    ops: list = field(default_factory=list)
    term: object = None


class _Function:
    """One function's lowering: the blocks made so far, the open one, and where each local
    is (an SSA value, or a cell for one assigned after its `let`)."""

    def __init__(self, program: _Program, fn):
        self.p, self.fn = program, fn
        self.blocks: list[_Block] = []
        self.labels: dict = {}  # Lblocks label -> ours
        self.values: dict = {}  # local -> (ssa, Vx type)
        self.cells: dict = {}  # local -> (cell ssa, Vx type)
        self.constants: dict = {}  # ssa -> the integer constant it holds
        self.counter = 0
        self.entry_ops: list = []
        self.assigned = _assigned(fn)
        self.block = None
        self.entered: list = []  # blocks in the order code was first put in them

    # -- plumbing --------------------------------------------------------------------

    def fresh(self) -> str:
        self.counter += 1
        return str(self.counter - 1)

    def new_block(self, args: tuple = ()) -> _Block:
        block = _Block(f"bb{len(self.blocks)}", args)
        self.blocks.append(block)
        return block

    def enter(self, block: _Block):
        """Make `block` the one code goes into."""
        if block not in self.entered:
            self.entered.append(block)
        self.block = block

    def emit(self, prod: str, *fields, span=None):
        self.block.ops.append(M[prod](*fields, span=span or self.span))

    def end(self, prod: str, *fields):
        self.block.term = M[prod](*fields, span=self.span)

    def const(self, value, t: str) -> str:
        """An arith.constant of machine type t (a Vx type, or `index`)."""
        ssa = self.fresh()
        m = _MACHINE.get(t, t)
        if m in _BITS and not m.startswith(("f", "bf")):
            value = _wrap(int(value), m)
            self.constants[ssa] = value
        self.emit("Constant", ssa, value, m)
        return ssa

    def op(self, prod: str, *fields) -> str:
        ssa = self.fresh()
        self.emit(prod, ssa, *fields)
        return ssa

    def runtime_call(self, name: str, args: tuple):
        self.p.declare(name, _RUNTIME[name])
        self.emit("Call", (), name, args, None)

    def stop(self, code: str, message: str, operand=None, a=None, b=None):
        """Call vx_stop in the open block: it never returns."""
        site = self.p.site("StopSite", self.span, code, message, operand)
        zero = self.const(0, "i64")
        self.runtime_call("vx_stop", (self.const(site, "i32"), a or zero, b or zero))
        self.end("Unreachable")

    def check(self, ok: str, code: str, message: str, operand=None, a=None, b=None):
        """Go on when `ok` holds; else stop with the site's report."""
        fail, cont = self.new_block(), self.new_block()
        self.end("CondBr", ok, cont.label, (), fail.label, ())
        self.enter(fail)
        self.stop(code, message, operand, a, b)
        self.enter(cont)

    def load(self, ref: str, indices: tuple, memref: str, t) -> str:
        """A value of type t read from a memref (a bool from its byte)."""
        value = self.op("Load", ref, indices, memref)
        return self.op("Convert", "arith.trunci", value, "i8", "i1") if t == "bool" else value

    def store(self, value: str, ref: str, indices: tuple, memref: str, t):
        """A value of type t written to a memref (a bool as its byte)."""
        if t == "bool":
            value = self.op("Convert", "arith.extui", value, "i1", "i8")
        self.emit("Store", value, ref, indices, memref)

    def to_i64(self, ssa: str, t: str) -> str:
        m = _MACHINE[t]
        if m == "i64":
            return ssa
        return self.op("Convert", "arith.extsi" if _signed(t) and t != "bool" else "arith.extui",
                       ssa, m, "i64")

    # -- the function ----------------------------------------------------------------

    def lower(self):
        fn = self.fn
        self.span = fn.span
        ret = vx_type(fn.ret)
        args = []
        entry = self.new_block()
        self.enter(entry)
        for prm in fn.params:
            t = vx_type(prm.type)
            ssa = _ssa_name(prm.name)
            args.append(M["Arg"](ssa, mtype(t), span=prm.span))
            self.bind(prm.name, ssa, t, prm.span)
        # Every source block has its block before any jump is lowered. MLIR's entry block has
        # no predecessors: a first block some jump targets (explicate-control makes none, a
        # hand-written Lblocks may) is entered from an entry of its own.
        first = fn.blocks[0].label if fn.blocks else None
        jumped = any(getattr(b.exit, f, None) == first for b in fn.blocks
                     for f in ("target", "then", "orelse") if f in b.exit._fields)
        mine = {b.label: (entry if k == 0 and not jumped else self.new_block())
                for k, b in enumerate(fn.blocks)}
        self.labels = {label: block.label for label, block in mine.items()}
        if jumped:
            self.end("Br", mine[first].label, ())
        for b in fn.blocks:
            self.enter(mine[b.label])
            for s in b.stmts:
                self.span = s.span
                getattr(self, "s_" + s._prod)(s)
            self.span = b.exit.span
            getattr(self, "x_" + b.exit._prod)(b.exit, ret)
        entry.ops[:0] = self.entry_ops
        results = () if ret == "void" else (mtype(ret),)
        topology = fn.on.name if fn.on is not None else None
        return M["Func"](fn.name, tuple(args), results, topology, self.finish(), span=fn.span)

    def finish(self) -> tuple:
        """The blocks in the order code went into them, those that stop the program last
        (they are the cold paths, and the text reads on without them), relabelled."""
        order = [b for b in self.entered if b.term._prod != "Unreachable"] + \
            [b for b in self.entered if b.term._prod == "Unreachable"]
        new = {b.label: f"bb{k}" for k, b in enumerate(order)}
        return tuple(M["Block"](new[b.label], b.args, tuple(b.ops), _relabel(b.term, new),
                                span=self.fn.span) for b in order)

    def bind(self, local: str, ssa: str, t, span):
        """A local's value: kept as the SSA value, or stored in its cell if assigned later."""
        if local in self.assigned:
            if local not in self.cells:
                cell = _ssa_name(local) + ".cell"
                self.entry_ops.append(M["Alloca"](cell, cell_type(t), span=span))
                self.cells[local] = (cell, t)
            cell, _ = self.cells[local]
            self.store(ssa, cell, (), cell_type(t), t)
        else:
            self.values[local] = (ssa, t)

    # -- exits -----------------------------------------------------------------------

    def x_Goto(self, node, ret):
        self.end("Br", self.labels[node.target], ())

    def x_Branch(self, node, ret):
        cond, _ = self.expr(node.cond)
        self.end("CondBr", cond, self.labels[node.then], (), self.labels[node.orelse], ())

    def x_Return(self, node, ret):
        if node.value is None:
            if ret != "void":
                self.stop("E9006", f"expected a value of type {ret}, found ()")
                return
            self.end("Ret", ())
            return
        value, t = self.expr(node.value)
        self.end("Ret", () if ret == "void" or t == "void" else (value,))

    # -- statements ------------------------------------------------------------------

    def s_Let(self, node):
        value, t = self.expr(node.value)
        if t != "void":
            if node.name not in self.assigned:
                value = self.rename(value, _ssa_name(node.name))
            self.bind(node.name, value, t, node.span)

    def rename(self, old: str, new: str) -> str:
        """An immutable `let`'s value named after the variable, so that the text reads like
        the source: possible when the operation that made it was the last one."""
        last = self.block.ops[-1] if self.block.ops else None
        if not old.isdigit() or getattr(last, "result", None) != old:
            return old
        self.block.ops[-1] = last.replace(result=new)
        if old in self.constants:
            self.constants[new] = self.constants.pop(old)
        return new

    def s_Assign(self, node):
        target, op = node.target, node.op
        if target._prod == "Index":
            ref, indices, tensor = self.access(target)
            value, vt = self.expr(node.value)
            if op != "=":
                old = self.load(ref, indices, tensor.mtype, tensor.elem)
                value = self.operate(op[:-1], old, value, vt, tensor.elem)
            self.store(value, ref, indices, tensor.mtype, tensor.elem)
            return
        if target._prod == "Deref":  # through a reference: into the cell it points to
            ref, r = self.expr(target.value)
            value, vt = self.expr(node.value)
            if op != "=":
                value = self.operate(op[:-1], self.load(ref, (), r.mtype, r.target), value,
                                     vt, r.target)
            self.store(value, ref, (), r.mtype, r.target)
            return
        cell, t = self.cells[target.name]
        old = self.load(cell, (), cell_type(t), t) if op != "=" else None
        value, vt = self.expr(node.value)
        if old is not None:
            value = self.operate(op[:-1], old, value, vt, t)
        self.store(value, cell, (), cell_type(t), t)

    def s_Assert(self, node):
        cond, _ = self.expr(node.cond)
        self.check(cond, "E9002", assertion_message(node))

    def s_Assume(self, node):
        cond, _ = self.expr(node.cond)
        self.emit("Assume", cond)

    def s_ExprStmt(self, node):
        self.expr(node.expr)

    # -- expressions: each gives (ssa, Vx type), "void" for no value -------------------

    def expr(self, e):
        """Lower an expression; what it checks and what it emits points at it, as the
        interpreter's stops do."""
        outer, self.span = self.span, e.span or self.span
        try:
            return getattr(self, "e_" + e._prod)(e)
        finally:
            self.span = outer

    def e_Int(self, e):
        return self.const(e.value, e.type), e.type

    def e_Float(self, e):
        return self.const(FLOAT_TYPES[e.type].round(e.value) if e.type in FLOAT_TYPES
                          else e.value, e.type), e.type

    def e_Bool(self, e):
        return self.const(int(e.value), "bool"), "bool"

    def e_Str(self, e):
        raise AssertionError("a string outside print reached select-instructions")

    def e_Local(self, e):
        if e.name in self.cells:
            cell, t = self.cells[e.name]
            return self.load(cell, (), cell_type(t), t), t
        return self.values[e.name]

    def e_Global(self, e):
        return self.expr(self.p.consts[e.name].value)

    def e_Binary(self, e):
        op, t = e.op, e.type
        if op in ("&&", "||"):
            return self.logic(e), "bool"
        left, _ = self.expr(e.left)
        right, right_type = self.expr(e.right)
        if op in _PREDICATE:
            signed, unsigned, ordered = _PREDICATE[op]
            if _kind(t) == "float":
                return self.op("Compare", "cmpf", ordered, left, right, _MACHINE[t]), "bool"
            pred = signed if _signed(t) and t != "bool" else unsigned
            return self.op("Compare", "cmpi", pred, left, right, _MACHINE[t]), "bool"
        return self.operate(op, left, right, right_type, t), t

    def operate(self, op: str, left: str, right: str, right_type: str, t: str) -> str:
        """`left op right` of type t, for an operator or a compound assignment's."""
        if op in ("<<", ">>"):
            return self.shift(op, left, right, right_type, t)
        return self.arith(op, left, right, t)

    def shift(self, op: str, value: str, amount: str, amount_type: str, t: str) -> str:
        """`<<`, `>>` as Rust's wrapping shifts: the amount in the value's width, modulo it
        (LLVM's shift by the width or more would be poison); `>>` of a signed type
        arithmetic, of an unsigned one logical."""
        m, a = _MACHINE[t], _MACHINE[amount_type]
        if _BITS[a] > _BITS[m]:
            amount = self.op("Convert", "arith.trunci", amount, a, m)
        elif _BITS[a] < _BITS[m]:
            ext = "arith.extsi" if _signed(amount_type) else "arith.extui"
            amount = self.op("Convert", ext, amount, a, m)
        amount = self.op("Arith", "andi", amount, self.const(_BITS[m] - 1, t), m)
        name = "shli" if op == "<<" else "shrsi" if _signed(t) else "shrui"
        return self.op("Arith", name, value, amount, m)

    def arith(self, op: str, left: str, right: str, t: str) -> str:
        m = _MACHINE[t]
        if op in _BITWISE_OPS:
            return self.op("Arith", _BITWISE_OPS[op], left, right, m)
        if (op, _kind(t)) in _ARITH:
            return self.op("Arith", _ARITH[op, _kind(t)], left, right, m)
        # Integer / and %: the checks the interpreter makes, then the operation.
        verb = "divide" if op == "/" else "take the remainder of"
        divisor = self.constants.get(right)
        if divisor is None or divisor == 0:
            zero = self.const(0, t)
            nonzero = self.op("Compare", "cmpi", "ne", right, zero, m)
            self.check(nonzero, "E9001", f"attempt to {verb} {{a}} by zero ({t})", t,
                       self.to_i64(left, t))
        if _signed(t) and (divisor is None or divisor == -1):
            least = self.const(INT_TYPES[t].lo, t)
            is_least = self.op("Compare", "cmpi", "eq", left, least, m)
            minus_one = self.op("Compare", "cmpi", "eq", right, self.const(-1, t), m)
            overflow = self.op("Arith", "andi", is_least, minus_one, "i1")
            fine = self.op("Arith", "xori", overflow, self.const(1, "bool"), "i1")
            self.check(fine, "E9001", f"attempt to compute {{a}} {op} -1, which overflows {t}",
                       t, self.to_i64(left, t))
        name = ("divsi" if op == "/" else "remsi") if _signed(t) else \
            ("divui" if op == "/" else "remui")
        return self.op("Arith", name, left, right, m)

    def logic(self, e) -> str:
        """`a && b`, `a || b`: b only when a does not decide."""
        left, _ = self.expr(e.left)
        if _pure(e.right):
            right, _ = self.expr(e.right)
            return self.op("Arith", "andi" if e.op == "&&" else "ori", left, right, "i1")
        rhs, join = self.new_block(), self.new_block((M["Arg"](self.fresh(), "i1",
                                                               span=e.span),))
        decided = left
        if e.op == "&&":
            self.end("CondBr", left, rhs.label, (), join.label, (decided,))
        else:
            self.end("CondBr", left, join.label, (decided,), rhs.label, ())
        self.enter(rhs)
        right, _ = self.expr(e.right)
        self.end("Br", join.label, (right,))
        self.enter(join)
        return join.args[0].name

    def e_Select(self, e):
        """`if c { a } else { b }` inside an expression: a branch to the arm that runs, and a
        block after both whose argument is the arm's value."""
        cond, _ = self.expr(e.cond)
        then, orelse = self.new_block(), self.new_block()
        self.end("CondBr", cond, then.label, (), orelse.label, ())
        self.enter(then)
        a, t = self.expr(e.then)
        mtype = t.mtype if isinstance(t, Tensor) else _MACHINE[t]
        join = self.new_block((M["Arg"](self.fresh(), mtype, span=e.span),))
        self.end("Br", join.label, (a,))
        self.enter(orelse)
        b, _ = self.expr(e.orelse)
        self.end("Br", join.label, (b,))
        self.enter(join)
        return join.args[0].name, t

    def e_Borrow(self, e):
        """`&x`: the address of x's cell (a borrowed local lives in one); `&*p`: p."""
        if e.value._prod == "Deref":
            return self.expr(e.value.value)
        cell, t = self.cells[e.value.name]
        return cell, Ref(t)

    def e_Deref(self, e):
        ref, r = self.expr(e.value)
        return self.load(ref, (), r.mtype, r.target), r.target

    def e_Unary(self, e):
        value, _ = self.expr(e.operand)
        t, m = e.type, _MACHINE[e.type]
        if e.op == "-":
            if _kind(t) == "float":
                return self.op("Arith", "mulf", self.const(-1.0, t), value, m), t
            return self.op("Arith", "subi", self.const(0, t), value, m), t
        return self.op("Arith", "xori", value, self.const(-1 if t != "bool" else 1, t), m), t

    def e_Cast(self, e):
        value, _ = self.expr(e.value)
        source, target = e.source, vx_type(e.type)
        s, m = _MACHINE[source], _MACHINE[target]
        if _kind(source) == "int" and _kind(target) == "int":
            if _BITS[s] == _BITS[m]:
                return value, target
            if _BITS[s] > _BITS[m]:
                return self.op("Convert", "arith.trunci", value, s, m), target
            ext = "arith.extsi" if _signed(source) and source != "bool" else "arith.extui"
            return self.op("Convert", ext, value, s, m), target
        if _kind(source) == "int":
            conv = "arith.sitofp" if _signed(source) and source != "bool" else "arith.uitofp"
            return self.op("Convert", conv, value, s, m), target
        if _kind(target) == "int":
            conv = "llvm.intr.fptosi.sat" if _signed(target) else "llvm.intr.fptoui.sat"
            return self.op("Convert", conv, value, s, m), target
        if s == m:
            return value, target
        conv = "arith.extf" if _BITS[s] < _BITS[m] or (s, m) == ("bf16", "f16") else "arith.truncf"
        return self.op("Convert", conv, value, s, m), target

    def e_Call(self, e):
        callee = e.callee.name
        if callee == "print" and callee not in self.p.fns:
            self.print(e.args[0])
            return "", "void"
        if callee in MATH and callee not in self.p.fns:
            return self.math(callee, [self.expr(a) for a in e.args])
        args = tuple(self.expr(a)[0] for a in e.args)
        return self.call(callee, args, None)

    def math(self, name: str, args: list):
        """A math built-in: one `math` op, or arith's max and min (maxnumf, whose NaN loses
        to a number, as the interpreter's does). Its operands have one type (type-scalars)."""
        t = args[0][1]
        m, float_ = mtype(t), _kind(t) == "float"
        if name in ("max", "min"):
            op = f"{name}numf" if float_ else f"{name}{'si' if _signed(t) else 'ui'}"
            return self.op("Arith", op, args[0][0], args[1][0], m), t
        if name == "abs" and not float_ and not _signed(t):
            return args[0][0], t  # an unsigned number is its own absolute value
        op = {"abs": "absf" if float_ else "absi"}.get(name, name)
        return self.op("Math", op, args[0][0], m), t

    def call(self, callee: str, args: tuple, launch):
        """A call of a function of the program, one level deeper than the caller: past
        MAX_CALL_DEPTH nested calls the program stops, as the interpreter does, instead of
        running out of stack (or, once LLVM has made the recursion a loop, never ending)."""
        ret = vx_type(self.p.fns[callee].ret)
        results = () if ret == "void" else (M["Arg"](self.fresh(), mtype(ret), span=self.span),)
        cell = self.op("GetGlobal", DEPTH, "memref<i64>")
        depth = self.op("Load", cell, (), "memref<i64>")
        deeper = self.op("Arith", "addi", depth, self.const(1, "i64"), "i64")
        fits = self.op("Compare", "cmpi", "sle", deeper, self.const(MAX_CALL_DEPTH, "i64"), "i64")
        shown = "closure" if "$closure" in callee else callee  # as the interpreter names it
        self.check(fits, "E9006", too_deep(MAX_CALL_DEPTH, shown))
        self.emit("Store", deeper, cell, (), "memref<i64>")
        self.emit("Call", results, callee, args, launch)
        self.emit("Store", depth, cell, (), "memref<i64>")
        return (results[0].name if results else ""), ret

    def e_Launch(self, e):
        args = tuple(self.expr(a)[0] for a in e.args)
        return self.call(e.kernel, args, e.topo.name)

    def e_Index(self, e):
        ref, indices, tensor = self.access(e)
        return self.load(ref, indices, tensor.mtype, tensor.elem), tensor.elem

    def access(self, e, row=False):
        """An index `t[i][j]`: the memref, the indices (as `index`, each checked against its
        extent after all are computed, as the interpreter does) and the tensor type. Only a
        printed one may select a row (type-scalars refused the rest)."""
        chain = []
        while e._prod == "Index":
            chain.append(e.index)
            e = e.base
        ref, tensor = self.expr(e)
        if len(chain) != len(tensor.dims) and not row:
            raise AssertionError("an index that selects a row reached select-instructions")
        values = [self.expr(i) for i in reversed(chain)]
        out = []
        for k, ((value, t), extent) in enumerate(zip(values, tensor.dims)):
            wide = self.to_i64(value, t)
            inside = self.op("Compare", "cmpi", "ult", wide, self.const(extent, "i64"), "i64")
            self.check(inside, "E9003", f"index {{a}} is out of bounds for dimension {k} of "
                                        f"extent {extent}", t, wide)
            out.append(self.op("Convert", "arith.index_cast", wide, "i64", "index"))
        return ref, tuple(out), tensor

    def e_TensorNew(self, e):
        tensor, what = vx_type(e.type), f"`{_shown(e)}`"
        if e.ctor != "fill":  # the runtime's buffers start zeroed, pages given on first write
            return self.allocate(tensor, what), tensor
        value = self.expr(e.args[0])[0]
        self.check_room(tensor, f"cannot fill {what}")
        ref = self.allocate(tensor, what)
        self.fill(ref, tensor, value)
        return ref, tensor

    def e_TensorLit(self, e):
        tensor = vx_type(e.type)
        values = [self.expr(x)[0] for x in e.elems]  # in order: an element may stop
        ref = self.allocate(tensor, f"`{_shown(e)}`")
        for k, value in enumerate(values):
            at, index = k, []
            for d in reversed(tensor.dims):
                at, i = divmod(at, d)
                index.append(self.const(i, "index"))
            self.store(value, ref, tuple(reversed(index)), tensor.mtype, tensor.elem)
        return ref, tensor

    def check_room(self, tensor: Tensor, what: str):
        """Ask the runtime whether the machine can hold every element of the tensor (a fill
        or a copy writes them all)."""
        site = self.p.site("StopSite", self.span, "E9006",
                           f"{what}: {{a}} bytes is more than this machine's memory", "u64")
        self.runtime_call("vx_check_alloc", (self.const(site, "i32"),
                                             self.const(tensor.bytes(), "i64")))

    def allocate(self, tensor: Tensor, what: str) -> str:
        """A zeroed buffer for the tensor, or a stop when there is no room even for the
        address range."""
        ref = self.op("Alloc", tensor.mtype)
        address = self.op("Pointer", ref, tensor.mtype)
        wide = self.op("Convert", "arith.index_cast", address, "index", "i64")
        got = self.op("Compare", "cmpi", "ne", wide, self.const(0, "i64"), "i64")
        self.check(got, "E9006", f"cannot allocate {what}: {{a}} bytes", "u64",
                   self.const(tensor.bytes(), "i64"))
        return ref

    def fill(self, ref: str, tensor: Tensor, value: str):
        """Store `value` in every element: a loop over the buffer seen as one dimension."""
        if not tensor.dims:
            self.store(value, ref, (), tensor.mtype, tensor.elem)
            return
        flat = Tensor(tensor.elem, (tensor.size,))
        if len(tensor.dims) > 1:
            ref = self.op("Collapse", ref, tensor.mtype, flat.mtype)
        start, stop, one = self.const(0, "index"), self.const(tensor.size, "index"), \
            self.const(1, "index")
        i = M["Arg"](self.fresh(), "index", span=self.span)
        head = self.new_block((i,))
        body, after = self.new_block(), self.new_block()
        self.end("Br", head.label, (start,))
        self.enter(head)
        more = self.op("Compare", "cmpi", "ult", i.name, stop, "index")
        self.end("CondBr", more, body.label, (), after.label, ())
        self.enter(body)
        self.store(value, ref, (i.name,), flat.mtype, tensor.elem)
        self.end("Br", head.label, (self.op("Arith", "addi", i.name, one, "index"),))
        self.enter(after)

    def e_Transfer(self, e):
        value, t = self.expr(e.value)
        route = _route_text(e.src, e.route)
        slot = _slot_text(e.slot)
        source = e.src.name if e.src is not None else None
        if isinstance(t, Tensor):
            self.check_room(t, f"cannot copy `{_shown(e.value)}` into Memory::{e.dest.name}")
        return self.op("Transfer", value, mtype(t), source, e.dest.name, route, slot), t

    def is_row(self, e) -> bool:
        base = e
        while base._prod == "Index":
            base = base.base
        return _rank(e) < len(self.tensor_type(base).dims)

    def tensor_type(self, e) -> "Tensor":
        """The tensor type of the expression an index chain starts from."""
        if e._prod == "Local":
            return (self.cells.get(e.name) or self.values[e.name])[1]
        if e._prod == "Select":  # both arms have the type
            return self.tensor_type(e.then)
        return vx_type(self.p.fns[e.kernel if e._prod == "Launch" else e.callee.name].ret) \
            if e._prod in ("Call", "Launch") else vx_type(e.type)

    def print_row(self, e):
        """`print(t[i])` of a rank-2 t: the row's elements, read from its first one's address
        (the buffer is row-major and contiguous)."""
        ref, indices, tensor = self.access(e, row=True)
        rest = tensor.dims[len(indices):]
        row = Tensor(tensor.elem, rest)
        if row.size > PRINT_LIMIT:
            self.stop("E9006", f"refusing to print a tensor of {row.size} elements (more "
                               f"than {PRINT_LIMIT}); print some of its elements instead")
            self.enter(self.new_block())
            return
        offset, stride = self.const(0, "index"), row.size
        for k in reversed(range(len(indices))):
            scaled = self.op("Arith", "muli", indices[k], self.const(stride, "index"), "index")
            offset = self.op("Arith", "addi", offset, scaled, "index")
            stride *= tensor.dims[k]
        size = max(1, _BITS[_MACHINE[tensor.elem]] // 8)
        nbytes = self.op("Arith", "muli", offset, self.const(size, "index"), "index")
        start = self.op("Pointer", ref, tensor.mtype)
        address = self.op("Arith", "addi", start, nbytes, "index")
        site = self.p.site("PrintSite", e.span, "tensor", tensor.elem, None, rest)
        payload = self.op("Convert", "arith.index_cast", address, "index", "i64")
        self.runtime_call("vx_print", (self.const(site, "i32"), payload))

    def print(self, arg):
        if arg._prod == "Str":
            site = self.p.site("PrintSite", arg.span, "str", None, arg.value, ())
            self.runtime_call("vx_print", (self.const(site, "i32"), self.const(0, "i64")))
            return
        if arg._prod == "Index" and self.is_row(arg):
            self.print_row(arg)
            return
        value, t = self.expr(arg)
        if isinstance(t, Ref):  # a reference prints what it names
            value, t = self.load(value, (), t.mtype, t.target), t.target
        if t == "void":
            self.stop("E9006", "cannot print a value of type ()")
            self.enter(self.new_block())
            return
        if isinstance(t, Tensor):
            if t.size > PRINT_LIMIT:
                self.stop("E9006", f"refusing to print a tensor of {t.size} elements (more "
                                   f"than {PRINT_LIMIT}); print some of its elements instead")
                self.enter(self.new_block())
                return
            site = self.p.site("PrintSite", arg.span, "tensor", t.elem, None, t.dims)
            address = self.op("Pointer", value, t.mtype)
            payload = self.op("Convert", "arith.index_cast", address, "index", "i64")
        elif _kind(t) == "float":
            site = self.p.site("PrintSite", arg.span, "float", t, None, ())
            wide = value if t == "f64" else self.op("Convert", "arith.extf", value,
                                                    _MACHINE[t], "f64")
            payload = self.op("Convert", "arith.bitcast", wide, "f64", "i64")
        else:
            site = self.p.site("PrintSite", arg.span, "bool" if t == "bool" else "int", t,
                               None, ())
            payload = self.to_i64(value, t)
        self.runtime_call("vx_print", (self.const(site, "i32"), payload))


def _rank(e) -> int:
    """How many indices an index expression applies."""
    return 1 + _rank(e.base) if e._prod == "Index" else 0


def _pure(e) -> bool:
    """An expression that can neither stop nor have an effect: evaluating it early is safe."""
    if e._prod in ("Int", "Float", "Bool", "Local"):
        return True
    if e._prod == "Binary":
        return e.op not in ("/", "%") and _pure(e.left) and _pure(e.right)
    if e._prod in ("Unary", "Cast"):
        return _pure(e.operand if e._prod == "Unary" else e.value)
    return False


def _assigned(fn) -> set:
    """The locals an assignment names, or a reference points to: they live in cells."""
    out, stack = set(), [fn]
    while stack:
        node = stack.pop()
        if node._prod == "Assign" and node.target._prod == "Local":
            out.add(node.target.name)
        elif node._prod == "Borrow" and node.value._prod == "Local":
            out.add(node.value.name)
        stack.extend(child_nodes(node))
    return out


def _ssa_name(local: str) -> str:
    return local.replace("#", ".")


def _shown(node) -> str:
    s = node.span
    return s.source.text[s.start:s.end] if s is not None else node._prod


def _route_text(src, route) -> str | None:
    if route is None:
        return None
    text = src.name if src is not None else "?"
    for hop in route.hops:
        text += f" {'->' if hop.via == 'edge' else '=>'} {hop.dst} ({hop.cost})"
    return f"{text}, cost {route.cost}"


def _slot_text(slot) -> str | None:
    if slot is None:
        return None
    space = slot.space
    capacity = "unbounded" if space.capacity is None else f"{space.capacity} B"
    return f"{space.name}+{slot.offset} ({slot.slots} x {space.granule} B of {capacity})"


def _relabel(term, new: dict):
    changes = {f: new[getattr(term, f)] for f in ("dest", "then", "orelse")
               if f in term._fields}
    return term.replace(**changes) if changes else term
