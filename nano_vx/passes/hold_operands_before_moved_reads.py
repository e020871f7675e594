"""hold-operands-before-moved-reads: Lsafe -> Lsafe.

Same IL: each operand held is a `let` of Lsafe computing it, read by its local where it was,
in the order the interpreter computed it; the interpreter runs the output as it ran the
input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import unused_name
from ..languages.lsafe import Lsafe as L
from ..nanopass import Pass, descendants
from ..nanopass.verify import child_nodes
from ..scalars.closures import bound_in
from ..scalars.moved_flags import (IN_ORDER, LEAVES, collect, flagged_variables, late_reads,
                                   quiet_references, through_references)

# The statements computing one expression first, and its field.
_ONE_VALUE = {"Let": "value", "ExprStmt": "expr", "Return": "value", "If": "cond"}


@dataclass
class State:
    found: object = None  # the variables of each function given a moved-flag, the flags lent
    flagged: set = field(default_factory=set)  # those of the function walked
    taken: set = field(default_factory=set)  # the names of the function walked
    quiet: frozenset = frozenset()  # its references that cannot stop (quiet_references)
    through: frozenset = frozenset()  # its flagged reference parameters (through_references)


hold_operands_before_moved_reads = Pass("hold-operands-before-moved-reads", L, L, """
Give each operand a statement computes before a read of a variable a closure may move a `let`
of its own before the statement, so that the read is the first thing the statement computes,
where track-moved-captures checks it.

track-moved-captures checks the moved-flag of such a variable (one a closure moves, or reads
when a `transfer`, itself or a kernel's, moves it) before the statement reading it, which is
where the interpreter reads it only when nothing the statement computes comes first. In a
`let`, an expression statement, a `return`, an `if`'s condition or a block's value, each
operand computed whole before the read, on the way down to it (a call's argument, an
operator's left, an element read, a tuple's element), is held by `let operand = ..;` before
the statement, in order, and read by its local: `keep(u[0], transfer(t, ..))` is
`let operand = u[0];` then `keep(operand, transfer(t, ..))`. A read on the right of `&&`
(`||`) runs only after the left, and only when it is true (false): the operator is held as
`let operand = if a { b } else { false };` (`if a { true } else { b }`), whose arm reads the
variable first. A reference to an element at literal indices within its extents (`&u[1]`
of a `Tensor<i32, [2]>`) cannot stop, and stays where it is; one to an element of a
variable no closure moves at other indices (`&u[i]`), or through a reference naming none
(`&(*v)[i]`), is held as any operand, a reference local locating the element (its index
checked there). An operand that is another reference, or of literals alone (its type is
its context's), and a read in another statement (an assignment, a loop's condition), are
left as they are, and track-moved-captures refuses them (E5010).
""", state=State)


@hold_operands_before_moved_reads.on("Program")
def _program(run, program):
    run.state.found = flagged_variables(program)
    return run.rebuild(program)


@hold_operands_before_moved_reads.on("Fn")
def _fn(run, fn):
    st = run.state
    st.flagged = st.found.flagged.get(fn.name, set())
    if not st.flagged:
        return fn
    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    st.quiet = quiet_references(fn, st.flagged)
    st.through = through_references(fn, st.found)
    return run.rebuild(fn)


@hold_operands_before_moved_reads.on("Block")
def _block(run, block):
    st = run.state
    stmts = []
    for s in block.stmts:
        field = _ONE_VALUE.get(s._prod)
        if field is not None and getattr(s, field) is not None:
            held, value = _hoisted(st, getattr(s, field))
            stmts += held
            s = s.replace(**{field: value})
        stmts.append(s)
    value = block.value
    if value is not None:
        held, value = _hoisted(st, value)
        stmts += held
    return run.rebuild(block.replace(stmts=tuple(stmts), value=value))


def _hoisted(st: State, e) -> tuple[list, object]:
    """The `let`s of the operands e computes before a read of a flagged variable a check
    before the statement would come too early for, and e reading their locals instead."""
    held = []
    while True:
        events: list = []
        collect(st.flagged, st.found.lent, {}, e, events, quiet=st.quiet, through=st.through)
        late = {id(ev[2]) for ev in late_reads(events)}
        late = next((ev for ev in events if ev[0] == "read" and (ev[3] or id(ev[2]) in late)),
                    None)
        path = _path(e, late[2]) if late is not None else None
        if path is None:
            return held, e
        lets: list = []
        rebuilt = _operands_held(st, path, lets)
        if rebuilt is None or not lets:
            return held, e
        held += lets
        e = rebuilt


def _path(e, target):
    """The nodes from e down to target (by identity), or None."""
    if e is target:
        return [e]
    for c in child_nodes(e):
        below = _path(c, target)
        if below is not None:
            return [e] + below
    return None


def _operands_held(st: State, path: list, lets: list):
    """path[0] with each operand computed before path[1] held in a `let` appended to lets,
    and path[1] rebuilt likewise; None where that would change what runs or its types."""
    node = path[0]
    if len(path) == 1:
        return node
    on_path = path[1]
    if node._prod == "Binary" and node.op in ("&&", "||"):
        return _choice_held(st, node, path, lets)
    # `a[i][j]` locates both indices once both are computed: `a[i]` held would check i first.
    if node._prod not in IN_ORDER or node._prod == "Index" and node.base._prod == "Index" \
            and on_path is node.index:
        return None
    before = []
    for c in child_nodes(node):
        if c is on_path:
            break
        before.append(c)
    if any(c._prod == "Borrow" and id(c) not in st.quiet and not _element(st, c) or
           node._prod == "Call" and c is node.callee and c._prod not in LEAVES or
           c._prod not in LEAVES and
           not any(n._prod in ("Local", "Global") for n in descendants(c)) for c in before):
        return None
    swap = {}
    for c in before:
        if c._prod not in LEAVES and id(c) not in st.quiet:
            name = unused_name("operand", st.taken)
            st.taken.add(name)
            lets.append(L["Let"](name, False, L["OpaqueType"](span=c.span), c, span=c.span))
            swap[id(c)] = L["Local"](name, span=c.span)
    below = _operands_held(st, path[1:], lets)
    if below is None:
        return None
    swap[id(on_path)] = below
    return _with_children(node, swap)


def _element(st: State, e) -> bool:
    """`e` is `&u[i]` (`&mut u[i][j]`) of a variable no closure moves, or an element through
    a reference naming none (`&(*v)[i]`, `&(*same(&u))[i]`: a reference to a flagged variable
    is lent where it is made, which track-moved-captures checks or refuses there): held by a
    `let`, it locates the element (an index out of bounds stops there) before the read."""
    base, indexed = e.value, False
    while base._prod == "Index":
        base, indexed = base.base, True
    if base._prod == "Deref":
        return indexed and not any(n._prod == "Local" and n.name in st.flagged
                                   for n in descendants(base))
    return indexed and base._prod == "Local" and base.name not in st.flagged


def _choice_held(st: State, node, path: list, lets: list):
    """`a && b` (`a || b`) on the way to a read: down its left, which runs first, or, the read
    in its right, held as `let operand = if a { b } else { false };` (`if a { true } else
    { b }`), whose arm reads the variable first, where its check goes."""
    if path[1] is node.left:
        below = _operands_held(st, path[1:], lets)
        return None if below is None else _with_children(node, {id(node.left): below})
    span = node.span
    right = L["Block"]((), node.right, span=node.right.span)
    known = L["Block"]((), L["Bool"](node.op == "||", span=span), span=span)
    then, orelse = (right, known) if node.op == "&&" else (known, right)
    name = unused_name("operand", st.taken)
    st.taken.add(name)
    lets.append(L["Let"](name, False, L["OpaqueType"](span=span),
                         L["IfExpr"](node.left, False, then, orelse, span=span), span=span))
    return L["Local"](name, span=span)


def _with_children(node, swap: dict):
    """node with each child whose id() swap names replaced."""
    changed = {}
    for f in node._fields:
        v = getattr(node, f)
        if isinstance(v, tuple):
            if any(id(c) in swap for c in v):
                changed[f] = tuple(swap.get(id(c), c) for c in v)
        elif id(v) in swap and swap[id(v)] is not v:
            changed[f] = swap[id(v)]
    return node.replace(**changed) if changed else node
