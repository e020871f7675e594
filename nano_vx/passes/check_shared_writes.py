"""check-shared-writes: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..dump.text import to_text
from ..languages.lsrc import DESCRIPTIONS
from ..languages.lunrolled import OncePerPlace
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis
from ..placement.references import DeclaredTypes
from ..values.constants import written


@dataclass
class State:
    types: DeclaredTypes = field(default_factory=DeclaredTypes)
    reported: OncePerPlace = field(default_factory=OncePerPlace)


check_shared_writes = Analysis("check-shared-writes", Lrouted, """
Refuse a write through a shared reference, `&T`, or a `*const T` pointer (E4006): writing
needs `&mut T` or `*mut T`.

A write goes through a reference when it assigns to what the reference names (`*p = ..`,
`*p += ..`, `p[i] = ..` for a reference p, which indexing sees through, `(*p)[i] = ..`) or
takes a `&mut` of it (`&mut *p`, Rust's E0596; an assignment is its E0594). It is refused
when a `&` is on its way, the reference itself or one it was read through: `**q = ..` for
`q: &&mut T` is behind the `&`. The types are the declared ones: a parameter's, a `let`'s
(infer-placement wrote every one), a closure parameter's, a called function's result. A
pointer is written through by `*p = ..`, `p[i] = ..` and `&mut *p` (Rust's E0594 and E0596
for a `*const` alike); the interpreter would stop there only when it ran.
""", skip=DESCRIPTIONS, state=State)


@check_shared_writes.on("Program")
def _program(run, node):
    st = run.state
    st.types = DeclaredTypes.of(node)
    for fn in (item for item in node.items if item._prod == "Fn"):
        st.types.enter(fn)
        run.walk(fn.body)
    st.reported.note_copies()


@check_shared_writes.on("Closure")
def _closure(run, node):
    run.state.types.bind(node.params)
    run.descend(node)


@check_shared_writes.on("Let")
def _let(run, node):
    run.walk(node.value)
    run.state.types.locals[node.name] = node.type


@check_shared_writes.on("Assign")
def _assign(run, node):
    run.descend(node)
    ref = run.state.types.through(node.target)
    shared = _shared(run.state.types, ref) if ref is not None else None
    if shared is not None:
        _refuse(run, node.target, shared, f"assign to `{_text(node.target)}`")
    elif (ptr := _const_pointer(run.state.types, node.target)) is not None:
        _refuse(run, node.target, ptr, f"assign to `{_text(node.target)}`")


@check_shared_writes.on("Borrow")
def _borrow(run, node):
    run.descend(node)
    ref = run.state.types.through(node.value) if node.mutable else None
    shared = _shared(run.state.types, ref) if ref is not None else None
    if shared is not None:
        _refuse(run, node, shared, f"borrow `{_text(node.value)}` as mutable")
    elif node.mutable and (ptr := _const_pointer(run.state.types, node.value)) is not None:
        _refuse(run, node, ptr, f"borrow `{_text(node.value)}` as mutable")


def _shared(types: DeclaredTypes, ref):
    """The shared reference on the way to what `ref` names (`ref` itself, or one it was
    read through: `**q` for `q: &&mut T` is behind a `&`), else None."""
    while True:
        t = types.type_of(ref)
        if t is not None and t._prod == "BorrowType" and not t.mutable:
            return ref
        if ref._prod != "Deref":
            return None
        ref = ref.value


def _const_pointer(types: DeclaredTypes, place):
    """The `*const` pointer a write to `place` goes through (`*p`, `p[i]`), else None."""
    base = place
    while base._prod in ("Index", "FieldGet", "TupleGet"):
        base = base.base
    ptr = base.value if base._prod == "Deref" else base if base is not place else None
    t = types.type_of(ptr) if ptr is not None else None
    return ptr if t is not None and t._prod == "PtrType" and not t.mutable else None


def _refuse(run, at, ref, written_as: str) -> None:
    """E4006 at `at`, which would write through the shared reference `ref`; once for all the
    copies `unroll across` made of it."""
    key = (at.span if at.span is not None else id(at), "E4006")
    shown = _text(ref)
    said = run.state.reported
    if said.again(key, copy=shown):
        return
    t = run.state.types.type_of(ref)
    if t._prod == "PtrType":
        what, needs = f"a `*const` pointer (`{_show(t)}`)", "`*mut`"
        help_ = (f"take a `*mut` pointer where `{shown}` is made (`.as_mut_ptr()`, of type "
                 f"`*mut {_show(t.inner)}`)")
    else:
        what, needs = f"a shared reference (`{_show(t)}`)", "`&mut`"
        help_ = (f"take a mutable reference where `{shown}` is made (`&mut ..`, of type "
                 f"`&mut {_show(t.inner)}`)")
    run.ctx.diagnostics.error(
        "E4006", at.span, f"cannot {written_as}: `{shown}` is {what}, and writing needs {needs}",
        help=[help_], reference=shown)
    said.said(key, run.ctx.diagnostics.items[-1], copy=shown)


def _text(node) -> str:
    return written(node).strip()


def _show(t) -> str:
    return to_text(t).strip() if t is not None else "_"
