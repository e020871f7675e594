"""copy-into-assigned-uninit-tensors: Lallset -> Lallset.

Same IL: the elements of the tensor assigned are copied into the local's buffer, which no
other name holds, so every read after sees what it saw when the local was given the
tensor."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lallset import Lallset as L
from ..nanopass import Pass, child_nodes, descendants
from ..scalars.aggregates import Names, concrete, copy_elements, strip
from ..scalars.constant_values import maybe_uninit
from ..scalars.tensor_names import element_of, flagged_value


@dataclass
class _Copied:
    fns: dict = field(default_factory=dict)  # the program's functions by name
    consts: dict = field(default_factory=dict)  # the program's constants by name
    copied: dict = field(default_factory=dict)  # a local whose assignments are copies -> type
    names: Names | None = None  # the function's names, for the new ones


copy_into_assigned_uninit_tensors = Pass("copy-into-assigned-uninit-tensors", L, L, """
Write each assignment of a whole tensor made otherwise than by `::uninit()` to a local holding one made by `::uninit()` (or a copy copy-tracked-functions made returns) as the copy of its elements into the local's buffer, where no other name can hold that buffer: `a = Tensor<i32, [3]>::fill(7);` is `let assigned = Tensor<i32, [3]>::fill(7); for copied in 0..3 { a[copied] = assigned[copied]; }`.

track-uninit-elements keeps a written-flag per element of such a tensor beside its local,
which an assignment of another tensor would make another tensor's flags (it refuses it,
E5010); a write of each element sets each flag, as the interpreter's new tensor has every
element written. The copy is the tensor the interpreter gives the local where nothing else
names the local's buffer: the local is used only by its elements, `t.extent(k)`, a `print`
and borrows given to functions returning no reference, none inside a closure; and where the
tensor assigned reads no element never written (nothing it computes may make a tensor by
`::uninit()`, or call a closure), of the local's static extents. Any other local is left to
rebind-assigned-uninit-tensors, or to the refusal.
""", state=_Copied)


@copy_into_assigned_uninit_tensors.on("Program")
def _program(run, program):
    run.state.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    run.state.consts = {i.name: i for i in program.items if i._prod == "ConstItem"}
    return run.rebuild(program)


@copy_into_assigned_uninit_tensors.on("Fn")
def _fn(run, fn):
    st = run.state
    lets = [n for n in descendants(fn.body) if n._prod == "Let" and n.mutable and
            flagged_value(n.value, st.fns)]
    st.copied = {}
    for let in lets:
        ty = let.type if let.type is not None else let.value.type
        if concrete(ty) and strip(ty)._prod == "TensorType" and \
                _assigned_only_fresh(fn.body, let.name, strip(ty), st) and \
                not _held_elsewhere(fn.body, let.name, st.fns):
            st.copied[let.name] = strip(ty)
    if not st.copied:
        return fn
    st.names = Names(fn)
    return run.rebuild(fn)


@copy_into_assigned_uninit_tensors.on("Assign", splice=True)
def _assign(run, s):
    st = run.state
    if s.target._prod != "Local" or s.target.name not in st.copied:
        return run.rebuild(s)
    sp = s.span
    ty = st.copied[s.target.name]
    held = st.names.fresh("assigned")
    return (L["Let"](held, False, ty, run.walk(s.value), span=sp),
            *copy_elements(st.names, s.target, L["Local"](held, span=sp), ty, sp))


def _assigned_only_fresh(body, name: str, ty, st: _Copied) -> bool:
    """Whether each assignment of the whole local `name` gives it a tensor of its type `ty`
    that nothing it computes may make by `::uninit()` (so whose elements are all written)."""
    assigned = [n.value for n in descendants(body) if n._prod == "Assign" and
                n.target._prod == "Local" and n.target.name == name]
    return bool(assigned) and all(
        s.op == "=" for s in descendants(body) if s._prod == "Assign" and
        s.target._prod == "Local" and s.target.name == name) and all(
        _same_shape(_typed(v, st.fns), ty) and not maybe_uninit(v, st.fns, st.consts)
        for v in assigned)


def _same_shape(made, ty) -> bool:
    return made is not None and made._prod == "TensorType" and made.elem == ty.elem and \
        made.dims == ty.dims


def _typed(value, fns: dict):
    """The tensor type of a value made by a constructor, a literal or a call by name."""
    if value._prod in ("TensorNew", "TensorLit"):
        return strip(value.type)
    if value._prod == "Call" and value.callee._prod == "Global" and value.callee.name in fns:
        return strip(fns[value.callee.name].ret)
    return None


def _held_elsewhere(node, name: str, fns: dict) -> bool:
    """Whether something in node may hold the buffer of the local `name` past the statement
    naming it: any use but its elements, `name.extent(k)`, an assignment of it whole, a
    `print` of it, and a borrow given to a function returning no reference, or any use
    inside a closure."""
    if node._prod == "Closure":
        return any(n._prod == "Local" and n.name == name for n in descendants(node))
    if node._prod == "Local":
        return node.name == name
    base, indices = element_of(node) if node._prod == "Index" else (None, ())
    if base is not None and base.name == name:
        return any(_held_elsewhere(i, name, fns) for i in indices)
    if node._prod == "Assign" and node.target._prod == "Local" and node.target.name == name:
        return _held_elsewhere(node.value, name, fns)
    if node._prod == "MethodCall" and node.method == "extent" and \
            node.receiver._prod == "Local":
        return any(_held_elsewhere(a, name, fns) for a in node.args)
    if node._prod == "Call" and node.callee._prod == "Global":
        return any(_held_elsewhere(a, name, fns) for a in node.args
                   if not _lent_for_the_call(node.callee.name, a, name, fns))
    return any(_held_elsewhere(c, name, fns) for c in child_nodes(node))


def _lent_for_the_call(callee: str, arg, name: str, fns: dict) -> bool:
    """Whether `arg` of a call of `callee` names the local `name` only for the call: printed,
    or borrowed by a function returning no reference."""
    if arg._prod == "Local" and arg.name == name:
        return callee == "print"
    if arg._prod != "Borrow" or arg.value._prod != "Local" or arg.value.name != name:
        return False
    fn = fns.get(callee)
    return fn is not None and (fn.ret is None or not any(
        n._prod == "BorrowType" for n in descendants(fn.ret)))

