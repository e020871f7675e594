"""assign-chosen-tensors: Lsplit -> Lsplit.

Same IL: the `let mut` and the assignments its arms make are Lsplit's own statements, and the
variable holds what the `if` chose when the arms are done, so the interpreter runs the output as
it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.closures import bound_in
from ..scalars.storages import chosen_values, fresh_copy


@dataclass
class State:
    types: dict = field(default_factory=dict)  # each local of the function -> its type
    assigned: set = field(default_factory=set)  # the locals the function assigns

assign_chosen_tensors = Pass("assign-chosen-tensors", L, L, """
Write a `let` of a tensor, or of a reference or raw pointer to a tensor, that an `if`
chooses as a `let mut` that each arm assigns its value, started at a new tensor or at a
place an arm names.

`let t = if c { a } else { b };` is `let mut t: T = T::new(); if c { t = a; } else { t =
b; }`: explicate-control starts the variable of an `if` value at its type's zero, which a
tensor has only as a buffer, so this pass makes that buffer here, as desugar-deferred-lets
makes the one of a `let t: T;` (mapped lazily: no page of it is touched; insert-drops gives
it back at once, since every arm assigns the variable before anything reads it); one of `?`
extents, whose extents no arm has given yet, starts empty, each `?` extent 0 (`T::new([0,
3])`): an arm's assignment gives the variable its own tensor, extents and all, as the
interpreter's does. A reference to a tensor needs no buffer of its own: `let r = if c {
&mut a } else { &mut b };` is `let mut r = &mut a; if c { r = &mut a; } else { r = &mut b;
}`, started at the first place an arm names that is bound before the `if` (a variable, a
reference variable, or what one refers to), which computes nothing; a raw pointer alike, at `a.as_mut_ptr()` or a pointer
variable. A reference none of whose arms is such a place (each a call, say) starts at a
variable of its tensor's type an arm borrows (`&mut a` in `first(&mut a, &mut b)`), or a
reference variable of its type an arm names, which nothing assigns: such a variable is
there before the `if`, unmoved (a borrow or a use of a moved one is refused). An `else if`
chain assigns in each of its arms, and an arm that ends without a value (a `return`, a
stop) assigns nothing. A reference or pointer none of whose arms names such a place has no
start that computes nothing: it stays an `if` value, which split-chosen-tensor-references
then binds in each arm (a `let mut` one too). A row (`if c { t[0]
} else { t[1] }`) would leave the new tensor nobody's: it stays an `if` value, which
split-chosen-tensor-references binds in each arm where a `let` binds it, and
check-native-subset refuses elsewhere.
""", state=State)


@assign_chosen_tensors.on("Fn")
def _fn(run, fn):
    nodes = list(descendants(fn))
    run.state.types = {n.name: n.type for n in nodes if n._prod in ("Let", "Param")}
    run.state.assigned = {n.target.name for n in nodes
                          if n._prod == "Assign" and n.target._prod == "Local"}
    return run.rebuild(fn)


@assign_chosen_tensors.on("Block")
def _block(run, block):
    out = run.rebuild(block)
    if not any(_start(run.state, s) is not None for s in out.stmts):
        return out
    stmts = []
    for s in out.stmts:
        start = _start(run.state, s)
        if start is None:
            stmts.append(s)
            continue
        stmts.append(s.replace(mutable=True, value=start))
        stmts.append(_assigning(s.value, s.name, s.span))
    return out.replace(stmts=tuple(stmts))


def _start(st, s):
    """What the variable of `s` starts at when `s` is a `let` this pass writes, else None."""
    if s._prod != "Let" or s.value._prod != "IfExpr" or s.value.comptime:
        return None
    if s.type._prod == "TensorType":
        # A row would leave the new tensor nobody's (a row is a view of its tensor's buffer,
        # which the variable does not own): it stays an `if` value, which the gate refuses.
        if all(d._prod in ("DimInt", "DimAny") for d in s.type.dims) and \
                not any(v._prod == "Index" for v in chosen_values(s.value)):
            return L["TensorNew"](s.type, "new", _empty(s.type), span=s.span)
        return None
    if s.type._prod == "BorrowType" and s.type.inner._prod == "TensorType" or \
            s.type._prod == "PtrType":
        bound = bound_in(s.value)
        named = next((p for p in chosen_values(s.value) if _place(p, bound)), None)
        if named is None and s.type._prod == "BorrowType":
            named = next((e for e in descendants(s.value) if _of_type(st, e, s.type, bound)),
                         None)
        return None if named is None else fresh_copy(named)
    return None


def _of_type(st, e, ty, bound: set) -> bool:
    """`e` is `&mut x` (`&x`) of a variable of the tensor type ty refers to, or a reference
    variable of type ty, x bound before the `if` and never assigned."""
    if e._prod == "Borrow" and e.mutable == ty.mutable:
        e, ty = e.value, ty.inner
    return e._prod == "Local" and e.name not in bound and e.name not in st.assigned and \
        st.types.get(e.name) == ty


def _empty(ty) -> tuple:
    """`::new()`'s arguments for a tensor of type ty holding no element when an extent is
    `?`: the list of its extents, each `?` one 0; none for static extents."""
    if all(d._prod == "DimInt" for d in ty.dims):
        return ()
    return (L["ArrayLit"](tuple(L["Int"](d.value if d._prod == "DimInt" else 0, span=d.span)
                                for d in ty.dims), span=ty.span),)


def _place(e, bound: set) -> bool:
    """`e` names a place without computing anything, through a variable not bound inside the
    `if`: `x`, `&mut x`, `&mut *x` or `x.as_mut_ptr()`."""
    if e._prod in ("Borrow", "AsPtr"):
        e = e.value.value if e.value._prod == "Deref" else e.value
    return e._prod == "Local" and e.name not in bound


def _assigning(choice, name, span):
    """The `if` statement whose arms assign `name` what the arms of the `if` value give."""
    return L["If"](choice.cond, False, _arm(choice.then, name, span),
                   _arm(choice.orelse, name, span), span=choice.span)


def _arm(block, name, span):
    value = block.value
    if value is None:
        return block
    if value._prod == "IfExpr" and not value.comptime:
        last = _assigning(value, name, span)
    else:
        last = L["Assign"](L["Local"](name, span=span), "=", value, span=value.span)
    return block.replace(stmts=(*block.stmts, last), value=None)
