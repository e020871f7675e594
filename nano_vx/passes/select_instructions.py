"""select-instructions: Lcalls -> Lmlir."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..backend.call_ops import builtin, call
from ..backend.const_cells import read_once, read_part
from ..backend.machine_types import Tensor, mtype, vx_type
from ..backend.mlir_builder import FunctionBuilder, ModuleBuilder, ssa_name
from ..backend.pins import release_pin, take_pin
from ..backend.places import assign, bind_parameters, borrow, read_local, read_referent
from ..backend.scalar_ops import COMPARISONS, cast, compare, negate, operate
from ..backend.short_circuit import logic
from ..backend.tensor_ops import (element, extent_of, flatten, tensor_lit, tensor_new,
                                  transfer, written_element)
from ..backend.vector_ops import vector
from ..languages.lmlir import Lmlir
from ..languages.lcalls import Lcalls
from ..nanopass import Analysis, Pass, descendants
from ..scalars.block_scopes import successors
from ..values.numbers import FLOAT_TYPES

M = Lmlir

select_instructions = Pass("select-instructions", Lcalls, Lmlir, """
Choose the MLIR operations of every statement, expression and jump: the program in SSA form.

A Vx scalar becomes its machine type (bool i1, u32 i32, ...; the operation says signed or
unsigned: divsi or divui, cmpi slt or ult, extsi or extui), a tensor a memref of its shape
(backend/machine_types.py). A local that choose-memory-cells put in a cell lives in a
memref.alloca (made in the entry block, so LLVM's mem2reg makes it a register again); every
other one is the SSA value of its `let`. A reference names a place, a memref of rank 0 at an
offset: a variable's cell (memref.cast) or a tensor's element (memref.subview, its indices
checked); `*p` loads from it and `*p = v` stores to it (backend/places.py). A vector is an
MLIR vector (backend/vector_ops.py): built by vector.from_elements or vector.broadcast,
combined by arith on vectors, its lanes read by vector.extract. What the
interpreter checks as it runs inside an expression is made explicit, each check a branch to
a block that calls the runtime's vx_stop with a stop site and never returns: a zero divisor
and the minimum divided by -1 (E9001), an index outside its extent (E9003, after every index
of the access is computed), a call nested too deep (E9006), no room for a tensor; a `Stop`
exit is such a block. A `Drop` is a memref.dealloc (a `DropApart` one where two buffers'
addresses differ), a NoAliasParam a NoAlias argument.
`&&` and `||` branch when their right side could stop or has effects, else they are
arith.andi/ori (backend/short_circuit.py). Tensors are backend/tensor_ops.py's, calls
backend/call_ops.py's (`print` calls vx_print with a print site saying how to read the
value); `assume` is llvm.intr.assume. A `const` is computed where it is read, unless its value
calls a function or it holds a tensor: then at its first read, as the interpreter computes
it, and kept in a memref.global for the reads after (backend/const_cells.py), a tensor's
buffer, which every read shares. The blocks
come in the order code went into them, those that stop last.
""", run=lambda tree, ctx: lowering.collect(tree, ctx, state=_Lowering()).module)


@dataclass
class _Lowering:
    fns: dict = field(default_factory=dict)  # name -> Fn
    consts: dict = field(default_factory=dict)  # name -> ConstItem
    once: set = field(default_factory=set)  # those whose value calls a function, or a tensor
    parts: dict = field(default_factory=dict)  # split constant -> its parts' (name, type)
    b: FunctionBuilder | None = None  # the function being lowered
    ret: object = None  # its result's Vx type
    labels: dict = field(default_factory=dict)  # its Lcalls labels -> the builder's
    module: object = None  # the Lmlir Module, once made


# The handlers, one per production of Lcalls' statements, exits and expressions (checked at
# import against Lcalls); an expression's gives (ssa, Vx type), "void" for no value.
lowering = Analysis("select-instructions", Lcalls, "The MLIR operations of one node.")


@lowering.on("Program")
def _program(run, node):
    s, module = run.state, ModuleBuilder(node.span)
    s.fns = {i.name: i for i in node.items if i._prod == "Fn"}
    s.consts = {i.name: i for i in node.items if i._prod == "ConstItem"}
    module.const_types = {name: vx_type(i.type) for name, i in s.consts.items()}
    s.once = {name for name, i in s.consts.items()
              if i.value is not None and (isinstance(vx_type(i.type), Tensor) or any(
                  d._prod == "CallFn" for d in descendants(i.value)))}
    for name, i in s.consts.items():
        if i.value is not None and i.value._prod == "ConstPart":
            s.parts.setdefault(i.value.constant, {})[i.value.part] = (name, vx_type(i.type))
    s.module = module.module([_function(run, fn, module) for fn in s.fns.values()])


def _function(run, fn, module):
    s = run.state
    b = s.b = FunctionBuilder(module, fn.cells, fn.span, run.walk)
    s.ret = vx_type(fn.ret)
    entry = b.new_block()
    b.enter(entry)
    args = bind_parameters(b, fn.params)
    targets = {label for blk in fn.blocks for label in successors(blk)}
    mine = b.open_blocks(entry, [blk.label for blk in fn.blocks], targets)
    s.labels = {label: block.label for label, block in mine.items()}
    for blk in fn.blocks:
        b.enter(mine[blk.label])
        for stmt in blk.stmts:
            b.span = stmt.span
            run.walk(stmt)
        b.span = blk.exit.span
        run.walk(blk.exit)
    results = () if s.ret == "void" else (mtype(s.ret),)
    topology = fn.on.name if fn.on is not None else None
    return M["Func"](fn.name, args, results, topology, b.finish(entry, fn.span),
                     span=fn.span)


# -- exits -------------------------------------------------------------------------------

@lowering.on("Goto")
def _goto(run, node):
    run.state.b.end("Br", run.state.labels[node.target], ())


@lowering.on("Branch")
def _branch(run, node):
    b, labels = run.state.b, run.state.labels
    cond, _ = b.lower(node.cond)
    b.end("CondBr", cond, labels[node.then], (), labels[node.orelse], ())


@lowering.on("Return")
def _return(run, node):
    b, ret = run.state.b, run.state.ret
    if node.value is None:
        if ret != "void":
            b.stop("E9006", f"expected a value of type {ret}, found ()")
            return
        b.end("Ret", ())
        return
    value, t = b.lower(node.value)
    b.end("Ret", () if ret == "void" or t == "void" else (value,))


@lowering.on("Stop")
def _stop(run, node):
    run.state.b.stop(node.code, node.message)


# -- statements --------------------------------------------------------------------------

@lowering.on("Let")
def _let(run, node):
    b = run.state.b
    value, t = b.lower(node.value)
    if t != "void" and node.name not in b.in_cells:
        value = b.rename(value, ssa_name(node.name))
    b.bind(node.name, value, t, node.span)


@lowering.on("Assign")
def _assign(run, node):
    """A store into the place assigned: a tensor's element, what a reference points to, or
    a local's cell (backend/places.py)."""
    b, target = run.state.b, node.target
    if target._prod == "Local" and b.values.get(target.name, ("", None))[1] == "void":
        b.lower(node.value)  # a variable of type () holds nothing: only its value is computed
        return
    assign(b, node, _cell(run, node, target.name) if target._prod == "Local" else None)


def _cell(run, node, local: str):
    """The cell of a local the function assigns or borrows. Only a dump edited by hand can
    leave such a local out of the function's `cells`: refused (E1007), and given a cell
    from here on so that the lowering goes on to report what else is wrong."""
    b = run.state.b
    if local not in b.cells:
        run.ctx.diagnostics.error(
            "E1007", node.span, f"'{local}' is assigned or borrowed, so it lives in a cell, "
            f"but its function's `cells` do not name it")
        b.in_cells = b.in_cells | {local}
        b.bind(local, *b.values[local], node.span)
    return b.cells[local]


@lowering.on("Drop")
def _drop(run, node):
    b = run.state.b
    ssa, t = read_local(b, node.name)  # a cell's tensor is the one it holds now
    b.emit("Dealloc", ssa, t.mtype)


@lowering.on("DropApart")
def _drop_apart(run, node):
    """A dealloc only where the two buffers' aligned pointers differ: a call that may hand
    back the buffer it was given decides which as the program runs."""
    b = run.state.b
    ssa, t = read_local(b, node.name)
    kept, k = read_local(b, node.kept)
    apart = b.op("Compare", "cmpi", "ne", b.op("Pointer", ssa, t.mtype),
                 b.op("Pointer", kept, k.mtype), "index")
    free, cont = b.new_block(), b.new_block()
    b.end("CondBr", apart, free.label, (), cont.label, ())
    b.enter(free)
    b.emit("Dealloc", ssa, t.mtype)
    b.end("Br", cont.label, ())
    b.enter(cont)


@lowering.on("Assume")
def _assume(run, node):
    b = run.state.b
    b.emit("Assume", b.lower(node.cond)[0])


@lowering.on("ReleasePin")
def _release_pin(run, node):
    release_pin(run.state.b, node.topo)


@lowering.on("Halt")
def _halt(run, node):
    """Stop here; code after it goes into a block of its own, which no jump reaches."""
    b = run.state.b
    b.stop(node.code, node.message)
    b.enter(b.new_block())


@lowering.on("ExprStmt")
def _expr_stmt(run, node):
    run.state.b.lower(node.expr)


# -- expressions -------------------------------------------------------------------------

@lowering.on("HaltWith")
def _halt_with(run, e):
    """Stop here, the message showing the value; as Halt, code after it is unreachable, and
    the value it gives there is one no run reads."""
    b = run.state.b
    value, t = b.lower(e.value)
    if t == "i128":  # (compute-wide-extents') its low word, then its high one
        high = b.op("Arith", "shrsi", value, b.const(64, t), t)
        b.stop(e.code, e.message, t, *(b.op("Convert", "arith.trunci", w, t, "i64")
                                       for w in (value, high)))
    else:
        b.stop(e.code, e.message, t, b.to_i64(value, t))
    b.enter(b.new_block())
    return b.const(0, t), t


@lowering.on("Int")
def _int(run, e):
    return run.state.b.const(e.value, e.type), e.type


@lowering.on("Float")
def _float(run, e):
    return run.state.b.const(FLOAT_TYPES[e.type].round(e.value) if e.type in FLOAT_TYPES
                             else e.value, e.type), e.type


@lowering.on("Bool")
def _bool(run, e):
    return run.state.b.const(int(e.value), "bool"), "bool"


@lowering.on("Str", "StructLit", "Tuple", "EnumValue")
def _str(run, e):
    if e._prod == "Tuple" and not e.elems:
        return "", "void"  # the value of type () a variable starts at (explicate-control)
    raise AssertionError(f"{e._prod} outside print reached select-instructions")


@lowering.on("TakePin")
def _take_pin(run, e):
    return take_pin(run.state.b, e.topo, e.replicas), "bool"


@lowering.on("PinnedTo")
def _pinned_to(run, e):
    return run.state.b.lower(e.value)  # where a value is pinned is the interpreter's to know


@lowering.on("Local")
def _local(run, e):
    return read_local(run.state.b, e.name)


@lowering.on("Global")
def _global(run, e):
    s = run.state
    value = s.consts[e.name].value
    if value._prod == "ConstPart":  # where the read is, which a stop there points at
        return _const_part(run, value)
    if e.name in s.once:
        return read_once(s.b, e.name, vx_type(s.consts[e.name].type), lambda: s.b.lower(value))
    return s.b.lower(value)


@lowering.on("ConstPart")
def _const_part(run, e):
    s = run.state
    parts = s.parts[e.constant]
    return read_part(s.b, e.constant, [parts[k] for k in sorted(parts)], e.part, e.fill,
                     vx_type(s.fns[e.fill].ret) != "void")


@lowering.on("Binary")
def _binary(run, e):
    b, op, t = run.state.b, e.op, e.type
    if op in ("&&", "||"):  # the right side computed only when it cannot stop or act
        return logic(b, e), "bool"
    left, _ = b.lower(e.left)
    right, right_type = b.lower(e.right)
    if op in COMPARISONS:
        return compare(b, op, left, right, t), "bool"
    return operate(b, op, left, right, right_type, t), t


@lowering.on("VecBinary", "VecLit", "Splat", "Lane")
def _vector(run, e):
    return vector(run.state.b, e)


@lowering.on("Select")
def _select_value(run, e):
    """`if c { a } else { b }` inside an expression: only the arm the condition picks."""
    b = run.state.b
    cond, _ = b.lower(e.cond)
    return b.choose(cond, lambda: b.lower(e.then), lambda: b.lower(e.orelse), e.span)


@lowering.on("Borrow")
def _borrow(run, e):
    """A place (backend/places.py): a local's cell, a tensor's element, what `*p` names."""
    value = e.value
    return borrow(run.state.b, e, _cell(run, e, value.name) if value._prod == "Local" else None)


@lowering.on("Deref")
def _deref(run, e):
    return read_referent(run.state.b, e.value)


@lowering.on("Unary")
def _unary(run, e):
    value, _ = run.state.b.lower(e.operand)
    return negate(run.state.b, e.op, value, e.type), e.type


@lowering.on("Cast")
def _cast(run, e):
    value, _ = run.state.b.lower(e.value)
    target = vx_type(e.type)
    return cast(run.state.b, value, e.source, target), target


@lowering.on("Builtin")
def _builtin(run, e):
    return builtin(run.state.b, e, run.state.fns)


@lowering.on("CallFn")
def _call(run, e):
    return call(run.state.b, e, run.state.fns)


@lowering.on("Index")
def _index(run, e):
    return element(run.state.b, e)


@lowering.on("ReadWritten")
def _read_written(run, e):
    return written_element(run.state.b, e)


@lowering.on("Extent")
def _extent(run, e):
    return extent_of(run.state.b, e)


@lowering.on("Flatten")
def _flatten(run, e):
    return flatten(run.state.b, e)


@lowering.on("TensorNew")
def _tensor_new(run, e):
    return tensor_new(run.state.b, e)


@lowering.on("TensorLit")
def _tensor_lit(run, e):
    return tensor_lit(run.state.b, e)


@lowering.on("Transfer")
def _transfer(run, e):
    return transfer(run.state.b, e)
