"""Which variables native code gives a moved-flag, and what computing an expression does to
them, in order: what track-moved-captures checks before a statement, and what
hold-operands-before-moved-reads holds in `let`s first, so that the check comes where the read
is."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lsafe import Lsafe as L
from ..nanopass import descendants
from ..nanopass.verify import child_nodes
from .closures import bound_in, captures, moves_around

_EXPRS = frozenset(p.name for p in L.nonterminals["Expr"].productions)
# What computing does nothing a check before the statement could come too early for: a
# closure is made, its body runs when it is called (a block of its own).
LEAVES = frozenset("Local Int Float Bool Str Global Closure".split())
# The productions that compute their operands in the order of their fields, each whole.
IN_ORDER = frozenset("Call MethodCall Index Binary Transfer Cast Unary Deref Tuple ArrayLit "
                     "VecLit TensorLit".split())


@dataclass
class Flags:
    launched: dict  # function -> the indices of the parameters it moves, itself or through
    # the kernels it launches
    flagged: dict  # function -> the variables given a flag
    lent: dict  # kernel -> its parameters whose flag is the launcher's, lent `&mut` -> their
    # indices, in order
    origin: dict  # (kernel, parameter) lent a flag -> the (launcher, variable) whose flag it is
    kernels: frozenset  # the functions launches run


def flagged_variables(program) -> Flags:
    """The variables of each function a closure moves, or reads when it (or a kernel it
    launches) moves them, and the kernels given one, which are lent the launcher's flag."""
    fns = {i.name: i for i in program.items if i._prod == "Fn"}
    launches = {name: [n for n in descendants(fn.body) if n._prod == "Launch"]
                for name, fn in fns.items()}
    kernels = frozenset(launch.kernel for named in launches.values() for launch in named)
    launched = _moved_by_kernels(fns, launches, kernels)
    flags = Flags(launched, {name: _moved_captures(fn, launches[name], launched,
                                                   name in kernels)
                             for name, fn in fns.items()}, {}, {}, kernels)
    _lend(flags, fns, launches)
    return flags


def moved_name(e, kernel: bool = True):
    """The variable a `transfer` of e moves: `t`, or through a reference, `*t`, in a kernel
    (the interpreter's launch moves the launcher's variable so; elsewhere it copies); else
    None."""
    if e._prod == "Deref" and kernel:
        e = e.value
    return e.name if e._prod == "Local" else None


def given_name(arg):
    """The launcher's variable a launch's argument gives its kernel: `t`, `&mut t` (which the
    kernel changes, or moves, through) or `*t` (of a reference the launcher was given)."""
    if arg._prod in ("Borrow", "Deref"):
        arg = arg.value
    return arg.name if arg._prod == "Local" else None


def _moved_by_kernels(fns: dict, launches: dict, kernels: set) -> dict:
    """Each function -> the indices of the parameters it moves (a `transfer` of one, or, a
    kernel, of the place a reference one names, in its body or a closure of it), or gives to
    a kernel moving them: a launch moves the variable it gives, as the spawn's body, run in
    the launching frame, did."""
    moved = {}
    for fn in fns.values():
        transferred = {moved_name(n.value, fn.name in kernels) for n in descendants(fn.body)
                       if n._prod == "Transfer"}
        moved[fn.name] = {i for i, p in enumerate(fn.params) if p.name in transferred}
    params = {fn.name: {p.name: i for i, p in enumerate(fn.params)} for fn in fns.values()}
    while True:
        more = {name: {params[name][given_name(launch.args[i])] for launch in launches[name]
                       for i in moved.get(launch.kernel, ()) if i < len(launch.args)
                       and given_name(launch.args[i]) in params[name]} - moved[name]
                for name in moved}
        if not any(more.values()):
            return moved
        for name, indices in more.items():
            moved[name] |= indices


def _moved_captures(fn, launches, launched, kernel: bool) -> set:
    """The variables a closure of fn moves but does not bind (or, a kernel's, the places
    references it does not bind name), and those fn moves (itself, or a kernel it launches)
    that a closure reads: the checker does not see a closure's read after the move."""
    closures = [c for c in descendants(fn.body) if c._prod == "Closure"]
    read = {name for c in closures for name in captures(c)}
    by_kernels = {given_name(launch.args[i]) for launch in launches
                  for i in launched.get(launch.kernel, ()) if i < len(launch.args)}
    around = {moved_name(n.value, kernel) for c in closures for n in descendants(c.body)
              if n._prod == "Transfer" and n.value._prod == "Deref"} - \
        {name for c in closures for name in bound_in(c)}
    return {n.value.name for c in closures for n in moves_around(c)} | \
        {moved_name(n.value, kernel) for n in descendants(fn.body) if n._prod == "Transfer"
         and moved_name(n.value, kernel) in read} | (by_kernels & read) | (around - {None})


def given(fns: dict, launch):
    """(index, the launcher's variable, the kernel's parameter) of each variable given."""
    params = fns[launch.kernel].params
    return [(i, given_name(arg), params[i].name) for i, arg in enumerate(launch.args)
            if given_name(arg) is not None and i < len(params)]


def through_references(fn, flags: Flags) -> frozenset:
    """The flagged reference parameters of fn, a kernel: `*p` and `p[i]` read the launcher's
    variable they name, `p` alone lends it."""
    flagged = flags.flagged.get(fn.name, ()) if fn.name in flags.kernels else ()
    return frozenset(p.name for p in fn.params if p.name in flagged
                     and p.type is not None and p.type._prod == "BorrowType")


def _lend(flags: Flags, fns: dict, launches: dict) -> None:
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
                for _, var, param in given(fns, launch):
                    if var in flags.flagged[name] and param not in lent.get(launch.kernel, ()):
                        lent.setdefault(launch.kernel, set()).add(param)
                        flags.origin[(launch.kernel, param)] = (name, var)
                        flags.flagged[launch.kernel].add(param)
                        grew = True
    flags.lent = {kernel: {p.name: i for i, p in enumerate(fns[kernel].params) if p.name in params}
                  for kernel, params in lent.items()}


def quiet_references(fn, flagged) -> frozenset:
    """The id() of each reference fn makes to an element that cannot stop the program: of a
    variable given a tensor type of constant extents (none of `flagged`, which may have
    moved), at literal indices within them (`&u[1]` of a `Tensor<i32, [2]>`). A check before
    the statement making it comes neither too early nor too late for it."""
    types = {n.name: n.type for n in descendants(fn) if n._prod in ("Param", "Let")}
    quiet = set()
    for n in descendants(fn.body):
        if n._prod != "Borrow":
            continue
        indices, base = [], n.value
        while base._prod == "Index":
            indices.insert(0, base.index)
            base = base.base
        t = types.get(base.name) if base._prod == "Local" and base.name not in flagged else None
        while t is not None and t._prod == "BorrowType":
            t = t.inner
        if indices and t is not None and t._prod == "TensorType" and \
                len(indices) <= len(t.dims) and all(
                    i._prod == "Int" and d._prod == "DimInt" and 0 <= i.value < d.value
                    for i, d in zip(indices, t.dims)):
            quiet.add(id(n))
    return frozenset(quiet)


def collect(flagged, lent: dict, sites, e, events: list, conditional: bool = False,
            quiet: frozenset = frozenset(), through: frozenset = frozenset()) -> None:
    """The events of computing e, in order: ("read", variable, node, conditional) of a
    `flagged` variable, ("lent", ...) of a reference to one (the interpreter reads it only
    where the reference is read), ("move", variable, transfer, conditional) of one (a
    transfer whose id() `sites` holds), ("op", ...) of any other computation but the
    references whose id() `quiet` holds, which compute nothing that can stop. Those of
    `flagged` that `through` holds are references: `*p` and `p[i]` read, `p` lends."""
    def walk(e, conditional):
        prod = e._prod
        if id(e) in quiet:
            return
        if prod == "Local":
            if e.name in flagged:
                events.append(("lent" if e.name in through else "read", e.name, e, conditional))
            return
        if prod == "Borrow" and e.value._prod == "Deref" and moved_name(e.value) in through:
            events.append(("lent", moved_name(e.value), e, conditional))
            return
        if prod == "Borrow" and e.value._prod == "Local":  # lending a variable computes nothing
            if e.value.name in flagged:
                events.append(("lent", e.value.name, e, conditional))
            return
        if prod in LEAVES or prod not in _EXPRS:
            return
        base = e.value if prod == "Deref" else e.base if prod == "Index" else None
        if base is not None and base._prod == "Local" and base.name in through:
            events.append(("read", base.name, base, conditional))
            if prod == "Index":
                walk(e.index, conditional)
        elif prod == "Launch":  # a variable given is read by the kernel, which checks the flag
            indices = lent.get(e.kernel, {}).values()
            for i, c in enumerate(e.args):
                if i not in indices:
                    walk(c, conditional)
        elif prod == "IfExpr":
            walk(e.cond, conditional)
        elif prod == "Binary" and e.op in ("&&", "||"):
            walk(e.left, conditional)
            walk(e.right, True)
        else:
            for c in child_nodes(e):
                walk(c, conditional)
        if id(e) in sites:
            events.append(("move", moved_name(e.value), e, conditional))
        events.append(("op", None, e, conditional))
    walk(e, conditional)


def late_reads(events: list) -> list:
    """The reads of `events` after a computation that is no such read: a check before the
    statement would come too early for them."""
    first_op = next((i for i, e in enumerate(events) if e[0] == "op"), len(events))
    return [e for i, e in enumerate(events) if e[0] == "read" and i > first_op and
            not _checked_before(events[:i], e[1])]


def _checked_before(events, name) -> bool:
    """Whether the check of an earlier read of `name` holds for a read after `events`: no
    call (of a closure that may move it) came between."""
    reads = [i for i, e in enumerate(events) if e[0] == "read" and e[1] == name]
    return bool(reads) and not any(e[0] == "op" and e[2]._prod in ("Call", "Launch")
                                   for e in events[reads[0]:])
