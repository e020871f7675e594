"""erase-raw-pointers: Lnative -> Lsafe."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lnative import Lnative
from ..languages.lsafe import Lsafe
from ..nanopass import Pass, descendants
from ..scalars import infer_program, report_refused
from ..scalars.terms import DYNAMIC, Ptr, decide
from ..values.literals import TYPE_WRAPPERS

L = Lsafe


@dataclass
class State:
    sizes: dict = field(default_factory=dict)  # id(PtrType) -> (its size, what it holds)
    flattened: set = field(default_factory=set)  # id() of each `t.as_ptr()` seen flat
    through: set = field(default_factory=set)  # id() of each `*p` of a raw pointer p


erase_raw_pointers = Pass("erase-raw-pointers", Lnative, Lsafe, """
Make each raw pointer the tensor it points into, seen as one dimension: `t.as_ptr()` is t
or `t.flatten()`, and `*p` is `p[0]`.

A pointer is only ever made at a tensor's first element (`as_ptr`, `as_mut_ptr`) and `p[i]`
reads i elements on in row-major order, so native code holds it as the tensor's buffer seen
as one dimension, and `p[i]` as that buffer's element i, checked against its element count
as every index is: out of the tensor, native code stops with E9003 as the interpreter does.
Scalar inference sizes each pointer: where every pointer it meets (through a variable, a
parameter, a result) points into a rank-1 tensor of N elements, static, the pointer is that
tensor, `Tensor<T, [N]>`; any other (into a tensor of another rank or of `?` extents, or a
parameter given pointers into tensors of two sizes, or given none) is a `Tensor<T, [?]>`,
and `t.as_ptr()` there `t.flatten()`, a view of t's buffer. A pointer into a tensor of a
narrow type (`f8e4m3`, `i4`) is a tensor of that type, each element a byte read as its value
type; a parameter given pointers into tensors of a narrow type and of another is one per
copy of its function (specialize-storages), and one pointer chosen between both was refused
by check-native-subset, as was a write through a `*const` (on which the interpreter stops,
while the tensor would take it). What `unsafe` allows was checked by check-unsafe, and it
makes no code: an `unsafe { .. }` is its value, its statements going before the statement
that takes the value (or the block's value it is), and `unsafe fn` goes.
""", state=State)


@erase_raw_pointers.on("Program")
def _program(run, program):
    if not any(n._prod in ("AsPtr", "PtrType", "Unsafe", "UnsafeFn")
               for n in descendants(program)):
        return run.rebuild(program)
    inferred = infer_program(program)
    report_refused(run.ctx.diagnostics, inferred)  # a dump resumed past the gate
    for name, infer in inferred.items.items():
        run.state.through |= infer.through_pointers
        solved = infer.solved()
        item = inferred.sigs.fns.get(name)
        if item is not None and item.ret is not None:
            _size(run, item.ret, decide(inferred.sigs.ret(name)))
        for node in descendants(inferred.items[name].item_node):
            if node._prod in ("Let", "Param") and id(node) in solved:
                _size(run, node.type, solved[id(node)])
            elif node._prod == "AsPtr" and solved[id(node)].size == DYNAMIC:
                run.state.flattened.add(id(node))
    items = tuple(run.walk(item) for item in program.items
                  if getattr(item, "name", None) not in inferred.refused)
    return L["Program"](items, span=program.span)


def _size(run, ty, decided):
    """Note the size of the tensor a pointer type written `ty` points into, and what its
    elements hold."""
    while ty is not None and ty._prod in TYPE_WRAPPERS:
        ty = ty.inner
    if ty is not None and ty._prod == "PtrType" and isinstance(decided, Ptr):
        run.state.sizes[id(ty)] = decided.size, decided.held


@erase_raw_pointers.on("PtrType")
def _pointer_type(run, ty):
    if id(ty) not in run.state.sizes:
        raise AssertionError("a raw pointer whose tensor scalar inference did not size "
                             "reached erase-raw-pointers")
    size, held = run.state.sizes[id(ty)]
    elem = L["Scalar"](held, span=ty.span) if held else run.walk(ty.inner)
    dim = L["DimAny"](span=ty.span) if size == DYNAMIC else L["DimInt"](size, span=ty.span)
    return L["TensorType"](elem, (dim,), ty.place, span=ty.span)


@erase_raw_pointers.on("AsPtr")
def _as_ptr(run, node):
    if id(node) in run.state.flattened:
        return L["Flatten"](run.walk(node.value), span=node.span)
    return run.walk(node.value)


@erase_raw_pointers.on("Deref")
def _deref(run, node):
    if id(node) in run.state.through:
        return L["Index"](run.walk(node.value), L["Int"](0, span=node.span), span=node.span)
    return run.rebuild(node)


@erase_raw_pointers.on("Unsafe")
def _unsafe(run, node):
    # Inside a larger expression, its block holds no statement (check-native-subset).
    return run.walk(node.body.value)


def _hoisted(run, unsafe) -> tuple:
    """The statements of an `unsafe` block whose value a statement takes, to go before that
    statement (names are unique within a function, so they mean what they meant), and the
    block's value."""
    body = unsafe.body
    return run.walk(Lnative["Block"](body.stmts, None, span=body.span)).stmts, body.value


@erase_raw_pointers.on("Let", "Return", "Assign", "ExprStmt", splice=True)
def _statement(run, node):
    field = "expr" if node._prod == "ExprStmt" else "value"
    unsafe = getattr(node, field)
    if unsafe is None or unsafe._prod != "Unsafe" or \
            node._prod == "Assign" and node.target._prod != "Local":
        return run.rebuild(node)
    stmts, value = _hoisted(run, unsafe)
    if value is None:  # `unsafe { .. }` as a statement: its statements alone
        return stmts
    return (*stmts, run.rebuild(node.replace(**{field: value})))


@erase_raw_pointers.on("Block")
def _block(run, block):
    unsafe = block.value
    if unsafe is None or unsafe._prod != "Unsafe":
        return run.rebuild(block)
    body = unsafe.body
    return run.walk(block.replace(stmts=(*block.stmts, *body.stmts), value=body.value))


@erase_raw_pointers.on("UnsafeFn", splice=True)
def _unsafe_fn(run, node):
    return ()
