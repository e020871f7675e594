"""rebind-assigned-closure-variables: Lpinned -> Lpinned.

Same IL: no closure reads the variable and nothing borrows it, so each read after an
assignment of its block reads the value that assignment gave it, which the `let` replacing
the assignment binds; the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..languages.lresolved import display_name, unused_name
from ..nanopass import Pass, descendants
from ..scalars.closures import bound_in, given_both_kinds
from ..scalars.storages import fresh_copy


@dataclass
class State:
    fns: frozenset = frozenset()  # the program's functions: a `Global` naming one is a value
    rebound: frozenset = frozenset()  # the function's locals whose assignments become `let`s
    types: dict = field(default_factory=dict)  # each such local -> its `let`'s type
    taken: set = field(default_factory=set)  # the names of the function's locals


rebind_assigned_closure_variables = Pass("rebind-assigned-closure-variables", L, L, """
Write each assignment of a variable a `let mut` binds to a function or a closure, assigned
only by statements of its own block (or of an arm of an `if` ending it, and so on down) a
function named or a closure written there, given both kinds so, as a `let` of a variable of
its own, which the reads after it read; the `let mut` of it is then a `let`.

`let mut g = add; show(g, 1); g = |a: i32, b: i32| a - b; show(g, 2);` is `let g = add;
show(g, 1); let g#1 = |a: i32, b: i32| a - b; show(g#1, 2);`, so copy-closures-per-argument-
kind knows the kind each call gives show (a `let mut` holds either). An assignment in an
arm of an `if` that ends the block (as copy-rest-into-closure-assigning-arms writes one
followed by the rest) is followed only by what follows it in its arm; one in a loop, or in an
`if` that something follows, may be read after its arm, and its variable stays as it is, as
does a variable a closure reads (a closure reads its variables when called) or that is
borrowed.
""", state=State)


@rebind_assigned_closure_variables.on("Program")
def _program(run, program):
    run.state.fns = frozenset(item.name for item in program.items if item._prod == "Fn")
    return run.rebuild(program)


@rebind_assigned_closure_variables.on("Fn")
def _fn(run, fn):
    st = run.state
    st.rebound = _rebound(st, fn)
    st.types = {n.name: n.type for n in descendants(fn) if n._prod == "Let"}
    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    return run.rebuild(fn) if st.rebound else fn


def _rebound(st, fn) -> frozenset:
    """The locals of fn given both kinds (`given_both_kinds`) each assignment of which is
    one of their own (`_own`)."""
    both = given_both_kinds(fn, st.fns)
    own: set = set()
    for block in (n for n in descendants(fn) if n._prod == "Block"):
        _own(block, both & {s.name for s in block.stmts if s._prod == "Let"}, own)
    return both - {n.target.name for n in descendants(fn) if n._prod == "Assign" and
                   n.target._prod == "Local" and id(n) not in own}


def _own(block, names: set, own: set) -> None:
    """Note in `own` each assignment of a variable of `names` that is a statement of block,
    or of an arm of an `if` that ends it, and so on down: what follows the assignment in
    its block is all that runs after it."""
    if not names:
        return
    own.update(id(s) for s in block.stmts if s._prod == "Assign" and
               s.target._prod == "Local" and s.target.name in names)
    last = block.value if block.value is not None else block.stmts[-1] if block.stmts else None
    if last is not None and last._prod in ("If", "IfExpr") and not last.comptime:
        for arm in (last.then, last.orelse):
            if arm is not None:
                _own(arm, names, own)


@rebind_assigned_closure_variables.on("Block")
def _block(run, block):
    st = run.state
    renamed: dict = {}
    stmts = []
    for s in block.stmts:
        if s._prod == "Let" and s.name in st.rebound:
            stmts.append(run.walk(s).replace(mutable=False))
        elif s._prod == "Assign" and s.target._prod == "Local" and s.target.name in st.rebound:
            old = s.target.name
            new = unused_name(display_name(old), st.taken)
            stmts.append(L["Let"](name=new, mutable=False, type=st.types[old].replace(span=s.span),
                                  value=fresh_copy(run.walk(s.value), renamed), span=s.span))
            renamed[old] = new
        else:
            stmts.append(fresh_copy(run.walk(s), renamed) if renamed else run.walk(s))
    value = block.value if block.value is None else run.walk(block.value)
    if renamed and value is not None:
        value = fresh_copy(value, renamed)
    return block.replace(stmts=tuple(stmts), value=value)
