"""track-moved-captures: Lsafe -> Lsafe.

Same IL: a moved-flag is an ordinary `i32` local the `transfer`s assign, and a read after a
move is an `if` around a `Halt`, all productions Lsafe has; the interpreter runs the output
as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import display_name, unused_name
from ..languages.lsafe import Lsafe as L
from ..nanopass import Pass, descendants
from ..scalars import refuse
from ..scalars.aggregates import fresh_item
from ..scalars.closures import bound_in, names
from ..scalars.storages import fresh_copy
from ..nanopass.verify import child_nodes
from ..scalars.moved_flags import (IN_ORDER, LEAVES, collect, flagged_variables, given,
                                   given_name, late_reads, moved_name, quiet_references,
                                   through_references)

# The expression a statement computes first.
_FIRST = {"Let": "value", "ExprStmt": "expr", "Return": "value", "If": "cond", "While": "cond",
          "Assign": "value"}
# The expressions each statement computes itself, in order (its blocks are blocks of their
# own); an assignment computes its value before the place it writes.
_COMPUTES = {"ExprStmt": ("expr",), "Let": ("value",), "If": ("cond",), "Return": ("value",),
             "Assert": ("cond",), "Assume": ("cond",), "For": ("start", "end"),
             "Assign": ("value", "target")}


@dataclass
class State:
    fn: str = ""
    flags: dict = field(default_factory=dict)  # a variable a closure may move -> its flag
    sites: dict = field(default_factory=dict)  # id() of each transfer of one -> its number
    stops: dict = field(default_factory=dict)  # such a variable -> (number, message) of each
    found: object = None  # the variables of each function given a flag, the flags lent
    numbers: dict = field(default_factory=dict)  # id() of each transfer of a flagged variable
    # -> its number, within the flag of the function that binds the variable
    reached: dict = field(default_factory=dict)  # (function, variable) -> the transfers its
    # flag numbers (the function's own, then those of the kernels it lends the flag, in
    # order), and a lent flag those of the flag it is
    ref: set = field(default_factory=set)  # the flags of the function walked that are
    # references to its launcher's
    fns: dict = field(default_factory=dict)  # the program's functions by name
    quiet: frozenset = frozenset()  # the references of the function walked that cannot stop
    through: frozenset = frozenset()  # its flagged variables that are reference parameters
    copies: dict = field(default_factory=dict)  # (function, variable, callee, index) -> the
    # copy of the callee checking, where it reads through that parameter, the flag it is given
    redirected: dict = field(default_factory=dict)  # id() of a call -> (copy, variable)


track_moved_captures = Pass("track-moved-captures", L, L, """
Give each variable a closure moves (a `transfer` of one it captures), or reads when a
`transfer` moves it, a moved-flag, set by each `transfer` of it and checked by each read, so
that native code stops where the interpreter stops on a read of it after it moved (E9004;
E5010 for a read it cannot check).

The checker refuses a use after a move it sees (E4001), but not the move of a closure called
twice, or in a loop, nor a closure's read after a move: the interpreter's frame then holds the
moved mark the move left, and the read stops. `let t = ..;` (a parameter, a loop variable)
is followed by `let mut t_moved: i32 = 0;`; the n-th `transfer(t, ..)` of the function, in
source order, is preceded by `t_moved = n;`, a plain assignment `t = ..;` followed by
`t_moved = 0;` (t holds a value again), and a statement reading t (a block's value alike)
by a check of each n,
`if t_moved == n { halt E9004 }`, with the message naming where that transfer moved t. So the
check runs where the read does only when the read is the first thing its statement computes
(names and literals, other such reads, before it), which hold-operands-before-moved-reads
makes it where it can (a reference to an element at literal indices within its extents
cannot stop, and counts for nothing): a read after anything else (literals alone, what an
assignment computes first), or in a loop's condition, is refused (E5010), and so is a reference to t (the interpreter stops where the
reference is read, which may be in another function; erase-tensor-references, after this
pass, makes a tensor's one the tensor itself) but one lent to a function (`total(&t)`) whose
body reads through it first in a statement of its own, after statements not naming it, and
neither moves through it nor lends it on: the call is of a copy of the function given the
flag (by value: the function cannot move t), which checks it before that statement, where
the interpreter stops (`total` starting `print(5); x[0] + ..`; a first statement assigning
an element, `x[0] = ..`, stops before computing its value, where the assignment is). Such a
statement may be in the body of a loop or an arm of an `if` whose head does not name the
reference: the copy checks before the first such statement of each block, and before the
first after the loop or the `if` (which may have run no turn, or taken the other arm); a
`while` (an `if`) whose condition reads through it first is checked before, where its
condition first runs (the callee cannot move t: the flag stays as it is given); a read
later in a loop's (or an `if`'s) head, or a statement naming it otherwise (a closure reading
it), is refused.
lift-closures then passes the flag by reference to a closure that moves t, and by value to
one that reads it.

A launch moves the variable it gives a kernel that moves its parameter (itself, or through
the kernels it launches), as the spawn's body did in the launching frame, where native code's
kernel moves its own copy; so a variable so moved that a closure of the launcher reads (after
the launch: a read the checker does not see) is flagged. A kernel given a flagged variable is
lent the launcher's flag: a `&mut i32` parameter after the others, given `&mut t_moved` (or,
by a kernel lent it, the reference itself), which the kernel's `transfer`s of its parameter
set (numbered after the launcher's own, in the order of the launches) and its reads check:
the launch gives the variable moved or not, as the interpreter's does, whose kernel stops
where it reads a moved one. A kernel given `&mut t` (its spawn's body assigns `t`, or lends
it) is lent the flag beside it alike: its `transfer(*t, ..)` (a copied closure's too) moves
the launcher's `t` and sets the flag, `*t = ..` clears it, `*t` and `t[i]` read and check it,
and `t` alone lends it (to a copy of a function, as above).
""", state=State)


@track_moved_captures.on("Program")
def _program(run, program):
    st = run.state
    st.found = found = flagged_variables(program)
    st.fns = fns = {i.name: i for i in program.items if i._prod == "Fn"}
    launches = {name: [n for n in descendants(fn.body) if n._prod == "Launch"]
                for name, fn in fns.items()}
    st.reached = {(name, var): _reached(st, fns, launches, name, var)
                  for name in fns for var in found.flagged[name]}
    for (name, var), reached in st.reached.items():
        if var not in found.lent.get(name, ()):
            st.numbers.update((id(n), number) for number, n in enumerate(reached, 1))
    st.reached = {key: st.reached[_root(st, key)] for key in st.reached}
    program = run.rebuild(program)
    if not st.copies:
        return program
    items = []
    for item in program.items:
        items += [item] + [copy for key, copy in st.copies.items() if key[2] == item.name]
    return program.replace(items=tuple(items))


def _root(st: State, key: tuple) -> tuple:
    """The function and the variable whose flag the flag of `key` is, lent."""
    while key in st.found.origin:
        key = st.found.origin[key]
    return key


def _reached(st: State, fns: dict, launches: dict, name: str, var: str) -> list:
    """The transfers the flag of `var` in function `name` numbers: its own (in source order),
    then those of each kernel it lends the flag, in the order of their launches."""
    reached = [n for n in descendants(fns[name].body)
               if n._prod == "Transfer" and moved_name(n.value, name in st.found.kernels) == var]
    for launch in launches[name]:
        for _, var_given, param in given(fns, launch):
            if var_given == var and param in st.found.lent.get(launch.kernel, ()):
                reached += _reached(st, fns, launches, launch.kernel, param)
    return reached


@track_moved_captures.on("Fn")
def _fn(run, fn):
    st = run.state
    moved = st.found.flagged.get(fn.name)
    if not moved:
        return fn
    taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    st.fn = fn.name
    st.quiet = quiet_references(fn, moved)
    st.through = through_references(fn, st.found)
    st.flags = {name: unused_name(f"{display_name(name)}_moved", taken) for name in moved}
    st.ref = set(st.found.lent.get(fn.name, ()))
    kernel = fn.name in st.found.kernels
    st.sites = {id(n): st.numbers[id(n)] for n in descendants(fn.body)
                if n._prod == "Transfer" and moved_name(n.value, kernel) in moved}
    st.stops = {name: [(st.numbers[id(n)], f"use of '{display_name(moved_name(n.value))}' after it "
                        f"moved to Memory::{n.dest.name} at {n.span}")
                       for n in st.reached[(fn.name, name)]] for name in moved}
    body = run.walk(fn.body)
    lent = tuple(L["Param"](st.flags[p], L["BorrowType"](L["Scalar"]("i32", span=fn.span),
                                                            True, span=fn.span), span=fn.span)
                 for p in st.found.lent.get(fn.name, ()))
    return fn.replace(params=fn.params + lent,
                      body=_flagged_first(st, [p.name for p in fn.params], body))


@track_moved_captures.on("Launch")
def _launch(run, launch):
    """A launch lending its kernel flags: the launcher's, or the reference it was lent."""
    st, span = run.state, launch.span
    launch = run.rebuild(launch)
    lent = []
    for i in st.found.lent.get(launch.kernel, {}).values():
        var = given_name(launch.args[i])
        flag = L["Local"](st.flags[var], span=span)
        lent.append(flag if var in st.ref else L["Borrow"](flag, True, span=span))
    return launch.replace(args=launch.args + tuple(lent)) if lent else launch


def _flag_let(st: State, name: str, span):
    return L["Let"](st.flags[name], True, L["Scalar"]("i32", span=span), L["Int"](0, span=span),
                    span=span)


def _flag(st: State, name: str, span):
    """The flag of `name`: a local, or the launcher's, through the reference a kernel is lent."""
    flag = L["Local"](st.flags[name], span=span)
    return L["Deref"](flag, span=span) if name in st.ref else flag


def _set(st: State, name: str, number: int, span):
    return L["Assign"](_flag(st, name, span), "=", L["Int"](number, span=span), span=span)


def _flagged_first(st: State, names, block):
    """block, its statements first binding the flags of those of `names` that have one of
    their own."""
    lets = tuple(_flag_let(st, n, block.span) for n in names
                 if n in st.flags and n not in st.ref)
    return block.replace(stmts=lets + block.stmts) if lets else block


@track_moved_captures.on("Closure")
def _closure(run, closure):
    body = run.walk(closure.body)
    return closure.replace(body=_flagged_first(run.state, [p.name for p in closure.params], body))


@track_moved_captures.on("Block")
def _block(run, block):
    st = run.state
    stmts = []
    for s in block.stmts:
        stmts += _before(run, s, [getattr(s, f) for f in _COMPUTES.get(s._prod, ())])
        if s._prod == "While" and _events(st, s.cond):
            refuse(run.ctx.diagnostics, st.fn, s.cond,
                   "a use, in a loop's condition, of a variable a closure may move")
        s = run.walk(s)
        if s._prod == "For" and s.var in st.flags:
            s = s.replace(body=_flagged_first(st, [s.var], s.body))
        stmts.append(s)
        if s._prod == "Let" and s.name in st.flags:
            stmts.append(_flag_let(st, s.name, s.span))
        elif _written(st, s) is not None:
            stmts.append(_set(st, _written(st, s), 0, s.span))
    value = block.value
    if value is not None:
        stmts += _before(run, block, [value])
        value = run.walk(value)
    return block.replace(stmts=tuple(stmts), value=value)


def _written(st: State, s):
    """The flagged variable an assignment gives a value again (`t = ..`, `*t = ..` through a
    reference parameter), if it is one."""
    if s._prod != "Assign" or s.op != "=":
        return None
    name = s.target.name if s.target._prod == "Local" else \
        moved_name(s.target) if s.target._prod == "Deref" and moved_name(s.target) in st.through \
        else None
    return name if name in st.flags else None


def _before(run, at, exprs) -> list:
    """The checks and flag settings a statement (or a block's value) computing `exprs`
    needs before it; E5010 for a read they would check too early."""
    st = run.state
    events = []
    for e in exprs:
        if e is None:
            continue
        if e is getattr(at, "target", None) and _written(st, at) is not None:
            continue  # written, not read
        collect(st.flags, st.found.lent, st.sites, e, events, quiet=st.quiet,
                through=st.through)
    unchecked = next((e for e in events if e[0] == "lent" and
                      not _checked_in_a_copy(st, exprs, e)), None)
    if unchecked is not None:
        refuse(run.ctx.diagnostics, st.fn, unchecked[2],
               f"a reference to '{display_name(unchecked[1])}', which a closure may move")
        return []
    events = [e for e in events if e[0] != "lent"]
    reads = [e for e in events if e[0] == "read"]
    if not reads:
        return []
    late = late_reads(events) + [e for e in reads if e[3]]
    moves = [e for e in events if e[0] == "move"]
    late += [e for e in moves if sum(r[1] == e[1] for r in reads) > 1]
    if late:
        refuse(run.ctx.diagnostics, st.fn, late[0][2],
               f"a read of '{display_name(late[0][1])}', which a closure may move, not the "
               f"first thing its statement computes")
        return []
    out, checked = [], set()
    for _, name, node, _ in reads:
        if name in checked:
            continue
        checked.add(name)
        out += [_check(_flag(st, name, node.span), number, message, node.span)
                for number, message in st.stops[name]]
    out += [_set(st, name, st.sites[id(node)], node.span) for _, name, node, _ in moves]
    return out


def _check(flag, number: int, message: str, span):
    """`if flag == number { halt E9004 }`: the stop of a read after the move numbered so."""
    cond = L["Binary"]("==", flag, L["Int"](number, span=span), span=span)
    halt = L["Block"]((L["Halt"]("E9004", message, span=span),), None, span=span)
    return L["If"](cond, False, halt, None, span=span)


def _checked_in_a_copy(st: State, exprs, event) -> bool:
    """Whether the reference `event` lends is an argument of a call whose callee (flagged
    nothing itself, its result no reference) reads through it first in a statement of its
    body, after statements not naming it (`total(&t)`, `total` starting `print(5); x[0] +
    ..`): the call is then of a copy of the callee given the flag, which checks it before
    that statement, where the interpreter stops (E9004, naming the caller's variable)."""
    node, var = event[2], event[1]
    call = next((n for e in exprs if e is not None for n in descendants(e)
                 if n._prod == "Call" and any(a is node for a in n.args)), None)
    fn = st.fns.get(call.callee.name) if call is not None and \
        call.callee._prod == "Global" else None
    if fn is None or st.found.flagged.get(fn.name) or len(fn.params) != len(call.args) or \
            getattr(fn.ret, "_prod", None) == "BorrowType":
        return False
    index = next(i for i, a in enumerate(call.args) if a is node)
    key = (st.fn, var, fn.name, index)
    if key not in st.copies:
        copy = _copy_checking(st, fn, fn.params[index].name, var)
        if copy is None:
            return False
        st.copies[key] = copy
    st.redirected[id(call)] = (st.copies[key].name, var)
    return True


def _copy_checking(st: State, fn, param: str, var: str):
    """fn given `param`'s flag last, checking it before the first statement naming `param`,
    which reads through it first; None where it does not, or where fn moves through it or
    lends it on (which would move the caller's variable, its flag not set)."""
    through = {id(n.value) for n in descendants(fn.body) if n._prod == "Deref"} | \
        {id(n.base) for n in descendants(fn.body) if n._prod == "Index"}
    if any(n._prod == "Local" and n.name == param and id(n) not in through or
           n._prod == "Transfer" and moved_name(n.value) == param for n in descendants(fn.body)):
        return None
    taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    flag = unused_name(f"{display_name(param)}_moved", taken)

    def checks(read):
        return tuple(_check(L["Local"](flag, span=read.span), number, message, read.span)
                     for number, message in st.stops[var])
    try:
        body = _checked(fn.body, param, checks)
    except _Unchecked:
        return None
    if body is fn.body:
        return None
    name = fresh_item(f"{fn.name}$checking_{display_name(param)}",
                      {c.name for c in st.copies.values()} | set(st.fns))
    # Nodes of its own: the passes after this one note what they find of a node by its id().
    return fresh_copy(fn.replace(name=name, params=fn.params + (L["Param"](flag, L["Scalar"](
        "i32", span=fn.span), span=fn.span),), body=body))


class _Unchecked(Exception):
    """A statement naming the parameter that neither reads through it first nor is a loop or
    an `if` whose blocks do so, past a condition not naming it."""


def _checked(block, param: str, checks):
    """The block with the checks before each statement that may be the first to read
    through `param` (the first naming it, which reads through it first, and so in the blocks
    of a loop or an `if` naming it, the statements after one running only where the blocks
    did not: a loop may run no turn); the block itself where nothing names it."""
    stmts = []
    for at, s in enumerate(block.stmts):
        if not names(s, param):
            stmts.append(s)
            continue
        read = _first_read(block.replace(stmts=block.stmts[at:]), param)
        if read is not None:
            return block.replace(stmts=(*stmts, *checks(read), *block.stmts[at:]))
        heads = {"For": ("start", "end"), "While": ("cond",), "If": ("cond",)}.get(s._prod)
        if heads is None or any(names(getattr(s, h), param) for h in heads):
            raise _Unchecked
        arms = ("then", "orelse") if s._prod == "If" else ("body",)
        stmts.append(s.replace(**{arm: _checked(getattr(s, arm), param, checks)
                                  for arm in arms if getattr(s, arm) is not None}))
    if block.value is not None and names(block.value, param):
        read = _first_read(block.replace(stmts=()), param)
        if read is None:
            raise _Unchecked
        return block.replace(stmts=(*stmts, *checks(read)))
    unchanged = all(a is b for a, b in zip(stmts, block.stmts))
    return block if unchanged else block.replace(stmts=tuple(stmts))


@track_moved_captures.on("Call")
def _call(run, call):
    """A call of a callee reading through the reference it is lent late: of its copy, given
    the flag."""
    st = run.state
    redirect = st.redirected.get(id(call))
    call = run.rebuild(call)
    if redirect is None:
        return call
    copy, var = redirect
    return call.replace(callee=call.callee.replace(name=copy),
                        args=call.args + (_flag(st, var, call.span),))


def _first_read(body, name: str):
    """The element (or `*name`) read, or assigned (the assignment where the stop is), through
    `name` that a function's body computes first, if it is (a variable's assignment computes
    its value first)."""
    first = body.stmts[0] if body.stmts else None
    if first is not None and first._prod == "Assign" and first.target._prod != "Local":
        return first if first.op == "=" and _element_of(first.target, name) else None
    node = body.value if first is None else getattr(first, _FIRST.get(first._prod, ""), None)
    while node is not None:
        base = node
        while base._prod == "Index":
            base = base.base
        base = base.value if base._prod == "Deref" else base
        if node._prod in ("Index", "Deref") and base._prod == "Local" and base.name == name:
            return node
        if node._prod not in IN_ORDER:
            return None
        node = next((c for c in child_nodes(node) if c._prod not in LEAVES), None)
    return None


def _element_of(place, name: str) -> bool:
    """Whether place is an element through `name` at indices computing nothing (`x[0]`): the
    interpreter's assignment to it stops first, where the assignment is, when what `name`
    names has moved."""
    if place._prod != "Index":
        return False
    while place._prod == "Index":
        if place.index._prod not in LEAVES:
            return False
        place = place.base
    return place._prod == "Local" and place.name == name


def _events(st: State, e) -> list:
    """The reads of flagged variables, and references to them, computing e makes."""
    events: list = []
    collect(st.flags, st.found.lent, st.sites, e, events, quiet=st.quiet,
                through=st.through)
    return [ev for ev in events if ev[0] in ("read", "lent")]
