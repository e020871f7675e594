"""copy-rest-into-repointing-arms: Lmatched -> Lmatched.

Same IL: an `if` statement none of whose arms leaves runs one arm and then what followed it,
so each arm followed by its copy of the rest is the same program; and after the assignment
the rest of its arm reads the reference it gave, which the `let` replacing it binds."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names, Shapes, strip
from ..scalars.storages import bound_locals, fresh_copy
from ..scalars.whole_tensors import assigned_whole, parents_of


@dataclass
class State:
    shapes: Shapes | None = None
    moved: dict = field(default_factory=dict)  # id of an `if` to write -> its reference's `let`
    names: Names | None = None


copy_rest_into_repointing_arms = Pass("copy-rest-into-repointing-arms", L, L, """
Write what follows an `if` statement an arm of which makes a `let mut` reference to a struct
or tuple holding a tensor refer elsewhere into each of its arms, the assignment a `let` of a
local of its own that the rest of its arm reads, so that inline-aggregate-references writes
each as the place it names.

`let mut r = &mut a; if c { r = &mut b; } r.cells = t;` is `let r = &mut a; if c { let r#1 =
&mut b; r#1.cells = t; } else { r.cells = t; }`: scalarize-aggregates would make the
reference a `&mut` per part, the tensor's referring to the variable holding the buffer,
through which native code assigns no whole tensor. It is for a reference bound to a borrow
(`&mut a`, `&mut a.inner`) through which a tensor it reaches may be assigned whole (as
split-repointed-references asks), that assignments of borrows make to refer elsewhere: the
first a statement of an arm of an `if` statement of the `let`'s block none of whose arms
leaves (`return`, `break`, `continue`), the others statements of that block after the `if`
(`r = &mut a;`, a `let` of its own in each arm's copy), the reference not lent nor read by a
closure; the second arm's copy of the rest binds its locals under names of its own, and
where the block has a value the `if` becomes it. A function with more than
four such `if`s is left as it is (each writes the rest of its block twice), for
scalarize-aggregates to refuse.
""", state=State)

# Each `if` written so writes the rest of its block twice: a function with more is left as
# it is rather than grow 2**n copies.
MOST = 4

_LEAVING = ("Return", "Break", "Continue")


@copy_rest_into_repointing_arms.on("Program")
def _program(run, program):
    run.state.shapes = Shapes(program)
    return run.rebuild(program)


@copy_rest_into_repointing_arms.on("Fn")
def _fn(run, fn):
    st = run.state
    st.moved = _moved(fn, st.shapes)
    if not 0 < len(st.moved) <= MOST:
        return fn
    st.names = Names(fn)
    return run.rebuild(fn)


def _moved(fn, shapes: Shapes) -> dict:
    """Each `if` statement to write, by id, and the `let` of the reference one of its arms
    assigns: a `let mut` of fn's reference to an aggregate holding a tensor that may be
    assigned whole through it, bound to a borrow, whose only assignment, of a borrow, is a
    statement of an arm of an `if` statement of the `let`'s block."""
    lets, ifs, parents = {}, {}, parents_of(fn)
    for block in (n for n in descendants(fn.body) if n._prod == "Block"):
        for s in block.stmts:
            if s._prod == "Let" and s.mutable and _borrow(s.type) and \
                    s.value._prod == "Borrow" and \
                    assigned_whole(fn, s.name, shapes.of(s.type), parents):
                lets[s.name] = (s, block)
            elif s._prod == "If" and not s.comptime:
                ifs.update({id(a): (s, block) for arm in (s.then, s.orelse)
                            if arm is not None for a in arm.stmts})
    kept = {n.value.name for n in descendants(fn.body)
            if n._prod == "Borrow" and n.value._prod == "Local"} | \
        {x.name for c in descendants(fn.body) if c._prod == "Closure"
         for x in descendants(c.body) if x._prod == "Local"}
    assigns = {}
    for n in descendants(fn.body):
        if n._prod == "Assign" and n.target._prod == "Local" and n.target.name in lets:
            assigns.setdefault(n.target.name, []).append(n)
    moved = {}
    for name, found in assigns.items():
        let, block = lets[name]
        s, at = ifs.get(id(found[0]), (None, None))
        # Those after the arm's, statements of the block after the `if`, each become a `let`
        # in each arm's copy of the rest.
        later = block.stmts[block.stmts.index(s) + 1:] if at is block else ()
        if all(a.op == "=" and a.value._prod == "Borrow" for a in found) and \
                all(any(a is t for t in later) for a in found[1:]) and \
                at is block and name not in kept and id(s) not in moved and \
                not any(n._prod in _LEAVING for n in descendants(s)):
            moved[id(s)] = let
    return moved


def _borrow(ty) -> bool:
    ty = strip(ty)
    return ty is not None and ty._prod == "BorrowType"


@copy_rest_into_repointing_arms.on("Block")
def _block(run, block):
    st = run.state
    at = next((i for i, s in enumerate(block.stmts) if id(s) in st.moved), None)
    if at is None:
        return run.rebuild(block)
    s, let = block.stmts[at], st.moved[id(block.stmts[at])]
    rest = L["Block"](block.stmts[at + 1:], block.value, span=s.span)
    copy = fresh_copy(rest, {old: st.names.fresh(old.split("#")[0])
                             for old in bound_locals(rest)})
    orelse = s.orelse if s.orelse is not None else L["Block"]((), None, span=s.span)
    then, orelse = _arm(st, s.then, rest, let), _arm(st, orelse, copy, let)
    stmts = tuple(s2.replace(mutable=False) if s2 is let else s2 for s2 in block.stmts[:at])
    if block.value is None:
        return run.rebuild(block.replace(stmts=stmts + (s.replace(then=then, orelse=orelse),)))
    return run.rebuild(block.replace(stmts=stmts, value=L["IfExpr"](s.cond, False, then, orelse,
                                                                    span=s.span)))


def _arm(st, arm, rest, let):
    """The arm followed by `rest`, each assignment of one of its statements to the reference
    of `let` a `let` of a local of its own, which what follows it reads."""
    arm = arm.replace(stmts=arm.stmts + rest.stmts, value=rest.value)
    name = let.name
    while (at := next((i for i, s in enumerate(arm.stmts) if s._prod == "Assign" and
                       s.target._prod == "Local" and s.target.name == name), None)) is not None:
        assign, name = arm.stmts[at], st.names.fresh(let.name.split("#")[0])
        # A type inference chose is marked by its `let`'s span (`~T`): this one's too.
        ty = let.type.replace(span=assign.span) if let.type.span == let.span else let.type
        after = L["Block"](arm.stmts[at + 1:], arm.value, span=arm.span)
        after = fresh_copy(after, {assign.target.name: name})
        bound = L["Let"](name, False, ty, assign.value, span=assign.span)
        arm = arm.replace(stmts=(*arm.stmts[:at], bound, *after.stmts), value=after.value)
    return arm
