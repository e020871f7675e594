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
(`r = &mut a;`, a `let` of its own in each arm's copy) or of an arm of a later such `if`
statement of it, the reference not lent nor read by a closure; the second arm's copy of the
rest binds its locals under names of its own, and where the block has a value the `if`
becomes it. A later `if` is written so again in each copy, until none is left: its
assignment's `let` is a `let mut`, and an arm whose first assignment is in it borrows again,
as a `let mut` of its own, the variable or field the `let` borrowed, which the reference
still names there (each borrow of the reference names one, no index, or what a reference
nothing assigns nor lends refers to, `&mut *g`, or its field). A function with more than four such `if`s is left
as it is (each writes the rest of its block twice), for scalarize-aggregates to refuse.
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
    if not 0 < sum(n for _, n in st.moved.values()) <= MOST:
        return fn
    # An assignment in an arm of a later `if` is, in each arm's copy of the rest, one in an
    # `if` of the block of that arm's `let`: written again, until none is left.
    while st.moved:
        st.names = Names(fn)
        fn = run.rebuild(fn)
        st.moved = _moved(fn, st.shapes)
    return fn


def _moved(fn, shapes: Shapes) -> dict:
    """Each `if` statement to write, by id, and the `let` of the reference one of its arms
    assigns, with the number of `if`s writing it takes: a `let mut` of fn's reference to an
    aggregate holding a tensor that may be assigned whole through it, bound to a borrow,
    whose first assignment, of a borrow, is a statement of an arm of an `if` statement of
    the `let`'s block, the others statements of that block after it or of an arm of an `if`
    statement of it (then each borrow names a variable or its fields, which a `let` in an arm
    not assigning the reference borrows again)."""
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
    # A reference nothing assigns nor lends names one place wherever it is read.
    moving = {n.target.name for n in descendants(fn.body)
              if n._prod == "Assign" and n.target._prod == "Local"} | kept
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
        armed = {id(t): t for t in later if t._prod == "If" and not t.comptime and
                 not any(n._prod in _LEAVING for n in descendants(t))}
        nested = {id(a) for a in found[1:] if id(a) in ifs and id(ifs[id(a)][0]) in armed}
        later_ifs = {id(ifs[i][0]) for i in nested}
        if all(a.op == "=" and a.value._prod == "Borrow" for a in found) and \
                all(any(a is t for t in later) or id(a) in nested for a in found[1:]) and \
                (not nested or all(_place(b.value.value, moving) for b in (let, *found))) and \
                at is block and name not in kept and id(s) not in moved and \
                not any(n._prod in _LEAVING for n in descendants(s)):
            moved[id(s)] = let, 1 + len(later_ifs)
    return moved


def _place(e, moving: set) -> bool:
    """Whether e names a variable or a field of one, or what a reference not of `moving`
    (assigned or lent) refers to or its field, which a borrow names again alike."""
    while e._prod in ("FieldGet", "TupleGet"):
        e = e.base
    if e._prod == "Deref" and e.value._prod == "Local":
        return e.value.name not in moving
    return e._prod == "Local"


def _borrow(ty) -> bool:
    ty = strip(ty)
    return ty is not None and ty._prod == "BorrowType"


@copy_rest_into_repointing_arms.on("Block")
def _block(run, block):
    st = run.state
    at = next((i for i, s in enumerate(block.stmts) if id(s) in st.moved), None)
    if at is None:
        return run.rebuild(block)
    s, let = block.stmts[at], st.moved[id(block.stmts[at])][0]
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
    of `let` a `let` of a local of its own, which what follows it reads (a `let mut` where
    an `if` after it assigns it; an arm where such an `if` assigns it first borrows again
    what `let` borrowed, as a `let mut` of its own)."""
    arm = arm.replace(stmts=arm.stmts + rest.stmts, value=rest.value)
    name = let.name
    if _assigned_first_in_an_if(arm.stmts, name):
        name = st.names.fresh(let.name.split("#")[0])
        again = L["Let"](name, True, let.type, fresh_copy(let.value), span=let.span)
        arm = fresh_copy(arm, {let.name: name})
        arm = arm.replace(stmts=(again, *arm.stmts))
    while (at := next((i for i, s in enumerate(arm.stmts) if _assigns(s, name)),
                      None)) is not None:
        assign, name = arm.stmts[at], st.names.fresh(let.name.split("#")[0])
        # A type inference chose is marked by its `let`'s span (`~T`): this one's too.
        ty = let.type.replace(span=assign.span) if let.type.span == let.span else let.type
        after = L["Block"](arm.stmts[at + 1:], arm.value, span=arm.span)
        after = fresh_copy(after, {assign.target.name: name})
        bound = L["Let"](name, _assigned_first_in_an_if(after.stmts, name), ty, assign.value,
                         span=assign.span)
        arm = arm.replace(stmts=(*arm.stmts[:at], bound, *after.stmts), value=after.value)
    return arm


def _assigns(s, name: str) -> bool:
    return s._prod == "Assign" and s.target._prod == "Local" and s.target.name == name


def _assigned_first_in_an_if(stmts, name: str) -> bool:
    """Whether a statement among stmts assigns local `name` inside it (an `if`'s arm) before
    one assigns it as a statement."""
    first = next((i for i, s in enumerate(stmts) if _assigns(s, name)), len(stmts))
    return any(_assigns(n, name) for s in stmts[:first] for n in descendants(s))
