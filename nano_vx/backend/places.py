"""Where a Vx value lives in MLIR, on a FunctionBuilder, and how it is read and written: a
local is the SSA value of its `let` or its parameter's argument, or in the cell
choose-memory-cells gave it (a memref of rank 0); a reference is the address of a cell,
which `*p` reads and `*p = v` writes; a tensor's element is read and written through its
checked indices (tensor_ops.py).

An assignment stores its value into the place its target names; a compound one (`+=`)
reads the old value too, where the interpreter does: for a local before the value is
computed, for an element or what a reference points to after it."""

from __future__ import annotations

from ..languages.lmlir import Lmlir
from ..values.narrow import value_type
from .machine_types import Ref, Vector, cell_type, mtype, vx_type
from .mlir_builder import ssa_name
from .scalar_ops import operate
from .tensor_ops import access
from .vector_ops import combine


def bind_parameters(b, params) -> tuple:
    """A function's arguments, one per parameter, each bound as its local; a NoAliasParam's
    is NoAlias. A parameter of type () (a closure's given a `print`) has none: its value is
    nothing at run time."""
    args = []
    for prm in params:
        t = vx_type(prm.type)
        if t == "void":
            b.bind(prm.name, "", t, prm.span)
            continue
        ssa = ssa_name(prm.name)
        noalias = prm._prod == "NoAliasParam"
        args.append(Lmlir["NoAlias" if noalias else "Arg"](ssa, mtype(t), span=prm.span))
        b.bind(prm.name, ssa, t, prm.span)
    return tuple(args)


def read_local(b, name: str):
    """A local's (ssa, Vx type): its value, loaded from its cell when it has one."""
    if name in b.cells:
        cell, t = b.cells[name]
        return b.load(cell, (), cell_type(t), t), t
    return b.values[name]


def read_referent(b, reference):
    """`*p`: the (ssa, Vx type) of what the reference `p` points to."""
    ref, r = b.lower(reference)
    return b.load(ref, (), r.mtype, r.target), r.value


def borrow(b, e, cell=None):
    """The Borrow `e`, a place: `&x` x's cell (a borrowed local lives in one), `cell` its
    (cell ssa, Vx type), cast to a place; `&t[i]` the view of the element, its indices
    checked as a read's; `&*p` p."""
    if e.value._prod == "Deref":
        return b.lower(e.value.value)
    if e.value._prod == "Index":
        ref, indices, tensor = access(b, e.value, view=True)
        place = Ref(tensor.elem)
        return b.op("Subview", ref, indices, tensor.mtype, place.mtype), place
    cell, t = cell
    place = Ref(t)
    return b.op("Cast", cell, place.cell, place.mtype), place


def assign(b, node, cell=None) -> None:
    """The Assign `node`; `cell` is the (cell ssa, Vx type) of the local it assigns, when
    its target is one."""
    target, op = node.target, node.op
    if target._prod == "Index":
        ref, indices, tensor = access(b, target)
        _update(b, node, ref, indices, tensor.mtype, tensor.elem)
    elif target._prod == "Deref":  # through a reference: into the cell it points to
        ref, r = b.lower(target.value)
        _update(b, node, ref, (), r.mtype, r.target)
    else:
        ref, t = cell
        old = b.load(ref, (), cell_type(t), t) if op != "=" else None
        value, vt = b.lower(node.value)
        if old is not None:
            value = _operate(b, op[:-1], old, value, vt, t)
        b.store(value, ref, (), cell_type(t), t)


def _update(b, node, ref: str, indices: tuple, memref: str, t) -> None:
    """Store the assigned value at `ref[indices]`, a compound assignment's after reading the
    old one."""
    value, vt = b.lower(node.value)
    if node.op != "=":
        old = b.load(ref, indices, memref, t)  # a narrow float's element read as an f32
        computed = value_type(t) if isinstance(t, str) else t
        value = _operate(b, node.op[:-1], old, value, vt, computed)
    b.store(value, ref, indices, memref, t)


def _operate(b, op: str, old: str, value: str, vt, t) -> str:
    """A compound assignment's `old op value`, of scalars or of vectors."""
    if isinstance(t, Vector):
        return combine(b, op, old, value, t)
    return operate(b, op, old, value, vt, t)
