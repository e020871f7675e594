"""copy-read-kernel-aggregates: Lmatched -> Lmatched.

Same IL: the copy holds what the aggregate held when the statement started, and nothing the
statement computes changes the aggregate, so a read through the reference to the copy reads
what it read, and the interpreter runs the output as it ran the input."""

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
of the kernel names it (which a call in the statement could change it through); a `&mut`
of the whole, or a lending elsewhere, leaves the parameter as it is, which
scalarize-aggregates refuses (E5010).
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
            stmts = _lending(fn, p.name)
            if stmts:
                root = L["Deref"](L["Local"](p.name, span=p.span), span=p.span)
                st.copied.setdefault(fn.name, {})[p.name] = (_literal(shape, root),
                                                             strip(ty.inner))
                st.stmts |= {id(s) for s in stmts}
    return run.rebuild(program)


def _whole(e, name: str) -> bool:
    """Whether e is `&(*name)`: a shared reference to the whole aggregate."""
    return e._prod == "Borrow" and not e.mutable and e.value._prod == "Deref" and \
        e.value.value._prod == "Local" and e.value.value.name == name


def _lending(fn, name: str) -> list:
    """The statements of fn lending the aggregate of `name` whole that a copy made before
    them may stand in for; empty where one cannot."""
    if any(n._prod == "Closure" and any(m._prod == "Local" and m.name == name
                                        for m in descendants(n)) for n in descendants(fn)):
        return []
    wholes = {id(n) for n in descendants(fn.body) if _whole(n, name)}
    found, seen = [], set()
    for s in descendants(fn.body):
        if s._prod not in _ONCE or id(s) in seen:
            continue
        inner = [n for n in descendants(s) if id(n) in wholes]
        if not inner:
            continue
        if not _read_only(s, name):
            return []
        found.append(s)
        seen |= {id(n) for n in descendants(s)}
        wholes -= {id(n) for n in inner}
    return found if not wholes else []


def _read_only(s, name: str) -> bool:
    """Whether statement s names the aggregate of `name` only to read it: no assignment to
    it (in a block inside too) and no `&mut` of it or of a part."""
    return not any((n._prod == "Assign" and n.target or
                    n._prod == "Borrow" and n.mutable and n.value) and any(
        m._prod == "Local" and m.name == name for m in descendants(
            n.target if n._prod == "Assign" else n.value)) for n in descendants(s))


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
    name = e.value.value.name if e.value._prod == "Deref" and \
        e.value.value._prod == "Local" else None
    if name in copies and _whole(e, name):
        return e.replace(value=L["Local"](copies[name], span=e.value.span))
    return run.rebuild(e)
