"""copy-read-kernel-aggregates: Lmatched -> Lmatched.

Same IL: a copy made before a statement holds what the aggregate held when the statement
started, and nothing the statement computes changes the aggregate; a copy made where a
call's argument lends it holds what it holds there, and the shared loan forbids any change
while the call runs. Either way a read through the reference to the copy reads what it
read, and the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..languages.lresolved import display_name, unused_name
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Shapes, strip
from ..scalars.closures import bound_in

# The statements a `let` of the copy may go before: they compute their expressions once.
_ONCE = ("ExprStmt", "Let", "Assign", "Return")


@dataclass
class State:
    copied: dict = field(default_factory=dict)  # kernel -> {parameter: (the literal of its
    # fields, the aggregate's type)}
    fn: str = ""  # the walked function
    stmts: set = field(default_factory=set)  # id() of each statement reading one whole
    in_place: dict = field(default_factory=dict)  # id() of each call's argument lending one
    # whole where no copy before its statement may stand in -> the literal of its copy
    copies: dict = field(default_factory=dict)  # the walked statement's copies by parameter
    taken: set = field(default_factory=set)  # the walked function's names


copy_read_kernel_aggregates = Pass("copy-read-kernel-aggregates", L, L, """
Make each shared reference a kernel takes to the whole struct or tuple its launch lends it
a reference to a copy of it, made of its fields before the statement, so that
split-kernel-aggregates finds the kernel naming it only by fields.

A `spawn` body that changes a struct of its launcher and lends it whole (`p.x = 7;
print(norm(&p));`) is such a kernel (outline-kernels gives it `&mut p`): the kernel's
`norm(&(*p))` is `let p_copy: P = P { x: (*p).x, y: (*p).y }; norm(&p_copy)`, the literal
nested for a field that is a struct or a tuple itself. It is done where each statement
lending the whole computes its expressions once (an expression statement, a `let`, an
assignment, a `return`) and names the aggregate otherwise only to read it, and no closure
of the kernel names it (which a call in the statement could change it through). A
lending elsewhere (in a statement that also changes it, `print(bump(&mut p.x) + norm(&p));`,
or in a condition or the kernel's value) has the copy made where it lends it, after what
the statement computes before it, `norm(&P { x: (*p).x, y: (*p).y })`: this is done where
each such lending is a call's argument, whose loan ends with the call. A `&mut` of the
whole, or a lending otherwise, leaves the parameter as it is, which scalarize-aggregates
refuses (E5010).
""", state=State)


@copy_read_kernel_aggregates.on("Program")
def _program(run, program):
    st, shapes = run.state, Shapes(program)
    for fn in program.items:
        if fn._prod != "Fn" or fn.on is None:
            continue
        for p in fn.params:
            ty = strip(p.type)
            shape = shapes.of(ty) if ty is not None and ty._prod == "BorrowType" else None
            if shape is None or shape.kind not in ("struct", "tuple"):
                continue
            lent = _lending(fn, p.name)
            if lent is not None:
                stmts, args = lent
                root = L["Deref"](L["Local"](p.name, span=p.span), span=p.span)
                literal = _literal(shape, root)
                st.copied.setdefault(fn.name, {})[p.name] = (literal, strip(ty.inner))
                st.stmts |= {id(s) for s in stmts}
                st.in_place.update((id(a), literal) for a in args)
    return run.rebuild(program)


def _whole(e, name: str) -> bool:
    """Whether e is `&(*name)`: a shared reference to the whole aggregate."""
    return e._prod == "Borrow" and not e.mutable and e.value._prod == "Deref" and \
        e.value.value._prod == "Local" and e.value.value.name == name


def _lending(fn, name: str) -> tuple[list, list] | None:
    """The statements of fn lending the aggregate of `name` whole that a copy made before
    them may stand in for, and the calls' arguments lending it whole elsewhere, which a copy
    made in their place stands in for; None where neither can."""
    if any(n._prod == "Closure" and any(m._prod == "Local" and m.name == name
                                        for m in descendants(n)) for n in descendants(fn)):
        return None
    wholes = {id(n): n for n in descendants(fn.body) if _whole(n, name)}
    found, seen = [], set()
    for s in descendants(fn.body):
        if s._prod not in _ONCE or id(s) in seen:
            continue
        inner = [n for n in descendants(s) if id(n) in wholes]
        if inner and _read_only(s, name):
            found.append(s)
            seen |= {id(n) for n in descendants(s)}
            for n in inner:
                del wholes[id(n)]
    given = {id(a) for n in descendants(fn.body) if n._prod == "Call" for a in n.args}
    if any(k not in given for k in wholes):
        return None
    return (found, list(wholes.values())) if found or wholes else None


def _read_only(s, name: str) -> bool:
    """Whether statement s names the aggregate of `name` only to read it: no assignment to
    it (in a block inside too), no `&mut` of it or of a part, and no use of the reference
    itself (`set(p, 7)` lends the whole `&mut`)."""
    read = {id(n.value) for n in descendants(s) if n._prod == "Deref"}
    return not any((n._prod == "Assign" and n.target or
                    n._prod == "Borrow" and n.mutable and n.value) and any(
        m._prod == "Local" and m.name == name for m in descendants(
            n.target if n._prod == "Assign" else n.value)) or
        n._prod == "Local" and n.name == name and id(n) not in read for n in descendants(s))


def _literal(shape, base):
    """The literal of the aggregate `base` reads, made of the reads of its fields."""
    span = base.span
    if shape.kind == "struct":
        return L["StructLit"](shape.name, tuple(
            L["FieldInit"](label, _literal(part, L["FieldGet"](base, label, span=span)),
                           span=span) for label, part in shape.parts), span=span)
    if shape.kind == "tuple":
        return L["Tuple"](tuple(_literal(part, L["TupleGet"](base, label, span=span))
                                for label, part in shape.parts), span=span)
    return base


@copy_read_kernel_aggregates.on("Fn")
def _fn(run, fn):
    st = run.state
    st.fn = fn.name
    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    return run.rebuild(fn)


def _copied(run, s):
    """The statement after a `let` of each copy it reads, its references to the aggregates
    references to the copies."""
    st = run.state
    if id(s) not in st.stmts:
        return run.rebuild(s)
    lets = []
    for p, (literal, ty) in st.copied[st.fn].items():
        if any(_whole(n, p) for n in descendants(s)):
            st.copies[p] = unused_name(f"{display_name(p)}_copy", st.taken)
            lets.append(L["Let"](st.copies[p], False, ty, literal, span=s.span))
    s = run.rebuild(s)
    st.copies = {}
    return (*lets, s)


for _prod in _ONCE:
    copy_read_kernel_aggregates.on(_prod, splice=True)(_copied)


@copy_read_kernel_aggregates.on("Borrow")
def _borrow(run, e):
    copies = run.state.copies
    if id(e) in run.state.in_place:
        return e.replace(value=run.state.in_place[id(e)])
    name = e.value.value.name if e.value._prod == "Deref" and \
        e.value.value._prod == "Local" else None
    if name in copies and _whole(e, name):
        return e.replace(value=L["Local"](copies[name], span=e.value.span))
    return run.rebuild(e)
