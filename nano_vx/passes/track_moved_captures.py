"""track-moved-captures: Lsafe -> Lsafe.

Same IL: a moved-flag is an ordinary `i32` local the `transfer`s assign, and a read after a
move is an `if` around a `Halt`, all productions Lsafe has; the interpreter runs the output
as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import display_name, unused_name
from ..languages.lsafe import Lsafe as L
from ..nanopass import Pass, descendants
from ..nanopass.verify import child_nodes
from ..scalars import refuse
from ..scalars.closures import bound_in, captures, moves_around

_EXPRS = frozenset(p.name for p in L.nonterminals["Expr"].productions)
# What computing does nothing a check before the statement could come too early for: a
# closure is made, its body runs when it is called (a block of its own).
_LEAVES = frozenset("Local Int Float Bool Str Global Closure".split())
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
    launched: dict = field(default_factory=dict)  # kernel -> the indices of the parameters
    # it moves, itself or through the kernels it launches
    flagged: dict = field(default_factory=dict)  # function -> the variables given a flag
    lent: dict = field(default_factory=dict)  # kernel -> its parameters whose flag is the
    # launcher's, lent `&mut` -> their indices, in order
    numbers: dict = field(default_factory=dict)  # id() of each transfer of a flagged variable
    # -> its number, within the flag of the function that binds the variable
    origin: dict = field(default_factory=dict)  # (kernel, parameter) lent a flag -> the
    # (launcher, variable) whose flag it is
    reached: dict = field(default_factory=dict)  # (function, variable) -> the transfers its
    # flag numbers (the function's own, then those of the kernels it lends the flag, in
    # order), and a lent flag those of the flag it is
    ref: set = field(default_factory=set)  # the flags of the function walked that are
    # references to its launcher's
    taken: set = field(default_factory=set)  # the names of the function walked


track_moved_captures = Pass("track-moved-captures", L, L, """
Give each variable a closure moves (a `transfer` of one it captures), or reads when a
`transfer` moves it, a moved-flag, set by each `transfer` of it and checked by each read, so
that native code stops where the interpreter stops on a read of it after it moved (E9004;
E5010 for a read it cannot check).

The checker refuses a use after a move it sees (E4001), but not the move of a closure called
twice, or in a loop, nor a closure's read after a move: the interpreter's frame then holds the
moved mark the move left, and the read stops. `let t = ..;` (a parameter, a loop variable) is followed by
`let mut t_moved: i32 = 0;`; the n-th `transfer(t, ..)` of the function, in source order, is
preceded by `t_moved = n;`, a plain assignment `t = ..;` followed by `t_moved = 0;` (t holds
a value again), and a statement reading t (a block's value alike) by a check of each n,
`if t_moved == n { halt E9004 }`, with the message naming where that transfer moved t. So the
check runs where the read does only when the read is the first thing its statement computes
(names and literals, other such reads, before it): in a `let`, an expression statement, a
`return` or a block's value, each operand computed whole before the read (a call's argument,
an operator's left, a tuple's element) is held by a `let` of its own before the statement
(`let operand = u[0];`), in order; a read after a reference or literals alone computed first
(held, one would be a reference local, the other typed without its context), after what an
assignment or a condition computes, on the right of `&&` or `||`, or in a loop's condition,
is refused (E5010), and so is a reference to t (the interpreter stops where the reference is read, which
may be in another function; erase-tensor-references, after this pass, makes a tensor's one
the tensor itself); the default action then runs the program in the interpreter. lift-closures then
passes the flag by reference to a closure that moves t, and by value to one that reads it.

A launch moves the variable it gives a kernel that moves its parameter (itself, or through
the kernels it launches), as the spawn's body did in the launching frame, where native code's
kernel moves its own copy; so a variable so moved that a closure of the launcher reads (after
the launch: a read the checker does not see) is flagged. A kernel given a flagged variable is
lent the launcher's flag: a `&mut i32` parameter after the others, given `&mut t_moved` (or,
by a kernel lent it, the reference itself), which the kernel's `transfer`s of its parameter
set (numbered after the launcher's own, in the order of the launches) and its reads check:
the launch gives the variable moved or not, as the interpreter's does, whose kernel stops
where it reads a moved one.
""", state=State)


@track_moved_captures.on("Program")
def _program(run, program):
    st = run.state
    fns = {i.name: i for i in program.items if i._prod == "Fn"}
    st.launched = _moved_by_kernels(list(fns.values()))
    launches = {name: [n for n in descendants(fn.body) if n._prod == "Launch"]
                for name, fn in fns.items()}
    st.flagged = {name: _moved_captures(fn, launches[name], st.launched)
                  for name, fn in fns.items()}
    _lend(st, fns, launches)
    st.reached = {(name, var): _reached(st, fns, launches, name, var)
                  for name in fns for var in st.flagged[name]}
    for (name, var), reached in st.reached.items():
        if var not in st.lent.get(name, ()):
            st.numbers.update((id(n), number) for number, n in enumerate(reached, 1))
    st.reached = {key: st.reached[_root(st, key)] for key in st.reached}
    return run.rebuild(program)


def _moved_by_kernels(fns) -> dict:
    """Each function -> the indices of the parameters it moves (a `transfer` of one, in its
    body or a closure of it), or gives to a kernel moving them: a launch moves the variable
    it gives, as the spawn's body, run in the launching frame, did."""
    moved = {}
    for fn in fns:
        transferred = {n.value.name for n in descendants(fn.body)
                       if n._prod == "Transfer" and n.value._prod == "Local"}
        moved[fn.name] = {i for i, p in enumerate(fn.params) if p.name in transferred}
    launches = {fn.name: [n for n in descendants(fn.body) if n._prod == "Launch"] for fn in fns}
    params = {fn.name: {p.name: i for i, p in enumerate(fn.params)} for fn in fns}
    while True:
        more = {name: {params[name][launch.args[i].name] for launch in launches[name]
                       for i in moved.get(launch.kernel, ()) if i < len(launch.args)
                       and launch.args[i]._prod == "Local"
                       and launch.args[i].name in params[name]} - moved[name]
                for name in moved}
        if not any(more.values()):
            return moved
        for name, indices in more.items():
            moved[name] |= indices


def _given(fns: dict, launch):
    """(index, the launcher's variable, the kernel's parameter) of each variable given."""
    params = fns[launch.kernel].params
    return [(i, arg.name, params[i].name) for i, arg in enumerate(launch.args)
            if arg._prod == "Local" and i < len(params)]


def _lend(st: State, fns: dict, launches: dict) -> None:
    """Lend a kernel given a flagged variable the launcher's flag: the interpreter's launch
    gives the variable, moved or not, and its kernel's move of it moves the launcher's, so a
    read the launcher's flag checks (a closure's) stops after it, where native code's kernel
    has a copy of the variable, which says neither."""
    lent: dict = {}
    grew = True
    while grew:
        grew = False
        for name in fns:
            for launch in launches[name]:
                for _, var, param in _given(fns, launch):
                    if var in st.flagged[name] and param not in lent.get(launch.kernel, ()):
                        lent.setdefault(launch.kernel, set()).add(param)
                        st.origin[(launch.kernel, param)] = (name, var)
                        st.flagged[launch.kernel].add(param)
                        grew = True
    st.lent = {kernel: {p.name: i for i, p in enumerate(fns[kernel].params) if p.name in params}
               for kernel, params in lent.items()}


def _root(st: State, key: tuple) -> tuple:
    """The function and the variable whose flag the flag of `key` is, lent."""
    while key in st.origin:
        key = st.origin[key]
    return key


def _reached(st: State, fns: dict, launches: dict, name: str, var: str) -> list:
    """The transfers the flag of `var` in function `name` numbers: its own (in source order),
    then those of each kernel it lends the flag, in the order of their launches."""
    reached = [n for n in descendants(fns[name].body)
               if n._prod == "Transfer" and n.value._prod == "Local" and n.value.name == var]
    for launch in launches[name]:
        for _, given, param in _given(fns, launch):
            if given == var and param in st.lent.get(launch.kernel, ()):
                reached += _reached(st, fns, launches, launch.kernel, param)
    return reached


@track_moved_captures.on("Fn")
def _fn(run, fn):
    st = run.state
    moved = st.flagged.get(fn.name)
    if not moved:
        return fn
    taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    st.fn = fn.name
    st.flags = {name: unused_name(f"{display_name(name)}_moved", taken) for name in moved}
    st.taken = taken | set(st.flags.values())
    st.ref = set(st.lent.get(fn.name, ()))
    st.sites = {id(n): st.numbers[id(n)] for n in descendants(fn.body)
                if n._prod == "Transfer" and n.value._prod == "Local" and n.value.name in moved}
    st.stops = {name: [(st.numbers[id(n)], f"use of '{display_name(n.value.name)}' after it "
                        f"moved to Memory::{n.dest.name} at {n.span}")
                       for n in st.reached[(fn.name, name)]] for name in moved}
    body = run.walk(fn.body)
    lent = tuple(L["Param"](st.flags[p], L["BorrowType"](L["Scalar"]("i32", span=fn.span),
                                                            True, span=fn.span), span=fn.span)
                 for p in st.lent.get(fn.name, ()))
    return fn.replace(params=fn.params + lent,
                      body=_flagged_first(st, [p.name for p in fn.params], body))


@track_moved_captures.on("Launch")
def _launch(run, launch):
    """A launch lending its kernel flags: the launcher's, or the reference it was lent."""
    st, span = run.state, launch.span
    launch = run.rebuild(launch)
    lent = []
    for i in st.lent.get(launch.kernel, {}).values():
        flag = L["Local"](st.flags[launch.args[i].name], span=span)
        lent.append(flag if launch.args[i].name in st.ref else L["Borrow"](flag, True, span=span))
    return launch.replace(args=launch.args + tuple(lent)) if lent else launch


def _moved_captures(fn, launches, launched) -> set:
    """The variables a closure of fn moves but does not bind, and those fn moves (itself, or
    a kernel it launches) that a closure reads: the checker does not see a closure's read
    after the move."""
    closures = [c for c in descendants(fn.body) if c._prod == "Closure"]
    read = {name for c in closures for name in captures(c)}
    by_kernels = {launch.args[i].name for launch in launches
                  for i in launched.get(launch.kernel, ()) if i < len(launch.args)
                  and launch.args[i]._prod == "Local"}
    return {n.value.name for c in closures for n in moves_around(c)} | \
        {n.value.name for n in descendants(fn.body) if n._prod == "Transfer"
         and n.value._prod == "Local" and n.value.name in read} | (by_kernels & read)


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
        for s in _operands_first(st, s):
            stmts += _statement(run, s)
    value = block.value
    if value is not None:
        held, value = _hoisted(st, value)
        for s in held:
            stmts += _statement(run, s)
        stmts += _before(run, block, [value])
        value = run.walk(value)
    return block.replace(stmts=tuple(stmts), value=value)


def _statement(run, s) -> list:
    """s, walked, with the checks and flag settings before and after it."""
    st = run.state
    stmts = _before(run, s, [getattr(s, f) for f in _COMPUTES.get(s._prod, ())])
    if s._prod == "While" and _events(st, s.cond):
        refuse(run.ctx.diagnostics, st.fn, s.cond,
               "a use, in a loop's condition, of a variable a closure may move")
    s = run.walk(s)
    if s._prod == "For" and s.var in st.flags:
        s = s.replace(body=_flagged_first(st, [s.var], s.body))
    stmts.append(s)
    if s._prod == "Let" and s.name in st.flags:
        stmts.append(_flag_let(st, s.name, s.span))
    elif s._prod == "Assign" and s.op == "=" and s.target._prod == "Local" and \
            s.target.name in st.flags:
        stmts.append(_set(st, s.target.name, 0, s.span))
    return stmts


# The statements computing one expression, and its field: a read of a flagged variable in it
# after an operand computed first is made the first thing it computes by giving that operand
# a `let` before it.
_ONE_VALUE = {"Let": "value", "ExprStmt": "expr", "Return": "value"}


def _operands_first(st: State, s) -> list:
    """s, after a `let` of each operand it computes before a read of a flagged variable."""
    field = _ONE_VALUE.get(s._prod)
    if field is None or getattr(s, field) is None:
        return [s]
    held, value = _hoisted(st, getattr(s, field))
    return held + [s.replace(**{field: value})] if held else [s]


def _hoisted(st: State, e) -> tuple[list, object]:
    """The `let`s of the operands e computes before a read of a flagged variable its check
    would come too early for, and e reading their locals instead: the operands computed
    first, each whole, in order, then the read, which is the first thing e computes after
    them. A read on one path of a choice, or after an operand that is a reference or an
    operand computed by a node whose order is not its fields', stays (refused)."""
    held = []
    while True:
        events: list = []
        _collect(st, e, events, False)
        first_op = next((i for i, ev in enumerate(events) if ev[0] == "op"), len(events))
        late = next((ev for i, ev in enumerate(events) if ev[0] == "read" and i > first_op
                     and not ev[3] and not _checked_before(events[:i], ev[1])), None)
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


# The productions that compute their operands in the order of their fields, each whole.
_IN_ORDER = frozenset("Call MethodCall Index Binary Transfer Cast Unary Deref Tuple ArrayLit "
                      "VecLit TensorLit".split())


def _operands_held(st: State, path: list, lets: list):
    """path[0] with each operand computed before path[1] held in a `let` appended to lets,
    and path[1] rebuilt likewise; None where that would change what runs."""
    node = path[0]
    if len(path) == 1:
        return node
    if node._prod not in _IN_ORDER or node._prod == "Binary" and node.op in ("&&", "||"):
        return None
    on_path = path[1]
    before = []
    for c in child_nodes(node):
        if c is on_path:
            break
        before.append(c)
    # A reference held would be a reference local; literals alone take their type from
    # where they are, which a `let` of their own would not know.
    if any(c._prod == "Borrow" or node._prod == "Call" and c is node.callee and
           c._prod not in _LEAVES or c._prod not in _LEAVES and
           not any(n._prod in ("Local", "Global") for n in descendants(c)) for c in before):
        return None
    swap = {}
    for c in before:
        if c._prod not in _LEAVES:
            name = unused_name("operand", st.taken)
            st.taken.add(name)
            lets.append(L["Let"](name, False, L["OpaqueType"](span=c.span), c, span=c.span))
            swap[id(c)] = L["Local"](name, span=c.span)
    below = _operands_held(st, path[1:], lets)
    if below is None:
        return None
    swap[id(on_path)] = below
    return _with_children(node, swap)


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


def _before(run, at, exprs) -> list:
    """The checks and flag settings a statement (or a block's value) computing `exprs`
    needs before it; E5010 for a read they would check too early."""
    st = run.state
    events = []
    for e in exprs:
        if e is None:
            continue
        if at._prod == "Assign" and e is at.target and e._prod == "Local" and at.op == "=":
            continue  # written, not read
        _collect(st, e, events, False)
    lent = [e for e in events if e[0] == "lent"]
    if lent:
        refuse(run.ctx.diagnostics, st.fn, lent[0][2],
               f"a reference to '{display_name(lent[0][1])}', which a closure may move")
        return []
    reads = [e for e in events if e[0] == "read"]
    if not reads:
        return []
    first_op = next((i for i, e in enumerate(events) if e[0] == "op"), len(events))
    late = [e for i, e in enumerate(events) if e[0] == "read" and i > first_op and
            not _checked_before(events[:i], e[1])]
    late += [e for e in reads if e[3]]
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
        for number, message in st.stops[name]:
            flag = _flag(st, name, node.span)
            cond = L["Binary"]("==", flag, L["Int"](number, span=node.span), span=node.span)
            halt = L["Block"]((L["Halt"]("E9004", message, span=node.span),), None,
                              span=node.span)
            out.append(L["If"](cond, False, halt, None, span=node.span))
    out += [_set(st, name, st.sites[id(node)], node.span) for _, name, node, _ in moves]
    return out


def _checked_before(events, name) -> bool:
    """Whether the check of an earlier read of `name` holds for a read after `events`: no
    call (of a closure that may move it) came between."""
    reads = [i for i, e in enumerate(events) if e[0] == "read" and e[1] == name]
    return bool(reads) and not any(e[0] == "op" and e[2]._prod in ("Call", "Launch")
                                   for e in events[reads[0]:])


def _collect(st: State, e, events: list, conditional: bool) -> None:
    """The events of computing e, in order: ("read", variable, node, conditional) of a
    flagged variable, ("lent", ...) of a reference to one (the interpreter reads it only
    where the reference is read), ("move", variable, transfer, conditional) of one, ("op",
    ...) of any other computation."""
    prod = e._prod
    if prod == "Local":
        if e.name in st.flags:
            events.append(("read", e.name, e, conditional))
        return
    if prod == "Borrow" and e.value._prod == "Local" and e.value.name in st.flags:
        events.append(("lent", e.value.name, e, conditional))
        return
    if prod in _LEAVES or prod not in _EXPRS:
        return
    if prod == "Launch":  # a variable given is read by the kernel, which checks the flag lent
        lent = st.lent.get(e.kernel, {}).values()
        for i, c in enumerate(e.args):
            if i not in lent:
                _collect(st, c, events, conditional)
    elif prod == "IfExpr":
        _collect(st, e.cond, events, conditional)
    elif prod == "Binary" and e.op in ("&&", "||"):
        _collect(st, e.left, events, conditional)
        _collect(st, e.right, events, True)
    else:
        for c in child_nodes(e):
            _collect(st, c, events, conditional)
    if id(e) in st.sites:
        events.append(("move", e.value.name, e, conditional))
    events.append(("op", None, e, conditional))


def _events(st: State, e) -> list:
    """The reads of flagged variables, and references to them, computing e makes."""
    events: list = []
    _collect(st, e, events, False)
    return [ev for ev in events if ev[0] in ("read", "lent")]
