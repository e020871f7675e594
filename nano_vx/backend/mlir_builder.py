"""Building one MLIR function of Lmlir: its blocks, the open one, fresh SSA names, constants,
loads and stores of bools as bytes, the locals that live in cells, values chosen by a branch,
calls one level deeper, and the runtime's calls that stop the program (a check is a branch to
a block that stops).

select-instructions drives it one statement at a time, and lowers each expression with its
own handlers (`lower`); nothing here decides what a Vx production becomes."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

from ..languages.lmlir import Lmlir
from . import runtime_abi
from ..values.stops import MAX_CALL_DEPTH, too_deep
from .machine_types import (BITS, MACHINE, NARROW, NARROW_BITS, NARROW_INTS, STORED, Tensor,
                            Vector, cell_type, mtype, signed, wrap)

M = Lmlir


class ModuleBuilder:
    """What the functions of one module share: the runtime functions they call and the print
    and stop sites, numbered in the order code makes them."""

    def __init__(self, span):
        self.span = span
        self.sites: list = []
        self.runtime: dict = {}  # runtime function -> its Declare
        self.pin_counts: dict = {}  # topology kind -> the Global counting its pins held
        self.const_globals: dict = {}  # a constant's state's or value's global -> its Global
        self.const_types: dict = {}  # a constant's name -> its Vx type

    def declare(self, name: str):
        if name not in self.runtime:
            self.runtime[name] = M["Declare"](name, runtime_abi.FUNCTIONS[name], (),
                                              span=self.span)

    def pins(self, topo: str) -> str:
        """The name of the global counting the pins held on the topology kind `topo`."""
        name = runtime_abi.PINS_PREFIX + topo
        if topo not in self.pin_counts:
            self.pin_counts[topo] = M["Global"](name, runtime_abi.PINS_TYPE, 0, span=self.span)
        return name

    def const_state(self, name: str) -> str:
        """The name of the global holding whether the constant `name` is computed yet."""
        state = runtime_abi.CONST_STATE_PREFIX + name
        if state not in self.const_globals:
            self.const_globals[state] = M["Global"](state, runtime_abi.CONST_STATE_TYPE, 0,
                                                    span=self.span)
        return state

    def const_value(self, name: str, t) -> str:
        """The name of the global holding the value of the constant `name`, of Vx scalar,
        vector or tensor type t (a tensor's buffer), once it is computed."""
        value = runtime_abi.CONST_PREFIX + name
        if value not in self.const_globals:
            # MLIR starts no vector or tensor cell at a value: the first read stores one
            # before a load
            zero = None if isinstance(t, (Vector, Tensor)) else \
                0.0 if STORED[t].startswith(("f", "bf")) else 0
            self.const_globals[value] = M["Global"](value, cell_type(t), zero, span=self.span)
        return value

    def site(self, prod: str, span, *fields) -> int:
        site_id = len(self.sites)
        self.sites.append(M[prod](site_id, *fields, span=span))
        return site_id

    def module(self, funcs: list):
        depth = M["Global"](runtime_abi.DEPTH, runtime_abi.DEPTH_TYPE, runtime_abi.DEPTH_START,
                            span=self.span)
        items = [depth, *self.pin_counts.values(),
                 *self.const_globals.values(), *self.runtime.values(), *funcs, *self.sites]
        return M["Module"](tuple(items), span=self.span)


@dataclass(eq=False)  # a block is itself: comparing fields would compare every op
class Block:
    label: str
    args: tuple = ()
    ops: list = field(default_factory=list)
    term: object = None


class FunctionBuilder:
    """One function's lowering: the blocks made so far, the open one, and where each local
    is (an SSA value, or a cell for one the program changes after its `let`). `span` is the
    node being lowered: what it emits and the sites it makes point at it. `walk` is the
    pass's: it lowers an expression to its (ssa, Vx type), "void" for no value."""

    def __init__(self, module: ModuleBuilder, cells, span, walk):
        self.module, self.span, self.walk = module, span, walk
        self.blocks: list[Block] = []
        self.in_cells = frozenset(cells)  # the locals choose-memory-cells put in cells
        self.values: dict = {}  # local -> (ssa, Vx type)
        self.cells: dict = {}  # local -> (cell ssa, Vx type)
        self.constants: dict = {}  # ssa -> the integer constant it holds
        self.counter = 0
        self.entry_ops: list = []
        self.block = None
        self.entered: dict = {}  # blocks in the order code was first put in them (a set)

    def lower(self, e):
        """Lower an expression; what it checks and what it emits points at it, as the
        interpreter's stops do."""
        with self.at(e):
            return self.walk(e)

    @contextmanager
    def at(self, e):
        """What is emitted inside points at `e` (for an expression lowered by other than
        its own handler, as a printed row is)."""
        outer, self.span = self.span, e.span or self.span
        try:
            yield
        finally:
            self.span = outer

    def fresh(self) -> str:
        self.counter += 1
        return str(self.counter - 1)

    def new_block(self, args: tuple = ()) -> Block:
        block = Block(f"bb{len(self.blocks)}", args)
        self.blocks.append(block)
        return block

    def open_blocks(self, entry: Block, labels: list, targets: set) -> dict:
        """A block for each of a function's source blocks, made before any jump is lowered:
        source label -> Block. The first is the entry unless a jump targets it: MLIR's entry
        block has no predecessors, so such a first block (explicate-control makes none, a
        hand-written Lcells may) is entered from an entry of its own."""
        jumped = bool(labels) and labels[0] in targets
        mine = {label: (entry if k == 0 and not jumped else self.new_block())
                for k, label in enumerate(labels)}
        if jumped:
            self.end("Br", mine[labels[0]].label, ())
        return mine

    def enter(self, block: Block):
        """Make `block` the one code goes into."""
        self.entered.setdefault(block)
        self.block = block

    def emit(self, prod: str, *fields, span=None):
        self.block.ops.append(M[prod](*fields, span=span or self.span))

    def end(self, prod: str, *fields):
        self.block.term = M[prod](*fields, span=self.span)

    def arg(self, mtype: str, span=None):
        """A fresh typed value: a block's argument, a call's result."""
        return M["Arg"](self.fresh(), mtype, span=span or self.span)

    def const(self, value, t: str) -> str:
        """An arith.constant of machine type t (a Vx type, or `index`)."""
        ssa = self.fresh()
        m = MACHINE.get(t, t)
        if m in BITS and not m.startswith(("f", "bf")):
            value = wrap(int(value), m)
            self.constants[ssa] = value
        self.emit("Constant", ssa, value, m)
        return ssa

    def op(self, prod: str, *fields) -> str:
        ssa = self.fresh()
        self.emit(prod, ssa, *fields)
        return ssa

    def load(self, ref: str, indices: tuple, memref: str, t) -> str:
        """A value of type t read from a memref (a bool from its byte, a narrow float from
        its byte as an f32)."""
        value = self.op("Load", ref, indices, memref)
        if t in NARROW:
            bits = NARROW_BITS.get(t, "i8")
            if bits != "i8":
                value = self.op("Convert", "arith.trunci", value, "i8", bits)
            value = self.op("Convert", "arith.bitcast", value, bits, NARROW[t])
            return self.op("Convert", "arith.extf", value, NARROW[t], "f32")
        return self.op("Convert", "arith.trunci", value, "i8", "i1") if t == "bool" else value

    def store(self, value: str, ref: str, indices: tuple, memref: str, t):
        """A value of type t written to a memref (a bool as its byte, an f32 rounded to a
        narrow float's byte, an i8 or u8 wrapped to a 4-bit integer's)."""
        if t in NARROW_INTS:
            value = self.op("Convert", "arith.trunci", value, "i8", "i4")
            value = self.op("Convert", NARROW_INTS[t], value, "i4", "i8")
        if t == "bool":
            value = self.op("Convert", "arith.extui", value, "i1", "i8")
        if t in NARROW:
            bits = NARROW_BITS.get(t, "i8")
            value = self.op("Convert", "arith.truncf", value, "f32", NARROW[t])
            value = self.op("Convert", "arith.bitcast", value, NARROW[t], bits)
            if bits != "i8":
                value = self.op("Convert", "arith.extui", value, bits, "i8")
        self.emit("Store", value, ref, indices, memref)

    def to_i64(self, ssa: str, t: str) -> str:
        m = MACHINE[t]
        if m == "i64":
            return ssa
        return self.op("Convert", "arith.extsi" if signed(t) and t != "bool" else "arith.extui",
                       ssa, m, "i64")

    def short_circuit(self, op: str, left: str, right, span) -> str:
        """`left && right()`, `left || right()` for a right side lowered only when the left
        does not decide: a branch to it, and a block after whose argument is the value."""
        rhs, join = self.new_block(), self.new_block((self.arg("i1", span),))
        if op == "&&":
            self.end("CondBr", left, rhs.label, (), join.label, (left,))
        else:
            self.end("CondBr", left, join.label, (left,), rhs.label, ())
        self.enter(rhs)
        value = right()
        self.end("Br", join.label, (value,))
        self.enter(join)
        return join.args[0].name

    def choose(self, cond: str, then, orelse, span):
        """The value of the arm `cond` picks, each arm lowered by a callable giving (ssa, Vx
        type): a branch to it, and a block after both whose argument is the arm's value."""
        then_block, else_block = self.new_block(), self.new_block()
        self.end("CondBr", cond, then_block.label, (), else_block.label, ())
        self.enter(then_block)
        a, t = then()
        join = self.new_block((self.arg(mtype(t), span),))
        self.end("Br", join.label, (a,))
        self.enter(else_block)
        other, _ = orelse()
        self.end("Br", join.label, (other,))
        self.enter(join)
        return join.args[0].name, t

    # -- the runtime -----------------------------------------------------------------

    def runtime_call(self, name: str, args: tuple):
        self.module.declare(name)
        self.emit("Call", (), name, args, None)

    def stop(self, code: str, message: str, operand=None, a=None, b=None):
        """Call vx_stop in the open block: it never returns."""
        site = self.module.site("StopSite", self.span, code, message, operand)
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

    def call(self, callee: str, args: tuple, launch, ret, leaf: bool) -> str:
        """A call of a function of the program, one level deeper than the caller: past
        MAX_CALL_DEPTH nested calls the program stops, as the interpreter does, instead of
        running out of stack (or, once LLVM has made the recursion a loop, never ending).
        A `leaf` callee calls nothing, so nothing reads the depth while it runs: it is
        checked, not written. The result's SSA name, "" for none."""
        depth_type = runtime_abi.DEPTH_TYPE
        results = () if ret == "void" else (self.arg(mtype(ret)),)
        cell = self.op("GetGlobal", runtime_abi.DEPTH, depth_type)
        depth = self.op("Load", cell, (), depth_type)
        deeper = self.op("Arith", "addi", depth, self.const(1, "i64"), "i64")
        fits = self.op("Compare", "cmpi", "sle", deeper, self.const(MAX_CALL_DEPTH, "i64"),
                       "i64")
        shown = "closure" if "$closure" in callee else callee  # as the interpreter names it
        self.check(fits, "E9006", too_deep(MAX_CALL_DEPTH, shown))
        if leaf:
            self.emit("Call", results, callee, args, launch)
        else:
            self.emit("Store", deeper, cell, (), depth_type)
            self.emit("Call", results, callee, args, launch)
            self.emit("Store", depth, cell, (), depth_type)
        return results[0].name if results else ""

    # -- locals ----------------------------------------------------------------------

    def bind(self, local: str, ssa: str, t, span):
        """A local's value: kept as the SSA value, or stored in its cell; one of type ()
        is none, and needs no cell even when assigned."""
        if local in self.in_cells and t != "void":
            if local not in self.cells:
                cell = ssa_name(local) + ".cell"
                self.entry_ops.append(M["Alloca"](cell, cell_type(t), span=span))
                self.cells[local] = (cell, t)
            cell, _ = self.cells[local]
            self.store(ssa, cell, (), cell_type(t), t)
        else:
            self.values[local] = (ssa, t)

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

    def finish(self, entry: Block, span) -> tuple:
        """The blocks in the order code went into them, those that stop the program last
        (they are the cold paths, and the text reads on without them) but the entry block,
        which may stop too, relabelled; the cells' allocas first in the entry block."""
        entry.ops[:0] = self.entry_ops
        cold = [b for b in self.entered if b.term._prod == "Unreachable" and b is not entry]
        order = [b for b in self.entered if b.term._prod != "Unreachable" or b is entry] + cold
        new = {b.label: f"bb{k}" for k, b in enumerate(order)}
        return tuple(M["Block"](new[b.label], b.args, tuple(b.ops), _relabel(b.term, new),
                                span=span) for b in order)


def ssa_name(local: str) -> str:
    return local.replace("#", ".")


def _relabel(term, new: dict):
    changes = {f: new[getattr(term, f)] for f in ("dest", "then", "orelse")
               if f in term._fields}
    return term.replace(**changes) if changes else term
