"""split-repointed-references: Lmatched -> Lmatched.

Same IL: each `let` binds the reference the assignment it replaces gave the variable, and
each read after it, up to the next, reads that `let`'s local where it read the variable, so
the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..derivatives.code import substitute
from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names, Shapes, strip
from ..scalars.whole_tensors import assigned_whole, parents_of


@dataclass
class State:
    shapes: Shapes | None = None
    split: set = field(default_factory=set)  # the current function's references to split
    names: Names | None = None


split_repointed_references = Pass("split-repointed-references", L, L, """
Give a `let mut` reference to a struct or tuple holding a tensor, which only statements of
its own block make to refer elsewhere, a `let` per place it is given, where a tensor it
reaches may be assigned whole through it (itself, or a part holding one, assigned, lent or
passed on): `let mut r = &mut a; r.cells = t; r = &mut b;
reset(r);` is `let r = &mut a; r.cells = t; let r#1 = &mut b; reset(r#1);`, so that
inline-aggregate-references writes each as the place it names.

scalarize-aggregates makes such a reference a `&mut` per part, the tensor's referring to
the variable holding the buffer, through which native code assigns no whole tensor, nor
tells a buffer another local holds from the one it lends. A reference assigned inside a
nested block (a loop's turn, an arm: copy-rest-into-repointing-arms made `let`s of those an
arm of an `if` and the statements after it give it), lent, or read by a closure (which may run after a later
assignment) stays.
""", state=State)


@split_repointed_references.on("Program")
def _program(run, program):
    run.state.shapes = Shapes(program)
    return run.rebuild(program)


@split_repointed_references.on("Fn")
def _fn(run, fn):
    st = run.state
    st.split = _repointed(fn, st.shapes)
    if not st.split:
        return fn
    st.names = Names(fn)
    return run.rebuild(fn)


def _repointed(fn, shapes: Shapes) -> set:
    """The `let mut` references to an aggregate holding a tensor of fn that an assignment
    makes to refer elsewhere, each such assignment a statement of the `let`'s block, none
    lent nor read by a closure, and some tensor it reaches may be assigned whole through
    it (a read of it, or of an element, or an element's write, reads or writes the tensor
    it refers to then, through the `&mut` per part as each scalar's)."""
    lets, nested, kept = {}, set(), set()
    parents = parents_of(fn)
    for n in descendants(fn.body):
        if n._prod == "Block":
            for s in n.stmts:
                if s._prod == "Let" and s.mutable and _reference(s.type) and \
                        assigned_whole(fn, s.name, shapes.of(s.type), parents):
                    lets[s.name] = n
        elif n._prod == "Borrow" and n.value._prod == "Local":
            kept.add(n.value.name)
        elif n._prod == "Closure":
            kept |= {x.name for x in descendants(n.body) if x._prod == "Local"}
    assigned = set()
    for n in descendants(fn.body):
        if n._prod == "Block":
            for s in n.stmts:
                if s._prod == "Assign" and s.target._prod == "Local" and s.target.name in lets:
                    assigned.add(s.target.name)
                    if s.op != "=" or lets[s.target.name] is not n:
                        nested.add(s.target.name)
    return assigned - nested - kept


def _reference(ty) -> bool:
    ty = strip(ty)
    return ty is not None and ty._prod == "BorrowType"


@split_repointed_references.on("Block")
def _block(run, block):
    st = run.state
    if not any(s._prod == "Let" and s.name in st.split for s in block.stmts):
        return run.rebuild(block)
    stmts, rename, types, starts = [], {}, {}, {}
    for s in block.stmts:
        if s._prod == "Let" and s.name in st.split:
            types[s.name], starts[s.name] = s.type, s.span
            stmts.append(run.walk(s.replace(mutable=False, value=substitute(s.value, rename))))
            continue
        if s._prod == "Assign" and s.target._prod == "Local" and s.target.name in types:
            value = run.walk(substitute(s.value, rename))
            rename[s.target.name] = st.names.fresh(s.target.name)
            ty = types[s.target.name]
            # A type inference chose is marked by its `let`'s span (`~T`): this one's too.
            ty = ty.replace(span=s.span) if ty.span == starts[s.target.name] else ty
            stmts.append(L["Let"](rename[s.target.name], False, ty, value, span=s.span))
            continue
        stmts.append(run.walk(substitute(s, rename)))
    value = block.value
    if value is not None:
        value = run.walk(substitute(value, rename))
    return block.replace(stmts=tuple(stmts), value=value)
