"""select-instructions: Ldrops -> Lmlir."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..backend.buffers import distinct_parameters
from ..backend.machine_types import Ref, cell_type, mtype, vx_type
from ..backend.mlir_builder import FunctionBuilder, ModuleBuilder, ssa_name
from ..backend.print_ops import print_arg
from ..backend.scalar_ops import COMPARISONS, cast, compare, math_builtin, negate, operate
from ..backend.tensor_ops import access, element, tensor_lit, tensor_new, transfer
from ..languages.lmlir import Lmlir
from ..languages.ldrops import Ldrops
from ..nanopass import Analysis, Pass
from ..values.math import MATH
from ..values.numbers import FLOAT_TYPES

M = Lmlir

select_instructions = Pass("select-instructions", Ldrops, Lmlir, """
Choose the MLIR operations of every statement, expression and jump: the program in SSA form.

A Vx scalar becomes its machine type (bool i1, u32 i32, ...; the operation says signed or
unsigned: divsi or divui, cmpi slt or ult, extsi or extui), a tensor a memref of its shape
(backend/machine_types.py). A local that choose-memory-cells put in a cell lives in a
memref.alloca (made in the entry block, so LLVM's mem2reg makes it a register again); every
other one is the SSA value of its `let`. A reference to a variable is its cell, a memref of
rank 0: `*p` loads from it and `*p = v` stores to it. What the interpreter checks as it runs
inside an expression is made explicit, each check a branch to a block that calls the
runtime's vx_stop with a stop site and never returns: a zero divisor and the minimum divided
by -1 (E9001), an index outside its extent (E9003, after every index of the access is
computed), a call nested too deep (E9006), no room for a tensor; a `Stop` exit is such a
block. A `Drop` is a memref.dealloc. A tensor parameter that no other argument of any call
shares (backend/buffers.py) is a NoAlias argument, which LLVM reads as noalias. `&&` and
`||` branch when their right side could stop or has effects, else they are arith.andi/ori. Tensors are backend/tensor_ops.py's; a launch is a func.call with the
topology as an attribute; `assume` is llvm.intr.assume; `print` calls vx_print with a print
site saying how to read the value. A `const` is computed where it is used. The blocks come in
the order code went into them, those that stop last.
""", run=lambda tree, ctx: lowering.collect(tree, ctx, state=_Lowering(tree)).module)


@dataclass
class _Lowering:
    tree: object
    fns: dict = field(default_factory=dict)  # name -> Fn
    consts: dict = field(default_factory=dict)  # name -> ConstItem
    b: FunctionBuilder | None = None  # the function being lowered
    ret: object = None  # its result's Vx type
    labels: dict = field(default_factory=dict)  # its Ldrops labels -> the builder's
    distinct: dict = field(default_factory=dict)  # function -> its noalias parameters
    module: object = None  # the Lmlir Module, once made

    def __post_init__(self):
        self.fns = {i.name: i for i in self.tree.items if i._prod == "Fn"}
        self.consts = {i.name: i for i in self.tree.items if i._prod == "ConstItem"}


# The handlers, one per production of Ldrops' statements, exits and expressions (checked at
# import against Ldrops); an expression's gives (ssa, Vx type), "void" for no value.
lowering = Analysis("select-instructions", Ldrops, "The MLIR operations of one node.")


@lowering.on("Program")
def _program(run, node):
    module = ModuleBuilder(node.span)
    run.state.distinct = distinct_parameters(node)
    run.state.module = module.module([_function(run, fn, module)
                                      for fn in run.state.fns.values()])


def _function(run, fn, module):
    s = run.state
    b = s.b = FunctionBuilder(module, fn.cells, fn.span, run.walk)
    s.ret = vx_type(fn.ret)
    args = []
    entry = b.new_block()
    b.enter(entry)
    for k, prm in enumerate(fn.params):
        t = vx_type(prm.type)
        ssa = ssa_name(prm.name)
        kind = "NoAlias" if k in s.distinct.get(fn.name, ()) else "Arg"
        args.append(M[kind](ssa, mtype(t), span=prm.span))
        b.bind(prm.name, ssa, t, prm.span)
    targets = {getattr(blk.exit, f) for blk in fn.blocks
               for f in ("target", "then", "orelse") if f in blk.exit._fields}
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
    return M["Func"](fn.name, tuple(args), results, topology, b.finish(entry, fn.span),
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
    if t != "void":
        if node.name not in b.in_cells:
            value = b.rename(value, ssa_name(node.name))
        b.bind(node.name, value, t, node.span)


@lowering.on("Assign")
def _assign(run, node):
    b, target, op = run.state.b, node.target, node.op
    if target._prod == "Index":
        ref, indices, tensor = access(b, target)
        _update(run, node, ref, indices, tensor.mtype, tensor.elem)
    elif target._prod == "Deref":  # through a reference: into the cell it points to
        ref, r = b.lower(target.value)
        _update(run, node, ref, (), r.mtype, r.target)
    else:  # a local's cell: a compound assignment reads it before the value is computed
        cell, t = _cell(run, node, target.name)
        old = b.load(cell, (), cell_type(t), t) if op != "=" else None
        value, vt = b.lower(node.value)
        if old is not None:
            value = operate(b, op[:-1], old, value, vt, t)
        b.store(value, cell, (), cell_type(t), t)


def _update(run, node, ref: str, indices: tuple, memref: str, t):
    """Store the assigned value at `ref[indices]`; a compound assignment reads the old one
    after computing the value."""
    b = run.state.b
    value, vt = b.lower(node.value)
    if node.op != "=":
        value = operate(b, node.op[:-1], b.load(ref, indices, memref, t), value, vt, t)
    b.store(value, ref, indices, memref, t)


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
    ssa, t = _local(run, node)  # a cell's tensor is the one it holds now
    b.emit("Dealloc", ssa, t.mtype)


@lowering.on("Assume")
def _assume(run, node):
    b = run.state.b
    b.emit("Assume", b.lower(node.cond)[0])


@lowering.on("ExprStmt")
def _expr_stmt(run, node):
    run.state.b.lower(node.expr)


# -- expressions -------------------------------------------------------------------------

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
    raise AssertionError(f"{e._prod} outside print reached select-instructions")


@lowering.on("Local")
def _local(run, e):
    b = run.state.b
    if e.name in b.cells:
        cell, t = b.cells[e.name]
        return b.load(cell, (), cell_type(t), t), t
    return b.values[e.name]


@lowering.on("Global")
def _global(run, e):
    return run.state.b.lower(run.state.consts[e.name].value)


@lowering.on("Binary")
def _binary(run, e):
    b, op, t = run.state.b, e.op, e.type
    if op in ("&&", "||"):
        return _logic(run, e), "bool"
    left, _ = b.lower(e.left)
    right, right_type = b.lower(e.right)
    if op in COMPARISONS:
        return compare(b, op, left, right, t), "bool"
    return operate(b, op, left, right, right_type, t), t


def _logic(run, e) -> str:
    """`a && b`, `a || b`: b only when a does not decide."""
    b = run.state.b
    left, _ = b.lower(e.left)
    if _pure(e.right):
        right, _ = b.lower(e.right)
        return b.op("Arith", "andi" if e.op == "&&" else "ori", left, right, "i1")
    return b.short_circuit(e.op, left, lambda: b.lower(e.right)[0], e.span)


def _pure(e) -> bool:
    """An expression that can neither stop nor have an effect: evaluating it early is safe."""
    if e._prod in ("Int", "Float", "Bool", "Local"):
        return True
    if e._prod == "Binary":
        return e.op not in ("/", "%") and _pure(e.left) and _pure(e.right)
    if e._prod in ("Unary", "Cast"):
        return _pure(e.operand if e._prod == "Unary" else e.value)
    return False


@lowering.on("Select")
def _select_value(run, e):
    """`if c { a } else { b }` inside an expression: only the arm the condition picks."""
    b = run.state.b
    cond, _ = b.lower(e.cond)
    return b.choose(cond, lambda: b.lower(e.then), lambda: b.lower(e.orelse), e.span)


@lowering.on("Borrow")
def _borrow(run, e):
    """`&x`: the address of x's cell (a borrowed local lives in one); `&*p`: p."""
    if e.value._prod == "Deref":
        return run.state.b.lower(e.value.value)
    cell, t = _cell(run, e, e.value.name)
    return cell, Ref(t)


@lowering.on("Deref")
def _deref(run, e):
    b = run.state.b
    ref, r = b.lower(e.value)
    return b.load(ref, (), r.mtype, r.target), r.target


@lowering.on("Unary")
def _unary(run, e):
    value, _ = run.state.b.lower(e.operand)
    return negate(run.state.b, e.op, value, e.type), e.type


@lowering.on("Cast")
def _cast(run, e):
    value, _ = run.state.b.lower(e.value)
    target = vx_type(e.type)
    return cast(run.state.b, value, e.source, target), target


@lowering.on("Call")
def _call(run, e):
    b, callee, fns = run.state.b, e.callee.name, run.state.fns
    if callee == "print" and callee not in fns:
        print_arg(b, e.args[0], fns)
        return "", "void"
    if callee in MATH and callee not in fns:
        return math_builtin(b, callee, [b.lower(a) for a in e.args])
    return _call_fn(run, callee, tuple(b.lower(a)[0] for a in e.args), None)


def _call_fn(run, callee: str, args: tuple, launch):
    ret = vx_type(run.state.fns[callee].ret)
    return run.state.b.call(callee, args, launch, ret), ret


@lowering.on("Launch")
def _launch(run, e):
    return _call_fn(run, e.kernel, tuple(run.state.b.lower(a)[0] for a in e.args), e.topo.name)


@lowering.on("Index")
def _index(run, e):
    return element(run.state.b, e)


@lowering.on("TensorNew")
def _tensor_new(run, e):
    return tensor_new(run.state.b, e)


@lowering.on("TensorLit")
def _tensor_lit(run, e):
    return tensor_lit(run.state.b, e)


@lowering.on("Transfer")
def _transfer(run, e):
    return transfer(run.state.b, e)
