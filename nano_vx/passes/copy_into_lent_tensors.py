"""copy-into-lent-tensors: Lsplit -> Lsplit.

Same IL: the elements of the tensor assigned are copied into the buffer the reference refers
to, which stands for the variable the interpreter gives the new tensor while no other name
holds that buffer."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars import refuse
from ..scalars.aggregates import Names, concrete, copy_elements, lent, strip
from ..scalars.filled_buffers import shared_fill


@dataclass
class _Filled:
    fills: dict = field(default_factory=dict)  # function -> the references it copies into
    fn: str = ""  # the function being rebuilt
    lent: dict = field(default_factory=dict)  # its `&mut` tensor references -> tensor type
    names: Names | None = None  # its fresh names


copy_into_lent_tensors = Pass("copy-into-lent-tensors", L, L, """
Write each assignment of a whole tensor through a `&mut` to a tensor that a function takes or a `let` of its body binds as the copy of the new tensor's elements into the buffer the reference refers to: `*t = Tensor<f32, [4]>::fill(k);` is `let filled = Tensor<f32, [4]>::fill(k); for copied in 0..4 { (*t)[copied] = filled[copied]; }`.

The interpreter gives the variable the reference names (the caller's, for a parameter) the
new tensor; the buffer that variable holds stands for it, so the copy is what every later
read of the variable sees, while no other name holds that buffer: each local a filled
reference may refer to is read only by its elements, in a `print` or lent on to a
parameter filled so, and made only by a tensor constructor, and a filled parameter is given
a variable, not a row (scalars/filled_buffers.py), else E5010: a `let` holding the old tensor
would see the copy, and the interpreter's reference to a row replaces a tensor of its own.
The extents are the reference's type's, which the new tensor's are too; a tensor of `?`
extents is E5010, since the new one may have others, which the interpreter's variable then
holds and the buffer cannot. A kernel's assignment is return-kernel-tensors' and
write-out-kernel-values', and one inside a closure is left to the refusal (type-scalars).
""", state=_Filled)


@copy_into_lent_tensors.on("Program")
def _program(run, program):
    st = run.state
    made = run.rebuild(program)
    shared = shared_fill(made, st.fills, {i.name: i for i in made.items if i._prod == "Fn"})
    if shared is not None:
        refuse(run.ctx.diagnostics, *shared, "a tensor assigned whole through a `&mut`, "
                                             "whose buffer another name may hold")
    return made


@copy_into_lent_tensors.on("Fn")
def _fn(run, fn):
    st = run.state
    if fn.on is not None:
        return fn
    st.fn = fn.name
    st.lent = {p.name: t for p in fn.params if (t := _referent(p.type)) is not None}
    st.lent.update((n.name, t) for n in descendants(fn.body)
                   if n._prod == "Let" and (t := _referent(n.type)) is not None)
    if not st.lent:
        return fn
    st.names = Names(fn)
    return run.rebuild(fn)


@copy_into_lent_tensors.on("Closure")
def _closure(run, closure):
    return closure


@copy_into_lent_tensors.on("Assign", splice=True)
def _assign(run, s):
    st = run.state
    target = s.target
    if s.op != "=" or target._prod != "Deref" or target.value._prod != "Local" or \
            target.value.name not in st.lent:
        return run.rebuild(s)
    ty = st.lent[target.value.name]
    if not concrete(ty):
        refuse(run.ctx.diagnostics, st.fn, s, "a tensor of `?` extents assigned whole "
                                              "through a `&mut`")
        return (s,)
    st.fills.setdefault(st.fn, set()).add(target.value.name)
    sp = s.span
    held = st.names.fresh("filled")
    return (L["Let"](held, False, ty, run.walk(s.value), span=sp),
            *copy_elements(st.names, target, L["Local"](held, span=sp), ty, sp))


def _referent(ty):
    """The tensor type a `&mut` to a tensor refers to; None for another type."""
    if not lent(ty):
        return None
    inner = strip(strip(ty).inner)
    return inner if inner._prod == "TensorType" else None
